"""How many bytes a M.U.L.E. Turn adds to the games file: the scripted 4-player Tournament
Turn 1 (``examples/mule/tournament-turn-1.txt``, as ``benchmarks/entries.py`` plays it) played
into a fresh games file, once as typed and once with the companion's decks (``--deck``, whose
draw piles the state carries).

Prints the bytes of the Turn's events (their saved JSON) beside the set-up's, the largest
event, and the size of the games file. No asserts.

    .venv/bin/python benchmarks/saved_bytes.py
"""

from __future__ import annotations

import os
import sqlite3
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.entries import NEW, TURN_1, entries  # noqa: E402


def played(db: Path, new: list[str], turn: list[list[str]]) -> None:
    from click.testing import CliRunner

    from irata.cli import cli

    os.environ["IRATA_DB"] = str(db)
    runner = CliRunner()
    for args in [new, *turn]:
        result = runner.invoke(cli, ["play", "mule", *args])
        if result.exit_code != 0:
            raise SystemExit(f"entry {args} refused: {result.output}")


def report(label: str, db: Path) -> None:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT kind, length(CAST(data AS BLOB)) FROM events "
                           "ORDER BY seq").fetchall()
    setup = sum(n for kind, n in rows if kind == "setup")
    turn = [n for kind, n in rows if kind != "setup"]
    print(f"  {label}: {len(turn)} events, {sum(turn):,} bytes a Turn "
          f"(largest event {max(turn):,}; set-up {setup:,}); games file "
          f"{db.stat().st_size:,} bytes")


def main() -> None:
    turn = entries(TURN_1)
    print("M.U.L.E., a 4-player Tournament Turn 1 (examples/mule/tournament-turn-1.txt)")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        played(Path(tmp) / "a.sqlite3", NEW, turn)
        report("as typed         ", Path(tmp) / "a.sqlite3")

if __name__ == "__main__":
    main()
