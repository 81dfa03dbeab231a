"""Sheets -> SVG files (svgwrite), one per sheet side, in millimetres (viewBox = the page).

Each distinct face on a sheet (known by its content, ``Drawing.identity``) is defined once under
``<defs>`` and placed with one ``<use>`` per copy, clipped like the PDF by a clip path shared by
every placement with the same box. A face's svgwrite elements are built once per build and
reused by every sheet that shows it (a deck's backs). Every font's glyphs travel in the file as
in the PDF (Helvetica as its embedded, metric-compatible stand-in, ``fonts.embeddable``), so
text measured for the PDF sets the same way here.
"""

from __future__ import annotations

import base64
import itertools
import mimetypes
from collections import OrderedDict
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path as FsPath
from typing import Any

import svgwrite
from svgwrite.base import Desc
from svgwrite.container import Group as SvgGroup

from generator.drawing import (
    PT,
    QR,
    Drawing,
    Ellipse,
    FaceKey,
    Group,
    Icon,
    Image,
    Line,
    Path,
    Primitive,
    Rect,
    Style,
    Text,
    shape_box,
)
from generator.fonts import BASIC, embeddable, face_style, font_face_css, is_embedded, is_house
from generator.layout import Sheet, face_box
from generator.qr import qr_rects

IconSource = Callable[[str, str | None], list[Primitive]]

FAMILIES = {
    "Helvetica": "Helvetica, Arial, 'Liberation Sans', sans-serif",
    "Times": "'Times New Roman', Times, 'Liberation Serif', serif",
    "Courier": "'Courier New', Courier, 'Liberation Mono', monospace",
    "Symbol": "Symbol",
    "ZapfDingbats": "ZapfDingbats",
}


def font_attrs(font: str) -> dict[str, str]:
    font = embeddable(font)
    if is_embedded(font):
        # a game's own font: its glyphs travel inside the SVG (see embedded_fonts()); a
        # renderer that ignores @font-face looks for an installed font of its family
        face = face_style(font)
        if face is None or not face[0]:
            return {"font_family": f"'{font}'"}
        family, weight, italic = face
        # irata's own lettering falls back on Helvetica's metric twins, as it did before
        rest = FAMILIES["Helvetica"] if is_house(font) else "sans-serif"
        attrs = {"font_family": f"'{font}', '{family}', {rest}"}
        if weight != 400:
            attrs["font_weight"] = str(weight)
        if italic:
            attrs["font_style"] = "italic"
        return attrs
    family = font.split("-")[0]
    style = font.split("-")[1] if "-" in font else ""
    attrs = {"font_family": FAMILIES.get(family, family)}
    if "Bold" in style:
        attrs["font_weight"] = "bold"
    if "Oblique" in style or "Italic" in style:
        attrs["font_style"] = "italic"
    return attrs


@lru_cache(maxsize=65536)
def _f(v: float) -> str:
    """A length for the file: at most 3 decimals, no trailing zeros (cached: coordinates
    repeat across faces and sheets)."""
    if v == 0:
        return "0"
    return f"{v:.3f}".rstrip("0").rstrip(".") or "0"


def style_attrs(st: Style) -> dict[str, Any]:
    out: dict[str, Any] = {"fill": st.fill or "none"}
    if st.stroke:
        out["stroke"] = st.stroke
        out["stroke_width"] = _f(st.width)
        if st.dash:
            out["stroke_dasharray"] = " ".join(_f(d) for d in st.dash)
    return out


def path_data(cmds: tuple[tuple[str | float, ...], ...]) -> str:
    parts = []
    for cmd in cmds:
        parts.append(str(cmd[0]) + " ".join(_f(float(v)) for v in cmd[1:]))
    return " ".join(parts)


def text_attrs(it: Text) -> dict[str, str]:
    """A glyph run's presentation attributes: font, size, colour, anchor."""
    attrs = font_attrs(it.font)
    attrs["font_size"] = _f(it.size * PT)
    attrs["fill"] = it.color
    if it.anchor != "start":
        attrs["text_anchor"] = it.anchor
    return attrs


class SvgRenderer:
    """Primitives -> svgwrite elements. Clip paths are shared: one per distinct box."""

    def __init__(self, dwg: svgwrite.Drawing, icons: IconSource,
                 ids: Iterator[int] | None = None) -> None:
        self.dwg = dwg
        self.icons = icons
        self.ids = ids if ids is not None else itertools.count(1)
        self.new_clips: list[Any] = []  # clip paths made since the caller last took them

    def clip_id(self, box: tuple[float, float, float, float]) -> str:
        """A clip path for a group inside a drawing; the caller adds ``new_clips`` to the
        defs of every file that shows the drawing."""
        cid = f"k{next(self.ids)}"
        cp = self.dwg.clipPath(id=cid)
        cp.add(self.dwg.rect((_f(box[0]), _f(box[1])), (_f(box[2]), _f(box[3]))))
        self.new_clips.append(cp)
        return cid

    def paint(self, it: Rect | Ellipse | Path) -> dict[str, Any]:
        """A shape's presentation attributes; a gradient fill becomes a gradient of the defs
        (kept with the clip paths, so it travels with the face)."""
        attrs = style_attrs(it.style)
        g = it.style.gradient
        if g is None:
            return attrs
        gid = f"k{next(self.ids)}"
        box = shape_box(it)
        if g.kind == "radial":
            cx, cy, r = g.circle(box)
            grad = self.dwg.radialGradient(center=(_f(cx), _f(cy)), r=_f(max(r, 1e-3)),
                                           id=gid, gradientUnits="userSpaceOnUse")
        else:
            x0, y0, x1, y1 = g.line(box)
            grad = self.dwg.linearGradient(start=(_f(x0), _f(y0)), end=(_f(x1), _f(y1)),
                                           id=gid, gradientUnits="userSpaceOnUse")
        last = len(g.colors) - 1
        for i, colour in enumerate(g.colors):
            grad.add_stop_color(_f(i / last), colour)
        self.new_clips.append(grad)
        attrs["fill"] = f"url(#{gid})"
        return attrs

    def take_clips(self) -> list[Any]:
        out, self.new_clips = self.new_clips, []
        return out

    def draw(self, parent: Any, items: list[Primitive] | tuple[Primitive, ...]) -> None:
        d = self.dwg
        lines: list[Line] = []
        for it in items:
            if isinstance(it, Line):
                if lines and it.style != lines[0].style:
                    self.lines(parent, lines)
                    lines = []
                lines.append(it)  # lines of one style (marks, rulers) share one path
                continue
            if lines:
                self.lines(parent, lines)
                lines = []
            if isinstance(it, Rect):
                el = d.rect((_f(it.x), _f(it.y)), (_f(it.w), _f(it.h)), **self.paint(it))
                if it.radius > 0:
                    el["rx"] = _f(it.radius)
                    el["ry"] = _f(it.radius)
                parent.add(el)
            elif isinstance(it, Text) and it.glyphs:
                self.shaped(parent, it)
            elif isinstance(it, Text):
                el = d.text(it.text, insert=(_f(it.x), _f(it.y)), **text_attrs(it))
                el["xml:space"] = "preserve"
                parent.add(el)
            elif isinstance(it, Ellipse):
                parent.add(d.ellipse((_f(it.cx), _f(it.cy)), (_f(it.rx), _f(it.ry)),
                                     **self.paint(it)))
            elif isinstance(it, Path):
                parent.add(d.path(d=path_data(it.cmds), **self.paint(it)))
            elif isinstance(it, Group) and not (it.clip or it.rotate or it.scale != 1.0) and all(
                    isinstance(t, Text) and not t.glyphs for t in it.items):
                # a text box only moved: its runs placed directly, without a group
                for t in it.items:
                    assert isinstance(t, Text)
                    el = d.text(t.text, insert=(_f(t.x + it.dx), _f(t.y + it.dy)),
                                **text_attrs(t))
                    el["xml:space"] = "preserve"
                    parent.add(el)
            elif isinstance(it, Group):
                g = self.dwg.g()
                tf = []
                if it.dx or it.dy:
                    tf.append(f"translate({_f(it.dx)} {_f(it.dy)})")
                if it.rotate:
                    tf.append(f"rotate({_f(it.rotate)})")
                if it.scale != 1.0:
                    tf.append(f"scale({_f(it.scale)})")
                if tf:
                    g["transform"] = " ".join(tf)
                if it.clip:
                    inner = self.dwg.g(clip_path=f"url(#{self.clip_id(it.clip)})")
                    g.add(inner)
                    self.draw(inner, it.items)
                else:
                    self.draw(g, it.items)
                parent.add(g)
            elif isinstance(it, Icon):
                g = self.dwg.g(transform=f"translate({_f(it.x)} {_f(it.y)}) "
                                       f"scale({_f(it.size / 10.0)})")
                self.draw(g, self.icons(it.name, it.color))
                parent.add(g)
            elif isinstance(it, QR):
                parent.add(d.rect((_f(it.x), _f(it.y)), (_f(it.size), _f(it.size)),
                                  fill="#ffffff"))
                dpath = " ".join(f"M{_f(x)} {_f(y)}h{_f(w)}v{_f(h)}h{_f(-w)}z"
                                 for x, y, w, h in qr_rects(it.payload, it.x, it.y, it.size))
                parent.add(d.path(d=dpath, fill=it.color, **{"shape-rendering": "crispEdges"}))
            elif isinstance(it, Image):
                href = _data_uri(it.path, FsPath(it.path).stat().st_mtime_ns)
                parent.add(d.image(href, insert=(_f(it.x), _f(it.y)), size=(_f(it.w), _f(it.h)),
                                   preserveAspectRatio="none"))
        if lines:
            self.lines(parent, lines)

    def shaped(self, parent: Any, it: Text) -> None:
        """A shaped run as the glyphs' outlines (colour glyphs in their colours, bitmaps as
        images): the PDF draws the very same, so both show the same shapes at the same
        places. The characters go with it as the group's label, for search and readers."""
        from generator.shaping import Picture, run_art

        g = self.dwg.g(**{"aria-label": it.text})
        for art in run_art(it):
            if isinstance(art, Picture):
                href = "data:image/png;base64," + base64.b64encode(art.png).decode("ascii")
                g.add(self.dwg.image(href, insert=(_f(art.x), _f(art.y)),
                                     size=(_f(art.w), _f(art.h)), preserveAspectRatio="none"))
            else:
                self.draw(g, [art])
        parent.add(g)

    def lines(self, parent: Any, lines: list[Line]) -> None:
        """Lines of one style as one path of separate segments."""
        dpath = " ".join(f"M{_f(ln.x1)} {_f(ln.y1)}L{_f(ln.x2)} {_f(ln.y2)}" for ln in lines)
        parent.add(self.dwg.path(d=dpath, **style_attrs(lines[0].style)))


class FaceCache:
    """Each distinct face's svgwrite group, built once and reused by every sheet showing it,
    with the clip paths it needs (their ids unique within the build). Bounded: the least
    recently used faces are dropped, so memory does not grow with the deck."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.ids = itertools.count(1)
        self.faces: OrderedDict[FaceKey, tuple[SvgGroup, list[Any]]] = OrderedDict()

    def get(self, d: Drawing, r: SvgRenderer) -> tuple[SvgGroup, list[Any]]:
        key = d.identity()
        hit = self.faces.get(key)
        if hit is not None:
            self.faces.move_to_end(key)
            return hit
        g = r.dwg.g()
        ids, r.ids = r.ids, self.ids
        r.take_clips()
        try:
            r.draw(g, d.items)
        finally:
            r.ids = ids
        entry = (g, r.take_clips())
        self.faces[key] = entry
        if len(self.faces) > self.size:
            self.faces.popitem(last=False)
        return entry


@lru_cache(maxsize=64)
def _data_uri(path: str, mtime: int = 0) -> str:
    """The image inlined, so an SVG sheet stands alone wherever it is copied (read again when
    the file's time changes: ``irata print --watch``)."""
    data = FsPath(path).read_bytes()
    mime = mimetypes.guess_type(path)[0] or "application/octet-stream"
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def embedded_fonts(sheet: Sheet) -> str:
    """``@font-face`` rules for the fonts the sheet's text uses, each cut down to the
    characters it sets on this sheet (irata's own, Arimo, to all of printable ASCII besides:
    one subset then serves nearly every sheet, cut once per build instead of per sheet)."""
    used: dict[str, set[str]] = {}
    seen: set[FaceKey] = set()

    def collect(items: list[Primitive] | tuple[Primitive, ...]) -> None:
        for it in items:
            if isinstance(it, Text) and not it.glyphs and is_embedded(embeddable(it.font)):
                used.setdefault(embeddable(it.font), set()).update(it.text)
            elif isinstance(it, Group):
                collect(it.items)

    drawings: list[Drawing] = []
    for p in sheet.placements:
        if p.drawing.identity() not in seen:
            seen.add(p.drawing.identity())
            drawings.append(p.drawing)
    for d in drawings:
        collect(d.items)
    collect(sheet.marks)
    return "".join(font_face_css(font, chars | BASIC if is_house(font) else chars)
                   for font, chars in sorted(used.items()))


def placement(desc: str) -> dict[str, str]:
    """Read back a placement's description: component, copy, face and trim (x,y,w,h mm)."""
    return dict(part.split("=", 1) for part in desc.split())


def sheet_svg(sheet: Sheet, icons: IconSource, faces: FaceCache | None = None) -> str:
    """One sheet side as SVG text."""
    dwg = svgwrite.Drawing(size=(f"{_f(sheet.w)}mm", f"{_f(sheet.h)}mm"),
                           viewBox=f"0 0 {_f(sheet.w)} {_f(sheet.h)}", debug=False,
                           profile="full")
    r = SvgRenderer(dwg, icons)
    css = embedded_fonts(sheet)
    if css:
        dwg.defs.add(dwg.style(css))
    faces = faces if faces is not None else FaceCache()
    defined: dict[FaceKey, str] = {}
    for p in sheet.placements:
        key = p.drawing.identity()
        if key not in defined:
            gid = f"d{len(defined)}"
            g, clips = faces.get(p.drawing, r)
            for cp in clips:
                dwg.defs.add(cp)
            g["id"] = gid  # the group may be shared with other sheets: named for this file
            dwg.defs.add(g)
            defined[key] = gid
    placement_clips: dict[tuple[str, ...], str] = {}
    hex_ids = itertools.count(1)
    for p in sheet.placements:
        ox, oy = p.origin
        # the clip box in the face's own coordinates, so placements with the same box (every
        # copy in a grid but those on its edges) share one clip path
        if p.turn:
            tf = f"translate({_f(ox)} {_f(oy)}) rotate({p.turn})"
        else:
            tf = f"translate({_f(ox)} {_f(oy)})"
        local = face_box(p.clip, p.origin, p.turn)
        box = tuple(_f(v) for v in local)
        cid = placement_clips.get(box)
        if cid is None:
            cid = placement_clips[box] = f"c{len(placement_clips) + 1}"
            cp = dwg.defs.add(dwg.clipPath(id=cid))
            cp.add(dwg.rect((box[0], box[1]), (box[2], box[3])))
        use = dwg.use(f"#{defined[p.drawing.identity()]}", transform=tf,
                      clip_path=f"url(#{cid})")
        # what is placed here, for people and tools, in a form SVG 1.1 allows (see placement())
        use["class"] = "placement"
        use.add(Desc(f"component={p.comp.id} copy={p.copy} face={p.face} "
                     f"trim={','.join(_f(v) for v in p.trim)}"))
        if p.outline:  # a hex piece: clipped to its hexagon too, in page coordinates
            hid = f"x{next(hex_ids)}"
            hp = dwg.defs.add(dwg.clipPath(id=hid))
            hp.add(dwg.polygon([(_f(x), _f(y)) for x, y in p.outline]))
            wrap = dwg.g(clip_path=f"url(#{hid})")
            wrap.add(use)
            dwg.add(wrap)
        else:
            dwg.add(use)
    r.draw(dwg, sheet.marks)
    for cp in r.take_clips():
        dwg.defs.add(cp)
    text: str = dwg.tostring()
    # svgwrite always declares xmlns:ev, which validating against the SVG 1.1 DTD rejects
    return text.replace(' xmlns:ev="http://www.w3.org/2001/xml-events"', "")
