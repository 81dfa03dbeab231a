"""Fit: a piece against the printed space it sits on.

A component says where it sits with ``sits_on``: ``"BOARD_ID:SPACE"`` (a space some element
of that component's faces names with ``space: SPACE``: a grid's cell, a rect, a circle), a
list of those, or ``[w, h]`` in mm for a space drawn elsewhere. A piece fits when its
footprint lies inside the space with ``CLEARANCE`` to spare on every side, so that it can be
picked up and still shows which space it is on: a token its size (a round one its circle), a
standee its width by its folding base, a tile or a card its trim (any piece may be turned
a quarter). Every space an element names counts: the smallest decides.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from components.elements import SPECS
from components.errors import DefinitionError
from components.schema import (
    MAX_SIDE_MM,
    Component,
    Game,
    err,
    mark_of,
    suggest,
    type_name,
)
from components.yamlloc import LocDict, LocList

CLEARANCE = 1.0  # mm free on every side of a piece on its space: a finger's hold


@dataclass(frozen=True)
class Space:
    """A printed space: its size in mm, whether it is a circle (an ellipse), where it is."""

    name: str
    w: float
    h: float
    round: bool
    where: str  # the component it is printed on, or "" for a size written in sits_on


@dataclass(frozen=True)
class Footprint:
    w: float
    h: float
    round: bool


def footprint(comp: Component) -> Footprint:
    """What of a piece lies on the table: a standee its base, anything else its trim."""
    w, h = comp.size
    if comp.kind == "standee":
        return Footprint(w, comp.base, False)
    return Footprint(w, h, comp.kind == "token" and comp.shape == "round")


def fits(piece: Footprint, space: Space, clear: float = CLEARANCE) -> bool:
    """Whether ``piece`` lies inside ``space`` with ``clear`` mm free on every side."""
    eps = 1e-9
    if space.round:
        d = min(space.w, space.h) - 2 * clear
        need = max(piece.w, piece.h) if piece.round else math.hypot(piece.w, piece.h)
        return need <= d + eps
    sw, sh = space.w - 2 * clear, space.h - 2 * clear
    if piece.round:
        return max(piece.w, piece.h) <= min(sw, sh) + eps
    return ((piece.w <= sw + eps and piece.h <= sh + eps)
            or (piece.h <= sw + eps and piece.w <= sh + eps))


def _mm(el: LocDict, key: str, what: str) -> float:
    value = el.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise err(f"the size of space '{what}' must be written in mm ({key}: a number), not "
                  f"{type_name(value)}", el, key)
    v = float(value)
    if not (math.isfinite(v) and 0 < v <= MAX_SIDE_MM):
        raise err(f"the size of space '{what}' must be more than 0 and at most "
                  f"{MAX_SIDE_MM:g} mm", el, key)
    return v


def _space_of(el: LocDict, name: str, where: str) -> Space:
    spec = SPECS.get(str(el.get("type")))
    kind = spec.space if spec else ""
    if kind == "cell":
        return Space(name, _mm(el, "cell_w", name), _mm(el, "cell_h", name), False, where)
    if kind == "box":
        return Space(name, _mm(el, "w", name), _mm(el, "h", name), False, where)
    rx = _mm(el, "rx" if "rx" in el else "r", name)
    ry = _mm(el, "ry" if "ry" in el else "r", name)
    return Space(name, 2 * rx, 2 * ry, True, where)


def spaces(game: Game, comp: Component) -> dict[str, list[Space]]:
    """Every space the faces of ``comp`` name, by name (through the layouts they use, each
    layout once)."""
    out: dict[str, list[Space]] = {}
    seen: set[str] = set()
    todo: list[Any] = [comp.front, comp.back]
    while todo:
        node = todo.pop()
        if isinstance(node, str):
            if node in game.layouts and node not in seen:
                seen.add(node)
                todo.append(game.layouts[node])
            continue
        if not isinstance(node, (list, LocList)):
            continue
        for el in node:
            if not isinstance(el, dict):
                continue
            spec = SPECS.get(str(el.get("type")))
            if spec and spec.of_type("layout") and isinstance(el.get("layout"), str):
                todo.append(el["layout"])  # (use, repeat: the layouts they draw)
            name = el.get("space")
            if name is not None and isinstance(el, LocDict):
                out.setdefault(str(name), []).append(_space_of(el, str(name), comp.id))
    return out


def _targets(comp: Component) -> list[tuple[Any, Any, Any]]:
    """The spaces ``sits_on`` names, each as (value, node, key) for its messages."""
    value = comp.raw.get("sits_on")
    if isinstance(value, (list, LocList)) and value and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        return [(value, None, "sits_on")]
    if isinstance(value, (list, LocList)):
        if not value:
            raise _error(comp, "sits_on names no space (\"BOARD_ID:SPACE\", a list of them, "
                               "or [w, h] in mm)")
        return [(v, value, i) for i, v in enumerate(value)]
    return [(value, None, "sits_on")]


def _error(comp: Component, msg: str) -> DefinitionError:
    file, line, col = comp.where("sits_on")
    return DefinitionError(f"component '{comp.id}': {msg}", file or None, line or None, col)


def _resolve(game: Game, comp: Component, value: Any, node: Any, key: Any) -> list[Space]:
    def fail(msg: str) -> DefinitionError:
        if isinstance(node, LocList) and isinstance(key, int):
            src, line, col = mark_of(node, key)
            return DefinitionError(f"component '{comp.id}': {msg}", src or None, line or None,
                                   col or None)
        return _error(comp, msg)

    if isinstance(value, (list, LocList)):
        if len(value) != 2 or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                      and math.isfinite(v) and 0 < v <= MAX_SIDE_MM
                                      for v in value):
            raise fail("sits_on as a size must be [w, h]: two numbers of mm, more than 0 and "
                       f"at most {MAX_SIDE_MM:g}")
        return [Space(f"{value[0]:g} x {value[1]:g} mm", float(value[0]), float(value[1]),
                      False, "")]
    if not isinstance(value, str) or value.count(":") != 1:
        raise fail(f"sits_on must be \"BOARD_ID:SPACE\" (a space a board's element names "
                   f"with space: NAME), a list of them, or [w, h] in mm, not {type_name(value)}")
    target, name = value.split(":")
    on = game.find(target)
    if on is None:
        raise fail(f"sits_on names '{target}', which is not a component of the game"
                   f"{suggest(target, [c.id for c in game.components])}")
    found = spaces(game, on)
    if name not in found:
        names = sorted(found)
        have = f" (it names: {', '.join(names)})" if names else " (it names no space)"
        raise fail(f"sits_on names space '{name}' of '{target}', which no element of it "
                   f"names with space: {name}{have}{suggest(name, names)}")
    return found[name]


def check_fits(game: Game) -> None:
    """Refuse a piece larger than a space it sits on, naming both sizes."""
    for comp in game.components:
        if comp.raw.get("sits_on") is None:
            continue
        piece = footprint(comp)
        for value, node, key in _targets(comp):
            for space in _resolve(game, comp, value, node, key):
                if fits(piece, space):
                    continue
                what = (f"space '{space.name}' of '{space.where}'" if space.where
                        else f"the {space.name} space")
                shape = "round, " if space.round else ""
                pshape = "round, " if piece.round else ""
                base = " (its base)" if comp.kind == "standee" else ""
                raise _error(comp, f"{piece.w:g} x {piece.h:g} mm{base} ({pshape}"
                                   f"with {CLEARANCE:g} mm clear on every side) does not fit "
                                   f"{what}: {shape}{space.w:g} x {space.h:g} mm")


def fit_table(game: Game) -> list[tuple[Component, Footprint, Space, float]]:
    """Every piece that says where it sits, with each space and the least clearance left
    (mm on each side, the piece turned the better way): the bundled games' figures."""
    out: list[tuple[Component, Footprint, Space, float]] = []
    for comp in game.components:
        if comp.raw.get("sits_on") is None:
            continue
        piece = footprint(comp)
        for value, node, key in _targets(comp):
            for space in _resolve(game, comp, value, node, key):
                out.append((comp, piece, space, clearance(piece, space)))
    return out


def clearance(piece: Footprint, space: Space) -> float:
    """The mm free on the tightest side of ``piece`` on ``space``."""
    if space.round:
        d = min(space.w, space.h)
        need = max(piece.w, piece.h) if piece.round else math.hypot(piece.w, piece.h)
        return (d - need) / 2
    if piece.round:
        return (min(space.w, space.h) - max(piece.w, piece.h)) / 2
    a = min(space.w - piece.w, space.h - piece.h) / 2
    b = min(space.w - piece.h, space.h - piece.w) / 2
    return max(a, b)
