"""The companion's numbers, names, score files and games file are untrusted: each input class
found by fuzzing ends in one ``error:`` line and exit code 2, and the saved game is unchanged
after every refused command."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion import session
from companion.mutagen.data import load_rules
from companion.mutagen.files import MAX_PLAYERS
from companion.mutagen.rules import Crew, PlayerEnd, Tracks, end_of_game
from irata.cli import main


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(args)
    out = capsys.readouterr()
    code = info.value.code
    return int(code) if isinstance(code, int) else 1, out.out, out.err


def db() -> Path:
    return Path(os.environ["IRATA_DB"])


def saved_rows() -> list[tuple[Any, ...]]:
    with sqlite3.connect(db()) as con:
        return (con.execute("SELECT * FROM games ORDER BY id").fetchall()
                + con.execute("SELECT * FROM events ORDER BY game_id, seq").fetchall())


@pytest.fixture()
def crazy(capsys: pytest.CaptureFixture[str]) -> list[tuple[Any, ...]]:
    """A saved Mule Goes Crazy! game with one auction; its rows."""
    for args in (["play", "mule-goes-crazy", "new", "--players", "Ann,Bob,Cid", "--seed", "7",
                  "--favored", "Ann"],        # the Player Turns go Bob, Cid, Ann
                 ["play", "mule-goes-crazy", "auction", "river-bottom", "--winner", "Ann",
                  "--price", "200"]):
        code, _, err = run(args, capsys)
        assert code == 0, err
    return saved_rows()


def refused(args: list[str], capsys: pytest.CaptureFixture[str], message: str) -> str:
    code, _, err = run(args, capsys)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    assert message in err, err
    return err


AUCTION = ["play", "mule-goes-crazy", "auction", "sunny-flats", "--winner", "Bob", "--price"]
BIG = "9" * 5000
LONG = "9" * 4000

NUMBERS = {
    "5000 digits": (BIG, "far too large"),
    "4000 digits": (LONG, "far too large"),
    "past a billion": ("1000000001", "out of range"),
    "a superscript two": ("²", "is not a number"),
    "an Arabic-Indic three": ("٣", "is not a number"),
    "a float": ("1e999", "is not a number"),
}


@pytest.mark.parametrize("case", list(NUMBERS))
def test_a_typed_amount_out_of_bounds_is_refused_and_changes_nothing(
        crazy: list[tuple[Any, ...]], case: str, capsys: pytest.CaptureFixture[str]) -> None:
    text, message = NUMBERS[case]
    refused([*AUCTION, text], capsys, message)
    refused(["play", "mule", "spoilage", "--food", text, "--energy", "1", "--smithore", "1",
             "--crystite", "0"], capsys, message)
    assert saved_rows() == crazy


@pytest.mark.parametrize("text", ["99999999999999999999", LONG, BIG, "-5", "0", "²"])
def test_a_game_number_that_names_no_game_is_refused(
        crazy: list[tuple[Any, ...]], text: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["play", "status", "--game", text], capsys)
    assert code == 2 and err.count("\n") == 1 and err.startswith("error: ")
    assert any(m in err for m in ("no saved game", "is not a whole number", "far too large",
                                  "out of range (1 to"))
    assert saved_rows() == crazy


def test_points_typed_past_the_bound_are_never_saved(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["play", "mutagen", "new", "--players", "Ann,Bob"], capsys)[0] == 0
    before = saved_rows()
    refused(["play", "mutagen", "points", "Ann", LONG], capsys, "far too large")
    refused(["play", "mutagen", "points", "Ann", "1000000001"], capsys, "out of range")
    assert saved_rows() == before


SET_VALUES = {
    "NaN": ("players.Ann.food", "NaN", "not a number a game can hold"),
    "1e999": ("players.Ann.food", "1e999", "not a number a game can hold"),
    "Infinity": ("players.Ann.food", "Infinity", "not a number a game can hold"),
    "a mapping over a player": ("players.Ann", "{}", "never a whole group"),
    "a list over a player": ("players.Ann", "[1]", "cannot go there"),
    "4000 digits": ("players.Ann.food", LONG, "out of range"),
    "a billion and one": ("players.Ann.food", "1000000001", "out of range"),
    "a half where a whole number is kept": ("players.Ann.food", "2.5", "whole number"),
    "a list item of another shape": ("players.Ann.lands", '[{"x": 1}]', "like the others"),
}


@pytest.mark.parametrize("case", list(SET_VALUES))
def test_set_refuses_a_value_the_state_could_not_hold(
        crazy: list[tuple[Any, ...]], case: str, capsys: pytest.CaptureFixture[str]) -> None:
    path, value, message = SET_VALUES[case]
    refused(["play", "set", path, value], capsys, message)
    assert saved_rows() == crazy
    code, _, err = run(["play", "status"], capsys)
    assert code == 0, err


def test_set_still_takes_a_good_value(crazy: list[tuple[Any, ...]],
                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["play", "set", "players.Ann.food", "7"], capsys)[0] == 0
    assert run(["play", "set", "players.Ann.food", "7.0"], capsys)[0] == 0
    state = session.state_of(session.Store(db()), session.Store(db()).latest())
    assert state["players"]["Ann"]["food"] == 7 and isinstance(
        state["players"]["Ann"]["food"], int)


def test_set_takes_a_negative_number_as_its_value(crazy: list[tuple[Any, ...]],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """'-5' is the value typed, not an option: refused for what it is, a negative Stock."""
    refused(["play", "set", "players.Ann.food", "-5"], capsys, "cannot be negative")
    assert saved_rows() == crazy


def test_set_says_the_number_as_the_game_keeps_it(crazy: list[tuple[Any, ...]],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A whole number typed as 1e3 or 7.0 is kept, and said back, as 1000 or 7."""
    code, out, err = run(["play", "set", "players.Ann.food", "1e3"], capsys)
    assert code == 0 and out.strip().endswith("players.Ann.food = 1000"), (out, err)
    code, out, _ = run(["play", "set", "players.Ann.food", "7.0", "--json"], capsys)
    assert code == 0 and json.loads(out)["value"] == 7


@pytest.mark.parametrize(("out", "message"), [
    ("", "--out needs a file name"),
    ("missing/x.json", "there is no folder"),
    ("x.csv", "that is where the CSV goes"),
    ("x" * 300 + ".json", "the file name is too long"),
])
def test_export_refuses_a_file_name_it_cannot_honour(
        crazy: list[tuple[Any, ...]], tmp_path: Path, out: str, message: str,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.csv").write_text("a person's own CSV")
    refused(["play", "export", "--out", out], capsys, message)
    assert (tmp_path / "x.csv").read_text() == "a person's own CSV"
    assert not (tmp_path / "missing").exists()


def test_a_games_file_name_over_255_characters_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    refused(["play", "games", "--db", str(tmp_path / ("g" * 300))], capsys,
            "the games file's name is too long")


# --- games-file faults: one line naming the file, nothing lost -------------------------------

def _bytes() -> bytes:
    return db().read_bytes()


def test_a_read_only_games_file_refuses_writes_and_keeps_the_game(
        crazy: list[tuple[Any, ...]], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    before = _bytes()
    if os.geteuid() != 0:
        db().chmod(0o444)
    else:  # permissions do not bind root: SQLite's own read-only switch stands in
        real = sqlite3.connect

        def read_only(*args: Any, **kwargs: Any) -> sqlite3.Connection:
            con = real(*args, **kwargs)
            con.execute("PRAGMA query_only = ON")
            return con

        monkeypatch.setattr(sqlite3, "connect", read_only)
    err = refused([*AUCTION, "200"], capsys, "is read-only, so nothing was saved")
    assert str(db()) in err
    refused(["play", "undo"], capsys, "is read-only")
    code, out, _ = run(["play", "status"], capsys)  # reading still works
    assert code == 0 and "Ann" in out
    assert _bytes() == before


def test_a_games_file_locked_too_long_is_one_line(
        crazy: list[tuple[Any, ...]], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session, "LOCK_TIMEOUT", 0.2)
    holder = sqlite3.connect(db(), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        refused(["play", "mule-goes-crazy", "auction", "sunny-flats", "--winner", "Bob", "--price",
                 "200"], capsys, "is busy: another command held it for 0.2 s")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert saved_rows() == crazy


def test_damaged_pages_are_one_line_and_the_file_is_left_as_it_was(
        crazy: list[tuple[Any, ...]], capsys: pytest.CaptureFixture[str]) -> None:
    data = bytearray(_bytes())
    page = 4096 if len(data) >= 8192 else len(data) // 2
    data[page:page + 512] = b"\xa5" * 512
    db().write_bytes(bytes(data))
    for args in (["play", "status"], ["play", "games"], ["play", "undo"],
                 ["play", "mule-goes-crazy", "auction", "sunny-flats", "--winner", "Bob", "--price",
                  "200"]):
        code, _, err = run(args, capsys)
        assert code in (0, 2) and (code == 0 or err.count("\n") == 1), err
        if code == 2:
            assert str(db()) in err
    assert _bytes() == bytes(data)


def test_a_file_that_is_not_a_database_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db().write_bytes(b"these are my notes, not a games file\n" * 200)
    before = _bytes()
    refused(["play", "games"], capsys, "is damaged")
    assert _bytes() == before


def test_another_programs_games_table_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with sqlite3.connect(db()) as con:
        con.execute("CREATE TABLE games (title TEXT, score INTEGER)")
        con.execute("INSERT INTO games VALUES ('chess', 3)")
    before = _bytes()
    refused(["play", "games"], capsys, "is not an irata games file")
    refused(["play", "mutagen", "new", "--players", "Ann"], capsys, "is not an irata games file")
    assert _bytes() == before


@pytest.mark.parametrize(("data", "message"), [
    ("{not json", "cannot be read"),
    ("[1, 2]", "cannot be read"),
    ('{"winner": 5}', "cannot be replayed"),
])
def test_an_event_edited_by_hand_is_named_and_undo_recovers(
        crazy: list[tuple[Any, ...]], data: str, message: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    with sqlite3.connect(db()) as con:
        # the auction, the last event (the Favored Player ran itself before it)
        con.execute("UPDATE events SET data = ? WHERE seq = (SELECT MAX(seq) FROM events)",
                    (data,))
    err = refused(["play", "status"], capsys, message)
    assert "undo" in err
    code, _, err = run(["play", "undo"], capsys)
    assert code == 0, err
    assert run(["play", "status"], capsys)[0] == 0


# --- score files and scoring -------------------------------------------------------------------

def test_a_score_file_of_twenty_thousand_players_is_refused_quickly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = ["players:"] + [f"  - {{name: P{i}, score: 1}}" for i in range(20_000)]
    (tmp_path / "s.yaml").write_text("\n".join(lines) + "\n")
    refused(["play", "mutagen", "score", str(tmp_path / "s.yaml")], capsys,
            f"at most {MAX_PLAYERS}")


@pytest.mark.parametrize(("text", "message"), [
    ("players:\n  - {name: A, score: " + "9" * 5000 + "}\n", "5000 digits is too large"),
    ("players:\n  - {name: A, score: 10000000}\n", "must be at most"),
    ("players:\n  - {name: A, shards: .inf}\n", "not a finite number"),
    ("players: &p [*p]\n", "contains itself"),
])
def test_a_score_file_with_a_wild_number_is_refused(
        tmp_path: Path, text: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "s.yaml").write_text(text)
    refused(["play", "mutagen", "score", str(tmp_path / "s.yaml")], capsys, message)


def _quadratic_highest(players: list[PlayerEnd], element: str) -> list[bool]:
    """The rulebook's "highest" read literally: at least as high as every other player."""
    return [all(p.tracks.of(element) >= q.tracks.of(element) for q in players if q is not p)
            for p in players]


@pytest.mark.parametrize("positions", [[3], [3, 3], [1, 7, 7], [0, 0, 0, 0], [5, 2, 6, 1],
                                       [7, 6, 7, 5, 7]])
def test_highest_scores_as_the_literal_comparison_with_every_other_player(
        positions: list[int]) -> None:
    rules = load_rules()
    players = [PlayerEnd(f"P{i}", 0, Tracks(ore=v), (Crew("highest", "ore"),))
               for i, v in enumerate(positions)]
    flat = rules.crew_kinds["highest"].flat
    result = end_of_game(players, rules)
    want = _quadratic_highest(players, "ore")
    assert [b.crew_total for b in result.players] == [flat if w else 0 for w in want]


@pytest.mark.parametrize(("typed", "message"), [
    (BIG, "far too large a number"),
    ("99999999999", "far too large a number"),
    ("²", "is not a number"),
])
def test_a_turn_prompt_asks_again_for_a_wild_number_and_saves_nothing(
        typed: str, message: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(["play", "mule", "new", "--players", "Ann,Bob,Cid"], capsys)[0] == 0
    before = saved_rows()
    # two Land Grants each (a Colonist who can claim a Land has to: Plains of the Blue Zone),
    # no Package, no Actions, Production Card PR05, no Lands worked; then the wild number as
    # Ann's Smithore sold at the auction, until the input ends
    claims = "P13@E1\nP14@E1\nP15@E1\nP16@E2\nP17@E2\nP18@E2\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(claims + "\n" + "pass\n" * 3 + "PR05\n"
                                                 + f"Ann={typed}\n" * 3))
    code, out, err = run(["play", "mule", "turn"], capsys)
    assert code == 2 and "the input ended at" in err  # the input ran out, as Ctrl-D
    assert (out + err).count(message) >= 2 and "Traceback" not in out + err
    after = saved_rows()
    # the steps before the wild number may be saved (each its own event); the number never
    assert set(before[1:]) <= set(after)
    assert not any(typed in str(row) for row in after)


@pytest.mark.parametrize("where", ["a-file/games.sqlite3", "a-file/deeper/games.sqlite3"])
def test_a_games_file_whose_folder_cannot_be_made_is_one_line(
        tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a-file").write_text("a file where a folder would go")
    refused(["play", "games", "--db", str(tmp_path / where)], capsys,
            "cannot open the games file")
    assert (tmp_path / "a-file").read_text() == "a file where a folder would go"


def test_a_games_file_in_a_new_folder_is_made(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    db_path = tmp_path / "new" / "folder" / "games.sqlite3"
    code, _, err = run(["play", "mutagen", "new", "--players", "Ann", "--db", str(db_path)],
                       capsys)
    assert code == 0 and db_path.is_file(), err


@pytest.mark.parametrize("command", [["play", "mutagen", "score"], ["play", "mutagen", "round"],
                                     ["play", "outer-earth", "score"]])
def test_a_score_file_name_over_255_characters_is_one_line(
        tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    refused([*command, str(tmp_path / ("s" * 300 + ".yaml"))], capsys,
            "cannot read the file (File name too long)")


def test_a_player_name_of_thousands_of_characters_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    refused(["play", "mutagen", "new", "--players", f"Ann,{LONG}"], capsys,
            "at most 20 names of at most 40 characters")
    assert not db().exists() or saved_rows() == []


def test_parallel_purchases_never_spend_credits_a_player_does_not_have(
        crazy: list[tuple[Any, ...]], capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["play", "set", "players.Bob.credits", "450"], capsys)[0] == 0  # two Food Mules
    child = ("import sys; from irata.cli import main; "
             "main(['play', 'mule-goes-crazy', 'buy', 'Bob', 'food'])")
    procs = [subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for _ in range(8)]
    results = [(p.wait(timeout=60), p.stderr.read() if p.stderr else "") for p in procs]
    assert sorted(code for code, _ in results) == [0, 0] + [2] * 6
    assert all("Traceback" not in err for _, err in results)
    code, out, _ = run(["play", "status", "--json"], capsys)
    bob = json.loads(out)["state"]["players"]["Bob"]
    assert bob["credits"] == 50 and len(bob["mules"]) == 2


SET_BREAKS = {
    "Lands that are numbers": ("mule-goes-crazy", "players.Ann.lands", "[1]"),
    "a Mule that is a mapping of nothing": ("mule-goes-crazy", "players.Ann.mules",
                                            '[{"a": 1}]'),
    "a seating of numbers": ("mule-goes-crazy", "seating", "[1, 2, 3]"),
    "a piece on no square": ("muli", "pieces.red.where", '"x"'),
    "a portfolio of numbers": ("outer-earth", "players.Ann.portfolio", "[1]"),
    "a price off its Price Track": ("mule", "prices.food", "0"),
    "a Production deck that is a number": ("mule", "production_deck", "0"),
}


@pytest.mark.parametrize("case", list(SET_BREAKS))
def test_set_refuses_a_value_that_would_break_the_next_command(
        case: str, capsys: pytest.CaptureFixture[str]) -> None:
    game, path, value = SET_BREAKS[case]
    code, _, err = run(["play", game, "new", "--players", "Ann,Bob,Cid"], capsys)
    assert code == 0, err
    before = saved_rows()
    refused(["play", "set", path, value], capsys, f"'{path}' cannot be")
    assert saved_rows() == before
    assert run(["play", "status"], capsys)[0] == 0
