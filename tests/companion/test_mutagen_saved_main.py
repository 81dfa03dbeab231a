"""Mutagen games saved by the code before the typed state (``fixtures/mutagen-saved-main.sqlite3``,
written by main's own commands; ``mutagen-saved-main.json`` is what its ``status --json`` said
of them) still open as they were and play on.

Game 1: Ann, Bob and Cid with both mini expansions, resting in round 3 (Ann 36, Bob 18, Cid 14).
Game 2: Ann and Bob, four rounds and End of Game Scoring saved (Ann wins with 89).
Neither kept Shard Fragments or Progress trackers: those moves say how to start keeping them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from components.errors import InputError, RuleError
from irata.cli import cli

HERE = Path(__file__).resolve().parent / "fixtures"
FIXTURE = HERE / "mutagen-saved-main.sqlite3"
BEFORE = json.loads((HERE / "mutagen-saved-main.json").read_text(encoding="utf-8"))


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    copy = tmp_path / "games.sqlite3"
    shutil.copy(FIXTURE, copy)
    return copy


def run(db: Path, *args: str, code: int = 0) -> str:
    """What a command printed; with ``code=2``, the one line its refusal says (the ``irata``
    executable prints it as ``error: ...``, exit 2) and the file unchanged."""
    before = db.read_bytes()
    result = CliRunner().invoke(cli, ["play", *args, "--db", str(db)])
    if code == 2:
        assert isinstance(result.exception, (InputError, RuleError)), (args, result.output)
        assert db.read_bytes() == before
        return str(result.exception)
    assert result.exit_code == code, (args, result.output, result.exception)
    return result.output


def state(db: Path, game: int) -> dict[str, Any]:
    return json.loads(run(db, "status", "--game", str(game), "--json"))["state"]  # type: ignore[no-any-return]


def test_the_saved_games_open_with_the_state_they_had(db: Path) -> None:
    for game in (1, 2):
        now = state(db, game)
        # the same JSON, key for key; Shard Fragments and Progress trackers not kept (null),
        # no cards or tiles held
        new = ("shards", "progress", "crew", "trees", "tiles")
        assert {k: v for k, v in now.items() if k not in new} == BEFORE[str(game)]
        assert set(now["shards"].values()) == set(now["progress"].values()) == {None}
        assert all(now[k] == {n: [] for n in now["players"]} for k in new[2:])
        run(db, "mutagen", "log", "--game", str(game))
    assert "round 3 of 4" in run(db, "mutagen", "next", "--game", "1")
    assert run(db, "mutagen", "next", "--game", "2").strip() == "Game 2 is over."
    assert "Ann wins with 89 points" in run(db, "status", "--game", "2")


def test_the_three_player_game_plays_on_to_its_end(db: Path, tmp_path: Path) -> None:
    g = ("--game", "1")
    assert run(db, "mutagen", "points", "Ann", "2", *g).startswith("Ann: 38 points")
    # Shard Fragments were not kept: refused, with the way to start keeping them
    said = run(db, "mutagen", "shards", "Cid", "-1", *g, code=2)
    assert "does not keep Cid's Shard Fragments" in said and "set shards.Cid" in said
    run(db, "set", "shards.Cid", "4", *g)
    assert run(db, "mutagen", "palace", "Cid", "1", *g).startswith(
        "Cid moves the Palace's 1. Worker for 2; holds 2 Shard Fragment tokens.")
    # rounds 3 and 4: every tracker where round 2 left it or further on
    rnd = tmp_path / "r.yaml"
    rnd.write_text("expansions: [plight-of-the-people, palace-visitors]\nplayers:\n"
                   "  - {name: Ann, installed: 1,"
                   " tracks: {crystal: 2, gas: 2, liquid: 1, ore: 1}}\n"
                   "  - {name: Bob, tracks: {ore: 3, gas: 1}}\n"
                   "  - {name: Cid, tracks: {gas: 2, liquid: 1}, card_elements: 1}\n")
    run(db, "mutagen", "round", str(rnd), "--save", *g)
    run(db, "mutagen", "round", str(rnd), "--save", *g)
    kept = state(db, 1)
    # Ann: 38 + 2 x (1 Element installed: 2, her tracks 2,2,1,1: 3 + 3 + 2 + 2) = 38 + 24 = 62;
    # Cid: 2 Shard Fragments + 2 a round from the Element on the People card = 6
    assert kept["scores"]["Ann"] == 62 and kept["round"] == 5
    assert kept["shards"] == {"Ann": None, "Bob": None, "Cid": 6}
    # the others' Shard Fragments are not kept: End of Game Scoring from a file, as before
    assert "score it from a FILE" in run(db, "mutagen", "score", "--save", "--storage",
                                         "Ann=0,Bob=0,Cid=0", *g, code=2)
    end = tmp_path / "end.yaml"
    end.write_text("players:\n  - {name: Ann, shards: 3}\n  - {name: Bob}\n"
                   "  - {name: Cid, shards: 6}\n")
    out = json.loads(run(db, "mutagen", "score", str(end), "--save", "--json", *g))
    assert out["winners"] == ["Ann"] and out["players"][0]["total"] == 63   # 62 + 3 // 3


def test_the_scored_game_is_taken_back_and_scored_again(db: Path, tmp_path: Path) -> None:
    run(db, "undo", "--game", "2")
    assert "End of Game Scoring" in run(db, "mutagen", "next", "--game", "2")
    end = tmp_path / "end.yaml"
    end.write_text("players:\n  - {name: Ann, storage: 3, shards: 7, crew: [crew/track-ore], "
                   "trees: [jade, jade]}\n  - {name: Bob, storage: 1, shards: 2, "
                   "trees: [amber]}\n")
    out = json.loads(run(db, "mutagen", "score", str(end), "--save", "--game", "2", "--json"))
    assert out["winners"] == ["Ann"] and out["players"][0]["total"] == 89   # as main saved it
