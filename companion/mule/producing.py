"""4. Production as pure functions over the typed :class:`~companion.mule.state.State`
(``mule-board-game.txt``, "4. Production": "Draw a Production Card", "Count Base Production",
"Add Economies of Scale"): each returns a new State (and the lines the table reads) and leaves
the one given as it was. The arithmetic of one Colonist's Lands is
:func:`companion.mule.production.produce`; what the table answers (the card typed, the Meteor
Craters' Zones, the M.U.L.E.s flipped for an Energy Shortage, the Land Radiation! or Pest
Attack! hits) is asked by the step (``companion.mule.steps.produce``) and given here as values,
each checked by a ``check_*`` function that names the rule.

Optional Rule More Predictability (``companion.mule.options``): the Production Card is drawn
and revealed in Development (:func:`reveal`; when, see :mod:`companion.mule.development`) and
takes effect at Production as usual; "Production Cards that have an altered effect on Game
Turn 1 (Pest Attack! and Radiation!) use the 'Effect on Game Turn 1' only, on all Game Turns"
(:func:`card_effect`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from companion.mule import board, options, production
from companion.mule.production import Worked
from companion.mule.state import GOODS, Colonist, Goods, State
from companion.record import NamedTuple
from components.errors import RuleError

if TYPE_CHECKING:
    from companion.mule.data import MuleData, ProductionCard

__all__ = ["Effect", "Hit", "card_drawn", "card_effect", "card_on_colony",
           "check_flipped", "craters_to_place", "draw_card", "land_hit", "lands_produce",
           "lose_mule", "pest_hits", "radiation_hits", "reveal", "revealed",
           "worked_from_tiles"]

Lines = tuple[str, ...]


class Effect(NamedTuple):
    """The Production Card as it acts this Turn: its text, its structured effect, and whether
    Pest Attack! hits every Rank it lists (its Game Turn 1 effect)."""

    text: str
    effect: Mapping[str, Any]
    every: bool


# -- the card --------------------------------------------------------------------------------------

def draw_card(s: State) -> tuple[State, str]:
    """The top card of the companion's Production deck, taken off it."""
    deck = s.production_deck or ()
    if not deck:
        raise RuleError("the companion's Production deck is empty")
    return s._replace(production_deck=deck[1:]), deck[0]


def card_drawn(s: State, card: str) -> State:
    """The card drawn this Turn, kept (``card``) and marked drawn (never drawn again)."""
    return s._replace(production_drawn=(*s.production_drawn, card), card=card)


def revealed(s: State) -> str | None:
    """The Production Card already drawn this Turn (More Predictability: revealed in
    Development), None when it is drawn at Production."""
    return s.card


def reveal(s: State, md: MuleData, card: str) -> tuple[State, Lines]:
    """More Predictability: the Production Card drawn and revealed in Development; it takes
    effect at the beginning of Production, as usual."""
    c = md.card(card)
    return card_drawn(s, card), (f"Production Card revealed: {c.code} {c.title} (it takes "
                                 "effect at Production)",)


def card_effect(s: State, card: ProductionCard) -> Effect:
    """The card's text and effect this Turn: Radiation! and Pest Attack! do something else
    on Game Turn 1, and under More Predictability on every Turn."""
    turn = 1 if options.on(s.options, "more-predictability") else s.turn
    text, effect = card.on_turn(turn)
    every = turn == 1 and isinstance(card.fields.get("game_turn_1"), dict)
    return Effect(text, MappingProxyType(effect), every)


# -- the card on the Colony: Pirate Ship!, Fire in The Store!, the Meteor Craters ----------------

def craters_to_place(s: State, md: MuleData, effect: Mapping[str, Any]
                     ) -> tuple[tuple[str, ...], str]:
    """The Meteor Craters the card brings (none: not that card) and who places them."""
    if not effect.get("meteor_craters"):
        return (), ""
    left = [x.tile for x in md.craters() if x.tile not in s.craters]
    placer = s.ranking[-1] if effect.get("placed_by", "lowest_rank") == "lowest_rank" \
        else s.ranking[0]
    return tuple(left[:int(effect.get("craters", len(left)))]), placer


def card_on_colony(s: State, md: MuleData, effect: Mapping[str, Any],
                   zones: Mapping[str, str]) -> tuple[State, Lines]:
    """Pirate Ship! (every Colonist loses all of a Good), Fire in The Store! (The Store loses
    all its listed Goods), and the Meteor Craters placed on Planet Irata (``zones``: the Zone
    each went into, as the table said)."""
    lines: list[str] = []
    lose = effect.get("lose_all")
    if lose in GOODS:
        s = s._replace(colonists=tuple(c._replace(stocks=c.stocks._replace(**{lose: 0}))
                                       for c in s.colonists))
        lines.append(f"Every Colonist loses all their {lose}")
    burnt = effect.get("store_loses_all") or []
    if burnt:
        s = s._replace(store=s.store._replace(**{str(g): 0 for g in burnt}))
        lines.append("The Store loses all its " + ", ".join(burnt))
    craters, placer = craters_to_place(s, md, effect)
    if craters:
        where = ", ".join(f"{c} " + ("beside the board" if z == "beside"
                                     else f"{z.capitalize()} Zone") for c, z in zones.items())
        lines.append(f"{placer} places {', '.join(craters)} on empty squares of Planet Irata "
                     f"({where}): they can be claimed from now on")
        s = s._replace(crater_zones=MappingProxyType({**s.crater_zones, **zones}))
    if effect.get("meteor_craters"):
        s = s._replace(craters=(*s.craters, *craters))
    return s, tuple(lines)


# -- the Lands at work ---------------------------------------------------------------------------

def _dicts(c: Colonist) -> list[board.Land]:
    return [{"land": x.land, "tile": x.tile, "square": x.square, "mule": x.mule,
             "secret": x.secret} for x in c.lands]


def worked_from_tiles(s: State, md: MuleData, name: str) -> list[Worked] | None:
    """``name``'s Lands with M.U.L.E.s read from their tiles; None when they must be typed
    (a Land with a M.U.L.E. has no tile, or, in a Tournament, no square for Economies of
    Scale)."""
    known = board.worked_from(_dicts(s.colonist(name)), md.land, md.player_board)
    if known is None or (s.mode == "tournament" and not board.has_squares(known)):
        return None
    return known


def check_flipped(tiles: set[str], choices: Sequence[Worked], count: int, name: str
                  ) -> str | None:
    """Energy Shortage: exactly ``count`` M.U.L.E.s flipped, each one not producing Energy."""
    allowed = {w.tile for w in choices if w.tile}
    wrong = sorted(tiles - allowed)
    if wrong:
        return (f"{', '.join(wrong)}: not a Land with a M.U.L.E. that uses Energy "
                f"({', '.join(sorted(allowed))})")
    if len(tiles) != count:
        return (f"{name}'s Energy Shortage: flip exactly {count} M.U.L.E.(s) not producing "
                f"Energy ({', '.join(sorted(allowed))})")
    return None


def lose_mule(s: State, name: str, w: Worked) -> State:
    """Radiation!: the M.U.L.E. goes to the neutral stacks; its Land keeps no M.U.L.E."""
    c = s.colonist(name)
    for i, land in enumerate(c.lands):
        if land.mule == w.good and (w.tile is None or land.tile == w.tile):
            lands = tuple(x._replace(mule=None) if k == i else x for k, x in enumerate(c.lands))
            mules = Goods(*(sum(1 for x in lands if x.mule == g) for g in GOODS))
            return _put(s, c._replace(lands=lands, mules=mules))
    return _put(s, c._replace(mules=c.mules._replace(
        **{w.good: max(0, c.mules.of(w.good) - 1)})))


class Hit(NamedTuple):
    """A Colonist a Production Card hits on their Lands: Radiation! (a M.U.L.E., ``good``
    None: any, lost or only flipped) or Pest Attack! (the production of one Land producing
    ``good``)."""

    name: str
    good: str | None
    lost: bool
    card: str


Working = Mapping[str, Sequence[Worked]]


def radiation_hits(s: State, effect: Effect, worked: Working) -> tuple[tuple[Hit, ...], Lines]:
    """Radiation!: the Rank 1 Colonist loses a M.U.L.E. of their choice (its Land produces
    nothing); with the Game Turn 1 effect every Colonist flips one. Returns who is hit, and a
    line for each hit Colonist with no M.U.L.E."""
    rad = effect.effect.get("radiation") or {}
    names = s.ranking
    out: list[Hit] = []
    lines: list[str] = []
    for rank in production.radiation_ranks(effect.effect, len(names)):
        name = names[rank - 1]
        if worked[name]:
            out.append(Hit(name, None, bool(rad.get("mules_lost")), "Radiation!"))
        else:
            lines.append(f"Radiation!: {name} has no M.U.L.E. to "
                         + ("flip" if rad.get("mules_flipped") else "lose"))
    return tuple(out), tuple(lines)


def pest_hits(s: State, effect: Effect, worked: Working) -> tuple[tuple[Hit, ...], Lines]:
    """Pest Attack!: the Rank 1 Colonist (or Rank 2, if Rank 1 produces no Food) loses the
    production of one Food Land; with the Game Turn 1 effect every Colonist producing Food."""
    pest = effect.effect.get("pest_attack") or {}
    if not pest:
        return (), ()
    good = str(pest.get("good", "food"))

    def produces(n: str) -> bool:
        return any(w.good == good and not w.flipped for w in worked[n])

    hit = production.pest_attack_targets(effect.effect, list(s.ranking), produces, effect.every)
    lines = () if hit else (f"Pest Attack!: no Colonist it can hit produces {good}",)
    return tuple(Hit(n, good, False, "Pest Attack!") for n in hit), lines


def land_hit(s: State, worked: Working, hit: Hit, index: int | None
             ) -> tuple[State, dict[str, list[Worked]], Lines]:
    """The Land ``index`` of ``hit.name``'s working Lands hit: it produces nothing this Turn;
    Radiation!'s lost M.U.L.E. goes to the neutral stacks. Returns the State, the working
    Lands and the line the table reads."""
    lands = list(worked[hit.name])
    after = {n: list(w) for n, w in worked.items()}
    after[hit.name] = production.strike(lands, index)
    if index is None:
        return s, after, ()
    label = lands[index].label
    if hit.card != "Radiation!":
        return s, after, (f"{hit.name} loses the {hit.good} of {label}",)
    if hit.lost:
        s = lose_mule(s, hit.name, lands[index])
    return s, after, (f"{hit.name} {'loses' if hit.lost else 'flips'} the M.U.L.E. on {label}",)


def _put(s: State, c: Colonist) -> State:
    return s._replace(colonists=tuple(c if x.name == c.name else x for x in s.colonists))


# -- Base Production and Economies of Scale ------------------------------------------------------

def lands_produce(s: State, md: MuleData, card: ProductionCard,
                  worked: Mapping[str, Sequence[Worked]]) -> tuple[State, Lines]:
    """Count Base Production (the card's modifiers, never below zero; flipped M.U.L.E.s make
    nothing) and, in a Tournament, Economies of Scale; the Goods go to each Colonist's
    Stocks, a Land producing Crystite for the first time turns to its Secret Side. The card
    is kept for Pricing; The Ship is Back! makes this the Final Turn."""
    lines: list[str] = []
    for name in s.ranking:
        c = s.colonist(name)
        result = production.produce(worked[name], card.modifiers,
                                    tournament=s.mode == "tournament")
        stocks = Goods(*(c.stock(g) + result.total[g] for g in GOODS))
        lands = tuple(x._replace(secret=True) if x.tile in result.turn_over else x
                      for x in c.lands)
        s = _put(s, c._replace(stocks=stocks, lands=lands))
        extra = f"; turn to the Secret Side: {', '.join(result.turn_over)}" \
            if result.turn_over else ""
        eos = " (Economies of Scale " + ", ".join(
            f"{g} +{n}" for g, n in result.economies_of_scale.items() if n) + ")" \
            if any(result.economies_of_scale.values()) else ""
        lines.append(f"{name} produces " + ", ".join(f"{g} {result.total[g]}" for g in GOODS)
                     + eos + extra)
    return s._replace(card=card.id, final=card.ship_is_back), tuple(lines)
