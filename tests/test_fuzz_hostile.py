"""Fuzzing the command line with hostile input, bounded so the suite stays fast (the module
runs in well under 30 s): mutated definitions through ``check`` and ``print``, random
companion arguments, score files and ``set`` values.

What must hold for every input: no traceback (irata's own one-line error or success), exit
code 0 or 2, nothing created or deleted outside the output folder, whatever ``check`` passes
``print`` prints, and a saved game left unchanged by every refused command (and still readable
after every accepted one).

Each test draws 25 examples; ``IRATA_FUZZ_EXAMPLES=400`` runs a longer hunt by hand.
"""

from __future__ import annotations

import contextlib
import copy
import io
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import yaml
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from irata.cli import main

DECK = Path(__file__).parent / "engine" / "fixtures" / "deck"
# no shrinking: a failure is reported as found, so a failing run stays as short as a passing one
FAST = settings(max_examples=int(os.environ.get("IRATA_FUZZ_EXAMPLES", "25")), deadline=None,
                suppress_health_check=list(HealthCheck),
                phases=[Phase.explicit, Phase.reuse, Phase.generate])

HOSTILE_TEXT = ["", "nan", "NaN", ".nan", "inf", "-inf", "1e999", "1e308", "-1e308", "../x",
                "/etc/passwd", "..", "#xyz", "#12345", "²", "٣", "9" * 5000, "9" * 400, "-1",
                "0", "100%", "1.2.3%", "50%-", "$nope", "${data.x}", "[1]", "{}", "x\ny",
                "\0", "*" * 300, "big", "2026-13-45", "a/../../b", "card-front"]
hostile = st.one_of(
    st.sampled_from(HOSTILE_TEXT),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(),
    st.text(max_size=30),
    st.booleans(),
    st.none(),
    st.lists(st.one_of(st.integers(-5, 5), st.sampled_from(HOSTILE_TEXT[:12])), max_size=4),
    st.dictionaries(st.sampled_from(["x", "type", "w", "id"]), st.integers(-5, 5), max_size=2),
)


def run(args: list[str]) -> tuple[int, str]:
    """Run irata in-process: its exit code and stderr. A traceback fails the test here."""
    err = io.StringIO()
    code: Any = 0
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            main(args)
        except SystemExit as exc:
            code = exc.code
    assert code in (0, 2), (args, code, err.getvalue())
    if code == 2:
        lines = [ln for ln in err.getvalue().splitlines() if ln.startswith("error: ")]
        assert len(lines) == 1, err.getvalue()
    return int(code), err.getvalue()


def snapshot(root: Path, skip: Path) -> dict[str, int | str]:
    """Every path under ``root`` but ``skip``: a file's size and time, a link's target, a
    folder's presence."""
    out: dict[str, int | str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        if here == skip or skip in here.parents:
            dirnames[:] = []
            continue
        for name in dirnames + filenames:
            p = here / name
            if p == skip:
                continue
            if p.is_symlink():
                out[str(p)] = "-> " + os.readlink(p)
            elif p.is_dir():
                out[str(p)] = "folder"
            else:
                out[str(p)] = f"{p.stat().st_size} {p.stat().st_mtime_ns}"
    return out


def leaves(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a YAML document a value sits (mappings' values and lists' items)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield (*path, k)
            yield from leaves(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield (*path, i)
            yield from leaves(v, (*path, i))


def put(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    doc = copy.deepcopy(doc)
    node = doc
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return doc


@FAST
@given(data=st.data())
def test_mutated_definitions_never_crash_escape_or_pass_check_and_fail_print(
        data: st.DataObject) -> None:
    files = sorted(p.name for p in DECK.glob("*.yaml"))
    name = data.draw(st.sampled_from(files), label="file")
    doc = yaml.safe_load((DECK / name).read_text(encoding="utf-8"))
    mutations = data.draw(st.integers(1, 3), label="mutations")
    for _ in range(mutations):
        places = list(leaves(doc))
        if not places:
            break
        where = data.draw(st.sampled_from(places), label="where")
        doc = put(doc, where, data.draw(hostile, label="value"))
    with tempfile.TemporaryDirectory() as base:
        root = Path(base) / "a" / "b"
        shutil.copytree(DECK, root / "G")
        try:
            text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
        except (yaml.YAMLError, ValueError):
            return  # not a document YAML can write
        (root / "G" / name).write_text(text, encoding="utf-8")
        out = root / "out"
        before = snapshot(Path(base), out)
        checked, err = run(["check", "--components", str(root / "G")])
        printed, perr = run(["print", "--components", str(root / "G"), "--out", str(out)])
        assert snapshot(Path(base), out) == before
        if checked == 0:
            assert printed == 0, f"check passed but print failed: {perr}"
        else:
            assert printed == 2 and not list(out.glob("*/manifest.json")), perr


# --- the companion ------------------------------------------------------------------------

amount = st.one_of(st.sampled_from(HOSTILE_TEXT), st.integers(-(10**12), 10**12).map(str),
                   st.text(alphabet="0123456789+-$ ²٣.e", max_size=12))
name = st.one_of(st.sampled_from(["Ann", "Bob", "Cid", "", "Zed", "x" * 300, "Ann\n"]),
                 st.text(max_size=8))

COMMANDS = st.one_of(
    st.tuples(st.just(["play", "mule-goes-crazy", "auction"]),
              st.sampled_from(["sunny-flats", "river-bottom", "nowhere", ""]),
              st.just("--winner"), name, st.just("--price"), amount),
    st.tuples(st.just(["play", "mule-goes-crazy", "buy"]), name,
              st.sampled_from(["food", "energy", "smithore", "crystite", "gold"])),
    st.tuples(st.just(["play", "mule-goes-crazy", "grant"]), name,
              st.sampled_from(["sunny-flats", "foothills", "x"])),
    st.tuples(st.just(["play", "mule-goes-crazy", "end-turn"])),
    st.tuples(st.just(["play", "status", "--game"]), amount),
    st.tuples(st.just(["play", "undo", "--game"]), amount),
    st.tuples(st.just(["play", "mule", "spoilage", "--food"]), amount, st.just("--energy"),
              amount, st.just("--smithore"), amount, st.just("--crystite"), amount),
    st.tuples(st.just(["play", "mutagen", "setup"]), amount),
    st.tuples(st.just(["play", "outer-earth", "setup", "--players"]), amount),
)


def flat(parts: tuple[Any, ...]) -> list[str]:
    out: list[str] = []
    for p in parts:
        out.extend(p) if isinstance(p, list) else out.append(str(p))
    return out


def rows(db: Path) -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(db)) as con:
        return (con.execute("SELECT * FROM games ORDER BY id").fetchall()
                + con.execute("SELECT * FROM events ORDER BY game_id, seq").fetchall())


@contextlib.contextmanager
def saved_game() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as base:
        db = Path(base) / "games.sqlite3"
        with mock.patch.dict(os.environ, {"IRATA_DB": str(db)}):
            code, err = run(["play", "mule-goes-crazy", "new", "--players", "Ann,Bob,Cid",
                             "--seed", "3"])
            assert code == 0, err
            yield db


@FAST
@given(commands=st.lists(COMMANDS, min_size=1, max_size=4))
def test_random_companion_commands_change_nothing_when_refused(
        commands: list[tuple[Any, ...]]) -> None:
    with saved_game() as db:
        for parts in commands:
            before = rows(db)
            code, _ = run(flat(parts))
            if code == 2:
                assert rows(db) == before
            assert run(["play", "status"])[0] == 0


@FAST
@given(data=st.data())
def test_set_never_saves_a_value_that_breaks_the_game(data: st.DataObject) -> None:
    with saved_game() as db:
        state_paths = ["round", "turn", "players.Ann.food", "players.Ann", "players.Ann.lands",
                       "players.Bob.credits", "store.smithore", "prices", "opening_bid",
                       "players.Ann.food.x", "players.0", "seating.0", "seating.9"]
        for _ in range(data.draw(st.integers(1, 3))):
            path = data.draw(st.one_of(st.sampled_from(state_paths), st.text(max_size=12)))
            value = data.draw(st.one_of(
                amount, st.sampled_from(['{}', '[]', '[1, 2]', '"x"', 'true', 'null', 'NaN',
                                         'Infinity', '1e999', '2.5', '[{"a": 1}]'])))
            if path.startswith("-") or value.startswith("-"):
                continue  # click reads those as options
            before = rows(db)
            code, _ = run(["play", "set", path, value])
            if code == 2:
                assert rows(db) == before
            # whatever set accepted, every command that reads the game still works
            assert run(["play", "status"])[0] == 0
            assert run(["play", "mule-goes-crazy", "mule-price", "food"])[0] in (0, 2)


score_value = st.one_of(st.integers(-(10**7), 10**7), st.sampled_from(HOSTILE_TEXT), st.floats(),
                        st.lists(st.sampled_from(["jade", "amber", "x", 3]), max_size=3),
                        st.none())
player = st.fixed_dictionaries({"name": name}, optional={
    "score": score_value, "storage": score_value, "shards": score_value, "trees": score_value,
    "tracks": st.one_of(score_value, st.fixed_dictionaries(
        {}, optional={"ore": score_value, "gas": score_value, "nope": score_value})),
    "crew": st.one_of(score_value, st.lists(st.sampled_from(
        ["all", "crew/peak-gas", "nope", {"kind": "highest", "element": "ore"}]), max_size=3)),
})


@FAST
@given(doc=st.one_of(st.fixed_dictionaries({"players": st.lists(player, max_size=5)}),
                     hostile, st.text(max_size=60)),
       command=st.sampled_from([["play", "mutagen", "score"], ["play", "mutagen", "round"],
                                ["play", "outer-earth", "score"]]))
def test_random_score_files_are_scored_or_refused_in_one_line(doc: Any,
                                                               command: list[str]) -> None:
    with tempfile.TemporaryDirectory() as base:
        path = Path(base) / "scores.yaml"
        if isinstance(doc, str) and not doc.startswith("players"):
            path.write_text(doc, encoding="utf-8")
        else:
            try:
                path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
            except (yaml.YAMLError, ValueError):
                return
        with mock.patch.dict(os.environ, {"IRATA_DB": str(Path(base) / "g.sqlite3")}):
            run([*command, str(path)])
