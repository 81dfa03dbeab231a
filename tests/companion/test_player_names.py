"""A name that is a number is refused wherever the companion asks for the players' names:
``--players 3`` is a count typed where the names go, not a player called "3"."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.names import check_names, is_number
from components.errors import InputError
from irata.cli import main


def play(*args: str) -> tuple[int, str, str]:
    """``irata play ARGS``: exit code, standard output and standard error."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err), pytest.raises(SystemExit) as info:
        main(["play", *args])
    return int(info.value.code or 0), out.getvalue(), err.getvalue()


ASKED = [
    ("mutagen", "setup", "--players", "{}"),
    ("mutagen", "new", "--players", "{}", "--db", "{db}"),
    ("outer-earth", "setup", "--players", "{}"),
    ("outer-earth", "new", "--players", "{}", "--db", "{db}"),
    ("outer-earth", "bid", "--players", "{}", "--start", "Ann"),
    ("muli", "new", "--players", "{}", "--db", "{db}"),
    ("mule-goes-crazy", "new", "--players", "{}", "--db", "{db}"),
]


@pytest.mark.parametrize("command", ASKED, ids=lambda c: " ".join(c[:2]))
@pytest.mark.parametrize("players", ["3", "Ann,Bob,4", " 2 ", "-1,Ann,Bob"])
def test_a_number_where_names_are_asked_is_refused(command: tuple[str, ...], players: str,
                                                    tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    code, out, err = play(*[a.format(players, db=db) for a in command])
    number = next(n.strip() for n in players.split(",") if is_number(n))
    assert (code, out) == (2, "")
    assert err == ("error: --players takes the players' names, comma-separated (Ann,Bob,Cy), "
                   f"not a number: '{number}' is not a name\n")
    assert not db.exists() or play("games", "--db", str(db), "--json")[1].strip() == "[]"


def test_mutagen_setup_for_three_named_players_is_a_three_player_setup() -> None:
    code, out, _ = play("mutagen", "setup", "--players", "Ann,Bob,Cy")
    assert code == 0 and out.startswith("Mutagen set-up for 3 players")


def test_names_with_digits_in_them_are_names() -> None:
    assert check_names(["R2D2", " Ann ", "", "3rd", "Player 1"]) == [
        "R2D2", "Ann", "3rd", "Player 1"]
    code, out, _ = play("mutagen", "setup", "--players", "Player 1,Player 2")
    assert code == 0 and out.startswith("Mutagen set-up for 2 players")


@pytest.mark.parametrize("number", ["3", "+3", "-2", "2.5", "0,5", ".5", "٣", "007"])
def test_numbers_of_any_form_are_not_names(number: str) -> None:
    with pytest.raises(InputError, match="--companies takes the players' names"):
        check_names(["Ann", number], "--companies")


@given(st.text(max_size=12))
def test_check_names_refuses_exactly_the_numbers(name: str) -> None:
    try:
        kept = check_names([name])
    except InputError:
        assert is_number(name)
        if name.strip().isascii():
            float(name.strip().replace(",", "."))        # a number Python reads as one
    else:
        assert kept == ([name.strip()] if name.strip() else [])
        assert not is_number(name)
