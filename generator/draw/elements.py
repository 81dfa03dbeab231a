"""Elements (the YAML's layout data) -> Drawing primitives, for one face of one component.

This is where ``${field}`` references are filled in (components/fields.py), ``repeat`` draws
its copies, ``when``/``unless`` decide what is drawn, percentages become millimetres, colours
resolve through the palette, and text boxes are fitted.
Every text box's fitting is recorded, so the build can report what shrank or overflowed.

Each element kind has one drawer, registered with ``@drawer(KIND)`` in ``DRAWERS`` (the
shapes' in ``generator/draw/shapes.py``); its keys are declared once, in
``components/elements.py`` (docs/ADDING_AN_ELEMENT.md).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from components import Component, Game
from components.confine import ConfineError, inside
from components.elements import (
    MAX_CELLS,
    MAX_FONT_PT,
    MAX_MM,
    MAX_STOPS,
    SPECS,
    gradient_error,
)
from components.errors import DefinitionError
from components.facecheck import CellError, item_fields, legend_cells, repeat_items, repeat_wrap
from components.fields import MISSING, REF_RE, evaluate, number_text, paths_in
from components.schema import CHOICES, IMAGE_FITS, choice_error, mark_of, suggest
from components.yamlloc import LocDict
from generator import fonts as fontreg
from generator import images
from generator import text as textfit
from generator.drawing import (
    PT,
    QR,
    Ellipse,
    Gradient,
    Group,
    Icon,
    Image,
    Line,
    Path,
    PathCmd,
    Primitive,
    Rect,
    Style,
    Text,
    one_float,
    one_style,
)
from generator.icons import BUILTIN, DEFAULT_COLOURS
from generator.paths import parse_path

# Bounds on every value a definition gives (a game folder is untrusted): what passes these
# prints, in bounded time and memory (MAX_MM, MAX_FONT_PT, MAX_CELLS: components/elements.py).
MAX_TEXT = 5000  # characters in one text box
MAX_ELEMENTS = 20_000  # elements drawn on one face, every layout it uses counted in full
MAX_QR_BYTES = 1000  # a QR payload (UTF-8); version 40 at level M holds 2331
MAX_USE_DEPTH = 8  # layouts using layouts
_HEX = re.compile(r"#(?:[0-9A-Fa-f]{3}){1,2}")


@dataclass(slots=True)  # (a long deck keeps one for every text of every card)
class FitRecord:
    """How one text box fared: shrunk (size < wanted) or not fitting at all."""

    component: str
    face: str
    field: str
    file: str
    line: int
    wanted: float
    size: float
    fits: bool
    note: str = ""  # "dpi": a raster image printing at ``size`` dpi, below ``wanted``


@dataclass
class Context:
    """What drawing a face needs: the game, the component, its fields, the face's size."""

    game: Game
    comp: Component
    fields: dict[str, Any]
    w: float
    h: float
    bleed: float
    face: str
    fits: list[FitRecord] = field(default_factory=list)
    depth: int = 0
    el: Any = None  # the element being drawn, whose FILE:LINE:COL an error names
    drawn: list[int] = field(default_factory=lambda: [0])  # elements drawn, shared by uses

    def colour(self, value: Any) -> str | None:
        value = self.resolve(value)
        if value is None or value == "none" or value is False:
            return None
        s = str(value)
        if _HEX.fullmatch(s):
            return s
        if s in self.game.palette:
            return self.game.palette[s]
        if s in DEFAULT_COLOURS:
            return DEFAULT_COLOURS[s]
        raise self.error(f"unknown colour '{s[:40]}' (expected '#rrggbb', a palette name or a "
                         "basic colour name)")

    def lookup(self, name: str) -> Any:
        """A field's value by its dotted path (or a ``${...}`` expression's inside)."""
        try:
            value = evaluate(name, self.fields)
        except ValueError as exc:
            raise self.error(str(exc)) from None
        return None if value is MISSING else value

    def resolve(self, value: Any) -> Any:
        """``${name}`` alone -> the field's value (any type); text holding references -> the
        text with them filled in (``"${lane.key}-light"``); anything else as is."""
        if isinstance(value, str) and "${" in value:
            m = REF_RE.fullmatch(value)
            if m:
                return self.lookup(m.group(1))
            return self.substitute(value)
        return value

    def substitute(self, text: str) -> str:
        def repl(m: re.Match[str]) -> str:
            v = self.lookup(m.group(1))
            return "" if v is None else number_text(v)

        return REF_RE.sub(repl, text)

    def num(self, value: Any, axis: str, default: float = 0.0, least: float = -MAX_MM
            ) -> float:
        """A length in mm; ``"50%"`` or ``"100%-8"`` relative to the face's width or height.
        Finite, at least ``least`` (0 for a width) and at most MAX_MM from the origin."""
        value = self.resolve(value)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise self.error(f"expected a length in mm or a percentage, not {_shown(value)}")
        out: float | None = None
        if isinstance(value, (int, float)):
            out = _finite(value)
        else:
            s = value.replace(" ", "")
            m = re.fullmatch(r"(-?\d*\.?\d+)%(([+-])(\d*\.?\d+))?", s)
            if m:
                base = self.w if axis == "x" else self.h
                out = float(m.group(1)) / 100.0 * base
                if m.group(2):
                    off = float(m.group(4))
                    out += off if m.group(3) == "+" else -off
            elif re.fullmatch(r"-?\d*\.?\d+(?:[eE][-+]?\d{1,3})?", s):
                out = _finite(float(s))
        if out is None:
            raise self.error(f"expected a length in mm or a percentage, not {_shown(value)}")
        if not least <= out <= MAX_MM:
            raise self.error(f"{out:g} mm is out of range ({least:g} to {MAX_MM:g})")
        return one_float(out)

    def number(self, value: Any, what: str, lo: float, hi: float) -> float:
        """A plain number (a size in points, an angle, a scale) between ``lo`` and ``hi``."""
        value = self.resolve(value)
        if isinstance(value, str):
            try:
                value = float(value) if len(value) < 40 else None
            except ValueError:
                value = None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.error(f"{what} must be a number, not {_shown(value)}")
        v = _finite(value)
        if v is None or not lo <= v <= hi:
            raise self.error(f"{what} must be between {lo:g} and {hi:g}, not {_shown(value)}")
        return one_float(v)

    def bounded(self, el: dict[str, Any], key: str, default: float) -> float:
        """A number key of ``el`` within the bounds its kind's spec gives it."""
        spec = SPECS[el["type"]].key(key)
        assert spec is not None and spec.lo is not None and spec.hi is not None
        return self.number(el.get(key, default), key, spec.lo, spec.hi)

    def angle(self, el: dict[str, Any]) -> float:
        """``rotate``: degrees clockwise, any angle."""
        value = self.resolve(el.get("rotate", 0))
        if value is None:
            return 0.0
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not math.isfinite(value) or abs(value) > 3600:
            raise self.error(f"rotate must be an angle in degrees (at most 3600 either way), "
                             f"not {_shown(value)}")
        return float(value)

    def choice(self, el: dict[str, Any], key: str, default: str) -> str:
        """An enumerated key's word (``align: center``), checked: a field may give it too."""
        value = self.resolve(el.get(key, default))
        msg = choice_error(key, value, CHOICES[key])
        if msg:
            raise self.error(msg)
        return str(value)

    def error(self, msg: str) -> DefinitionError:
        """A mistake located at the element being drawn (else at its component)."""
        msg = f"{msg} (component '{self.comp.id}', {self.face})"
        mark = getattr(self.el, "mark", None)
        file = getattr(self.el, "file", "")
        if mark and mark[0] and file:
            return DefinitionError(msg, file, mark[0], mark[1])
        return DefinitionError(msg, self.comp.file, self.comp.line)

    def field_given(self, el: dict[str, Any], key: str) -> str:
        """The component's own field that gives ``key`` its whole value (``path: "${art}"``),
        if it does and where it was written is known; else ``""``."""
        m = REF_RE.fullmatch(str(el.get(key, "")))
        name = m.group(1).strip() if m else ""
        if name in self.comp.marks and name in self.fields \
                and self.fields[name] is self.comp.fields.get(name):
            return name
        return ""

    def value_error(self, el: dict[str, Any], key: str, msg: str) -> DefinitionError:
        """A mistake in the value of ``key``: where a component's own field gave it (``path:
        "${art}"``, the art named in a spreadsheet's cell), at that field, naming the layout's
        element; else at the element."""
        name = self.field_given(el, key)
        mark = getattr(el, "mark", None)
        file = getattr(el, "file", "")
        if name:
            where = f"; the layout's {key} at {file}:{mark[0]}" if mark and file else ""
            src, line, col = self.comp.marks[name]
            out = DefinitionError(f"{msg} (component '{self.comp.id}', {self.face}, field "
                                  f"'{name}'{where})", src, line, col)
            out.cause = mark_of(el, key) if isinstance(el, LocDict) and el.file else None
            return out
        return self.error(msg)

    def style(self, el: dict[str, Any], fill_default: Any = None,
              stroke_default: Any = None) -> Style:
        dash = self.resolve(el.get("dash"))
        if dash:
            if not isinstance(dash, list) or not 1 <= len(dash) <= 12:
                raise self.error(f"dash must be a list of dash and gap lengths in mm, such as "
                                 f"[2, 1], not {_shown(dash)}")
            dashes = tuple(self.number(d, "a dash length", 0, 1000) for d in dash)
            if sum(dashes) <= 0:
                raise self.error("dash lengths must not all be 0")
        return one_style(Style(
            fill=self.colour(el.get("fill", fill_default)),
            stroke=self.colour(el.get("stroke", stroke_default)),
            width=self.num(el.get("stroke_width"), "x", 0.3, least=0.0),
            dash=dashes if dash else None,
            gradient=self.gradient(el.get("gradient")),
        ))

    def gradient(self, value: Any) -> Gradient | None:
        """``gradient: {kind, colors, angle}``, its colours through the palette."""
        value = self.resolve(value)
        if value is None:
            return None
        msg = gradient_error(value)
        if msg:
            raise self.error(msg)
        colors = self.resolve(value["colors"])
        if not isinstance(colors, list) or not 2 <= len(colors) <= MAX_STOPS:
            raise self.error(f"a gradient needs colors: a list of 2 to {MAX_STOPS} colours, "
                             f"not {_shown(colors)}")
        stops = tuple(self.colour(c) or "#ffffff" for c in colors)
        angle = self.number(value.get("angle", 0), "a gradient's angle", -3600, 3600)
        return Gradient(str(self.resolve(value.get("kind", "linear"))), stops, angle)


_ICON_NAMES: dict[int, tuple[dict[str, Any], frozenset[str]]] = {}


def icon_names(game: Game) -> frozenset[str]:
    """Every icon name a text may place (built in and the game's own): one set per game, so
    the text caches keyed by it hold one object, not one per text box. Keyed by the game's
    icon table, which is held here so its id stays its own."""
    hit = _ICON_NAMES.get(id(game.icons))
    if hit is not None and hit[0] is game.icons:
        return hit[1]
    names = frozenset(BUILTIN) | frozenset(game.icons)
    if len(_ICON_NAMES) > 16:  # a long-running process (watch) loads games again and again
        _ICON_NAMES.clear()
    _ICON_NAMES[id(game.icons)] = (game.icons, names)
    return names


def _finite(value: float) -> float | None:
    try:
        v = float(value)
    except OverflowError:
        return None
    return v if math.isfinite(v) else None


def _shown(value: Any) -> str:
    """A value as an error message shows it: briefly."""
    if isinstance(value, str):
        return f"'{value[:40]}{'...' if len(value) > 40 else ''}'"
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "a mapping"
    return "nothing" if value is None else repr(value)[:40]


def truthy(value: Any) -> bool:
    return value not in (None, False, 0, "", [], {}, "false", "no")


def layout_elements(ctx: Context, spec: Any) -> list[Any]:
    if isinstance(spec, str):
        if spec not in ctx.game.layouts:
            raise ctx.error(f"unknown layout '{spec}'")
        return list(ctx.game.layouts[spec])
    return list(spec or [])


def draw_elements(ctx: Context, spec: Any) -> list[Primitive]:
    out: list[Primitive] = []
    for el in layout_elements(ctx, spec):
        if not isinstance(el, dict):
            raise ctx.error(f"an element must be a mapping, not {_shown(el)}")
        ctx.el = el
        ctx.drawn[0] += 1
        if ctx.drawn[0] > MAX_ELEMENTS:
            raise ctx.error(f"more than {MAX_ELEMENTS} elements on one face (layouts that use "
                            "layouts many times over?)")
        if "when" in el and not truthy(ctx.resolve(_field_ref(el["when"]))):
            continue
        if "unless" in el and truthy(ctx.resolve(_field_ref(el["unless"]))):
            continue
        out.extend(draw_element(ctx, el))
    return out


def _field_ref(name: Any) -> Any:
    """``when:`` and ``unless:`` name a field (``when: food``): as a reference, ``${food}``."""
    if isinstance(name, str) and not name.startswith("$"):
        return "${" + name + "}"
    return name


Drawer = Callable[["Context", dict[str, Any]], list[Primitive]]
# one drawer per element kind (components/elements.py declares each kind's keys); a test holds
# this table and the specs to the same kinds
DRAWERS: dict[str, Drawer] = {}


def drawer(kind: str) -> Callable[[Drawer], Drawer]:
    """Register the function that draws elements of ``kind``."""
    def register(fn: Drawer) -> Drawer:
        if kind in DRAWERS:
            raise ValueError(f"two drawers for the element kind '{kind}'")
        DRAWERS[kind] = fn
        return fn
    return register


def draw_element(ctx: Context, el: dict[str, Any]) -> list[Primitive]:
    ctx.el = el
    fn = DRAWERS.get(el["type"])
    if fn is None:
        raise ctx.error(f"unknown element type '{el['type']}'")
    return fn(ctx, el)


@drawer("rect")
def draw_rect(ctx: Context, el: dict[str, Any]) -> list[Primitive]:
    n = ctx.num
    x, y = n(el.get("x"), "x"), n(el.get("y"), "y")
    w, h = n(el["w"], "x", least=0.0), n(el["h"], "y", least=0.0)
    if truthy(el.get("bleed")):
        b = ctx.bleed
        # extend past each trim edge the rectangle touches
        x0 = x - b if x <= 0.01 else x
        y0 = y - b if y <= 0.01 else y
        x1 = x + w + b if x + w >= ctx.w - 0.01 else x + w
        y1 = y + h + b if y + h >= ctx.h - 0.01 else y + h
        x, y, w, h = x0, y0, x1 - x0, y1 - y0
    radius = n(el.get("radius"), "x", least=0.0)
    style = ctx.style(el)
    if radius > 0 and ctx.choice(el, "corners", "round") == "cut":
        c = min(radius, w / 2, h / 2)
        pts = [(x + c, y), (x + w - c, y), (x + w, y + c), (x + w, y + h - c),
               (x + w - c, y + h), (x + c, y + h), (x, y + h - c), (x, y + c)]
        return [closed_path(pts, style)]
    return [Rect(x, y, w, h, style, radius)]


@drawer("ellipse")
def draw_ellipse(ctx: Context, el: dict[str, Any]) -> list[Primitive]:
    n = ctx.num
    r = el.get("r")
    rx = n(el.get("rx", r), "x", least=0.0)
    ry = n(el.get("ry", r), "y", least=0.0)
    return [Ellipse(n(el["cx"], "x"), n(el["cy"], "y"), rx, ry, ctx.style(el))]


@drawer("line")
def draw_line(ctx: Context, el: dict[str, Any]) -> list[Primitive]:
    n = ctx.num
    return [Line(n(el["x1"], "x"), n(el["y1"], "y"), n(el["x2"], "x"), n(el["y2"], "y"),
                 ctx.style(el, stroke_default="ink"))]


@drawer("path")
def draw_path(ctx: Context, el: dict[str, Any]) -> list[Primitive]:
    n = ctx.num
    d = ctx.resolve(el["d"])
    if not isinstance(d, str) or len(d) > 100_000:
        raise ctx.error(f"path data must be text of at most 100000 characters, not "
                        f"{_shown(d)}")
    try:
        cmds = parse_path(d)
    except ValueError as exc:
        raise ctx.error(f"bad path data: {exc}") from None
    if not all(abs(v) <= 1e6 for c in cmds for v in c[1:] if isinstance(v, float)):
        raise ctx.error("path data holds a number too large (or not finite)")
    p = Path(cmds, ctx.style(el))
    scale = ctx.number(el.get("scale", 1.0), "scale", -100, 100) or 1.0
    x, y = n(el.get("x"), "x"), n(el.get("y"), "y")
    if scale != 1.0 or x or y:
        return [Group((p,), dx=x, dy=y, scale=scale)]
    return [p]


@drawer("icon")
def draw_icon(ctx: Context, el: dict[str, Any]) -> list[Primitive]:
    n = ctx.num
    name = str(ctx.resolve(el["name"]))
    if name not in ctx.game.icons and name not in BUILTIN:
        raise ctx.error(f"unknown icon '{name}'")
    colour = ctx.colour(el.get("color")) if el.get("color") else None
    x, y = n(el.get("x"), "x"), n(el.get("y"), "y")
    size = n(el.get("size", 5), "x", least=0.0)
    rotate = ctx.angle(el)
    if rotate:
        # turned about the icon's own centre
        return [Group((Icon(name, -size / 2, -size / 2, size, colour),),
                      dx=x + size / 2, dy=y + size / 2, rotate=rotate)]
    return [Icon(name, x, y, size, colour)]


@drawer("qr")
def draw_qr(ctx: Context, el: dict[str, Any]) -> list[Primitive]:
    n = ctx.num
    payload = ctx.substitute(str(ctx.resolve(el["payload"])))
    if len(payload.encode("utf-8")) > MAX_QR_BYTES:
        raise ctx.error(f"a QR payload of {len(payload.encode('utf-8'))} bytes is too long "
                        f"(at most {MAX_QR_BYTES})")
    if not payload:
        raise ctx.error("a QR code needs a payload")
    return [QR(payload, n(el.get("x"), "x"), n(el.get("y"), "y"),
               n(el["size"], "x", least=0.0),
               ctx.colour(el.get("color", "black")) or "#000000")]


@drawer("use")
def draw_use(ctx: Context, el: dict[str, Any]) -> list[Primitive]:
    n = ctx.num
    if ctx.depth >= MAX_USE_DEPTH:
        raise ctx.error(f"layouts use each other more than {MAX_USE_DEPTH} deep (a loop?)")
    given = el.get("with") or {}
    if not isinstance(given, dict):
        raise ctx.error(f"'with' must be a mapping of field: value, not {_shown(given)}")
    with_fields = {str(k): ctx.resolve(v) for k, v in given.items()}
    x, y = n(el.get("x"), "x"), n(el.get("y"), "y")
    rotate = ctx.angle(el)
    sub = Context(ctx.game, ctx.comp, {**ctx.fields, **with_fields}, ctx.w, ctx.h,
                  ctx.bleed, ctx.face, ctx.fits, ctx.depth + 1, drawn=ctx.drawn)
    items = draw_elements(sub, el["layout"])
    return [Group(tuple(items), dx=x, dy=y, rotate=rotate)] if (x or y or rotate) else items


def closed_path(points: list[tuple[float, float]], style: Style) -> Path:
    """A closed outline through ``points``."""
    cmds: list[PathCmd] = [("M", *points[0])]
    cmds += [("L", px, py) for px, py in points[1:]]
    cmds.append(("Z",))
    return Path(tuple(cmds), style)


@drawer("repeat")
def draw_repeat(ctx: Context, el: dict[str, Any]) -> list[Primitive]:
    """The layout once per item of ``over``: the first copy at ``x``, ``y``, each next one
    moved ``dx`` (with ``wrap: N``, N copies to a row, the rows ``dy`` apart; else ``dy``
    too). Each copy knows its item as ``${AS}``, its number as ``${AS_index}`` (from 0)."""
    if ctx.depth >= MAX_USE_DEPTH:
        raise ctx.error(f"layouts use each other more than {MAX_USE_DEPTH} deep (a loop?)")
    over = ctx.resolve(el["over"])
    if isinstance(over, int) and not isinstance(over, bool) and over > MAX_ELEMENTS:
        raise ctx.error(f"repeat {over} times is too many (at most {MAX_ELEMENTS})")
    items = repeat_items(over)
    if items is None:
        raise ctx.error(f"repeat needs a list, a mapping or a whole number, not {_shown(over)}")
    given = el.get("with") or {}
    if not isinstance(given, dict):
        raise ctx.error(f"'with' must be a mapping of field: value, not {_shown(given)}")
    name = str(el.get("as", "item"))
    x, y = ctx.num(el.get("x"), "x"), ctx.num(el.get("y"), "y")
    dx, dy = ctx.num(el.get("dx"), "x"), ctx.num(el.get("dy"), "y")
    wrap = repeat_wrap(ctx.resolve(el.get("wrap")))
    if wrap is None:
        raise ctx.error(f"wrap must be a whole number of copies to a row, not {el['wrap']!r}")
    out: list[Primitive] = []
    for i, item in enumerate(items):
        fields = {**ctx.fields, **item_fields(name, i, item, items)}
        sub = Context(ctx.game, ctx.comp, fields, ctx.w, ctx.h, ctx.bleed, ctx.face, ctx.fits,
                      ctx.depth + 1, drawn=ctx.drawn)
        sub.fields.update({str(k): sub.resolve(v) for k, v in given.items()})
        prims = draw_elements(sub, el["layout"])
        col, row = (i % wrap, i // wrap) if wrap else (i, i)
        ox, oy = x + col * dx, y + row * dy
        out.extend(prims) if not (ox or oy) else out.append(Group(tuple(prims), dx=ox, dy=oy))
    return out


@drawer("image")
def draw_image(ctx: Context, el: dict[str, Any]) -> list[Primitive]:
    """Art fitted to its box (``fit``, ``crop``); a raster image that will print below
    MIN_DPI is noted (an error under ``--strict``)."""
    n = ctx.num
    path = ctx.resolve(el["path"])
    if not isinstance(path, str) or not path or "\0" in path or len(path) > 1000:
        raise ctx.value_error(el, "path", f"an image path must be a file name in the game "
                              f"folder, not {_shown(path)}")
    try:
        full = inside(ctx.game.folder / path, ctx.game.folder)
    except ConfineError as exc:  # outside, a loop of links, a link to nothing, missing
        raise ctx.value_error(el, "path", f"image {_shown(path)} {exc}") from None
    try:
        found = full.is_file()
    except OSError as exc:  # a name too long, a folder on the way unreadable
        raise ctx.value_error(el, "path", f"image {_shown(path)} cannot be read "
                              f"({exc.strerror})") from None
    if not found:
        raise ctx.value_error(el, "path",
                              f"image {_shown(path)} does not exist in the game folder")
    try:
        info = images.verify_image(full)
    except (images.ImageError, OSError) as exc:
        raise ctx.value_error(el, "path", f"image '{path}' {exc}") from None
    fit = str(ctx.resolve(el.get("fit", "contain")))
    if fit not in IMAGE_FITS:
        raise ctx.error(f"fit must be one of {', '.join(IMAGE_FITS)}, not '{fit}'"
                        f"{suggest(fit, IMAGE_FITS)}")
    crop = _crop(ctx, ctx.resolve(el.get("crop")), info, path)
    box = (n(el.get("x"), "x"), n(el.get("y"), "y"), n(el["w"], "x", least=0.0),
           n(el["h"], "y", least=0.0))
    if box[2] <= 0 or box[3] <= 0:
        raise ctx.error(f"image '{path}' needs a positive w and h")
    pl = images.place(info, box, fit, crop)
    if pl.dpi is not None and pl.dpi < images.MIN_DPI - 1e-6:
        file, line = ctx.comp.file, ctx.comp.line
        if isinstance(el, LocDict) and el.file:
            file, line = el.file, el.at("path")[0]
        given = ctx.field_given(el, "path")
        if given:  # the art a spreadsheet's cell (or a component's line) names
            file, line = ctx.comp.marks[given][:2]
        ctx.fits.append(FitRecord(ctx.comp.id, ctx.face, f"image {path}", file, line,
                                  images.MIN_DPI, round(pl.dpi, 1), False, note="dpi"))
    weight = info.shapes * images.SVG_SHAPE_COST if info.vector else 1
    art = Image(str(full), pl.x, pl.y, pl.w, pl.h, weight)
    return [Group((art,), clip=pl.clip)] if pl.clip else [art]


def _crop(ctx: Context, value: Any, info: images.ImageInfo,
          path: str) -> tuple[float, float, float, float] | None:
    if value is None:
        return None
    unit = "the SVG's units" if info.vector else "pixels"
    if not (isinstance(value, list) and len(value) == 4 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        raise ctx.error(f"crop must be [x, y, w, h] in {unit} of '{path}'")
    x, y, w, h = (float(v) for v in value)
    if w <= 0 or h <= 0 or x < 0 or y < 0 or x + w > info.width + 1e-6 or (
            y + h > info.height + 1e-6):
        raise ctx.error(f"crop [{x:g}, {y:g}, {w:g}, {h:g}] is not inside '{path}', which is "
                        f"{info.width:g} x {info.height:g} {unit}")
    return (x, y, w, h)


@drawer("text")
def draw_text(ctx: Context, el: dict[str, Any]) -> list[Primitive]:
    n = ctx.num
    raw = ctx.resolve(el["text"])
    whole = REF_RE.fullmatch(str(el["text"]))
    label = whole.group(1) if whole else str(el["text"])[:24]  # the field, in fit reports
    if isinstance(raw, str):
        raw = ctx.substitute(raw)
    if raw is None:
        return []
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    content = str(raw) if not isinstance(raw, (list, dict)) else None
    if content is None:
        raise ctx.error(f"a text must be text or a number, not {_shown(raw)}")
    if len(content) > MAX_TEXT:
        raise ctx.error(f"a text of {len(content)} characters is too long for one box (at "
                        f"most {MAX_TEXT})")
    if not content.strip():
        return []
    fonts = _fonts(ctx, el.get("font", "body"))
    _check_glyphs(ctx, el, content, fonts, "text")
    _check_icons(ctx, el, content)
    size = ctx.number(el.get("size", 9), "size", 0.5, MAX_FONT_PT)
    min_size = ctx.number(el.get("min_size", min(5.0, size)), "min_size", 0.5, MAX_FONT_PT)
    leading = ctx.number(el.get("leading", 1.2), "leading", 0.5, 5)
    x, y = n(el.get("x"), "x"), n(el.get("y"), "y")
    w, h = n(el["w"], "x", least=0.0), n(el["h"], "y", least=0.0)
    rotate = ctx.angle(el)
    # the text runs along the box's longer side when turned nearer a quarter than a half turn
    quarter = 45 < rotate % 180 < 135
    bw, bh = (h, w) if quarter else (w, h)
    icons = icon_names(ctx.game)
    colour = ctx.colour(el.get("color", "ink")) or "#000000"
    align = ctx.choice(el, "align", "start")
    valign = ctx.choice(el, "valign", "top")
    if rotate % 360 == 0:
        # the same string in the same box and style is laid out once (textfit.text_box)
        prims, result = textfit.text_box(content, fonts, icons, bw, bh, size, min_size,
                                         leading, align, valign, colour)
        out: list[Primitive] = [Group(prims, dx=x, dy=y)]
    else:
        # any angle, clockwise, about the box's centre (a quarter turn fills the same box)
        used, lines, result = textfit.fit(content, fonts, icons, bw, bh, size, min_size,
                                          leading)
        turned = textfit.render_lines(lines, fonts, used, -bw / 2, -bh / 2, bw, bh, align,
                                      valign, leading, colour)
        out = [Group(tuple(turned), dx=x + w / 2, dy=y + h / 2, rotate=rotate)]
    if result.size < result.wanted - 1e-6 or not result.fits:
        ctx.fits.append(FitRecord(ctx.comp.id, ctx.face, label, ctx.comp.file, ctx.comp.line,
                                  result.wanted, result.size, result.fits))
    return out


_ICON_RE = re.compile(r"\{([A-Za-z0-9_\-]+)(?:\*(\d+))?\}")


def _check_icons(ctx: Context, el: dict[str, Any], content: str) -> None:
    """Refuse ``{name}`` in a text when no icon has that name (``{mony}``), and ``{name*N}``
    beyond textfit.MAX_REPEAT: either would print its braces as words on the card."""
    names = icon_names(ctx.game)
    for m in _ICON_RE.finditer(content):
        name, times = m.group(1), m.group(2)
        if name not in names:
            raise ctx.value_error(el, "text", f"unknown icon '{{{name}}}' in a text (icons: "
                                  f"{', '.join(sorted(names))}, and a game's own under icons: "
                                  f"in game.yaml){suggest(name, sorted(names))}")
        if times is not None and int(times) > textfit.MAX_REPEAT:
            raise ctx.value_error(el, "text", f"'{m.group(0)}' draws the icon {int(times)} "
                                  f"times; at most {textfit.MAX_REPEAT}")


def _runs(content: str, fonts: textfit.Setting,
          icons: frozenset[str]) -> list[tuple[str, str]]:
    """The text set in each font: each character in the first font of its chain that has
    it (a character none has stays with the chain's first font, which is then refused)."""
    by_font: dict[str, list[str]] = {}
    for p in textfit.tokenize(content, icons, fonts):
        if p.kind == "word":
            chain = textfit.chain_of(fonts, p.bold, p.italic, p.font)
            for seg in textfit.segments(p.text, chain, p.levels):
                by_font.setdefault(seg[1], []).append(seg[0])
    return [("".join(parts), font) for font, parts in by_font.items()]


@lru_cache(maxsize=16384)
def _lacking(content: str, fonts: textfit.Setting,
             icons: frozenset[str]) -> tuple[tuple[str, str], ...]:
    """(character, font) for each character no font of its chain has (fonts registered)."""
    return tuple((ch, font) for text, font in _runs(content, fonts, icons)
                 for ch in fontreg.missing(font, text))


def _check_glyphs(ctx: Context, el: dict[str, Any], content: str, fonts: textfit.Setting,
                  key: str) -> None:
    """Refuse text with a character its font lacks (it would print as a box), blaming the
    place the character was written: the field it came from, else the element; and refuse a
    span whose style cannot be set."""
    icons = icon_names(ctx.game)
    if "]{" in content:
        problem = textfit.markup_problem(content, dict(fonts.colours),
                                         [name for name, _ in fonts.named])
        if problem:
            raise ctx.value_error(el, key, problem)
    bad = _lacking(content, fonts, icons)
    if not bad:
        return
    runs = _runs(content, fonts, icons)
    ch = bad[0][0]
    where: tuple[str | None, int | None, int | None] = (ctx.comp.file, ctx.comp.line, None)
    source = el.get(key)
    names = [path for m in REF_RE.finditer(str(source)) for path in paths_in(m.group(1))]
    for name in names:
        value = ctx.lookup(name)
        if isinstance(value, str) and ch in ctx.substitute(value) and name in ctx.fields:
            where = ctx.comp.where(name)
            break
    else:
        if key == "text" and isinstance(el, LocDict) and ch in str(source):
            line, col = el.at("text")
            where = (el.file or ctx.comp.file, line, col)
    label = f"component '{ctx.comp.id}' ({ctx.face}, {key} {str(source)[:24]!r})"
    fontreg.check_text(ctx.game, runs, where, label)


_SETTINGS: dict[tuple[int, tuple[str, ...]], tuple[Game, textfit.Setting]] = {}
MAX_FONT_CHAIN = 8


def _fonts(ctx: Context, font: Any) -> textfit.Setting:
    """How the element's text is set: ``font`` (a style, or a list of styles: each
    character in the first that has it), with the game's bold and italic, its named fonts for
    spans, its colours, keywords and hyphenation. One ``Setting`` per game and font list."""
    fontreg.prepare(ctx.game)
    value = ctx.resolve(font)
    names = tuple(str(ctx.resolve(v)) for v in value) if isinstance(value, list) else (
        str(value),)
    if not 1 <= len(names) <= MAX_FONT_CHAIN:
        raise ctx.error(f"a font list names 1 to {MAX_FONT_CHAIN} fonts, not {len(names)}")
    key = (id(ctx.game), names)
    hit = _SETTINGS.get(key)
    if hit is not None and hit[0] is ctx.game:
        return hit[1]
    f = ctx.game.fonts
    regular, bold = _font_pair(ctx, names[0])
    rest = tuple(dict.fromkeys(_font_pair(ctx, n)[0] for n in names[1:]))
    italic = f.get("italic", "Helvetica-Oblique") if names[0] in ("body", "italic") else regular
    bold_italic = f.get("bold_italic") or (
        "Helvetica-BoldOblique" if bold == "Helvetica-Bold" else bold)

    def chain(first: str) -> tuple[str, ...]:
        return (first, *(r for r in rest if r != first))

    colours = {**DEFAULT_COLOURS, **ctx.game.palette}
    keywords = []
    for word, kw in sorted(ctx.game.keywords.items()):
        colour = None
        if kw.color is not None:
            colour = kw.color if _HEX.fullmatch(kw.color) else colours.get(kw.color)
            if colour is None:
                raise DefinitionError(f"unknown colour '{kw.color[:40]}' for keyword '{word}' "
                                      "(expected '#rrggbb', a palette name or a basic colour "
                                      "name)", kw.file or None, kw.line or None, kw.col or None)
        keywords.append((word, textfit.SpanStyle(kw.bold, kw.italic, colour, kw.scale,
                                                 kw.font)))
    setting = textfit.setting(
        chain(regular), chain(bold), chain(italic), chain(bold_italic),
        tuple((name, chain(font_name)) for name, font_name in sorted(f.items())),
        tuple(sorted(colours.items())), tuple(keywords), ctx.game.hyphenate)
    if len(_SETTINGS) > 256:  # a long-running process (watch) loads games again and again
        _SETTINGS.clear()
    _SETTINGS[key] = (ctx.game, setting)
    return setting


def _font_pair(ctx: Context, name: str) -> tuple[str, str]:
    """A style's font and the bold that goes with it."""
    f = ctx.game.fonts
    if name == "bold":
        return (f.get("bold", "Helvetica-Bold"), f.get("bold", "Helvetica-Bold"))
    if name == "italic":
        return (f.get("italic", "Helvetica-Oblique"), f.get("bold", "Helvetica-Bold"))
    if name == "body":
        return (f.get("body", "Helvetica"), f.get("bold", "Helvetica-Bold"))
    if name in f:
        return (f[name], f.get("bold", "Helvetica-Bold"))
    from components.schema import STANDARD_FONTS

    if name not in STANDARD_FONTS:
        raise ctx.error(f"unknown font '{name}' (expected body, bold, italic or a PDF font)")
    return (name, f.get("bold", "Helvetica-Bold"))


PIP_LAYOUT: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.5), (0.75, 0.5)],
    3: [(0.2, 0.5), (0.5, 0.5), (0.8, 0.5)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.2), (0.75, 0.2), (0.25, 0.5), (0.75, 0.5), (0.25, 0.8), (0.75, 0.8)],
}


@drawer("pips")
def draw_pips(ctx: Context, el: dict[str, Any]) -> list[Primitive]:
    n = ctx.num
    count = ctx.resolve(el["n"])
    x, y, w, h = n(el.get("x"), "x"), n(el.get("y"), "y"), n(el["w"], "x"), n(el["h"], "y")
    colour = ctx.colour(el.get("color", "ink"))
    if count in (None, "x", "X"):
        count = 0
    if count == "?":
        fonts = _fonts(ctx, "bold")
        size = min(w, h) / PT * 0.9
        return [Text(x + w / 2, y + h / 2 + size * PT * 0.35, "?", fonts[0], size,
                             colour or "#000000", "middle")]
    try:
        k = int(count)
    except (TypeError, ValueError):
        raise ctx.error(f"pips need a number 0 to 9, not '{count}'") from None
    if not 0 <= k <= 9:
        raise ctx.error(f"pips need a number 0 to 9, not {k}")
    if k == 0:
        s = min(w, h) * 0.3
        cx, cy = x + w / 2, y + h / 2
        st = Style(stroke=colour, width=max(0.4, s * 0.25))
        return [Line(cx - s, cy - s, cx + s, cy + s, st), Line(cx - s, cy + s, cx + s, cy - s, st)]
    r = n(el.get("r"), "x", min(w, h) * (0.14 if k <= 3 else 0.1))
    spots = PIP_LAYOUT.get(k) or [((i % 3 + 0.5) / 3, (i // 3 + 0.5) / 3) for i in range(k)]
    if w > 2.2 * h and k <= 3:  # a long strip: pips side by side
        spots = [((i + 0.5) / k, 0.5) for i in range(k)]
    return [Ellipse(x + fx * w, y + fy * h, r, r, Style(fill=colour)) for fx, fy in spots]


@drawer("grid")
def draw_grid(ctx: Context, el: dict[str, Any]) -> list[Primitive]:
    n = ctx.num
    x, y = n(el.get("x"), "x"), n(el.get("y"), "y")
    cols = int(ctx.number(el["cols"], "cols", 1, MAX_CELLS))
    rows = int(ctx.number(el["rows"], "rows", 1, MAX_CELLS))
    if cols * rows > MAX_CELLS:
        raise ctx.error(f"a grid of {cols} x {rows} cells is too large (at most {MAX_CELLS})")
    ctx.drawn[0] += cols * rows
    if ctx.drawn[0] > MAX_ELEMENTS:
        raise ctx.error(f"more than {MAX_ELEMENTS} elements on one face")
    cw, ch = n(el["cell_w"], "x", least=0.0), n(el["cell_h"], "y", least=0.0)
    fill = ctx.resolve(el.get("fill"))
    labels = ctx.resolve(el.get("labels")) or []
    if "cells" in el:  # each cell's fill and label from its mark's legend entry
        skip_rows = int(ctx.number(el.get("skip_rows", 0), "skip_rows", 0, MAX_CELLS))
        skip_cols = int(ctx.number(el.get("skip_cols", 0), "skip_cols", 0, MAX_CELLS))
        try:
            fill, labels = legend_cells(ctx.resolve(el["cells"]), ctx.resolve(el.get("legend")),
                                        rows, cols, skip_rows, skip_cols, fill=fill)
        except CellError as exc:
            src, line, col = mark_of(exc.node, exc.key)
            if src and line:
                raise DefinitionError(f"{exc} (component '{ctx.comp.id}', {ctx.face})", src,
                                      line, col or None) from None
            raise ctx.error(str(exc)) from None
    if not isinstance(labels, list):
        raise ctx.error(f"a grid's labels must be a list, not {_shown(labels)}")
    stroke = ctx.colour(el.get("stroke", "ink"))
    width = n(el.get("stroke_width"), "x", 0.3, least=0.0)
    size = ctx.number(el.get("size", 7), "size", 0.5, MAX_FONT_PT)
    fonts = _fonts(ctx, el.get("font", "body"))
    colour = ctx.colour(el.get("color", "ink")) or "#000000"
    out: list[Primitive] = []
    for r in range(rows):
        for c in range(cols):
            i = r * cols + c
            cell_fill = fill[i] if isinstance(fill, list) and i < len(fill) else (
                None if isinstance(fill, list) else fill)
            out.append(Rect(x + c * cw, y + r * ch, cw, ch,
                            Style(fill=ctx.colour(cell_fill), stroke=stroke, width=width)))
            if i < len(labels) and labels[i] not in (None, ""):
                label = ctx.substitute(str(labels[i]))
                _check_glyphs(ctx, {"labels": labels[i]}, label, fonts, "labels")
                icons = icon_names(ctx.game)
                used, lines, result = textfit.fit(label, fonts, icons, cw - 1.0, ch - 1.0, size,
                                                  min(4.0, size), 1.1)
                if not result.fits or used < size - 1e-6:
                    ctx.fits.append(FitRecord(ctx.comp.id, ctx.face, f"grid label {label!r}",
                                              ctx.comp.file, ctx.comp.line, size, used,
                                              result.fits))
                out.extend(textfit.render_lines(lines, fonts, used, x + c * cw + 0.5,
                                                y + r * ch + 0.5, cw - 1.0, ch - 1.0, "center",
                                                "middle", 1.1, colour))
    return out


# the shapes' drawers (polygon, regular, star) register themselves in DRAWERS
from generator.draw import shapes as _shapes  # noqa: E402,F401
