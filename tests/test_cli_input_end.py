"""The end of the input at a prompt (Ctrl-D, or a script's answers running out) is bad input:
one ``error:`` line and exit 2, nothing unanswered saved; Ctrl-C is "interrupted", exit 130."""

from __future__ import annotations

import io

import click
import pytest

from irata.cli import cli, main


@click.command()
def ask() -> None:
    """Asks two questions and says what it was told."""
    first = click.prompt("First", type=int)
    second = click.prompt("Second", type=int)
    click.echo(f"told {first} and {second}")


@pytest.fixture()
def asking(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(cli.commands, "ask", ask)


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[object, str, str]:
    with pytest.raises(SystemExit) as info:
        main(args)
    out = capsys.readouterr()
    return info.value.code, out.out, out.err


@pytest.mark.usefixtures("asking")
def test_input_that_ends_before_an_answer_is_one_line_and_exit_2(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("3\n"))
    code, out, err = run(["ask"], capsys)
    assert code == 2 and "told" not in out
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines == ["error: the input ended before a question was answered; the command "
                     "stopped there and saved nothing unanswered"]


@pytest.mark.usefixtures("asking")
def test_answered_questions_still_work(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("3\n4\n"))
    code, out, _ = run(["ask"], capsys)
    assert code == 0 and "told 3 and 4" in out


@pytest.mark.usefixtures("asking")
def test_ctrl_c_at_a_prompt_is_an_interruption_not_an_error(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(*_: object, **__: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("click.termui.visible_prompt_func", interrupted)
    code, _, err = run(["ask"], capsys)
    assert code == 130 and "interrupted" in err and "error:" not in err
