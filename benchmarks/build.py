"""Build speed and memory beside the shared speed floor, in one run on this machine.

Prints:
- the floor deck (``shared/bench``: poker cards with a coloured rounded border, a title, ~40
  words of wrapped text and a number in a corner circle) at 2,000 and 10,000 cards (``--cards``),
  built by irata from the same content written in irata's own format, as PDF + SVG, beside the
  floor's two scripts (``floor_pdf.py`` then ``floor_svg.py``): CPU seconds of the whole
  process(es), the ratio, peak memory, CPU time per card, and the PDF's size beside the floor's;
- the five bundled games printed to PDF and SVG by one ``irata print``: CPU seconds of the
  whole process, and the build's own seconds per game.

CPU time and peak memory come from ``resource.getrusage(RUSAGE_CHILDREN)`` taken inside a small
wrapper process whose only child is the measured command, so each figure is that command's
alone. The floor's two scripts are two processes: their CPU times add up, their peak memory is
the larger of the two.

What each side does (the sides are not the same work, and the output says so): the floor draws
each card's front once, 9 to an A4 page in one PDF, and writes one SVG per card; it draws no
backs. irata draws each card's front AND its back (one of 8 colours, as a second layout), fits
every text to its box, imposes fronts and duplex backs with bleed and crop marks, adds a
footer to every page, a checklist sheet and a manifest, and writes one SVG per sheet side.

The edit loop (issue 28), on the floor decks as their designer would meet it:
- ``--watch``: ``irata print --watch`` running on a 500- and a 10,000-card deck (``--watch-cards``);
  one card's text is edited on disk and the time from the save to the new PDF being in place
  is measured (the PDF's file replaced), and to the watch's line (every file written), with
  the line itself (it names the changed pages);
- ``--jobs``: a 10,000-card print's wall time with 1 and with 2 processes, and the ratio, with
  the machine's load average beside it (the machine is shared: the ratio is only as good as
  the cores that were free), and beside that the same ratio of a pure-CPU loop measured
  around each pair (what this machine, so loaded, gives two processes at best);
- ``irata preview --printed`` of one card, wall time of the whole command, after a print (the
  record it left: warm), beside ``python -c "import click"`` and the preview drawn the whole
  way (``--preview-only``: these alone).

No asserts on time: the machine is shared and noisy; compare the ratios within one run.

    python benchmarks/build.py [--cards 2000,10000] [--runs 3] [--watch-cards 500,10000]
                               [--skip-games] [--skip-edit-loop]
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from components import list_games  # noqa: E402 (after the path above)

GAMES = list_games()  # every bundled game, from the one list

# The wrapper: runs its arguments as one child and reports that child's CPU, peak RSS, wall.
MEASURE = """
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
wall = time.perf_counter() - t0
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"cpu": u.ru_utime + u.ru_stime, "rss_mib": u.ru_maxrss / 1024, "wall": wall,
                  "rc": r.returncode, "out": r.stdout[-4000:], "err": r.stderr[-2000:]}))
"""

# irata's build of the bundled games, CPU time inside the process (load + build per game).
GAMES_CHILD = """
import json, sys, time
from pathlib import Path
from components import load
from generator.build import BuildOptions, build
from generator.layout import Settings
out = Path(sys.argv[1])
res = {}
for key in sys.argv[2:]:
    t0 = time.process_time()
    r = build(load(key), BuildOptions(Settings(), ("pdf", "svg"), out))
    res[key] = {"seconds": time.process_time() - t0, "pages": len(r.sheets),
                "pieces": r.copies}
print(json.dumps(res))
"""


def find_floor() -> Path | None:
    """The speed floor: ``$IRATA_FLOOR``, else a ``shared/bench`` beside a parent folder."""
    env = os.environ.get("IRATA_FLOOR")
    if env:
        return Path(env)
    for parent in ROOT.parents:
        cand = parent / "shared" / "bench"
        if (cand / "floor_pdf.py").is_file():
            return cand
    return None


def measure(cmd: list[str], cwd: Path) -> dict[str, float]:
    r = subprocess.run([sys.executable, "-c", MEASURE, *cmd], cwd=cwd, capture_output=True,
                       text=True, check=True)
    res: dict[str, float] = json.loads(r.stdout)
    if res["rc"] != 0:
        raise SystemExit(f"error: {' '.join(cmd)} failed:\n{res['err']}")
    return res


def floor_deck(n: int, folder: Path, floor: Path) -> None:
    """The floor's deck as an irata game folder: the same sizes, colours, text and number on
    the front, and a back in the card's colour (8 colours, so 8 different backs)."""
    sys.path.insert(0, str(floor))
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
        " stroke: '${color}', stroke_width: 2}",
        "    - {type: text, text: '${name}', x: 5, y: 6, w: 45, h: 7, size: 14, font: bold}",
        "    - {type: text, text: '${body}', x: 5, y: 18, w: 53.5, h: 65, size: 9,"
        " leading: 1.22}",
        "    - {type: ellipse, cx: 53.5, cy: 9, r: 5, fill: '${color}', stroke: black,"
        " stroke_width: 0.6}",
        "    - {type: text, text: '${number}', x: 48.5, y: 6.5, w: 10, h: 5, size: 11,"
        " font: bold, color: white, align: center}",
        "  floor-back:",
        "    - {type: rect, x: 0, y: 0, w: '100%', h: '100%', fill: '${color}', bleed: true}",
        "    - {type: rect, x: 4, y: 4, w: '100%-8', h: '100%-8', radius: 3, stroke: white,"
        " stroke_width: 0.8}",
        "    - {type: text, text: 'FLOOR', x: 6, y: '50%-6', w: '100%-12', h: 12, size: 22,"
        " font: bold, color: white, align: center, valign: middle}",
        "defaults: {kind: card, size: poker, group: Cards, front: floor, back: floor-back,"
        " version_mark: false}",
        "components:",
    ]
    for i, c in enumerate(cards):
        body = c["body"].replace('"', "'")
        lines.append(f'  - {{id: "card/{i + 1}", name: "{c["name"]}", body: "{body}", '
                     f'color: "{c["color"]}", number: {c["number"]}}}')
    (folder / "cards.yaml").write_text("\n".join(lines) + "\n")


def floor_run(floor: Path, n: int, out: Path) -> dict[str, float]:
    out.mkdir(parents=True)
    pdf = out / "floor.pdf"
    a = measure([sys.executable, "floor_pdf.py", str(n), "helv", str(pdf)], floor)
    b = measure([sys.executable, "floor_svg.py", str(n), str(out / "svg")], floor)
    return {"cpu": a["cpu"] + b["cpu"], "rss_mib": max(a["rss_mib"], b["rss_mib"]),
            "size": pdf.stat().st_size}


# the floor decks are larger than irata's default print-size guard (3,000 pieces a game, and the
# shapes that follow) allows a shared game folder: the benchmark prints them as their user would,
# with --max-pieces
MAX_PIECES = "20000"


def irata_run(deck: Path, out: Path, jobs: int = 1) -> dict[str, float]:
    # one process by default: CPU seconds beside the floor's one process
    r = measure([sys.executable, "-m", "irata.cli", "print", "--max-pieces", MAX_PIECES,
                 "--components", str(deck), "--jobs", str(jobs),
                 "--format", "pdf,svg", "--out", str(out)], ROOT)
    # every PDF irata wrote (the double-sided sheets, and any single-sided ones)
    size = sum(f.stat().st_size for f in (out / "floor").glob("*.pdf"))
    return {"cpu": r["cpu"], "rss_mib": r["rss_mib"], "size": size, "wall": r["wall"]}


def _lines(stream: Any, q: queue.Queue[str]) -> None:
    for line in iter(stream.readline, ""):
        q.put(line.rstrip("\n"))


def _wait_line(q: queue.Queue[str], text: str, timeout: float) -> str | None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            line = q.get(timeout=max(0.01, end - time.monotonic()))
        except queue.Empty:
            return None
        if text in line:
            return line
    return None


def watch_run(deck: Path, out: Path, edits: int) -> tuple[list[float], list[float], list[str]]:
    """``irata print --watch`` on ``deck``; ``edits`` one-card edits, each timed from the save
    to the PDF replaced and to the watch's line. Returns both lists of seconds and the lines."""
    cards = deck / "cards.yaml"
    original = cards.read_text()
    proc = subprocess.Popen([sys.executable, "-m", "irata.cli", "print", "--watch",
                             "--max-pieces", MAX_PIECES, "--components", str(deck),
                             "--format", "pdf,svg", "--out", str(out)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    q: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_lines, args=(proc.stdout, q), daemon=True).start()
    to_pdf: list[float] = []
    to_line: list[float] = []
    lines: list[str] = []
    try:
        if _wait_line(q, "watching", 900) is None:
            raise SystemExit("error: irata print --watch did not start")
        pdf = out / "floor" / "floor.pdf"
        text = original
        for k in range(edits):
            before = pdf.stat()
            # one card's body gets a word more (letters the deck uses: no new glyphs)
            mark = f'id: "card/{37 + 101 * k}", '
            i = text.index('body: "', text.index(mark)) + len('body: "')
            text = text[:i] + "and " + text[i:]
            time.sleep(0.3)  # a designer's pause between saves
            cards.write_text(text)
            saved = time.perf_counter()
            while True:
                st = pdf.stat()
                if (st.st_ino, st.st_mtime_ns) != (before.st_ino, before.st_mtime_ns):
                    break
                if time.perf_counter() - saved > 120:
                    raise SystemExit("error: the PDF did not change after an edit")
                time.sleep(0.002)
            to_pdf.append(time.perf_counter() - saved)
            line = _wait_line(q, "built in", 120)
            to_line.append(time.perf_counter() - saved)
            lines.append(line or "(no line)")
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        cards.write_text(original)
    return to_pdf, to_line, lines


CPU_LOOP = "import sys\ns = 0\nfor i in range(int(sys.argv[1])):\n    s += i * i\n"


def cpu_reference(n: int = 15_000_000) -> float:
    """How this machine, as loaded now, runs two processes: the wall time of a pure-CPU loop
    of 2n steps done as two processes of n at once, over one process doing all 2n."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", CPU_LOOP, str(2 * n)], check=True)
    one = time.perf_counter() - t0
    t0 = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-c", CPU_LOOP, str(n)]) for _ in range(2)]
    for proc in procs:
        proc.wait()
    return (time.perf_counter() - t0) / one


def edit_loop(tmp: Path, floor: Path, watch_sizes: list[int], jobs_cards: int,
              runs: int) -> None:
    """The watch, the parallel print and the preview (see the module's docstring)."""
    for n in watch_sizes:
        deck = tmp / f"watch-{n}" / "floor"
        floor_deck(n, deck, floor)
        to_pdf, to_line, lines = watch_run(deck, tmp / f"watch-out-{n}", max(3, runs))
        target = 0.3 if n <= 500 else 0.5
        print(f"watch, {n} cards, one card edited ({len(to_pdf)} edits):")
        print(f"  save -> PDF replaced   {spread(to_pdf, '{:.3f}')} s   (target <= {target})")
        print(f"  save -> watch's line   {spread(to_line, '{:.3f}')} s   (SVG and manifest "
              "written too)")
        print(f"  its line: {lines[-1].strip()}")
        print()
    deck = tmp / f"jobs-{jobs_cards}" / "floor"
    floor_deck(jobs_cards, deck, floor)
    walls: dict[int, list[float]] = {1: [], 2: []}
    loads: list[float] = []
    reference: list[float] = []
    for k in range(runs):
        reference.append(cpu_reference())
        # (in turn 1 then 2, 2 then 1: a machine that slows down or speeds up during a pair
        # favours neither)
        for jobs in ((1, 2) if k % 2 == 0 else (2, 1)):
            loads.append(os.getloadavg()[0])
            walls[jobs].append(irata_run(deck, tmp / f"jobs-{jobs}-{k}", jobs)["wall"])
            shutil.rmtree(tmp / f"jobs-{jobs}-{k}")
        reference.append(cpu_reference())
    ratios = [b / a for a, b in zip(walls[1], walls[2], strict=True)]
    print(f"--jobs, {jobs_cards} cards, PDF + SVG, a fresh output folder (wall s of the whole "
          "process):")
    print(f"  --jobs 1 {spread(walls[1]):>22}")
    print(f"  --jobs 2 {spread(walls[2]):>22}")
    print(f"  ratio 2 jobs / 1 job: {spread(ratios)}   (target <= 0.60; {os.cpu_count()} cores, "
          f"1-minute load average {min(loads):.1f}-{max(loads):.1f} while measured)")
    print(f"  the machine's own: {spread(reference)}   (a pure-CPU loop, the same work in 2 "
          "processes / in 1, measured before and after each pair: 0.50 on 2 idle cores)")
    print()
    preview_run(tmp, floor, runs)


def preview_run(tmp: Path, floor: Path, runs: int) -> None:
    """``irata preview --printed`` of one card of a printed 500-card deck (the record the print
    left: warm), wall time of the whole process, beside ``python -c "import click"`` timed in
    the same interleaved runs, and beside the preview drawn the whole way (no --printed). Both
    as this environment runs Python (without PYTHONDONTWRITEBYTECODE set, bytecode is cached as
    an installed irata's is) and with a warmed bytecode cache of its own (PYTHONPYCACHEPREFIX)."""
    small = tmp / "preview" / "floor"
    floor_deck(500, small, floor)
    out = tmp / "preview-out"
    subprocess.run([sys.executable, "-m", "irata.cli", "print", "--components", str(small),
                    "--out", str(out)], cwd=ROOT, check=True, capture_output=True)
    plain = dict(os.environ)
    cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cached["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    base = [sys.executable, "-m", "irata.cli", "preview", "--components", str(small), "floor"]

    def wall(cmd: list[str], env: dict[str, str]) -> float:
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, env=env)
        return time.perf_counter() - t0

    click_cmd = [sys.executable, "-c", "import click"]
    wall(base + ["card/1", "--printed", str(out), "--out", str(tmp / "p.png")], cached)  # warm
    wall(base + ["card/1", "--out", str(tmp / "p.png")], cached)
    print("irata preview of one card of a 500-card deck, after a print (wall s, whole process):")
    for label, env in (("as run here", plain), ("bytecode cached", cached)):
        fig: dict[str, list[float]] = {"click": [], "printed": [], "whole": []}
        loads: list[float] = []
        for k in range(max(3, runs)):
            card = f"card/{1 + 37 * k}"
            loads.append(os.getloadavg()[0])
            fig["click"].append(wall(click_cmd, env))
            fig["printed"].append(wall(base + [card, "--printed", str(out), "--out",
                                               str(tmp / "p.png")], env))
            fig["whole"].append(wall(base + [card, "--out", str(tmp / "p.png")], env))
        ratio = [p / c for p, c in zip(fig["printed"], fig["click"], strict=True)]
        print(f"  {label} (1-minute load {min(loads):.1f}-{max(loads):.1f}):")
        print(f"    python -c 'import click'   {spread(fig['click'])} s")
        print(f"    preview --printed OUT      {spread(fig['printed'])} s   (target <= 0.5); "
              f"{spread(ratio)}x click")
        print(f"    preview, the whole way     {spread(fig['whole'])} s")
    print()


def spread(values: list[float], fmt: str = "{:.2f}") -> str:
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}-" \
           f"{fmt.format(max(values))})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cards", default="2000,10000", help="deck sizes, comma-separated")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--skip-games", action="store_true")
    ap.add_argument("--skip-edit-loop", action="store_true")
    ap.add_argument("--watch-cards", default="500,10000", help="decks the watch is timed on")
    ap.add_argument("--jobs-cards", type=int, default=10000, help="the deck --jobs is timed on")
    ap.add_argument("--preview-only", action="store_true",
                    help="only the preview's figures (needs the floor)")
    args = ap.parse_args()
    sizes = [int(v) for v in args.cards.split(",")]
    tmp = Path(tempfile.mkdtemp(prefix="irata-bench-"))
    print(f"machine: {os.cpu_count()} cores (shared); {args.runs} paired runs, each figure "
          f"median (min-max); scratch {tmp}")
    floor = find_floor()
    if args.preview_only and floor is not None:
        preview_run(tmp, floor, args.runs)
        return
    if floor is None:
        print("no speed floor (shared/bench) found; set IRATA_FLOOR: floor deck skipped")
        sizes = []
    else:
        print(f"floor: {floor}")
        print("floor does: each card's front only (no backs), 9 to an A4 page, one PDF; "
              "one SVG per card.")
        print("irata does: each card's front AND back (8 different backs), text fitted, "
              "duplex imposition with bleed,")
        print("            crop marks, footers, checklist sheet, manifest; one SVG per sheet "
              "side.")
        print(f"note: these decks pass irata's default print-size guard (3,000 pieces) only "
              f"with --max-pieces {MAX_PIECES}, which the benchmark gives")
    print()
    results: dict[int, tuple[list[dict[str, float]], list[dict[str, float]]]] = {}
    startup = 0.0
    if sizes:
        # irata's fixed cost (interpreter, imports, one sheet): a 9-card deck
        small = tmp / "deck-9" / "floor"
        floor_deck(9, small, floor)  # type: ignore[arg-type]
        startup = statistics.median(irata_run(small, tmp / f"irata-9-{k}")["cpu"]
                                    for k in range(args.runs))
        print(f"irata start-up (a 9-card deck, whole process): {startup:.2f} s CPU")
        print()
    for n in sizes:
        deck = tmp / f"deck-{n}" / "floor"
        floor_deck(n, deck, floor)  # type: ignore[arg-type]
        fl: list[dict[str, float]] = []
        ir: list[dict[str, float]] = []
        for k in range(args.runs):  # paired: floor then irata, close in time; fresh folders
            fl.append(floor_run(floor, n, tmp / f"floor-{n}-{k}"))  # type: ignore[arg-type]
            ir.append(irata_run(deck, tmp / f"irata-{n}-{k}"))
            shutil.rmtree(tmp / f"floor-{n}-{k}" / "svg")  # 10,000 files: not kept
            shutil.rmtree(tmp / f"irata-{n}-{k}" / "floor" / "svg")
        results[n] = (fl, ir)
        ratios = [b["cpu"] / a["cpu"] for a, b in zip(fl, ir, strict=True)]
        print(f"floor deck, {n} cards, PDF + SVG (CPU s of the whole process):")
        print(f"  {'':18} {'floor':>20} {'irata':>20}")
        print(f"  {'CPU seconds':18} {spread([r['cpu'] for r in fl]):>20} "
              f"{spread([r['cpu'] for r in ir]):>20}")
        print(f"  {'ms per card':18} {spread([r['cpu'] / n * 1000 for r in fl], '{:.3f}'):>20} "
              f"{spread([r['cpu'] / n * 1000 for r in ir], '{:.3f}'):>20}")
        print(f"  {'peak memory MiB':18} {spread([r['rss_mib'] for r in fl], '{:.0f}'):>20} "
              f"{spread([r['rss_mib'] for r in ir], '{:.0f}'):>20}")
        print(f"  {'PDF size KiB':18} {fl[0]['size'] / 1024:>20.0f} {ir[0]['size'] / 1024:>20.0f}"
              f"   (irata's holds the backs too)")
        print(f"  ratio irata/floor CPU: {spread(ratios)}   (target <= 1.20)")
        print(f"  ratio irata/floor PDF size: {ir[0]['size'] / fl[0]['size']:.2f}"
              f"   (target <= 2.00 at 2,000)")
        print()
    if len(sizes) >= 2:
        a, b = sizes[0], sizes[-1]
        ia, ib = results[a][1], results[b][1]
        per_a = statistics.median(r["cpu"] / a for r in ia)
        per_b = statistics.median(r["cpu"] / b for r in ib)
        marg = (statistics.median(r["cpu"] for r in ib) -
                statistics.median(r["cpu"] for r in ia)) / (b - a)
        print(f"irata per card: {per_a * 1000:.3f} ms at {a}, {per_b * 1000:.3f} ms at {b}: "
              f"{per_b / per_a:.2f}x   (target: within 10%)")
        print(f"  marginal cost of a card from {a} to {b}: {marg * 1000:.3f} ms "
              f"({marg / per_a:.2f}x the per-card time at {a}; startup excluded)")
        net_a = (statistics.median(r["cpu"] for r in ia) - startup) / (a - 9)
        net_b = (statistics.median(r["cpu"] for r in ib) - startup) / (b - 9)
        print(f"  net of start-up: {net_a * 1000:.3f} ms at {a}, {net_b * 1000:.3f} ms at {b}: "
              f"{net_b / net_a:.2f}x")
        print(f"irata peak memory at {b}: "
              f"{statistics.median(r['rss_mib'] for r in ib):.0f} MiB   (target <= 100)")
        print()
    if floor is not None and not args.skip_edit_loop:
        edit_loop(tmp, floor, [int(v) for v in args.watch_cards.split(",") if v],
                  args.jobs_cards, args.runs)
    if args.skip_games:
        return
    games = [g for g in GAMES
             if (ROOT / "components" / g.replace("-", "_") / "game.yaml").is_file()]
    whole: list[dict[str, float]] = []
    inner: list[dict[str, dict[str, float]]] = []
    for k in range(args.runs):
        whole.append(measure([sys.executable, "-m", "irata.cli", "print", *games,
                              "--out", str(tmp / f"games-cli-{k}")], ROOT))
        r = measure([sys.executable, "-c", GAMES_CHILD, str(tmp / f"games-{k}"), *games], ROOT)
        inner.append(json.loads(str(r["out"]).strip().splitlines()[-1]))
    print(f"the {len(games)} bundled games, PDF + SVG:")
    for g in games:
        secs = [run[g]["seconds"] for run in inner]
        print(f"  {g:16} {spread(secs):>20} s CPU {inner[0][g]['pages']:4.0f} pages "
              f"{inner[0][g]['pieces']:5.0f} pieces")
    totals = [sum(run[g]["seconds"] for g in games) for run in inner]
    print(f"  {'all, build only':16} {spread(totals):>20} s   (load + build, imports excluded)")
    print(f"  {'irata print':16} {spread([w['cpu'] for w in whole]):>20} s CPU of the whole "
          f"process, imports included   (target <= 1.5)")
    print(f"  {'':16} {spread([w['rss_mib'] for w in whole], '{:.0f}'):>20} MiB peak")


if __name__ == "__main__":
    main()
