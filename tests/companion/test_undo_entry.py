"""``undo`` takes back the last entry the table typed, whole: an entry of several moves typed
at once (M.U.L.E.'s Land Grant for every Colonist, ``shards Ann=1 Bob=-1``) is taken back with
every move of it and what ran itself after and between them, leaving the saved game as it
was before the entry; the entry before it stays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from irata.cli import cli


def play(db: Path, *args: str) -> Any:
    result = CliRunner().invoke(cli, ["play", *args, "--db", str(db)])
    assert result.exit_code == 0, result.output
    return result


def saved(db: Path, game: str) -> tuple[dict[str, Any], int]:
    """The saved ``game``'s state and how many events it holds (the games file holds it
    alone)."""
    state = json.loads(play(db, "status", "--json").output)["state"]
    log = json.loads(play(db, "log", "--json").output)
    events = log["events"] if isinstance(log, dict) else log
    return state, len(events)


def test_a_mule_land_grant_for_every_colonist_is_undone_whole(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    play(db, "mule", "new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3")
    before, n_before = saved(db, "mule")
    # eight Land Grants (two each on Turn 1) in one entry, then the Land Auction after it
    play(db, "mule", "grant", "Bob=R01@C1", "Cid=R02@C1", "Ann=R03@C3", "Dee=R04@C1",
         "Bob=P03@B1", "Cid=P09@B1", "Ann=P07@D3", "Dee=P04@A1")
    granted, n_granted = saved(db, "mule")
    assert n_granted >= n_before + 8
    play(db, "mule", "auction", "Dee", "Ann", "10", "P13@B3")
    # the Land Auction is the last entry: undo takes back it alone
    out = play(db, "mule", "undo").output
    assert saved(db, "mule") == (granted, n_granted), out
    # then the eight Land Grants, all of them, and nothing before them
    out = play(db, "mule", "undo").output
    assert "8 moves typed together" in out
    assert saved(db, "mule") == (before, n_before)


def test_a_mutagen_entry_for_two_players_is_undone_whole(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    play(db, "mutagen", "new", "--players", "Ann,Bob", "--seed", "1")
    play(db, "mutagen", "shards", "Ann", "2")
    one, n_one = saved(db, "mutagen")
    play(db, "mutagen", "shards", "Ann=1", "Bob=-1")
    after, _ = saved(db, "mutagen")
    assert after != one
    out = play(db, "mutagen", "undo").output
    assert "2 moves typed together" in out
    assert saved(db, "mutagen") == (one, n_one)
    # the entry before it (one move) is the next undo's, alone
    play(db, "mutagen", "undo")
    assert saved(db, "mutagen")[1] == n_one - 1
