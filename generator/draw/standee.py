"""Standees: one strip to print, cut, fold and stand.

From the top: a base, the back upside down, the fold at the figure's head, the front, a base.
Folded at the head, front and back face away from each other; the two bases fold out and slot
or glue together. The strip carries its own cut and fold lines, so it is imposed without bleed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from components import Component, Game
from generator.draw.common import MARK_SIZE, face
from generator.draw.elements import FitRecord
from generator.drawing import Drawing, Group, Line, Rect, Style, Text

if TYPE_CHECKING:
    from generator.draw import Options

CUT = Style(stroke="#333333", width=0.25)
FOLD = Style(stroke="#777777", width=0.2, dash=(1.2, 1.0))
BASE = Style(fill="#e6e6e6")


def strip_size(comp: Component) -> tuple[float, float]:
    w, h = comp.size
    return (w, 2 * h + 2 * comp.base)


def draw(game: Game, comp: Component, opts: Options, fits: list[FitRecord]) -> Drawing:
    w, h = comp.size
    b = comp.base
    sw, sh = strip_size(comp)
    d = Drawing(sw, sh, 0.0, key=f"{comp.id}#strip")
    d.add(Rect(0, 0, w, b, BASE))
    d.add(Rect(0, sh - b, w, b, BASE))
    front = face(game, comp, comp.front, w, h, 0.0, "front", fits)
    back_spec = comp.back if comp.back is not None else comp.front
    back = face(game, comp, back_spec, w, h, 0.0, "back", fits)
    # the back, turned 180 degrees about its own centre, above the fold
    d.add(Group(tuple(back.items), dx=w, dy=b + h, rotate=180, clip=(0.0, 0.0, w, h)))
    d.add(Group(tuple(front.items), dx=0, dy=b + h, clip=(0.0, 0.0, w, h)))
    for y in (b, b + h, b + 2 * h):
        d.add(Line(0, y, w, y, FOLD))
    d.add(Rect(0, 0, sw, sh, CUT))
    if comp.version:
        d.add(Text(w / 2, sh - b / 2 + 1, f"v{comp.version}", "Helvetica", MARK_SIZE,
                   "#8a8a8a", "middle"))
    return d
