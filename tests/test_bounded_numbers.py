"""Every number typed on the command line is bounded: 5,000 digits, ``²``, ``nan`` or ``1e999``
on any integer or decimal option is one ``error:`` line naming the option, exit 2, with the
typed text shortened, and nothing is saved or printed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from irata.cli import cli, main
from irata.options import BoundedFloat, BoundedInt

BIG = "9" * 5000
# M.U.L.E.'s options are declared in irata/play/mule.py, which is bounded separately
NOT_YET: set[tuple[str, ...]] = set()


def commands(group: click.Group, path: tuple[str, ...] = ()) -> Iterator[
        tuple[tuple[str, ...], click.Command]]:
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        if isinstance(command, click.Group):
            if (*path, name) not in NOT_YET:
                yield from commands(command, (*path, name))
        else:
            yield (*path, name), command


NUMBERS = [(path, param) for path, command in commands(cli) for param in command.params
           if isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType,
                                      BoundedInt, BoundedFloat))]


def test_every_number_option_is_bounded() -> None:
    assert NUMBERS  # the walk found the options
    loose = [f"{' '.join(path)} {param.name}" for path, param in NUMBERS
             if not isinstance(param.type, (BoundedInt, BoundedFloat))]
    assert loose == []


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(args)
    out = capsys.readouterr()
    code = info.value.code
    return int(code) if isinstance(code, int) else 1, out.out, out.err


def typed(path: tuple[str, ...], param: click.Parameter, value: str) -> list[str]:
    if isinstance(param, click.Option):
        return [*path, param.opts[0], value]
    return [*path, "Ann", "--", value]  # mutagen points PLAYER POINTS, the one number argument


@pytest.mark.parametrize(("path", "param"), NUMBERS,
                         ids=[f"{'-'.join(p)}-{q.name}" for p, q in NUMBERS])
@pytest.mark.parametrize("value", [BIG, "²", "nan", "-inf", "1e999", "12345678901"])
def test_a_wild_number_is_one_line_naming_the_option(
        path: tuple[str, ...], param: click.Parameter, value: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("IRATA_DB", str(tmp_path / "games.sqlite3"))
    monkeypatch.chdir(tmp_path)
    code, out, err = run(typed(path, param, value), capsys)
    shown = param.opts[0] if isinstance(param, click.Option) else param.name.upper()
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"error: Invalid value for '{shown}': "), err
    assert len(err) < 200 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # nothing saved, nothing printed


@pytest.mark.parametrize(("args", "message"), [
    (["print", "--bleed", "10.5"], "'--bleed': 10.5 is out of range (0 to 10)"),
    (["print", "--margin", "-1"], "'--margin': -1 is out of range (0 to 30)"),
    (["export", "tts", "mutagen", "--dpi", "5000"], "'--dpi': 5000 is out of range (10 to 1200)"),
    (["play", "status", "--game", "0"], "'--game': 0 is out of range (1 to 1000000000)"),
    (["play", "outer-earth", "upkeep", "--hand", "-1"], "'--hand': -1 is out of range (0 to"),
])
def test_a_number_out_of_range_says_the_range(
        args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("IRATA_DB", str(tmp_path / "games.sqlite3"))
    code, _, err = run(args, capsys)
    assert code == 2 and err.count("\n") == 1 and message in err, err


def test_numbers_in_range_still_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("IRATA_DB", str(tmp_path / "games.sqlite3"))
    code, _, err = run(["play", "muli", "new", "--players", "Ann,Bob,Cid", "--seed", "+42"], capsys)
    assert code == 0, err
    code, out, err = run(["play", "status", "--game", "1", "--json"], capsys)
    assert code == 0 and '"id": 1' in out, err
