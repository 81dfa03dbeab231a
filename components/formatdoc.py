"""docs/FORMAT.md's key tables, made from the schema's own lists (``components.schema``).

Each table sits in FORMAT.md between ``<!-- schema:NAME -->`` and ``<!-- /schema:NAME -->``.
The keys, the element types, which keys an element needs and the words an enumerated key takes
come from the schema; only the meaning of each key is written here. A key the schema knows and
this module does not describe (or the reverse) is an error, and a test compares FORMAT.md with
``render()``, so the documentation and the check cannot drift apart.

``python -m components.formatdoc`` rewrites the tables in docs/FORMAT.md.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from components import schema

FORMAT_MD = Path(__file__).resolve().parent.parent / "docs" / "FORMAT.md"

GAME_KEY_DOCS: dict[str, str] = {
    "game": "the name on the command line (default: the folder's name, `_` as `-`)",
    "name": "required: the game's title, as printed",
    "edition": "`\"1.0\"`; errata.yaml's latest version overrides it",
    "author": "the designer(s), written into every PDF's Author (optional)",
    "players": "`{min: N, max: M}`",
    "rulebook": "the rulebook's file name (informative)",
    "palette": "colour names usable wherever a colour is expected: `food: \"#3c9a3c\"`",
    "ink_saver": "for `--ink saver`: the light colour a large area of a palette colour prints "
                 "in (`space: \"#e6e9f2\"` or a palette name): see Ink saver",
    "distinct": "named lists of palette colours that tell things apart (`players: [p-red, "
                "p-blue, p-green]`): the ink saver keeps them distinguishable, see Ink saver",
    "fonts": "the font of each text style `body`, `bold`, `italic` (and any of your own "
             "names): see Fonts",
    "icons": "the game's own icons: lists of elements in a 10 x 10 box",
    "inventory": "the rulebook's component list, in its order (keys below)",
    "data": "rule data the companion computes with (as in any other file)",
    "layouts": "named layouts (as in any other file)",
    "description": "one line about the game (informative)",
    "keywords": "words styled wherever the game's text has them: `Food: {bold: true, color: "
                "food}` (keys as a span's: see Text markup)",
    "hyphenate": "a language (`en`, `de`, `fr`, ...): long words may break with a hyphen by its "
                 "rules; off when absent",
}

FILE_KEY_DOCS: dict[str, str] = {
    "data": "rule data: merged into `Game.data`; a top-level key defined twice across files "
            "is an error",
    "layouts": "named layouts: lists of elements",
    "defaults": "keys merged under every component of this file (the component wins); a "
                "field given here is a field of each of them",
    "components": "the components: a list of mappings (keys below)",
    "components_from": "a spreadsheet beside the file, one row per component (see Components "
                       "from a spreadsheet): `cards.csv`, or `{file: cards.xlsx, sheet: "
                       "Routes}`",
}

INVENTORY_KEY_DOCS: dict[str, str] = {
    "group": "required: the group's name, as components name it in `group:`",
    "count": "required: how many the rulebook lists",
    "printed": "`false`: listed, not printed by irata (a rulebook, plastic stands)",
    "note": "free text",
}

COMPONENT_KEY_DOCS: dict[str, str] = {
    "id": "required, unique: `production/acid-rain-storm`: letters, digits and `- _ /`, each "
          "step between slashes starting with a letter or a digit",
    "kind": "required",
    "size": "required: a preset (below), `[w, h]` in mm, or for a die the edge in mm",
    "count": "copies to print (default 1)",
    "group": "the inventory group it counts towards",
    "front": "required: a layout name, or a list of elements",
    "back": "a layout name, a list of elements, or absent (one-sided)",
    "shape": "tokens",
    "faces": "dice: six mappings of fields; each face is drawn with `front` and those fields",
    "base": "standees: depth of the folding base in mm (default 15)",
    "printed": "`false`: counted in the inventory but not printed",
    "sits_on": "the printed space the piece goes on: `\"BOARD_ID:SPACE\"` (a space an "
               "element of that component names with `space:`), a list of them, or `[w, h]` "
               "in mm; `irata check` refuses a piece that does not fit it with 1 mm clear on "
               "every side (a standee's footprint is its width by its `base`)",
}

ELEMENT_DOCS: dict[str, str] = {
    "rect": "a rectangle",
    "ellipse": "a circle (`r`) or an ellipse (`rx ry`)",
    "line": "a straight line",
    "path": "an SVG path: M L H V C Q Z, absolute or relative",
    "text": "a text box: wraps to `w`, shrinks to fit `w` x `h`",
    "icon": "a built-in or game icon",
    "qr": "a QR code",
    "image": "a picture from the game folder",
    "pips": "dice pips",
    "grid": "a table of cells",
    "use": "another layout, moved (and turned) as a whole",
    "repeat": "another layout once per item of a list: data written once, drawn many times",
}

# what a key means, for every element type that has it (``KEY_DOCS_BY_TYPE`` overrides)
KEY_DOCS: dict[str, str] = {
    "x": "left, mm or `\"50%\"`, `\"100%-8\"`",
    "y": "top, mm or %",
    "w": "width",
    "h": "height",
    "fill": "colour",
    "stroke": "outline colour",
    "stroke_width": "mm, default 0.3",
    "radius": "corner radius, mm",
    "dash": "`[on, off]` mm",
    "cx": "centre",
    "cy": "centre",
    "r": "radius",
    "rx": "radius across",
    "ry": "radius down",
    "x1": "start",
    "y1": "start",
    "x2": "end",
    "y2": "end",
    "d": "the path data",
    "scale": "default 1",
    "min_size": "pt, the smallest it may shrink to (default 5)",
    "leading": "line height in ems (default 1.2)",
    "color": "colour (palette name, `#rrggbb` or a basic colour name)",
    "rotate": "degrees clockwise, any angle",
    "align": "across the box",
    "valign": "down the box",
    "font": "`body`, `bold`, `italic`, a name under `fonts:` or a standard PDF font",
    "name": "the icon's name",
    "payload": "what it encodes (may hold `${field}`)",
    "path": "a PNG, JPEG or SVG file inside the game folder",
    "fit": "how the art fills the box: `contain` (the default: all of it, as large as fits, "
           "centred), `cover` (fills the box, centred, the overflow cut), `stretch` (fills the "
           "box, proportions changed)",
    "crop": "`[x, y, w, h]`: the part of the art to use, in its pixels (an SVG: its units)",
    "n": "0 to 9 (0 draws an X)",
    "cols": "columns",
    "rows": "rows",
    "cell_w": "cell width",
    "cell_h": "cell height",
    "labels": "one per cell, row by row",
    "layout": "a layout's name",
    "with": "fields set for it: `{title: \"${name}\"}`",
    "over": "`\"${data.KEY}\"` or `\"${field}\"`: a list, a mapping (each value knows its key "
            "as `key`) or a whole number N (0 .. N-1)",
    "as": "the name each copy knows its item by (default `item`; also `AS_index` from 0, "
          "`AS_count`)",
    "dx": "each copy moved this far right from the last",
    "dy": "each copy moved this far down (with `wrap`: the rows this far apart)",
    "wrap": "copies to a row, then a new row",
    "space": "a name for the space it draws, for pieces' `sits_on` (a grid: each cell; a "
             "circle: its diameter); its size must be written in mm",
}
KEY_DOCS_BY_TYPE: dict[tuple[str, str], str] = {
    ("rect", "bleed"): "`true`: extend by the bleed past the trim edges it touches "
                       "(backgrounds)",
    ("text", "text"): "the words: may hold `${field}`, `{icon}`, `{icon*N}`, `**bold**`, "
                      "`*italic*` and spans `[words]{color=food size=120%}`: see Text markup",
    ("text", "font"): "`body`, `bold`, `italic`, a name under `fonts:` or a standard PDF font; "
                      "or a list, `[body, arabic, cjk, emoji]`: each character in the first "
                      "that has it",
    ("text", "align"): "across the box (the default `start` is the left edge for English, the "
                       "right one for a paragraph in Arabic or Hebrew; `end` the other)",
    ("text", "size"): "pt, default 9",
    ("text", "rotate"): "degrees clockwise about the box's centre, any angle (a quarter turn "
                        "runs the text along `h`)",
    ("icon", "size"): "mm",
    ("icon", "rotate"): "degrees clockwise about its centre, any angle",
    ("icon", "color"): "colour, for single-colour icons",
    ("qr", "size"): "mm",
    ("qr", "color"): "colour (default black)",
    ("pips", "r"): "pip radius, mm",
    ("grid", "fill"): "a colour, or a list of colours, one per cell",
    ("grid", "cells"): "a map the grid is drawn from: a list of rows, each a text of one mark a "
                       "character (`\"HPLRPLH\"`) or a list of marks, usually "
                       "`\"${data.KEY}\"`; each cell draws its mark's `legend` entry (instead "
                       "of `labels` and a list of `fill`s)",
    ("grid", "legend"): "with `cells`: what each mark draws, `{P: {fill: plains, label: "
                        "PLAINS}}` (an entry without `fill` takes the grid's `fill`), written "
                        "out or a field's `\"${name}\"`",
    ("grid", "skip_rows"): "with `cells`: rows of the map before the grid's first (another "
                           "grid draws them), default 0",
    ("grid", "skip_cols"): "with `cells`: marks of each row before the grid's first column, "
                           "default 0",
    ("grid", "size"): "label pt",
    ("grid", "color"): "label colour",
    ("grid", "font"): "label font",
    ("use", "x"): "offset",
    ("use", "y"): "offset",
    ("use", "rotate"): "degrees clockwise about the offset point, any angle",
    ("repeat", "x"): "where the first copy goes",
    ("repeat", "y"): "where the first copy goes",
    ("repeat", "with"): "fields set for each copy (may read its item)",
}


def _code(words: tuple[str, ...] | list[str]) -> str:
    return ", ".join(f"`{w}`" for w in words)


def _key_doc(etype: str, key: str) -> str:
    doc = KEY_DOCS_BY_TYPE.get((etype, key)) or KEY_DOCS.get(key)
    if doc is None:
        raise KeyError(f"the {etype} element's key '{key}' is not described in "
                       "components/formatdoc.py")
    if key in schema.CHOICES:
        doc = f"{doc}: {_code(schema.CHOICES[key])}" if doc else _code(schema.CHOICES[key])
    return doc


def _table(header: tuple[str, str], rows: list[tuple[str, str]]) -> str:
    lines = [f"| {header[0]} | {header[1]} |", "| --- | --- |"]
    lines += [f"| {a} | {b} |" for a, b in rows]
    return "\n".join(lines)


def _keys(keys: tuple[str, ...], docs: dict[str, str], what: str) -> list[tuple[str, str]]:
    missing = [k for k in keys if k not in docs]
    extra = [k for k in docs if k not in keys]
    if missing or extra:
        raise KeyError(f"{what}: keys without a description: {missing}; described keys the "
                       f"schema does not have: {extra}")
    return [(f"`{k}`", docs[k]) for k in keys]


def render() -> dict[str, str]:
    """Every generated table, by its name in FORMAT.md's markers."""
    comp_docs = dict(COMPONENT_KEY_DOCS)
    comp_docs["kind"] = f"{comp_docs['kind']}: {_code(schema.KINDS)}"
    comp_docs["shape"] = f"{comp_docs['shape']}: {_code(schema.SHAPES)} (default `round`)"
    components = _keys(schema.RESERVED, comp_docs, "component keys")
    components.append(("anything else", "a field: text, numbers, structured rule data, "
                                        "available to layouts as `${name}`"))
    extra = [t for t in ELEMENT_DOCS if t not in schema.ELEMENT_KEYS]
    if extra:
        raise KeyError(f"element types described but not in the schema: {extra}")
    elements = []
    for etype, keys in schema.ELEMENT_KEYS.items():
        if etype not in ELEMENT_DOCS:
            raise KeyError(f"the element type '{etype}' is not described in "
                           "components/formatdoc.py")
        needed = schema.REQUIRED_ELEMENT_KEYS.get(etype, ())
        parts = [f"**`{k}`** {_key_doc(etype, k)}" if k in needed else
                 f"`{k}` {_key_doc(etype, k)}" for k in keys]
        elements.append((f"`{etype}`", f"{ELEMENT_DOCS[etype]}. " + "; ".join(parts)))
    sizes = ", ".join(f"`{name}` {w:g} x {h:g}" for name, (w, h) in schema.SIZE_PRESETS.items())
    return {
        "game": _table(("key", "meaning"), _keys(schema.GAME_KEYS, GAME_KEY_DOCS, "game.yaml")),
        "inventory": _table(("key", "meaning"), _keys(schema.INVENTORY_KEYS,
                                                      INVENTORY_KEY_DOCS, "inventory")),
        "files": _table(("key", "meaning"), _keys(schema.FILE_KEYS, FILE_KEY_DOCS,
                                                  "component files")),
        "components": _table(("key", "meaning"), components),
        "sizes": f"Size presets (mm): {sizes}.",
        "elements": _table(("type", "keys (**needed**)"), elements),
    }


BLOCK_RE = re.compile(r"(<!-- schema:(\w+) -->\n)(.*?)(<!-- /schema:\2 -->)", re.S)


def blocks(text: str) -> dict[str, str]:
    """The generated tables as they stand in a FORMAT.md text."""
    return {m.group(2): m.group(3).rstrip("\n") for m in BLOCK_RE.finditer(text)}


def rewrite(text: str) -> str:
    """``text`` with every generated table replaced by its current rendering."""
    tables = render()
    return BLOCK_RE.sub(lambda m: m.group(1) + tables[m.group(2)] + "\n" + m.group(4), text)


if __name__ == "__main__":
    FORMAT_MD.write_text(rewrite(FORMAT_MD.read_text(encoding="utf-8")), encoding="utf-8")
    sys.stdout.write(f"rewrote the tables in {FORMAT_MD}\n")
