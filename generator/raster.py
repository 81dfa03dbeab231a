"""PDF -> pixels: the one rasteriser behind every image irata writes.

Previews, ``irata print --format png``, Tabletop Simulator sheets and print-on-demand faces
are all pixels of a PDF that irata's own PDF backend wrote, rendered by PDFium
(``pypdfium2``). There is no second renderer to drift from what prints.

A single face is rendered by putting its Drawing alone on a page of exactly its trim plus
bleed, through the same ``write_pdf`` that prints the game's sheets (same form XObject, same
clip), and rasterising that page. Cutting faces out of imposed sheets would tie every export
to the imposition's layout; a page per face does not.

Pixel geometry: a page point ``p`` lands at pixel ``p * dpi / 72``; a box in mm lands at
``mm * dpi / 25.4``. At 254 dpi every tenth of a millimetre is a whole pixel, which the tests
use to compare a preview with the printed sheet pixel for pixel.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pypdfium2 as pdfium
from PIL import Image as PILImage

from generator.drawing import Drawing, Primitive

if TYPE_CHECKING:  # (the preview of a printed face loads neither: generator.preview_record)
    from components import Component
    from generator.layout import Sheet

IconSource = Callable[[str, str | None], list[Primitive]]
MM_PER_IN = 25.4
MAX_DPI = 1200


@dataclass(frozen=True)
class Face:
    """One face to rasterise: the component, which face, and its drawing."""

    comp: Component
    face: str
    drawing: Drawing


def check_dpi(dpi: float) -> None:
    from components.errors import InputError

    if not (math.isfinite(dpi) and 10 <= dpi <= MAX_DPI):
        raise InputError(f"dpi must be between 10 and {MAX_DPI}, not {dpi:g}")


def px(mm: float, dpi: float) -> float:
    """Millimetres -> pixels at ``dpi`` (not rounded)."""
    return mm * dpi / MM_PER_IN


def box_px(box: tuple[float, float, float, float], dpi: float) -> tuple[int, int, int, int]:
    """A box (x, y, w, h) in page mm -> (left, top, right, bottom) pixels, rounded to the
    nearest pixel edge (exact when the box lands on whole pixels)."""
    x, y, w, h = box
    return (round(px(x, dpi)), round(px(y, dpi)), round(px(x + w, dpi)), round(px(y + h, dpi)))


def on_whole_pixels(box: tuple[float, float, float, float], dpi: float,
                    tol: float = 1e-6) -> bool:
    """True when every edge of ``box`` (mm) falls on a pixel boundary at ``dpi``."""
    x, y, w, h = box
    return all(abs(px(v, dpi) - round(px(v, dpi))) < tol for v in (x, y, x + w, y + h))


def face_sheet(f: Face) -> Sheet:
    """A page of exactly the face's trim plus bleed, the face placed with its bleed showing."""
    from generator.layout import Placement, Sheet

    d = f.drawing
    b = d.bleed
    W, H = d.w + 2 * b, d.h + 2 * b
    sheet = Sheet(W, H, f.face, f.comp.id)
    sheet.placements.append(Placement(f.comp, 1, f.face, d, (b, b, d.w, d.h), (0.0, 0.0, W, H),
                                      (b, b)))
    return sheet


def write_faces_pdf(faces: list[Face], out: Path, icons: IconSource, title: str) -> None:
    """One page per face (trim + bleed), written by the project's PDF backend."""
    from generator.backends.pdf import write_pdf

    write_pdf([face_sheet(f) for f in faces], out, icons, title)


def _render(page: pdfium.PdfPage, dpi: float) -> PILImage.Image:
    scale = dpi / 72.0
    img: PILImage.Image = page.render(scale=scale).to_pil().convert("RGB")
    # PDFium sizes the bitmap with ceil(); a page of 198.0000001 pt would gain a column of
    # nothing. Where the exact size is within a hair of a whole pixel, keep that size.
    want = []
    for dim in (page.get_width(), page.get_height()):
        exact = dim * scale
        want.append(round(exact) if abs(exact - round(exact)) < 1e-3 else math.ceil(exact))
    if (img.width, img.height) != tuple(want):
        img = img.crop((0, 0, want[0], want[1]))
    return img


def render_pages(pdf: Path, dpi: float, pages: list[int] | None = None
                 ) -> Iterator[PILImage.Image]:
    """Rasterise pages (0-based indexes; all when None) of ``pdf`` at ``dpi``, as RGB."""
    check_dpi(dpi)
    doc = pdfium.PdfDocument(str(pdf))
    try:
        for i in range(len(doc)) if pages is None else pages:
            page = doc[i]
            try:
                yield _render(page, dpi)
            finally:
                page.close()
    finally:
        doc.close()


def render_page(pdf: Path, index: int, dpi: float) -> PILImage.Image:
    """One page of ``pdf`` at ``dpi`` (RGB)."""
    return next(render_pages(pdf, dpi, [index]))


def render_faces(faces: list[Face], dpi: float, icons: IconSource, title: str = "irata",
                 keep_pdf: Path | None = None) -> Iterator[PILImage.Image]:
    """Each face rasterised at ``dpi``, trim plus bleed, in order. The faces go through one
    temporary PDF (or ``keep_pdf`` when the caller wants that file too)."""
    check_dpi(dpi)
    if not faces:
        return
    with tempfile.TemporaryDirectory(prefix="irata-raster-") as tmp:
        pdf = keep_pdf if keep_pdf is not None else Path(tmp) / "faces.pdf"
        write_faces_pdf(faces, pdf, icons, title)
        yield from render_pages(pdf, dpi)


def trim_of(img: PILImage.Image, d: Drawing, dpi: float) -> PILImage.Image:
    """The trim box of a face image rendered with its bleed (see ``render_faces``)."""
    return img.crop(box_px((d.bleed, d.bleed, d.w, d.h), dpi))


def save_png(img: PILImage.Image, path: Path, dpi: float | None = None) -> None:
    """Write ``img`` as PNG whole (temporary name, then rename), with its dpi recorded."""
    from generator.build import _atomic_write

    extra = {"dpi": (round(dpi), round(dpi))} if dpi else {}
    _atomic_write(path, lambda tmp: img.save(tmp, format="PNG", optimize=False, **extra))


def save_image(img: PILImage.Image, path: Path, fmt: str, dpi: float | None = None) -> None:
    """Write ``img`` as PNG or JPEG (RGB, quality 92) whole."""
    from generator.build import _atomic_write

    if fmt == "png":
        save_png(img, path, dpi)
        return
    extra = {"dpi": (round(dpi), round(dpi))} if dpi else {}
    _atomic_write(path, lambda tmp: img.convert("RGB").save(tmp, format="JPEG", quality=92,
                                                            **extra))


def sheets_to_png(pdf: Path, folder: Path, names: list[str], dpi: float,
                  tick: Callable[[], None] | None = None) -> list[Path]:
    """Every page of ``pdf`` as ``folder/NAME.png`` (one name per page), whole files."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for img, name in zip(render_pages(pdf, dpi), names, strict=True):
        path = folder / f"{name}.png"
        save_png(img, path, dpi)
        written.append(path)
        if tick:
            tick()
    return written


def sheet_names(sheets: list[Sheet]) -> dict[int, str]:
    """``sheet-001-front``, ``sheet-001-back``, ... by the sheet's index in print order (as
    the SVG files; a page number repeats when the sheets print from two files)."""
    names: dict[int, str] = {}
    k = 0
    for i, sheet in enumerate(sheets):
        if sheet.side == "front":
            k += 1
        names[i] = f"sheet-{k:03d}-{sheet.side}"
    return names


def write_sheet_pngs(sheets: list[Sheet], folder: Path, pdf: Path | None, icons: IconSource,
                     title: str, dpi: float, tick: Callable[[], None] | None = None
                     ) -> dict[int, str]:
    """Every sheet as ``folder/png/sheet-NNN-SIDE.png``, rasterised from the game's PDF (or,
    when no PDF holding every sheet is kept, from the same PDF written to a temporary file).
    Returns the file names relative to ``folder``, by the sheet's index."""
    import os
    import shutil

    from generator.backends.pdf import write_pdf
    from generator.build import scratch_prefix
    from generator.outdir import current_umask as _umask
    from generator.outdir import move_into

    names = sheet_names(sheets)
    # written into a staging folder, then moved in: no half-written sheet
    staging = Path(tempfile.mkdtemp(prefix=scratch_prefix("png"), dir=folder))
    os.chmod(staging, 0o777 & ~_umask())
    try:
        with tempfile.TemporaryDirectory(prefix="irata-png-") as tmp:
            if pdf is None:
                pdf = Path(tmp) / "sheets.pdf"
                write_pdf(sheets, pdf, icons, title)
            sheets_to_png(pdf, staging, [names[i] for i in range(len(sheets))], dpi, tick)
        # each sheet replaces its namesake (a person's own files in png/ stay); the build
        # removes the sheets of a longer earlier print, as its manifest lists them
        move_into(staging, folder, "png")
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return {i: f"png/{name}.png" for i, name in names.items()}
