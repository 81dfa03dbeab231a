"""What the designer's-toolkit tests share: a small game folder written on the spot, a
build, the CLI run in-process, and small fonts made with fontTools (so font tests need no font
on the machine). Each made glyph is a box with a notch whose place depends on the character:
enough to print, embed, subset and extract as text.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.pens.ttGlyphPen import TTGlyphPen


def _draw(pen: object, k: int) -> None:
    p = pen
    p.moveTo((60, 0))  # type: ignore[attr-defined]
    p.lineTo((540, 0))  # type: ignore[attr-defined]
    p.lineTo((540, 700))  # type: ignore[attr-defined]
    p.lineTo((60, 700))  # type: ignore[attr-defined]
    p.closePath()  # type: ignore[attr-defined]
    y = 100 + (k * 97) % 450
    p.moveTo((160, y))  # type: ignore[attr-defined]
    p.lineTo((160, y + 120))  # type: ignore[attr-defined]
    p.lineTo((440, y + 120))  # type: ignore[attr-defined]
    p.lineTo((440, y))  # type: ignore[attr-defined]
    p.closePath()  # type: ignore[attr-defined]


def make_font(path: Path, chars: str, family: str = "Irata Test", cff: bool = True,
              variable: bool = False) -> Path:
    """Write a font with a glyph for each of ``chars`` (and space) to ``path``: PostScript
    (CFF) outlines, as most .otf files have, or TrueType ones with ``cff=False``; with
    ``variable``, a TrueType variable font with a weight axis (400 to 700)."""
    cff = cff and not variable
    cps = sorted({ord(c) for c in chars if c != " "})
    names = [".notdef", "space"] + [f"uni{cp:04X}" if cp <= 0xFFFF else f"u{cp:05X}"
                                    for cp in cps]
    fb = FontBuilder(1000, isTTF=not cff)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({0x20: "space", **dict(zip(cps, names[2:], strict=True))})
    metrics = {n: (600, 0) for n in names}
    metrics["space"] = (300, 0)
    if cff:
        charstrings = {}
        for k, n in enumerate(names):
            pen = T2CharStringPen(metrics[n][0], None)
            if n != "space":
                _draw(pen, k)
            charstrings[n] = pen.getCharString()
        fb.setupCFF(family.replace(" ", ""), {"FullName": family}, charstrings, {})
    else:
        glyphs = {}
        for k, n in enumerate(names):
            pen = TTGlyphPen(None)
            if n != "space":
                _draw(pen, k)
            glyphs[n] = pen.glyph()
        fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics(metrics)
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    if variable:
        from fontTools.ttLib.tables._g_l_y_f import GlyphCoordinates
        from fontTools.ttLib.tables.TupleVariation import TupleVariation

        fb.setupFvar([("wght", 400, 400, 700, "Weight")], [])
        variations = {}
        for n in names[2:]:
            count = len(glyphs[n].coordinates) + 4  # the outline's points and 4 phantoms
            deltas = [(30, 0)] * (count - 4) + [(0, 0)] * 4
            variations[n] = [TupleVariation({"wght": (0, 1.0, 1.0)},
                                            list(GlyphCoordinates(deltas)))]
        fb.setupGvar(variations)
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    path.parent.mkdir(parents=True, exist_ok=True)
    fb.save(str(path))
    return path


@pytest.fixture()
def font_maker() -> Callable[..., Path]:
    """``font_maker(path, chars, family=..., cff=True)``: a small font with those glyphs."""
    return make_font


def write_game(folder: Path, files: dict[str, str]) -> Path:
    """A game folder from ``{relative path: text}`` (text dedented)."""
    for rel, text in files.items():
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return folder


@pytest.fixture()
def game_dir(tmp_path: Path) -> Callable[[dict[str, str]], Path]:
    """``game_dir({path: text})``: a fresh game folder under tmp_path."""
    counter = [0]

    def make(files: dict[str, str]) -> Path:
        counter[0] += 1
        return write_game(tmp_path / f"game{counter[0]}", files)

    return make


def build_game(folder: Path, out: Path, formats: tuple[str, ...] = ("pdf", "svg")) -> Any:
    from components import load_path
    from generator.build import BuildOptions, build
    from generator.layout import Settings

    return build(load_path(folder), BuildOptions(Settings(), formats, out))


@pytest.fixture()
def builder() -> Callable[..., Any]:
    """``builder(folder, out, formats)``: build a game folder; returns the BuildResult."""
    return build_game


def run_cli(*args: str, cwd: Path | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``irata ARGS`` in a fresh process (the command line a designer types)."""
    return subprocess.run([sys.executable, "-c", "from irata.cli import main; main()", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=timeout)


@pytest.fixture()
def cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    return run_cli


def manifest(out: Path, game: str) -> dict[str, Any]:
    return json.loads((out / game / "manifest.json").read_text())
