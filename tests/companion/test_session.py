"""Saved games: the event log, undo, the fold, and a write killed midway."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from companion import games, session
from companion.session import Event, Store
from components.errors import InputError

ROOT = Path(__file__).resolve().parents[2]


def _fold(events: list[Event]) -> dict[str, Any]:
    def step(state: dict[str, Any], event: Event) -> dict[str, Any]:
        state["count"] = state.get("count", 0) + int(event.data.get("n", 0))
        return state

    return session.fold_with(events, step)


fold = _fold


def describe(state: dict[str, Any]) -> str:
    return f"count {state.get('count', 0)}"


@pytest.fixture(autouse=True)
def _counter_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A toy game, declared in the registry for these tests: it counts."""
    monkeypatch.setitem(games._BY_NAME, "counter", games.Entry(
        "counter", "Counter", "counts", data="", saved=__name__, commands=""))


def test_default_db_path_follows_irata_db(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    monkeypatch.setenv("IRATA_DB", str(tmp_path / "x.sqlite3"))
    assert session.default_db_path() == tmp_path / "x.sqlite3"
    monkeypatch.delenv("IRATA_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert session.default_db_path() == tmp_path / "data" / "irata" / "games.sqlite3"


def test_create_append_events_fold(tmp_path: Path) -> None:
    with Store(tmp_path / "g.sqlite3") as store:
        game = store.create("counter", {"count": 1})
        assert game.name == f"counter #{game.id}"
        store.append(game.id, "add", {"n": 2})
        e = store.append(game.id, "add", {"n": 3})
        assert (e.seq, e.kind, e.data) == (3, "add", {"n": 3})
        assert [x.kind for x in store.events(game.id)] == ["setup", "add", "add"]
        assert session.state_of(store, game) == {"count": 6}
        assert session.describe_of("counter", {"count": 6}) == "count 6"


def test_undo_drops_the_last_event_but_never_setup(tmp_path: Path) -> None:
    with Store(tmp_path / "g.sqlite3") as store:
        game = store.create("counter", {"count": 0})
        store.append(game.id, "add", {"n": 5})
        dropped = store.undo(game.id)
        assert dropped is not None and dropped.data == {"n": 5}
        assert store.undo(game.id) is None
        assert [e.kind for e in store.events(game.id)] == ["setup"]


def test_set_events_correct_any_number(tmp_path: Path) -> None:
    with Store(tmp_path / "g.sqlite3") as store:
        game = store.create("counter", {"count": 0, "players": {"Ann": {"food": 1}}})
        store.append(game.id, "set", {"path": "players.Ann.food", "value": 3})
        store.append(game.id, "add", {"n": 1})
        assert session.state_of(store, game) == {"count": 1, "players": {"Ann": {"food": 3}}}


def test_apply_set_paths() -> None:
    state: dict[str, Any] = {"a": {"b": [1, 2]}, "n": 4}
    session.apply_set(state, {"path": "a.b.1", "value": 9})
    session.apply_set(state, {"path": "new.deep", "value": True})
    assert state == {"a": {"b": [1, 9]}, "n": 4, "new": {"deep": True}}
    with pytest.raises(InputError):
        session.apply_set(state, {"path": "n.x", "value": 1})
    with pytest.raises(InputError):
        session.apply_set(state, {"path": "a.b.7", "value": 1})


def test_latest_get_games(tmp_path: Path) -> None:
    with Store(tmp_path / "g.sqlite3") as store:
        a = store.create("counter", {}, name="first")
        b = store.create("other", {})
        assert store.latest() == b
        store.append(a.id, "add", {"n": 1})
        assert store.latest() == a
        assert store.latest("other") == b
        assert store.latest("nothing") is None
        assert [g.id for g in store.games()] == [a.id, b.id]
        assert store.get(a.id).name == "first"
        with pytest.raises(InputError):
            store.get(999)


def test_an_unknown_game_has_no_fold(tmp_path: Path) -> None:
    with Store(tmp_path / "g.sqlite3") as store:
        game = store.create("no-such-game", {})
        with pytest.raises(InputError, match="no companion"):
            session.state_of(store, game)


def test_parse_amount_takes_sums() -> None:
    assert session.parse_amount("3+6+2") == 11
    assert session.parse_amount("30-8") == 22
    with pytest.raises(InputError):
        session.parse_amount("3+")


def test_a_failure_inside_the_transaction_leaves_the_game_intact(tmp_path: Path) -> None:
    class Failing(Store):
        def _touch(self, game_id: int, at: str) -> None:   # after the event row is written
            raise RuntimeError("power cut")

    path = tmp_path / "g.sqlite3"
    with Store(path) as store:
        game = store.create("counter", {"count": 0})
        store.append(game.id, "add", {"n": 1})
        before = store.events(game.id)
    with Failing(path) as failing:
        with pytest.raises(RuntimeError):
            failing.append(game.id, "add", {"n": 100})
        with pytest.raises(RuntimeError):
            failing.undo(game.id)
    with Store(path) as store:
        assert store.events(game.id) == before
        assert session.state_of(store, game) == {"count": 1}


WRITER = """
import sys
sys.path.insert(0, {root!r})
from pathlib import Path
from companion.session import Store
store = Store(Path({path!r}))
game = store.latest()
i = 0
while True:
    i += 1
    store.append(game.id, "add", {{"n": 1, "pad": "x" * 5000, "i": i}})
    print(i, flush=True)
"""


def test_a_process_killed_while_writing_leaves_the_game_intact(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    with Store(path) as store:
        game = store.create("counter", {"count": 0})
    proc = subprocess.Popen([sys.executable, "-c", WRITER.format(root=str(ROOT),
                                                                 path=str(path))],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for _ in range(30):                       # let it write a while, then kill it mid-loop
        proc.stdout.readline()
    time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()
    with Store(path) as store:
        events = store.events(game.id)
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        assert len(events) >= 31
        assert all(e.data["i"] == e.seq - 1 for e in events[1:])
        assert session.state_of(store, game)["count"] == len(events) - 1
        store.append(game.id, "add", {"n": 1})   # and it is still writable


def test_transaction_rolls_back_every_append_on_a_refusal(tmp_path: Path) -> None:
    with Store(tmp_path / "g.sqlite3") as store:
        saved = store.create("counter", {})
        store.append(saved.id, "add", {"n": 1})
        before = store.events(saved.id)
        with pytest.raises(InputError), store.transaction():
            store.append(saved.id, "add", {"n": 2})
            store.append(saved.id, "add", {"n": 3})
            raise InputError("refused by the rules")
        assert store.events(saved.id) == before
        with store.transaction():
            assert session.state_of(store, saved)["count"] == 1
            store.append(saved.id, "add", {"n": 4})
        assert session.state_of(store, saved)["count"] == 5


_RACER = """
import sys
from pathlib import Path
from companion import games, session
from companion.session import Store
from components.errors import InputError

def fold(events):
    return {"count": sum(int(e.data.get("n", 0)) for e in events)}

games._BY_NAME["counter"] = games.Entry("counter", "Counter", "counts", data="",
                                        saved="__main__", commands="")
with Store(Path(sys.argv[1])) as store:
    saved = store.get(int(sys.argv[2]))
    for _ in range(20):
        with store.transaction():
            # the rule: the count never passes 30; read and append under one lock
            if session.state_of(store, saved)["count"] < 30:
                store.append(saved.id, "add", {"n": 1})
"""


def test_parallel_writers_never_break_a_rule_checked_inside_the_transaction(
        tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    with Store(db) as store:
        saved = store.create("counter", {})
    script = tmp_path / "racer.py"
    script.write_text(_RACER)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, str(script), str(db), str(saved.id)], env=env)
             for _ in range(3)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0]
    with Store(db) as store:
        assert session.state_of(store, saved)["count"] == 30
