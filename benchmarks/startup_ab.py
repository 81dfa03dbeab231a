"""CPU time of ``irata play mule next`` (a new Tournament game, at Land Grant) in two checkouts
of the project, beside ``python -c "import click"``, taking turns in every round.

Each checkout runs as ``python -m irata.cli`` with its own folder as the working directory (so
its packages come first), with the same Python; both read one games file. Prints whether both
print the same, and the median CPU time of each with its ratio to importing click. No asserts
on time: a figure to compare.

    .venv/bin/python benchmarks/startup_ab.py OLD_CHECKOUT NEW_CHECKOUT [--runs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

NEW_GAME = ["play", "mule", "new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "1"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    py = sys.executable
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)   # bytecode cached, as once installed
    trees = {"old": args.old.resolve(), "new": args.new.resolve()}
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "IRATA_DB": str(Path(tmp) / "games.sqlite3")}
        subprocess.run([py, "-m", "irata.cli", *NEW_GAME], check=True,
                       stdout=subprocess.DEVNULL, cwd=trees["new"], env=env)
        cmds: dict[str, tuple[list[str], Path]] = {
            "python -c 'import click'": ([py, "-c", "import click"], trees["new"]),
            **{f"{k}: irata play mule next": ([py, "-m", "irata.cli", "play", "mule", "next"], d)
               for k, d in trees.items()}}
        shown = {subprocess.run(c, cwd=d, env=env, capture_output=True, text=True,
                                check=True).stdout for c, d in list(cmds.values())[1:]}
        print("both print the same:", len(shown) == 1)
        cpu: dict[str, list[float]] = {name: [] for name in cmds}
        for _ in range(args.runs):
            for name, (cmd, cwd) in cmds.items():
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, check=True)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[name].append(after.ru_utime - before.ru_utime
                                 + after.ru_stime - before.ru_stime)
    med = {name: statistics.median(v) for name, v in cpu.items()}
    base = med["python -c 'import click'"]
    for name, value in med.items():
        print(f"{name:30} CPU {value * 1000:6.1f} ms  {value / base:.2f}x "
              f"(medians of {args.runs})")


if __name__ == "__main__":
    main()
