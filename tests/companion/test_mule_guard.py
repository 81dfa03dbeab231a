"""The companion guards the table: wrong entries thrown at every step of a M.U.L.E. Turn are
each refused with a reason (one ``error:`` line, exit 2) and leave the saved game's file byte
for byte as it was; and ``turn`` stopped at any prompt resumes at the step it was in, with
every step before it kept."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.mule import data as mule_data
from irata.cli import cli, main

ROOT = Path(__file__).resolve().parents[2]


def mule(*args: str) -> str:
    result = CliRunner().invoke(cli, ["play", "mule", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def state() -> dict[str, Any]:
    out = CliRunner().invoke(cli, ["play", "status", "--json"], catch_exceptions=False).output
    return json.loads(out)["state"]  # type: ignore[no-any-return]


def now() -> dict[str, Any]:
    return json.loads(mule("next", "--json"))["next"]  # type: ignore[no-any-return]


# -- checkpoints: the saved game's file when each kind of step comes next ----------------------

# Turn 1 and the start of Turn 2 of a Tournament game (seed 3: the Ranking Dee, Ann, Cid, Bob)
SCRIPT: list[tuple[str, ...]] = [
    ("grant", "Bob", "R01@C1"), ("grant", "Cid", "R02@C1"), ("grant", "Ann", "R03@C3"),
    ("grant", "Dee", "R04@C1"), ("grant", "Bob", "P03@B1"), ("grant", "Cid", "P09@B1"),
    ("grant", "Ann", "P07@D3"), ("grant", "Dee", "P04@A1"),
    ("auction", "Dee", "Ann", "10", "P13@B3"), ("auction", "none"),
    ("package", "Bob=food"),
    ("develop", "Dee", "buy R04 F, assay"), ("develop", "Ann", "buy R03 F, buy P07 E"),
    ("develop", "Cid", "buy R02 F, wampus yes"), ("develop", "Bob", "buy R01 F, buy P03 E"),
    ("develop", "Dee", "pass"), ("develop", "Ann", "pub"), ("develop", "Cid", "pass"),
    ("develop", "Bob", "pass"),
    ("usage",), ("produce", "PR05"), ("pricing",),
    ("trade", "smithore", "--buy", "Dee=1"), ("trade", "crystite"),
    ("trade", "food", "--sell", "Bob=3"), ("trade", "energy"), ("ranking",),
    ("lucky", "Cid", "LE09", "--to", "Dee"), ("unlucky", "Dee", "UE07", "--to", "Ann"),
]


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict[str, Any]]]:
    """For each kind of step, a copy of the games file when that step comes next, with the
    state then."""
    folder = tmp_path_factory.mktemp("checkpoints")
    db = folder / "games.sqlite3"
    env = {"IRATA_DB": str(db), "XDG_CACHE_HOME": str(folder / "cache")}
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    saved_folder = mule_data.FOLDER
    mule_data.FOLDER = None
    out: dict[str, tuple[Path, dict[str, Any]]] = {}
    try:
        mule("new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3")
        for args in SCRIPT:
            step = now()["step"]
            if step not in out:
                copy = folder / f"{step}.sqlite3"
                shutil.copy(db, copy)
                out[step] = (copy, state())
            mule(*args)
            _before_ran_itself(db, folder, out)
        # the Final Turn's Market and the end of the game: the last state with The Ship is
        # Back! drawn, saved as the step that leads there
        from companion.session import Store

        for step in ("sellout", "end"):
            copy = folder / f"{step}.sqlite3"
            shutil.copy(db, copy)
            final = {**state(), "final": True, "todo": [[step, None]], "phase": step}
            with Store(copy) as store:
                game = store.latest("mule")
                assert game is not None
                store.append(game.id, "step", {"turn": final["turn"], "step": "pricing",
                                               "who": None, "answers": {}, "lines": [],
                                               "after": final})
            out[step] = (copy, final)
        _option_checkpoints(folder, out)
    finally:
        mule_data.FOLDER = saved_folder
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return out


def _option_checkpoints(folder: Path, out: dict[str, tuple[Path, dict[str, Any]]]) -> None:
    """A game of its own with the Optional Rules More Predictability and Single Action Round:
    the Production Card revealed before the one Action Round (``reveal``), then that Round
    (``develop-single``)."""
    db = folder / "options.sqlite3"
    os.environ["IRATA_DB"] = str(db)
    mule("new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3",
         "--option", "more-predictability", "--option", "single-action-round")
    for args in SCRIPT[:11]:            # the Land Grants, the Land Auction, the Package
        mule(*args)
    for step, args in (("reveal", ("reveal", "PR05")), ("develop-single", ())):
        copy = folder / f"{step}.sqlite3"
        shutil.copy(db, copy)
        out[step] = (copy, state())
        if args:
            mule(*args)


def _before_ran_itself(db: Path, folder: Path,
                       out: dict[str, tuple[Path, dict[str, Any]]]) -> None:
    """A checkpoint for each step that ran itself (Usage, Pricing, Ranking): the games file as
    a game saved before steps ran themselves holds it, the step next and not yet taken."""
    import sqlite3

    from companion import session

    with session.Store(db) as store:
        game = store.latest("mule")
        assert game is not None
        events = store.events(game.id)
    for i, event in enumerate(events):
        step = event.data.get("step")
        if not event.data.get("auto") or step in out:
            continue
        copy = folder / f"{step}.sqlite3"
        shutil.copy(db, copy)
        with sqlite3.connect(copy) as conn:
            conn.execute("DELETE FROM events WHERE seq >= ?", (event.seq,))
        out[str(step)] = (copy, session.fold_of("mule")(events[:i]))


# -- wrong entries, each wrong by construction for the state it is thrown at --------------------

def _others(s: dict[str, Any], who: str) -> list[str]:
    return [n for n in s["ranking"] if n != who]


# A game saved where a step that runs itself comes next takes the entry of a step after it: the
# steps up to that one run themselves first.
RAN_UP_TO = {"usage": {"produce"}, "pricing": {"trade"}, "ranking": {"lucky"},
             "sellout": {"ranking", "end"}}
# The entry for a step that has just run itself changes nothing and says so (exit 0): the table
# typing it out of habit is not refused (test_mule_auto.py).
JUST_RAN = {"produce": {"usage"}, "trade": {"pricing"}, "lucky": {"ranking"}}


def wrong_entries(step: str, s: dict[str, Any], who: str | None) -> st.SearchStrategy[list[str]]:
    names = list(s["ranking"])
    garbage = st.text(alphabet="abcXYZ019 @=>,;!?-", min_size=1, max_size=12).filter(
        lambda t: any(ch.isalnum() for ch in t) and t.strip().lower() not in ("none", "no"))
    wrong_time = st.sampled_from(["grant Bob P05@B2", "auction none", "package none",
                                  "develop Ann pass", "usage", "produce PR13", "pricing",
                                  "trade smithore", "ranking", "lucky Cid LE02 --to Bob",
                                  "unlucky Dee UE02 --to Bob", "end", "final-market"]).filter(
        lambda c: c.split()[0] != {"sellout": "final-market"}.get(step, step)
        and c.split()[0] not in RAN_UP_TO.get(step, ())
        and c.split()[0] not in JUST_RAN.get(step, ())).map(str.split)
    options: list[st.SearchStrategy[list[str]]] = [wrong_time]
    if step == "grant":
        assert who is not None
        taken = [x["tile"] for p in s["players"].values() for x in p["lands"] if x.get("tile")]
        own = [x["square"] for x in s["players"][who]["lands"]]
        claims = [f"P20@{sq}" for sq in own] + [f"{t}@B3" for t in taken] + [
            "P20@C2", "R04@B2", "P20@F1", "Z99@B2", "P20@B9", "M01@B2", "P20"]
        options += [st.sampled_from(claims).map(lambda c: ["grant", who, c]),
                    st.sampled_from(_others(s, who)).map(lambda n: ["grant", n, "P20@E3"]),
                    garbage.map(lambda g: ["grant", who, g]),
                    # several Colonists in one entry, the first right and a later one wrong:
                    # nothing of the entry is saved
                    st.sampled_from(claims).map(lambda c: ["grant", f"{who}={RIGHT['grant'][2]}",
                                                           f"{_others(s, who)[0]}={c}"])]
    elif step == "auction":
        holders = [n for n in names if s["hands"][n].get("land_for_sale")]
        bids = st.integers(0, 60).filter(lambda b: b < 8 or (b - 8) % 2 == 1)
        options += [
            st.tuples(st.sampled_from(holders), st.sampled_from(names), bids).map(
                lambda t: ["auction", t[0], t[1], str(t[2]), "P20@B2"]),
            st.tuples(st.sampled_from(holders), st.sampled_from(names)).map(
                lambda t: ["auction", t[0], t[1], str(s["players"][t[1]]["money"] + 2 -
                                                     s["players"][t[1]]["money"] % 2),
                           "P20@B2"]),
            st.sampled_from(names).map(lambda n: ["auction", "Zed", n, "8", "P20@B2"]),
            # a right bid by a holder whose turn has not come (the cards go from Rank 1 down)
            st.sampled_from([n for n in holders if n != who]).map(
                lambda n: ["auction", n, n, "8", "P20@B2"]),
            garbage.map(lambda g: ["auction", g])]
    elif step == "package":
        options += [st.sampled_from(names).map(lambda n: ["package", f"{n}=PR05"]),
                    st.sampled_from(names).map(lambda n: ["package", f"{n}=gold"]),
                    st.sampled_from(names).map(lambda n: ["package", f"{n}=food,{n}=energy"]),
                    garbage.map(lambda g: ["package", g])]
    elif step == "develop":
        assert who is not None
        p = s["players"][who]
        land = p["lands"][0]["tile"]
        too_much = ["buy P04 E, assay", "assay, assay, assay", "buy R04 F, buy P04 E",
                    "refit R04 F", "move R04 P04", "pub, assay", "pass, assay", "buy Q01 F",
                    f"buy {land} X", "wampus maybe", "buy", "dance"]
        options += [st.sampled_from(too_much).map(lambda a: ["develop", who, a]),
                    st.sampled_from(_others(s, who)).map(lambda n: ["develop", n, "assay"]),
                    garbage.map(lambda g: ["develop", who, g]),
                    st.sampled_from(too_much).map(lambda a: ["develop", f"{who}=pass",
                                                             f"{_others(s, who)[0]}={a}"])]
    elif step == "develop-single":
        assert who is not None
        # Dee holds 4 Food; the one Action Round takes up to 6 Actions and 6 Food
        too_much = ["assay, " * 6 + "assay", "buy R04 F, buy P04 E, assay, assay",
                    "refit R04 F", "move R04 P04", "pub, assay", "assay, pass, assay",
                    "buy Q01 F", "wampus maybe", "dance"]
        options += [st.sampled_from(too_much).map(lambda a: ["develop", who, a]),
                    st.sampled_from(_others(s, who)).map(lambda n: ["develop", n, "assay"]),
                    garbage.map(lambda g: ["develop", who, g])]
    elif step == "reveal":
        options += [st.sampled_from(["PR01", "The Ship is Back!", "Z42", "PR06 PR07"]).map(
            lambda c: ["reveal", *c.split()]),
            st.just(["reveal", "PR05", "--flip", "Ann=R03"]),
            st.text(alphabet="XYZ019@=>!?", min_size=1, max_size=8).filter(
                lambda t: any(ch.isalnum() for ch in t)).map(lambda g: ["reveal", g])]
    elif step == "produce":
        options += [st.sampled_from(["PR01", "The Ship is Back!", "Z42", "PR06 PR07"]).map(
            lambda c: ["produce", *c.split()]),
            st.just(["produce", "PR05", "--flip", "Ann=R03"]),
            # Meteorite Strike! (PR10): Turn 1 emptied 8 White squares, 1 Red and no Blue
            # one, so no Crater goes Blue, only one Red, none beside the board
            st.sampled_from(["", "blue,red", "red,red", "white", "green,white",
                             "white,beside", "M01=white,M01=red"]).map(
                lambda z: ["produce", "PR10", "--craters", z]),
            st.just(["produce", "PR10"]),
            st.text(alphabet="XYZ019@=>!?", min_size=1, max_size=8).filter(
                lambda t: any(ch.isalnum() for ch in t)).map(lambda g: ["produce", g])]
    elif step == "trade":
        good = str(who)
        over = st.sampled_from(names).map(
            lambda n: ["trade", good, "--sell", f"{n}={s['players'][n][good] + 1}"])
        both = st.sampled_from(names).map(
            lambda n: ["trade", good, "--sell", f"{n}=0", "--deal", f"{n}>{n} 1@1"])
        deal = st.tuples(st.sampled_from(names), st.sampled_from(names)).filter(
            lambda t: t[0] != t[1]).map(
            lambda t: ["trade", good, "--deal",
                       f"{t[0]}>{t[1]} {s['players'][t[0]][good] + 1}@0"])
        broke = st.sampled_from(names).map(
            lambda n: ["trade", good, "--deal", f"{[m for m in names if m != n][0]}>{n} "
                       f"0@1", "--deal", f"{n}>{[m for m in names if m != n][1]} 0@0",
                       "--sell", f"{n}=0"])
        # an answer to a question nobody can answer now (a Buyer holding the only Smithore
        # cannot sell it in the same Auction, so no deal is asked)
        unasked = st.sampled_from(names).map(
            lambda n: ["trade", good, "--buy", f"{n}=1", "--deal",
                       f"{n}>{[m for m in names if m != n][0]} 1@1"])
        options += [over, both, deal, broke, unasked, st.sampled_from(["energy", "gold"]).filter(
            lambda g: g != good).map(lambda g: ["trade", g])]
    elif step in ("lucky", "unlucky"):
        assert who is not None
        other = "unlucky" if step == "lucky" else "lucky"
        card = "LE02" if step == "lucky" else "UE02"
        wrong_card = "UE02" if step == "lucky" else "LE02"
        options += [st.just([step, who, card, "--to", who]),
                    st.sampled_from(_others(s, who)).map(lambda n: [step, who, wrong_card,
                                                                    "--to", n]),
                    st.sampled_from(_others(s, who)).map(lambda n: [step, n, card, "--to", who]),
                    st.just([step, who, "Z99", "--to", _others(s, who)[0]]),
                    st.just([other, who, card, "--to", _others(s, who)[0]])]
    return st.one_of(options)


STEPS = ["grant", "auction", "package", "develop", "usage", "produce", "pricing", "trade",
         "sellout", "ranking", "lucky", "unlucky", "end", "reveal", "develop-single"]


@st.composite
def thrown(draw: Callable[..., Any], checkpoints: dict[str, tuple[Path, dict[str, Any]]]
           ) -> tuple[Path, list[str]]:
    step = draw(st.sampled_from(STEPS))
    path, s = checkpoints[step]
    who = s["todo"][0][1]
    return path, draw(wrong_entries(step, s, who))


@settings(max_examples=250, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(data=st.data())
def test_wrong_entries_are_refused_and_change_nothing(
        data: st.DataObject, checkpoints: dict[str, tuple[Path, dict[str, Any]]],
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mule_data, "FOLDER", None)
    path, args = data.draw(thrown(checkpoints))
    db = tmp_path / "games.sqlite3"
    shutil.copy(path, db)
    monkeypatch.setenv("IRATA_DB", str(db))
    before = db.read_bytes()
    capsys.readouterr()
    with pytest.raises(SystemExit) as info:
        main(["play", "mule", *args])
    err = capsys.readouterr().err
    assert info.value.code == 2, (args, err)
    assert err.startswith("error: ") and err.count("\n") == 1 and len(err) > 12, (args, err)
    assert db.read_bytes() == before, args


RIGHT = {"grant": ["grant", "Bob", "R01@C1"], "auction": ["auction", "none"],
         "package": ["package", "none"], "develop": ["develop", "Dee", "pass"],
         "usage": ["usage"], "produce": ["produce", "PR05"], "pricing": ["pricing"],
         "trade": ["trade", "smithore"], "sellout": ["final-market"], "ranking": ["ranking"],
         "lucky": ["lucky", "Cid", "LE09", "--to", "Dee"],
         "unlucky": ["unlucky", "Dee", "UE07", "--to", "Ann"], "end": ["end"],
         "reveal": ["reveal", "PR05"],
         "develop-single": ["develop", "Dee", "buy R04 F, buy P04 E, assay"]}


def test_every_checkpoint_takes_its_right_entry(
        checkpoints: dict[str, tuple[Path, dict[str, Any]]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The refusals above are the entries' own: the right entry at each checkpoint is taken."""
    monkeypatch.setattr(mule_data, "FOLDER", None)
    assert set(STEPS) <= set(checkpoints)
    for step in STEPS:
        db = tmp_path / f"{step}.sqlite3"
        shutil.copy(checkpoints[step][0], db)
        monkeypatch.setenv("IRATA_DB", str(db))
        before = db.read_bytes()
        mule(*RIGHT[step])
        assert db.read_bytes() != before, step


def test_meteorite_strike_keeps_the_zone_of_each_meteor_crater(
        checkpoints: dict[str, tuple[Path, dict[str, Any]]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mule_data, "FOLDER", None)
    db = tmp_path / "games.sqlite3"
    shutil.copy(checkpoints["produce"][0], db)
    monkeypatch.setenv("IRATA_DB", str(db))
    before = db.read_bytes()
    with pytest.raises(SystemExit) as info:
        main(["play", "mule", "produce", "PR10", "--craters", "blue,white"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and db.read_bytes() == before
    assert err == ("error: Meteorite Strike!: a Meteor Crater goes on an empty square of Planet "
                   "Irata, and the Blue Zone has no empty square, so it cannot take M01\n")
    out = mule("produce", "PR10", "--craters", "M02=red,M01=white")
    assert "Bob places M01, M02 on empty squares of Planet Irata (M01 White Zone, M02 Red " \
        "Zone)" in out
    assert state()["crater_zones"] == {"M01": "white", "M02": "red"}
    assert "Meteor Craters on Planet Irata: M01 (white), M02 (red)" in CliRunner().invoke(
        cli, ["play", "status"], catch_exceptions=False).output


# -- turn stopped at any prompt resumes where it was --------------------------------------------

# Turn 1 of a Tournament game with the companion's decks (seed 3), as typed at `turn`'s prompts
ANSWERS = [
    "R01@C1", "R02@C1", "R03@C3", "R04@C1", "P03@B1", "P09@B1", "P07@D3", "P04@A1",
    "Dee Ann 10 P13@B3", "none",                              # Land Auctions
    "Bob=food",                                               # Package From Home World!
    "buy R04 F, assay", "buy R03 F, buy P07 E", "buy R02 F, wampus", "buy R01 F",
    "pass", "pub", "pass", "pass",                            # Action Round 2
    # the four Auctions: nobody holds Smithore (only The Store's sales are asked), nobody holds
    # Crystite and The Store sells none (it runs itself)
    "Dee=1", "Bob=3", "", "", "", "", "Ann>Cid 1@3",
    "Ann", "Bob",                                             # Personal Events
]


def _start(db: Path) -> None:
    os.environ["IRATA_DB"] = str(db)
    mule("new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3", "--deck")


def _turn(lines: list[str]) -> int:
    result = CliRunner().invoke(cli, ["play", "mule", "turn"],
                                input="".join(f"{a}\n" for a in lines))
    return result.exit_code


def _typed(db: Path) -> int:
    """How many answers the saved steps hold."""
    import sqlite3

    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT data FROM events WHERE kind = 'step'").fetchall()
    return sum(len(json.loads(r[0])["answers"]) for r in rows
               if not json.loads(r[0]).get("auto"))


def test_turn_resumes_where_it_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mule_data, "FOLDER", None)
    whole = tmp_path / "whole.sqlite3"
    _start(whole)
    assert _turn(ANSWERS) == 0
    done = state()
    assert done["turn"] == 2 and _typed(whole) == len(ANSWERS)
    rng = random.Random(12)
    cuts = sorted({0, len(ANSWERS) - 1, *rng.sample(range(len(ANSWERS)), 12)})
    for cut in cuts:
        db = tmp_path / f"cut-{cut}.sqlite3"
        _start(db)
        assert _turn(ANSWERS[:cut]) == 2              # the input ends at prompt `cut`
        kept = _typed(db)
        assert kept <= cut                           # the step in progress is not saved ...
        stopped = now()
        # ... and everything before it is: the next prompts are the stopped step's own
        assert _turn(ANSWERS[kept:]) == 0, (cut, kept, stopped)
        assert state() == done, cut


def test_turn_in_a_process_whose_input_closes(tmp_path: Path) -> None:
    """The real command in its own process, its input closed halfway through a step."""
    env = {**os.environ, "IRATA_DB": str(tmp_path / "g.sqlite3"),
           "XDG_CACHE_HOME": str(tmp_path / "cache")}
    cmd = [sys.executable, "-m", "irata.cli", "play", "mule"]
    subprocess.run([*cmd, "new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed",
                    "3", "--deck"], env=env, cwd=ROOT, check=True, capture_output=True)
    cut = 12                                          # Ann's Action Round 1 is being asked
    proc = subprocess.run([*cmd, "turn"], env=env, cwd=ROOT, capture_output=True, text=True,
                          input="".join(f"{a}\n" for a in ANSWERS[:cut]))
    assert proc.returncode == 2                       # a question left unanswered: bad input
    assert "error: the input ended at" in proc.stderr
    assert "everything before it is saved" in proc.stderr
    nxt = json.loads(subprocess.run([*cmd, "next", "--json"], env=env, cwd=ROOT, check=True,
                                    capture_output=True, text=True).stdout)["next"]
    assert (nxt["step"], nxt["who"]) == ("develop", "Ann")
    proc = subprocess.run([*cmd, "turn"], env=env, cwd=ROOT, capture_output=True, text=True,
                          input="".join(f"{a}\n" for a in ANSWERS[cut:]))
    assert proc.returncode == 0, proc.stdout[-500:] + proc.stderr
    assert "Turn 1 saved" in proc.stdout


def test_turn_interrupted_by_ctrl_c(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT) while ``turn`` waits at a prompt: the steps answered are saved, the
    one in progress is not, and ``turn`` resumes there."""
    import signal
    import time

    db = tmp_path / "g.sqlite3"
    env = {**os.environ, "IRATA_DB": str(db), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    cmd = [sys.executable, "-m", "irata.cli", "play", "mule"]
    subprocess.run([*cmd, "new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed",
                    "3", "--deck"], env=env, cwd=ROOT, check=True, capture_output=True)
    cut = 11                                   # Land Grants, Land Auctions, the packages
    # (SIGINT back to its default in the child: a shell that runs the tests in the background
    # hands them SIGINT ignored, and Python then never turns it into KeyboardInterrupt)
    proc = subprocess.Popen([*cmd, "turn"], env=env, cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdin is not None
    proc.stdin.write("".join(f"{a}\n" for a in ANSWERS[:cut]))
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    while _typed(db) < cut:                    # it waits at Dee's Action Round now
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.1)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err                # interrupted, as the user asked
    assert "Stopped at" in err and "everything before it is saved" in err
    assert _typed(db) == cut
    done = subprocess.run([*cmd, "turn"], env=env, cwd=ROOT, capture_output=True, text=True,
                          input="".join(f"{a}\n" for a in ANSWERS[cut:]))
    assert done.returncode == 0 and "Turn 1 saved" in done.stdout, done.stderr


def test_names_in_options_as_typed_and_given_once(
        checkpoints: dict[str, tuple[Path, dict[str, Any]]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``--hit NAME=LAND`` names a Colonist in any case, like every other entry; a name given
    twice is refused (the second would silently win) and changes nothing."""
    monkeypatch.setattr(mule_data, "FOLDER", None)
    db = tmp_path / "games.sqlite3"
    shutil.copy(checkpoints["produce"][0], db)
    monkeypatch.setenv("IRATA_DB", str(db))
    before = db.read_bytes()
    for args, message in (
            (["--hit", "Ann=P07", "--hit", "ann=R03", "--hit", "Bob=P03"], "ann is given twice"),
            (["--hit", "Ann=P07", "--hit", "Zed=R03", "--hit", "Bob=P03"], "'Zed' is not a "),
            (["--hit", "Ann=P13", "--hit", "Bob=P03"], "'P13' is not one of the Lands with a "
                                                       "M.U.L.E. (R03, P07)")):
        with pytest.raises(SystemExit) as info:
            main(["play", "mule", "produce", "PR07", *args])
        err = capsys.readouterr().err
        assert info.value.code == 2 and message in err and err.count("\n") == 1, err
        assert db.read_bytes() == before
    out = mule("produce", "PR07", "--hit", "ann=P07", "--hit", "BOB=p03")
    assert "Ann flips the M.U.L.E. on P07" in out and "Bob flips the M.U.L.E. on P03" in out


@pytest.mark.parametrize(("step", "args", "message"), [
    # an option typed twice used to keep only the last one: now both count, or it is refused
    ("trade", ["trade", "smithore", "--buy", "Dee=1", "--buy", "dee=1"], "Dee is given twice"),
    ("lucky", ["lucky", "Cid", "LE09", "--to", "Dee", "--to", "Ann"], "--to is given 2 times"),
    ("produce", ["produce", "The Ship is Back!", "--price", "5", "--price", "8"],
     "--price is given 2 times"),
    # The Store sells no Crystite: said so, not "not asked"
    ("trade", ["trade", "smithore", "--buy", "Dee=1"], None),
])
def test_an_option_typed_twice_is_never_half_taken(
        step: str, args: list[str], message: str | None,
        checkpoints: dict[str, tuple[Path, dict[str, Any]]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mule_data, "FOLDER", None)
    db = tmp_path / "games.sqlite3"
    shutil.copy(checkpoints[step][0], db)
    monkeypatch.setenv("IRATA_DB", str(db))
    if message is None:         # to the Crystite Auction, then buy Crystite
        mule(*args)
        args, message = ["trade", "crystite", "--buy", "Dee=1"], "The Store sells no Crystite"
    before = db.read_bytes()
    capsys.readouterr()
    with pytest.raises(SystemExit) as info:
        main(["play", "mule", *args])
    err = capsys.readouterr().err
    assert info.value.code == 2 and message in err and err.count("\n") == 1, err
    assert db.read_bytes() == before


# -- what play saves, `set` may save: the rules' check of a corrected state refuses none of it ---

def test_every_state_of_a_played_turn_passes_the_rules_check(
        checkpoints: dict[str, tuple[Path, dict[str, Any]]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``irata play set`` refuses a corrected state the rules forbid (companion.mule.guard);
    every state the table reaches by playing is one the rules allow, so the check takes it:
    each step of Turn 1 and the start of Turn 2, the Final Turn's, and Meteor Craters placed."""
    from companion.mule.saved import validate

    monkeypatch.setattr(mule_data, "FOLDER", None)
    monkeypatch.setenv("IRATA_DB", str(tmp_path / "games.sqlite3"))
    mule("new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3")
    validate(state())
    for args in SCRIPT:
        if args[0] == "produce":
            mule("produce", "PR10", "--craters", "M02=red,M01=white")
        else:
            mule(*args)
        validate(state())
    assert state()["crater_zones"] == {"M01": "white", "M02": "red"} and state()["turn"] == 2
    for step in ("sellout", "end"):
        validate(checkpoints[step][1])
    # with the companion's decks (drawn, discarded): each step's saved state
    import sqlite3

    decks = tmp_path / "decks.sqlite3"
    _start(decks)
    assert _turn(ANSWERS) == 0
    from companion.mule.saved import fold
    from companion.session import Event

    with sqlite3.connect(decks) as con:
        rows = con.execute("SELECT seq, kind, data, at FROM events ORDER BY seq").fetchall()
    log = [Event(seq, kind, json.loads(data), at) for seq, kind, data, at in rows]
    assert sum(1 for e in log if e.kind == "step") > 20
    for i, event in enumerate(log):
        if event.kind == "step":
            validate(fold(log[:i + 1]))
