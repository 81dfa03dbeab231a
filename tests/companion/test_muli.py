"""Das Störrische Muli: the race's rules (Game Preparations to Game End and Winners) and its CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.muli import rules as m
from companion.muli.data import load_rules
from components.errors import InputError, RuleError
from irata.cli import cli, main

ROOT = Path(__file__).resolve().parents[2]
RULES = load_rules()
T = RULES.turning_field


def race_with(race: m.Race, **fields: tuple[int, str] | int) -> m.Race:
    """The race with pieces moved: colour=field or colour=(field, where)."""
    pieces = []
    for p in race.pieces:
        if p.colour in fields:
            v = fields[p.colour]
            f, where = v if isinstance(v, tuple) else (v, m.TRACK)
            p = replace(p, field=f, where=where)
        pieces.append(p)
    return replace(race, pieces=tuple(pieces))


@pytest.fixture
def three() -> m.Race:
    return m.setup(RULES, ["Ann", "Bob", "Cy"])


# --- Game Preparations -------------------------------------------------------------------------

def test_the_printed_copy_has_six_colours_five_mules_three_runners() -> None:
    assert len(RULES.colours) == 6
    assert len(RULES.mule_colours) == 5 and len(RULES.runner_colours) == 3
    assert set(RULES.mule_colours) | set(RULES.runner_colours) == set(RULES.colours)


@pytest.mark.parametrize("players, runners", [(3, 3), (4, 2), (5, 1)])
def test_runners_make_six_pieces_in_six_colours(players: int, runners: int) -> None:
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"][:players]
    race = m.setup(RULES, names)
    assert len(race.pieces) == 6
    assert {p.colour for p in race.pieces} == set(RULES.colours)
    assert sum(p.kind == m.RUNNER for p in race.pieces) == runners
    assert sorted(p.owner for p in race.pieces if p.kind == m.MULE) == sorted(names)
    assert all(p.field == 0 and p.where == m.TRACK for p in race.pieces)
    assert race.active == "Ann"  # the youngest, named first, begins


def test_four_players_may_choose_the_purple_mule() -> None:
    race = m.setup(RULES, ["A", "B", "C", "D"], ["red", "yellow", "green", "purple"])
    assert {p.colour for p in race.pieces if p.kind == m.RUNNER} == {"orange", "blue"}


def test_mules_that_leave_a_colour_no_runner_has_are_refused() -> None:
    with pytest.raises(RuleError, match="no Human Mule Runner is yellow"):
        m.setup(RULES, ["A", "B", "C"], ["red", "blue", "green"])


@pytest.mark.parametrize("names", [["A", "B"], ["A", "B", "C", "D", "E", "F"], ["A", "A", "B"]])
def test_player_counts_and_names_are_checked(names: list[str]) -> None:
    with pytest.raises(InputError):
        m.setup(RULES, names)


def test_a_runner_colour_is_not_a_mule() -> None:
    with pytest.raises(InputError, match="no orange Mule"):
        m.setup(RULES, ["A", "B", "C"], ["red", "yellow", "orange"])


# --- Game Play ----------------------------------------------------------------------------------

def test_two_colours_move_both_pieces_one_field_whoever_owns_them(three: m.Race) -> None:
    r = m.play_roll(three, ("red", "orange"))
    assert r.race.piece("red").field == 1       # Ann's Mule
    assert r.race.piece("orange").field == 1    # a runner
    assert all(p.field == 0 for p in r.race.pieces if p.colour not in ("red", "orange"))
    assert r.race.active == "Bob"


def test_a_double_moves_that_piece_one_field_back(three: m.Race) -> None:
    race = race_with(three, green=4)
    r = m.play_roll(race, ("green", "green"))
    assert r.race.piece("green").field == 3
    assert [s.colour for s in r.steps] == ["green"]


def test_a_double_never_goes_behind_the_start(three: m.Race) -> None:
    r = m.play_roll(three, ("blue", "blue"))
    assert r.race.piece("blue").field == 0


def test_after_the_turn_a_double_never_goes_behind_the_turning_field(three: m.Race) -> None:
    race = replace(race_with(three, blue=T, red=T - 1), turned=True)
    assert m.play_roll(race, ("blue", "blue")).race.piece("blue").field == T
    assert m.play_roll(race, ("red", "red")).race.piece("red").field == T


# --- The Turning Field ------------------------------------------------------------------------

def test_reaching_the_turning_field_turns_everyone_after_the_second_move(three: m.Race) -> None:
    race = race_with(three, red=T - 1, blue=5)
    r = m.play_roll(race, ("red", "blue"))
    assert r.turned and r.race.turned
    assert r.race.piece("red").field == T
    assert r.race.piece("blue").field == 6  # moved outwards before the turn
    after = m.play_roll(r.race, ("red", "blue")).race
    assert after.piece("red").field == T - 1 and after.piece("blue").field == 5


# --- Finish -----------------------------------------------------------------------------------

def test_first_mule_home_goes_to_the_city_and_its_owner_plays_on(three: m.Race) -> None:
    race = replace(race_with(three, red=1, yellow=5, green=6, orange=3, blue=4, purple=5),
                   turned=True)
    r = m.play_roll(race, ("red", "orange"))
    assert r.race.piece("red").where == m.CITY
    assert r.race.finished == ("red",)
    assert not r.race.over
    assert m.may_play(r.race, "Ann")  # runners are still racing


def test_later_mules_home_are_out_with_their_owners(three: m.Race) -> None:
    race = replace(race_with(three, red=(0, m.CITY), yellow=1, green=6, orange=3, blue=4,
                             purple=5), turned=True, finished=("red",), active="Bob")
    r = m.play_roll(race, ("yellow", "green"))
    assert r.race.piece("yellow").where == m.OUT
    assert not m.may_play(r.race, "Bob")
    assert r.race.active == "Cy"
    # after Cy comes Ann (city Mule, runners still out there), never Bob
    assert m.next_player(r.race, "Cy") == "Ann"
    assert m.next_player(r.race, "Ann") == "Cy"


def test_the_city_owner_stops_when_no_runner_is_left(three: m.Race) -> None:
    race = replace(race_with(three, red=(0, m.CITY), yellow=4, green=6, orange=(0, m.OUT),
                             blue=(0, m.OUT), purple=(0, m.OUT)), turned=True,
                   finished=("orange", "red", "blue", "purple"))
    assert not m.may_play(race, "Ann")
    assert m.next_player(race, "Bob") == "Cy"


# --- Game End and Winners ---------------------------------------------------------------------

def test_only_runners_left_the_first_mule_home_wins(three: m.Race) -> None:
    race = replace(race_with(three, red=(0, m.CITY), yellow=(0, m.OUT), green=1, orange=3,
                             blue=4, purple=5), turned=True, finished=("red", "yellow"),
                   active="Cy")
    r = m.play_roll(race, ("green", "blue"))
    assert r.ended and r.race.winner == "Ann" and r.race.end == m.FIRST_MULE
    assert r.race.piece("blue").field == 4  # the race stopped before the second move


def test_a_single_mule_left_on_the_track_wins(three: m.Race) -> None:
    race = replace(race_with(three, red=(0, m.CITY), yellow=7, green=1, orange=(0, m.OUT),
                             blue=(0, m.OUT), purple=(0, m.OUT)), turned=True,
                   finished=("orange", "red", "blue", "purple"), active="Cy")
    r = m.play_roll(race, ("green", "yellow"))
    assert r.race.winner == "Bob" and r.race.end == m.LAST_MULE


def test_the_last_runner_leaving_ends_it_for_the_only_mule(three: m.Race) -> None:
    race = replace(race_with(three, red=(0, m.CITY), yellow=(0, m.OUT), green=5, orange=1,
                             blue=(0, m.OUT), purple=(0, m.OUT)), turned=True,
                   finished=("red", "blue", "yellow", "purple"))
    r = m.play_roll(race, ("orange", "red"))
    assert r.race.winner == "Cy" and r.race.end == m.LAST_MULE


def test_the_chosen_order_decides_who_is_home_first(three: m.Race) -> None:
    race = replace(race_with(three, red=1, yellow=1, green=6, orange=3, blue=4, purple=5),
                   turned=True)
    assert m.play_roll(race, ("red", "yellow"), first="yellow").race.piece("yellow").where \
        == m.CITY
    assert m.play_roll(race, ("red", "yellow")).race.piece("red").where == m.CITY


def test_a_piece_left_on_the_start_at_the_turn_crosses_with_its_next_move(
        three: m.Race) -> None:
    race = replace(race_with(three, red=3, orange=0), turned=True)
    r = m.play_roll(race, ("orange", "red"))
    assert r.race.piece("orange").where == m.OUT and r.race.finished == ("orange",)
    assert r.race.piece("red").field == 2


def test_no_roll_after_the_end(three: m.Race) -> None:
    with pytest.raises(RuleError):
        m.play_roll(replace(three, winner="Ann", end=m.LAST_MULE), ("red", "blue"))


# --- Keeping one die --------------------------------------------------------------------------

def test_keep_one_die_and_roll_the_other(three: m.Race) -> None:
    race = replace(three, dice=("red", "blue"))
    for seed in range(20):
        dice = m.roll_dice(race, m.seeded_rng(seed, 0), keep="blue")
        assert dice[0] == "blue"


def test_keeping_is_refused_before_any_roll(three: m.Race) -> None:
    with pytest.raises(RuleError, match="not been rolled"):
        m.check_keep(three, "red")


def test_only_a_die_on_the_table_can_be_kept(three: m.Race) -> None:
    with pytest.raises(RuleError, match="only a die lying on the table"):
        m.check_keep(replace(three, dice=("red", "blue")), "green")


def test_a_finished_colour_cannot_be_kept(three: m.Race) -> None:
    race = replace(race_with(three, red=(0, m.CITY)), turned=True, finished=("red",),
                   dice=("red", "blue"))
    with pytest.raises(RuleError, match="reached the finish line"):
        m.check_keep(race, "red")
    assert m.check_keep(race, "blue") == "blue"


def test_a_die_of_a_finished_piece_moves_nothing(three: m.Race) -> None:
    race = replace(race_with(three, red=(0, m.CITY), blue=4), turned=True, finished=("red",))
    r = m.play_roll(race, ("red", "blue"))
    assert r.race.piece("red").where == m.CITY and r.race.piece("blue").field == 3


# --- whole races --------------------------------------------------------------------------

def play_out(players: int, seed: int) -> m.Race:
    race = m.setup(RULES, ["Ann", "Bob", "Cy", "Dee", "Eve"][:players])
    while not race.over:
        assert race.rolls < 5000
        race = m.play_roll(race, m.roll_dice(race, m.seeded_rng(seed, race.rolls))).race
    return race


def test_a_seeded_race_is_played_to_its_end_and_repeats() -> None:
    a, b = play_out(3, 7), play_out(3, 7)
    assert a == b
    assert a.winner in a.players and a.end in (m.LAST_MULE, m.FIRST_MULE)
    assert a.turned and a.finished


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 5), st.integers(0, 10**6))
def test_every_race_ends_with_a_winner_by_one_of_the_two_rules(players: int, seed: int) -> None:
    race = play_out(players, seed)
    left = race.on_track()
    mules_left = [p for p in left if p.kind == m.MULE]
    if race.end == m.LAST_MULE:
        assert len(left) == 1 and mules_left and race.winner == mules_left[0].owner
    else:
        assert not mules_left and left
        first_mule = next(c for c in race.finished if race.piece(c).kind == m.MULE)
        assert race.piece(first_mule).where == m.CITY
        assert race.winner == race.piece(first_mule).owner
    assert all(0 <= p.field <= T for p in race.pieces)
    assert sum(p.where == m.CITY for p in race.pieces) <= 1


# --- the saved race and the command line -------------------------------------------------

def run(*args: str) -> str:
    result = CliRunner().invoke(cli, ["play", "muli", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_cli_new_places_the_pieces() -> None:
    out = run("new", "--players", "Ann,Bob,Cy,Dee", "--seed", "3", "--json")
    state = json.loads(out)["state"]
    assert sorted(c for c, p in state["pieces"].items() if p["kind"] == "runner") == \
        ["orange", "purple"]
    assert all(p["field"] == 0 for p in state["pieces"].values())
    assert state["active"] == "Ann"


def test_cli_seeded_race_played_to_the_end_matches_the_rules() -> None:
    run("new", "--players", "Ann,Bob,Cy", "--seed", "11")
    expected = play_out(3, 11)
    for _ in range(expected.rolls - 1):
        assert json.loads(run("roll", "--json"))["winner"] is None
    last = json.loads(run("roll", "--json"))
    assert last["winner"] == expected.winner and last["end"] == expected.end
    assert "winner: " + expected.winner in run("status")


def test_cli_typed_dice_keep_and_undo() -> None:
    run("new", "--players", "Ann,Bob,Cy", "--seed", "1")
    out = json.loads(run("roll", "--dice", "red,blue", "--json"))
    assert out["player"] == "Ann" and out["next"] == "Bob"
    kept = json.loads(run("roll", "--keep", "blue", "--json"))
    assert kept["dice"][0] == "blue"
    state = json.loads(run("status", "--json"))["state"]
    assert state["rolls"] == 2
    CliRunner().invoke(cli, ["play", "undo"], catch_exceptions=False)
    assert json.loads(run("status", "--json"))["state"]["rolls"] == 1


def test_cli_set_corrects_a_piece_and_later_rolls_use_it() -> None:
    run("new", "--players", "Ann,Bob,Cy", "--seed", "1")
    result = CliRunner().invoke(cli, ["play", "set", "pieces.red.field", "9"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    out = json.loads(run("roll", "--dice", "red,blue", "--json"))
    assert out["turned"] and out["state"]["pieces"]["red"]["field"] == T


@pytest.mark.parametrize("args, message", [
    (["roll", "--keep", "red"], "not been rolled"),
    (["roll", "--dice", "red,pink"], "unknown colour 'pink'"),
    (["roll", "--dice", "red"], "two colours"),
    (["new", "--players", "Ann,Bob,Cy", "--mules", "red,blue,green"], "no Human Mule Runner"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str, tmp_path: Path) -> None:
    env = {"IRATA_DB": str(tmp_path / "g.sqlite3"), "PATH": "/usr/bin:/bin"}
    exe = str(ROOT / ".venv" / "bin" / "irata")
    subprocess.run([exe, "play", "muli", "new", "--players", "Ann,Bob,Cy", "--seed", "1"],
                   env=env, check=True, capture_output=True)
    p = subprocess.run([exe, "play", "muli", *args], env=env, capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stderr.startswith("error: ") and message in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_players_are_named_and_their_number_checked(capsys: pytest.CaptureFixture[str]) -> None:
    for players, why in (("A,B,C,D,E,F,G", "is for 3 to 5 players, not 7"),
                         ("3", "not a number: '3' is not a name")):
        with pytest.raises(SystemExit) as info:
            main(["play", "muli", "new", "--players", players])
        assert info.value.code == 2
        assert why in capsys.readouterr().err


def test_the_companion_imports_no_printing_library() -> None:
    code = ("import sys, companion.muli, companion.mule_goes_crazy, irata.play.muli, "
            "irata.play.mule_goes_crazy; "
            "print([m for m in ('reportlab', 'svgwrite', 'qrcode', 'PIL', 'generator') "
            "if m in sys.modules])")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       check=True)
    assert p.stdout.strip() == "[]"


def test_first_is_refused_for_a_double_and_nothing_is_saved(tmp_path: Path) -> None:
    # Game Play: a double moves one piece back; there is no order to choose
    db = tmp_path / "games.sqlite3"
    with pytest.raises(SystemExit):
        main(["play", "muli", "new", "--players", "Ann,Bob,Cy", "--db", str(db)])
    before = db.read_bytes()
    with pytest.raises(SystemExit) as info:
        main(["play", "muli", "roll", "--dice", "red,red", "--first", "blue", "--db", str(db)])
    assert info.value.code == 2 and db.read_bytes() == before
