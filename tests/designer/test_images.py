"""Images that fit their box: contain, cover, stretch, a crop box, SVG art kept as vectors, and
a word about raster art that will print soft."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from PIL import Image, ImageDraw

from components import load_path
from components.errors import DefinitionError
from generator.images import ImageError, image_info, place

RED, GREEN, BLUE, YELLOW = (220, 40, 40), (40, 160, 60), (40, 70, 200), (240, 200, 40)
SKY = (135, 206, 235)

SUN_SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50" width="100" height="50">
<rect x="0" y="0" width="100" height="50" fill="#87ceeb"/>
<circle cx="50" cy="50" r="30" fill="#ffb300"/></svg>
"""


def quadrants(path: Path, w: int = 1200, h: int = 600) -> Path:
    """A w x h picture: red, green over blue, yellow."""
    im = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(im)
    d.rectangle([0, 0, w // 2 - 1, h // 2 - 1], fill=RED)
    d.rectangle([w // 2, 0, w - 1, h // 2 - 1], fill=GREEN)
    d.rectangle([0, h // 2, w // 2 - 1, h - 1], fill=BLUE)
    d.rectangle([w // 2, h // 2, w - 1, h - 1], fill=YELLOW)
    path.parent.mkdir(parents=True, exist_ok=True)
    im.save(path)
    return path


CARDS = """\
defaults: {kind: card, size: [60, 40]}
components:
"""

BOX = (10.0, 10.0, 40.0, 20.0)  # x, y, w, h on a 60 x 40 card: a 2:1 box


def art_game(game_dir: Any, elements: dict[str, str]) -> Path:
    lines = [CARDS]
    for cid, el in elements.items():
        x, y, w, h = BOX
        lines.append(f"  - id: {cid}\n    front:\n      - {{type: image, x: {x:g}, y: {y:g}, "
                     f"w: {w:g}, h: {h:g}, {el}}}\n")
    folder = game_dir({"game.yaml": "game: art\nname: Art\n", "cards.yaml": "".join(lines)})
    quadrants(folder / "art" / "wide.png")  # 2:1, like the box
    quadrants(folder / "art" / "tall.png", 600, 1200)  # 1:2
    (folder / "art" / "sun.svg").write_text(SUN_SVG)
    return folder


def colour_at(pix: Any, trim: list[float], x: float, y: float, dpi: int) -> tuple[int, ...]:
    """The colour at (x, y) mm of the component whose trim box is ``trim``."""
    px = int((trim[0] + x) / 25.4 * dpi)
    py = int((trim[1] + y) / 25.4 * dpi)
    return tuple(pix.pixel(px, py)[:3])


def near(c: tuple[int, ...], want: tuple[int, int, int], tol: int = 40) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(c, want, strict=False))


def printed(folder: Path, out: Path, builder: Any, dpi: int = 100) -> dict[str, Any]:
    """Each component's pixel sampler on the printed PDF page."""
    result = builder(folder, out)
    manifest = __import__("json").loads(result.manifest.read_text())
    doc = pymupdf.open(result.pdf)
    pages: dict[int, Any] = {}
    out_map: dict[str, Any] = {}
    for sheet in manifest["sheets"]:
        for p in sheet["placements"]:
            if p["face"] != "front":
                continue
            page = sheet["page"] - 1
            if page not in pages:
                pages[page] = doc[page].get_pixmap(dpi=dpi)
            out_map[p["component"]] = (pages[page], p["trim_mm"])
    return {cid: (lambda x, y, pm=pm, t=t: colour_at(pm, t, x, y, dpi))
            for cid, (pm, t) in out_map.items()}


def test_contain_cover_stretch_and_crop_in_print(game_dir: Any, builder: Any,
                                                 tmp_path: Path) -> None:
    folder = art_game(game_dir, {
        "contain": "path: art/tall.png, fit: contain",
        "cover": "path: art/tall.png, fit: cover",
        "stretch": "path: art/tall.png, fit: stretch",
        "crop": "path: art/wide.png, crop: [600, 0, 600, 300], fit: stretch",
        "svg": "path: art/sun.svg, fit: contain",
    })
    at = printed(folder, tmp_path / "out", builder)
    x, y, w, h = BOX
    # contain: the 1:2 picture, 20 mm tall, 10 mm wide, centred; white either side
    c = at["contain"]
    assert near(c(x + 2, y + 10), (255, 255, 255)) and near(c(x + w - 2, y + 10), (255,) * 3)
    assert near(c(x + 17, y + 3), RED) and near(c(x + 23, y + 3), GREEN)
    assert near(c(x + 17, y + 17), BLUE) and near(c(x + 23, y + 17), YELLOW)
    # cover: 40 mm wide, 80 mm tall, centred: the box shows the middle band, cut at the box
    c = at["cover"]
    assert near(c(x + 5, y + 5), RED) and near(c(x + 35, y + 5), GREEN)
    assert near(c(x + 5, y + 15), BLUE) and near(c(x + 35, y + 15), YELLOW)
    assert near(c(x + 5, y - 2), (255, 255, 255)) and near(c(x + 5, y + h + 2), (255,) * 3)
    # stretch: the whole picture squashed into the box
    c = at["stretch"]
    assert near(c(x + 5, y + 3), RED) and near(c(x + 35, y + 17), YELLOW)
    # crop: only the green quarter, filling the box
    c = at["crop"]
    for fx, fy in ((0.1, 0.1), (0.9, 0.1), (0.1, 0.9), (0.9, 0.9), (0.5, 0.5)):
        assert near(c(x + fx * w, y + fy * h), GREEN)
    assert near(c(x - 2, y + 5), (255, 255, 255))
    # SVG art as vectors: sky at the top, the sun cut at the SVG's own edge
    c = at["svg"]
    assert near(c(x + 3, y + 3), SKY) and near(c(x + 20, y + 17), (255, 179, 0))
    assert near(c(x + 20, y + h + 2), (255, 255, 255))  # nothing below its viewport


def test_svg_art_stays_vector(game_dir: Any, builder: Any, tmp_path: Path) -> None:
    folder = art_game(game_dir, {"svg": "path: art/sun.svg, fit: cover"})
    result = builder(folder, tmp_path / "out")
    with pymupdf.open(result.pdf) as doc:
        assert doc[0].get_images() == []  # no raster image: the sun is drawn as paths
        assert any(d["fill"] and near(tuple(int(v * 255) for v in d["fill"]), (255, 179, 0))
                   for d in doc[0].get_drawings())
    svg = (result.svg_dir / "sheet-001-front.svg").read_text()
    assert "data:image/svg+xml;base64," in svg and "<clipPath" in svg


@pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="needs rsvg-convert")
def test_the_svg_sheet_shows_the_same_fit(game_dir: Any, builder: Any,
                                          tmp_path: Path) -> None:
    folder = art_game(game_dir, {"cover": "path: art/tall.png, fit: cover",
                                 "crop": "path: art/wide.png, crop: [600, 0, 600, 300]"})
    result = builder(folder, tmp_path / "out")
    manifest = __import__("json").loads(result.manifest.read_text())
    png = tmp_path / "sheet.png"
    subprocess.run(["rsvg-convert", "-b", "white", "-d", "100", "-p", "100", "-o", str(png),
                    str(result.svg_dir / "sheet-001-front.svg")], check=True)
    im = Image.open(png).convert("RGB")
    trims = {p["component"]: p["trim_mm"] for p in manifest["sheets"][0]["placements"]}
    x, y, w, h = BOX

    def at(cid: str, dx: float, dy: float) -> tuple[int, ...]:
        t = trims[cid]
        return im.getpixel((int((t[0] + dx) / 25.4 * 100), int((t[1] + dy) / 25.4 * 100)))

    assert near(at("cover", x + 5, y + 5), RED) and near(at("cover", x + 35, y + 15), YELLOW)
    assert near(at("cover", x + 5, y - 2), (255, 255, 255))
    assert near(at("crop", x + 20, y + 10), GREEN) and near(at("crop", x + 20, y - 1),
                                                              (255, 255, 255))


def test_low_resolution_is_named_and_strict_refuses_it(game_dir: Any, cli: Any) -> None:
    folder = art_game(game_dir, {"sharp": "path: art/wide.png",
                                 "soft": "path: art/small.png"})
    Image.new("RGB", (100, 50), RED).save(folder / "art" / "small.png")  # 63 dpi at 40 mm
    out = folder.parent / "out"
    r = cli("print", "--components", str(folder), "--out", str(out))
    assert r.returncode == 0
    soft = [ln for ln in r.stderr.splitlines() if "low resolution" in ln]
    assert len(soft) == 1 and "soft" in soft[0] and "63.5 dpi" in soft[0], r.stderr
    assert re.search(r"cards\.yaml:\d+: soft", soft[0])
    r = cli("print", "--components", str(folder), "--out", str(out), "--strict")
    assert r.returncode == 2 and "1 image(s) print below 200 dpi" in r.stderr
    r = cli("check", "--components", str(folder))
    assert r.returncode == 0 and "low resolution" in r.stderr


def test_dpi_follows_the_fit() -> None:
    from generator.images import ImageInfo

    info = ImageInfo("png", 1200, 600)  # 1200 px over 50.8 mm = 600 dpi
    assert place(info, (0, 0, 50.8, 25.4), "contain").dpi == pytest.approx(600)
    # a crop of a quarter of it across the same box: half the pixels per inch
    assert place(info, (0, 0, 50.8, 25.4), "stretch", (0, 0, 600, 300)).dpi == \
        pytest.approx(300)
    assert place(ImageInfo("svg", 100, 50), (0, 0, 50, 25), "cover").dpi is None


@pytest.mark.parametrize("element, message", [
    ("path: art/wide.png, fit: streched", "did you mean 'stretch'"),
    ("path: art/wide.png, crop: [0, 0, 2000, 10]", "is not inside 'art/wide.png', which is "
                                                    "1200 x 600 pixels"),
    ("path: art/wide.png, crop: [0, 0, 10]", "crop must be [x, y, w, h]"),
    ("path: art/notes.txt", "is not a PNG, JPEG or SVG image"),
    ("path: art/bomb.svg", "declares XML entities"),
    ("path: art/elsewhere.png", "image 'art/elsewhere.png' leaves the game folder"),
])
def test_image_mistakes(game_dir: Any, element: str, message: str) -> None:
    folder = art_game(game_dir, {"bad": element})
    (folder / "art" / "notes.txt").write_text("hello")
    (folder / "art" / "bomb.svg").write_text('<?xml version="1.0"?><!DOCTYPE s [<!ENTITY a '
                                             '"aaaa">]><svg xmlns="http://www.w3.org/2000/svg"'
                                             ' width="1" height="1">&a;</svg>')
    quadrants(folder.parent / "outside.png", 300, 200)  # a link in the folder leading out
    (folder / "art" / "elsewhere.png").symlink_to(folder.parent / "outside.png")
    from generator.build import draw_all
    from generator.draw import Options

    with pytest.raises(DefinitionError) as exc:
        game = load_path(folder)
        draw_all(game, game.components, Options())
    assert message in str(exc.value)


def test_image_info_reads_sizes_without_decoding(tmp_path: Path) -> None:
    quadrants(tmp_path / "a.png", 300, 200)
    Image.new("RGB", (321, 123)).save(tmp_path / "a.jpg", quality=80)
    Image.new("RGB", (64, 48)).save(tmp_path / "p.jpg", progressive=True)
    (tmp_path / "a.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="20mm" '
                                    'height="10mm"/>')
    assert (image_info(tmp_path / "a.png").width, image_info(tmp_path / "a.png").height) == \
        (300, 200)
    assert (image_info(tmp_path / "a.jpg").width, image_info(tmp_path / "a.jpg").height) == \
        (321, 123)
    assert image_info(tmp_path / "p.jpg").width == 64
    svg = image_info(tmp_path / "a.svg")
    assert svg.vector and svg.width == pytest.approx(20 * 96 / 25.4)
    (tmp_path / "huge.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
                                        + (60000).to_bytes(4, "big") * 2 + b"\x08\x02\x00\x00")
    with pytest.raises(ImageError, match="million"):
        image_info(tmp_path / "huge.png")
