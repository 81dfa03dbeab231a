"""The second fuzzing pass's classes (fonts, SVG art, spreadsheets, errata versions): each must
end in one located error line and exit code 2 from ``check`` and from ``print`` alike (what
``check`` passes ``print`` prints), with nothing written, in seconds, and without a single
byte of a file outside the game folder read."""

from __future__ import annotations

import os
import struct
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from irata.cli import main

sys.path.insert(0, str(Path(__file__).parent.parent / "designer"))
from conftest import make_font  # noqa: E402

GAME = "game: t\nname: T\nedition: \"1.0\"\n"
CARDS = """\
components:
  - id: c
    kind: card
    size: poker
    front:
      - {element}
"""
TEXT = "{type: text, text: ABC, w: 40, h: 10, font: body}"
ART = "{type: image, path: a.svg, w: 30, h: 30}"
ROWS = ("defaults: {kind: card, size: poker, front: [{type: text, text: '${title}', w: 40, "
        "h: 10}]}\ncomponents_from: %s\n")

Maker = Callable[[Path], None]


def make_game(root: Path, files: dict[str, str | bytes | Maker], game: str = GAME,
              element: str = "{type: rect, w: 10, h: 10}") -> Path:
    folder = root / "G"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS.format(element=element), encoding="utf-8")
    for name, content in files.items():
        p = folder / name
        if callable(content):
            content(p)
        elif isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content, encoding="utf-8")
    return folder


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with pytest.raises(SystemExit) as info:
        main(args)
    code = info.value.code
    return int(code) if isinstance(code, int) else 1, capsys.readouterr().err


def refused(folder: Path, capsys: pytest.CaptureFixture[str], *where: str) -> str:
    """``check`` and ``print`` both refuse ``folder`` in one error line naming ``where``
    (FILE:LINE:COL or FILE), and print writes nothing."""
    out = folder.parent / "out"
    lines = []
    for args in (["check", "--components", str(folder)],
                 ["print", "--components", str(folder), "--out", str(out)]):
        code, err = run(args, capsys)
        errors = [ln for ln in err.splitlines() if ln.startswith("error: ")]
        assert code == 2 and len(errors) == 1, err
        assert "Traceback" not in err
        for w in where:
            assert w in errors[0], errors[0]
        lines.append(errors[0])
    assert not out.exists() or not any(out.rglob("*.pdf"))
    assert lines[0] == lines[1]  # check says what print would
    return lines[0]


# --- field references ------------------------------------------------------------------------

@pytest.mark.parametrize("inner", ["²", "é", "!", "a ² b", "1 + ²", "x @ y", "rows.9" + "9" * 5000])
def test_a_reference_with_a_character_the_grammar_lacks_is_one_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], inner: str) -> None:
    element = "{type: text, text: '${" + inner + "}', w: 20, h: 10}"
    folder = make_game(tmp_path, {}, element=element)
    line = refused(folder, capsys, "cards.yaml:6:")
    assert len(line) < 400


# --- errata versions ---------------------------------------------------------------------------

ERRATUM = "errata:\n  - id: E1\n    summary: s\n    version: '{v}'\n    changes: []\n"


@pytest.mark.parametrize("version", ["9" * 5000, "1." + "9" * 4400, "١.٢", "1." * 20 + "1"])
def test_an_erratum_version_of_any_length_is_refused_where_it_stands(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], version: str) -> None:
    folder = make_game(tmp_path, {"errata.yaml": ERRATUM.format(v=version)})
    line = refused(folder, capsys, "errata.yaml:4:")
    assert "version" in line and len(line) < 400


@pytest.mark.parametrize("args", [
    ["print", "mule", "--since", "9" * 5000],
    ["print", "mule", "--since", "1." + "9" * 5000],
    ["errata", "diff", "outer-earth", "--from", "9" * 5000],
    ["errata", "diff", "outer-earth", "--to", "١"],
    ["errata", "check", "irata:mutagen/crew/all@" + "9" * 5000],
])
def test_a_version_argument_of_any_length_is_one_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, err = run([*args, *(["--out", str(tmp_path / "o")] if args[0] == "print" else [])],
                    capsys)
    errors = [ln for ln in err.splitlines() if ln.startswith("error: ")]
    assert code == 2 and len(errors) == 1 and len(errors[0]) < 300, err
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").rglob("*.pdf"))


def test_an_edition_that_is_no_version_is_refused_when_errata_follow_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = make_game(tmp_path, {"errata.yaml": ERRATUM.format(v="1.1")},
                       game="game: t\nname: T\nedition: first\n")
    assert "not a version" in refused(folder, capsys, "errata.yaml:4:")


# --- fonts -------------------------------------------------------------------------------------

def _font(cff: bool) -> Maker:
    return lambda p: make_font(p, "ABCDEFGHIJ", cff=cff)


def _cut(fraction: float, cff: bool = False) -> Maker:
    def make(p: Path) -> None:
        make_font(p, "ABCDEFGHIJ", cff=cff)
        data = p.read_bytes()
        p.write_bytes(data[:int(len(data) * fraction)])
    return make


def _damaged(table: bytes) -> Maker:
    """A TrueType font with every byte of one table overwritten."""
    def make(p: Path) -> None:
        make_font(p, "ABCDEFGHIJ", cff=False)
        data = bytearray(p.read_bytes())
        (count,) = struct.unpack(">H", data[4:6])
        for i in range(count):
            rec = 12 + 16 * i
            if data[rec:rec + 4] == table:
                offset, length = struct.unpack(">II", data[rec + 8:rec + 16])
                data[offset:offset + length] = b"\xff" * length
        p.write_bytes(bytes(data))
    return make


@pytest.mark.parametrize("make", [_cut(0.5), _cut(0.1), _cut(0.5, cff=True), _cut(0.9)]
                         + [_damaged(t) for t in (b"glyf", b"hmtx", b"cmap", b"head", b"name",
                                                  b"maxp", b"hhea", b"post", b"OS/2")],
                         ids=["half", "tenth", "cff-half", "nine-tenths", "glyf", "hmtx",
                              "cmap", "head", "name", "maxp", "hhea", "post", "os2"])
def test_a_damaged_font_file_is_refused_by_check_as_by_print(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Maker) -> None:
    folder = make_game(tmp_path, {"f.ttf": make}, game=GAME + "fonts:\n  body: f.ttf\n",
                       element=TEXT)
    assert "font" in refused(folder, capsys, "game.yaml:5:")


@pytest.mark.parametrize("weight", ["[1, 2]", "{a: 1}", "true", "0", "5000", "'" + "x" * 300 + "'"])
def test_a_font_weight_that_is_no_weight_is_one_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], weight: str) -> None:
    folder = make_game(tmp_path, {}, game=GAME + "fonts:\n  body: {family: Fira Sans, "
                       f"weight: {weight}}}\n", element=TEXT)
    refused(folder, capsys, "game.yaml:5:")


@pytest.mark.parametrize("spec", ["f.ttf", "{file: f.ttf}"])
def test_a_font_file_that_is_a_link_loop_is_one_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str) -> None:
    folder = make_game(tmp_path, {"f.ttf": lambda p: os.symlink(p.name, p)},
                       game=GAME + f"fonts:\n  body: {spec}\n", element=TEXT)
    assert "cannot be followed" in refused(folder, capsys, "game.yaml:5:")


# --- SVG art -----------------------------------------------------------------------------------

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">{}</svg>'


@pytest.mark.parametrize("body", [
    '<rect width="5x" height="5"/>',
    '<circle r="2qq"/>',
    '<ellipse rx="1e" ry="2"/>',
    '<polygon points="1,2 3,x"/>',
])
def test_svg_art_with_a_length_svglib_cannot_read_fails_check_as_print(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str) -> None:
    folder = make_game(tmp_path, {"a.svg": SVG.format(body)}, element=ART)
    line = refused(folder, capsys, "cards.yaml:6:", "a.svg")
    assert "cannot be drawn" in line


def test_svg_art_of_more_shapes_than_a_print_may_draw_is_refused_by_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = '<rect width="1" height="1"/>' * 100_000
    folder = make_game(tmp_path, {"a.svg": SVG.format(body)}, element=ART)
    assert "shapes" in refused(folder, capsys, "cards.yaml:6:")


def test_svg_art_counts_its_shapes_for_every_copy_and_every_use(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A few thousand shapes per face are fine once, but not on 200 copies; and a <use> of a
    <use> of a group counts what it copies, so no SVG multiplies its shapes unseen."""
    body = '<rect width="1" height="1"/>' * 2000
    folder = make_game(tmp_path, {"a.svg": SVG.format(body)}, element=ART)
    (folder / "cards.yaml").write_text(CARDS.format(element=ART).replace(
        "size: poker", "size: poker\n    count: 200"), encoding="utf-8")
    assert "shapes" in refused(folder, capsys, "cards.yaml")
    uses = ('<g id="a">' + '<rect width="1" height="1"/>' * 100 + "</g>"
            + '<g id="b">' + '<use href="#a"/>' * 100 + "</g>"
            + '<g id="c">' + '<use href="#b"/>' * 100 + "</g>")
    (folder / "cards.yaml").write_text(CARDS.format(element=ART), encoding="utf-8")
    (folder / "a.svg").write_text(SVG.format(uses), encoding="utf-8")
    assert "shapes" in refused(folder, capsys, "cards.yaml:6:")
    (folder / "a.svg").write_text(SVG.format('<g id="a"><use href="#a"/></g>'),
                                  encoding="utf-8")
    assert "copies itself" in refused(folder, capsys, "cards.yaml:6:")


def test_svg_text_naming_a_font_file_outside_prints_in_a_standard_font_and_never_reads_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    secret = make_font(tmp_path / "private" / "secret.ttf", "ABC", family="Private Secret")
    stem = str(secret.with_suffix(""))
    art = SVG.format(f'<text x="1" y="5" font-family="{stem}, Zorglub, serif">ABC</text>'
                     f'<text x="1" y="9" style="font-family: {stem}">ABC</text>')
    folder = make_game(tmp_path, {"a.svg": art}, element=ART)
    opened: list[str] = []

    def hook(event: str, args: tuple[object, ...]) -> None:
        if event == "open" and isinstance(args[0], (str, bytes)) and b"private" in os.fsencode(
                args[0]):
            opened.append(os.fsdecode(args[0]))
        if event in ("subprocess.Popen", "os.posix_spawn", "os.exec"):
            opened.append(f"{event} {args!r}")

    _HOOKS.append(hook)
    try:
        code, err = run(["print", "--components", str(folder), "--out", str(tmp_path / "o")],
                        capsys)
    finally:
        _HOOKS.remove(hook)
    assert code == 0, err
    assert opened == []
    pdf = next((tmp_path / "o").rglob("*.pdf")).read_bytes()
    assert b"Secret" not in pdf and b"secret" not in pdf


# one audit hook for the module (a hook cannot be removed): it calls the test's own hooks
_HOOKS: list[Callable[[str, tuple[object, ...]], None]] = []
sys.addaudithook(lambda event, args: [h(event, args) for h in list(_HOOKS)] and None)


# --- spreadsheets ------------------------------------------------------------------------------

def test_components_from_a_link_loop_is_one_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = make_game(tmp_path, {"t.csv": lambda p: os.symlink(p.name, p),
                                  "more.yaml": ROWS % "t.csv"})
    assert "cannot be followed" in refused(folder, capsys, "more.yaml:2:")


@pytest.mark.parametrize("column", ["title", "count", "id"])
def test_a_cell_of_thousands_of_digits_is_an_error_at_its_cell(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], column: str) -> None:
    cells = {"id": "x", "title": "a", "count": "1", column: "9" * 5000}
    csv = "id,title,count\n" + ",".join(cells[c] for c in ("id", "title", "count")) + "\n"
    folder = make_game(tmp_path, {"t.csv": csv, "more.yaml": ROWS % "t.csv"})
    col = ("id", "title", "count").index(column) + 1
    line = refused(folder, capsys, f"t.csv:2:{col}:")
    assert len(line) < 400


def _xlsx(p: Path, far: str | None = None, dimension: bool = True,
          doctype: bool = False) -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["B1"], ws["A2"], ws["B2"] = "id", "title", "x", "y"
    if far:
        ws[far] = "far"
    wb.save(p)
    with zipfile.ZipFile(p) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"]
    if not dimension:
        start = sheet.index(b"<dimension")
        sheet = sheet[:start] + sheet[sheet.index(b"/>", start) + 2:]
    if doctype:
        sheet = b'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>' + sheet
        sheet = sheet.replace(b"<v>", b"<v>&b;", 1)
    parts["xl/worksheets/sheet1.xml"] = sheet
    with zipfile.ZipFile(p, "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)


@pytest.mark.parametrize("far, dimension, where", [
    ("XFD1048576", True, "t.xlsx: the sheet declares"),
    ("XFD1048576", False, "t.xlsx:1048576:16384:"),
    ("A30000", False, "t.xlsx:30000:1:"),
    ("ZZ2", False, "t.xlsx:2:702:"),
])
def test_an_xlsx_with_a_far_cell_is_refused_at_it_without_building_its_rows(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], far: str, dimension: bool,
        where: str) -> None:
    pytest.importorskip("openpyxl")
    folder = make_game(tmp_path, {"t.xlsx": lambda p: _xlsx(p, far, dimension),
                                  "more.yaml": ROWS % "t.xlsx"})
    import tracemalloc

    tracemalloc.start()
    try:
        refused(folder, capsys, where)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200 * 1024 * 1024  # the padded rows of this sheet would take gigabytes


def test_an_xlsx_whose_sheet_declares_entities_is_one_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("openpyxl")
    folder = make_game(tmp_path, {"t.xlsx": lambda p: _xlsx(p, doctype=True),
                                  "more.yaml": ROWS % "t.xlsx"})
    assert "entities" in refused(folder, capsys, "t.xlsx")


def test_an_xlsx_read_cell_by_cell_keeps_its_rows_and_gaps(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The bounded reader reads what the sheet holds: a blank row between groups is skipped,
    cells land in their columns."""
    pytest.importorskip("openpyxl")
    import openpyxl

    def make(p: Path) -> None:
        wb = openpyxl.Workbook()
        ws = wb.active
        ws["A1"], ws["B1"] = "id", "title"
        ws["A2"], ws["B2"] = "one", "First"
        ws["A4"], ws["B4"] = "two", 7
        wb.save(p)

    folder = make_game(tmp_path, {"t.xlsx": make, "more.yaml": ROWS % "t.xlsx"})
    code, err = run(["print", "--components", str(folder), "--out", str(tmp_path / "o")],
                    capsys)
    assert code == 0, err
    import json

    placed = json.loads((tmp_path / "o" / "t" / "manifest.json").read_text())
    ids = {p["component"] for s in placed["sheets"] for p in s["placements"]}
    assert {"one", "two", "c"} <= ids


# --- what a killed print leaves behind ---------------------------------------------------------

def test_a_print_clears_the_scratch_a_killed_print_left_and_nothing_else(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A print killed mid-way leaves its hidden scratch (a half-written PDF, a staging folder
    of SVG sheets): the next print removes it, but keeps a person's own hidden files, the
    scratch of a print still running, and what a link named like scratch points to."""
    import subprocess

    folder = make_game(tmp_path, {})
    out = tmp_path / "out"
    code, err = run(["print", "--components", str(folder), "--out", str(out)], capsys)
    assert code == 0, err
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    game = out / "t"
    half = game / f".t-single-sided.pdf.{dead}.abcd1234.tmp"
    half.write_bytes(b"%PDF-1.4 half")
    staging = game / f".svg.{dead}.k2j4h5g6"
    staging.mkdir()
    (staging / "sheet-001-front.svg").write_text("<svg", encoding="utf-8")
    running = game / f".t.pdf.{os.getpid()}.zzzz9999.tmp"
    running.write_bytes(b"mine")
    own = game / ".my-notes.txt"
    own.write_text("keep", encoding="utf-8")
    kept = tmp_path / "precious"
    kept.mkdir()
    (kept / "file").write_text("keep", encoding="utf-8")
    (game / f".png.{dead}.linklink").symlink_to(kept)
    code, err = run(["print", "--components", str(folder), "--out", str(out)], capsys)
    assert code == 0, err
    assert not half.exists() and not staging.exists()
    assert not (game / f".png.{dead}.linklink").is_symlink()
    assert (kept / "file").read_text(encoding="utf-8") == "keep"
    assert running.read_bytes() == b"mine" and own.read_text(encoding="utf-8") == "keep"
