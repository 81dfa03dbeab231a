"""M.U.L.E.'s steps are saved as the move and what it changed, never a snapshot of the whole
state; games saved with snapshots (by the code before this change) open and play on.

``fixtures/saved-steps-0.2.sqlite3`` was written by the commands of the code before (one
snapshot a step): Game 1 is the Tournament Turn 1 of ``examples/mule/tournament-turn-1.txt``, a
``set`` correction and one Land Grant of Turn 2; Game 2 a Beginner game with the companion's
decks, resting at the Smithore Auction of Turn 1. ``saved-steps-0.2.json`` holds what
``status --json`` said of each then.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from companion.mule import data as mule_data
from companion.mule.changes import change, patch
from irata.cli import cli

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TURN_1 = Path(__file__).resolve().parents[2] / "examples" / "mule" / "tournament-turn-1.txt"


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, ["play", *args], catch_exceptions=False)
    assert result.exit_code == 0, (args, result.output)
    return result.output


def state(game: int = 1) -> dict[str, Any]:
    return json.loads(run("status", "--game", str(game), "--json"))["state"]  # type: ignore[no-any-return]


def steps(db: Path, game: int = 1) -> list[dict[str, Any]]:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT data FROM events WHERE game_id = ? AND kind = 'step' "
                           "ORDER BY seq", (game,)).fetchall()
    return [json.loads(r[0]) for r in rows]


@pytest.fixture
def saved_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(mule_data, "FOLDER", None)
    db = tmp_path / "games.sqlite3"
    shutil.copy(FIXTURES / "saved-steps-0.2.sqlite3", db)
    monkeypatch.setenv("IRATA_DB", str(db))
    return db


def test_a_step_saves_what_it_changed_not_the_whole_state(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mule_data, "FOLDER", None)
    import shlex

    run("mule", "new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3")
    for line in TURN_1.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            run("mule", *shlex.split(line))
    log = steps(tmp_path / "games.sqlite3")
    assert len(log) == 30 and all("after" not in e and "change" in e for e in log)
    # Bob's Land Grant changes Bob's Lands and the steps to come, nobody else's numbers
    first = log[0]
    assert (first["step"], first["who"], first["answers"]) == ("grant", "Bob",
                                                               {"claim": "R01@C1"})
    changed = {tuple(op[0][:2]) for op in first["change"]}
    assert ("players", "Bob") in changed
    assert not any(p[0] == "players" and p[1] != "Bob" for p in changed)
    assert ("store",) not in changed and ("prices",) not in changed
    # the fold of the changes is the hand-worked end of Turn 1 (test_mule_table.py)
    s = state()
    assert s["turn"] == 2 and s["ranking"] == ["Cid", "Bob", "Ann", "Dee"]
    # its keys in the order a snapshot of the state held them (sorted, as saved)
    assert json.dumps(s) == json.dumps(s, sort_keys=True)
    assert s["store"] == {"mules": 12, "smithore": 0, "food": 9, "energy": 6}


def test_games_saved_with_snapshots_open_as_they_were(saved_before: Path) -> None:
    was = json.loads((FIXTURES / "saved-steps-0.2.json").read_text(encoding="utf-8"))
    for game in (1, 2):
        now = json.loads(run("status", "--game", str(game), "--json"))
        # listed since these games were saved: the steps after the last entry that ran
        # themselves, each with its reason
        ran = now.pop("ran_itself")
        assert all(r["step"] and r["why"] and isinstance(r["event"], int) for r in ran)
        assert now == was[str(game)]
        assert all("after" in e for e in steps(saved_before, game))


def test_a_game_saved_with_snapshots_plays_on_and_undoes_across_the_change(
        saved_before: Path) -> None:
    before = state(1)
    out = run("mule", "grant", "Ann", "P06@D2", "--game", "1")
    assert "Ann claims P06 on D2" in out
    after = state(1)
    assert after["players"]["Ann"]["money"] == 20            # the `set` of the old log holds
    assert [x.get("tile") for x in after["players"]["Ann"]["lands"]][-1] == "P06"
    log = steps(saved_before, 1)
    assert "after" in log[-2] and "change" in log[-1] and "after" not in log[-1]
    run("undo", "--game", "1")
    assert state(1) == before
    run("undo", "--game", "1")          # the last snapshot step: Dee's Land Grant of Turn 2
    assert state(1)["todo"][0] == ["grant", "Dee"]


def test_a_decked_game_saved_with_snapshots_plays_through_its_market(saved_before: Path) -> None:
    for entry in (["trade", "smithore"], ["trade", "food"], ["trade", "energy"]):
        run("mule", *entry, "--game", "2")
    s = state(2)
    assert s["phase"] == "lucky" and s["turn"] == 1
    was = json.loads((FIXTURES / "saved-steps-0.2.json").read_text(encoding="utf-8"))["2"]
    assert s["production_deck"] == was["state"]["production_deck"]
    drawn = run("mule", "lucky", s["todo"][0][1], "--to", s["ranking"][-1], "--game", "2")
    assert "Lucky Event drawn by" in drawn
    assert len(state(2)["event_decks"]["lucky"]["draw"]) == \
        len(was["state"]["event_decks"]["lucky"]["draw"]) - 1


json_value = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                  max_size=3),
    max_leaves=12)
json_dict = st.dictionaries(st.text(max_size=3), json_value, max_size=4)


@given(json_dict, json_dict)
def test_a_change_applied_gives_the_state_after_it(before: dict[str, Any],
                                                   after: dict[str, Any]) -> None:
    ops = change(before, after)
    assert patch(before, ops) == after
    assert json.loads(json.dumps(ops)) == ops
    if before == after:
        assert ops == []


@given(json_dict, st.lists(json_value, max_size=4))
def test_a_change_edited_by_hand_is_a_value_error_or_a_state(before: dict[str, Any],
                                                             ops: list[Any]) -> None:
    try:
        out = patch(before, ops)
    except ValueError:
        return
    assert isinstance(out, dict)
