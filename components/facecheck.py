"""Every face of every component, walked with the fields it will be drawn with.

The schema checks each element alone (its type, keys, written-out words). What only shows
with a component in hand is checked here, at the element's FILE:LINE:COL: a ``${field}`` the
component does not define (its own fields, its file's ``defaults:``, the ``with:`` of the
``use`` and ``repeat`` elements that lead there, the rule data ``${data...}`` and the fields
every face knows), a field written ``$name`` or named by ``field:`` instead of ``${name}``, an
enumerated word (``align``, ``valign``, ``font``) that a field supplies, and a ``repeat`` over
something that is not a list. Elements a ``when:``/``unless:`` leaves out for a component are
not drawn for it, so they are not checked for it either.
"""

from __future__ import annotations

import re
from typing import Any

from components.elements import SPECS
from components.errors import DefinitionError, attempt, found_so_far
from components.fields import (
    BARE_RE,
    MISSING,
    REF_RE,
    evaluate,
    lookup,
    number_text,
    refs_in,
)
from components.schema import (
    CHOICES,
    FONT_STYLES,
    LEGEND_KEYS,
    STANDARD_FONTS,
    Component,
    Game,
    choice_error,
    err,
    legend_key_error,
    mark_of,
    suggest,
    type_name,
)
from components.yamlloc import LocDict

HEX_RE = re.compile(r"#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})")
MAX_DEPTH = 8  # layouts inside layouts: deeper is a loop (the printer says so too)
MAX_ELEMENTS = 20_000  # elements on one face, as the printer bounds them
MAX_COPIES = 2000  # what one face may repeat, all its repeats together: far past any real board
FACE_FIELDS = ("version", "edition", "game_name", "qr", "data")


def truthy(value: Any) -> bool:
    """What ``when:`` and ``unless:`` count as set (the printer's rule)."""
    return value is not MISSING and value not in (None, False, 0, "", [], {}, "false", "no")


def face_fields(game: Game, comp: Component) -> dict[str, Any]:
    """The fields a face of ``comp`` is drawn with, before any ``use``/``repeat``."""
    fields = dict(comp.fields)
    fields.setdefault("version", comp.version)
    fields.setdefault("edition", game.edition)
    fields.setdefault("game_name", game.name)
    fields.setdefault("qr", "")
    fields.setdefault("data", game.data)
    return fields


def known_paths(game: Game) -> set[str]:
    """Every field path some component defines (a list's items as ``*``): a layout shared by
    several components may print a field that only some of them have (it prints nothing for
    the others), but a path that no component defines is a slip. While a watch keeps what it
    read (``yamlloc.KEEP``), each component's paths are kept with its very fields."""
    from components import yamlloc

    out: set[str] = set()
    kept: dict[int, tuple[Any, Any, frozenset[str]]] = {}
    for comp in game.components:
        hit = _PATHS.get(id(comp.fields))
        if hit is None or hit[0] is not comp.fields or hit[1] is not comp.faces:
            found: set[str] = set()
            _walk_paths(comp.fields, "", 0, found)
            for face in comp.faces:
                _walk_paths(face, "", 0, found)
            hit = (comp.fields, comp.faces, frozenset(found))
        kept[id(comp.fields)] = hit
        out |= hit[2]
    _PATHS.clear()
    if yamlloc.KEEP:
        _PATHS.update(kept)
    return out


# each component's field paths by its fields' identity (while yamlloc.KEEP), held with them
_PATHS: dict[int, tuple[Any, Any, frozenset[str]]] = {}


def _walk_paths(value: Any, prefix: str, depth: int, out: set[str]) -> None:
    if depth > 6:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            path = f"{prefix}.{k}" if prefix else str(k)
            out.add(path)
            _walk_paths(v, path, depth + 1, out)
    elif isinstance(value, list):
        out.add(f"{prefix}.*")
        for v in value:
            _walk_paths(v, f"{prefix}.*", depth + 1, out)


def _glimpse(text: str) -> str:
    """A name as shown in a message: never more than a glimpse of a hostile one."""
    return text if len(text) <= 60 else f"{text[:40]}... ({len(text)} characters)"


def _pattern(path: str) -> str:
    return ".".join("*" if part.isdigit() else part for part in path.split("."))


def check_faces(game: Game, basic_colours: tuple[str, ...] | None = None,
                components: list[Component] | None = None,
                known: set[str] | None = None) -> set[str]:
    """Raise a located ``DefinitionError`` for the first mistake on any component's faces
    (while collecting, ``components.errors``: record each component's first mistake and
    return the ids of the components that have one).
    ``basic_colours``: the colour names the printer knows beside the game's palette (colours
    are checked when the printer says which it knows). ``components``: only these (a rebuild
    checks the components that changed); ``known``: ``known_paths(game)`` if already made."""
    fonts = FONT_STYLES + tuple(game.fonts) + STANDARD_FONTS
    colours = None if basic_colours is None else tuple(game.palette) + basic_colours
    known = known if known is not None else known_paths(game)
    failed: set[str] = set()
    for comp in (game.components if components is None else components):
        before = found_so_far()
        with attempt():
            _check_component(game, comp, fonts, colours, known)
        if found_so_far() > before:
            failed.add(comp.id)
    return failed


def _check_component(game: Game, comp: Component, fonts: tuple[str, ...],
                     colours: tuple[str, ...] | None, known: set[str]) -> None:
    fields = face_fields(game, comp)
    if comp.kind == "die":
        faces = [(f"face {i + 1}", comp.front, {**fields, **face})
                 for i, face in enumerate(comp.faces)]
    else:
        faces = [("front", comp.front, fields)]
        if comp.back is not None:
            faces.append(("back", comp.back, fields))
    for name, spec, env in faces:
        with attempt():  # each face's first mistake
            _Walk(game, comp, name, fonts, colours, known).elements(
                spec, env, 0, frozenset(FACE_FIELDS))


class _Walk:
    def __init__(self, game: Game, comp: Component, face: str, fonts: tuple[str, ...],
                 colours: tuple[str, ...] | None, known: set[str]) -> None:
        self.game, self.comp, self.face, self.fonts = game, comp, face, fonts
        self.colours = colours
        self.known = known
        self.copies = 0
        self.visited = 0  # elements walked, every use of a layout counted
        # the names a use's with: or a repeat binds where the walk is: read strictly
        self.bound: frozenset[str] = frozenset()

    def optional(self, path: str) -> bool:
        """A component field that this component lacks but another one has."""
        return path.split(".")[0] not in self.bound and _pattern(path) in self.known

    # --- where and what ------------------------------------------------------------------------

    def error(self, msg: str, el: Any, key: str | None = None) -> DefinitionError:
        """At the element's key; where the key's whole value is one of the component's own
        fields (``fill: "${band}"``), at that field (a spreadsheet's cell), naming the
        element."""
        m = REF_RE.fullmatch(str(el.get(key, ""))) if key and isinstance(el, dict) else None
        name = m.group(1).strip() if m else ""
        if name in self.comp.marks and name not in self.bound:
            src, line, col = self.comp.marks[name]
            at = f"; the layout's {key} at {el.file}:{el.mark[0]}" \
                if isinstance(el, LocDict) and el.file else ""
            out = DefinitionError(f"{msg} (field '{name}'{at})", src, line, col)
            out.cause = mark_of(el, key) if isinstance(el, LocDict) and el.file else None
            return out
        if isinstance(el, LocDict) and el.file:
            return err(msg, el, key)
        return DefinitionError(msg, self.comp.file, self.comp.line)

    def whose(self) -> str:
        return f"component '{self.comp.id}' ({self.face})"

    # --- the walk ------------------------------------------------------------------------------

    def elements(self, spec: Any, fields: dict[str, Any], depth: int,
                 bound: frozenset[str]) -> None:
        if depth > MAX_DEPTH:
            return
        items = self.game.layouts.get(spec, []) if isinstance(spec, str) else spec or []
        for el in items:
            self.visited += 1
            if self.visited > MAX_ELEMENTS:  # layouts using layouts many times over
                raise self.error(f"{self.whose()} draws more than {MAX_ELEMENTS} elements on "
                                 "one face (layouts that use layouts many times over?)", el)
            self.bound = bound
            if isinstance(el, dict) and self.drawn(el, fields):
                self.element(el, fields, depth)

    def drawn(self, el: dict[str, Any], fields: dict[str, Any]) -> bool:
        for key in ("when", "unless"):
            if key not in el:
                continue
            name = el[key]
            if not isinstance(name, str) or name.startswith("$"):
                inner = REF_RE.fullmatch(name) if isinstance(name, str) else None
                right = inner.group(1) if inner else str(name).lstrip("$")
                raise self.error(f"{key}: names a field: write '{key}: {right}'", el, key)
            value = lookup(fields, name)
            if (key == "when") != truthy(value):
                return False
        return True

    def element(self, el: dict[str, Any], fields: dict[str, Any], depth: int) -> None:
        """One element, by what its spec says each key holds (components/elements.py)."""
        spec = SPECS.get(str(el.get("type")))
        if spec is None:
            return  # the schema names an unknown kind
        for key, value in el.items():
            if key not in ("type", "when", "unless", "layout", "as", "with"):
                self.value(value, fields, el, key)
        for key in CHOICES:
            if key in el and isinstance(el[key], str) and el[key].startswith("${"):
                msg = choice_error(key, self.resolve(el[key], fields), CHOICES[key],
                                   f" for {self.whose()}")
                if msg:
                    raise self.error(msg, el, key)
        for key in spec.of_type("font"):
            if key in el:
                chain = self.resolve(el[key], fields)
                if isinstance(chain, list) and not 1 <= len(chain) <= 8:
                    raise self.error("a font list names 1 to 8 fonts, each character set in "
                                     "the first that has it", el, key)
                for font in chain if isinstance(chain, list) else [chain]:
                    if not isinstance(font, str) or font not in self.fonts:
                        raise self.error(f"unknown font '{font}' (expected "
                                         f"{', '.join(FONT_STYLES)}, a name under fonts: in "
                                         "game.yaml, or a standard PDF font"
                                         f"{suggest(str(font), list(self.fonts))})", el, key)
        for key in spec.of_type("colour", "colours", "gradient"):
            if key in el:
                value = self.resolve(el[key], fields)
                if isinstance(value, dict):  # a gradient: its colours
                    value = value.get("colors")
                    value = self.resolve(value, fields) if isinstance(value, str) else value
                many = isinstance(value, list) and spec.key(key).type != "colour"  # type: ignore[union-attr]
                for colour in value if many else [value]:
                    self.colour(self.resolve(colour, fields), el, key)
        for key in spec.of_type("text"):
            text = self.resolve(el.get(key), fields)
            if isinstance(text, str) and text != el.get(key):
                self.field_text(text, fields, el)
        for key in spec.of_type("texts"):
            labels = self.resolve(el.get(key), fields)
            if isinstance(labels, list) and labels is not el.get(key):
                for label in labels:
                    if isinstance(label, str):
                        self.field_text(label, fields, el)
        if "cells" in el and spec.of_type("cells"):
            self.grid_cells(el, fields)
        if spec.of_type("items"):
            self.repeat(el, fields, depth)
        elif spec.of_type("layout"):
            given = self.with_fields(el, fields)
            self.elements(el.get("layout"), {**fields, **given}, depth + 1,
                          self.bound | set(given))

    def repeat(self, el: dict[str, Any], fields: dict[str, Any], depth: int) -> None:
        over = self.resolve(el.get("over"), fields)
        name = el.get("as", "item")
        if not isinstance(name, str) or not name.isidentifier():
            raise self.error(f"as: names the field each copy is drawn with (a word such as "
                             f"'lane'), not {name!r}", el, "as")
        items = repeat_items(over)
        if items is None:
            raise self.error(f"repeat needs a list, a mapping or a whole number to go over, "
                             f"not {over!r} (for {self.whose()})", el, "over")
        if repeat_wrap(self.resolve(el.get("wrap"), fields)) is None:
            raise self.error(f"wrap must be a whole number of copies to a row, not "
                             f"{el['wrap']!r}", el, "wrap")
        self.copies += len(items)
        if self.copies > MAX_COPIES:
            raise self.error(f"{self.whose()} repeats more than {MAX_COPIES} copies on one "
                             "face", el, "over")
        outer = self.bound
        for index, item in enumerate(items):
            copy = item_fields(name, index, item, items)
            env = {**fields, **copy}
            self.bound = outer | set(copy)
            given = self.with_fields(el, env)
            self.elements(el.get("layout"), {**env, **given}, depth + 1,
                          self.bound | set(given))

    def grid_cells(self, el: dict[str, Any], fields: dict[str, Any]) -> None:
        """A grid drawn from ``cells`` and a ``legend``: every mark it draws is in the legend,
        each entry's fill a colour and its label's references lead somewhere."""
        sizes = [self.resolve(el.get(k, 0), fields)
                 for k in ("rows", "cols", "skip_rows", "skip_cols")]
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in sizes):
            return  # not whole numbers: the printer names the key
        rows, cols, skip_rows, skip_cols = sizes
        try:
            _, labels = legend_cells(self.resolve(el.get("cells"), fields),
                                         self.resolve(el.get("legend"), fields), rows, cols,
                                         skip_rows, skip_cols,
                                         fill=self.resolve(el.get("fill"), fields))
        except CellError as exc:
            raise self.cell_error(exc, el) from None
        legend = self.resolve(el.get("legend"), fields)
        for mark, entry in legend.items():
            if "fill" in entry and self.bad_colour(entry["fill"]):
                slip = CellError(self.colour_msg(entry["fill"], f" in the legend's entry for "
                                                 f"'{mark}'"), entry, "fill")
                raise self.cell_error(slip, el)
        for label in dict.fromkeys(x for x in labels if isinstance(x, str)):
            self.field_text(label, fields, el)

    def cell_error(self, exc: CellError, el: Any) -> DefinitionError:
        """At the row of the cells or the legend's entry that is wrong, where it was written
        (the rule data, a field); else at the grid's key."""
        msg = f"{exc} ({self.whose()})"
        src, line, col = mark_of(exc.node, exc.key)
        if src and line:
            at = f"; the grid at {el.file}:{el.mark[0]}" if isinstance(el, LocDict) \
                and el.file else ""
            return DefinitionError(f"{msg[:-1]}{at})", src, line, col or None)
        key = exc.key if isinstance(exc.key, str) and exc.key in el else "cells"
        return self.error(msg, el, key)

    def colour(self, value: Any, el: Any, key: str) -> None:
        """A colour: ``#rgb``/``#rrggbb``, a palette name, a basic colour name, or none."""
        if self.bad_colour(value):
            raise self.error(self.colour_msg(value, f" for {self.whose()}"), el, key)

    def bad_colour(self, value: Any) -> bool:
        if value is None or value is False or value == "none" or self.colours is None:
            return False
        return not (isinstance(value, str) and (value in self.colours
                                                 or HEX_RE.fullmatch(value)))

    def colour_msg(self, value: Any, where: str = "") -> str:
        return (f"unknown colour '{value}'{where} (expected '#rrggbb', a name under palette: in "
                f"game.yaml or a basic colour such as black"
                f"{suggest(str(value), list(self.colours or ()))})")

    def with_fields(self, el: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
        given = el.get("with") or {}
        if not isinstance(given, dict):
            raise self.error("with: sets fields: a mapping such as {title: \"${name}\"}",
                             el, "with")
        for value in given.values():
            self.value(value, fields, el, "with")
        return {k: self.resolve(v, fields) for k, v in given.items()}

    # --- values --------------------------------------------------------------------------------

    def resolve(self, value: Any, fields: dict[str, Any]) -> Any:
        """As the printer reads it: ``"${x}"`` the field's value, text with references in it
        the text filled in (what is wrong with a reference is named by ``refs``)."""
        if not isinstance(value, str) or "${" not in value:
            return value

        def one(inner: str) -> Any:
            try:
                out = evaluate(inner, fields)
            except ValueError:
                return None
            return None if out is MISSING else out

        m = REF_RE.fullmatch(value)
        if m:
            return one(m.group(1))
        return REF_RE.sub(lambda r: "" if one(r.group(1)) is None else
                          number_text(one(r.group(1))), value)

    def value(self, value: Any, fields: dict[str, Any], el: Any, key: str) -> None:
        if isinstance(value, str):
            self.refs(value, fields, el, key)
        elif isinstance(value, list):
            for item in value:
                self.value(item, fields, el, key)
        elif isinstance(value, dict):
            for item in value.values():
                self.value(item, fields, el, key)

    def refs(self, text: str, fields: dict[str, Any], el: Any, key: str,
             via: str = "") -> None:
        if "$" not in text:
            return
        for bare in BARE_RE.finditer(text):
            path = bare.group(1)
            missing = lookup(fields, path) is MISSING and not self.optional(path)
            if via and missing:
                continue  # a field's own words may say "$N"; a layout's $name is a slip
            also = ""
            if missing:
                also = (f"; and {self.whose()} has no field '{_glimpse(path)}'"
                        f"{self.near(path, fields)}")
            raise self.error(f"'${path}' is not a field reference{via}: fields are written "
                             f"${{name}}, so write \"${{{path}}}\"{also}", el, key)
        for inner, paths in refs_in(text):
            for path in paths:
                if lookup(fields, path) is MISSING and not self.optional(path):
                    raise self.error(f"{self.whose()} has no field '{_glimpse(path)}'{via}"
                                     f"{self.near(path, fields)}", el, key)
            try:
                if not all(self.optional(p) for p in paths if lookup(fields, p) is MISSING):
                    evaluate(inner, fields)
            except ValueError as exc:
                raise self.error(f"{exc}{via} (for {self.whose()})", el, key) from None

    def field_text(self, text: str, fields: dict[str, Any], el: Any) -> None:
        """A field's own text is substituted too: its references must lead somewhere."""
        self.refs(text, fields, el, "text", via=" (in the text of a field it prints)")

    def near(self, path: str, fields: dict[str, Any]) -> str:
        """``; did you mean 'a.b'?`` for the first step of ``path`` that leads nowhere."""
        parts = path.split(".")
        value: Any = fields
        for i, part in enumerate(parts):
            if isinstance(value, dict) and part in value:
                value = value[part]
                continue
            if isinstance(value, dict):
                hint = suggest(part, [str(k) for k in value])
                if hint:
                    close = hint.split("'")[1]
                    return f"; did you mean '{'.'.join([*parts[:i], close])}'?"
            if i == 0:
                return " (define it on the component, under defaults:, or in the with: of " \
                       "the element that uses this layout)"
            return ""
        return ""


def repeat_items(over: Any) -> list[Any] | None:
    """What a ``repeat`` goes over: a list's items, a mapping's values (each knowing its key
    as ``key``), or ``0 .. N-1`` for a whole number N."""
    if isinstance(over, list):
        return list(over)
    if isinstance(over, dict):
        return [{**v, "key": k} if isinstance(v, dict) else v for k, v in over.items()]
    if isinstance(over, int) and not isinstance(over, bool) and 0 <= over <= MAX_COPIES:
        return list(range(over))
    if isinstance(over, float) and over.is_integer() and 0 <= over <= MAX_COPIES:
        return list(range(int(over)))
    return None


def repeat_wrap(value: Any) -> int | None:
    """``wrap:``: copies to a row (0, or absent: one row); None when it is not that."""
    if value is None:
        return 0
    if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0 \
            and float(value).is_integer():
        return int(value)
    return None


def item_fields(name: str, index: int, item: Any, items: list[Any]) -> dict[str, Any]:
    """The fields one copy of a ``repeat`` is drawn with."""
    return {name: item, f"{name}_index": index, f"{name}_count": len(items)}


class CellError(ValueError):
    """A mistake in a grid's ``cells`` or ``legend``, with the node (and key or item) that
    holds it, where that is known: a row of the rule data, an entry of a field's legend."""

    def __init__(self, msg: str, node: Any = None, key: str | int | None = None) -> None:
        super().__init__(msg)
        self.node, self.key = node, key


def legend_cells(cells: Any, legend: Any, rows: int, cols: int, skip_rows: int = 0,
                 skip_cols: int = 0, fill: Any = None) -> tuple[list[Any], list[Any]]:
    """The fill and the label of each cell a grid draws, row by row, from its ``cells`` and
    its ``legend``: the grid shows ``rows`` x ``cols`` of the cells, after the first
    ``skip_rows`` rows and the first ``skip_cols`` marks of each row (another grid draws
    those). A row is a text, one mark a character (``"HPLRPLH"``), or a list of marks; each
    mark draws its legend entry's ``fill`` (else the grid's ``fill``) and ``label``."""
    if not isinstance(legend, dict) or not legend:
        raise CellError("a grid's legend must be a mapping of each mark to {fill: ..., "
                        f"label: ...}}, not {type_name(legend)}", key="legend")
    for mark, entry in legend.items():
        if not isinstance(entry, dict):
            raise CellError(f"the legend's entry for '{mark}' must be a mapping {{fill: COLOUR, "
                            f"label: TEXT}}, not {type_name(entry)}", legend, str(mark))
        for key in entry:
            if key not in LEGEND_KEYS:
                raise CellError(legend_key_error(key, mark), entry, str(key))
    if not isinstance(cells, list):
        raise CellError(f"a grid's cells must be a list of rows (each a text of one mark a "
                        f"character, or a list of marks), not {type_name(cells)}", key="cells")
    if len(cells) < skip_rows + rows:
        raise CellError(f"the grid draws {rows} rows after skipping {skip_rows}, but its cells "
                        f"have {len(cells)} rows", cells)
    marks = [str(k) for k in legend]
    fills: list[Any] = []
    labels: list[Any] = []
    for r in range(skip_rows, skip_rows + rows):
        row = cells[r]
        if not isinstance(row, (str, list)):
            raise CellError(f"row {r + 1} of a grid's cells must be a text or a list of marks, "
                            f"not {type_name(row)}", cells, r)
        if len(row) < skip_cols + cols:
            raise CellError(f"row {r + 1} of a grid's cells has {len(row)} marks; the grid "
                            f"draws {cols} after skipping {skip_cols}", cells, r)
        for c in range(skip_cols, skip_cols + cols):
            mark = str(row[c])
            if mark not in legend:
                close = [m for m in marks if m.casefold() == mark.casefold()]
                hint = f"; did you mean '{close[0]}'?" if close else suggest(mark, marks)
                raise CellError(f"'{mark}' (row {r + 1}, mark {c + 1} of the grid's cells) is "
                                f"not in its legend (expected one of: {', '.join(marks)}"
                                f"{hint})", cells, r)
            entry = legend[mark]
            fills.append(entry.get("fill", fill))
            labels.append(entry.get("label"))
    return fills, labels
