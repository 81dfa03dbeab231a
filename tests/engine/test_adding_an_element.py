"""docs/ADDING_AN_ELEMENT.md is true: its spec block and its drawer block, run as written,
give a kind that ``check`` knows, that draws, and that FORMAT.md's table then lists."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from components import elements, formatdoc, load_path
from components.errors import DefinitionError
from generator.draw import elements as drawing_elements
from generator.draw.elements import Context, draw_elements
from generator.drawing import Line, walk

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "ADDING_AN_ELEMENT.md"


def _block(name: str) -> str:
    text = GUIDE.read_text(encoding="utf-8")
    m = re.search(r"```python\n# " + name + r"\n(.*?)```", text, re.S)
    assert m, name
    return m.group(1)


def _layout() -> str:
    text = GUIDE.read_text(encoding="utf-8")
    m = re.search(r"```yaml\nfront:\n  - (\{type: cross.*?\})\n```", text, re.S)
    assert m
    return m.group(1)


def _game(tmp_path: Path, element: str) -> Path:
    folder = tmp_path / "G"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text("game: t\nname: T\npalette: {ink: \"#222222\"}\n",
                                      encoding="utf-8")
    (folder / "cards.yaml").write_text(
        "components:\n  - id: c\n    kind: card\n    size: poker\n    front:\n"
        f"      - {element}\n", encoding="utf-8")
    return folder


def test_the_guides_spec_and_drawer_make_a_kind(tmp_path: Path) -> None:
    folder = _game(tmp_path, _layout())
    with pytest.raises(DefinitionError, match="unknown element type 'cross'"):
        load_path(folder)
    space: dict[str, Any] = {**vars(elements), **vars(drawing_elements), "Any": Any}
    try:
        exec(_block("spec"), space)  # noqa: S102 - the guide's own block
        exec(_block("drawer"), space)  # noqa: S102
        _check_the_kind(tmp_path, folder)
    finally:
        elements.SPECS.pop("cross", None)
        drawing_elements.DRAWERS.pop("cross", None)


def _check_the_kind(tmp_path: Path, folder: Path) -> None:
    game = load_path(folder)
    comp = game.components[0]
    ctx = Context(game, comp, dict(comp.fields), 63.5, 88.9, 3.0, "front")
    lines = [p for p in walk(draw_elements(ctx, comp.front)) if isinstance(p, Line)]
    assert [(ln.x1, ln.y1, ln.x2, ln.y2) for ln in lines] == [
        (63.5 / 2 - 8, 88.9 / 2, 63.5 / 2 + 8, 88.9 / 2),
        (63.5 / 2, 88.9 / 2 - 8, 63.5 / 2, 88.9 / 2 + 8)]
    assert lines[0].style.stroke == "#222222" and lines[0].style.width == 1
    assert "| `cross` | a plus sign of two strokes. **`cx`** centre;" in \
        formatdoc.render()["elements"]
    # its spec is checked as any other's: a needed key, its keys' spelling
    with pytest.raises(DefinitionError, match="a cross element needs 'arm'"):
        load_path(_game(tmp_path, "{type: cross, cx: 5, cy: 5}"))
    with pytest.raises(DefinitionError, match="unknown key 'arms'"):
        load_path(_game(tmp_path, "{type: cross, cx: 5, cy: 5, arm: 2, arms: 3}"))
