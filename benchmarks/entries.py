"""How many entries the table types for one M.U.L.E. Turn: a scripted 4-player Tournament
Turn 1 (the Turn worked by hand in tests/companion/test_mule_table.py), played at the command
line three ways, each in a fresh games file:

- as few entries as the table needs: several Colonists' Land Grants or Action Rounds in one
  entry (``grant Bob=R01@C1 Cid=R02@C1 ...``), the steps with nothing to decide running
  themselves;
- one step per entry, the steps with nothing to decide running themselves;
- every step typed, as the companion needed before steps ran themselves (the count of steps
  saved).

Prints each count and the steps that ran themselves; checks that all three end in the same
state. No asserts on time.

    .venv/bin/python benchmarks/entries.py
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

NEW = ["new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3"]

TURN_1 = ROOT / "examples" / "mule" / "tournament-turn-1.txt"


def entries(path: Path) -> list[list[str]]:
    """The entries of a scripted Turn: a line each, as typed after ``irata play mule``."""
    import shlex

    return [shlex.split(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def one_per_step(batched: list[list[str]]) -> list[list[str]]:
    """The same Turn, one Colonist's step per entry."""
    out: list[list[str]] = []
    for entry in batched:
        if entry[0] in ("grant", "develop") and "=" in entry[1]:
            for part in entry[1:]:
                name, _, text = part.partition("=")
                out.append([entry[0], name, text])
        else:
            out.append(entry)
    return out


def play(entries: list[list[str]], db: Path
         ) -> tuple[int, list[dict[str, Any]], dict[str, Any]]:
    from click.testing import CliRunner

    from irata.cli import cli

    os.environ["IRATA_DB"] = str(db)
    runner = CliRunner()
    for args in [NEW, *entries]:
        result = runner.invoke(cli, ["play", "mule", *args])
        if result.exit_code != 0:
            raise SystemExit(f"entry {args} refused: {result.output}")
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT data FROM events WHERE kind = 'step' ORDER BY seq").fetchall()
    status = runner.invoke(cli, ["play", "status", "--json"])
    return len(entries), [json.loads(r[0]) for r in rows], json.loads(status.output)["state"]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        batched = entries(TURN_1)
        fewest, log, state = play(batched, Path(tmp) / "a.sqlite3")
        single, _, state_single = play(one_per_step(batched), Path(tmp) / "b.sqlite3")
    ran = [f"{e['step']}{' ' + e['who'] if e.get('who') else ''}" for e in log if e.get("auto")]
    same = state == state_single
    print("M.U.L.E., a 4-player Tournament Turn 1 (examples/mule/tournament-turn-1.txt)")
    print(f"  entries, several Colonists an entry:       {fewest:3d}   (target: at most 15)")
    print(f"  entries, one step an entry:                {single:3d}")
    print(f"  entries, every step typed (steps saved):   {len(log):3d}")
    print(f"  steps that ran themselves ({len(ran)}): {', '.join(ran)}")
    print(f"  the same state after the Turn each way:    {'yes' if same else 'NO'}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
