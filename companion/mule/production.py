"""4. Production: Base Production with a Production Card's modifiers, flipped M.U.L.E.s,
Lands producing Crystite for the first time, and Economies of Scale (Tournament only).

A player types a Land with a working M.U.L.E. as one short cell:

    F3        a M.U.L.E. producing Food on a Land whose Food Production Value is 3
    P07:C     a M.U.L.E. producing Crystite on the tile P07 (its value read from the tile)
    E3!       flipped over (Energy Shortage or a Production Card): produces nothing
    C2?       Crystite produced here for the first time: turn the Land to its Secret Side
    .         a square with no working M.U.L.E. (or The Store's square)

A list (``F3,C1,E3!``) gives Base Production; a board, rows split by ``/`` and cells by spaces
(``"C1 C0 E3 / C1 C3 E3 / F3 F3! ."``), also gives the Paths between orthogonally Adjacent
Lands for Economies of Scale.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from companion.record import NamedTuple
from components.errors import InputError, RuleError

GOODS: tuple[str, ...] = ("smithore", "crystite", "food", "energy")
_LETTER = {"s": "smithore", "c": "crystite", "f": "food", "e": "energy"}


class Worked(NamedTuple):
    """A Land with a M.U.L.E. installed: what it produces and its Production Value."""

    good: str
    value: int
    flipped: bool = False
    first_crystite: bool = False
    tile: str | None = None
    at: tuple[int, int] | None = None   # (row, column) on the Player Board

    @property
    def label(self) -> str:
        return self.tile or f"{self.good[0].upper()}{self.value}"


class Production(NamedTuple):
    """A Colonist's production of one Production Phase."""

    base: dict[str, int]
    economies_of_scale: dict[str, int]
    total: dict[str, int]
    paths: dict[str, int]
    turn_over: tuple[str, ...]          # Lands turned permanently to their Secret Side
    flipped: int


# Game Components, Land Tiles: "Production Values can range from zero (X) to three".
PRODUCTION_VALUE_MAX = 3


def parse_cell(text: str, tile_value: Callable[[str, str], int] | None = None,
               at: tuple[int, int] | None = None) -> Worked | None:
    """One typed cell (see the module's docstring); None for an empty square."""
    cell = text.strip()
    if cell in ("", ".", "-", "_", "*"):
        return None
    flipped = first = False
    while cell and cell[-1] in "!?":
        flipped |= cell[-1] == "!"
        first |= cell[-1] == "?"
        cell = cell[:-1]
    tile = None
    if ":" in cell:
        tile, cell = cell.split(":", 1)
    letters = cell.rstrip("0123456789")
    digits = cell[len(letters):]
    good = _LETTER.get(letters.lower()) or (letters.lower() if letters.lower() in GOODS else None)
    if good is None:
        raise InputError(f"'{text}': start with the Good (S, C, F or E), e.g. F3, P07:C, E2!")
    if tile is not None:
        if tile_value is None:
            raise InputError(f"'{text}': Land tiles are not available here")
        value = tile_value(tile, good)
    elif digits:
        value = int(digits) if len(digits) <= 3 else PRODUCTION_VALUE_MAX + 1
        if value > PRODUCTION_VALUE_MAX:
            raise InputError(f"'{text}': a Production Value is 0 to {PRODUCTION_VALUE_MAX} "
                             "(as printed on the Land's side), not "
                             f"{digits if len(digits) <= 12 else digits[:12] + '...'}")
    else:
        raise InputError(f"'{text}': give the Production Value (F3) or the tile (P07:F)")
    return Worked(good, value, flipped, first and good == "crystite", tile, at)


def parse_lands(text: str, tile_value: Callable[[str, str], int] | None = None
                ) -> list[Worked]:
    """A comma-separated list of cells."""
    out = []
    for part in text.replace(";", ",").split(","):
        if part.strip():
            cell = parse_cell(part, tile_value)
            if cell is not None:
                out.append(cell)
    return out


def parse_board(text: str, tile_value: Callable[[str, str], int] | None = None
                ) -> list[Worked]:
    """A Player Board: rows split by ``/`` (or new lines), cells by spaces."""
    out = []
    rows = [r for r in text.replace("\n", "/").split("/")]
    for r, row in enumerate(rows):
        for c, part in enumerate(row.replace(",", " ").split()):
            cell = parse_cell(part, tile_value, (r, c))
            if cell is not None:
                out.append(cell)
    return out


def modified_value(value: int, good: str, modifiers: Mapping[str, int]) -> int:
    """A Production Card's modifier, which never drops a Production Value below zero."""
    return max(0, value + int(modifiers.get(good, 0)))


def count_paths(lands: Sequence[Worked]) -> dict[str, int]:
    """Paths between orthogonally Adjacent Lands whose working (not flipped) M.U.L.E.s
    produce the same Good."""
    where = {w.at: w for w in lands if w.at is not None and not w.flipped}
    paths = dict.fromkeys(GOODS, 0)
    for (r, c), w in where.items():
        for other in ((r, c + 1), (r + 1, c)):
            o = where.get(other)
            if o is not None and o.good == w.good:
                paths[w.good] += 1
    return paths


def produce(lands: Sequence[Worked], modifiers: Mapping[str, int] | None = None,
            tournament: bool = False) -> Production:
    """4. Production: Base Production sums the modified Production Values of the Lands
    producing each Good with M.U.L.E.s not flipped over; under Tournament rules Economies of
    Scale adds one Good per Path between Adjacent Lands producing the same Good."""
    mods = dict(modifiers or {})
    base = dict.fromkeys(GOODS, 0)
    turn_over = []
    for w in lands:
        if w.value < 0:
            raise InputError(f"{w.label}: a Production Value is 0 to 3, not {w.value}")
        if w.flipped:
            continue
        base[w.good] += modified_value(w.value, w.good, mods)
        if w.first_crystite:
            turn_over.append(w.label)
    if tournament and any(w.at is None for w in lands):
        raise InputError("Economies of Scale need the Player Board's layout (--board)")
    paths = count_paths(lands) if tournament else dict.fromkeys(GOODS, 0)
    total = {g: base[g] + paths[g] for g in GOODS}
    return Production(base, dict(paths), total, paths, tuple(turn_over),
                      sum(1 for w in lands if w.flipped))


def tile_value_from(lands: Mapping[str, object]) -> Callable[[str, str], int]:
    """A tile lookup for :func:`parse_cell` over ``MuleData.lands`` (``land/P07`` -> tile)."""

    def value(ref: str, good: str) -> int:
        key = ref if ref.startswith("land/") else f"land/{ref.upper()}"
        tile = lands.get(key)
        if tile is None:
            raise InputError(f"no Land tile '{ref}' (tiles look like P07, R01, H03)")
        production = tile.production  # type: ignore[attr-defined]
        if good not in production:
            raise RuleError(f"{ref} ({tile.land}) has no Production Value for {good}: "  # type: ignore[attr-defined]
                            "nothing can be set to produce it there")
        return int(production[good])

    return value


# -- Production Cards' effects beyond modifiers (4. Production: Draw a Production Card) ------------

def radiation_ranks(effect: Mapping[str, object], players: int) -> list[int]:
    """Radiation!: the Ranks hit (Rank 1; every Rank on Game Turn 1), within the game's
    number of Colonists."""
    rad = effect.get("radiation")
    if not isinstance(rad, Mapping):
        return []
    return [int(r) for r in rad.get("ranks", []) if 1 <= int(r) <= players]


def pest_attack_targets(effect: Mapping[str, object], ranking: Sequence[str],
                        produces: Callable[[str], bool], every: bool) -> list[str]:
    """Pest Attack!: the Rank 1 Colonist, or the Rank 2 one if Rank 1 produces no Food (never
    Rank 3: see the rulebook's Questions and Answers); on Game Turn 1 (``every``) each listed
    Rank producing Food. ``produces(name)`` says whether a Colonist has a working Food Land."""
    pest = effect.get("pest_attack")
    if not isinstance(pest, Mapping):
        return []
    names = [ranking[int(r) - 1] for r in pest.get("ranks", []) if 1 <= int(r) <= len(ranking)]
    hit = [n for n in names if produces(n)]
    return hit if every else hit[:1]


def land_index(lands: Sequence[Worked], ref: str | None, good: str | None = None,
               what: str = "the Land hit") -> int | None:
    """Which of ``lands`` the player names: a tile (P07), a cell as typed (E3) or a position
    (1 = the first typed). Without ``ref``, the only candidate (None when there is none); the
    candidates are the working Lands producing ``good`` (any Land with a M.U.L.E. when None:
    a M.U.L.E. already flipped may be the one Radiation! takes)."""
    candidates = [i for i, w in enumerate(lands)
                  if good is None or (w.good == good and not w.flipped)]
    if ref is None or not ref.strip():
        if not candidates:
            return None
        if len(candidates) == 1:
            return candidates[0]
        shown = ", ".join(lands[i].label for i in candidates)
        raise InputError(f"{what}: the Colonist chooses one of {shown}")
    want = ref.strip().upper().rstrip("!?")
    if want.isascii() and want.isdigit():
        i = int(want) - 1 if len(want) < 10 else -1  # too long a number names no Land
        if not 0 <= i < len(lands):
            raise InputError(f"{what}: there is no Land number {want[:20]}")
        found = [i]
    else:
        found = [i for i, w in enumerate(lands)
                 if want in ((w.tile or "").upper(), w.label.upper(),
                             f"{w.tile}:{w.good[0]}".upper())]
    found = [i for i in found if i in candidates]
    if not found:
        kind = f" producing {good}" if good else " with a M.U.L.E."
        shown = ", ".join(lands[i].label for i in candidates) or "none"
        raise InputError(f"{what}: '{ref[:40]}' is not one of the Lands{kind} ({shown})")
    return found[0]


class Struck(NamedTuple):
    """Which of one Colonist's Lands Radiation! or Pest Attack! hits (None: none), and what
    the table is told when the companion cannot know it."""

    land: int | None
    notes: tuple[str, ...] = ()


def struck_land(effect: Mapping[str, object], lands: Sequence[Worked], rank: int | None,
                hit: str | None, every: bool, what: str = "the Land hit") -> Struck:
    """Radiation! or Pest Attack! for one Colonist counted alone (``irata play mule
    production``): the Land it hits among ``lands``, named by ``hit`` (a tile, a cell as typed,
    or its number; the only candidate when not named). ``rank`` is this Colonist's Rank (None:
    not given); the Colonists ranked above it are taken to produce Food unless ``hit`` says
    this one was hit. ``every``: Pest Attack!'s Game Turn 1 effect (each listed Rank).

    Whom the card hits is :func:`radiation_ranks` and :func:`pest_attack_targets`; a Land named
    for a card that hits nobody of this Rank is refused, naming the rule."""
    rad, pest = (v if isinstance(v, Mapping) and v else None
                 for v in (effect.get("radiation"), effect.get("pest_attack")))
    card = rad or pest
    if card is None:
        if hit is not None:
            raise InputError(f"{what} is for Radiation! and Pest Attack!, not this card")
        return Struck(None)
    name = "Radiation!" if rad else "Pest Attack!"
    ranks = [int(str(r)) for r in card.get("ranks", [])]
    good = None if rad else str(card.get("good", "food"))
    if rank is None:
        if hit is None:
            return Struck(None, (f"{name} hits Rank {' or '.join(map(str, ranks))}: give --rank "
                                 f"(and {what}) to count it",))
        return Struck(land_index(lands, hit, good, what))
    ranking = [f"Rank {i}" for i in range(1, max([rank, *ranks]) + 1)]
    me = ranking[rank - 1]
    if good is None:
        targeted = rank in radiation_ranks(effect, len(ranking))
    else:
        mine = any(w.good == good and not w.flipped for w in lands)

        def produces(who: str) -> bool:
            return mine if who == me else hit is None

        targeted = me in pest_attack_targets(effect, ranking, produces, every)
        if not targeted and rank in ranks and hit is None and mine:
            return Struck(None, (f"{name} hits Rank {rank} only if Rank {ranks[0]} produces no "
                                 f"{good}: give {what} to count it",))
    if not targeted:
        if hit is not None:
            raise RuleError(f"{name} does not hit Rank {rank}")
        return Struck(None)
    return Struck(land_index(lands, hit, good, what))


def strike(lands: Sequence[Worked], index: int | None) -> list[Worked]:
    """The Lands with the one at ``index`` producing nothing this Turn (a M.U.L.E. lost or
    flipped by Radiation!, a Food Land eaten by Pest Attack!): like a flipped M.U.L.E., it
    makes no Goods, no Economies of Scale and turns no Land to its Secret Side."""
    out = list(lands)
    if index is not None:
        out[index] = out[index]._replace(flipped=True, first_crystite=False)
    return out


def store_after_card(store: Mapping[str, int], effect: Mapping[str, object]) -> dict[str, int]:
    """Fire in The Store!: every unit of the listed Goods in The Store burns (the M.U.L.E.s
    in the Corral escape)."""
    out = dict(store)
    for good in effect.get("store_loses_all") or []:   # type: ignore[attr-defined]
        out[str(good)] = 0
    return out
