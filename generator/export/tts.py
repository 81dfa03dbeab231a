"""A game -> Tabletop Simulator: deck sheets, piece images and a saved object.

What Tabletop Simulator expects (its knowledge base, "Custom Deck" and "Save File Format"):

- A deck is cut from a card sheet of ``NumWidth`` x ``NumHeight`` cells, at most 10 x 7; the
  LAST cell of the sheet is the "hidden" image shown for cards in a hand, unless the deck's
  ``BackIsHidden`` is set (then the card's back is shown instead). irata fills that cell with
  the deck's back either way, so both settings show a back; ``BackIsHidden`` is true unless
  asked otherwise. So a sheet holds at most 69 faces; a deck with more faces gets a second
  ``CustomDeck`` entry (a second key) in the same ``DeckCustom``.
- Sheets are RGB PNG or JPEG and stay within 4096 x 4096 px (the dpi is lowered for a deck
  whose grid would be larger).
- ``CardID`` is the ``CustomDeck`` key x 100 + the cell index; ``DeckIDs`` lists one CardID
  per copy, bottom to top; every card in ``ContainedObjects`` carries its own ``CustomDeck``
  entry; ``Nickname`` is the printed title.
- A deck of one copy is a lone ``CardCustom``.
- Boards print one-sided as ``Custom_Board``; two-sided boards, sheets and tiles become
  ``Custom_Tile`` (top and bottom image); tokens are ``Custom_Token`` (an image cut out by its
  transparency) or, when their back differs from their front, a two-sided ``Custom_Tile``
  (circle for round tokens) since a Custom_Token has one image. Several copies of a group go
  into a ``Bag`` named after the group. Dice and standees are drawn as fold-up nets for paper
  and are not exported; the manifest names them.
- Sizes on the table are set from the printed size (Tabletop Simulator's unit is about an
  inch); they are a starting point, which a player can rescale in the game.

Every image is a raster of the face drawn alone on a PDF page by irata's PDF backend, cut to
the trim (``generator.raster``).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image as PILImage
from PIL import ImageDraw

from components import Component, Game
from components.errors import InputError
from generator import raster
from generator.draw import Faces
from generator.drawing import Drawing
from generator.export.common import (
    Written,
    draw_faces,
    export_folder,
    inside,
    printed_title,
    same_picture,
    slug,
    write_manifest,
)

MAX_COLS, MAX_ROWS = 10, 7
MAX_PX = 4096
PRINT_BLEED = 3.0  # the faces are drawn as ``irata print`` draws them by default


@dataclass
class Deck:
    """Cards of one group and size: one cell per distinct component, one CardID per copy."""

    name: str
    faces: list[Faces] = field(default_factory=list)


@dataclass
class Exported:
    written: Written
    save: Path
    manifest: Path
    decks: int
    cards: int
    pieces: int


def _guid(*parts: str) -> str:
    return hashlib.sha1("/".join(parts).encode()).hexdigest()[:6]


def _transform(x: float, z: float, *, face_down: bool = False, scale: float = 1.0,
               y: float = 1.0) -> dict[str, float]:
    return {"posX": round(x, 3), "posY": y, "posZ": round(z, 3),
            "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)}


def _base(name: str, nickname: str, transform: dict[str, float], guid: str) -> dict[str, Any]:
    return {"GUID": guid, "Name": name, "Transform": transform, "Nickname": nickname,
            "Description": "", "GMNotes": "",
            "ColorDiffuse": {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259},
            "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True,
            "Tooltip": True, "HideWhenFaceDown": True}


def grid_for(cells: int) -> tuple[int, int]:
    """The sheet grid for ``cells`` cells (faces plus the hidden cell): the fewest rows, then
    the fewest columns that hold them, at least 2 x 2."""
    rows = max(2, math.ceil(cells / MAX_COLS))
    cols = max(2, math.ceil(cells / rows))
    if rows > MAX_ROWS:
        raise ValueError(f"{cells} cells do not fit a 10 x 7 sheet")
    return cols, rows


def deck_dpi(d: Drawing, cols: int, rows: int, dpi: float) -> float:
    """``dpi``, lowered so that the whole sheet stays within 4096 x 4096 px."""
    cap = min(MAX_PX / (cols * d.w / 25.4), MAX_PX / (rows * d.h / 25.4))
    return min(dpi, math.floor(cap * 0.995))


def _trims(faces: list[raster.Face], dpi: float, icons: raster.IconSource,
           tick: Callable[[], None]) -> list[PILImage.Image]:
    out = []
    for f, img in zip(faces, raster.render_faces(faces, dpi, icons), strict=True):
        out.append(raster.trim_of(img, f.drawing, dpi))
        tick()
    return out


def _sheet(cells: list[PILImage.Image], hidden: PILImage.Image, cols: int, rows: int
           ) -> PILImage.Image:
    cw, ch = cells[0].size
    sheet = PILImage.new("RGB", (cols * cw, rows * ch), "white")
    for i, img in enumerate(cells):
        sheet.paste(img.resize((cw, ch)) if img.size != (cw, ch) else img,
                    ((i % cols) * cw, (i // cols) * ch))
    last = cols * rows - 1
    sheet.paste(hidden.resize((cw, ch)) if hidden.size != (cw, ch) else hidden,
                ((last % cols) * cw, (last // cols) * ch))
    return sheet


def check_options(dpi: float, url_base: str | None, fmt: str) -> None:
    raster.check_dpi(dpi)
    if fmt not in ("png", "jpg"):
        raise InputError(f"unknown image format '{fmt}' (expected png or jpg)")
    if url_base is not None and not url_base.startswith(("http://", "https://", "file:///")):
        raise InputError(f"--url-base must start with http://, https:// or file:///, "
                         f"not '{url_base}'")


def export_tts(game: Game, out: Path, dpi: float = 150.0, url_base: str | None = None,
               fmt: str = "png", back_is_hidden: bool = True,
               progress: Callable[[int], None] | None = None,
               total: Callable[[int], None] | None = None) -> Exported:
    """Write ``out/GAME/tts/``: deck sheets, piece images, ``GAME.json`` (the saved object)
    and ``manifest.json``."""
    from generator.build import icon_source

    check_options(dpi, url_base, fmt)
    ext = "png" if fmt == "png" else "jpg"
    folder = export_folder(out, game.key, "tts")
    written = Written(folder)
    comps = [c for c in game.components if c.printed and c.count > 0]

    def tick() -> None:
        if progress:
            progress(1)

    faces = draw_faces(game, comps, PRINT_BLEED)
    if total:
        total(sum(1 + (f.back is not None) for f in faces))
    icons = icon_source(game)

    def url(path: Path) -> str:
        rel = path.relative_to(folder.resolve()).as_posix()
        if url_base is None:
            return path.as_uri()
        return url_base.rstrip("/") + "/" + rel

    def save(img: PILImage.Image, name: str, at_dpi: float, **info: Any) -> Path:
        path = inside(folder, name)
        path.parent.mkdir(parents=True, exist_ok=True)
        raster.save_image(img, path, "jpg" if path.suffix == ".jpg" else "png", at_dpi)
        written.add(path, width=img.width, height=img.height, dpi=at_dpi, **info)
        return path

    decks: dict[tuple[str, float, float], Deck] = {}
    others: list[Faces] = []
    for f in faces:
        if f.comp.kind == "card":
            dk = (f.comp.group or "Cards", round(f.front.w, 2), round(f.front.h, 2))
            decks.setdefault(dk, Deck(dk[0])).faces.append(f)
        elif f.comp.kind in ("die", "standee"):
            written.skipped.append(f"{f.comp.id}: a {f.comp.kind} prints as a fold-up net; "
                                   "not exported to Tabletop Simulator")
            tick()
        else:
            others.append(f)

    objects: list[dict[str, Any]] = []
    manifest_decks: list[dict[str, Any]] = []
    next_key = 1
    x = 0.0
    n_cards = 0
    for deck in decks.values():
        shared_back = all(same_picture(deck.faces[0].back, f.back) for f in deck.faces)
        first = deck.faces[0]
        stem = slug(f"{deck.name}-{first.front.w:g}x{first.front.h:g}")
        back_url = None
        back_img: PILImage.Image | None = None
        deck_ids: list[int] = []
        contained: list[dict[str, Any]] = []
        custom: dict[str, dict[str, Any]] = {}
        entry_decks: list[dict[str, Any]] = []
        for start in range(0, len(deck.faces), MAX_COLS * MAX_ROWS - 1):
            chunk = deck.faces[start:start + MAX_COLS * MAX_ROWS - 1]
            cols, rows = grid_for(len(chunk) + 1)
            at = deck_dpi(first.front, cols, rows, dpi)
            fronts = _trims([raster.Face(f.comp, "front", f.front) for f in chunk], at, icons,
                            tick)
            backs: list[PILImage.Image] = []
            if shared_back and first.back is not None:
                if back_img is None:
                    back_img = _trims([raster.Face(first.comp, "back", first.back)], at, icons,
                                      lambda: None)[0]
                    back_url = url(save(back_img, f"decks/{stem}-back.{ext}", at,
                                        role="deck back", deck=deck.name))
                for _ in chunk[1:]:
                    tick()
                tick()
                hidden = back_img
            elif first.back is not None:
                backs = _trims([raster.Face(f.comp, "back", f.back or f.front) for f in chunk],
                               at, icons, tick)
                hidden = backs[0]
            else:
                # one-sided cards: the back is plain white, the hidden cell too
                hidden = PILImage.new("RGB", fronts[0].size, "white")
                if back_img is None:
                    back_img = hidden
                    back_url = url(save(hidden, f"decks/{stem}-back.{ext}", at,
                                        role="deck back", deck=deck.name))
            key = next_key
            next_key += 1
            n = len(entry_decks) + 1
            face_sheet = _sheet(fronts, hidden, cols, rows)
            face_path = save(face_sheet, f"decks/{stem}-{n}.{ext}", at, role="deck faces",
                             deck=deck.name, key=key, grid=[cols, rows],
                             cell=list(fronts[0].size))
            this_back = back_url
            if backs:
                back_sheet = _sheet(backs, hidden, cols, rows)
                this_back = url(save(back_sheet, f"decks/{stem}-{n}-backs.{ext}", at,
                                     role="deck backs", deck=deck.name, key=key,
                                     grid=[cols, rows], cell=list(backs[0].size)))
            entry = {"FaceURL": url(face_path), "BackURL": this_back, "NumWidth": cols,
                     "NumHeight": rows, "BackIsHidden": back_is_hidden,
                     "UniqueBack": bool(backs), "Type": 0}
            custom[str(key)] = entry
            cards = []
            for i, f in enumerate(chunk):
                card_id = key * 100 + i
                title = printed_title(f.comp, f.front)
                for copy in range(f.comp.count):
                    deck_ids.append(card_id)
                    card = _base("Card", title, _transform(0, 0, face_down=True),
                                 _guid(game.key, f.comp.id, str(copy)))
                    card.update({"CardID": card_id, "SidewaysCard": f.front.w > f.front.h,
                                 "CustomDeck": {str(key): entry}})
                    card["Description"] = f.comp.id
                    contained.append(card)
                cards.append({"card_id": card_id, "component": f.comp.id, "title": title,
                              "copies": f.comp.count, "cell": i})
            entry_decks.append({"key": key, "face_sheet": face_path.relative_to(
                folder.resolve()).as_posix(), "grid": [cols, rows], "dpi": at,
                "cell_px": list(fronts[0].size), "trim_mm": [first.front.w, first.front.h],
                "unique_back": bool(backs), "cards": cards})
        scale = first.front.w / 63.5
        n_cards += len(deck_ids)
        if len(deck_ids) == 1:
            obj = contained[0]
            obj["Name"] = "CardCustom"
            obj["Transform"] = _transform(x, 0.0, face_down=True, scale=scale)
        else:
            obj = _base("DeckCustom", deck.name, _transform(x, 0.0, face_down=True, scale=scale),
                        _guid(game.key, "deck", deck.name))
            obj.update({"SidewaysCard": first.front.w > first.front.h, "DeckIDs": deck_ids,
                        "CustomDeck": custom, "ContainedObjects": contained})
        objects.append(obj)
        manifest_decks.append({"name": deck.name, "guid": obj["GUID"], "entries": entry_decks,
                               "deck_ids": deck_ids})
        x += 3.0 * scale

    pieces = _pieces(game, others, folder, dpi, icons, save, url, tick)
    objects.extend(pieces)

    save_obj = {"SaveName": game.name, "GameMode": "", "Date": "", "Table": "", "Sky": "",
                "Note": f"{game.name}, edition {game.edition}, exported by irata",
                "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
                "ObjectStates": objects, "TabStates": {}, "VersionNumber": ""}
    save_path = inside(folder, f"{slug(game.key)}.json")
    from generator.build import _atomic_write

    text = json.dumps(save_obj, indent=1, ensure_ascii=False)

    def write(tmp: Path) -> None:
        tmp.write_text(text, encoding="utf-8")

    _atomic_write(save_path, write)
    written.add(save_path, role="saved object")
    manifest = write_manifest(written, "manifest.json", {
        "game": game.key, "edition": game.edition, "dpi": dpi, "format": ext,
        "saved_object": save_path.name, "back_is_hidden": back_is_hidden,
        "url_base": url_base, "decks": manifest_decks})
    return Exported(written, save_path, manifest, len(decks), n_cards, len(others))


def _alpha_cut(img: PILImage.Image, comp: Component) -> PILImage.Image:
    """Round tokens as RGBA, transparent outside their circle (a Custom_Token is cut out by
    its image's transparency)."""
    if comp.shape != "round":
        return img
    mask = PILImage.new("L", img.size, 0)
    ImageDraw.Draw(mask).ellipse((0, 0, img.width - 1, img.height - 1), fill=255)
    rgba = img.convert("RGBA")
    rgba.putalpha(mask)
    return rgba


def _pieces(game: Game, others: list[Faces], folder: Path, dpi: float,
            icons: raster.IconSource, save: Callable[..., Path], url: Callable[[Path], str],
            tick: Callable[[], None]) -> list[dict[str, Any]]:
    """Tokens, tiles, boards and sheets: one image per face, one object per copy, copies of
    a group in a Bag."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for f in others:
        d = f.front
        at = min(dpi, math.floor(MAX_PX / (max(d.w, d.h) / 25.4) * 0.995))
        todo = [raster.Face(f.comp, "front", f.front)]
        two = f.back is not None and not same_picture(f.front, f.back)
        if two and f.back is not None:
            todo.append(raster.Face(f.comp, "back", f.back))
        elif f.back is not None:
            tick()
        imgs = [_alpha_cut(i, f.comp) for i in _trims(todo, at, icons, tick)]
        stem = slug(f.comp.id)
        front_url = url(save(imgs[0], f"pieces/{stem}-front.png", at, role="piece front",
                             component=f.comp.id))
        back_url = url(save(imgs[1], f"pieces/{stem}-back.png", at, role="piece back",
                            component=f.comp.id)) if two else ""
        title = printed_title(f.comp, f.front)
        scale = max(d.w, d.h) / 25.4 / 2.0
        kind = f.comp.kind
        image: dict[str, Any] = {"ImageURL": front_url, "ImageSecondaryURL": back_url,
                                 "ImageScalar": 1.0, "WidthScale": 0.0}
        if kind == "token" and not two:
            name = "Custom_Token"
            image["CustomToken"] = {"Thickness": 0.2, "MergeDistancePixels": 15.0,
                                    "StandUp": False, "Stackable": True}
        elif kind == "board" and f.back is None:
            name = "Custom_Board"
            scale = max(d.w, d.h) / 25.4 / 10.0
        else:
            name = "Custom_Tile"
            shape = 2 if (kind == "token" and f.comp.shape == "round") else 0
            image["ImageSecondaryURL"] = back_url or front_url
            image["CustomTile"] = {"Type": shape, "Thickness": 0.1 if kind != "token" else 0.2,
                                   "Stackable": kind in ("token", "tile"), "Stretch": True}
        for copy in range(f.comp.count):
            obj = _base(name, title, _transform(0, 0, scale=scale),
                        _guid(game.key, f.comp.id, str(copy)))
            obj["Description"] = f.comp.id
            obj["CustomImage"] = image
            groups.setdefault(f.comp.group or kind, []).append(obj)
    out = []
    z = 12.0
    x = 0.0
    for name, objs in groups.items():
        if len(objs) == 1:
            obj = objs[0]
            obj["Transform"]["posX"], obj["Transform"]["posZ"] = x, z
            out.append(obj)
        else:
            bag = _base("Bag", name, _transform(x, z), _guid(game.key, "bag", name))
            bag["ContainedObjects"] = objs
            out.append(bag)
        x += 4.0
        if x > 40:
            x, z = 0.0, z + 8.0
    return out
