"""Outer Earth's fold on its typed State: one pure ``apply`` per kind of event (the event's
data -> the State after it), the JSON only at the boundary (the ``setup`` event read once with
``state_from_json``, the state written once with ``state_to_json``; an ``irata play set``
event is applied to the JSON form, as for every game).

The events are those the commands have always recorded (``companion.outer_earth.saved``
builds them, checking the rules); the fold only adds and subtracts what they say happened. A
game saved by an earlier version folds the same: its keys are read with their defaults.

Light to import (the typed State alone): ``next`` and ``status`` fold the saved game before
anything else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from companion.outer_earth.state import (
    Company,
    Development,
    State,
    TurnSoFar,
    state_from_json,
    state_to_json,
)

if TYPE_CHECKING:
    from companion.session import Event

__all__ = ["APPLY", "apply", "fold", "step"]

Data = Mapping[str, Any]


def _with(pairs: tuple[tuple[str, Any], ...], key: str, value: Any) -> tuple[tuple[str, Any],
                                                                             ...]:
    """``pairs`` with ``key`` set to ``value`` (kept in place, or added at the end), as a dict
    keeps its keys."""
    if any(k == key for k, _ in pairs):
        return tuple((k, value if k == key else v) for k, v in pairs)
    return (*pairs, (key, value))


def _without(pairs: tuple[tuple[str, Any], ...], key: str) -> tuple[tuple[str, Any], ...]:
    return tuple((k, v) for k, v in pairs if k != key)


def _company(s: State, name: str, change: Callable[[Company], Company]) -> State:
    if name not in dict(s.players):
        raise KeyError(name)
    return s._replace(players=tuple((n, change(c) if n == name else c) for n, c in s.players))


def _count_action(s: State, kind: str, d: Data) -> State:
    """Phase 2 has begun: what the company's turn has drawn, built and sold so far, and the
    highest draw, build and sell values it had this round (``saved._within_turn``)."""
    who = str(d["player"])
    t = dict(s.turn).get(who, TurnSoFar())
    values = d.get("values") or ({kind: d.get("value", 0)} if kind != "done" else {})
    t = t._replace(**{w: max(getattr(t, w), int(values.get(w, 0)))
                      for w in ("draw", "build", "sell")})
    done = s.done
    if kind == "done":
        done = (*done, who)
    elif kind == "draw":
        t = t._replace(drawn=t.drawn + int(d["cards"]))
    elif kind == "build":
        t = t._replace(built=t.built + len(d["built"]))
    elif kind == "sell":
        t = t._replace(built=t.built + int(d["built_now"]), sold=t.sold + 1)
    return s._replace(phase2=True, turn=_with(s.turn, who, t), done=done)


def _bid(s: State, d: Data) -> State:
    planet, buyer = str(d["planet"]), d.get("buyer")
    s = s._replace(offered=_with(s.offered, planet, bool(buyer)),
                   starting_player=str(d["starting_player"]))
    if not buyer:
        return s._replace(market=s.market._replace(
            under=_with(s.market.under, planet, int(d["under"]))))
    s = _company(s, str(buyer), lambda c: c._replace(
        hand=c.hand + int(d["cards_taken"]) - int(d["price"]),
        in_development=(*c.in_development, Development(planet))))
    return s._replace(market=s.market._replace(planets=s.market.planets - 1,
                                               under=_without(s.market.under, planet)))


def _draw(s: State, d: Data) -> State:
    return _company(s, str(d["player"]), lambda c: c._replace(hand=c.hand + int(d["cards"])))


def _build(s: State, d: Data) -> State:
    built = tuple(map(str, d["built"]))

    def change(c: Company) -> Company:
        return c._replace(hand=c.hand - len(built), in_development=tuple(
            p._replace(built=p.built + built) if p.planet == d["planet"] else p
            for p in c.in_development))

    return _company(s, str(d["player"]), change)


_DIE = {"draw": 0, "build": 1, "sell": 2}


def _sell(s: State, d: Data) -> State:
    bonus = d.get("bonus")

    def change(c: Company) -> Company:
        dice = list(c.dice)
        for die in d.get("raise", []):
            dice[_DIE[die]] += 1
        c = c._replace(hand=c.hand - int(d["built_now"]),
                       in_development=tuple(p for p in c.in_development
                                            if p.planet != d["planet"]),
                       portfolio=(*c.portfolio, str(d["planet"])),
                       profit_cards=c.profit_cards + int(d["to_profits"]),
                       dice=(dice[0], dice[1], dice[2]))
        if bonus:
            c = c._replace(bonus_revenue=(*c.bonus_revenue, int(bonus["vp"])),
                           bonus_revenue_cards=(*c.bonus_revenue_cards, str(bonus["card"])))
        return c

    s = _company(s, str(d["player"]), change)
    if not bonus:
        return s
    piles = list(s.bonus_revenue_piles)
    piles[int(bonus["pile"])] -= 1
    return s._replace(bonus_revenue_piles=tuple(piles))


def _taxed(u: Data) -> Callable[[Company], Company]:
    """Upkeep Order for one company: the planets put into its profits pile, the cards paid
    as planet tax and discarded down to the hand limit."""
    gone = tuple(map(str, u["planets_to_profits"]))
    paid = int(u["cards_for_tax"]) + int(u["hand_limit_discard"])

    def change(c: Company) -> Company:
        return c._replace(
            in_development=tuple(p for p in c.in_development if p.planet not in gone),
            profit_planets=c.profit_planets + gone, hand=c.hand - paid)

    return change


def _upkeep(s: State, d: Data) -> State:
    for name, u in d["companies"].items():
        s = _company(s, str(name), _taxed(u))
    return s._replace(upkeep_done=True)


def _round(s: State, d: Data) -> State:
    if d.get("over"):
        return s._replace(over=True)
    nxt = int(d["round"]) + 1
    return s._replace(market=s.market._replace(planets=s.market.planets + int(d["refill"])),
                      galaxy_deck=s.galaxy_deck - int(d["refill"]), round=nxt,
                      upkeep_done=False, phase2=False, turn=(), offered=(), done=(),
                      final_round=nxt if d.get("last_round_next") else s.final_round)


APPLY: dict[str, Callable[[State, Data], State]] = {
    "bid": _bid, "draw": _draw, "build": _build, "sell": _sell, "upkeep": _upkeep,
    "round": _round,
}
"""How each kind of event changes the state (the ``setup`` event is the first state)."""


def apply(s: State, kind: str, d: Data) -> State:
    """The State after one event of ``kind`` with ``d`` (pure: ``s`` is a value). An event
    of a kind the game does not know changes nothing (as the fold always did)."""
    if kind in ("draw", "build", "sell", "done"):
        s = _count_action(s, kind, d)
    one = APPLY.get(kind)
    return one(s, d) if one is not None else s


def step(state: Mapping[str, Any], kind: str, data: Data) -> dict[str, Any]:
    """The JSON state after one event (``state`` is not changed)."""
    return state_to_json(apply(state_from_json(state), kind, data))


def fold(events: list[Event]) -> dict[str, Any]:
    """The saved game's state: the fold of its log, on the typed State."""
    from companion.session import fold_typed

    return fold_typed(events, state_from_json, state_to_json, apply)
