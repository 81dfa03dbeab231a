"""Every cut line has a crop mark that prints, long enough to line a trimmer up on.

Over every bundled game on A4 and Letter: each cut line of each piece has a mark of at least
3 mm inside the printable area (6 mm from every edge, where a home printer prints) wherever
the paper beyond one of the piece's ends leaves room for one; the 9-card grids and every other
sheet of one size (imposed as a grid) have room at one end of every cut line, by construction,
and draw no mark at all outside the printable area or shorter than 3 mm. Checked on the sheets
as printed, footer and all.
"""

from __future__ import annotations

import math

import pytest

from generator.layout import GAP, PRINTED_MARK, Line, Sheet

from .test_marks import GAMES, sheets_of

MARGIN = 6.0
LONG = 3.0  # mm: the least a trimmer lines up on
CASES = [(g, p) for g in GAMES for p in ("letter", "a4")]


def printed(m: Line, sheet: Sheet) -> float:
    """How much of a crop mark lies inside the printable area."""
    vertical = abs(m.x1 - m.x2) < 1e-9
    at, a, b = (m.x1, m.y1, m.y2) if vertical else (m.y1, m.x1, m.x2)
    across, along = (sheet.w, sheet.h) if vertical else (sheet.h, sheet.w)
    if not MARGIN - 1e-6 <= at <= across - MARGIN + 1e-6:
        return 0.0
    return max(0.0, min(max(a, b), along - MARGIN) - max(min(a, b), MARGIN))


def crop_marks(sheet: Sheet) -> list[Line]:
    return [m for m in sheet.marks if isinstance(m, Line) and not m.style.dash
            and m.style.width < 0.3 and m.style.stroke == "#000000"]


def room(sheet: Sheet, clip: tuple[float, float, float, float], at: float,
         vertical: bool) -> float:
    """The free paper beyond either end of a piece along its cut line ``at``: from its
    bleed's end to the next piece's bleed (less a gap) or to the printable area's edge."""
    x, y, w, h = clip
    lo, hi = (y, y + h) if vertical else (x, x + w)
    edge = sheet.h if vertical else sheet.w
    before, after = MARGIN, edge - MARGIN
    for p in sheet.placements:
        px, py, pw, ph = p.clip
        s0, s1, c0, c1 = (py, py + ph, px, px + pw) if vertical else (px, px + pw, py, py + ph)
        if not c0 - 1e-6 <= at <= c1 + 1e-6 or (s0, s1) == (lo, hi):
            continue
        if s1 <= lo + 1e-6:
            before = max(before, s1 + GAP)
        elif s0 >= hi - 1e-6:
            after = min(after, s0 - GAP)
    for ox, oy, ow, oh in sheet.occupied:
        s0, s1, c0, c1 = (oy, oy + oh, ox, ox + ow) if vertical else (ox, ox + ow, oy, oy + oh)
        if c0 - 1e-6 <= at <= c1 + 1e-6:
            if s1 <= lo + 1e-6:
                before = max(before, s1 + GAP)
            elif s0 >= hi - 1e-6:
                after = min(after, s0 - GAP)
    return max(lo - GAP - before, after - (hi + GAP))


@pytest.mark.parametrize("case", CASES, ids=["-".join(c) for c in CASES])
def test_every_cut_line_has_a_printable_3_mm_mark_where_room_allows(
        case: tuple[str, str]) -> None:
    checked = 0
    for sheet in sheets_of(case[0], case[1], "long"):
        if sheet.side != "front":
            continue
        marks = crop_marks(sheet)
        for p in sheet.placements:
            if p.part:  # board parts line up by their own alignment marks
                continue
            x, y, w, h = p.trim
            for at, vertical in ((x, True), (x + w, True), (y, False), (y + h, False)):
                if room(sheet, p.clip, at, vertical) < LONG - 1e-6:
                    continue
                checked += 1
                on = [m for m in marks if (abs(m.x1 - at) < 1e-6 and abs(m.x2 - at) < 1e-6
                                           if vertical else
                                           abs(m.y1 - at) < 1e-6 and abs(m.y2 - at) < 1e-6)]
                assert any(printed(m, sheet) >= LONG - 1e-6 for m in on), (
                    sheet.file, sheet.page, p.comp.id, "x" if vertical else "y", round(at, 2))
    assert checked > 10


def grid_sheets(key: str, paper: str) -> list[Sheet]:
    """The sheets imposed as a grid: every piece on them of one size, none a board part,
    neighbours butted or a bleed gutter (6 mm) apart (shared sheets keep wider gaps)."""
    out = []
    for sheet in sheets_of(key, paper, "long"):
        sizes = {(round(p.trim[2], 3), round(p.trim[3], 3)) for p in sheet.placements}
        if sheet.side != "front" or len(sizes) != 1 or any(p.part for p in sheet.placements):
            continue
        (w, h), = sizes
        xs = sorted({round(p.trim[0], 3) for p in sheet.placements})
        ys = sorted({round(p.trim[1], 3) for p in sheet.placements})
        def regular(vs: list[float], size: float) -> bool:
            return all(any(abs(b - a - step) < 1e-2 for step in (size, size + 6.0))
                       for a, b in zip(vs, vs[1:], strict=False))

        if regular(xs, w) and regular(ys, h) and len(sheet.placements) >= 4:
            out.append(sheet)
    return out


@pytest.mark.parametrize("case", CASES, ids=["-".join(c) for c in CASES])
def test_a_grid_draws_no_mark_outside_the_printable_area_nor_under_3_mm(
        case: tuple[str, str]) -> None:
    sheets = grid_sheets(*case)
    assert sheets or case[0] == "muli"
    for sheet in sheets:
        for m in crop_marks(sheet):
            length = math.hypot(m.x2 - m.x1, m.y2 - m.y1)
            assert printed(m, sheet) >= length - 1e-6, (sheet.page, m)  # all of it prints
            assert length >= PRINTED_MARK - 1e-6, (sheet.page, m)
        # and every cut line of the grid has one
        marks = crop_marks(sheet)
        for p in sheet.placements:
            x, y, w, h = p.trim
            for at, vertical in ((x, True), (x + w, True), (y, False), (y + h, False)):
                assert any((abs(m.x1 - at) < 1e-6 and abs(m.x2 - at) < 1e-6) if vertical
                           else (abs(m.y1 - at) < 1e-6 and abs(m.y2 - at) < 1e-6)
                           for m in marks), (sheet.page, p.comp.id, at)


def test_nine_card_grids_on_letter_now_mark_their_vertical_cuts() -> None:
    """The issue's case: M.U.L.E.'s poker decks on Letter, whose vertical cuts had no mark
    that prints. Every card sheet's vertical cut lines now have a printed 3 mm mark."""
    cards = [s for s in grid_sheets("mule", "letter")
             if all(p.comp.kind == "card" for p in s.placements)]
    assert cards
    for sheet in cards:
        xs = {round(v, 3) for p in sheet.placements for v in (p.trim[0], p.trim[0] + p.trim[2])}
        for at in xs:
            assert any(abs(m.x1 - at) < 1e-3 and abs(m.x2 - at) < 1e-3
                       and printed(m, sheet) >= LONG for m in crop_marks(sheet)), at
