"""Imposition, read from the manifest a build writes: sizes, margins, overlaps, backs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator.layout import PAPERS, Settings, best_grid

POKER = (63.5, 88.9)


def placements(manifest: dict[str, Any], side: str | None = None) -> list[tuple[dict, dict]]:
    return [(s, p) for s in manifest["sheets"] for p in s["placements"]
            if side is None or s["side"] == side]


def overlaps(a: list[float], b: list[float]) -> bool:
    return (a[0] < b[0] + b[2] - 1e-6 and b[0] < a[0] + a[2] - 1e-6
            and a[1] < b[1] + b[3] - 1e-6 and b[1] < a[1] + a[3] - 1e-6)


def test_nine_poker_cards_fit_an_a4_page() -> None:
    g = best_grid(*POKER, 3.0, Settings(paper="a4"))
    assert g is not None and g.count == 9 and not g.landscape


def test_letter_gives_up_a_card_for_printable_marks_on_every_cut() -> None:
    """3 x 88.9 = 266.7 mm of Letter's 267.4 mm printable height: nine cards would leave the
    vertical cuts no crop mark inside the printable area. Four across a landscape sheet, two
    down, leave every cut line a 3 mm mark at one end at least."""
    g = best_grid(*POKER, 3.0, Settings(paper="letter"))
    assert g is not None and g.count == 8 and g.landscape and (g.cols, g.rows) == (4, 2)
    # 4 x 63.5 = 254 mm of 267.4: no room for gutters across, so the columns are butted
    assert not g.apart_x and g.apart_y


@pytest.mark.parametrize("fixture", ["a4_build", "letter_build"])
def test_trim_sizes_exact_and_inside_the_margin(fixture: str,
                                                request: pytest.FixtureRequest) -> None:
    _, manifest = request.getfixturevalue(fixture)
    W, H = PAPERS[manifest["paper"]]
    m = manifest["margin_mm"]
    cards = [(s, p) for s, p in placements(manifest) if p["component"].startswith("card/")]
    assert len([1 for s, p in cards if p["face"] == "front"]) == 12
    for sheet, p in cards:
        x, y, w, h = p["trim_mm"]
        assert abs(w - POKER[0]) < 0.01 and abs(h - POKER[1]) < 0.01
        pw, ph = sheet["page_mm"]
        assert {round(pw, 1), round(ph, 1)} == {round(W, 1), round(H, 1)}
        assert x >= m - 1e-6 and y >= m - 1e-6
        assert x + w <= pw - m + 1e-6 and y + h <= ph - m + 1e-6
        bx, by, bw, bh = p["bleed_mm"]
        assert bx >= 0 and by >= 0 and bx + bw <= pw and by + bh <= ph


@pytest.mark.parametrize("fixture", ["a4_build", "letter_build"])
def test_no_overlap_and_no_bleed_over_a_neighbour(fixture: str,
                                                  request: pytest.FixtureRequest) -> None:
    _, manifest = request.getfixturevalue(fixture)
    for sheet in manifest["sheets"]:
        ps = sheet["placements"]
        for i, a in enumerate(ps):
            for b in ps[i + 1:]:
                assert not overlaps(a["trim_mm"], b["trim_mm"]), (a, b)
                assert not overlaps(a["bleed_mm"], b["trim_mm"]), (a, b)
                assert not overlaps(b["bleed_mm"], a["trim_mm"]), (a, b)


def test_first_card_sheet_holds_nine(a4_build: tuple[Path, dict[str, Any]]) -> None:
    _, manifest = a4_build
    first = next(s for s in manifest["sheets"] if s["title"] == "Cards")
    assert len(first["placements"]) == 9


def _backs_follow_rule(manifest: dict[str, Any], rule: str) -> int:
    checked = 0
    pages = {(s["file"], s["page"]): s for s in manifest["sheets"]}
    for sheet in manifest["sheets"]:
        if sheet["side"] != "back":
            continue
        front = pages[(sheet["file"], sheet["page"] - 1)]
        assert front["side"] == "front"
        W, H = sheet["page_mm"]
        landscape = W > H
        fronts = {(p["component"], p["copy"]): p for p in front["placements"]}
        dx, dy = manifest["back_offset_mm"]
        if landscape:  # measured on calibrate's portrait sheet; the page prints turned
            dx, dy = -dy, dx
        for b in sheet["placements"]:
            f = fronts[(b["component"], b["copy"])]
            x, y, w, h = f["trim_mm"]
            r = rule
            if landscape:
                r = "short" if rule == "long" else "long"
            want = [W - x - w + dx, y + dy] if r == "long" else [x + dx, H - y - h + dy]
            assert b["trim_mm"][0] == pytest.approx(want[0], abs=0.01)
            assert b["trim_mm"][1] == pytest.approx(want[1], abs=0.01)
            assert b["trim_mm"][2:] == pytest.approx([w, h], abs=0.01)
            checked += 1
    return checked


def test_back_offset_goes_along_the_papers_axes_on_landscape_sheets(tmp_path: Path) -> None:
    """``--back-offset 0.8,-0.4`` as read on ``irata calibrate``'s portrait sheet moves every
    back 0.8 mm across the paper and 0.4 mm up it. M.U.L.E.'s landscape sheets (Player
    Boards, the Game Board's parts) print turned a quarter anticlockwise on the same paper:
    their backs move 0.8 mm down the page and 0.4 mm towards its right, as the manifest shows
    against a print without the offset; portrait sheets move 0.8 across and 0.4 up."""
    import json

    from components import load
    from generator.build import BuildOptions, build

    def backs(offset: tuple[float, float], out: Path) -> dict[tuple[str, int, int], Any]:
        r = build(load("mule"), BuildOptions(Settings(paper="letter", back_offset=offset),
                                             ("pdf",), out))
        m = json.loads(r.manifest.read_text())
        return {(p["component"], p["copy"], s["page"]): (s["page_mm"], p["trim_mm"])
                for s in m["sheets"] if s["side"] == "back" for p in s["placements"]}

    plain = backs((0.0, 0.0), tmp_path / "plain")
    moved = backs((0.8, -0.4), tmp_path / "moved")
    assert plain.keys() == moved.keys()
    seen = {True: 0, False: 0}
    for key, (page, trim) in moved.items():
        landscape = page[0] > page[1]
        want = (0.4, 0.8) if landscape else (0.8, -0.4)
        got = (trim[0] - plain[key][1][0], trim[1] - plain[key][1][1])
        assert got == pytest.approx(want, abs=1e-6), (key, page)
        seen[landscape] += 1
    assert seen[True] >= 8 and seen[False] >= 8


def test_long_edge_backs_mirror_left_right(a4_build: tuple[Path, dict[str, Any]]) -> None:
    _, manifest = a4_build
    assert manifest["duplex"] == "long"
    assert _backs_follow_rule(manifest, "long") >= 12


def test_short_edge_backs_mirror_top_bottom_with_offset(tmp_path: Path, builder: Any) -> None:
    manifest = builder(tmp_path, paper="letter", duplex="short", back_offset=(0.8, -0.5),
                          formats=("pdf",))
    assert manifest["back_offset_mm"] == [0.8, -0.5]
    assert _backs_follow_rule(manifest, "short") >= 12


def test_a_back_page_follows_each_front_and_no_page_is_blank(
        a4_build: tuple[Path, dict[str, Any]]) -> None:
    _, manifest = a4_build
    duplex = [s for s in manifest["sheets"] if s["file"] == "deck.pdf"]
    single = [s for s in manifest["sheets"] if s["file"] == "deck-single-sided.pdf"]
    assert len(duplex) + len(single) == len(manifest["sheets"])
    sides = [s["side"] for s in duplex]
    assert sides == ["front", "back"] * (len(sides) // 2)
    assert single and all(s["side"] == "front" for s in single)
    for part in (duplex, single):
        assert [s["page"] for s in part] == list(range(1, len(part) + 1))
    for s in manifest["sheets"]:
        assert s["placements"] or s["title"] == "Component checklist"
        # a sheet goes to the double-sided file exactly when something on it has a back
        has_back = any(p["face"] == "back" for b in duplex if b["page"] == s["page"] + 1
                       for p in b["placements"]) if s["file"] == "deck.pdf" else False
        assert (s["file"] == "deck.pdf") == (has_back or s["side"] == "back")


def test_fold_puts_backs_on_the_same_page(tmp_path: Path, builder: Any) -> None:
    manifest = builder(tmp_path, paper="a4", duplex="fold", formats=("pdf",))
    assert all(s["side"] == "front" for s in manifest["sheets"])
    assert [f["file"] for f in manifest["files"]] == ["deck.pdf"]
    card_sheet = next(s for s in manifest["sheets"] if s["title"] == "Cards")
    W = card_sheet["page_mm"][0]
    fronts = [p for p in card_sheet["placements"] if p["face"] == "front"]
    backs = [p for p in card_sheet["placements"] if p["face"] == "back"]
    assert fronts and len(fronts) == len(backs)
    for f, b in zip(fronts, backs, strict=True):
        assert f["trim_mm"][0] + f["trim_mm"][2] <= W / 2  # fronts left of the fold
        assert b["trim_mm"][0] >= W / 2
        assert b["trim_mm"][0] == pytest.approx(W - f["trim_mm"][0] - f["trim_mm"][2], abs=0.01)


def test_duplex_none_prints_no_backs(tmp_path: Path, builder: Any) -> None:
    manifest = builder(tmp_path, paper="a4", duplex="none", formats=("pdf",))
    assert all(s["side"] == "front" for s in manifest["sheets"])
    assert not [p for _, p in placements(manifest) if p["face"] == "back"]


def test_zero_bleed_butts_everything(tmp_path: Path, builder: Any) -> None:
    manifest = builder(tmp_path, paper="a4", bleed=0.0, formats=("pdf",))
    for _, p in placements(manifest):
        assert p["bleed_mm"] == p["trim_mm"]


def test_board_larger_than_the_page_is_split_with_overlap(
        a4_build: tuple[Path, dict[str, Any]]) -> None:
    _, manifest = a4_build
    parts = [p for _, p in placements(manifest) if p["component"] == "board/map"]
    assert len(parts) == 4
    assert sorted(p["part"] for p in parts) == ["A1", "A2", "B1", "B2"]
    windows = {p["part"]: p["board_window_mm"] for p in parts}
    # together they cover the 400 x 300 board, neighbours overlapping
    assert windows["A1"][0] == 0 and windows["A1"][1] == 0
    b1, a2 = windows["B1"], windows["A2"]
    assert b1[0] + b1[2] == pytest.approx(400, abs=0.01)
    assert a2[1] + a2[3] == pytest.approx(300, abs=0.01)
    assert b1[0] < windows["A1"][0] + windows["A1"][2]  # overlap strip
    assert a2[1] < windows["A1"][1] + windows["A1"][3]


def test_dice_nets_and_standees_keep_their_size(a4_build: tuple[Path, dict[str, Any]]) -> None:
    _, manifest = a4_build
    die = next(p for _, p in placements(manifest) if p["component"] == "die/colour")
    # a cross of 4 x 3 faces of 16 mm, plus one glue tab
    assert die["trim_mm"][3] == pytest.approx(48, abs=0.01)
    assert 64 < die["trim_mm"][2] < 70
    st = [p for _, p in placements(manifest) if p["component"] == "standee/runner"]
    assert len(st) == 2
    assert st[0]["trim_mm"][2:] == pytest.approx([30, 2 * 50 + 2 * 12], abs=0.01)


def test_short_edge_backs_turn_upside_down_to_stand_upright(tmp_path: Path,
                                                            builder: Any) -> None:
    manifest = builder(tmp_path, paper="a4", duplex="short", formats=("pdf", "svg"))
    backs = [p for s in manifest["sheets"] if s["side"] == "back" and s["page_mm"][0] <
             s["page_mm"][1] for p in s["placements"]]
    assert backs and all(p.get("turned") == 180 for p in backs)
    long_manifest = builder(tmp_path / "long", paper="a4", duplex="long", formats=("pdf",))
    assert not [p for s in long_manifest["sheets"] for p in s["placements"] if p.get("turned")]


def _points(items: Any, m: tuple[float, ...] = (1, 0, 0, 1, 0, 0)) -> list[tuple[float, float]]:
    """Every line end and text anchor of marks, on the page (groups' transforms applied)."""
    import math

    from generator.drawing import Group, Line, Text

    out: list[tuple[float, float]] = []

    def at(x: float, y: float) -> tuple[float, float]:
        return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])

    for it in items:
        if isinstance(it, Line):
            out += [at(it.x1, it.y1), at(it.x2, it.y2)]
        elif isinstance(it, Text):
            out.append(at(it.x, it.y))
        elif isinstance(it, Group):
            a = math.radians(it.rotate)
            c, s = math.cos(a) * it.scale, math.sin(a) * it.scale
            g = (c, s, -s, c, it.dx, it.dy)
            mm = (m[0] * g[0] + m[2] * g[1], m[1] * g[0] + m[3] * g[1],
                  m[0] * g[2] + m[2] * g[3], m[1] * g[2] + m[3] * g[3],
                  m[0] * g[4] + m[2] * g[5] + m[4], m[1] * g[4] + m[3] * g[5] + m[5])
            out += _points(it.items, mm)
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_marks_and_footer_never_touch_artwork_and_stay_on_the_page(paper: str) -> None:
    from pathlib import Path as P

    from components import load_path
    from generator.build import draw_all, impose_all, number_and_footer
    from generator.draw import Options

    game = load_path(P(__file__).parent / "fixtures" / "deck")
    settings = Settings(paper=paper)
    sheets = impose_all(game, draw_all(game, game.components, Options()), settings)
    number_and_footer(game, sheets, settings)
    checked = 0
    for sheet in sheets:
        boxes = [p.clip for p in sheet.placements if not p.part]
        for x, y in _points(sheet.marks):
            assert -1e-6 <= x <= sheet.w + 1e-6 and -1e-6 <= y <= sheet.h + 1e-6
            for bx, by, bw, bh in boxes:
                inside = bx + 1e-6 < x < bx + bw - 1e-6 and by + 1e-6 < y < by + bh - 1e-6
                assert not inside, (sheet.title, x, y)
            checked += 1
    assert checked > 500


def test_board_parts_pack_two_to_a_sheet_where_they_fit(deck_dir: Path, tmp_path: Path,
                                                        builder: Any) -> None:
    other = deck_dir / "other.yaml"
    other.write_text(other.read_text().replace("size: [400, 300]", "size: [300, 120]"))
    manifest = builder(tmp_path, deck_dir, paper="a4", formats=("pdf",))
    parts = [(s["file"], s["page"], p) for s in manifest["sheets"] for p in s["placements"]
             if p["component"] == "board/map"]
    assert sorted(p["part"] for _, _, p in parts) == ["A1", "B1"]
    assert len({(f, page) for f, page, _ in parts}) == 1  # both on one sheet
    a, b = (p for _, _, p in parts)
    assert not overlaps(a["trim_mm"], b["trim_mm"])
    # together their windows cover the whole board, overlapping
    wa, wb = sorted((p["board_window_mm"] for _, _, p in parts), key=lambda w: w[0])
    assert wa[0] == 0 and wb[0] + wb[2] == pytest.approx(300, abs=0.01)
    assert wb[0] < wa[0] + wa[2]


def test_small_pieces_on_a_packed_sheet_keep_a_crop_mark_on_every_cut_line() -> None:
    from components import load_path
    from generator.build import draw_all, impose_all
    from generator.draw import Options
    from generator.drawing import Line

    game = load_path(Path(__file__).parent / "fixtures" / "deck")
    settings = Settings(paper="a4")
    sheets = impose_all(game, draw_all(game, game.components, Options()), settings)
    checked = 0
    for sheet in sheets:
        if sheet.side != "front" or not any(p.comp.id == "counter/one" for p in sheet.placements):
            continue
        lines = [m for m in sheet.marks if isinstance(m, Line)]
        for p in sheet.placements:
            if p.part:  # a board part lines up by its own alignment marks instead
                continue
            x, y, w, h = p.trim
            for cx in (x, x + w):  # a short vertical mark on this cut line, outside the bleed
                assert any(abs(m.x1 - cx) < 1e-6 and abs(m.x2 - cx) < 1e-6 for m in lines)
            for cy in (y, y + h):
                assert any(abs(m.y1 - cy) < 1e-6 and abs(m.y2 - cy) < 1e-6 for m in lines)
            checked += 1
    assert checked >= 6


def test_fold_gives_one_sided_pieces_the_whole_page(tmp_path: Path, builder: Any) -> None:
    fold = builder(tmp_path / "fold", paper="a4", duplex="fold", formats=("pdf",))
    none = builder(tmp_path / "none", paper="a4", duplex="none", formats=("pdf",))

    def parts(m: dict[str, Any]) -> list[str]:
        return sorted(p["part"] for _, p in placements(m) if p["component"] == "board/map")

    assert parts(fold) == parts(none) == ["A1", "A2", "B1", "B2"]
    # the reference sheet, one-sided, is not cut up either
    ref = [p for _, p in placements(fold) if p["component"] == "sheet/reference"]
    assert len(ref) == 1 and "part" not in ref[0]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_footer_text_never_runs_over_the_ruler_or_off_the_page(paper: str) -> None:
    """M.U.L.E.'s shared sheets list many components in a narrow strip between crop marks:
    the footer line stays clear of the 50 mm ruler and its label, readable, on the page."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from components import load
    from generator.build import draw_all, impose_all, number_and_footer
    from generator.draw import Options
    from generator.drawing import PT, Group, Text
    from generator.layout import FOOTER_MIN_PT, RULER_SPAN

    game = load("mule")
    settings = Settings(paper=paper)
    sheets = impose_all(game, draw_all(game, game.components, Options()), settings)
    number_and_footer(game, sheets, settings)
    for sheet in sheets:
        footers = [g for g in sheet.marks if isinstance(g, Group)
                   and any(isinstance(t, Text) and "print at 100%" in t.text for t in g.items)]
        assert len(footers) == 1, sheet.title
        g = footers[0]
        line = next(t for t in g.items if isinstance(t, Text) and "print at 100%" in t.text)
        start, end = line.x, line.x + stringWidth(line.text, line.font, line.size) * PT
        assert line.size >= FOOTER_MIN_PT
        if any(isinstance(t, Text) and "50 mm" in t.text for t in g.items):
            assert end <= 0 or start >= RULER_SPAN, (sheet.title, start, end)
        else:  # a sheet with no room for the ruler (counters filling the page): text alone
            assert start == 0
        along = sheet.w if g.rotate == 0 else sheet.h
        origin = g.dx if g.rotate == 0 else along - g.dy
        assert 0 <= origin + start and origin + end <= along, (sheet.title, start, end)


@pytest.mark.parametrize("case", [("letter", "long", 10.0), ("letter", "none", 10.0),
                                  ("a4", "fold", 3.0)], ids=lambda c: "-".join(map(str, c)))
def test_a_page_of_counters_leaves_its_footer_a_strip_inside_the_margin(
        case: tuple[str, str, float]) -> None:
    """16 mm counters with 3 mm bleed fill the densest grid to within a bleed of the margin
    on every side (12 x 16 on Letter at 10 mm): no footer could go anywhere inside the
    printable area. The grid leaves a row or a column out instead (both, where the crop
    marks need the room too), and the footer's line goes inside the margin, clear of every
    bleed, its crop marks still marking every cut line."""
    from typing import cast

    from generator.drawing import Drawing, Group, Line, Text
    from generator.layout import Item, footer, impose, page_boxes, usable_area

    paper, duplex, margin = case
    s = Settings(paper=paper, duplex=duplex, margin=margin)
    d = Drawing(16.0, 16.0, 3.0)
    g = best_grid(16.0, 16.0, 3.0, s)
    assert g is not None and g.footer_room
    _, _, uw, uh = usable_area(s, g.landscape)
    dense = int(uw // 16) * int(uh // 16)
    assert g.count <= dense  # (A4 fold at 3 mm: the densest grid leaves the footer 12 mm)
    # at most a row and a column left out: the footer's strip, and 3 mm crop marks that print
    assert g.count >= (int(uw // 16) - 1) * (int(uh // 16) - 1)
    items = [Item(cast(Any, None), i + 1, d, None) for i in range(g.count)]
    sheet = impose(items, s, "counters")[0]
    assert len(sheet.placements) == g.count
    footer(sheet, "A game · edition 1 · sheet 1 of 1, front · counters · print at 100% "
                  "(actual size)", s)
    foot = next(m for m in sheet.marks if isinstance(m, Group))
    assert any(isinstance(t, Text) and t.text.startswith("A game") for t in foot.items)
    for b in page_boxes([foot]):
        assert margin - 1e-6 <= b[0] and b[2] <= sheet.w - margin + 1e-6
        assert margin - 1e-6 <= b[1] and b[3] <= sheet.h - margin + 1e-6
        for p in sheet.placements:
            x, y, w, h = p.clip
            assert b[2] <= x or b[0] >= x + w or b[3] <= y or b[1] >= y + h
    lines = [m for m in sheet.marks if isinstance(m, Line)]
    for p in sheet.placements:
        x, y, w, h = p.trim
        assert any(abs(m.x1 - x) < 1e-6 and abs(m.x2 - x) < 1e-6 for m in lines)
        assert any(abs(m.y1 - y) < 1e-6 and abs(m.y2 - y) < 1e-6 for m in lines)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_small_pieces_filling_a_sheet_leave_a_printable_mark_on_every_cut_line(
        paper: str) -> None:
    """Tiles 20 mm wide fill rows of the packed sheets' free space: on Letter, ten of them
    with their bleed would reach into the margin at both ends of the row (a home printer may
    print nothing there), so a row is moved or cut a tile shorter until one end of every cut
    line across the page has a mark that prints whole; and that costs no sheet here."""
    from typing import cast

    from generator.drawing import Drawing, Line
    from generator.layout import Item
    from generator.pack import pack

    s = Settings(paper=paper, duplex="none")
    tile = Drawing(20.0, 20.0, 3.0)
    items = [Item(cast(Any, None), k + 1, tile, None) for k in range(100)]
    sheets = pack([], s, small=[items])
    assert len(sheets) == 1
    W, H = PAPERS[paper]
    m = s.margin
    rows = 0
    for p in sheets[0].placements:
        x, y, w, h = p.trim
        for cy in (y, y + h):
            # the start of each mark on this cut line beyond the piece (left or right of it)
            ends = [min(mk.x1, mk.x2) for mk in sheets[0].marks if isinstance(mk, Line)
                    and mk.y1 == mk.y2 == pytest.approx(cy)
                    and (max(mk.x1, mk.x2) <= x or min(mk.x1, mk.x2) >= x + w)]
            printable = [e for e in ends if m <= e <= W - m - 1.5]
            assert printable, (paper, p.trim)
        rows += 1
    assert rows == 100
