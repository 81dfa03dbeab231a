"""Art on a face: what an image file is, and where it goes to fit its box.

``image_info(path)`` checks a file before any library decodes it (PNG, JPEG or SVG by its
first bytes, at most ``MAX_BYTES`` and ``MAX_PIXELS``) and reads its natural size: pixels for
raster art, the SVG's own units for vector art.

``verify_image(path)`` is what a face calls before it uses a file: ``image_info`` and, for
raster art, one full decode by Pillow (a damaged file or a "decompression bomb", a small file
of billions of pixels, is refused here rather than in the middle of a PDF).

``place(...)`` turns ``fit`` and ``crop`` into plain geometry: the whole image drawn at some
rectangle, clipped to the element's box. So the backends need no cropping of their own (a
raster image is embedded once, whatever part of it each face shows) and the PDF and the SVG
agree to the dot.

- ``contain``: the (cropped) art as large as fits in the box, centred, none of it cut;
- ``cover``: the art fills the box, centred, the overflow cut by the box;
- ``stretch``: the art fills the box exactly, its proportions changed if need be.

``dpi`` is the resolution a raster image prints at: below ``MIN_DPI`` a print looks soft.
"""

from __future__ import annotations

import math
import re
import struct
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

MIN_DPI = 200.0
MAX_BYTES = 50 * 1024 * 1024
MAX_PIXELS = 120_000_000  # about 11000 x 11000: an A3 board at 600 dpi fits


class ImageError(ValueError):
    """An image file irata will not use: the message says why."""


@dataclass(frozen=True)
class ImageInfo:
    kind: str  # png | jpeg | svg
    width: float  # pixels (raster) or the SVG's user units
    height: float
    shapes: int = 1  # what drawing it costs, counted against the print's shape limit

    @property
    def vector(self) -> bool:
        return self.kind == "svg"


@dataclass(frozen=True)
class Placement:
    """Draw the whole image at (x, y, w, h); show only ``clip`` of it (None: all of it)."""

    x: float
    y: float
    w: float
    h: float
    clip: tuple[float, float, float, float] | None
    dpi: float | None  # None for vector art


def image_info(path: Path) -> ImageInfo:
    st = path.stat()
    return _info(str(path), st.st_size, st.st_mtime_ns)


@lru_cache(maxsize=256)
def _info(path: str, size: int, mtime: int) -> ImageInfo:
    if size > MAX_BYTES:
        raise ImageError(f"is {size // (1024 * 1024)} MB (at most {MAX_BYTES // (1024 * 1024)} MB)")
    with open(path, "rb") as fh:
        head = fh.read(64 * 1024)
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        if len(head) < 24 or head[12:16] != b"IHDR":
            raise ImageError("is a damaged PNG file")
        w, h = struct.unpack(">II", head[16:24])
        info = ImageInfo("png", float(w), float(h))
    elif head.startswith(b"\xff\xd8"):
        w, h = _jpeg_size(path)
        info = ImageInfo("jpeg", float(w), float(h))
    elif _looks_like_svg(head):
        info = _svg_size(path)
    else:
        raise ImageError("is not a PNG, JPEG or SVG image")
    if info.kind != "svg":
        if info.width < 1 or info.height < 1:
            raise ImageError("has no pixels")
        if info.width * info.height > MAX_PIXELS:
            raise ImageError(f"has {int(info.width)} x {int(info.height)} pixels (at most "
                             f"{MAX_PIXELS // 1_000_000} million)")
    return info


def _jpeg_size(path: str) -> tuple[int, int]:
    with open(path, "rb") as fh:
        data = fh.read(min(MAX_BYTES, 4 * 1024 * 1024))
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 2 if marker != 0xFF else 1
            continue
        (length,) = struct.unpack(">H", data[i + 2:i + 4])
        # start of frame (baseline, progressive, ...): height then width
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE,
                      0xCF):
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return w, h
        i += 2 + length
    raise ImageError("is a JPEG file whose size cannot be read")


def _looks_like_svg(head: bytes) -> bool:
    text = head.lstrip(b"\xef\xbb\xbf").lstrip()
    return (text.startswith(b"<?xml") or text.startswith(b"<svg")
            or text.startswith(b"<!--")) and b"<svg" in head


_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*(px|pt|mm|cm|in)?\s*$")
_UNIT = {None: 1.0, "px": 1.0, "pt": 96 / 72, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0}


def _svg_size(path: str) -> ImageInfo:
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    if "<!ENTITY" in text:
        raise ImageError("is an SVG that declares XML entities (irata reads none)")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise ImageError(f"is not well-formed SVG ({exc})") from None
    if not isinstance(root.tag, str) or not root.tag.endswith("svg"):
        raise ImageError("is XML but not SVG")
    shapes = svg_shapes(root)
    box = root.get("viewBox")
    if box:
        try:
            parts = [float(v) for v in re.split(r"[\s,]+", box.strip()) if v]
        except ValueError:
            raise ImageError(f"is an SVG whose viewBox '{box[:40]}' is not four numbers"
                             ) from None
        if len(parts) == 4 and all(math.isfinite(v) for v in parts) and parts[2] > 0 \
                and parts[3] > 0:
            return ImageInfo("svg", parts[2], parts[3], shapes)
    w, h = root.get("width"), root.get("height")
    mw, mh = (_LENGTH.match(w or ""), _LENGTH.match(h or ""))
    if mw and mh:
        width = float(mw.group(1)) * _UNIT[mw.group(2)]
        height = float(mh.group(1)) * _UNIT[mh.group(2)]
        if math.isfinite(width) and math.isfinite(height) and width > 0 and height > 0:
            return ImageInfo("svg", width, height, shapes)
    raise ImageError("is an SVG with neither a viewBox nor a width and height")


MAX_SVG_SHAPES = 10_000_000  # counting stops here: far past the print's own shape limit
# what one SVG element costs, in shapes of irata's own: svglib reads an element in about
# 0.3 ms where a shape drawn by irata takes about 0.04 ms (benchmarks/hostile_limits.py)
SVG_SHAPE_COST = 8


def svg_shapes(root: ET.Element) -> int:
    """How many shapes drawing the SVG costs: every element once, and each ``<use>`` again
    what it copies (so a few uses of uses cannot multiply into millions unseen). A ``<use>``
    that leads back to itself is refused."""
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}
    memo: dict[int, int] = {}
    busy: set[int] = set()

    def weight(el: ET.Element) -> int:
        key = id(el)
        if key in memo:
            return memo[key]
        if key in busy:
            raise ImageError("is an SVG whose <use> copies itself")
        busy.add(key)
        total = 1
        tag = el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""
        if tag == "use":
            ref = next((v for k, v in el.attrib.items() if k.rsplit("}", 1)[-1] == "href"), "")
            target = ids.get(ref.strip()[1:]) if ref.strip().startswith("#") else None
            if target is not None:
                total += weight(target)
        for child in el:
            total += weight(child)
            if total > MAX_SVG_SHAPES:
                break
        busy.discard(key)
        memo[key] = total = min(total, MAX_SVG_SHAPES)
        return total

    try:
        return weight(root)
    except RecursionError:
        raise ImageError("is an SVG nested too deeply") from None


def verify_image(path: Path) -> ImageInfo:
    """``image_info(path)``, and for PNG and JPEG a full decode within MAX_PIXELS: an
    ImageError saying why the file will not print."""
    st = path.stat()
    if st.st_size == 0:
        raise ImageError("is an empty file")
    info = image_info(path)
    if info.vector:
        _self_contained(str(path), st.st_size, st.st_mtime_ns)
        from components.schema import LIMITS

        if info.shapes * SVG_SHAPE_COST > LIMITS.shapes:  # refused before svglib reads it
            raise ImageError(f"is SVG art of {info.shapes} elements, more than a whole print "
                             f"may draw (at most {LIMITS.shapes // SVG_SHAPE_COST}; irata print "
                             "--max-pieces N allows more)")
        svg_drawing(str(path), st.st_mtime_ns)  # what print draws: a length svglib cannot
        # read fails here, in check, rather than in the middle of a PDF
    else:
        _decode(str(path), st.st_size, st.st_mtime_ns)
    return info


_URL = re.compile(r"url\(\s*['\"]?\s*([^'\")\s]*)", re.IGNORECASE)


@lru_cache(maxsize=256)
def _self_contained(path: str, size: int, mtime: int) -> None:
    """SVG art may refer only to itself (``#id``) or embed data (``data:``): a link to another
    file (an image, a stylesheet, a font), inside the game folder or out of it, is refused, so
    that art never reads a file the game folder does not hold."""
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise ImageError(f"is not well-formed SVG ({exc})") from None
    for el in root.iter():
        refs = [v for k, v in el.attrib.items() if k.rsplit("}", 1)[-1] in ("href", "src")]
        refs += _URL.findall(" ".join(el.attrib.values()) + " " + (el.text or ""))
        if isinstance(el.tag, str) and el.tag.rsplit("}", 1)[-1] == "style" and "@import" in (
                el.text or ""):
            refs.append("@import")
        for ref in refs:
            ref = ref.strip()
            if ref and not ref.startswith("#") and not ref.lower().startswith("data:"):
                raise ImageError(f"is an SVG that links to another file ('{ref[:60]}'); "
                                 "embed the art in the SVG itself")


class _StandardFonts:
    """svglib's font lookup for SVG art, kept to the 14 standard PDF fonts and their usual
    aliases (sans-serif, Arial, Times New Roman, ...). svglib on its own opens a file named
    after a ``font-family`` (``/home/me/secret`` -> ``/home/me/secret.ttf``) or asks
    fontconfig for one, and embeds it: a shared game folder could so copy any file into the
    PDF a person sends on. A family not known here prints in Helvetica."""

    def __init__(self) -> None:
        from svglib.fonts import FontMap

        self._map = FontMap()  # its defaults only register mappings, never read a file

    def find_font(self, font_name: str, weight: str = "normal",
                  style: str = "normal") -> tuple[str, bool]:
        from svglib.fonts import DEFAULT_FONT_NAME, STANDARD_FONT_NAMES, FontMap

        fm = self._map
        family = fm._family_index.get(font_name.lower(), font_name)
        name = FontMap.build_internal_name(family, weight, style)
        if name in STANDARD_FONT_NAMES:
            return name, True
        entry = fm._map.get(name)
        if entry is not None and entry["rlgFont"] in STANDARD_FONT_NAMES:
            return str(entry["rlgFont"]), bool(entry["exact"])
        return DEFAULT_FONT_NAME, False


@lru_cache(maxsize=64)
def svg_drawing(path: str, mtime: int = 0) -> Any:
    """SVG art as a reportlab Drawing (svglib), read once per file and time: the one place
    SVG art is converted, for ``check`` and ``print`` alike. Its fonts are the standard PDF
    fonts only, and it may refer to no file (``_self_contained`` has refused any link)."""
    import logging

    from svglib.svglib import svg2rlg

    logging.getLogger("svglib.svglib").setLevel(logging.ERROR)
    folder = str(Path(path).parent)
    try:
        art = svg2rlg(path, font_map=_StandardFonts(), external_reference_root=folder)
    except RecursionError:
        raise ImageError("is an SVG nested too deeply") from None
    except Exception as exc:  # svglib raises many kinds for what it cannot read  # noqa: BLE001
        raise ImageError(f"is SVG that cannot be drawn ({_short(exc)})") from None
    if art is None:
        raise ImageError("is SVG that cannot be drawn")
    return art


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 80 else text[:77] + "..."


@lru_cache(maxsize=256)
def _decode(path: str, size: int, mtime: int) -> None:
    import warnings

    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                if im.format not in ("PNG", "JPEG"):
                    raise ImageError(f"is a {im.format} image; use PNG, JPEG or SVG")
                w, h = im.size
                if w * h > MAX_PIXELS:  # the header said otherwise than the file
                    raise ImageError(f"has {w} x {h} pixels (at most "
                                     f"{MAX_PIXELS // 1_000_000} million)")
                im.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageError("has too many pixels (a decompression bomb?)") from None
    except UnidentifiedImageError:
        raise ImageError("is not a readable PNG or JPEG image") from None
    except (OSError, ValueError, SyntaxError, EOFError, MemoryError) as exc:
        raise ImageError(f"is a damaged image ({type(exc).__name__})") from None


def place(info: ImageInfo, box: tuple[float, float, float, float], fit: str,
          crop: tuple[float, float, float, float] | None = None) -> Placement:
    """Where to draw the whole image so that its ``crop`` part (x, y, w, h in the image's own
    units; None: all of it) fits the ``box`` (mm) as ``fit`` says."""
    x, y, w, h = box
    cx, cy, cw, ch = crop if crop else (0.0, 0.0, info.width, info.height)
    if fit == "stretch":
        sx, sy = w / cw, h / ch
    else:
        s = min(w / cw, h / ch) if fit == "contain" else max(w / cw, h / ch)
        sx = sy = s
    shown_w, shown_h = cw * sx, ch * sy
    ox = x + (w - shown_w) / 2 - cx * sx
    oy = y + (h - shown_h) / 2 - cy * sy
    # what shows: the cropped part as placed, cut by the box (cover overflows it)
    left, top = max(x, ox + cx * sx), max(y, oy + cy * sy)
    right, bottom = min(x + w, ox + (cx + cw) * sx), min(y + h, oy + (cy + ch) * sy)
    clip = (left, top, right - left, bottom - top)
    needs_clip = crop is not None or fit == "cover"
    dpi = None
    if not info.vector:
        # pixels per inch as printed, along the worse axis
        dpi = min(cw * 25.4 / shown_w, ch * 25.4 / shown_h)
    return Placement(ox, oy, info.width * sx, info.height * sy, clip if needs_clip else None,
                     dpi)
