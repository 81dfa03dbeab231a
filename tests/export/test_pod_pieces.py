"""irata export pod --vendor tgc for what is not a card: tokens, tiles, standees and boards
as The Game Crafter's products (its image sizes at 300 dpi with 1/8" bleed), the same
exact-size rule as cards (near sizes resampled, landscape turned, other sizes named and
never scaled), and the other vendors naming them as pieces they do not print."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from components import Game, load_path
from generator.drawing import Drawing, Text
from generator.export.pieces import PRODUCTS, match
from generator.export.pod import DPI, INCH, export_pod, outside_safe_zone

BLEED = INCH / 8

GAME = {
    "game.yaml": """
        game: bits
        name: Bits Test
        edition: "1.0"
        players: {min: 1, max: 2}
        """,
    "pieces.yaml": """
        layouts:
          face:
            - {type: rect, x: 0, y: 0, w: 100%, h: 100%, fill: "#f4efe4", bleed: true}
            - {type: rect, x: 2, y: 2, w: 6, h: 6, fill: "#d01010"}
            - {type: text, text: "${title}", x: 4, y: 40%, w: 100%-8, h: 8, size: 6,
               align: center}
          back:
            - {type: rect, x: 0, y: 0, w: 100%, h: 100%, fill: "#2a6f97", bleed: true}
        components:
          - {id: token/large, kind: token, title: L, size: [25.4, 25.4], front: face,
             back: back, count: 3}
          - {id: token/near, kind: token, title: N, size: [25, 25], front: face}
          - {id: token/odd, kind: token, title: O, size: [16, 16], front: face}
          - {id: token/odd-too, kind: token, title: P, size: [16, 16], front: face}
          - {id: tile/big, kind: tile, title: Big, size: [88.9, 88.9], front: face, back: back}
          - {id: tile/domino, kind: tile, title: Dom, size: [50.8, 25.4], front: face}
          - {id: tile/lands, kind: tile, title: Land, size: [30, 30], front: face}
          - {id: tile/hex, kind: tile, shape: hex, title: Hex, size: 82.55, front: face,
             back: back}
          - {id: standee/hero, kind: standee, title: Hero, size: [25.4, 76.2], front: face}
          - {id: board/quarter, kind: board, title: Quarter, size: [127, 127], front: face,
             back: back}
          - {id: board/bifold, kind: board, title: Fold, size: [457.2, 228.6], front: face,
             back: back}
          - {id: sheet/rules, kind: sheet, title: Rules, size: [186, 256], front: face}
        """,
}

# what each piece must become: (product, its image pixels, turned, resampled)
EXPECT: dict[str, tuple[str, tuple[int, int], bool, bool]] = {
    "token/large": ("LargeCircleChit", (375, 375), False, False),
    "token/near": ("LargeCircleChit", (375, 375), False, True),
    "tile/big": ("LargeSquareTile", (1125, 1125), False, False),
    "tile/domino": ("DominoChit", (375, 675), True, False),
    # a regular hexagon 82.55 mm flat to flat is 95.32 mm across, the shop's image 95.25
    "tile/hex": ("LargeHexTile", (1200, 1050), False, True),
    "standee/hero": ("LargeStandee", (375, 975), False, False),
    "board/quarter": ("QuarterBoard", (1575, 1575), False, False),
    "board/bifold": ("BiFoldBoard", (2775, 5475), True, False),
}


def _game(tmp_path: Path) -> Game:
    folder = tmp_path / "bits"
    for rel, text in GAME.items():
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return load_path(folder)


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("pieces")
    result = export_pod(_game(tmp), "tgc", tmp / "out")
    return result, json.loads(result.manifest.read_text(encoding="utf-8"))


def test_the_product_table_is_the_shops_pixels_less_its_bleed() -> None:
    """Each product's trim is its image at 300 dpi less 1/8" on each side: the Quad-Fold
    board's 5475 px are 18", a Large Circle Chit's 375 px are 1", a Medium Square Chit's
    300 px 3/4"."""
    by_id = {p.identity: p for p in PRODUCTS}
    assert by_id["QuadFoldBoard"].trim_mm == (18 * INCH, 18 * INCH)
    assert by_id["LargeCircleChit"].trim_mm == (INCH, INCH)
    assert by_id["MediumSquareChit"].trim_mm == pytest.approx((0.75 * INCH, 0.75 * INCH))
    assert by_id["BiFoldBoard"].trim_mm == pytest.approx((9 * INCH, 18 * INCH))
    assert not by_id["QuadFoldBoard"].two_sided and by_id["QuarterBoard"].two_sided
    assert len({p.identity for p in PRODUCTS}) == len(PRODUCTS)


def test_each_piece_gets_its_products_exact_pixels(exported: tuple[Any, dict[str, Any]]
                                                  ) -> None:
    result, manifest = exported
    files = {(f["component"], f["face"]): f for f in manifest["files"]}
    assert {c for c, _ in files} == set(EXPECT)
    for (comp, face), f in files.items():
        product, pixels, turned, resampled = EXPECT[comp]
        assert f["product"] == product, comp
        assert f["product_url"].endswith("/make/products/" + product)
        assert (f["turned"], f["resampled"]) == (turned, resampled), comp
        assert f["pixels"] == list(pixels)
        with Image.open(result.written.folder / f["file"]) as im:
            assert im.size == pixels and im.mode == "RGB", (comp, face)
    assert files[("token/large", "front")]["quantity"] == 3
    # two-sided where the definition has a back; a standee's back is its front again, as on
    # irata's home strip; the folding board's face alone
    faces = {c: sorted(face for cc, face in files if cc == c) for c in EXPECT}
    assert faces["token/large"] == ["back", "front"]
    assert faces["token/near"] == ["front"]
    assert faces["standee/hero"] == ["back", "front"]
    assert faces["board/quarter"] == ["back", "front"]
    assert faces["board/bifold"] == ["front"]
    # irata's own marks (the version, a board's QR stamp) keep inside the 1/8" safe zone
    assert manifest["warnings"] == []


def test_what_the_shop_does_not_make_is_named_with_its_sizes(
        exported: tuple[Any, dict[str, Any]]) -> None:
    result, manifest = exported
    skipped = manifest["not_exported"]
    assert skipped == result.written.skipped
    odd = [s for s in skipped if s.startswith("token/odd ")]
    # two 16 mm tokens are one reason, naming the first and the sizes made in their shape
    assert len(odd) == 1 and "and 1 more token of its size" in odd[0]
    assert "16 mm across is not the size of a The Game Crafter round token" in odd[0]
    assert "Large Circle Chit 25.4 mm across" in odd[0] and "not scaled" in odd[0]
    assert not any(s.startswith("token/odd-too") for s in skipped)
    lands = next(s for s in skipped if s.startswith("tile/lands"))
    assert "30 mm square is not the size of a The Game Crafter square tile" in lands
    assert any(s.startswith("board/bifold back") and "face alone" in s for s in skipped)
    assert any(s.startswith("sheet/rules") and "makes no sheet" in s for s in skipped)
    names = {f["file"] for f in manifest["files"]}
    assert not any("odd" in n or "lands" in n or "rules" in n for n in names)


def test_a_landscape_piece_is_turned_clockwise(exported: tuple[Any, dict[str, Any]]) -> None:
    """The domino tile (50.8 x 25.4 mm, landscape) is The Game Crafter's portrait Domino
    Chit: its red corner, top-left on the tile, lands top-right once turned clockwise."""
    result, manifest = exported
    f = next(f for f in manifest["files"] if f["component"] == "tile/domino")
    img = Image.open(result.written.folder / f["file"]).convert("RGB")
    w, _ = img.size
    at = int((BLEED + 5) / INCH * DPI)  # inside the 6 mm red square, past the bleed
    assert img.getpixel((w - 1 - at, at))[0] > 180 and img.getpixel((w - 1 - at, at))[1] < 80
    assert img.getpixel((at, at))[1] > 180  # the pale ground, not red


def test_a_shops_die_cuts_a_round_piece_so_no_cut_circle_is_drawn(
        exported: tuple[Any, dict[str, Any]], tmp_path: Path) -> None:
    """At home a round token carries its cut circle for scissors; on the shop's chit the
    circle would be a grey ring wherever the die lands off it: the image has the face's
    ground all round the trim."""
    result, manifest = exported
    f = next(f for f in manifest["files"]
             if f["component"] == "token/large" and f["face"] == "front")
    img = Image.open(result.written.folder / f["file"]).convert("RGB")
    edge = (187, int(BLEED / INCH * DPI))  # the top of the trim circle, mid-width
    ground = img.getpixel((187, 187 - 60))
    band = img.crop((edge[0] - 2, edge[1] - 3, edge[0] + 3, edge[1] + 4))
    assert max(hi for _, hi in ImageChops.difference(
        band, Image.new("RGB", band.size, ground)).getextrema()) <= 6


def test_a_round_pieces_safe_zone_is_a_circle() -> None:
    """Text in the corner of a 1" round chit's square, inside a square safe zone, is outside
    the circle 1/8" inside the chit's edge: it is named; the centre is not."""
    from components import Component

    comp = Component("t/x", "token", (25.4, 25.4), 1, "", {}, None, {}, "x.yaml", 1)
    d = Drawing(25.4, 25.4, BLEED, [Text(12.7, 13, "Mid", "Helvetica", 6, "#000000",
                                         "middle")])
    assert outside_safe_zone(d, comp, round_piece=True) == []
    d.add(Text(3.6, 5.0, "Corner", "Helvetica", 5, "#000000"))
    assert outside_safe_zone(d, comp) == []  # inside the square safe zone
    crossing = outside_safe_zone(d, comp, round_piece=True)
    assert [c.split(" by ")[0] for c in crossing] == ['text "Corner"']


def test_a_hex_pieces_safe_zone_is_its_hexagon() -> None:
    """On a Large Hex Tile (95.25 x 82.55 mm, flat-topped), text by a corner of its box is
    inside a rectangle's safe zone but outside the hexagon 1/8" inside the cut: it is named;
    text by the middle of a flat side is not."""
    from components import Component

    comp = Component("t/h", "tile", (95.25, 82.55), 1, "", {}, None, {}, "x.yaml", 1)
    comp.shape = "hex"
    d = Drawing(95.25, 82.55, BLEED, [Text(47.6, 12, "Top", "Helvetica", 8, "#000000",
                                           "middle")])
    assert outside_safe_zone(d, comp, hex_piece=True) == []
    d.add(Text(6.0, 10.0, "Corner", "Helvetica", 6, "#000000"))
    assert outside_safe_zone(d, comp) == []  # inside the rectangle's safe zone
    crossing = outside_safe_zone(d, comp, hex_piece=True)
    assert [c.split(" by ")[0] for c in crossing] == ['text "Corner"']


def test_match_takes_the_pieces_shape_and_kind() -> None:
    from components import Component

    def piece(kind: str, size: tuple[float, float], shape: str = "square") -> Component:
        c = Component("x/y", kind, size, 1, "", {}, None, {}, "x.yaml", 1)
        c.shape = shape
        return c

    found = match(piece("token", (19.05, 19.05), "round"))
    assert found is not None and found[0].identity == "MediumCircleChit"
    found = match(piece("token", (19.05, 19.05)))
    assert found is not None and found[0].identity == "MediumSquareChit"
    assert match(piece("card", (25.4, 25.4))) is None  # cards have their own sizes
    assert match(piece("standee", (25.4, 25.4))) is None
    found = match(piece("board", (457.2, 685.8)))
    assert found is not None and found[0].identity == "SixFoldBoard" and not found[1]


@pytest.mark.parametrize("vendor", ["mpc", "dtc"])
def test_card_vendors_name_the_pieces_they_do_not_print(tmp_path: Path, vendor: str) -> None:
    result = export_pod(_game(tmp_path), vendor, tmp_path / "out")
    assert result.faces == 0
    assert result.written.skipped == [
        "12 components that are not cards (board, sheet, standee, tile, token): "
        + {"mpc": "MakePlayingCards", "dtc": "DriveThruCards"}[vendor] + " prints cards"]
