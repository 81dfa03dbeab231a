"""The ink saver keeps what colours mean.

Colours a game uses to tell things apart (its ``distinct:`` lists: Mutagen's players and
Elements, M.U.L.E.'s Zones) stay at least 20 CIEDE2000 apart in the saver print, and at
least 20 from the paper, read on the rendered faces: each player's trackers and Workers at
their edge, the Zones along their borders on the Game Board. Dark title bands become tints
(Outer Earth's Bonus Revenue fronts).
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from components import load, load_path
from components.errors import DefinitionError
from generator.distinct import readings
from generator.draw import Options, draw_component
from generator.drawing import Rect
from generator.ink import DISTINCT, delta_e, luminance, tint

LISTS = {"mutagen": {"players", "elements"}, "mule": {"zones"}}


@pytest.mark.parametrize("key", sorted(LISTS))
def test_each_distinct_list_stays_apart_in_the_saver_print(key: str) -> None:
    game = load(key)
    assert set(game.distinct) == LISTS[key]
    for name, row in readings(game, "saver").items():
        assert {r.colour for r in row} == set(game.distinct[name]), name
        for r in row:
            assert r.pixels >= 100, r
            assert delta_e(r.printed, "#ffffff") >= DISTINCT, (name, r)
        for a, b in combinations(row, 2):
            assert delta_e(a.printed, b.printed) >= DISTINCT, (name, a, b)


def test_the_players_pieces_were_near_alike_as_bare_tints() -> None:
    """What the frames fix: the automatic tints alone of Mutagen's player colours (red
    against orange, purple against black) are far closer than the list allows."""
    game = load("mutagen")
    tints = [tint(game.palette[c]) for c in game.distinct["players"]]
    assert min(delta_e(a, b) for a, b in combinations(tints, 2)) < 10


def test_a_white_zone_border_does_not_print_in_the_boards_navy() -> None:
    game = load("mule")
    zones = {r.colour: r.printed for r in readings(game, "saver")["zones"]}
    navy = game.palette["space"]
    assert delta_e(zones["zone-white"], navy) >= DISTINCT
    assert delta_e(zones["zone-white"], zones["zone-blue"]) >= DISTINCT


def test_a_player_piece_saves_ink_and_keeps_its_colour_at_the_edge() -> None:
    game = load("mutagen")
    comp = game.component("token/element-tracker-red")
    saver = draw_component(game, comp, Options(ink="saver")).front
    fills = [it.style.fill for it in saver.items if isinstance(it, Rect) and it.style.fill]
    assert fills and luminance(fills[0]) > 0.8  # the area itself is a light tint
    frames = [it for it in saver.items if isinstance(it, Rect) and not it.style.fill
              and it.style.stroke == game.palette["p-red"]]
    assert frames and frames[0].x > 0 and frames[0].x + frames[0].w < comp.size[0]


def test_bonus_revenue_title_band_is_a_tint_in_the_saver_print() -> None:
    from generator import raster
    from generator.build import icon_source

    game = load("outer-earth")
    comp = game.component("br/01")
    d = draw_component(game, comp, Options(ink="saver")).front
    img = next(raster.render_faces([raster.Face(comp, "front", d)], 100, icon_source(game)))
    # the band: 3.5 .. 60 mm across, 3.5 .. 14.5 mm down the trim; away from its lettering
    dpi = 100 / 25.4
    x, y = round((d.bleed + 8) * dpi), round((d.bleed + 12.5) * dpi)
    r, g, b = img.convert("RGB").getpixel((x, y))[:3]
    assert luminance(f"#{r:02x}{g:02x}{b:02x}") > 0.6, (r, g, b)
    full = draw_component(game, comp, Options()).front
    img = next(raster.render_faces([raster.Face(comp, "front", full)], 100, icon_source(game)))
    r, g, b = Image.Image.convert(img, "RGB").getpixel((x, y))[:3]
    assert luminance(f"#{r:02x}{g:02x}{b:02x}") < 0.1


DECK = Path(__file__).parents[1] / "engine" / "fixtures" / "deck"
NAMES = st.sampled_from(["accent", "ink", "paper", "acent", "", "#2a6f97", "null", "1"])
DISTINCT_VALUES = st.one_of(
    st.dictionaries(st.sampled_from(["players", "zones", "x y"]),
                    st.one_of(st.lists(NAMES, max_size=4).map(lambda v: "[" + ", ".join(v) + "]"),
                              st.sampled_from(["accent", "5", "{a: b}", "null"])),
                    max_size=2).map(lambda d: "{" + ", ".join(f"{k}: {v}" for k, v in d.items())
                                    + "}"),
    st.sampled_from(["[accent, accent]", "5", "true", '"players"', "null", "{}"]),
)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=DISTINCT_VALUES)
def test_any_distinct_is_refused_in_one_line_or_passed(
        tmp_path_factory: pytest.TempPathFactory, value: str) -> None:
    """A game folder's ``distinct:`` is untrusted: whatever it says loads or is refused with
    one located line, never a traceback; a list it passes names palette colours only."""
    import shutil

    folder = tmp_path_factory.mktemp("distinct") / "deck"
    shutil.copytree(DECK, folder)
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text() + f"distinct: {value}\n")
    try:
        game = load_path(folder)
    except DefinitionError as e:
        assert "\n" not in str(e) and "game.yaml" in str(e)
        return
    for colours in game.distinct.values():
        assert len(colours) >= 2 and all(c in game.palette for c in colours)
