"""Dice: a cube net to cut along its solid outline, fold on the dashed lines, glue by the tabs.

The net is a cross: face 1 on top, faces 2 to 5 in a band, face 6 below face 2; opposite faces
are 1 and 6, 2 and 4, 3 and 5. Seven glue tabs close the cube. The net carries its own cut
lines, so it is imposed without bleed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from components import Component, Game
from generator.draw.common import face
from generator.draw.elements import FitRecord
from generator.drawing import Drawing, Group, Line, Path, Style

if TYPE_CHECKING:
    from generator.draw import Options

CUT = Style(stroke="#333333", width=0.25)
FOLD = Style(stroke="#777777", width=0.2, dash=(1.2, 1.0))
TAB = Style(fill="#eeeeee", stroke="#333333", width=0.25)

# (column, row) of each face in the net
POSITIONS = [(1, 0), (0, 1), (1, 1), (2, 1), (3, 1), (1, 2)]
# tabs: (column, row, side) of the band face edge that carries a tab
TABS = [(0, 1, "top"), (2, 1, "top"), (3, 1, "top"), (0, 1, "bottom"), (2, 1, "bottom"),
        (3, 1, "bottom"), (3, 1, "right")]


def tab_depth(s: float) -> float:
    return min(6.0, s * 0.28)


def net_size(s: float) -> tuple[float, float]:
    return (4 * s + tab_depth(s), 3 * s)


def draw(game: Game, comp: Component, opts: Options, fits: list[FitRecord]) -> Drawing:
    s = comp.size[0]
    t = tab_depth(s)
    w, h = net_size(s)
    d = Drawing(w, h, 0.0, key=f"{comp.id}#net")
    for i, (c, r) in enumerate(POSITIONS):
        fields = dict(comp.faces[i])
        fields["face"] = i + 1
        f = face(game, comp, comp.front, s, s, 0.0, f"face {i + 1}", fits, extra=fields)
        d.add(Group(tuple(f.items), dx=c * s, dy=r * s, clip=(0.0, 0.0, s, s)))
    cells = set(POSITIONS)
    tabbed = {(c, r, side) for c, r, side in TABS}
    for c, r in POSITIONS:
        x0, y0 = c * s, r * s
        edges = {
            "top": ((x0, y0, x0 + s, y0), (c, r - 1)),
            "bottom": ((x0, y0 + s, x0 + s, y0 + s), (c, r + 1)),
            "left": ((x0, y0, x0, y0 + s), (c - 1, r)),
            "right": ((x0 + s, y0, x0 + s, y0 + s), (c + 1, r)),
        }
        for side, (seg, neighbour) in edges.items():
            inner = neighbour in cells or (c, r, side) in tabbed
            d.add(Line(*seg, FOLD if inner else CUT))
    for c, r, side in TABS:
        x0, y0 = c * s, r * s
        k = t * 0.8  # the tab's slanted ends
        if side == "top":
            pts = [(x0, y0), (x0 + k, y0 - t), (x0 + s - k, y0 - t), (x0 + s, y0)]
        elif side == "bottom":
            pts = [(x0, y0 + s), (x0 + k, y0 + s + t), (x0 + s - k, y0 + s + t), (x0 + s, y0 + s)]
        else:
            pts = [(x0 + s, y0), (x0 + s + t, y0 + k), (x0 + s + t, y0 + s - k), (x0 + s, y0 + s)]
        cmds = [("M", *pts[0])] + [("L", *p) for p in pts[1:]]
        d.add(Path(tuple(cmds), TAB))
        d.add(Line(*pts[0], *pts[3], FOLD))
    return d
