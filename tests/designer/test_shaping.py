"""Text in every script: shaped by HarfBuzz, ordered by the bidi algorithm, the same in the
PDF and the SVG.

The fonts are the PyPI packages the test extra installs (Noto Sans Arabic, Heebo, Noto Sans
Devanagari, Noto Sans Thai), so these tests need no system font; the colour emoji tests use
the example's bundled Noto Color Emoji cut (and Debian's whole font where it is installed).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from components import load_path
from generator.draw import Options, draw_component
from generator.drawing import PT, Text, walk

from .conftest import build_game, run_cli, write_game

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "designer"

WORDS = {
    "arabic": "القاهرة مدينة",
    "hebrew": "השוק הגדול",
    "devanagari": "क्षत्रिय हिन्दी",
    "thai": "น้ำใจ ภาษาไทย",
}
FAMILIES = {"arabic": "Noto Sans Arabic", "hebrew": "Heebo",
            "devanagari": "Noto Sans Devanagari", "thai": "Noto Sans Thai"}
RTL = {"arabic", "hebrew"}


def _game(folder: Path, extra: str = "", text: str = "", size: float = 16) -> Path:
    fonts = "".join(f"  {k}: {{family: {v}}}\n" for k, v in FAMILIES.items())
    boxes = "".join(
        f"      - {{type: text, text: \"{word}\", x: 4, y: {6 + 18 * i}, w: 55, h: 14, "
        f"size: {size}, font: [arabic, hebrew, devanagari, thai], align: start}}\n"
        for i, word in enumerate(text.split("|") if text else WORDS.values()))
    return write_game(folder, {
        "game.yaml": "game: scripts\nname: Scripts\nfonts:\n" + fonts + extra,
        "cards.yaml": "components:\n  - id: card/scripts\n    kind: card\n    size: poker\n"
                      "    front:\n      - {type: rect, x: 0, y: 0, w: 100%, h: 100%, "
                      "fill: \"#ffffff\", bleed: true}\n" + boxes,
    })


def _font_file(family: str) -> Path:
    import fontpkg

    return Path(fontpkg.select_file(fontpkg.family(family), 400, "normal").path)


def _reference(word: str, family: str, rtl: bool, size: float) -> list[tuple[int, float]]:
    """HarfBuzz's own shaping of one word: (glyph id, x in mm from the word's start)."""
    import uharfbuzz as hb

    face = hb.Face(hb.Blob(_font_file(family).read_bytes()))
    font = hb.Font(face)
    buf = hb.Buffer()
    buf.add_str(word)
    buf.guess_segment_properties()
    buf.direction = "rtl" if rtl else "ltr"
    hb.shape(font, buf, {})
    em = size * PT / face.upem
    out, x = [], 0
    for info, pos in zip(buf.glyph_infos, buf.glyph_positions, strict=True):
        out.append((info.codepoint, (x + pos.x_offset) * em))
        x += pos.x_advance
    return out


def _runs(folder: Path) -> list[Text]:
    game = load_path(folder)
    faces = draw_component(game, game.components[0], Options())
    return [t for t in walk(faces.front.items) if isinstance(t, Text)]


def test_each_script_is_shaped_as_harfbuzz_shapes_it(tmp_path: Path) -> None:
    runs = _runs(_game(tmp_path / "g"))
    for script, phrase in WORDS.items():
        for word in phrase.split(" "):
            run = next(t for t in runs if t.text == word)
            assert run.glyphs, f"{word} is not shaped"
            ref = _reference(word, FAMILIES[script], script in RTL, run.size)
            assert [g[0] for g in run.glyphs] == [r[0] for r in ref], word
            for (_, x, _), (_, rx) in zip(run.glyphs, ref, strict=True):
                assert abs(x - rx) < 1e-3, word


def test_hebrew_runs_right_to_left_and_arabic_joins(tmp_path: Path) -> None:
    from fontTools.ttLib import TTFont

    runs = _runs(_game(tmp_path / "g"))
    hebrew = TTFont(_font_file("Heebo")).getBestCmap()
    word = next(t for t in runs if t.text == "השוק")
    glyph_names = TTFont(_font_file("Heebo")).getGlyphOrder()
    drawn = [glyph_names[g[0]] for g in word.glyphs]
    # drawn left to right: the last letter (qof) first, the first letter (shin) last
    assert drawn == [hebrew[ord(c)] for c in reversed("השוק")]
    xs = [g[1] for g in word.glyphs]
    assert xs == sorted(xs)
    arabic = TTFont(_font_file("Noto Sans Arabic"))
    cmap, order = arabic.getBestCmap(), arabic.getGlyphOrder()
    cairo = next(t for t in runs if t.text == "القاهرة")
    isolated = {cmap[ord(c)] for c in "القاهرة"}
    joined = [order[g[0]] for g in cairo.glyphs]
    # contextual forms (initial, medial, final), not the isolated letters of the character map
    assert sum(name not in isolated for name in joined) >= 4, joined
    # the two words of a right-to-left paragraph: the first word is the right one
    city = next(t for t in runs if t.text == "القاهرة")
    town = next(t for t in runs if t.text == "مدينة")
    assert city.x > town.x and abs(city.y - town.y) < 1e-9


def test_devanagari_and_thai_marks_and_conjuncts_are_placed(tmp_path: Path) -> None:
    runs = _runs(_game(tmp_path / "g"))
    conjunct = next(t for t in runs if t.text == "क्षत्रिय")
    assert len(conjunct.glyphs) < len("क्षत्रिय")  # the conjuncts are single glyphs
    water = next(t for t in runs if t.text == "น้ำใจ")
    # the tone mark sits over its consonant: it shares the consonant's advance (its own
    # advance is 0), so two glyphs start within the consonant's width
    xs = [g[1] for g in water.glyphs]
    assert len(set(round(x, 3) for x in xs)) < len(xs)


def test_start_and_end_follow_the_paragraph_direction(tmp_path: Path) -> None:
    folder = _game(tmp_path / "g", text="השוק|Market")
    runs = _runs(folder)
    hebrew = next(t for t in runs if t.text == "השוק")
    latin = next(t for t in runs if t.text == "Market")
    width = hebrew.glyphs[-1][1]  # the last glyph's start: well inside the word's width
    # in the box's own coordinates (the box is 55 mm wide)
    assert hebrew.x + width > 55 - 12  # Hebrew: the start is the right edge
    assert latin.x == pytest.approx(0.0)  # English: the left edge


def test_a_mixed_line_is_in_visual_order(tmp_path: Path) -> None:
    folder = _game(tmp_path / "g", text="go to השוק הגדול now", size=10)
    runs = [t for t in _runs(folder) if t.size == 10]  # the box's, not the version mark
    assert len({t.y for t in runs}) == 1  # one line
    xs = {t.text.strip(): t.x for t in runs}
    # left to right: "go to", then the Hebrew words in reverse, then "now"
    assert xs["go to"] < xs["הגדול"] < xs["השוק"] < xs["now"]


def test_the_pdf_keeps_the_words_as_text(tmp_path: Path) -> None:
    result = build_game(_game(tmp_path / "g"), tmp_path / "out", ("pdf",))
    with pymupdf.open(result.pdf) as doc:
        text = doc[0].get_text()
    for phrase in WORDS.values():
        for word in phrase.split(" "):
            assert word in text or word[::-1] in text, word


def _pdf_png(pdf: Path, dpi: int) -> Image.Image:
    return _page(pdf, dpi).convert("L")


def _page(pdf: Path, dpi: int) -> Image.Image:
    """The PDF's first page as pixels (PDFium, which irata installs: no system tool)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        return doc[0].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def _svg_png(svg: Path, dpi: int) -> Image.Image:
    out = subprocess.run(["rsvg-convert", "-d", str(dpi), "-p", str(dpi), "-b", "white",
                          str(svg)], capture_output=True, check=True).stdout
    return Image.open(io.BytesIO(out)).convert("L")


def _need(tool: str) -> None:
    if shutil.which(tool) is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must install {tool} (see .ci/run)")
        pytest.skip(f"{tool} is not installed")


def test_the_pdf_and_the_svg_draw_the_same_glyphs_in_the_same_places(tmp_path: Path) -> None:
    """The card in four scripts, rasterised from the PDF (PDFium) and from the SVG
    (rsvg-convert: the SVG draws shaped glyphs as outlines, so any renderer shows the
    same): the pictures agree within anti-aliasing, and the ink is where HarfBuzz put it."""
    _need("rsvg-convert")
    result = build_game(_game(tmp_path / "g"), tmp_path / "out")
    dpi = 150
    pdf = _pdf_png(result.pdf, dpi)
    svg = _svg_png(sorted(result.svg_dir.glob("sheet-*-front.svg"))[0], dpi)
    assert pdf.size == svg.size
    # the card's text boxes (the sheet's own lettering is another matter: rsvg-convert does
    # not read the fonts an SVG embeds, so it sets Latin text in a font of its own)
    sheet = json.loads(result.manifest.read_text())["sheets"][0]
    x, y, w, _ = (float(v) for v in next(p for p in sheet["placements"]
                                         if p["face"] == "front")["trim_mm"])
    px = dpi / 25.4
    box = (round(x * px), round((y + 5) * px), round((x + w) * px), round((y + 80) * px))
    pdf, svg = pdf.crop(box), svg.crop(box)
    diff = ImageChops.difference(pdf, svg)
    hist = diff.histogram()
    total = sum(hist)
    off = sum(hist[64:])  # pixels that differ by more than a quarter of the range
    ink = sum(pdf.point(lambda v: 255 if v < 128 else 0).histogram()[255:])
    assert ink > 2000  # there is text on the page
    assert off / total < 0.002 and off < ink * 0.05, (off, ink)


def test_a_browser_shows_the_svg_as_the_pdf_prints(tmp_path: Path) -> None:
    """The same comparison with Chromium (headless), where it is installed: a browser's view
    of the SVG sheet, its own shaping never asked, agrees with the PDF."""
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("chromium is not installed")
    result = build_game(_game(tmp_path / "g"), tmp_path / "out")
    svg = sorted(result.svg_dir.glob("sheet-*-front.svg"))[0]
    shot = tmp_path / "shot.png"
    # 96 CSS pixels an inch: an A4 sheet is 794 x 1123
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                    "--hide-scrollbars", "--window-size=794,1123", f"--screenshot={shot}",
                    svg.as_uri()], capture_output=True, timeout=120, check=True)
    browser = Image.open(shot).convert("L")
    pdf = _pdf_png(result.pdf, 96)
    sheet = json.loads(result.manifest.read_text())["sheets"][0]
    x, y, w, _ = (float(v) for v in next(p for p in sheet["placements"]
                                         if p["face"] == "front")["trim_mm"])
    px = 96 / 25.4
    box = (round(x * px), round((y + 5) * px), round((x + w) * px), round((y + 80) * px))
    diff = ImageChops.difference(pdf.crop(box), browser.crop(box)).histogram()
    ink = sum(pdf.crop(box).point(lambda v: 255 if v < 128 else 0).histogram()[255:])
    off = sum(diff[64:])
    assert ink > 800 and off < ink * 0.08, (off, ink)


def test_a_character_no_font_of_the_list_has_is_refused_where_it_is(tmp_path: Path) -> None:
    folder = _game(tmp_path / "g", text="שלום 北京")
    r = run_cli("check", "--components", str(folder))
    assert r.returncode == 2
    line = r.stderr.strip().splitlines()[-1]
    assert "cards.yaml:" in line and "'北' (U+5317" in line and "Traceback" not in r.stderr


def test_each_character_takes_the_first_font_of_the_list_that_has_it(tmp_path: Path) -> None:
    folder = _game(tmp_path / "g", text="Shalom שלום")
    game = load_path(folder)
    runs = _runs(folder)
    heebo = game.fonts["hebrew"]
    shalom = next(t for t in runs if t.text == "שלום")
    latin = next(t for t in runs if t.text.strip() == "Shalom")
    # Noto Sans Arabic has Latin letters too: the first font with the character wins
    assert latin.font == game.fonts["arabic"] and shalom.font == heebo


def test_colour_emoji_print_in_colour_in_the_pdf_and_the_svg(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    (folder / "fonts").mkdir(parents=True)
    shutil.copy(EXAMPLE / "fonts" / "NotoColorEmoji-Lantern.ttf", folder / "fonts")
    write_game(folder, {
        "game.yaml": "game: emoji\nname: Emoji\nfonts:\n"
                     "  emoji: fonts/NotoColorEmoji-Lantern.ttf\n",
        "cards.yaml": "components:\n  - id: card/e\n    kind: card\n    size: poker\n"
                      "    front:\n      - {type: text, text: \"Lantern 🏮 camel 🐪\", x: 4, "
                      "y: 10, w: 55, h: 30, size: 30, font: [body, emoji]}\n",
    })
    result = build_game(folder, tmp_path / "out")
    page = _colour_png(result.pdf)
    reds = [p for p in page.get_flattened_data() if p[0] > 180 and p[1] < 90 and p[2] < 90]
    assert len(reds) > 200  # the red paper lantern
    svg = sorted(result.svg_dir.glob("sheet-*-front.svg"))[0].read_text()
    assert "data:image/png;base64," in svg
    with pymupdf.open(result.pdf) as doc:
        assert doc[0].get_images()
        assert "Lantern" in doc[0].get_text()


def _colour_png(pdf: Path) -> Image.Image:
    return _page(pdf, 100)


DEBIAN_EMOJI = Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")


def test_debians_whole_colour_emoji_font_prints(tmp_path: Path) -> None:
    if not DEBIAN_EMOJI.is_file():
        if os.environ.get("CI"):
            pytest.fail("CI must install fonts-noto-color-emoji (see .ci/run)")
        pytest.skip("fonts-noto-color-emoji is not installed")
    folder = tmp_path / "g"
    (folder / "fonts").mkdir(parents=True)
    shutil.copy(DEBIAN_EMOJI, folder / "fonts")
    write_game(folder, {
        "game.yaml": "game: emoji\nname: Emoji\nfonts:\n  emoji: fonts/NotoColorEmoji.ttf\n",
        "cards.yaml": "components:\n  - id: card/e\n    kind: card\n    size: poker\n"
                      "    front:\n      - {type: text, text: \"Go 👍🏽 🍎\", x: 4, y: 10, w: 55, "
                      "h: 30, size: 30, font: [body, emoji]}\n",
    })
    result = build_game(folder, tmp_path / "out", ("pdf",))
    page = _colour_png(result.pdf)
    reds = [p for p in page.get_flattened_data() if p[0] > 180 and p[1] < 80 and p[2] < 80]
    assert len(reds) > 200  # the red apple
    runs = _runs(folder)
    thumb = next(t for t in runs if t.text == "👍🏽")
    assert len(thumb.glyphs) == 1  # the thumb and its skin tone: one glyph


def test_a_colr_font_prints_its_layers_in_their_colours(tmp_path: Path) -> None:
    """COLR/CPAL: a font made here whose one glyph is two layers, red and blue."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    def box(x0: int, x1: int) -> Any:
        pen = TTGlyphPen(None)
        pen.moveTo((x0, 0))
        pen.lineTo((x0, 700))
        pen.lineTo((x1, 700))
        pen.lineTo((x1, 0))
        pen.closePath()
        return pen.glyph()

    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder([".notdef", "space", "star", "left", "right"])
    fb.setupCharacterMap({0x20: "space", 0x2605: "star"})
    fb.setupGlyf({".notdef": box(0, 500), "space": TTGlyphPen(None).glyph(),
                  "star": box(0, 900), "left": box(0, 450), "right": box(450, 900)})
    # advance and left side bearing (a glyph's leftmost point, as the outline has it)
    fb.setupHorizontalMetrics({n: (1000, 450 if n == "right" else 0)
                               for n in fb.font.getGlyphOrder()})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Irata Colour", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    fb.setupCOLR({"star": [("left", 0), ("right", 1)]})
    fb.setupCPAL([[(1.0, 0.0, 0.0, 1.0), (0.0, 0.0, 1.0, 1.0)]])
    folder = tmp_path / "g"
    (folder / "fonts").mkdir(parents=True)
    fb.save(str(folder / "fonts" / "colour.ttf"))
    write_game(folder, {
        "game.yaml": "game: colr\nname: Colr\nfonts:\n  star: fonts/colour.ttf\n",
        "cards.yaml": "components:\n  - id: card/c\n    kind: card\n    size: poker\n"
                      "    front:\n      - {type: text, text: \"★\", x: 4, y: 10, w: 55, "
                      "h: 40, size: 60, font: star}\n",
    })
    result = build_game(folder, tmp_path / "out")
    data = list(_colour_png(result.pdf).get_flattened_data())
    assert sum(1 for p in data if p[0] > 200 and p[2] < 60) > 300  # the red layer
    assert sum(1 for p in data if p[2] > 200 and p[0] < 60) > 300  # the blue one
    svg = sorted(result.svg_dir.glob("sheet-*-front.svg"))[0].read_text().lower()
    assert 'fill="#ff0000"' in svg and 'fill="#0000ff"' in svg


def test_a_hebrew_game_name_in_the_sheet_furniture_is_shaped(tmp_path: Path) -> None:
    from fontTools.ttLib import TTFont

    from generator.fonts import sheet_marks

    folder = _game(tmp_path / "g", extra="")
    (folder / "game.yaml").write_text(
        (folder / "game.yaml").read_text(encoding="utf-8").replace("name: Scripts",
                                                                  "name: השוק")
        .replace("fonts:\n", "fonts:\n  body: {family: Heebo}\n"), encoding="utf-8")
    game = load_path(folder)
    marks = sheet_marks(game, [Text(100, 200, "השוק", "Helvetica", 9, "#000000", "middle")])
    assert len(marks) == 1 and isinstance(marks[0], Text) and marks[0].glyphs
    heebo = TTFont(_font_file("Heebo"))
    names = [heebo.getGlyphOrder()[g[0]] for g in marks[0].glyphs]
    assert names == [heebo.getBestCmap()[ord(c)] for c in reversed("השוק")]
    width = marks[0].glyphs[-1][1]
    assert marks[0].x < 100 < marks[0].x + width + 3  # centred on its anchor


@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_a_damaged_font_for_shaped_text_is_refused_in_one_line(data: st.DataObject) -> None:
    """Hebrew set in a font whose bytes were changed (its shaping tables among them): it
    prints, or it is refused with a located error; never a traceback."""
    import tempfile

    from components.errors import DefinitionError, InputError

    font = bytearray(_font_file("Heebo").read_bytes())
    for _ in range(data.draw(st.integers(1, 6), label="mutations")):
        at = data.draw(st.integers(0, len(font) - 1), label="at")
        font[at:at + 8] = bytes(data.draw(st.binary(min_size=8, max_size=8), label="bytes"))
    with tempfile.TemporaryDirectory() as base:
        folder = write_game(Path(base) / "g", {
            "game.yaml": "game: bad\nname: Bad\nfonts:\n  body: fonts/f.ttf\n",
            "cards.yaml": "components:\n  - id: c/a\n    kind: card\n    size: poker\n"
                          "    front:\n      - {type: text, text: \"שלום עולם\", x: 4, y: 4, "
                          "w: 50, h: 20, size: 12}\n",
        })
        (folder / "fonts").mkdir()
        (folder / "fonts" / "f.ttf").write_bytes(bytes(font))
        try:
            build_game(folder, Path(base) / "out")
        except (DefinitionError, InputError) as exc:
            assert str(exc).strip() and "\n" not in str(exc).strip()


def test_a_colrv1_font_is_refused_rather_than_printing_nothing(tmp_path: Path) -> None:
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    pen = TTGlyphPen(None)
    for x, y in ((0, 0), (0, 700), (900, 700), (900, 0)):
        (pen.lineTo if x or y else pen.moveTo)((x, y))
    pen.closePath()
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder([".notdef", "space", "star", "box"])
    fb.setupCharacterMap({0x20: "space", 0x2605: "star"})
    empty = TTGlyphPen(None).glyph()
    fb.setupGlyf({".notdef": empty, "space": empty, "star": empty, "box": pen.glyph()})
    fb.setupHorizontalMetrics({n: (1000, 0) for n in fb.font.getGlyphOrder()})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Irata Paint", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    fb.setupCOLR({"star": {"Format": 10, "Glyph": "box",
                           "Paint": {"Format": 2, "PaletteIndex": 0, "Alpha": 1.0}}})
    fb.setupCPAL([[(1.0, 0.0, 0.0, 1.0)]])
    folder = tmp_path / "g"
    (folder / "fonts").mkdir(parents=True)
    fb.save(str(folder / "fonts" / "paint.ttf"))
    write_game(folder, {
        "game.yaml": "game: paint\nname: Paint\nfonts:\n  star: fonts/paint.ttf\n",
        "cards.yaml": "components:\n  - id: card/c\n    kind: card\n    size: poker\n"
                      "    front:\n      - {type: text, text: \"★\", x: 4, y: 10, w: 55, "
                      "h: 40, size: 60, font: star}\n",
    })
    r = run_cli("check", "--components", str(folder))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "game.yaml:" in r.stderr and "COLRv1" in r.stderr
