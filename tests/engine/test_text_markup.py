"""Inline styles in a text: italic, spans of colour, size and font, keywords, escapes, and
hyphenation, measured and placed as the backends print them."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import text as t
from generator.drawing import Text

ICONS = frozenset({"food", "energy"})
PLAIN = t.setting(("Helvetica",), ("Helvetica-Bold",), ("Helvetica-Oblique",),
                  ("Helvetica-BoldOblique",), (("title", ("Times-Bold",)),),
                  (("food", "#3c9a3c"),))


def words(text: str, fonts: t.Setting = PLAIN) -> list[tuple[str, bool, bool, str | None]]:
    return [(p.text, p.bold, p.italic, p.color) for p in t.tokenize(text, ICONS, fonts)
            if p.kind == "word"]


def runs(text: str, fonts: t.Setting = PLAIN, w: float = 80) -> list[Text]:
    prims, _ = t.text_box(text, fonts, ICONS, w, 30, 10, 5, 1.2, "left", "top", "#000000")
    return [p for p in prims if isinstance(p, Text)]


def test_stars_and_underscores_set_italic() -> None:
    assert words("a *b* c") == [("a", False, False, None), ("b", False, True, None),
                                ("c", False, False, None)]
    assert words("_Sacred_ **Tree**") == [("Sacred", False, True, None),
                                          ("Tree", True, False, None)]
    fonts = {r.text.strip(): r.font for r in runs("a *b* **c**") if r.text.strip()}
    assert fonts == {"a": "Helvetica", "b": "Helvetica-Oblique", "c": "Helvetica-Bold"}


def test_lone_marks_and_words_with_underscores_print_as_written() -> None:
    assert [w[0] for w in words("5 * 3 = 15")] == ["5", "*", "3", "=", "15"]
    assert words("see snake_case_name") == [("see", False, False, None),
                                            ("snake_case_name", False, False, None)]


def test_a_backslash_prints_the_mark_after_it() -> None:
    assert [w[0] for w in words(r"\*not italic\* \{food\} \[x\]{bold} a\\b")] == [
        "*not", "italic*", "{food}", "[x]{bold}", "a\\b"]


def test_spans_set_colour_size_and_font() -> None:
    got = runs("[Food]{color=food bold} and [big]{size=150%} in [Title]{font=title}")
    food = next(r for r in got if r.text == "Food")
    assert (food.color, food.font) == ("#3c9a3c", "Helvetica-Bold")
    big = next(r for r in got if r.text == "big")
    assert big.size == pytest.approx(15.0)
    assert next(r for r in got if r.text == "Title").font == "Times-Bold"
    # a line holding a larger span is taller: the block is measured with it
    size, lines, _ = t.fit("[big]{size=200%}\nsmall", PLAIN, ICONS, 80, 100, 10, 5, 1.2)
    assert t.lines_height(lines, size, 1.2) > t.block_height(len(lines), size, 1.2)


def test_a_span_that_cannot_be_set_is_named() -> None:
    colours = dict(PLAIN.colours)
    assert "unknown colour 'nope'" in t.markup_problem("[x]{color=nope}", colours, ["title"])
    assert "size" in t.markup_problem("[x]{size=9000%}", colours, ["title"])
    assert "unknown font" in t.markup_problem("[x]{font=fancy}", colours, ["title"])
    assert t.markup_problem("[x]{color=food italic}", colours, ["title"]) == ""


def test_keywords_are_styled_wherever_they_appear() -> None:
    kw = t.setting(("Helvetica",), ("Helvetica-Bold",),
                   keywords=(("Food", t.SpanStyle(bold=True, color="#00aa00")),
                             ("Land Grant", t.SpanStyle(italic=True)),))
    got = words("Food, more Food. Foods and the Land Grant", kw)
    assert ("Food", True, False, "#00aa00") in got and ("Foods", False, False, None) in got
    assert got.count(("Food", True, False, "#00aa00")) == 2
    assert ("Land", False, True, None) in got and ("Grant", False, True, None) in got
    # a keyword inside an icon's name is the icon, not the keyword
    kw2 = t.setting(("Helvetica",), ("Helvetica-Bold",),
                    keywords=(("food", t.SpanStyle(bold=True)),))
    assert [p.kind for p in t.tokenize("{food}", ICONS, kw2)] == ["icon"]


def test_long_words_break_with_a_hyphen_when_hyphenation_is_on() -> None:
    text = "Extraordinarily unbelievable characteristics"
    on = t.setting(("Helvetica",), ("Helvetica-Bold",), hyphenate="en")
    size, lines, fit = t.fit(text, on, ICONS, 18, 40, 9, 9, 1.2)
    shown = ["".join(p.text for p in line) for line in lines]
    assert fit.fits and any(line.endswith("-") for line in shown)
    assert "".join(shown).replace("-", "").replace(" ", "") == text.replace(" ", "")
    for line in lines:
        assert t.line_width(line, on, size) <= 18 + 1e-6
    # off (the default): the words stay whole and the box shrinks instead
    _, lines, _ = t.fit(text, PLAIN, ICONS, 18, 40, 9, 4, 1.2)
    assert not any("".join(p.text for p in line).endswith("-") for line in lines)


def test_keywords_and_hyphenation_come_from_game_yaml(tmp_path: Path) -> None:
    from components import load_path
    from generator.draw import Options, draw_component
    from generator.drawing import walk

    (tmp_path / "game.yaml").write_text(
        "game: kw\nname: KW\npalette: {food: \"#3c9a3c\"}\nhyphenate: en\n"
        "keywords:\n  Food: {bold: true, color: food}\n", encoding="utf-8")
    (tmp_path / "cards.yaml").write_text(
        "components:\n  - id: c/a\n    kind: card\n    size: poker\n    front:\n"
        "      - {type: text, text: \"Gain Food: extraordinarily characteristically\", "
        "x: 2, y: 2, w: 20, h: 40, size: 10}\n", encoding="utf-8")
    game = load_path(tmp_path)
    faces = draw_component(game, game.components[0], Options())
    got = [p for p in walk(faces.front.items) if isinstance(p, Text)]
    assert any(r.text == "Food" and r.color == "#3c9a3c" and r.font == "Helvetica-Bold"
               for r in got)
    assert any(r.text.endswith("-") for r in got)


@pytest.mark.parametrize("yaml_line, message", [
    ("hyphenate: klingon", "hyphenate must be a language"),
    ("keywords: {Food: {colour: green}}", "colour"),
    ("keywords: {Food: {size: 2000%}}", "size must be a percentage"),
    ("keywords: {Food: bold}", "needs a style"),
])
def test_bad_text_settings_are_refused_where_they_are(tmp_path: Path, yaml_line: str,
                                                      message: str) -> None:
    import subprocess
    import sys

    (tmp_path / "game.yaml").write_text(f"game: kw\nname: KW\n{yaml_line}\n", encoding="utf-8")
    (tmp_path / "cards.yaml").write_text(
        "components:\n  - id: c/a\n    kind: card\n    size: poker\n    front: []\n",
        encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "irata.cli", "check", "--components",
                        str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "game.yaml:" in r.stderr and message in r.stderr


def test_a_bad_span_is_refused_at_its_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "game.yaml").write_text("game: sp\nname: SP\n", encoding="utf-8")
    (tmp_path / "cards.yaml").write_text(
        "components:\n  - id: c/a\n    kind: card\n    size: poker\n    front:\n"
        "      - {type: text, text: \"a [b]{color=nope} c\", x: 2, y: 2, w: 40, h: 10}\n",
        encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "irata.cli", "check", "--components",
                        str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "cards.yaml:6:" in r.stderr and "unknown colour 'nope'" in r.stderr


MARKUP = st.lists(st.sampled_from(list("ab *_[]{}\\=%\n") + [
    "food", "energy", "color=food", "size=150%", "bold", "שלום", "مرحبا", "1", "{food*3}"]),
    max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=MARKUP, width=st.floats(5, 80))
def test_any_text_is_set_within_its_box_or_reported(text: str, width: float) -> None:
    """Whatever the markup (unbalanced, nested, escaped, right to left), a text box is laid
    out without error, and each line fits its width unless the fit says it does not."""
    on = t.setting(("Helvetica",), ("Helvetica-Bold",), colours=(("food", "#3c9a3c"),),
                   hyphenate="en")
    for fonts in (PLAIN, on):
        size, lines, fit = t.fit(text, fonts, ICONS, width, 40, 9, 5, 1.2)
        prims = t.render_lines(lines, fonts, size, 0, 0, width, 40, "start", "top", 1.2,
                               "#000000")
        if fit.fits:
            for line in lines:
                assert t.line_width(line, fonts, size) <= width + 1e-6
        for p in prims:
            if isinstance(p, Text):
                assert p.color.startswith("#")
