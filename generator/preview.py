"""One face as a PNG, pixel for pixel what the printed PDF shows.

PDFium's anti-aliasing of curves, strokes and lines depends on where a path lies on the page,
not only on the path: the same face moved by a whole number of pixels comes out with slightly
different edge pixels (measured: 1-8% of a card's pixels, all on curve and stroke edges). So a
face drawn alone on a page of its own can never match the printed sheet pixel for pixel.

The preview therefore draws the face where ``irata print`` puts it: the game is drawn and
imposed with the same settings, and the face's first placement is written alone on a page of
the sheet's size, at the same position, through the same PDF backend. Within the trim, its
raster is the printed sheet's raster (the tests compare them for equality). The bleed shows
the face's own art, where the printed sheet may show a neighbour's (butted cards share cut
lines). A back printed turned 180 degrees (short-edge duplex) is turned upright. A face that
is not placed whole on a sheet (a board split over pages) is drawn alone on its own page.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from PIL import Image as PILImage

from components import Component, Game
from generator import raster
from generator.layout import Placement, Settings, Sheet


def where_printed(game: Game, comp: Component, face: str, settings: Settings,
                  ink: str = "full") -> tuple[Sheet, Placement, int] | None:
    """The sheet and placement of the first copy of ``comp``'s ``face`` as printed, and how
    many times the part of its PDF rendered with it (``generator.incremental``) places that
    picture (more than once: it is a form there)."""
    from generator.build import draw_all, impose_all, print_files, select
    from generator.draw import Options
    from generator.incremental import chunk_of

    faces = draw_all(game, select(game, None), Options(bleed=settings.bleed, ink=ink))
    sheets = print_files(impose_all(game, faces, settings), game.key, settings)
    for i, sheet in enumerate(sheets):
        for p in sheet.placements:
            if p.comp.id == comp.id and p.face == face and not p.part:
                # a PDF is rendered in chunks of pages: a face placed more than once in its
                # chunk is a form there
                key = p.drawing.identity()
                start, end = chunk_of(sheets, i)
                times = sum(1 for s in sheets[start:end] for q in s.placements
                            if q.drawing.identity() == key)
                return sheet, p, times
    return None


def preview(game: Game, comp: Component, face: str, settings: Settings, dpi: float,
            trim_only: bool = False, ink: str = "full") -> tuple[PILImage.Image, str]:
    """The face's image at ``dpi`` (trim plus bleed, or the trim alone), and how it was made:
    ``"as printed"`` or ``"alone"``; ``ink`` as ``irata print --ink``."""
    from generator.backends.pdf import write_pdf
    from generator.build import icon_source
    from generator.draw import Options, draw_component

    raster.check_dpi(dpi)
    icons = icon_source(game)
    found = where_printed(game, comp, face, settings, ink)
    if found is None:
        faces = draw_component(game, comp, Options(bleed=settings.bleed, ink=ink))
        d = faces.front if face == "front" else faces.back
        if d is None:
            from components.errors import InputError

            raise InputError(f"{comp.id} is one-sided: it has no back")
        img = next(raster.render_faces([raster.Face(comp, face, d)], dpi, icons))
        return (raster.trim_of(img, d, dpi) if trim_only else img), "alone"
    sheet, p, times = found
    b = p.drawing.bleed
    x, y, w, h = p.trim
    box = (max(0.0, x - b), max(0.0, y - b), min(sheet.w, x + w + b) - max(0.0, x - b),
           min(sheet.h, y + h + b) - max(0.0, y - b))
    alone = Sheet(sheet.w, sheet.h, sheet.side, sheet.title)
    alone.placements.append(Placement(p.comp, p.copy, p.face, p.drawing, p.trim, box,
                                      p.origin, p.turn, outline=p.outline))
    with tempfile.TemporaryDirectory(prefix="irata-preview-") as tmp:
        pdf = Path(tmp) / "preview.pdf"
        # drawn the way the printed PDF draws it (a form when placed more than once there):
        # the two ways differ by a level of grey here and there
        write_pdf([alone], pdf, icons, game.name,
                  as_forms={p.drawing.identity()} if times > 1 else ())
        page = raster.render_page(pdf, 0, dpi)
    img = page.crop(raster.box_px(p.trim if trim_only else box, dpi))
    if p.turn:
        img = img.rotate(p.turn, expand=True)  # PIL turns anticlockwise: back upright
    return img, "as printed"
