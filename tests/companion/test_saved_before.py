"""Games saved before the companion was declared still open and play on.

``fixtures/saved-0.1.sqlite3`` was written by irata 0.1 as it stood before this change (the
same commands, run with that version's code): a M.U.L.E. Tournament game resting at Usage and
Spoilage (a step the table typed then and that now runs itself), a Beginner game whose starting
Rivers have no tile, and a game of each other companion. Each is read, described, and played
one step further; the M.U.L.E. game to the end of Turn 1, with the numbers worked out by hand in
test_mule_table.py.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.mule import data as mule_data
from irata.cli import cli

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "saved-0.1.sqlite3"


@pytest.fixture(autouse=True)
def _saved_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(mule_data, "FOLDER", None)
    db = tmp_path / "games.sqlite3"
    shutil.copy(FIXTURE, db)
    monkeypatch.setenv("IRATA_DB", str(db))
    return db


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, ["play", *args], catch_exceptions=False)
    assert result.exit_code == 0, (args, result.output)
    return result.output


def state(game: int) -> dict[str, Any]:
    return json.loads(run("status", "--game", str(game), "--json"))["state"]  # type: ignore[no-any-return]


def test_every_saved_game_opens() -> None:
    listed = run("games")
    for game, kind in enumerate(("mule", "mule", "mutagen", "outer-earth", "muli",
                                 "mule-goes-crazy"), 1):
        assert kind in listed
        assert f"Game {game}" in run(kind, "next", "--game", str(game))
        assert f"Game {game}" in run("status", "--game", str(game))
        run("log", "--game", str(game))


def test_a_mule_game_saved_at_a_step_that_now_runs_itself_plays_on() -> None:
    nxt = json.loads(run("mule", "next", "--game", "1", "--json"))["next"]
    assert (nxt["step"], nxt["auto"]) == ("usage", True)
    out = run("mule", "produce", "Acid Rain Storm!", "--game", "1")
    assert "(ran itself) 3. Usage and Spoilage" in out and "(ran itself) 5. Pricing" in out
    for entry in (["trade", "smithore", "--buy", "Dee=1"],
                  ["trade", "food", "--sell", "Bob=3", "--deal", "Cid>Dee 1@4"],
                  ["trade", "energy", "--deal", "Ann>Cid 2@3"],
                  ["lucky", "Cid", "LE09", "--to", "Dee"],
                  ["unlucky", "Dee", "Land Tax!", "--to", "Ann"]):
        run("mule", *entry, "--game", "1")
    s = state(1)
    assert s["turn"] == 2 and s["ranking"] == ["Cid", "Bob", "Ann", "Dee"]
    got = {n: (p["money"], p["smithore"], p["crystite"], p["food"], p["energy"])
           for n, p in s["players"].items()}
    assert got == {"Cid": (28, 0, 0, 4, 3), "Bob": (23, 0, 0, 5, 2), "Ann": (12, 0, 0, 6, 2),
                   "Dee": (28, 1, 0, 7, 1)}
    assert s["store"] == {"mules": 12, "smithore": 0, "food": 9, "energy": 6}


def test_a_beginner_game_whose_rivers_have_no_tile_asks_their_production() -> None:
    s = state(2)
    assert all(p["lands"][0]["tile"] is None for p in s["players"].values())
    claims = ["P13@E1", "P14@E1", "P15@E1", "P16@E2", "P17@E2", "P18@E2"]
    while claims:
        who = json.loads(run("mule", "next", "--game", "2", "--json"))["next"]["who"]
        run("mule", "grant", who, claims.pop(0), "--game", "2")
    run("mule", "package", "none", "--game", "2")
    while (now := json.loads(run("mule", "next", "--game", "2", "--json"))["next"])["step"] \
            == "develop":
        run("mule", "develop", now["who"], "pass", "--game", "2")
    # the Rivers without tiles: their Production is typed, never taken as nothing
    result = CliRunner().invoke(cli, ["play", "mule", "produce", "PR05", "--game", "2"])
    assert "not all known by their tile" in str(result.exception)    # refused: a RuleError
    out = run("mule", "produce", "PR05", "--lands", "Ann=F3,Bob=F2,Cid=F1", "--game", "2")
    assert "Ann produces" in out


def test_the_other_companions_play_on() -> None:
    run("mutagen", "points", "Ann", "2", "--game", "3")
    assert state(3)["scores"]["Ann"] >= 2
    run("muli", "roll", "--game", "5")
    run("undo", "--game", "5")
    assert "Game 6" in run("mule-goes-crazy", "next", "--game", "6")
