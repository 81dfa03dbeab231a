"""The backend-neutral Drawing: primitives in millimetres, origin top-left, y downward.

A Drawing is what one face of one component looks like, in the component's own coordinates
(the trim box is (0, 0, w, h); art may extend by the bleed past it). Both backends render the
same Drawing, so the PDF and the SVG show the same picture. Text arrives here already laid out
(wrapped, shrunk, split into runs), so both backends place the very same glyph runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

PT = 25.4 / 72.0  # millimetres per point


def bounds(cmds: tuple[PathCmd, ...]) -> tuple[float, float, float, float]:
    """A path's box (x, y, w, h) over its points (control points included)."""
    xs = [float(v) for cmd in cmds for v in cmd[1::2]]
    ys = [float(v) for cmd in cmds for v in cmd[2::2]]
    if not xs or not ys:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


@dataclass(frozen=True, slots=True)
class Gradient:
    """A fill running through ``colors`` (evenly spaced) across the shape's bounding box:
    ``linear`` along ``angle`` degrees clockwise from left-to-right, ``radial`` from the box's
    centre out to the box's longer half side."""

    kind: str  # linear | radial
    colors: tuple[str, ...]
    angle: float = 0.0

    def line(self, box: tuple[float, float, float, float]
             ) -> tuple[float, float, float, float]:
        """Where a linear gradient starts and ends (x0, y0, x1, y1) across ``box`` (x, y, w,
        h): through the centre along the angle, as long as the box's extent that way."""
        x, y, w, h = box
        a = math.radians(self.angle)
        dx, dy = math.cos(a), math.sin(a)  # y downward: clockwise
        half = (abs(dx) * w + abs(dy) * h) / 2
        cx, cy = x + w / 2, y + h / 2
        return (cx - dx * half, cy - dy * half, cx + dx * half, cy + dy * half)

    def circle(self, box: tuple[float, float, float, float]) -> tuple[float, float, float]:
        """A radial gradient's centre and radius (cx, cy, r) in ``box``."""
        x, y, w, h = box
        return (x + w / 2, y + h / 2, max(w, h) / 2)


@dataclass(frozen=True, slots=True)
class Style:
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.3
    dash: tuple[float, ...] | None = None
    gradient: Gradient | None = None  # paints the shape instead of ``fill``


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    style: Style
    radius: float = 0.0


@dataclass(frozen=True, slots=True)
class Ellipse:
    cx: float
    cy: float
    rx: float
    ry: float
    style: Style


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    style: Style


# Path commands are absolute: ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",)
PathCmd = tuple[str | float, ...]


@dataclass(frozen=True, slots=True)
class Path:
    cmds: tuple[PathCmd, ...]
    style: Style


@dataclass(frozen=True, slots=True)
class Text:
    """One run of text on a baseline: ``x`` is where ``anchor`` sits.

    A shaped run (Arabic, Devanagari, an emoji: ``generator.shaping``) carries its glyphs,
    (glyph id, x, y) in mm from (x, y), in the order they are drawn; ``text`` is then its
    characters in reading order, for a reader's search and copy."""

    x: float
    y: float
    text: str
    font: str
    size: float  # points
    color: str
    anchor: str = "start"  # start | middle | end
    glyphs: tuple[tuple[int, float, float], ...] = ()


@dataclass(frozen=True, slots=True)
class Icon:
    """A named vector icon drawn into the square (x, y, size, size)."""

    name: str
    x: float
    y: float
    size: float
    color: str | None = None


@dataclass(frozen=True, slots=True)
class QR:
    payload: str
    x: float
    y: float
    size: float
    color: str = "#000000"


@dataclass(frozen=True, slots=True)
class Image:
    path: str
    x: float
    y: float
    w: float
    h: float
    weight: int = 1  # the shapes drawing it costs (SVG art: its elements), for the shape limit


@dataclass(frozen=True, slots=True)
class Group:
    """Items moved by (dx, dy), then turned by ``rotate`` degrees clockwise about that point,
    scaled by ``scale``, and optionally clipped to ``clip`` (in the group's coordinates)."""

    items: tuple[Primitive, ...]
    dx: float = 0.0
    dy: float = 0.0
    rotate: float = 0.0
    scale: float = 1.0
    clip: tuple[float, float, float, float] | None = None


Primitive = Rect | Ellipse | Line | Path | Text | Icon | QR | Image | Group


def _pickled_by_fields(cls: type) -> None:
    """``cls`` pickled as a call of itself with its fields' values: the drawing processes
    of a print with --jobs send their faces so, in half the time the dataclass's own state
    (a Python loop over ``fields()`` each way) takes (issue 28)."""
    from dataclasses import fields
    from operator import attrgetter

    values = attrgetter(*(f.name for f in fields(cls)))

    def __reduce__(self: object) -> tuple[type, tuple[object, ...]]:  # noqa: N807
        return cls, values(self)

    cls.__reduce__ = __reduce__  # type: ignore[method-assign,assignment]


for _cls in (Gradient, Style, Rect, Ellipse, Line, Path, Text, Icon, QR, Image, Group):
    _pickled_by_fields(_cls)


# Values a long deck repeats on every card (the same lengths, the same styles), each kept as
# one object, however many primitives hold it: a float is 24 bytes, a Style 80, and a deck of
# 10,000 cards held hundreds of thousands of equal ones. Bounded: a table past MAX_SHARED
# entries starts again (a value then made anew is only an equal object, never a wrong one).
MAX_SHARED = 4096
_FLOATS: dict[float, float] = {}
_STYLES: dict[str, Style] = {}


def one_float(v: float) -> float:
    """``v``, as the one float object kept for its value."""
    if v == 0.0:
        return v  # (0.0 and -0.0 are equal, but are not written the same)
    hit = _FLOATS.get(v)
    if hit is None:
        if len(_FLOATS) >= MAX_SHARED:
            _FLOATS.clear()
        hit = _FLOATS[v] = v
    return hit


def one_style(style: Style) -> Style:
    """``style``, as the one Style object kept for what it says (its ``repr``: -0.0 and 0.0
    are told apart, as the backends write them)."""
    key = repr(style)
    hit = _STYLES.get(key)
    if hit is None:
        if len(_STYLES) >= MAX_SHARED:
            _STYLES.clear()
        hit = _STYLES[key] = style
    return hit


def shape_box(it: Rect | Ellipse | Path) -> tuple[float, float, float, float]:
    """The box (x, y, w, h) a shape's gradient spans."""
    if isinstance(it, Rect):
        return (it.x, it.y, it.w, it.h)
    if isinstance(it, Ellipse):
        return (it.cx - it.rx, it.cy - it.ry, 2 * it.rx, 2 * it.ry)
    return bounds(it.cmds)


class FaceKey:
    """A face's identity by its content: its size, its bleed and every primitive, compared by
    value. Two faces that look the same have equal keys, whichever component or side they
    belong to, so a backend draws the picture once and places it for each. The hash is taken
    once (primitives are immutable), and equal hashes are confirmed by comparing the content.
    """

    __slots__ = ("content", "_hash")

    def __init__(self, content: tuple[object, ...]) -> None:
        self.content = content
        self._hash = hash(content)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return (self is other or isinstance(other, FaceKey) and self._hash == other._hash
                and self.content == other.content)

    def __repr__(self) -> str:
        return f"FaceKey({self._hash:x})"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # (its hash sent with it: a forked process's hashes are this one's)
        return _face_key, (self.content, self._hash)


def _face_key(content: tuple[object, ...], hash_: int) -> FaceKey:
    key = FaceKey.__new__(FaceKey)
    key.content = content
    key._hash = hash_
    return key


@dataclass(slots=True)  # (a long deck holds one for every card's front)
class Drawing:
    """One face of a component: its trim size, its bleed, and its primitives."""

    w: float
    h: float
    bleed: float
    # a list while the face is drawn, the same primitives as a tuple once its identity is
    # taken (one copy of them, not two: a long deck holds every face)
    items: list[Primitive] | tuple[Primitive, ...] = field(default_factory=list)
    key: str = ""  # unique name of this drawing (component id, face), for people and messages
    _identity: FaceKey | None = field(default=None, init=False, repr=False, compare=False)
    # what is kept with a drawing (it never changes once drawn) by a watch's builds, and sent
    # with it by the drawing processes of a print with --jobs: its content's digest and the
    # characters of each font it sets (generator.incremental), its shapes (generator.build)
    _content_digest: tuple[str, tuple[str, ...]] | None = field(
        default=None, init=False, repr=False, compare=False)
    _font_chars: dict[str, str] | None = field(default=None, init=False, repr=False,
                                               compare=False)
    _shape_count: int | None = field(default=None, init=False, repr=False, compare=False)

    def add(self, item: Primitive) -> None:
        items = self.items if isinstance(self.items, list) else list(self.items)
        items.append(item)
        self.items = items
        self._identity = None

    def identity(self) -> FaceKey:
        """What this face looks like, as a key: equal for faces that draw the same picture.
        Its primitives are kept as a tuple from then on (the key holds that one)."""
        if self._identity is None:
            self.items = tuple(self.items)
            self._identity = FaceKey((self.w, self.h, self.bleed, self.items))
        return self._identity

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # (what was worked out of it goes with it: see the fields above)
        return _drawing, (self.w, self.h, self.bleed, self.items, self.key, self._identity,
                          self._content_digest, self._font_chars, self._shape_count)


def _drawing(w: float, h: float, bleed: float, items: list[Primitive] | tuple[Primitive, ...],
             key: str, identity: FaceKey | None, content: tuple[str, tuple[str, ...]] | None,
             chars: dict[str, str] | None, shapes: int | None) -> Drawing:
    d = Drawing(w, h, bleed, items, key)
    d._identity, d._content_digest, d._font_chars = identity, content, chars
    d._shape_count = shapes
    return d


def walk(items: tuple[Primitive, ...] | list[Primitive]) -> list[Primitive]:
    """Every primitive, groups flattened (for tests and caches)."""
    out: list[Primitive] = []
    for item in items:
        if isinstance(item, Group):
            out.extend(walk(item.items))
        else:
            out.append(item)
    return out
