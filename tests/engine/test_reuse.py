"""Each distinct picture drawn once: faces known by their content, text boxes fitted once, and
the build's own housekeeping (the manifest, the garbage collector) left as it was."""

from __future__ import annotations

import gc
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pymupdf

from components import load_path
from generator import text as t
from generator.backends.svg import placement
from generator.build import BuildOptions, build, manifest_data
from generator.drawing import Drawing, Rect, Style, Text
from generator.layout import Settings

DECK = Path(__file__).parent / "fixtures" / "deck"

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"


def _card_back_sheets(manifest: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in manifest["sheets"] if s["side"] == "back" and s["placements"]
            and all(p["component"].startswith("card/") for p in s["placements"])]


def test_identical_backs_of_different_cards_are_one_pdf_form(
        a4_build: tuple[Path, dict[str, Any]]) -> None:
    out, manifest = a4_build
    doc = pymupdf.open(out / "deck" / "deck.pdf")
    backs = _card_back_sheets(manifest)
    assert backs
    forms: set[int] = set()
    for sheet in backs:
        page = doc[sheet["page"] - 1]
        xobjects = page.get_xobjects()
        # every card's back is the same picture: one form, placed once per card
        assert len(xobjects) == 1
        forms.add(xobjects[0][0])
        assert page.read_contents().count(b" Do") == len(sheet["placements"])
        assert len({p["component"] for p in sheet["placements"]}) > 1
    assert len(forms) == 1  # the same form on every back page, defined once in the file


def test_identical_backs_are_one_svg_definition(a4_build: tuple[Path, dict[str, Any]]) -> None:
    out, manifest = a4_build
    for sheet in _card_back_sheets(manifest):
        root = ET.parse(out / "deck" / sheet["svg"]).getroot()
        defs = root.find(f"{SVG}defs")
        assert defs is not None
        faces = [g for g in defs if g.tag == f"{SVG}g"]
        assert len(faces) == 1
        uses = [u for u in root.iter(f"{SVG}use") if u.get("class") == "placement"]
        assert len(uses) == len(sheet["placements"])
        assert {(u.get(XLINK) or u.get("href")) for u in uses} == {f"#{faces[0].get('id')}"}
        described = {placement(u.findtext(f"{SVG}desc") or "")["component"] for u in uses}
        assert described == {p["component"] for p in sheet["placements"]}


def test_a_face_is_known_by_what_it_draws() -> None:
    st = Style(fill="#112233")

    def face(key: str, colour: str = "#000000") -> Drawing:
        return Drawing(63.5, 88.9, 3.0, [Rect(0, 0, 10, 10, st),
                                         Text(1, 2, "Back", "Helvetica", 9, colour)], key=key)

    a, b, c = face("card/a#back"), face("token/b#front"), face("card/a#back", "#ff0000")
    assert a.identity() == b.identity() and hash(a.identity()) == hash(b.identity())
    assert a.identity() != c.identity()
    # adding to a drawing changes what it is
    before = a.identity()
    a.add(Rect(5, 5, 1, 1, st))
    assert a.identity() != before and a.identity() != b.identity()


def test_a_text_fit_cache_hit_returns_the_same_lines() -> None:
    words = "Gain {food} and **two** energy when a rival passes, then draw a card. " * 3
    icons = frozenset({"food"})
    t.fitted.cache_clear()
    first = t.fit(words, ("Helvetica", "Helvetica-Bold"), icons, 50, 40, 9, 5, 1.2)
    assert t.fitted.cache_info().misses == 1
    # the caller owns its lists: changing them does not change what the cache returns
    first[1][0].clear()
    second = t.fit(words, ("Helvetica", "Helvetica-Bold"), icons, 50, 40, 9, 5, 1.2)
    assert t.fitted.cache_info().hits == 1
    fresh = t._fit(words, ("Helvetica", "Helvetica-Bold"), icons, 50, 40, 9, 5, 1.2)
    assert second == fresh
    assert second[0] == first[0] and second[2] == first[2]
    assert len(second[1]) > 1 and second[1][0]


def test_a_text_box_cache_hit_draws_the_same_runs() -> None:
    args = ("Draw two cards and discard one of them.", ("Helvetica", "Helvetica-Bold"),
            frozenset[str](), 40.0, 20.0, 9.0, 5.0, 1.2, "left", "top", "#000000")
    prims, fit = t.text_box(*args)
    again, fit2 = t.text_box(*args)
    size, lines, _ = t._fit(*args[:8])
    assert again == prims and fit2 == fit
    assert list(prims) == t.render_lines(lines, args[1], size, 0, 0, 40.0, 20.0, "left",
                                         "top", 1.2, "#000000")


def test_the_manifest_is_what_the_whole_dict_would_write(tmp_path: Path) -> None:
    game = load_path(DECK)
    opts = BuildOptions(Settings(paper="a4"), ("pdf", "svg"), tmp_path)
    result = build(game, opts)
    written = json.loads(result.manifest.read_text())
    svg_names = {i: s["svg"] for i, s in enumerate(written["sheets"])}
    whole = manifest_data(game, result.sheets, opts, svg_names)
    whole["written"] = written["written"]
    assert len(whole["sheets"]) > 2
    assert result.manifest.read_text() == json.dumps(whole, indent=1)
    # and building again (every cache warm) writes the very same manifest and PDF pages
    first_manifest = result.manifest.read_text()
    doc = pymupdf.open(result.pdf)
    first_text = [page.get_text() for page in doc]
    doc.close()
    again = build(load_path(DECK), BuildOptions(Settings(paper="a4"), ("pdf", "svg"),
                                                tmp_path / "again"))
    assert again.manifest.read_text() == first_manifest
    doc = pymupdf.open(again.pdf)
    assert [page.get_text() for page in doc] == first_text


def test_the_build_leaves_the_garbage_collector_as_it_found_it(tmp_path: Path) -> None:
    game = load_path(DECK)
    assert gc.isenabled()
    build(game, BuildOptions(Settings(), ("pdf",), tmp_path))
    assert gc.isenabled() and gc.get_freeze_count() == 0
    gc.disable()
    try:
        build(game, BuildOptions(Settings(), ("pdf",), tmp_path / "2"))
        assert not gc.isenabled() and gc.get_freeze_count() == 0
    finally:
        gc.enable()


def test_lines_of_one_style_are_one_path_and_none_is_lost(tmp_path: Path) -> None:
    from generator.backends.svg import _f
    from generator.drawing import Group, Line

    result = build(load_path(DECK), BuildOptions(Settings(paper="a4"), ("pdf", "svg"),
                                                 tmp_path))
    sheet = result.sheets[0]
    crop = [m for m in sheet.marks if isinstance(m, Line)]
    assert len(crop) > 8
    root = ET.parse(tmp_path / "deck" / "svg" / "sheet-001-front.svg").getroot()
    segments = set()
    for path in root.iter(f"{SVG}path"):
        segments.update("M" + seg for seg in (path.get("d") or "").split("M") if seg)
    for ln in crop:  # every crop mark is drawn, as a segment of a path
        assert f"M{_f(ln.x1)} {_f(ln.y1)}L{_f(ln.x2)} {_f(ln.y2)}".strip() in {
            s.strip() for s in segments}
    assert not list(root.iter(f"{SVG}line"))
    # the footer's 50 mm ruler: 51 ticks and its base line, one path
    footer = next(m for m in sheet.marks if isinstance(m, Group))
    ruler = [p for p in footer.items if isinstance(p, Line)]
    assert len(ruler) == 52
    counts = [len((p.get("d") or "").split("M")) - 1 for p in root.iter(f"{SVG}path")]
    assert 52 in counts
    # the PDF page draws the same segments: its drawings hold every crop mark and tick
    doc = pymupdf.open(tmp_path / "deck" / "deck.pdf")
    n_lines = sum(1 for d in doc[0].get_drawings() for item in d["items"] if item[0] == "l")
    assert n_lines >= len(crop) + len(ruler)
