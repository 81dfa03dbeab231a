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


def timed(cmd: list[str], runs: int, env: dict[str, str] | None = None) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--source", action="store_true",
                        help="Keep PYTHONDONTWRITEBYTECODE: compile every module each run.")
    args = parser.parse_args()
    py = sys.executable
    if not args.source:
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    # one run first so the rule-data cache is warm, as it is at the table
    subprocess.run([py, "-m", "irata.cli", *SPOILAGE], check=True, stdout=subprocess.DEVNULL,
                   cwd=ROOT)
    click_t = timed([py, "-c", "import click"], args.runs)
    cmd_t = timed([py, "-m", "irata.cli", *SPOILAGE], args.runs)
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "IRATA_DB": str(Path(tmp) / "games.sqlite3")}
        subprocess.run([py, "-m", "irata.cli", "play", "mule", "new", "--players",
                        "Ann,Bob,Cid,Dee", "--tournament", "--seed", "1"], check=True,
                       stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
        next_t = timed([py, "-m", "irata.cli", "play", "mule", "next"], args.runs, env)
    print(f"python -c 'import click'     {click_t * 1000:7.1f} ms (median of {args.runs})")
    print(f"irata play mule spoilage ... {cmd_t * 1000:7.1f} ms (median of {args.runs})")
    print(f"irata play mule next         {next_t * 1000:7.1f} ms (median of {args.runs})")
    print(f"ratio spoilage / click       {cmd_t / click_t:7.2f}x")
    print(f"ratio next / click           {next_t / click_t:7.2f}x")


if __name__ == "__main__":
    main()
