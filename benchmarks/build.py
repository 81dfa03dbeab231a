"""Build speed and memory: every bundled game, and the shared speed floor's deck.

Prints, in one run on this machine:
- each bundled game built to PDF and SVG: seconds, components and pieces per second, pages;
- the whole set's seconds and peak memory (each build in its own process, maxrss);
- the floor deck (``../shared/bench``: N poker cards, a rounded border, a title, ~40 words of
  wrapped text, a number in a corner circle) drawn by the plainest reportlab and svgwrite
  scripts and by irata from the same content written in irata's own format, as ratios.

No asserts on time: these machines are shared and noisy; compare the ratios.

    python benchmarks/build.py [--cards 500] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLOOR = ROOT.parent / "shared" / "bench"
GAMES = ["mule", "mule-goes-crazy", "muli", "mutagen", "outer-earth"]

CHILD = """
import json, resource, sys, time
from pathlib import Path
from components import load, load_path
from generator.build import BuildOptions, build
from generator.layout import Settings
game_arg, out, folder = sys.argv[1], Path(sys.argv[2]), sys.argv[4]
formats = tuple(sys.argv[3].split(','))
t0 = time.perf_counter()
game = load_path(folder) if folder != '-' else load(game_arg)
r = build(game, BuildOptions(Settings(), formats, out))
dt = time.perf_counter() - t0
print(json.dumps({"seconds": dt, "components": r.components, "pieces": r.copies,
                  "pages": len(r.sheets),
                  "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def child(game: str, out: Path, formats: str, folder: str = "-") -> dict[str, float]:
    r = subprocess.run([sys.executable, "-c", CHILD, game, str(out), formats, folder],
                       capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def wall(cmd: list[str], cwd: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - t0


def floor_deck(n: int, folder: Path) -> None:
    """The floor's deck, as an irata game folder: same sizes, colours, text and number."""
    sys.path.insert(0, str(FLOOR))
    import deck_data  # type: ignore[import-not-found]

    cards = deck_data.cards(n)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(
        "game: floor\nname: Floor deck\nedition: '1.0'\ninventory:\n"
        f"  - {{group: Cards, count: {n}}}\n")
    lines = [
        "layouts:",
        "  floor:",
        "    - {type: rect, x: 1, y: 1, w: 61.5, h: 86.9, radius: 3, fill: white,"
        " stroke: \"${color}\", stroke_width: 2}",
        "    - {type: text, text: \"${name}\", x: 5, y: 6, w: 45, h: 7, size: 14, font: bold}",
        "    - {type: text, text: \"${body}\", x: 5, y: 18, w: 53.5, h: 65, size: 9,"
        " leading: 1.22}",
        "    - {type: ellipse, cx: 53.5, cy: 9, r: 5, fill: \"${color}\", stroke: black,"
        " stroke_width: 0.6}",
        "    - {type: text, text: \"${number}\", x: 48.5, y: 6.5, w: 10, h: 5, size: 11,"
        " font: bold, color: white, align: center}",
        "defaults: {kind: card, size: poker, group: Cards, front: floor, version_mark: false}",
        "components:",
    ]
    for i, c in enumerate(cards):
        body = c["body"].replace('"', "'")
        lines.append(f'  - {{id: "card/{i + 1}", name: "{c["name"]}", body: "{body}", '
                     f'color: "{c["color"]}", number: {c["number"]}}}')
    (folder / "cards.yaml").write_text("\n".join(lines) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cards", type=int, default=500)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="irata-bench-"))
    print(f"machine: {os.cpu_count()} cores; median of {args.runs} runs; {tmp}")
    print()
    print(f"{'game':16} {'seconds':>8} {'comp/s':>8} {'pieces/s':>9} {'pages':>6} {'MB':>6}")
    total, peak = 0.0, 0.0
    for game in GAMES:
        if not (ROOT / "components" / game.replace("-", "_") / "game.yaml").is_file():
            print(f"{game:16} (not bundled yet)")
            continue
        runs = [child(game, tmp / "games", "pdf,svg") for _ in range(args.runs)]
        sec = statistics.median(r["seconds"] for r in runs)
        r0 = runs[0]
        total += sec
        peak = max(peak, max(r["maxrss_mb"] for r in runs))
        print(f"{game:16} {sec:8.2f} {r0['components'] / sec:8.0f} {r0['pieces'] / sec:9.0f} "
              f"{r0['pages']:6.0f} {r0['maxrss_mb']:6.0f}")
    print(f"{'all games':16} {total:8.2f} {'':8} {'':9} {'':6} {peak:6.0f}  (target: < 10 s)")
    print()
    if not FLOOR.is_dir():
        print(f"no speed floor at {FLOOR}: skipped")
        return
    deck = tmp / "floor-deck" / "floor"
    floor_deck(args.cards, deck)
    n = args.cards
    fl_pdf = statistics.median(
        wall([sys.executable, "floor_pdf.py", str(n), "helv", str(tmp / "floor.pdf")], FLOOR)
        for _ in range(args.runs))
    fl_svg = statistics.median(
        wall([sys.executable, "floor_svg.py", str(n), str(tmp / "floor-svg")], FLOOR)
        for _ in range(args.runs))

    def irata_wall(formats: str) -> float:
        cmd = [sys.executable, "-m", "irata.cli", "print", "--components", str(deck.parent),
               "--format", formats, "--duplex", "none", "--out", str(tmp / "irata-floor")]
        return statistics.median(wall(cmd, ROOT) for _ in range(args.runs))

    ir_pdf, ir_svg = irata_wall("pdf"), irata_wall("svg")
    print(f"floor deck, {n} poker cards (whole process, median of {args.runs}):")
    print(f"  {'':22} {'floor':>8} {'irata':>8} {'ratio':>7}")
    print(f"  {'PDF':22} {fl_pdf:8.2f} {ir_pdf:8.2f} {ir_pdf / fl_pdf:6.2f}x")
    print(f"  {'SVG':22} {fl_svg:8.2f} {ir_svg:8.2f} {ir_svg / fl_svg:6.2f}x")
    print("  (the floor writes one SVG per card; irata one per sheet of nine, with marks, "
          "footer and manifest)")
    print(f"peak memory of this script: "
          f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f} MB (children)")


if __name__ == "__main__":
    main()
