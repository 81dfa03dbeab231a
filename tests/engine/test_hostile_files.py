"""A game folder's spreadsheets and fonts are untrusted files: a zip bomb posing as an .xlsx,
a sheet of millions of cells, a damaged or lying font file end ``irata check`` (and ``print``)
in one ``error:`` line, exit 2, within 10 s and 1 GB."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

GAME = "game: t\nname: T\n"
SHEET_CARDS = """\
layouts:
  face:
    - {type: text, text: "${title}", x: 3, y: 3, w: 50, h: 10}
defaults: {kind: card, size: poker, front: face, group: Cards}
components_from: {file: cards.xlsx}
"""
FONT_CARDS = """\
layouts:
  face:
    - {type: text, text: "Hi", x: 3, y: 3, w: 50, h: 10, font: f}
components: [{id: c/a, kind: card, size: poker, front: face, group: Cards}]
"""

_NS = "http://schemas.openxmlformats.org"
PARTS = {
    "[Content_Types].xml":
        f'<Types xmlns="{_NS}/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
        'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/'
        'sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.'
        'worksheet+xml"/></Types>',
    "_rels/.rels":
        f'<Relationships xmlns="{_NS}/package/2006/relationships"><Relationship Id="rId1" '
        f'Type="{_NS}/officeDocument/2006/relationships/officeDocument" '
        'Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml":
        f'<workbook xmlns="{_NS}/spreadsheetml/2006/main" xmlns:r="{_NS}/officeDocument/2006/'
        'relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels":
        f'<Relationships xmlns="{_NS}/package/2006/relationships"><Relationship Id="rId1" '
        f'Type="{_NS}/officeDocument/2006/relationships/worksheet" '
        'Target="worksheets/sheet1.xml"/></Relationships>',
}
HEAD = f'<worksheet xmlns="{_NS}/spreadsheetml/2006/main"><sheetData>'.encode()
TAIL = b"</sheetData></worksheet>"


def cell(ref: str, text: str) -> bytes:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'.encode()


def xlsx(path: Path, sheet: Iterator[bytes]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in PARTS.items():
            z.writestr(name, text)
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as f:
            for chunk in sheet:
                f.write(chunk)


def good_sheet() -> Iterator[bytes]:
    yield HEAD + b'<row r="1">' + cell("A1", "id") + cell("B1", "title") + b"</row>"
    yield b'<row r="2">' + cell("A2", "c/a") + cell("B2", "Alpha") + b"</row>" + TAIL


def one_huge_cell() -> Iterator[bytes]:  # 64 MB of text in one cell, packed to a few dozen KB
    yield HEAD + b'<row r="1"><c r="A1" t="inlineStr"><is><t>'
    for _ in range(64):
        yield b"a" * (1 << 20)
    yield b"</t></is></c></row>" + TAIL


def one_endless_row() -> Iterator[bytes]:  # two million cells in the heading row
    yield HEAD + b'<row r="1">'
    for _ in range(2000):
        yield b"<c><v>1</v></c>" * 1000
    yield b"</row>" + TAIL


def too_many_rows() -> Iterator[bytes]:
    yield HEAD + b'<row r="1">' + cell("A1", "id") + cell("B1", "title") + b"</row>"
    for i in range(2, 30_000):
        yield f'<row r="{i}">'.encode() + cell(f"A{i}", f"c/{i}") + b"</row>"
    yield TAIL


def many_parts(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as z:
        for name, text in PARTS.items():
            z.writestr(name, text)
        for i in range(5000):
            z.writestr(f"x/{i}.xml", "")


SHEETS = {
    "a zip bomb: one cell of 64 MB": (one_huge_cell, "unpacks to 64 MB; at most 16 MB"),
    "a row of two million cells": (one_endless_row, "unpacks to 28 MB; at most 16 MB"),
    "thirty thousand rows": (too_many_rows, "beyond 20000 rows"),
}

# run in a child with 1 GB of address space; the exit codes of check, then print
LIMITED = str(Path(__file__).parent / "limited_child.py")  # check, then print, in 1 GB


def game(root: Path, cards: str, game_yaml: str = GAME) -> Path:
    folder = root / "G"
    folder.mkdir()
    (folder / "game.yaml").write_text(game_yaml)
    (folder / "cards.yaml").write_text(cards)
    return folder


def limited(folder: Path, out: Path) -> tuple[list[int], list[str]]:
    """The exit codes of check and print within 10 s and 1 GB, and their error lines."""
    proc = subprocess.run([sys.executable, LIMITED, str(folder), str(out)],
                          capture_output=True, text=True, timeout=10)
    assert "Traceback" not in proc.stderr, proc.stderr
    # (print shows its progress on stderr too, a line ended by a carriage return)
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == proc.stderr.count("error:")
    return json.loads(proc.stdout.splitlines()[-1]), errors


def test_a_well_formed_workbook_prints(tmp_path: Path) -> None:
    folder = game(tmp_path, SHEET_CARDS)
    xlsx(folder / "cards.xlsx", good_sheet())
    codes, errors = limited(folder, tmp_path / "out")
    assert codes == [0, 0], errors


@pytest.mark.parametrize("case", list(SHEETS))
def test_a_hostile_workbook_is_one_line_within_10_s_and_1_gb(tmp_path: Path, case: str) -> None:
    make, message = SHEETS[case]
    folder = game(tmp_path, SHEET_CARDS)
    xlsx(folder / "cards.xlsx", make())
    assert (folder / "cards.xlsx").stat().st_size < 2_000_000
    codes, errors = limited(folder, tmp_path / "out")
    assert codes == [2, 2] and len(errors) == 2, errors
    assert all(line.startswith("error: ") and "cards.xlsx" in line and message in line
               for line in errors), errors
    assert not (tmp_path / "out").exists()


def test_a_workbook_of_thousands_of_parts_is_refused(tmp_path: Path) -> None:
    folder = game(tmp_path, SHEET_CARDS)
    many_parts(folder / "cards.xlsx")
    codes, errors = limited(folder, tmp_path / "out")
    assert codes == [2, 2] and all("parts; at most 1000" in line for line in errors), errors


FONTS = {
    "a TrueType tag and nothing else": b"\x00\x01\x00\x00",
    "a TrueType tag and garbage": b"\x00\x01\x00\x00" + b"\xff" * 5000,
    "a table directory of 65,535 tables": b"\x00\x01\x00\x00"
                                          + struct.pack(">HHHH", 65535, 0, 0, 0) + bytes(64),
    "an OpenType tag and zeros": b"OTTO" + bytes(4000),
}


@pytest.mark.parametrize("case", list(FONTS))
def test_a_damaged_font_file_is_one_line_within_10_s_and_1_gb(tmp_path: Path,
                                                              case: str) -> None:
    folder = game(tmp_path, FONT_CARDS, GAME + "fonts:\n  f: f.ttf\n")
    (folder / "f.ttf").write_bytes(FONTS[case])
    codes, errors = limited(folder, tmp_path / "out")
    assert codes == [2, 2] and len(errors) == 2, errors
    assert all(line.startswith("error: ") and "game.yaml:4:3: cannot use the font f.ttf"
               in line and len(line) < 300 for line in errors), errors
    assert not (tmp_path / "out").exists()


def test_a_collection_that_claims_100000_faces_is_one_line(tmp_path: Path) -> None:
    folder = game(tmp_path, FONT_CARDS, GAME + "fonts:\n  f: {file: f.ttc, index: 3}\n")
    (folder / "f.ttc").write_bytes(b"ttcf" + struct.pack(">HHI", 1, 0, 100_000) + bytes(64))
    codes, errors = limited(folder, tmp_path / "out")
    assert codes == [2, 2] and all("cannot use the font f.ttc (face 3)" in line
                                   for line in errors), errors
