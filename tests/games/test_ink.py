"""The ink-saver print: half the ink or less, every text still legible, decks' backs alike."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from click.testing import CliRunner
from PIL import Image

from components import load, load_path
from components.errors import DefinitionError
from generator.build import BuildOptions, build, draw_all, select
from generator.draw import Options
from generator.drawing import Drawing, Icon, Rect, Style, Text
from generator.ink import contrast, luminance, saver
from generator.layout import Settings
from irata.cli import cli

DECK = Path(__file__).parents[1] / "engine" / "fixtures" / "deck"
_BUILDS: dict[tuple[str, str], tuple[Path, dict[str, Any]]] = {}


def built(game: str, ink: str, tmp: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    if (game, ink) not in _BUILDS:
        out = tmp.mktemp(f"{game}-{ink}")
        r = build(load(game), BuildOptions(Settings(paper="letter"), ("pdf",), out, ink=ink))
        _BUILDS[(game, ink)] = (r.folder, json.loads(r.manifest.read_text()))
    return _BUILDS[(game, ink)]


def ink(folder: Path, manifest: dict[str, Any]) -> float:
    """Mean darkness (1 - grey) of every page at 30 dpi, summed over the pages."""
    total = 0.0
    for f in manifest["files"]:
        for page in pymupdf.open(folder / f["file"]):
            pix = page.get_pixmap(dpi=30, colorspace=pymupdf.csGRAY)
            total += 1.0 - sum(pix.samples) / (255.0 * len(pix.samples))
    return total


def pages(folder: Path, manifest: dict[str, Any]) -> list[pymupdf.Page]:
    return [page for f in manifest["files"] for page in pymupdf.open(folder / f["file"])]


@pytest.mark.parametrize("game", ["mule", "mutagen", "outer-earth"])
def test_the_saver_takes_at_most_half_the_ink(game: str,
                                              tmp_path_factory: pytest.TempPathFactory) -> None:
    full = built(game, "full", tmp_path_factory)
    low = built(game, "saver", tmp_path_factory)
    assert full[1]["ink"] == "full" and low[1]["ink"] == "saver"
    assert ink(*low) <= 0.5 * ink(*full)


@pytest.mark.parametrize("game", ["mule", "mutagen", "outer-earth"])
def test_every_word_is_still_printed_and_stands_out(
        game: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    full = pages(*built(game, "full", tmp_path_factory))
    low = pages(*built(game, "saver", tmp_path_factory))
    assert len(full) == len(low)
    checked = 0
    for a, b in zip(full, low, strict=True):
        # the same words on the same page: nothing that names a card is lost
        assert sorted(a.get_text().split()) == sorted(b.get_text().split())
        pix = b.get_pixmap(dpi=100)
        img = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
        k = pix.width / b.rect.width
        for block in b.get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                for span in line["spans"]:
                    if not span["text"].strip():
                        continue
                    x0, y0, x1, y1 = (int(v * k) for v in span["bbox"])
                    colours = img.crop((x0, y0, max(x0 + 1, x1), max(y0 + 1, y1))).getcolors(
                        maxcolors=65536)
                    ground = "#{:02x}{:02x}{:02x}".format(*max(colours)[1])
                    colour = "#{:06x}".format(span["color"])
                    assert contrast(colour, ground) >= 3.0, (span["text"], colour, ground)
                    checked += 1
    assert checked > 500


@pytest.mark.parametrize("game", ["mule", "mutagen", "outer-earth", "mule-goes-crazy"])
def test_the_backs_of_one_deck_stay_alike(game: str) -> None:
    g = load(game)
    full = draw_all(g, select(g, None), Options())
    low = draw_all(g, select(g, None), Options(ink="saver"))
    groups: dict[str, list[tuple[Drawing, Drawing]]] = {}
    for f, s in zip(full, low, strict=True):
        if f.back is not None and s.back is not None:
            groups.setdefault(f.comp.group or f.comp.kind, []).append((f.back, s.back))
    decks = 0
    for backs in groups.values():
        if len(backs) > 1 and all(b[0].items == backs[0][0].items for b in backs):
            decks += 1
            assert all(b[1].items == backs[0][1].items for b in backs)
    assert decks >= 3


def test_large_dark_areas_lighten_and_their_text_stays_readable() -> None:
    game = load_path(DECK)
    dark = "#1b2440"
    d = Drawing(63.5, 88.9, 3.0, [
        Rect(-3, -3, 69.5, 94.9, Style(fill=dark)),  # a full-bleed back
        Text(10, 40, "M.U.L.E.", "Helvetica-Bold", 24, "#f7f2e4"),
        Rect(5, 60, 6, 6, Style(fill="#c8413b")),  # a small red pip keeps its colour
        Icon("dot", 20, 60, 6, "#ffffff"),
    ])
    out = saver(game, d)
    back, text, pip, icon = out.items
    assert isinstance(back, Rect) and back.style.fill and luminance(back.style.fill) > 0.7
    assert isinstance(text, Text) and contrast(text.color, back.style.fill) >= 4.5
    assert isinstance(pip, Rect) and pip.style.fill == "#c8413b"
    assert isinstance(icon, Icon) and icon.color and contrast(icon.color, back.style.fill) >= 3


def test_a_designer_tunes_the_saver_palette(tmp_path: Path) -> None:
    folder = tmp_path / "deck"
    shutil.copytree(DECK, folder)
    game_yaml = folder / "game.yaml"
    base = game_yaml.read_text()
    game_yaml.write_text(base.replace("palette:\n  accent: \"#2a6f97\"\n",
                                      "palette:\n  accent: \"#2a6f97\"\n  pale: \"#e4eef5\"\n"
                                      "ink_saver:\n  accent: pale\n"))
    game = load_path(folder)
    assert game.ink_saver == {"accent": "#e4eef5"}
    d = Drawing(50, 50, 3.0, [Rect(-3, -3, 56, 56, Style(fill="#2a6f97"))])
    first = saver(game, d).items[0]
    assert isinstance(first, Rect) and first.style.fill == "#e4eef5"
    # a name that is not in the palette is one clear error with its place and a suggestion
    game_yaml.write_text(base.replace("palette:\n  accent: \"#2a6f97\"\n",
                                      "palette:\n  accent: \"#2a6f97\"\n"
                                      "ink_saver:\n  acent: \"#ffffff\"\n"))
    with pytest.raises(DefinitionError) as exc:
        load_path(folder)
    assert "did you mean 'accent'?" in str(exc.value) and exc.value.line is not None
    game_yaml.write_text(base.replace("palette:\n  accent: \"#2a6f97\"\n",
                                      "palette:\n  accent: \"#2a6f97\"\n"
                                      "ink_saver:\n  accent: light blue\n"))
    with pytest.raises(DefinitionError, match="must be '#rrggbb'"):
        load_path(folder)


def test_print_ink_saver_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["print", "--components", str(DECK), "--format", "pdf",
                                      "--ink", "saver", "--out", str(out)])
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "deck" / "manifest.json").read_text())
    assert manifest["ink"] == "saver"
    assert "deck.pdf: print double-sided, flip on the long edge" in result.output
    assert "deck-single-sided.pdf: print one-sided" in result.output
