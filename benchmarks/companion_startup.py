"""How long a companion command takes, beside the time Python takes to import click.

Prints the median of several runs of ``irata play mule spoilage ...`` and of
``python -c "import click"``, and their ratio. No asserts on time: a figure to watch.

    .venv/bin/python benchmarks/companion_startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPOILAGE = ["play", "mule", "spoilage", "--food", "1", "--energy", "9", "--smithore", "15",
            "--crystite", "7", "--mules", "6", "--energy-mules", "2"]


def timed(cmd: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    py = sys.executable
    # one run first so the rule-data cache is warm, as it is at the table
    subprocess.run([py, "-m", "irata.cli", *SPOILAGE], check=True, stdout=subprocess.DEVNULL,
                   cwd=ROOT)
    click_t = timed([py, "-c", "import click"], args.runs)
    cmd_t = timed([py, "-m", "irata.cli", *SPOILAGE], args.runs)
    print(f"python -c 'import click'     {click_t * 1000:7.1f} ms (median of {args.runs})")
    print(f"irata play mule spoilage ... {cmd_t * 1000:7.1f} ms (median of {args.runs})")
    print(f"ratio                        {cmd_t / click_t:7.2f}x")


if __name__ == "__main__":
    main()
