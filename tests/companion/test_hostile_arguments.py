"""Typed arguments of the step and calculator commands found by the second fuzzing pass: a
character that looks like a digit (``²``, ``٣``) or a number of thousands of digits is one
``error:`` line and exit code 2, never a traceback, and a saved game is left as it was."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from irata.cli import main

HUGE = "9" * 5000


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(args)
    out = capsys.readouterr()
    code = info.value.code
    return int(code) if isinstance(code, int) else 1, out.out, out.err


def saved_rows() -> list[tuple[Any, ...]]:
    with sqlite3.connect(Path(os.environ["IRATA_DB"])) as con:
        return (con.execute("SELECT * FROM games ORDER BY id").fetchall()
                + con.execute("SELECT * FROM events ORDER BY game_id, seq").fetchall())


def one_line(args: list[str], capsys: pytest.CaptureFixture[str], message: str) -> str:
    code, _, err = run(args, capsys)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    assert message in err and len(err) < 300, err
    return err


PRODUCTION = ["play", "mule", "production", "--card", "Radiation!", "--lands", "F3,C1,E3",
              "--rank", "1"]


@pytest.mark.parametrize("hit", ["²", "٣", HUGE, "1" + "0" * 30, "P" + HUGE])
def test_production_hit_that_names_no_land_is_one_line(
        hit: str, capsys: pytest.CaptureFixture[str]) -> None:
    one_line([*PRODUCTION, "--hit", hit], capsys, "--hit")


def test_production_hit_by_its_number_still_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([*PRODUCTION, "--hit", "2"], capsys)
    assert code == 0, err
    assert "Total:" in out


@pytest.mark.parametrize("piles", ["²", "1,²", "٣", "1,٣", HUGE, "3," + HUGE, "1e3"])
def test_last_round_piles_that_are_no_numbers_are_one_line_and_keep_the_game(
        piles: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["play", "outer-earth", "new", "--players", "Ann,Bob,Cid"], capsys)
    assert code == 0, err
    before = saved_rows()
    one_line(["play", "outer-earth", "last-round", "--galaxy", "4", "--piles", piles], capsys,
             "--piles")
    assert saved_rows() == before


def test_last_round_piles_as_numbers_still_answer(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", "outer-earth", "last-round", "--galaxy", "4", "--piles",
                          "3,4"], capsys)
    assert code == 0 and out.startswith("no"), err


@pytest.mark.parametrize("land", ["²@B1", "P" + HUGE + "@B1", "P07@B" + HUGE])
def test_a_grant_with_a_hostile_land_keeps_the_game(
        land: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["play", "mule", "new", "--players", "Ann,Bob,Cid,Dee", "--seed", "3"],
                       capsys)
    assert code == 0, err
    before = saved_rows()
    code, _, err = run(["play", "mule", "grant", "Bob", land], capsys)
    assert code == 2 and err.count("\n") == 1 and len(err) < 400, err
    assert saved_rows() == before


@pytest.mark.parametrize("args", [
    ["actions", "--dice", "²,1,1"],
    ["actions", "--dice", "1" * 5000 + ",1,1"],
    ["bid", "--players", "Ann,Bob,Cid", "--start", "Ann", "--green", "Ann", "--hand", "Ann=²"],
    ["bid", "--players", "Ann,Bob,Cid", "--start", "Ann", "--green", "Ann",
     "--hand", "Ann=" + "9" * 5000],
])
def test_outer_earth_numbers_that_are_not_numbers_are_one_line(
        args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["play", "outer-earth", *args])
    err = capsys.readouterr().err
    assert info.value.code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    assert len(err) < 300
