"""What a print shop's preflight reads in a PDF, read with pikepdf: the colour spaces every
page and form draws in, the fonts and whether each is embedded, transparency, the PDF/X keys
and the page boxes. Shared by the tests of prints and exports."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pikepdf

RGB_OPS = {"rg", "RG"}  # DeviceRGB fill and stroke
CMYK_GREY_OPS = {"k", "K", "g", "G"}


@dataclass
class Preflight:
    colour_ops: set[str] = field(default_factory=set)  # every colour operator used
    colour_spaces: set[str] = field(default_factory=set)  # images' and cs/CS's spaces
    fonts: dict[str, bool] = field(default_factory=dict)  # base font -> embedded
    transparency: list[str] = field(default_factory=list)  # what is transparent, where
    pages: int = 0


def _embedded(font: Any) -> bool:
    if font.get("/Subtype") == "/Type0":
        return all(_embedded(d) for d in font.DescendantFonts)
    desc = font.get("/FontDescriptor")
    if desc is None:
        return False  # a standard font: the reader's own
    return any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))


def _resources(res: Any, out: Preflight, where: str, seen: set[tuple[int, int]]) -> None:
    if res is None:
        return
    for name, font in (res.get("/Font") or {}).items():
        out.fonts[str(font.get("/BaseFont", name))] = _embedded(font)
    for name, gs in (res.get("/ExtGState") or {}).items():
        for key in ("/ca", "/CA"):
            if key in gs and float(gs[key]) < 1:
                out.transparency.append(f"{where}: ExtGState {name} {key} {gs[key]}")
        if "/SMask" in gs and gs.SMask != pikepdf.Name.None_:
            out.transparency.append(f"{where}: ExtGState {name} soft mask")
    for cs in (res.get("/ColorSpace") or {}).values():
        out.colour_spaces.add(str(cs[0] if isinstance(cs, pikepdf.Array) else cs))
    shadings = list((res.get("/Shading") or {}).values())
    shadings += [p.Shading for p in (res.get("/Pattern") or {}).values() if "/Shading" in p]
    for sh in shadings:  # gradients
        cs = sh.get("/ColorSpace")
        out.colour_spaces.add(str(cs[0] if isinstance(cs, pikepdf.Array) else cs))
    for name, xo in (res.get("/XObject") or {}).items():
        key = xo.objgen
        if key in seen:
            continue
        seen.add(key)
        if xo.get("/Subtype") == "/Image":
            cs = xo.get("/ColorSpace")
            out.colour_spaces.add(str(cs[0] if isinstance(cs, pikepdf.Array) else cs))
            if "/SMask" in xo:
                out.transparency.append(f"{where}: image {name} has a soft mask")
        elif xo.get("/Subtype") == "/Form":
            if "/Group" in xo:
                out.transparency.append(f"{where}: form {name} is a transparency group")
            _content(xo, out, f"{where} form {name}", seen)
            _resources(xo.get("/Resources"), out, f"{where} form {name}", seen)


def _content(obj: Any, out: Preflight, where: str, seen: set[tuple[int, int]]) -> None:
    for operands, op in pikepdf.parse_content_stream(obj):
        name = str(op)
        if name in RGB_OPS | CMYK_GREY_OPS | {"sc", "SC", "scn", "SCN"}:
            out.colour_ops.add(name)
        if name in ("cs", "CS"):
            out.colour_spaces.add(str(operands[0]))


def preflight(path: Path) -> tuple[Preflight, pikepdf.Pdf]:
    pdf = pikepdf.open(path)
    out = Preflight(pages=len(pdf.pages))
    seen: set[tuple[int, int]] = set()
    for i, page in enumerate(pdf.pages):
        where = f"{path.name} page {i + 1}"
        if "/Group" in page.obj:
            out.transparency.append(f"{where}: page is a transparency group")
        _content(page, out, where, seen)
        _resources(page.obj.get("/Resources"), out, where, seen)
    return out, pdf


def unembedded_fonts(path: Path) -> list[str]:
    pf, pdf = preflight(path)
    pdf.close()
    return sorted(f for f, ok in pf.fonts.items() if not ok)
