"""2. Development as pure functions over the typed :class:`~companion.mule.state.State`
(``mule-board-game.txt``, "2. Development": "Action Rounds and Actions" and "M.U.L.E.
Production in The Store"): each returns a new State and the lines the table reads, and leaves
the one given as it was.

A Colonist's Action Round is a move, a tuple of frozen :class:`Action` values read from what
the table types (:func:`parse_actions`). :func:`check_action_round` says why the rules refuse
it (None: they do not), Action by Action on the State each Action before it left;
:func:`action_round` plays it. :func:`development_begins` is the start of the Phase (The Store
fills its Corral, the order of play), :func:`next_action_round` the Rounds after the first.

Optional Rules honoured here (``companion.mule.options``):

* Single Action Round per Turn: "There is only one Action Round in Development. Maximum six
  (6) Food can be used by each Colonist's single Action Round." The rule keeps no limit on
  Actions but the Food; the project's reading: up to six Actions (the three Action Rounds'
  two each), each paid for in Food, six Food at most in all.
* More Predictability: "Draw and reveal the Production Card already in Development Phase, at
  the beginning of Action Round 3." The card is revealed by a step of its own (``reveal``,
  :mod:`companion.mule.producing`) before Round 3's first Action Round. The project's
  decisions: with Single Action Round there is no Round 3, so the card is revealed at the
  beginning of the last (the one) Action Round, before any Action; when every Colonist has
  Passed or Gambled before Round 3, no Round 3 comes and the card is drawn at Production as
  usual.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from companion.mule import board, options, rules
from companion.mule.state import GOODS, Colonist, Development, Goods, Land, State
from companion.record import NamedTuple
from components.errors import InputError, RuleError

if TYPE_CHECKING:
    from companion.mule.data import MuleData, PlayerBoard

__all__ = ["ACTIONS", "Action", "Limits", "action_round", "check_action_round",
           "development_begins", "food_cost", "limits", "next_action_round", "parse_actions",
           "round_steps", "talent"]

Lines = tuple[str, ...]
ACTIONS = "buy LAND GOOD, refit LAND GOOD [LAND GOOD], move FROM TO [GOOD], assay, wampus, pub"
_KINDS = {"pass": "pass", "buy": "buy", "refit": "refit", "move": "move", "assay": "assay",
          "wampus": "wampus", "pub": "pub", "gamble": "pub"}
SINGLE_ROUND_ACTIONS = 6    # the project's reading of Single Action Round (module docstring)


class Action(NamedTuple):
    """One Action as typed: its kind (buy, refit, move, assay, wampus, pub, pass), the words
    after it, the Goods those words name (refit: one a Land; buy and move: the last), and the
    text as typed (named in a refusal)."""

    kind: str
    words: tuple[str, ...]
    goods: tuple[str | None, ...]
    text: str


class Limits(NamedTuple):
    """Development's limits in this game: Action Rounds, Actions and Food in one of them."""

    rounds: int
    actions: int
    food: int


def limits(s: State, md: MuleData) -> Limits:
    """The rule data's limits, or Single Action Round's (one Round, six Food)."""
    d = md.development
    if options.on(s.options, "single-action-round"):
        return Limits(1, SINGLE_ROUND_ACTIONS, 6)
    return Limits(int(d["action_rounds"]), int(d["actions_per_round"]), int(d["food_per_round"]))


def _good(word: str, part: str, what: str) -> str:
    good = board.good_of(word)
    if good is None:
        raise InputError(f"'{part}': {what} (S, C, F, E)")
    return good


_SHAPES = {"buy": ((3,), "buy LAND GOOD, e.g. buy P07 F"),
           "refit": ((3, 5), "refit LAND GOOD, or refit LAND GOOD LAND GOOD for two Adjacent "
                             "Lands"),
           "move": ((3, 4), "move FROM TO [GOOD], e.g. move P07 R01 F")}


def _action(part: str) -> Action:
    words = part.split()
    kind = _KINDS.get(words[0].lower())
    if kind is None:
        raise InputError(f"'{part}': an Action is one of: {ACTIONS}; or pass")
    counts, shape = _SHAPES.get(kind, ((len(words),), ""))
    if len(words) not in counts:
        raise InputError(f"'{part}': {shape}")
    goods: tuple[str | None, ...] = ()
    if kind == "buy":
        goods = (_good(words[2], part, "a M.U.L.E. is installed to produce a Good"),)
    elif kind == "refit":
        goods = tuple(_good(words[k], part, "refit to a Good") for k in range(2, len(words), 2))
    elif kind == "move":
        goods = (_good(words[3], part, "a M.U.L.E. produces a Good") if len(words) == 4
                 else None,)
    return Action(kind, tuple(words[1:]), goods, part)


def parse_actions(text: str) -> tuple[Action, ...]:
    """An Action Round as typed (``buy P07 F, assay``; ``pass``): its Actions, each of a known
    kind and shape (InputError otherwise). A Pass is the one Action ``pass``."""
    parts = [x.strip() for x in text.replace(";", ",").split(",") if x.strip()]
    if not parts or [x.lower() for x in parts] == ["pass"]:
        return (Action("pass", (), (), "pass"),)
    return tuple(_action(p) for p in parts)


# -- who, where, what it costs -------------------------------------------------------------------

def talent(s: State, md: MuleData, who: str) -> Mapping[str, Any]:
    """``who``'s Special Talent (Optional Rule: Colonist Cards and Special Talents); none
    without the rule."""
    card = s.talent_card(who)
    return md.species(card).talent if card else MappingProxyType({})


def food_cost(s: State, md: MuleData, who: str, action: str) -> int:
    """The Food cost of ``action`` for ``who``: the rule data's, unless ``who``'s Special
    Talent changes it."""
    own = talent(s, md, who).get("action_food_cost") or {}
    return int(own[action]) if action in own else md.food_cost(action)


def _dicts(c: Colonist) -> list[board.Land]:
    """``c``'s Lands as the board helpers read them (``companion.mule.board``)."""
    return [{"land": x.land, "tile": x.tile, "square": x.square, "mule": x.mule,
             "secret": x.secret} for x in c.lands]


def _find(c: Colonist, ref: str) -> int:
    return board.find(_dicts(c), ref)


def _label(c: Colonist, i: int) -> str:
    return board.label(_dicts(c), i)


def _zone(land: Land, pb: PlayerBoard, ref: str) -> str:
    if land.square:
        return pb.zone(land.square)
    if land.land == "river":
        return pb.zone(pb.river_beds[0])
    raise RuleError(f"Land {ref} has no square on the Player Board, so its Zone (and the Food "
                    f"cost of an Action there) is not known: set it, e.g. set "
                    f"players.NAME.lands.{ref}.square B1")


def _not_producible(c: Colonist, i: int, good: str, md: MuleData) -> str | None:
    try:
        board.check_producible(_dicts(c)[i], good, md.land)
    except RuleError as exc:
        return str(exc)
    return None


def _mules_of(lands: tuple[Land, ...]) -> Goods:
    return Goods(*(sum(1 for x in lands if x.mule == g) for g in GOODS))


def _put(s: State, c: Colonist) -> State:
    return s._replace(colonists=tuple(c if x.name == c.name else x for x in s.colonists))


def _set_mule(c: Colonist, i: int, good: str | None) -> Colonist:
    lands = tuple(x._replace(mule=good) if k == i else x for k, x in enumerate(c.lands))
    return c._replace(lands=lands)


def _dev(s: State) -> Development:
    if s.dev is None:
        raise RuleError("Development: no Action Round is under way")
    return s.dev


# -- each Action: its Food cost, its check, its effect -------------------------------------------

def _cost(s: State, md: MuleData, who: str, a: Action) -> int:
    """The Food cost of Action ``a`` (by Zone where the rulebook says so). Raises RuleError
    when a Land's Zone is not known."""
    c, pb = s.colonist(who), md.player_board
    if a.kind == "buy":
        zone = _zone(c.lands[_find(c, a.words[0])], pb, a.words[0])
        return food_cost(s, md, who, "buy_white" if zone == "white" else "buy_red_blue")
    if a.kind == "refit":
        if len(a.goods) == 2:
            return food_cost(s, md, who, "refit_two_adjacent")
        zone = _zone(c.lands[_find(c, a.words[0])], pb, a.words[0])
        return food_cost(s, md, who, "refit_white" if zone == "white" else "refit_red_blue")
    return food_cost(s, md, who, {"move": "move", "assay": "assay", "wampus": "hunt_wampus",
                                  "pub": "gamble"}[a.kind])


def _check_buy(s: State, md: MuleData, who: str, a: Action, last: bool) -> str | None:
    """Buy a M.U.L.E. (Smithore's Sell Price) from the Corral, installed on an empty Land."""
    c = s.colonist(who)
    i = _find(c, a.words[0])
    price = md.track("smithore").sell_for(s.prices.smithore)
    if c.lands[i].mule:
        return (f"{a.words[0].upper()} already has a M.U.L.E. (one per Land): refit it, or "
                "move it to an empty Land first")
    if c.money < price:
        return f"a M.U.L.E. costs ${price} (Smithore's Sell Price): {who} has ${c.money}"
    if s.store.mules < 1:
        return "The Store's Corral holds no M.U.L.E. to sell"
    return _not_producible(c, i, str(a.goods[0]), md)


def _buy(s: State, md: MuleData, who: str, a: Action) -> tuple[State, Lines]:
    c, good = s.colonist(who), str(a.goods[0])
    i = _find(c, a.words[0])
    zone = _zone(c.lands[i], md.player_board, a.words[0])
    price = md.track("smithore").sell_for(s.prices.smithore)
    made = rules.store_mule_production(s.store.mules, s.store.stock("smithore"), 1,
                                       pens=md.pens, mules_per_pen=md.mules_per_pen)
    c = _set_mule(c._replace(money=c.money - price), i, good)
    store = s.store._replace(mules=made.mules, smithore=made.smithore)
    return _put(s._replace(store=store), c), (
        f"{who} buys a M.U.L.E. for ${price}, installed on {_label(c, i)} ({zone} Zone) "
        f"producing {good}",)


def _check_refit(s: State, md: MuleData, who: str, a: Action, last: bool) -> str | None:
    """Refit a M.U.L.E., or the M.U.L.E.s on Two Adjacent Lands."""
    c = s.colonist(who)
    refs = a.words[0::2]
    js = [_find(c, ref) for ref in refs]
    for ref, j in zip(refs, js, strict=True):
        if not c.lands[j].mule:
            return f"{ref.upper()} has no M.U.L.E. to refit (buy one first)"
    if len(js) == 2:
        one, two = (c.lands[j].square for j in js)
        if js[0] == js[1] or not one or not two or not md.player_board.adjacent(one, two):
            return (f"Refit M.U.L.E.s on Two Adjacent Lands: {refs[0].upper()} and "
                    f"{refs[1].upper()} are not Adjacent squares of the Player Board")
    for j, good in zip(js, a.goods, strict=True):
        why = _not_producible(c, j, str(good), md)
        if why:
            return why
    return None


def _refit(s: State, md: MuleData, who: str, a: Action) -> tuple[State, Lines]:
    c = s.colonist(who)
    lines = []
    for ref, good in zip(a.words[0::2], a.goods, strict=True):
        j = _find(c, ref)
        c = _set_mule(c, j, good)
        lines.append(f"{who} refits the M.U.L.E. on {_label(c, j)} to produce {good}")
    return _put(s, c), tuple(lines)


def _check_move(s: State, md: MuleData, who: str, a: Action, last: bool) -> str | None:
    """Move a M.U.L.E. to Any Other Land (an empty one), producing its Good or another."""
    c = s.colonist(who)
    one, two = _find(c, a.words[0]), _find(c, a.words[1])
    if not c.lands[one].mule:
        return f"{a.words[0].upper()} has no M.U.L.E. to move"
    if c.lands[two].mule:
        return f"{a.words[1].upper()} already has a M.U.L.E. (one per Land)"
    return _not_producible(c, two, str(a.goods[0] or c.lands[one].mule), md)


def _move(s: State, md: MuleData, who: str, a: Action) -> tuple[State, Lines]:
    c = s.colonist(who)
    one, two = _find(c, a.words[0]), _find(c, a.words[1])
    good = a.goods[0] or c.lands[one].mule
    c = _set_mule(_set_mule(c, one, None), two, good)
    return _put(s, c), (f"{who} moves the M.U.L.E. from {_label(c, one)} to "
                        f"{_label(c, two)}, producing {good}",)


def _no_check(s: State, md: MuleData, who: str, a: Action, last: bool) -> str | None:
    return None


def _assay(s: State, md: MuleData, who: str, a: Action) -> tuple[State, Lines]:
    return s, (f"{who} assays two Lands",)


def _check_wampus(s: State, md: MuleData, who: str, a: Action, last: bool) -> str | None:
    """Hunt the Wampus: once caught, not again this Turn. With the companion's Lucky Event
    deck the card is drawn by the companion; otherwise the table says yes or no."""
    if s.event_decks and a.words:
        raise InputError("wampus: the companion draws the Lucky Event card itself (write just "
                         "'wampus')")
    if not s.event_decks and " ".join(a.words).lower() not in ("yes", "no", "caught", "missed"):
        raise InputError("wampus: say whether the Wampus was caught: 'wampus yes' or "
                         "'wampus no'")
    if who in _dev(s).caught:
        return f"{who} caught the Wampus this Turn: he cannot be hunted again"
    return None


def _draw_for_wampus(s: State, md: MuleData, who: str) -> tuple[State, bool, Lines]:
    """Hunt the Wampus with the companion's deck: a Lucky Event card drawn (the Wampus in its
    corner: caught) and discarded; a Special Talent may draw more than one."""
    from companion.mule import phases

    lines: list[str] = []
    for _ in range(max(1, int(talent(s, md, who).get("wampus_draws", 1)))):
        s, card_id, reshuffled = phases.draw_event(s, "lucky")
        s = phases.discard_event(s, "lucky", card_id)
        card = md.event(card_id)
        if reshuffled:
            lines.append("  (the Lucky Event discard pile is shuffled into a new deck)")
        lines.append(f"{who} draws {card.title}: " + (
            f"the Wampus! +${md.development.get('wampus', 10)}" if card.wampus else "no Wampus"))
        if card.wampus:
            return s, True, tuple(lines)
    return s, False, tuple(lines)


def _wampus(s: State, md: MuleData, who: str, a: Action) -> tuple[State, Lines]:
    prize = int(md.development.get("wampus", 10))
    if s.event_decks:
        s, caught, lines = _draw_for_wampus(s, md, who)
    else:
        caught = " ".join(a.words).lower() in ("yes", "caught")
        lines = (f"{who} hunts the Wampus: " + (f"caught! +${prize}" if caught
                                                else "he got away"),)
    if caught:
        dev = _dev(s)
        c = s.colonist(who)
        s = _put(s._replace(dev=dev._replace(caught=(*dev.caught, who))),
                 c._replace(money=c.money + prize))
    return s, lines


def _check_pub(s: State, md: MuleData, who: str, a: Action, last: bool) -> str | None:
    """Gamble at the Pub: the Colonist's last Action, ending the Development Phase."""
    if not last:
        return "Gamble at the Pub is the Colonist's last Action: it ends the Development Phase"
    return None


def _pub(s: State, md: MuleData, who: str, a: Action) -> tuple[State, Lines]:
    pub = int(talent(s, md, who).get("pub", md.development.get("pub", 5)))
    c, dev = s.colonist(who), _dev(s)
    s = _put(s._replace(dev=dev._replace(done=(*dev.done, who))),
             c._replace(money=c.money + pub))
    return s, (f"{who} gambles at the Pub: +${pub}, Development over for {who}",)


def _check_pass(s: State, md: MuleData, who: str, a: Action, last: bool) -> str | None:
    """A Pass among other Actions (a Pass alone is :func:`_passes`)."""
    return "Development: Pass is an Action Round of its own (no other Action)"


def _unreached(s: State, md: MuleData, who: str, a: Action) -> tuple[State, Lines]:
    raise AssertionError("a Pass among other Actions is refused by its check")


Check = Callable[[State, "MuleData", str, Action, bool], "str | None"]
Effect = Callable[[State, "MuleData", str, Action], tuple[State, Lines]]
_RULES: dict[str, tuple[Check, Effect]] = {
    "pass": (_check_pass, _unreached), "buy": (_check_buy, _buy),
    "refit": (_check_refit, _refit), "move": (_check_move, _move),
    "assay": (_no_check, _assay), "wampus": (_check_wampus, _wampus), "pub": (_check_pub, _pub)}


# -- the Action Round ----------------------------------------------------------------------------

def _round_refused(s: State, md: MuleData, who: str, actions: tuple[Action, ...]) -> str | None:
    """What the rules say of the Action Round as a whole, before any Action."""
    if who in _dev(s).done:
        return f"Development: {who} has Passed or Gambled at the Pub this Turn"
    if s.colonist(who).stock("food") < 1:       # even an Action a Special Talent makes free
        return f"Development: Players without Food must Pass ({who} has 0 Food)"
    most = limits(s, md).actions
    if len(actions) > most:
        rule = "the single Action Round" if options.on(s.options, "single-action-round") \
            else "one Action Round"
        return f"Development: up to {most} Actions in {rule}, not {len(actions)}"
    return None


def _walk(s: State, md: MuleData, who: str, actions: tuple[Action, ...]
          ) -> tuple[State, Lines, str | None]:
    """The Action Round played Action by Action: the State after it, its lines, and the first
    refusal (then the State is the one given)."""
    start = s
    why = _round_refused(s, md, who, actions)
    if why:
        return start, (), why
    most = limits(s, md).food
    food, lines = 0, list[str]()
    for i, a in enumerate(actions):
        check, effect = _RULES[a.kind]
        try:
            why = check(s, md, who, a, i == len(actions) - 1)
            cost = 0 if why else _cost(s, md, who, a)
        except RuleError as exc:
            why = str(exc)
        if why:
            return start, (), why
        food += cost
        left = s.colonist(who).stock("food")
        if food > most:
            return start, (), (f"Development: no more than {most} Food in one Action Round "
                               f"({who}'s Actions cost {food})")
        if cost > left:
            return start, (), (f"Development: {who} has {left} Food left, '{a.text}' costs "
                               f"{cost} (Players without Food must Pass)")
        s, said = effect(s, md, who, a)
        s = _pay_food(s, who, cost)
        lines += said
    c = s.colonist(who)
    s = _put(s, c._replace(mules=_mules_of(c.lands)))
    lines.append(f"{who}: {food} Food into the Food Usage box; ${c.money}, Food "
                 f"{c.stock('food')}")
    return s, tuple(lines), None


def _pay_food(s: State, who: str, cost: int) -> State:
    c, dev = s.colonist(who), _dev(s)
    used = {**dev.food_used, who: int(dev.food_used.get(who, 0)) + cost}
    s = s._replace(dev=dev._replace(food_used=MappingProxyType(used)))
    return _put(s, c._replace(stocks=c.stocks._replace(food=c.stock("food") - cost)))


def _passes(s: State, who: str) -> tuple[State, Lines]:
    dev = _dev(s)
    return s._replace(dev=dev._replace(done=(*dev.done, who))), (
        f"{who} passes: Development over for {who}",)


def check_action_round(s: State, md: MuleData, who: str, actions: tuple[Action, ...]
                       ) -> str | None:
    """Why the rules refuse ``who``'s Action Round ``actions`` (None: they do not): the Food
    cost of each Action by Zone, at most the Food and Actions of one Action Round
    (:func:`limits`), a M.U.L.E. only for the Money and from the Corral, installed on an empty
    Land of the Colonist (one per Land), the Wampus caught once a Turn, the Pub the last
    Action. Raises InputError for a Land the Colonist does not own."""
    if actions and actions[0].kind == "pass" and len(actions) == 1:
        return None
    return _walk(s, md, who, actions)[2]


def action_round(s: State, md: MuleData, who: str, actions: tuple[Action, ...]
                 ) -> tuple[State, Lines]:
    """``who``'s Action Round played: each Action's Food into the Food Usage box, its effect
    on the Colonist, The Store and the decks (The Store makes M.U.L.E.s from its Smithore to
    refill its Corral). Raises RuleError with :func:`check_action_round`'s reason."""
    if actions and actions[0].kind == "pass" and len(actions) == 1:
        return _passes(s, who)
    after, lines, why = _walk(s, md, who, actions)
    if why:
        raise RuleError(why)
    return after, lines


# -- the Phase: its beginning and its Action Rounds ----------------------------------------------

def development_begins(s: State, md: MuleData) -> tuple[State, Lines]:
    """M.U.L.E. Production in The Store before any Action, then the order of play: Rank 1
    first, reversed when the Corral holds 6 or fewer M.U.L.E.s; Action Round 1."""
    made = rules.store_mule_production(s.store.mules, s.store.stock("smithore"), pens=md.pens,
                                       mules_per_pen=md.mules_per_pen)
    lines = (f"The Store makes {made.made} M.U.L.E.(s) from Smithore",) if made.made else ()
    limit = int(md.data.get("corral", {}).get("reverse_order_at", 6))
    order = s.ranking if made.mules > limit else tuple(reversed(s.ranking))
    dev = Development(order, 1, (), (), MappingProxyType(dict.fromkeys(order, 0)))
    return s._replace(store=s.store._replace(mules=made.mules, smithore=made.smithore),
                      dev=dev), lines


def next_action_round(s: State, md: MuleData) -> State | None:
    """The next Action Round, for those who have not Passed or Gambled; None when the Phase is
    over (every Colonist done, or the last Round taken)."""
    dev = _dev(s)
    if dev.round >= limits(s, md).rounds or all(n in dev.done for n in dev.order):
        return None
    return s._replace(dev=dev._replace(round=dev.round + 1))


def round_steps(s: State, md: MuleData) -> tuple[tuple[str, str | None], ...]:
    """The steps of the Action Round under way: each Colonist's who has not Passed or Gambled,
    in the order of play; under More Predictability the last Round (Round 3; the one Round
    with Single Action Round) begins with the Production Card revealed, unless it is."""
    dev = _dev(s)
    steps: tuple[tuple[str, str | None], ...] = tuple(
        ("develop", n) for n in dev.order if n not in dev.done)
    if options.on(s.options, "more-predictability") and dev.round == limits(s, md).rounds \
            and s.card is None:
        steps = (("reveal", None), *steps)
    return steps


def status_lines(s: State, md: MuleData) -> Lines:
    """What ``status`` says of the Optional Rules kept here: Single Action Round's limits, when
    More Predictability reveals the Production Card, and the card revealed this Turn."""
    lines: list[str] = []
    most = limits(s, md)
    if options.on(s.options, "single-action-round"):
        lines.append(f"Single Action Round per Turn: one Action Round in Development, up to "
                     f"{most.food} Food (and {most.actions} Actions) in it")
    if options.on(s.options, "more-predictability"):
        when = "the beginning of the single Action Round" if most.rounds == 1 else \
            f"the beginning of Action Round {most.rounds}"
        lines.append(f"More Predictability: the Production Card is revealed at {when} (drawn "
                     "at Production when no Colonist is left for that Round); Pest Attack! "
                     "and Radiation! act as on Game Turn 1 on every Turn; no Personal Events")
        if s.card is not None and s.phase in ("develop", "reveal", "usage"):
            card = md.card(s.card)
            lines.append(f"Production Card revealed: {card.code} {card.title} (it takes "
                         "effect at Production)")
    return tuple(lines)
