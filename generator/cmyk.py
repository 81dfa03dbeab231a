"""sRGB -> CMYK for print shops, and the PDF/X-1a:2003 keys a CMYK PDF carries.

- **Colours.** A game's colours are sRGB; ``Ink.colour`` converts each through the vendored
  CMYK output profile (``icc/FOGRA39L-irata.icc``, coated offset paper, made from Fogra's
  FOGRA39L data: see ``icc/LICENSE.txt``) with littleCMS (Pillow's ImageCms), relative
  colorimetric with black point compensation, as prepress tools convert graphics.
  A neutral colour (grey, black) prints in black ink alone: text and hairlines in four inks
  would blur with any misregistration. A large black area (``RICH_AREA_MM2`` and over) prints
  as rich black (C60 M40 Y40 K100), which looks deeper than K alone on press.
- **Rasters** go through the same transform. PDF/X-1a allows no soft masks: an image's
  transparent pixels are masked by colour key (``KEY``), its half-transparent ones flattened
  onto white (``image_to_cmyk``; the renderer names the file).
- **PDF/X.** ``make_pdfx`` finishes a PDF reportlab wrote in CMYK (pikepdf, which writes
  what reportlab cannot): the OutputIntent ``GTS_PDFX`` with the profile and its output
  condition, ``GTS_PDFXVersion``, ``Trapped``, a TrimBox and BleedBox on every page (the
  MediaBox where the page has none: a sheet of many pieces is trimmed by its crop marks).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

PROFILE = Path(__file__).parent / "icc" / "FOGRA39L-irata.icc"
OUTPUT_CONDITION = "FOGRA39"  # the ICC registry's name for this characterization
OUTPUT_CONDITION_INFO = "Coated FOGRA39 (ISO 12647-2:2004/Amd 1), profile made from FOGRA39L"
REGISTRY = "http://www.color.org"
PDFX_VERSION = "PDF/X-1a:2003"
RICH_BLACK = (0.6, 0.4, 0.4, 1.0)
RICH_AREA_MM2 = 400.0  # 2 x 2 cm and over: a card back, a title band, a board's ground
NEUTRAL_TOLERANCE = 2  # of 255: how far apart r, g, b may be and still be a grey

CMYK = tuple[float, float, float, float]


@lru_cache(maxsize=1)
def _transform() -> Any:
    from PIL import ImageCms

    srgb = ImageCms.createProfile("sRGB")
    out = ImageCms.getOpenProfile(str(PROFILE))
    return ImageCms.buildTransform(
        srgb, out, "RGB", "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


@lru_cache(maxsize=1)
def _black_for_grey() -> tuple[float, ...]:
    """For each sRGB grey level 0-255, the black ink (0-1) whose lightness matches it on the
    profile's paper: K alone printed from 0 to 100 %, looked up by L*."""
    from PIL import Image, ImageCms

    lab = ImageCms.createProfile("LAB")
    out = ImageCms.getOpenProfile(str(PROFILE))
    srgb = ImageCms.createProfile("sRGB")
    to_lab = ImageCms.buildTransform(out, lab, "CMYK", "LAB",
                                     renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                     flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    grey_lab = ImageCms.buildTransform(srgb, lab, "RGB", "LAB",
                                       renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                       flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    ks = Image.new("CMYK", (256, 1))
    ks.putdata([(0, 0, 0, k) for k in range(256)])
    lab_k = _apply(ks, to_lab)
    k_light = [lab_k.getpixel((i, 0))[0] for i in range(256)]  # falls with k
    greys = Image.new("RGB", (256, 1))
    greys.putdata([(g, g, g) for g in range(256)])
    lab_g = _apply(greys, grey_lab)
    wanted = [lab_g.getpixel((i, 0))[0] for i in range(256)]
    out_k: list[float] = []
    for light in wanted:
        k = next((i for i, v in enumerate(k_light) if v <= light), 255)
        out_k.append(k / 255)
    out_k[255] = 0.0
    return tuple(out_k)


def _apply(im: Any, transform: Any) -> Any:
    from PIL import ImageCms

    out = ImageCms.applyTransform(im, transform)
    assert out is not None  # None only when converting in place
    return out


def _rgb(hexstr: str) -> tuple[int, int, int]:
    h = hexstr.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


@lru_cache(maxsize=4096)
def convert(hexstr: str, large: bool = False) -> CMYK:
    """An sRGB colour (``#rrggbb``) as CMYK (0-1): a grey in black ink only, a large black
    area in rich black, every other colour through the profile."""
    from PIL import Image

    r, g, b = _rgb(hexstr)
    if max(r, g, b) - min(r, g, b) <= NEUTRAL_TOLERANCE:
        level = round((r + g + b) / 3)
        if large and level <= 24:
            return RICH_BLACK
        return (0.0, 0.0, 0.0, round(_black_for_grey()[level], 4))
    px = _apply(Image.new("RGB", (1, 1), (r, g, b)), _transform())
    c, m, y, k = px.getpixel((0, 0))
    return (round(c / 255, 4), round(m / 255, 4), round(y / 255, 4), round(k / 255, 4))


# the colour-key mask of a raster's transparent pixels: four full inks, which the profile's
# 330 % ink limit never produces, so no pixel of the art itself is keyed out
KEY = (255, 255, 255, 255)


@dataclass(frozen=True)
class Flattened:
    image: Any  # a PIL image in CMYK
    had_alpha: bool  # semi-transparent pixels were flattened onto white
    keyed: bool  # fully transparent pixels are KEY, to be masked out (PDF's /Mask)


def image_to_cmyk(im: Any) -> Flattened:
    """A PIL image as CMYK through the profile. PDF/X-1a has no soft masks: a transparent
    pixel becomes ``KEY`` (masked by colour key, which it allows: what lies beneath shows),
    a semi-transparent one is flattened onto white."""
    from PIL import Image

    alpha = im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info)
    if im.mode == "CMYK":
        return Flattened(im, False, False)
    if not alpha:
        return Flattened(_apply(im.convert("RGB"), _transform()), False, False)
    rgba = im.convert("RGBA")
    a = rgba.getchannel("A")
    ground = Image.new("RGB", rgba.size, (255, 255, 255))
    ground.paste(rgba, mask=a)
    out = _apply(ground, _transform())
    clear = a.point(lambda v: 255 if v < 128 else 0)
    keyed = clear.getextrema()[1] > 0
    if keyed:
        out.paste(Image.new("CMYK", out.size, KEY), mask=clear)
    partial = a.point(lambda v: 255 if 0 < v < 255 else 0).getextrema()[1] > 0
    return Flattened(out, partial, keyed)


def make_pdfx(path: Path, title: str, date: str | None = None) -> None:
    """Turn the CMYK PDF at ``path`` into PDF/X-1a:2003, in place: OutputIntent, PDF/X keys,
    Trapped, and a TrimBox and BleedBox on every page. ``date`` is a PDF date
    (``D:YYYYMMDDHHmmSSZ``) for the Info dictionary."""
    import pikepdf

    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        profile = pdf.make_stream(PROFILE.read_bytes())
        profile["/N"] = 4
        intent = pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String(OUTPUT_CONDITION),
            OutputCondition=pikepdf.String(OUTPUT_CONDITION_INFO),
            RegistryName=pikepdf.String(REGISTRY),
            Info=pikepdf.String(OUTPUT_CONDITION_INFO),
            DestOutputProfile=profile)
        pdf.Root.OutputIntents = pikepdf.Array([intent])
        for page in pdf.pages:
            media = page.obj.MediaBox
            if "/TrimBox" not in page.obj:
                page.obj.TrimBox = media
            if "/BleedBox" not in page.obj:
                page.obj.BleedBox = media
        info = pdf.docinfo
        info["/Title"] = pikepdf.String(title)
        info["/GTS_PDFXVersion"] = pikepdf.String(PDFX_VERSION)
        info["/GTS_PDFXConformance"] = pikepdf.String(PDFX_VERSION)
        info["/Trapped"] = pikepdf.Name("/False")
        if date:
            info["/CreationDate"] = pikepdf.String(date)
            info["/ModDate"] = pikepdf.String(date)
        pdf.save(path, min_version="1.3", force_version="1.4", deterministic_id=True)
