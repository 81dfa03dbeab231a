"""docs/ADDING_A_GAME.md is true: its files, written as the guide gives them into a scratch
folder, make a sixth game that ``irata play`` lists and plays through the commands generated
from its declaration (new, next, its moves, a step that runs itself, a refusal that changes
nothing, status, log, undo)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "ADDING_A_GAME.md"
BLOCK = re.compile(r"```(?:python|yaml)\n(.*?)```", re.S)


def blocks() -> list[str]:
    return BLOCK.findall(GUIDE.read_text(encoding="utf-8"))


def files() -> dict[str, str]:
    """The guide's whole files: each block whose first line is ``# its/path``."""
    out = {}
    for text in blocks():
        first = text.splitlines()[0]
        if first.startswith("# ") and "/" in first and " " not in first[2:].strip():
            out[first[2:].strip()] = text
    return out


@pytest.fixture
def river_crossing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The guide's game, registered for this test only."""
    import companion
    import components
    import irata.play
    from companion import games

    written = files()
    assert set(written) == {
        "components/river_crossing/game.yaml", "companion/river_crossing/__init__.py",
        "companion/river_crossing/rules.py", "companion/river_crossing/data.py",
        "companion/river_crossing/saved.py", "companion/river_crossing/game.py",
        "irata/play/river_crossing.py"}
    for path, text in written.items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    # the scratch folder's packages beside the real ones, its definitions as the bundled ones
    monkeypatch.setattr(companion, "__path__", [*companion.__path__, str(tmp_path / "companion")])
    monkeypatch.setattr(irata.play, "__path__",
                        [*irata.play.__path__, str(tmp_path / "irata" / "play")])
    from components import loader

    monkeypatch.setattr(components, "bundled_root", lambda: tmp_path / "components")
    monkeypatch.setattr(loader, "BUNDLED", tmp_path / "components")
    entry_text = next(b for b in blocks() if b.lstrip().startswith("Entry("))
    entry = eval(entry_text, {"Entry": games.Entry})  # the guide's own registry entry
    monkeypatch.setattr(games, "GAMES", (*games.GAMES, entry))
    monkeypatch.setattr(games, "_BY_NAME", {**games._BY_NAME, entry.name: entry})
    play = irata.play.play
    monkeypatch.setitem(play.lazy, entry.name, (entry.commands, entry.summary))  # type: ignore[attr-defined]
    yield tmp_path
    for name in [m for m in sys.modules if "river_crossing" in m]:
        del sys.modules[name]


def run(*args: str) -> Any:
    from irata.cli import cli

    result = CliRunner().invoke(cli, ["play", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def refused(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    from irata.cli import main

    before = db.read_bytes()
    with pytest.raises(SystemExit) as info:
        main(["play", *args])
    err = capsys.readouterr().err
    assert info.value.code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    assert db.read_bytes() == before
    return err


def test_the_guide_s_game_plays_through_its_declared_commands(
        river_crossing: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    assert "river-crossing" in run("--help")
    assert "River Crossing: 0 on the raft" in run("river-crossing", "new", "--players", "Ann,Bob")
    assert "Ann boards the raft" in run("river-crossing", "next")
    out = run("river-crossing", "board", "Ann", "2")
    assert "Ann: 2 aboard, 2 on the raft" in out and "Now: Bob boards the raft" in out
    # the raft holds 3: refused with the rule's reason, the games file unchanged
    assert "the raft holds 3, not 4" in refused(db, capsys, "river-crossing", "board", "Bob", "2")
    assert "Ann's turn" not in refused(db, capsys, "river-crossing", "board", "Ann", "1")
    # the raft is full: the crossing runs itself, logged like any step
    out = run("river-crossing", "board", "Bob", "1")
    assert "(ran itself) the raft crosses" in out and "the raft crosses with 3" in out
    state = json.loads(run("status", "--json"))["state"]
    assert (state["aboard"], state["crossings"], state["turn"]) == (0, 1, 0)
    assert "cross" in run("log")
    # undo takes back Bob's boarding and the crossing that ran itself after it
    out = run("undo")
    assert "board" in out and "cross" in out
    state = json.loads(run("status", "--json"))["state"]
    assert (state["aboard"], state["crossings"], state["turn"]) == (2, 0, 1)
    # to the end: two crossings
    run("river-crossing", "board", "Bob", "1")
    run("river-crossing", "board", "Ann", "3")
    assert "is over" in run("river-crossing", "next")
    assert "game is over" in refused(db, capsys, "river-crossing", "board", "Bob", "1")


def test_the_guide_s_rules_refuse_what_the_rules_forbid(river_crossing: Path) -> None:
    from companion.river_crossing.rules import Rules, board_raft

    from components.errors import RuleError

    rules = Rules(raft_capacity=3, crossings=2)
    assert board_raft(1, 2, rules) == 3
    for aboard, boarding in ((0, 0), (2, 2), (0, -1)):
        with pytest.raises(RuleError):
            board_raft(aboard, boarding, rules)
