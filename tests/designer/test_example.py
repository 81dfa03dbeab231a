"""The designer example (examples/designer): a game with a font from a package, its cards in
a CSV, and art in each fit mode, printed as a designer would print it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from components import load_path
from generator.build import fit_report, image_report

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "designer"


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from generator.build import BuildOptions, build
    from generator.layout import Settings

    out = tmp_path_factory.mktemp("example")
    return build(load_path(EXAMPLE), BuildOptions(Settings(), ("pdf", "svg"), out))


def test_the_cards_come_from_the_csv_over_the_yaml_defaults() -> None:
    game = load_path(EXAMPLE)
    csv_rows = (EXAMPLE / "cards.csv").read_text(encoding="utf-8").strip().splitlines()[1:]
    from_csv = [c for c in game.components if c.file.endswith("cards.csv")]
    assert len(from_csv) == len(csv_rows) == 11
    athens = game.component("route/athens")
    assert (athens.count, athens.fields["cost"], athens.fields["native"]) == (2, 3, "Αθήνα")
    assert athens.size == (63.5, 88.9) and athens.group == "Route Cards"  # the defaults
    assert {c.fields["fit"] for c in from_csv} == {"contain", "cover", "stretch"}
    assert {c.fields["art"] for c in from_csv} == {"art/landscape.png", "art/emblem.svg"}


def test_the_example_prints_cleanly(printed: Any) -> None:
    shrunk, overflow = fit_report(printed.fits)
    assert overflow == [] and image_report(printed.fits) == []
    assert printed.copies == 14
    manifest = json.loads(printed.manifest.read_text())
    placed = [p["component"] for s in manifest["sheets"] for p in s["placements"]
              if p["face"] == "front"]
    assert placed.count("route/athens") == 2 and "caravan/lead-wagon" in placed


def test_its_text_is_text_in_its_own_font(printed: Any) -> None:
    with pymupdf.open(printed.pdf) as doc:
        text = "\n".join(page.get_text() for page in doc)
        fonts = {f[3] for page in doc for f in page.get_fonts()}
    for word in ("Αθήνα", "Москва", "Θεσσαλονίκη", "Київ", "The Lead Wagon", "art: stretch",
                 "art: contain", "art: cover"):
        assert word in text
    for style in ("Regular", "Bold", "Italic", "Black"):
        assert any(re.fullmatch(rf"[A-Z]{{6}}\+FiraSans-{style}", f) for f in fonts), fonts
    svg = (printed.svg_dir / "sheet-001-front.svg").read_text(encoding="utf-8")
    assert "@font-face" in svg and "Москва" in svg


def test_its_art_is_raster_and_vector(printed: Any) -> None:
    with pymupdf.open(printed.pdf) as doc:
        images = doc[0].get_images(full=True)
        # the landscape is one image resource, however many cards show it and however cut
        assert len({img[0] for img in images}) == 1
        width, height = images[0][2], images[0][3]
        assert (width, height) == (1200, 800)
        # the emblem is drawn as vector paths in its gold
        gold = [d for d in doc[0].get_drawings()
                if d["fill"] and tuple(round(v * 255) for v in d["fill"]) == (242, 193, 78)]
        assert len(gold) >= 3


def test_its_cards_in_other_scripts_print_shaped_and_in_colour(printed: Any) -> None:
    """Arabic, Hebrew, Chinese, Greek and a colour emoji, mixed in one text box through the
    font list [body, arabic, hebrew, cjk, emoji]."""
    from generator.drawing import Text, walk

    game = load_path(EXAMPLE)
    from generator.draw import Options, draw_component

    silk = draw_component(game, game.component("route/silk-road"), Options())
    runs = [t for t in walk(silk.front.items) if isinstance(t, Text)]
    fonts = {t.text: t.font for t in runs}
    assert fonts["القاهرة"] == game.fonts["arabic"] and fonts["ירושלים"] == game.fonts["hebrew"]
    assert fonts["北京"] == game.fonts["cjk"] and fonts["🏮"] == game.fonts["emoji"]
    assert all(t.glyphs for t in runs if t.font in (game.fonts["arabic"], game.fonts["emoji"]))
    assert any("Αθήνα" in t.text and t.font == game.fonts["body"] for t in runs)
    # the keyword is bold and gold wherever the text says it
    assert any(t.text == "lantern" and t.font == game.fonts["bold"] and t.color == "#b8860b"
               for t in runs)
    shrunk, overflow = fit_report(printed.fits)
    assert overflow == []
    with pymupdf.open(printed.pdf) as doc:
        text = "\n".join(page.get_text() for page in doc)
        pictures = sum(len(page.get_images()) for page in doc)
    for word in ("ירושלים", "北京", "Caravanserais"):
        assert word in text or word[::-1] in text
    assert pictures >= 2  # the landscape and the colour emoji
