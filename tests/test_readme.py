"""The README's play commands work as they stand, on the example files it names."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from irata.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _play_commands() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Playing", 1)[1].split("\n## ", 1)[0]
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", section, re.S):
        for line in block.splitlines():
            for command in line.split(" ; "):
                words = shlex.split(command, comments=True)
                if words:
                    commands.append(words)
    return commands


def test_the_readme_names_its_play_commands() -> None:
    commands = _play_commands()
    assert all(c[0] == "irata" for c in commands)
    games = {c[2] for c in commands if c[1] == "play"}
    assert {"mule", "mutagen", "outer-earth", "muli", "mule-goes-crazy"} <= games


def test_the_readme_play_commands_run_as_they_stand(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)  # the example files are named from the project's folder
    monkeypatch.setenv("IRATA_DB", str(tmp_path / "games.sqlite3"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for words in _play_commands():
        if words[1:4] == ["play", "mule", "turn"]:
            continue  # the guided turn asks a person at the table
        with pytest.raises(SystemExit) as info:
            main(words[1:])
        out = capsys.readouterr()
        assert info.value.code == 0, f"{shlex.join(words)}: {out.err}"
        assert out.out.strip(), shlex.join(words)
