"""``status`` (and ``status --json``) lists the steps that ran themselves after the last entry
typed, for every declared game alike: each one's event, step, whom it was for and why there
was nothing to decide; ``undo`` takes them back with that entry. Once the table types the next
entry, they are no longer the last entry's."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.mule import data as mule_data
from irata.cli import cli

MULE_SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "mule" / "tournament-turn-1.txt"


@pytest.fixture(autouse=True)
def _db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IRATA_DB", str(tmp_path / "games.sqlite3"))
    monkeypatch.setattr(mule_data, "FOLDER", None)


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, ["play", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def status() -> dict[str, Any]:
    return json.loads(run("status", "--json"))  # type: ignore[no-any-return]


def log() -> list[dict[str, Any]]:
    return json.loads(run("log", "--json"))  # type: ignore[no-any-return]


def test_outer_earth_status_shows_the_upkeep_and_the_round_that_ran_themselves() -> None:
    oe = "outer-earth"
    run(oe, "new", "--players", "Ann,Bob", "--short", "--starting-player", "Ann", "--seed", "7")
    run(oe, "bid", "--planet", "Tidewell", "--green", "Bob")
    run(oe, "bid", "--planet", "Halcyon", "--green", "Ann")
    run(oe, "bid", "--planet", "Ferrox")
    assert status()["ran_itself"] == []
    run(oe, "done", "Ann")
    run(oe, "done", "Bob")       # nobody taxed: the upkeep and the round's end run themselves
    seqs = [e["seq"] for e in log()][-2:]
    ran = status()["ran_itself"]
    assert [(r["event"], r["step"], r["who"]) for r in ran] == [
        (seqs[0], "upkeep", None), (seqs[1], "round", None)]
    assert "no company holds more planets" in ran[0]["why"]
    assert "end of the round has nothing to decide" in ran[1]["why"]
    text = run("status")
    assert "Ran itself after the last entry (undo takes it back with that entry):" in text
    assert f"  event {seqs[0]}, upkeep: no company holds more planets" in text
    assert f"  event {seqs[1]}, round: the end of the round" in text
    assert text == run(oe, "status")                  # the game's group says the same
    # the next entry typed: they are no longer the last entry's
    run(oe, "bid", "--planet", "Ferrox", "--green", "Bob")
    assert status()["ran_itself"] == [] and "Ran itself" not in run("status")


def test_mule_goes_crazy_status_shows_spoilage_and_upkeep_that_ran_themselves() -> None:
    mgc = "mule-goes-crazy"
    run(mgc, "new", "--players", "Ann,Bob", "--favored", "Ann", "--seed", "3")
    run(mgc, "auction", "none")
    # the first Favored Player, the table's choice at 'new', ran itself before the auction
    assert status()["ran_itself"] == []
    run(mgc, "population", "colonists", "--player", "Bob")
    run(mgc, "done", "Bob")
    run(mgc, "done", "Ann")
    run(mgc, "produce", "--save")
    ran = status()["ran_itself"]
    assert [r["step"] for r in ran] == ["spoilage", "upkeep"]
    assert ran[0]["why"].startswith("Spoilage has nothing")
    assert [r["event"] for r in ran] == [e["seq"] for e in log()][-2:]
    assert "event " in run("status") and ", spoilage: Spoilage has nothing" in run("status")
    run(mgc, "end-turn")                     # the next turn's Favored Player runs itself
    assert [r["step"] for r in status()["ran_itself"]] == ["favored"]


def test_mule_status_shows_usage_that_ran_itself() -> None:
    turn = [shlex.split(line) for line in MULE_SCRIPT.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    run("mule", "new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3")
    for entry in turn[:7]:             # the last Colonist's Development: Usage runs itself
        run("mule", *entry)
    ran = status()["ran_itself"]
    assert [(r["step"], r["who"]) for r in ran] == [("usage", None)]
    assert ran[0]["event"] == log()[-1]["seq"] and ran[0]["why"]
    assert f"  event {ran[0]['event']}, usage: " in run("status")


@pytest.mark.parametrize("new", [["muli", "new", "--players", "Ann,Bob,Cy", "--seed", "5"],
                                 ["mutagen", "new", "--players", "Ann,Bob"]])
def test_a_game_whose_steps_never_run_themselves_lists_none(new: list[str]) -> None:
    run(*new)
    assert status()["ran_itself"] == [] and "Ran itself" not in run("status")
