"""How long a companion command takes, beside the time Python takes to import click.

Prints the median of several runs of ``irata play mule spoilage ...`` (a calculator),
``irata play mule next``, ``irata play outer-earth next`` and ``irata play mule-goes-crazy
next`` (a saved game's step, read from a games file) and of
``python -c "import click"``, and their ratios, in wall time and in the CPU time each process
used (the steadier of the two while other work shares the machine). No asserts on time: a
figure to watch.

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


def timed(cmds: dict[str, list[str]], runs: int, env: dict[str, str]
          ) -> tuple[dict[str, float], dict[str, float]]:
    """The median wall time of each command, and the median CPU time (user + system) its
    process used; the commands take turns in every round, so a busy moment of the machine
    weighs on all of them alike. CPU time is the steadier figure on a shared machine: a
    process waiting for a core counts no CPU time."""
    import resource

    times: dict[str, list[float]] = {name: [] for name in cmds}
    cpu: dict[str, list[float]] = {name: [] for name in cmds}
    for _ in range(runs):
        for name, cmd in cmds.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
            times[name].append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return ({name: statistics.median(t) for name, t in times.items()},
            {name: statistics.median(t) for name, t in cpu.items()})


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
        for game in ("outer-earth", "mule-goes-crazy"):
            subprocess.run([py, "-m", "irata.cli", "play", game, "new", "--players",
                            "Ann,Bob,Cid", "--seed", "1"], check=True,
                           stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
        cmds = {"python -c 'import click'": [py, "-c", "import click"],
                "irata play mule spoilage ...": [py, "-m", "irata.cli", *SPOILAGE],
                "irata play mule next": [py, "-m", "irata.cli", "play", "mule", "next"],
                **{f"irata play {game} next": [py, "-m", "irata.cli", "play", game, "next"]
                   for game in ("outer-earth", "mule-goes-crazy")}}
        # one run first so the rule-data cache is warm, as it is at the table
        timed(cmds, 1, env)
        t, cpu = timed(cmds, args.runs, env)
    base = "python -c 'import click'"
    for name, secs in t.items():
        print(f"{name:36s}{secs * 1000:7.1f} ms, CPU {cpu[name] * 1000:6.1f} ms "
              f"(medians of {args.runs})")
    for name, secs in t.items():
        if name != base:
            print(f"ratio {name.removeprefix('irata play '):31s}{secs / t[base]:6.2f}x "
                  f"(CPU {cpu[name] / cpu[base]:.2f}x)")


if __name__ == "__main__":
    main()
