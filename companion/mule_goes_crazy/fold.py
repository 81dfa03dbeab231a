"""Mule Goes Crazy!'s fold on its typed State: one pure ``apply`` per kind of event (the
event's data -> the State after it), the JSON only at the boundary (the ``setup`` event read
once with ``state_from_json``, the state written once with ``state_to_json``; an ``irata play
set`` event is applied to the JSON form, as for every game).

The events are those the commands have always recorded (``saved``, ``steps`` and ``cards``
build them, checking the rules; each carries its computed result, the dice rolled, the price
paid), so the fold only adds and subtracts: replaying a log never rolls a die again. A game
saved by an earlier version folds the same: its keys are read with their defaults.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.mule_goes_crazy.state import (
    FacilityBuilding,
    MuleInPlay,
    Sheet,
    State,
    ThisTurn,
    state_from_json,
    state_to_json,
)

if TYPE_CHECKING:
    from companion.session import Event

__all__ = ["APPLY", "apply", "fold"]

Data = Mapping[str, Any]


def _with(pairs: tuple[tuple[str, int], ...], key: str, value: int) -> tuple[tuple[str, int],
                                                                             ...]:
    if any(k == key for k, _ in pairs):
        return tuple((k, value if k == key else v) for k, v in pairs)
    return (*pairs, (key, value))


def _sheet(s: State, name: str, change: Callable[[Sheet], Sheet]) -> State:
    if name not in dict(s.players):
        raise KeyError(name)
    return s._replace(players=tuple((n, change(p) if n == name else p) for n, p in s.players))


def _turn(s: State, **changes: Any) -> State:
    return s._replace(this_turn=s.this_turn._replace(**changes))


def _acted(s: State, name: str) -> State:
    """``name`` took part of their turn (the Player Turns' order reads it)."""
    t = s.this_turn
    return _turn(s, played=True, acted=t.acted if name in t.acted else (*t.acted, name))


def _adding(c: Mapping[str, Any]) -> Callable[[Sheet], Sheet]:
    def change(p: Sheet) -> Sheet:
        values: dict[str, Any] = {r: p.amount(r) + int(n) for r, n in c.items()}
        return p._replace(**values)

    return change


def _add(s: State, changes: Mapping[str, Mapping[str, Any]], store: Mapping[str, Any]
         ) -> State:
    """Players' resources and Credits changed; the Store's stock too (never below 0)."""
    for who, c in changes.items():
        s = _sheet(s, str(who), _adding(c))
    for r, n in store.items():
        s = s._replace(store=_with(s.store, r, max(0, s.stock(r) + int(n))))
    return s


def _favored(s: State, d: Data) -> State:
    return _turn(s._replace(favored=d["favored"]), favored=True)


def _grant(s: State, d: Data) -> State:
    if d["land"] is not None:
        s = _sheet(s, d["player"], lambda p: p._replace(lands=(*p.lands, str(d["land"]))))
    return s._replace(granted=(*s.granted, d["player"]))


def _auction(s: State, d: Data) -> State:
    if d["land"] is None:        # a card that is not a Land: the auctions are over
        return _turn(s, auctions_over=True)
    s = s._replace(auctions=(*s.auctions, {k: d[k] for k in ("turn", "land", "opening",
                                                             "closing", "winner")}))
    if d["winner"] is not None:
        s = _sheet(s, d["winner"], lambda p: p._replace(
            credits=p.credits - int(d["closing"]), lands=(*p.lands, str(d["land"]))))
    return s._replace(opening_bid=int(d["next_opening"]))


def _buy(s: State, d: Data) -> State:
    s = _sheet(s, d["player"], lambda p: p._replace(
        credits=p.credits - int(d["price"]), mules=(*p.mules, MuleInPlay(str(d["mule"])))))
    return _add(_acted(s, d["player"]), {}, {r: -int(n) for r, n in d["store_loses"].items()})


def _move(s: State, d: Data) -> State:
    at = int(d["index"])
    s = _add(s, {d["player"]: {r: -int(n) for r, n in d["cost"].items()}}, {})
    s = _sheet(s, d["player"], lambda p: p._replace(mules=tuple(
        m._replace(land=d["land"]) if i == at else m for i, m in enumerate(p.mules))))
    return _acted(s, d["player"])


def _population(s: State, d: Data) -> State:
    s = s._replace(populations=(*s.populations, (str(d["card"]), d["facility"])))
    if d.get("player"):
        s = _acted(s, d["player"])
        s = _turn(s, events=(*s.this_turn.events, d["player"]))
    return s


def _produce(s: State, d: Data) -> State:
    for n, r in d["players"].items():
        s = _add(s, {n: {"energy": -int(r["energy_used"])}}, {})
        s = _add(s, {n: r["produced"]}, {})
        s = _turn(s, produced=(*s.this_turn.produced, n))
    return s


def _spoilage(s: State, d: Data) -> State:
    s = _add(s, {n: {"food": -int(r["food_lost"]), "energy": -int(r["energy_lost"])}
                 for n, r in d["players"].items()}, {})
    return _turn(s, spoilage=True)


def _builds(s: State, payments: Sequence[Data], ruined: Sequence[str]) -> State:
    """The upkeep's Build payments: paid from the owners' sheets; a Facility whose last turn
    is paid is built; one its owner could not pay is discarded."""
    for pay in payments:
        s = _add(s, {pay["player"]: {r: -int(n) for r, n in pay["cost"].items()}}, {})
        s = s._replace(facilities=tuple(
            f._replace(paid=f.paid + 1, built=bool(pay["built"]))
            if f.card == pay["facility"] and not f.built else f for f in s.facilities))
    return s._replace(facilities=tuple(f for f in s.facilities if f.card not in ruined))


def _upkeep(s: State, d: Data) -> State:
    gone = set(d["discarded"])
    s = s._replace(store=tuple((r, s.stock(r) + int(d["store_change"].get(r, 0)))
                               for r, _ in s.store),
                   populations=tuple(p for i, p in enumerate(s.populations) if i not in gone))
    s = _turn(s, upkeep=True)
    if d.get("builds") or d.get("facilities_ruined"):
        s = _builds(s, d.get("builds", []), d.get("facilities_ruined", []))
    return s


def _end_turn(s: State, d: Data) -> State:
    if d.get("over"):
        return s._replace(over=True, score=d["score"])
    return s._replace(turn=int(d["turn"]) + 1, this_turn=ThisTurn(),
                      store_at_turn_start=tuple((r, int(d["store"].get(r, 0)))
                                                for r, _ in s.store_at_turn_start))


def _done(s: State, d: Data) -> State:
    who = d["player"]
    s = _acted(s, who)
    blocked = list(s.blocked)
    if who in blocked:         # Lost Paperwork lasts until the end of their turn
        blocked.remove(who)
    return _turn(s, done=(*s.this_turn.done, who))._replace(blocked=tuple(blocked))


def _runaway(s: State, who: str, at: int) -> State:
    """Radiation Storm: the Mule runs off, its Land's improvements (its Upgrade) wrecked."""
    def change(p: Sheet) -> Sheet:
        gone = p.mules[at]
        ups = list(p.land_upgrades)
        if gone.land in p.lands and p.lands.index(gone.land) < len(ups):
            ups[p.lands.index(gone.land)] = None
        return p._replace(mules=p.mules[:at] + p.mules[at + 1:], land_upgrades=tuple(ups))

    return _sheet(s, who, change)


def _effect(s: State, d: Data) -> State:
    s = _add(s, d["changes"], d.get("store", {}))
    if d.get("runaway"):
        who, at = d["runaway"]
        s = _runaway(s, str(who), int(at))
    dice = s.this_turn.dice
    for r, n in d.get("dice", {}).items():
        dice = _with(dice, r, dict(dice).get(r, 0) + int(n))
    s = _turn(s, dice=dice)
    return s._replace(blocked=(*s.blocked, d["blocked"])) if d.get("blocked") else s


def _event(s: State, d: Data) -> State:
    s = _acted(s, d["player"])
    return _effect(_turn(s, events=(*s.this_turn.events, d["player"])), d)


def _upgrade(s: State, d: Data) -> State:
    at = int(d["index"])

    def put(p: Sheet) -> Sheet:
        if d["on"] == "land":
            ups = list(p.land_upgrades) + [None] * (len(p.lands) - len(p.land_upgrades))
            ups[at] = d["upgrade"]
            return p._replace(land_upgrades=tuple(ups))
        return p._replace(mules=tuple(m._replace(upgrade=d["upgrade"]) if i == at else m
                                      for i, m in enumerate(p.mules)))

    s = _add(_acted(s, d["player"]), d["changes"], {})
    return _sheet(s, d["player"], put)


def _discard_upgrade(s: State, d: Data) -> State:
    at = int(d["index"])

    def take(p: Sheet) -> Sheet:
        if d["on"] == "land":
            return p._replace(land_upgrades=tuple(None if i == at else u
                                                  for i, u in enumerate(p.land_upgrades)))
        return p._replace(mules=tuple(m._replace(upgrade=None) if i == at else m
                                      for i, m in enumerate(p.mules)))

    return _acted(_sheet(s, d["player"], take), d["player"])


def _facility(s: State, d: Data) -> State:
    s = _acted(s, d["player"])
    s = _turn(s, events=(*s.this_turn.events, d["player"]))
    return s._replace(facilities=(*s.facilities, FacilityBuilding(str(d["facility"]),
                                                                  str(d["player"]))))


def _trade(s: State, d: Data) -> State:
    res = d["resource"]
    s = _add(s, {n: {res: u} for n, u in d["units"].items()}, {res: int(d["store"])})
    s = _add(s, {n: {"credits": c} for n, c in d["credits"].items()}, {})
    return _turn(s._replace(prices=_with(s.prices, res, int(d["next_price"]))),
                 traded=(*s.this_turn.traded, res))


def _population_moved(s: State, d: Data) -> State:
    at = int(d["index"])
    return s._replace(populations=tuple((c, d["to"]) if i == at else (c, f)
                                        for i, (c, f) in enumerate(s.populations)))


APPLY: dict[str, Callable[[State, Data], State]] = {
    "favored": _favored, "grant": _grant, "auction": _auction, "buy": _buy, "move": _move,
    "population": _population, "produce": _produce, "spoilage": _spoilage,
    "upkeep": _upkeep, "end-turn": _end_turn, "done": _done, "event": _event,
    "interrupt": _effect, "upgrade": _upgrade, "facility": _facility, "trade": _trade,
    "reshuffle": lambda s, d: s._replace(reshuffles=int(d["times"])),
    "discard-upgrade": _discard_upgrade, "move-population": _population_moved,
}
"""How each kind of event changes the state (the ``setup`` event is the first state)."""


def apply(s: State, kind: str, d: Data) -> State:
    """The State after one event of ``kind`` (pure: ``s`` is a value). An event of a kind
    the game does not know changes nothing (as the fold always did)."""
    one = APPLY.get(kind)
    return one(s, d) if one is not None else s


def fold(events: list[Event]) -> dict[str, Any]:
    """The saved game's state: the fold of its log, on the typed State."""
    from companion.session import fold_typed

    return fold_typed(events, state_from_json, state_to_json, apply)
