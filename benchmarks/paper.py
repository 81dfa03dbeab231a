"""Paper: sheets of paper each bundled game takes, against the area bound.

For every game on each paper and duplex edge asked for, builds the PDFs and prints, from the
manifest: the sheets of paper (one per front page, in either file), how many print
double-sided (GAME.pdf) and one-sided (GAME-single-sided.pdf), the area bound (the trim
areas of every component over the printable area of one sheet: no imposition can use fewer
sheets), their ratio, and the pages with no component on them (the checklist's back of a
rules sheet is one; a blank page would be another).

    python benchmarks/paper.py [--paper letter a4] [--duplex long short] [GAME ...]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from components import list_games  # noqa: E402 (after the path above)

GAMES = list_games()  # every bundled game, from the one list


def figures(manifest: dict[str, Any]) -> dict[str, float]:
    from generator.layout import PAPERS

    W, H = PAPERS[manifest["paper"]]
    m = manifest["margin_mm"]
    trims = sum(p["trim_mm"][2] * p["trim_mm"][3] for s in manifest["sheets"]
                for p in s["placements"] if p["face"] == "front")
    bound = trims / ((W - 2 * m) * (H - 2 * m))
    fronts = [s for s in manifest["sheets"] if s["side"] == "front"]
    duplex = [s for s in fronts if not s["file"].endswith("-single-sided.pdf")]
    return {"sheets": len(fronts), "double": len(duplex), "single": len(fronts) - len(duplex),
            "bound": bound, "ratio": len(fronts) / bound,
            "empty": sum(1 for s in manifest["sheets"] if not s["placements"])}


def main() -> None:
    from components import load
    from generator.build import BuildOptions, build
    from generator.layout import Settings

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=GAMES)
    ap.add_argument("--paper", nargs="+", default=["letter", "a4"])
    ap.add_argument("--duplex", nargs="+", default=["long", "short"])
    args = ap.parse_args()
    print(f"{'game':16} {'paper':6} {'edge':5} {'sheets':>6} {'2-sided':>7} {'1-sided':>7} "
          f"{'bound':>6} {'ratio':>6} {'no component':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        for key in args.games:
            for paper in args.paper:
                for duplex in args.duplex:
                    out = Path(tmp) / f"{paper}-{duplex}"
                    r = build(load(key), BuildOptions(Settings(paper=paper, duplex=duplex),
                                                      ("pdf",), out))
                    f = figures(json.loads(r.manifest.read_text()))
                    print(f"{key:16} {paper:6} {duplex:5} {f['sheets']:6.0f} "
                          f"{f['double']:7.0f} {f['single']:7.0f} {f['bound']:6.1f} "
                          f"{f['ratio']:6.2f} {f['empty']:12.0f}")


if __name__ == "__main__":
    main()
