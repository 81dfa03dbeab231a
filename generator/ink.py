"""The ink-saver print (``irata print --ink saver``): one face's Drawing -> a lighter one.

A home printer's ink goes into large filled areas: full-bleed card backs, dark title bands,
land colours, board backgrounds. The saver keeps every shape where it is and changes only
what ink it takes:

- a **large area** (a filled shape covering at least ``LARGE`` of the face, or reaching into
  the bleed) prints in its light tint: the game's ``ink_saver`` colour for it when the
  designer set one, else the colour mixed with white (``TINT``). A replaced dark area keeps
  its shape as an outline in its own colour, so bands, frames and zones still read;
- **text and icon colours** that would lose their contrast on the lighter area beneath them
  (light lettering on a dark band) take that area's own dark colour, so every word, value
  and icon stays legible;
- small shapes (icons, pips, badges, value circles) keep their colours: they are what tells
  one card from another, and they take little ink.

The change is a pure function of the Drawing and the game's palette, so the backs of one
deck, drawn alike, stay alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from components import Game
from generator.drawing import (
    Drawing,
    Ellipse,
    Group,
    Icon,
    Line,
    Path,
    Primitive,
    Rect,
    Text,
)

LARGE = 0.12  # a filled shape covering this share of the face is a large area
TINT = 0.86  # an automatic tint is this much white
DARK = 0.55  # relative luminance below which a large area gets an outline when lightened
CONTRAST = 3.0  # the least contrast ratio text keeps against the area beneath it
OUTLINE = 0.45  # mm


def _rgb(colour: str) -> tuple[float, float, float]:
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    return (int(c[0:2], 16) / 255, int(c[2:4], 16) / 255, int(c[4:6], 16) / 255)


def luminance(colour: str) -> float:
    """WCAG relative luminance of '#rrggbb'."""

    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def tint(colour: str, white: float = TINT) -> str:
    r, g, b = _rgb(colour)
    return "#{:02x}{:02x}{:02x}".format(*(round(255 * (v + (1 - v) * white)) for v in (r, g, b)))


def shade(colour: str, black: float) -> str:
    """``colour`` mixed with ``black`` parts of black."""
    r, g, b = _rgb(colour)
    return "#{:02x}{:02x}{:02x}".format(*(round(255 * v * (1 - black)) for v in (r, g, b)))


def _box(item: Primitive) -> tuple[float, float, float, float] | None:
    """A filled shape's bounding box (x0, y0, x1, y1) in its list's coordinates."""
    if isinstance(item, Rect):
        return (item.x, item.y, item.x + item.w, item.y + item.h)
    if isinstance(item, Ellipse):
        return (item.cx - item.rx, item.cy - item.ry, item.cx + item.rx, item.cy + item.ry)
    if isinstance(item, Path):
        xs = [float(v) for cmd in item.cmds for v in cmd[1::2]]
        ys = [float(v) for cmd in item.cmds for v in cmd[2::2]]
        if xs and ys:
            return (min(xs), min(ys), max(xs), max(ys))
    return None


class _Saver:
    def __init__(self, game: Game, d: Drawing) -> None:
        self.d = d
        self.area = max(d.w * d.h, 1e-6)
        self.chosen = {game.palette[k].lower(): v for k, v in game.ink_saver.items()
                       if k in game.palette}

    def light(self, colour: str) -> str:
        return self.chosen.get(colour.lower()) or tint(colour)

    def large(self, box: tuple[float, float, float, float], scale: float) -> bool:
        x0, y0, x1, y1 = box
        w, h = (x1 - x0) * scale, (y1 - y0) * scale
        into_bleed = scale == 1.0 and (x0 < -1e-6 or y0 < -1e-6 or x1 > self.d.w + 1e-6
                                       or y1 > self.d.h + 1e-6) and w * h > 0.04 * self.area
        return w * h >= LARGE * self.area or into_bleed

    def items(self, items: tuple[Primitive, ...] | list[Primitive], ground: str,
              scale: float) -> list[Primitive]:
        """``items`` lightened; ``ground`` is the colour beneath them where no shape of this
        list lies under a point (what the list sits on)."""
        out: list[Primitive] = []
        # (box, new colour, old colour) of every filled shape so far: the topmost under a
        # point is what text at that point is read against
        grounds: list[tuple[tuple[float, float, float, float], str, str]] = []

        def beneath(x: float, y: float) -> tuple[str, str]:
            for (x0, y0, x1, y1), new, old in reversed(grounds):
                if x0 <= x <= x1 and y0 <= y <= y1:
                    return new, old
            return ground, ground

        for item in items:
            if isinstance(item, (Rect, Ellipse, Path, Line)):
                item = self.stroke(item, beneath)
            if isinstance(item, (Rect, Ellipse, Path)):
                st = item.style
                box = _box(item)
                if st.fill and box is not None:
                    fill = st.fill
                    if self.large(box, scale) and (
                            fill.lower() in self.chosen or luminance(fill) < 0.8):
                        new = self.light(fill)
                        style = replace(st, fill=new)
                        covers = ((box[2] - box[0]) * (box[3] - box[1]) * scale * scale
                                  >= 0.9 * self.area)
                        if luminance(fill) < DARK and not st.stroke and not covers:
                            style = replace(style, stroke=fill, width=OUTLINE)
                        item = replace(item, style=style)
                        grounds.append((box, new, fill))
                    else:
                        grounds.append((box, fill, fill))
                out.append(item)
            elif isinstance(item, Text):
                new, old = beneath(item.x, item.y - item.size * 0.25 * 0.3528)
                out.append(replace(item, color=self.readable(item.color, new, old)))
            elif isinstance(item, Icon):
                if item.color:
                    new, old = beneath(item.x + item.size / 2, item.y + item.size / 2)
                    out.append(replace(item, color=self.readable(item.color, new, old)))
                else:
                    out.append(item)
            elif isinstance(item, Group):
                new, _ = beneath(item.dx, item.dy)
                inner = self.items(item.items, new, scale * item.scale)
                out.append(replace(item, items=tuple(inner)))
            else:
                out.append(item)
        return out

    def stroke(self, item: Rect | Ellipse | Path | Line,
               beneath: Callable[[float, float], tuple[str, str]]) -> Primitive:
        """A frame or rule drawn on an area the saver lightened keeps standing out."""
        st = item.style
        if not st.stroke or not st.stroke.startswith("#"):
            return item
        if isinstance(item, Line):
            cx, cy = (item.x1 + item.x2) / 2, (item.y1 + item.y2) / 2
        else:
            box = _box(item)
            if box is None:
                return item
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        new, old = beneath(cx, cy)
        if new == old or contrast(st.stroke, new) >= 1.6:
            return item
        return replace(item, style=replace(st, stroke=self.readable(st.stroke, new, old)))

    def readable(self, colour: str, ground: str, was: str) -> str:
        """``colour`` if it still stands out on ``ground``; else the area's own former colour,
        darkened as far as it takes to read (its hue stays), or near-black."""
        if not colour.startswith("#") or not ground.startswith("#"):
            return colour
        if contrast(colour, ground) >= CONTRAST:
            return colour
        if was.startswith("#"):
            for k in (0.0, 0.25, 0.45, 0.6, 0.75):
                cand = shade(was, k)
                if contrast(cand, ground) >= 4.5:
                    return cand
        return "#222222"


def saver(game: Game, d: Drawing) -> Drawing:
    """The face ``d`` as the ink saver prints it (see the module docstring)."""
    paper = "#ffffff"
    return Drawing(d.w, d.h, d.bleed, _Saver(game, d).items(d.items, paper, 1.0),
                   key=d.key + "~saver" if d.key else "")

