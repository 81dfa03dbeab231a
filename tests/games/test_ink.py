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

from components import list_games, load, load_path
from components.errors import DefinitionError
from generator.build import BuildOptions, build, draw_all, select
from generator.draw import Options
from generator.drawing import Drawing, Group, Icon, Rect, Style, Text, walk
from generator.drawing import Path as Shape
from generator.ink import contrast, luminance, saver
from generator.layout import Settings
from irata.cli import cli

DECK = Path(__file__).parents[1] / "engine" / "fixtures" / "deck"
GAMES = list_games()  # every bundled game, from the one list
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


@pytest.mark.parametrize("game", GAMES)
def test_the_saver_takes_at_most_half_the_ink(game: str,
                                              tmp_path_factory: pytest.TempPathFactory) -> None:
    full = built(game, "full", tmp_path_factory)
    low = built(game, "saver", tmp_path_factory)
    assert full[1]["ink"] == "full" and low[1]["ink"] == "saver"
    assert ink(*low) <= 0.5 * ink(*full)


@pytest.mark.parametrize("game", GAMES)
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
    assert checked > (100 if game == "muli" else 500)


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


def _saver_faces(game_key: str) -> dict[str, Drawing]:
    g = load(game_key)
    return {f.comp.id: f.front for f in draw_all(g, select(g, None), Options(ink="saver"))}


def test_muli_keeps_every_racing_colour_recognisable() -> None:
    game = load("muli")
    faces = _saver_faces("muli")
    colours = {name: game.palette[name] for name in game.data["race"]["colours"]}
    light = {name: game.ink_saver[name] for name in colours}
    # each standee's figure stays in its full colour; its bands take the colour's tint
    for cid in ("mule/red", "mule/yellow", "runner/orange", "runner/purple"):
        colour = cid.split("/")[1]
        items = walk(faces[cid].items)
        figures = {i.color for i in items if isinstance(i, Icon)}
        assert figures == {colours[colour]}, cid
        fills = {i.style.fill for i in items if isinstance(i, Rect)}
        assert light[colour] in fills and colours[colour] not in fills, cid
    # each face of a die prints its colour's tint, its name in a dark shade of that colour
    die = walk(faces["colour-die"].items)
    fills = [i.style.fill for i in die if isinstance(i, Rect) and i.style.fill]
    assert all(light[c] in fills for c in colours)
    assert not any(colours[c] in fills for c in colours)
    names = {i.text: i.color for i in die if isinstance(i, Text)}
    for name in ("RED", "GREEN", "BLUE", "PURPLE"):
        colour, ground = colours[name.lower()], light[name.lower()]
        assert contrast(names[name], ground) >= 4.5
        r, g, b = (int(names[name][k:k + 2], 16) for k in (1, 3, 5))
        cr, cg, cb = (int(colour[k:k + 2], 16) for k in (1, 3, 5))
        # the same hue, darker: the strongest channel of the colour is still the strongest
        assert max((r, "r"), (g, "g"), (b, "b"))[1] == max((cr, "r"), (cg, "g"), (cb, "b"))[1]
    # a blanket's diamonds keep its colour on the tint
    blanket = walk(faces["blanket/blue"].items)
    assert any(isinstance(i, Shape) and i.style.fill == colours["blue"] for i in blanket)
    assert any(isinstance(i, Rect) and i.style.fill == light["blue"] for i in blanket)


def test_a_dark_header_band_is_lightened_whatever_its_share_of_the_face() -> None:
    game = load_path(DECK)
    band, small = "#7a4b2a", "#1b2440"
    page = Drawing(186.0, 259.0, 3.0, [
        # a section heading's bar: 1.9% of the page, light lettering on it
        Rect(10, 37, 166, 7, Style(fill=band)),
        Group((Text(0, 4.5, "Setting up", "Helvetica-Bold", 10.5, "#fffaf0"),), dx=13, dy=37),
        # a small dark badge with a light number keeps its colour
        Rect(10, 60, 8, 8, Style(fill=small)),
        Text(12, 66, "3", "Helvetica-Bold", 12, "#ffffff"),
        # a dark rule with nothing on it keeps its colour
        Rect(10, 80, 166, 7, Style(fill=band)),
    ])
    bar, heading, badge, number, rule = saver(game, page).items
    assert isinstance(bar, Rect) and bar.style.fill and luminance(bar.style.fill) > 0.7
    assert bar.style.stroke == band  # framed in its own colour
    assert isinstance(heading, Group) and isinstance(heading.items[0], Text)
    assert contrast(heading.items[0].color, bar.style.fill) >= 4.5
    assert isinstance(badge, Rect) and badge.style.fill == small
    assert isinstance(number, Text) and number.color == "#ffffff"
    assert isinstance(rule, Rect) and rule.style.fill == band


def test_a_game_without_a_saver_palette_gets_automatic_tints_and_is_told(
        tmp_path: Path) -> None:
    game = load_path(DECK)
    assert game.ink_saver == {}
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["print", "--components", str(DECK), "--format", "pdf",
                                      "--paper", "letter", "--ink", "saver", "--out", str(out)])
    assert result.exit_code == 0, result.output
    notes = [line for line in result.stderr.splitlines() if line.startswith("note:")]
    assert notes == ["note: deck has no ink_saver palette in game.yaml: its large areas print "
                     "in automatic tints (each colour mixed with 86% white)"]
    full = build(game, BuildOptions(Settings(paper="letter"), ("pdf",), tmp_path / "full"))
    low = (out / "deck", json.loads((out / "deck" / "manifest.json").read_text()))
    assert ink(*low) <= 0.5 * ink(full.folder, json.loads(full.manifest.read_text()))
    # a game with its own palette prints without the note
    result = CliRunner().invoke(cli, ["print", "muli", "--format", "pdf", "--ink", "saver",
                                      "--out", str(tmp_path / "muli")])
    assert result.exit_code == 0 and "note:" not in result.stderr


def test_a_shape_drawn_onto_its_lightened_colour_follows_it_but_not_through_a_group() -> None:
    game = load_path(DECK)
    sky, wall = "#4f86a8", "#8a5a26"
    d = Drawing(60.0, 60.0, 3.0, [
        Rect(-3, -3, 66, 66, Style(fill=sky)),  # a full-bleed sky: lightened
        Rect(10, 10, 20, 5, Style(fill=sky)),  # a strip of the same sky on it: follows
        Group((Rect(0, 0, 12, 20, Style(fill=wall)),), dx=30, dy=20),  # a wall, in a group
        Rect(35, 25, 4, 4, Style(fill=sky)),  # a window of sky on the wall: keeps its colour
    ])
    back, strip, group, window = saver(game, d).items
    assert isinstance(back, Rect) and isinstance(strip, Rect) and isinstance(window, Rect)
    assert back.style.fill != sky and strip.style.fill == back.style.fill
    assert strip.style.stroke is None  # no outline across the area it continues
    assert isinstance(group, Group) and isinstance(group.items[0], Rect)
    assert group.items[0].style.fill == wall and window.style.fill == sky
