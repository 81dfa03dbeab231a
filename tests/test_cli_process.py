"""``irata`` as its own process sets what it keeps aside from the cyclic garbage collector
(``gc.freeze``) and still ends as any Python program does; ``main(argv)``, called by tests and
scripts, leaves the collector alone."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest

from irata.cli import main

ROOT = Path(__file__).resolve().parents[1]
SPOILAGE = ["play", "mule", "spoilage", "--food", "1", "--energy", "9", "--smithore", "15",
            "--crystite", "7", "--mules", "6", "--energy-mules", "2"]


def test_main_called_with_arguments_freezes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    before = gc.get_freeze_count()
    with pytest.raises(SystemExit) as info:
        main(SPOILAGE)
    assert info.value.code == 0
    assert gc.get_freeze_count() == before
    assert capsys.readouterr().out


def test_the_process_ends_as_before_with_atexit_and_its_output(tmp_path: Path) -> None:
    code = ("import atexit, gc, sys\n"
            "atexit.register(lambda: print('atexit, frozen:', gc.get_freeze_count() > 0))\n"
            "from irata.cli import main\nsys.argv = ['irata', *sys.argv[1:]]\nmain()\n")
    env = {"IRATA_DB": str(tmp_path / "games.sqlite3"), "XDG_CACHE_HOME": str(tmp_path),
           "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", code, *SPOILAGE], capture_output=True,
                         text=True, cwd=ROOT, env=env)
    assert run.returncode == 0, run.stderr
    direct = subprocess.run([sys.executable, "-m", "irata.cli", *SPOILAGE],
                            capture_output=True, text=True, cwd=ROOT, env=env)
    assert run.stdout == direct.stdout + "atexit, frozen: True\n"
    # a refusal: one line, exit 2, as ever
    bad = subprocess.run([sys.executable, "-m", "irata.cli", *SPOILAGE, "--food", "x"],
                         capture_output=True, text=True, cwd=ROOT, env=env)
    assert bad.returncode == 2 and bad.stderr.startswith("error: ") and not bad.stdout
