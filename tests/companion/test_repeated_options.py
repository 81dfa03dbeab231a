"""A single-valued option typed twice is refused by every companion command: click would keep
the last value silently, and the table meant one of them. Options that take a list stay
repeatable."""

from __future__ import annotations

from pathlib import Path

import pytest

from irata.cli import main


def refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as info:
        main(["play", *args])
    err = capsys.readouterr().err
    assert info.value.code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize("args", [
    ["muli", "roll", "--keep", "red", "--keep", "orange"],
    ["muli", "roll", "--dice", "red,blue", "--dice=red,red"],
    ["mutagen", "points", "Ann", "2", "--why", "a", "--why", "b"],
    ["outer-earth", "new", "--players", "Ann,Bob", "--starting-player", "Ann",
     "--starting-player", "Bob"],
    ["mule-goes-crazy", "auction", "foothills", "--winner", "Ann", "--winner", "Bob",
     "--price", "200"],
    ["status", "--game", "1", "--game", "2"],
    # commands a game's group makes on first use (its moves, next) are guarded as well
    ["mule", "next", "--game", "1", "--game", "2"],
    ["mutagen", "next", "--game", "1", "--game", "2"],
    ["mule-goes-crazy", "next", "--game", "1", "--game", "2"],
    ["outer-earth", "next", "--game", "1", "--game", "2"],
    ["mule", "grant", "Ann", "P07@B2", "--game", "1", "--game", "2"],
])
def test_a_single_valued_option_given_twice_is_refused_and_saves_nothing(
        args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    main_ok = ["play", "muli", "new", "--players", "Ann,Bob,Cy", "--db", str(db)]
    with pytest.raises(SystemExit):
        main(main_ok)
    capsys.readouterr()
    before = db.read_bytes()
    err = refused([*args, "--db", str(db)], capsys)
    # a generated command (mutagen points) says how often: "--why is given 2 times"
    assert ("is given twice" in err or "is given 2 times" in err) and "give it once" in err
    assert db.read_bytes() == before


def test_an_option_that_takes_a_list_stays_repeatable(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    with pytest.raises(SystemExit) as info:
        main(["play", "mule-goes-crazy", "produce", "--energy", "20", "--mule",
              "food@river-bottom", "--mule", "energy@sunny-flats", "--rolls", "1,2,3,4,5,6"])
    out = capsys.readouterr()
    assert info.value.code == 0, out.err
    assert "given twice" not in out.err


def test_the_two_forms_of_a_flag_together_are_refused(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    err = refused(["outer-earth", "setup", "--players", "Ann,Bob", "--short", "--normal"],
                  capsys)
    assert "--short and --normal contradict each other" in err
    with pytest.raises(SystemExit) as info:
        main(["play", "outer-earth", "setup", "--players", "Ann,Bob", "--json", "--json"])
    assert info.value.code == 0
