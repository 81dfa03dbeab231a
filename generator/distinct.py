"""How far apart a game's ``distinct`` colours print, measured on rendered faces.

For each colour of each ``distinct`` list: the pieces (tokens, standees, tiles) that name it
in a field (``pc: p-red``) are rendered (through the PDF irata prints, as ``irata preview``
does) and their colour read at their edge, a band 0.25 to 0.75 mm inside the cut (a round
token's circle; a standee's front side, left and right). A colour no piece names is read on
the boards, along the middle of every line drawn in it (the Zones' borders). Each reading is
the median of its pixels. ``report`` gives, per list, the smallest CIEDE2000 between two of
its colours and between each and the paper: the saver keeps both at ``ink.DISTINCT`` or more.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from itertools import combinations

from PIL import Image as PILImage

from components import Component, Game
from generator.drawing import Drawing, Group, Line, Primitive, Rect
from generator.ink import delta_e

DPI = 200
PAPER = "#ffffff"
PIECES = 2  # pieces of each kind read for each colour (they are drawn alike)
PIECE_KINDS = ("token", "standee", "tile")  # what moves on the table in a player's colour


@dataclass(frozen=True)
class Reading:
    colour: str  # the palette name
    printed: str  # '#rrggbb' median of what prints
    pixels: int


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(round(v) for v in rgb))


def _median(px: list[tuple[int, int, int]]) -> str:
    return _hex(tuple(statistics.median(p[i] for p in px) for i in range(3)))  # type: ignore[arg-type]


def _rgb(value: object) -> tuple[int, int, int]:
    assert isinstance(value, tuple)
    return (int(value[0]), int(value[1]), int(value[2]))


def _render(game: Game, comp: Component, ink: str) -> tuple[PILImage.Image, Drawing]:
    from generator import raster
    from generator.build import icon_source
    from generator.draw import Options, draw_component

    d = draw_component(game, comp, Options(ink=ink)).front
    img = next(raster.render_faces([raster.Face(comp, "front", d)], DPI, icon_source(game)))
    return img.convert("RGB"), d


def _px(mm: float) -> int:
    return round(mm * DPI / 25.4)


def edge_pixels(img: PILImage.Image, d: Drawing, comp: Component) -> list[tuple[int, int, int]]:
    """The pixels of the band 0.25 to 0.75 mm inside the cut of a rendered front face."""
    b = d.bleed
    x0, y0, w, h = b, b, d.w, d.h
    if comp.kind == "standee":  # the front side: below the base, the back and the fold
        fw, fh = comp.size
        x0, y0, w, h = b, b + comp.base + fh, fw, fh
    out: list[tuple[int, int, int]] = []
    pix = img.load()
    assert pix is not None
    if comp.kind == "token" and comp.shape == "round":
        cx, cy, r = x0 + w / 2, y0 + h / 2, min(w, h) / 2
        for i in range(_px(x0), _px(x0 + w)):
            for j in range(_px(y0), _px(y0 + h)):
                x, y = (i + 0.5) * 25.4 / DPI, (j + 0.5) * 25.4 / DPI
                dist = ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5
                if r - 0.75 <= dist <= r - 0.25:
                    out.append(_rgb(pix[i, j]))
        return out
    sides = [(x0 + 0.25, y0 + h / 3, 0.5, h / 3), (x0 + w - 0.75, y0 + h / 3, 0.5, h / 3)]
    if comp.kind != "standee":
        sides += [(x0 + w / 3, y0 + 0.25, w / 3, 0.5), (x0 + w / 3, y0 + h - 0.75, w / 3, 0.5)]
    for sx, sy, sw, sh in sides:
        for i in range(_px(sx), max(_px(sx + sw), _px(sx) + 1)):
            for j in range(_px(sy), max(_px(sy + sh), _px(sy) + 1)):
                out.append(_rgb(pix[i, j]))
    return out


def _stroked(items: tuple[Primitive, ...] | list[Primitive], hexes: set[str],
             dx: float = 0.0, dy: float = 0.0, k: float = 1.0
             ) -> list[tuple[float, float, float, float, float]]:
    """Every straight stroke drawn in one of ``hexes`` (rect edges and lines, in unturned
    groups), as (x1, y1, x2, y2, width) in the drawing's coordinates."""
    out: list[tuple[float, float, float, float, float]] = []
    for it in items:
        if isinstance(it, Group):
            if not it.rotate:
                out += _stroked(it.items, hexes, dx + it.dx * k, dy + it.dy * k, k * it.scale)
            continue
        st = getattr(it, "style", None)
        if st is None or not st.stroke or st.stroke.lower() not in hexes:
            continue
        if isinstance(it, Rect):
            x, y, w, h = dx + it.x * k, dy + it.y * k, it.w * k, it.h * k
            out += [(x, y, x + w, y, st.width * k), (x, y + h, x + w, y + h, st.width * k),
                    (x, y, x, y + h, st.width * k), (x + w, y, x + w, y + h, st.width * k)]
        elif isinstance(it, Line):
            out.append((dx + it.x1 * k, dy + it.y1 * k, dx + it.x2 * k, dy + it.y2 * k,
                        st.width * k))
    return out


def line_pixels(img: PILImage.Image, d: Drawing, full: Drawing, colour: str
                ) -> list[tuple[int, int, int]]:
    """The pixels along the middle of every line the full print draws in ``colour`` (its
    middle third, clear of the corners where other lines meet it)."""
    pix = img.load()
    assert pix is not None
    out: list[tuple[int, int, int]] = []
    for x1, y1, x2, y2, w in _stroked(full.items, {colour.lower()}):
        if w < 0.3:
            continue
        for t in (i / 12 for i in range(4, 9)):
            x, y = d.bleed + x1 + (x2 - x1) * t, d.bleed + y1 + (y2 - y1) * t
            i, j = _px(x), _px(y)
            if 0 <= i < img.width and 0 <= j < img.height:
                out.append(_rgb(pix[i, j]))
    return out


def readings(game: Game, ink: str) -> dict[str, list[Reading]]:
    """Each ``distinct`` list's colours as they print with ``ink`` (see the docstring)."""
    out: dict[str, list[Reading]] = {}
    printed = [c for c in game.components if c.printed and c.count > 0]
    for name, colours in game.distinct.items():
        row: list[Reading] = []
        for colour in colours:
            named = [c for c in printed if c.kind in PIECE_KINDS
                     and any(v == colour for v in c.fields.values() if isinstance(v, str))]
            px: list[tuple[int, int, int]] = []
            chosen = [c for kind in PIECE_KINDS for c in
                      [c for c in named if c.kind == kind][:PIECES]]
            for comp in chosen:
                img, d = _render(game, comp, ink)
                px += edge_pixels(img, d, comp)
            if not named:
                for comp in (c for c in printed if c.kind == "board"):
                    img, d = _render(game, comp, ink)
                    full = d if ink == "full" else _render(game, comp, "full")[1]
                    px += line_pixels(img, d, full, game.palette[colour])
            if px:
                row.append(Reading(colour, _median(px), len(px)))
        out[name] = row
    return out


def report(game: Game, ink: str) -> dict[str, tuple[float, float]]:
    """Per ``distinct`` list: the smallest CIEDE2000 between two of its printed colours,
    and between one of them and the paper."""
    out: dict[str, tuple[float, float]] = {}
    for name, row in readings(game, ink).items():
        pairs = [delta_e(a.printed, b.printed) for a, b in combinations(row, 2)]
        paper = [delta_e(a.printed, PAPER) for a in row]
        out[name] = (min(pairs) if pairs else 0.0, min(paper) if paper else 0.0)
    return out
