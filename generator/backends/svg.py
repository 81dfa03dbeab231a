"""Sheets -> SVG files (svgwrite), one per sheet side, in millimetres (viewBox = the page).

Each distinct drawing on a sheet is defined once under ``<defs>`` and placed with ``<use>``
for every copy, clipped like the PDF. Fonts are the PDF's standard fonts by name, with common
fallbacks, so text measured for the PDF sets the same way here.
"""

from __future__ import annotations

import base64
import mimetypes
from collections.abc import Callable
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
    Group,
    Icon,
    Image,
    Line,
    Path,
    Primitive,
    Rect,
    Style,
    Text,
)
from generator.fonts import face_style, font_face_css, is_embedded
from generator.layout import Sheet
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
    if is_embedded(font):
        # a game's own font: its glyphs travel inside the SVG (see embedded_fonts()); a
        # renderer that ignores @font-face looks for an installed font of its family
        face = face_style(font)
        if face is None or not face[0]:
            return {"font_family": f"'{font}'"}
        family, weight, italic = face
        attrs = {"font_family": f"'{font}', '{family}', sans-serif"}
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


def _f(v: float) -> str:
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


class SvgRenderer:
    def __init__(self, dwg: svgwrite.Drawing, icons: IconSource) -> None:
        self.dwg = dwg
        self.icons = icons
        self.clips = 0

    def clip_id(self, box: tuple[float, float, float, float]) -> str:
        self.clips += 1
        cid = f"c{self.clips}"
        cp = self.dwg.defs.add(self.dwg.clipPath(id=cid))
        cp.add(self.dwg.rect((_f(box[0]), _f(box[1])), (_f(box[2]), _f(box[3]))))
        return cid

    def draw(self, parent: Any, items: list[Primitive] | tuple[Primitive, ...]) -> None:
        d = self.dwg
        for it in items:
            if isinstance(it, Rect):
                el = d.rect((_f(it.x), _f(it.y)), (_f(it.w), _f(it.h)), **style_attrs(it.style))
                if it.radius > 0:
                    el["rx"] = _f(it.radius)
                    el["ry"] = _f(it.radius)
                parent.add(el)
            elif isinstance(it, Text):
                attrs = font_attrs(it.font)
                el = d.text(it.text, insert=(_f(it.x), _f(it.y)), font_size=_f(it.size * PT),
                            fill=it.color, **attrs)
                if it.anchor != "start":
                    el["text-anchor"] = it.anchor
                el["xml:space"] = "preserve"
                parent.add(el)
            elif isinstance(it, Line):
                parent.add(d.line((_f(it.x1), _f(it.y1)), (_f(it.x2), _f(it.y2)),
                                  **style_attrs(it.style)))
            elif isinstance(it, Ellipse):
                parent.add(d.ellipse((_f(it.cx), _f(it.cy)), (_f(it.rx), _f(it.ry)),
                                     **style_attrs(it.style)))
            elif isinstance(it, Path):
                parent.add(d.path(d=path_data(it.cmds), **style_attrs(it.style)))
            elif isinstance(it, Group):
                g = SvgGroup()
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
                    inner = SvgGroup(clip_path=f"url(#{self.clip_id(it.clip)})")
                    g.add(inner)
                    self.draw(inner, it.items)
                else:
                    self.draw(g, it.items)
                parent.add(g)
            elif isinstance(it, Icon):
                g = SvgGroup(transform=f"translate({_f(it.x)} {_f(it.y)}) "
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


@lru_cache(maxsize=64)
def _data_uri(path: str, mtime: int = 0) -> str:
    """The image inlined, so an SVG sheet stands alone wherever it is copied (read again when
    the file's time changes: ``irata print --watch``)."""
    data = FsPath(path).read_bytes()
    mime = mimetypes.guess_type(path)[0] or "application/octet-stream"
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def embedded_fonts(sheet: Sheet) -> str:
    """``@font-face`` rules for the game fonts the sheet's text uses, each cut down to the
    characters it sets on this sheet."""
    used: dict[str, set[str]] = {}
    seen: set[str] = set()

    def collect(items: list[Primitive] | tuple[Primitive, ...]) -> None:
        for it in items:
            if isinstance(it, Text) and is_embedded(it.font):
                used.setdefault(it.font, set()).update(it.text)
            elif isinstance(it, Group):
                collect(it.items)

    drawings: list[Drawing] = []
    for p in sheet.placements:
        if p.drawing.key not in seen:
            seen.add(p.drawing.key)
            drawings.append(p.drawing)
    for d in drawings:
        collect(d.items)
    collect(sheet.marks)
    return "".join(font_face_css(font, chars) for font, chars in sorted(used.items()))


def placement(desc: str) -> dict[str, str]:
    """Read back a placement's description: component, copy, face and trim (x,y,w,h mm)."""
    return dict(part.split("=", 1) for part in desc.split())


def sheet_svg(sheet: Sheet, icons: IconSource) -> str:
    """One sheet side as SVG text."""
    dwg = svgwrite.Drawing(size=(f"{_f(sheet.w)}mm", f"{_f(sheet.h)}mm"),
                           viewBox=f"0 0 {_f(sheet.w)} {_f(sheet.h)}", debug=False,
                           profile="full")
    r = SvgRenderer(dwg, icons)
    css = embedded_fonts(sheet)
    if css:
        dwg.defs.add(dwg.style(css))
    defined: dict[str, str] = {}
    for p in sheet.placements:
        if p.drawing.key not in defined:
            gid = f"d{len(defined)}"
            g = dwg.defs.add(SvgGroup(id=gid))
            r.draw(g, p.drawing.items)
            defined[p.drawing.key] = gid
    for p in sheet.placements:
        wrap = dwg.add(SvgGroup(clip_path=f"url(#{r.clip_id(p.clip)})"))
        if p.turned:
            use = dwg.use(f"#{defined[p.drawing.key]}")
            use["transform"] = f"translate({_f(p.origin[0])} {_f(p.origin[1])}) rotate(180)"
        else:
            use = dwg.use(f"#{defined[p.drawing.key]}",
                          insert=(_f(p.origin[0]), _f(p.origin[1])))
        # what is placed here, for people and tools, in a form SVG 1.1 allows (see placement())
        use["class"] = "placement"
        use.add(Desc(f"component={p.comp.id} copy={p.copy} face={p.face} "
                     f"trim={','.join(_f(v) for v in p.trim)}"))
        wrap.add(use)
    r.draw(dwg, sheet.marks)
    text: str = dwg.tostring()
    # svgwrite always declares xmlns:ev, which validating against the SVG 1.1 DTD rejects
    return text.replace(' xmlns:ev="http://www.w3.org/2001/xml-events"', "")
