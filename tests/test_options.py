"""irata/options.py: the plumbing every game's commands share."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion import games
from components.errors import InputError
from irata import options


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return str(tmp_path / "games.sqlite3")


def _mutagen_game(db: str) -> int:
    from companion.mutagen.data import load_rules
    from companion.mutagen.saved import new_setup

    saved, _ = options.create(db, "mutagen", new_setup(["Ann", "Bob"], load_rules()))
    return saved.id


def test_record_reads_checks_and_appends_in_one_transaction(db: str) -> None:
    game_id = _mutagen_game(db)
    seen: list[str] = []

    def build(state: dict[str, Any]) -> dict[str, Any]:
        # another writer is kept out while the entry is checked: the lock is already held
        other = sqlite3.connect(db, timeout=0.05, isolation_level=None)
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
        other.close()
        seen.append(str(state["scores"]["Ann"]))
        return {"player": "Ann", "points": 2, "why": ""}

    saved, data, state = options.record(db, game_id, "mutagen", "points", build)
    assert (saved.id, data["points"], state["scores"]["Ann"], seen) == (game_id, 2, 2, ["0"])


def test_a_refused_entry_changes_nothing(db: str) -> None:
    game_id = _mutagen_game(db)
    with options.open_store(db) as store:
        before = store.events(game_id)

    def refuse(state: dict[str, Any]) -> dict[str, Any]:
        raise InputError("no player 'Zed'")

    with pytest.raises(InputError, match="Zed"):
        options.record(db, game_id, "mutagen", "points", refuse)
    with options.open_store(db) as store:
        assert store.events(game_id) == before


def test_pick_names_the_game_from_the_registry(db: str) -> None:
    game_id = _mutagen_game(db)
    with options.open_store(db) as store:
        with pytest.raises(InputError, match=f"game {game_id} is a mutagen game, not Outer Earth"):
            options.pick(store, game_id, "outer-earth")
        with pytest.raises(InputError, match="no Das Störrische Muli game yet: start one with "
                                             "'irata play muli new --players A,B,C'"):
            options.pick(store, None, "muli")
    assert games.entry("muli").title == "Das Störrische Muli"


def test_the_inputs_of_a_saved_game_are_not_typed_twice() -> None:
    assert options.using_saved(False, None, {"--food": "3"}) is False
    assert options.using_saved(True, None, {"--food": None, "--unsold": False}) is True
    with pytest.raises(InputError, match="--food, --energy are read from the saved game"):
        options.using_saved(False, 4, {"--food": "3", "--energy": "1"})
    with pytest.raises(InputError, match="--food is needed"):
        options.need(None, "--food")
    assert options.need("3", "--food") == "3"


def test_players_are_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert options.names(" Ann, Bob ,Cy ") == ["Ann", "Bob", "Cy"]
    with pytest.raises(InputError, match="Ann named twice"):
        options.names("Ann,Bob,Ann")
    with pytest.raises(InputError, match="names the players"):
        options.names(",")


def test_emit_prints_text_or_json(capsys: pytest.CaptureFixture[str]) -> None:
    options.emit(False, {"a": 1}, ["one", "two"])
    options.emit(False, {"a": 1}, lambda: "three")
    options.emit(True, {"name": "Störrische"}, lambda: pytest.fail("text not wanted"))
    out = capsys.readouterr().out
    assert out.startswith("one\ntwo\nthree\n")
    assert json.loads(out.split("three\n", 1)[1]) == {"name": "Störrische"}
