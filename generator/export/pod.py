"""A game's cards -> print-on-demand files: The Game Crafter, MakePlayingCards,
DriveThruCards.

- ``tgc``: one RGB PNG per face at 300 dpi with 1/8" (3.175 mm) bleed on every side: poker
  825 x 1125 px, bridge 750 x 1125, mini 600 x 825, tarot 900 x 1500, square 1125 x 1125.
- ``mpc``: one RGB PNG per face, 822 x 1122 px for a poker card (300 dpi, 0.12" bleed).
- ``dtc``: one PDF per deck, each page the card's trim plus 1/8" bleed on every side, pages
  ordered back 1, front 1, back 2, front 2, ... (one pair per copy; a one-sided card gets a
  white back page). Every page carries the boxes a print shop's preflight reads: MediaBox and
  BleedBox the whole page, TrimBox the card's trim (the page inset by the bleed).
  A deck may mix trims within the tolerance of one size: each page keeps its own card's
  trim, and the manifest lists every page with its own size and boxes.
  ``tgc`` and ``mpc`` take images, which have no page boxes: their bleed is in the pixels.

Decisions, written down:
- A card whose trim is not one of the vendor's sizes (within 0.5 mm, either orientation) is
  NOT exported, and the export names it with its size and the sizes the vendor takes. It is
  never scaled: a card scaled to another size no longer matches its rulebook, its sleeves or
  its box. A card within 0.5 mm of a size is drawn at its own size and resampled to the
  vendor's exact pixels (the manifest says so); a landscape card is turned a quarter
  clockwise to portrait (image and PDF page alike; the manifest says ``turned``).
- The Game Crafter also makes tokens, tiles, standees and boards: those whose size it makes
  are exported as its product images (``generator.export.pieces``), the rest named with the
  sizes it makes; MakePlayingCards and DriveThruCards take cards alone. Sheets and dice
  nets are never exported: no shop prints them as irata does.
- The safe zone is 1/8" (3.175 mm) inside the trim for all three vendors. Text, images, icons
  and QR codes that reach outside it are named (``--strict`` refuses them); backgrounds and
  frames may run into the bleed by design. irata's own version mark is drawn inside the safe
  zone on these files (raised from its usual place by the bottom edge), and is checked too.
- The images are RGB (The Game Crafter and MakePlayingCards take RGB). The DriveThruCards
  PDFs are PDF/X-1a:2003, as its publisher help asks: CMYK through the vendored coated
  FOGRA39 profile, rasters converted alike, no transparency, fonts embedded, the
  OutputIntent and PDF/X keys (``generator.cmyk``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image as PILImage
from reportlab.pdfbase.pdfmetrics import stringWidth

from components import Component, Game
from components.errors import InputError
from generator import raster
from generator.backends.pdf import DocInfo, PageBoxes, pdf_box
from generator.cmyk import OUTPUT_CONDITION, PDFX_VERSION
from generator.draw import Faces
from generator.drawing import PT, QR, Drawing, Group, Icon, Image, Primitive, Text
from generator.export.common import (
    Written,
    draw_faces,
    export_folder,
    inside,
    slug,
    write_manifest,
)
from generator.export.pieces import Product, faces_of, shape_of, why_not
from generator.export.pieces import match as match_piece

INCH = 25.4
DPI = 300.0
SAFE_MM = INCH / 8
TOLERANCE_MM = 0.5

# trim sizes in mm, portrait
SIZES: dict[str, tuple[float, float]] = {
    "poker": (2.5 * INCH, 3.5 * INCH),
    "bridge": (2.25 * INCH, 3.5 * INCH),
    "mini": (1.75 * INCH, 2.5 * INCH),
    "tarot": (2.75 * INCH, 4.75 * INCH),
    "square": (3.5 * INCH, 3.5 * INCH),
}


@dataclass(frozen=True)
class Vendor:
    key: str
    name: str
    bleed_mm: float
    pixels: dict[str, tuple[int, int]]  # the vendor's stated face size per card size (PNG)


VENDORS: dict[str, Vendor] = {
    "tgc": Vendor("tgc", "The Game Crafter", INCH / 8,
                  {"poker": (825, 1125), "bridge": (750, 1125), "mini": (600, 825),
                   "tarot": (900, 1500), "square": (1125, 1125)}),
    "mpc": Vendor("mpc", "MakePlayingCards", 0.12 * INCH, {"poker": (822, 1122)}),
    "dtc": Vendor("dtc", "DriveThruCards", INCH / 8,
                  {"poker": (0, 0), "bridge": (0, 0), "tarot": (0, 0), "square": (0, 0),
                   "mini": (0, 0)}),
}


@dataclass
class PodResult:
    written: Written
    manifest: Path
    faces: int


def match_size(w: float, h: float, vendor: Vendor) -> tuple[str, bool] | None:
    """The vendor's card size for a ``w`` x ``h`` mm trim, and whether it is turned
    (landscape), or None."""
    for name in vendor.pixels:
        pw, ph = SIZES[name]
        if abs(w - pw) <= TOLERANCE_MM and abs(h - ph) <= TOLERANCE_MM:
            return name, False
        if abs(w - ph) <= TOLERANCE_MM and abs(h - pw) <= TOLERANCE_MM:
            return name, True
    return None


def _sizes_text(vendor: Vendor) -> str:
    return ", ".join(f"{n} {SIZES[n][0]:g} x {SIZES[n][1]:g} mm" for n in vendor.pixels)


Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def _text_box(t: Text) -> Box:
    try:
        width = stringWidth(t.text, t.font, t.size) * PT
    except (KeyError, AttributeError):  # a font the metrics table does not know
        width = len(t.text) * t.size * 0.55 * PT
    x0 = t.x - (width / 2 if t.anchor == "middle" else width if t.anchor == "end" else 0.0)
    return (x0, t.y - 0.75 * t.size * PT, x0 + width, t.y + 0.22 * t.size * PT)


def _apply(box: Box, g: Group) -> Box:
    """A box in a group's coordinates -> its parent's (the backends' order: translate,
    rotate clockwise, scale)."""
    a = math.radians(g.rotate)
    cos, sin = math.cos(a), math.sin(a)
    pts = []
    for x, y in ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])):
        x, y = x * g.scale, y * g.scale
        pts.append((g.dx + x * cos - y * sin, g.dy + x * sin + y * cos))
    return (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts),
            max(p[1] for p in pts))


def _essentials(items: tuple[Primitive, ...] | list[Primitive], comp: Component
                ) -> list[tuple[str, Box]]:
    """Text, images, icons and QR codes with their boxes in the face's coordinates."""
    out: list[tuple[str, Box]] = []
    for it in items:
        if isinstance(it, Group):
            inner = _essentials(it.items, comp)
            for name, box in inner:
                if it.clip:
                    c = it.clip
                    box = (max(box[0], c[0]), max(box[1], c[1]), min(box[2], c[0] + c[2]),
                           min(box[3], c[1] + c[3]))
                    if box[0] >= box[2] or box[1] >= box[3]:
                        continue
                out.append((name, _apply(box, it)))
        elif isinstance(it, Text):
            if not it.text.strip():
                continue
            out.append((f'text "{it.text.strip()[:40]}"', _text_box(it)))
        elif isinstance(it, Image):
            out.append((f"image {Path(it.path).name}", (it.x, it.y, it.x + it.w, it.y + it.h)))
        elif isinstance(it, Icon):
            out.append((f"icon {it.name}", (it.x, it.y, it.x + it.size, it.y + it.size)))
        elif isinstance(it, QR):
            out.append(("QR code", (it.x, it.y, it.x + it.size, it.y + it.size)))
    return out


def outside_safe_zone(d: Drawing, comp: Component, safe: float = SAFE_MM,
                      round_piece: bool = False, hex_piece: bool = False) -> list[str]:
    """What on a face reaches outside the safe zone (``safe`` mm inside the trim; for a
    ``round_piece`` the circle, for a ``hex_piece`` the flat-topped hexagon, ``safe`` mm
    inside its edge, which a box's corners must keep within)."""
    x0, y0, x1, y1 = safe, safe, d.w - safe, d.h - safe
    out = []
    seen: set[str] = set()
    for name, b in _essentials(d.items, comp):
        over = max(x0 - b[0], y0 - b[1], b[2] - x1, b[3] - y1)
        if round_piece:
            cx, cy, r = d.w / 2, d.h / 2, min(d.w, d.h) / 2 - safe
            over = max(over, max(math.hypot(x - cx, y - cy) for x in (b[0], b[2])
                                 for y in (b[1], b[3])) - r)
        if hex_piece:  # each corner's distance past the hexagon's sides, inset by ``safe``
            cx, cy, apothem = d.w / 2, d.h / 2, d.h / 2 - safe
            root3 = math.sqrt(3)
            over = max(over, max(max(abs(y - cy), (root3 * abs(x - cx) + abs(y - cy)) / 2)
                                 - apothem for x in (b[0], b[2]) for y in (b[1], b[3])))
        if over > 0.05 and name not in seen:
            seen.add(name)
            out.append(f"{name} by {over:.1f} mm")
    return out


def export_pod(game: Game, vendor_key: str, out: Path,
               progress: Callable[[int], None] | None = None,
               total: Callable[[int], None] | None = None) -> PodResult:
    """Write ``out/GAME/pod-VENDOR/``: the faces (or the deck PDFs) and ``manifest.json``."""
    from generator.build import _atomic_write, icon_source

    if vendor_key not in VENDORS:
        raise InputError(f"unknown vendor '{vendor_key}' (expected tgc, mpc or dtc)")
    vendor = VENDORS[vendor_key]
    folder = export_folder(out, game.key, f"pod-{vendor.key}")
    written = Written(folder)
    comps = [c for c in game.components if c.printed and c.count > 0]
    cards = [c for c in comps if c.kind == "card"]
    others = [c for c in comps if c.kind != "card"]
    pieces: list[tuple[Component, Product, bool]] = []
    if vendor.key == "tgc":
        unmade: list[Component] = []
        for c in others:
            found = match_piece(c)
            if found is None:
                unmade.append(c)
            else:
                pieces.append((c, *found))
        written.skipped.extend(why_not(unmade))
    elif others:
        kinds = sorted({c.kind for c in others})
        written.skipped.append(f"{len(others)} components that are not cards "
                               f"({', '.join(kinds)}): {vendor.name} prints cards")
    chosen: list[tuple[Component, str, bool]] = []
    for c in cards:
        m = match_size(c.size[0], c.size[1], vendor)
        if m is None:
            written.skipped.append(
                f"{c.id} ({c.file}:{c.line}): {c.size[0]:g} x {c.size[1]:g} mm is not a "
                f"{vendor.name} card size ({_sizes_text(vendor)}); not scaled")
        else:
            chosen.append((c, *m))
    if total:
        total(max(1, 2 * (len(chosen) + len(pieces))))

    def tick() -> None:
        if progress:
            progress(1)

    faces = {f.comp.id: f for f in draw_faces(
        game, [c for c, _, _ in chosen] + [c for c, _, _ in pieces], vendor.bleed_mm,
        safe=SAFE_MM, cut_line=False)}
    for c, _, _ in chosen:
        f = faces[c.id]
        for side, d in (("front", f.front), ("back", f.back)):
            if d is not None:
                written.warnings.extend(f"{c.id} {side}: {line}"
                                        for line in outside_safe_zone(d, c))
    icons = icon_source(game)
    entries: list[dict[str, Any]] = []
    n_faces = 0
    if vendor.key == "dtc":
        decks: dict[tuple[str, str], list[tuple[Component, str, bool]]] = {}
        for c, size, turned in chosen:
            decks.setdefault((c.group or "cards", size), []).append((c, size, turned))
        for (group, size), members in decks.items():
            pages: list[raster.Face] = []
            order: list[dict[str, Any]] = []
            turns: list[bool] = []
            for c, _, turned in members:
                f = faces[c.id]
                front = turn_portrait(f.front) if turned else f.front
                back = f.back if f.back is not None else _blank(f.front)
                back = turn_portrait(back) if turned else back
                for copy in range(c.count):
                    pages.append(raster.Face(c, "back", back))
                    pages.append(raster.Face(c, "front", front))
                    turns.extend((turned, turned))
                    order.append({"component": c.id, "copy": copy + 1})
                tick()
                tick()
            path = inside(folder, f"{slug(group)}-{size}.pdf")
            sheets = [raster.face_sheet(p) for p in pages]
            boxes = [page_boxes(p.drawing) for p in pages]

            # DriveThruCards asks for PDF/X-1a: CMYK, fonts embedded, no transparency
            info = DocInfo(author=game.author, cmyk=True,
                           subject=f"{game.name}, edition {game.edition}: {group}, "
                                   f"{size} cards for {vendor.name}")

            def write(tmp: Path, sheets: list[Any] = sheets, boxes: list[PageBoxes] = boxes,
                      title: str = f"{game.name}: {group}", info: DocInfo = info) -> None:
                from generator.backends.pdf import write_pdf

                for art in write_pdf(sheets, tmp, icons, title, boxes=boxes, info=info):
                    line = (f"{Path(art).name}: its half-transparent parts print opaque "
                            "(over white, in a raster): PDF/X-1a has no transparency")
                    if line not in written.notes:
                        written.notes.append(line)

            _atomic_write(path, write)
            # each page's own size and boxes: a deck may mix trims within the tolerance
            page_list: list[dict[str, Any]] = []
            for number, (p, box, turned) in enumerate(zip(pages, boxes, turns, strict=True)):
                d = p.drawing
                page_h = d.h + 2 * d.bleed
                page_list.append({
                    "page": number + 1, "component": p.comp.id, "face": p.face,
                    "trim_mm": [d.w, d.h], "page_mm": [d.w + 2 * d.bleed, page_h],
                    "media_box_pt": list(pdf_box(box.bleed, page_h)),
                    "bleed_box_pt": list(pdf_box(box.bleed, page_h)),
                    "trim_box_pt": list(pdf_box(box.trim, page_h)), "turned": turned})
            sizes = sorted({tuple(e["page_mm"]) for e in page_list})
            written.add(path, deck=group, size=size, pages=page_list,
                        page_sizes_mm=[list(s) for s in sizes],
                        order="back 1, front 1, back 2, front 2, ...", cards=order)
            n_faces += len(pages)
    else:
        for c, size, turned in chosen:
            f = faces[c.id]
            todo = [("front", f.front)] + ([("back", f.back)] if f.back is not None else [])
            n_faces += _write_images(c, todo, vendor.pixels[size], turned, folder, written,
                                     icons, tick, size=size)
        n_faces += _write_pieces(game, pieces, faces, folder, written, icons, tick)
        entries = written.files
    manifest = write_manifest(written, "manifest.json", {
        "game": game.key, "edition": game.edition, "vendor": vendor.key,
        "vendor_name": vendor.name, "dpi": DPI, "bleed_mm": vendor.bleed_mm,
        "safe_zone_mm": SAFE_MM,
        "colour": (f"CMYK, {PDFX_VERSION}, output intent {OUTPUT_CONDITION}"
                   if vendor.key == "dtc" else "RGB"),
        "faces_written": len(entries) if entries else n_faces})
    return PodResult(written, manifest, n_faces)


def _write_images(c: Component, todo: list[tuple[str, Drawing]], want: tuple[int, int],
                  turned: bool, folder: Path, written: Written, icons: raster.IconSource,
                  tick: Callable[[], None], **info: Any) -> int:
    """One component's faces as the image vendors take them: RGB PNGs at 300 dpi, turned to
    portrait when ``turned``, resampled to the vendor's exact ``want`` pixels when the piece
    is within the tolerance of the size but not on it. Returns the faces written."""
    faces = [raster.Face(c, side, d) for side, d in todo]
    for face, img in zip(faces, raster.render_faces(faces, DPI, icons), strict=True):
        resampled = False
        if turned:
            img = img.rotate(-90, expand=True)
        if img.size != want:
            img = img.resize(want, PILImage.Resampling.LANCZOS)
            resampled = True
        path = inside(folder, f"{slug(c.group or c.kind + 's')}/{slug(c.id)}-{face.face}.png")
        path.parent.mkdir(parents=True, exist_ok=True)
        raster.save_png(img.convert("RGB"), path, DPI)
        written.add(path, component=c.id, face=face.face, **info, pixels=list(img.size),
                    quantity=c.count, turned=turned, resampled=resampled)
        tick()
    if len(faces) == 1:
        tick()
    return len(faces)


def _write_pieces(game: Game, pieces: list[tuple[Component, Product, bool]],
                  faces: dict[str, Faces], folder: Path, written: Written,
                  icons: raster.IconSource, tick: Callable[[], None]) -> int:
    """The Game Crafter's tokens, tiles, standees and boards (``generator.export.pieces``),
    each checked against the safe zone (a circle's for a round piece)."""
    n = 0
    for c, product, turned in pieces:
        todo = faces_of(game, faces[c.id], SAFE_MM)
        if not product.two_sided and len(todo) > 1:
            written.skipped.append(f"{c.id} back ({c.file}:{c.line}): a {product.name} "
                                   "is printed on its face alone")
            todo = todo[:1]
        for side, d in todo:
            written.warnings.extend(f"{c.id} {side}: {line}" for line in
                                    outside_safe_zone(d, c, round_piece=shape_of(c) == "round",
                                                      hex_piece=shape_of(c) == "hex"))
        n += _write_images(c, todo, product.pixels, turned, folder, written, icons, tick,
                           product=product.identity, product_name=product.name,
                           product_url=product.url)
    return n


def page_boxes(d: Drawing) -> PageBoxes:
    """A face page's boxes: BleedBox the whole page (trim plus bleed on every side, the
    MediaBox too), TrimBox the card's trim, inset by the bleed."""
    b = d.bleed
    return PageBoxes(bleed=(0.0, 0.0, d.w + 2 * b, d.h + 2 * b), trim=(b, b, d.w, d.h))


def turn_portrait(d: Drawing) -> Drawing:
    """A landscape face turned a quarter clockwise to portrait (its top edge to the right),
    as the image vendors' faces are turned: the same primitives in a group turned 90 degrees
    about the new top-right corner, bleed and all."""
    return Drawing(d.h, d.w, d.bleed, [Group(tuple(d.items), dx=d.h, rotate=90.0)],
                   key=f"{d.key}#turned")


def _blank(d: Drawing) -> Drawing:
    """A white face of the same size (the back page of a one-sided card)."""
    return Drawing(d.w, d.h, d.bleed, [], key=f"{d.key}#blank")
