"""The files themselves: the PDF read with a PDF library, the SVG parsed, QR codes decoded."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pymupdf
import pytest
import zxingcpp
from PIL import Image

from generator.backends.svg import placement

PT = 25.4 / 72


def page_of(out: Path, manifest: dict[str, Any], sheet: dict[str, Any]) -> pymupdf.Page:
    """The PDF page a manifest sheet names: its file (in OUT/GAME/) and its page there."""
    return pymupdf.open(out / manifest["game"] / sheet["file"])[sheet["page"] - 1]
SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"


def test_pdf_pages_match_the_manifest(a4_build: tuple[Path, dict[str, Any]]) -> None:
    out, manifest = a4_build
    files = [f["file"] for f in manifest["files"]]
    assert files == ["deck.pdf", "deck-single-sided.pdf"]
    for name in files:
        doc = pymupdf.open(out / "deck" / name)
        sheets = [s for s in manifest["sheets"] if s["file"] == name]
        assert doc.page_count == len(sheets) == [f["pages"] for f in manifest["files"]
                                                 if f["file"] == name][0]
        assert [s["page"] for s in sheets] == list(range(1, doc.page_count + 1))
    for sheet in manifest["sheets"]:
        page = page_of(out, manifest, sheet)
        w_mm, h_mm = page.rect.width * PT, page.rect.height * PT
        assert w_mm == pytest.approx(sheet["page_mm"][0], abs=0.05)
        assert h_mm == pytest.approx(sheet["page_mm"][1], abs=0.05)
        assert {round(w_mm), round(h_mm)} == {210, 297}


def test_one_svg_per_sheet_side(a4_build: tuple[Path, dict[str, Any]]) -> None:
    out, manifest = a4_build
    for sheet in manifest["sheets"]:
        path = out / "deck" / sheet["svg"]
        root = ET.parse(path).getroot()
        assert root.get("viewBox") == "0 0 {:g} {:g}".format(*sheet["page_mm"])
        uses = [placement(u.findtext(f"{SVG}desc") or "") for u in root.iter(f"{SVG}use")
                if u.get("class") == "placement"]
        got = sorted((u["component"], int(u["copy"]), u["face"]) for u in uses)
        want = sorted((p["component"], p["copy"], p["face"]) for p in sheet["placements"])
        assert got == want
        for u in uses:
            p = next(p for p in sheet["placements"] if p["component"] == u["component"]
                     and p["copy"] == int(u["copy"]) and p["face"] == u["face"])
            trim = [float(v) for v in u["trim"].split(",")]
            assert trim == pytest.approx(p["trim_mm"], abs=0.01)


def _matrix(transform: str | None) -> tuple[float, ...]:
    m = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    for op, args in re.findall(r"(\w+)\(([^)]*)\)", transform or ""):
        v = [float(a) for a in re.split(r"[ ,]+", args.strip())]
        if op == "translate":
            t = (1.0, 0.0, 0.0, 1.0, v[0], v[1] if len(v) > 1 else 0.0)
        elif op == "scale":
            t = (v[0], 0.0, 0.0, v[-1], 0.0, 0.0)
        elif op == "rotate":
            a = math.radians(v[0])
            t = (math.cos(a), math.sin(a), -math.sin(a), math.cos(a), 0.0, 0.0)
        else:
            raise AssertionError(op)
        m = _mul(m, t)
    return m


def _mul(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
    return (a[0] * b[0] + a[2] * b[1], a[1] * b[0] + a[3] * b[1],
            a[0] * b[2] + a[2] * b[3], a[1] * b[2] + a[3] * b[3],
            a[0] * b[4] + a[2] * b[5] + a[4], a[1] * b[4] + a[3] * b[5] + a[5])


def svg_text_positions(path: Path) -> dict[str, list[tuple[float, float]]]:
    """Every text's baseline start on the page (mm), following groups and <use>."""
    root = ET.parse(path).getroot()
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}
    out: dict[str, list[tuple[float, float]]] = {}

    def walk(el: ET.Element, m: tuple[float, ...], in_defs: bool) -> None:
        tag = el.tag.replace(SVG, "")
        if tag == "defs":
            return
        m = _mul(m, _matrix(el.get("transform")))
        if tag == "use":
            ref = ids[(el.get(XLINK) or el.get("href") or "")[1:]]
            m2 = _mul(m, (1.0, 0.0, 0.0, 1.0, float(el.get("x", 0)), float(el.get("y", 0))))
            for child in ref:
                walk(child, m2, True)
            return
        if tag == "text" and el.text and el.get("text-anchor") in (None, "start"):
            x, y = float(el.get("x", 0)), float(el.get("y", 0))
            out.setdefault(el.text, []).append((m[0] * x + m[2] * y + m[4],
                                                m[1] * x + m[3] * y + m[5]))
        for child in el:
            walk(child, m, in_defs)

    walk(root, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), False)
    return out


def pdf_text_positions(page: pymupdf.Page) -> dict[str, list[tuple[float, float]]]:
    out: dict[str, list[tuple[float, float]]] = {}
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                ox, oy = span["origin"]
                out.setdefault(span["text"], []).append((ox * PT, oy * PT))
    return out


def test_svg_and_pdf_place_the_same_text_at_the_same_spots(
        a4_build: tuple[Path, dict[str, Any]]) -> None:
    out, manifest = a4_build
    doc = pymupdf.open(out / "deck" / "deck.pdf")
    compared = 0
    for sheet in manifest["sheets"][:2]:  # the first card sheet, front and back
        svg = svg_text_positions(out / "deck" / sheet["svg"])
        pdf = pdf_text_positions(doc[sheet["page"] - 1])
        for title in ("Alpha", "Beta", "Gamma", "Delta", "TEST DECK"):
            if title not in svg:
                continue
            a = sorted(svg[title])
            b = sorted(pdf[title])
            assert len(a) == len(b)
            for (x1, y1), (x2, y2) in zip(a, b, strict=True):
                assert x1 == pytest.approx(x2, abs=0.2)
                assert y1 == pytest.approx(y2, abs=0.2)
                compared += 1
    assert compared >= 7


def test_copies_are_one_drawing_placed_many_times(a4_build: tuple[Path, dict[str, Any]]) -> None:
    out, manifest = a4_build
    sheet = next(s for s in manifest["sheets"]
                 if any(p["component"] == "counter/one" for p in s["placements"]))
    counters = [p for p in sheet["placements"] if p["component"] == "counter/one"]
    assert len(counters) == 6
    distinct = {(p["component"], p["face"]) for p in sheet["placements"]}
    page = page_of(out, manifest, sheet)
    # one form XObject per distinct drawing, however many copies are placed
    assert len(page.get_xobjects()) == len(distinct) < len(sheet["placements"])
    root = ET.parse(out / "deck" / sheet["svg"]).getroot()
    defs = root.find(f"{SVG}defs")
    assert defs is not None
    assert len([g for g in defs if g.tag == f"{SVG}g"]) == len(distinct)
    uses = [u for u in root.iter(f"{SVG}use")
            if placement(u.findtext(f"{SVG}desc") or "").get("component") == "counter/one"]
    assert len(uses) == 6 and len({u.get(XLINK) or u.get("href") for u in uses}) == 1


def test_small_pieces_fill_the_space_beside_a_board_part(
        a4_build: tuple[Path, dict[str, Any]]) -> None:
    _, manifest = a4_build
    for small in ("counter/one", "die/colour", "standee/runner"):
        for sheet in manifest["sheets"]:
            if any(p["component"] == small for p in sheet["placements"]):
                assert any(p.get("part") for p in sheet["placements"]), (small, sheet["title"])


def test_qr_stamps_decode_from_a_raster_of_the_page(tmp_path: Path, builder: Any) -> None:
    manifest = builder(tmp_path, paper="a4", stamp_qr=True, formats=("pdf",))
    doc = pymupdf.open(tmp_path / "deck" / "deck.pdf")
    sheet = manifest["sheets"][0]
    pix = doc[0].get_pixmap(dpi=300)
    img = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
    found = {r.text for r in zxingcpp.read_barcodes(img)}
    want = {f"irata:deck/{p['component']}@{p['version']}" for p in sheet["placements"]}
    assert want and want <= found


def test_reference_sheet_carries_its_stamp_without_asking(
        a4_build: tuple[Path, dict[str, Any]]) -> None:
    out, manifest = a4_build
    sheet = next(s for s in manifest["sheets"] if s["title"] == "Sheets" and s["side"] == "front")
    pix = page_of(out, manifest, sheet).get_pixmap(dpi=300)
    img = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
    assert {r.text for r in zxingcpp.read_barcodes(img)} == {"irata:deck/sheet/reference@1.0"}


def test_every_sheet_has_a_footer_and_a_ruler(a4_build: tuple[Path, dict[str, Any]]) -> None:
    out, manifest = a4_build
    for sheet in manifest["sheets"]:
        page = page_of(out, manifest, sheet)
        fronts = len([s for s in manifest["sheets"] if s["side"] == "front"
                      and s["file"] == sheet["file"]])
        text = page.get_text()
        assert "Test Deck · edition 1.0 · sheet" in text
        assert f"of {fronts}" in text
        assert "50 mm" in text
        # nothing is drawn off the page (a board part holds the whole board's drawing,
        # clipped to its window, so its unclipped paths are not a measure of the page)
        if any(p.get("part") for p in sheet["placements"]):
            continue
        for d in page.get_drawings():
            r = d["rect"]
            assert r.x0 >= -0.01 and r.y0 >= -0.01
            assert r.x1 <= page.rect.width + 0.01 and r.y1 <= page.rect.height + 0.01


def test_the_checklist_shares_a_sheet_with_components(
        a4_build: tuple[Path, dict[str, Any]]) -> None:
    out, manifest = a4_build
    sheets = [s for s in manifest["sheets"]
              if s["side"] == "front" and "Component checklist" in s["title"]]
    assert len(sheets) == 1 and sheets[0]["placements"]
    text = page_of(out, manifest, sheets[0]).get_text()
    assert "component checklist" in text
    for group in ("Cards", "Counters", "Board", "Dice", "Standees", "Rulebook"):
        assert group in text


def test_raster_images_print_in_both_backends(deck_dir: Path, tmp_path: Path,
                                              builder: Any) -> None:
    Image.new("RGB", (40, 40), (200, 30, 30)).save(deck_dir / "logo.png")
    cards = deck_dir / "cards.yaml"
    cards.write_text(cards.read_text().replace(
        "    - {type: icon, name: food, x: 5, y: 75, size: 6, when: food}",
        "    - {type: icon, name: food, x: 5, y: 75, size: 6, when: food}\n"
        "    - {type: image, path: logo.png, x: 40, y: 72, w: 15, h: 15}"))
    manifest = builder(tmp_path, deck_dir, paper="a4")
    sheet = manifest["sheets"][0]
    doc = pymupdf.open(tmp_path / "deck" / "deck.pdf")
    images = doc[0].get_images(full=True)
    assert images  # one image resource, placed in every card's form
    # the red square shows up where the first card's image sits
    first = sheet["placements"][0]
    x, y = first["trim_mm"][0] + 47.5, first["trim_mm"][1] + 79.5
    pix = doc[0].get_pixmap(dpi=100)
    px, py = int(x / 25.4 * 100), int(y / 25.4 * 100)
    r, g, b = pix.pixel(px, py)[:3]
    assert r > 150 and g < 80 and b < 80
    svg = (tmp_path / "deck" / sheet["svg"]).read_text()
    assert "data:image/png;base64," in svg


def test_a_rebuild_removes_only_a_pdf_its_last_manifest_listed(tmp_path: Path,
                                                               builder: Any) -> None:
    folder = tmp_path / "deck"
    first = builder(tmp_path, paper="a4", duplex="long", formats=("pdf",))
    assert [f["file"] for f in first["files"]] == ["deck.pdf", "deck-single-sided.pdf"]
    (folder / "notes.pdf").write_bytes(b"mine")
    # with fold every page prints one-sided from deck.pdf: the old one-sided file goes
    again = builder(tmp_path, paper="a4", duplex="fold", formats=("pdf",))
    assert [f["file"] for f in again["files"]] == ["deck.pdf"]
    assert not (folder / "deck-single-sided.pdf").exists()
    assert (folder / "notes.pdf").read_bytes() == b"mine"
    # a file of that name the manifest does not list is not irata's to delete
    (folder / "deck-single-sided.pdf").write_bytes(b"mine too")
    builder(tmp_path, paper="a4", duplex="none", formats=("pdf",))
    assert (folder / "deck-single-sided.pdf").read_bytes() == b"mine too"
