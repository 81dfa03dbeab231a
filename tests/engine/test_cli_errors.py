"""Bad command lines: one line on stderr, exit 2, never a traceback or a screen of usage."""

from __future__ import annotations

import pytest

from irata.cli import main

BAD = [
    (["play", "mule", "spoilage", "--fod", "3"],
     "No such option '--fod'. Did you mean '--food'? (see 'irata play mule spoilage --help')"),
    (["play", "muli", "new", "--players", "A,B,C,D,E,F,G"],
     "Das Störrische Muli is for 3 to 5 players, not 7"),
    (["calibrate", "--paper", "a5"], "Invalid value for '--paper': 'a5' is not one of"),
    (["play", "mutagen", "score"], "score reads a FILE of players, or the saved game"),
    (["prnt"], "No such command 'prnt'."),
]


@pytest.mark.parametrize(("args", "message"), BAD)
def test_a_usage_mistake_is_one_line_and_exit_2(args: list[str], message: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(args)
    err = capsys.readouterr().err.splitlines()
    assert info.value.code == 2
    assert len(err) == 1 and err[0].startswith("error: ") and message in err[0]


def test_a_group_without_its_command_shows_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["play", "mule"])
    out = capsys.readouterr()
    assert info.value.code == 0 and out.err == ""
    assert out.out.startswith("Usage: irata play mule") and "spoilage" in out.out


@pytest.mark.parametrize("where", ["first", "after the command"])
def test_debug_is_taken_wherever_it_is_typed(where: str, capsys: pytest.CaptureFixture[str],
                                             tmp_path: object,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IRATA_DB", f"{tmp_path}/games.sqlite3")
    command = ["play", "muli", "new", "--players", "Ann"]
    args = ["--debug", *command] if where == "first" else [*command, "--debug"]
    from components.errors import InputError

    with pytest.raises(InputError, match="3 to 5 players"):  # the traceback, not one line
        main(args)
    with pytest.raises(SystemExit) as info:  # without it: one line, exit 2
        main(command)
    assert info.value.code == 2
    assert capsys.readouterr().err.startswith("error: ")
