"""The loader parses a game folder once per process, and sees every change to its files."""

from __future__ import annotations

from pathlib import Path

import pytest

import components.loader as loader
from components import load, load_path


@pytest.fixture()
def reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The folders the loader parses, in order."""
    seen: list[Path] = []
    real = loader._read

    def counting(folder: Path) -> loader.Game:
        seen.append(folder)
        return real(folder)

    monkeypatch.setattr(loader, "_read", counting)
    return seen


def test_a_folder_is_parsed_once_however_often_it_loads(deck_dir: Path,
                                                          reads: list[Path]) -> None:
    first = load_path(deck_dir)
    for _ in range(5):
        again = load_path(deck_dir)
        assert again.component("card/alpha").fields == first.component("card/alpha").fields
    load_path(deck_dir, errata=False)  # the errata-free game is the parse errata start from
    assert reads == [deck_dir.resolve()]


def test_a_changed_added_or_removed_file_is_read_again(deck_dir: Path,
                                                        reads: list[Path]) -> None:
    assert load_path(deck_dir).component("card/alpha").fields["title"] == "Alpha"
    cards = deck_dir / "cards.yaml"
    # the same length, written at once: only the bytes tell the two versions apart
    cards.write_text(cards.read_text().replace("title: Alpha", "title: Alphe", 1))
    assert load_path(deck_dir).component("card/alpha").fields["title"] == "Alphe"
    (deck_dir / "extra.yaml").write_text("data: {extra_rule: 3}\n")
    assert load_path(deck_dir).data["extra_rule"] == 3
    (deck_dir / "extra.yaml").unlink()
    assert "extra_rule" not in load_path(deck_dir).data
    assert len(reads) == 4


def test_each_load_has_its_own_components(deck_dir: Path) -> None:
    a = load_path(deck_dir)
    a.components[0].version = "9.9"
    a.components.pop()
    b = load_path(deck_dir)
    assert b.components[0].version == "1.0"
    assert len(b.components) == len(a.components) + 1


def test_naming_a_bundled_game_does_not_parse_every_game_yaml(
        monkeypatch: pytest.MonkeyPatch) -> None:
    load("muli"), load("mule")
    parsed: list[Path] = []
    real = loader.load_file

    def counting(path: Path, shown_as: str | None = None) -> object:
        parsed.append(path)
        return real(path, shown_as)

    monkeypatch.setattr(loader, "load_file", counting)
    for _ in range(3):
        assert load("muli").key == "muli"
        assert load("mule").key == "mule"
    assert parsed == []


def test_a_game_read_once_is_neither_kept_nor_copied(deck_dir: Path, reads: list[Path],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-off print (``read_once``) holds one copy of the game, and the reads after it
    are cached again."""
    monkeypatch.setattr(loader, "_CACHE", {})
    copies: list[object] = []
    real_own = loader._own
    monkeypatch.setattr(loader, "_own", lambda g: copies.append(g) or real_own(g))
    with loader.read_once():
        first = load_path(deck_dir)
        second = load_path(deck_dir)
    assert first is not second and reads == [deck_dir.resolve()] * 2
    assert not loader._CACHE and not copies
    assert first.component("card/alpha").fields == second.component("card/alpha").fields
    load_path(deck_dir)
    load_path(deck_dir)
    assert reads == [deck_dir.resolve()] * 3 and len(copies) == 2


def test_a_shared_load_is_the_cached_game_and_a_plain_load_a_copy(deck_dir: Path,
                                                                   reads: list[Path]) -> None:
    """A watch's rebuild takes the game as the loader keeps it; every other caller gets
    components of its own, so what it changes is not what the next load returns."""
    shared = load_path(deck_dir, shared=True)
    assert load_path(deck_dir, shared=True) is shared
    mine = load_path(deck_dir)
    assert mine is not shared and mine.components[0] is not shared.components[0]
    mine.components[0].version = "9.9"
    assert load_path(deck_dir, shared=True).components[0].version != "9.9"
    assert reads == [deck_dir.resolve()]
