"""PDF/X-1a:2003 for DriveThruCards (and ``irata print --cmyk``), checked as a print shop's
preflight reads it, with pikepdf: CMYK and grey only, every font embedded, no transparency,
the OutputIntent and PDF/X keys, TrimBox and BleedBox on every page."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from components import list_games, load, load_path
from generator.cmyk import OUTPUT_CONDITION, PDFX_VERSION, RICH_BLACK, convert
from generator.export.pod import export_pod

sys.path.insert(0, str(Path(__file__).parents[1]))
from pdfcheck import preflight  # noqa: E402

DESIGNER = Path(__file__).parents[2] / "examples" / "designer"


def _inside(inner: pikepdf.Array, outer: pikepdf.Array) -> bool:
    a = [float(v) for v in inner]
    b = [float(v) for v in outer]
    eps = 0.01
    return (a[0] >= b[0] - eps and a[1] >= b[1] - eps and a[2] <= b[2] + eps
            and a[3] <= b[3] + eps)


def assert_pdfx(path: Path) -> None:
    """Every property PDF/X-1a:2003 asks of the file at ``path``, on every page."""
    pf, pdf = preflight(path)
    with pdf:
        assert pf.pages > 0
        assert pf.colour_ops <= {"k", "K", "g", "G"}, f"{path.name}: {pf.colour_ops}"
        assert pf.colour_spaces <= {"/DeviceCMYK", "/DeviceGray"}, pf.colour_spaces
        assert pf.fonts and all(pf.fonts.values()), f"{path.name}: {pf.fonts}"
        assert pf.transparency == []
        intents = pdf.Root.OutputIntents
        assert len(intents) == 1
        intent = intents[0]
        assert intent.S == pikepdf.Name.GTS_PDFX
        assert str(intent.OutputConditionIdentifier) == OUTPUT_CONDITION
        assert int(intent.DestOutputProfile.N) == 4
        assert intent.DestOutputProfile.read_bytes()[36:40] == b"acsp"  # an ICC profile
        info = pdf.docinfo
        assert str(info.GTS_PDFXVersion) == PDFX_VERSION
        assert info.Trapped in (pikepdf.Name("/False"), pikepdf.Name("/True"))
        assert str(info.Title)
        assert str(info.CreationDate).startswith("D:") and not \
            str(info.CreationDate).startswith("D:2000")
        assert pdf.pdf_version <= "1.4"
        assert pdf.trailer.ID  # a file identifier, which PDF/X requires
        for page in pdf.pages:
            media = page.obj.MediaBox
            assert "/TrimBox" in page.obj and "/BleedBox" in page.obj
            assert _inside(page.obj.TrimBox, page.obj.BleedBox)
            assert _inside(page.obj.BleedBox, media)


@pytest.mark.parametrize("game", list_games())
def test_every_bundled_games_drivethrucards_pdfs_are_pdfx_1a(tmp_path: Path,
                                                             game: str) -> None:
    result = export_pod(load(game), "dtc", tmp_path)
    manifest = json.loads(result.manifest.read_text(encoding="utf-8"))
    pdfs = [result.written.folder / f["file"] for f in manifest["files"]
            if f["file"].endswith(".pdf")]
    cards = [c for c in load(game).components if c.kind == "card" and c.printed]
    if not cards:  # Das Störrische Muli has none: every piece is named as left out
        assert pdfs == [] and manifest["not_exported"]
        return
    assert pdfs
    assert manifest["colour"].startswith("CMYK")
    for path in pdfs:
        assert_pdfx(path)


def test_the_designer_examples_art_is_converted_to_cmyk(tmp_path: Path) -> None:
    """PNG and SVG art on the cards: the raster becomes a CMYK image, the SVG's colours CMYK
    operators, and nothing is transparent."""
    result = export_pod(load_path(DESIGNER), "dtc", tmp_path)
    pdfs = sorted(result.written.folder.glob("*.pdf"))
    assert pdfs
    spaces: set[str] = set()
    for path in pdfs:
        assert_pdfx(path)
        pf, pdf = preflight(path)
        pdf.close()
        spaces |= pf.colour_spaces
    assert "/DeviceCMYK" in spaces  # the landscape PNG, converted


def test_print_cmyk_makes_every_home_print_pdfx(tmp_path: Path) -> None:
    from generator.build import BuildOptions, build
    from generator.layout import Settings

    result = build(load("outer-earth"), BuildOptions(Settings(), ("pdf",), tmp_path,
                                                     cmyk=True))
    assert result.pdfs
    for path in result.pdfs:
        assert_pdfx(path)


def _fills(path: Path) -> list[tuple[float, ...]]:
    """Every CMYK fill colour set on the file's pages and forms, in order."""
    out: list[tuple[float, ...]] = []
    with pikepdf.open(path) as pdf:
        streams = [p for p in pdf.pages]
        for page in pdf.pages:
            for xo in (page.obj.get("/Resources", {}).get("/XObject") or {}).values():
                if xo.get("/Subtype") == "/Form":
                    streams.append(xo)
        for s in streams:
            for operands, op in pikepdf.parse_content_stream(s):
                if str(op) == "k":
                    out.append(tuple(round(float(v), 3) for v in operands))
    return out


def test_large_black_areas_print_rich_black_and_black_text_in_black_ink(tmp_path: Path
                                                                         ) -> None:
    folder = tmp_path / "noir"
    folder.mkdir()
    (folder / "game.yaml").write_text(
        "game: noir\nname: Noir\nedition: '1.0'\nauthor: Ann Example\n"
        "layouts:\n  front:\n"
        "    - {type: rect, x: 0, y: 0, w: 100%, h: 100%, fill: '#000000', bleed: true}\n"
        "    - {type: rect, x: 10, y: 10, w: 40, h: 20, fill: '#ffffff'}\n"
        "    - {type: text, text: Midnight, x: 12, y: 12, w: 36, h: 10, size: 9,"
        " color: '#000000'}\n", encoding="utf-8")
    (folder / "cards.yaml").write_text(
        "defaults: {kind: card, size: poker, group: Cards, front: front}\n"
        "components:\n  - {id: card/a, title: A}\n", encoding="utf-8")
    result = export_pod(load_path(folder), "dtc", tmp_path / "out")
    path = next(result.written.folder.glob("*.pdf"))
    assert_pdfx(path)
    fills = _fills(path)
    assert tuple(round(v, 3) for v in RICH_BLACK) in fills  # the black ground
    assert (0.0, 0.0, 0.0, 1.0) in fills  # the black text: K alone
    with pikepdf.open(path) as pdf:
        assert str(pdf.docinfo.Author) == "Ann Example"


def test_colours_convert_through_the_profile() -> None:
    c, m, y, k = convert("#ff0000")
    assert m > 0.8 and y > 0.8 and c < 0.1  # red is magenta and yellow
    c, m, y, k = convert("#0000ff")
    assert c > 0.7 and m > 0.5 and y < 0.1
    assert convert("#ffffff") == (0.0, 0.0, 0.0, 0.0)
    # a grey is black ink alone, darker greys more of it
    greys = [convert(f"#{v:02x}{v:02x}{v:02x}") for v in (0xdd, 0x88, 0x33)]
    assert all(g[:3] == (0.0, 0.0, 0.0) for g in greys)
    assert greys[0][3] < greys[1][3] < greys[2][3]


def test_transparent_raster_is_masked_and_semi_transparent_flattened(tmp_path: Path) -> None:
    """Around the opaque square the card's blue shows (a colour-key mask, no soft mask);
    the half-transparent strip is flattened onto white, and named."""
    import pymupdf

    folder = tmp_path / "glass"
    folder.mkdir()
    im = Image.new("RGBA", (300, 300), (200, 30, 30, 0))
    im.paste((200, 30, 30, 255), (100, 100, 200, 200))
    im.paste((200, 30, 30, 128), (100, 250, 200, 280))
    im.save(folder / "blob.png")
    (folder / "game.yaml").write_text(
        "game: glass\nname: Glass\nedition: '1.0'\nlayouts:\n  front:\n"
        "    - {type: rect, x: 0, y: 0, w: 100%, h: 100%, fill: '#2a6f97', bleed: true}\n"
        "    - {type: image, path: blob.png, x: 10, y: 10, w: 40, h: 40}\n", encoding="utf-8")
    (folder / "cards.yaml").write_text(
        "defaults: {kind: card, size: poker, group: Cards, front: front}\n"
        "components:\n  - {id: card/a, title: A}\n", encoding="utf-8")
    result = export_pod(load_path(folder), "dtc", tmp_path / "out")
    path = next(result.written.folder.glob("*.pdf"))
    assert_pdfx(path)
    assert any("blob.png" in n and "print opaque" in n for n in result.written.notes)
    assert result.written.warnings == []  # not a safe-zone matter
    with pikepdf.open(path) as pdf:
        images = [xo for page in pdf.pages
                  for xo in (page.Resources.get("/XObject") or {}).values()
                  if xo.get("/Subtype") == "/Image"]
        assert images and all(str(x.ColorSpace) == "/DeviceCMYK" and "/Mask" in x
                              for x in images)
    # the front page (2nd: back first): 10 mm + 1/8" bleed in, the image's clear corner
    # shows the blue ground beneath, its centre the red square
    page = pymupdf.open(path)[1]
    pix = page.get_pixmap(dpi=100)
    px_mm = 100 / 25.4

    def at(x_mm: float, y_mm: float) -> tuple[int, ...]:
        return tuple(pix.pixel(int((x_mm + 3.175) * px_mm), int((y_mm + 3.175) * px_mm)))

    corner, centre = at(12, 12), at(30, 30)
    assert corner[2] > corner[0] + 40  # blue, not white
    assert centre[0] > centre[2] + 60  # red


def test_a_font_that_cannot_be_embedded_is_refused_for_press(tmp_path: Path) -> None:
    """Times is a standard PDF font irata has no embeddable stand-in for: a CMYK file would
    not be PDF/X, so the export says so (one line, exit 2) and leaves no PDF behind."""
    from irata.cli import main

    folder = tmp_path / "serif"
    folder.mkdir()
    (folder / "game.yaml").write_text(
        "game: serif\nname: Serif\nfonts: {body: Times-Roman}\nlayouts:\n  front:\n"
        "    - {type: text, text: Hello, x: 5, y: 5, w: 40, h: 10}\n", encoding="utf-8")
    (folder / "cards.yaml").write_text(
        "defaults: {kind: card, size: poker, group: Cards, front: front}\n"
        "components:\n  - {id: card/a, title: A}\n", encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        main(["export", "pod", "serif", "--components", str(tmp_path), "--vendor", "dtc",
              "--out", str(tmp_path / "out")])
    assert done.value.code == 2
    assert list((tmp_path / "out").rglob("*.pdf")) == []


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 0xFFFFFF), st.booleans())
def test_any_colour_converts_to_inks_within_the_profiles_limit(rgb: int, large: bool) -> None:
    cmyk = convert(f"#{rgb:06x}", large)
    assert all(0.0 <= v <= 1.0 for v in cmyk)
    assert sum(cmyk) <= 3.3 + 0.01  # the profile's 330 % total ink (rich black: 240 %)
    r, g, b = rgb >> 16, (rgb >> 8) & 255, rgb & 255
    if max(r, g, b) - min(r, g, b) <= 2 and not (large and max(r, g, b) <= 24):
        assert cmyk[:3] == (0.0, 0.0, 0.0)  # a grey: black ink alone


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["RGB", "RGBA", "L", "LA", "P", "1"]), st.integers(1, 12),
       st.integers(1, 12), st.binary(min_size=0, max_size=64))
def test_any_raster_converts_without_a_transparent_pixel_left(mode: str, w: int, h: int,
                                                              noise: bytes) -> None:
    from generator.cmyk import KEY, image_to_cmyk

    im = Image.frombytes("RGBA", (w, h), (noise * (4 * w * h))[: 4 * w * h].ljust(4 * w * h,
                                                                                 b"\x80"))
    im = im.convert(mode)
    flat = image_to_cmyk(im)
    assert flat.image.mode == "CMYK" and flat.image.size == (w, h)
    if not flat.keyed:
        assert KEY not in [flat.image.getpixel((x, y)) for x in range(w) for y in range(h)]


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.text(max_size=250), st.integers(), st.lists(st.text(max_size=5),
                                                                max_size=3)))
def test_any_author_in_game_yaml_loads_or_is_refused_in_one_line(tmp_path_factory: Any,
                                                                  author: Any) -> None:
    import yaml

    from components.errors import DefinitionError

    folder = tmp_path_factory.mktemp("g") / "authored"
    folder.mkdir()
    (folder / "game.yaml").write_text(yaml.safe_dump({"game": "authored", "name": "A",
                                                      "author": author}), encoding="utf-8")
    try:
        game = load_path(folder)
    except DefinitionError as exc:
        assert "author" in str(exc) and "\n" not in str(exc)
        return
    assert isinstance(author, str) and game.author == " ".join(author.split())


def test_svg_art_gradients_and_opacity_are_made_press_ready(tmp_path: Path) -> None:
    """A gradient in SVG art becomes a CMYK shading; a half-transparent shape prints opaque
    and the export notes it (not as a safe-zone matter)."""
    folder = tmp_path / "grad"
    folder.mkdir()
    (folder / "art.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" '
        'viewBox="0 0 100 100"><defs><linearGradient id="g"><stop offset="0" '
        'stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/></linearGradient>'
        '</defs><rect width="100" height="100" fill="url(#g)"/><circle cx="50" cy="50" '
        'r="20" fill="#00aa00" fill-opacity="0.5"/><text x="10" y="90" font-size="10">Hi'
        '</text></svg>', encoding="utf-8")
    (folder / "game.yaml").write_text(
        "game: grad\nname: Grad\nlayouts:\n  front:\n"
        "    - {type: image, path: art.svg, x: 5, y: 5, w: 50, h: 50}\n", encoding="utf-8")
    (folder / "cards.yaml").write_text(
        "defaults: {kind: card, size: poker, group: Cards, front: front}\n"
        "components:\n  - {id: card/a, title: A}\n", encoding="utf-8")
    result = export_pod(load_path(folder), "dtc", tmp_path / "out")
    path = next(result.written.folder.glob("*.pdf"))
    assert_pdfx(path)
    with pikepdf.open(path) as pdf:
        shadings = [sh for page in pdf.pages
                    for sh in (page.Resources.get("/Shading") or {}).values()]
        assert shadings and all(str(sh.ColorSpace) == "/DeviceCMYK" for sh in shadings)
    assert any("art.svg" in n and "opaque" in n for n in result.written.notes)
    assert result.written.warnings == []
