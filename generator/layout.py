"""Imposition: component drawings -> sheets of paper, with bleed, marks, backs and footer.

Components of one size share a sheet, in a grid as dense as home printing allows. On each axis
separately: where a gutter of twice the bleed fits between neighbours without losing a row or
column, the components stand apart, each with its own bleed; where it does not (3 x 3 poker
cards on Letter), they are butted edge to edge with shared cut lines, and the bleed runs only
around the block's outer edge. Trim boxes always stay inside the printable margin; the outer
bleed may run into the margin (it is there to be cut away) but never off the page.

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
FOOTER_DEPTH = 4.5  # mm of strip the footer line and ruler need
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


@dataclass
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


FOOTER_BAND = 5.0  # mm the footer line and its ruler need inside the printable area


@dataclass
class Grid:
    landscape: bool
    cols: int
    rows: int
    apart_x: bool
    apart_y: bool
    footer_room: str = ""  # "bottom" or "side": where the footer has its band; "" none

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
    """The grid that needs the fewest pages for ``n`` items, then holds the most per page,
    then leaves the footer a band in the printable area, then lets components stand apart,
    then is portrait."""
    best: Grid | None = None
    best_key: tuple[float, ...] = ()
    need = bleed + GAP + FOOTER_BAND
    for landscape in (False, True):
        _, _, uw, uh = usable_area(s, landscape)
        for allow_x in (True, False):
            for allow_y in (True, False):
                cols, ax = _axis(uw, w, bleed, allow_x)
                rows, ay = _axis(uh, h, bleed, allow_y)
                g = Grid(landscape, cols, rows, ax, ay)
                if not g.count:
                    continue
                block_w = cols * w + (cols - 1) * (2 * bleed if ax else 0)
                block_h = rows * h + (rows - 1) * (2 * bleed if ay else 0)
                if uh - block_h >= need:
                    g.footer_room = "bottom"
                elif uw - block_w >= need and s.duplex != "fold":
                    g.footer_room = "side"
                pages = math.ceil(n / g.count) if n else 0
                key = (-pages, g.count, bool(g.footer_room), ax + ay, not landscape)
                if best is None or key > best_key:
                    best, best_key = g, key
    return best


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


def mirror(box: tuple[float, float, float, float], W: float, H: float, s: Settings,
           landscape: bool) -> tuple[float, float, float, float]:
    """Where the back of ``box`` goes on the back page: mirrored about the edge the duplex
    printer turns the sheet on, plus the printer's back offset."""
    x, y, w, h = box
    dx, dy = s.back_offset
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
    need = bleed + GAP + FOOTER_BAND
    x0 = ux + (uw - block_w) / 2
    y0 = uy + (uh - block_h) / 2
    if g.footer_room == "bottom":
        y0 = uy + max(0.0, min((uh - block_h) / 2, uh - block_h - need))
    elif g.footer_room == "side":
        x0 = ux + max(0.0, min((uw - block_w) / 2, uw - block_w - need))
    any_back = any(it.back is not None for it in items)
    sheets: list[Sheet] = []
    for start in range(0, len(items), g.count):
        chunk = items[start:start + g.count]
        front = Sheet(W, H, "front", title)
        back = Sheet(W, H, "back", title) if s.duplex in ("long", "short") else None
        for k, it in enumerate(chunk):
            c, r = k % g.cols, k // g.cols
            tx = x0 + c * (d.w + gap_x)
            ty = y0 + r * (d.h + gap_y)
            trim = (tx, ty, d.w, d.h)
            clip = _clip(trim, bleed, c, r, g, len(chunk))
            front.placements.append(Placement(it.comp, it.copy, "front", it.front, trim, clip,
                                              (tx, ty)))
            if it.back is not None and s.duplex != "none":
                bt = mirror(trim, W, H, s, g.landscape)
                bc = mirror(clip, W, H, s, g.landscape)
                target = back if back is not None else front
                turn = 180 if turns_backs(s, g.landscape) else 0
                origin = turned_origin(bt, turn)
                target.placements.append(Placement(it.comp, it.copy, "back", it.back, bt, bc,
                                                   origin, turn))
        front.marks.extend(crop_marks(front, bleed, s))
        if s.cut_lines:
            front.marks.extend(cut_lines(front))
        if s.duplex == "fold" and any_back:
            front.marks.append(Line(W / 2, s.margin, W / 2, H - s.margin, FOLDLINE))
        sheets.append(front)
        if back is not None and back.placements:
            sheets.append(back)
    return sheets


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
    """Hairlines in the margin on every trim line, starting clear of the bleed, never over
    artwork, never off the page."""
    if not sheet.placements:
        return []
    xs, ys = _edges(sheet)
    left = min(p.clip[0] for p in sheet.placements)
    right = max(p.clip[0] + p.clip[2] for p in sheet.placements)
    top = min(p.clip[1] for p in sheet.placements)
    bottom = max(p.clip[1] + p.clip[3] for p in sheet.placements)
    W, H = sheet.w, sheet.h
    edge = 1.0  # stay this far off the paper's edge
    length = 5.0
    out: list[Primitive] = []
    for x in xs:
        if top - GAP - edge > 0.3:
            out.append(Line(x, max(edge, top - GAP - length), x, top - GAP, MARK))
        if H - edge - (bottom + GAP) > 0.3:
            out.append(Line(x, bottom + GAP, x, min(H - edge, bottom + GAP + length), MARK))
    for y in ys:
        if left - GAP - edge > 0.3:
            out.append(Line(max(edge, left - GAP - length), y, left - GAP, y, MARK))
        if W - edge - (right + GAP) > 0.3:
            out.append(Line(right + GAP, y, min(W - edge, right + GAP + length), y, MARK))
    return out


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


@lru_cache(maxsize=1)
def _footer_ruler() -> tuple[Primitive, ...]:
    """The footer's ruler, made once: every sheet shares the same immutable primitives."""
    return tuple(ruler(0, -2.2))


def footer(sheet: Sheet, text: str, s: Settings) -> None:
    """The footer line and the 50 mm ruler, in the widest free strip beside the block,
    between crop marks where it can, always inside the page. No mark crosses it: a crop mark
    (or fold line) that would is stopped short of it, and where that leaves a crop mark under
    ``MIN_MARK`` the footer moves towards the paper's edge until the mark has that length."""
    W, H = sheet.w, sheet.h
    boxes = [p.clip for p in sheet.placements] + sheet.occupied
    if boxes:
        left = min(min(b[0] for b in boxes), s.margin + 200)
        right = max(b[0] + b[2] for b in boxes)
        top = min(b[1] for b in boxes)
        bottom = max(b[1] + b[3] for b in boxes)
    else:
        left, right, top, bottom = W / 2, W / 2, H / 2, H / 2
    strips = {
        "bottom": H - bottom,
        "top": top,
        "right": W - right,
        "left": left,
    }
    xs, ys = _edges(sheet)
    side = max(strips, key=lambda k: (strips[k] >= 6.0, k in ("bottom", "top"), strips[k]))
    horizontal = side in ("bottom", "top")
    depth = strips[side]
    # the footer sits at the outer edge of the free strip that is still printable
    inner_limit = s.margin if depth - s.margin >= FOOTER_DEPTH else max(1.5, depth - 5.0)
    if side == "bottom":
        base = H - inner_limit - 0.6
    elif side == "top":
        base = inner_limit + 4.4
    elif side == "right":
        base = W - inner_limit - 0.6
    else:
        base = inner_limit + 4.4
    length = W if horizontal else H
    lo, hi = s.margin + 1, length - s.margin - 1
    # the ruler with its label takes RULER_SPAN mm; the text never overlaps it
    if depth - GAP - 5.0 >= inner_limit + 5.2:
        # plenty of room: the crop marks (5 mm) end before the footer's ticks start
        ruler_at, text_at, text_end = lo, lo + RULER_SPAN, hi
    else:
        # a narrow strip: the ruler in the widest gap between crop marks, the text in a gap
        # of its own where it fits, else on the wider side of the ruler across the marks
        gaps = sorted(_gaps(xs if horizontal else ys, lo, hi), key=lambda g: g[0] - g[1])
        ruler_gap = gaps[0] if gaps and gaps[0][1] - gaps[0][0] >= RULER_SPAN - 2 else (lo, hi)
        ruler_at = ruler_gap[0] + 2 if ruler_gap != (lo, hi) else lo
        ruler_end = ruler_at + RULER_SPAN
        need = stringWidth(text, "Helvetica", FOOTER_MIN_PT) * PT
        fits = [(a + 2, b - 2) for a, b in _gaps(xs if horizontal else ys, lo, hi)
                if b - a - 4 >= need and (b <= ruler_at or a >= ruler_end)]
        if ruler_gap[1] - ruler_end - 2 >= need:
            fits.append((ruler_end, ruler_gap[1] - 2))
        if fits:
            text_at, text_end = min(fits, key=lambda g: abs(g[0] - ruler_end))
        elif hi - ruler_end >= ruler_at - lo:
            text_at, text_end = ruler_end, hi
        else:
            text_at, text_end = lo, ruler_at - 2
    room = max(10.0, text_end - text_at)
    text = _shorten(text, room)
    size = FOOTER_PT
    while size > FOOTER_MIN_PT and stringWidth(text, "Helvetica", size) * PT > room:
        size -= 0.25
    label = "50 mm: measure to check the scale is 100%"
    grp: list[Primitive] = []
    grp.extend(_footer_ruler())
    grp.append(Text(25, 0, label, "Helvetica", 4.2, "#333333", "middle"))
    grp.append(Text(text_at - ruler_at, 0, text, "Helvetica", size, "#333333"))
    # what the footer covers, in two boxes (the ruler with its label, and the text line, less
    # deep) from the ruler's ticks to the text's descenders: x0 .. x1 along the line, y0 .. y1
    # across it, in the group's coordinates
    exts = [_extent(grp[:-1]), _extent(grp[-1:])]
    outward = 1.0 if side in ("bottom", "right") else -1.0
    base += outward * _room_for_marks(sheet, side, base, exts, ruler_at, length)
    if horizontal:
        sheet.marks.append(Group(tuple(grp), dx=ruler_at, dy=base))
        boxes = [(ruler_at + x0, base + y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in exts]
    else:
        # turned to read from bottom to top along the right or left strip
        sheet.marks.append(Group(tuple(grp), dx=base, dy=length - ruler_at, rotate=270))
        boxes = [(base + y0, length - ruler_at - x1, y1 - y0, x1 - x0)
                 for x0, y0, x1, y1 in exts]
    for box in boxes:
        _stop_marks_before(sheet, box, side)


MIN_MARK = 1.5  # mm: a crop mark shortened to clear the footer keeps at least this length
FOOTER_CLEAR = 0.5  # mm between the footer and the end of a mark stopped before it
PAPER_EDGE = 1.0  # mm: nothing prints closer than this to the paper's edge


def _extent(items: list[Primitive]) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) the footer's lines and texts cover, strokes and glyphs
    included (ascent and descent of the font)."""
    from reportlab.pdfbase.pdfmetrics import getAscentDescent

    xs: list[float] = []
    ys: list[float] = []
    for it in items:
        if isinstance(it, Line):
            half = it.style.width / 2
            xs += [min(it.x1, it.x2) - half, max(it.x1, it.x2) + half]
            ys += [min(it.y1, it.y2) - half, max(it.y1, it.y2) + half]
        elif isinstance(it, Text):
            w = stringWidth(it.text, it.font, it.size) * PT
            start = it.x - (w / 2 if it.anchor == "middle" else w if it.anchor == "end" else 0)
            ascent, descent = getAscentDescent(it.font, it.size)
            xs += [start, start + w]
            ys += [it.y - ascent * PT, it.y - descent * PT]
    return min(xs), min(ys), max(xs), max(ys)


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


def _room_for_marks(sheet: Sheet, side: str, base: float,
                    exts: list[tuple[float, float, float, float]], ruler_at: float,
                    length: float) -> float:
    """How far the footer must move towards the paper's edge so that every crop mark running
    across its strip where it lies keeps ``MIN_MARK`` mm before it (never closer to the edge
    than ``PAPER_EDGE``); 0 when the marks miss it or are long enough already. ``exts`` are
    the footer's boxes in its group's coordinates."""
    horizontal = side in ("bottom", "top")
    outward = side in ("bottom", "right")  # the paper's edge lies at larger x or y
    page = sheet.h if horizontal else sheet.w
    need, room = 0.0, page
    for x0, y0, x1, y1 in exts:
        lo, hi = (ruler_at + x0, ruler_at + x1) if horizontal else \
            (length - ruler_at - x1, length - ruler_at - x0)
        inner, outer = (base + y0, base + y1) if outward else (base + y1, base + y0)
        room = min(room, page - PAPER_EDGE - outer if outward else outer - PAPER_EDGE)
        for m in sheet.marks:
            if not isinstance(m, Line) or not _across(side, m):
                continue
            clear = FOOTER_CLEAR + m.style.width / 2
            a, _ = _span(m, False, horizontal)
            if not lo - clear < a < hi + clear:
                continue
            start, end = _span(m, True, horizontal)
            if outward and start < outer + clear and end > inner - clear:
                need = max(need, start + MIN_MARK + clear - inner)
            elif not outward and end > outer - clear and start < inner + clear:
                need = max(need, inner + clear + MIN_MARK - end)
    return max(0.0, min(need, room))


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


def _gaps(marks: list[float], lo: float, hi: float) -> list[tuple[float, float]]:
    points = [lo] + [v for v in marks if lo < v < hi] + [hi]
    return [(a, b) for a, b in zip(points, points[1:], strict=False) if b - a > 1]
