"""A damaged games file and hostile ``set`` values: every command answers with one ``error:``
line naming the file (or the value) and exit code 2, and the games file is byte-identical after
every refused command.

The damaged files are real games files of all five games in three page layouts (SQLite pages of
512, 4096 and 65536 bytes), then overwritten or cut. ``set`` is tried property-style over every
path of each game's saved state, with values drawn from the state itself (a player's name where
a card goes, a count where a name goes) and hostile ones: whatever it accepts, every later
command of the game still reads.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from irata.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
sys.path.insert(0, str(ROOT / "tests"))
from clirun import one_line, run  # noqa: E402

# -- the games file of five games --------------------------------------------------------------

SETUP = [
    ["mule", "new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3"],
    ["mule-goes-crazy", "new", "--players", "Ann,Bob,Cid", "--seed", "7"],
    ["mule-goes-crazy", "auction", "river-bottom", "--winner", "Ann", "--price", "200"],
    ["muli", "new", "--players", "Ann,Bob,Cy", "--seed", "5"],
    ["muli", "roll"],
    ["outer-earth", "new", "--players", "Ann,Bob,Cid", "--seed", "9"],
    ["mutagen", "new", "--players", "Ann,Bob"],
    *[["mutagen", "points", "Ann", "1"]] * 30,   # enough events for several pages
]

# every command that opens the games file, on every game
COMMANDS = [
    ["status"], ["log"], ["games"], ["undo"], ["export"], ["set", "scores.Ann", "3"],
    ["status", "--game", "1"], ["log", "--game", "2"], ["status", "--game", "3"],
    ["mule", "next", "--game", "1"], ["mule", "status", "--game", "1"],
    ["mule", "grant", "Bob", "P07@B1", "--game", "1"], ["mule", "turn", "--game", "1"],
    ["mule-goes-crazy", "next"], ["mule-goes-crazy", "favored", "--save"],
    ["muli", "next"], ["muli", "status"], ["muli", "roll"],
    ["mutagen", "next"], ["mutagen", "points", "Ann", "1"],
    ["outer-earth", "next"], ["outer-earth", "actions", "--save"],
    ["mutagen", "new", "--players", "Zed"],
]


def games_file(path: Path, page_size: int) -> Path:
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA page_size = {page_size}")
    con.execute("VACUUM")
    con.close()
    for args in SETUP:
        code, err = run(["play", *args, "--db", str(path)])
        assert code == 0, (args, err)
    with sqlite3.connect(path) as con:  # no free page: any page overwritten is one in use
        assert con.execute("PRAGMA freelist_count").fetchone()[0] == 0
    return path


@pytest.fixture(scope="module", params=[512, 4096, 65536], ids=lambda n: f"pages-{n}")
def layout(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> tuple[int, bytes]:
    size = int(request.param)
    path = games_file(tmp_path_factory.mktemp("layout") / "games.sqlite3", size)
    return size, path.read_bytes()


def damaged(data: bytes, page: int) -> dict[str, bytes]:
    pages = len(data) // page
    mid = pages // 2
    return {
        "the header overwritten": data[:16] + b"\xa5" * 84 + data[100:],
        "the page count of the header past the end": data[:28] + b"\x7f\xff\xff\xff"
        + data[32:],
        "the schema page overwritten": data[:100] + b"\xa5" * (page - 100) + data[page:],
        "a middle page overwritten": data[:mid * page] + b"\xa5" * page
        + data[(mid + 1) * page:],
        "a middle page's b-tree header zeroed": data[:mid * page] + b"\x00" * 12
        + data[mid * page + 12:],
        "the last page overwritten": data[:(pages - 1) * page] + b"\x5a" * page,
        "cut mid-page": data[:len(data) - page // 2],
        "cut in half": data[:(pages // 2) * page + 17],
        "cut inside the header": data[:60],
    }


DAMAGES = list(damaged(b"\0" * 4096 * 8, 4096))


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_games_file_is_one_line_for_every_command_and_never_changes(
        layout: tuple[int, bytes], damage: str, tmp_path: Path) -> None:
    page, data = layout
    bad = damaged(data, page)[damage]
    db = tmp_path / "games.sqlite3"
    for args in COMMANDS:
        db.write_bytes(bad)
        code, err = run(["play", *args, "--db", str(db)])
        assert one_line(code, err), (args, err)
        assert str(db) in err and "damaged" in err, (args, err)
        assert "backup" in err and "integrity_check" in err, err  # what to do
        assert db.read_bytes() == bad, args
        assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite3"], args


def test_bytes_overwritten_inside_an_event_are_one_line_for_its_game(
        tmp_path: Path) -> None:
    """Text that is no longer UTF-8 passes SQLite's own check; the game whose event holds it
    says so in one line, the other games in the file play on."""
    db = games_file(tmp_path / "games.sqlite3", 4096)
    data = db.read_bytes()
    at = data.find(b'"store_at_turn_start"')      # Mule Goes Crazy!'s alone
    assert at > 0 and data.count(b'"store_at_turn_start"') == 1
    bad = data[:at] + b'"st\xff\xfere' + data[at + 7:]
    for args in (["status", "--game", "2"], ["mule-goes-crazy", "next"], ["log", "--game", "2"],
                 ["mule-goes-crazy", "favored", "--save"], ["export", "--game", "2"],
                 ["set", "opening_bid", "100", "--game", "2"]):
        db.write_bytes(bad)
        code, err = run(["play", *args, "--db", str(db)])
        assert one_line(code, err) and str(db) in err and "is not UTF-8" in err, (args, err)
        assert db.read_bytes() == bad, args
    db.write_bytes(bad)
    assert run(["play", "muli", "next", "--db", str(db)])[0] == 0


def test_a_set_up_event_with_a_key_overwritten_is_one_line_for_mule_next(
        tmp_path: Path) -> None:
    """The fold of M.U.L.E. replays its set-up as saved; a key overwritten in it (still JSON)
    stops ``next``, ``status``, ``turn`` and a step with one line, not a KeyError."""
    db = tmp_path / "games.sqlite3"
    assert run(["play", *SETUP[0], "--db", str(db)])[0] == 0
    data = db.read_bytes()
    assert data.count(b'"players"') == 1
    at = data.find(b'"players"')
    bad = data[:at] + b'"plOOOrs"' + data[at + 9:]
    for args in (["mule", "next"], ["mule", "status"], ["mule", "turn"],
                 ["mule", "grant", "Bob", "P07@B1"], ["status"]):
        db.write_bytes(bad)
        code, err = run(["play", *args, "--game", "1", "--db", str(db)])
        assert one_line(code, err) and str(db) in err, (args, err)
        assert "undo" in err, err
        assert db.read_bytes() == bad, args


# -- set, over every path of every game -------------------------------------------------------

GAMES: dict[str, tuple[list[list[str]], list[list[str]]]] = {
    "mule-goes-crazy": (
        [["new", "--players", "Ann,Bob,Cid", "--seed", "7", "--favored", "Cid"],
         ["grant", "Ann", "Sunny Flats"],
         ["grant", "Bob", "river-bottom"], ["opening-bid", "--save"],   # Cid, favored, ran itself
         ["auction", "foothills", "--winner", "Cid", "--price", "250"],
         ["buy", "Ann", "energy"], ["move", "Ann", "energy", "sunny-flats"],
         ["upgrade", "Ann", "solar-panels", "--on", "sunny-flats"], ["done", "Ann"],
         ["population", "colonists", "--player", "Bob"], ["facility", "Cid", "solar-farm"],
         ["produce", "--save", "--player", "Ann", "--rolls", "6,6,6,6"]],
        [["next"], ["favored", "--save"], ["opening-bid", "--save"], ["produce", "--save"],
         ["spoilage", "--save"], ["upkeep", "--save"], ["end-turn"],
         ["mule-price", "energy", "--save"], ["buy", "Cid", "smithore"],
         ["auction", "high-mountains", "--winner", "Bob", "--price", "200"],
         ["move", "Bob", "food", "river-bottom"]]),
    "muli": ([["new", "--players", "Ann,Bob,Cy", "--seed", "5"], ["roll"], ["roll"]],
             [["next"], ["status"], ["roll"], ["roll"]]),
    "mutagen": ([["new", "--players", "Ann,Bob"], ["points", "Ann", "3"]],
                [["next"], ["points", "Bob", "2"],
                 ["round", str(EXAMPLES / "mutagen" / "round.yaml"), "--save"],
                 ["score", str(EXAMPLES / "mutagen" / "score.yaml"), "--save"]]),
    "outer-earth": (
        [["new", "--players", "Ann,Bob,Cid", "--seed", "9"],
         ["bid", "--save", "--planet", "Ferrox", "--green", "Ann"], ["actions", "--save"]],
        [["next"], ["actions", "--save"], ["draw", "Ann"],
         ["build", "Ann", "blue", "--planet", "Ferrox"], ["upkeep", "--save"],
         ["round", "--save"], ["score", str(EXAMPLES / "outer_earth" / "score.yaml"),
                               "--save"]]),
    "mule": ([["new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3"]],
             [["next"], ["status"], ["grant", "Bob", "P07@B1"], ["grant", "Ann", "P07@B1"]]),
}

HOSTILE = ["WORD", "0", "-1", "3", "999999", "true", "null", '["x"]', "[]", "1.5", '""',
           "[1]", '[{"a": 1}]', '["Ann", "Ann"]', "Zed"]


def _paths(node: Any, prefix: str = "") -> Iterator[str]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, f"{prefix}.{k}" if prefix else str(k))
    elif isinstance(node, list):
        yield prefix
        for i, v in enumerate(node):
            yield from _paths(v, f"{prefix}.{i}")
    else:
        yield prefix


def _values(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for v in node.values():
            yield from _values(v)
        return
    if isinstance(node, list):
        for v in node:
            yield from _values(v)
    yield node if isinstance(node, str) else json.dumps(node)


def _state(db: Path) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(["play", "status", "--json", "--db", str(db)])
    state: dict[str, Any] = json.loads(out.getvalue())["state"]
    return state


_BASES: dict[str, tuple[bytes, list[str], list[str]]] = {}


def _base(game: str) -> tuple[bytes, list[str], list[str]]:
    """A games file with one game played a little, its state's paths and a pool of values."""
    if game not in _BASES:
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "games.sqlite3"
            for args in GAMES[game][0]:
                code, err = run(["play", game, *args, "--db", str(db)])
                assert code == 0, (args, err)
            state = _state(db)
            pool = sorted(set(_values(state)) | set(HOSTILE))
            _BASES[game] = db.read_bytes(), list(_paths(state)), pool
    return _BASES[game]


FUZZ = settings(max_examples=int(os.environ.get("IRATA_FUZZ_EXAMPLES", "40")), deadline=None,
                suppress_health_check=list(HealthCheck),
                phases=[Phase.explicit, Phase.reuse, Phase.generate])


def set_then_play(game: str, data: bytes, path: str, value: str) -> None:
    """``set PATH VALUE`` on a copy of the game: refused in one line with the file unchanged,
    or accepted, and then every later command still reads the game (or refuses in one line,
    changing nothing)."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "games.sqlite3"
        db.write_bytes(data)
        code, err = run(["play", "set", path, value, "--db", str(db)])
        if code != 0:
            assert one_line(code, err), (path, value, err)
            assert db.read_bytes() == data, (path, value)
            return
        saved = db.read_bytes()
        for args in GAMES[game][1]:
            code, err = run(["play", game, *args, "--db", str(db)])
            assert code == 0 or one_line(code, err), (path, value, args, err)
            if code == 2:
                assert db.read_bytes() == saved, (path, value, args)
            saved = db.read_bytes()
        assert run(["play", "status", "--db", str(db)])[0] == 0, (path, value)


@pytest.mark.parametrize("game", list(GAMES))
def test_every_set_path_takes_a_word_a_name_a_count_and_a_list_or_refuses_them(
        game: str) -> None:
    """Every path of the state, each with the values that broke games before: a word the game
    does not know, a player's name, a count, a list of a word."""
    data, paths, _ = _base(game)
    for path in paths:
        for value in ("WORD", "Ann", "3", '["x"]'):
            set_then_play(game, data, path, value)


@pytest.mark.parametrize("game", list(GAMES))
def test_any_set_value_replays_or_is_refused_with_the_file_unchanged(game: str) -> None:
    """Any path, any value the state holds somewhere or a hostile one (property-style)."""
    data, paths, pool = _base(game)

    @FUZZ
    @given(path=st.sampled_from(paths), value=st.sampled_from(pool))
    def check(path: str, value: str) -> None:
        set_then_play(game, data, path, value)

    check()


@pytest.mark.parametrize(("game", "path", "value", "reason"), [
    ("mule-goes-crazy", "seating.0", "WORD", "the seating holds each player once"),
    ("mule-goes-crazy", "seating", '["Ann", "Ann", "Bob"]', "the seating holds each player"),
    ("mule-goes-crazy", "favored", "Zed", "the favored player is a player"),
    ("mule-goes-crazy", "players.Ann.lands.0", "Ann", "is no Land card of the deck"),
    ("mule-goes-crazy", "players.Ann.mules.0.mule", "dragon", "is no Mule card of the deck"),
    ("mule-goes-crazy", "players.Ann.mules.0.land", "foothills", "which is not Ann's Land"),
    ("mule-goes-crazy", "auctions.0.winner", "Zed", "an auction's winner is a player"),
    ("mule-goes-crazy", "populations.0.card", "dragons", "a Population card in play"),
    ("muli", "pieces.red.owner", "Bob", "each player has one Mule"),
    ("muli", "pieces.orange.owner", "Ann", "a runner belongs to no one"),
    ("outer-earth", "players.Ann.in_development.0.built", "[1]", "development colours"),
    ("outer-earth", "players.Ann.portfolio", '["Nowhere"]', "no planet 'Nowhere'"),
])
def test_set_refuses_what_a_later_command_could_not_read(
        game: str, path: str, value: str, reason: str, tmp_path: Path) -> None:
    data = _base(game)[0]
    db = tmp_path / "games.sqlite3"
    db.write_bytes(data)
    code, err = run(["play", "set", path, value, "--db", str(db)])
    assert one_line(code, err) and reason in err, err
    assert db.read_bytes() == data
    for args in GAMES[game][1][:2]:   # the commands that raised before still run
        code, err = run(["play", game, *args, "--db", str(db)])
        assert code == 0 or one_line(code, err), (args, err)


def test_mule_goes_crazy_takes_a_new_seating_of_its_players(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    db.write_bytes(_base("mule-goes-crazy")[0])
    assert run(["play", "set", "seating", '["Cid", "Ann", "Bob"]', "--db", str(db)])[0] == 0
    assert _state(db)["seating"] == ["Cid", "Ann", "Bob"]
    assert run(["play", "mule-goes-crazy", "produce", "--save", "--db", str(db)])[0] == 0



READ_ONLY = {"status", "log", "games", "export", "next"}


@pytest.mark.parametrize("page", [512, 4096])
def test_bytes_overwritten_anywhere_never_give_a_traceback(page: int, tmp_path: Path) -> None:
    """Random bytes at a random place of the file, then any command: its answer or one line,
    and a refused command leaves the file as it was."""
    data = games_file(tmp_path / "base.sqlite3", page).read_bytes()

    @FUZZ
    @given(at=st.integers(0, len(data) - 1), junk=st.binary(min_size=1, max_size=64),
           cut=st.booleans(), args=st.sampled_from(COMMANDS))
    def check(at: int, junk: bytes, cut: bool, args: list[str]) -> None:
        bad = data[:at] if cut else data[:at] + junk + data[at + len(junk):]
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "games.sqlite3"
            db.write_bytes(bad)
            code, err = run(["play", *args, "--db", str(db)])
            assert code == 0 or one_line(code, err), (at, junk, cut, args, err)
            if code == 2 or args[-1] in READ_ONLY or args[0] in READ_ONLY:
                assert db.read_bytes() == bad, (at, junk, cut, args)

    check()
