"""Mule Goes Crazy!'s saved state, typed and frozen: :class:`State`, every player's
:class:`Sheet`, the turn so far (:class:`ThisTurn`), with one pair of JSON functions
(:func:`state_from_json`, :func:`state_to_json`) over the layout saved games have always held
(``saved.new_setup`` and the fold write it; ``irata play set`` corrects it at its dotted
paths). The keys the economy added (Upgrades, Facilities being built, the Resource Auctions,
the turns' order, the Draw pile's run-outs, the end) are optional in the JSON and read with
their defaults, so a game saved before them reads, and plays on, the same.

Named tuples, not dataclasses: as immutable, and cheaper to define on every command's start.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.record import NamedTuple
from components.errors import InputError

__all__ = ["FacilityBuilding", "MuleInPlay", "Sheet", "State", "ThisTurn", "state_from_json",
           "state_to_json"]

SHEET = ("credits", "energy", "food", "smithore", "crystite")
STORE = ("food", "energy", "smithore", "crystite")
PRICES = ("smithore", "crystite", "food", "energy")


class MuleInPlay(NamedTuple):
    mule: str
    land: str | None = None
    upgrade: str | None = None          # a Mule Upgrade on it (one at most)


class Sheet(NamedTuple):
    """A player's resource sheet, and the cards in front of them."""

    credits: int
    energy: int
    food: int
    smithore: int
    crystite: int
    lands: tuple[str, ...] = ()
    mules: tuple[MuleInPlay, ...] = ()
    land_upgrades: tuple[str | None, ...] = ()   # beside ``lands``, one Upgrade each at most

    def amount(self, resource: str) -> int:
        value: int = getattr(self, resource)
        return value

    def land_upgrade(self, i: int) -> str | None:
        return self.land_upgrades[i] if i < len(self.land_upgrades) else None


class FacilityBuilding(NamedTuple):
    """A Facility in play: who played it, how many turns of its Build cost are paid, and
    whether it is built (a Population card may then be assigned to it)."""

    card: str
    owner: str
    paid: int = 0
    built: bool = False


class ThisTurn(NamedTuple):
    """What the turn has seen so far."""

    produced: tuple[str, ...] = ()
    spoilage: bool = False
    upkeep: bool = False
    played: bool = False
    favored: bool = False
    auctions_over: bool = False          # a non-Land card was turned over
    acted: tuple[str, ...] = ()          # players who took part of their turn, in order
    done: tuple[str, ...] = ()           # players whose turn is over
    events: tuple[str, ...] = ()         # players who played their Event card of the turn
    dice: tuple[tuple[str, int], ...] = ()   # dice more (or fewer) a Mule of a resource rolls
    traded: tuple[str, ...] = ()         # the Resource Auctions held, in order


class State(NamedTuple):
    seating: tuple[str, ...]
    players: tuple[tuple[str, Sheet], ...]
    store: tuple[tuple[str, int], ...]
    store_at_turn_start: tuple[tuple[str, int], ...]
    prices: tuple[tuple[str, int], ...]
    turn: int
    favored: str | None
    opening_bid: int
    auctions: tuple[dict[str, Any], ...]
    granted: tuple[str, ...]
    populations: tuple[tuple[str, str | None], ...]      # card, facility
    this_turn: ThisTurn
    seed: int
    facilities: tuple[FacilityBuilding, ...] = ()
    blocked: tuple[str, ...] = ()        # Lost Paperwork: no Mule moved until their turn ends
    reshuffles: int = 0                  # times the Draw pile ran out
    over: bool = False
    score: dict[str, Any] | None = None

    def sheet(self, name: str) -> Sheet:
        return dict(self.players)[name]

    def stock(self, resource: str) -> int:
        return dict(self.store).get(resource, 0)

    def price(self, resource: str) -> int:
        return dict(self.prices)[resource]


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"the saved game's {what} is not a whole number ({value!r}): correct "
                         "it with 'irata play set'")
    return value


def _sheet(name: str, p: Mapping[str, Any]) -> Sheet:
    c = {k: _int(p[k], f"{name}'s {k}") for k in SHEET}
    mules = tuple(MuleInPlay(str(m["mule"]), m.get("land"), m.get("upgrade"))
                  for m in p["mules"])
    return Sheet(c["credits"], c["energy"], c["food"], c["smithore"], c["crystite"],
                 lands=tuple(map(str, p["lands"])), mules=mules,
                 land_upgrades=tuple(p.get("land_upgrades", ())))


def _counts(d: Mapping[str, Any], keys: tuple[str, ...], what: str) -> tuple[tuple[str, int],
                                                                             ...]:
    return tuple((k, _int(d.get(k, 0), f"{what}.{k}")) for k in keys)


def _this_turn(t: Mapping[str, Any]) -> ThisTurn:
    return ThisTurn(
        produced=tuple(t.get("produced", ())), spoilage=bool(t.get("spoilage")),
        upkeep=bool(t.get("upkeep")), played=bool(t.get("played")),
        favored=bool(t.get("favored")), auctions_over=bool(t.get("auctions_over")),
        acted=tuple(t.get("acted", ())), done=tuple(t.get("done", ())),
        events=tuple(t.get("events", ())),
        dice=tuple((str(k), _int(v, "dice")) for k, v in dict(t.get("dice", {})).items()),
        traded=tuple(t.get("traded", ())))


def state_from_json(data: Mapping[str, Any]) -> State:
    """The typed state of a saved game's JSON state. A state its game cannot read (a count
    edited into a word) is an InputError."""
    try:
        return State(
            seating=tuple(map(str, data["seating"])),
            players=tuple((str(n), _sheet(str(n), p)) for n, p in data["players"].items()),
            store=_counts(data["store"], STORE, "store"),
            store_at_turn_start=_counts(data["store_at_turn_start"], STORE,
                                        "store_at_turn_start"),
            prices=_counts(data["prices"], PRICES, "prices"),
            turn=_int(data["turn"], "turn"), favored=data.get("favored"),
            opening_bid=_int(data["opening_bid"], "opening bid"),
            auctions=tuple(dict(a) for a in data["auctions"]),
            granted=tuple(data["granted"]),
            populations=tuple((str(p["card"]), p.get("facility"))
                              for p in data["populations"]),
            this_turn=_this_turn(data["this_turn"]), seed=_int(data.get("seed", 0), "seed"),
            facilities=tuple(FacilityBuilding(str(f["card"]), str(f["owner"]),
                                              _int(f.get("paid", 0), "facility paid"),
                                              bool(f.get("built")))
                             for f in data.get("facilities", ())),
            blocked=tuple(data.get("blocked", ())),
            reshuffles=_int(data.get("reshuffles", 0), "reshuffles"),
            over=bool(data.get("over")), score=data.get("score"))
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise InputError(f"the saved Mule Goes Crazy! game cannot be read ({exc!r}): correct "
                         "it with 'irata play set'") from None


def _sheet_json(s: Sheet) -> dict[str, Any]:
    return {**{k: s.amount(k) for k in SHEET}, "lands": list(s.lands),
            "mules": [{"mule": m.mule, "land": m.land, "upgrade": m.upgrade}
                      for m in s.mules],
            "land_upgrades": list(s.land_upgrades)}


def state_to_json(state: State) -> dict[str, Any]:
    """The JSON state of a typed one, in the saved games' layout (every optional key
    written)."""
    t = state.this_turn
    return {
        "seating": list(state.seating),
        "players": {n: _sheet_json(s) for n, s in state.players},
        "store": dict(state.store), "store_at_turn_start": dict(state.store_at_turn_start),
        "prices": dict(state.prices), "turn": state.turn, "favored": state.favored,
        "opening_bid": state.opening_bid, "auctions": [dict(a) for a in state.auctions],
        "granted": list(state.granted),
        "populations": [{"card": c, "facility": f} for c, f in state.populations],
        "this_turn": {"produced": list(t.produced), "spoilage": t.spoilage,
                      "upkeep": t.upkeep, "played": t.played, "favored": t.favored,
                      "auctions_over": t.auctions_over, "acted": list(t.acted),
                      "done": list(t.done), "events": list(t.events), "dice": dict(t.dice),
                      "traded": list(t.traded)},
        "seed": state.seed,
        "facilities": [f._asdict() for f in state.facilities],
        "blocked": list(state.blocked), "reshuffles": state.reshuffles, "over": state.over,
        "score": state.score}
