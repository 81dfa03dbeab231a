"""docs/FORMAT.md's key tables, made from the schema's own lists (``components.schema``) and
the element specs (``components.elements``).

Each table sits in FORMAT.md between ``<!-- schema:NAME -->`` and ``<!-- /schema:NAME -->``.
The keys, the element kinds, which keys an element needs, the words an enumerated key takes
and what each element key means come from the schema and the specs; only the meaning of the
game's, the files' and the components' keys is written here. A key the schema knows and
this module does not describe (or the reverse) is an error, and a test compares FORMAT.md with
``render()``, so the documentation and the check cannot drift apart.

``python -m components.formatdoc`` rewrites the tables in docs/FORMAT.md.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from components import elements as elements_spec
from components import schema
from components.elements import Key

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
    "count_per_player": "instead of `count`: copies for each player, printed for the most "
                        "players the game seats (`players: max` in `game.yaml`): a player "
                        "board or a screen",
    "group": "the inventory group it counts towards",
    "front": "required: a layout name, or a list of elements",
    "back": "a layout name, a list of elements, or absent (one-sided)",
    "shape": "tokens and tiles: `hex` is a flat-topped hexagon (its size flat to flat, "
             "a preset `hex-NN` or `[w, h]` with w = h x 1.1547), imposed in a honeycomb",
    "faces": "dice: six mappings of fields; each face is drawn with `front` and those fields",
    "base": "standees: depth of the folding base in mm (default 15)",
    "printed": "`false`: counted in the inventory but not printed",
    "sits_on": "the printed space the piece goes on: `\"BOARD_ID:SPACE\"` (a space an "
               "element of that component names with `space:`), a list of them, or `[w, h]` "
               "in mm; `irata check` refuses a piece that does not fit it with 1 mm clear on "
               "every side (a standee's footprint is its width by its `base`)",
}

def _code(words: tuple[str, ...] | list[str]) -> str:
    return ", ".join(f"`{w}`" for w in words)


def _key_doc(key: Key) -> str:
    if not key.doc:
        raise KeyError(f"the key '{key.name}' has no description in components/elements.py")
    return f"{key.doc}: {_code(key.choices)}" if key.choices else key.doc


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
    comp_docs["shape"] = (f"{comp_docs['shape']}: {_code(schema.SHAPES)} (default `round` "
                          "for tokens, `square` for the rest)")
    components = _keys(schema.RESERVED, comp_docs, "component keys")
    components.append(("anything else", "a field: text, numbers, structured rule data, "
                                        "available to layouts as `${name}`"))
    elements = []
    for etype, spec in elements_spec.SPECS.items():
        if not spec.doc:
            raise KeyError(f"the element kind '{etype}' has no description in "
                           "components/elements.py")
        parts = [f"**`{k.name}`** {_key_doc(k)}" if k.name in spec.required else
                 f"`{k.name}` {_key_doc(k)}" for k in spec.keys]
        elements.append((f"`{etype}`", f"{spec.doc}. " + "; ".join(parts)))
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
