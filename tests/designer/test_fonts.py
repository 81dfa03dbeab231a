"""A game's own fonts: text in any script prints with a font that has it, as real text in the
PDF and in the SVG (its glyphs embedded); text a font lacks is refused, never a box."""

from __future__ import annotations

import base64
import io
import os
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from fontTools.ttLib import TTFont

from components import load_path
from components.errors import DefinitionError

SVG = "{http://www.w3.org/2000/svg}"

GREEK = "Καλημέρα κόσμε"
CYRILLIC = "Съешь ещё булок"
CJK = "日の出"

GAME = """\
game: scripts
name: Scripts
fonts:
{fonts}
"""

CARDS = """\
layouts:
  face:
    - {{type: text, text: "${{title}}", x: 3, y: 3, w: 57, h: 10, size: 11, font: bold}}
    - {{type: text, text: "${{text}}", x: 3, y: 16, w: 57, h: 30, size: 10}}
defaults: {{kind: card, size: poker, front: face}}
components:
{cards}
"""


def printed(folder: Path) -> Path:
    """The first PDF a game's build wrote (one-sided cards print from GAME-single-sided.pdf),
    as its manifest lists them."""
    import json

    return folder / json.loads((folder / "manifest.json").read_text())["files"][0]["file"]


def pdf_text(folder: Path) -> str:
    """The text of every page of every PDF the game's build wrote."""
    import json

    files = json.loads((folder / "manifest.json").read_text())["files"]
    out = []
    for f in files:
        with pymupdf.open(folder / f["file"]) as doc:
            out.extend(page.get_text() for page in doc)
    return "\n".join(out)


def svg_texts(folder: Path) -> list[tuple[str, str]]:
    """(text, font-family) of every text element of every SVG sheet."""
    out = []
    for f in sorted(folder.glob("*.svg")):
        for el in ET.parse(f).getroot().iter(f"{SVG}text"):
            out.append(("".join(el.itertext()), el.get("font-family", "")))
    return out


def svg_fonts(folder: Path) -> dict[str, TTFont]:
    """The fonts embedded in the SVG sheets as @font-face data: family -> font."""
    fonts: dict[str, TTFont] = {}
    for f in sorted(folder.glob("*.svg")):
        for css in ET.parse(f).getroot().iter(f"{SVG}style"):
            for fam, data in re.findall(r"font-family:'([^']+)';src:url\(data:font/ttf;"
                                        r"base64,([A-Za-z0-9+/=]+)\)", css.text or ""):
                fonts[fam] = TTFont(io.BytesIO(base64.b64decode(data)))
    return fonts


def make_game(game_dir: Any, fonts: str, cards: list[str]) -> Path:
    """A game whose game.yaml has ``fonts:`` (lines, any indent) and one card per item."""
    font_lines = "\n".join("  " + ln.strip() for ln in fonts.strip().splitlines())
    return game_dir({
        "game.yaml": GAME.format(fonts=font_lines),
        "cards.yaml": CARDS.format(cards="\n".join(f"  - {c}" for c in cards)),
    })


def assert_printed(out: Path, game: str, text: str) -> None:
    """``text`` is text in the PDF and in the SVG, and the SVG carries its glyphs."""
    assert text in pdf_text(out / game)
    texts = svg_texts(out / game / "svg")
    runs = [(t, fam) for t, fam in texts if any(ch in t for ch in text.replace(" ", ""))]
    assert text in " ".join(t for t, _ in texts)
    embedded = svg_fonts(out / game / "svg")
    for t, fam in runs:
        name = fam.split(",")[0].strip().strip("'")  # the first family: the embedded font
        assert name in embedded, f"{fam} is not embedded"
        cmap = embedded[name].getBestCmap()
        assert all(ord(ch) in cmap for ch in t if ch != " ")


def test_greek_and_cyrillic_print_with_a_package_font(game_dir: Any, builder: Any,
                                                      tmp_path: Path) -> None:
    folder = make_game(game_dir, """
      body: {family: Fira Sans}
      bold: {family: Fira Sans, weight: bold}
    """, [f'{{id: greek, title: "Αθήνα", text: "{GREEK}"}}',
          f'{{id: cyrillic, title: "Москва", text: "{CYRILLIC}"}}'])
    out = tmp_path / "out"
    builder(folder, out)
    for text in (GREEK, CYRILLIC, "Αθήνα", "Москва"):
        assert_printed(out, "scripts", text)
    with pymupdf.open(printed(out / "scripts")) as doc:
        names = {f[3] for f in doc[0].get_fonts()}
    # embedded as subsets (the six-letter tag), never the whole font
    assert any(re.fullmatch(r"[A-Z]{6}\+FiraSans-Regular", n) for n in names), names
    assert any(re.fullmatch(r"[A-Z]{6}\+FiraSans-Bold", n) for n in names), names


def test_an_otf_file_in_the_game_folder_prints_cjk(game_dir: Any, builder: Any,
                                                   font_maker: Any, tmp_path: Path) -> None:
    """A designer's own OpenType (CFF) font: cut down, turned into TrueType outlines for the
    PDF, and embedded in the SVG."""
    folder = make_game(game_dir, """
      body: fonts/Sun.otf
    """, [f'{{id: sun, title: Sun, text: "{CJK} 東京"}}'])
    font_maker(folder / "fonts" / "Sun.otf", CJK + "東京Sun", "Sun Test")
    out = tmp_path / "out"
    builder(folder, out)
    assert_printed(out, "scripts", CJK)
    assert_printed(out, "scripts", "東京")
    # the SVG's embedded font holds only what the sheet sets, not the whole font
    embedded = next(iter(svg_fonts(out / "scripts" / "svg").values()))
    assert ord("日") in embedded.getBestCmap() and "glyf" in embedded


def test_a_truetype_file_of_a_collection_face(game_dir: Any, builder: Any, font_maker: Any,
                                              tmp_path: Path) -> None:
    from fontTools.ttLib import TTCollection

    folder = make_game(game_dir, """
      body: {file: fonts/Pair.ttc, index: 1}
    """, ['{id: b, title: B, text: "Ωμέγα"}'])
    a = TTFont(font_maker(tmp_path / "a.ttf", "AB", "Pair A", cff=False))
    b = TTFont(font_maker(tmp_path / "b.ttf", "BΩμέγα", "Pair B", cff=False))
    coll = TTCollection()
    coll.fonts = [a, b]
    (folder / "fonts").mkdir()
    coll.save(str(folder / "fonts" / "Pair.ttc"))
    out = tmp_path / "out"
    builder(folder, out)
    assert_printed(out, "scripts", "Ωμέγα")


def test_a_variable_font_prints_its_default_instance(game_dir: Any, builder: Any,
                                                   font_maker: Any, tmp_path: Path) -> None:
    folder = make_game(game_dir, "body: fonts/Flex.ttf", ['{id: v, title: V, text: "Ωμέγα"}'])
    font_maker(folder / "fonts" / "Flex.ttf", "VΩμέγα", "Flex Test", variable=True)
    assert "fvar" in TTFont(folder / "fonts" / "Flex.ttf")
    out = tmp_path / "out"
    builder(folder, out)
    assert_printed(out, "scripts", "Ωμέγα")
    assert all("fvar" not in f for f in svg_fonts(out / "scripts" / "svg").values())


SYSTEM_CJK = [
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc"),
    Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
]


def test_cjk_with_a_real_cjk_font(game_dir: Any, builder: Any, tmp_path: Path) -> None:
    """A real CJK font (Debian's fonts-noto-cjk, which CI installs): a 20 MB collection of
    PostScript-outlined faces prints its glyphs, found as text in the PDF and the SVG."""
    found = next((p for p in SYSTEM_CJK if p.is_file()), None)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install a CJK font (fonts-noto-cjk): see .ci/run")
        pytest.skip("no CJK font on this machine (apt-get install fonts-noto-cjk)")
    folder = make_game(game_dir, f"""
      body: {{file: fonts/{found.name}}}
    """, [f'{{id: sun, title: "日本", text: "{CJK}、東京タワー。"}}'])
    (folder / "fonts").mkdir()
    shutil.copy(found, folder / "fonts" / found.name)  # a link out of the folder is refused
    out = tmp_path / "out"
    builder(folder, out)
    assert_printed(out, "scripts", CJK + "、東京タワー。")
    # the PDF embeds a few kilobytes of it, not 20 MB
    assert printed(out / "scripts").stat().st_size < 200_000
    pix = pymupdf.open(printed(out / "scripts"))[0].get_pixmap(dpi=40)
    assert len(set(pix.samples)) > 2  # something was drawn


# --- no silent boxes ---------------------------------------------------------------------------

def test_a_standard_font_refuses_greek_naming_the_character(game_dir: Any, cli: Any) -> None:
    folder = make_game(game_dir, "{}", [
        '{id: fine, title: Fine, text: "Plain Latin-1: café, naïve, £5"}',
        '{id: greek, title: Greek, text: "Ein λ hier"}'])
    for command in ("check", "print"):
        r = cli(command, "--components", str(folder), "--out", str(folder.parent / "out"))
        if command == "check":
            r = cli(command, "--components", str(folder))
        assert r.returncode == 2, r.stderr
        lines = r.stderr.strip().splitlines()
        msg = lines[-1]
        assert msg.startswith("error: ") and "Traceback" not in r.stderr
        # FILE:LINE:COL of the text: cards.yaml, the line of the Greek card, the text key
        m = re.search(r"cards\.yaml:(\d+):(\d+): ", msg)
        assert m, msg
        line = (folder / "cards.yaml").read_text().splitlines()[int(m.group(1)) - 1]
        assert "Ein λ hier" in line and line[int(m.group(2)) - 1:].startswith("text")
        assert "'λ' (U+03BB GREEK SMALL LETTER LAMDA)" in msg
        assert "Helvetica (body)" in msg
        assert "Fira Sans" in msg  # an installed font that has it


def test_a_game_font_that_lacks_a_character_is_refused(game_dir: Any, font_maker: Any) -> None:
    folder = make_game(game_dir, """
      body: fonts/Sun.otf
      title: {family: Fira Sans}
    """, [f'{{id: sun, title: Sun, text: "{CJK} Ж"}}'])
    font_maker(folder / "fonts" / "Sun.otf", CJK + "Sun", "Sun Test")
    game = load_path(folder)
    from generator.build import draw_all
    from generator.draw import Options

    with pytest.raises(DefinitionError) as exc:
        draw_all(game, game.components, Options())
    msg = str(exc.value)
    assert "'Ж' (U+0416 CYRILLIC CAPITAL LETTER ZHE)" in msg
    assert "fonts/Sun.otf (body, bold, italic)" in msg  # bold and italic follow body
    assert "the game's 'title' font (Fira Sans)" in msg
    assert exc.value.file and exc.value.file.endswith("cards.yaml")


def test_bold_runs_are_checked_against_the_bold_font(game_dir: Any, font_maker: Any) -> None:
    folder = make_game(game_dir, """
      body: {family: Fira Sans}
      bold: Helvetica-Bold
    """, ['{id: x, title: X, text: "Fine Ω then **bold Ω**"}'])
    game = load_path(folder)
    from generator.build import draw_all
    from generator.draw import Options

    with pytest.raises(DefinitionError, match=r"U\+03A9 .*Helvetica-Bold \(bold\)"):
        draw_all(game, game.components, Options())


@pytest.mark.parametrize("spec, message", [
    ("body: ../outside.ttf", "must stay inside the game folder"),
    ("body: fonts/none.ttf", "does not exist in the game folder"),
    ("body: fonts/fake.ttf", "is not a TrueType or OpenType font"),
    ("body: Helvetca", "did you mean 'Helvetica'"),
    ("body: {family: Fira Snas}", "did you mean 'Fira Sans'"),
    ("body: {family: Fira Sans, weight: 250}", "weight 250 is not available"),
    ("body: {file: fonts/fake.ttf, family: Fira Sans}", "either 'file'"),
    ("body: {fiel: fonts/x.ttf}", "did you mean 'file'"),
])
def test_font_mistakes_are_located(game_dir: Any, spec: str, message: str) -> None:
    folder = make_game(game_dir, "  " + spec, ['{id: x, title: X, text: "x"}'])
    (folder / "fonts").mkdir()
    (folder / "fonts" / "fake.ttf").write_text("not a font")
    with pytest.raises(DefinitionError) as exc:
        load_path(folder)
    assert message in str(exc.value)
    assert exc.value.file and exc.value.file.endswith("game.yaml") and exc.value.line == 4


def test_a_game_name_outside_latin1_sets_the_sheets_in_the_games_font(
        game_dir: Any, builder: Any, cli: Any, tmp_path: Path) -> None:
    """The footer and the checklist name the game: a Greek name takes the game's own font."""
    folder = make_game(game_dir, "body: {family: Fira Sans}",
                       ['{id: a, title: A, text: "a", group: Κάρτες}'])
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text().replace(
        "name: Scripts", "name: Λάμπες") + "inventory:\n  - {group: Κάρτες, count: 1}\n")
    out = tmp_path / "out"
    builder(folder, out)
    text = pdf_text(out / "scripts")
    assert "Λάμπες · edition 1.0" in text and "Λάμπες: component checklist" in text
    assert "Κάρτες" in text
    # with only the standard fonts, the name is refused rather than printed as boxes
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text().replace(
        "  body: {family: Fira Sans}\n", "  {}\n"))
    (folder / "cards.yaml").write_text((folder / "cards.yaml").read_text())
    with pytest.raises(DefinitionError, match=r"'Λ' \(U\+039B .*Fira Sans"):
        builder(folder, tmp_path / "out2")
    r = cli("check", "--components", str(folder))
    assert r.returncode == 2 and "'Λ' (U+039B GREEK CAPITAL LETTER LAMDA)" in r.stderr


def test_a_cut_down_font_grows_when_the_text_does(game_dir: Any, builder: Any,
                                                  font_maker: Any, tmp_path: Path) -> None:
    """A CFF font is cut down to the game's characters; an edit that brings a new one (as in
    --watch) or another game using the same font file gets its glyphs, not boxes."""
    from reportlab.pdfbase import pdfmetrics

    folder = make_game(game_dir, "body: fonts/Sun.otf", ['{id: s, title: S, text: "日"}'])
    font_maker(folder / "fonts" / "Sun.otf", "日の出S", "Sun Test")
    builder(folder, tmp_path / "one")
    name = load_path(folder).fonts["body"]
    glyphs = pdfmetrics.getFont(name).face.charToGlyph
    assert ord("日") in glyphs and ord("出") not in glyphs  # cut to what the game holds
    (folder / "cards.yaml").write_text((folder / "cards.yaml").read_text().replace(
        'text: "日"', 'text: "日の出"'))
    assert load_path(folder).fonts["body"] == name  # the same font file, the same font
    builder(folder, tmp_path / "two")
    glyphs = pdfmetrics.getFont(name).face.charToGlyph
    assert all(ord(c) in glyphs for c in "日の出")
    assert_printed(tmp_path / "two", "scripts", "日の出")


def test_two_fonts_named_alike_inside_keep_their_own_glyphs(game_dir: Any, builder: Any,
                                                            font_maker: Any,
                                                            tmp_path: Path) -> None:
    """Two versions of one font (the same internal name, different glyphs) in two games
    printed by one process: each game prints with its own file's glyphs."""
    from reportlab.pdfbase import pdfmetrics

    names = []
    for k, chars in enumerate(("AΩ", "AЖ")):
        folder = make_game(game_dir, "body: fonts/Same.ttf",
                           [f'{{id: s, title: A, text: "{chars}"}}'])
        font_maker(folder / "fonts" / "Same.ttf", chars, "Same Name", cff=False)
        builder(folder, tmp_path / f"out{k}")
        assert_printed(tmp_path / f"out{k}", "scripts", chars)
        names.append(load_path(folder).fonts["body"])
    first, second = (pdfmetrics.getFont(n).face.charToGlyph for n in names)
    assert ord("Ω") in first and ord("Ж") not in first
    assert ord("Ж") in second and ord("Ω") not in second


def test_cjk_text_wraps_between_characters(game_dir: Any, font_maker: Any) -> None:
    """Chinese and Japanese set no spaces: lines break between characters, never before a
    closing mark."""
    from generator.build import draw_all
    from generator.draw import Options
    from generator.drawing import Text, walk

    sentence = "日の出、東京の出日。" * 3
    folder = make_game(game_dir, "body: fonts/Sun.otf",
                       [f'{{id: s, title: S, text: "{sentence}"}}'])
    font_maker(folder / "fonts" / "Sun.otf", sentence + "S", "Sun Test")
    game = load_path(folder)
    (faces,) = draw_all(game, game.components, Options())
    assert not [f for f in faces.fits if not f.fits]  # it fits: no overflow
    lines = [t.text for t in walk(faces.front.items) if isinstance(t, Text)
             and t.text[0] in sentence and t.text != "S"]
    assert len(lines) >= 2 and "".join(lines) == sentence
    assert not any(line[0] in "、。" for line in lines)
