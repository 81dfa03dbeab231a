"""A saved game of M.U.L.E. as a typed, frozen value, and its one pair of JSON functions.

:class:`State` holds what the rulebook names: the Colonists (Money, the four Stocks, their
Lands with the M.U.L.E. installed on each, their Hand Cards and Special Talent), The Store's
stocks, the Price Track (The Store's Buy Prices), the Ranking, the Game Turn and the steps still
to come in it, Development's Action Round, the Land for Sale! cards played this Turn, the
Market's Buyers and Sellers (and those declared before an Auction), the Meteor Craters on
Planet Irata, the companion's decks, and the Colony's rating at the end.

:func:`from_json` reads the JSON form the saved game folds to (what ``status --json`` and
``export`` show, and the steps change), :func:`to_json` writes it back in the same layout: the
same keys, nested the same way, in the order read at every level (the top level's in ``keys``,
the nested dicts' in ``layout``). Keys this version does not type (a value a ``set`` added, or
a typed key's value in a shape this version does not write) are kept as they are in
``extra``, so the round trip loses nothing. A game saved before Lands were kept as dicts
(plain Land names) is read with its Lands as Lands.

Named tuples and read-only mappings, not dataclasses: frozen, and cheap to define on every
command's start.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from companion.record import NamedTuple
from components.errors import InputError

__all__ = ["GOODS", "Colonist", "Colony", "Deck", "Development", "Goods", "Land", "Layout",
           "State", "Store", "from_json", "land_of", "player_name", "to_json"]

GOODS: tuple[str, ...] = ("smithore", "crystite", "food", "energy")
_LAND_KEYS = ("land", "tile", "square", "mule", "secret")
# a Land tile's code, as companion.mule.board reads it: compiled on first use by re's own
# cache (only a game saved before Lands were kept as dicts reads one)
_TILE = r"^[A-Za-z]\d\d$"


def player_name(name: str, names: list[str]) -> str:
    """A Colonist as typed (any case) -> as the game spells the name; InputError for a name
    that is none of the game's."""
    for n in names:
        if n.lower() == name.strip().lower():
            return n
    raise InputError(f"'{name.strip()}' is not a player in this game ({', '.join(names)})")


def _frozen(d: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(d or {}))


class Goods(NamedTuple):
    """A count for each Good (a Colonist's M.U.L.E.s by what they produce; the Buy Prices)."""

    smithore: int = 0
    crystite: int = 0
    food: int = 0
    energy: int = 0

    def of(self, good: str) -> int:
        value: int = getattr(self, good)
        return value


class Land(NamedTuple):
    """A Land on a Player Board: its type, the tile printed on it (None: not known, a
    Beginner's starting River saved before), its square, the Good its M.U.L.E. produces
    (None: no M.U.L.E.), and whether it shows its Secret Side."""

    land: str
    tile: str | None = None
    square: str | None = None
    mule: str | None = None
    secret: bool = False
    extra: Mapping[str, Any] = MappingProxyType({})


class Colonist(NamedTuple):
    """A Colonist: Money, Stocks, and the Lands on their Player Board with the M.U.L.E.s
    installed on them (counted by the Good they produce)."""

    name: str
    money: int
    stocks: Goods
    lands: tuple[Land, ...]
    mules: Goods
    extra: Mapping[str, Any] = MappingProxyType({})

    def stock(self, good: str) -> int:
        return self.stocks.of(good)

    @property
    def working(self) -> int:
        """M.U.L.E.s installed on this Colonist's Lands."""
        return sum(self.mules)


class Store(NamedTuple):
    """The Store: M.U.L.E.s in its Corral and its stock of each Good (None: a key the saved
    game does not hold, as Crystite, which The Store never keeps)."""

    mules: int
    smithore: int | None = None
    crystite: int | None = None
    food: int | None = None
    energy: int | None = None

    def stock(self, good: str) -> int:
        value: int | None = getattr(self, good)
        return value or 0


class Deck(NamedTuple):
    """One of the companion's Event decks: its draw pile (top first), its discard pile, and
    how many times it was shuffled again."""

    draw: tuple[str, ...]
    discard: tuple[str, ...] = ()
    shuffles: int = 0


class Development(NamedTuple):
    """2. Development while it lasts: the order of play, the Action Round, who has taken it,
    Hunt the Wampus's catches and each Colonist's Food used."""

    order: tuple[str, ...]
    round: int = 1
    done: tuple[str, ...] = ()
    caught: tuple[str, ...] = ()
    food_used: Mapping[str, int] = MappingProxyType({})
    extra: Mapping[str, Any] = MappingProxyType({})


class Colony(NamedTuple):
    """Game End (Tournament): the Colony's total Money and its row of the Colony Success
    Table (1 the best, 7 the worst)."""

    total: int
    rating: int
    text: str


class State(NamedTuple):
    """A game of M.U.L.E.: see the module's docstring. ``keys`` are the JSON form's keys in
    its order (a game saved by an older version may lack some: they stay absent)."""

    mode: str
    seed: int | str
    order: tuple[str, ...]
    ranking: tuple[str, ...]
    turn: int
    phase: str
    over: bool
    store: Store
    prices: Goods
    colonists: tuple[Colonist, ...]
    todo: tuple[tuple[str, str | None], ...] = ()
    # Colonist -> Hand Cards held (land_for_sale, package: how many); None: saved before them
    hands: Mapping[str, Mapping[str, int]] | None = None
    species: Mapping[str, str] | None = None       # Colonist -> Player Species Card
    craters: tuple[str, ...] = ()
    crater_zones: Mapping[str, str] = MappingProxyType({})   # Meteor Crater -> its Zone
    production_deck: tuple[str, ...] | None = None
    production_drawn: tuple[str, ...] = ()
    event_decks: Mapping[str, Deck] | None = None
    alt_events: bool = False
    dev: Development | None = None
    roles: Mapping[str, Mapping[str, str]] = MappingProxyType({})   # Good -> Colonist -> role
    final: bool = False
    card: str | None = None                         # the Production Card of this Turn
    shortage: Mapping[str, int] | None = None       # Energy Shortage: M.U.L.E.s to flip
    colony: Colony | None = None
    # the Optional Rules chosen at set-up (companion.mule.options): short name -> value
    options: Mapping[str, str] = MappingProxyType({})
    # Random Land Placement: Planet Irata as laid, a row a tuple (companion.mule.planet)
    planet: tuple[tuple[str, ...], ...] = ()
    # Land Auctions: the Colonists who played a Land for Sale! card this Turn, in the order
    # played (None: none has; the key is absent)
    auctions: tuple[str, ...] | None = None
    # Declaring Buyers and Sellers: Good -> Colonist -> buyer or seller, declared this Turn
    declared: Mapping[str, Mapping[str, str]] | None = None
    keys: tuple[str, ...] = ()
    extra: Mapping[str, Any] = MappingProxyType({})
    # the nested dicts' key order in the JSON form read (a Colonist's, a Land's, dev's, ...):
    # written back in it (:class:`Layout`; None: this version's layout)
    layout: Layout | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """The Colonists, Rank 1 first."""
        return self.ranking

    def colonist(self, name: str) -> Colonist:
        for c in self.colonists:
            if c.name == name:
                return c
        raise KeyError(name)

    def held(self, name: str, kind: str) -> int:
        """How many Hand Cards of ``kind`` (land_for_sale, package) ``name`` holds."""
        return int(((self.hands or {}).get(name) or {}).get(kind, 0))

    def talent_card(self, name: str) -> str | None:
        """The Player Species Card ``name`` picked (None without the Optional Rule)."""
        return (self.species or {}).get(name)

    @property
    def step(self) -> tuple[str, str | None] | None:
        """The step that comes now and for whom (None: the Turn's steps are not listed yet,
        as in a game saved before the steps)."""
        return self.todo[0] if self.todo else None


class Layout(NamedTuple):
    """The key order of a dict of the JSON form read (``order``) and the layouts of its
    values (``inner``: a key -> its dict's Layout, or its list's, a tuple of them by
    position)."""

    order: tuple[str, ...]
    inner: Mapping[str, Any] = MappingProxyType({})


def _layout(node: Any) -> Any:
    """The Layout of a dict, a tuple of a list's items' (None where an item holds no dict),
    None for anything else (or a list without dicts)."""
    if isinstance(node, Mapping):
        inner = {k: x for k, v in node.items() if (x := _layout(v)) is not None}
        return Layout(tuple(node), MappingProxyType(inner))
    if isinstance(node, list):
        items = tuple(_layout(v) for v in node)
        return items if any(x is not None for x in items) else None
    return None


def _laid(node: Any, layout: Any) -> Any:
    """``node`` (as this version writes it) with its dicts' keys in ``layout``'s order: the
    keys read first, in their order, then the new ones in this version's. A list's items
    follow the layout by position (an item added has none: this version's order)."""
    if isinstance(layout, Layout):
        if not isinstance(node, dict):
            return node
        keys = [k for k in layout.order if k in node]
        keys += [k for k in node if k not in layout.order]
        return {k: _laid(node[k], layout.inner.get(k)) for k in keys}
    if isinstance(layout, tuple) and isinstance(node, list):
        return [_laid(v, layout[i] if i < len(layout) else None) for i, v in enumerate(node)]
    return node


# -- the JSON form -----------------------------------------------------------------------------

# the keys of a game set up by this version, in their order
KEYS = ("game", "mode", "seed", "order", "ranking", "turn", "phase", "over", "store", "prices",
        "players", "production_deck", "production_drawn", "event_decks", "alt_events",
        "craters", "crater_zones", "hands", "species", "todo")
# typed keys a Phase keeps while it lasts: written when set, whether the saved game held them
_LATER = ("dev", "roles", "final", "card", "shortage", "colony", "options", "planet",
          "auctions", "declared")
_TYPED = frozenset(KEYS) | set(_LATER)


def land_of(raw: Any) -> Land:
    """A Land of the JSON form (a dict; a plain name in a game saved before) as typed."""
    return _land(raw)


def _land(raw: Any) -> Land:
    if not isinstance(raw, Mapping):        # saved before Lands were kept as dicts: a name
        text = str(raw)                      # (a tile's code, or a Land type)
        tile = text.upper() if re.match(_TILE, text) else None
        return Land("land" if tile else text, tile)
    return Land(str(raw.get("land", "land")), raw.get("tile"), raw.get("square"),
                raw.get("mule"), bool(raw.get("secret", False)),
                _frozen({k: v for k, v in raw.items() if k not in _LAND_KEYS}))


def _goods(raw: Mapping[str, Any]) -> Goods:
    return Goods(*(int(raw.get(g, 0)) for g in GOODS))


def _colonist(name: str, raw: Mapping[str, Any]) -> Colonist:
    keys = ("money", *GOODS, "lands", "mules")
    return Colonist(name, int(raw["money"]), _goods(raw), tuple(_land(x) for x in raw["lands"]),
                    _goods(raw.get("mules") or {}),
                    _frozen({k: v for k, v in raw.items() if k not in keys}))


def _dev(raw: Mapping[str, Any] | None) -> Development | None:
    if not raw:
        return None
    keys = ("order", "round", "done", "caught", "food_used")
    return Development(tuple(raw.get("order", ())), int(raw.get("round", 1)),
                       tuple(raw.get("done", ())), tuple(raw.get("caught", ())),
                       _frozen(raw.get("food_used")),
                       _frozen({k: v for k, v in raw.items() if k not in keys}))


def _decks(raw: Mapping[str, Any] | None) -> Mapping[str, Deck] | None:
    if raw is None:
        return None
    return MappingProxyType({k: Deck(tuple(d["draw"]), tuple(d.get("discard", ())),
                                     int(d.get("shuffles", 0))) for k, d in raw.items()})


def from_json(raw: Mapping[str, Any]) -> State:
    """The typed State of a saved game's JSON form (its fold). Raises KeyError, TypeError or
    ValueError for a form that is not a M.U.L.E. game's, which the saved game's reader turns
    into one line naming the game."""
    players, store, hands = raw["players"], raw["store"], raw.get("hands")
    species, deck = raw.get("species"), raw.get("production_deck")
    return State(
        str(raw["mode"]), raw["seed"], tuple(raw.get("order") or players),
        tuple(raw["ranking"]), int(raw["turn"]), str(raw.get("phase", "")),
        bool(raw.get("over", False)),
        Store(int(store["mules"]), *(store.get(g) for g in GOODS)), _goods(raw["prices"]),
        tuple(_colonist(n, p) for n, p in players.items()),
        tuple((str(step), who) for step, who in raw.get("todo") or ()),
        None if hands is None else MappingProxyType({n: _frozen(h) for n, h in hands.items()}),
        None if species is None else _frozen(species),
        tuple(raw.get("craters") or ()), _frozen(raw.get("crater_zones")),
        None if deck is None else tuple(deck), tuple(raw.get("production_drawn") or ()),
        _decks(raw.get("event_decks")), bool(raw.get("alt_events", False)),
        _dev(raw.get("dev")),
        MappingProxyType({g: _frozen(r) for g, r in (raw.get("roles") or {}).items()}),
        bool(raw.get("final", False)), raw.get("card"),
        None if raw.get("shortage") is None else _frozen(raw["shortage"]),
        _colony(raw.get("colony")), _frozen(raw.get("options")),
        tuple(tuple(str(e) for e in row) for row in raw.get("planet") or ()),
        _auctions(raw.get("auctions")), _declared(raw.get("declared")), tuple(raw),
        _frozen({k: v for k, v in raw.items() if k not in _TYPED or _kept_as_is(k, v)}),
        _layout(raw))


def _kept_as_is(key: str, value: Any) -> bool:
    """Whether a typed key's value is kept in ``extra`` as it is, its typed field None: an
    empty Development ({} or null), or Land Auctions' or Declaring Buyers and Sellers' record
    in a shape this version does not write (a ``set`` by hand), so the round trip loses
    nothing."""
    if key == "dev":
        return not value
    if key == "auctions":
        return value is not None and _auctions(value) is None
    if key == "declared":
        return value is not None and _declared(value) is None
    return False


def _auctions(raw: Any) -> tuple[str, ...] | None:
    """Land Auctions' record of the Turn: who played a Land for Sale! card (a list of
    names); None: absent, null, or another shape."""
    if isinstance(raw, list) and all(isinstance(n, str) for n in raw):
        return tuple(raw)
    return None


def _declared(raw: Any) -> Mapping[str, Mapping[str, str]] | None:
    """Declaring Buyers and Sellers' record of the Turn: Good -> Colonist -> buyer or
    seller; None: absent, null, or another shape."""
    if not isinstance(raw, Mapping) or not all(
            isinstance(roles, Mapping) and all(isinstance(r, str) for r in roles.values())
            for roles in raw.values()):
        return None
    return MappingProxyType({g: _frozen(roles) for g, roles in raw.items()})


def _colony(raw: Mapping[str, Any] | None) -> Colony | None:
    if raw is None:
        return None
    return Colony(int(raw["total"]), int(raw["rating"]), str(raw["text"]))


def _land_json(land: Land) -> dict[str, Any]:
    return {"land": land.land, "tile": land.tile, "square": land.square, "mule": land.mule,
            "secret": land.secret, **land.extra}


def _colonist_json(c: Colonist) -> dict[str, Any]:
    return {"money": c.money, **c.stocks._asdict(), "lands": [_land_json(x) for x in c.lands],
            "mules": c.mules._asdict(), **c.extra}


def _dev_json(d: Development | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {"order": list(d.order), "round": d.round, "done": list(d.done),
            "caught": list(d.caught), "food_used": dict(d.food_used), **d.extra}


def _values(s: State) -> dict[str, Any]:
    """Every typed key's JSON value."""
    return {
        "game": "mule", "mode": s.mode, "seed": s.seed, "order": list(s.order),
        "ranking": list(s.ranking), "turn": s.turn, "phase": s.phase, "over": s.over,
        "store": {k: v for k, v in s.store._asdict().items() if v is not None},
        "prices": s.prices._asdict(),
        "players": {c.name: _colonist_json(c) for c in s.colonists},
        "production_deck": None if s.production_deck is None else list(s.production_deck),
        "production_drawn": list(s.production_drawn),
        "event_decks": None if s.event_decks is None else {
            k: {"draw": list(d.draw), "discard": list(d.discard), "shuffles": d.shuffles}
            for k, d in s.event_decks.items()},
        "alt_events": s.alt_events, "craters": list(s.craters),
        "crater_zones": dict(s.crater_zones),
        "hands": None if s.hands is None else {n: dict(h) for n, h in s.hands.items()},
        "species": None if s.species is None else dict(s.species),
        "todo": [[step, who] for step, who in s.todo], "dev": _dev_json(s.dev),
        "roles": {g: dict(r) for g, r in s.roles.items()}, "final": s.final, "card": s.card,
        "shortage": None if s.shortage is None else dict(s.shortage),
        "colony": None if s.colony is None else s.colony._asdict(),
        "options": dict(s.options), "planet": [list(row) for row in s.planet],
        "auctions": None if s.auctions is None else list(s.auctions),
        "declared": None if s.declared is None else {
            g: dict(roles) for g, roles in s.declared.items()}}


def _set(s: State, key: str) -> bool:
    """Whether a Phase's typed key holds something (and so is written)."""
    value = getattr(s, key)
    return bool(value) if key in ("roles", "final", "options", "planet") else value is not None


def to_json(state: State) -> dict[str, Any]:
    """The JSON form of ``state``, in the layout the saved game holds: its keys, in their
    order (``keys``; a State made without them: this version's set-up's), the nested dicts'
    keys in the order read (``layout``), the keys it does not type as they were
    (``extra``)."""
    values = _values(state)
    # a State made without keys: the Phases' records after the set-up's keys, as when they
    # were untyped (in ``extra``)
    keys = state.keys or (*KEYS, *state.extra,
                          *(k for k in ("auctions", "declared") if _set(state, k)))
    keys = (*keys, *(k for k in _LATER if k not in keys and _set(state, k)))
    out: dict[str, Any] = {}
    inner = state.layout.inner if state.layout is not None else {}
    for key in keys:
        out[key] = state.extra[key] if key in state.extra else _laid(values[key],
                                                                      inner.get(key))
    return out
