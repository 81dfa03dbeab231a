"""irata export tts: pieces sit on the table at their printed sizes, by one rule.

Tabletop Simulator documents only that its unit is about an inch; the size each object has
at scale 1 is the project's working figure (``SCALE_ONE_IN``: a card 2.5 in across its short
side, as a poker card at scale 1). These tests hold the export to that rule: two pieces of
one kind and different printed sizes get scales in the ratio of their sizes, a sideways card
is scaled by its short side like an upright one, every card carries its deck's scale, and
each object's scale times its size at scale 1 is its printed size in inches."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from components import load_path
from generator.export.tts import SCALE_ONE_IN, export_tts

GAME = {
    "game.yaml": """
        game: scales
        name: Scale Test
        edition: "1.0"
        players: {min: 1, max: 2}
        """,
    "pieces.yaml": """
        layouts:
          face:
            - {type: rect, x: 0, y: 0, w: 100%, h: 100%, fill: "#f4efe4", bleed: true}
            - {type: text, text: "${title}", x: 2, y: 2, w: 100%-4, h: 8, size: 8}
          back:
            - {type: rect, x: 0, y: 0, w: 100%, h: 100%, fill: "#2a6f97", bleed: true}
        defaults:
          front: face
        components:
          - {id: card/p1, kind: card, group: Poker, title: P1, size: poker, back: back}
          - {id: card/p2, kind: card, group: Poker, title: P2, size: poker, back: back}
          - {id: card/m1, kind: card, group: Mini, title: M1, size: [44.45, 63.5], back: back}
          - {id: card/m2, kind: card, group: Mini, title: M2, size: [44.45, 63.5], back: back}
          - {id: card/w1, kind: card, group: Wide, title: W1, size: [88.9, 63.5], back: back}
          - {id: card/w2, kind: card, group: Wide, title: W2, size: [88.9, 63.5], back: back}
          - {id: token/small, kind: token, group: Small, title: S, size: [20, 20]}
          - {id: token/big, kind: token, group: Big, title: B, size: [30, 30]}
          - {id: tile/small, kind: tile, group: TileS, title: TS, size: [40, 60], back: back}
          - {id: tile/big, kind: tile, group: TileB, title: TB, size: [80, 120], back: back}
          - {id: board/big, kind: board, group: BoardB, title: BB, size: [400, 300]}
          - {id: board/small, kind: board, group: BoardS, title: BS, size: [200, 150]}
        """,
}


def _objects(tmp_path: Path) -> dict[str, dict[str, Any]]:
    folder = tmp_path / "scales"
    for rel, text in GAME.items():
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    result = export_tts(load_path(folder), tmp_path / "out", dpi=40)
    save = json.loads(result.save.read_text(encoding="utf-8"))
    return {o["Nickname"]: o for o in save["ObjectStates"]}


def _scale(obj: dict[str, Any]) -> float:
    t = obj["Transform"]
    assert t["scaleX"] == t["scaleZ"]  # the image keeps its proportions
    return float(t["scaleX"])


def test_pieces_of_different_sizes_get_scales_in_the_ratio_of_their_sizes(
        tmp_path: Path) -> None:
    objs = _objects(tmp_path)
    poker, mini, wide = objs["Poker"], objs["Mini"], objs["Wide"]
    assert poker["Name"] == mini["Name"] == wide["Name"] == "DeckCustom"
    # cards: by the short side. Poker 63.5 mm at scale 1; mini 44.45 mm is 0.7 of it
    assert _scale(poker) == pytest.approx(1.0, abs=1e-4)
    assert _scale(mini) / _scale(poker) == pytest.approx(44.45 / 63.5, abs=1e-3)
    # a sideways poker card is the same card turned: the same scale, not 88.9 / 63.5 of it
    assert wide["SidewaysCard"] is True
    assert _scale(wide) == pytest.approx(_scale(poker), abs=1e-4)
    # every card in a deck carries its deck's scale (a card drawn from it keeps its size)
    for deck in (poker, mini, wide):
        assert {_scale(c) for c in deck["ContainedObjects"]} == {_scale(deck)}
    # tokens, tiles and boards: by the long side, in the ratio of their printed sizes
    assert objs["S"]["Name"] == objs["B"]["Name"] == "Custom_Token"
    assert _scale(objs["B"]) / _scale(objs["S"]) == pytest.approx(30 / 20, abs=1e-3)
    assert objs["TS"]["Name"] == objs["TB"]["Name"] == "Custom_Tile"
    assert _scale(objs["TB"]) / _scale(objs["TS"]) == pytest.approx(120 / 60, abs=1e-3)
    assert objs["BB"]["Name"] == objs["BS"]["Name"] == "Custom_Board"
    assert _scale(objs["BB"]) / _scale(objs["BS"]) == pytest.approx(400 / 200, abs=1e-3)


def test_each_object_is_its_printed_size_in_table_units(tmp_path: Path) -> None:
    """scale x (the object's size at scale 1) = the printed size in inches, for every kind:
    so a 2.5 in poker card and a 2.5 in tile come out the same size on the table."""
    objs = _objects(tmp_path)
    printed = {"Poker": (63.5, 88.9), "Mini": (44.45, 63.5), "Wide": (88.9, 63.5),
               "S": (20, 20), "B": (30, 30), "TS": (40, 60), "TB": (80, 120),
               "BB": (400, 300), "BS": (200, 150)}
    for nick, (w, h) in printed.items():
        obj = objs[nick]
        kind = "Card" if obj["Name"] == "DeckCustom" else obj["Name"]
        side, at_one = SCALE_ONE_IN[kind]
        mm = min(w, h) if side == "short" else max(w, h)
        assert _scale(obj) * at_one == pytest.approx(mm / 25.4, abs=1e-3), nick
    # a rectangular tile keeps its proportions (Stretch would square it)
    assert objs["TS"]["CustomImage"]["CustomTile"]["Stretch"] is False
