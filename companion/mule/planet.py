"""Planet Irata as the table laid it, with the Optional Rule Random Land Placement: "Set up all
lands on Planet Irata in random locations, either including or not including Rivers to this
randomization" (``random-land-placement=rivers`` or ``=no-rivers``).

Without the rule each Land lies on a square printed with its type (``data.planet_irata``).
With it the game keeps the placement (``planet``: one list a row, top first, one entry a
square): typed at ``new`` (``--planet``) or drawn by the companion from the game's seed. An
entry is a Land tile's code as printed in its corner (``P07``: the companion then knows which
Zone each tile lies in), or a Land type's letter of the printed map (``P``, ``L``, ``H``,
``R``: the tiles unknown, as on the printed map), ``S`` for The Store's square, ``-`` for a
square left empty. Every Zone check (Land Grant, ``claimable``, Land Auctions, Meteorite
Strike!'s empty squares) reads the placement in place of the printed map.

The project's decisions: the placement holds exactly the set-up's Lands (a square with no
Land is typed ``-``); The Store keeps its printed square; with ``=no-rivers`` the Rivers lie on
the printed River squares and nothing else does; Meteor Craters come later (Meteorite
Strike!), never in the set-up's placement.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.mule import options
from components.errors import InputError, RuleError

if TYPE_CHECKING:
    import random

    from companion.mule.data import MuleData, PlanetIrata
    from companion.mule.state import State

__all__ = ["EMPTY", "check_on_planet", "draw", "laid", "parse", "planet_of", "rows_text",
           "tile_zone"]

EMPTY = "-"
KINDS = ("river", "plains", "low-mountain", "high-mountain")
Rows = tuple[tuple[str, ...], ...]


def _letter(md: MuleData) -> dict[str, str]:
    """Land type -> its letter on the printed map (``data.planet_irata.letters``)."""
    return {kind: letter for letter, kind in md.planet_irata.letters.items()}


def _kind(md: MuleData, entry: str) -> str | None:
    """The Land type of one entry of a placement (None: The Store's square, or empty)."""
    if entry == EMPTY:
        return None
    letters = md.planet_irata.letters
    if len(entry) == 1:
        kind = letters.get(entry)
        if kind is None:
            raise InputError(f"'{entry}': a square of Planet Irata is a Land tile's code (P07), "
                             f"a Land type's letter ({', '.join(letters)}) or {EMPTY} (empty)")
        return None if kind == "store" else kind
    return md.land(entry).land


def parse(text: str, md: MuleData, mode: str, players: int, rivers: bool) -> Rows:
    """A placement as the table types it at ``new``: the rows top first, separated by ``/``
    or ``,``; a row's entries by spaces (``H01 P07 L02 R01 P02 L03 H02``), or a row of letters
    written together (``HPLRPLH``). Checked by :func:`check`."""
    rows: list[tuple[str, ...]] = []
    for raw in text.replace(",", "/").split("/"):
        words = raw.split()
        if len(words) == 1 and not any(ch.isdigit() for ch in words[0]):
            words = list(words[0])
        rows.append(tuple(w.strip().upper() for w in words))
    laid_rows = tuple(rows)
    check(laid_rows, md, mode, players, rivers)
    return laid_rows


def check(rows: Rows, md: MuleData, mode: str, players: int, rivers: bool) -> None:
    """A placement the set-up can lay: the printed map's shape, The Store on its printed
    square, each tile once, exactly the set-up's Lands of each type, and (``rivers`` False:
    Random Land Placement without Rivers) the Rivers on the printed River squares alone."""
    printed = md.planet_irata
    what = "Random Land Placement"
    if len(rows) != len(printed.rows) or any(len(r) != len(printed.zones) for r in rows):
        raise InputError(f"{what}: Planet Irata has {len(printed.rows)} rows of "
                         f"{len(printed.zones)} squares; give each row, top first, e.g. "
                         f"--planet {'/'.join(printed.rows)}")
    tiles = [e for r in rows for e in r if len(e) > 1]
    twice = [t for t, n in Counter(tiles).items() if n > 1]
    if twice:
        raise InputError(f"{what}: {twice[0]} is one tile, laid on one square")
    kinds: Counter[str] = Counter()
    for y, row in enumerate(rows):
        for x, entry in enumerate(row):
            kind = _kind(md, entry)
            at = f"row {y + 1}, square {x + 1}"
            store = printed.letters.get(printed.rows[y][x]) == "store"
            if store and entry != "S":
                raise RuleError(f"{what}: {at} is The Store's square: give S there")
            if entry == "S" and not store:
                raise RuleError(f"{what}: The Store keeps its printed square, so {at} cannot "
                                "be S")
            if kind == "meteor-crater":
                raise RuleError(f"{what}: {entry} is a Meteor Crater: it comes with Meteorite "
                                "Strike!, not in the set-up")
            river_square = printed.letters.get(printed.rows[y][x]) == "river"
            if not rivers and entry != EMPTY and (kind == "river") != river_square:
                raise RuleError(f"{what} without Rivers: the Rivers keep the printed River "
                                f"squares and nothing else lies there, so {at} cannot be "
                                f"{entry}")
            if kind:
                kinds[kind] += 1
    lands = md.setup(mode, players).get("lands", {})
    for kind in KINDS:
        want = int(lands.get(kind, 0))
        if kinds[kind] != want:
            raise RuleError(f"{what}: the {mode} set-up for {players} lays {want} "
                            f"{kind.replace('-', ' ').title()} on Planet Irata, not "
                            f"{kinds[kind]} (a square left empty is {EMPTY})")


def draw(md: MuleData, mode: str, players: int, rivers: bool, rng: random.Random) -> Rows:
    """The placement drawn by the companion: the set-up's Lands drawn at random from the game's
    tiles and laid on random squares (The Store's kept; without Rivers, the Rivers on the
    printed River squares)."""
    printed = md.planet_irata
    lands = md.setup(mode, players).get("lands", {})
    pool = {k: sorted(t.tile for t in md.lands.values() if t.land == k) for k in KINDS}
    drawn: dict[str, list[str]] = {}
    for kind in KINDS:
        want = int(lands.get(kind, 0))
        if want > len(pool[kind]):
            raise RuleError(f"Random Land Placement: the set-up lays {want} {kind} and the "
                            f"game has {len(pool[kind])} such tiles")
        drawn[kind] = rng.sample(pool[kind], want)
    squares = [(y, x) for y, row in enumerate(printed.rows) for x, letter in enumerate(row)
               if printed.letters.get(letter) != "store"]
    beds = [q for q in squares if printed.letters.get(printed.rows[q[0]][q[1]]) == "river"]
    grid = [["S" if printed.letters.get(letter) == "store" else EMPTY for letter in row]
            for row in printed.rows]
    groups = [(beds, drawn["river"]), ([q for q in squares if q not in beds],
                                       drawn["plains"] + drawn["low-mountain"]
                                       + drawn["high-mountain"])] if not rivers else \
        [(squares, [t for k in KINDS for t in drawn[k]])]
    for where, tiles in groups:
        spots = rng.sample(where, len(tiles))
        for (y, x), tile in zip(spots, tiles, strict=True):
            grid[y][x] = tile
    return tuple(tuple(r) for r in grid)


def laid(s: State) -> Rows | None:
    """The placement kept by the game (None: the printed map's)."""
    return s.planet or None


def planet_of(s: State, md: MuleData) -> PlanetIrata:
    """Planet Irata as the Zone checks read it: the printed map, or with Random Land Placement
    the placement laid, each square read as its Land's type (an empty square as none)."""
    rows = laid(s)
    printed = md.planet_irata
    if rows is None:
        return printed
    letter = _letter(md)
    text = tuple("".join("S" if e == "S" else EMPTY if e == EMPTY else
                         e if len(e) == 1 else letter[md.land(e).land] for e in row)
                 for row in rows)
    return printed._replace(rows=text, letters={**printed.letters, EMPTY: "empty"})


def tile_zone(s: State, md: MuleData, tile: str) -> str | None:
    """The Zone of Planet Irata the tile was laid in (None: the placement does not name tiles,
    or names no such tile)."""
    for row in laid(s) or ():
        for x, entry in enumerate(row):
            if entry == tile:
                return md.planet_irata.zones[x]
    return None


def names_tiles(s: State) -> bool:
    return any(len(e) > 1 for row in laid(s) or () for e in row)


def check_on_planet(s: State, md: MuleData, tile: str) -> str | None:
    """The Zone ``tile`` lies in when the placement names tiles; a RuleError when it names
    them and ``tile`` is not among them (a Meteor Crater placed later is no part of it)."""
    if not names_tiles(s) or md.land(tile).land == "meteor-crater":
        return None
    zone = tile_zone(s, md, tile)
    if zone is None:
        raise RuleError(f"Random Land Placement: {tile} was not laid on Planet Irata at the "
                        "set-up (status shows the placement)")
    return zone


def rows_text(s: State, claimed: Sequence[str] = ()) -> list[str]:
    """The placement as status prints it, a row a line; a Land claimed since shows as ``.``."""
    gone = set(claimed)
    return [" ".join(("." * len(e) if e in gone else e).ljust(3) for e in row)
            for row in laid(s) or ()]


def variant(s: State) -> str | None:
    """Random Land Placement's value for this game (rivers, no-rivers; None: not chosen)."""
    return options.value(s.options, "random-land-placement")
