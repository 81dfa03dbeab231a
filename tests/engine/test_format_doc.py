"""docs/FORMAT.md and the schema cannot drift apart: the key tables are made from the schema
and the element specs (components/elements.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from components import elements, formatdoc, schema


def test_format_md_holds_the_tables_the_schema_makes() -> None:
    written = formatdoc.blocks(formatdoc.FORMAT_MD.read_text(encoding="utf-8"))
    made = formatdoc.render()
    assert set(written) == set(made)
    for name, table in made.items():
        assert written[name] == table, (
            f"docs/FORMAT.md's '{name}' table differs from the schema: run "
            "`python -m components.formatdoc` to rewrite it")


def test_every_element_key_and_every_enumerated_word_is_in_format_md() -> None:
    text = formatdoc.FORMAT_MD.read_text(encoding="utf-8")
    for etype, spec in elements.SPECS.items():
        keys = spec.names
        row = next(line for line in text.splitlines() if line.startswith(f"| `{etype}` |"))
        for key in keys:
            assert f"`{key}`" in row, (etype, key)
        for key, words in schema.CHOICES.items():
            if key in keys:
                assert ", ".join(f"`{w}`" for w in words) in row, (etype, key)


@pytest.mark.parametrize("change", ["element key", "element type", "component key"])
def test_a_key_without_its_description_fails(monkeypatch: pytest.MonkeyPatch,
                                             change: str) -> None:
    rect = elements.SPECS["rect"]
    if change == "element key":
        glow = replace(rect, keys=(*rect.keys, elements.Key("glow", "colour", "")))
        monkeypatch.setitem(elements.SPECS, "rect", glow)
    elif change == "element type":
        monkeypatch.setitem(elements.SPECS, "blob", replace(rect, kind="blob", doc=""))
    else:
        monkeypatch.setattr(schema, "RESERVED", (*schema.RESERVED, "finish"))
    with pytest.raises(KeyError):
        formatdoc.render()


@pytest.mark.parametrize("change", ["element key", "element type", "choice"])
def test_a_spec_change_shows_in_the_table(monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    """FORMAT.md's table of elements is the specs': a described change to a spec changes it
    (and the first test then fails until `python -m components.formatdoc` rewrites it)."""
    rect, text = elements.SPECS["rect"], elements.SPECS["text"]
    if change == "element key":
        glow = replace(rect, keys=(*rect.keys, elements.Key("glow", "colour", "a halo")))
        monkeypatch.setitem(elements.SPECS, "rect", glow)
    elif change == "element type":
        monkeypatch.setitem(elements.SPECS, "blob", replace(rect, kind="blob", doc="a blob"))
    else:
        align = replace(text.key("align"), choices=("left", "center", "right", "justify"))
        keys = tuple(align if k.name == "align" else k for k in text.keys)
        monkeypatch.setitem(elements.SPECS, "text", replace(text, keys=keys))
    written = formatdoc.blocks(formatdoc.FORMAT_MD.read_text(encoding="utf-8"))
    made = formatdoc.render()["elements"]
    assert made != written["elements"]
    word = {"element key": "`glow` a halo", "element type": "| `blob` | a blob.",
            "choice": "`right`, `justify`"}[change]
    assert word in made


@pytest.mark.parametrize(("cid", "ok"), [
    ("production/acid-rain-storm", True), ("land/R01", True), ("a_b/c-d/9", True),
    ("a.b", False), ("a/../b", False), ("../x", False), ("-a", False), ("a//b", False),
    ("a/", False), ("a b", False),
])
def test_an_id_is_what_format_md_says(cid: str, ok: bool) -> None:
    text = formatdoc.FORMAT_MD.read_text(encoding="utf-8")
    assert "letters, digits and `- _ /`, each step between slashes starting with a letter " \
           "or a digit" in text
    assert bool(schema.ID_RE.match(cid)) == ok
