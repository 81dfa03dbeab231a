"""Marks on the bundled games' sheets stay off what must stay clean.

- A board split into parts is laid together as its assembly text says: each part over the one
  to its right and the one below it. Whatever a part shows on the glued board (its window, less
  the strips the parts laid over it hide) carries no mark at all; the alignment marks sit in
  the hidden strips, where the part on top ends.
- The footer (the 50 mm ruler with its label, and the text line) is never crossed by a crop
  mark, a fold line or any other mark, on every sheet of both files (``GAME.pdf`` and
  ``GAME-single-sided.pdf``), on Letter and A4, with every duplex mode.

Read from the primitives the imposition draws, with their strokes and glyph boxes.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from components import Game, list_games, load
from generator.drawing import QR, Ellipse, Group, Icon, Image, Line, Path, Rect, Text
from generator.layout import GAP, OVERLAP, Placement, Settings, Sheet, page_boxes

GAMES = list_games()  # every bundled game, from the one list
SPLIT = ["mule", "mutagen", "muli"]  # the bundled games with a board larger than the page
Box = tuple[float, float, float, float]  # x0, y0, x1, y1

_GAMES: dict[tuple[str, float], tuple[Game, Any]] = {}
_SHEETS: dict[tuple[str, str, str, float, float], list[Sheet]] = {}


def sheets_of(key: str, paper: str, duplex: str, margin: float = 6.0,
              bleed: float = 3.0) -> list[Sheet]:
    """The game's sheets as ``irata print`` lays them out (``--margin``, ``--bleed``):
    imposed with the checklist, split into their files, numbered and footed."""
    from generator.build import (
        checklist_panel,
        draw_all,
        impose_all,
        number_and_footer,
        output_names,
        print_files,
        select,
    )
    from generator.draw import Options

    if (key, bleed) not in _GAMES:
        game = load(key)
        _GAMES[key, bleed] = (game, draw_all(game, select(game, None), Options(bleed=bleed)))
    case = (key, paper, duplex, margin, bleed)
    if case not in _SHEETS:
        game, faces = _GAMES[key, bleed]
        settings = Settings(paper=paper, duplex=duplex, margin=margin, bleed=bleed)
        sheets = impose_all(game, faces, settings, [checklist_panel(game, settings)])
        sheets = print_files(sheets, output_names(game, None)[0], settings)
        number_and_footer(game, sheets, settings)
        _SHEETS[case] = sheets
    return _SHEETS[case]


def _boxes(items: Any) -> list[Box]:
    """The page box of every primitive among ``items`` (groups followed, with their turns),
    strokes and glyphs included: the footer's own measure, ``layout.page_boxes``."""
    from generator.drawing import Primitive

    def known(its: Any) -> None:  # a primitive page_boxes does not measure would pass unseen
        for it in its:
            assert isinstance(it, (Line, Rect, Ellipse, Text, Path, Icon, QR, Image, Group)), it
            if isinstance(it, Group):
                known(it.items)

    known(items)
    prims: list[Primitive] = list(items)
    return page_boxes(prims)


def _cross(a: Box, b: Box) -> bool:
    """Whether two boxes share some area (touching edges do not count)."""
    return a[0] < b[2] - 1e-6 and b[0] < a[2] - 1e-6 and a[1] < b[3] - 1e-6 and b[1] < a[3] - 1e-6


def _minus(region: list[Box], cut: Box) -> list[Box]:
    """``region`` (a union of boxes) less ``cut``."""
    out: list[Box] = []
    for r in region:
        if not _cross(r, cut):
            out.append(r)
            continue
        x0, y0, x1, y1 = r
        if cut[0] > x0:
            out.append((x0, y0, cut[0], y1))
        if cut[2] < x1:
            out.append((cut[2], y0, x1, y1))
        mx0, mx1 = max(x0, cut[0]), min(x1, cut[2])
        if cut[1] > y0:
            out.append((mx0, y0, mx1, cut[1]))
        if cut[3] < y1:
            out.append((mx0, cut[3], mx1, y1))
    return [b for b in out if b[2] - b[0] > 1e-9 and b[3] - b[1] > 1e-9]


def _parts(sheets: list[Sheet]) -> dict[tuple[str, int], list[tuple[Sheet, Placement]]]:
    """Every board part, by board (component and copy)."""
    out: dict[tuple[str, int], list[tuple[Sheet, Placement]]] = {}
    for sheet in sheets:
        for p in sheet.placements:
            if p.part:
                out.setdefault((p.comp.id, p.copy), []).append((sheet, p))
    return out


def _window(p: Placement) -> Box:
    assert p.window is not None
    x, y, w, h = p.window
    return (x, y, x + w, y + h)


def _shown(p: Placement, board: list[Placement]) -> list[Box]:
    """What part ``p`` shows on the glued board, in board mm: its window, less the windows of
    the parts laid over it (the one to its left in its row, and every part of the rows above,
    since each part lies over the one to its right and the one below it)."""
    wx, wy, _, _ = _window(p)
    region = [_window(p)]
    for q in board:
        qx, qy, _, _ = _window(q)
        same_row = abs(qy - wy) < 1e-6
        if (same_row and qx < wx - 1e-6) or qy < wy - 1e-6:
            region = _minus(region, _window(q))
    return region


CASES = [(g, p) for g in SPLIT for p in ("letter", "a4")]


@pytest.mark.parametrize("case", CASES, ids=["-".join(c) for c in CASES])
def test_no_mark_shows_on_the_assembled_board(case: tuple[str, str]) -> None:
    game, paper = case
    parts = _parts(sheets_of(game, paper, "long"))
    assert parts, "the game has a split board"
    covered = 0
    for board in parts.values():
        placements = [p for _, p in board]
        assert len(placements) >= 2
        for sheet, p in board:
            tx, ty, _, _ = p.trim
            wx, wy, _, _ = _window(p)
            shown = _shown(p, placements)
            hidden: list[Box] = []
            for b in _boxes(sheet.marks):
                # the mark's box on the board (the part's page origin is its window's)
                on_board = (b[0] - tx + wx, b[1] - ty + wy, b[2] - tx + wx, b[3] - ty + wy)
                for region in shown:
                    assert not _cross(on_board, region), (game, paper, p.part, b)
                if _cross(on_board, _window(p)):
                    hidden.append(on_board)
            if len(shown) == 1 and shown[0] == _window(p):
                continue  # nothing lies over this part: it needs no marks
            # the marks the part on top lines up by are there, hidden under it
            assert hidden, (game, paper, p.part)
            covered += 1
    assert covered


@pytest.mark.parametrize("case", CASES, ids=["-".join(c) for c in CASES])
def test_the_part_on_top_ends_just_over_the_dashed_line(case: tuple[str, str]) -> None:
    """Each covered strip has a dashed line along it whose far side (halo included) lies
    within 0.5 mm of where the part laid over it ends: lining the edge up with it places the
    part to within half a millimetre, and leaves the line hidden."""
    game, paper = case
    for board in _parts(sheets_of(game, paper, "long")).values():
        placements = [p for _, p in board]
        for sheet, p in board:
            tx, ty, _, _ = p.trim
            wx, wy, wx1, wy1 = _window(p)
            dashed = [m for m in sheet.marks if isinstance(m, Line) and m.style.dash]
            for q in placements:
                qx, qy, qx1, qy1 = _window(q)
                # q, its neighbour to the left or above, lies over p's left or top strip
                left = abs(qy - wy) < 1e-6 and qx < wx - 1e-6 and qx1 > wx
                above = abs(qx - wx) < 1e-6 and qy < wy - 1e-6 and qy1 > wy
                if not (left or above):
                    continue
                edge = qx1 if left else qy1  # where q ends, on the board
                assert edge - (wx if left else wy) == pytest.approx(OVERLAP)
                lines = [m for m in dashed
                         if (left and m.x1 == m.x2 and tx <= m.x1 <= tx + OVERLAP)
                         or (above and m.y1 == m.y2 and ty <= m.y1 <= ty + OVERLAP)]
                assert lines, (game, paper, p.part, q.part)
                for m in lines:
                    # the widest stroke along the same line: the white halo under the dashes
                    width = max(n.style.width for n in sheet.marks if isinstance(n, Line)
                                and ((left and n.x1 == n.x2 == m.x1)
                                     or (above and n.y1 == n.y2 == m.y1)))
                    far = (m.x1 - tx + wx if left else m.y1 - ty + wy) + width / 2
                    assert edge - 0.5 <= far <= edge, (game, paper, p.part, q.part, far, edge)
                    run = abs(m.y2 - m.y1) if left else abs(m.x2 - m.x1)
                    assert run > 0.9 * ((wy1 - wy) if left else (wx1 - wx))


def test_the_assembly_text_names_the_order_and_the_marks() -> None:
    from generator.pack import assembly_text

    row = assembly_text(3, 1)
    assert "the part to its right" in row and "dashed line" in row and "corner marks" in row
    assert "row below" not in row
    grid = assembly_text(2, 2)
    assert "Glue each row first" in grid and "row below" in grid
    assert "No mark shows on the finished board" in grid


def _footer(sheet: Sheet) -> tuple[Group, list[Box]]:
    """The sheet's footer and its boxes on the page: the ruler with its label (where the
    sheet has room for it), and the line of text."""
    footers = [g for g in sheet.marks if isinstance(g, Group)
               and any(isinstance(t, Text) and "print at 100%" in t.text for t in g.items)]
    assert len(footers) == 1, sheet.title
    g = footers[0]
    line = [t for t in g.items if isinstance(t, Text) and "print at 100%" in t.text]
    ruler = [t for t in g.items if t not in line]
    assert len(line) == 1
    if ruler:
        assert any(isinstance(t, Text) and "50 mm" in t.text for t in ruler)
        assert len([t for t in ruler if isinstance(t, Line)]) == 52  # 51 ticks, the base line
    boxes = []
    for part in (ruler, line) if ruler else (line,):
        bs = _boxes([Group(tuple(part), g.dx, g.dy, g.rotate, g.scale)])
        boxes.append((min(b[0] for b in bs), min(b[1] for b in bs),
                      max(b[2] for b in bs), max(b[3] for b in bs)))
    return g, boxes


def _has_ruler(sheet: Sheet) -> bool:
    g, boxes = _footer(sheet)
    return len(boxes) == 2


FOOTER_CASES = [(g, p, d) for g in GAMES for p in ("letter", "a4")
                for d in ("long", "short", "fold", "none")]


@pytest.mark.parametrize("case", FOOTER_CASES, ids=["-".join(c) for c in FOOTER_CASES])
def test_no_mark_crosses_the_footer(case: tuple[str, str, str]) -> None:
    sheets = sheets_of(*case)
    files = {s.file for s in sheets}
    for sheet in sheets:
        footer, boxes = _footer(sheet)
        for fb in boxes:
            assert 0 <= fb[0] and 0 <= fb[1] and fb[2] <= sheet.w and fb[3] <= sheet.h
            for b in _boxes([m for m in sheet.marks if m is not footer]):
                assert not _cross(b, fb), (sheet.file, sheet.page, sheet.side, b, fb)
            for p in sheet.placements:
                x, y, w, h = p.trim
                assert not _cross((x, y, x + w, y + h), fb), (sheet.file, sheet.page)
        # a mark stopped short of the footer still marks its cut line (1.5 mm, or 1 mm where
        # the strip beside the pieces is too narrow for more: fold, mutagen on Letter)
        least = 1.5 if case[2] != "fold" else 1.0
        for m in sheet.marks:
            if isinstance(m, Line):
                assert math.hypot(m.x2 - m.x1, m.y2 - m.y1) >= least - 1e-6, (sheet.file, m)
    if case[2] in ("long", "short"):
        assert files <= {f"{case[0]}.pdf", f"{case[0]}-single-sided.pdf"}


PRINTABLE_CASES = [(g, p, d, m, 3.0) for m in (6.0, 3.0, 10.0) for g in GAMES
                   for p in ("letter", "a4") for d in ("long", "short", "fold", "none")] + [
                   (g, p, d, 6.0, 0.0) for g in GAMES for p in ("letter", "a4")
                   for d in ("long", "fold")]


@pytest.mark.parametrize("case", PRINTABLE_CASES,
                         ids=["-".join(map(str, c)) for c in PRINTABLE_CASES])
def test_the_footer_lies_inside_the_printable_area_clear_of_every_piece(
        case: tuple[str, str, str, float, float]) -> None:
    """Every primitive of every sheet's footer (ruler, label, text) lies inside the printable
    area (``--margin`` from every paper edge, where a home printer may print nothing), clear
    of every piece's bleed box (and so of its trim), of every panel and of every mark, on
    every sheet of both files; and each file keeps the ruler on at least one sheet, to check
    the print scale by. With the default margin, 3 and 10 mm, and without bleed."""
    key, paper, duplex, margin, bleed = case
    sheets = sheets_of(key, paper, duplex, margin, bleed)
    ruler: dict[str, bool] = {}
    for sheet in sheets:
        footer, _ = _footer(sheet)
        where = (sheet.file, sheet.page, sheet.side)
        others = _boxes([m for m in sheet.marks if m is not footer])
        keep_clear = [(x, y, x + w, y + h) for x, y, w, h in
                      [p.clip for p in sheet.placements] + sheet.occupied]
        for b in _boxes([footer]):
            assert margin - 1e-6 <= b[0] and b[2] <= sheet.w - margin + 1e-6, (where, b)
            assert margin - 1e-6 <= b[1] and b[3] <= sheet.h - margin + 1e-6, (where, b)
            for k in keep_clear:
                assert not _cross(b, k), (where, b, k)
            for o in others:
                assert not _cross(b, o), (where, b, o)
        ruler[sheet.file] = ruler.get(sheet.file, False) or _has_ruler(sheet)
    assert ruler and all(ruler.values()), ruler


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_cut_line_keeps_its_crop_marks(paper: str) -> None:
    """Marks stopped short of the footer are shortened, never dropped: every trim edge of
    every piece (board parts line up by their own marks) still has a mark on its line."""
    for key in GAMES:
        for sheet in sheets_of(key, paper, "long"):
            if sheet.side != "front":
                continue
            lines = [m for m in sheet.marks if isinstance(m, Line) and not m.style.dash]
            for p in sheet.placements:
                if p.part:
                    continue
                x, y, w, h = p.trim
                for cx in (x, x + w):
                    assert any(abs(m.x1 - cx) < 1e-6 and abs(m.x2 - cx) < 1e-6
                               for m in lines), (key, sheet.page, p.comp.id)
                for cy in (y, y + h):
                    assert any(abs(m.y1 - cy) < 1e-6 and abs(m.y2 - cy) < 1e-6
                               for m in lines), (key, sheet.page, p.comp.id)


@pytest.mark.parametrize("side", ["bottom", "top", "right", "left"])
def test_marks_stop_short_of_a_footer_on_any_side(side: str) -> None:
    """One block of pieces leaving its widest strip on ``side`` (10 mm of printable paper
    beyond the pieces), crop marks running across that strip every 20 mm (as on a sheet of
    counters): the footer with its ruler lands there, inside the printable area, and every
    mark stops short of it, still at least 3 mm long (a trimmer's hold), its end at the
    pieces kept."""
    from typing import cast

    from generator.layout import MARK, footer

    W, H = 210.0, 297.0
    x0, y0, x1, y1 = {"bottom": (4.0, 4.0, 206.0, 281.0), "top": (4.0, 16.0, 206.0, 293.0),
                      "right": (4.0, 4.0, 194.0, 293.0), "left": (16.0, 4.0, 206.0, 293.0)}[side]
    box = (x0, y0, x1 - x0, y1 - y0)
    sheet = Sheet(W, H, "front", "counters")
    sheet.placements.append(Placement(cast(Any, None), 1, "front", cast(Any, None), box, box,
                                      (x0, y0)))
    start = {"bottom": y1 + 0.5, "top": y0 - 0.5, "right": x1 + 0.5, "left": x0 - 0.5}[side]
    out = 1.0 if side in ("bottom", "right") else -1.0
    if side in ("bottom", "top"):
        marks = [Line(x, start, x, start + out * 5.0, MARK) for x in range(10, 206, 20)]
    else:
        marks = [Line(start, y, start + out * 5.0, y, MARK) for y in range(10, 293, 20)]
    sheet.marks.extend(marks)
    footer(sheet, "A game · edition 1 · sheet 1 of 1, front · counters · print at 100% "
                  "(actual size)", Settings(paper="a4"))
    g, boxes = _footer(sheet)
    assert (g.rotate == 0) == (side in ("bottom", "top"))
    for fb in boxes:  # in the strip on that side
        assert {"bottom": fb[1] > y1, "top": fb[3] < y0, "right": fb[0] > x1,
                "left": fb[2] < x0}[side], (side, fb)
    lines = [m for m in sheet.marks if isinstance(m, Line)]
    assert len(lines) == len(marks)  # shortened, none dropped
    shortened = 0
    for m in lines:
        for fb in boxes:
            assert not _cross(_boxes([m])[0], fb), (side, m, fb)
        assert math.hypot(m.x2 - m.x1, m.y2 - m.y1) >= 3.0 - 1e-6
        ends = (m.y1, m.y2) if side in ("bottom", "top") else (m.x1, m.x2)
        assert start in ends  # the end at the pieces stays
        shortened += math.hypot(m.x2 - m.x1, m.y2 - m.y1) < 5.0 - 1e-6
    assert shortened  # the footer did lie across the marks
    assert len(boxes) == 2  # the ruler and the text line
    for fb in boxes:  # inside the printable area (6 mm margin)
        assert 6.0 - 1e-6 <= fb[0] and fb[2] <= W - 6.0 + 1e-6
        assert 6.0 - 1e-6 <= fb[1] and fb[3] <= H - 6.0 + 1e-6


def _printed(m: Line, sheet: Sheet, margin: float) -> float:
    """How much of a crop mark lies inside the printable area (``margin`` from every edge)."""
    vertical = abs(m.x1 - m.x2) < 1e-9
    at, a, b = (m.x1, m.y1, m.y2) if vertical else (m.y1, m.x1, m.x2)
    across, along = (sheet.w, sheet.h) if vertical else (sheet.h, sheet.w)
    if not margin - 1e-6 <= at <= across - margin + 1e-6:
        return 0.0
    return max(0.0, min(max(a, b), along - margin) - max(min(a, b), margin))


PRINTED = 1.0  # mm of a mark that must print to guide a cut


def _room(sheet: Sheet, at: float, vertical: bool, margin: float) -> bool:
    """Whether the pieces along the cut line ``at`` leave room for a printable mark at one
    of its ends, however they were moved along it: the printable length of the line, less
    every bleed box it crosses, holds the marks' gap and ``PRINTED``."""
    spans: list[tuple[float, float]] = []
    for p in sheet.placements:
        x, y, w, h = p.clip
        lo, hi, a, b = (x, x + w, y, y + h) if vertical else (y, y + h, x, x + w)
        if lo - 1e-6 <= at <= hi + 1e-6:
            spans.append((a, b))
    covered = 0.0
    reach = -math.inf
    for a, b in sorted(spans):
        covered += max(0.0, b - max(a, reach))
        reach = max(reach, b)
    printable = (sheet.h if vertical else sheet.w) - 2 * margin
    return printable - covered >= GAP + PRINTED - 1e-6


@pytest.mark.parametrize("case", FOOTER_CASES, ids=["-".join(c) for c in FOOTER_CASES])
def test_every_cut_line_has_a_mark_that_prints(case: tuple[str, str, str]) -> None:
    """A home printer may print nothing in the margin: every cut line of every piece has a
    crop mark at least 1 mm of which lies inside the printable area, wherever the pieces
    along that line could leave room for one (a row of pieces as long as the printable area
    with their bleed leaves none: nine poker cards on Letter, bleed and all, are 272.7 mm high
    in 267.4). Checked on the sheets as printed, footer and all."""
    margin = 6.0
    lines_checked = 0
    for sheet in sheets_of(*case):
        if sheet.side != "front":
            continue
        marks = [m for m in sheet.marks if isinstance(m, Line) and not m.style.dash
                 and m.style.width < 0.3]
        for p in sheet.placements:
            if p.part or p.face != "front":  # board parts line up by their own marks; with
                continue  # fold, the backs are cut with the fronts folded over them
            x, y, w, h = p.trim
            for at, vertical in ((x, True), (x + w, True), (y, False), (y + h, False)):
                on = [m for m in marks if (abs(m.x1 - at) < 1e-6 and abs(m.x2 - at) < 1e-6
                                           if vertical else
                                           abs(m.y1 - at) < 1e-6 and abs(m.y2 - at) < 1e-6)]
                if not _room(sheet, at, vertical, margin):
                    continue
                lines_checked += 1
                assert any(_printed(m, sheet, margin) >= PRINTED - 1e-6 for m in on), (
                    sheet.file, sheet.page, sheet.title, p.comp.id, "x" if vertical else "y",
                    round(at, 2))
    assert lines_checked > 20
