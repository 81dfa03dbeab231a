"""Imposition: component drawings -> sheets of paper, with bleed, marks, backs and footer.

Components of one size share a sheet, in a grid as dense as home printing allows. On each axis
separately: where a gutter of twice the bleed fits between neighbours without losing a row or
column, the components stand apart, each with its own bleed; where it does not (3 x 3 poker
cards on Letter), they are butted edge to edge with shared cut lines, and the bleed runs only
around the block's outer edge. Trim boxes always stay inside the printable margin; the outer
bleed may run into the margin (it is there to be cut away) but never off the page. A grid
always leaves the footer a strip inside the printable area, along the bottom or a side: where
the densest grid would not (counters filling the page to within a bleed of the margin), it
leaves a row or a column out.

Duplex backs mirror about the page centre, as the printer turns the sheet: long edge
``x -> W - x - w``, short edge ``y -> H - y - h`` (on a landscape page the two swap), plus the
printer's back offset.
``fold`` puts fronts and backs side by side on one page, mirrored about a fold line.

Whatever does not fill whole sheets of its own size (and boards larger than the printable
area, split into overlapping parts) is packed onto shared sheets by ``generator.pack``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from reportlab.pdfbase.pdfmetrics import stringWidth

from components import Component
from components.errors import InputError
from generator.drawing import PT, Drawing, Group, Line, Primitive, Rect, Style, Text

PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "tabloid": (279.4, 431.8),
}
DUPLEX = ("long", "short", "fold", "none")

MARK = Style(stroke="#000000", width=0.15)
CUTLINE = Style(stroke="#9e9e9e", width=0.12, dash=(1.0, 1.0))
FOLDLINE = Style(stroke="#666666", width=0.2, dash=(3.0, 1.5))
FOOTER_PT = 5.5
FOOTER_MIN_PT = 4.0  # smaller than this a footer cannot be read at arm's length
RULER_SPAN = 56.0  # mm along the footer line the 50 mm ruler and its label take
OVERLAP = 12.0  # mm: how far neighbouring board parts overlap
GAP = 0.5  # mm between a bleed edge and the start of a crop mark


@dataclass
class Settings:
    paper: str = "a4"
    duplex: str = "long"
    bleed: float = 3.0
    margin: float = 6.0
    back_offset: tuple[float, float] = (0.0, 0.0)
    cut_lines: bool = False

    def check(self) -> None:
        if self.paper not in PAPERS:
            raise InputError(f"unknown paper '{self.paper}' (expected one of: "
                             f"{', '.join(PAPERS)})")
        if self.duplex not in DUPLEX:
            raise InputError(f"unknown duplex '{self.duplex}' (expected one of: "
                             f"{', '.join(DUPLEX)})")
        if not 0 <= self.bleed <= 10:
            raise InputError(f"bleed must be between 0 and 10 mm, not {self.bleed}")
        if not 0 <= self.margin <= 30:
            raise InputError(f"margin must be between 0 and 30 mm, not {self.margin}")


@dataclass(slots=True)  # (a long deck holds two for every card)
class Placement:
    """One face of one copy of a component on a sheet. Boxes are page mm, y downward."""

    comp: Component
    copy: int
    face: str
    drawing: Drawing
    trim: tuple[float, float, float, float]
    clip: tuple[float, float, float, float]
    origin: tuple[float, float]  # where the drawing's (0, 0) lands on the page
    turn: int = 0  # degrees clockwise the face is drawn turned in its box: 180 for backs
    # mirrored top to bottom, 90 for a piece the packer laid on its side (``origin`` is then
    # the box corner where the face's top left lands)
    part: str = ""  # boards split over pages: "A1", "B1", ...
    window: tuple[float, float, float, float] | None = None  # the board's region shown
    # a hex piece's clip: its hexagon (grown by the bleed where no neighbour is), page mm;
    # the rest are clipped to ``clip``
    outline: tuple[tuple[float, float], ...] = ()


@dataclass
class Sheet:
    w: float
    h: float
    side: str
    title: str
    placements: list[Placement] = field(default_factory=list)
    marks: list[Primitive] = field(default_factory=list)
    page: int = 0  # page number within its file
    blank: bool = False
    file: str = ""  # the PDF this sheet prints from (GAME.pdf or GAME-single-sided.pdf)
    panels: list[str] = field(default_factory=list)  # sheet texts on it (checklist, notice)
    occupied: list[tuple[float, float, float, float]] = field(default_factory=list)  # theirs


@dataclass
class Item:
    """One copy of one component to impose: its front and (maybe) back drawings."""

    comp: Component
    copy: int
    front: Drawing
    back: Drawing | None


def page_size(paper: str, landscape: bool) -> tuple[float, float]:
    w, h = PAPERS[paper]
    return (h, w) if landscape else (w, h)


def _axis(usable: float, size: float, bleed: float, allow_apart: bool = True) -> tuple[int, bool]:
    """How many fit on one axis, and whether they stand apart with their own bleed."""
    if size > usable + 1e-9:
        return 0, False
    butted = int(math.floor((usable + 1e-9) / size))
    apart = int(math.floor((usable + 2 * bleed + 1e-9) / (size + 2 * bleed)))
    if allow_apart and bleed > 0 and apart >= butted:
        return apart, True
    return butted, bleed == 0


def _apart(usable: float, size: float, bleed: float, n: int, allow: bool) -> bool:
    """Whether ``n`` components stand apart on one axis (each with its own bleed): where the
    gutters fit and ``allow`` lets them, or where they have no bleed to share."""
    if bleed == 0:
        return True
    return allow and n * size + (n - 1) * 2 * bleed <= usable + 1e-9


FOOTER_BAND = 6.5  # mm the footer line and its ruler need inside the printable area (with
# the 3 mm crop marks running across it stopped short of it)
# mm beyond a block's bleed that the footer's text line alone needs inside the printable area,
# with the crop marks running across it stopped short of it (GAP, MIN_MARK and FOOTER_CLEAR
# before it, 1.8 mm of 5.5 pt text)
TEXT_BAND = 6.1


@dataclass
class Grid:
    landscape: bool
    cols: int
    rows: int
    apart_x: bool
    apart_y: bool
    footer_room: str = ""  # "bottom" or "side": where the footer has its band; "" none
    footer_need: float = 0.0  # mm beyond the block's trim that band needs
    reduced: bool = False  # a row or a column left out to give the footer its strip

    @property
    def count(self) -> int:
        return self.cols * self.rows


def usable_area(s: Settings, landscape: bool) -> tuple[float, float, float, float]:
    """The printable area (x, y, w, h); for fold, the left half, clear of the fold."""
    W, H = page_size(s.paper, landscape)
    m = s.margin
    x, y, w, h = m, m, W - 2 * m, H - 2 * m
    if s.duplex == "fold":
        w = W / 2 - m - 3.0  # fronts on the left half, 3 mm clear of the fold
    return x, y, w, h


def best_grid(w: float, h: float, bleed: float, s: Settings, n: int = 0) -> Grid | None:
    """The grid that leaves the footer's text line a strip inside the printable area (so a
    sheet of counters never pushes it into the margin or over a piece), then needs the fewest
    pages for ``n`` items, then holds the most per page, then leaves the footer a band deep
    enough for its ruler, then lets components stand apart, then is portrait. Only when no
    grid leaves even the text line room does the densest one win regardless."""
    best: Grid | None = None
    best_key: tuple[float, ...] = ()
    need = bleed + GAP + FOOTER_BAND
    line = bleed + TEXT_BAND
    candidates: list[Grid] = []
    for landscape in (False, True):
        _, _, uw, uh = usable_area(s, landscape)
        for allow_x in (True, False):
            for allow_y in (True, False):
                full_cols, _ = _axis(uw, w, bleed, allow_x)
                full_rows, _ = _axis(uh, h, bleed, allow_y)
                # the densest grid, and with a row or a column left out (the footer's strip),
                # or both (room for the crop marks too)
                for k, (cols, rows) in enumerate(((full_cols, full_rows),
                                                  (full_cols, full_rows - 1),
                                                  (full_cols - 1, full_rows),
                                                  (full_cols - 1, full_rows - 1))):
                    if cols < 1 or rows < 1:
                        continue
                    ax = _apart(uw, w, bleed, cols, allow_x)
                    ay = _apart(uh, h, bleed, rows, allow_y)
                    candidates.append(Grid(landscape, cols, rows, ax, ay, reduced=k > 0))
    for g in candidates:
        _, _, uw, uh = usable_area(s, g.landscape)
        cols, rows, ax, ay = g.cols, g.rows, g.apart_x, g.apart_y
        block_w = cols * w + (cols - 1) * (2 * bleed if ax else 0)
        block_h = rows * h + (rows - 1) * (2 * bleed if ay else 0)
        level = 2
        if uh - block_h >= need:
            g.footer_room, g.footer_need = "bottom", need
        elif uw - block_w >= need and s.duplex != "fold":
            g.footer_room, g.footer_need = "side", need
        elif uh - block_h >= line:
            g.footer_room, g.footer_need, level = "bottom", line, 1
        elif uw - block_w >= line:
            # (with fold: the strip beside the fronts, along the paper's edge)
            g.footer_room, g.footer_need, level = "side", line, 1
        else:
            level = 0
        pages = math.ceil(n / g.count) if n else 0
        key = (level > 0, _marks_print(g, uw - block_w, uh - block_h, bleed), -pages,
               g.count, level == 2, ax + ay, not g.landscape)
        if best is None or key > best_key:
            best, best_key = g, key
    return best


def _marks_print(g: Grid, slack_x: float, slack_y: float, bleed: float) -> bool:
    """Whether every cut line of the grid keeps a crop mark of ``PRINTED_MARK`` inside the
    printable area at one of its ends: nine poker cards filling Letter's printable height
    leave their vertical cuts none. The footer's band holds the marks it stops short of it
    (at least ``MIN_MARK``), so on the footer's axis its band is room enough."""
    room = bleed + GAP + PRINTED_MARK
    need_y = max(room, g.footer_need) if g.footer_room == "bottom" else room
    need_x = max(room, g.footer_need) if g.footer_room == "side" else room
    return slack_x >= need_x - 1e-9 and slack_y >= need_y - 1e-9


def turns_backs(s: Settings, landscape: bool) -> bool:
    """True when the page turns top to bottom, so backs must turn 180 degrees to stand upright
    behind their fronts."""
    mode = s.duplex
    if landscape and mode in ("long", "short"):
        mode = "short" if mode == "long" else "long"
    return mode == "short"


def turned_origin(box: tuple[float, float, float, float], turn: int) -> tuple[float, float]:
    """Where a face's own (0, 0) lands when it is drawn turned ``turn`` degrees clockwise to
    fill ``box`` (page mm, y down): its top left corner, wherever turning took it."""
    x, y, w, h = box
    return {0: (x, y), 90: (x + w, y), 180: (x + w, y + h), 270: (x, y + h)}[turn % 360]


def face_box(box: tuple[float, float, float, float], origin: tuple[float, float],
             turn: int) -> tuple[float, float, float, float]:
    """A page box in the coordinates of a face drawn at ``origin`` turned ``turn`` degrees
    clockwise (the inverse of placing it)."""
    x, y, w, h = box
    ox, oy = origin
    dx, dy = x - ox, y - oy
    t = turn % 360
    if t == 0:
        return (dx, dy, w, h)
    if t == 90:
        return (dy, -dx - w, h, w)
    if t == 180:
        return (-dx - w, -dy - h, w, h)
    return (-dy - h, dx, h, w)


def page_offset(offset: tuple[float, float], landscape: bool) -> tuple[float, float]:
    """The back offset in a page's own coordinates. ``irata calibrate`` measures it on a
    portrait sheet: X across the paper, Y down it. A landscape page prints on the same
    portrait paper turned a quarter anticlockwise (its top along the paper's left edge, as
    printer drivers turn landscape pages), so the paper's X runs down the page and its Y runs
    from the page's right to its left."""
    dx, dy = offset
    return (-dy, dx) if landscape else (dx, dy)


def mirror(box: tuple[float, float, float, float], W: float, H: float, s: Settings,
           landscape: bool) -> tuple[float, float, float, float]:
    """Where the back of ``box`` goes on the back page: mirrored about the edge the duplex
    printer turns the sheet on, plus the printer's back offset (see ``page_offset``)."""
    x, y, w, h = box
    dx, dy = page_offset(s.back_offset, landscape)
    mode = s.duplex
    if landscape and mode in ("long", "short"):
        mode = "short" if mode == "long" else "long"
    if mode in ("long", "fold"):
        return (W - x - w + dx, y + dy, w, h)
    return (x + dx, H - y - h + dy, w, h)


def impose(items: list[Item], s: Settings, title: str) -> list[Sheet]:
    """Impose copies of components of one size onto sheets (fronts, then backs if any)."""
    if not items:
        return []
    d = items[0].front
    bleed = d.bleed
    g = best_grid(d.w, d.h, bleed, s, len(items))
    if g is None:
        raise InputError(f"{items[0].comp.id}: {d.w:g} x {d.h:g} mm does not fit the "
                         "printable area (a board larger than the page is split into parts)")
    W, H = page_size(s.paper, g.landscape)
    ux, uy, uw, uh = usable_area(s, g.landscape)
    gap_x = 2 * bleed if g.apart_x else 0.0
    gap_y = 2 * bleed if g.apart_y else 0.0
    block_w = g.cols * d.w + (g.cols - 1) * gap_x
    block_h = g.rows * d.h + (g.rows - 1) * gap_y
    need = g.footer_need
    x0 = ux + _mark_offset(uw - block_w, bleed)
    y0 = uy + _mark_offset(uh - block_h, bleed)
    room = bleed + GAP + PRINTED_MARK
    if g.footer_room == "bottom":
        y0 = uy + max(0.0, min((uh - block_h) / 2, uh - block_h - need))
        if y0 - uy < room <= uh - block_h - need:
            y0 = uy + room  # the top ends of the cut lines keep a printable mark
    elif g.footer_room == "side" and s.duplex == "fold":
        # the strip along the paper's edge, left of the fronts (right of the backs)
        x0 = ux + min(uw - block_w, max((uw - block_w) / 2, need))
    elif g.footer_room == "side":
        x0 = ux + max(0.0, min((uw - block_w) / 2, uw - block_w - need))
        if x0 - ux < room <= uw - block_w - need:
            x0 = ux + room
    any_back = any(it.back is not None for it in items)
    turn = 180 if turns_backs(s, g.landscape) else 0
    # A place on the grid has the same boxes on every sheet, and a sheet as full as another
    # the same marks: worked out once and shared (boxes and primitives are immutable), a long
    # deck's placements would otherwise hold five tuples each, its sheets their own marks.
    places: dict[tuple[int, int], _Place] = {}
    marks: dict[tuple[int, tuple[bool, ...]], list[Primitive]] = {}
    sheets: list[Sheet] = []
    for start in range(0, len(items), g.count):
        chunk = items[start:start + g.count]
        front = Sheet(W, H, "front", title)
        back = Sheet(W, H, "back", title) if s.duplex in ("long", "short") else None
        for k, it in enumerate(chunk):
            at = places.get((k, len(chunk)))
            if at is None:
                at = places[(k, len(chunk))] = _place(k, len(chunk), g, x0 + k % g.cols * (
                    d.w + gap_x), y0 + k // g.cols * (d.h + gap_y), d, s, W, H, turn)
            front.placements.append(Placement(it.comp, it.copy, "front", it.front, at.trim,
                                              at.clip, at.origin))
            if it.back is not None and s.duplex != "none":
                target = back if back is not None else front
                target.placements.append(Placement(it.comp, it.copy, "back", it.back,
                                                   at.back_trim, at.back_clip, at.back_origin,
                                                   turn))
        # the marks depend on the boxes alone: on how many there are, and (a fold's backs
        # are on the front sheet) which have backs
        shape = (len(chunk), tuple(it.back is not None for it in chunk)
                 if s.duplex == "fold" else ())
        if shape not in marks:
            drawn = crop_marks(front, bleed, s)
            if s.cut_lines:
                drawn.extend(cut_lines(front))
            if s.duplex == "fold" and any_back:
                drawn.append(Line(W / 2, s.margin, W / 2, H - s.margin, FOLDLINE))
            marks[shape] = drawn
        front.marks.extend(marks[shape])
        sheets.append(front)
        if back is not None and back.placements:
            sheets.append(back)
    return sheets


class _Place(NamedTuple):
    """One place of a grid: its front's trim, clip and origin, its back's (``mirror``)."""

    trim: tuple[float, float, float, float]
    clip: tuple[float, float, float, float]
    origin: tuple[float, float]
    back_trim: tuple[float, float, float, float]
    back_clip: tuple[float, float, float, float]
    back_origin: tuple[float, float]


def _place(k: int, n: int, g: Grid, tx: float, ty: float, d: Drawing, s: Settings, W: float,
           H: float, turn: int) -> _Place:
    """Place ``k`` of a sheet holding ``n`` pieces of ``d``'s size, its trim's corner at
    (``tx``, ``ty``)."""
    c, r = k % g.cols, k // g.cols
    trim = (tx, ty, d.w, d.h)
    clip = _clip(trim, d.bleed, c, r, g, n)
    bt = mirror(trim, W, H, s, g.landscape)
    return _Place(trim, clip, (tx, ty), bt, mirror(clip, W, H, s, g.landscape),
                  turned_origin(bt, turn))


PRINTED_MARK = 3.0  # mm of a crop mark inside the printable area (as MIN_MARK): a trimmer's
# blade lines up on this much


def _mark_offset(slack: float, bleed: float) -> float:
    """Where a block leaving ``slack`` mm of the printable area on one axis starts (the
    footer's axis aside): centred where both ends then keep ``PRINTED_MARK`` of crop mark
    inside the printable area; else moved off centre just enough that the first end does
    (the other end's marks run into the margin, where many printers still print them); centred
    where even that does not fit. A hairline the printer leaves out marks nothing, so every
    cut line keeps a mark that prints at one of its ends wherever the paper allows."""
    room = bleed + GAP + PRINTED_MARK
    if slack / 2 >= room or slack < room:
        return slack / 2
    return room


def _clip(trim: tuple[float, float, float, float], bleed: float, c: int, r: int, g: Grid,
          n: int) -> tuple[float, float, float, float]:
    """The part of a drawing that shows: its own bleed where it stands apart, else the trim,
    with the block's outer edges getting the bleed."""
    x, y, w, h = trim
    last_col = c == g.cols - 1
    rows_used = (n + g.cols - 1) // g.cols
    last_row = r == rows_used - 1
    # a card with no neighbour to its right (a short last row) still gets its bleed there
    no_right = last_col or (r * g.cols + c + 1 >= n)
    no_below = last_row or (r + 1) * g.cols + c >= n
    left = bleed if (g.apart_x or c == 0) else 0.0
    right = bleed if (g.apart_x or no_right) else 0.0
    top = bleed if (g.apart_y or r == 0) else 0.0
    bottom = bleed if (g.apart_y or no_below) else 0.0
    return (x - left, y - top, w + left + right, h + top + bottom)


def _edges(sheet: Sheet) -> tuple[list[float], list[float]]:
    xs = sorted({round(v, 3) for p in sheet.placements for v in (p.trim[0], p.trim[0] + p.trim[2])})
    ys = sorted({round(v, 3) for p in sheet.placements for v in (p.trim[1], p.trim[1] + p.trim[3])})
    return xs, ys


def crop_marks(sheet: Sheet, bleed: float, s: Settings) -> list[Primitive]:
    """Hairlines on every trim line, starting clear of the bleed, never over artwork, and
    inside the printable area (``--margin``), where a home printer prints them: 5 mm where
    there is room, never under ``PRINTED_MARK`` (an end with less room gets none; the grid
    leaves every cut line one end with room, see ``_marks_print``)."""
    if not sheet.placements:
        return []
    xs, ys = _edges(sheet)
    left = min(p.clip[0] for p in sheet.placements)
    right = max(p.clip[0] + p.clip[2] for p in sheet.placements)
    top = min(p.clip[1] for p in sheet.placements)
    bottom = max(p.clip[1] + p.clip[3] for p in sheet.placements)
    W, H = sheet.w, sheet.h
    lo_x, hi_x, lo_y, hi_y = s.margin, W - s.margin, s.margin, H - s.margin
    length = 5.0
    out: list[Primitive] = []

    def keep(a: float, b: float) -> bool:
        return b - a >= PRINTED_MARK - 1e-9

    for x in xs:
        if not lo_x - 1e-9 <= x <= hi_x + 1e-9:
            continue
        if keep(max(lo_y, top - GAP - length), top - GAP):
            out.append(Line(x, max(lo_y, top - GAP - length), x, top - GAP, MARK))
        if keep(bottom + GAP, min(hi_y, bottom + GAP + length)):
            out.append(Line(x, bottom + GAP, x, min(hi_y, bottom + GAP + length), MARK))
    for y in ys:
        if not lo_y - 1e-9 <= y <= hi_y + 1e-9:
            continue
        if keep(max(lo_x, left - GAP - length), left - GAP):
            out.append(Line(max(lo_x, left - GAP - length), y, left - GAP, y, MARK))
        if keep(right + GAP, min(hi_x, right + GAP + length)):
            out.append(Line(right + GAP, y, min(hi_x, right + GAP + length), y, MARK))
    if s.duplex == "fold":
        out.extend(_fold_marks(sheet, ys))
    return out


def _fold_marks(sheet: Sheet, ys: list[float]) -> list[Primitive]:
    """With fold, the fronts' cut lines across the page also end at the fold, beside the
    backs' (mirrored about it, on the same lines): one mark across the gap between their
    bleeds marks both, inside the printable area even where the outer ends lie in the margin
    (a block of counters as wide as half the page)."""
    mid = sheet.w / 2
    fronts = [p.clip for p in sheet.placements if p.clip[0] + p.clip[2] <= mid + 1e-6]
    backs = [p.clip for p in sheet.placements if p.clip[0] >= mid - 1e-6]
    if not fronts or not backs:
        return []
    a = max(c[0] + c[2] for c in fronts) + GAP
    b = min(c[0] for c in backs) - GAP
    if b - a < 1.0:
        return []
    return [Line(a, y, b, y, MARK) for y in ys]


def cut_lines(sheet: Sheet) -> list[Primitive]:
    """Optional thin dashed lines along every trim edge, over the art (for scissors)."""
    out: list[Primitive] = []
    for p in sheet.placements:
        x, y, w, h = p.trim
        out.append(Rect(x, y, w, h, CUTLINE))
    return out


def ruler(x: float, y: float, vertical: bool = False) -> list[Primitive]:
    """A 50 mm check ruler with 1 mm ticks: measure it to see the page printed at 100%."""
    st = Style(stroke="#000000", width=0.15)
    out: list[Primitive] = []
    for i in range(51):
        t = 2.0 if i % 10 == 0 else (1.4 if i % 5 == 0 else 0.8)
        if vertical:
            out.append(Line(x, y + i, x + t, y + i, st))
        else:
            out.append(Line(x + i, y, x + i, y - t, st))
    if vertical:
        out.append(Line(x, y, x, y + 50, st))
    else:
        out.append(Line(x, y, x + 50, y, st))
    return out


RULER_Y = -1.9  # the ruler's line, above the footer's baseline (its label sits under it)
RULER_LABEL = "50 mm: measure to check the scale is 100%"
RULER_LABEL_PT = 4.2


@lru_cache(maxsize=1)
def _footer_ruler() -> tuple[Primitive, ...]:
    """The footer's ruler and its label, made once: every sheet shares the same immutable
    primitives."""
    return tuple(ruler(0, RULER_Y)) + (
        Text(25, 0, RULER_LABEL, "Helvetica", RULER_LABEL_PT, "#333333", "middle"),)


MIN_MARK = 3.0  # mm: a crop mark shortened to clear the footer keeps at least this length
FOOTER_CLEAR = 0.5  # mm between the footer and the end of a mark stopped before it, or
# anything else on the sheet
PAPER_EDGE = 1.0  # mm: nothing prints closer than this to the paper's edge
EDGE_INSET = 0.1  # mm: the footer stays this far inside the printable area
SIDES = ("bottom", "top", "right", "left")

Box4 = tuple[float, float, float, float]  # x0, y0, x1, y1
Interval = tuple[float, float]


def page_boxes(items: tuple[Primitive, ...] | list[Primitive],
               m: tuple[float, float, float, float, float, float] = (1, 0, 0, 1, 0, 0)
               ) -> list[Box4]:
    """The page box (x0, y0, x1, y1) of every primitive among ``items``, groups followed
    with their turns and scales, strokes and glyphs (ascent and descent) included."""
    from reportlab.pdfbase.pdfmetrics import getAscentDescent

    from generator.drawing import QR, Ellipse, Icon, Image, Path

    def box(x0: float, y0: float, x1: float, y1: float) -> Box4:
        pts = [(m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])
               for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
        return (min(p[0] for p in pts), min(p[1] for p in pts),
                max(p[0] for p in pts), max(p[1] for p in pts))

    out: list[Box4] = []
    for it in items:
        if isinstance(it, Line):
            h = it.style.width / 2
            out.append(box(min(it.x1, it.x2) - h, min(it.y1, it.y2) - h,
                           max(it.x1, it.x2) + h, max(it.y1, it.y2) + h))
        elif isinstance(it, Rect):
            h = it.style.width / 2 if it.style.stroke else 0.0
            out.append(box(it.x - h, it.y - h, it.x + it.w + h, it.y + it.h + h))
        elif isinstance(it, Ellipse):
            h = it.style.width / 2 if it.style.stroke else 0.0
            out.append(box(it.cx - it.rx - h, it.cy - it.ry - h, it.cx + it.rx + h,
                           it.cy + it.ry + h))
        elif isinstance(it, Text):
            w = stringWidth(it.text, it.font, it.size) * PT
            x = it.x - (w / 2 if it.anchor == "middle" else w if it.anchor == "end" else 0)
            ascent, descent = getAscentDescent(it.font, it.size)
            out.append(box(x, it.y - ascent * PT, x + w, it.y - descent * PT))
        elif isinstance(it, Path):
            pts = [(float(c[k]), float(c[k + 1])) for c in it.cmds for k in range(1, len(c), 2)]
            if pts:
                h = it.style.width / 2 if it.style.stroke else 0.0
                out.append(box(min(p[0] for p in pts) - h, min(p[1] for p in pts) - h,
                               max(p[0] for p in pts) + h, max(p[1] for p in pts) + h))
        elif isinstance(it, (Icon, QR)):
            out.append(box(it.x, it.y, it.x + it.size, it.y + it.size))
        elif isinstance(it, Image):
            out.append(box(it.x, it.y, it.x + it.w, it.y + it.h))
        elif isinstance(it, Group):
            a = math.radians(it.rotate)
            c, s = math.cos(a) * it.scale, math.sin(a) * it.scale
            g = (c, s, -s, c, it.dx, it.dy)
            out += page_boxes(it.items, (m[0] * g[0] + m[2] * g[1], m[1] * g[0] + m[3] * g[1],
                                         m[0] * g[2] + m[2] * g[3], m[1] * g[2] + m[3] * g[3],
                                         m[0] * g[4] + m[2] * g[5] + m[4],
                                         m[1] * g[4] + m[3] * g[5] + m[5]))
    return out


@lru_cache(maxsize=1)
def _ruler_extent() -> Box4:
    """The box the footer's ruler covers (``_line_extent``), the same on every sheet."""
    return _line_extent(_footer_ruler())


@lru_cache(maxsize=4096)
def _line_box(line: Line) -> Box4:
    """A mark's page box (``page_boxes``): a long deck's sheets share their crop marks, each
    measured once, not once a side of every sheet."""
    return page_boxes([line])[0]


def _line_extent(items: tuple[Primitive, ...]) -> Box4:
    """The box (x0, y0, x1, y1) the footer's primitives cover in its own coordinates."""
    boxes = page_boxes(items)
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


@dataclass
class _Strip:
    """One side of the sheet seen from the footer: ``along`` runs with the footer's line (for
    the right and left strips from the page's bottom up, as the turned footer reads),
    ``across`` from the pieces towards the paper's edge or away from it."""

    side: str
    W: float
    H: float

    @property
    def horizontal(self) -> bool:
        return self.side in ("bottom", "top")

    @property
    def outward(self) -> bool:
        """Whether the footer's own y axis points towards the paper's edge."""
        return self.side in ("bottom", "right")

    @property
    def length(self) -> float:
        return self.W if self.horizontal else self.H

    @property
    def depth(self) -> float:
        return self.H if self.horizontal else self.W

    def along(self, b: Box4) -> Interval:
        return (b[0], b[2]) if self.horizontal else (self.H - b[3], self.H - b[1])

    def across(self, b: Box4) -> Interval:
        return (b[1], b[3]) if self.horizontal else (b[0], b[2])

    def page_box(self, u0: float, u1: float, c0: float, c1: float) -> Box4:
        """The page box of the region ``u0 .. u1`` along and ``c0 .. c1`` across."""
        if self.horizontal:
            return (u0, c0, u1, c1)
        return (c0, self.H - u1, c1, self.H - u0)


def _free(strip: _Strip, band: Interval, obstacles: list[Box4], marks: list[Line],
          lo: float, hi: float) -> list[Interval]:
    """Where along the strip a footer part lying ``band`` across (page mm) may go: clear of
    every obstacle by ``FOOTER_CLEAR``, and of every crop mark running across the strip that
    stopping short of it would leave under ``MIN_MARK`` long."""
    c0, c1 = band
    blocked: list[Interval] = []
    for b in obstacles:
        a0, a1 = strip.along(b)
        b0, b1 = strip.across(b)
        if b0 < c1 + FOOTER_CLEAR and b1 > c0 - FOOTER_CLEAR:
            blocked.append((a0 - FOOTER_CLEAR, a1 + FOOTER_CLEAR))
    for m in marks:
        clear = FOOTER_CLEAR + m.style.width / 2
        s0, s1 = _span(m, True, strip.horizontal)
        if not (s0 < c1 + clear and s1 > c0 - clear):
            continue
        # the end towards the pieces stays: inner when the footer's y points outward
        left = (c0 - clear) - s0 if strip.outward else s1 - (c1 + clear)
        if left < MIN_MARK - 1e-9:
            u = m.x1 if strip.horizontal else strip.H - m.y1
            blocked.append((u - clear, u + clear))
    blocked.sort()
    out: list[Interval] = []
    at = lo
    for start, end in blocked:
        if start > at:
            out.append((at, min(start, hi)))
        at = max(at, end)
        if at >= hi:
            break
    if at < hi:
        out.append((at, hi))
    return [(a, b) for a, b in out if b - a > 1e-6]


def _fit(text: str, room: float) -> tuple[str, float] | None:
    """The footer text and its size in ``room`` mm: shortened if it must be, then as large
    as fits; None when even the shortest form at ``FOOTER_MIN_PT`` does not."""
    text = _shorten(text, room)
    size = FOOTER_PT
    while size > FOOTER_MIN_PT and stringWidth(text, "Helvetica", size) * PT > room:
        size -= 0.25
    if stringWidth(text, "Helvetica", size) * PT > room + 1e-9:
        return None
    return text, size


@dataclass
class _Choice:
    side: str
    base: float  # where the footer's baseline lies across its strip, page mm
    origin: float  # where its x = 0 lies along its strip
    items: tuple[Primitive, ...]
    parts: list[Box4]  # the page boxes of its parts (ruler with label, text line)
    score: tuple[float, ...]


def _text_line(text: str, size: float) -> Text:
    return Text(0, 0, text, "Helvetica", size, "#333333")


def _choose(sheet: Sheet, text: str, margin: float, with_ruler: bool) -> _Choice | None:
    """The best place for the footer (with its ruler, or its text line alone) on the side
    that suits it best, or None when it fits nowhere inside ``margin``."""
    W, H = sheet.w, sheet.h
    obstacles: list[Box4] = [(x, y, x + w, y + h) for x, y, w, h in
                             [p.clip for p in sheet.placements] + sheet.occupied]
    lines: list[Line] = []
    for m in sheet.marks:
        if isinstance(m, Line) and (abs(m.x1 - m.x2) < 1e-9 or abs(m.y1 - m.y2) < 1e-9):
            lines.append(m)
        else:
            obstacles += page_boxes([m])
    ruler_ext = _ruler_extent()
    text_ext = _line_extent((_text_line(text, FOOTER_PT),))
    y0 = min(ruler_ext[1], text_ext[1]) if with_ruler else text_ext[1]
    y1 = max(ruler_ext[3], text_ext[3]) if with_ruler else text_ext[3]
    # the widest strip beside what the sheet holds first, those along the top or bottom
    # before the sides (the footer reads upright there)
    if obstacles:
        left = min(b[0] for b in obstacles)
        right = max(b[2] for b in obstacles)
        top = min(b[1] for b in obstacles)
        bottom = max(b[3] for b in obstacles)
    else:
        left, right, top, bottom = W / 2, W / 2, H / 2, H / 2
    room = {"bottom": H - bottom, "top": top, "right": W - right, "left": left}
    order = sorted(SIDES, key=lambda k: (-(room[k] >= 6.0), k not in ("bottom", "top"),
                                         -room[k]))
    for side in order:
        strip = _Strip(side, W, H)
        across = [m for m in lines if _across(side, m)]
        blocks = obstacles + [_line_box(m) for m in lines if not _across(side, m)]
        edge = strip.depth - margin - EDGE_INSET if strip.outward else margin + EDGE_INSET
        # the footer's extreme towards the paper's edge lies on the printable area's edge
        base = edge - y1 if strip.outward else edge - y0
        lo, hi = margin + EDGE_INSET, strip.length - margin - EDGE_INSET
        band_text = (base + text_ext[1], base + text_ext[3])
        text_free = _free(strip, band_text, blocks, across, lo, hi)
        best: _Choice | None = None
        if not with_ruler:
            for a, b in text_free:
                fit = _fit(text, b - a)
                if fit is None:
                    continue
                line = _text_line(*fit)
                score: tuple[float, ...] = (float(fit[0] == text), fit[1], -a)
                if best is None or score > best.score:
                    ext = _line_extent((line,))
                    best = _Choice(side, base, a - ext[0], (line,),
                                   [_part(strip, a - ext[0], base, ext)], score)
        else:
            band_ruler = (base + ruler_ext[1], base + ruler_ext[3])
            for a, b in _free(strip, band_ruler, blocks, across, lo, hi):
                if b - a < ruler_ext[2] - ruler_ext[0]:
                    continue
                r = a - ruler_ext[0]  # the ruler's start, as far along the strip as it goes
                keep = (r + ruler_ext[0] - 4.0, r + RULER_SPAN)
                for ta, tb in text_free:
                    for pa, pb in ((ta, min(tb, keep[0])), (max(ta, keep[1]), tb)):
                        if pb - pa < 10.0:
                            continue
                        fit = _fit(text, pb - pa)
                        if fit is None:
                            continue
                        line = _text_line(*fit)
                        line = Text(pa - r, 0, line.text, line.font, line.size, line.color)
                        score = (float(fit[0] == text), fit[1], -abs(pa - keep[1]), -r)
                        if best is None or score > best.score:
                            items = _footer_ruler() + (line,)
                            best = _Choice(side, base, r, items,
                                           [_part(strip, r, base, ruler_ext),
                                            _part(strip, r, base, _line_extent((line,)))],
                                           score)
        if best is not None:
            return best
    return None


def _part(strip: _Strip, origin: float, base: float, ext: Box4) -> Box4:
    """The page box of a footer part covering ``ext`` in the footer's coordinates."""
    return strip.page_box(origin + ext[0], origin + ext[2], base + ext[1], base + ext[3])


def footer(sheet: Sheet, text: str, s: Settings) -> None:
    """The footer line and the 50 mm ruler, inside the printable area, along the widest free
    strip beside what the sheet holds (turned to read from bottom to top along the right or
    left strip when neither the bottom nor the top has room), clear of every piece's trim and
    bleed and of every panel, between crop marks where it can. A crop mark running across
    the strip under it stops ``FOOTER_CLEAR`` short of it, where that leaves it at least
    ``MIN_MARK`` long; elsewhere the footer does not go. Where the ruler fits nowhere (a sheet
    of counters filling the page), the text line goes alone, as large as fits between 5.5 and
    4 pt; the sheets around it carry the ruler. On a sheet with no room even for that inside
    the margin the text line goes into the margin, never over a piece."""
    choice = (_choose(sheet, text, s.margin, True) or _choose(sheet, text, s.margin, False)
              or _choose(sheet, text, min(s.margin, PAPER_EDGE), False))
    if choice is None:
        return
    strip = _Strip(choice.side, sheet.w, sheet.h)
    if strip.horizontal:
        sheet.marks.append(Group(choice.items, dx=choice.origin, dy=choice.base))
    else:
        # turned to read from bottom to top along the right or left strip
        sheet.marks.append(Group(choice.items, dx=choice.base, dy=sheet.h - choice.origin,
                                 rotate=270))
    for box in choice.parts:
        x0, y0, x1, y1 = box
        _stop_marks_before(sheet, (x0, y0, x1 - x0, y1 - y0), choice.side)


def _across(side: str, line: Line) -> bool:
    """Whether a line runs across the footer's strip (towards the paper's edge)."""
    if side in ("bottom", "top"):
        return abs(line.x1 - line.x2) < 1e-9
    return abs(line.y1 - line.y2) < 1e-9


def _span(line: Line, across: bool, horizontal: bool) -> tuple[float, float]:
    """A line's extent across the footer's strip (``across``) or along it, page mm."""
    vertical_axis = horizontal == across  # y when the strip is horizontal and we go across
    a, b = (line.y1, line.y2) if vertical_axis else (line.x1, line.x2)
    return min(a, b), max(a, b)


def _stop_marks_before(sheet: Sheet, box: tuple[float, float, float, float],
                       side: str) -> None:
    """Every line of the sheet's marks that would cross the footer's ``box`` stops
    ``FOOTER_CLEAR`` short of it: a mark running across the strip keeps its end towards the
    pieces (where it marks a cut line), one running along it keeps what lies beside the
    footer."""
    bx, by, bw, bh = box
    outward = side in ("bottom", "right")
    out: list[Primitive] = []
    for m in sheet.marks:
        if not isinstance(m, Line):
            out.append(m)
            continue
        clear = FOOTER_CLEAR + m.style.width / 2
        x_lo, x_hi = bx - clear, bx + bw + clear
        y_lo, y_hi = by - clear, by + bh + clear
        sx0, sx1 = min(m.x1, m.x2), max(m.x1, m.x2)
        sy0, sy1 = min(m.y1, m.y2), max(m.y1, m.y2)
        if sx1 <= x_lo or sx0 >= x_hi or sy1 <= y_lo or sy0 >= y_hi:
            out.append(m)
            continue
        vertical = abs(m.x1 - m.x2) < 1e-9
        if not vertical and abs(m.y1 - m.y2) > 1e-9:  # (sheet marks run along x or y)
            out.append(m)
            continue
        lo, hi, a, b = (y_lo, y_hi, sy0, sy1) if vertical else (x_lo, x_hi, sx0, sx1)
        pieces = [(a, min(b, lo)), (max(a, hi), b)]
        if _across(side, m):  # keep only the end towards the pieces
            pieces = pieces[:1] if outward else pieces[1:]
        for p, q in pieces:
            if q - p < 0.3:
                continue
            if vertical:
                out.append(Line(m.x1, p, m.x1, q, m.style))
            else:
                out.append(Line(p, m.y1, q, m.y1, m.style))
    sheet.marks[:] = out


def _shorten(text: str, room: float) -> str:
    """The footer text cut down to ``room`` mm at the smallest footer size: the list of what
    the sheet holds is shortened first (with an ellipsis); the last part (print at 100%) stays."""
    def width(t: str) -> float:
        return float(stringWidth(t, "Helvetica", FOOTER_MIN_PT)) * PT

    if width(text) <= room:
        return text
    head, sep, tail = text.rpartition(" · ")
    if not sep:
        head, tail = text, ""
    words = head.split(" ")
    while len(words) > 1:
        words.pop()
        cut = " ".join(words).rstrip(",;:·") + "…" + sep + tail
        if width(cut) <= room:
            return cut
    return text
