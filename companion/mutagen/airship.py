"""The Airship board: Storage tiles, installation spaces and the Element installation rules.

The board's shape comes from ``data.airship`` in the definitions: a storage area of columns
``A B C`` (left to right) and rows ``1..4`` whose squares show a Shard Fragment cost, and two
hull spaces ``H1 H2`` (side by side) that take Elements from the start.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.mutagen.rules import Rules
from companion.record import NamedTuple
from components.errors import InputError, RuleError

ANY = "any"


class Element(NamedTuple):
    """An Element tile (a type and a colour) or a Supreme Element token (any of both)."""

    type: str | None = None
    colour: str | None = None
    supreme: bool = False

    def label(self) -> str:
        return "Supreme Element" if self.supreme else f"{self.colour} {self.type}"


def parse_element(text: str, rules: Rules) -> Element:
    """``"blue ore"``, ``"ore blue"`` or ``"supreme"`` as an ``Element``."""
    words = str(text).lower().replace(",", " ").split()
    if words == ["supreme"]:
        return Element(supreme=True)
    types = [w for w in words if w in rules.elements]
    colours = [w for w in words if w in rules.colours]
    if len(words) != 2 or len(types) != 1 or len(colours) != 1:
        raise InputError(f"an Element is a colour and a type such as 'blue ore' (colours: "
                         f"{', '.join(rules.colours)}; types: {', '.join(rules.elements)}), "
                         f"or 'supreme'; not '{text}'")
    return Element(types[0], colours[0])


class PlacedTile(NamedTuple):
    """A Storage tile on the Airship: its two squares' restrictions on two board squares."""

    cells: tuple[str, str]
    spaces: tuple[str, str]      # "any", an Element type or an Element colour
    tile: str | None = None      # the tile's id in the definitions


class Airship(NamedTuple):
    tiles: tuple[PlacedTile, ...] = ()
    installed: tuple[tuple[str, Element], ...] = ()   # (space, Element)


class Verdict(NamedTuple):
    """Whether a request is allowed, and every reason it is not."""

    allowed: bool
    reasons: tuple[str, ...] = ()
    cost: int = 0


# --- the board's geometry ---------------------------------------------------------------------

def columns(rules: Rules) -> list[str]:
    return [str(c) for c in rules.airship["columns"]]


def grid_cells(rules: Rules) -> list[str]:
    return [f"{c}{r}" for r in range(1, int(rules.airship["rows"]) + 1) for c in columns(rules)]


def hull_spaces(rules: Rules) -> dict[str, str]:
    return {f"H{i + 1}": str(r) for i, r in enumerate(rules.airship["hull"])}


def square_cost(cell: str, rules: Rules) -> int:
    col, row = _split(cell, rules)
    return int(rules.airship["costs"][row - 1][columns(rules).index(col)])


def _split(cell: str, rules: Rules) -> tuple[str, int]:
    cell = cell.upper()
    if cell not in grid_cells(rules):
        raise InputError(f"no storage square '{cell}' (columns {', '.join(columns(rules))}, "
                         f"rows 1-{rules.airship['rows']}: A1 ... "
                         f"{columns(rules)[-1]}{rules.airship['rows']})")
    return cell[0], int(cell[1:])


def neighbours(space: str, rules: Rules) -> list[str]:
    """Spaces orthogonally next to ``space``: within the storage area, or the two hull spaces."""
    hull = list(hull_spaces(rules))
    if space in hull:
        i = hull.index(space)
        return [hull[j] for j in (i - 1, i + 1) if 0 <= j < len(hull)]
    col, row = _split(space, rules)
    cols = columns(rules)
    c = cols.index(col)
    out = []
    for dc, dr in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        cc, rr = c + dc, row + dr
        if 0 <= cc < len(cols) and 1 <= rr <= int(rules.airship["rows"]):
            out.append(f"{cols[cc]}{rr}")
    return out


def normalise_space(space: str, rules: Rules) -> str:
    s = str(space).upper()
    if s in hull_spaces(rules) or s in grid_cells(rules):
        return s
    raise InputError(f"no Airship space '{space}' (hull spaces {', '.join(hull_spaces(rules))};"
                     f" storage squares A1 ... {columns(rules)[-1]}{rules.airship['rows']})")


def check_restriction(restriction: str, rules: Rules) -> str:
    r = str(restriction).lower()
    if r in (ANY, "grey", "gray"):
        return ANY
    if r in rules.elements or r in rules.colours:
        return r
    raise InputError(f"an installation space shows 'any', an Element type or a colour, not "
                     f"'{restriction}'")


# --- the state of an Airship ------------------------------------------------------------------

def covered(ship: Airship) -> dict[str, str]:
    """Storage square -> the restriction of the Storage tile square covering it."""
    out: dict[str, str] = {}
    for t in ship.tiles:
        for cell, space in zip(t.cells, t.spaces, strict=True):
            out[cell] = space
    return out


def installation_spaces(ship: Airship, rules: Rules) -> dict[str, str]:
    """Every space an Element may be installed on, with its restriction."""
    return {**hull_spaces(rules), **covered(ship)}


def filled_columns(ship: Airship, rules: Rules) -> tuple[int, ...]:
    """End of Round: the storage columns (0 left .. 2 right) wholly covered by Storage tiles."""
    cov = covered(ship)
    rows = int(rules.airship["rows"])
    return tuple(i for i, c in enumerate(columns(rules))
                 if all(f"{c}{r}" in cov for r in range(1, rows + 1)))


def place_tile_check(ship: Airship, cells: Sequence[str], rules: Rules) -> Verdict:
    """Storage Tiles: a tile covers two neighbouring free squares; pay both squares' costs."""
    if len(cells) != 2:
        return Verdict(False, ("a Storage tile covers exactly two squares",))
    a, b = (c.upper() for c in cells)
    for c in (a, b):
        if c not in grid_cells(rules):
            return Verdict(False, (f"'{c}' is not a square of the storage area",))
    reasons = []
    if b not in neighbours(a, rules):
        reasons.append(f"{a} and {b} are not side by side")
    cov = covered(ship)
    reasons += [f"{c} is already covered by a Storage tile" for c in (a, b) if c in cov]
    return Verdict(not reasons, tuple(reasons), square_cost(a, rules) + square_cost(b, rules))


def build(tiles: Sequence[PlacedTile], installed: Sequence[tuple[str, Element]],
          rules: Rules) -> Airship:
    """An Airship from its tiles and Elements, each checked against the rules in order.

    Raises ``RuleError`` naming the first tile or Element the rules do not allow.
    """
    ship = Airship()
    for t in tiles:
        v = place_tile_check(ship, t.cells, rules)
        if not v.allowed:
            raise RuleError(f"Storage tile on {'+'.join(t.cells)}: {'; '.join(v.reasons)}")
        ship = Airship(ship.tiles + (t,), ship.installed)
    for space, element in installed:
        v = install_check(ship, space, element, rules)
        if not v.allowed:
            raise RuleError(f"{element.label()} on {space}: {'; '.join(v.reasons)}")
        ship = Airship(ship.tiles, ship.installed + ((space, element),))
    return ship


def install_check(ship: Airship, space: str, element: Element, rules: Rules) -> Verdict:
    """Storing or Installing Elements: may ``element`` be installed on ``space``?

    The space must exist (a hull space, or a storage square covered by a Storage tile) and be
    empty; it must not show a type or colour the Element does not have; and no Element next
    to it may share its type or its colour. A Supreme Element satisfies every restriction and
    restricts no neighbour (Plight of the People, Supreme Element Tokens).
    """
    space = normalise_space(space, rules)
    spaces = installation_spaces(ship, rules)
    if space not in spaces:
        return Verdict(False, (f"{space} is not an installation space yet: cover it with a "
                               "Storage tile first",))
    placed: Mapping[str, Element] = dict(ship.installed)
    if space in placed:
        return Verdict(False, (f"{space} already holds a {placed[space].label()}",))
    if element.supreme:
        return Verdict(True)
    reasons = []
    shown = spaces[space]
    if shown != ANY and shown not in (element.type, element.colour):
        what = "type" if shown in rules.elements else "colour"
        reasons.append(f"{space} takes only the {shown} {what}")
    for n in neighbours(space, rules):
        other = placed.get(n)
        if other is None or other.supreme:
            continue
        if other.type == element.type:
            reasons.append(f"{n} beside it holds the same type ({other.label()})")
        if other.colour == element.colour:
            reasons.append(f"{n} beside it holds the same colour ({other.label()})")
    return Verdict(not reasons, tuple(reasons))
