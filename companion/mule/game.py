"""M.U.L.E. The Board Game, declared (:class:`companion.play.Declaration`): its moves as the
table types them, what comes now, each move applied to the saved game's state, and the steps
that have nothing to decide.

A move is a step of the Game Turn (``companion.mule.turn.STEPS``) with the answers typed for
it; it is applied by taking that step with those answers on the typed State
(:func:`companion.mule.turn.run_step`), so the rules live in ``companion.mule.steps`` and the
pure functions it calls alone: an answer the rules refuse raises there, and an answer the step
does not ask is refused here. The State is :class:`companion.mule.state.State`, read from the
saved game's JSON form and written back by that module's one pair of JSON functions; a step's
event keeps what it changed in the JSON form (:func:`companion.mule.changes.change`), which
the round trip keeps exact for every form a game reaches.

Steps that run themselves (:meth:`MuleGame.auto`): every step that asks nothing (Usage and
Spoilage, Pricing, Ranking, the Final Turn's sell-out, the end; Production and the Personal
Events when the companion's decks draw the card and nothing else is asked), a Colonist without
Food in Development (the rule: Players without Food must Pass), a Market Auction nobody can take
part in (no Colonist holds the Good and nobody can buy it from The Store), and Package From
Home World! when no card held may be played.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from companion.mule.moves import MOVES
from companion.play import Move, Now, Outcome
from components.errors import InputError, RuleError

if TYPE_CHECKING:
    from companion.mule.data import MuleData
    from companion.mule.state import State

__all__ = ["GAME", "MOVES", "MuleGame"]

_SPEC = {m.kind: m for m in MOVES}


class _Asked(Exception):
    """A step asked a question: it has something to decide."""


def _data() -> MuleData:
    from companion.mule import data

    return data.load()


def as_typed(key: str) -> str:
    """An answer's key as the table typed it: ``flip.Ann`` -> ``--flip Ann=...``, ``card`` ->
    ``CARD``."""
    name, _, who = key.partition(".")
    option = next((p.option or p.key.upper() for m in MOVES for p in m.params if p.key == name),
                  f"--{name}")
    return f"{option} {who}=..." if who else option


class MuleGame:
    """M.U.L.E.'s declaration: see the module's docstring. Its State is the typed
    :class:`companion.mule.state.State`; a game saved before the steps lists its Turn's steps
    when a step is taken (:func:`companion.mule.turn.begun`), so ``now`` stays pure and the
    step's change holds what that did."""

    name = "mule"
    moves = MOVES

    def from_json(self, data: Mapping[str, Any]) -> State:
        from companion.mule.state import from_json

        return from_json(data)

    def to_json(self, state: State) -> dict[str, Any]:
        from companion.mule.state import to_json

        return to_json(state)

    def end(self, state: State) -> str | None:
        if not state.over:
            return None
        rated = state.colony.text if state.colony else None
        return f"the game is over ({rated})" if rated else "the game is over"

    def now(self, state: State) -> Now | None:
        from companion.mule import turn

        step = turn.current(state)
        if step is None:
            return None
        s = turn.begun(state)
        auto = step.step not in _ASKS and self.auto(state) is not None
        return Now(step.turn, step.step, step.who, turn.say_step(step, s),
                   turn.command(step, s), auto)

    def apply(self, state: State, move: Move) -> Outcome[State]:
        from companion.mule import turn
        from companion.mule.changes import change
        from companion.mule.state import to_json

        md = _data()
        now = turn.current(state, md)
        if now is None:
            raise RuleError("this game is over: The Ship is Back! was drawn")
        _check_turn(state, now, move)
        given = _as_named(state, move.answers)
        answers: dict[str, str] = {}
        after, done, lines = turn.run_step(state, md, turn.scripted(given, answers),
                                           lambda _line: None)
        _check_unused(state, after, now, given, answers)
        # the change is taken on this version's layout of the nested dicts, not the layout
        # read (the fold's, its keys sorted): its operations, and so the bytes saved, as
        # every version since the steps saved them
        data = {"turn": done.turn, "step": done.step, "who": done.who, "answers": answers,
                "lines": lines, "change": change(to_json(state._replace(layout=None)),
                                                 to_json(after._replace(layout=None)))}
        return Outcome("step", data, tuple(lines), after)

    def auto(self, state: State) -> Move | None:
        from companion.mule import turn

        md = _data()
        now = turn.current(state, md)
        if now is None:
            return None
        forced = _FORCED.get(now.step)
        if forced is not None:
            return forced(turn.begun(state, md), md, now.who)
        if now.step in _ASKS:
            return None
        try:
            turn.run_step(state, md, _never_asked, lambda _line: None)
        except (_Asked, InputError, RuleError):
            return None
        return Move.of(now.step, now.who, why="nothing is asked in it")


GAME = MuleGame()


def _never_asked(key: str, question: str, default: str, parse: Callable[[str], Any]) -> Any:
    raise _Asked(key)


def _check_turn(state: State, now: Any, move: Move) -> None:
    """The move is the step that comes now, by the Colonist whose step it is."""
    from companion.mule import turn
    from companion.mule.data import check_good
    from companion.mule.steps import player_name

    if now.step != move.kind:
        command = _SPEC[move.kind].command if move.kind in _SPEC else move.kind
        raise RuleError(f"it is not the time for '{command}': now "
                        f"{turn.say_step(now, state)} -- {turn.command(now, state)}")
    if move.who is None or now.who is None:
        return
    named = check_good(move.who) if move.kind == "trade" else \
        player_name(move.who, [c.name for c in state.colonists])
    if named == now.who:
        return
    if move.kind == "auction":
        raise RuleError(f"Land Auctions: the Land for Sale! cards are played from Rank 1 down, "
                        f"and now it is {now.who}'s turn to play one or not (not {named}'s) -- "
                        f"{turn.command(now, state)}")
    raise RuleError(f"it is not {named}'s turn: now {turn.say_step(now, state)}")


def _as_named(state: State, given: dict[str, str]) -> dict[str, str]:
    """NAME=... answers name Colonists as typed (any case): as the game spells them."""
    from companion.mule.steps import player_name

    names = [c.name for c in state.colonists]
    return {(f"{k.partition('.')[0]}.{player_name(k.partition('.')[2], names)}"
             if "." in k else k): v for k, v in given.items()}


def _check_unused(state: State, after: State, now: Any,
                  given: dict[str, str], answers: dict[str, str]) -> None:
    """An answer the step did not ask is refused, never dropped silently; a Market Auction's
    says why nobody could answer it."""
    from companion.mule import turn
    from companion.mule.market import no_deal, no_purchase
    from companion.mule.steps import sell_to_store

    unused = sorted(k for k in set(given) - set(answers) if given[k].strip() or "." in k)
    if now.step == "trade" and {"sell", "buy", "deals"} & set(unused):
        # the reason as the question left unasked found it: after the sales (the deals come
        # after the purchases)
        good = str(now.who)
        if "sell" in unused:
            raise RuleError(f"Market: no Colonist holds {good.capitalize()} now, so none is "
                            "sold, to The Store or to another Colonist")
        if "buy" in unused:
            sold = sell_to_store(state, good, answers.get("sell", ""), [])
            raise RuleError(no_purchase(sold, _data(), good)
                            or "Market: nothing to buy from The Store")
        raise RuleError(no_deal(after, good)
                        or "Market: no deal between Colonists is left")
    if unused:
        raise InputError(f"{', '.join(as_typed(k) for k in unused)}: not asked in this step "
                         f"({turn.say_step(now, state)}), so not taken")


# -- steps that have nothing to decide -----------------------------------------------------------

# steps that always ask the table something (never probed)
_ASKS = frozenset({"grant", "auction"})


def _develop(s: State, md: MuleData, who: str | None) -> Move | None:
    """Development: Players without Food must Pass."""
    if who is not None and s.colonist(who).stock("food") < 1:
        return Move.of("develop", who, {"actions": "pass"},
                       why=f"Development: Players without Food must Pass ({who} has 0 Food)")
    return None


def _trade(s: State, md: MuleData, good: str | None) -> Move | None:
    """A Market Auction nobody can take part in: no Colonist holds the Good (nobody can sell
    it, to The Store or to another), and nobody can buy it from The Store."""
    from companion.mule.market import no_purchase

    if good is None or any(c.stock(good) > 0 for c in s.colonists):
        return None
    why = no_purchase(s, md, good)
    if why is None:
        return None
    if s.store.stock(good) and good != "crystite":
        price = md.track(good).sell_for(s.prices.of(good))
        why = f"nobody has the ${price} The Store asks for one"
    return Move.of("trade", good, why=f"Market: no Colonist holds {good.capitalize()}, and "
                                      f"{why.removeprefix('Market: ')}")


def _package(s: State, md: MuleData, who: str | None) -> Move | None:
    """Package From Home World!: a card may be played only by a Colonist no other Colonist has
    a smaller Stock of its Good than (a Special Talent may waive that); when no card held may
    be played, nobody plays one."""
    from companion.mule.data import GOODS

    goods = {str(c.effect.get("if_smallest_stock")) for c in md.hand_cards
             if c.kind == "package"} & set(GOODS)
    for holder in s.colonists:
        if s.held(holder.name, "package") < 1:
            continue
        card = s.talent_card(holder.name)
        if card and md.species(card).talent.get("package_ignores_condition"):
            return None
        for good in goods:
            if not any(c.stock(good) < holder.stock(good) for c in s.colonists
                       if c.name != holder.name):
                return None
    return Move.of("package", None, {"package": "none"},
                   why="Package From Home World!: every card held needs its holder to have the "
                       "smallest Stock of its Good, and no holder has")


_FORCED: dict[str, Callable[[State, MuleData, str | None], Move | None]] = {
    "develop": _develop, "trade": _trade, "package": _package}


# -- the set-up ----------------------------------------------------------------------------------

def starting_rivers(md: MuleData, players: list[str], mode: str, given: dict[str, str]
                    ) -> dict[str, str]:
    """The River tile each Colonist starts with where the set-up gives them one (Beginner):
    those ``given`` (``--rivers Ann=R01``), the rest dealt from the River tiles left, in
    the order the players are named, so that every Land of the game is known by its tile and
    Production is counted from the saved game. Names are matched as typed (any case)."""
    from companion.mule.steps import player_name

    setup = md.setup(mode, len(players))
    if not any(land.get("land") == "river" for land in setup.get("colonist_lands", [])):
        return dict(given)
    chosen = {player_name(n, players): t.strip().upper() for n, t in given.items()}
    left = [t.tile for t in md.lands.values() if t.land == "river"
            and t.tile not in chosen.values()]
    for name in players:
        if name not in chosen:
            if not left:
                raise RuleError("the set-up gives every Colonist a River, and no River tile "
                                "is left to give " + name)
            chosen[name] = left.pop(0)
    return chosen
