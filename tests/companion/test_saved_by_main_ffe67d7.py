"""Games saved by main at ffe67d7 (``fixtures/saved-oe-mgc-ffe67d7.sqlite3``, written by
``irata play`` of that version; ``saved-oe-mgc-ffe67d7.json`` holds each game's state as that
version's ``status --json`` printed it): this version folds them to the same state (the typed
fold writes every optional key besides), and they play on, the steps with nothing to decide
that they were waiting on running themselves.

1. Outer Earth, round 2, Phase 2 (a round played through and a sale);
2. Outer Earth, a taxed upkeep done and the round not ended;
3. Mule Goes Crazy!, turn 1 played through, turn 2's Favored Player not recorded;
4. Mule Goes Crazy!, every player produced, Spoilage and the upkeep not recorded.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from irata.cli import cli

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MAIN = json.loads((FIXTURES / "saved-oe-mgc-ffe67d7.json").read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def _db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "games.sqlite3"
    shutil.copy(FIXTURES / "saved-oe-mgc-ffe67d7.sqlite3", db)
    monkeypatch.setenv("IRATA_DB", str(db))
    return db


def js(*args: str) -> Any:
    result = CliRunner().invoke(cli, ["play", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def covers(now: Any, then: Any) -> bool:
    """Everything the state held then, it holds now, with the same values."""
    if isinstance(then, dict):
        return isinstance(now, dict) and all(k in now and covers(now[k], v)
                                             for k, v in then.items())
    if isinstance(then, list):
        return isinstance(now, list) and len(now) == len(then) and all(
            covers(a, b) for a, b in zip(now, then, strict=True))
    return bool(now == then)


@pytest.mark.parametrize("game", ["1", "2", "3", "4"])
def test_the_fold_reads_what_main_saved(game: str) -> None:
    state = js("status", "--game", game)["state"]
    assert covers(state, MAIN[game]), (state, MAIN[game])


def test_outer_earth_plays_on_through_its_round() -> None:
    now = js("outer-earth", "next", "--game", "1")["next"]
    # Cid drew, then Ann drew and sold: Ann's turn, then Bob's
    assert (now["turn"], now["step"], now["who"]) == (2, "draw", "Ann")
    for who in ("Ann", "Bob"):
        js("outer-earth", "done", who, "--game", "1")
    # Phase 3 of round 2 (taxed or not), then the end of the round
    now = js("outer-earth", "next", "--game", "1")["next"]
    if now["step"] == "upkeep":
        js("outer-earth", "upkeep", "--game", "1")
    assert js("status", "--game", "1")["state"]["round"] == 3


def test_a_round_waiting_on_its_end_ends_by_itself_with_the_next_entry() -> None:
    now = js("outer-earth", "next", "--game", "2")["next"]
    assert (now["step"], now["auto"]) == ("round", True)
    out = js("outer-earth", "bid", "--planet", "Tidewell", "--game", "2")
    assert [r["step"] for r in out["ran_itself"]] == ["round"]
    s = js("status", "--game", "2")["state"]
    assert s["round"] == 2 and s["players"]["Ann"]["profits"]["planets"] == ["Cinder Point"]


def test_a_turn_waiting_on_its_favored_player_takes_it_by_itself() -> None:
    now = js("mule-goes-crazy", "next", "--game", "3")["next"]
    assert (now["step"], now["auto"], now["turn"]) == ("favored", True, 2)
    out = js("mule-goes-crazy", "auction", "none", "--game", "3")
    assert [r["step"] for r in out["ran_itself"]] == ["favored"]
    # the fewest Credits after turn 1
    credits = {n: p["credits"] for n, p in MAIN["3"]["players"].items()}
    assert js("status", "--game", "3")["state"]["favored"] == min(credits, key=credits.get)


def test_a_production_phase_waiting_on_spoilage_takes_it_and_the_upkeep() -> None:
    now = js("mule-goes-crazy", "next", "--game", "4")["next"]
    assert (now["step"], now["auto"]) == ("spoilage", True)
    out = js("mule-goes-crazy", "trade", "smithore", "--game", "4")
    assert [r["step"] for r in out["ran_itself"]] == ["spoilage", "upkeep"]
    s = js("status", "--game", "4")["state"]
    # the Colonists' upkeep: 20 Food and 10 Energy of the Store's 50 and 50
    assert (s["store"]["food"], s["store"]["energy"]) == (30, 40)
