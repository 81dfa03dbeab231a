"""M.U.L.E.'s typed, frozen State and its one pair of JSON functions: every state a saved game
reaches (games saved by older versions, a Turn played now, with the companion's decks) reads
into a State and writes back to the same JSON form, key for key."""

from __future__ import annotations

import json
import shlex
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.mule import data as mule_data
from companion.mule.saved import fold
from companion.mule.state import Colonist, Land, State, from_json, to_json
from companion.session import Event
from irata.cli import cli

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TURN_1 = Path(__file__).resolve().parents[2] / "examples" / "mule" / "tournament-turn-1.txt"


def states_of(db: Path) -> list[dict[str, Any]]:
    """The state after every event of every M.U.L.E. game in ``db``."""
    out = []
    with sqlite3.connect(db) as con:
        games = [g for (g,) in con.execute("SELECT id FROM games WHERE game = 'mule'")]
        for game in games:
            rows = con.execute("SELECT seq, kind, data, at FROM events WHERE game_id = ? "
                               "ORDER BY seq", (game,)).fetchall()
            log = [Event(seq, kind, json.loads(data), at) for seq, kind, data, at in rows]
            out += [fold(log[:i]) for i in range(1, len(log) + 1)]
    return out


def round_trips(state: dict[str, Any]) -> None:
    typed = from_json(state)
    assert isinstance(typed, State)
    back = to_json(typed)
    assert back == state
    assert list(back) == list(state)           # the keys in their order too


@pytest.mark.parametrize("fixture", ["saved-0.1.sqlite3", "saved-steps-0.2.sqlite3"])
def test_every_state_of_a_game_saved_before_round_trips(fixture: str) -> None:
    states = states_of(FIXTURES / fixture)
    assert len(states) > 20
    for state in states:
        round_trips(state)


def test_every_state_of_a_turn_played_now_round_trips(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mule_data, "FOLDER", None)
    runner = CliRunner()
    cards = ("Acid Rain Storm!", "LE09", "Land Tax!")
    for deck in ([], ["--deck"]):     # with the decks the cards are drawn, never typed
        db = tmp_path / f"games{len(deck)}.sqlite3"
        monkeypatch.setenv("IRATA_DB", str(db))
        runner.invoke(cli, ["play", "mule", "new", "--players", "Ann,Bob,Cid,Dee",
                            "--tournament", "--seed", "3", *deck], catch_exceptions=False)
        for line in TURN_1.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                args = [a.replace("wampus yes", "wampus") for a in shlex.split(line)
                        if not deck or a not in cards]
                runner.invoke(cli, ["play", "mule", *args])   # with the decks, some refused
        states = states_of(db)
        assert len(states) > 20
        for state in states:
            round_trips(state)


def test_the_state_is_typed_and_frozen() -> None:
    state = fold(_log(FIXTURES / "saved-steps-0.2.sqlite3"))
    typed = from_json(state)
    ann = typed.colonist("Ann")
    assert isinstance(ann, Colonist) and ann.money == state["players"]["Ann"]["money"]
    assert all(isinstance(x, Land) for x in ann.lands)
    assert ann.lands[0].tile == state["players"]["Ann"]["lands"][0]["tile"]
    assert typed.store.stock("food") == state["store"]["food"]
    assert typed.prices.food == state["prices"]["food"]
    assert typed.step == tuple(state["todo"][0])
    with pytest.raises(AttributeError):
        typed.turn = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        typed.crater_zones["M01"] = "red"  # type: ignore[index]
    # a new State is a new value; the old one is as it was
    richer = typed._replace(colonists=tuple(c._replace(money=c.money + 1)
                                            for c in typed.colonists))
    assert to_json(richer)["players"]["Ann"]["money"] == ann.money + 1
    assert to_json(typed) == state


def test_a_form_that_is_not_a_game_is_a_plain_error() -> None:
    for raw in ({}, {"players": {}}, {"mode": "x", "seed": 1, "ranking": [], "turn": "t",
                                      "players": {}, "store": {"mules": 1}, "prices": {}}):
        with pytest.raises((KeyError, TypeError, ValueError)):
            from_json(raw)


def _log(db: Path) -> list[Event]:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT seq, kind, data, at FROM events WHERE game_id = 1 "
                           "ORDER BY seq").fetchall()
    return [Event(seq, kind, json.loads(data), at) for seq, kind, data, at in rows]
