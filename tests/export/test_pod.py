"""irata export pod: the vendors' pixel sizes, DriveThruCards' page size and order, the safe
zone, and sizes that match no vendor."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from PIL import Image

from components import list_games, load, load_path
from generator.drawing import Drawing, Icon, Text
from generator.export.common import draw_faces
from generator.export.pod import INCH, VENDORS, export_pod, match_size, outside_safe_zone
from irata.cli import main

DECK = Path(__file__).parents[1] / "engine" / "fixtures" / "deck"


@pytest.mark.parametrize(("vendor", "size"), [("tgc", (825, 1125)), ("mpc", (822, 1122))])
def test_every_poker_face_has_the_vendors_exact_pixels(tmp_path: Path, vendor: str,
                                                       size: tuple[int, int]) -> None:
    game = load("mule-goes-crazy") if vendor == "tgc" else load_path(DECK)
    result = export_pod(game, vendor, tmp_path)
    manifest = json.loads(result.manifest.read_text(encoding="utf-8"))
    pngs = [f for f in manifest["files"] if f["file"].endswith(".png")]
    cards = [c for c in game.components if c.kind == "card" and c.printed and c.count > 0]
    assert len(pngs) == sum(1 + c.two_sided for c in cards)
    for f in pngs:
        with Image.open(result.written.folder / f["file"]) as im:
            assert im.size == size and im.mode == "RGB"
            assert f["resampled"] is False  # drawn at the size, not scaled to it
            assert im.info["dpi"][0] == pytest.approx(300, abs=0.01)


def test_drivethrucards_pdf_page_size_and_order(tmp_path: Path) -> None:
    game = load("mule")
    result = export_pod(game, "dtc", tmp_path)
    manifest = json.loads(result.manifest.read_text(encoding="utf-8"))
    deck = next(f for f in manifest["files"] if f["deck"] == "Unlucky Event Cards")
    doc = pymupdf.open(result.written.folder / deck["file"])
    copies = [c for c in game.components if c.group == "Unlucky Event Cards"]
    assert doc.page_count == 2 * sum(c.count for c in copies)
    w_pt, h_pt = (63.5 + INCH / 4) / 25.4 * 72, (88.9 + INCH / 4) / 25.4 * 72
    for page in doc:
        assert page.rect.width == pytest.approx(w_pt, abs=0.01)  # 2.75 in = 198 pt
        assert page.rect.height == pytest.approx(h_pt, abs=0.01)  # 3.75 in = 270 pt
    # back 1, front 1, back 2, front 2 ...: odd pages show the deck's back, even pages the
    # cards' own titles, in the manifest's order
    back_text = doc[0].get_text()
    for i, card in enumerate(deck["cards"]):
        comp = next(c for c in copies if c.id == card["component"])
        assert doc[2 * i].get_text() == back_text
        assert comp.fields["title"].split()[0] in doc[2 * i + 1].get_text()
        assert doc[2 * i + 1].get_text() != back_text


def test_sizes_no_vendor_takes_are_named_not_scaled(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "games"
    shutil.copytree(DECK, games / "deck")
    cards = games / "deck" / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    # one card of Outer Earth's bidding-paddle size (88 x 68 mm) among poker cards
    text = text.replace('{id: card/iota, title: Iota, text: "Ninth."}',
                        '{id: card/iota, title: Iota, text: "Ninth.", size: [88, 68]}')
    cards.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    args = ["export", "pod", "deck", "--vendor", "mpc", "--components", str(games),
            "--out", str(out)]
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 0
    err = capsys.readouterr().err
    assert "card/iota" in err and "88 x 68 mm is not a MakePlayingCards card size" in err
    assert not list(out.rglob("*iota*"))
    assert list(out.rglob("*alpha-front.png"))
    with pytest.raises(SystemExit) as exc:
        main([*args, "--strict"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].startswith("error: --strict")


def test_the_safe_zone_names_what_crosses_it(tmp_path: Path) -> None:
    from components import Component

    comp = Component("t/x", "card", (63.5, 88.9), 1, "", {}, None, {}, "x.yaml", 1)
    d = Drawing(63.5, 88.9, 3.175, [Text(31.75, 40, "Inside", "Helvetica", 10, "#000000",
                                         "middle")])
    assert outside_safe_zone(d, comp) == []
    d.add(Text(1.0, 10, "Edge", "Helvetica", 10, "#000000"))
    d.add(Icon("food", 60.0, 50.0, 4.0))
    crossing = outside_safe_zone(d, comp)
    assert [c.split(" by ")[0] for c in crossing] == ['text "Edge"', "icon food"]
    assert crossing[0].endswith("by 2.2 mm")  # 3.175 - 1.0
    # a bundled card whose corner icon reaches 0.2 mm past the line is named
    game = load("mule")
    ship = next(c for c in game.components if c.id == "production/pirate-ship")
    face = draw_faces(game, [ship], INCH / 8, safe=INCH / 8)[0].front  # as export draws it
    assert [c.split(" by ")[0] for c in outside_safe_zone(face, ship)] == ["icon ship"]


def test_the_version_mark_keeps_inside_the_vendors_safe_zone() -> None:
    """irata's own version mark sits by the bottom edge on a home print (inside the 1/8"
    safe zone, where the report would name it) and is raised inside it for the shops."""
    game = load("mule")
    cards = [c for c in game.components if c.kind == "card" and c.printed][:12]

    def marks(faces: list[Any]) -> list[tuple[Any, Drawing, Text]]:
        return [(f.comp, f.front, t) for f in faces for t in f.front.items
                if isinstance(t, Text) and t.text == f"v{f.comp.version}"]

    home = marks(draw_faces(game, cards, INCH / 8))
    assert home and all(f'text "v{comp.version}"' in " ".join(outside_safe_zone(d, comp))
               for comp, d, _ in home)  # the report covers irata's own mark
    shop = marks(draw_faces(game, cards, INCH / 8, safe=INCH / 8))
    assert len(shop) == len(home)
    for comp, d, t in shop:
        assert not any(f'text "v{comp.version}"' in c for c in outside_safe_zone(d, comp))
        assert t.y <= d.h - INCH / 8 - 0.3


@pytest.mark.parametrize("key", list_games())
def test_drivethrucards_pages_carry_trim_and_bleed_boxes(tmp_path: Path, key: str) -> None:
    """Every page of every DriveThruCards PDF: MediaBox = BleedBox = the page (trim plus 1/8"
    on each side), TrimBox = the card's own trim, inset by exactly 1/8" (9 pt) on every side.

    The boxes are compared to 0.001 pt: PDF numbers are written with at most 4 decimals, and
    a poker card's boxes are whole points (198 x 270 pt page, trim from 9 to 189 x 9 to 261).
    """
    game = load(key)
    result = export_pod(game, "dtc", tmp_path)
    manifest = json.loads(result.manifest.read_text(encoding="utf-8"))
    by_id = {c.id: c for c in game.components}
    bleed_pt = INCH / 8 / 25.4 * 72
    assert bleed_pt == pytest.approx(9.0)
    pages = 0
    for f in manifest["files"]:
        doc = pymupdf.open(result.written.folder / f["file"])
        trims = {by_id[c["component"]].size for c in f["cards"]}
        assert len(trims) == 1  # one trim size a deck file
        tw, th = (v / 25.4 * 72 for v in trims.pop())
        for page in doc:
            w, h = page.mediabox.width, page.mediabox.height
            assert (w, h) == (pytest.approx(tw + 2 * bleed_pt, abs=1e-3),
                              pytest.approx(th + 2 * bleed_pt, abs=1e-3))
            assert page.bleedbox == page.mediabox  # the bleed box is the whole page
            trim = page.trimbox
            assert [trim.x0, trim.y0, trim.x1, trim.y1] == pytest.approx(
                [bleed_pt, bleed_pt, w - bleed_pt, h - bleed_pt], abs=1e-3)
            assert trim.width == pytest.approx(tw, abs=1e-3)
            assert trim.height == pytest.approx(th, abs=1e-3)
            entry = f["pages"][page.number]  # the manifest's own entry for this page
            assert entry["trim_box_pt"] == pytest.approx([bleed_pt, bleed_pt, w - bleed_pt,
                                                          h - bleed_pt], abs=1e-3)
            assert entry["media_box_pt"] == pytest.approx([0, 0, w, h], abs=1e-3)
            pages += 1
        assert len(f["pages"]) == doc.page_count
    # a back page and a front page for every copy of every card of a size the shop takes
    # (muli has no cards; Outer Earth's bidding paddles and its wide card are not exported)
    cards = sum(c.count for c in game.components
                if c.kind == "card" and c.printed and c.count > 0
                and match_size(c.size[0], c.size[1], VENDORS["dtc"]) is not None)
    assert pages == 2 * cards
    assert pages > 0 or key == "muli"


@pytest.mark.parametrize("vendor", ["tgc", "mpc"])
def test_image_vendors_write_no_pdf(tmp_path: Path, vendor: str) -> None:
    """The Game Crafter and MakePlayingCards take one image per face: no PDF, so no page
    boxes; the bleed is in the pixels (the face is trim plus bleed)."""
    result = export_pod(load_path(DECK), vendor, tmp_path)
    files = [f["file"] for f in json.loads(result.manifest.read_text(encoding="utf-8"))["files"]]
    assert files and all(f.endswith(".png") for f in files)
    assert not list(result.written.folder.rglob("*.pdf"))
