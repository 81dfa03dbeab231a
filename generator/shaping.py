"""Text that needs more than one glyph per character: shaping, direction, glyph art.

- **Which text.** Latin, Greek, Cyrillic and CJK set one glyph per character from the font's
  character map and are measured and placed as before (reportlab's metrics, ``Text`` runs of
  characters). Text in a script that joins, reorders or stacks its letters (Arabic, Hebrew,
  the Indic scripts, Thai, ...), text with combining marks, and anything set in a colour font
  (emoji) is *shaped*: ``needs_shaping`` tells which.
- **Shaping** is HarfBuzz's (``uharfbuzz``), on the font file itself (with its GSUB/GPOS
  tables: reportlab's embedded subset has none), once per (text, font, direction): glyph ids
  and positions in ems, so one shaping serves every size.
- **Direction** is the Unicode bidirectional algorithm (UAX #9) of ``python-bidi``: embedding
  levels are resolved per paragraph, and each line, after wrapping, is put in visual order
  (rule L2) by ``visual_order``.
- **Glyph art.** Both backends draw a shaped run from the same outlines (``run_art``): the
  glyphs' paths in millimetres, so the PDF and the SVG show the very same shapes at the very
  same places, whatever a viewer's own shaping would do. Colour glyphs print in colour: COLR
  layers as filled paths in their palette colours, CBDT/sbix bitmaps as images at their
  strike's resolution. The PDF also sets the run's characters as invisible text, so the words
  can be searched and copied.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from generator.drawing import PT, Path, PathCmd, Style, Text

# Scripts shaped by HarfBuzz: Hebrew to Mongolian (Arabic, Syriac, Thaana, N'Ko, the Indic
# scripts, Sinhala, Thai, Lao, Tibetan, Myanmar, Georgian, Ethiopic, Khmer, ...), the later
# Indic and South-East Asian blocks, Arabic and Hebrew presentation forms, combining marks,
# the joiners, variation selectors, and the emoji and symbol planes.
_COMPLEX = re.compile(
    "[\u0300-\u036f\u0483-\u0489\u0590-\u18af\u1a00-\u1aff\u1b00-\u1c4f\u1cd0-\u1cff"
    "\u1dc0-\u1dff\u200c-\u200f\u202a-\u202e\u2066-\u2069\u20d0-\u20ff\u2600-\u27bf"
    "\ua800-\uabff\ufb1d-\ufdff\ufe00-\ufe0f\ufe20-\ufe2f\ufe70-\ufeff"
    "\U00010000-\U0001ffff\U000e0000-\U000e01ef]")
_RTL_CLASSES = frozenset({"R", "AL", "RLE", "RLO", "RLI"})


def needs_shaping(text: str) -> bool:
    """Whether ``text`` holds a character that one glyph per character would print wrong."""
    return not text.isascii() and _COMPLEX.search(text) is not None


def has_rtl(text: str) -> bool:
    """Whether ``text`` holds a right-to-left character (Hebrew, Arabic, ...)."""
    return not text.isascii() and any(unicodedata.bidirectional(c) in _RTL_CLASSES
                                      for c in text)


# --- fonts -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ShapeFont:
    hb: Any  # uharfbuzz.Font
    upem: int
    colour_png: bool
    colour_layers: bool
    palette: tuple[str, ...]  # CPAL palette 0 as '#rrggbb'


_FONTS: dict[str, ShapeFont] = {}


def shape_font(font: str) -> ShapeFont:
    """HarfBuzz's view of the registered font ``font`` (the file a game names, whole)."""
    hit = _FONTS.get(font)
    if hit is not None:
        return hit
    import uharfbuzz as hb

    from generator.fonts import font_source

    data, index = font_source(font)
    try:
        face = hb.Face(hb.Blob(data), index)
        hbf = hb.Font(face)
        palette: tuple[str, ...] = ()
        if face.has_color_palettes:
            colours = face.get_color_palette(0).colors
            palette = tuple(f"#{c.red:02x}{c.green:02x}{c.blue:02x}" for c in colours)
    # a damaged font file: this font's fault, told as one line
    except Exception as exc:  # noqa: BLE001
        from components.errors import DefinitionError
        from generator.fonts import font_label

        raise DefinitionError(f"cannot shape text with the font {font_label(font)}: "
                              f"{' '.join(str(exc).split())[:120]}") from None
    sf = ShapeFont(hbf, face.upem, bool(face.has_color_png), bool(face.has_color_layers),
                   palette)
    _FONTS[font] = sf
    return sf


def forget(font: str) -> None:
    """Drop what is known of ``font`` (registered again: another cut, an edited file)."""
    _FONTS.pop(font, None)
    shape.cache_clear()
    glyph_outline.cache_clear()
    glyph_colour.cache_clear()


def is_colour(font: str) -> bool:
    sf = shape_font(font)
    return sf.colour_png or sf.colour_layers


# --- shaping -----------------------------------------------------------------------------------

Shaped = tuple[tuple[int, float, float, float], ...]  # (glyph id, advance, x off, y off), ems


@lru_cache(maxsize=16384)
def shape(text: str, font: str, rtl: bool) -> Shaped:
    """``text`` shaped in ``font``, glyphs in visual (left to right) order, in ems."""
    import uharfbuzz as hb

    sf = shape_font(font)
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    buf.direction = "rtl" if rtl else "ltr"
    hb.shape(sf.hb, buf, {})
    k = 1.0 / sf.upem
    return tuple((info.codepoint, pos.x_advance * k, pos.x_offset * k, pos.y_offset * k)
                 for info, pos in zip(buf.glyph_infos, buf.glyph_positions, strict=True))


def advance(text: str, font: str, rtl: bool = False) -> float:
    """The shaped text's width in ems."""
    return sum(g[1] for g in shape(text, font, rtl))


def glyph_run(text: str, font: str, rtl: bool, size: float
              ) -> tuple[tuple[tuple[int, float, float], ...], float]:
    """The run's glyphs placed for ``size`` points: (id, x, y) in mm from the run's start on
    the baseline (y down), and the run's width in mm."""
    em = size * PT
    out: list[tuple[int, float, float]] = []
    x = 0.0
    for gid, adv, xo, yo in shape(text, font, rtl):
        out.append((gid, round((x + xo) * em, 4), round(-yo * em, 4)))
        x += adv
    return tuple(out), x * em


# --- direction ---------------------------------------------------------------------------------

def levels(text: str, rtl: bool | None = None) -> list[int]:
    """The resolved embedding level of each character of one paragraph (UAX #9, rules P2 to
    I2): even runs left to right, odd right to left. The paragraph's direction is its first
    strong character's unless ``rtl`` says."""
    if not has_rtl(text) and not rtl:
        return [0] * len(text)
    from bidi import algorithm as uax9

    storage = uax9.get_empty_storage()
    base = uax9.get_base_level(text) if rtl is None else int(rtl)
    storage["base_level"] = base
    storage["base_dir"] = ("L", "R")[base]
    uax9.get_embedding_levels(text, storage, False, False)
    uax9.explicit_embed_and_overrides(storage, False)
    uax9.resolve_weak_types(storage, False)
    uax9.resolve_neutral_types(storage, False)
    uax9.resolve_implicit_levels(storage, False)
    out = [int(c["level"]) for c in storage["chars"]]
    if len(out) != len(text):  # characters the algorithm drops (X9) keep the base level
        return [base] * len(text)
    return out


def base_rtl(text: str) -> bool:
    """Whether a paragraph runs right to left (its first strong character is)."""
    if not has_rtl(text):
        return False
    from bidi import algorithm as uax9

    return bool(uax9.get_base_level(text))


def visual_order(lv: Sequence[int]) -> list[int]:
    """Indices of items at embedding levels ``lv`` in the order they are seen, left to right
    (rule L2: from the highest level down to the lowest odd one, reverse every run at that
    level or higher)."""
    order = list(range(len(lv)))
    if not lv:
        return order
    top = max(lv)
    low = min(v for v in lv if v % 2) if any(v % 2 for v in lv) else top + 1
    for level in range(top, low - 1, -1):
        i = 0
        while i < len(order):
            if lv[order[i]] >= level:
                j = i
                while j < len(order) and lv[order[j]] >= level:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    return order


# --- glyph art ---------------------------------------------------------------------------------

class _Pen:
    """Records a glyph's outline as path commands in ems, y downward."""

    def __init__(self, k: float) -> None:
        self.k = k
        self.cmds: list[PathCmd] = []
        self.at = (0.0, 0.0)

    def moveTo(self, p: tuple[float, float]) -> None:  # noqa: N802 - the pen protocol's name
        self.at = (p[0] * self.k, -p[1] * self.k)
        self.cmds.append(("M", *self.at))

    def lineTo(self, p: tuple[float, float]) -> None:  # noqa: N802
        self.at = (p[0] * self.k, -p[1] * self.k)
        self.cmds.append(("L", *self.at))

    def curveTo(self, a: tuple[float, float], b: tuple[float, float],  # noqa: N802
                p: tuple[float, float]) -> None:
        k = self.k
        self.at = (p[0] * k, -p[1] * k)
        self.cmds.append(("C", a[0] * k, -a[1] * k, b[0] * k, -b[1] * k, *self.at))

    def qCurveTo(self, a: tuple[float, float], p: tuple[float, float]) -> None:  # noqa: N802
        # a quadratic curve as the cubic that traces it
        k = self.k
        x0, y0 = self.at
        qx, qy = a[0] * k, -a[1] * k
        x, y = p[0] * k, -p[1] * k
        self.cmds.append(("C", x0 + 2 / 3 * (qx - x0), y0 + 2 / 3 * (qy - y0),
                          x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), x, y))
        self.at = (x, y)

    def closePath(self) -> None:  # noqa: N802
        self.cmds.append(("Z",))


@lru_cache(maxsize=8192)
def glyph_outline(font: str, gid: int) -> tuple[PathCmd, ...]:
    """Glyph ``gid``'s outline in ems from its origin, y downward."""
    sf = shape_font(font)
    pen = _Pen(1.0 / sf.upem)
    sf.hb.draw_glyph_with_pen(gid, pen)
    return tuple(pen.cmds)


@dataclass(frozen=True)
class Bitmap:
    """A colour glyph's picture and where it sits, in ems from the glyph's origin (y down)."""

    png: bytes
    x: float
    y: float
    w: float
    h: float


@lru_cache(maxsize=4096)
def glyph_colour(font: str, gid: int
                 ) -> tuple[tuple[tuple[PathCmd, ...], str | None], ...] | Bitmap | None:
    """Glyph ``gid`` of a colour font: its COLR layers (outline, colour; None: the text's
    colour), or its CBDT/sbix bitmap; None for a plain glyph."""
    sf = shape_font(font)
    if sf.colour_layers:
        layers = sf.hb.face.get_glyph_color_layers(gid)
        if layers:
            out = []
            for layer in layers:
                idx = layer.color_index
                colour = sf.palette[idx] if idx < len(sf.palette) else None
                out.append((glyph_outline(font, layer.glyph), colour))
            return tuple(out)
    if sf.colour_png:
        blob = sf.hb.get_glyph_color_png(gid)
        data = bytes(blob.data) if blob is not None else b""
        # a picture of sane size only (a hostile font's bitmap may claim any)
        if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) <= MAX_BITMAP_BYTES and \
                _png_pixels(data) <= MAX_BITMAP_PIXELS:
            ext = sf.hb.get_glyph_extents(gid)
            if ext is not None and ext.width and ext.height:
                k = 1.0 / sf.upem
                return Bitmap(data, ext.x_bearing * k, -ext.y_bearing * k, ext.width * k,
                              -ext.height * k)
    return None


MAX_BITMAP_BYTES = 1 << 20
MAX_BITMAP_PIXELS = 1024 * 1024


def _png_pixels(data: bytes) -> int:
    """The pixels a PNG's header says it has (its IHDR width times height)."""
    if len(data) < 24 or data[12:16] != b"IHDR":
        return MAX_BITMAP_PIXELS + 1
    return int.from_bytes(data[16:20], "big") * int.from_bytes(data[20:24], "big")


@dataclass(frozen=True)
class Picture:
    """A colour glyph's bitmap placed in millimetres."""

    png: bytes
    x: float
    y: float
    w: float
    h: float


def run_art(t: Text) -> list[Path | Picture]:
    """What a shaped run draws: filled outlines (one path per colour) and colour bitmaps, in
    the run's coordinates (millimetres, y downward)."""
    em = t.size * PT
    plain: list[PathCmd] = []
    extra: list[Path | Picture] = []
    for gid, gx, gy in t.glyphs:
        ox, oy = t.x + gx, t.y + gy
        colour = glyph_colour(t.font, gid)
        if isinstance(colour, Bitmap):
            extra.append(Picture(colour.png, ox + colour.x * em, oy + colour.y * em,
                                 colour.w * em, colour.h * em))
            continue
        if colour:
            for cmds, fill in colour:
                extra.append(Path(tuple(_placed(cmds, ox, oy, em)),
                                  Style(fill=fill or t.color)))
            continue
        plain.extend(_placed(glyph_outline(t.font, gid), ox, oy, em))
    out: list[Path | Picture] = [Path(tuple(plain), Style(fill=t.color))] if plain else []
    return out + extra


def _placed(cmds: tuple[PathCmd, ...], ox: float, oy: float, em: float) -> list[PathCmd]:
    out: list[PathCmd] = []
    for c in cmds:
        if len(c) == 1:
            out.append(c)
            continue
        vals = [float(v) for v in c[1:]]
        out.append((c[0], *(round(ox + v * em if i % 2 == 0 else oy + v * em, 4)
                            for i, v in enumerate(vals))))
    return out
