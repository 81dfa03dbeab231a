"""Several processes typing into one saved game at once never break a rule: each command
reads the state, checks the rule and appends its event inside one transaction, so the
commands take turns. Every writer here is a separate Python process running the real
``irata`` command line (``irata.cli.main``) against one games file."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from irata.cli import main

ROOT = Path(__file__).resolve().parents[2]

# a writer: runs each command line of argv[2] (a JSON list) argv[1] times, or until the
# command answers with exit code 2 and the text in argv[3]; prints one JSON line per run
WRITER = r"""
import contextlib, io, json, sys
from irata.cli import main

times, commands, stop = int(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
for _ in range(times):
    for args in commands:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(args)
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
        print(json.dumps({"args": args, "code": code, "out": out.getvalue(),
                          "err": err.getvalue()}), flush=True)
        if stop and code == 2 and stop in err.getvalue():
            sys.exit(0)
"""


def writers(db: Path, jobs: list[tuple[int, list[list[str]], str]]) -> list[dict[str, Any]]:
    """Run the writers in parallel; every command's result."""
    env = {**os.environ, "IRATA_DB": str(db), "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(times), json.dumps(commands),
                               stop], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
             for times, commands, stop in jobs]
    results: list[dict[str, Any]] = []
    for proc in procs:
        out, err = proc.communicate(timeout=240)
        assert proc.returncode == 0 and "Traceback" not in err, err
        results += [json.loads(line) for line in out.splitlines()]
    for r in results:
        assert r["code"] in (0, 2) and "Traceback" not in r["err"], r
        if r["code"] == 2:
            assert r["err"].startswith("error: ") and r["err"].count("\n") == 1, r
    return results


def cli(db: Path, args: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    monkeypatch.setenv("IRATA_DB", str(db))
    with pytest.raises(SystemExit) as info:
        main(args)
    out = capsys.readouterr()
    code = info.value.code
    return int(code) if isinstance(code, int) else 1, out.out, out.err


def log(db: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    code, out, err = cli(db, ["play", "log", "--json"], monkeypatch, capsys)
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def test_parallel_muli_rolls_play_the_race_exactly_as_one_table_would(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    code, _, err = cli(db, ["play", "muli", "new", "--players", "Ann,Bob,Cid,Dee", "--seed",
                            "2026"], monkeypatch, capsys)
    assert code == 0, err
    # the same race, rolled one command after another (the dice follow the seed and the
    # number of rolls so far, so the sequence is the race's one right sequence)
    alone = tmp_path / "alone.sqlite3"
    shutil.copy(db, alone)
    sequence: list[tuple[str, tuple[str, ...]]] = []
    for _ in range(500):
        code, out, err = cli(alone, ["play", "muli", "roll", "--json"], monkeypatch, capsys)
        if code == 2:
            assert "the race is over" in err, err
            break
        assert code == 0, err
        sequence.append((json.loads(out)["player"], tuple(json.loads(out)["dice"])))
    else:
        pytest.fail("the race did not end in 500 rolls")
    expected = [e for e in log(alone, monkeypatch, capsys) if e["kind"] == "roll"]

    roll = ["play", "muli", "roll", "--json"]
    results = writers(db, [(500, [roll], "the race is over")] * 4)
    rolls = [e for e in log(db, monkeypatch, capsys) if e["kind"] == "roll"]
    # no double roll for one turn, no roll after the race was won, none lost
    assert [e["data"] for e in rolls] == [e["data"] for e in expected]
    # every roll a writer reported (who rolled, what) is one saved roll, and the other way
    told = [json.loads(r["out"]) for r in results if r["code"] == 0]
    assert len(told) == len(rolls) == len(sequence) > 3
    assert Counter((t["player"], tuple(t["dice"])) for t in told) == Counter(sequence)
    assert sum(1 for t in told if t["winner"]) == 1
    # every writer stopped at the refusal, each refused once the race was over
    refused = [r for r in results if r["code"] == 2]
    assert len(refused) == 4 and all("the race is over" in r["err"] for r in refused)
    code, out, err = cli(db, ["play", "muli", "status", "--json"], monkeypatch, capsys)
    assert code == 0, err


def test_parallel_purchases_and_productions_keep_mule_goes_crazy_rules(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    mgc = ["play", "mule-goes-crazy"]
    # Ann is favored: the Player Turns go Bob, Cid, Ann
    code, _, err = cli(db, [*mgc, "new", "--players", "Ann,Bob,Cid", "--seed", "7",
                            "--favored", "Ann"], monkeypatch, capsys)
    assert code == 0, err
    code, out, err = cli(db, [*mgc, "mule-price", "food", "--save", "--json"], monkeypatch,
                         capsys)
    assert code == 0, err
    price = json.loads(out)["price"]
    code, _, err = cli(db, ["play", "set", "players.Bob.credits", str(2 * price + 50)],
                       monkeypatch, capsys)
    assert code == 0, err
    before = log(db, monkeypatch, capsys)
    # Bob's turn: eight writers try to buy a Food Mule for him; he can pay for two
    buys = writers(db, [(3, [[*mgc, "buy", "Bob", "food"]], "") for _ in range(4)])
    # the Production Phase: Cid produces once a turn; Spoilage waits for every player
    production = writers(db, [(3, [[*mgc, "produce", "--save", "--player", "Cid"],
                                   [*mgc, "spoilage", "--save"]], "") for _ in range(3)])
    events = log(db, monkeypatch, capsys)
    assert events[:len(before)] == before
    new = Counter(e["kind"] for e in events[len(before):] if "auto" not in e["data"])
    done = Counter(" ".join(r["args"][2:4]) for r in buys + production if r["code"] == 0)
    # what the writers were told was saved is what was saved; the Favored Player (Ann, the
    # table's choice) ran itself once, before the first of them
    assert new == Counter({"buy": done["buy Bob"], "produce": done["produce --save"]})
    assert [e["kind"] for e in events[len(before):] if "auto" in e["data"]] == ["favored"]
    assert (done["buy Bob"], done["produce --save"], done["spoilage --save"]) == (2, 1, 0)
    code, out, err = cli(db, ["play", "status", "--json"], monkeypatch, capsys)
    assert code == 0, err
    players = json.loads(out)["state"]["players"]
    assert players["Bob"]["credits"] == 50 and len(players["Bob"]["mules"]) == 2
    assert all(p["credits"] >= 0 for p in players.values())


def test_parallel_bids_and_upkeep_keep_outer_earth_rules(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    oe = ["play", "outer-earth"]
    bid = [*oe, "bid", "--save", "--planet"]
    # Phase 1 played out: the market's 4 planets put up for sale one after the other
    for args in ([*oe, "new", "--players", "Ann,Bob,Cid", "--starting-player", "Ann"],
                 [*bid, "Meridian"], [*bid, "Solace"], [*bid, "Ferrox", "--green", "Cid"],
                 [*bid, "Halcyon", "--green", "Ann"]):
        code, _, err = cli(db, args, monkeypatch, capsys)
        assert code == 0, err
    before = log(db, monkeypatch, capsys)
    # Phase 2 from Ann (she bought last): writers draw, end turns, try the upkeep and a bid
    jobs: list[tuple[int, list[list[str]], str]] = [
        (3, [[*oe, "draw", "Ann"]], ""),
        (3, [[*oe, "draw", "Bob"]], ""),
        (3, [[*oe, "done", "Ann"], [*oe, "done", "Bob"], [*oe, "done", "Cid"],
             [*oe, "upkeep", "--save"]], ""),
        (3, [[*oe, "upkeep", "--save"], [*bid, "Tidewell", "--green", "Bob"],
             [*oe, "done", "Cid"]], ""),
    ]
    results = writers(db, jobs)
    events = log(db, monkeypatch, capsys)
    assert events[:len(before)] == before
    new = events[len(before):]
    saved = [(e["kind"], e["data"].get("planet")) for e in new if "auto" not in e["data"]]
    # what the writers were told was saved is what was saved (an upkeep typed after it ran
    # itself is told so, and saves nothing)
    told = [(r["args"][2], r["args"][5] if r["args"][2] == "bid" else None)
            for r in results if r["code"] == 0 and "ran itself already" not in r["out"]]
    assert Counter(saved) == Counter(told)
    # nobody is taxed: the upkeep runs itself once every company's turn is over, and the
    # round's end after it, in the same entry; a planet is bought once, whatever the round
    kinds = [e["kind"] for e in new]
    assert all(kinds[i + 1] == "round" and "auto" in new[i + 1]["data"]
               for i, k in enumerate(kinds) if k == "upkeep")
    assert kinds.count("round") == kinds.count("upkeep") == 1
    assert saved.count(("bid", "Tidewell")) <= 1
    refusals = [r["err"] for r in results if r["code"] == 2]
    reasons = ("already belongs to", "has had its upkeep", "upkeep of round 1 is done",
               "is in Phase 1", "is in Phase 2", "has not taken its turn yet",
               "turn this round is over", "one turn of 3 actions", "'s turn",
               "every planet of the market has been put up for sale")
    assert refusals and all(any(r in e for r in reasons) for e in refusals), sorted(set(refusals))
    code, out, err = cli(db, ["play", "status", "--json"], monkeypatch, capsys)
    assert code == 0, err
    players = json.loads(out)["state"]["players"]
    owners = Counter(d["planet"] for p in players.values() for d in p["in_development"])
    assert all(n == 1 for n in owners.values())
    assert all(p["hand"] >= 0 for p in players.values())
