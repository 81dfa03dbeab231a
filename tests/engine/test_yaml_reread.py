"""YAML read from the parser's events, and a watch's re-read of only the items that changed:
both give what the composer's whole read gives, values and locations alike, and a mistake is
named at the same FILE:LINE:COL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from components import yamlloc
from components.errors import DefinitionError
from components.yamlloc import LocDict, LocList, load_text

ROOT = Path(__file__).resolve().parents[2]


def located(value: Any) -> Any:
    """A value with every position it carries, as plain data to compare."""
    if isinstance(value, LocDict):
        return ("map", value.mark, value.file, [(k, value.marks[k], located(v))
                                                for k, v in value.items()])
    if isinstance(value, LocList):
        return ("seq", value.mark, value.file, list(value.marks),
                [located(v) for v in value])
    return (type(value).__name__, value)


def read(text: str) -> Any:
    """('ok', values with positions) or ('error', the message) as a whole read gives."""
    try:
        return ("ok", located(yamlloc._composed(text, "cards.yaml")))
    except DefinitionError as exc:
        return ("error", str(exc))


def events(text: str) -> Any:
    """The same through ``load_text`` (the event reader, the composer for what it leaves)."""
    try:
        return ("ok", located(load_text(text, "cards.yaml")))
    except DefinitionError as exc:
        return ("error", str(exc))


def kept(text: str) -> Any:
    """The same through a watch's read, which keeps the last read of the file."""
    try:
        return ("ok", located(yamlloc._load_kept(text, "cards.yaml", "/game/cards.yaml")))
    except DefinitionError as exc:
        return ("error", str(exc))


@pytest.fixture()
def watching(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlloc, "KEEP", True)
    monkeypatch.setattr(yamlloc, "_READ", {})


def test_every_bundled_and_example_file_reads_as_the_composer_reads_it() -> None:
    files = sorted(p for d in ("components", "examples", "tests")
                   for p in (ROOT / d).rglob("*.yaml"))
    assert len(files) > 50
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert events(text) == read(text), path


def test_anchors_merges_tags_and_mistakes_read_as_before() -> None:
    cases = [
        "base: &b {kind: card, size: poker}\ncomponents:\n  - {<<: *b, id: a}\n",
        "a: !!str 12\nb: [1, 2.5, true, ~, 2024-01-02]\n",
        "a: 1\na: 2\n",  # a key given twice
        "a: [1, 2\n",  # unclosed
        "a: .inf\n",
        "a: 1234567890123456789012345678901234567890\n",
        "--- 1\n--- 2\n",
        "a: &x [*x]\n",
        "? [1, 2]\n: 3\n",
        "",
        "# only a comment\n",
    ]
    for text in cases:
        assert events(text) == read(text), text


CARDS = "".join(["defaults: {kind: card, size: poker}\n", "components:\n"]
                + [f'  - {{id: "card/{i}", name: "Card {i}", body: "Draw {i}"}}\n'
                   for i in range(40)]
                + ["  - id: block/1\n", "    body: |\n", "      first line\n",
                   "      # not a comment: text\n", "  - id: block/2\n",
                   "layouts:\n", "  plain: []\n"])


def edited(text: str, line: int, new: str) -> str:
    lines = text.splitlines(keepends=True)
    lines[line] = new
    return "".join(lines)


EDITS = [
    (12, '  - {id: "card/10", name: "Card ten", body: "Draw two"}\n'),  # one card's text
    (12, '  - {id: "card/10", name: "Card ten", body: "Draw two\n'),  # broken: unclosed
    (12, '  - {id: "card/10", name: "Card ten", body: "Draw two"}\n'),  # mended
    (20, '  - {id: "card/18", name: "Card 18", body: "Draw", body: "Again"}\n'),  # twice
    (20, '  - {id: "card/18", name: "Card 18", body: "Draw 18"}\n'),
    (30, '  - {id: "new/1"}\n'),
    (30, "  # a card left out\n"),  # no longer an item: read whole
    (30, '  - {id: "card/28", count: 99999999999999999999999999999999999}\n'),
    (30, '  - {id: "card/28", name: &a "anchored"}\n'),  # an anchor: read whole
    (30, '  - {id: "card/28"}\n'),
    (44, "      second line\n"),  # inside the block text
    (44, "    title: the block's\n"),  # now a key of block/1
    (44, '  - {id: "card/x"}\n'),  # now an item
    (43, "x: 1\n"),  # less indented than the list: read whole
    (43, "      first line\n"),
    (2, "components:\n"),
    (1, "defaults: {kind: card, size: mini}\n"),  # outside the list: read whole
]


def test_a_watch_rereads_changed_items_as_a_whole_read_reads_the_file(watching: None) -> None:
    """Each save of a sequence of edits, good and bad: the watch's read gives the values,
    their positions and any mistake's FILE:LINE:COL that reading the whole file gives."""
    text = CARDS
    assert kept(text) == read(text)
    for line, new in EDITS:
        text = edited(text, line, new)
        assert kept(text) == read(text), (line, new)


def test_an_unchanged_item_is_kept_and_a_changed_one_read_again(watching: None) -> None:
    first = yamlloc._load_kept(CARDS, "cards.yaml", "/game/cards.yaml")
    text = edited(CARDS, 12, '  - {id: "card/10", name: "Card ten", body: "Draw two"}\n')
    again = yamlloc._load_kept(text, "cards.yaml", "/game/cards.yaml")
    assert again["components"][9] is first["components"][9]
    assert again["components"][10] is not first["components"][10]
    assert again["components"][10]["name"] == "Card ten"
    assert again["components"][10].mark == (13, 5)  # where it is in the file
    assert again["layouts"] is first["layouts"]


def test_a_reread_item_is_bounded_as_the_whole_file_is(watching: None,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The value bound counts the whole file, and the depth bound the item's depth in it."""
    monkeypatch.setattr(yamlloc, "MAX_NODES", 320)  # the file holds 301
    assert kept(CARDS) == read(CARDS) and read(CARDS)[0] == "ok"
    many = '  - {id: "card/10", tags: [' + ", ".join(["x"] * 40) + "]}\n"
    text = edited(CARDS, 12, many)
    assert read(text)[0] == "error" and "more than 320 values" in read(text)[1]
    assert kept(text) == read(text)
    monkeypatch.setattr(yamlloc, "MAX_DEPTH", 3)
    deep = '  - {id: "card/10", a: {b: 1}}\n'
    text = edited(CARDS, 12, deep)
    assert read(text)[0] == "error" and "nested more than 3 deep" in read(text)[1]
    assert kept(text) == read(text)


def test_a_watched_game_reloads_the_edited_card_and_names_its_mistake_where_it_is(
        watching: None, tmp_path: Path) -> None:
    """Through the loader, as ``irata print --watch`` reloads a game: the edited card's new
    text is read, the other cards are unchanged, and a mistake put into one card is named at
    the FILE:LINE:COL a fresh read names (and the next good save reads cleanly)."""
    from components import load_path
    from components.loader import _CACHE

    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.yaml").write_text("game: g\nname: G\n")
    layout = "layouts:\n  f:\n    - {type: text, text: '${name}', x: 1, y: 1, w: 40, h: 8}\n"
    cards = (layout + "defaults: {kind: card, size: poker, front: f}\ncomponents:\n"
             + "".join(f'  - {{id: "c/{i}", name: "Card {i}"}}\n' for i in range(30)))
    (folder / "cards.yaml").write_text(cards)
    first = load_path(folder)
    assert first.component("c/7").fields["name"] == "Card 7"
    path = folder / "cards.yaml"
    path.write_text(cards.replace('name: "Card 7"', 'name: "Seven"'))
    again = load_path(folder)
    assert again.component("c/7").fields["name"] == "Seven"
    assert [c.fields["name"] for c in again.components if c.id != "c/7"] == \
        [c.fields["name"] for c in first.components if c.id != "c/7"]
    assert again.component("c/7").where("name")[1:] == (13, 17)  # 5 lines before card 0
    path.write_text(cards.replace('  - {id: "c/7", name: "Card 7"}',
                                  '  - {id: "c/7", name: "Card 7", kind: crad}'))
    with pytest.raises(DefinitionError) as watched:
        load_path(folder)
    yamlloc._READ.clear()
    _CACHE.clear()
    with pytest.raises(DefinitionError) as fresh:
        load_path(folder)
    assert str(watched.value) == str(fresh.value)
    assert ":13:33: unknown kind 'crad'" in str(watched.value)  # the key kind: on line 13
    path.write_text(cards)
    assert load_path(folder).component("c/7").fields["name"] == "Card 7"
