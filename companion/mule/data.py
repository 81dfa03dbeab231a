"""The M.U.L.E. numbers the companion computes with, read from the game's own definitions.

Everything comes from ``components.load("mule")``: ``data:`` (``components/mule/rules.yaml``:
price tracks, spoilage, the Corral, the Colony Success table, set-up quantities), the
Production Cards (``crystite_price``, ``modifiers``, ``effect``, ``game_turn_1``), the Lucky and
Unlucky Event Cards (``effect``, ``wampus``, ``alt_event``) and the Land tiles (``land``,
``production``). The same YAML is what the printed copy is made from.

Loading and validating a whole game folder costs more than a companion command may, so the few
values read here go through ``companion.data.cached_json``: a small JSON file in the user's
cache directory, read afresh when a YAML file of the folder (or an erratum) changes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Protocol, TypeVar

from companion.record import NamedTuple
from components.errors import DefinitionError, InputError


class _Card(Protocol):
    """What every card kind has: an id (``production/acid-rain-storm``)."""

    @property
    def id(self) -> str: ...


C = TypeVar("C", bound=_Card)

GOODS: tuple[str, ...] = ("smithore", "crystite", "food", "energy")
PRODUCTION_GROUP = "Production Cards"
LUCKY_GROUP = "Lucky Event Cards"
UNLUCKY_GROUP = "Unlucky Event Cards"
# Lands with a Secret Side (Plains and Mountains); Rivers and Meteor Craters have only a Public one
SECRET_SIDED = ("plains", "low-mountain", "high-mountain")
CACHE_VERSION = 5  # 4: card codes, Hand Cards; 5: Player Species Cards
HAND_GROUPS = ("Land for Sale Cards", "Package From Home World cards")
SPECIES_GROUP = "Player Species Cards"
TALENT_KEYS = ("action_food_cost", "wampus_draws", "overstock_limit", "pub",
               "package_ignores_condition")


class PriceTrack(NamedTuple):
    """One lane of the Price Track (5. Pricing): The Store's Buy and Sell Prices per step."""

    good: str
    buy_min: int
    buy_max: int
    sell_min: int
    step: int = 1

    @property
    def steps(self) -> int:
        return (self.buy_max - self.buy_min) // self.step + 1

    def position(self, buy: int) -> int:
        """The step (0 = bottom of the lane) at which The Store's Buy Price is ``buy``."""
        if buy < self.buy_min or buy > self.buy_max or (buy - self.buy_min) % self.step:
            raise InputError(f"{self.good}: ${buy} is not a Buy Price on its Price Track "
                             f"(${self.buy_min} to ${self.buy_max})")
        return (buy - self.buy_min) // self.step

    def buy_at(self, position: int) -> int:
        return self.buy_min + position * self.step

    def sell_at(self, position: int) -> int:
        return self.sell_min + position * self.step

    def sells_at(self, price: int) -> bool:
        """Whether ``price`` is a Sell Price on this lane."""
        return any(self.sell_at(k) == price for k in range(self.steps))

    def sell_for(self, buy: int) -> int:
        """The Store's Sell Price beside Buy Price ``buy``."""
        return self.sell_at(self.position(buy))


class ProductionCard(NamedTuple):
    """A Production Card (4. Production): its Crystite price and its effects."""

    id: str
    title: str
    crystite_price: int | None
    modifiers: dict[str, int] = {}
    effect: dict[str, Any] = {}
    text: str = ""
    fields: dict[str, Any] = {}
    code: str = ""

    @property
    def pirates(self) -> bool:
        """Pirate Ship!: the Crystite price stays unchanged."""
        return bool(self.effect.get("pirates")) or "pirate" in self.id

    @property
    def ship_is_back(self) -> bool:
        """The Ship is Back!: the game ends in this turn's Ranking Phase."""
        return bool(self.effect.get("ship_is_back")) or "ship-is-back" in self.id

    def on_turn(self, turn: int) -> tuple[str, dict[str, Any]]:
        """The card's text and structured effect on Game Turn ``turn``: Radiation! and Pest
        Attack! do something else on Game Turn 1 (their ``game_turn_1``)."""
        alt = self.fields.get("game_turn_1")
        if turn == 1 and isinstance(alt, dict):
            return str(alt.get("text", self.text)), dict(alt.get("effect") or {})
        return self.text, dict(self.effect)


class EventCard(NamedTuple):
    """A Lucky or Unlucky Event Card (8. Personal Events; Hunt the Wampus)."""

    id: str
    title: str
    lucky: bool
    effect: dict[str, Any] = {}
    wampus: bool = False
    alt_event: dict[str, int] = {}   # "three"/"four" -> Rank
    text: str = ""
    code: str = ""

    @property
    def deck(self) -> str:
        return "lucky" if self.lucky else "unlucky"


class SpeciesCard(NamedTuple):
    """A Player Species Card and its Special Talent (Optional Rule: Colonist Cards and Special
    Talents), as structured data: ``action_food_cost`` (Action -> Food), ``wampus_draws``,
    ``overstock_limit``, ``pub`` ($) and ``package_ignores_condition``."""

    id: str
    title: str                   # the species' printed name (Mechtron)
    talent: dict[str, Any] = {}
    talent_name: str = ""
    code: str = ""


class HandCard(NamedTuple):
    """A Hand Card: Land for Sale! (``kind`` land_for_sale) or Package From Home World!
    (``kind`` package, with its ``effect``)."""

    id: str
    title: str
    kind: str
    effect: dict[str, Any] = {}
    code: str = ""


class PlayerBoard(NamedTuple):
    """The squares of a Player Board as printed: columns left to right, rows top to bottom,
    each column's Zone, The Store's square and the river beds (``data.player_board``)."""

    columns: tuple[str, ...]
    rows: tuple[str, ...]
    zones: dict[str, str]
    store: str
    river_beds: tuple[str, ...]

    @property
    def squares(self) -> tuple[str, ...]:
        """Every square a Land may take, row by row (The Store's square left out)."""
        return tuple(f"{c}{r}" for r in self.rows for c in self.columns
                     if f"{c}{r}" != self.store)

    def square(self, text: str) -> str:
        """A square as typed (``b2``) -> as printed (``B2``); InputError if there is none."""
        want = text.strip().upper()
        if want == self.store:
            return want
        if want not in self.squares:
            raise InputError(f"'{text[:40]}': a square is {self.squares[0]} to {self.squares[-1]} "
                             f"(columns {self.columns[0]}-{self.columns[-1]}, rows "
                             f"{self.rows[0]}-{self.rows[-1]}, as printed on the Player Board)")
        return want

    def zone(self, square: str) -> str:
        return self.zones[square[0]]

    def at(self, square: str) -> tuple[int, int]:
        """(row, column), counted from 0."""
        return self.rows.index(square[1:]), self.columns.index(square[0])

    def adjacent(self, a: str, b: str) -> bool:
        """Orthogonally Adjacent squares."""
        (r1, c1), (r2, c2) = self.at(a), self.at(b)
        return abs(r1 - r2) + abs(c1 - c2) == 1


# what a letter of Planet Irata's map may stand for (``data.planet_irata.letters``)
PLANET_SQUARES = ("plains", "low-mountain", "high-mountain", "river", "store")


class PlanetIrata(NamedTuple):
    """Planet Irata as the Game Board prints it (``data.planet_irata``): the Land type of each
    square, row by row, each column's Zone, and what each letter of a row stands for (a Land
    type, or ``store`` for The Store's square)."""

    rows: tuple[str, ...]
    zones: tuple[str, ...]
    letters: dict[str, str] = {}

    def squares(self, zone: str, land: str) -> int:
        """How many squares of ``zone`` show the Land type ``land``."""
        return sum(1 for row in self.rows for col, letter in enumerate(row)
                   if self.zones[col] == zone and self.letters.get(letter) == land)

    def zones_of(self, land: str) -> list[str]:
        """The Zones with a square of the Land type ``land``, in column order."""
        return list(dict.fromkeys(z for z in self.zones if self.squares(z, land)))


class LandTile(NamedTuple):
    """A Land tile: its type and its Production Values (Secret Side for Crystite)."""

    id: str
    land: str
    production: dict[str, int]

    @property
    def tile(self) -> str:
        """The id printed on the tile (``P07``)."""
        return self.id.removeprefix("land/")

    @property
    def secret_side(self) -> bool:
        """Plains and Mountains hide their Crystite value on a Secret Side."""
        return self.land in SECRET_SIDED


class MuleData(NamedTuple):
    """The rule numbers of ``data:``, the Production Cards and the Land tiles."""

    data: dict[str, Any]
    cards: tuple[ProductionCard, ...]
    lands: dict[str, LandTile]
    events: dict[str, list[str]] = {}   # group -> card ids
    event_cards: tuple[EventCard, ...] = ()
    hand_cards: tuple[HandCard, ...] = ()
    species_cards: tuple[SpeciesCard, ...] = ()

    # -- rule numbers ---------------------------------------------------------------------
    def _get(self, *path: str) -> Any:
        node: Any = self.data
        for part in path:
            if not isinstance(node, dict) or part not in node:
                raise DefinitionError(f"the mule rules data has no '{'.'.join(path)}' "
                                      "(components/mule/rules.yaml)")
            node = node[part]
        return node

    def track(self, good: str) -> PriceTrack:
        good = check_good(good)
        lane = self._get("price_track", good)
        buy, sell = lane["buy"], lane["sell"]
        return PriceTrack(good, int(buy[0]), int(buy[1]), int(sell[0]), int(lane.get("step", 1)))

    @property
    def food_divisor(self) -> int:
        return int(self._get("spoilage", "food_divisor"))

    @property
    def energy_divisor(self) -> int:
        return int(self._get("spoilage", "energy_divisor"))

    @property
    def overstock_limit(self) -> int:
        return int(self._get("spoilage", "overstock_limit"))

    @property
    def food_per_colonist(self) -> int:
        return int(self._get("pricing", "food_per_colonist"))

    @property
    def pens(self) -> int:
        return int(self._get("corral", "pens"))

    @property
    def mules_per_pen(self) -> int:
        return int(self._get("corral", "mules_per_pen"))

    @property
    def land_value(self) -> int:
        return int(self._get("ranking_values", "land"))

    @property
    def mule_value(self) -> int:
        return int(self._get("ranking_values", "mule"))

    @property
    def development(self) -> dict[str, Any]:
        """2. Development: ``action_rounds``, ``actions_per_round``, ``food_per_round``,
        ``action_food_cost`` (Action -> Food), ``wampus`` and ``pub`` ($)."""
        return dict(self._get("development"))

    def food_cost(self, action: str) -> int:
        return int(self._get("development", "action_food_cost", action))

    @property
    def land_auction(self) -> tuple[int, int]:
        """Land Auctions: the opening bid and each raise."""
        return (int(self._get("land_auction", "opening_bid")),
                int(self._get("land_auction", "raise")))

    @property
    def player_board(self) -> PlayerBoard:
        pb = self._get("player_board")
        return PlayerBoard(tuple(str(c) for c in pb["columns"]),
                           tuple(str(r) for r in pb["rows"]),
                           {str(k): str(v) for k, v in pb["zones"].items()}, str(pb["store"]),
                           tuple(str(r) for r in pb["river_beds"]))

    @property
    def planet_irata(self) -> PlanetIrata:
        pi = self._get("planet_irata")
        rows = tuple(str(r).upper() for r in pi["rows"])
        zones = tuple(str(z) for z in pi["zones"])
        letters = {str(k).upper(): str(v) for k, v in (pi.get("letters") or {}).items()}
        odd = sorted(v for v in letters.values() if v not in PLANET_SQUARES)
        if not letters or odd or any(len(k) != 1 for k in letters):
            raise DefinitionError("data.planet_irata.letters: each letter of the map stands "
                                  f"for one of {', '.join(PLANET_SQUARES)}"
                                  + (f", not '{odd[0]}'" if odd else "")
                                  + " (components/mule/rules.yaml)")
        if any(len(r) != len(zones) or set(r) - set(letters) for r in rows):
            raise DefinitionError(f"data.planet_irata: every row needs one letter "
                                  f"({', '.join(letters)}) per column of `zones` "
                                  "(components/mule/rules.yaml)")
        return PlanetIrata(rows, zones, letters)

    def hand_dealt(self, mode: str) -> dict[str, int]:
        """The Hand Cards each Colonist is dealt at the set-up of ``mode``."""
        return {str(k): int(v) for k, v in (self.data.get("hand_cards", {}).get(mode)
                                              or {}).items()}

    def colony_rows(self) -> list[dict[str, Any]]:
        return list(self._get("colony_success", "rows"))

    def setup(self, mode: str, players: int) -> dict[str, Any]:
        modes = self._get("setup")
        if mode not in modes:
            raise InputError(f"no set-up '{mode}' (choose {', '.join(modes)})")
        key = f"players_{players}"
        if key not in modes[mode]:
            counts = sorted(k.removeprefix("players_") for k in modes[mode]
                            if k.startswith("players_"))
            raise InputError(f"the {mode} set-up is for {' or '.join(counts)} players, "
                             f"not {players}")
        out = dict(modes[mode][key])
        for k, v in modes[mode].items():
            if not k.startswith("players_"):
                out[k] = v
        return out

    # -- components -------------------------------------------------------------------------
    def card(self, ref: str) -> ProductionCard:
        """A Production Card by its printed code (``PR05``), title, id or slug; a title printed
        on several cards is refused with their codes (:func:`matching` lists them)."""
        return _one(self.cards, ref, "Production Card")

    def hand(self, ref: str) -> HandCard:
        """A Hand Card by its printed code (``HC01``), title, id or slug."""
        return _one(self.hand_cards, ref, "Hand Card")

    def species(self, ref: str) -> SpeciesCard:
        """A Player Species Card by its printed code (``SP01``), name (Mechtron) or id."""
        return _one(self.species_cards, ref, "Player Species Card")

    def deck(self, name: str) -> tuple[EventCard, ...]:
        """The Lucky (``lucky``) or Unlucky (``unlucky``) Event Cards."""
        return tuple(c for c in self.event_cards if c.deck == name)

    def event(self, ref: str) -> EventCard:
        """An Event Card by its printed code (``LE03``), title, id or slug."""
        return _one(self.event_cards, ref, "Event Card")

    def craters(self) -> list[LandTile]:
        """The Meteor Crater tiles (they enter play with a Production Card)."""
        return [t for t in self.lands.values() if t.land == "meteor-crater"]

    def land(self, ref: str) -> LandTile:
        """A Land tile by id (``land/P07`` or ``P07``)."""
        key = ref if ref.startswith("land/") else f"land/{ref.upper()}"
        if key not in self.lands:
            raise InputError(f"no Land tile '{ref}' (tiles look like P07, R01, H03)")
        return self.lands[key]


def check_good(good: str) -> str:
    """The Good's name in lower case; InputError for anything but the four Goods."""
    name = good.strip().lower()
    if name not in GOODS:
        raise InputError(f"unknown good '{good}' (goods: {', '.join(GOODS)})")
    return name


def matching(cards: tuple[Any, ...], ref: str) -> list[Any]:
    """The cards a table's word names: its printed code, id, slug or title (every card printed
    with that title); else the one card whose slug or title starts so."""
    want = _slug(ref)
    if not want:
        return []
    keys = [(c, (_slug(c.id), _slug(c.id.split("/")[-1]), _slug(getattr(c, "code", "")),
                 _slug(c.title))) for c in cards]
    exact = [card for card, names in keys if want in names[:3]]
    if exact:
        return exact[:1]
    titled = [card for card, names in keys if names[3] == want]
    if titled:
        return titled
    starts = {_slug(card.title): card for card, names in keys
              if any(n.startswith(want) for n in (names[1], names[3]))}
    return list(starts.values()) if len(starts) == 1 and len(
        [c for c, n in keys if _slug(c.title) in starts]) == 1 else []


def describe_card(card: Any) -> str:
    """``PR01 ($5)``: a card's code and what tells it apart from cards of the same title."""
    price = getattr(card, "crystite_price", None)
    effect = getattr(card, "effect", {}) or {}
    goods = effect.get("goods") if isinstance(effect, dict) else None
    extra = f"${price}" if price is not None else (", ".join(goods) if goods else "")
    code = getattr(card, "code", "") or card.id
    return f"{code} ({extra})" if extra else code


def _one(cards: tuple[C, ...], ref: str, what: str) -> C:
    found: list[C] = matching(cards, ref)
    if len(found) == 1:
        return found[0]
    if found:
        raise InputError(f"'{ref}' is printed on {len(found)} cards: give its code, "
                         + ", ".join(describe_card(c) for c in found))
    names = ", ".join(getattr(c, "code", "") or c.id.split("/")[-1] for c in cards) \
        or "none are defined"
    raise InputError(f"no {what} '{ref}' (cards: {names})")


def plain(text: str) -> str:
    """A card's text for the terminal: ``{food}`` as Food, no ``**`` emphasis, one line."""
    out = re.sub(r"\{([a-z-]+)\}", lambda m: m.group(1).capitalize(), text)
    return out.replace("**", "").replace("\n", "; ").strip()


def _slug(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


# -- reading the definitions ----------------------------------------------------------------

def from_game(game: Any) -> MuleData:
    """Extract the companion's numbers from a loaded ``components.Game``."""
    return _from_raw(_raw_from_game(game))


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _raw_from_game(game: Any) -> dict[str, Any]:
    comps = []
    for comp in game.components:
        fields = dict(comp.fields)
        if comp.group == PRODUCTION_GROUP or "land" in fields or "Event" in comp.group \
                or comp.group in HAND_GROUPS or comp.group == SPECIES_GROUP:
            comps.append({"id": comp.id, "group": comp.group, "fields": _plain(fields)})
    return {"version": CACHE_VERSION, "data": _plain(game.data), "components": comps}


def _from_raw(raw: dict[str, Any]) -> MuleData:
    cards: list[ProductionCard] = []
    lands: dict[str, LandTile] = {}
    events: dict[str, list[str]] = {}
    event_cards: list[EventCard] = []
    hand: list[HandCard] = []
    species: list[SpeciesCard] = []
    for comp in raw["components"]:
        f = comp["fields"]
        if comp["group"] == SPECIES_GROUP:
            talent = dict(f.get("talent") or {})
            unknown = sorted(set(talent) - set(TALENT_KEYS))
            if unknown:
                raise DefinitionError(f"{comp['id']}: talent '{unknown[0]}' is not one the "
                                      f"companion knows ({', '.join(TALENT_KEYS)})")
            species.append(SpeciesCard(comp["id"], str(f.get("name", comp["id"])), talent,
                                       str(f.get("talent_name", "")), str(f.get("code", ""))))
        elif comp["group"] in HAND_GROUPS:
            hand.append(HandCard(comp["id"], str(f.get("title", comp["id"])),
                                 "land_for_sale" if "Sale" in comp["group"] else "package",
                                 dict(f.get("effect") or {}), str(f.get("code", ""))))
        elif comp["group"] == PRODUCTION_GROUP:
            price = f.get("crystite_price")
            cards.append(ProductionCard(
                id=comp["id"], title=str(f.get("title", comp["id"])),
                crystite_price=int(price) if isinstance(price, int | float) else None,
                modifiers={check_good(k): int(v) for k, v in (f.get("modifiers") or {}).items()},
                effect=dict(f.get("effect") or {}), text=str(f.get("text", "")), fields=f,
                code=str(f.get("code", ""))))
        elif "land" in f:
            prod = {k: int(v) for k, v in (f.get("production") or {}).items()
                    if isinstance(v, int | float)}
            lands[comp["id"]] = LandTile(comp["id"], str(f["land"]), prod)
        else:
            events.setdefault(comp["group"], []).append(comp["id"])
            if comp["group"] in (LUCKY_GROUP, UNLUCKY_GROUP):
                alt = f.get("alt_event") or {}
                event_cards.append(EventCard(
                    id=comp["id"], title=str(f.get("title", comp["id"])),
                    lucky=comp["group"] == LUCKY_GROUP, effect=dict(f.get("effect") or {}),
                    wampus=bool(f.get("wampus")),
                    alt_event={k: int(v) for k, v in alt.items() if isinstance(v, int)},
                    text=str(f.get("text", "")), code=str(f.get("code", ""))))
    return MuleData(raw["data"], tuple(cards), lands, events, tuple(event_cards), tuple(hand),
                    tuple(species))


_LOADED: dict[int, MuleData] = {}
# the game folder read when none is named (None: the bundled ``components/mule``); tests point
# it at a fixture
FOLDER: Path | None = None


def load(folder: Path | None = None) -> MuleData:
    """The M.U.L.E. numbers: from the bundled game (or a game folder), through the cache."""
    from companion.data import cached_json

    raw = cached_json("mule", _raw_from_game, CACHE_VERSION, folder or FOLDER)
    if id(raw) not in _LOADED:
        _LOADED.clear()
        _LOADED[id(raw)] = _from_raw(raw)
    return _LOADED[id(raw)]
