"""The shapes a designer draws (polygon, regular, star, cut and rounded corners, gradients) and
hex tiles and tokens printed in a honeycomb with shared cut lines, in the PDF and the SVG."""

from __future__ import annotations

import json
import math
import re
from itertools import combinations
from pathlib import Path
from typing import Any

import fitz  # pymupdf
import pytest

from components import load_path
from components.errors import DefinitionError
from generator.build import BuildOptions, build
from generator.draw.elements import Context, draw_elements
from generator.drawing import Path as PathPrim
from generator.drawing import Rect, walk
from generator.layout import Settings

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "hexes"
GAME = "game: t\nname: T\npalette: {ink: \"#000000\", sun: \"#ffcc00\"}\n"


def _game(tmp_path: Path, elements: list[str], extra: str = "") -> Path:
    folder = tmp_path / "G"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    body = "".join(f"      - {e}\n" for e in elements)
    (folder / "cards.yaml").write_text(
        "components:\n  - id: c\n    kind: card\n    size: poker\n" + extra +
        "    front:\n" + body, encoding="utf-8")
    return folder


def _drawn(tmp_path: Path, *elements: str) -> list[Any]:
    game = load_path(_game(tmp_path, list(elements)))
    comp = game.components[0]
    ctx = Context(game, comp, dict(comp.fields), 63.5, 88.9, 3.0, "front")
    return walk(draw_elements(ctx, comp.front))


def _corners(p: PathPrim) -> list[tuple[float, float]]:
    return [(float(c[1]), float(c[2])) for c in p.cmds if c[0] in ("M", "L")]


def test_a_regular_hexagon_has_six_corners_on_its_circle_flat_side_up(tmp_path: Path) -> None:
    (hexagon,) = _drawn(tmp_path, "{type: regular, cx: 30, cy: 40, r: 10, sides: 6, "
                                  "rotate: 30, fill: ink}")
    pts = _corners(hexagon)
    assert len(pts) == 6 and hexagon.cmds[-1] == ("Z",)
    assert all(math.isclose(math.dist(p, (30, 40)), 10) for p in pts)
    ys = sorted(round(y, 6) for _, y in pts)
    assert ys[0] == ys[1] and ys[-1] == ys[-2]  # a flat top and a flat bottom


def test_a_star_alternates_its_tips_and_notches(tmp_path: Path) -> None:
    (star,) = _drawn(tmp_path, "{type: star, cx: 20, cy: 20, r: 10, points: 5, inner: 0.4, "
                               "fill: sun}")
    radii = [math.dist(p, (20, 20)) for p in _corners(star)]
    assert len(radii) == 10
    assert all(math.isclose(r, 10 if i % 2 == 0 else 4) for i, r in enumerate(radii))
    assert math.isclose(_corners(star)[0][0], 20)  # the first tip straight up


def test_a_polygon_goes_through_its_points_and_percentages(tmp_path: Path) -> None:
    (poly,) = _drawn(tmp_path, "{type: polygon, points: [[0, 0], [\"50%\", 10], "
                               "[\"100%\", \"100%\"]], fill: ink}")
    assert _corners(poly) == [(0, 0), (31.75, 10), (63.5, 88.9)]


def test_a_rect_takes_rounded_or_cut_corners(tmp_path: Path) -> None:
    rounded, cut = _drawn(tmp_path, "{type: rect, x: 0, y: 0, w: 20, h: 10, radius: 2, "
                                    "fill: ink}",
                          "{type: rect, x: 0, y: 0, w: 20, h: 10, radius: 2, corners: cut, "
                          "fill: ink}")
    assert isinstance(rounded, Rect) and rounded.radius == 2
    assert isinstance(cut, PathPrim)
    assert _corners(cut) == [(2, 0), (18, 0), (20, 2), (20, 8), (18, 10), (2, 10), (0, 8),
                             (0, 2)]


@pytest.mark.parametrize(("element", "message"), [
    ("{type: rect, w: 5, h: 5, corners: chamfer, radius: 1}", "unknown corners 'chamfer'"),
    ("{type: rect, w: 5, h: 5, gradient: {colors: [ink, sunn]}}", "unknown colour 'sunn'"),
    ("{type: rect, w: 5, h: 5, gradient: {kind: conic, colors: [ink, sun]}}",
     "a gradient's kind must be one of: linear, radial"),
    ("{type: star, cx: 5, cy: 5}", "a star element needs 'r'"),
])
def test_a_shape_slip_is_named_at_its_place(tmp_path: Path, element: str,
                                            message: str) -> None:
    from components.facecheck import check_faces
    from generator.icons import DEFAULT_COLOURS

    with pytest.raises(DefinitionError, match=re.escape(message)) as info:
        check_faces(load_path(_game(tmp_path, [element])), tuple(DEFAULT_COLOURS))
    assert info.value.line == 6


def _print(folder: Path, out: Path, **settings: Any) -> dict[str, Any]:
    result = build(load_path(folder), BuildOptions(Settings(**settings), ("pdf", "svg"), out))
    return json.loads(result.manifest.read_text())


def test_a_gradient_runs_from_colour_to_colour_in_the_pdf_and_the_svg(tmp_path: Path) -> None:
    folder = _game(tmp_path, [
        "{type: rect, x: 0, y: 0, w: 100%, h: 40, gradient: {colors: [\"#ffffff\", "
        "\"#000000\"]}}",
        "{type: ellipse, cx: 31.75, cy: 65, r: 20, gradient: {kind: radial, colors: "
        "[\"#ffffff\", \"#0000ff\"]}}"], extra="    count: 2\n")
    man = _print(folder, tmp_path / "out", paper="a4")
    sheet = man["sheets"][0]
    x, y, _, _ = sheet["placements"][0]["trim_mm"]
    doc = fitz.open(tmp_path / "out" / "t" / man["sheets"][0]["file"])
    pix = doc[sheet["page"] - 1].get_pixmap(dpi=100)

    def at(mx: float, my: float) -> tuple[int, ...]:
        return tuple(pix.pixel(int((x + mx) / 25.4 * 100), int((y + my) / 25.4 * 100)))

    left, mid, right = at(2, 20), at(31.75, 20), at(61.5, 20)
    assert left[0] > 230 and right[0] < 25 and 90 < mid[0] < 165  # white, grey, black
    centre, rim = at(31.75, 65), at(31.75 + 18, 65)
    assert min(centre) > 220 and rim[2] > 200 and rim[0] < 60  # white at the centre, blue out
    svg = (tmp_path / "out" / "t" / sheet["svg"]).read_text(encoding="utf-8")
    lin = re.search(r'<linearGradient [^>]*gradientUnits="userSpaceOnUse"[^>]*>(.*?)'
                    r"</linearGradient>", svg, re.S)
    assert lin and re.findall(r'stop-color="(#[0-9a-f]{6})"', lin.group(1)) == [
        "#ffffff", "#000000"]
    assert "<radialGradient" in svg and re.search(r'fill="url\(#k\d+\)"', svg)


def _hexagon(trim: list[float]) -> list[tuple[float, float]]:
    x, y, w, h = trim
    return [(x + w / 4, y), (x + 3 * w / 4, y), (x + w, y + h / 2), (x + 3 * w / 4, y + h),
            (x + w / 4, y + h), (x, y + h / 2)]


def _edges(trim: list[float]) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    pts = _hexagon(trim)
    return [(pts[k], pts[(k + 1) % 6]) for k in range(6)]


def _shared(a: list[float], b: list[float]) -> list[tuple[tuple[float, float], ...]]:
    """The edges two hexagons have in common (end to end, to a thousandth of a mm)."""
    def same(e: tuple[tuple[float, float], ...], f: tuple[tuple[float, float], ...]) -> bool:
        return (math.dist(e[0], f[1]) < 1e-3 and math.dist(e[1], f[0]) < 1e-3) or (
            math.dist(e[0], f[0]) < 1e-3 and math.dist(e[1], f[1]) < 1e-3)
    return [e for e in _edges(a) if any(same(e, f) for f in _edges(b))]


@pytest.fixture(scope="module")
def honeycomb(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("hexes")
    return out, _print(EXAMPLE, out, paper="a4")


def test_hex_tiles_interlock_in_a_honeycomb_with_shared_cut_lines(
        honeycomb: tuple[Path, dict[str, Any]]) -> None:
    _, man = honeycomb
    tiles = [s for s in man["sheets"] if s["title"].startswith("Terrain Tiles")
             and s["side"] == "front"]
    assert len(tiles) == 1  # 18 tiles of 38 mm on one A4 sheet
    trims = [p["trim_mm"] for p in tiles[0]["placements"] if p["component"].startswith("ter")]
    assert len(trims) == 18
    W, H = tiles[0]["page_mm"]
    margin = man["margin_mm"]
    shared = 0
    for a, b in combinations(trims, 2):
        ca = (a[0] + a[2] / 2, a[1] + a[3] / 2)
        cb = (b[0] + b[2] / 2, b[1] + b[3] / 2)
        # hexagons never overlap: centres at least flat-to-flat apart
        assert math.dist(ca, cb) >= a[3] - 1e-3
        common = _shared(a, b)
        if math.isclose(math.dist(ca, cb), a[3], abs_tol=1e-3):
            assert len(common) == 1  # neighbours share one edge: one cut
            shared += 1
        else:
            assert not common
    assert shared >= 30
    for p in tiles[0]["placements"]:
        bx, by, bw, bh = p["bleed_mm"]
        assert margin - 1e-6 <= bx and bx + bw <= W - margin + 1e-6
        assert margin - 1e-6 <= by and by + bh <= H - margin + 1e-6


def test_the_honeycomb_prints_without_gaps_and_its_backs_mirror(
        honeycomb: tuple[Path, dict[str, Any]]) -> None:
    out, man = honeycomb
    sheets = [s for s in man["sheets"] if s["title"].startswith("Terrain Tiles")]
    front, back = sheets[0], sheets[1]
    assert back["side"] == "back"
    H = front["page_mm"][1]
    fronts = {(p["component"], p["copy"]): p["trim_mm"] for p in front["placements"]
              if p["component"].startswith("terrain/")}
    for p in back["placements"]:
        fx, fy, fw, fh = fronts[(p["component"], p["copy"])]
        bx, by, bw, bh = p["trim_mm"]
        # a landscape sheet turned on the paper's long edge: the backs mirror top to bottom
        assert math.isclose(bx, fx, abs_tol=1e-3) and math.isclose(by, H - fy - fh,
                                                                    abs_tol=1e-3)
        assert (bw, bh) == (fw, fh)
    doc = fitz.open(out / "hex-frontier" / front["file"])
    pix = doc[front["page"] - 1].get_pixmap(dpi=150)
    trims = list(fronts.values())
    checked = 0
    for a, b in combinations(trims, 2):
        common = _shared(a, b)
        if common:
            (p, q), = common
            mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
            r, g, bl = pix.pixel(int(mx / 25.4 * 150), int(my / 25.4 * 150))[:3]
            assert min(r, g, bl) < 200, "a shared cut line shows paper: a gap"
            checked += 1
    assert checked >= 30
    svg = (out / "hex-frontier" / front["svg"]).read_text(encoding="utf-8")
    assert len(re.findall(r"<clipPath id=\"x\d+\"><polygon ", svg)) == 18 + 12  # and scouts


def test_hex_tokens_print_in_their_own_honeycomb_in_the_room_the_tiles_leave(
        honeycomb: tuple[Path, dict[str, Any]]) -> None:
    _, man = honeycomb
    sheet = man["sheets"][0]
    assert sheet["title"] == "Terrain Tiles, Scout Tokens"
    scouts = [p for p in sheet["placements"] if p["component"].startswith("scout/")]
    tiles = [p for p in sheet["placements"] if p["component"].startswith("terrain/")]
    assert len(scouts) == 12 and len(tiles) == 18
    w, h = scouts[0]["trim_mm"][2:]
    assert math.isclose(w / h, 2 / math.sqrt(3), rel_tol=1e-3) and h == 25
    # the two honeycombs keep apart: no bleed of one reaches the other's
    lowest = max(p["bleed_mm"][1] + p["bleed_mm"][3] for p in tiles)
    assert min(p["bleed_mm"][1] for p in scouts) > lowest
    assert not any(p["face"] == "back" for p in man["sheets"][1]["placements"]
                   if p["component"].startswith("scout/"))  # one-sided: nothing behind


@pytest.mark.parametrize(("extra", "message"), [
    ("    shape: hex\n", "shape hex is for tiles and tokens, not a card"),
])
def test_a_hex_card_is_refused(tmp_path: Path, extra: str, message: str) -> None:
    with pytest.raises(DefinitionError, match=message):
        load_path(_game(tmp_path, ["{type: rect, w: 5, h: 5}"], extra=extra))


def test_a_hex_size_that_is_not_a_regular_hexagon_is_answered_with_the_right_one(
        tmp_path: Path) -> None:
    folder = _game(tmp_path, ["{type: rect, w: 5, h: 5}"])
    text = (folder / "cards.yaml").read_text(encoding="utf-8")
    (folder / "cards.yaml").write_text(
        text.replace("kind: card\n    size: poker", "kind: tile\n    shape: hex\n    "
                     "size: [40, 40]"), encoding="utf-8")
    with pytest.raises(DefinitionError, match=r"\[46\.19, 40\] for 40 mm flat to flat") as info:
        load_path(folder)
    assert info.value.line == 5


VALUES = [0, -1, 3, 6, 64, 65, 1e9, float("nan"), "50%", "${nope}", "x", [], [[0, 0]], {},
          [[0, 0], [1, "a"], [2, 2]], {"colors": ["ink"]}, {"colors": "ink"},
          {"kind": "radial", "colors": ["ink", "sun"], "angle": 1e9}, None, True]


@pytest.mark.parametrize("kind", ["polygon", "regular", "star", "rect"])
def test_hostile_shape_values_end_in_one_located_error(tmp_path: Path, kind: str) -> None:
    """Every value of every shape key, hostile or not: a drawing or a DefinitionError (what
    the command line prints as one located line), never another exception."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from components.elements import SPECS
    from components.facecheck import check_faces
    from generator.icons import DEFAULT_COLOURS

    keys = SPECS[kind].names
    base = {"polygon": {"points": [[0, 0], [5, 0], [2, 4]]},
            "regular": {"cx": 5, "cy": 5, "r": 4, "sides": 6},
            "star": {"cx": 5, "cy": 5, "r": 4}, "rect": {"w": 5, "h": 5}}[kind]

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.dictionaries(st.sampled_from(keys), st.sampled_from(VALUES), max_size=4))
    def one(values: dict[str, Any]) -> None:
        el = {"type": kind, **base, **values}
        flow = json.dumps(el).replace("NaN", ".nan")
        try:
            check_faces(load_path(_game(tmp_path, [flow])), tuple(DEFAULT_COLOURS))
            _drawn(tmp_path, flow)
        except DefinitionError as exc:
            assert exc.line is not None

    one()


def test_a_gradient_in_a_face_printed_many_times_and_in_an_icon_prints(tmp_path: Path) -> None:
    """A face placed many times is a PDF form, which reportlab gives no shadings: a face with
    a gradient (its own or its icons') is drawn in place, so every copy shows it."""
    folder = _game(tmp_path, ["{type: icon, name: dusk, x: 0, y: 0, size: 60}"],
                   extra="    count: 4\n")
    (folder / "game.yaml").write_text(
        GAME + "icons:\n  dusk:\n    - {type: rect, x: 0, y: 0, w: 10, h: 10, "
               "gradient: {colors: [\"#ffffff\", \"#000000\"]}}\n", encoding="utf-8")
    man = _print(folder, tmp_path / "out", paper="a4")
    sheet = man["sheets"][0]
    doc = fitz.open(tmp_path / "out" / "t" / sheet["file"])
    pix = doc[sheet["page"] - 1].get_pixmap(dpi=100)
    for p in sheet["placements"]:
        x, y, _, _ = p["trim_mm"]
        left = pix.pixel(int((x + 3) / 25.4 * 100), int((y + 30) / 25.4 * 100))
        right = pix.pixel(int((x + 57) / 25.4 * 100), int((y + 30) / 25.4 * 100))
        assert left[0] > 200 and right[0] < 50, (p["copy"], left, right)


def test_gradients_print_in_cmyk_for_a_press(tmp_path: Path) -> None:
    import pikepdf

    result = build(load_path(EXAMPLE), BuildOptions(Settings(paper="a4"), ("pdf",),
                                                    tmp_path / "out", cmyk=True))
    spaces = set()
    for name in ("hex-frontier.pdf", "hex-frontier-single-sided.pdf"):
        with pikepdf.open(result.manifest.parent / name) as pdf:
            spaces |= {str(o.ColorSpace) for o in pdf.objects
                       if isinstance(o, pikepdf.Dictionary) and "/ShadingType" in o}
    assert spaces == {"/DeviceCMYK"}


@pytest.mark.skipif(__import__("shutil").which("rsvg-convert") is None,
                    reason="needs rsvg-convert")
def test_the_pdf_and_the_svg_show_the_same_shapes(
        honeycomb: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """Every sheet of the example (hexes, stars, polygons, cut corners, gradients), rasterised
    from the PDF and from the SVG: the same picture, pixel by pixel, but for edge pixels."""
    import subprocess

    from PIL import Image, ImageChops

    out, man = honeycomb
    for sheet in man["sheets"]:
        doc = fitz.open(out / "hex-frontier" / sheet["file"])
        pix = doc[sheet["page"] - 1].get_pixmap(dpi=50)
        pdf = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
        png = tmp_path / "sheet.png"
        subprocess.run(["rsvg-convert", "-b", "white", "-d", "50", "-p", "50", "-o", str(png),
                        str(out / "hex-frontier" / sheet["svg"])], check=True)
        svg = Image.open(png).convert("RGB").resize(pdf.size)
        diff = ImageChops.difference(pdf, svg).convert("L")
        far = sum(diff.histogram()[61:])  # pixels more than 60 levels apart
        assert far < 0.01 * pdf.width * pdf.height, (sheet["svg"], far)


def test_a_hex_piece_previews_as_printed_cut_to_its_hexagon(tmp_path: Path) -> None:
    from generator.preview import preview

    game = load_path(EXAMPLE)
    img, how = preview(game, game.component("terrain/desert"), "front", Settings(), 100)
    assert how == "as printed"
    w, h = img.size
    assert img.convert("RGB").getpixel((1, 1)) == (255, 255, 255)  # outside the hexagon
    r, g, b = img.convert("RGB").getpixel((w // 2, h // 2))
    assert (r, g, b) != (255, 255, 255) and r > b  # the desert's gold


def test_the_ink_saver_lightens_a_large_gradient_as_it_would_a_fill(tmp_path: Path) -> None:
    from generator.draw import Options, draw_component
    from generator.ink import luminance

    game = load_path(EXAMPLE)
    sea = game.component("terrain/sea")
    full = draw_component(game, sea, Options())
    saved = draw_component(game, sea, Options(ink="saver"))

    def stops(d: Any) -> tuple[str, ...]:
        (g,) = [p.style.gradient for p in walk(d.items)
                if getattr(getattr(p, "style", None), "gradient", None)]
        return g.colors

    assert stops(full.front) == ("#2f6f9f", "#173c5c")  # sea to sea-deep
    assert all(luminance(c) > 0.6 for c in stops(saved.front))
    # a small gradient (the cards' badges) keeps its colours
    card = game.component("frontier/landfall")
    small = [p.style.gradient.colors for p in walk(draw_component(
        game, card, Options(ink="saver")).front.items)
        if isinstance(p, PathPrim) and p.style.gradient and p.style.gradient.kind == "radial"]
    assert small == [("#f1c232", "#9c6b00")]
