"""Mixed-size packing: what does not fill whole sheets of its own size shares sheets.

A game's pieces reach paper in three ways. Runs of one size that fill a sheet densely (nine
poker cards, 192 counters) keep the grid of ``layout.impose``: butted where bleed gutters do
not fit, crop marks running to the margin. Larger pieces left over become *units*:

- a **strip**: a row (or a block of rows) of same-size pieces butted edge to edge (shared cut
  lines, bleed only around it), with crop marks on every cut line just outside the bleed;
- a **board part**: one overlapping part of a board larger than the page, with its
  registration marks (only where the neighbouring part covers it), part label and assembly map;
- a **panel**: a block of sheet text (the component checklist, the end of an errata notice).

Units are packed by ``rectpack``: each heuristic in ``STRATEGIES`` (MaxRects placement, with
best-fit or global sheet choice) takes them largest first and puts each on an open sheet where
it fits, opening a new sheet only when none has room; the run with the fewest sheets wins.
Same-size leftovers start as page-wide rows. Then, while it saves a sheet, the two or three
emptiest sheets are repacked onto one fewer (``_merge``): their runs regrouped (rows butted
into blocks, or one or two pieces wide) and blocks of pieces without backs allowed to lie on
their side (drawn turned a quarter; a piece with a back stays upright, since its back would
have to follow). Then the small pieces (tokens, counters, tiles under ``SMALL``) go into the
space left: on each sheet, blocks of one size cut to fit its largest free rectangles
(``free_space``), one size with backs or without in one block; what is left of them opens
sheets of its own, filled the same way. A piece alone on its grid sheet (a player board) is
packed instead, so counters fill the space beside it. rectpack is a maintained, pure-Python
2D bin packer; its MaxRects heuristics place mixed sizes far denser than shelf packing (the
former approach, which lost the height of every shelf's tallest piece), and carving the small
pieces to the free space puts them beside boards and dashboards rather than on sheets of
their own.

Cutting stays easy: every unit is padded by its own bleed (none for standees, dice nets and
other pieces printed without, board parts and panels) plus ``MARK_ROOM`` on every side, so no
piece's bleed reaches another's trim, a crop mark of ``MARK_LEN`` (3 mm, what a trimmer lines
up on) fits between any two neighbours, and every trim stays inside the printable margin
(``_settle``). Rows stop short of the printable width by the room for their marks at one end,
and a block too wide for a portrait sheet's marks keeps that room beside it, so it goes to a
landscape sheet (``_mark_end``). No mark is drawn shorter than ``MARK_LEN`` or in the margin.
Where packing tighter saves a sheet (``TIGHT_ROOM``, or small pieces carved tighter into a
sheet's free space), the tight layout is taken only once every cut line on it still has its
mark at one end: where one has none, the piece beside one of its ends is pushed away along it
as far as the sheet allows (``_spread``), and ``unmarked`` checks the result. The bottom band
stays free for the footer. Backs mirror about the page centre exactly as on grid sheets
(``layout.mirror``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from rectpack import (  # type: ignore[import-untyped]
    SORT_AREA,
    SORT_LSIDE,
    SORT_PERI,
    SORT_SSIDE,
    GuillotineBlsfSas,
    MaxRectsBaf,
    MaxRectsBl,
    MaxRectsBlsf,
    MaxRectsBssf,
    PackingBin,
    PackingMode,
    newPacker,
)
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.draw import Faces
from generator.drawing import PT, Group, Line, Primitive, Rect, Style, Text
from generator.hexgrid import hex_sheets
from generator.layout import (
    FOLDLINE,
    GAP,
    MARK,
    OVERLAP,
    PRINTED_MARK,
    Item,
    Placement,
    Settings,
    Sheet,
    best_grid,
    cut_lines,
    impose,
    mirror,
    page_size,
    turned_origin,
    turns_backs,
    usable_area,
)

COVER_INSET = 0.2  # mm: a board part's marks stop this far inside its covered strips
HALO = 0.6  # mm: the white line under each of those marks (they show on dark board art)
# mm past a piece's bleed on every side: two neighbours' bleeds stand 2 x MARK_ROOM apart, so
# a crop mark between them runs from GAP off one bleed to GAP short of the other, MARK_LEN long
MARK_ROOM = 2.0
MARK_LEN = PRINTED_MARK  # mm: no crop mark shorter than a trimmer lines up on
# mm kept free at the bottom of a shared sheet for its footer (the marks between pieces there
# are short; the footer finds its place between them, or along a side)
PACK_FOOTER = 6.0
SCALE = 10  # rectpack works in tenths of a millimetre (integers: no float drift)


@dataclass
class Strip:
    """Same-size copies in ``cols`` columns, butted: shared cut lines, bleed only around the
    block (``items`` fill it row by row; a block is always a full rectangle). The packer may
    lay a block of one-sided pieces on its side (``turn`` 90): each piece is then drawn turned
    a quarter clockwise, the block's rows becoming its columns."""

    items: list[Item]
    cols: int = 0
    turn: int = 0
    room: float = MARK_ROOM  # mm past its bleed kept free on every side (``_pad``)

    def __post_init__(self) -> None:
        if not self.cols:
            self.cols = len(self.items)

    @property
    def rows(self) -> int:
        return math.ceil(len(self.items) / self.cols)

    @property
    def bleed(self) -> float:
        return self.items[0].front.bleed

    @property
    def turnable(self) -> bool:
        """Only pieces without a back may lie on their side (a back would have to follow)."""
        return not self.two_sided

    def _grid(self) -> tuple[float, float, int, int]:
        """The block as it lies on the page: a piece's width and height, columns and rows."""
        d = self.items[0].front
        if self.turn:
            return d.h, d.w, self.rows, self.cols
        return d.w, d.h, self.cols, self.rows

    @property
    def w(self) -> float:
        pw, _, cols, _ = self._grid()
        return cols * pw

    @property
    def h(self) -> float:
        _, ph, _, rows = self._grid()
        return rows * ph

    @property
    def two_sided(self) -> bool:
        return any(it.back is not None for it in self.items)

    def place(self, x: float, y: float, front: Sheet, back: Sheet | None, s: Settings,
              landscape: bool) -> None:
        pw, ph, cols, rows = self._grid()
        b = self.bleed
        for k, it in enumerate(self.items):
            c, r = k % self.cols, k // self.cols
            if self.turn:  # the block's first row becomes its first column
                c, r = r, c
            tx, ty = x + c * pw, y + r * ph
            trim = (tx, ty, pw, ph)
            left = b if c == 0 else 0.0
            right = b if c == cols - 1 else 0.0
            top = b if r == 0 else 0.0
            bottom = b if r == rows - 1 else 0.0
            clip = (tx - left, ty - top, pw + left + right, ph + top + bottom)
            front.placements.append(Placement(it.comp, it.copy, "front", it.front, trim, clip,
                                              turned_origin(trim, self.turn), self.turn))
            if it.back is not None and s.duplex != "none":
                assert not self.turn, "a piece with a back is never laid on its side"
                bt = mirror(trim, front.w, front.h, s, landscape)
                bc = mirror(clip, front.w, front.h, s, landscape)
                turn = 180 if turns_backs(s, landscape) else 0
                origin = turned_origin(bt, turn)
                target = back if back is not None else front
                target.placements.append(Placement(it.comp, it.copy, "back", it.back, bt, bc,
                                                   origin, turn))
        front.marks.extend(block_marks(x, y, [x + k * pw for k in range(cols + 1)],
                                       [y + k * ph for k in range(rows + 1)], b))


MARK_FULL = 5.0  # mm: a crop mark with free paper beyond it runs this long


def fit_marks(sheet: Sheet, s: Settings) -> list[Primitive]:
    """The sheet's crop marks, each run on from its start (``GAP`` off its piece's bleed)
    over the free paper beyond it, up to ``MARK_FULL``, stopping ``GAP`` short of any other
    piece's bleed or panel, and cut back to the printable area (``--margin``): a mark a
    trimmer can be lined up on where there is room, and none where a printer prints
    nothing. Other marks stay as they are."""
    boxes = [(x, y, x + w, y + h) for x, y, w, h in
             [p.clip for p in sheet.placements] + sheet.occupied]
    lo_x, hi_x = s.margin, sheet.w - s.margin
    lo_y, hi_y = s.margin, sheet.h - s.margin
    out: list[Primitive] = []
    for m in sheet.marks:
        if not isinstance(m, Line) or m.style is not MARK:
            out.append(m)
            continue
        vertical = abs(m.x1 - m.x2) < 1e-9
        if not vertical and abs(m.y1 - m.y2) > 1e-9:
            out.append(m)
            continue
        at = m.x1 if vertical else m.y1
        a, b = sorted((m.y1, m.y2) if vertical else (m.x1, m.x2))
        lo, hi = (lo_y, hi_y) if vertical else (lo_x, hi_x)
        if not (lo_x if vertical else lo_y) - 1e-9 <= at <= (hi_x if vertical else hi_y) + 1e-9:
            continue  # the whole line lies in the margin
        spans = [(y0, y1) if vertical else (x0, x1) for x0, y0, x1, y1 in boxes
                 if (x0 - 1e-6 <= at <= x1 + 1e-6 if vertical
                     else y0 - 1e-6 <= at <= y1 + 1e-6)]
        # the mark starts GAP off the bleed it marks: on the side of the nearer span's end
        before = [e for _, e in spans if e <= a + 1e-6]
        after = [st for st, _ in spans if st >= b - 1e-6]
        outward = bool(before) and (not after or a - max(before) <= min(after) - b)
        if outward:  # the piece lies before the mark: run on towards higher values
            stop = min([st for st, _ in spans if st > a + 1e-6] + [math.inf]) - GAP
            b = min(a + MARK_FULL, stop, hi)
            a = max(a, lo)
        else:
            stop = max([e for _, e in spans if e < b - 1e-6] + [-math.inf]) + GAP
            a = max(b - MARK_FULL, stop, lo)
            b = min(b, hi)
        if b - a < MARK_LEN - 1e-9:
            continue  # what would print of it is too short to cut by
        out.append(Line(at, a, at, b, MARK) if vertical else Line(a, at, b, at, MARK))
    return out


def block_marks(x: float, y: float, xs: list[float], ys: list[float],
                bleed: float) -> list[Primitive]:
    """Short hairlines on every cut line of a block, just outside its bleed on all four sides."""
    x1, y1 = xs[-1], ys[-1]
    a, z = bleed + GAP, bleed + GAP + MARK_LEN
    out: list[Primitive] = []
    for cx in xs:
        out.append(Line(cx, y - z, cx, y - a, MARK))
        out.append(Line(cx, y1 + a, cx, y1 + z, MARK))
    for cy in ys:
        out.append(Line(x - z, cy, x - a, cy, MARK))
        out.append(Line(x1 + a, cy, x1 + z, cy, MARK))
    return out


@dataclass
class BoardPart:
    """One part of a board split over several sheets, with the room below it for its label."""

    item: Item
    window: tuple[float, float, float, float]  # the board's region this part shows
    col: int
    row: int
    cols: int
    rows: int

    @property
    def label(self) -> str:
        return _name(self.col, self.row)

    @property
    def w(self) -> float:
        return self.window[2]

    @property
    def h(self) -> float:
        return self.window[3] + label_depth(self.rows)

    bleed: float = 0.0
    turnable: bool = False
    room: float = MARK_ROOM

    @property
    def two_sided(self) -> bool:
        return self.item.back is not None

    def place(self, x: float, y: float, front: Sheet, back: Sheet | None, s: Settings,
              landscape: bool) -> None:
        bx, by, pw, ph = self.window
        trim = (x, y, pw, ph)
        front.placements.append(Placement(self.item.comp, self.item.copy, "front",
                                          self.item.front, trim, trim, (x - bx, y - by),
                                          part=self.label, window=self.window))
        if self.item.back is not None and back is not None:
            # behind this part lies the back's mirrored region (the piece turns over left to
            # right, as every back is drawn), on the back page where the sheet's flip puts it
            window = (self.item.front.w - bx - pw, by, pw, ph)
            bt = mirror(trim, front.w, front.h, s, landscape)
            turn = 180 if turns_backs(s, landscape) else 0
            origin = ((bt[0] + bt[2] + window[0], bt[1] + bt[3] + window[1]) if turn
                      else (bt[0] - window[0], bt[1] - window[1]))
            back.placements.append(Placement(self.item.comp, self.item.copy, "back",
                                             self.item.back, bt, bt, origin, turn,
                                             part=self.label, window=window))
        front.marks.extend(registration(x, y, pw, ph, self.col, self.row, self.cols,
                                        self.rows))
        front.marks.extend(assembly_map(x, y + ph, pw, self.cols, self.rows, self.col,
                                        self.row, self.label))
        front.occupied.append((x, y, self.w, self.h))


@dataclass
class Panel:
    """Sheet text drawn in its own box (0, 0, w, h): the checklist, an errata notice's end."""

    title: str
    w: float
    h: float
    marks: list[Primitive] = field(default_factory=list)
    bleed: float = 0.0
    two_sided: bool = False
    turnable: bool = False
    room: float = MARK_ROOM

    def place(self, x: float, y: float, front: Sheet, back: Sheet | None, s: Settings,
              landscape: bool) -> None:
        front.marks.append(Group(tuple(self.marks), dx=x, dy=y))
        front.panels.append(self.title)
        front.occupied.append((x, y, self.w, self.h))


Unit = Strip | BoardPart | Panel
Box = tuple[float, float, float, float]


def label_depth(rows: int) -> float:
    """Room under a board part for its assembly map (4 mm a row) and label."""
    return 1.5 + max(4.0, rows * 4.0) + 0.5


def board_parts(item: Item, s: Settings) -> list[BoardPart]:
    """A board larger than the printable area, split into the fewest overlapping parts that
    the packer can place (each with room for its label and assembly map below it)."""
    d = item.front
    best: tuple[int, int, int] | None = None
    for landscape in _orientations(s):
        _, _, bw, bh, pad = _bin(s, landscape)
        room_w, room_h = bw - 2 * pad - 0.2, bh - 2 * pad - 0.2
        cols = max(1, math.ceil((d.w - OVERLAP) / (room_w - OVERLAP)))
        rows = 1
        while rows < 20:
            ph = (d.h + (rows - 1) * OVERLAP) / rows
            if ph + label_depth(rows) <= room_h:
                break
            rows += 1
        if best is None or cols * rows < best[0]:
            best = (cols * rows, cols, rows)
    assert best is not None
    _, cols, rows = best
    pw = (d.w + (cols - 1) * OVERLAP) / cols
    ph = (d.h + (rows - 1) * OVERLAP) / rows
    return [BoardPart(item, (c * (pw - OVERLAP), r * (ph - OVERLAP), pw, ph), c, r, cols, rows)
            for r in range(rows) for c in range(cols)]


SMALL = 60.0  # mm: pieces below this on both sides fill the space other pieces leave


def strips(items: list[Item], s: Settings) -> list[Strip]:
    """Same-size copies in rows as wide as a portrait page's printable width allows (rows
    that fit either orientation leave the packer the most freedom)."""
    return group(items, s, "rows")


GROUPINGS = ("rows", "block", "pairs", "column")


def group(items: list[Item], s: Settings, how: str, room: float = MARK_ROOM) -> list[Strip]:
    """Same-size copies as butted blocks: ``rows`` as wide as a portrait page's printable
    width; ``block``, those rows stacked as high as the page allows (butting the rows saves
    the gutter between them); ``pairs`` and ``column``, two pieces or one wide and as high as
    the page allows. Every block is a full rectangle (a short last row is a block of its
    own)."""
    if not items:
        return []
    d = items[0].front
    # a row leaves one end the room for crop marks inside the printable area (``mark_room``)
    per_row = max(1, int((usable_area(s, False)[2] - mark_room(d.bleed) + 1e-9) // d.w))
    if how == "rows":
        return [Strip(items[k:k + per_row], room=room) for k in range(0, len(items), per_row)]
    _, _, _, bh, _ = _bin(s, False, room)
    high = max(1, int((bh - 2 * (d.bleed + room) + 1e-9) // d.h))
    cols = {"block": per_row, "pairs": min(2, per_row)}.get(how, 1)
    out: list[Strip] = []
    k = 0
    while k < len(items):
        rows = min(high, (len(items) - k) // cols)
        if rows == 0:  # fewer than a row left
            out.append(Strip(items[k:], room=room))
            break
        out.append(Strip(items[k:k + cols * rows], cols, room=room))
        k += cols * rows
    return out


def mark_room(bleed: float) -> float:
    """How far a piece's trim must lie inside the printable area for the crop marks beyond
    its bleed to print there whole (a home printer may print nothing in the margin)."""
    return bleed + GAP + MARK_LEN


def _bin(s: Settings, landscape: bool,
         room: float = MARK_ROOM) -> tuple[float, float, float, float, float]:
    """The area the padded units may fill (x, y, w, h) and the widest padding (the bleed and
    ``room``): the printable area widened by that padding (trims stay inside it), less the
    footer band at the bottom."""
    pad = s.bleed + room
    ux, uy, uw, uh = usable_area(s, landscape)
    e = max(0.0, min(pad, s.margin - 0.5))
    top = uy - e
    bottom = uy + uh - PACK_FOOTER
    return ux - e, top, uw + 2 * e, bottom - top, pad


def _pad(u: Unit, s: Settings, wide: bool = False) -> float:
    """The room around a unit: its own bleed (none for pieces printed without, nor for board
    parts, drawn to their trim, and panels) and the room for its neighbours' crop marks;
    every unit keeps the full bleed's room when ``wide``."""
    return (s.bleed if wide else u.bleed) + u.room


def _footprint(u: Unit, s: Settings, wide: bool = False) -> tuple[int, int]:
    """The room a unit takes in the packing area: its trim, its padding on every side, and
    ``_mark_end`` beyond its right end."""
    pad = _pad(u, s, wide)
    return (math.ceil((u.w + 2 * pad + _mark_end(u, s)) * SCALE),
            math.ceil((u.h + 2 * pad) * SCALE))


def _mark_end(u: Unit, s: Settings) -> float:
    """Room kept free beyond a block's right end where it is too wide for the narrowest
    sheet's printable width to keep the crop marks of its cut lines across the page inside it
    at either end (Mutagen's 200 mm airships on Letter's 203.9 mm): with it, the block fits
    only a sheet whose printable width leaves ``mark_room`` at one end (a landscape one), and
    keeps it there. Down the page, the footer's band below the packing area leaves every
    block's lower ends room; a block laid on its side must find its room as it lies
    (``_marks_across``)."""
    if not isinstance(u, Strip):
        return 0.0  # board parts line up by their registration marks; panels are text
    room = mark_room(u.bleed)
    narrow = min(usable_area(s, landscape)[2] for landscape in _orientations(s))
    widest = max(usable_area(s, landscape)[2] for landscape in _orientations(s))
    return room if narrow < u.w + room - 1e-9 <= widest else 0.0


def _marks_across(sheet: list[Placed], s: Settings, landscape: bool) -> bool:
    """Whether every block's cut lines across the page leave room for a crop mark inside the
    printable area at one end or the other (as far as the page's width goes)."""
    ux, _, uw, _ = usable_area(s, landscape)
    for u, x, _, turn in sheet:
        if isinstance(u, Strip):
            w, _ = _size(u, turn)
            room = mark_room(u.bleed)
            if x - ux < room - 1e-6 and ux + uw - (x + w) < room - 1e-6:
                return False
    return True


def fits(u: Unit, s: Settings, turned: bool = False) -> bool:
    """Whether the packer can place ``u`` on some sheet, as it is or laid on its side: its
    padding within the packing area, its trim within the printable area."""
    fw, fh = _footprint(u, s)
    w, h = (u.h, u.w) if turned else (u.w, u.h)
    if turned:
        fw, fh = fh, fw
    for landscape in _orientations(s):
        _, by, bw, bh, _ = _bin(s, landscape, u.room)
        _, uy, uw, _ = usable_area(s, landscape)
        if (fw <= int(bw * SCALE) and fh <= int(bh * SCALE) and w <= uw + 1e-6
                and uy + h + _pad(u, s) <= by + bh + 1e-6):
            return True
    return False


def _orientations(s: Settings) -> tuple[bool, ...]:
    return (False,) if s.duplex == "fold" else (False, True)


# rectpack heuristics tried, best result kept: (placement rule, how sheets are chosen, order)
STRATEGIES = (
    (MaxRectsBssf, PackingBin.BFF, SORT_AREA),
    (MaxRectsBssf, PackingBin.BBF, SORT_AREA),
    (MaxRectsBaf, PackingBin.BFF, SORT_AREA),
    (MaxRectsBlsf, PackingBin.BBF, SORT_AREA),
    (MaxRectsBssf, PackingBin.BFF, SORT_LSIDE),
    (MaxRectsBaf, PackingBin.BBF, SORT_LSIDE),
    (MaxRectsBl, PackingBin.BFF, SORT_PERI),
    (MaxRectsBssf, PackingBin.Global, SORT_AREA),
)
# and when pieces may be laid on their side (a merge's many tries each run all of these):
# MaxRects by shortest side and by area, guillotine placement (every cut runs edge to edge) and
# MaxRects by shortest side taking pieces shortest side first, which finds the tight mixes the
# others miss
TURNING = STRATEGIES[:3] + (
    (GuillotineBlsfSas, PackingBin.BFF, SORT_AREA),
    (MaxRectsBlsf, PackingBin.BFF, SORT_SSIDE),
)

Placed = tuple[Unit, float, float, int]  # a unit, where its trim's top left goes, its turn
Layout = list[tuple[bool, list[Placed]]]  # per sheet: landscape, what is on it


def _run(todo: list[Unit], s: Settings, strategy: tuple[Any, Any, Any],
         turning: bool, wide: bool = False) -> Layout | None:
    """One rectpack run, as trims; None when it left a unit out, laid a unit that must stay
    upright on its side, or packed units whose padding cannot both stay on the paper."""
    algo, bins, order = strategy
    packer = newPacker(mode=PackingMode.Offline, bin_algo=bins, pack_algo=algo,
                       sort_algo=order, rotation=turning)
    kinds = _orientations(s)
    room = max((u.room for u in todo), default=MARK_ROOM)
    for k, landscape in enumerate(kinds):
        _, _, bw, bh, _ = _bin(s, landscape, room)
        packer.add_bin(int(bw * SCALE), int(bh * SCALE), count=len(todo), bid=k)
    prints = [_footprint(u, s, wide) for u in todo]
    for i, fp in enumerate(prints):
        packer.add_rect(*fp, rid=i)
    packer.pack()
    out: Layout = []
    placed = 0
    for abin in packer:
        if not len(abin):
            continue
        landscape = kinds[abin.bid]
        bx, by, bw, bh, _ = _bin(s, landscape, room)
        ux, uy, uw, _ = usable_area(s, landscape)
        sheet: list[Placed] = []
        for r in abin:
            u = todo[r.rid]
            fw, fh = prints[r.rid]
            turn = 90 if (r.width, r.height) != (fw, fh) else 0
            if turn and not u.turnable:
                return None
            pad = _pad(u, s, wide)
            sheet.append((u, bx + r.x / SCALE + pad, by + r.y / SCALE + pad, turn))
        settled = _settle(sheet, s, landscape, wide)
        if settled is None or not _marks_across(settled, s, landscape):
            return None
        sheet = settled
        out.append((landscape, sheet))
        placed += len(sheet)
    return out if placed == len(todo) else None


def _settle(sheet: list[Placed], s: Settings, landscape: bool,
            wide: bool = False) -> list[Placed] | None:
    """Units padded less than the packing area's border (pieces without bleed) may lie with
    their trim past the printable area's left or top edge: push them in, and whatever lies
    beyond them along that axis as far as their padding needs, keeping every unit's own
    padding clear of its neighbours'. None if that runs past the area's other side."""
    _, by, _, bh, _ = _bin(s, landscape, max((u.room for u, _, _, _ in sheet),
                                             default=MARK_ROOM))
    ux, uy, uw, _ = usable_area(s, landscape)
    pads = [_pad(u, s, wide) for u, _, _, _ in sheet]
    xs = [x for _, x, _, _ in sheet]
    ys = [y for _, _, y, _ in sheet]
    size = [((u.h, u.w) if t else (u.w, u.h)) for u, _, _, t in sheet]
    n = len(sheet)

    def span(lo: list[float], k: int, i: int) -> tuple[float, float]:
        return lo[k] - pads[k], lo[k] + size[k][i] + pads[k]

    def overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
        return a[0] < b[1] - 1e-6 and b[0] < a[1] - 1e-6

    for axis, lo, other, start in ((0, xs, ys, ux), (1, ys, xs, uy)):
        for k in sorted(range(n), key=lambda k: lo[k]):
            need = start
            for j in range(n):  # those before it along the axis whose band it shares
                if j != k and lo[j] < lo[k] and overlap(span(other, j, 1 - axis),
                                                        span(other, k, 1 - axis)):
                    need = max(need, lo[j] + size[j][axis] + pads[j] + pads[k])
            lo[k] = max(lo[k], need)
    for k in range(n):
        if xs[k] + size[k][0] > ux + uw + 1e-6 or ys[k] + size[k][1] + pads[k] > by + bh + 1e-6:
            return None
    return [(u, xs[k], ys[k], t) for k, (u, _, _, t) in enumerate(sheet)]


def _key(todo: list[Unit], layout: Layout) -> tuple[float, float]:
    """Fewer sheets first, then the emptiest last sheet (what is left there is easiest to
    fill or to leave off)."""
    fills = sorted(sum(u.w * u.h for u, _, _, _ in sheet) for _, sheet in layout)
    return (len(layout), fills[0] if fills else 0.0)


def _best(todo: list[Unit], s: Settings, turning: bool = False,
          within: int = 0, wide: bool = False) -> Layout | None:
    """The rectpack run with the fewest sheets (then the emptiest last sheet); ``turning``:
    runs that may lay pieces on their side (and need not), instead; with ``within``, the
    first run on that many sheets or fewer is taken."""
    best: Layout | None = None
    best_key: tuple[float, float] = (math.inf, math.inf)
    for strategy in TURNING if turning else STRATEGIES:
        run = _run(todo, s, strategy, turning, wide)
        if run is None:
            continue
        if len(run) <= within:
            return run
        key = _key(todo, run)
        if key < best_key:
            best, best_key = run, key
    return best


def _area(units: list[Unit], s: Settings) -> float:
    return sum(fw * fh for fw, fh in (_footprint(u, s) for u in units)) / SCALE ** 2


SEARCH_LIMIT = 64  # groupings tried at most, per merge
MERGE_RUNS = 100  # rectpack runs at most, per merge (a print stays quick)


def _search(fixed: list[Unit], runs: list[list[Item]], s: Settings,
            head: Panel | None, room: float = MARK_ROOM) -> Layout:
    """Pack ``fixed`` units and each run of same-size pieces, in page-wide rows, upright, as
    rectpack packs them; then, while it gains a sheet, repack the emptiest sheets onto one
    fewer (``_merge``)."""
    todo: list[Unit] = ([head] if head is not None else []) + list(fixed)
    for run in runs:
        todo.extend(group(run, s, "rows", room))
    todo.sort(key=lambda u: -u.w * u.h)
    for u in todo:
        if not fits(u, s):
            raise ValueError(f"a {u.w:.0f} x {u.h:.0f} mm piece does not fit any sheet")
    layout = _best(todo, s)
    if layout is None:
        # pieces without bleed pushed inside the printable area crowded a neighbour on every
        # run: pack them all with the full bleed's room, which never needs a push
        layout = _best(todo, s, wide=True)
    if layout is None:
        big = max(todo, key=lambda u: u.w * u.h)
        raise ValueError(f"the pieces do not fit the sheets (the largest is {big.w:.0f} x "
                         f"{big.h:.0f} mm)")
    while (better := _merge(layout, s, room)) is not None:
        layout = better
    return layout


def _merge(layout: Layout, s: Settings, room: float = MARK_ROOM) -> Layout | None:
    """The two (or three) emptiest sheets' units onto one sheet fewer, when their padded
    areas leave hope: their runs of same-size pieces regrouped (rows butted into blocks, or
    one or two pieces wide; every combination while there are few runs, one run at a time
    after that, up to ``SEARCH_LIMIT``) and pieces without backs laid on their side where
    that packs tighter. None when nothing gains a sheet, so a game that gains nothing
    prints as before."""
    _, _, bw, bh, _ = _bin(s, False, room)
    order = sorted(range(len(layout)),
                   key=lambda i: sum(u.w * u.h for u, _, _, _ in layout[i][1]))
    for k in (2, 3):
        if len(layout) < k:
            break
        pick = order[:k]
        units = [u for i in pick for u, _, _, _ in layout[i][1]]
        if _area(units, s) > (k - 1) * bw * bh:
            continue
        fixed: list[Unit] = [u for u in units if not isinstance(u, Strip)]
        runs: dict[tuple[float, float, float, bool], list[Item]] = {}
        for u in units:
            if isinstance(u, Strip):
                d = u.items[0].front
                runs.setdefault((round(d.w, 2), round(d.h, 2), d.bleed, u.two_sided),
                                []).extend(u.items)
        for run in runs.values():  # pieces in the order they are defined, as they were
            run.sort(key=lambda it: (it.comp.file, it.comp.line, it.copy))
        # k pieces no two of which share a sheet need k sheets, however they are grouped
        atoms = fixed + [Strip([it], room=room) for run in runs.values() for it in run[:k]]
        if any(all(_apart(a, b, s) for a, b in combinations(trio, 2))
               for trio in combinations(atoms, k)):
            continue
        if len(GROUPINGS) ** len(runs) <= SEARCH_LIMIT:
            tries = _product(len(runs))
        else:
            rows = tuple("rows" for _ in runs)
            tries = [rows[:i] + (g,) + rows[i + 1:] for i in range(len(runs))
                     for g in GROUPINGS]
        cands: list[tuple[float, list[Unit]]] = []
        for hows in tries[:SEARCH_LIMIT]:
            todo = list(fixed)
            for run, how in zip(runs.values(), hows, strict=True):
                todo.extend(group(run, s, how, room))
            if all(fits(u, s) or (u.turnable and fits(u, s, turned=True)) for u in todo):
                cands.append((_area(todo, s), sorted(todo, key=lambda u: -u.w * u.h)))
        # the least padding first (butted blocks waste least), and none that cannot fit
        for n, (area, todo) in enumerate(sorted(cands, key=lambda c: c[0])):
            if area > (k - 1) * bw * bh or n * len(TURNING) >= MERGE_RUNS:
                break
            run_ = _best(todo, s, turning=True, within=k - 1)
            if run_ is not None and len(run_) < k:
                return [sheet for i, sheet in enumerate(layout) if i not in pick] + run_
    return None


def _apart(a: Unit, b: Unit, s: Settings) -> bool:
    """Whether two units can never share a sheet: two rectangles fit one only side by side
    or one above the other, in any orientation of the sheet and either piece may take."""
    def shapes(u: Unit) -> list[tuple[int, int]]:
        fw, fh = _footprint(u, s)
        return [(fw, fh), (fh, fw)] if u.turnable else [(fw, fh)]

    for landscape in _orientations(s):
        _, _, bw, bh, _ = _bin(s, landscape, a.room)
        W, H = int(bw * SCALE), int(bh * SCALE)
        for aw, ah in shapes(a):
            for cw, ch in shapes(b):
                if (aw + cw <= W and max(ah, ch) <= H) or (ah + ch <= H and max(aw, cw) <= W):
                    return False
    return True


def _product(n: int) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = [()]
    for _ in range(n):
        out = [h + (g,) for h in out for g in GROUPINGS]
    return out


def free_space(area: Box, used: list[Box]) -> list[Box]:
    """The maximal empty rectangles of ``area`` around the ``used`` boxes (x, y, w, h)."""
    free = [area]
    for ux, uy, uw, uh in used:
        nxt: list[Box] = []
        for f in free:
            fx, fy, fw, fh = f
            if ux >= fx + fw or ux + uw <= fx or uy >= fy + fh or uy + uh <= fy:
                nxt.append(f)
                continue
            if ux > fx:
                nxt.append((fx, fy, ux - fx, fh))
            if ux + uw < fx + fw:
                nxt.append((ux + uw, fy, fx + fw - ux - uw, fh))
            if uy > fy:
                nxt.append((fx, fy, fw, uy - fy))
            if uy + uh < fy + fh:
                nxt.append((fx, uy + uh, fw, fy + fh - uy - uh))
        nxt = list(dict.fromkeys(nxt))
        free = [a for a in nxt if not any(
            b != a and b[0] <= a[0] + 1e-9 and b[1] <= a[1] + 1e-9
            and b[0] + b[2] >= a[0] + a[2] - 1e-9 and b[1] + b[3] >= a[1] + a[3] - 1e-9
            for b in nxt)]
    return free


def _filled(layout: Layout, small: list[list[Item]], s: Settings,
            room: float = MARK_ROOM) -> Layout:
    """``layout`` with ``small`` filled in (``_fill_sheet``), and what is left of them on
    sheets of their own, filled the same way; neither argument changes."""
    out: Layout = [(landscape, list(placed)) for landscape, placed in layout]
    rest = [list(run) for run in small]
    for k in range(len(out)):
        _fill_sheet(out, k, rest, s, room)
    while any(rest):
        out.append((False, []))
        _fill_sheet(out, len(out) - 1, rest, s, room)
        if not out[-1][1]:
            raise ValueError("a small piece fits no sheet")
    return out


def _fill_sheet(layout: Layout, k: int, small: list[list[Item]], s: Settings,
                room: float) -> None:
    """Small pieces into sheet ``k``'s free space (``_fill``) with ``room`` around their
    blocks, and then more of them into what is left with ``TIGHT_ROOM``; or all of them with
    ``TIGHT_ROOM``: whichever places the most pieces while every cut line on the sheet keeps
    its crop mark (``unmarked``)."""
    def trial(rooms: tuple[float, ...]) -> tuple[int, tuple[bool, list[Placed]],
                                                  list[list[Item]]]:
        sheet = [(layout[k][0], list(layout[k][1]))]
        rest = [list(run) for run in small]
        for r in rooms:
            _fill(sheet, rest, s, r)
        return sum(len(run) for run in rest), sheet[0], rest

    left, best, rest = trial((room,))
    if room > TIGHT_ROOM and left:
        for rooms in ((room, TIGHT_ROOM), (TIGHT_ROOM,)):
            n, (landscape, placed), after = trial(rooms)
            if n >= left:
                continue  # (no more of them fit: nothing to check)
            sheet = (landscape, _spread(placed, s, landscape))
            if not unmarked([_marked(sheet[1], s, landscape)], s):
                left, best, rest = n, sheet, after
    layout[k] = best
    small[:] = rest


def _fill(layout: Layout, small: list[list[Item]], s: Settings,
          room: float = MARK_ROOM) -> None:
    """Small pieces into the space the packed sheets leave: on each sheet, blocks of one
    size cut to fit its largest free rectangles, the largest pieces first, ``room`` past their
    bleed. A block leaves one end of its cut lines across the page the room for crop marks
    inside the printable area (``mark_room``): moved off the margin, or a column narrower."""
    pad = s.bleed + room
    small.sort(key=lambda run: -run[0].front.w * run[0].front.h if run else 0.0)
    for landscape, placed in layout:
        bx, by, bw, bh, _ = _bin(s, landscape, room)
        ux, _, uw, _ = usable_area(s, landscape)
        while any(small):
            used = [(x - _pad(u, s), y - _pad(u, s), u.w + 2 * _pad(u, s),
                     u.h + 2 * _pad(u, s)) for u, x, y, _ in placed]
            spaces = sorted(free_space((bx, by, bw, bh), used), key=lambda f: -f[2] * f[3])
            block = None
            for fx, fy, fw, fh in spaces:
                for run in small:
                    if not run:
                        continue
                    d = run[0].front
                    cols = int((fw - 2 * pad + 1e-9) // d.w)
                    rows = int((fh - 2 * pad + 1e-9) // d.h)
                    # the block's cut lines across the page keep a printable mark at one end:
                    # its left end far enough inside, or its right end
                    x = fx + pad
                    while cols >= 1 and not (
                            x + cols * d.w <= ux + uw - mark_room(d.bleed) + 1e-9
                            or x >= ux + mark_room(d.bleed) - 1e-9):
                        if fx + fw - pad - cols * d.w >= ux + mark_room(d.bleed) - 1e-9:
                            x = ux + mark_room(d.bleed)  # moved clear of the left margin
                        else:
                            cols -= 1
                    if cols < 1 or rows < 1:
                        continue
                    k = min(len(run), cols * rows)
                    if k >= cols:
                        k = k // cols * cols
                        block = Strip(run[:k], cols, room=room)
                    else:
                        block = Strip(run[:k], k, room=room)
                    del run[:k]
                    placed.append((block, x, fy + pad, 0))
                    break
                if block is not None:
                    break
            if block is None:
                break
            block = None


def pack(units: list[Unit], s: Settings, head: Panel | None = None,
         small: list[list[Item]] | None = None,
         runs: list[list[Item]] | None = None) -> list[Sheet]:
    """Pack ``units`` (and ``head``, an errata notice's text) and ``runs`` of same-size
    pieces, grouped into butted blocks, onto as few sheets as rectpack finds, then fill the
    space they leave with ``small`` pieces (runs of one size).

    Each heuristic in ``STRATEGIES`` takes the units largest first and puts each on an open
    sheet where it fits (MaxRects: beside what is there already), opening a new sheet
    (portrait if the unit fits one, else landscape) only when none has room; the run with the
    fewest sheets wins, and other groupings of the runs are searched when it leaves room to
    gain (``_search``). Small tokens and counters then go, in blocks cut to fit, into the
    largest free rectangles of each sheet; what is left of them is packed the same way.

    Every unit first keeps ``MARK_ROOM`` free past its bleed, so a crop mark between two
    neighbours prints ``MARK_LEN`` long. Pieces packed with ``TIGHT_ROOM`` instead (a mark
    between them would be too short to draw) are tried too, pushed apart where their marks
    want it (``_spread``): that layout is taken only when it saves a sheet and every cut line
    of every piece still has a mark of ``MARK_LEN`` inside the printable area at one of its
    ends (``unmarked``)."""
    small = [list(run) for run in small or [] if run]
    runs = [list(run) for run in runs or [] if run]
    best: list[Sheet] | None = None
    for room in (MARK_ROOM, TIGHT_ROOM):
        mine = [replace(u, room=room) for u in units]
        first = replace(head, room=room) if head is not None else None
        layout: Layout = []
        if first is not None or mine or runs:
            layout = _search(mine, runs, s, first, room)
        for _, sheet in layout:  # the chosen layout's pieces lie as it laid them
            for u, _, _, turn in sheet:
                if isinstance(u, Strip):
                    u.turn = turn
        if first is not None:  # the notice opens the reprint
            layout.sort(key=lambda sheet: not any(u is first for u, _, _, _ in sheet[1]))
        filled = _filled(layout, small, s)
        if room != MARK_ROOM:
            filled = [(landscape, _spread(placed, s, landscape)) for landscape, placed in filled]
        sheets = _sheets(filled, s)
        if best is None or (_paper(sheets) < _paper(best) and not unmarked(sheets, s)):
            best = sheets
    assert best is not None
    return best


TIGHT_ROOM = 1.0  # mm past a piece's bleed where the marks between neighbours are left out


REPAIRS = 8  # rounds of pushing pieces apart for their crop marks, at most, per sheet
Pair = tuple[int, int, int]  # an axis (0: x, 1: y), and two units in order along it


def _spread(sheet: list[Placed], s: Settings, landscape: bool) -> list[Placed]:
    """A sheet packed tight (``TIGHT_ROOM``): where a cut line has no crop mark at either
    end, the unit beside one of its ends (not the margin's) is pushed away along it to
    ``MARK_ROOM`` each, with whatever lies beyond it, as ``_settle`` pushes; round by round
    while marks are wanting and the sheet has the room. As it was where it has not."""
    current = sheet
    apart: set[Pair] = set()
    for _ in range(REPAIRS):
        wanted = _wanting(current, s, landscape)
        if not wanted or wanted <= apart:
            return current  # every mark drawn, or what blocks the rest is the margin
        pushed = _push(current, s, landscape, apart | wanted)
        if pushed is None:
            return current
        current, apart = pushed, apart | wanted
    return current


def _size(u: Unit, turn: int) -> tuple[float, float]:
    """A placed unit's size on the page (a block's own size follows its turn once set)."""
    if turn and not (isinstance(u, Strip) and u.turn == turn):
        return u.h, u.w
    return u.w, u.h


def _push(sheet: list[Placed], s: Settings, landscape: bool,
          apart: set[Pair]) -> list[Placed] | None:
    """``_settle`` with the pairs in ``apart`` kept ``MARK_ROOM`` each past their bleeds
    along their axis: each unit pushed on past those before it in its band; None if that
    runs off the area."""
    _, by, _, bh, _ = _bin(s, landscape, TIGHT_ROOM)
    ux, uy, uw, _ = usable_area(s, landscape)
    n = len(sheet)
    pos = ([x for _, x, _, _ in sheet], [y for _, _, y, _ in sheet])
    size = [_size(u, t) for u, _, _, t in sheet]
    pads = [_pad(u, s) for u, _, _, _ in sheet]
    units = [u for u, _, _, _ in sheet]

    def span(k: int, axis: int) -> tuple[float, float]:
        return pos[axis][k] - pads[k], pos[axis][k] + size[k][axis] + pads[k]

    for axis, start in ((0, ux), (1, uy)):
        lo = pos[axis]
        for k in sorted(range(n), key=lambda k: lo[k]):
            a = span(k, 1 - axis)
            need = start
            for j in range(n):  # those before it along the axis whose band it shares
                b = span(j, 1 - axis)
                if j != k and lo[j] < lo[k] and a[0] < b[1] - 1e-6 and b[0] < a[1] - 1e-6:
                    gap = (units[j].bleed + units[k].bleed + 2 * MARK_ROOM
                           if (axis, j, k) in apart else pads[j] + pads[k])
                    need = max(need, lo[j] + size[j][axis] + gap)
            lo[k] = max(lo[k], need)
    for k in range(n):
        if (pos[0][k] + size[k][0] > ux + uw + 1e-6
                or pos[1][k] + size[k][1] + pads[k] > by + bh + 1e-6):
            return None
    return [(u, pos[0][k], pos[1][k], t) for k, (u, _, _, t) in enumerate(sheet)]


def _wanting(sheet: list[Placed], s: Settings, landscape: bool) -> set[Pair]:
    """For each cut line of a packed sheet with no crop mark: the unit it belongs to and the
    one beside the end of it with the most room (an end at the margin left out)."""
    owner: dict[tuple[int, int], int] = {}
    for k, (u, _, _, _) in enumerate(sheet):
        if isinstance(u, Strip):
            for it in u.items:
                owner[id(it.comp), it.copy] = k
    boxes = []
    for u, x, y, t in sheet:
        w, h = _size(u, t)
        boxes.append((x - u.bleed, y - u.bleed, x + w + u.bleed, y + h + u.bleed))
    drawn = _marked(sheet, s, landscape)
    out: set[Pair] = set()
    for _, i, line, at in unmarked([drawn], s):
        p = drawn.placements[i]
        if (id(p.comp), p.copy) not in owner:
            continue
        k = owner[id(p.comp), p.copy]
        axis = 0 if line == "y" else 1  # a line across the page runs along x
        lo, hi = boxes[k][axis], boxes[k][axis + 2]
        near: list[tuple[float, Pair]] = []
        for j, b in enumerate(boxes):
            if j == k or not b[1 - axis] - 1e-6 <= at <= b[3 - axis] + 1e-6:
                continue
            if b[axis + 2] <= lo + 1e-6:
                near.append((lo - b[axis + 2], (axis, j, k)))
            elif b[axis] >= hi - 1e-6:
                near.append((b[axis] - hi, (axis, k, j)))
        # the nearest unit before the line's one end and after its other
        before = min((g for g in near if g[1][2] == k), default=None, key=lambda g: g[0])
        after = min((g for g in near if g[1][1] == k), default=None, key=lambda g: g[0])
        ends = [e for e in (before, after) if e is not None]
        if ends:
            out.add(max(ends, key=lambda e: e[0])[1])
    return out


def _marked(placed: list[Placed], s: Settings, landscape: bool) -> Sheet:
    """A packed sheet's front as far as its crop marks go: blocks placed with their marks,
    board parts and panels as the boxes those marks stop short of (drawing their assembly
    maps and text would change none)."""
    W, H = page_size(s.paper, landscape)
    front = Sheet(W, H, "front", "")
    for u, x, y, _ in placed:
        if isinstance(u, Strip):
            u.place(x, y, front, None, replace(s, duplex="none"), landscape)
        else:
            front.occupied.append((x, y, u.w, u.h))
    front.marks[:] = fit_marks(front, s)
    return front


def _sheets(layout: Layout, s: Settings) -> list[Sheet]:
    """The packed layout as sheets: fronts (and backs), their crop marks fitted."""
    sheets: list[Sheet] = []
    for landscape, placed in layout:
        W, H = page_size(s.paper, landscape)
        front = Sheet(W, H, "front", "")
        two = any(u.two_sided for u, _, _, _ in placed)
        back = Sheet(W, H, "back", "") if two and s.duplex in ("long", "short") else None
        for u, x, y, _ in sorted(placed, key=lambda p: (round(p[2], 1), p[1])):
            u.place(x, y, front, back, s, landscape)
        front.marks[:] = fit_marks(front, s)
        if s.cut_lines:
            front.marks.extend(cut_lines(front))
        if s.duplex == "fold" and two:
            front.marks.append(Line(W / 2, s.margin, W / 2, H - s.margin, FOLDLINE))
        sheets.append(front)
        if back is not None:
            sheets.append(back)
    return sheets


def unmarked(sheets: list[Sheet], s: Settings) -> list[tuple[int, int, str, float]]:
    """The cut lines with no crop mark of ``MARK_LEN`` inside the printable area: (sheet,
    placement, axis, where), by index. Board parts line up by their registration marks."""
    out: list[tuple[int, int, str, float]] = []
    for k, sheet in enumerate(sheets):
        if sheet.side != "front":
            continue
        lines: dict[tuple[bool, float], float] = {}
        for m in sheet.marks:
            if isinstance(m, Line) and m.style is MARK:
                vertical = abs(m.x1 - m.x2) < 1e-9
                key = (vertical, round(m.x1 if vertical else m.y1, 2))
                length = abs(m.y2 - m.y1) if vertical else abs(m.x2 - m.x1)
                lines[key] = max(lines.get(key, 0.0), length)
        for i, p in enumerate(sheet.placements):
            if p.part or p.face == "back":  # (folded, a back is cut with its front)
                continue
            x, y, w, h = p.trim
            for at, vertical in ((x, True), (x + w, True), (y, False), (y + h, False)):
                if lines.get((vertical, round(at, 2)), 0.0) < MARK_LEN - 1e-6:
                    out.append((k, i, "x" if vertical else "y", at))
    return out


def registration(px: float, py: float, pw: float, ph: float, c: int, r: int, cols: int,
                 rows: int) -> list[Primitive]:
    """Where the neighbouring parts go, drawn only in this part's covered strips: the strip
    along its left edge (under the part to its left) and along its top edge (under the part
    above). Nothing is drawn where the assembled board shows, so the board is clean once glued.

    Each covered strip carries a dashed line just inside it, where the part on top ends (its
    edge laid just over the line hides it), short corner marks at the line's ends along this
    part's outer edges (the other part's corners sit on them), and the name of the part that
    goes on top. Lines get a white halo so they show on dark board art; halo and all stay
    ``COVER_INSET`` inside the strip, so that a mark left showing means the part is out of
    place."""
    out: list[Primitive] = []
    at = OVERLAP - COVER_INSET - HALO / 2  # the line's centre: its halo ends COVER_INSET short
    tick = 3.0

    def line(x1: float, y1: float, x2: float, y2: float, style: Style) -> None:
        out.append(Line(x1, y1, x2, y2, Style(stroke="#ffffff", width=HALO)))
        out.append(Line(x1, y1, x2, y2, style))

    def label(cx: float, cy: float, text: str) -> None:
        w = stringWidth(text, "Helvetica", 5.0) * PT + 1.6
        out.append(Rect(cx - w / 2, cy - 1.6, w, 2.6, Style(fill="#ffffff")))
        out.append(Text(cx, cy + 0.5, text, "Helvetica", 5.0, "#333333", "middle"))

    solid = Style(stroke="#000000", width=0.2)
    edge = COVER_INSET + HALO / 2  # a corner mark's centre, this far inside the part's edge
    if c > 0:  # under the part to the left
        x = px + at
        line(x, py + edge, x, py + ph - edge, FOLDLINE)
        for y in (py + edge, py + ph - edge):
            line(x - tick, y, x, y, solid)
        label(px + at / 2, py + ph / 2, f"under {_name(c - 1, r)}")
    if r > 0:  # under the part above
        y = py + at
        line(px + edge, y, px + pw - edge, y, FOLDLINE)
        for x in (px + edge, px + pw - edge):
            line(x, y - tick, x, y, solid)
        label(px + pw / 2, py + at / 2, f"under {_name(c, r - 1)}")
    return out


def _name(c: int, r: int) -> str:
    return f"{chr(ord('A') + c)}{r + 1}"


def assembly_map(x: float, below: float, width: float, cols: int, rows: int, c: int, r: int,
                 part: str) -> list[Primitive]:
    """The part's label and a small map of all parts (this one filled), under the part,
    never wider than it."""
    cell = 4.0
    y0 = below + 1.5
    out: list[Primitive] = []
    for rr in range(rows):
        for cc in range(cols):
            here = (rr, cc) == (r, c)
            out.append(Rect(x + cc * cell, y0 + rr * cell, cell, cell,
                            Style(fill="#333333" if here else "#ffffff", stroke="#333333",
                                  width=0.2)))
    text = f"Part {part} of {cols * rows}. " + assembly_text(cols, rows)
    tx = x + cols * cell + 3
    room = width - (tx - x)
    depth = max(cell, rows * cell)  # the text stays beside the map, in as many lines as fit
    size = 6.0
    while True:
        lead = size * PT * 1.2
        lines = simpleSplit(text, "Helvetica", size, room / PT)
        if len(lines) * lead <= depth or size <= 3.5:
            break
        size -= 0.25
    top = y0 + (depth - len(lines) * lead) / 2 + size * PT * 0.85
    for k, line in enumerate(lines):
        out.append(Text(tx, top + k * lead, line, "Helvetica", size, "#333333"))
    return out


def assembly_text(cols: int, rows: int) -> str:
    """What to do with the parts: the order to glue them in, and how each lines up."""
    how = ("its edge just hiding the dashed line, its corners on the corner marks, its outer "
           "edges flush with theirs")
    if rows == 1:
        steps = ("Starting from the right, lay each part over the strip marked 'under' on "
                 f"the part to its right, {how}, and glue.")
    elif cols == 1:
        steps = ("Starting from the bottom, lay each part over the strip marked 'under' on "
                 f"the part below it, {how}, and glue.")
    else:
        steps = ("Glue each row first, starting from the right: lay each part over the strip "
                 f"marked 'under' on the part to its right, {how}, and glue. Then, starting "
                 "from the bottom, lay each row over the row below in the same way.")
    return (f"Cut each part out on its edges (they overlap by {OVERLAP:g} mm). {steps} "
            "No mark shows on the finished board.")


def panel_on_a_back(sheets: list[Sheet], panel: Panel, s: Settings) -> bool:
    """Print ``panel`` (the checklist) on the blank back of a one-sided sheet that is not cut
    up (a rules or reference sheet), when there is one: it then costs no paper at all. The
    sheet becomes two-sided; with a short-edge flip the panel turns to read upright."""
    if s.duplex not in ("long", "short"):
        return False
    for k in range(len(sheets) - 1, -1, -1):
        front = sheets[k]
        if front.side != "front" or (k + 1 < len(sheets) and sheets[k + 1].side == "back"):
            continue
        if len(front.placements) != 1 or front.placements[0].comp.kind != "sheet":
            continue
        x, y, w, h = front.placements[0].trim
        if panel.w > w - 6 or panel.h > h - 6:
            continue
        box = (x + (w - panel.w) / 2, y + 4, panel.w, panel.h)
        landscape = front.w > front.h
        bx, by, bw, bh = mirror(box, front.w, front.h, s, landscape)
        back = Sheet(front.w, front.h, "back", front.title)
        if turns_backs(s, landscape):
            back.marks.append(Group(tuple(panel.marks), dx=bx + bw, dy=by + bh, rotate=180))
        else:
            back.marks.append(Group(tuple(panel.marks), dx=bx, dy=by))
        back.panels.append(panel.title)
        back.occupied.append((bx, by, bw, bh))
        sheets.insert(k + 1, back)
        return True
    return False


FULL_FILL = 0.8  # a size whose grid covers this much of a sheet keeps whole grid sheets


def impose_game(faces: list[Faces], s: Settings, panels: list[Panel] | None = None,
                head: Panel | None = None) -> list[Sheet]:
    """Every copy of every component onto sheets: whole grid sheets for sizes that fill one
    densely, the rest (and ``panels``) packed together; ``head`` (an errata notice's end)
    shares the sheet that prints first.
    Runs are grouped by size and sidedness, in order of first appearance. Each run printed on
    whole grid sheets is also tried with one such sheet fewer (its pieces packed instead,
    into the space the other sheets leave: Mutagen's element tiles beside its boards and
    airships); the imposition on fewer sheets of paper wins.

    With ``fold``, only what has a back is confined to the page's left half (its backs take
    the right half); one-sided components and panels use the whole page, as with ``none``,
    and so does a two-sided piece too large for half a page: its front, in parts."""
    whole = replace(s, duplex="none") if s.duplex == "fold" else s
    runs: dict[tuple[float, float, float, bool, bool], list[Item]] = {}
    titles: dict[tuple[float, float, float, bool, bool], str] = {}
    hexes: dict[tuple[float, float, float], list[Item]] = {}  # honeycombs (generator.hexgrid)
    for f in faces:
        d = f.front
        if f.comp.shape == "hex":
            hexes.setdefault((round(d.w, 2), round(d.h, 2), d.bleed), []).extend(
                Item(f.comp, i + 1, f.front, f.back) for i in range(f.comp.count))
            continue
        key = (round(d.w, 2), round(d.h, 2), d.bleed, f.back is not None,
               f.comp.kind == "board")
        items = runs.setdefault(key, [])
        items.extend(Item(f.comp, i + 1, f.front, f.back) for i in range(f.comp.count))
        titles.setdefault(key, f.comp.group or f.comp.kind)
    out, gridded, free = _impose_runs(runs, titles, s, whole, panels, head, {})
    # a run's last whole grid sheet may be better spent on the space other sheets leave (as
    # the grid's leftovers are): keep whichever prints on fewer sheets of paper (tried where
    # its pieces' trims fit the free printable area of the packed sheets, to gain one)
    chosen: dict[tuple[float, float, float, bool, bool], int] = {}
    for key, area in gridded.items():
        if area > free:
            continue
        trial = {**chosen, key: 1}
        fewer, _, left = _impose_runs(runs, titles, s, whole, panels, head, trial)
        if _paper(fewer) < _paper(out):
            out, chosen, free = fewer, trial, left
    # honeycombs, by the settings they print with: with fold, pieces without backs use the
    # whole page, as elsewhere
    by_settings: dict[bool, list[tuple[list[Item], str]]] = {}
    for items in hexes.values():
        on_whole = whole is not s and all(it.back is None for it in items)
        by_settings.setdefault(on_whole, []).append(
            (items, items[0].comp.group or items[0].comp.kind))
    for on_whole, hex_runs in by_settings.items():
        out.extend(hex_sheets(hex_runs, whole if on_whole else s))
    return out


def _paper(sheets: list[Sheet]) -> int:
    return sum(1 for sh in sheets if sh.side == "front")


def _taken(sheet: Sheet) -> float:
    """The area a sheet's pieces' trims and its sheet texts take (a board part's box, its
    trim and label, is counted by its trim)."""
    trims = [p.trim for p in sheet.placements]
    area = sum(w * h for _, _, w, h in trims)
    for x, y, w, h in sheet.occupied:
        if not any(abs(x - tx) < 1e-6 and abs(y - ty) < 1e-6 for tx, ty, _, _ in trims):
            area += w * h
    return area


def _impose_runs(runs: dict[tuple[float, float, float, bool, bool], list[Item]],
                 titles: dict[tuple[float, float, float, bool, bool], str], s: Settings,
                 whole: Settings, panels: list[Panel] | None, head: Panel | None,
                 fewer: dict[tuple[float, float, float, bool, bool], int]
                 ) -> tuple[list[Sheet], dict[tuple[float, float, float, bool, bool], float],
                            float]:
    """``impose_game`` for runs grouped by size: whole grid sheets (``fewer[key]`` fewer of
    them for that run), the rest packed. Also the runs printed on whole grid sheets, with the
    trim area of one such sheet's pieces, and the printable area the packed sheets leave
    free (of trims and sheet texts)."""
    grid: list[Sheet] = []
    gridded: dict[tuple[float, float, float, bool, bool], float] = {}
    units: dict[bool, list[Unit]] = {False: [], True: []}  # by: on the whole page (fold)
    leftover: dict[bool, list[list[Item]]] = {False: [], True: []}  # runs the packer groups
    small: dict[tuple[float, float, float, bool], list[Item]] = {}
    for key, items in runs.items():
        d = items[0].front
        # (a piece too large for half a page prints its front in parts on the whole page)
        on_whole = whole is not s and (not key[3] or best_grid(d.w, d.h, d.bleed, s) is None)
        rs = whole if on_whole else s
        g = best_grid(d.w, d.h, d.bleed, rs)
        if g is None:
            for it in items:
                units[on_whole].extend(board_parts(it, rs))
            continue
        _, _, uw, uh = usable_area(rs, g.landscape)
        # a piece alone on its sheet leaves that sheet's free space to the packer's small
        # pieces (counters beside a player board), unless it is a sheet to be read (whose
        # blank back may take the checklist, ``panel_on_a_back``)
        alone = g.count == 1 and items[0].comp.kind != "sheet"
        dense = g.count * d.w * d.h >= FULL_FILL * uw * uh and not alone
        full = len(items) - len(items) % g.count if dense else 0
        if full:
            gridded[key] = g.count * d.w * d.h
        full = max(0, full - fewer.get(key, 0) * g.count)
        grid.extend(impose(items[:full], rs, titles[key]))
        rest = strips(items[full:], rs)
        if d.w < SMALL and d.h < SMALL and items[full:]:
            # one size, with backs or without, fills blocks together: fewer gutters
            small.setdefault((round(d.w, 2), round(d.h, 2), d.bleed, on_whole),
                             []).extend(items[full:])
        elif all(fits(u, rs) for u in rest):
            leftover[on_whole].append(items[full:])
        else:  # too tall to leave the footer its band: the grid finds it a side strip
            grid.extend(impose(items[full:], rs, titles[key]))
    for panel in list(panels or []):
        if panel_on_a_back(grid, panel, s):
            continue
        units[whole is not s].append(panel)
    out = grid
    free = 0.0
    for on_whole, rs in ((False, s), (True, whole)):
        todo = sorted(units[on_whole], key=lambda u: -u.w * u.h)
        runs_small = [v for k, v in small.items() if k[3] == on_whole]
        first = head if on_whole == (whole is not s) else None  # with the panels
        if todo or runs_small or first or leftover[on_whole]:
            packed = pack(todo, rs, first, runs_small, leftover[on_whole])
            for sheet in packed:
                if sheet.side == "front":
                    _, _, uw, uh = usable_area(rs, sheet.w > sheet.h)
                    free += uw * uh - _taken(sheet)
            out = out + packed
    return out, gridded, free
