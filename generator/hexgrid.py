"""Hex tiles and tokens (``shape: hex``): a honeycomb of butted hexagons with shared cut lines.

A hex piece is a flat-topped regular hexagon in its trim box (``w`` corner to corner, ``h``
flat to flat, ``w = h * 2 / sqrt(3)``); its face carries its cut outline, as a round token
carries its circle. On a sheet the pieces interlock in columns ``3/4 w`` apart, every other
column half a hexagon lower, so neighbours share an edge: one cut along the printed line
separates both. Each placement is clipped to its own hexagon (``Placement.outline``), grown
by the bleed only on the edges with no neighbour, so the art bleeds around the honeycomb and
never over a neighbour. Backs mirror as any other piece's (a flat-topped hexagon mirrored or
turned a half is the same hexagon). Hex pieces fill sheets of their own, one honeycomb per
size, a smaller size in the room a larger one leaves below it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from components.errors import InputError
from generator.drawing import Line, Path, PathCmd, Style
from generator.layout import (
    FOLDLINE,
    FOOTER_BAND,
    GAP,
    Item,
    Placement,
    Settings,
    Sheet,
    mirror,
    page_size,
    turned_origin,
    turns_backs,
    usable_area,
)

Point = tuple[float, float]
SQ3 = math.sqrt(3.0)
RATIO = 2.0 / SQ3  # corner to corner over flat to flat
# each edge's outward normal, the edges in order: top, upper right, lower right, bottom,
# lower left, upper left (y downward); corner k lies between edge k-1 and edge k
NORMALS: tuple[Point, ...] = ((0.0, -1.0), (SQ3 / 2, -0.5), (SQ3 / 2, 0.5), (0.0, 1.0),
                              (-SQ3 / 2, 0.5), (-SQ3 / 2, -0.5))
CUT = Style(stroke="#555555", width=0.15)


def corners(x: float, y: float, w: float, h: float) -> list[Point]:
    """The six corners of the flat-topped hexagon in the box (x, y, w, h), from the top left
    corner clockwise."""
    return [(x + w / 4, y), (x + 3 * w / 4, y), (x + w, y + h / 2), (x + 3 * w / 4, y + h),
            (x + w / 4, y + h), (x, y + h / 2)]


def grown(x: float, y: float, w: float, h: float, by: tuple[float, ...]) -> list[Point]:
    """The hexagon with edge k moved ``by[k]`` mm outward (the bleed where it has no
    neighbour), its corners where the moved edges meet."""
    pts = corners(x, y, w, h)
    # edge k runs from corner k to corner k+1: its line n . p = c
    lines = []
    for k, (nx, ny) in enumerate(NORMALS):
        px, py = pts[k]
        lines.append((nx, ny, nx * px + ny * py + by[k]))
    out = []
    for k in range(6):
        a1, b1, c1 = lines[k - 1]
        a2, b2, c2 = lines[k]
        det = a1 * b2 - a2 * b1
        out.append(((c1 * b2 - c2 * b1) / det, (a1 * c2 - a2 * c1) / det))
    return out


def outline_path(w: float, h: float) -> Path:
    """A hex face's cut line, in the face's own coordinates."""
    pts = corners(0.0, 0.0, w, h)
    cmds: list[PathCmd] = [("M", *pts[0])]
    cmds += [("L", px, py) for px, py in pts[1:]]
    cmds.append(("Z",))
    return Path(tuple(cmds), CUT)


def neighbours(c: int, r: int) -> tuple[tuple[int, int], ...]:
    """The slots across each edge (top, upper right, lower right, bottom, lower left, upper
    left) of slot (column c, row r); odd columns sit half a hexagon lower."""
    if c % 2 == 0:
        return ((c, r - 1), (c + 1, r - 1), (c + 1, r), (c, r + 1), (c - 1, r), (c - 1, r - 1))
    return ((c, r - 1), (c + 1, r), (c + 1, r + 1), (c, r + 1), (c - 1, r + 1), (c - 1, r))


def _fit(span: float, size: float, step: float) -> int:
    return max(0, math.floor((span - size) / step + 1e-9) + 1) if span >= size else 0


def honeycomb(w: float, h: float, bleed: float, s: Settings
              ) -> tuple[bool, int, int, float, float]:
    """The sheet orientation, columns, rows and the block's top-left corner holding most
    hexagons inside the printable area, the bleed around the block and the footer's band
    below it."""
    best: tuple[bool, int, int, float, float] | None = None
    for landscape in (False, True):
        ux, uy, uw, uh = usable_area(s, landscape)
        room_w = uw - 2 * bleed
        room_h = uh - 2 * bleed - GAP - FOOTER_BAND
        cols = _fit(room_w, w, 0.75 * w)
        rows = _fit(room_h - (h / 2 if cols > 1 else 0.0), h, h)
        if cols < 1 or rows < 1:
            continue
        block_w = w + (cols - 1) * 0.75 * w
        x0 = ux + (uw - block_w) / 2
        y0 = uy + bleed
        if best is None or cols * rows > best[1] * best[2]:
            best = (landscape, cols, rows, x0, y0)
    if best is None:
        raise InputError(f"a hex piece of {w:g} x {h:g} mm does not fit the printable area")
    return best


BLOCK_GAP = 1.0  # mm between two honeycombs' bleeds on one sheet


@dataclass
class _Open:
    """A sheet with room left below its honeycombs."""

    front: Sheet
    back: Sheet | None
    landscape: bool
    bottom: float  # the lowest trim edge placed so far, page mm


def hex_sheets(runs: list[tuple[list[Item], str]], s: Settings) -> list[Sheet]:
    """Hex pieces onto honeycomb sheets, one honeycomb per size (``runs``: the pieces of one
    size and their title), a smaller size in the room a larger one leaves below it; each
    front sheet, then its backs."""
    sheets: list[Sheet] = []
    last: _Open | None = None
    for items, title in sorted(runs, key=lambda r: -r[0][0].front.h):
        todo = list(items)
        while todo:
            if last is not None:
                d = todo[0].front
                ux, uy, uw, uh = usable_area(s, last.landscape)
                top = last.bottom + 2 * d.bleed + BLOCK_GAP
                room_h = uy + uh - d.bleed - GAP - FOOTER_BAND - top
                cols = _fit(uw - 2 * d.bleed, d.w, 0.75 * d.w)
                rows = _fit(room_h - (d.h / 2 if cols > 1 else 0.0), d.h, d.h)
                if cols and rows:
                    x0 = ux + (uw - (d.w + (cols - 1) * 0.75 * d.w)) / 2
                    todo = _block(todo, cols, rows, x0, top, last, s)
                    continue
            d = todo[0].front
            landscape, cols, rows, x0, y0 = honeycomb(d.w, d.h, d.bleed, s)
            W, H = page_size(s.paper, landscape)
            front = Sheet(W, H, "front", title)
            back = Sheet(W, H, "back", title) if s.duplex in ("long", "short") else None
            last = _Open(front, back, landscape, 0.0)
            sheets.append(front)
            if back is not None:
                sheets.append(back)
            todo = _block(todo, cols, rows, x0, y0, last, s)
    for sheet in sheets:
        if s.duplex == "fold" and any(p.face == "back" for p in sheet.placements):
            sheet.marks.append(Line(sheet.w / 2, s.margin, sheet.w / 2, sheet.h - s.margin,
                                    FOLDLINE))
    return [sh for sh in sheets if sh.side == "front" or sh.placements]


def _block(items: list[Item], cols: int, rows: int, x0: float, y0: float, on: _Open,
           s: Settings) -> list[Item]:
    """One honeycomb of up to ``cols`` x ``rows`` pieces with its top-left corner at (x0,
    y0) on ``on``'s sheets; the pieces left over."""
    d = items[0].front
    w, h, b = d.w, d.h, d.bleed
    W, H = on.front.w, on.front.h
    # slots row by row, so a sheet's last pieces leave whole rows free
    slots = [(c, r) for r in range(rows) for c in range(cols)]
    chunk = items[:len(slots)]
    used = set(slots[:len(chunk)])
    for it, (c, r) in zip(chunk, slots, strict=False):
        tx = x0 + c * 0.75 * w
        ty = y0 + r * h + (h / 2 if c % 2 else 0.0)
        on.bottom = max(on.bottom, ty + h)
        trim = (tx, ty, w, h)
        by = tuple(0.0 if n in used else b for n in neighbours(c, r))
        outline = tuple(grown(tx, ty, w, h, by))
        xs, ys = [p[0] for p in outline], [p[1] for p in outline]
        clip = (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        on.front.placements.append(Placement(it.comp, it.copy, "front", it.front, trim, clip,
                                             (tx, ty), outline=outline))
        if it.back is not None and s.duplex != "none":
            bt = mirror(trim, W, H, s, on.landscape)
            bc = mirror(clip, W, H, s, on.landscape)
            bo = tuple(mirror((px, py, 0.0, 0.0), W, H, s, on.landscape)[:2]
                       for px, py in outline)
            turn = 180 if turns_backs(s, on.landscape) else 0
            target = on.back if on.back is not None else on.front
            target.placements.append(Placement(it.comp, it.copy, "back", it.back, bt, bc,
                                               turned_origin(bt, turn), turn, outline=bo))
    return items[len(chunk):]
