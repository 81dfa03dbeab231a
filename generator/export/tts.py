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
  into a ``Bag`` named after the group.
- A die is a ``Custom_Dice`` (``CustomDice.Type`` 1, a d6) with one image holding its six
  faces. Tabletop Simulator documents where each face goes only by the template images it
  ships in its "Modding/Dice Templates" folder; this export lays the six faces out as the
  printed net does (a 4 x 3 grid: face 1 above face 3, faces 2 to 5 in a row, face 6 below
  face 3; ``D6_CELLS``), which is a guess at that template, and the manifest says which cell
  holds which face. Each cell is the printed net's drawing seen through that face's square
  (``window``), so it is the face as it prints, fold lines at its edges included.
- A standee is a ``Figurine_Custom``: the front face as its image and the back face, turned
  upright, as its secondary image, both cut from the printed strip; the folding bases are
  not part of the figure (Tabletop Simulator stands it on its own base).
- Sizes on the table follow the printed sizes by one rule (``table_scale``): an object's
  scale is its printed size in inches over the size the object has at scale 1
  (``SCALE_ONE_IN``), so two pieces of one kind get scales in the ratio of their printed
  sizes, and a piece of any kind sits on the table at its printed size in Tabletop
  Simulator's units. The knowledge base says only that a unit is "about an inch" (the
  thickness of a Custom Tile or Token); what size each object has at scale 1 is not
  documented, and ``SCALE_ONE_IN`` holds the project's working figures: a card is 2.5 in
  across its short side (a poker card, 2.5 x 3.5 in, at scale 1), a tile or token 2 in along
  its longer side, a board 10 in, a die 1 in along an edge, a figurine 2 in along its longer
  side. A card's scale follows its short side (a sideways card is as wide as an upright one
  of the same size), and every card of a deck carries the deck's scale. A Custom_Tile takes
  its image's proportions (``Stretch`` off: the knowledge base says ``Stretch`` makes the tile
  symmetrical, which would square a rectangular board). They are a starting point, which a
  player can rescale in the game.

Every image is a raster of the face drawn alone on a PDF page by irata's PDF backend, cut to
the trim (``generator.raster``).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from PIL import Image as PILImage
from PIL import ImageDraw

from components import Component, Game
from components.errors import InputError
from generator import raster
from generator.draw import Faces
from generator.draw import die as die_net
from generator.drawing import Drawing, Group
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
# a Custom_Dice d6 image: D6_GRID (columns, rows) square cells, face k (1-6) in cell
# D6_CELLS[k], as on the printed net (see the module docstring: the layout is not confirmed
# against Tabletop Simulator's own template)
D6_GRID = (4, 3)

# The size in inches of each Tabletop Simulator object at scale 1 along the side named (the
# project's working figures: see the module docstring; only "a unit is about an inch" is
# documented).
SCALE_ONE_IN: dict[str, tuple[str, float]] = {
    "Card": ("short", 2.5),
    "Custom_Tile": ("long", 2.0),
    "Custom_Token": ("long", 2.0),
    "Custom_Board": ("long", 10.0),
    "Custom_Dice": ("long", 1.0),
    "Figurine_Custom": ("long", 2.0),
}


def table_scale(obj: str, w_mm: float, h_mm: float) -> float:
    """The Transform scale (X and Z alike) that puts a ``w_mm`` x ``h_mm`` piece on the
    table at its printed size as a Tabletop Simulator ``obj`` (``Card`` for decks and cards):
    its short or long side in inches over the object's size at scale 1."""
    side, at_one = SCALE_ONE_IN[obj]
    mm = min(w_mm, h_mm) if side == "short" else max(w_mm, h_mm)
    return mm / 25.4 / at_one
D6_CELLS: dict[int, tuple[int, int]] = {k + 1: cell for k, cell in enumerate(die_net.POSITIONS)}


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
    if url_base is not None:
        url_base_of(url_base)


# what a URL holds as typed (RFC 3986: unreserved, reserved and %XX); others are encoded
_URL_SAFE = "/:@!$&'()*+,;=-._~%[]"


def url_base_of(text: str) -> str:
    """``--url-base`` as the images' URLs begin: an http(s) URL with a host, or a file:///
    path. Refused (InputError): a space, a newline or any control character, a query or a
    fragment (the image's name would land in it), another scheme, a bad host or port. Any
    other character a URL cannot hold as it is (``é``) is percent-encoded."""
    from urllib.parse import urlsplit

    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[:60])
    if not text or len(text) > 2000:
        raise InputError(f"--url-base '{shown}' is not a URL (empty, or over 2000 characters)")
    bad = next((c for c in text if c.isspace() or not c.isprintable()), None)
    if bad is not None:
        raise InputError(f"--url-base '{shown}' is not a URL: it holds "
                         + ("a space (write it as %20)" if bad == " " else repr(bad)))
    if "?" in text or "#" in text:
        raise InputError(f"--url-base '{shown}': a base for the images' URLs has no query "
                         "or fragment ('?', '#')")
    encoded = quote(text, safe=_URL_SAFE)
    if re.search(r"%(?![0-9A-Fa-f]{2})", encoded):
        raise InputError(f"--url-base '{shown}': '%' begins an escape such as %20")
    try:
        parts = urlsplit(encoded)
        parts.port  # noqa: B018 (raises on a port that is not a number below 65536)
    except ValueError as exc:
        raise InputError(f"--url-base '{shown}' is not a URL ({exc})") from None
    # a host by name (ASCII: an IDN is typed in its xn-- form) or an IP address
    if parts.scheme in ("http", "https") and parts.hostname \
            and re.fullmatch(r"[A-Za-z0-9.-]+|[0-9A-Fa-f:.]+", parts.hostname):
        return encoded
    if parts.scheme == "file" and not parts.netloc and parts.path.startswith("/"):
        return encoded
    raise InputError(f"--url-base must be an http:// or https:// URL with a host, or a "
                     f"file:/// path, not '{shown}'")


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

    base = url_base_of(url_base) if url_base is not None else None

    def url(path: Path) -> str:
        rel = path.relative_to(folder.resolve()).as_posix()
        if base is None:
            return path.as_uri()
        return base.rstrip("/") + "/" + quote(rel)

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
        scale = table_scale("Card", first.front.w, first.front.h)
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
                    card = _base("Card", title, _transform(0, 0, face_down=True,
                                                           scale=scale),
                                 _guid(game.key, f.comp.id, str(copy)))
                    card.update({"CardID": card_id, "SidewaysCard": f.front.w > f.front.h,
                                 "CustomDeck": {str(key): entry}})
                    card["Description"] = describe(f.comp)
                    contained.append(card)
                cards.append({"card_id": card_id, "component": f.comp.id, "title": title,
                              "copies": f.comp.count, "cell": i})
            entry_decks.append({"key": key, "face_sheet": face_path.relative_to(
                folder.resolve()).as_posix(), "grid": [cols, rows], "dpi": at,
                "cell_px": list(fronts[0].size), "trim_mm": [first.front.w, first.front.h],
                "unique_back": bool(backs), "cards": cards})
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
        x += max(first.front.w, first.front.h) / 25.4 + 0.5  # its long side and a gap

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
        "die_layout": "Custom_Dice d6: faces in a 4 x 3 grid as on the printed net (face 1 "
                      "above 3; 2, 3, 4, 5 in a row; 6 below 3); not confirmed against "
                      "Tabletop Simulator's own template (Modding/Dice Templates)",
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


def window(d: Drawing, x: float, y: float, w: float, h: float, *, turn: bool = False,
           key: str = "") -> Drawing:
    """The part (x, y, w, h) mm of a printed drawing as a drawing of its own: the same
    primitives, moved (and with ``turn``, turned half round about the part's centre), on a
    page of exactly that part. Rasterised, it is the part as it prints, at the same pixel
    phase as a face drawn alone at its own size."""
    g = Group(tuple(d.items), dx=x + w, dy=y + h, rotate=180) if turn else \
        Group(tuple(d.items), dx=-x, dy=-y)
    return Drawing(w, h, 0.0, [g], key=key or f"{d.key}@{x:g},{y:g}")


def die_image(f: Faces, dpi: float, icons: raster.IconSource
              ) -> tuple[PILImage.Image, float, int]:
    """A die's Custom_Dice image: its six faces cut from the printed net onto the D6_GRID,
    each in its D6_CELLS cell. The dpi is adjusted (by less than half a pixel a face) so that
    a face is a whole number of pixels. Returns the image, the dpi and a cell's side in
    pixels."""
    s = f.comp.size[0]
    cols, rows = D6_GRID
    side = max(1, min(MAX_PX // cols, round(s * dpi / 25.4)))
    at = side * 25.4 / s
    cells = [raster.Face(f.comp, f"face {i + 1}",
                         window(f.front, c * s, r * s, s, s, key=f"{f.comp.id}#face{i + 1}"))
             for i, (c, r) in enumerate(die_net.POSITIONS)]
    img = PILImage.new("RGB", (cols * side, rows * side), "white")
    for i, cell in enumerate(raster.render_faces(cells, at, icons)):
        tc, tr = D6_CELLS[i + 1]
        img.paste(cell.crop((0, 0, side, side)), (tc * side, tr * side))
    return img, at, side


def standee_images(f: Faces, dpi: float, icons: raster.IconSource
                   ) -> tuple[PILImage.Image, PILImage.Image, float]:
    """A standee's front and back as they print, cut from the printed strip (base, back
    upside down, front, base; ``generator.draw.standee``), the back turned upright."""
    w, h = f.comp.size
    b = f.comp.base
    at = min(dpi, math.floor(MAX_PX / (max(w, h) / 25.4) * 0.995))
    parts = [raster.Face(f.comp, "front", window(f.front, 0.0, b + h, w, h,
                                                 key=f"{f.comp.id}#front")),
             raster.Face(f.comp, "back", window(f.front, 0.0, b, w, h, turn=True,
                                                key=f"{f.comp.id}#back"))]
    front, back = raster.render_faces(parts, at, icons)
    return front, back, at


def standee_front(f: Faces) -> Drawing:
    """The front face of a standee's strip, alone (for its printed title): the strip's
    unturned group at the front's place, or the whole strip if there is none."""
    w, h = f.comp.size
    y = f.comp.base + h
    for it in f.front.items:
        if isinstance(it, Group) and it.rotate == 0 and (it.dx, it.dy) == (0.0, y):
            return Drawing(w, h, 0.0, list(it.items), key=f"{f.comp.id}#front")
    return f.front


def face_name(face: dict[str, Any], number: int) -> str:
    """A die face's printed name: its ``title`` or ``name`` field, else its number."""
    for key in ("title", "name"):
        value = face.get(key)
        if isinstance(value, str) and value.strip():
            return " ".join(value.split())
    return str(number)


def _pieces(game: Game, others: list[Faces], folder: Path, dpi: float,
            icons: raster.IconSource, save: Callable[..., Path], url: Callable[[Path], str],
            tick: Callable[[], None]) -> list[dict[str, Any]]:
    """Tokens, tiles, boards, sheets, dice and standees: one image per face (a die's six
    faces on one image), one object per copy, copies of a group in a Bag."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for f in others:
        kind = f.comp.kind
        stem = slug(f.comp.id)
        image: dict[str, Any]
        if kind == "die":
            img, at, side = die_image(f, dpi, icons)
            names = [face_name(face, i + 1) for i, face in enumerate(f.comp.faces)]
            cells = [{"face": k, "name": names[k - 1], "cell": list(D6_CELLS[k])}
                     for k in range(1, 7)]
            die_url = url(save(img, f"pieces/{stem}-die.png", at, role="die",
                               component=f.comp.id, grid=list(D6_GRID), cell=[side, side],
                               faces=cells))
            tick()
            name = "Custom_Dice"
            title = _own_title(f.comp) or f.comp.group or f.comp.id
            description = f"{describe(f.comp)}: " + ", ".join(f"{i + 1} {n}"
                                                        for i, n in enumerate(names))
            scale = table_scale("Custom_Dice", f.comp.size[0], f.comp.size[0])
            image = {"ImageURL": die_url, "ImageSecondaryURL": "", "ImageScalar": 1.0,
                     "WidthScale": 0.0, "CustomDice": {"Type": 1}}
        elif kind == "standee":
            front, back, at = standee_images(f, dpi, icons)
            front_url = url(save(front, f"pieces/{stem}-front.png", at, role="standee front",
                                 component=f.comp.id))
            back_url = url(save(back, f"pieces/{stem}-back.png", at, role="standee back",
                                component=f.comp.id))
            tick()
            name = "Figurine_Custom"
            title = printed_title(f.comp, standee_front(f))
            description = describe(f.comp)
            scale = table_scale("Figurine_Custom", *f.comp.size)
            image = {"ImageURL": front_url, "ImageSecondaryURL": back_url, "ImageScalar": 1.0,
                     "WidthScale": 0.0}
        else:
            name, title, scale, image = _flat_piece(f, dpi, icons, save, url, tick)
            description = describe(f.comp)
        for copy in range(f.comp.count):
            obj = _base(name, title, _transform(0, 0, scale=scale),
                        _guid(game.key, f.comp.id, str(copy)))
            obj["Description"] = description
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


def describe(comp: Component) -> str:
    """An object's description: its component id, then the version it was printed at."""
    return f"{comp.id}, version {comp.version}" if comp.version else comp.id


def _own_title(comp: Component) -> str | None:
    for key in ("title", "name"):
        value = comp.fields.get(key)
        if isinstance(value, str) and value.strip():
            return " ".join(value.split())
    return None


def _flat_piece(f: Faces, dpi: float, icons: raster.IconSource, save: Callable[..., Path],
                url: Callable[[Path], str], tick: Callable[[], None]
                ) -> tuple[str, str, float, dict[str, Any]]:
    """A token, tile, board or sheet: its object name, title, scale and CustomImage."""
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
    kind = f.comp.kind
    image: dict[str, Any] = {"ImageURL": front_url, "ImageSecondaryURL": back_url,
                             "ImageScalar": 1.0, "WidthScale": 0.0}
    if kind == "token" and not two:
        name = "Custom_Token"
        scale = table_scale(name, d.w, d.h)
        image["CustomToken"] = {"Thickness": 0.2, "MergeDistancePixels": 15.0,
                                "StandUp": False, "Stackable": True}
    elif kind == "board" and f.back is None:
        name = "Custom_Board"
        scale = table_scale(name, d.w, d.h)
    else:
        name = "Custom_Tile"
        scale = table_scale(name, d.w, d.h)
        shape = 2 if (kind == "token" and f.comp.shape == "round") else 0
        image["ImageSecondaryURL"] = back_url or front_url
        image["CustomTile"] = {"Type": shape, "Thickness": 0.1 if kind != "token" else 0.2,
                               "Stackable": kind in ("token", "tile"), "Stretch": False}
    return name, title, scale, image
