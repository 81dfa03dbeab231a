"""irata export tts: the saved object, the deck sheets and the pieces, for every bundled game.

The structure is checked at a low dpi (the claims there do not depend on resolution); the
picture itself is checked at the default 150 dpi against the printed PDF.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image, ImageChops, ImageStat

from components import list_games, load, load_path
from generator import raster
from generator.build import BuildOptions, build
from generator.export.common import printed_title
from generator.export.tts import D6_CELLS, export_tts
from generator.layout import Settings
from irata.cli import main

GAMES = list_games()
DECK = Path(__file__).parents[1] / "engine" / "fixtures" / "deck"


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict[str, Any],
                                                                          dict[str, Any]]]:
    out = tmp_path_factory.mktemp("tts")
    done = {}
    for key in GAMES:
        result = export_tts(load(key), out, dpi=40)
        save = json.loads(result.save.read_text(encoding="utf-8"))
        manifest = json.loads(result.manifest.read_text(encoding="utf-8"))
        done[key] = (result.save.parent, save, manifest)
    return done


def _path(url: str) -> Path:
    parsed = urlparse(url)
    assert parsed.scheme == "file", url
    return Path(unquote(parsed.path))


def _objects(states: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for o in states:
        out.append(o)
        if o["Name"] == "Bag":
            out.extend(_objects(o["ContainedObjects"]))
    return out


def test_every_game_has_decks_and_every_printed_card(exports: Any) -> None:
    for key in GAMES:
        folder, save, _ = exports[key]
        game = load(key)
        cards = sum(c.count for c in game.components
                    if c.printed and c.kind == "card" and c.count > 0)
        objs = _objects(save["ObjectStates"])
        in_save = sum(len(o["DeckIDs"]) for o in objs if o["Name"] == "DeckCustom")
        in_save += sum(1 for o in objs if o["Name"] == "CardCustom")
        assert in_save == cards, key


def test_card_ids_deck_ids_contained_objects_and_images_agree(exports: Any) -> None:
    checked = 0
    for key in GAMES:
        folder, save, manifest = exports[key]
        game = load(key)
        by_id = {c.id: c for c in game.components}
        listed = {e["key"]: e for d in manifest["decks"] for e in d["entries"]}
        seen_keys: set[int] = set()
        for obj in _objects(save["ObjectStates"]):
            if obj["Name"] == "CardCustom":
                cards, custom = [obj], obj["CustomDeck"]
                deck_ids = [obj["CardID"]]
            elif obj["Name"] == "DeckCustom":
                cards, custom, deck_ids = obj["ContainedObjects"], obj["CustomDeck"], \
                    obj["DeckIDs"]
            else:
                continue
            # DeckIDs are the contained cards' CardIDs, in order
            assert deck_ids == [c["CardID"] for c in cards]
            for card in cards:
                deck_key, index = divmod(card["CardID"], 100)
                entry = custom[str(deck_key)]
                assert card["CustomDeck"] == {str(deck_key): entry}
                assert deck_key not in seen_keys or str(deck_key) in custom
                # the cell is on the sheet and is not the hidden (last) cell
                assert 0 <= index < entry["NumWidth"] * entry["NumHeight"] - 1
                listed_cell = next(c for c in listed[deck_key]["cards"]
                                   if c["card_id"] == card["CardID"])
                comp = by_id[listed_cell["component"]]
                assert card["Nickname"] == printed_title(comp, _front(game, comp))
                assert listed_cell["cell"] == index
                checked += 1
            for k, entry in custom.items():
                seen_keys.add(int(k))
                assert 1 <= entry["NumWidth"] <= 10 and 1 <= entry["NumHeight"] <= 7
                face = Image.open(_path(entry["FaceURL"]))
                back = Image.open(_path(entry["BackURL"]))
                assert face.mode == "RGB" and back.mode == "RGB"
                assert face.width <= 4096 and face.height <= 4096
                cw, ch = listed[int(k)]["cell_px"]
                assert face.size == (entry["NumWidth"] * cw, entry["NumHeight"] * ch)
                if entry["UniqueBack"]:
                    assert back.size == face.size
                else:
                    assert back.size == (cw, ch)
                # copies: a component with count n has n CardIDs of its cell
                for cell in listed[int(k)]["cards"]:
                    assert deck_ids.count(cell["card_id"]) == cell["copies"]
        # every file the manifest lists exists and is inside the export folder
        for f in manifest["files"]:
            path = (folder / f["file"]).resolve()
            assert path.is_file() and path.is_relative_to(folder.resolve())
    assert checked > 300


def _front(game: Any, comp: Any) -> Any:
    from generator.draw import Options, draw_component

    return draw_component(game, comp, Options()).front


def test_pieces_are_tokens_tiles_and_boards_with_existing_images(exports: Any) -> None:
    names: set[str] = set()
    for key in GAMES:
        _, save, _ = exports[key]
        for obj in _objects(save["ObjectStates"]):
            if obj["Name"] in ("Custom_Token", "Custom_Tile", "Custom_Board"):
                names.add(obj["Name"])
                img = obj["CustomImage"]
                assert _path(img["ImageURL"]).is_file()
                if img["ImageSecondaryURL"]:
                    assert _path(img["ImageSecondaryURL"]).is_file()
                with Image.open(_path(img["ImageURL"])) as im:
                    assert max(im.size) <= 4096
    assert names == {"Custom_Token", "Custom_Tile", "Custom_Board"}
    # a one-sided token is cut out by transparency: its corners are clear
    _, save, _ = exports["mutagen"]
    tokens = [o for o in _objects(save["ObjectStates"]) if o["Name"] == "Custom_Token"]
    assert tokens
    with Image.open(_path(tokens[0]["CustomImage"]["ImageURL"])) as im:
        if im.mode == "RGBA":
            assert im.getpixel((0, 0))[3] == 0


def test_url_base_makes_web_urls(tmp_path: Path) -> None:
    result = export_tts(load("mule-goes-crazy"), tmp_path, dpi=20,
                        url_base="https://example.org/mgc/")
    save = json.loads(result.save.read_text(encoding="utf-8"))
    deck = next(o for o in save["ObjectStates"] if o["Name"] == "DeckCustom")
    for entry in deck["CustomDeck"].values():
        assert entry["FaceURL"].startswith("https://example.org/mgc/decks/")
        rel = entry["FaceURL"].removeprefix("https://example.org/mgc/")
        assert (result.save.parent / rel).is_file()


def test_a_card_cut_from_a_sheet_matches_the_printed_pdf(tmp_path: Path) -> None:
    """The TTS cell of a card against the same card cut from the printed sheet's raster.

    Both are PDFium rasters of the same form XObject at the same dpi (150, as the export
    records it), but the card sits at a different sub-pixel phase on the two pages (on the
    printed page its trim starts at, e.g., 9.75 mm = 57.58 px; in the cell at a whole pixel),
    so the region of the printed page that the cell covers is resampled with bilinear
    filtering onto the cell's pixel grid. That resampling softens every edge by up to a
    pixel, so the two cannot agree pixel for pixel; the test bounds the difference instead:
    under 4 levels of 255 on average at full resolution, and under 1.5 when both are reduced
    4 x 4 (where a sub-pixel phase no longer shows), while a neighbouring card of the same
    deck (same frame and colours, other text) differs by well over twice as much.
    """
    game = load("mule")
    tts = export_tts(game, tmp_path / "tts", dpi=150)
    printed = build(game, BuildOptions(Settings(), ("pdf",), tmp_path / "print"))
    manifest = json.loads(tts.manifest.read_text(encoding="utf-8"))
    entry = next(e for d in manifest["decks"] for e in d["entries"]
                 if d["name"] == "Unlucky Event Cards")
    sheet = Image.open(tts.save.parent / entry["face_sheet"])
    cw, ch = entry["cell_px"]
    cols = entry["grid"][0]
    dpi = entry["dpi"]

    def cell(comp_id: str) -> Image.Image:
        i = next(c["cell"] for c in entry["cards"] if c["component"] == comp_id)
        return sheet.crop(((i % cols) * cw, (i // cols) * ch, (i % cols + 1) * cw,
                           (i // cols + 1) * ch))

    printed_manifest = json.loads(printed.manifest.read_text(encoding="utf-8"))

    def cut(comp_id: str) -> Image.Image:
        # the printed card's trim box, in mm, as the print manifest records it
        sh, pl = next((s, p) for s in printed_manifest["sheets"] for p in s["placements"]
                      if p["component"] == comp_id and p["face"] == "front")
        page = raster.render_page(printed.pdf, sh["page"] - 1, dpi)  # type: ignore[arg-type]
        x, y, w, h = pl["trim_mm"]
        # the cell is the trim rounded to whole pixels of the face's own page (bleed 3 mm):
        # cut exactly that region, so only the sub-pixel phase differs
        left, top, _, _ = raster.box_px((3.0, 3.0, w, h), dpi)
        x0 = raster.px(x, dpi) + left - raster.px(3.0, dpi)
        y0 = raster.px(y, dpi) + top - raster.px(3.0, dpi)
        box = (x0, y0, x0 + cw, y0 + ch)
        return page.transform((cw, ch), Image.Transform.EXTENT, box,
                              Image.Resampling.BILINEAR)

    def mean_diff(a: Image.Image, b: Image.Image) -> float:
        return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3

    same = mean_diff(cell("unlucky/lost-wallet"), cut("unlucky/lost-wallet"))
    other = mean_diff(cell("unlucky/lost-wallet"), cut("unlucky/dust-devil"))
    coarse_same = mean_diff(cell("unlucky/lost-wallet").reduce(4),
                            cut("unlucky/lost-wallet").reduce(4))
    coarse_other = mean_diff(cell("unlucky/lost-wallet").reduce(4),
                             cut("unlucky/dust-devil").reduce(4))
    assert same < 4.0 and other > 2 * same  # measured: 2.4 and 5.8
    assert coarse_same < 1.5 and coarse_other > 2.5 * coarse_same  # measured: 1.1 and 3.8


def test_cli_writes_the_saved_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["export", "tts", "muli", "--out", str(tmp_path), "--dpi", "20"])
    assert exc.value.code == 0
    out = capsys.readouterr()
    assert "Saved Objects" in out.out
    assert "not exported" not in out.err  # dice and standees are exported too
    assert (tmp_path / "muli" / "tts" / "muli.json").is_file()
    with pytest.raises(SystemExit) as exc:
        main(["export", "tts", "muli", "--out", str(tmp_path), "--url-base", "ftp://x"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.startswith("error: --url-base")


def test_a_game_cannot_steer_the_export_outside_the_output_folder(tmp_path: Path) -> None:
    from dataclasses import replace

    from components.errors import InputError
    from generator.export.pod import export_pod

    game = replace(load_path(DECK), key="../../escaped")
    out = tmp_path / "a" / "b" / "out"
    with pytest.raises(InputError, match="outside"):
        export_tts(game, out, dpi=20)
    with pytest.raises(InputError, match="outside"):
        export_pod(game, "tgc", out)
    assert not (tmp_path / "escaped").exists() and not (tmp_path / "a" / "escaped").exists()


def test_jpeg_deck_sheets(tmp_path: Path) -> None:
    result = export_tts(load_path(DECK), tmp_path, dpi=30, fmt="jpg")
    save = json.loads(result.save.read_text(encoding="utf-8"))
    deck = next(o for o in save["ObjectStates"] if o["Name"] == "DeckCustom")
    for entry in deck["CustomDeck"].values():
        with Image.open(_path(entry["FaceURL"])) as im:
            assert im.format == "JPEG" and im.mode == "RGB"
            assert _path(entry["FaceURL"]).suffix == ".jpg"


def test_a_deck_of_more_than_69_faces_spans_two_sheets(tmp_path: Path) -> None:
    """70 cells a sheet, the last one hidden: 75 distinct cards need a second CustomDeck key
    in the same DeckCustom, and CardIDs restart at the second key's hundreds."""
    import shutil

    folder = tmp_path / "big"
    shutil.copytree(DECK, folder)
    cards = folder / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    head = text[:text.index("components:")]
    rows = "\n".join(f'  - {{id: card/c{i:02d}, title: "Card {i}", text: "Number {i}."}}'
                     for i in range(75))
    cards.write_text(head + "components:\n" + rows + "\n", encoding="utf-8")
    inventory = folder / "game.yaml"
    inventory.write_text(inventory.read_text(encoding="utf-8").replace(
        "{group: Cards, count: 12}", "{group: Cards, count: 75}"), encoding="utf-8")
    game = load_path(folder)
    result = export_tts(game, tmp_path / "out", dpi=20)
    save = json.loads(result.save.read_text(encoding="utf-8"))
    deck = next(o for o in save["ObjectStates"] if o["Name"] == "DeckCustom"
                and len(o["DeckIDs"]) == 75)
    assert len(deck["CustomDeck"]) == 2
    keys = sorted(int(k) for k in deck["CustomDeck"])
    first, second = (deck["CustomDeck"][str(k)] for k in keys)
    assert (first["NumWidth"], first["NumHeight"]) == (10, 7)
    assert deck["DeckIDs"][:69] == [keys[0] * 100 + i for i in range(69)]
    assert deck["DeckIDs"][69:] == [keys[1] * 100 + i for i in range(6)]
    assert [c["Nickname"] for c in deck["ContainedObjects"]][68:70] == ["Card 68", "Card 69"]
    assert second["NumWidth"] * second["NumHeight"] >= 7


def test_dice_and_standees_are_custom_dice_and_figurines(exports: Any) -> None:
    """Every die is a Custom_Dice (a d6) and every standee a Figurine_Custom, one object per
    copy, in every game; their images exist and are the sizes the manifest says."""
    seen = {"Custom_Dice": 0, "Figurine_Custom": 0}
    for key in GAMES:
        folder, save, manifest = exports[key]
        game = load(key)
        objs = _objects(save["ObjectStates"])
        dice = [o for o in objs if o["Name"] == "Custom_Dice"]
        figures = [o for o in objs if o["Name"] == "Figurine_Custom"]
        printed = [c for c in game.components if c.printed and c.count > 0]
        assert len(dice) == sum(c.count for c in printed if c.kind == "die"), key
        assert len(figures) == sum(c.count for c in printed if c.kind == "standee"), key
        assert not [s for s in manifest["not_exported"] if "die" in s or "standee" in s]
        by_file = {f["file"]: f for f in manifest["files"]}
        for o in dice:
            img = o["CustomImage"]
            assert img["CustomDice"] == {"Type": 1}  # Tabletop Simulator's d6
            path = _path(img["ImageURL"])
            entry = by_file[path.relative_to(folder.resolve()).as_posix()]
            with Image.open(path) as im:
                assert im.mode == "RGB"
                assert im.size == (entry["grid"][0] * entry["cell"][0],
                                   entry["grid"][1] * entry["cell"][1])
            assert sorted(f["face"] for f in entry["faces"]) == [1, 2, 3, 4, 5, 6]
        for o in figures:
            img = o["CustomImage"]
            front, back = _path(img["ImageURL"]), _path(img["ImageSecondaryURL"])
            assert front != back
            comp = next(c for c in printed if c.id == o["Description"].split(",")[0])
            for p in (front, back):
                with Image.open(p) as im:
                    w, h = comp.size  # the figure without its bases
                    dpi = by_file[p.relative_to(folder.resolve()).as_posix()]["dpi"]
                    assert abs(im.width - w * dpi / 25.4) <= 1
                    assert abs(im.height - h * dpi / 25.4) <= 1
        seen["Custom_Dice"] += len(dice)
        seen["Figurine_Custom"] += len(figures)
    # muli: 2 colour dice and 8 standees; mutagen: 16 workers
    assert seen == {"Custom_Dice": 2, "Figurine_Custom": 24}
    _, save, _ = exports["muli"]
    names = {o["Nickname"] for o in _objects(save["ObjectStates"])
             if o["Name"] == "Figurine_Custom"}
    assert {"RED MULE", "ORANGE RUNNER", "PURPLE RUNNER"} <= names


def _mean_diff(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"),
                                                    b.convert("RGB"))).mean) / 3


def _max_diff(a: Image.Image, b: Image.Image) -> int:
    return max(hi for _, hi in ImageChops.difference(a.convert("RGB"),
                                                     b.convert("RGB")).getextrema())


def _alone(game: Any, comp: Any, spec: Any, w: float, h: float, name: str,
           extra: dict[str, Any] | None, dpi: float) -> Image.Image:
    """One face drawn by itself (the layout with the component's fields, as the die net and
    the standee strip draw each face) and rasterised on its own page."""
    from generator.build import icon_source
    from generator.draw.common import face

    d = face(game, comp, spec, w, h, 0.0, name, [], extra=extra)
    return next(raster.render_faces([raster.Face(comp, name, d)], dpi, icon_source(game)))


def test_the_die_image_holds_the_six_printed_faces(tmp_path: Path) -> None:
    """Each cell of the colour die's Custom_Dice image against that face drawn alone.

    A cell is the printed net seen through that face's square, rasterised on a page of its
    own at a dpi where a face is a whole number of pixels (22 mm at 150.09 dpi: 130 px);
    the face drawn alone is rasterised the same way, so the two share their pixel phase.
    Inside a one-pixel border they are the same pixels (measured: identical, but for one
    anti-aliased pixel of one face a level of 255 apart, as the net's transforms compose in
    floating point; the bound is that one level). On the border they differ
    where the net draws its fold and cut lines along the face's edges (half a 0.2-0.25 mm
    line); over the whole cell that stays under the existing bound for a card cut from a
    sheet (mean difference under 4 levels of 255; measured 0.75 to 1.6), while every other
    face differs by at least ten times as much (measured 23 and more).
    """
    game = load("muli")
    result = export_tts(game, tmp_path, dpi=150)
    save = json.loads(result.save.read_text(encoding="utf-8"))
    manifest = json.loads(result.manifest.read_text(encoding="utf-8"))
    die = next(o for o in _objects(save["ObjectStates"]) if o["Name"] == "Custom_Dice")
    comp = next(c for c in game.components if c.kind == "die")
    path = _path(die["CustomImage"]["ImageURL"])
    entry = next(f for f in manifest["files"]
                 if f["file"] == path.relative_to(result.save.parent.resolve()).as_posix())
    side = entry["cell"][0]
    assert side == 130 and entry["grid"] == [4, 3]
    sheet = Image.open(path)
    s = comp.size[0]
    alone = [_alone(game, comp, comp.front, s, s, f"face {i + 1}",
                    {**comp.faces[i], "face": i + 1}, entry["dpi"]) for i in range(6)]
    assert all(a.size == (side, side) for a in alone)
    inner = (1, 1, side - 1, side - 1)
    for f in entry["faces"]:
        c, r = f["cell"]
        cell = sheet.crop((c * side, r * side, (c + 1) * side, (r + 1) * side))
        own = alone[f["face"] - 1]
        assert _max_diff(cell.crop(inner), own.crop(inner)) <= 1
        diff = _mean_diff(cell, own)
        others = [_mean_diff(cell, a) for i, a in enumerate(alone) if i != f["face"] - 1]
        assert diff < 4.0 and min(others) > 10 * diff
        assert f["name"] == comp.faces[f["face"] - 1]["name"]
    # face k in cell D6_CELLS[k], the cells not holding a face blank
    assert {f["face"]: tuple(f["cell"]) for f in entry["faces"]} == D6_CELLS
    used = set(D6_CELLS.values())
    for c in range(4):
        for r in range(3):
            if (c, r) not in used:
                blank = sheet.crop((c * side, r * side, (c + 1) * side, (r + 1) * side))
                assert blank.getextrema() == ((255, 255),) * 3


def test_a_figurine_is_the_standees_front_and_upright_back(tmp_path: Path) -> None:
    """Each standee's Figurine_Custom images against its front and back drawn alone.

    The images are the printed strip seen through the front's and the back's places, the
    back (upside down above the fold) turned upright, each on a page of the face's own size:
    the same pixel phase as the face drawn alone. Inside a one-pixel border they are the
    same pixels (within one level of 255, as for the die; measured identical); the border
    holds half of the strip's fold lines (mean over the whole image under 4 levels of 255,
    the existing bound; measured 2.2 to 2.4). The back turned over again, as it prints,
    differs by ten times as much (measured 36 and more).
    """
    game = load("muli")
    result = export_tts(game, tmp_path, dpi=150)
    save = json.loads(result.save.read_text(encoding="utf-8"))
    manifest = json.loads(result.manifest.read_text(encoding="utf-8"))
    dpi_of = {f["file"]: f.get("dpi") for f in manifest["files"]}
    checked = 0
    for o in _objects(save["ObjectStates"]):
        if o["Name"] != "Figurine_Custom":
            continue
        comp = next(c for c in game.components if c.id == o["Description"].split(",")[0])
        w, h = comp.size
        front = Image.open(_path(o["CustomImage"]["ImageURL"]))
        back = Image.open(_path(o["CustomImage"]["ImageSecondaryURL"]))
        rel = _path(o["CustomImage"]["ImageURL"]).relative_to(result.save.parent.resolve())
        dpi = dpi_of[rel.as_posix()]
        want_front = _alone(game, comp, comp.front, w, h, "front", None, dpi)
        want_back = _alone(game, comp, comp.back or comp.front, w, h, "back", None, dpi)
        assert front.size == want_front.size == back.size == want_back.size
        inner = (1, 1, front.width - 1, front.height - 1)
        for got, want in ((front, want_front), (back, want_back)):
            assert _max_diff(got.crop(inner), want.crop(inner)) <= 1
            assert _mean_diff(got, want) < 4.0
        assert _mean_diff(back.rotate(180), want_back) > 10 * _mean_diff(back, want_back)
        checked += 1
    assert checked == 8


def test_the_progress_bar_counts_every_face_once(tmp_path: Path) -> None:
    """The bar's total is what the export ticks off, dice and standees included."""
    for key in ("muli", "mutagen"):
        ticks: list[int] = []
        totals: list[int] = []
        export_tts(load(key), tmp_path / key, dpi=20, progress=ticks.append,
                   total=totals.append)
        assert totals and sum(ticks) == totals[-1], key


def test_url_base_reaches_dice_and_figurines(tmp_path: Path) -> None:
    result = export_tts(load("muli"), tmp_path, dpi=20, url_base="https://example.org/muli")
    save = json.loads(result.save.read_text(encoding="utf-8"))
    urls = [o["CustomImage"][k] for o in _objects(save["ObjectStates"])
            if o["Name"] in ("Custom_Dice", "Figurine_Custom")
            for k in ("ImageURL", "ImageSecondaryURL") if o["CustomImage"][k]]
    assert len(urls) == 2 + 16
    for u in urls:
        assert u.startswith("https://example.org/muli/pieces/")
        assert (result.save.parent / u.removeprefix("https://example.org/muli/")).is_file()


@pytest.mark.parametrize("key", GAMES)
def test_every_object_is_named_for_its_component_and_describes_its_version(
        exports: dict[str, tuple[Path, dict[str, Any], dict[str, Any]]], key: str) -> None:
    """No piece is called "v1.0" after the small version mark on its face: a token without
    printed words is named after its id, and every description carries the version."""
    _, save, _ = exports[key]
    game = load(key)
    objects = [o for o in _objects(save["ObjectStates"])
               if o["Name"] not in ("Bag", "Deck", "DeckCustom")]
    assert objects
    for o in objects:
        comp = game.component(o["Description"].split(",")[0].split(":")[0])
        assert o["Nickname"] and o["Nickname"] != f"v{comp.version}"
        if comp.version:
            assert o["Description"].startswith(f"{comp.id}, version {comp.version}")
    if key == "mutagen":
        names = {o["Nickname"] for o in objects
                 if o["Description"].startswith("token/supreme-element,")}
        assert names == {"Supreme element"}
