"""A M.U.L.E. Turn as few entries as the table needs: the steps with nothing to decide run
themselves (and are logged, shown and undone like any other), several Colonists' steps go in
one entry, and every number comes out as the rulebook's Turn 1 worked by hand in
test_mule_table.py.

Also the entries the printed copy names: a Land by its tile's code, never by the word printed
large on it, and the starting Rivers dealt at the set-up so that Production is counted."""

from __future__ import annotations

import json
import shlex
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.mule import data as mule_data
from irata.cli import cli, main


@pytest.fixture(autouse=True)
def _bundled_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mule_data, "FOLDER", None)


def mule(*args: str) -> str:
    result = CliRunner().invoke(cli, ["play", "mule", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def refused(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> str:
    before = db.read_bytes()
    with pytest.raises(SystemExit) as info:
        main(["play", *args])
    err = capsys.readouterr().err
    assert info.value.code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert db.read_bytes() == before
    return err


def glance() -> dict[str, Any]:
    return json.loads(mule("status", "--json"))  # type: ignore[no-any-return]


def stocks(g: dict[str, Any], name: str) -> tuple[int, int, int, int, int]:
    c = next(c for c in g["colonists"] if c["name"] == name)
    return c["money"], c["smithore"], c["crystite"], c["food"], c["energy"]


def events(db: Path) -> list[dict[str, Any]]:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT kind, data FROM events ORDER BY seq").fetchall()
    return [{"kind": k, **json.loads(d)} for k, d in rows]


# Turn 1 of test_mule_table.py's Tournament game (seed 3: the Ranking Dee, Ann, Cid, Bob), as
# few entries as the table needs: the scripted Turn benchmarks/entries.py counts
SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "mule" / "tournament-turn-1.txt"
TURN_1 = [shlex.split(line) for line in SCRIPT.read_text(encoding="utf-8").splitlines()
          if line.strip() and not line.startswith("#")]


def test_a_tournament_turn_in_at_most_15_entries(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    mule("new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3")
    outputs = [mule(*entry) for entry in TURN_1]
    assert len(TURN_1) <= 15
    g = glance()
    assert g["turn"] == 2
    # every number as worked out by hand for the same Turn typed step by step
    assert [c["name"] for c in g["colonists"]] == ["Cid", "Bob", "Ann", "Dee"]
    assert stocks(g, "Cid") == (28, 0, 0, 4, 3)
    assert stocks(g, "Bob") == (23, 0, 0, 5, 2)
    assert stocks(g, "Ann") == (12, 0, 0, 6, 2)
    assert stocks(g, "Dee") == (28, 1, 0, 7, 1)
    assert g["store"] == {"mules": 12, "smithore": 0, "food": 9, "energy": 6}
    # what ran itself is in the log, marked, and shown where it ran
    log = events(db)
    ran = [(e["step"], e["who"]) for e in log if e.get("auto")]
    assert ran == [("usage", None), ("pricing", None), ("trade", "crystite"),
                   ("ranking", None)]
    assert "(ran itself) 3. Usage and Spoilage" in outputs[6]
    assert "(ran itself) 5. Pricing" in outputs[7]
    assert "(ran itself) 6. Market: the Crystite Auction" in outputs[8]
    assert "(ran itself) 7. Ranking" in outputs[10]
    # one event per step, as if each had been typed alone
    steps = [e["step"] for e in log if e["kind"] == "step"]
    assert steps.count("grant") == 8 and steps.count("develop") == 9


def test_undo_takes_back_the_entry_and_what_ran_itself_after_it(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    mule("new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3")
    for entry in TURN_1[:7]:
        mule(*entry)
    before_last = events(db)[:-2]          # Cid's pass, then Usage and Spoilage by itself
    out = CliRunner().invoke(cli, ["play", "undo"], catch_exceptions=False).output
    assert "turn 1: develop Cid" in out and "usage" in out and "ran itself" in out
    assert events(db) == before_last
    assert json.loads(mule("next", "--json"))["next"]["who"] == "Cid"


def test_a_step_that_ran_itself_typed_again_changes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    mule("new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3")
    for entry in TURN_1[:7]:
        mule(*entry)
    before = db.read_bytes()
    assert "ran itself already" in mule("usage")       # the table typing it out of habit
    assert db.read_bytes() == before
    for entry in TURN_1[7:9]:
        mule(*entry)
    # the Crystite Auction ran itself (nobody holds Crystite): what is typed for it is refused
    err = refused(capsys, db, "mule", "trade", "crystite", "--buy", "Dee=1")
    assert "no Colonist holds Crystite, and The Store sells no Crystite" in err


def test_a_batch_refused_in_its_middle_saves_none_of_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    mule("new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3")
    err = refused(capsys, db, "mule", "grant", "Bob=R01@C1", "Cid=R01@C3", "Ann=R03@C3")
    assert "entry 2 of 3" in err and "already on Bob's Player Board" in err
    assert "nothing was saved" in err


def test_a_colonist_without_food_passes_by_himself(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    mule("new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3")
    for entry in TURN_1[:5]:
        mule(*entry)
    CliRunner().invoke(cli, ["play", "set", "players.Ann.food", "0"], catch_exceptions=False)
    out = mule("develop", "Dee=pass")
    # Players without Food must Pass: Ann's Action Round runs itself, and Cid's comes next
    assert "(ran itself) 2. Development: Ann's Action Round 2" in out
    assert "Ann passes" in out
    assert json.loads(mule("next", "--json"))["next"]["who"] == "Cid"
    auto = [e for e in events(db) if e.get("auto")]
    assert auto[-1]["auto"]["why"] == ("Development: Players without Food must Pass (Ann has "
                                       "0 Food)")


def test_a_land_is_named_by_its_tile(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                     ) -> None:
    db = tmp_path / "games.sqlite3"
    mule("new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3")
    err = refused(capsys, db, "mule", "grant", "Bob", "River@C1")
    assert "'River': which tile? Name the Land by the code printed in its corner" in err


def test_the_beginner_rivers_are_dealt_and_counted_at_production(tmp_path: Path) -> None:
    out = mule("new", "--players", "Ann,Bob,Cid,Dee", "--seed", "7")
    assert "Starting Rivers: Ann R01, Bob R02, Cid R03, Dee R04" in out
    state = json.loads(CliRunner().invoke(cli, ["play", "status", "--json"]).output)["state"]
    assert [state["players"][n]["lands"][0]["tile"] for n in ("Ann", "Bob", "Cid", "Dee")] \
        == ["R01", "R02", "R03", "R04"]
    chosen = mule("new", "--players", "Ann,Bob,Cid,Dee", "--rivers", "Bob=R01")
    assert "Starting Rivers: Ann R02, Cid R03, Dee R04" in chosen


def test_the_final_market_fills_the_store(tmp_path: Path) -> None:
    """Game End: the Final Turn's Market sells every Good to The Store, which then holds
    them (Crystite leaves the planet)."""
    from companion.mule import data, turn
    from companion.mule.state import from_json
    from tests.companion.mule_states import with_colonist

    md = data.load()
    state = from_json(json.loads(mule("new", "--players", "Ann,Bob,Cid", "--tournament",
                                      "--seed", "1", "--json"))["state"])
    state = with_colonist(state._replace(final=True, todo=(("sellout", None),)), "Ann",
                          food=3, energy=2, smithore=4, crystite=5)
    store = state.store
    held = {g: sum(c.stock(g) for c in state.colonists)
            for g in ("food", "energy", "smithore", "crystite")}
    assert held["crystite"] == 5
    after, _, _ = turn.run_step(state, md, turn.scripted({}, {}), lambda _line: None)
    for good in ("food", "energy", "smithore"):
        assert after.store.stock(good) == store.stock(good) + held[good], good
    assert after.store.stock("crystite") == store.stock("crystite")   # shipped off-planet
    assert all(c.stock(g) == 0 for c in after.colonists for g in held)


def test_a_player_name_that_is_a_number_is_refused(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as info:
        main(["play", "mule", "new", "--players", "3"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "not a number: '3' is not a name" in err
