"""The M.U.L.E. numbers the companion computes with, read from the game's own definitions.

Everything comes from ``components.load("mule")``: ``data:`` (``components/mule/rules.yaml``:
price tracks, spoilage, the Corral, the Colony Success table, set-up quantities), the
Production Cards (``crystite_price``, ``modifiers``, ``effect``) and the Land tiles
(``land``, ``production``). The same YAML is what the printed copy is made from.

Loading and validating a whole game folder costs more than a companion command may, so the few
values read here are kept in a small JSON file in the user's cache directory, keyed by the name,
size and modification time of every YAML file of the folder: an edited definition (or an
erratum) is read afresh on the next command.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from components.errors import DefinitionError, InputError

GOODS: tuple[str, ...] = ("smithore", "crystite", "food", "energy")
PRODUCTION_GROUP = "Production Cards"
CACHE_VERSION = 1


@dataclass(frozen=True)
class PriceTrack:
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

    def sell_for(self, buy: int) -> int:
        """The Store's Sell Price beside Buy Price ``buy``."""
        return self.sell_at(self.position(buy))


@dataclass(frozen=True)
class ProductionCard:
    """A Production Card (4. Production): its Crystite price and its effects."""

    id: str
    title: str
    crystite_price: int | None
    modifiers: dict[str, int] = field(default_factory=dict)
    effect: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def pirates(self) -> bool:
        """Pirate Ship!: the Crystite price stays unchanged."""
        return bool(self.effect.get("pirates")) or "pirate" in self.id

    @property
    def ship_is_back(self) -> bool:
        """The Ship is Back!: the game ends in this turn's Ranking Phase."""
        return bool(self.effect.get("ship_is_back")) or "ship-is-back" in self.id


@dataclass(frozen=True)
class LandTile:
    """A Land tile: its type and its Production Values (Secret Side for Crystite)."""

    id: str
    land: str
    production: dict[str, int]


@dataclass(frozen=True)
class MuleData:
    """The rule numbers of ``data:``, the Production Cards and the Land tiles."""

    data: dict[str, Any]
    cards: tuple[ProductionCard, ...]
    lands: dict[str, LandTile]
    events: dict[str, list[str]] = field(default_factory=dict)   # group -> card ids

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
        """A Production Card by id (``production/acid-rain-storm``), slug or title."""
        want = _slug(ref)
        for card in self.cards:
            if want in (_slug(card.id), _slug(card.id.split("/")[-1]), _slug(card.title)):
                return card
        names = ", ".join(c.id.split("/")[-1] for c in self.cards) or "none are defined"
        raise InputError(f"no Production Card '{ref}' (cards: {names})")

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
        if comp.group == PRODUCTION_GROUP or "land" in fields or "Event" in comp.group:
            comps.append({"id": comp.id, "group": comp.group, "fields": _plain(fields)})
    return {"version": CACHE_VERSION, "data": _plain(game.data), "components": comps}


def _from_raw(raw: dict[str, Any]) -> MuleData:
    cards: list[ProductionCard] = []
    lands: dict[str, LandTile] = {}
    events: dict[str, list[str]] = {}
    for comp in raw["components"]:
        f = comp["fields"]
        if comp["group"] == PRODUCTION_GROUP:
            price = f.get("crystite_price")
            cards.append(ProductionCard(
                id=comp["id"], title=str(f.get("title", comp["id"])),
                crystite_price=int(price) if isinstance(price, int | float) else None,
                modifiers={check_good(k): int(v) for k, v in (f.get("modifiers") or {}).items()},
                effect=dict(f.get("effect") or {}), text=str(f.get("text", "")), fields=f))
        elif "land" in f:
            prod = {k: int(v) for k, v in (f.get("production") or {}).items()
                    if isinstance(v, int | float)}
            lands[comp["id"]] = LandTile(comp["id"], str(f["land"]), prod)
        else:
            events.setdefault(comp["group"], []).append(comp["id"])
    return MuleData(raw["data"], tuple(cards), lands, events)


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "irata"


def _fingerprint(folder: Path) -> str:
    h = hashlib.sha1(str(folder.resolve()).encode())
    for path in sorted(folder.rglob("*.yaml")):
        st = path.stat()
        h.update(f"{path.relative_to(folder)}|{st.st_size}|{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:16]


_LOADED: dict[str, MuleData] = {}
# the game folder read when none is named (None: the bundled ``components/mule``); tests point
# it at a fixture
FOLDER: Path | None = None


def load(folder: Path | None = None) -> MuleData:
    """The M.U.L.E. numbers: from the bundled game (or a game folder), through the cache."""
    import components

    if folder is None:
        folder = FOLDER or components.bundled_root() / "mule"
    folder = Path(folder)
    key = _fingerprint(folder) if folder.is_dir() else ""
    if key in _LOADED:
        return _LOADED[key]
    cache = _cache_dir() / f"mule-data-{key}.json"
    raw: dict[str, Any] | None = None
    if key:
        try:
            raw = json.loads(cache.read_text(encoding="utf-8"))
            if raw.get("version") != CACHE_VERSION:
                raw = None
        except (OSError, ValueError):
            raw = None
    if raw is None:
        game = components.load_path(folder) if folder.is_dir() else components.load("mule")
        raw = _raw_from_game(game)
        if key:
            _write_cache(cache, raw)
    result = _from_raw(raw)
    _LOADED[key] = result
    return result


def _write_cache(cache: Path, raw: dict[str, Any]) -> None:
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(raw), encoding="utf-8")
        os.replace(tmp, cache)
    except OSError:
        pass  # a cache that cannot be written only costs time
