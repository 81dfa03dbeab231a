"""Paper: sheets of paper each bundled game takes, against the area bound; crop marks; colours.

For every game on each paper and duplex edge asked for, builds the PDFs and prints, from the
manifest: the sheets of paper (one per front page, in either file), how many print
double-sided (GAME.pdf) and one-sided (GAME-single-sided.pdf), the area bound (the trim
areas of every component over the printable area of one sheet: no imposition can use fewer
sheets), their ratio, and the pages with no component on them (the checklist's back of a
rules sheet is one; a blank page would be another). From the sheets as imposed: the
shortest crop mark inside the printable area (``--margin``, where a home printer prints),
how many marks lie wholly in the margin, how many cut lines have no mark of 3 mm there, and
how full the emptiest sheet is (the trims and sheet texts on it over its printable area) with
the number of sheets under 40 % full.
Then, per game, the smallest CIEDE2000 between two colours of one of its ``distinct`` lists
and between one of them and the paper, read on rendered faces (``generator.distinct``), in
the full print and the saver print.

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


def mark_figures(key: str, paper: str, duplex: str) -> tuple[float, int, int, float, int]:
    """The shortest crop mark's length inside the printable area, the marks outside it, the
    cut lines without a printable mark, the emptiest sheet's fill and the sheets under 40 %."""
    from components import load
    from generator.build import (
        checklist_panel,
        draw_all,
        impose_all,
        number_and_footer,
        output_names,
        print_files,
        select,
    )
    from generator.draw import Options
    from generator.layout import MARK, Line, Settings
    from generator.pack import unmarked

    game = load(key)
    settings = Settings(paper=paper, duplex=duplex)
    faces = draw_all(game, select(game, None), Options())
    sheets = impose_all(game, faces, settings, [checklist_panel(game, settings)])
    sheets = print_files(sheets, output_names(game, None)[0], settings)
    number_and_footer(game, sheets, settings)
    m = settings.margin
    shortest, outside = float("inf"), 0
    for sheet in sheets:
        for line in sheet.marks:
            if not isinstance(line, Line) or line.style != MARK:
                continue
            vertical = abs(line.x1 - line.x2) < 1e-9
            at, a, b = (line.x1, line.y1, line.y2) if vertical else (line.y1, line.x1, line.x2)
            across, along = (sheet.w, sheet.h) if vertical else (sheet.h, sheet.w)
            inside = 0.0
            if m - 1e-6 <= at <= across - m + 1e-6:
                inside = max(0.0, min(max(a, b), along - m) - max(min(a, b), m))
            if inside <= 1e-6:
                outside += 1
            else:
                shortest = min(shortest, inside)
    fills = [fill(sheet, m) for sheet in sheets if sheet.side == "front"]
    return (shortest, outside, len(unmarked(sheets, settings)), min(fills),
            sum(1 for f in fills if f < 0.4))


def fill(sheet: Any, margin: float) -> float:
    """The share of a sheet's printable area its pieces' trims and its sheet texts take."""
    trims = [p.trim for p in sheet.placements if p.face == "front"]
    area = sum(w * h for _, _, w, h in trims)
    for x, y, w, h in sheet.occupied:  # a panel's box (a board part's is its trim's)
        if not any(abs(x - tx) < 1e-6 and abs(y - ty) < 1e-6 for tx, ty, _, _ in trims):
            area += w * h
    return area / ((sheet.w - 2 * margin) * (sheet.h - 2 * margin))


def colour_figures(key: str) -> str:
    """The smallest CIEDE2000 of the game's distinct lists, full and saver: pairs / paper."""
    from components import load
    from generator.distinct import report

    game = load(key)
    if not game.distinct:
        return "no distinct: lists"
    parts = []
    for ink in ("full", "saver"):
        r = report(game, ink)
        pair = min(v[0] for v in r.values())
        paper = min(v[1] for v in r.values())
        parts.append(f"{ink} {pair:5.1f} / {paper:5.1f}")
    return f"{', '.join(sorted(game.distinct))}: " + "; ".join(parts)


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
          f"{'bound':>6} {'ratio':>6} {'no component':>12} {'mark mm':>7} {'in margin':>9} "
          f"{'unmarked':>8} {'emptiest':>8} {'<40%':>4}")
    with tempfile.TemporaryDirectory() as tmp:
        for key in args.games:
            for paper in args.paper:
                for duplex in args.duplex:
                    out = Path(tmp) / f"{paper}-{duplex}"
                    r = build(load(key), BuildOptions(Settings(paper=paper, duplex=duplex),
                                                      ("pdf",), out))
                    f = figures(json.loads(r.manifest.read_text()))
                    shortest, outside, bare, emptiest, thin = mark_figures(key, paper,
                                                                           duplex)
                    print(f"{key:16} {paper:6} {duplex:5} {f['sheets']:6.0f} "
                          f"{f['double']:7.0f} {f['single']:7.0f} {f['bound']:6.1f} "
                          f"{f['ratio']:6.2f} {f['empty']:12.0f} {shortest:7.2f} "
                          f"{outside:9d} {bare:8d} {emptiest:7.0%} {thin:4d}")
    print("\nsmallest CIEDE2000 in each game's distinct lists (between two colours / against "
          "the paper), read on rendered faces")
    for key in args.games:
        print(f"{key:16} {colour_figures(key)}")


if __name__ == "__main__":
    main()
