"""How long Mutagen's companion commands take, beside ``python -c "import click"``: ``next``
(the declared game's step, read from a games file), ``points`` (a move generated from the
declaration, saved) and ``undo``, each as a ratio to importing click,
in wall time and in CPU time (the steadier figure on a shared machine). ``--against DIR`` times
the same commands of another checkout's code (such as an export of main) in the same rounds,
so a busy machine weighs on both alike. No asserts on time: figures to watch.

    .venv/bin/python benchmarks/mutagen_startup.py [--runs N] [--against DIR]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from companion_startup import ROOT, timed  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--against", type=Path, help="Another checkout to time beside this.")
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    py = sys.executable
    trees = {"": ROOT, **({"main ": args.against.resolve()} if args.against else {})}
    with tempfile.TemporaryDirectory() as tmp:
        cmds = {"python -c 'import click'": [py, "-c", "import click"]}
        envs = {}
        for label, tree in trees.items():
            env = {**os.environ, "IRATA_DB": str(Path(tmp) / f"{label or 'this'}.sqlite3"),
                   "PYTHONPATH": str(tree)}
            envs[label] = env
            import subprocess

            # -P: the checkout on PYTHONPATH is the one run (not the working directory)
            subprocess.run([py, "-P", "-m", "irata.cli", "play", "mutagen", "new", "--players",
                            "Ann,Bob,Cid"], check=True, stdout=subprocess.DEVNULL, cwd=tree,
                           env=env)
            for what in (["next"], ["points", "Ann", "1"], ["undo"]):
                cmds[f"{label}mutagen {what[0]}"] = ["env", *(f"{k}={v}" for k, v in
                                                           env.items() if k in
                                                           ("IRATA_DB", "PYTHONPATH")),
                                                   py, "-P", "-m", "irata.cli", "play",
                                                   "mutagen",
                                                   *what]
        timed(cmds, 1, envs[""])     # warm the rule-data caches, as at the table
        t, cpu = timed(cmds, args.runs, envs[""])
    base = "python -c 'import click'"
    for name, secs in t.items():
        print(f"{name:29s}{secs * 1000:7.1f} ms, CPU {cpu[name] * 1000:6.1f} ms "
              f"(medians of {args.runs})"
              + ("" if name == base else f"  {secs / t[base]:5.2f}x click "
                 f"(CPU {cpu[name] / cpu[base]:.2f}x)"))


if __name__ == "__main__":
    main()
