"""Each element kind is declared once (components/elements.py) and drawn by one drawer
(generator/draw/elements.py's DRAWERS): the two tables name the same kinds, and what a spec
says (its keys, its needed keys, its bounds) is what ``irata check`` enforces."""

from __future__ import annotations

from pathlib import Path

import pytest

from components import load_path
from components.elements import SPECS, TYPES
from components.errors import DefinitionError
from generator.draw.elements import DRAWERS, Context, draw_elements
from generator.drawing import walk

GAME = "game: t\nname: T\n"

# a value of each type that every drawer accepts, for drawing each kind from its needed keys
SAMPLE = {"length": 10, "size": 10, "number": 6, "angle": 0, "colour": "black",
          "colours": "black", "choice": None, "font": "body", "text": "Hi", "texts": ["a"],
          "layout": "box", "items": 2, "fields": {}, "points": [[0, 0], [10, 0], [5, 8]],
          "gradient": {"colors": ["white", "black"]}, "file": None, "cells": None,
          "legend": None, "list": [1, 1], "any": "x"}
NEEDED_SAMPLE = {("text", "text"): "Hi", ("icon", "name"): "food", ("qr", "payload"): "hi",
                 ("pips", "n"): 3, ("path", "d"): "M0 0 L5 5"}


def test_every_spec_has_a_drawer_and_every_drawer_a_spec() -> None:
    assert set(SPECS) == set(DRAWERS), (set(SPECS) ^ set(DRAWERS))


def test_a_spec_is_whole() -> None:
    for kind, spec in SPECS.items():
        assert spec.kind == kind and spec.doc
        names = spec.names
        assert len(set(names)) == len(names), kind
        assert set(spec.required) <= set(names), kind
        for key in spec.keys:
            assert key.type in TYPES and key.doc, (kind, key.name)
            if key.type == "number":
                assert key.lo is not None and key.hi is not None, (kind, key.name)


def _folder(tmp_path: Path, element: str) -> Path:
    folder = tmp_path / "G"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "cards.yaml").write_text(
        "layouts:\n  box: [{type: rect, w: 1, h: 1}]\ncomponents:\n"
        f"  - id: c\n    kind: card\n    size: poker\n    front:\n      - {element}\n",
        encoding="utf-8")
    return folder


@pytest.mark.parametrize("kind", [k for k in SPECS if k != "image"])
def test_each_kind_draws_from_its_needed_keys_alone(tmp_path: Path, kind: str) -> None:
    spec = SPECS[kind]
    values = {}
    for name in spec.required:
        key = spec.key(name)
        assert key is not None
        values[name] = NEEDED_SAMPLE.get((kind, name), SAMPLE[key.type])
    flow = ", ".join(f"{k}: {v!r}".replace("'", '"') for k, v in values.items())
    game = load_path(_folder(tmp_path, f"{{type: {kind}, {flow}}}"))
    comp = game.components[0]
    ctx = Context(game, comp, dict(comp.fields), 63.5, 88.9, 3.0, "front")
    assert walk(draw_elements(ctx, comp.front)), kind


@pytest.mark.parametrize(("element", "message", "key"), [
    ("{type: text, text: Hi, w: 10, h: 10, size: 1000}", "size must be between 0.5 and 400",
     "size"),
    ("{type: regular, cx: 5, cy: 5, r: 4, sides: 2}", "sides must be between 3 and 64",
     "sides"),
    ("{type: star, cx: 5, cy: 5, r: 4, inner: 3}", "inner must be between 0.05 and 1",
     "inner"),
    ("{type: rect, w: wide, h: 10}", "w: expected a length in mm or a percentage", "w"),
    ("{type: polygon, points: [[0, 0], [1, 1]]}", "points must be a list of 3", "points"),
    ("{type: rect, w: 5, h: 5, gradient: {colors: [red]}}", "a gradient needs colors",
     "gradient"),
])
def test_a_value_out_of_its_specs_bounds_is_refused_at_its_key(
        tmp_path: Path, element: str, message: str, key: str) -> None:
    with pytest.raises(DefinitionError) as info:
        load_path(_folder(tmp_path, element))
    exc = info.value
    assert message in exc.message
    assert exc.file and exc.file.endswith("cards.yaml") and exc.line == 8
    assert exc.col == 9 + element.index(f"{key}:")  # the key's own column
