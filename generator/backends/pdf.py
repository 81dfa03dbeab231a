"""Sheets -> one PDF (reportlab). Each distinct drawing becomes one form XObject, defined once
and placed for every copy, so a deck of 40 identical counters costs one drawing, not 40.

The page works in millimetres with y downward (the Drawing's own convention): the page's
transform flips reportlab's y-up points once, and text and images flip back locally.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path as FsPath
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

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
from generator.layout import Sheet
from generator.qr import qr_rects

IconSource = Callable[[str, str | None], list[Primitive]]


@lru_cache(maxsize=256)
def _colour(hexstr: str) -> HexColor:
    return HexColor(hexstr)


@lru_cache(maxsize=64)
def _svg_drawing(path: str, mtime: int = 0) -> Any:
    """An SVG file as a reportlab Drawing (read once per file and time)."""
    from svglib.svglib import svg2rlg

    return svg2rlg(path)


class PdfRenderer:
    """Draws primitives on a reportlab canvas in mm, y downward."""

    def __init__(self, canvas: Canvas, icons: IconSource) -> None:
        self.c = canvas
        self.icons = icons

    def style(self, st: Style) -> tuple[int, int]:
        c = self.c
        if st.fill:
            c.setFillColor(_colour(st.fill))
        if st.stroke:
            c.setStrokeColor(_colour(st.stroke))
            c.setLineWidth(st.width)
            c.setDash(list(st.dash) if st.dash else [])
        return (1 if st.stroke else 0, 1 if st.fill else 0)

    def draw(self, items: list[Primitive] | tuple[Primitive, ...]) -> None:
        c = self.c
        for it in items:
            if isinstance(it, Rect):
                stroke, fill = self.style(it.style)
                if stroke or fill:
                    if it.radius > 0:
                        c.roundRect(it.x, it.y, it.w, it.h, it.radius, stroke=stroke, fill=fill)
                    else:
                        c.rect(it.x, it.y, it.w, it.h, stroke=stroke, fill=fill)
            elif isinstance(it, Text):
                c.saveState()
                c.setFillColor(_colour(it.color))
                c.translate(it.x, it.y)
                c.scale(1, -1)
                c.setFont(it.font, it.size * PT)
                if it.anchor == "middle":
                    c.drawCentredString(0, 0, it.text)
                elif it.anchor == "end":
                    c.drawRightString(0, 0, it.text)
                else:
                    c.drawString(0, 0, it.text)
                c.restoreState()
            elif isinstance(it, Line):
                stroke, _ = self.style(it.style)
                if stroke:
                    c.line(it.x1, it.y1, it.x2, it.y2)
            elif isinstance(it, Ellipse):
                stroke, fill = self.style(it.style)
                if stroke or fill:
                    c.ellipse(it.cx - it.rx, it.cy - it.ry, it.cx + it.rx, it.cy + it.ry,
                              stroke=stroke, fill=fill)
            elif isinstance(it, Path):
                stroke, fill = self.style(it.style)
                if not (stroke or fill):
                    continue
                p = c.beginPath()
                for cmd in it.cmds:
                    op = cmd[0]
                    if op == "M":
                        p.moveTo(cmd[1], cmd[2])
                    elif op == "L":
                        p.lineTo(cmd[1], cmd[2])
                    elif op == "C":
                        p.curveTo(*cmd[1:7])
                    else:
                        p.close()
                c.drawPath(p, stroke=stroke, fill=fill)
            elif isinstance(it, Group):
                c.saveState()
                c.translate(it.dx, it.dy)
                if it.rotate:
                    c.rotate(it.rotate)
                if it.scale != 1.0:
                    c.scale(it.scale, it.scale)
                if it.clip:
                    self.clip(it.clip)
                self.draw(it.items)
                c.restoreState()
            elif isinstance(it, Icon):
                c.saveState()
                c.translate(it.x, it.y)
                c.scale(it.size / 10.0, it.size / 10.0)
                self.draw(self.icons(it.name, it.color))
                c.restoreState()
            elif isinstance(it, QR):
                c.saveState()
                c.setFillColor(_colour("#ffffff"))
                c.rect(it.x, it.y, it.size, it.size, stroke=0, fill=1)
                c.setFillColor(_colour(it.color))
                p = c.beginPath()
                for x, y, w, h in qr_rects(it.payload, it.x, it.y, it.size):
                    p.rect(x, y, w, h)
                c.drawPath(p, stroke=0, fill=1)
                c.restoreState()
            elif isinstance(it, Image):
                c.saveState()
                c.translate(it.x, it.y + it.h)
                c.scale(1, -1)
                if it.path.lower().endswith(".svg"):
                    self.vector_art(it)
                else:
                    c.drawImage(it.path, 0, 0, it.w, it.h, mask="auto")
                c.restoreState()

    def vector_art(self, it: Image) -> None:
        """SVG art as PDF vectors (svglib), scaled to the image's box (y up, in mm)."""
        from reportlab.graphics import renderPDF

        art = _svg_drawing(it.path, FsPath(it.path).stat().st_mtime_ns)
        if art is None or not art.width or not art.height:
            return
        self.clip((0, 0, it.w, it.h))  # an SVG shows only its own viewport
        self.c.scale(it.w / art.width, it.h / art.height)
        renderPDF.draw(art, self.c, 0, 0)

    def clip(self, box: tuple[float, float, float, float]) -> None:
        p = self.c.beginPath()
        p.rect(*box)
        self.c.clipPath(p, stroke=0, fill=0)


def write_pdf(sheets: list[Sheet], out: FsPath, icons: IconSource, title: str,
              progress: Callable[[], None] | None = None) -> None:
    """Render every sheet as one page of ``out`` (written whole, by the caller's temp+rename)."""
    first = sheets[0]
    c = Canvas(str(out), pagesize=(first.w * mm, first.h * mm), pageCompression=1,
               invariant=1)
    c.setTitle(title)
    c.setCreator("irata")
    r = PdfRenderer(c, icons)
    forms: dict[str, str] = {}
    for sheet in sheets:
        c.setPageSize((sheet.w * mm, sheet.h * mm))
        for p in sheet.placements:
            _define_form(c, r, p.drawing, forms)
        c.saveState()
        c.transform(mm, 0, 0, -mm, 0, sheet.h * mm)
        for p in sheet.placements:
            c.saveState()
            r.clip(p.clip)
            c.translate(*p.origin)
            if p.turned:
                c.rotate(180)
            c.scale(1 / mm, -1 / mm)
            c.doForm(forms[p.drawing.key])
            c.restoreState()
        r.draw(sheet.marks)
        c.restoreState()
        c.showPage()
        if progress:
            progress()
    c.save()


def _define_form(c: Canvas, r: PdfRenderer, d: Drawing, forms: dict[str, str]) -> None:
    if d.key in forms:
        return
    name = f"d{len(forms)}"
    b = d.bleed + 1.0
    c.beginForm(name, lowerx=-b * mm, lowery=-(d.h + b) * mm, upperx=(d.w + b) * mm,
                uppery=b * mm)
    c.transform(mm, 0, 0, -mm, 0, 0)
    r.draw(d.items)
    c.endForm()
    forms[d.key] = name
