"""Components from a spreadsheet: ``components_from: cards.csv`` (or ``.tsv``, or ``.xlsx``
with the ``xlsx`` extra) in a component file.

The first row names the columns; every later row is one component. A column is a field
(``title``, ``text``, ``cost``), or one of the component's own keys (``id``, ``count``,
``kind``, ``size``, ``group``, ``front``, ``back``, ...); a dotted name (``modifiers.food``)
fills a mapping. The file's YAML ``defaults:`` are merged under each row, so the sheet holds
only what differs from card to card. An empty cell leaves the field to the defaults.

A column must be one the components can use: a reserved key, a field the layouts read
(``$title``, ``field: text``, ``when: food``), or a field given a default in the YAML. So a
misspelt heading is an error (with a suggestion), never a silently unused column. A cell is
typed by its column: ``count`` is a whole number, a column whose default is a number or
true/false must hold one, and otherwise a clean number (``7``, ``-2``, ``1.5``) is a number,
``true``/``false`` (or ``TRUE``/``FALSE``, as spreadsheets write them) is true/false, and
anything else is text.

Every mistake is located as FILE:ROW:COLUMN, counted as a spreadsheet shows them (row 1 is
the heading row, column 1 the first column).
"""

from __future__ import annotations

import csv
import io
import math
import re
from pathlib import Path
from typing import Any

from components.errors import DefinitionError
from components.schema import RESERVED, check_elements, face_refs, suggest, type_name
from components.yamlloc import LocDict, LocList

TABLE_SUFFIXES = (".csv", ".tsv", ".tab", ".xlsx")
MAX_TABLE_BYTES = 16 * 1024 * 1024
MAX_ROWS = 20_000
# an .xlsx is a zip: what it unpacks to is bounded before a reader sees it (a zip bomb packs
# gigabytes of sheet into a few MB), a part as a sheet of MAX_ROWS rows of a few columns needs
MAX_XLSX_PART = 16 * 1024 * 1024
MAX_XLSX_UNPACKED = 48 * 1024 * 1024
MAX_XLSX_PARTS = 1000
MAX_COLUMNS = 500  # columns of a sheet: far more fields than any face prints
SPEC_KEYS = ("file", "sheet")
_INT = re.compile(r"^[+-]?(0|[1-9][0-9]*)$")
_FLOAT = re.compile(r"^[+-]?(0|[1-9][0-9]*)\.[0-9]+$")
_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*[xX×]\s*([0-9]+(?:\.[0-9]+)?)\s*$")


def table_path(spec: Any, doc: LocDict, base: Path, folder: Path) -> tuple[Path, str | None]:
    """The spreadsheet a ``components_from:`` names (relative to ``base``, the YAML file's
    folder, and inside the game ``folder``), and the worksheet named, if any."""
    from components.confine import ConfineError, inside
    from components.schema import check_keys, err

    sheet: str | None = None
    node, key = doc, "components_from"
    rel = spec
    if isinstance(spec, LocDict):
        check_keys(spec, SPEC_KEYS, "components_from")
        rel, sheet = spec.get("file"), spec.get("sheet")
        node, key = spec, "file"
        if sheet is not None and not isinstance(sheet, str):
            raise err("sheet must be the name of a worksheet", spec, "sheet")
    if not isinstance(rel, str) or not rel.lower().endswith(TABLE_SUFFIXES):
        raise err(f"components_from must name a .csv, .tsv or .xlsx file in the game folder, "
                  f"not {type_name(rel)}", node, key)
    p = Path(rel)
    if p.is_absolute() or "\0" in rel:
        raise err(f"'{rel}' must lie inside the game folder", node, key)
    try:
        full = inside(base / p, folder)
    except ConfineError as exc:
        raise err(f"'{rel}' {exc}" + (f" (looked in {base})" if "exist" in str(exc) else ""),
                  node, key) from None
    if not full.is_file():
        raise err(f"'{rel}' is not a file (looked in {base})", node, key)
    if full.stat().st_size > MAX_TABLE_BYTES:
        raise err(f"'{rel}' is larger than {MAX_TABLE_BYTES // (1024 * 1024)} MB", node, key)
    if sheet is not None and full.suffix.lower() != ".xlsx":
        raise err("'sheet' only applies to an .xlsx file", node, "sheet")
    return full, sheet


def read_table(path: Path, shown: str, sheet: str | None = None,
               spec: Any = None) -> list[list[Any]]:
    """The rows of a CSV/TSV/XLSX file as lists of cells (the heading row first). ``spec``:
    the YAML's ``components_from`` mapping, where a worksheet it names and the workbook
    lacks is refused."""
    if path.suffix.lower() == ".xlsx":
        return _read_xlsx(path, shown, sheet, spec)
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")  # spreadsheet programs often start UTF-8 with a BOM
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1  # the line of the file it stands on
        raise DefinitionError(f"not UTF-8 text (byte {exc.start + 1}, "
                              f"{raw[exc.start:exc.start + 1]!r}); save the sheet as "
                              "'CSV UTF-8'", shown, line) from None
    if path.suffix.lower() in (".tsv", ".tab"):
        delimiter = "\t"
    else:
        first = text.split("\n", 1)[0]
        # a spreadsheet in a comma-decimal locale writes semicolons
        delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        rows = list(reader)
    except csv.Error as exc:
        # the line the reader stopped at (a quote left open runs to the end of the file)
        raise DefinitionError(f"malformed {path.suffix[1:].upper()}: {exc}", shown,
                              reader.line_num or None) from None
    if len(rows) > MAX_ROWS + 1:
        raise DefinitionError(f"{len(rows) - 1} rows; at most {MAX_ROWS}", shown)
    return rows


def _check_unpacked(path: Path, shown: str) -> None:
    """Refuse an .xlsx whose parts would unpack past the bounds, before anything unpacks."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as z:
            parts = z.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise DefinitionError(f"cannot read the workbook ({exc})", shown) from None
    mb = 1024 * 1024
    if len(parts) > MAX_XLSX_PARTS:
        raise DefinitionError(f"the workbook holds {len(parts)} parts; at most "
                              f"{MAX_XLSX_PARTS}", shown)
    for part in parts:
        if part.file_size > MAX_XLSX_PART:
            raise DefinitionError(f"the workbook's part {part.filename[:60]} unpacks to "
                                  f"{part.file_size // mb} MB; at most {MAX_XLSX_PART // mb} MB "
                                  "(save a smaller sheet, or as CSV)", shown)
    total = sum(part.file_size for part in parts)
    if total > MAX_XLSX_UNPACKED:
        raise DefinitionError(f"the workbook unpacks to {total // mb} MB; at most "
                              f"{MAX_XLSX_UNPACKED // mb} MB (save a smaller sheet, or as CSV)",
                              shown)
    # a part that declares XML entities (or a DTD, which may declare them) is refused before
    # an XML reader sees it: entities nest into a "billion laughs" no size above shows
    try:
        with zipfile.ZipFile(path) as z:
            for part in parts:
                if not part.filename.lower().endswith((".xml", ".rels", ".vml")):
                    continue
                with z.open(part) as fh:
                    data = fh.read(MAX_XLSX_PART + 1)
                if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
                    raise DefinitionError(f"the workbook's part {part.filename[:60]} declares "
                                          "XML entities or a DTD, which irata does not read "
                                          "(save the sheet again from a spreadsheet program, "
                                          "or as CSV)", shown)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, RuntimeError) as exc:
        if isinstance(exc, DefinitionError):
            raise
        raise DefinitionError(f"cannot read the workbook ({exc})", shown) from None


def _read_xlsx(path: Path, shown: str, sheet: str | None, spec: Any = None
               ) -> list[list[Any]]:
    _check_unpacked(path, shown)
    try:
        import openpyxl
    except ImportError:
        raise DefinitionError("reading .xlsx needs the xlsx extra: pip install 'irata[xlsx]' "
                              "(or save the sheet as CSV)", shown) from None
    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a damaged file  # noqa: BLE001
        raise DefinitionError(f"cannot read the workbook ({exc})", shown) from None
    try:
        if not book.worksheets:
            raise DefinitionError("the workbook holds no worksheet", shown)
        if sheet is None:
            ws = book.worksheets[0]
        elif sheet in book.sheetnames:
            ws = book[sheet]
        else:
            from components.schema import err

            msg = (f"no worksheet '{sheet}' in {shown} (sheets: {', '.join(book.sheetnames)}"
                   f"{suggest(sheet, book.sheetnames)})")
            if isinstance(spec, LocDict) and "sheet" in spec:
                raise err(msg, spec, "sheet")  # the YAML's line that names it
            raise DefinitionError(msg, shown)
        return _sheet_rows(book, ws, shown)
    finally:
        book.close()


def _sheet_rows(book: Any, ws: Any, shown: str) -> list[list[Any]]:
    """A worksheet's rows, read cell by cell as the sheet's XML lists them: the declared used
    range and every cell's place are checked before a row is built, so a sheet of one cell at
    XFD1048576 is refused at that cell instead of being padded out to millions of cells."""
    from openpyxl.worksheet._reader import WorkSheetParser

    # the <dimension> the sheet declares (openpyxl reads only that element for it)
    if (ws.max_row or 0) > MAX_ROWS + 1 or (ws.max_column or 0) > MAX_COLUMNS:
        raise DefinitionError(
            f"the sheet declares its used range as {ws.calculate_dimension()}, beyond "
            f"{MAX_ROWS} rows and {MAX_COLUMNS} columns; delete the rows and columns past the "
            "last card (or save as CSV)", shown)
    by_row: dict[int, dict[int, Any]] = {}
    try:
        with ws._get_source() as src:
            parser = WorkSheetParser(src, ws._shared_strings, data_only=True,
                                     epoch=book.epoch, date_formats=book._date_formats,
                                     timedelta_formats=book._timedelta_formats)
            for _, cells in parser.parse():
                for cell in cells:
                    r, c, value = cell["row"], cell["column"], cell["value"]
                    if r > MAX_ROWS + 1 or c > MAX_COLUMNS:
                        raise DefinitionError(
                            f"a cell beyond {MAX_ROWS} rows and {MAX_COLUMNS} columns; delete "
                            "it (or save as CSV)", shown, r, c)
                    if value is not None:
                        by_row.setdefault(r, {})[c] = value
    except DefinitionError:
        raise
    except Exception as exc:  # a damaged sheet makes openpyxl raise many kinds  # noqa: BLE001
        text = " ".join(str(exc).split())[:120] or type(exc).__name__
        raise DefinitionError(f"cannot read the workbook ({text})", shown) from None
    last = max(by_row, default=0)
    rows: list[list[Any]] = []
    for r in range(1, last + 1):
        cells = by_row.get(r, {})
        width = max(cells, default=0)
        rows.append([cells.get(c, "") for c in range(1, width + 1)])
    return rows


def fields_used(specs: list[Any], layouts: dict[str, Any]) -> set[str]:
    """The top-level field names the faces ``specs`` read: ``${name.x}`` (every path of a
    sum), ``when: name``, ``unless: name``, followed through ``use`` layouts."""
    return {ref.lstrip("$").strip("{}").split(".")[0]
            for ref in face_refs(specs, layouts, conditions=True)}


def rows_to_items(rows: list[list[Any]], shown: str, defaults: dict[str, Any],
                  layouts: dict[str, Any]) -> LocList:
    """Each data row as a located mapping, ready for ``schema.parse_component``."""
    if not rows or not any(str(c).strip() for c in rows[0]):
        raise DefinitionError("the first row must name the columns (id, title, ...)", shown,
                              1, 1)
    header = [str(c).strip() for c in rows[0]]
    if defaults.get("front") is None and "front" not in header:
        # without a layout no column is read: say what is missing, not that 'title' is unknown
        raise DefinitionError("these rows have no layout to print with: give 'front: LAYOUT' "
                              "under defaults: in the YAML file that names this sheet, or a "
                              "'front' column", shown, 1, 1)
    faces = [defaults.get("front"), defaults.get("back")]
    for key in ("front", "back"):
        if defaults.get(key) is not None:
            # a misspelt layout name reads no field: say so before calling a column unknown
            check_elements(defaults[key], defaults, key, layouts, f"defaults' {key}")
    known = set(RESERVED) | set(defaults) | fields_used(faces, layouts)
    if "front" in header or "back" in header:
        known |= fields_used(list(layouts.values()), layouts)
    for col, name in enumerate(header, 1):
        if not name:
            continue
        top = name.split(".")[0]
        if top not in known:
            choices = sorted(k for k in known if k not in ("shape", "faces", "base"))
            same = [k for k in choices if k.lower() == top.lower()]
            hint = f"; did you mean '{same[0]}'?" if same else suggest(top, choices)
            raise DefinitionError(
                f"unknown column '{name}': no layout of these components reads it and the "
                f"YAML gives it no default{hint} (columns may be: "
                f"{', '.join(choices)})", shown, 1, col)
        if header.count(name) > 1:
            raise DefinitionError(f"column '{name}' is given twice", shown, 1, col)
    if "id" not in header:
        raise DefinitionError("no 'id' column: every row needs its component's id"
                              f"{suggest('id', header, 0.3)}", shown, 1, 1)
    out = LocList()
    out.file, out.mark, out.marks = shown, (1, 1), []
    for r, row in enumerate(rows[1:], 2):
        if not any(str(c).strip() for c in row):
            continue  # a blank line between groups of cards
        if len(row) > len(header) and any(str(c).strip() for c in row[len(header):]):
            raise DefinitionError(f"row {r} has {len(row)} cells but the heading names "
                                  f"{len(header)} columns", shown, r, len(header) + 1)
        item = LocDict()
        item.file, item.mark, item.marks = shown, (r, 1), {}
        for col, name in enumerate(header, 1):
            cell = row[col - 1] if col - 1 < len(row) else ""
            if isinstance(cell, str):
                cell = cell.strip()
            if cell == "" or not name:
                if name == "id":
                    raise DefinitionError("missing id: every row needs its component's id",
                                          shown, r, col)
                continue
            value = _typed(name, cell, defaults, shown, r, col)
            parts = name.split(".")
            target: dict[str, Any] = item
            for part in parts[:-1]:
                nxt = target.get(part)
                if not isinstance(nxt, dict):
                    base = defaults.get(part) if target is item else None
                    if base is not None and not isinstance(base, dict):
                        raise DefinitionError(
                            f"column '{name[:60]}' fills in a mapping, but the default of "
                            f"'{part[:40]}' is {type_name(base)}", shown, 1, col)
                    nxt = dict(base or {})
                    target[part] = nxt
                target = nxt
            target[parts[-1]] = value
            item.marks.setdefault(parts[0], (r, col))
        out.append(item)
        out.marks.append((r, 1))
    return out


def _typed(name: str, cell: Any, defaults: dict[str, Any], shown: str, r: int,
           col: int) -> Any:
    """A cell's value, typed by its column (see the module's docstring)."""
    from components.yamlloc import MAX_DIGITS

    if isinstance(cell, str) and name != "id" and (_INT.match(cell) or _FLOAT.match(cell)):
        digits = sum(ch.isdigit() for ch in cell)
        if digits > MAX_DIGITS:  # refused by length: int() of thousands of digits is refused
            raise DefinitionError(f"a number of {digits} digits is too large (at most "
                                  f"{MAX_DIGITS})", shown, r, col)
    if isinstance(cell, float) and not math.isfinite(cell):
        raise DefinitionError(f"'{cell}' is not a finite number", shown, r, col)
    if name == "count":
        if isinstance(cell, int) and not isinstance(cell, bool) and cell >= 0:
            return cell
        if isinstance(cell, float) and cell.is_integer() and cell >= 0:
            return int(cell)
        if isinstance(cell, str) and _INT.match(cell) and not cell.startswith("-"):
            return int(cell)
        raise DefinitionError(f"count must be a whole number 0 or more, not '{cell}'", shown,
                              r, col)
    if name == "size" and isinstance(cell, str):
        m = _SIZE.match(cell)
        if m:
            return [float(m.group(1)), float(m.group(2))]
        return cell
    default = defaults.get(name)
    if isinstance(default, bool):
        if isinstance(cell, bool):
            return cell
        low = str(cell).lower()
        if low in ("true", "yes", "1"):
            return True
        if low in ("false", "no", "0"):
            return False
        raise DefinitionError(f"column '{name}' holds true or false (its default is "
                              f"{str(default).lower()}), not '{cell}'", shown, r, col)
    if not isinstance(cell, str):
        return cell  # a spreadsheet's own number, date or true/false
    number: Any = None
    if name == "id":
        pass  # an id is text, whatever it looks like
    elif _INT.match(cell):
        number = int(cell)
    elif _FLOAT.match(cell):
        number = float(cell)
    if isinstance(default, (int, float)) and number is None:
        raise DefinitionError(f"bad number '{cell}' in column '{name}' (its default is "
                              f"{default}, so it holds a number)", shown, r, col)
    if number is not None and name not in ("id", "group", "front", "back", "kind"):
        return number
    if cell in ("true", "false", "TRUE", "FALSE") and name != "id":  # TRUE: as Excel writes it
        return cell.lower() == "true"
    return cell
