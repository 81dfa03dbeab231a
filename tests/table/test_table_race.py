"""Nothing lost: four phones entering at once are serialised by the session's transactions
(real HTTP clients, in threads), and the server killed in the middle of a write loses at most
that entry and serves the same games file again when restarted."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from tablerun import (  # noqa: E402
    CODE,
    NEW_MULE,
    Client,
    Served,
    form_entry,
    irata,
    one_per_step,
    turn_1,
)

ORDER = ("Dee", "Ann", "Cid", "Bob")      # the Ranking: Development's order
ROUND_1 = {"Dee": "buy R04 F, assay", "Ann": "buy R03 F, buy P07 E",
           "Cid": "buy R02 F, wampus yes", "Bob": "buy R01 F, buy P03 E"}


def steps(db: Path) -> list[dict[str, object]]:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT data FROM events WHERE kind = 'step' ORDER BY seq")
        return [json.loads(r[0]) for r in rows]


def until_development() -> None:
    for args in turn_1()[:4]:          # grants, auctions, packages: up to Development
        irata("play", "mule", *args)


def test_four_phones_at_once_are_serialised(served: Served, mule_db: Path) -> None:
    until_development()
    before = len(steps(mule_db))
    phones = {name: Client(served.url).join(name) for name in ORDER}
    start = threading.Barrier(len(phones))
    answers: dict[str, list[int]] = {name: [] for name in ORDER}

    def enter(name: str) -> None:
        start.wait()
        while True:       # as a player would: again until it is their Action Round
            got = phones[name].enter("develop", name, actions=ROUND_1[name])
            answers[name].append(got.status_code)
            if got.status_code == 200:
                return
            assert "turn" in got.json()["error"], got.text
            time.sleep(0.01)

    threads = [threading.Thread(target=enter, args=(n,)) for n in ORDER]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert all(a[-1] == 200 for a in answers.values())
    typed = [s for s in steps(mule_db)[before:] if not s.get("auto")]
    # each Action Round saved once, in the Ranking's order, whoever's request came first
    assert [(s["step"], s["who"]) for s in typed] == [("develop", n) for n in ORDER]
    assert all(a.count(200) == 1 for a in answers.values())


def test_the_same_turn_from_phones_and_from_the_command_line_alike(served: Served,
                                                                  mule_db: Path,
                                                                  tmp_path: Path) -> None:
    holder = Client(served.url).hold(served.table.holder)
    seats = {n: Client(served.url).join(n) for n in ORDER}
    for args in one_per_step(turn_1()):
        entry = form_entry(args)
        client = seats[entry.seat] if entry.seat else holder
        got = client.enter(entry.kind, entry.who, **entry.fields)
        assert got.status_code == 200, (args, got.text)
    assert state_now(mule_db) == typed_turn(tmp_path)


def typed_turn(tmp_path: Path) -> object:
    """The state after the scripted Turn typed at the command line, in a games file of its
    own."""
    typed_db = tmp_path / "typed.sqlite3"
    os.environ["IRATA_DB"] = str(typed_db)
    irata("play", "mule", *NEW_MULE)
    for args in turn_1():
        irata("play", "mule", *args)
    return state_now(typed_db)


def state_now(db: Path) -> object:
    """The saved game's state, folded from its events as ``status`` folds it."""
    from companion.session import Store, state_of

    with Store(db) as store:
        return state_of(store, store.get(1))


def _start(db: Path) -> tuple[subprocess.Popen[str], str, str]:
    server = subprocess.Popen([sys.executable, "-m", "irata.cli", "play", "serve", "--db",
                               str(db), "--port", "0", "--code", CODE],
                              stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    board = ""
    while "/board?key=" not in board:
        board = server.stdout.readline()
        assert board, "the server ended before it printed its address"
    url = board.split(": ", 1)[1].split("/board")[0]
    key = board.strip().rsplit("key=", 1)[1]
    deadline = time.monotonic() + 20
    while True:
        try:
            httpx.get(f"{url}/join", timeout=2)
            break
        except httpx.TransportError:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    return server, url, key


def test_killed_mid_write_loses_at_most_that_entry(mule_db: Path, tmp_path: Path) -> None:
    entries = one_per_step(turn_1())
    server, url, key = _start(mule_db)
    saved = 0
    try:
        holder = Client(url).hold(key)
        for args in entries[:5]:
            e = form_entry(args)
            assert holder.enter(e.kind, e.who, **e.fields).status_code == 200
            saved += 1
        e = form_entry(entries[5])
        flight = threading.Thread(target=lambda: _quietly(holder, e))
        flight.start()
        time.sleep(0.005)           # the entry is on its way, or being written
        server.send_signal(signal.SIGKILL)
        flight.join(30)
    finally:
        server.kill()
        server.wait(10)
    with sqlite3.connect(mule_db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    typed = [s for s in steps(mule_db) if not s.get("auto")]
    assert len(typed) in (saved, saved + 1)        # the one in flight, or not
    server, url, key = _start(mule_db)             # the same games file, served again
    try:
        holder = Client(url).hold(key)
        for args in entries[len(typed):]:
            e = form_entry(args)
            got = holder.enter(e.kind, e.who, **e.fields)
            assert got.status_code == 200, (args, got.text)
    finally:
        server.terminate()
        server.wait(10)
    assert state_now(mule_db) == typed_turn(tmp_path)


def _quietly(client: Client, e: object) -> None:
    try:
        client.enter(e.kind, e.who, **e.fields)  # type: ignore[attr-defined]
    except httpx.TransportError:
        pass
