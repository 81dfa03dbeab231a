"""Pieces laid on their side: the packer turns a block of one-sided pieces a quarter where that
saves paper (Das Störrische Muli's blankets, standees and dice nets share one A4 sheet this
way; on Letter they take two, every cut line keeping its printed crop mark). The manifest says
so, the PDF and the SVG draw the face turned in its box, and the preview turns it back
upright."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageFilter

from components import load
from generator import raster
from generator.build import BuildOptions, build, icon_source
from generator.layout import Settings, face_box, turned_origin
from irata.cli import main


def _turn(point: tuple[float, float], origin: tuple[float, float],
          turn: int) -> tuple[float, float]:
    """A face's point on the page, the face drawn at ``origin`` turned ``turn`` clockwise
    (page y runs down)."""
    u, v = point
    ox, oy = origin
    return {0: (ox + u, oy + v), 90: (ox - v, oy + u), 180: (ox - u, oy - v),
            270: (ox + v, oy - u)}[turn]


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_face_box_is_the_page_box_seen_from_the_face(turn: int) -> None:
    page = (30.0, 40.0, 55.0, 80.0)
    origin = turned_origin(page, turn)
    fx, fy, fw, fh = face_box(page, origin, turn)
    assert (fx, fy) == pytest.approx((0.0, 0.0), abs=1e-9)  # the face's own top left
    corners = [_turn((x, y), origin, turn) for x in (fx, fx + fw) for y in (fy, fy + fh)]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    assert (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)) == pytest.approx(page)


def _built(tmp: Path, paper: str,
           formats: tuple[str, ...] = ("pdf",)) -> tuple[Any, dict[str, Any]]:
    result = build(load("muli"), BuildOptions(Settings(paper=paper), formats, tmp))
    return result, json.loads(result.manifest.read_text(encoding="utf-8"))


@pytest.mark.parametrize("paper", ["a4"])
def test_only_one_sided_pieces_lie_on_their_side(tmp_path: Path, paper: str) -> None:
    _, manifest = _built(tmp_path, paper)
    game = load("muli")
    size = {c.id: c for c in game.components}
    turned = [p for s in manifest["sheets"] for p in s["placements"] if p.get("turned") == 90]
    assert turned  # the pieces fit one sheet only this way
    backs = {p["component"] for s in manifest["sheets"] for p in s["placements"]
             if p["face"] == "back"}
    for p in turned:
        assert p["face"] == "front" and p["component"] not in backs
        comp = size[p["component"]]
        if comp.kind == "tile":  # its box on the page is its size turned
            assert p["trim_mm"][2:] == pytest.approx([comp.size[1], comp.size[0]])
    # and every piece is on the paper's printable area
    m = manifest["margin_mm"]
    for s in manifest["sheets"]:
        pw, ph = s["page_mm"]
        for p in s["placements"]:
            x, y, w, h = p["trim_mm"]
            assert m - 1e-6 <= x and x + w <= pw - m + 1e-6 and m - 1e-6 <= y
            assert y + h <= ph - m + 1e-6


def test_the_preview_of_a_turned_piece_stands_upright(tmp_path: Path) -> None:
    """Cut from the printed page and turned back, a piece laid on its side (a die net on A4)
    is the piece drawn upright (to PDFium's anti-aliasing); turned the wrong way it is not."""
    _, manifest = _built(tmp_path / "print", "a4")
    turned = next(p for s in manifest["sheets"] for p in s["placements"]
                  if p.get("turned") == 90)
    out = tmp_path / "preview.png"
    with pytest.raises(SystemExit) as exc:
        main(["preview", "muli", turned["component"], "--paper", "a4", "--dpi", "100",
              "--trim", "--out", str(out)])
    assert exc.value.code in (0, None)
    game = load("muli")
    comp = next(c for c in game.components if c.id == turned["component"])
    from generator.build import draw_all, select
    from generator.draw import Options

    face = next(f for f in draw_all(game, select(game, None), Options()) if f.comp is comp)
    alone = raster.trim_of(next(raster.render_faces(
        [raster.Face(comp, "front", face.front)], 100, icon_source(game))), face.front, 100)
    with Image.open(out) as im:
        preview = im.convert("RGB")
    # upright: as wide as the piece is drawn (94 x 66 mm for a die net), not as it lies
    assert (preview.width > preview.height) == (face.front.w > face.front.h)
    assert (turned["trim_mm"][2] > turned["trim_mm"][3]) != (face.front.w > face.front.h)
    assert abs(preview.width - alone.width) <= 1 and abs(preview.height - alone.height) <= 1
    preview = preview.resize(alone.size)

    def mean(a: Image.Image, b: Image.Image) -> float:
        # a pixel's blur first: a die net's hairline outlines land a pixel apart in the two
        # rasterisations (anti-aliasing), which is no difference in what is drawn
        a, b = (im.convert("RGB").filter(ImageFilter.GaussianBlur(1)) for im in (a, b))
        hist = ImageChops.difference(a, b).convert("L").histogram()
        return sum(i * n for i, n in enumerate(hist)) / sum(hist)

    assert mean(preview, alone) < 6.0
    assert mean(preview.rotate(180), alone) > 3 * mean(preview, alone)


def test_the_svg_draws_a_turned_piece_turned(tmp_path: Path) -> None:
    result, manifest = _built(tmp_path, "a4", ("pdf", "svg"))
    sheet = next(s for s in manifest["sheets"]
                 if any(p.get("turned") == 90 for p in s["placements"]))
    svg = (result.folder / sheet["svg"]).read_text(encoding="utf-8")
    uses = re.findall(r'<use [^>]*transform="translate\(([-\d.]+) ([-\d.]+)\) rotate\(90\)"'
                      r'[^>]*>\s*<desc>component=(\S+) copy=(\d+) face=front trim=([^<]+)</desc>',
                      svg)
    want = [p for p in sheet["placements"] if p.get("turned") == 90]
    assert len(uses) == len(want)
    for ox, oy, comp, _copy, trim in uses:
        x, y, w, h = (float(v) for v in trim.split(","))
        # the face's top left lands on the box's top right corner
        assert (float(ox), float(oy)) == pytest.approx((x + w, y), abs=1e-3), comp
