"""A name typed at the table that is not in the game says which one it may have meant, on the
same one error line, and saves nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.suggest import did_you_mean
from irata.cli import main


def test_a_different_case_or_a_slip_of_the_finger_is_suggested() -> None:
    assert did_you_mean("ann", ["Ann", "Bob"]) == "; did you mean 'Ann'?"
    assert did_you_mean("Bbo", ["Ann", "Bob"]) == "; did you mean 'Bob'?"
    assert did_you_mean("Zed", ["Ann", "Bob"]) == ""


@pytest.mark.parametrize(("new", "args", "hint"), [
    (["mutagen", "new", "--players", "Ann,Bob"], ["mutagen", "points", "anne", "2"],
     "did you mean 'Ann'?"),
    (["outer-earth", "new", "--players", "Ann,Bob"], ["outer-earth", "draw", "Bbo"],
     "did you mean 'Bob'?"),
    (["mule-goes-crazy", "new", "--players", "Ann,Bob"],
     ["mule-goes-crazy", "grant", "ann", "foothills"], "did you mean 'Ann'?"),
    (["mule-goes-crazy", "new", "--players", "Ann,Bob"],
     ["mule-goes-crazy", "grant", "Ann", "river-botom"], "did you mean 'river-bottom'?"),
    (["muli", "new", "--players", "Ann,Bob,Cy"], ["muli", "roll", "--dice", "red,oragne"],
     "did you mean 'orange'?"),
])
def test_a_name_not_in_the_game_suggests_the_near_one(
        new: list[str], args: list[str], hint: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    with pytest.raises(SystemExit):
        main(["play", *new, "--db", str(db)])
    capsys.readouterr()
    before = db.read_bytes()
    with pytest.raises(SystemExit) as info:
        main(["play", *args, "--db", str(db)])
    err = capsys.readouterr().err
    assert info.value.code == 2 and hint in err and err.count("\n") == 1, err
    assert db.read_bytes() == before
