"""Ink: how much the ink-saver print takes against the full print, game by game.

Builds each game twice (``--ink full`` and ``--ink saver``, PDF only), renders every page of
every PDF at low resolution with pymupdf, and sums each page's mean darkness (1 - grey level,
0 for white paper, 1 for solid black) times its area: the ink a printer lays down, in
"A4-page equivalents of solid black". Prints both figures and the ratio saver / full.

    python benchmarks/ink.py [--paper letter] [--dpi 30] [GAME ...]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from components import list_games  # noqa: E402 (after the path above)

GAMES = list_games()  # every bundled game, from the one list
A4_MM2 = 210.0 * 297.0


def ink_of(folder: Path, manifest: dict[str, object], dpi: int) -> float:
    """The darkness of every page of the build's PDFs, in solid-black A4-page equivalents."""
    import pymupdf

    total = 0.0
    for f in manifest["files"]:  # type: ignore[attr-defined]
        doc = pymupdf.open(folder / f["file"])
        for page in doc:
            pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
            data = pix.samples
            dark = 1.0 - sum(data) / (255.0 * len(data))
            w_mm, h_mm = page.rect.width * 25.4 / 72, page.rect.height * 25.4 / 72
            total += dark * (w_mm * h_mm) / A4_MM2
    return total


def build(game_key: str, out: Path, paper: str, ink: str) -> tuple[Path, dict[str, object]]:
    from components import load
    from generator.build import BuildOptions, build
    from generator.layout import Settings

    r = build(load(game_key), BuildOptions(Settings(paper=paper), ("pdf",), out, ink=ink))
    return r.folder, json.loads(r.manifest.read_text())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=GAMES)
    ap.add_argument("--paper", default="letter")
    ap.add_argument("--dpi", type=int, default=30)
    args = ap.parse_args()
    print(f"ink in solid-black A4 pages (pages rendered at {args.dpi} dpi, {args.paper})")
    print(f"{'game':16} {'full':>8} {'saver':>8} {'saver/full':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        for key in args.games:
            full = ink_of(*build(key, Path(tmp) / "full", args.paper, "full"), args.dpi)
            saver = ink_of(*build(key, Path(tmp) / "saver", args.paper, "saver"), args.dpi)
            print(f"{key:16} {full:8.2f} {saver:8.2f} {saver / full:11.3f}")


if __name__ == "__main__":
    main()
