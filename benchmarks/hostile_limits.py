"""What the bounds on untrusted input cost at their edge, and that scoring scales linearly.

Prints, in one run on this machine:
- Mutagen's End of Game Scoring for 1000, 4000 and 16000 players (every one holding two
  "highest" Crew cards): seconds, and the ratio to the run a quarter its size (about 4 when
  linear, about 16 when quadratic);
- ``irata check`` then ``irata print`` of games built at the edge of what check lets through
  (a board a metre square; nearly as many tarot cards as the work bound allows; the
  largest grid; SVG art just under the shape bound, and just over it, an element counting 8
  shapes; a spreadsheet with one cell at XFD1048576): seconds and peak memory of the child
  process, beside the 10 s and 1 GB that no input may exceed;
- ``irata print`` of the test deck beside an output folder's ``manifest.json`` irata did not
  write (listing 200,000 and 2,000,000 files, nested 100,000 deep): seconds, beside the print
  with irata's own manifest there.

No asserts on time: these machines are shared and noisy.

    python benchmarks/hostile_limits.py
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import sys
from irata.cli import main
codes = []
for args in (["check", "--components", sys.argv[1]],
             ["print", "--components", sys.argv[1], "--out", sys.argv[2]]):
    try:
        main(args)
    except SystemExit as exc:
        codes.append(exc.code)
print(codes, file=sys.stderr)
"""

EDGES = {
    "board 1000 x 1000 mm, 400 cells": (
        "  - id: b\n    kind: board\n    size: [1000, 1000]\n    front: [{type: grid, cols: 20, "
        "rows: 20, cell_w: 50, cell_h: 50, labels: [a, b, c]}]\n"),
    "tarot cards near the work bound (900)": (
        "  - id: c\n    kind: card\n    size: tarot\n    count: 900\n    front: [{type: text, "
        "text: 'A card of the edge case', w: 60, h: 20, size: 12}]\n    back: [{type: rect, w: "
        "100%, h: 100%, fill: '#335577'}]\n"),
    "one face of a 10000-cell grid": (
        "  - id: f\n    kind: sheet\n    size: page\n    front: [{type: grid, cols: 100, rows: "
        "100, cell_w: 1.8, cell_h: 2}]\n"),
}


SVG_ART = ("  - id: a\n    kind: card\n    size: poker\n    front: [{type: image, path: a.svg, "
           "w: 60, h: 80}]\n")


def _svg(shapes: int) -> str:
    body = "".join(f'<rect x="{i % 100}" y="{i // 100 % 100}" width="1" height="1"/>'
                   for i in range(shapes - 1))  # the <svg> element counts as one
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{body}</svg>'


def _far_cell(folder: Path) -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["B1"], ws["A2"], ws["B2"] = "id", "title", "x", "y"
    ws["XFD1048576"] = "far"
    wb.save(folder / "t.xlsx")


# component YAML, and the files beside it
FILES: dict[str, dict[str, object]] = {
    "SVG art of 12,000 elements (passes)": {"a.svg": lambda: _svg(12_000)},
    "SVG art of 12,501 elements (refused)": {"a.svg": lambda: _svg(12_501)},
    "xlsx of one cell at XFD1048576 (refused)": {"t.xlsx": _far_cell, "more.yaml": (
        "defaults: {kind: card, size: poker, front: [{type: text, text: '${title}', w: 40, "
        "h: 10}]}\ncomponents_from: t.xlsx\n")},
}
EDGES.update({"SVG art of 12,000 elements (passes)": SVG_ART,
              "SVG art of 12,501 elements (refused)": SVG_ART,
              "xlsx of one cell at XFD1048576 (refused)": SVG_ART.replace(
                  "{type: image, path: a.svg, w: 60, h: 80}", "{type: rect, w: 5, h: 5}")})


def scoring() -> None:
    from companion.mutagen.data import load_rules
    from companion.mutagen.rules import Crew, PlayerEnd, Tracks, end_of_game

    rules = load_rules()
    crew = (Crew("highest", "ore"), Crew("highest", "gas"))
    last = None
    print("Mutagen End of Game Scoring (two 'highest' Crew cards each):")
    for n in (1000, 4000, 16000):
        players = [PlayerEnd(f"P{i}", 10, Tracks(i % 8, i * 3 % 8, i * 5 % 8, i * 7 % 8), crew)
                   for i in range(n)]
        t = time.perf_counter()
        end_of_game(players, rules)
        s = time.perf_counter() - t
        ratio = f"  x{s / last:.1f} for 4x the players" if last else ""
        print(f"  {n:6d} players: {s:.3f} s{ratio}")
        last = s


def edges() -> None:
    print("check + print at the edge of the bounds (limit: 10 s, 1 GB):")
    for label, component in EDGES.items():
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "G"
            folder.mkdir()
            (folder / "game.yaml").write_text("game: edge\nname: Edge\n")
            (folder / "c.yaml").write_text("components:\n" + component)
            for name, make in FILES.get(label, {}).items():
                if isinstance(make, str):
                    (folder / name).write_text(make)
                elif name.endswith(".xlsx") and callable(make):
                    make(folder)
                elif callable(make):
                    (folder / name).write_text(make())
            t = time.perf_counter()
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            proc = subprocess.run([sys.executable, "-c", CHILD, str(folder), str(Path(tmp) / "o")],
                                  capture_output=True, text=True)
            s = time.perf_counter() - t
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            codes = proc.stderr.strip().splitlines()[-1]
            print(f"  {label:40s} {s:5.1f} s  peak so far {max(peak, before) / 1024:5.0f} MB  "
                  f"exit codes {codes}")


DECK = Path(__file__).resolve().parents[1] / "tests" / "engine" / "fixtures" / "deck"


def manifests() -> None:
    import json

    print("print beside a manifest.json irata did not write (the test deck, PDF only):")
    head = {"game": "deck", "name": "Test Deck", "sheets": []}
    cases = {
        "irata's own manifest": None,
        "listing 200,000 files": lambda: json.dumps(
            {**head, "written": [f"svg/sheet-{i:07d}-front.svg" for i in range(200_000)]}),
        "listing 2,000,000 files": lambda: json.dumps(
            {**head, "written": [f"svg/sheet-{i:07d}-front.svg" for i in range(2_000_000)]}),
        "nested 100,000 deep": lambda: "[" * 100_000 + "]" * 100_000,
    }
    for label, text in cases.items():
        with tempfile.TemporaryDirectory() as tmp:
            args = [sys.executable, "-m", "irata.cli", "print", "--components", str(DECK),
                    "--out", tmp, "--format", "pdf"]
            subprocess.run(args, capture_output=True, check=True)
            if text is not None:
                (Path(tmp) / "deck" / "manifest.json").write_text(text())
            size = (Path(tmp) / "deck" / "manifest.json").stat().st_size
            t = time.perf_counter()
            proc = subprocess.run(args, capture_output=True, text=True)
            s = time.perf_counter() - t
            print(f"  {label:28s} {size / 1e6:6.1f} MB  {s:5.2f} s  exit code {proc.returncode}")


if __name__ == "__main__":
    scoring()
    edges()
    manifests()
