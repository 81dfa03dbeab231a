"""docs/FORMAT.md and the schema cannot drift apart: the key tables are made from the schema."""

from __future__ import annotations

import pytest

from components import formatdoc, schema


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
    for etype, keys in schema.ELEMENT_KEYS.items():
        row = next(line for line in text.splitlines() if line.startswith(f"| `{etype}` |"))
        for key in keys:
            assert f"`{key}`" in row, (etype, key)
        for key, words in schema.CHOICES.items():
            if key in keys:
                assert ", ".join(f"`{w}`" for w in words) in row, (etype, key)


@pytest.mark.parametrize("change", ["element key", "element type", "component key", "choice"])
def test_a_schema_change_without_its_documentation_fails(
        monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    if change == "element key":
        monkeypatch.setitem(schema.ELEMENT_KEYS, "rect", (*schema.ELEMENT_KEYS["rect"], "glow"))
    elif change == "element type":
        monkeypatch.setitem(schema.ELEMENT_KEYS, "star", ("x", "y"))
    elif change == "component key":
        monkeypatch.setattr(schema, "RESERVED", (*schema.RESERVED, "finish"))
    else:
        monkeypatch.setitem(schema.CHOICES, "align", ("left", "center", "right", "justify"))
    if change == "choice":   # a new word shows in the table, which then differs from FORMAT.md
        written = formatdoc.blocks(formatdoc.FORMAT_MD.read_text(encoding="utf-8"))
        assert formatdoc.render()["elements"] != written["elements"]
    else:
        with pytest.raises(KeyError):
            formatdoc.render()


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
