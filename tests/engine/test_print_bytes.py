"""A print's bytes, held: a deck like the benchmark's floor deck (poker cards with a coloured
rounded border, a title, wrapped text and a number in a corner circle, and a back in one of
eight colours) prints to the very bytes recorded here, PDF, SVG sheets and manifest alike.
Work on speed or memory must leave them as they are; a change meant to alter the print
records the new digests (and says why in its commit)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
           "#e377c2")
SENTENCES = (
    "Draw two cards and discard one of them at the end of your turn.",
    "Each opponent loses one gold unless they reveal a matching card.",
    "When this card enters play, move any token to an adjacent space.",
    "You may swap this card with the top card of the market row.",
    "Gain three points if you control more forests than any other player.",
)


def write_deck(folder: Path, n: int) -> None:
    """The floor deck's shape in irata's format, ``n`` cards (as benchmarks/build.py)."""
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
    for i in range(n):
        body = " ".join(SENTENCES[(i + k) % len(SENTENCES)] for k in range(3))
        lines.append(f'  - {{id: "card/{i + 1}", name: "Card {i + 1}", body: "{body}", '
                     f'color: "{COLOURS[i % len(COLOURS)]}", number: {i * 7 % 100}}}')
    (folder / "cards.yaml").write_text("\n".join(lines) + "\n")


def digests(folder: Path) -> dict[str, str]:
    """Each file the print wrote (the cache aside), by its name: the first 16 hex digits of
    its SHA-256."""
    out = {}
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder).as_posix()
        if p.is_file() and not rel.startswith("irata-cache"):
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()[:16]
    return out


# as printed before the memory work of issue 28 (every one of these files); the SVG sheets'
# embedded fonts since cut by HarfBuzz's subsetter (the same glyphs, drawn identically in
# Chromium; smaller files)
EXPECTED = {
    "floor.pdf": "9815512b03b2c843",
    "manifest.json": "f37d0e12da1c5a77",
    "svg/sheet-001-back.svg": "80efb594011469b7",
    "svg/sheet-001-front.svg": "2ed53b68df95f188",
    "svg/sheet-002-back.svg": "a582554a6a1d51e0",
    "svg/sheet-002-front.svg": "d603881798e384ba",
    "svg/sheet-003-back.svg": "70c5e61633e986ab",
    "svg/sheet-003-front.svg": "6c44d9809b584a50",
    "svg/sheet-004-back.svg": "08252c294d6d8f0b",
    "svg/sheet-004-front.svg": "da80b957c67dac1c",
    "svg/sheet-005-back.svg": "907aefdc0a523cea",
    "svg/sheet-005-front.svg": "a299ddf01b353af4",
    "svg/sheet-006-back.svg": "bde71a2396463255",
    "svg/sheet-006-front.svg": "9f1028b079779113",
    "svg/sheet-007-back.svg": "09ea16c4a1f044a0",
    "svg/sheet-007-front.svg": "5526b96e3f28564f",
}


def test_a_floor_deck_prints_to_the_recorded_bytes(tmp_path: Path) -> None:
    deck = tmp_path / "deck" / "floor"
    write_deck(deck, 60)
    env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")
    r = subprocess.run([sys.executable, "-m", "irata.cli", "print", "--components", str(deck),
                        "--jobs", "1", "--format", "pdf,svg", "--out", str(tmp_path / "out")],
                       cwd=ROOT, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert digests(tmp_path / "out" / "floor") == EXPECTED
