"""How long a companion command takes, beside the time Python takes to import click.

Prints the median of several runs of ``irata play mule spoilage ...`` (a calculator),
``irata play mule next`` (a saved game's step, read from a games file) and of
``python -c "import click"``, and their ratios. No asserts on time: a figure to watch.

Python runs as it does once installed: with its bytecode cached (``PYTHONDONTWRITEBYTECODE``
is dropped for the runs, as pip and a first run write the ``__pycache__``); ``--source``
measures compiling every module from source instead.

    .venv/bin/python benchmarks/companion_startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPOILAGE = ["play", "mule", "spoilage", "--food", "1", "--energy", "9", "--smithore", "15",
            "--crystite", "7", "--mules", "6", "--energy-mules", "2"]


def timed(cmds: dict[str, list[str]], runs: int, env: dict[str, str]) -> dict[str, float]:
    """The median time of each command; the commands take turns in every round, so a busy
    moment of the machine weighs on all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in cmds}
    for _ in range(runs):
        for name, cmd in cmds.items():
            start = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--source", action="store_true",
                        help="Keep PYTHONDONTWRITEBYTECODE: compile every module each run.")
    args = parser.parse_args()
    py = sys.executable
    if not args.source:
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "IRATA_DB": str(Path(tmp) / "games.sqlite3")}
        subprocess.run([py, "-m", "irata.cli", "play", "mule", "new", "--players",
                        "Ann,Bob,Cid,Dee", "--tournament", "--seed", "1"], check=True,
                       stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
        cmds = {"python -c 'import click'": [py, "-c", "import click"],
                "irata play mule spoilage ...": [py, "-m", "irata.cli", *SPOILAGE],
                "irata play mule next": [py, "-m", "irata.cli", "play", "mule", "next"]}
        # one run first so the rule-data cache is warm, as it is at the table
        timed(cmds, 1, env)
        t = timed(cmds, args.runs, env)
    click_t = t["python -c 'import click'"]
    for name, secs in t.items():
        print(f"{name:29s}{secs * 1000:7.1f} ms (median of {args.runs})")
    for name, secs in t.items():
        if name != "python -c 'import click'":
            print(f"ratio {name.removeprefix('irata play mule '):24s}{secs / click_t:6.2f}x")


if __name__ == "__main__":
    main()
