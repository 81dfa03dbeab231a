"""The ink-saver print (``irata print --ink saver``): one face's Drawing -> a lighter one.

A home printer's ink goes into large filled areas: full-bleed card backs, dark title bands,
land colours, board backgrounds. The saver keeps every shape where it is and changes only
what ink it takes:

- a **large area** (a filled shape covering at least ``LARGE`` of its face, or reaching into
  the bleed; each face of a die's net and each side of a standee's strip is a face of its
  own) prints in its light tint: the game's ``ink_saver`` colour for it when the designer
  set one, else the colour mixed with white (``TINT``). So does a **dark header band** (a
  dark shape of at least ``BAND`` that lighter lettering sits on, however small its share of
  a large sheet) and a shape drawn straight onto a lightened area of its own colour. A
  replaced dark area keeps its shape as an outline in its own colour, so bands, frames and
  zones still read;
- **text colours** that would lose their contrast on the lighter area beneath them (light
  lettering on a dark band) darken until they read: dark lettering in its own hue, light
  lettering in the area's former colour;
- **icons** keep their colour wherever the lighter ground leaves them as clear as the full
  print did (a yellow figure on cream stays yellow on white), else darken like text;
- small shapes (icons, pips, badges, value circles) keep their colours: they are what tells
  one card from another, and they take little ink.

The change is a pure function of the Drawing and the game's palette, so the backs of one
deck, drawn alike, stay alike. A game without an ``ink_saver`` palette gets the automatic
tints throughout (``irata print`` says so on stderr).
"""

from __future__ import annotations

import math
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
    Style,
    Text,
)

LARGE = 0.12  # a filled shape covering this share of the face is a large area
TINT = 0.86  # an automatic tint is this much white
DARK = 0.55  # relative luminance below which a large area gets an outline when lightened
CONTRAST = 3.0  # the least contrast ratio text keeps against the area beneath it
OUTLINE = 0.45  # mm
Box = tuple[float, float, float, float]
Ground = Callable[[float, float], tuple[str, str]]  # a point -> (colour printed, colour was)
BAND = 1000.0  # mm2: a dark shape this large that carries lighter lettering is a header band
BAND_SHARE = 0.08  # ... and so is one covering this share of its face (a card's title band)
FRAME = 0.8  # mm: the frame a lightened area of a ``distinct`` colour keeps in that colour
DISTINCT = 20.0  # CIEDE2000: the least difference between two colours of a ``distinct`` list


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


def delta_e(a: str, b: str) -> float:
    """CIEDE2000 between two '#rrggbb' colours (coloraide)."""
    from coloraide import Color

    return float(Color(a).delta_e(Color(b), method="2000"))


def _lettering(items: tuple[Primitive, ...] | list[Primitive], dx: float = 0.0,
               dy: float = 0.0, k: float = 1.0) -> list[tuple[float, float, str]]:
    """Where each text of ``items`` sits (x, y in the list's coordinates) and its colour,
    inside groups too (a turned group counts at its origin)."""
    out: list[tuple[float, float, str]] = []
    for item in items:
        if isinstance(item, Text):
            out.append((dx + item.x * k, dy + item.y * k, item.color))
        elif isinstance(item, Group):
            if item.rotate:
                out.extend((dx + item.dx * k, dy + item.dy * k, c)
                           for _, _, c in _lettering(item.items))
            else:
                out.extend(_lettering(item.items, dx + item.dx * k, dy + item.dy * k,
                                      k * item.scale))
    return out


def _within(group: Group, beneath: Ground) -> Ground:
    """``beneath`` (of the group's list) as seen from inside ``group``: a point in the group's
    coordinates is scaled, turned and moved to the list's before looking."""
    a = math.radians(group.rotate)
    cos, sin, k = math.cos(a), math.sin(a), group.scale

    def under(x: float, y: float) -> tuple[str, str]:
        return beneath(group.dx + k * (x * cos - y * sin), group.dy + k * (x * sin + y * cos))

    return under


def _placed(group: Group, box: Box) -> Box:
    """A box inside an unturned ``group`` in the group's list's coordinates (clipped)."""
    k = group.scale
    x0, y0, x1, y1 = box
    if group.clip is not None:
        x0, y0 = max(x0, group.clip[0]), max(y0, group.clip[1])
        x1, y1 = min(x1, group.clip[2]), min(y1, group.clip[3])
    return (group.dx + k * x0, group.dy + k * y0, group.dx + k * x1, group.dy + k * y1)


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
    def __init__(self, game: Game, d: Drawing, round_face: bool = False) -> None:
        self.d = d
        self.chosen = {game.palette[k].lower(): v for k, v in game.ink_saver.items()
                       if k in game.palette}
        # each colour of a ``distinct`` list -> the other colours of its lists
        self.rivals: dict[str, set[str]] = {}
        for names in game.distinct.values():
            hexes = {game.palette[n].lower() for n in names if n in game.palette}
            for h in hexes:
                self.rivals.setdefault(h, set()).update(hexes - {h})
        self.round = round_face
        self.top: Box = (0.0, 0.0, d.w, d.h)

    def frame(self, item: Primitive, box: Box, face: Box | None, colour: str) -> Primitive:
        """The frame in its own ``colour`` that a lightened area of a ``distinct`` colour
        keeps, inside the face's trim (a round token's: its circle), so that two players'
        pale pieces still differ by the colour at their edge."""
        x0, y0, x1, y1 = box
        if face is not None:
            x0, y0 = max(x0, face[0]), max(y0, face[1])
            x1, y1 = min(x1, face[2]), min(y1, face[3])
        width = min(FRAME, 0.12 * min(x1 - x0, y1 - y0))
        st = Style(stroke=colour, width=width)
        inset = width / 2
        whole = face is self.top and (x0, y0, x1, y1) == face
        if isinstance(item, Ellipse) or (whole and self.round):
            return Ellipse((x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2 - inset,
                           (y1 - y0) / 2 - inset, st)
        radius = max(item.radius - inset, 0.0) if isinstance(item, Rect) else 0.0
        return Rect(x0 + inset, y0 + inset, x1 - x0 - width, y1 - y0 - width, st, radius)

    def own(self, colour: str, ground: str, need: float) -> str:
        """A colour of a ``distinct`` list that must darken to stand out on ``ground``: its
        own hue (greys for white), as light as reads at ``need`` and still ``DISTINCT``
        from every other colour of its lists, never the area's former colour (a navy White
        Zone beside the blue one)."""
        rivals = self.rivals.get(colour.lower(), set())
        for k in (0.0, 0.15, 0.3, 0.45, 0.6, 0.75):
            cand = shade(colour, k)
            if contrast(cand, ground) >= need and all(delta_e(cand, r) >= DISTINCT
                                                      for r in rivals):
                return cand
        return shade(colour, 0.6)

    def light(self, colour: str) -> str:
        return self.chosen.get(colour.lower()) or tint(colour)

    @staticmethod
    def large(box: Box, scale: float, face: Box | None, area: float) -> bool:
        """A shape is large on its face: ``area`` is the face's area in the drawing's own
        units, ``face`` its trim box in the shape's coordinates (None: not known here)."""
        x0, y0, x1, y1 = box
        w, h = (x1 - x0) * scale, (y1 - y0) * scale
        into_bleed = face is not None and (
            x0 < face[0] - 1e-6 or y0 < face[1] - 1e-6 or x1 > face[2] + 1e-6
            or y1 > face[3] + 1e-6) and w * h > 0.04 * area
        return w * h >= LARGE * area or into_bleed

    @staticmethod
    def band(box: Box, fill: str, scale: float, at: int,
             letters: Callable[[], list[tuple[int, float, float, str]]],
             area: float = math.inf) -> bool:
        """A dark header band: a dark shape of at least ``BAND`` (or ``BAND_SHARE`` of its
        face's ``area``) that lighter lettering drawn after it (``letters``: where each
        text of the list is, drawn as its ``at``-th item) sits on (a section heading's bar,
        a title plate on a board, a card's title band)."""
        x0, y0, x1, y1 = box
        size = (x1 - x0) * (y1 - y0) * scale * scale
        if size < min(BAND, BAND_SHARE * area) or not fill.startswith("#"):
            return False
        lum = luminance(fill)
        return lum < DARK and any(
            j > at and x0 <= x <= x1 and y0 <= y <= y1 and c.startswith("#")
            and luminance(c) > lum for j, x, y, c in letters())

    def items(self, items: tuple[Primitive, ...] | list[Primitive], ground: Ground,
              scale: float, face: Box | None, area: float,
              grounds: list[tuple[Box, str, str]] | None = None) -> list[Primitive]:
        """``items`` lightened; ``ground(x, y)`` is the colour beneath a point of this list,
        as the saver prints it and as it was, where no shape of the list lies under it (what
        the list sits on). ``face`` and ``area`` say what face the items are drawn on (see
        ``large``): a group clipped to a box (each face of a die's net, each side of a
        standee's strip) is a face of its own."""
        out: list[Primitive] = []
        # (box, new colour, old colour) of every filled shape so far, those inside groups
        # too: the topmost under a point is what text at that point is read against. The
        # caller may pass its list to learn this list's shapes.
        grounds = [] if grounds is None else grounds

        def beneath(x: float, y: float) -> tuple[str, str]:
            for (x0, y0, x1, y1), new, old in reversed(grounds):
                if x0 <= x <= x1 and y0 <= y <= y1:
                    return new, old
            return ground(x, y)

        found: list[list[tuple[int, float, float, str]]] = []

        def letters() -> list[tuple[int, float, float, str]]:
            """Where every text of this list lies (found once, when first asked)."""
            if not found:
                found.append([(j, x, y, c) for j, item in enumerate(items)
                              for x, y, c in _lettering([item])])
            return found[0]

        for i, item in enumerate(items):
            if isinstance(item, (Rect, Ellipse, Path, Line)):
                item = self.stroke(item, beneath)
            if isinstance(item, (Rect, Ellipse, Path)):
                st = item.style
                box = _box(item)
                framed: Primitive | None = None
                if st.fill and box is not None:
                    fill = st.fill
                    # a shape drawn straight onto a lightened one of its colour (the square
                    # half of a band with rounded top corners) is lightened with it
                    new, old = beneath((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
                    follows = new != old and old == fill
                    if (self.large(box, scale, face, area) and (
                            fill.lower() in self.chosen or luminance(fill) < 0.8)
                            or follows or self.band(box, fill, scale, i, letters, area)):
                        new = self.light(fill)
                        style = replace(st, fill=new)
                        covers = ((box[2] - box[0]) * (box[3] - box[1]) * scale * scale
                                  >= 0.9 * area)
                        if luminance(fill) < DARK and not st.stroke and not covers \
                                and not follows:
                            style = replace(style, stroke=fill, width=OUTLINE)
                        item = replace(item, style=style)
                        grounds.append((box, new, fill))
                        if fill.lower() in self.rivals and not follows:
                            framed = self.frame(item, box, face, fill)
                    else:
                        grounds.append((box, fill, fill))
                grad = item.style.gradient
                if grad is not None and box is not None and self.large(box, scale, face, area):
                    # a large gradient prints in light tints of its colours, as a fill would
                    light = replace(grad, colors=tuple(self.light(c) for c in grad.colors))
                    item = replace(item, style=replace(item.style, gradient=light))
                out.append(item)
                if framed is not None:
                    out.append(framed)
            elif isinstance(item, Text):
                new, old = beneath(item.x, item.y - item.size * 0.25 * 0.3528)
                if item.color.lower() in self.rivals and contrast(item.color, new) < CONTRAST:
                    out.append(replace(item, color=self.own(item.color, new, 4.5)))
                else:
                    out.append(replace(item, color=self.readable(item.color, new, old)))
            elif isinstance(item, Icon):
                if item.color:
                    new, old = beneath(item.x + item.size / 2, item.y + item.size / 2)
                    out.append(replace(item, color=self.visible(item.color, new, old)))
                else:
                    out.append(item)
            elif isinstance(item, Group):
                under = _within(item, beneath)
                inner_scale = scale * item.scale
                inside: list[tuple[Box, str, str]] = []
                if item.clip is not None:
                    cx0, cy0, cx1, cy1 = item.clip
                    inner = self.items(item.items, under, inner_scale, item.clip,
                                       max((cx1 - cx0) * (cy1 - cy0) * inner_scale ** 2, 1e-6),
                                       inside)
                else:
                    inner = self.items(item.items, under, inner_scale, None, area, inside)
                out.append(replace(item, items=tuple(inner)))
                if not item.rotate:  # the group's shapes lie beneath what follows it too
                    grounds.extend((_placed(item, b), new, old) for b, new, old in inside)
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
        if st.stroke.lower() in self.rivals:
            return replace(item, style=replace(st, stroke=self.own(st.stroke, new, CONTRAST)))
        return replace(item, style=replace(st, stroke=self.readable(st.stroke, new, old)))

    def visible(self, colour: str, ground: str, was: str) -> str:
        """An icon's colour: kept wherever the lighter area beneath leaves it as clear as the
        full print did (a yellow figure on cream stays yellow on white: its colour is what
        it says), else made readable like text, at the least contrast text keeps."""
        if not colour.startswith("#") or not ground.startswith("#") or not was.startswith("#"):
            return colour
        if contrast(colour, ground) >= min(CONTRAST, contrast(colour, was)) - 1e-9:
            return colour
        return self.readable(colour, ground, was, need=CONTRAST)

    def readable(self, colour: str, ground: str, was: str, need: float = 4.5) -> str:
        """``colour`` if it stands out on ``ground`` (``CONTRAST``); else a darker colour of
        the same hue that reads at ``need``: the colour's own hue when it is darker than the
        ground (dark lettering on a light area), the area's former colour when it was lighter
        (light lettering on a dark band the saver lightened); near-black when neither does."""
        if not colour.startswith("#") or not ground.startswith("#"):
            return colour
        if contrast(colour, ground) >= CONTRAST:
            return colour
        hues = [colour] if luminance(colour) < luminance(ground) else []
        if was.startswith("#"):
            hues.append(was)
        for hue in hues:
            for k in (0.0, 0.25, 0.45, 0.6, 0.75):
                cand = shade(hue, k)
                if contrast(cand, ground) >= need:
                    return cand
        return "#222222"


def saver(game: Game, d: Drawing, round_face: bool = False) -> Drawing:
    """The face ``d`` as the ink saver prints it (see the module docstring); ``round_face``
    for a round token, cut along the circle inside its trim."""
    paper = "#ffffff"
    sv = _Saver(game, d, round_face)
    items = sv.items(d.items, lambda x, y: (paper, paper), 1.0, sv.top, max(d.w * d.h, 1e-6))
    return Drawing(d.w, d.h, d.bleed, items,
                   key=d.key + "~saver" if d.key else "")

