"""Sheets -> one PDF (reportlab), written page by page.

A face is known by its content (``Drawing.identity``), not by its component or side: a picture
placed more than once in the document (40 identical counters, the backs of a deck, the same
back on two decks) becomes one form XObject, defined once and placed for every copy; a picture
placed once is drawn straight into its page, where it compresses with its neighbours.

The page works in millimetres with y downward (the Drawing's own convention): the page's
transform flips reportlab's y-up points once, and text and images flip back locally.

A page may carry print-shop page boxes (``PageBoxes``): MediaBox is the page, BleedBox and
TrimBox are given in the page's millimetres and written in points (reportlab's canvas writes
them as page-dictionary entries; it does not interpret them).
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path as FsPath
from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import CMYKColor, HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from components.errors import InputError
from generator.cmyk import RICH_AREA_MM2
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
    walk,
)

if TYPE_CHECKING:
    from generator.layout import Sheet

IconSource = Callable[[str, str | None], list[Primitive]]
MmBox = tuple[float, float, float, float]  # x, y, w, h in mm, y downward from the page's top


@dataclass(frozen=True)
class DocInfo:
    """What a PDF's Info dictionary says beyond its title: the game's author and a subject
    (its name and edition), and whether the file is for press (CMYK, PDF/X-1a:2003)."""

    author: str = ""
    subject: str = ""
    cmyk: bool = False


def build_date() -> str:
    """The build's date as a PDF date (UTC): ``SOURCE_DATE_EPOCH`` when set (reproducible
    builds), else now."""
    import os
    import time

    raw = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    try:
        t = float(raw) if raw else time.time()
    except ValueError:
        t = time.time()
    return time.strftime("D:%Y%m%d%H%M%SZ", time.gmtime(max(0.0, min(t, 253402300799.0))))


@dataclass(frozen=True)
class PageBoxes:
    """A page's BleedBox and TrimBox (x, y, w, h mm in the sheet's coordinates)."""

    bleed: MmBox
    trim: MmBox


def pdf_box(box: MmBox, page_h: float) -> tuple[float, float, float, float]:
    """(x, y, w, h) mm, y down -> PDF's [llx, lly, urx, ury] in points, y up, rounded to
    1/10000 pt (reportlab writes at most that many decimals)."""
    x, y, w, h = box
    return (round(x * mm, 4), round((page_h - y - h) * mm, 4), round((x + w) * mm, 4),
            round((page_h - y) * mm, 4))


# fonts registered by the preview from its record (generator.preview_record), by the name a
# Text gives: what they are set in, without the font machinery (generator.fonts) loaded
SET_IN: dict[str, str] = {}


def embeddable(font: str) -> str:
    """``generator.fonts.embeddable``: the font a run of ``font`` is set in."""
    name = SET_IN.get(font)
    if name is not None:
        return name
    from generator.fonts import embeddable as set_in

    return set_in(font)


@lru_cache(maxsize=256)
def _colour(hexstr: str) -> HexColor:
    return HexColor(hexstr)


def _svg_drawing(path: str, mtime: int = 0) -> Any:
    """An SVG file as a reportlab Drawing: ``images.svg_drawing``, which ``check`` ran too."""
    from generator.images import svg_drawing

    return svg_drawing(path, mtime)


@lru_cache(maxsize=4096)
def _cmyk_colour(hexstr: str, large: bool = False) -> CMYKColor:
    from generator.cmyk import convert

    return CMYKColor(*convert(hexstr, large))


@lru_cache(maxsize=32)
def _cmyk_raster(path: str, mtime: int) -> Any:
    from PIL import Image as PILImage

    from generator.cmyk import image_to_cmyk

    with PILImage.open(path) as im:
        im.load()
        return image_to_cmyk(im)


@lru_cache(maxsize=256)
def _cmyk_png(png: bytes) -> Any:
    """A colour glyph's bitmap for press: CMYK, flattened onto white."""
    from PIL import Image as PILImage

    from generator.cmyk import image_to_cmyk

    with PILImage.open(io.BytesIO(png)) as im:
        im.load()
        return image_to_cmyk(im)


@lru_cache(maxsize=32)
def _press_art(path: str, mtime: int, cmyk: bool) -> tuple[Any, bool]:
    """SVG art with its text in embedded fonts; with ``cmyk`` its colours (gradients too)
    converted for press and opaque (PDF/X-1a has no transparency), and whether something in
    it was transparent and now prints opaque."""
    import copy

    from reportlab.graphics.shapes import Group as RlGroup
    from reportlab.graphics.shapes import String
    from reportlab.lib.colors import Color

    art = copy.deepcopy(_svg_drawing(path, mtime))
    if art is None:
        return None, False
    made_opaque = False

    def press(col: Any) -> Any:
        nonlocal made_opaque
        if isinstance(col, Color) and not isinstance(col, CMYKColor):
            made_opaque = made_opaque or getattr(col, "alpha", 1) < 1
            return _cmyk_colour(col.hexval().replace("0x", "#"))
        return col
    # the renderer starts from Helvetica: start from its embedded stand-in
    art.initialFontName = embeddable("Helvetica")

    def walk(node: Any) -> None:
        if isinstance(node, String):
            node.fontName = embeddable(node.fontName)
        if not cmyk:
            for child in getattr(node, "contents", []):
                walk(child)
            return
        nonlocal made_opaque
        for attr in ("fillColor", "strokeColor"):
            if getattr(node, attr, None) is not None:
                setattr(node, attr, press(getattr(node, attr)))
        if isinstance(getattr(node, "_rl_colors", None), list):  # svglib's gradients
            node._rl_colors = [press(c) for c in node._rl_colors]
        for attr in ("fillOpacity", "strokeOpacity"):
            value = getattr(node, attr, None)
            if value is not None:
                made_opaque = made_opaque or value < 1
                setattr(node, attr, None)
        if isinstance(node, RlGroup) or hasattr(node, "contents"):
            for child in getattr(node, "contents", []):
                walk(child)

    walk(art)
    return art, made_opaque


def _path_area(p: Path) -> float:
    """A path's bounding-box area in mm² (enough to tell a ground from a glyph)."""
    xs = [float(v) for cmd in p.cmds for v in cmd[1::2]]
    ys = [float(v) for cmd in p.cmds for v in cmd[2::2]]
    return (max(xs) - min(xs)) * (max(ys) - min(ys)) if xs and ys else 0.0


class PdfRenderer:
    """Draws primitives on a reportlab canvas in mm, y downward; with ``cmyk`` every colour
    and raster is converted for press (``generator.cmyk``)."""

    def __init__(self, canvas: Canvas, icons: IconSource, cmyk: bool = False) -> None:
        self.c = canvas
        self.icons = icons
        self.cmyk = cmyk
        self.flattened: list[str] = []  # images whose transparency was flattened (CMYK)

    def colour(self, hexstr: str, large: bool = False) -> Any:
        return _cmyk_colour(hexstr, large) if self.cmyk else _colour(hexstr)

    def style(self, st: Style, area: float = 0.0) -> tuple[int, int]:
        c = self.c
        if st.gradient:  # painted by shade(), not filled
            st = replace(st, fill=None)
        if st.fill:
            c.setFillColor(self.colour(st.fill, area >= RICH_AREA_MM2))
        if st.stroke:
            c.setStrokeColor(self.colour(st.stroke))
            c.setLineWidth(st.width)
            c.setDash(list(st.dash) if st.dash else [])
        return (1 if st.stroke else 0, 1 if st.fill else 0)

    def draw(self, items: list[Primitive] | tuple[Primitive, ...]) -> None:
        c = self.c
        texts: list[Text] = []
        lines: list[Line] = []
        for it in items:
            if isinstance(it, Text) and not it.glyphs:
                if lines:
                    self.lines(lines)
                    lines = []
                texts.append(it)  # runs of text share one text object
                continue
            if texts:
                self.texts(texts)
                texts = []
            if isinstance(it, Line):
                if lines and it.style != lines[0].style:
                    self.lines(lines)
                    lines = []
                lines.append(it)  # lines of one style (marks, rulers) share one path
                continue
            if lines:
                self.lines(lines)
                lines = []
            if isinstance(it, (Rect, Ellipse, Path)) and it.style.gradient:
                self.shade(it)
            if isinstance(it, Text):
                self.shaped(it)
            elif isinstance(it, Rect):
                stroke, fill = self.style(it.style, it.w * it.h)
                if stroke or fill:
                    if it.radius > 0:
                        c.roundRect(it.x, it.y, it.w, it.h, it.radius, stroke=stroke, fill=fill)
                    else:
                        c.rect(it.x, it.y, it.w, it.h, stroke=stroke, fill=fill)
            elif isinstance(it, Ellipse):
                stroke, fill = self.style(it.style, 3.14159 * it.rx * it.ry)
                if stroke or fill:
                    c.ellipse(it.cx - it.rx, it.cy - it.ry, it.cx + it.rx, it.cy + it.ry,
                              stroke=stroke, fill=fill)
            elif isinstance(it, Path):
                stroke, fill = self.style(it.style, _path_area(it))
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
                from generator.qr import qr_rects

                c.saveState()
                c.setFillColor(self.colour("#ffffff"))
                c.rect(it.x, it.y, it.size, it.size, stroke=0, fill=1)
                c.setFillColor(self.colour(it.color))
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
                elif self.cmyk:
                    self._cmyk_image(it.path, it.w, it.h)
                else:
                    c.drawImage(it.path, 0, 0, it.w, it.h, mask="auto")
                c.restoreState()
        if texts:
            self.texts(texts)
        if lines:
            self.lines(lines)

    def outline(self, it: Rect | Ellipse | Path) -> Any:
        """The shape's outline as a path object (to clip a gradient to)."""
        p = self.c.beginPath()
        if isinstance(it, Rect):
            if it.radius > 0:
                p.roundRect(it.x, it.y, it.w, it.h, it.radius)
            else:
                p.rect(it.x, it.y, it.w, it.h)
        elif isinstance(it, Ellipse):
            p.ellipse(it.cx - it.rx, it.cy - it.ry, 2 * it.rx, 2 * it.ry)
        else:
            for cmd in it.cmds:
                if cmd[0] == "M":
                    p.moveTo(cmd[1], cmd[2])
                elif cmd[0] == "L":
                    p.lineTo(cmd[1], cmd[2])
                elif cmd[0] == "C":
                    p.curveTo(*cmd[1:7])
                else:
                    p.close()
        return p

    def shade(self, it: Rect | Ellipse | Path) -> None:
        """A gradient painted inside the shape (the outline, if any, is stroked after)."""
        g = it.style.gradient
        assert g is not None
        box = shape_box(it)
        c = self.c
        c.saveState()
        c.clipPath(self.outline(it), stroke=0, fill=0)
        colours = [self.colour(x, box[2] * box[3] >= RICH_AREA_MM2) for x in g.colors]
        if g.kind == "radial":
            cx, cy, r = g.circle(box)
            c.radialGradient(cx, cy, max(r, 1e-3), colours, extend=True)
        else:
            x0, y0, x1, y1 = g.line(box)
            c.linearGradient(x0, y0, x1, y1, colours, extend=True)
        c.restoreState()

    def lines(self, lines: list[Line]) -> None:
        """Lines of one style as one stroked path of separate segments."""
        stroke, _ = self.style(lines[0].style)
        if not stroke:
            return
        p = self.c.beginPath()
        for ln in lines:
            p.moveTo(ln.x1, ln.y1)
            p.lineTo(ln.x2, ln.y2)
        self.c.drawPath(p, stroke=1, fill=0)

    def texts(self, runs: list[Text]) -> None:
        """Glyph runs in one text object: each run's baseline set by its own text matrix
        (flipped upright on the y-down page), font and colour changed only when they change."""
        c = self.c
        c.saveState()  # the fill colour set inside the text object ends with it
        t = c.beginText()
        font: tuple[str, float] | None = None
        colour = ""
        for it in runs:
            size = it.size * PT
            if font != (it.font, size):
                name = embeddable(it.font)  # same metrics, glyphs in the file
                if self.cmyk and _standard(name):
                    raise InputError(
                        f"the font {name} cannot be embedded, and a CMYK (PDF/X-1a) file "
                        "needs every font embedded: name a font file or an installed font "
                        "package under fonts: in game.yaml (Helvetica is embedded as Arimo)")
                t.setFont(name, size)
                font = (it.font, size)
            if it.color != colour:
                t.setFillColor(self.colour(it.color))
                colour = it.color
            x = it.x
            if it.anchor == "middle":
                x -= stringWidth(it.text, it.font, size) / 2
            elif it.anchor == "end":
                x -= stringWidth(it.text, it.font, size)
            t.setTextTransform(1, 0, 0, -1, x, it.y)
            t.textOut(it.text)
        c.drawText(t)
        c.restoreState()

    def shaped(self, it: Text) -> None:
        """A shaped run: its glyphs' outlines (colour glyphs in their colours), and its
        characters as invisible text over them, so the words can be searched and copied."""
        from reportlab.lib.utils import ImageReader

        from generator.shaping import Picture, run_art

        for art in run_art(it):
            if isinstance(art, Picture):
                c = self.c
                c.saveState()
                c.translate(art.x, art.y + art.h)
                c.scale(1, -1)
                if self.cmyk:
                    from generator.cmyk import KEY

                    flat = _cmyk_png(art.png)
                    mask = [v for k in KEY for v in (k, k)] if flat.keyed else None
                    c.drawImage(ImageReader(flat.image), 0, 0, art.w, art.h, mask=mask)
                else:
                    c.drawImage(ImageReader(io.BytesIO(art.png)), 0, 0, art.w, art.h,
                                mask="auto")
                c.restoreState()
            else:
                self.draw([art])
        if it.font not in pdfmetrics.getRegisteredFontNames():
            return
        self.c.saveState()  # the render mode is graphics state: it ends here
        t = self.c.beginText()
        t.setTextRenderMode(3)  # neither filled nor stroked
        t.setFont(it.font, it.size * PT)
        t.setTextTransform(1, 0, 0, -1, it.x, it.y)
        t.textOut(it.text)
        self.c.drawText(t)
        self.c.restoreState()

    def vector_art(self, it: Image) -> None:
        """SVG art as PDF vectors (svglib), scaled to the image's box (y up, in mm)."""
        from reportlab.graphics import renderPDF

        art = _svg_drawing(it.path, FsPath(it.path).stat().st_mtime_ns)
        if art is None or not art.width or not art.height:
            return
        self.clip((0, 0, it.w, it.h))  # an SVG shows only its own viewport
        self.c.scale(it.w / art.width, it.h / art.height)
        art, made_opaque = _press_art(it.path, FsPath(it.path).stat().st_mtime_ns, self.cmyk)
        if made_opaque and it.path not in self.flattened:
            self.flattened.append(it.path)
        renderPDF.draw(art, self.c, 0, 0)

    def _cmyk_image(self, path: str, w: float, h: float) -> None:
        """The raster converted to CMYK, transparent pixels masked by colour key,
        semi-transparent ones flattened onto white (and named)."""
        from reportlab.lib.utils import ImageReader

        from generator.cmyk import KEY

        flat = _cmyk_raster(path, FsPath(path).stat().st_mtime_ns)
        if flat.had_alpha and path not in self.flattened:
            self.flattened.append(path)
        mask = [v for k in KEY for v in (k, k)] if flat.keyed else None
        self.c.drawImage(ImageReader(flat.image), 0, 0, w, h, mask=mask)

    def clip_polygon(self, points: tuple[tuple[float, float], ...]) -> None:
        p = self.c.beginPath()
        p.moveTo(*points[0])
        for pt in points[1:]:
            p.lineTo(*pt)
        p.close()
        self.c.clipPath(p, stroke=0, fill=0)

    def clip(self, box: tuple[float, float, float, float]) -> None:
        p = self.c.beginPath()
        p.rect(*box)
        self.c.clipPath(p, stroke=0, fill=0)


def _standard(font: str) -> bool:
    from components.schema import STANDARD_FONTS

    return font in STANDARD_FONTS


def _shaded(items: list[Primitive] | tuple[Primitive, ...], icons: IconSource) -> bool:
    """Whether a face paints a gradient (its icons' drawings too): reportlab gives a form no
    shading resources, so such a face is drawn in place on each page (whose resources hold
    its shadings)."""
    for it in walk(items):
        if isinstance(it, (Rect, Ellipse, Path)) and it.style.gradient is not None:
            return True
        if isinstance(it, Icon) and _shaded(icons(it.name, it.color), icons):
            return True
    return False


class PdfWriter:
    """One PDF, one sheet at a time: ``add`` each sheet in order, then ``close``.

    ``sheets`` are all the sheets the file will hold, so the writer knows which faces are
    placed more than once (those become forms). A face's entry is dropped after its last
    placement, so nothing here grows with the deck beyond what the file itself needs.
    """

    def __init__(self, out: FsPath, sheets: Iterable[Sheet], icons: IconSource,
                 title: str, as_forms: Collection[FaceKey] = (),
                 info: DocInfo | None = None, fonts: Sequence[tuple[str, str]] = (),
                 date: str | None = None, finish: bool = True) -> None:
        self.uses: Counter[FaceKey] = Counter(
            p.drawing.identity() for s in sheets for p in s.placements)
        self.as_forms = as_forms  # faces to make forms even when placed once here
        # every page's preamble names the canvas's initial font: make it an embedded one
        self.c = Canvas(str(out), pagesize=(210 * mm, 297 * mm), pageCompression=1,
                        invariant=1, initialFontName=embeddable("Helvetica"),
                        enforceColorSpace="cmyk" if info and info.cmyk else None)
        self.info = info or DocInfo()
        self.title = title
        self.date = date or build_date()
        self.finish = finish  # False: a part of a file (generator.incremental joins them)
        _seed_fonts(self.c, fonts)
        self.c.setTitle(title)
        self.c.setCreator("irata")
        self.c.setAuthor(self.info.author)
        self.c.setSubject(self.info.subject)
        # invariant keeps the file's ID reproducible; the dates are the build's own
        self.c.setDateFormatter(lambda *_: self.date)
        self.r = PdfRenderer(self.c, icons, cmyk=self.info.cmyk)
        self.forms: dict[FaceKey, str] = {}
        self._shaded: dict[FaceKey, bool] = {}  # faces painting a gradient: never forms
        self.defined = 0

    def add(self, sheet: Sheet, boxes: PageBoxes | None = None) -> None:
        c, r = self.c, self.r
        c.setPageSize((sheet.w * mm, sheet.h * mm))
        # the canvas keeps a box for the pages that follow: set or clear it on every page
        c.setBleedBox(pdf_box(boxes.bleed, sheet.h) if boxes else None)
        c.setTrimBox(pdf_box(boxes.trim, sheet.h) if boxes else None)
        keys = [p.drawing.identity() for p in sheet.placements]
        for p, key in zip(sheet.placements, keys, strict=True):
            if (self.uses[key] > 1 or key in self.as_forms) and key not in self.forms \
                    and not self.shaded(p.drawing, key):
                self._define_form(p.drawing, key)
        c.saveState()
        c.transform(mm, 0, 0, -mm, 0, sheet.h * mm)
        for p, key in zip(sheet.placements, keys, strict=True):
            c.saveState()
            if p.outline:
                r.clip_polygon(p.outline)
            else:
                r.clip(p.clip)
            c.translate(*p.origin)
            if p.turn:
                c.rotate(p.turn)  # y runs down here: positive angles turn clockwise
            # back to points, then into the drawing's mm: the transforms a form applies, so a
            # face drawn in place looks as it does as a form (a rasteriser may still differ by
            # a level of grey on an edge pixel)
            c.scale(1 / mm, -1 / mm)
            form = self.forms.get(key)
            if form is not None:
                c.doForm(form)
            else:
                c.transform(mm, 0, 0, -mm, 0, 0)
                r.draw(p.drawing.items)
            c.restoreState()
            left = self.uses[key] - 1
            if left:
                self.uses[key] = left
            else:  # its last placement: forget it
                del self.uses[key]
                self.forms.pop(key, None)
                self._shaded.pop(key, None)
        r.draw(sheet.marks)
        c.restoreState()
        c.showPage()
        _compress_last_page(c)

    def shaded(self, d: Drawing, key: FaceKey) -> bool:
        hit = self._shaded.get(key)
        if hit is None:
            hit = self._shaded[key] = _shaded(d.items, self.r.icons)
        return hit

    def close(self) -> None:
        self.c.save()
        if self.info.cmyk and self.finish:
            from generator.cmyk import make_pdfx

            make_pdfx(FsPath(self.c._filename), self.title, self.date)

    def _define_form(self, d: Drawing, key: FaceKey) -> None:
        c = self.c
        name = f"d{self.defined}"
        self.defined += 1
        b = d.bleed + 1.0
        c.beginForm(name, lowerx=-b * mm, lowery=-(d.h + b) * mm, upperx=(d.w + b) * mm,
                    uppery=b * mm)
        c.transform(mm, 0, 0, -mm, 0, 0)
        self.r.draw(d.items)
        c.endForm()
        self.forms[key] = name


def _seed_fonts(c: Canvas, fonts: Sequence[tuple[str, str]]) -> None:
    """Register ``fonts`` (embedded name, characters) with the document in this order, each
    with its characters: documents seeded alike embed the same font objects, whatever their
    pages set (so the parts of one file can share them)."""
    from reportlab.pdfbase.pdfmetrics import getFont

    for name, chars in fonts:
        font = getFont(name)
        if getattr(font, "_dynamicFont", 0):
            font.splitString(chars, c._doc)
            font.getSubsetInternalName(0, c._doc)


def _compress_last_page(c: Canvas) -> None:
    """Compress the page just finished now rather than at ``save``: reportlab keeps every
    page's drawing operators as text until the end, which for a long deck is most of the
    memory the PDF costs. Flate alone (``save`` would also wrap it in ASCII85, a quarter
    larger for nothing: the file is binary anyway)."""
    page = c._doc.Pages.pages[-1]
    if page.compression and page.stream and page.Contents is None:
        flate = pdfdoc.PDFZCompress
        d = pdfdoc.PDFDictionary()
        d["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName(flate.pdfname)])
        stream = pdfdoc.PDFStream(d, flate.encode(page.stream))
        stream.__Comment__ = "page stream"
        page.Contents = stream
        page.stream = None


def write_pdf(sheets: list[Sheet], out: FsPath, icons: IconSource, title: str,
              progress: Callable[[], None] | None = None,
              as_forms: Collection[FaceKey] = (),
              boxes: Sequence[PageBoxes | None] | None = None,
              info: DocInfo | None = None, fonts: Sequence[tuple[str, str]] = (),
              date: str | None = None, finish: bool = True) -> list[str]:
    """Render every sheet as one page of ``out`` (written whole, by the caller's temp+rename).
    ``as_forms``: faces drawn as forms even if placed once (to match another file's pixels).
    ``boxes``: each page's BleedBox and TrimBox (one entry per sheet), for print shops.
    ``info``: Author, Subject, CMYK (PDF/X-1a). Returns the images whose transparency the
    CMYK file had to print opaque (rasters over white, SVG art as drawn). ``fonts``,
    ``date`` and ``finish``: see ``PdfWriter`` (for the parts of a file made in chunks)."""
    if boxes is not None and len(boxes) != len(sheets):
        raise ValueError(f"{len(boxes)} page boxes for {len(sheets)} sheets")
    w = PdfWriter(out, sheets, icons, title, as_forms, info, fonts, date, finish)
    for i, sheet in enumerate(sheets):
        w.add(sheet, boxes[i] if boxes is not None else None)
        if progress:
            progress()
    w.close()
    return w.r.flattened
