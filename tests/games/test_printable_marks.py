"""Every cut line has a crop mark that prints, long enough to line a trimmer up on.

Over every bundled game on A4 and Letter, flipped on either edge: each cut line of each piece
(board parts aside: they line up by their registration marks), on grid sheets and on sheets
shared by pieces of many sizes alike, has a mark of at least 3 mm inside the printable area
(6 mm from every edge, where a home printer prints), and no crop mark on any sheet is shorter
than 3 mm or reaches into the margin. Checked on the sheets as printed, footer and all.
"""

from __future__ import annotations

import math

import pytest

from generator.layout import MARK, PRINTED_MARK, Line, Sheet

from .test_marks import GAMES, sheets_of

MARGIN = 6.0
LONG = 3.0  # mm: the least a trimmer lines up on
CASES = [(g, p) for g in GAMES for p in ("letter", "a4")]
EDGES = [(g, p, d) for g, p in CASES for d in ("long", "short")]


def printed(m: Line, sheet: Sheet) -> float:
    """How much of a crop mark lies inside the printable area."""
    vertical = abs(m.x1 - m.x2) < 1e-9
    at, a, b = (m.x1, m.y1, m.y2) if vertical else (m.y1, m.x1, m.x2)
    across, along = (sheet.w, sheet.h) if vertical else (sheet.h, sheet.w)
    if not MARGIN - 1e-6 <= at <= across - MARGIN + 1e-6:
        return 0.0
    return max(0.0, min(max(a, b), along - MARGIN) - max(min(a, b), MARGIN))


def crop_marks(sheet: Sheet) -> list[Line]:
    return [m for m in sheet.marks if isinstance(m, Line) and m.style == MARK]


def on_line(m: Line, at: float, vertical: bool) -> bool:
    if vertical:
        return abs(m.x1 - at) < 1e-6 and abs(m.x2 - at) < 1e-6
    return abs(m.y1 - at) < 1e-6 and abs(m.y2 - at) < 1e-6


@pytest.mark.parametrize("case", EDGES, ids=["-".join(c) for c in EDGES])
def test_every_cut_line_of_every_piece_has_a_printable_3_mm_mark(
        case: tuple[str, str, str]) -> None:
    checked = shared = 0
    for sheet in sheets_of(*case):
        if sheet.side != "front":
            continue
        marks = crop_marks(sheet)
        sizes = {(round(p.trim[2], 2), round(p.trim[3], 2)) for p in sheet.placements}
        for p in sheet.placements:
            if p.part:  # board parts line up by their own alignment marks
                continue
            x, y, w, h = p.trim
            for at, vertical in ((x, True), (x + w, True), (y, False), (y + h, False)):
                checked += 1
                shared += len(sizes) > 1
                assert any(printed(m, sheet) >= LONG - 1e-6
                           for m in marks if on_line(m, at, vertical)), (
                    sheet.file, sheet.page, p.comp.id, "x" if vertical else "y", round(at, 2))
    assert checked > 40
    # sheets shared by pieces of several sizes too (Mule Goes Crazy! has none: its pieces are
    # cards and sheets)
    assert shared or case[0] == "mule-goes-crazy"


@pytest.mark.parametrize("case", EDGES, ids=["-".join(c) for c in EDGES])
def test_no_crop_mark_is_shorter_than_3_mm_or_reaches_into_the_margin(
        case: tuple[str, str, str]) -> None:
    """The 1.5 mm marks between neighbouring pieces on shared sheets are gone: a mark is
    3 mm or longer, and all of it prints."""
    seen = 0
    for sheet in sheets_of(*case):
        for m in crop_marks(sheet):
            length = math.hypot(m.x2 - m.x1, m.y2 - m.y1)
            assert length >= PRINTED_MARK - 1e-6, (sheet.file, sheet.page, m)
            assert printed(m, sheet) >= length - 1e-6, (sheet.file, sheet.page, m)
            seen += 1
    assert seen > 20


def test_mutagens_airships_on_letter_lie_on_landscape_sheets() -> None:
    """The issue's case: a 200 mm airship on Letter's 203.9 mm printable width leaves no
    room for the crop marks of its cut lines across the page (3 mm bleed, 0.5 mm gap and a
    3 mm mark at one end need 6.5 mm): every airship now prints on a landscape sheet, its
    horizontal cut lines marked inside the printable area."""
    airships = [(sheet, p) for sheet in sheets_of("mutagen", "letter", "long")
                if sheet.side == "front" for p in sheet.placements
                if p.comp.id.startswith("airship/")]
    assert len(airships) == 4
    for sheet, p in airships:
        assert sheet.w > sheet.h, (sheet.page, p.comp.id)
        x, y, w, h = p.trim
        for at in (y, y + h):
            assert any(printed(m, sheet) >= LONG for m in crop_marks(sheet)
                       if on_line(m, at, False)), (p.comp.id, at)


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
