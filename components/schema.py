"""The typed model of a game's definitions, and every rule of the format (docs/FORMAT.md).

A game folder is read into a ``Game``: its settings from ``game.yaml``, named layouts, rule
data, and ``Component`` values. Every mistake is a ``DefinitionError`` located at FILE:LINE:COL
with what was expected and, where a word was misspelt, a suggestion.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from components.elements import COMMON_KEYS as ELEMENT_COMMON_KEYS
from components.elements import SPECS, value_error
from components.elements import choices as element_choices
from components.errors import DefinitionError, attempt
from components.fields import REF_RE, paths_in
from components.yamlloc import LocDict, LocList, Mark

KINDS = ("card", "tile", "token", "board", "sheet", "die", "standee")

SIZE_PRESETS: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.2, 88.9),
    "mini-euro": (44.0, 68.0),
    "mini-american": (41.0, 63.0),
    "tarot": (70.0, 120.0),
    "euro-square": (70.0, 70.0),
    "square-25": (25.0, 25.0),
    "square-30": (30.0, 30.0),
    "square-38": (38.0, 38.0),
    "square-50": (50.8, 50.8),
    "square-63": (63.5, 63.5),
    "square-89": (88.9, 88.9),
    "token-16": (16.0, 16.0),
    "token-20": (20.0, 20.0),
    "token-25": (25.0, 25.0),
    "token-30": (30.0, 30.0),
    "page": (186.0, 256.0),
    "page-landscape": (256.0, 186.0),
}
# hex tiles and tokens (``shape: hex``): flat-topped, named by their size flat to flat; the
# trim box is corner to corner (w) by flat to flat (h)
HEX_RATIO = 2.0 / 3.0 ** 0.5
HEX_KINDS = ("tile", "token")
for _flat in (25, 30, 38, 50, 63, 76):
    SIZE_PRESETS[f"hex-{_flat}"] = (round(_flat * HEX_RATIO, 3), float(_flat))

GAME_KEYS = ("game", "name", "edition", "author", "players", "rulebook", "palette", "ink_saver",
             "distinct",
             "fonts", "icons", "inventory", "data", "layouts", "description", "keywords",
             "hyphenate")
FILE_KEYS = ("data", "layouts", "defaults", "components", "components_from")
RESERVED = ("id", "kind", "size", "count", "group", "front", "back", "shape", "faces", "base",
            "printed", "sits_on", "count_per_player")
INVENTORY_KEYS = ("group", "count", "printed", "note")
# a grid's ``legend``: what each mark of its ``cells`` draws (``P: {fill: plains, label: PLAINS}``)
LEGEND_KEYS = ("fill", "label")
# ``${a.b}``: a field (or, as ``${data.KEY}``, the game's rule data) in a layout; see fields.py
FIELD_RE = REF_RE

# every element kind, its keys and which it needs: declared once, in components/elements.py
COMMON_ELEMENT_KEYS = ELEMENT_COMMON_KEYS

# --- enumerations: a value that is one of a few words, checked with a did-you-mean -------------
# (the element key -> its words; a font is one of FONT_STYLES, a name under the game's
# ``fonts:`` or a standard PDF font, checked where the game's fonts are known: facecheck.py)
CHOICES: dict[str, tuple[str, ...]] = element_choices()
IMAGE_FITS = CHOICES["fit"]
FONT_STYLES = ("body", "bold", "italic")
SHAPES = ("round", "square", "hex")
# slips too far from the right word for difflib, answered all the same
NEAR_MISSES: dict[tuple[str, str], str] = {
    ("align", "centre"): "center", ("align", "middle"): "center",
    ("valign", "center"): "middle", ("valign", "centre"): "middle",
    ("valign", "top-left"): "top", ("align", "justify"): "left",
}
# element keys spelt one way only; the other spelling is answered with the right key
KEY_SPELLINGS: dict[str, str] = {"colour": "color", "stroke_colour": "stroke",
                                 "fill_colour": "fill", "colour_fill": "fill"}

# an id becomes part of file names: letters, digits and - _ /, never ".." or an empty step
ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_\-]*(?:/[A-Za-z0-9][A-Za-z0-9_\-]*)*$")
# a game's name becomes the output folder's name: one plain path segment, never . or ..
GAME_KEY_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-]{0,63}")

STANDARD_FONTS = (
    "Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique",
    "Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic",
    "Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique", "Symbol",
    "ZapfDingbats",
)


def suggest(word: str, choices: tuple[str, ...] | list[str], cutoff: float = 0.6) -> str:
    """``; did you mean 'x'?`` when a close choice exists, else ``""``."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=cutoff)
    return f"; did you mean '{close[0]}'?" if close else ""


def choice_error(key: str, value: Any, choices: tuple[str, ...] | list[str],
                 where: str = "") -> str | None:
    """The message for a value of ``key`` that is not one of ``choices`` (None if it is)."""
    word = str(value).lower() if isinstance(value, bool) else str(value)
    if word in choices:
        return None
    near = NEAR_MISSES.get((key, word))
    hint = f"; did you mean '{near}'?" if near else suggest(word, choices)
    return f"unknown {key} '{word}'{where} (expected one of: {', '.join(choices)}{hint})"


def check_choices(el: LocDict, etype: str) -> None:
    """Every enumerated key of one element whose value is written out (not a ``${field}``)."""
    for key, choices in CHOICES.items():
        value = el.get(key)
        if key in el and not (isinstance(value, str) and value.startswith("${")):
            msg = choice_error(key, value, choices, f" in a {etype} element")
            if msg:
                raise err(msg, el, key)


class Marks(Mapping[str, tuple[str, int, int]]):
    """Where each field of a component was written, (FILE, LINE, COL), as a small mapping: its
    defaults' marks (one mapping, shared by every component the defaults apply to) under its
    own keys' line and column, one int each. A long deck holds a mark for every field of
    every card: as tuples in a dict apiece they took more room than the cards' text."""

    __slots__ = ("_at", "_base", "_file", "_keys")
    SHIFT = 23  # a column fits below this bit (a definition file is at most 4 MB)
    AT_BYTES = 6  # a line (below 2**23 too) and a column, packed

    def __init__(self, base: Mapping[str, tuple[str, int, int]], file: str,
                 keys: tuple[str, ...], at: bytes) -> None:
        self._base, self._file, self._keys, self._at = base, file, keys, at

    @classmethod
    def of(cls, defaults: Any, raw: Any, file: str) -> Marks:
        """The marks of a component read from ``raw`` under ``defaults`` (LocDicts)."""
        base = _defaults_marks(defaults, file)
        if not isinstance(raw, LocDict):
            return cls(base, file, (), b"")
        keys = tuple(raw)
        keys = _KEYSETS.setdefault(keys, keys)
        # each key's line and column as one number of AT_BYTES bytes, all in one bytes value:
        # a tuple of ints took five times the room
        at = b"".join(((line << cls.SHIFT) | (col or 0)).to_bytes(cls.AT_BYTES, "little")
                      for line, col in map(raw.at, keys))
        return cls(base, raw.file or file, keys, at)

    def __getitem__(self, key: str) -> tuple[str, int, int]:
        try:
            i = self._keys.index(key) * self.AT_BYTES
        except ValueError:
            return self._base[key]
        v = int.from_bytes(self._at[i:i + self.AT_BYTES], "little")
        return (self._file, v >> self.SHIFT, v & ((1 << self.SHIFT) - 1))

    def __contains__(self, key: object) -> bool:
        return key in self._keys or key in self._base

    def __iter__(self) -> Iterator[str]:
        yield from self._base  # (in the order a dict of defaults then own marks has)
        for k in self._keys:
            if k not in self._base:
                yield k

    def __len__(self) -> int:
        return len(self._base) + sum(1 for k in self._keys if k not in self._base)

    def __repr__(self) -> str:
        return repr(dict(self))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Marks, (self._base, self._file, self._keys, self._at))


_KEYSETS: dict[tuple[str, ...], tuple[str, ...]] = {}  # each set of keys, once
_DEFAULTS: dict[int, tuple[Any, dict[str, tuple[str, int, int]]]] = {}


def _defaults_marks(defaults: Any, file: str) -> dict[str, tuple[str, int, int]]:
    """The marks of a defaults mapping, made once for all the components it applies to."""
    if not isinstance(defaults, LocDict) or not defaults:
        return {}
    hit = _DEFAULTS.get(id(defaults))
    if hit is not None and hit[0] is defaults and len(hit[1]) == len(defaults):
        return hit[1]
    marks = {k: (defaults.file or file, *defaults.at(k)) for k in defaults}
    _DEFAULTS[id(defaults)] = (defaults, marks)  # (held: its id stays its own)
    while len(_DEFAULTS) > 64:
        _DEFAULTS.pop(next(iter(_DEFAULTS)))
    return marks


_NO_SETTINGS: Mapping[str, Any] = MappingProxyType({})


@dataclass(slots=True)  # (a long deck holds one of these for every card, twice: loader._own)
class Component:
    """One component definition: its print settings and free fields, with its source.

    What was written for it (``raw``: its defaults under its own keys) is not kept as a
    mapping of its own, which for a long deck took as much room as the fields: it is made
    when asked from the file's ``defaults`` (one mapping, shared), the order of its own keys
    (``order``, one tuple for every card written with the same keys), its fields and the
    print settings it gave itself (``given``)."""

    id: str
    kind: str
    size: tuple[float, float]
    count: int
    group: str
    front: Any
    back: Any
    fields: dict[str, Any]
    file: str
    line: int
    shape: str = "square"
    faces: list[dict[str, Any]] = field(default_factory=list)
    base: float = 15.0
    printed: bool = True
    version: str = ""
    defaults: Mapping[str, Any] = field(default_factory=dict)
    order: tuple[str, ...] = ()  # its own keys, as written
    # its own values of RESERVED keys but ``id`` (most cards give none: one empty mapping)
    given: Mapping[str, Any] = field(default_factory=lambda: _NO_SETTINGS)
    # where each field's value was written: (FILE, LINE, COL), for messages about its text
    marks: Mapping[str, tuple[str, int, int]] = field(default_factory=dict)
    # ``count_per_player``: copies for each player the game seats (``count`` is then that
    # times ``players: max``, set by the loader), 0 when ``count`` was given
    per_player: int = 0

    def where(self, name: str) -> tuple[str, int, int | None]:
        """FILE, LINE, COL of the field ``name`` (the component's own line if unknown)."""
        return self.marks.get(name.split(".")[0]) or (self.file, self.line, None)

    @property
    def raw(self) -> dict[str, Any]:
        """Its defaults under its own keys, as written (a new dict each time)."""
        merged = dict(self.defaults)
        given, fields = self.given, self.fields
        for k in self.order:
            merged[k] = given[k] if k in given else fields[k]
        return merged

    @property
    def two_sided(self) -> bool:
        return self.back is not None

    def get(self, name: str, default: Any = None) -> Any:
        """A field's value, with dotted paths (``production.food``)."""
        value: Any = self.fields
        for part in name.split("."):
            if isinstance(value, dict) and part in value:
                value = value[part]
            else:
                return default
        return value


@dataclass(frozen=True)
class FontFile:
    """A TrueType/OpenType font a game names: the file, the face in a collection, and the
    unique name text uses for it (the file's stem and a hash of its bytes)."""

    name: str
    path: Path
    index: int
    label: str  # how the game.yaml names it, for messages: "fonts/Inter.ttf", "Fira Sans bold"
    file: str = ""
    line: int = 0
    col: int = 0


@dataclass
class InventoryGroup:
    group: str
    count: int
    printed: bool = True
    note: str = ""


@dataclass
class Game:
    """A game's definitions, as loaded (and with its errata applied)."""

    key: str
    folder: Path
    name: str
    edition: str
    players: dict[str, int]
    palette: dict[str, str]
    fonts: dict[str, str]
    icons: dict[str, Any]
    inventory: list[InventoryGroup]
    data: dict[str, Any]
    layouts: dict[str, Any]
    components: list[Component]
    base_edition: str = ""
    errata: list[Any] = field(default_factory=list)
    font_files: dict[str, FontFile] = field(default_factory=dict)
    # ``irata print --ink saver``: palette name -> the light colour a large area of it prints in
    ink_saver: dict[str, str] = field(default_factory=dict)
    author: str = ""  # the designer(s), as the PDFs' Author says
    # colours that tell things apart (players, Zones, Elements): list name -> palette names
    distinct: dict[str, list[str]] = field(default_factory=dict)
    # text: words styled wherever they appear, and the hyphenation language ("": off)
    keywords: dict[str, Any] = field(default_factory=dict)
    hyphenate: str = ""

    def component(self, component_id: str) -> Component:
        for comp in self.components:
            if comp.id == component_id:
                return comp
        raise KeyError(component_id)

    def find(self, component_id: str) -> Component | None:
        for comp in self.components:
            if comp.id == component_id:
                return comp
        return None

    def by_group(self, group: str) -> list[Component]:
        return [c for c in self.components if c.group == group]

    def counts(self) -> dict[str, int]:
        """Copies per inventory group, from the components."""
        out: dict[str, int] = {}
        for comp in self.components:
            out[comp.group] = out.get(comp.group, 0) + comp.count
        return out


def in_folder(path: Path, folder: Path) -> Path | None:
    """``path`` resolved (links followed, ``..`` taken) by ``confine.inside``, or None unless
    it is a file or folder inside ``folder``."""
    from components.confine import ConfineError, inside

    try:
        full = inside(path, folder)
    except ConfineError:
        return None
    return full if full != folder.resolve() else None


# --- helpers that raise located errors ---------------------------------------------------------

def mark_of(node: Any, key: str | int | None = None) -> tuple[str, int, int]:
    """Where ``node`` (or one of its keys or items) stands in its YAML file: the file, line and
    column; ``""`` and 0 where it is not known (a value that came from no file)."""
    mark: Mark = (0, 0)
    src = ""
    if isinstance(node, LocDict):
        mark = node.at(key) if isinstance(key, str) else node.mark
        src = node.file
    elif isinstance(node, LocList):
        mark = node.at(key) if isinstance(key, int) else node.mark
        src = node.file
    return src, mark[0], mark[1]


def err(msg: str, node: Any, key: str | int | None = None,
        file: str | None = None) -> DefinitionError:
    """A DefinitionError located at ``node`` (or at one of its keys or items)."""
    src, line, col = mark_of(node, key)
    return DefinitionError(msg, file or src or None, line or None, col or None)


def check_keys(node: LocDict, allowed: tuple[str, ...], what: str) -> None:
    for key in node:
        if key not in allowed:
            raise err(f"unknown key '{key}' in {what} (expected one of: {', '.join(allowed)}"
                      f"{suggest(key, allowed)})", node, key)


def expect_mapping(node: Any, what: str, parent: Any = None,
                   key: str | int | None = None) -> LocDict:
    if not isinstance(node, LocDict):
        raise err(f"{what} must be a mapping (expected 'key: value' lines), not "
                  f"{type_name(node)}", parent if parent is not None else node, key)
    return node


def quoted(value: Any) -> str:
    """A value named in a message as a name is: text in quotes (a glimpse of it), anything
    else by its kind (``the number 5``)."""
    if isinstance(value, str):
        return f"'{value[:40]}{'...' if len(value) > 40 else ''}'"
    return type_name(value)


def type_name(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        # never more than a glimpse: a message must not echo a whole file's contents
        return f"the text '{value[:40]}{'...' if len(value) > 40 else ''}'"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


MAX_SIDE_MM = 1000.0  # a side: a board of a metre square is already split over 50 pages
# a side below a millimetre is no piece scissors can cut (and the packer would count the pieces
# of such a size across a page one by one: 10**68 of them for a side of 3.9e-66 mm)
MIN_SIDE_MM = 1.0
MAX_COUNT = 2000  # copies of one component
MAX_PIECES = 3000  # copies of every component of a game together, unless a print allows more


@dataclass
class PrintLimits:
    """How large a print may be: the bound that keeps whatever ``check`` passes within seconds.

    The defaults suit any shared game folder; ``irata print --max-pieces N`` sets the pieces
    to N, raising both for a large deck its user trusts (the work grows with the pieces, so
    the shapes follow) or lowering the pieces, as asked."""

    pieces: int = MAX_PIECES
    shapes: int = 100_000  # shapes a whole print draws; the bundled games count under 50000
    given: bool = False  # the pieces are the --max-pieces typed, not the default

    def allow(self, pieces: int) -> None:
        """Allow up to ``pieces``, as given (``allow(0)`` restores the defaults); the shapes
        never fall below their default."""
        self.given = pieces > 0
        self.pieces = pieces if pieces > 0 else MAX_PIECES
        self.shapes = max(100_000, pieces * 100)


LIMITS = PrintLimits()


def parse_size(value: Any, node: LocDict, kind: str) -> tuple[float, float]:
    if isinstance(value, str):
        if value in SIZE_PRESETS:
            return SIZE_PRESETS[value]
        raise err(f"unknown size '{value}' (expected a preset such as poker, mini-euro, "
                  f"square-50, or [width, height] in mm{suggest(value, tuple(SIZE_PRESETS))})",
                  node, "size")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if not MIN_SIDE_MM <= value <= MAX_SIDE_MM:
            raise err(f"size must be at least {MIN_SIDE_MM:g} mm and at most "
                      f"{MAX_SIDE_MM:g} mm", node, "size")
        if kind == "die":
            return (float(value), float(value))
        return (float(value), float(value))
    if isinstance(value, list) and len(value) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        w, h = float(value[0]), float(value[1])
        if not (MIN_SIDE_MM <= w <= MAX_SIDE_MM and MIN_SIDE_MM <= h <= MAX_SIDE_MM):
            raise err(f"size must be at least {MIN_SIDE_MM:g} mm and at most "
                      f"{MAX_SIDE_MM:g} mm a side", node, "size")
        return (w, h)
    raise err(f"size must be a preset name or [width, height] in mm, not {type_name(value)}",
              node, "size")


def check_elements(elements: Any, where: Any, key: str | int | None, layouts: dict[str, Any],
                   what: str) -> None:
    """Validate a list of elements (types, keys, required keys, layout references)."""
    if isinstance(elements, str):
        if elements not in layouts:
            raise err(f"unknown layout '{elements}' in {what}"
                      f"{suggest(elements, list(layouts)) or ' (define it under layouts:)'}",
                      where, key)
        return
    if not isinstance(elements, LocList):
        raise err(f"{what} must be a layout name or a list of elements, not "
                  f"{type_name(elements)}", where, key)
    for i, el in enumerate(elements):
        with attempt():  # irata check reports each element's mistake (components.errors)
            check_element(expect_mapping(el, f"element {i + 1} of {what}", elements, i),
                          i, layouts, what)


def check_element(el: LocDict, i: int, layouts: dict[str, Any], what: str) -> None:
    """One element: its type, keys, needed keys and the values written out (its spec)."""
    etype = el.get("type")
    if etype is None:
        raise err(f"element {i + 1} of {what} has no 'type' (expected one of: "
                  f"{', '.join(SPECS)})", el)
    if not isinstance(etype, str) or etype not in SPECS:
        raise err(f"unknown element type '{etype}' (expected one of: "
                  f"{', '.join(SPECS)}{suggest(str(etype), tuple(SPECS))})",
                  el, "type")
    spec = SPECS[etype]
    allowed = COMMON_ELEMENT_KEYS + spec.names
    if "field" in el and "field" not in allowed and spec.of_type("text"):
        raise err(f"a {etype} element reads a field as text: \"${{{el['field']}}}\" "
                  "(fields are referenced one way, ${name}; 'field:' is not a key)",
                  el, "field")
    for key in el:
        right = KEY_SPELLINGS.get(key)
        if right in allowed:
            raise err(f"unknown key '{key}' in a {etype} element (the key is spelt "
                      f"'{right}'; did you mean '{right}'?)", el, key)
    check_keys(el, allowed, f"a {etype} element")
    check_choices(el, etype)
    for req in spec.required:
        if req not in el:
            hint = spec.key(req).hint  # type: ignore[union-attr]
            raise err(f"a {etype} element needs '{req}'" + (f" ({hint})" if hint else ""),
                      el)
    for k in spec.keys:
        if k.name not in el:
            continue
        value = el[k.name]
        if k.type == "layout" and (not isinstance(value, str) or value not in layouts):
            raise err(f"unknown layout '{value}'{suggest(str(value), list(layouts))}",
                      el, k.name)
        if k.type == "cells":
            check_grid_cells(el)
        if k.type == "file" and isinstance(value, str) and not value.startswith("$") and (
                Path(value).is_absolute() or ".." in Path(value).parts):
            raise err(f"image path '{value}' must stay inside the game folder", el, k.name)
        msg = value_error(k, value)
        if msg:
            raise err(f"{msg} (in a {etype} element)", el, k.name)
    if "legend" in el and "cells" not in el and spec.of_type("cells"):
        check_grid_cells(el)


def check_grid_cells(el: LocDict) -> None:
    """A grid drawn from ``cells`` and a ``legend``: both or neither, never with ``labels`` or
    a list of fills (the legend gives each cell its fill and label), and a legend written out
    here has entries of ``fill`` and ``label`` only."""
    if "cells" in el and "legend" not in el:
        raise err("a grid with 'cells' needs a 'legend' (what each mark draws: "
                  "{P: {fill: plains, label: PLAINS}})", el, "cells")
    if "legend" in el and "cells" not in el:
        raise err("a grid with a 'legend' needs 'cells' (the marks to look up: a list of rows, "
                  "such as \"${data.map.rows}\")", el, "legend")
    if "cells" not in el:
        return
    if "labels" in el:
        raise err("a grid takes 'labels' or 'cells', not both (with 'cells' the legend gives "
                  "each cell its label)", el, "labels")
    if isinstance(el.get("fill"), list):
        raise err("a grid with 'cells' takes one 'fill' (for legend entries without one), not "
                  "a list (the legend gives each cell its fill)", el, "fill")
    for key in ("skip_rows", "skip_cols"):
        value = el.get(key, 0)
        if not (isinstance(value, str) and value.startswith("${")) and (
                not isinstance(value, int) or isinstance(value, bool) or value < 0):
            raise err(f"{key} must be a whole number of 0 or more, not {type_name(value)}",
                      el, key)
    legend = el["legend"]
    if isinstance(legend, str) and legend.startswith("${"):
        return  # a field's legend: checked with the component (facecheck)
    if not isinstance(legend, LocDict):
        raise err(f"a grid's legend must be a mapping of each mark to {{fill: ..., label: ...}}, "
                  f"not {type_name(legend)}", el, "legend")
    check_legend(legend)


def check_legend(legend: LocDict) -> None:
    """Each entry of a legend: a mapping of ``fill`` and ``label``."""
    for mark, entry in legend.items():
        entry = expect_mapping(entry, f"the legend's entry for '{mark}' ({{fill: COLOUR, "
                                      "label: TEXT}})", legend, mark)
        for key in entry:
            if key not in LEGEND_KEYS:
                raise err(legend_key_error(key, mark), entry, key)


# slips in a legend's entry too far from the right key for difflib
LEGEND_SPELLINGS = {"colour": "fill", "color": "fill", "text": "label", "labels": "label",
                    "name": "label"}


def legend_key_error(key: Any, mark: Any) -> str:
    """The message for a key of a legend's entry that is not ``fill`` or ``label``."""
    right = LEGEND_SPELLINGS.get(str(key))
    hint = f"; did you mean '{right}'?" if right else suggest(str(key), LEGEND_KEYS)
    return (f"unknown key '{key}' in the legend's entry for '{mark}' (expected one of: "
            f"{', '.join(LEGEND_KEYS)}{hint})")


@lru_cache(maxsize=4096)
def _close_to_reserved(key: str) -> list[str]:
    """A field name that is one slip away from a reserved key (``cuont`` -> ``count``)."""
    return difflib.get_close_matches(key, list(RESERVED), n=1, cutoff=0.8)


def check_reserved_typos(node: LocDict, what: str) -> None:
    """Refuse a key one slip away from a reserved key (``cuont``, ``gruop``): as a field it
    would be kept quietly while the component misses the key it was meant to be."""
    for key in node:
        if key not in RESERVED:
            close = _close_to_reserved(key)
            if close and key != close[0]:
                raise err(f"unknown key '{key}' in {what} (expected '{close[0]}'; did you "
                          f"mean '{close[0]}'?)", node, key)


def _missing(cid: str, key: str, what: str, raw: LocDict,
             defaults: dict[str, Any]) -> DefinitionError:
    """A required key is missing: located at a field whose name looks like it (``sise``),
    else at the component."""
    for node in (raw, defaults):
        for name in node:
            if name not in RESERVED and difflib.get_close_matches(name, [key], n=1,
                                                                  cutoff=0.6):
                return err(f"component '{cid}' needs a '{key}' ({what}); did you mean "
                           f"'{key}' for '{name}'?", node, name)
    return err(f"component '{cid}' needs a '{key}' ({what})", raw)


def parse_component(raw: LocDict, defaults: dict[str, Any], layouts: dict[str, Any],
                    file: str) -> Component:
    merged: dict[str, Any] = dict(defaults)
    merged.update(raw)
    if "id" not in raw:
        raise err("a component needs an 'id' (for example: id: production/acid-rain-storm)",
                  raw)
    cid = raw["id"]
    if not isinstance(cid, str) or not ID_RE.fullmatch(cid) or len(cid) > 200:
        raise err(f"component id {quoted(cid)} must be letters, digits and - _ /, each "
                  "step between slashes starting with a letter or digit, at most 200 (for "
                  "example: "
                  "production/acid-rain-storm)", raw, "id")
    check_reserved_typos(raw, f"component '{cid}'")
    kind = merged.get("kind")
    src = raw if "kind" in raw else defaults
    if kind is None:
        raise _missing(cid, "kind", f"one of: {', '.join(KINDS)}", raw, defaults)
    if kind not in KINDS:
        raise err(f"unknown kind '{kind}' (expected one of: {', '.join(KINDS)}"
                  f"{suggest(str(kind), KINDS)})", src, "kind")
    if "size" not in merged:
        raise _missing(cid, "size", "a preset such as poker, or [w, h] mm", raw, defaults)
    size = parse_size(merged["size"], raw if "size" in raw else defaults, kind)  # type: ignore[arg-type]
    count = merged.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_COUNT:
        raise err(f"count must be a whole number from 0 to {MAX_COUNT}, not "
                  f"{type_name(count)}", raw if "count" in raw else defaults, "count")
    per_player = merged.get("count_per_player", 0)
    if "count_per_player" in merged:
        node = raw if "count_per_player" in raw else defaults
        if "count" in merged:
            raise err("give count or count_per_player, not both (count_per_player prints "
                      "that many for each player the game seats)", node, "count_per_player")
        if (not isinstance(per_player, int) or isinstance(per_player, bool)
                or not 1 <= per_player <= MAX_COUNT):
            raise err(f"count_per_player must be a whole number from 1 to {MAX_COUNT}, not "
                      f"{type_name(per_player)}", node, "count_per_player")
    group = merged.get("group", "")
    if not isinstance(group, str):
        raise err("group must be text (the inventory group's name)", raw, "group")
    front = merged.get("front")
    if front is None:
        raise _missing(cid, "front", "a layout name or a list of elements", raw, defaults)
    check_elements(front, raw if "front" in raw else defaults, "front", layouts, "front")
    back = merged.get("back")
    if back is not None:
        check_elements(back, raw if "back" in raw else defaults, "back", layouts, "back")
    shape = merged.get("shape", "round" if kind == "token" else "square")
    if shape not in SHAPES:
        raise err(f"unknown shape '{shape}' (expected one of: {', '.join(SHAPES)}"
                  f"{suggest(str(shape), SHAPES)})", raw if "shape" in raw else defaults,
                  "shape")
    if shape == "hex":
        size = hex_size(merged["size"], size, kind, raw if "size" in raw else defaults,
                        raw if "shape" in raw else defaults)
    faces: list[dict[str, Any]] = []
    if kind == "die":
        faces = merged.get("faces")  # type: ignore[assignment]
        if not isinstance(faces, list) or len(faces) != 6:
            raise err(f"die '{cid}' needs 'faces': a list of six mappings of fields", raw)
        for i, face in enumerate(faces):
            expect_mapping(face, f"face {i + 1}", faces, i)
    base = merged.get("base", 15.0)
    if not isinstance(base, (int, float)) or isinstance(base, bool) or not 0 <= base <= 200:
        raise err("base must be a depth in mm (0 to 200)", raw, "base")
    printed = merged.get("printed", True)
    if not isinstance(printed, bool):
        raise err("printed must be true or false", raw, "printed")
    fields = {k: v for k, v in merged.items() if k not in RESERVED}
    fields["id"] = cid
    marks = Marks.of(defaults, raw, file)
    order = tuple(raw)
    order = _KEYSETS.setdefault(order, order)
    own = {k: raw[k] for k in order if k in RESERVED and k != "id"}
    return Component(id=cid, kind=kind, size=size, count=count, group=group, front=front,
                     back=back, fields=fields, file=file, line=raw.mark[0], shape=shape,
                     faces=list(faces), base=float(base), printed=printed,
                     defaults=defaults, order=order, given=own or _NO_SETTINGS,
                     marks=marks, per_player=per_player)


def hex_size(given: Any, size: tuple[float, float], kind: str, node: Any,
             shape_node: Any) -> tuple[float, float]:
    """A hex piece's trim box: a number is its size flat to flat; ``[w, h]`` must be a
    regular hexagon's (w corner to corner = h x 1.1547)."""
    if kind not in HEX_KINDS:
        raise err(f"shape hex is for tiles and tokens, not a {kind}", shape_node,
                  "shape")
    if isinstance(given, (int, float)) and not isinstance(given, bool):
        return (round(size[1] * HEX_RATIO, 3), size[1])
    w, h = size
    if abs(w - h * HEX_RATIO) > 0.01 * h:
        raise err(f"a hex piece's size is corner to corner by flat to flat, w = h x 1.1547: "
                  f"[{h * HEX_RATIO:.2f}, {h:g}] for {h:g} mm flat to flat, not [{w:g}, {h:g}] "
                  "(or give one number, the size flat to flat, or a preset such as hex-38)",
                  node, "size")
    return size


def check_players(value: Any, node: LocDict) -> dict[str, int]:
    if value is None:
        return {"min": 1, "max": 1}
    if isinstance(value, LocDict):
        check_keys(value, ("min", "max"), "players")
        lo, hi = value.get("min", 1), value.get("max", value.get("min", 1))
        if isinstance(lo, int) and isinstance(hi, int) and 1 <= lo <= hi:
            return {"min": lo, "max": hi}
    raise err("players must be {min: N, max: M} with 1 <= N <= M", node, "players")


def check_colour_map(value: Any, node: LocDict, key: str) -> dict[str, str]:
    if value is None:
        return {}
    mapping = expect_mapping(value, key, node, key)
    for name, colour in mapping.items():
        if not isinstance(colour, str) or not re.match(r"^#[0-9A-Fa-f]{6}$", colour):
            raise err(f"palette colour '{name}' must be '#rrggbb' in quotes, not "
                      f"{type_name(colour)}", mapping, name)
    return dict(mapping)


def check_ink_saver(value: Any, node: LocDict, palette: dict[str, str]) -> dict[str, str]:
    """``ink_saver``: for a palette colour, the light tint or '#rrggbb' that a large area of
    that colour prints in with ``--ink saver`` (a palette name maps to another name or a hex
    colour); colours it does not name get an automatic light tint."""
    if value is None:
        return {}
    mapping = expect_mapping(value, "ink_saver", node, "ink_saver")
    out: dict[str, str] = {}
    for name, colour in mapping.items():
        if name not in palette:
            hint = suggest(str(name), list(palette))
            raise err(f"ink_saver names '{name}', which is not a palette colour{hint}",
                      mapping, name)
        if isinstance(colour, str) and colour in palette:
            colour = palette[colour]
        if not isinstance(colour, str) or not re.match(r"^#[0-9A-Fa-f]{6}$", colour):
            raise err(f"ink_saver colour for '{name}' must be '#rrggbb' in quotes or a palette "
                      f"name, not {type_name(colour)}", mapping, name)
        out[str(name)] = colour
    return out


def check_distinct(value: Any, node: LocDict, palette: dict[str, str]) -> dict[str, list[str]]:
    """``distinct``: named lists of palette colours that tell things apart (``players:
    [p-red, p-orange, ...]``); the ink saver keeps each list distinguishable."""
    if value is None:
        return {}
    mapping = expect_mapping(value, "distinct", node, "distinct")
    out: dict[str, list[str]] = {}
    for name, colours in mapping.items():
        if not isinstance(colours, LocList) or len(colours) < 2:
            raise err(f"distinct list '{name}' must be a list of two or more palette colours "
                      f"([p-red, p-blue]), not {type_name(colours)}", mapping, name)
        for i, colour in enumerate(colours):
            if not isinstance(colour, str) or colour not in palette:
                hint = suggest(str(colour), list(palette))
                raise err(f"distinct list '{name}' names {quoted(colour)}, which is not a "
                          f"palette colour{hint}", colours, i)
        out[str(name)] = [str(c) for c in colours]
    return out


def check_fonts(value: Any, node: LocDict, folder: Path | None = None
                ) -> tuple[dict[str, str], dict[str, FontFile]]:
    """The game's text styles (style -> font name) and the font files they name.

    A style's value is one of the 14 standard PDF fonts by name, a TTF/OTF file in the game
    folder (``fonts/Inter-Bold.ttf``, or ``{file: fonts/Pan.ttc, index: 1}``), or a font
    family from an installed Python font package (``{family: Fira Sans, weight: bold,
    style: italic}``). See ``components.fontfiles``.
    """
    from components.fontfiles import font_from_spec

    fonts = {"body": "Helvetica", "bold": "Helvetica-Bold", "italic": "Helvetica-Oblique"}
    files: dict[str, FontFile] = {}
    if value is None:
        return fonts, files
    mapping = expect_mapping(value, "fonts", node, "fonts")
    for name, spec in mapping.items():
        if not re.match(r"^[A-Za-z][A-Za-z0-9_\-]*$", name):
            raise err(f"font style name '{name}' must be a word (letters, digits, - _)",
                      mapping, name)
        if isinstance(spec, str) and spec in STANDARD_FONTS:
            fonts[name] = spec
            continue
        ff = font_from_spec(spec, mapping, name, folder)
        fonts[name] = ff.name
        files[ff.name] = ff
    # a game's own body font without its bold or italic sets those in the body font too,
    # rather than in a Helvetica that may lack the game's characters
    for style in ("bold", "italic"):
        if style not in mapping and fonts["body"] in files:
            fonts[style] = fonts["body"]
    return fonts, files


def check_inventory(value: Any, node: LocDict) -> list[InventoryGroup]:
    if value is None:
        return []
    if not isinstance(value, LocList):
        raise err("inventory must be a list of {group: NAME, count: N}", node, "inventory")
    out: list[InventoryGroup] = []
    for i, item in enumerate(value):
        item = expect_mapping(item, f"inventory item {i + 1}", value, i)
        check_keys(item, INVENTORY_KEYS, "an inventory item")
        group, count = item.get("group"), item.get("count")
        if not isinstance(group, str) or not isinstance(count, int) or isinstance(count, bool) \
                or not 0 <= count <= LIMITS.pieces:
            raise err("an inventory item needs group: NAME and count: N", item)
        out.append(InventoryGroup(group, count, bool(item.get("printed", True)),
                                  str(item.get("note", ""))))
    return out


def face_refs(node: Any, layouts: Mapping[str, Any], *, conditions: bool = False) -> set[str]:
    """Every reference path the faces in ``node`` read: each path of each ``${...}`` (every
    path of a sum), followed through the layouts a string names (``use``), each layout once;
    with ``conditions``, the names ``when:`` and ``unless:`` test too (as written). A malformed
    reference is passed over: the face check names it."""
    refs: set[str] = set()
    seen: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, str):
            if node in layouts and node not in seen:
                seen.add(node)
                walk(layouts[node])
            for m in FIELD_RE.finditer(node):
                try:
                    refs.update(paths_in(m.group(1)))
                except ValueError:
                    continue
        elif isinstance(node, dict):
            if conditions:
                refs.update(node[k] for k in ("when", "unless") if isinstance(node.get(k), str))
            for value in node.values():
                walk(value)
        elif isinstance(node, list | tuple):
            for value in node:
                walk(value)

    walk(node)
    return refs


def data_refs(comp: Component, layouts: dict[str, Any]) -> set[str]:
    """The rule data a component's faces read: every ``${data.KEY}`` in its fields, its faces
    and the layouts they use (followed through ``use``), as dotted keys without ``data.``.
    A plain ``${data}`` reads all of it (``""``); a sum reads every path in it."""
    paths = face_refs([comp.front, comp.back, comp.faces, comp.fields], layouts)
    return {path[5:] for path in paths if path == "data" or path.startswith("data.")}


def reads(refs: set[str], changed: str) -> bool:
    """Whether a face reading ``refs`` (from ``data_refs``) shows the rule data at ``changed``:
    the same key, one inside it, or one holding it."""
    return any(r == changed or not r or r.startswith(changed + ".")
               or changed.startswith(r + ".") for r in refs)
