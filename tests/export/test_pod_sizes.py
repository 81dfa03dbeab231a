"""irata export pod for cards no bundled game has: a card within the vendor's tolerance of a
size it makes (resampled to the vendor's exact pixels), a landscape card (turned to portrait),
and a DriveThruCards deck that mixes such sizes (each page and the manifest carry that card's
own boxes)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from PIL import Image, ImageChops, ImageStat

from components import Game, load_path
from generator import raster
from generator.build import icon_source
from generator.export.common import draw_faces
from generator.export.pod import DPI, INCH, SAFE_MM, export_pod

BLEED = INCH / 8
PT_PER_MM = 72 / 25.4

# A face that is told apart from itself turned: a red block in the top-left corner, a black
# band along the bottom edge, on a pale ground that runs into the bleed.
GAME = {
    "game.yaml": """
        game: sizes
        name: Size Test
        edition: "1.0"
        players: {min: 1, max: 2}
        """,
    "cards.yaml": """
        layouts:
          face:
            - {type: rect, x: 0, y: 0, w: 100%, h: 100%, fill: "#f4efe4", bleed: true}
            - {type: rect, x: 5, y: 5, w: 20, h: 14, fill: "#d01010"}
            - {type: rect, x: 0, y: 100%-12, w: 100%, h: 12, fill: "#101010"}
            - {type: text, text: "${title}", x: 5, y: 24, w: 40, h: 10, size: 10}
          back:
            - {type: rect, x: 0, y: 0, w: 100%, h: 100%, fill: "#2a6f97", bleed: true}
        defaults:
          kind: card
          group: Cards
          front: face
          back: back
        components:
          - {id: card/exact, title: Exact, size: poker}
          - {id: card/near, title: Near, size: [63.2, 88.5], count: 2}
          - {id: card/wide, title: Wide, size: [88.9, 63.5]}
          - {id: card/wide-near, title: Wide Near, size: [88.6, 63.1]}
        """,
}


def _game(tmp_path: Path) -> Game:
    folder = tmp_path / "sizes"
    for rel, text in GAME.items():
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return load_path(folder)


def _alone(game: Game, ident: str, bleed: float) -> Image.Image:
    """The card's front drawn alone on its own PDF page and rasterised at 300 dpi: what the
    export starts from, before any turn or resampling."""
    comp = next(c for c in game.components if c.id == ident)
    f = draw_faces(game, [comp], bleed, safe=SAFE_MM)[0]  # irata's marks as the export keeps them
    [img] = raster.render_faces([raster.Face(comp, "front", f.front)], DPI, icon_source(game))
    return img.convert("RGB")


def _mean_diff(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"),
                                                    b.convert("RGB"))).mean) / 3


def _files(result: Any) -> dict[tuple[str, str], dict[str, Any]]:
    manifest = json.loads(result.manifest.read_text(encoding="utf-8"))
    return {(f["component"], f["face"]): f for f in manifest["files"]}


@pytest.mark.parametrize(("vendor", "poker"), [("tgc", (825, 1125)), ("mpc", (822, 1122))])
def test_near_size_and_landscape_cards_get_the_vendors_exact_pixels(
        tmp_path: Path, vendor: str, poker: tuple[int, int]) -> None:
    game = _game(tmp_path)
    result = export_pod(game, vendor, tmp_path / "out")
    files = _files(result)
    assert {c for c, _ in files} == {"card/exact", "card/near", "card/wide", "card/wide-near"}
    assert not result.written.skipped
    expect = {  # (turned, resampled) as the manifest must say
        "card/exact": (False, False),  # drawn at the size with the vendor's bleed
        "card/near": (False, True),
        "card/wide": (True, False),
        "card/wide-near": (True, True),
    }
    for (comp, face), f in files.items():
        with Image.open(result.written.folder / f["file"]) as im:
            assert im.size == poker, (comp, face)  # portrait, the vendor's exact pixels
            assert im.mode == "RGB"
        assert f["pixels"] == list(poker)
        assert f["size"] == "poker"
        assert (f["turned"], f["resampled"]) == expect[comp], (comp, face, vendor)
        assert f["quantity"] == (2 if comp == "card/near" else 1)


def test_a_landscape_card_is_turned_clockwise(tmp_path: Path) -> None:
    """The Game Crafter's poker face of an 88.9 x 63.5 mm card is that face drawn alone and
    turned a quarter clockwise (its top edge to the right): 1125 x 825 px at 300 dpi turned
    to 825 x 1125, no resampling, so the two are the same raster and agree to within one
    level of 255 (the bound the other export tests use for one renderer's output). Turned the
    other way, or not at all, it differs by far more (its red corner and black band move)."""
    game = _game(tmp_path)
    result = export_pod(game, "tgc", tmp_path / "out")
    f = _files(result)[("card/wide", "front")]
    got = Image.open(result.written.folder / f["file"]).convert("RGB")
    alone = _alone(game, "card/wide", BLEED)
    assert alone.size == (1125, 825)
    clockwise = alone.rotate(-90, expand=True)
    assert max(hi for _, hi in ImageChops.difference(got, clockwise).getextrema()) <= 1
    counter = alone.rotate(90, expand=True)
    assert _mean_diff(got, counter) > 20
    # the red block, top-left on the card, is top-right on the turned face
    w, h = got.size
    assert got.getpixel((w - 1 - int(12 / 25.4 * DPI), int(12 / 25.4 * DPI)))[0] > 180
    assert got.getpixel((int(12 / 25.4 * DPI), int(12 / 25.4 * DPI))) != \
        got.getpixel((w - 1 - int(12 / 25.4 * DPI), int(12 / 25.4 * DPI)))


def test_a_near_size_card_is_resampled_not_redrawn(tmp_path: Path) -> None:
    """A 63.2 x 88.5 mm card (within 0.5 mm of poker) is drawn at its own size and
    resampled to The Game Crafter's 825 x 1125 px. The export must be that raster resized:
    the same face resized here agrees within 2 levels on average (both are LANCZOS resamples
    of one raster; measured 0), while the exact-size card's face, a different card, differs
    far more. The wide near-size card (88.6 x 63.1 mm) is turned and resampled."""
    game = _game(tmp_path)
    result = export_pod(game, "tgc", tmp_path / "out")
    files = _files(result)
    near = Image.open(result.written.folder / files[("card/near", "front")]["file"])
    alone = _alone(game, "card/near", BLEED)
    assert alone.size == (pytest.approx((63.2 + 2 * BLEED) / 25.4 * DPI, abs=1),
                          pytest.approx((88.5 + 2 * BLEED) / 25.4 * DPI, abs=1))
    assert alone.size != (825, 1125)
    want = alone.resize((825, 1125), Image.Resampling.LANCZOS)
    assert _mean_diff(near, want) < 2.0
    wide = Image.open(result.written.folder / files[("card/wide-near", "front")]["file"])
    wide_alone = _alone(game, "card/wide-near", BLEED).rotate(-90, expand=True)
    assert _mean_diff(wide, wide_alone.resize((825, 1125), Image.Resampling.LANCZOS)) < 2.0
    assert _mean_diff(wide, wide_alone.transpose(Image.Transpose.ROTATE_180).resize(
        (825, 1125), Image.Resampling.LANCZOS)) > 10


def test_drivethrucards_mixed_sizes_each_page_and_manifest_entry_true(tmp_path: Path) -> None:
    """One deck PDF of four cards within 0.5 mm of poker, two of them landscape. Every page
    is portrait, its MediaBox = BleedBox = its own card's trim plus 1/8" (9 pt) on each side
    and its TrimBox that trim; the manifest lists, page by page, the same size and boxes
    (not the first card's), and says which cards were turned."""
    game = _game(tmp_path)
    result = export_pod(game, "dtc", tmp_path / "out")
    manifest = json.loads(result.manifest.read_text(encoding="utf-8"))
    [deck] = manifest["files"]
    doc = pymupdf.open(result.written.folder / deck["file"])
    # portrait trim of each card, in mm
    trims = {"card/exact": (63.5, 88.9), "card/near": (63.2, 88.5),
             "card/wide": (63.5, 88.9), "card/wide-near": (63.1, 88.6)}
    turned = {"card/exact": False, "card/near": False, "card/wide": True,
              "card/wide-near": True}
    pages = deck["pages"]
    assert isinstance(pages, list) and len(pages) == doc.page_count == 2 * 5
    b = BLEED * PT_PER_MM
    for i, (page, entry) in enumerate(zip(doc, pages, strict=True)):
        comp = entry["component"]
        assert entry["face"] == ("back" if i % 2 == 0 else "front")
        tw, th = (v * PT_PER_MM for v in trims[comp])
        box = [0.0, 0.0, tw + 2 * b, th + 2 * b]
        trim = [b, b, b + tw, b + th]
        assert [page.mediabox.x0, page.mediabox.y0, page.mediabox.x1,
                page.mediabox.y1] == pytest.approx(box, abs=1e-3)
        assert page.bleedbox == page.mediabox
        t = page.trimbox
        assert [t.x0, t.y0, t.x1, t.y1] == pytest.approx(trim, abs=1e-3)
        assert page.rotation == 0
        assert entry["page_mm"] == pytest.approx([trims[comp][0] + 2 * BLEED,
                                                  trims[comp][1] + 2 * BLEED], abs=1e-6)
        assert entry["media_box_pt"] == pytest.approx(box, abs=1e-3)
        assert entry["bleed_box_pt"] == pytest.approx(box, abs=1e-3)
        assert entry["trim_box_pt"] == pytest.approx(trim, abs=1e-3)
        assert entry["turned"] is turned[comp]
    # the landscape card's front page shows its face turned clockwise, as the image vendors'
    pix = doc[2 * 3 + 1].get_pixmap(dpi=72)
    img = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
    w, _ = img.size
    assert img.getpixel((w - 1 - 34, 34))[0] > 180  # red block: top-right after the turn
    assert img.getpixel((34, 34))[0] < 180 or img.getpixel((34, 34))[1] > 180
