"""``irata play set`` corrects a saved game, but never to a number the printed copy cannot show:
a Muli piece beyond the turning field, a winner who is not playing, a Mutagen round 9, an Outer
Earth die showing 7. Each is one line, exit 2, and the games file is left as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from irata.cli import main


def play(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with pytest.raises(SystemExit) as info:
        main(["play", *args])
    return int(info.value.code or 0), capsys.readouterr().err


@pytest.mark.parametrize(("new", "path", "bad", "good", "reason"), [
    (["muli", "new", "--players", "Ann,Bob,Cy"], "pieces.red.field", "11", "10",
     "the track runs from field 0 to the turning field 10"),
    (["muli", "new", "--players", "Ann,Bob,Cy"], "winner", "Zed", "Bob",
     "'Zed' is not a player of the race"),
    (["muli", "new", "--players", "Ann,Bob,Cy"], "active", "Dee", "Cy",
     "'Dee' is not a player of the race"),
    (["mutagen", "new", "--players", "Ann,Bob"], "round", "9", "5",
     "Mutagen has rounds 1 to 4"),
    (["mutagen", "new", "--players", "Ann,Bob"], "tracks.Ann.ore", "8", "7",
     "an Element tracker sits on 0 to 7, not 8 (Ann's ore)"),
    (["outer-earth", "new", "--players", "Ann,Bob"], "round", "0", "2",
     "rounds are counted from 1"),
    (["outer-earth", "new", "--players", "Ann,Bob"], "players.Ann.dice.draw", "7", "6",
     "Ann's draw die shows 1 to 6, not 7"),
])
def test_set_refuses_what_the_printed_copy_cannot_show(
        new: list[str], path: str, bad: str, good: str | None, reason: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    assert play([*new, "--db", str(db)], capsys)[0] == 0
    before = db.read_bytes()
    code, err = play(["set", path, bad, "--db", str(db)], capsys)
    assert code == 2 and reason in err and err.count("\n") == 1, err
    assert db.read_bytes() == before
    if good is not None:
        assert play(["set", path, good, "--db", str(db)], capsys)[0] == 0
