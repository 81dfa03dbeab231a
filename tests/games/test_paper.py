"""Paper: every bundled game, on Letter and A4, flipped on the long and the short edge.

Read from the manifest a build writes: no page without a component (but the checklist's and
the errata notice's), sheets of paper within 1.2 times the area bound on A4 (the components'
trim areas over the printable area) and 1.3 times on Letter (see the test), one-sided sheets
in their own file, and the duplex and geometry rules on every sheet.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from components import list_games, load
from generator.build import BuildOptions, build
from generator.layout import PAPERS, Settings

GAMES = list_games()  # every bundled game, from the one list
CASES = [(g, p, d) for g in GAMES for p in ("letter", "a4") for d in ("long", "short")]
_BUILDS: dict[tuple[str, str, str], tuple[Path, dict[str, Any]]] = {}


REAL = ("letter", "long")  # the case whose PDFs are rendered; the others write the manifest


def built(case: tuple[str, str, str], tmp: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """One build per case, shared by the tests of this module. Only Letter, long edge writes
    real PDFs (the machine is shared; imposition is what differs between the cases)."""
    if case not in _BUILDS:
        game, paper, duplex = case
        out = tmp.mktemp(f"{game}-{paper}-{duplex}")
        with pytest.MonkeyPatch.context() as mp:
            if (paper, duplex) != REAL:
                import generator.backends.pdf as pdf

                def no_pdf(sheets: Any, path: Path, *a: Any, **k: Any) -> list[str]:
                    path.write_bytes(b"")
                    return []  # no art flattened: nothing was drawn

                mp.setattr(pdf, "write_pdf", no_pdf)
                # nor are the (empty) chunks joined into the file (generator.incremental)
                import generator.incremental as incremental

                mp.setattr(incremental, "join",
                           lambda chunks, out, *a, **k: out.write_bytes(b""))
            r = build(load(game), BuildOptions(Settings(paper=paper, duplex=duplex), ("pdf",),
                                               out))
        _BUILDS[case] = (r.folder, json.loads(r.manifest.read_text()))
    return _BUILDS[case]


_BACKS: dict[str, set[str]] = {}


def _has_back(game_key: str, comp_id: str) -> bool:
    """Whether the component prints a separate back face (a standee's or a die's back is
    part of its one folded drawing)."""
    if game_key not in _BACKS:
        from generator.build import draw_all, select
        from generator.draw import Options

        game = load(game_key)
        _BACKS[game_key] = {f.comp.id for f in draw_all(game, select(game, None), Options())
                            if f.back is not None}
    return comp_id in _BACKS[game_key]


def area_bound(manifest: dict[str, Any]) -> float:
    """The fewest sheets the components could take: their trim areas (every front placed)
    over the printable area of one sheet."""
    W, H = PAPERS[manifest["paper"]]
    m = manifest["margin_mm"]
    trims = sum(p["trim_mm"][2] * p["trim_mm"][3] for s in manifest["sheets"]
                for p in s["placements"] if p["face"] == "front")
    return trims / ((W - 2 * m) * (H - 2 * m))


def physical_sheets(manifest: dict[str, Any]) -> int:
    """Sheets of paper: one per front page, in either file (a back page is the same sheet)."""
    return sum(1 for s in manifest["sheets"] if s["side"] == "front")


def overlaps(a: list[float], b: list[float]) -> bool:
    return (a[0] < b[0] + b[2] - 1e-6 and b[0] < a[0] + a[2] - 1e-6
            and a[1] < b[1] + b[3] - 1e-6 and b[1] < a[1] + a[3] - 1e-6)


@pytest.mark.parametrize("case", CASES, ids=["-".join(c) for c in CASES])
def test_no_page_without_a_component_but_the_checklist_and_notice(
        case: tuple[str, str, str], tmp_path_factory: pytest.TempPathFactory) -> None:
    folder, manifest = built(case, tmp_path_factory)
    for s in manifest["sheets"]:
        assert s["placements"] or set(s["panels"]) <= {"Component checklist"} and s["panels"], \
            (s["file"], s["page"], s["title"])
    # the PDFs hold exactly the pages the manifest names
    for f in manifest["files"] if case[1:] == REAL else []:
        doc = pymupdf.open(folder / f["file"])
        assert doc.page_count == f["pages"] == len(
            [s for s in manifest["sheets"] if s["file"] == f["file"]])


@pytest.mark.parametrize("case", CASES, ids=["-".join(c) for c in CASES])
def test_sheets_stay_within_a_fifth_of_the_area_bound_on_a4(
        case: tuple[str, str, str], tmp_path_factory: pytest.TempPathFactory) -> None:
    _, manifest = built(case, tmp_path_factory)
    bound = area_bound(manifest)
    if case[1] == "a4":
        assert physical_sheets(manifest) <= 1.2 * bound, (physical_sheets(manifest),
                                                          round(bound, 2))
        return
    # Letter: every cut line's crop mark prints, 3 mm inside the printable area, so a Letter
    # card sheet holds 8 poker cards (the ninth row's marks would need 272.7 mm of 267.4),
    # and a 200 mm airship takes a landscape sheet to itself (M.U.L.E.: 23 sheets for 18.1,
    # Mutagen 26 for 20.4); a small game may take one sheet more than its bound rounded up
    # (Das Störrische Muli: its pieces fill 89 % of a Letter sheet in trims alone and take
    # two with their bleed and marks, 5 sheets for 3.6)
    assert physical_sheets(manifest) <= max(1.3 * bound, math.ceil(bound) + 1), (
        physical_sheets(manifest), round(bound, 2))


# Letter's sheets under 40 % full that the pieces do not allow to fill: M.U.L.E.'s last sheet
# holds 8 small pieces (4 $1 counters, 4 price markers) no other sheet has room for with a 3 mm
# crop mark on each cut line (Letter's card sheets hold 8 poker cards, its player boards leave
# 11 x 18 mm); Das Störrische Muli's blankets, dice and standees take two sheets on Letter
# (see above), the second a quarter full
THIN_ON_LETTER = {"mule": 1, "muli": 1}


@pytest.mark.parametrize("case", CASES, ids=["-".join(c) for c in CASES])
def test_no_sheet_is_under_40_percent_full(
        case: tuple[str, str, str], tmp_path_factory: pytest.TempPathFactory) -> None:
    """Small pieces share sheets: the trims on every sheet cover 40 % of its printable area
    or more (pieces that must print alone excepted: see ``THIN_ON_LETTER``)."""
    _, manifest = built(case, tmp_path_factory)
    m = manifest["margin_mm"]
    thin = []
    for sheet in manifest["sheets"]:
        if sheet["side"] != "front":
            continue
        pw, ph = sheet["page_mm"]
        trims = sum(p["trim_mm"][2] * p["trim_mm"][3] for p in sheet["placements"])
        if trims < 0.4 * (pw - 2 * m) * (ph - 2 * m):
            thin.append((sheet["file"], sheet["page"], round(trims / ((pw - 2 * m)
                                                                     * (ph - 2 * m)), 2)))
    allowed = THIN_ON_LETTER.get(case[0], 0) if case[1] == "letter" else 0
    assert len(thin) <= allowed, thin


@pytest.mark.parametrize("case", CASES, ids=["-".join(c) for c in CASES])
def test_sheets_with_backs_and_one_sided_sheets_print_apart(
        case: tuple[str, str, str], tmp_path_factory: pytest.TempPathFactory) -> None:
    _, manifest = built(case, tmp_path_factory)
    key = manifest["game"]
    names = [f["file"] for f in manifest["files"]]
    assert set(names) <= {f"{key}.pdf", f"{key}-single-sided.pdf"}
    for f in manifest["files"]:
        sheets = [s for s in manifest["sheets"] if s["file"] == f["file"]]
        assert [s["page"] for s in sheets] == list(range(1, len(sheets) + 1))
        sides = [s["side"] for s in sheets]
        if f["file"] == f"{key}.pdf":
            assert sides == ["front", "back"] * (len(sides) // 2)
            assert f["print"] == f"double-sided, flip on the {manifest['duplex']} edge"
        else:
            assert set(sides) == {"front"} and f["print"] == "one-sided"
    # every copy of every printed component is placed once, front (and back if it has one)
    game = load(key)
    fronts: dict[str, int] = {}
    backs: dict[str, int] = {}
    for s in manifest["sheets"]:
        for p in s["placements"]:
            if p.get("part") not in (None, "A1"):
                continue
            (fronts if p["face"] == "front" else backs)[p["component"]] = \
                (fronts if p["face"] == "front" else backs).get(p["component"], 0) + 1
    for comp in game.components:
        if comp.printed and comp.count:
            assert fronts.get(comp.id) == comp.count, comp.id
            has_back = _has_back(key, comp.id)
            assert backs.get(comp.id, 0) == (comp.count if has_back else 0), comp.id


@pytest.mark.parametrize("case", CASES, ids=["-".join(c) for c in CASES])
def test_backs_mirror_their_fronts_and_nothing_overlaps(
        case: tuple[str, str, str], tmp_path_factory: pytest.TempPathFactory) -> None:
    _, manifest = built(case, tmp_path_factory)
    m = manifest["margin_mm"]
    pages = {(s["file"], s["page"]): s for s in manifest["sheets"]}
    checked = 0
    for sheet in manifest["sheets"]:
        pw, ph = sheet["page_mm"]
        ps = sheet["placements"]
        for i, a in enumerate(ps):
            x, y, w, h = a["trim_mm"]
            assert x >= m - 1e-6 and y >= m - 1e-6, a
            assert x + w <= pw - m + 1e-6 and y + h <= ph - m + 1e-6, a
            bx, by, bw, bh = a["bleed_mm"]
            assert bx >= 0 and by >= 0 and bx + bw <= pw and by + bh <= ph
            for b in ps[i + 1:]:
                assert not overlaps(a["trim_mm"], b["trim_mm"]), (a, b)
                assert not overlaps(a["bleed_mm"], b["trim_mm"]), (a, b)
                assert not overlaps(b["bleed_mm"], a["trim_mm"]), (a, b)
        if sheet["side"] != "back":
            continue
        front = pages[(sheet["file"], sheet["page"] - 1)]
        assert front["side"] == "front" and front["page_mm"] == sheet["page_mm"]
        rule = manifest["duplex"]
        if pw > ph:  # on a landscape page the long and the short edge swap
            rule = "short" if rule == "long" else "long"
        found = {(p["component"], p["copy"]): p for p in front["placements"]}
        for b in ps:
            f = found[(b["component"], b["copy"])]
            x, y, w, h = f["trim_mm"]
            want = [pw - x - w, y] if rule == "long" else [x, ph - y - h]
            assert b["trim_mm"] == pytest.approx(want + [w, h], abs=0.01)
            assert (b.get("turned") == 180) == (rule == "short")
            checked += 1
    # (a back with no component holds the checklist, on the back of a rules sheet)
    assert checked or not any(s["placements"] for s in manifest["sheets"]
                              if s["side"] == "back")


def _mark_points(items: Any, dx: float = 0.0, dy: float = 0.0) -> list[tuple[float, float]]:
    """The ends of every line among the sheet marks (crop marks, cut lines) on the page;
    unrotated groups (panels) followed, rotated ones (footer, turned panels) left out."""
    from generator.drawing import Group, Line

    out: list[tuple[float, float]] = []
    for it in items:
        if isinstance(it, Line):
            out += [(it.x1 + dx, it.y1 + dy), (it.x2 + dx, it.y2 + dy)]
        elif isinstance(it, Group) and not it.rotate and it.scale == 1:
            out += _mark_points(it.items, dx + it.dx, dy + it.dy)
    return out


@pytest.mark.parametrize("case", [("mule", "letter", "long"), ("mutagen", "a4", "short"),
                                  ("outer-earth", "a4", "long"),
                                  ("mule-goes-crazy", "letter", "short"),
                                  ("muli", "letter", "long"), ("muli", "a4", "short")],
                         ids=lambda c: "-".join(c))
def test_crop_marks_never_touch_a_pieces_artwork(case: tuple[str, str, str]) -> None:
    from generator.build import checklist_panel, draw_all, impose_all, select
    from generator.draw import Options

    game, paper, duplex = case
    g = load(game)
    settings = Settings(paper=paper, duplex=duplex)
    sheets = impose_all(g, draw_all(g, select(g, None), Options()), settings,
                        [checklist_panel(g, settings)])
    checked = 0
    for sheet in sheets:
        boxes = [p.clip for p in sheet.placements if not p.part]
        for x, y in _mark_points(sheet.marks):
            assert -1e-6 <= x <= sheet.w + 1e-6 and -1e-6 <= y <= sheet.h + 1e-6
            for bx, by, bw, bh in boxes:
                inside = bx + 1e-6 < x < bx + bw - 1e-6 and by + 1e-6 < y < by + bh - 1e-6
                assert not inside, (sheet.title, x, y)
            checked += 1
    assert checked > 60  # (marks wholly in the margin are no longer drawn)
