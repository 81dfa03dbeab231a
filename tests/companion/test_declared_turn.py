"""The guided ``turn`` of a declared game, built from its declaration alone
(``irata.play.declared.add_turn``): one prompt a move, typed as after its command's name;
a refused entry asked again with the reason and nothing saved; steps saved as answered, so the
walk resumes after the end of the input. Played here on Das Störrische Muli."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from irata.cli import cli


def muli(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(cli, ["play", "muli", *args], input=input)


def rolls(db: Path) -> list[dict[str, Any]]:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT data FROM events WHERE kind = 'roll' ORDER BY seq").fetchall()
    return [json.loads(r[0]) for r in rows]


def test_a_turn_of_the_race_is_one_roll_each_asked_in_turn(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    assert muli("new", "--players", "Ann,Bob,Cy", "--seed", "2").exit_code == 0
    # Ann's own dice; Bob: an option roll does not take, then a double with --first (refused:
    # a double moves one piece), then the companion's dice; Cy: the companion's dice
    typed = "--dice red,blue\n--bogus 1\n--dice red,red --first blue\n\n\n"
    result = muli("turn", input=typed)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "== Turn 1, from Ann rolls the two colour dice" in out
    assert "Ann rolls red and blue:" in out
    assert "! --bogus: not an option of roll" in out
    assert "! --first chooses between two moving pieces, but the dice show a double" in out
    assert "Turn 1 saved in game 1. Next: Ann rolls the two colour dice" in out
    # three rolls saved, the first with the table's dice, the refused ones nowhere
    saved = rolls(db)
    assert len(saved) == 3 and saved[0]["dice"] == ["red", "blue"]
    assert all("first" not in r for r in saved)


def test_the_end_of_the_input_keeps_the_rolls_before_it_and_resumes(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    muli("new", "--players", "Ann,Bob,Cy", "--seed", "2")
    result = muli("turn", input="--dice red,blue\n")
    assert result.exit_code == 2
    assert "the input ended at Bob rolls the two colour dice" in result.output
    assert len(rolls(db)) == 1
    before = db.read_bytes()
    # the same refused entry three times ends the walk, the games file as it was
    result = muli("turn", input="--dice red\n" * 3)
    assert result.exit_code == 1 and "refused 3 times" in str(result.exception)
    assert db.read_bytes() == before
    result = muli("turn", input="\n\n")
    assert result.exit_code == 0 and "== Turn 1, from Bob rolls" in result.output
    assert len(rolls(db)) == 3


def test_a_walk_over_a_race_that_is_over_says_why_the_game_says_it_is_over(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The guided walk holds no state check: the declaration's end says the race is over, and
    who won; the walk prints it (one line, exit code 2) and saves nothing."""
    from irata.cli import main

    db = tmp_path / "games.sqlite3"

    def run(*args: str) -> int:
        try:
            main(["play", "muli", *args, "--db", str(db)])
        except SystemExit as exc:
            return int(exc.code or 0)
        return 0

    assert run("new", "--players", "Ann,Bob,Cy", "--seed", "3") == 0
    for _ in range(400):             # the seeded race, rolled to its end
        if run("roll"):
            break
    capsys.readouterr()
    winner = json.loads(CliRunner().invoke(cli, ["play", "status", "--json", "--db", str(db)]
                                           ).output)["state"]["winner"]
    before = db.read_bytes()
    assert run("turn") == 2
    err = capsys.readouterr().err
    assert err == (f"error: the race is over: {winner} has won: nothing more is played in "
                   "it\n")
    assert db.read_bytes() == before
