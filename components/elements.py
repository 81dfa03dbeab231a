"""Every element kind a layout may hold, declared once: its keys, which it needs, what each
key takes (a type and its bounds) and one line of documentation for each.

The schema (``components.schema``) checks a layout's elements against these specs, the face
check (``components.facecheck``) reads which keys hold colours, fonts, texts and layouts,
docs/FORMAT.md's table of elements is generated from them (``components.formatdoc``), and the
printer finds one drawer per kind in ``generator.draw.elements.DRAWERS`` (a test holds the two
tables to the same kinds). Adding a kind is one ``ElementSpec`` here and one drawer there:
docs/ADDING_AN_ELEMENT.md walks through it.

A key's ``type`` says what a value written out in the YAML must be, checked when the game is
loaded (a ``${field}`` is checked when the face is drawn, with the component's fields):

- ``length``: mm, or a percentage of the face's width or height (``"50%"``, ``"100%-8"``);
  ``size`` is a length of 0 or more;
- ``number``: a plain number between ``lo`` and ``hi`` (points, a ratio, a count);
- ``angle``: degrees, at most 3600 either way;
- ``colour``: ``#rrggbb``, a palette name or a basic colour (``colours``: or a list of them);
- ``choice``: one of ``choices``; ``font``: a style under ``fonts:`` or a standard PDF font;
- ``text``: words that may hold ``${field}`` (``texts``: a list of them);
- ``layout``: a layout's name; ``items``: what a repeat goes over; ``fields``: a mapping;
- ``points``: a list of ``[x, y]`` lengths; ``gradient``: see ``GRADIENT_KEYS``;
- ``file``: a file inside the game folder; ``any``: checked by the drawer alone.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

MAX_MM = 5000.0  # any length or position, in mm (a few metres)
MAX_FONT_PT = 400.0  # a text's size
MAX_CELLS = 10_000  # cells of one grid
MAX_ANGLE = 3600.0
MAX_SIDES = 64  # a regular polygon's sides or a star's points: past that it is a circle
MAX_POINTS = 1000  # a polygon's corners

TYPES = ("length", "size", "number", "angle", "colour", "colours", "choice", "font", "text",
         "texts", "layout", "items", "fields", "points", "gradient", "file", "cells",
         "legend", "list", "any")


@dataclass(frozen=True)
class Key:
    """One key of an element: what it takes and what it means."""

    name: str
    type: str
    doc: str
    lo: float | None = None
    hi: float | None = None
    choices: tuple[str, ...] = ()
    hint: str = ""  # said when a needed key is missing: "words, or a field as ..."

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ValueError(f"key '{self.name}': unknown type '{self.type}'")


@dataclass(frozen=True)
class ElementSpec:
    """One element kind: ``type: KIND`` in a layout."""

    kind: str
    doc: str
    keys: tuple[Key, ...]
    required: tuple[str, ...] = ()
    # the printed space ``space: NAME`` names, for pieces' ``sits_on``: "box" (w x h),
    # "cell" (cell_w x cell_h), "circle" (r, or rx and ry); "" where it names none
    space: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.keys)

    def key(self, name: str) -> Key | None:
        for k in self.keys:
            if k.name == name:
                return k
        return None

    def of_type(self, *types: str) -> tuple[str, ...]:
        """The names of this kind's keys of the given types."""
        return tuple(k.name for k in self.keys if k.type in types)


# --- keys that many kinds share, each meaning the same wherever it stands ----------------------
X = Key("x", "length", "left, mm or `\"50%\"`, `\"100%-8\"`")
Y = Key("y", "length", "top, mm or %")
W = Key("w", "size", "width")
H = Key("h", "size", "height")
FILL = Key("fill", "colour", "colour")
STROKE = Key("stroke", "colour", "outline colour")
STROKE_WIDTH = Key("stroke_width", "size", "mm, default 0.3")
DASH = Key("dash", "list", "`[on, off]` mm")
COLOR = Key("color", "colour", "colour (palette name, `#rrggbb` or a basic colour name)")
CX = Key("cx", "length", "centre")
CY = Key("cy", "length", "centre")
R = Key("r", "size", "radius")
SPACE = Key("space", "any", "a name for the space it draws, for pieces' `sits_on` (a grid: "
                            "each cell; a circle: its diameter); its size must be written in mm")
LAYOUT = Key("layout", "layout", "a layout's name")
GRADIENT = Key("gradient", "gradient", "a fill that runs from colour to colour, instead of "
                                       "`fill`: `{colors: [gold, \"#7a4b00\"], angle: 90}` "
                                       "(linear, `angle` degrees clockwise from left to right) "
                                       "or `{kind: radial, colors: [white, sky]}` (from the "
                                       "centre out)")
SHAPE_STYLE = (FILL, GRADIENT, STROKE, STROKE_WIDTH, DASH)

# a gradient's own keys: {kind: linear | radial, colors: [...], angle: deg}
GRADIENT_KINDS = ("linear", "radial")
GRADIENT_KEYS = ("kind", "colors", "angle")
MAX_STOPS = 16


def _spec(kind: str, doc: str, keys: tuple[Key, ...], required: tuple[str, ...] = (),
          space: str = "") -> ElementSpec:
    return ElementSpec(kind, doc, keys, required, space)


SPECS: dict[str, ElementSpec] = {s.kind: s for s in (
    _spec("rect", "a rectangle, with rounded or cut corners", (
        X, Y, W, H, FILL, STROKE, STROKE_WIDTH,
        Key("radius", "size", "corner radius, mm"), DASH,
        Key("bleed", "choice", "`true`: extend by the bleed past the trim edges it touches "
                               "(backgrounds)", choices=("true", "false")),
        SPACE,
        Key("corners", "choice", "`round` (the default: `radius` rounds each corner) or "
                                 "`cut` (`radius` cuts each corner off, a chamfer)",
            choices=("round", "cut")),
        GRADIENT,
    ), ("w", "h"), "box"),
    _spec("ellipse", "a circle (`r`) or an ellipse (`rx ry`)", (
        CX, CY, R, Key("rx", "size", "radius across"), Key("ry", "size", "radius down"),
        FILL, STROKE, STROKE_WIDTH, DASH, SPACE, GRADIENT,
    ), ("cx", "cy"), "circle"),
    _spec("line", "a straight line", (
        Key("x1", "length", "start"), Key("y1", "length", "start"),
        Key("x2", "length", "end"), Key("y2", "length", "end"),
        STROKE, STROKE_WIDTH, DASH,
    ), ("x1", "y1", "x2", "y2")),
    _spec("path", "an SVG path: M L H V C Q Z, absolute or relative", (
        Key("d", "any", "the path data"), X, Y,
        Key("scale", "number", "default 1", -100, 100),
        FILL, STROKE, STROKE_WIDTH, DASH, GRADIENT,
    ), ("d",)),
    _spec("text", "a text box: wraps to `w`, shrinks to fit `w` x `h`", (
        Key("text", "text", "the words: may hold `${field}`, `{icon}`, `{icon*N}`, `**bold**`, "
                            "`*italic*` and spans `[words]{color=food size=120%}`: see Text "
                            "markup", hint="words, or a field as \"${name}\""),
        X, Y, W, H,
        Key("size", "number", "pt, default 9", 0.5, MAX_FONT_PT),
        Key("min_size", "number", "pt, the smallest it may shrink to (default 5)", 0.5,
            MAX_FONT_PT),
        Key("font", "font", "`body`, `bold`, `italic`, a name under `fonts:` or a standard "
                            "PDF font; or a list, `[body, arabic, cjk, emoji]`: each character "
                            "in the first that has it"),
        COLOR,
        Key("align", "choice", "across the box (the default `start` is the left edge for "
                               "English, the right one for a paragraph in Arabic or Hebrew; "
                               "`end` the other)",
            choices=("left", "center", "right", "start", "end")),
        Key("valign", "choice", "down the box", choices=("top", "middle", "bottom")),
        Key("leading", "number", "line height in ems (default 1.2)", 0.5, 5),
        Key("rotate", "angle", "degrees clockwise about the box's centre, any angle (a "
                               "quarter turn runs the text along `h`)"),
    ), ("text", "w", "h")),
    _spec("icon", "a built-in or game icon", (
        Key("name", "any", "the icon's name"), X, Y, Key("size", "size", "mm"),
        Key("color", "colour", "colour, for single-colour icons"),
        Key("rotate", "angle", "degrees clockwise about its centre, any angle"),
    ), ("name",)),
    _spec("qr", "a QR code", (
        Key("payload", "any", "what it encodes (may hold `${field}`)"), X, Y,
        Key("size", "size", "mm"), Key("color", "colour", "colour (default black)"),
    ), ("payload", "size")),
    _spec("image", "a picture from the game folder", (
        Key("path", "file", "a PNG, JPEG or SVG file inside the game folder"), X, Y, W, H,
        Key("fit", "choice", "how the art fills the box: `contain` (the default: all of it, "
                             "as large as fits, centred), `cover` (fills the box, centred, the "
                             "overflow cut), `stretch` (fills the box, proportions changed)",
            choices=("contain", "cover", "stretch")),
        Key("crop", "any", "`[x, y, w, h]`: the part of the art to use, in its pixels (an "
                           "SVG: its units)"),
    ), ("path", "w", "h")),
    _spec("pips", "dice pips", (
        Key("n", "any", "0 to 9 (0 draws an X)"), X, Y, W, H, COLOR,
        Key("r", "size", "pip radius, mm"),
    ), ("n", "w", "h")),
    _spec("grid", "a table of cells", (
        X, Y, Key("cols", "number", "columns", 1, MAX_CELLS),
        Key("rows", "number", "rows", 1, MAX_CELLS),
        Key("cell_w", "size", "cell width"), Key("cell_h", "size", "cell height"),
        Key("fill", "colours", "a colour, or a list of colours, one per cell"),
        STROKE, STROKE_WIDTH,
        Key("labels", "texts", "one per cell, row by row"),
        Key("cells", "cells", "a map the grid is drawn from: a list of rows, each a text of "
                              "one mark a character (`\"HPLRPLH\"`) or a list of marks, "
                              "usually `\"${data.KEY}\"`; each cell draws its mark's `legend` "
                              "entry (instead of `labels` and a list of `fill`s)"),
        Key("legend", "legend", "with `cells`: what each mark draws, `{P: {fill: plains, "
                                "label: PLAINS}}` (an entry without `fill` takes the grid's "
                                "`fill`), written out or a field's `\"${name}\"`"),
        Key("skip_rows", "any", "with `cells`: rows of the map before the grid's first "
                                "(another grid draws them), default 0"),
        Key("skip_cols", "any", "with `cells`: marks of each row before the grid's first "
                                "column, default 0"),
        Key("size", "number", "label pt", 0.5, MAX_FONT_PT),
        Key("color", "colour", "label colour"),
        Key("font", "font", "label font"), SPACE,
    ), ("cols", "rows", "cell_w", "cell_h"), "cell"),
    _spec("use", "another layout, moved (and turned) as a whole", (
        LAYOUT, Key("x", "length", "offset"), Key("y", "length", "offset"),
        Key("with", "fields", "fields set for it: `{title: \"${name}\"}`"),
        Key("rotate", "angle", "degrees clockwise about the offset point, any angle"),
    ), ("layout",)),
    _spec("repeat", "another layout once per item of a list: data written once, drawn many "
                    "times", (
        Key("over", "items", "`\"${data.KEY}\"` or `\"${field}\"`: a list, a mapping (each "
                             "value knows its key as `key`) or a whole number N (0 .. N-1)"),
        Key("as", "any", "the name each copy knows its item by (default `item`; also "
                         "`AS_index` from 0, `AS_count`)"),
        LAYOUT,
        Key("x", "length", "where the first copy goes"),
        Key("y", "length", "where the first copy goes"),
        Key("dx", "length", "each copy moved this far right from the last"),
        Key("dy", "length", "each copy moved this far down (with `wrap`: the rows this far "
                            "apart)"),
        Key("wrap", "any", "copies to a row, then a new row"),
        Key("with", "fields", "fields set for each copy (may read its item)"),
    ), ("over", "layout")),
    _spec("polygon", "a closed shape through its corners", (
        Key("points", "points", "the corners, `[[x, y], [x, y], ...]` (three or more, mm or "
                                "%), joined in order and closed"),
        *SHAPE_STYLE,
    ), ("points",)),
    _spec("regular", "a regular polygon: a hexagon (`sides: 6`), a triangle, an octagon", (
        CX, CY, Key("r", "size", "the radius to each corner, mm"),
        Key("sides", "number", "3 to 64", 3, MAX_SIDES),
        Key("rotate", "angle", "degrees clockwise; 0 puts a corner straight up (a hexagon "
                               "with `rotate: 30` lies flat side up)"),
        *SHAPE_STYLE, SPACE,
    ), ("cx", "cy", "r", "sides"), "circle"),
    _spec("star", "a star of `points` tips", (
        CX, CY, Key("r", "size", "the radius to each tip, mm"),
        Key("inner", "number", "the radius to each notch, as a share of `r` (default 0.5)",
            0.05, 1),
        Key("points", "number", "tips, 3 to 64 (default 5)", 3, MAX_SIDES),
        Key("rotate", "angle", "degrees clockwise; 0 puts a tip straight up"),
        *SHAPE_STYLE,
    ), ("cx", "cy", "r")),
)}

COMMON_KEYS = ("type", "when", "unless")


def choices() -> dict[str, tuple[str, ...]]:
    """Every enumerated key's words, by key (a key means the same in every kind)."""
    out: dict[str, tuple[str, ...]] = {}
    for spec in SPECS.values():
        for k in spec.keys:
            if k.choices:
                if out.get(k.name, k.choices) != k.choices:
                    raise ValueError(f"the key '{k.name}' takes different words in different "
                                     "element kinds")
                out[k.name] = k.choices
    return out


_NUMBER = re.compile(r"-?\d*\.?\d+(?:[eE][-+]?\d{1,3})?")
_PERCENT = re.compile(r"(-?\d*\.?\d+)%(([+-])(\d*\.?\d+))?")


def _number(value: Any) -> float | None:
    """A plain number as the printer reads one (a number, or text of one); else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        try:
            v = float(value)
        except OverflowError:
            return None
        return v if math.isfinite(v) else None
    if isinstance(value, str) and len(value) < 40 and _NUMBER.fullmatch(value.strip()):
        v = float(value)
        return v if math.isfinite(v) else None
    return None


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return f"'{value[:40]}{'...' if len(value) > 40 else ''}'"
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "a mapping"
    return "nothing" if value is None else repr(value)[:40]


def value_error(key: Key, value: Any) -> str | None:
    """What is wrong with ``value`` written out for ``key`` (None if nothing is, or if it is a
    ``${field}`` or a type the drawer checks alone): the same words the printer would use."""
    if isinstance(value, str) and "${" in value:
        return None
    t = key.type
    if t in ("length", "size"):
        least = 0.0 if t == "size" else -MAX_MM
        if isinstance(value, str) and _PERCENT.fullmatch(value.replace(" ", "")):
            return None
        v = _number(value)
        if v is None:
            return f"{key.name}: expected a length in mm or a percentage, not {_shown(value)}"
        if not least <= v <= MAX_MM:
            return f"{key.name}: {v:g} mm is out of range ({least:g} to {MAX_MM:g})"
        return None
    if t == "number":
        v = _number(value)
        lo = -math.inf if key.lo is None else key.lo
        hi = math.inf if key.hi is None else key.hi
        if v is None:
            return f"{key.name} must be a number, not {_shown(value)}"
        if not lo <= v <= hi:
            return f"{key.name} must be between {lo:g} and {hi:g}, not {_shown(value)}"
        return None
    if t == "angle":
        v = _number(value) if not isinstance(value, str) else None
        if v is None or abs(v) > MAX_ANGLE:
            return (f"{key.name} must be an angle in degrees (at most {MAX_ANGLE:g} either "
                    f"way), not {_shown(value)}")
        return None
    if t == "points":
        return points_error(value)
    if t == "gradient":
        return gradient_error(value)
    return None


def points_error(value: Any) -> str | None:
    """A polygon's ``points`` written out: three or more ``[x, y]`` pairs of lengths."""
    if isinstance(value, str) and "${" in value:
        return None
    if not isinstance(value, list) or not 3 <= len(value) <= MAX_POINTS:
        return (f"points must be a list of 3 to {MAX_POINTS} corners [x, y], not "
                f"{_shown(value)}")
    coord = Key("points", "length", "")
    for i, p in enumerate(value):
        if not isinstance(p, list) or len(p) != 2:
            return f"corner {i + 1} of points must be [x, y], not {_shown(p)}"
        for v in p:
            msg = value_error(coord, v)
            if msg:
                return f"corner {i + 1} of {msg}"
    return None


def gradient_error(value: Any) -> str | None:
    """A ``gradient`` written out: ``{kind, colors, angle}`` (its colours are checked with the
    palette, by the face check)."""
    if isinstance(value, str) and "${" in value:
        return None
    if not isinstance(value, dict):
        return (f"gradient must be a mapping such as {{colors: [gold, brown], angle: 90}}, "
                f"not {_shown(value)}")
    for k in value:
        if k not in GRADIENT_KEYS:
            return f"unknown key '{k}' in a gradient (expected one of: {', '.join(GRADIENT_KEYS)})"
    kind = value.get("kind", "linear")
    if kind not in GRADIENT_KINDS:
        return f"a gradient's kind must be one of: {', '.join(GRADIENT_KINDS)}, not {_shown(kind)}"
    colors = value.get("colors")
    if isinstance(colors, str) and "${" in colors:
        return None
    if not isinstance(colors, list) or not 2 <= len(colors) <= MAX_STOPS:
        return (f"a gradient needs colors: a list of 2 to {MAX_STOPS} colours, not "
                f"{_shown(colors)}")
    if "angle" in value:
        return value_error(Key("angle", "angle", ""), value["angle"])
    return None
