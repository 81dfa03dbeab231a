"""The drawers of the shapes a designer draws beside rectangles and circles: ``polygon`` (its
corners given), ``regular`` (a hexagon, a triangle, any regular polygon) and ``star``. Each
becomes one closed Path, so both backends draw it as they draw any path (fill, gradient,
outline, dash), and the ink saver and CMYK conversion treat it as any other shape.
"""

from __future__ import annotations

import math
from typing import Any

from generator.draw.elements import Context, closed_path, drawer
from generator.drawing import Primitive


def ring(cx: float, cy: float, radii: list[float], rotate: float
         ) -> list[tuple[float, float]]:
    """Points around (cx, cy), one per radius, evenly spaced, the first straight up turned
    ``rotate`` degrees clockwise (y runs downward)."""
    n = len(radii)
    out = []
    for i, r in enumerate(radii):
        a = math.radians(rotate + 360.0 * i / n - 90.0)
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


@drawer("polygon")
def draw_polygon(ctx: Context, el: dict[str, Any]) -> list[Primitive]:
    points = ctx.resolve(el["points"])
    if not isinstance(points, list) or not 3 <= len(points) <= 1000:
        raise ctx.error("points must be a list of 3 to 1000 corners [x, y]")
    pts = []
    for i, p in enumerate(points):
        p = ctx.resolve(p)
        if not isinstance(p, list) or len(p) != 2:
            raise ctx.error(f"corner {i + 1} of points must be [x, y]")
        pts.append((ctx.num(p[0], "x"), ctx.num(p[1], "y")))
    return [closed_path(pts, ctx.style(el))]


@drawer("regular")
def draw_regular(ctx: Context, el: dict[str, Any]) -> list[Primitive]:
    sides = int(ctx.bounded(el, "sides", 6))
    r = ctx.num(el["r"], "x", least=0.0)
    pts = ring(ctx.num(el["cx"], "x"), ctx.num(el["cy"], "y"), [r] * sides, ctx.angle(el))
    return [closed_path(pts, ctx.style(el))]


@drawer("star")
def draw_star(ctx: Context, el: dict[str, Any]) -> list[Primitive]:
    tips = int(ctx.bounded(el, "points", 5))
    r = ctx.num(el["r"], "x", least=0.0)
    inner = r * ctx.bounded(el, "inner", 0.5)
    pts = ring(ctx.num(el["cx"], "x"), ctx.num(el["cy"], "y"), [r, inner] * tips,
               ctx.angle(el))
    return [closed_path(pts, ctx.style(el))]
