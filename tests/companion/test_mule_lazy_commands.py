"""``irata play mule``'s commands are defined only when asked for: a calculator defines none of
the saved game's moves, ``next`` imports none of the calculators, and ``--help`` lists them all
with the calculators' own summaries."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner

from irata.cli import cli
from irata.play.mule import CALCULATORS

ROOT = Path(__file__).resolve().parents[2]


def test_the_lazy_summaries_are_the_calculators_own() -> None:
    import irata.play.mule_calculators as calculators

    for name, (target, summary) in CALCULATORS.items():
        command = getattr(calculators, target.split(":")[1])
        assert isinstance(command, click.Command) and command.name == name
        assert command.get_short_help_str(60) == summary


def test_help_lists_every_command() -> None:
    out = CliRunner().invoke(cli, ["play", "mule", "--help"], catch_exceptions=False).output
    for name in (*CALCULATORS, "new", "next", "grant", "develop", "trade", "turn", "status",
                 "undo", "final-market"):
        assert f"\n  {name} " in out, name


def _imported(args: list[str], tmp_path: Path) -> set[str]:
    """The modules ``irata ARGS`` imported, run in a fresh Python."""
    code = ("import sys\nfrom irata.cli import main\ntry:\n    main(sys.argv[1:])\n"
            "except SystemExit:\n    pass\nprint('MODULES', *sorted(sys.modules))")
    env = {"IRATA_DB": str(tmp_path / "games.sqlite3"), "XDG_CACHE_HOME": str(tmp_path),
           "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         cwd=ROOT, env=env, check=True).stdout
    line = next(x for x in out.splitlines() if x.startswith("MODULES "))
    return set(line.split()[1:])


def test_a_calculator_and_next_define_only_what_they_run(tmp_path: Path) -> None:
    spoilage = _imported(["play", "mule", "spoilage", "--food", "3"], tmp_path)
    assert "irata.play.mule_calculators" in spoilage
    assert "companion.mule.moves" not in spoilage      # no move's command was generated
    assert "companion.session" not in spoilage         # no saved game is read
    assert "companion.mule.options" not in spoilage    # nor new's list of Optional Rules
    CliRunner().invoke(cli, ["play", "mule", "new", "--players", "Ann,Bob,Cid", "--db",
                             str(tmp_path / "games.sqlite3")], catch_exceptions=False)
    nxt = _imported(["play", "mule", "next"], tmp_path)
    assert "companion.mule.moves" in nxt
    assert "irata.play.mule_calculators" not in nxt
    assert "companion.mule.steps" not in nxt      # Land Grant's hint needs only the expansion
