"""A game folder is untrusted: no definition may write, read or delete outside the game and the
output folders, crash ``check`` or ``print``, hang, or exhaust memory. Each input class found by
fuzzing the command line has its case here; every one must end in one located error line and
exit code 2, with nothing written."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from irata.cli import main

GAME = "game: t\nname: T\n"
CARDS = """\
layouts:
  box: [{{type: rect, w: 1, h: 1}}]
components:
  - id: c
    kind: card
    size: {size}
    count: {count}
    front:
      - {element}
"""
ELEMENT_LINE = 9  # the line of ``- {element}`` above: where an element's error must point


def make_game(root: Path, element: str = "{type: rect, w: 10, h: 10}", size: str = "poker",
              count: str = "1", game: str = GAME, extra: dict[str, str] | None = None) -> Path:
    folder = root / "G"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS.format(element=element, size=size, count=count),
                                       encoding="utf-8")
    for name, text in (extra or {}).items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with pytest.raises(SystemExit) as info:
        main(args)
    code = info.value.code
    return int(code) if isinstance(code, int) else 1, capsys.readouterr().err


def tree(root: Path, skip: str = "out") -> dict[str, bytes | str]:
    """Every file and link under ``root`` but ``skip``: path -> contents (or link target)."""
    out: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel = Path(dirpath).relative_to(root)
        if rel.parts[:1] == (skip,):
            continue
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            if p.is_symlink():
                out[str(p.relative_to(root))] = "-> " + os.readlink(p)
            elif p.is_file():
                out[str(p.relative_to(root))] = p.read_bytes()
    return out


def png(w: int, h: int) -> bytes:
    """A valid PNG of w x h black grey-scale pixels. Its rows are compressed 100 at a time
    and the identical deflate blocks repeated, so a 20000 x 20000 "bomb" (400 MB of pixels)
    is made in a blink and weighs under 400 kB."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    step = 100 if h % 100 == 0 else 1
    rows = b"\0" * ((w + 1) * step)  # each row: filter byte 0, then w pixels
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = co.compress(rows) + co.flush(zlib.Z_FULL_FLUSH)
    end = zlib.compressobj(9, zlib.DEFLATED, -15).flush()
    adler = 1
    for _ in range(h // step):
        adler = zlib.adler32(rows, adler)
    idat = b"\x78\xda" + block * (h // step) + end + struct.pack(">I", adler)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


# --- confinement ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["../escaped", "/tmp/irata-escape", "a/b", "..", ".", "x\ny",
                                  "x" * 65, "[1]"])
def test_a_game_name_that_is_a_path_is_refused_before_anything_is_written(
        tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    make_game(tmp_path, game=f"game: {json.dumps(name)}\nname: T\n")
    (tmp_path / "escaped" / "svg").mkdir(parents=True)
    (tmp_path / "escaped" / "svg" / "MY-NOTES.txt").write_text("mine")
    before = tree(tmp_path)
    code, err = run(["print", "--components", str(tmp_path / "G"), "--out",
                     str(tmp_path / "out")], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "G/game.yaml:1:1: the game's name" in err
    assert tree(tmp_path) == before and not (tmp_path / "out").exists()
    assert not Path("/tmp/irata-escape").exists()


def test_a_definition_linked_to_a_file_elsewhere_is_refused_without_showing_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:the secret line\n")
    folder = make_game(tmp_path)
    (folder / "pw.yaml").symlink_to(secret)
    code, err = run(["check", "--components", str(folder)], capsys)
    assert code == 2 and "pw.yaml: leaves the game folder" in err
    assert "secret" not in err and "root:x" not in err


@pytest.mark.parametrize(("target", "message"), [
    ("nowhere.yaml", "a link that points to no file"),
    ("loop.yaml", "a link that cannot be followed"),
])
def test_a_broken_or_looping_link_named_yaml_is_one_error(
        tmp_path: Path, target: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    folder = make_game(tmp_path)
    (folder / "loop.yaml").symlink_to(folder / target)
    for cmd in ("check", "print"):
        code, err = run([cmd, "--components", str(folder), "--out", str(tmp_path / "out")]
                        if cmd == "print" else [cmd, "--components", str(folder)], capsys)
        assert code == 2 and message in err and err.count("\n") == 1


@pytest.mark.parametrize("kind", ["a pipe", "a link to /dev/zero"])
def test_a_pipe_or_a_device_named_yaml_is_never_read(tmp_path: Path, kind: str) -> None:
    folder = make_game(tmp_path)
    if kind == "a pipe":
        os.mkfifo(folder / "pipe.yaml")
    else:
        (folder / "zero.yaml").symlink_to("/dev/zero")
    proc = subprocess.run([sys.executable, LIMITED, str(folder), str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=10)
    assert "Traceback" not in proc.stderr
    codes = proc.stdout.splitlines()[-1]
    assert codes == ("[0, 0]" if kind == "a pipe" else "[2, 2]"), proc.stderr
    if kind != "a pipe":
        assert "zero.yaml: leaves the game folder" in proc.stderr


def test_an_image_linked_outside_the_game_folder_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "outside.png").write_bytes(png(4, 4))
    folder = make_game(tmp_path, element="{type: image, path: art.png, w: 10, h: 10}")
    (folder / "art.png").symlink_to(tmp_path / "outside.png")
    code, err = run(["check", "--components", str(folder)], capsys)
    assert code == 2 and "leaves the game folder" in err
    assert f"cards.yaml:{ELEMENT_LINE}:9:" in err


@pytest.mark.parametrize("kind", ["svg", "png"])
def test_a_print_keeps_a_persons_own_files_and_removes_only_its_own_stale_sheets(
        tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    folder = make_game(tmp_path, count="40")
    out = tmp_path / "out"
    args = ["print", "--components", str(folder), "--out", str(out), "--format", f"pdf,{kind}"]
    assert run(args, capsys)[0] == 0
    sheets = out / "t" / kind
    many = sorted(p.name for p in sheets.iterdir())
    (sheets / "MY-NOTES.txt").write_text("mine")
    (out / "t" / "cut-list.txt").write_text("mine too")
    make_game(tmp_path, count="1")
    assert run(args, capsys)[0] == 0
    now = sorted(p.name for p in sheets.iterdir())
    assert (sheets / "MY-NOTES.txt").read_text() == "mine"
    assert (out / "t" / "cut-list.txt").read_text() == "mine too"
    manifest = json.loads((out / "t" / "manifest.json").read_text())
    mine = sorted(Path(f).name for f in manifest["written"] if f.startswith(f"{kind}/"))
    assert len(mine) < len(many) and now == sorted([*mine, "MY-NOTES.txt"])


def test_an_output_game_folder_linked_elsewhere_is_not_written_through(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = make_game(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (out / "t").symlink_to(tmp_path / "elsewhere")
    code, err = run(["print", "--components", str(folder), "--out", str(out)], capsys)
    assert code == 2 and "leads outside the output folder" in err
    assert list((tmp_path / "elsewhere").iterdir()) == []


# --- values: each refused by check (located at the element) and by print ------------------

ELEMENT_CASES = {
    "text size is a word": ("{type: text, text: hi, w: 10, h: 10, size: big}", "size must be"),
    "dash is a word": ("{type: rect, w: 10, h: 10, stroke: ink, dash: abc}", "dash must be"),
    "dash all zero": ("{type: rect, w: 10, h: 10, stroke: ink, dash: [0, 0]}", "not all be 0"),
    "a bad percentage": ("{type: rect, x: '1.2.3%', w: 10, h: 10}", "expected a length"),
    "with is a list": ("{type: use, layout: box, with: [1]}", "with: sets fields"),
    "1e308": ("{type: rect, x: 1e308, w: 10, h: 10}", "out of range"),
    "1.0e308": ("{type: rect, x: 1.0e308, w: 10, h: 10}", "out of range"),
    "negative width": ("{type: rect, w: -5, h: 10}", "out of range"),
    "fill #xyz": ("{type: rect, w: 10, h: 10, fill: '#xyz'}", "unknown colour '#xyz'"),
    "an 8000-character QR": ("{type: qr, payload: '" + "q" * 8000 + "', size: 20}",
                             "QR payload of 8000 bytes"),
    "text size 1000000": ("{type: text, text: hi, w: 10, h: 10, size: 1000000}",
                          "size must be between"),
    "a million grid columns": ("{type: grid, cols: 1000000, rows: 1, cell_w: 1, cell_h: 1}",
                               "cols must be between"),
    "a 5000-character path": ("{type: path, d: 'M 0 0 L 1e999 0'}", "too large"),
    "a text turned a billion degrees": ("{type: text, text: hi, w: 10, h: 10, rotate: 1e9}",
                                        "rotate must be an angle"),
}


@pytest.mark.parametrize("case", list(ELEMENT_CASES))
def test_a_bad_element_value_is_refused_at_the_element_by_check_and_print(
        tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]) -> None:
    element, message = ELEMENT_CASES[case]
    folder = make_game(tmp_path, element=element)
    code, err = run(["check", "--components", str(folder)], capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith("error: ") and message in err
    assert f"cards.yaml:{ELEMENT_LINE}:" in err  # the element, or its key
    code, err = run(["print", "--components", str(folder), "--out", str(tmp_path / "out")],
                    capsys)
    assert code == 2 and message in err
    assert not (tmp_path / "out" / "t").exists()


YAML_CASES = {
    "a type that is a list": ("element", "{type: [rect], w: 1, h: 1}", "unknown element type",
                              f"cards.yaml:{ELEMENT_LINE}:"),
    ".inf": ("element", "{type: rect, x: .inf, w: 10, h: 10}", "not a finite number",
             f"cards.yaml:{ELEMENT_LINE}:"),
    ".nan width": ("element", "{type: rect, w: .nan, h: 10}", "not a finite number",
                   f"cards.yaml:{ELEMENT_LINE}:"),
    "2026-13-45": ("element", "{type: rect, x: 2026-13-45, w: 10, h: 10}", "is not a date",
                   f"cards.yaml:{ELEMENT_LINE}:"),
    "5000 digits": ("element", "{type: rect, x: " + "9" * 5000 + ", w: 10, h: 10}",
                    "5000 digits is too large", f"cards.yaml:{ELEMENT_LINE}:"),
    "500-deep lists": ("element", "{type: rect, w: 10, h: 10, note: " + "[" * 500 + "]" * 500
                       + "}", "nested more than", f"cards.yaml:{ELEMENT_LINE}:"),
    "an alias that holds itself": ("element", "{type: rect, w: 10, h: 10, note: &a [*a]}",
                                   "contains itself", f"cards.yaml:{ELEMENT_LINE}:"),
    "count 100000": ("count", "100000", "count must be a whole number from 0 to 2000",
                     "cards.yaml:7:"),
    "a 10000 mm board": ("size", "[10000, 10000]", "at most 1000 mm", "cards.yaml:6:"),
    # the definitions fuzz test's find: a side this small had the packer count 10**68 columns
    "a 3.9e-66 mm board": ("size", "[3.9e-66, 20]", "at least 1 mm", "cards.yaml:6:"),
    "a 0.5 mm token": ("size", "0.5", "at least 1 mm", "cards.yaml:6:"),
    "a size that is a word": ("size", "big", "unknown size 'big'", "cards.yaml:6:"),
    # the definitions fuzz test's find: an icon that was a number crashed the icons' check
    "an icon that is a number": ("game", GAME + "icons:\n  dot: -70303\n",
                                 "icon 'dot' must be a layout name or a list of elements",
                                 "game.yaml:4:3:"),
}


@pytest.mark.parametrize("case", list(YAML_CASES))
def test_a_bad_definition_is_refused_at_its_place(
        tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]) -> None:
    where, text, message, location = YAML_CASES[case]
    folder = make_game(tmp_path, **{where: text})
    for args in (["check", "--components", str(folder)],
                 ["print", "--components", str(folder), "--out", str(tmp_path / "out")]):
        code, err = run(args, capsys)
        assert code == 2 and err.count("\n") == 1, err
        assert message in err and location in err, err
    assert not (tmp_path / "out").exists()


IMAGES: dict[str, tuple[bytes, str]] = {
    "empty": (b"", "is an empty file"),
    "corrupt": (png(8, 8)[:40] + b"\0" * 30, "is not a readable PNG or JPEG image"),
    "bad pixel data": (png(8, 8)[:-20] + b"\0" * 20,
                       "is a damaged image"),
    "an SVG declaring entities": (
        b"<?xml version='1.0'?><!DOCTYPE s [<!ENTITY a 'aaaa'>]>"
        b"<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'>&a;</svg>",
        "declares XML entities"),
    "text named .png": (b"hello, not an image", "is not a PNG, JPEG or SVG image"),
}


@pytest.mark.parametrize("case", [*IMAGES, "12000 x 11000 pixels"])
def test_an_image_that_is_not_a_readable_png_is_refused_by_check(
        tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]) -> None:
    data, message = IMAGES[case] if case in IMAGES else (png(12000, 11000),
                                                         "has 12000 x 11000 pixels")
    folder = make_game(tmp_path, element="{type: image, path: art.png, w: 10, h: 10}")
    (folder / "art.png").write_bytes(data)
    code, err = run(["check", "--components", str(folder)], capsys)
    assert code == 2 and message in err and f"cards.yaml:{ELEMENT_LINE}:9:" in err, err


@pytest.mark.parametrize("link", [
    '<image width="4" height="4" xlink:href="file:///etc/passwd"/>',
    '<image width="4" height="4" xlink:href="../outside.png"/>',
    '<image width="4" height="4" href="inside.png"/>',
    '<rect width="4" height="4" style="fill: url(../outside.svg#g)"/>',
    '<style>@import "https://example.com/x.css";</style>',
])
def test_svg_art_that_links_to_another_file_is_refused_and_nothing_is_read(
        tmp_path: Path, link: str, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "outside.png").write_bytes(png(4, 4))
    folder = make_game(tmp_path, element="{type: image, path: art.svg, w: 10, h: 10}")
    (folder / "inside.png").write_bytes(png(4, 4))
    (folder / "art.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="4" height="4" viewBox="0 0 4 4">{link}</svg>')
    for args in (["check", "--components", str(folder)],
                 ["print", "--components", str(folder), "--out", str(tmp_path / "out")]):
        code, err = run(args, capsys)
        assert code == 2 and "is an SVG that links to another file" in err, err
    assert not (tmp_path / "out").exists()


def test_svg_art_may_refer_to_itself(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = make_game(tmp_path, element="{type: image, path: art.svg, w: 10, h: 10}")
    (folder / "art.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="4" height="4" viewBox="0 0 4 4"><defs><linearGradient id="g"><stop offset="0" '
        'stop-color="#f00"/></linearGradient><rect id="r" width="4" height="4"/></defs>'
        '<use xlink:href="#r" style="fill: url(#g)"/></svg>')
    code, err = run(["print", "--components", str(folder), "--out", str(tmp_path / "out")],
                    capsys)
    assert code == 0, err


def test_a_readable_png_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = make_game(tmp_path, element="{type: image, path: art.png, w: 10, h: 10}")
    (folder / "art.png").write_bytes(png(16, 16))
    code, err = run(["print", "--components", str(folder), "--out", str(tmp_path / "out")],
                    capsys)
    assert code == 0, err
    manifest = json.loads((tmp_path / "out" / "t" / "manifest.json").read_text())
    assert (tmp_path / "out" / "t" / manifest["pdf"]).stat().st_size > 0


def test_an_icon_that_uses_itself_is_refused_by_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = GAME + "icons:\n  me:\n    - {type: icon, name: me}\n"
    folder = make_game(tmp_path, game=game, element="{type: icon, name: me}")
    code, err = run(["check", "--components", str(folder)], capsys)
    assert code == 2 and "icon 'me' uses itself" in err and "game.yaml:5:5:" in err, err


def test_back_offset_nan_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = make_game(tmp_path)
    code, err = run(["print", "--components", str(folder), "--out", str(tmp_path / "out"),
                     "--back-offset", "nan,nan"], capsys)
    assert code == 2 and "--back-offset nan,nan" in err
    assert not (tmp_path / "out").exists()


# --- hangs and memory: run in a child with 10 s and 1 GB, like a person's machine ------------

LIMITED = str(Path(__file__).parent / "limited_child.py")  # check, then print, in 1 GB

NESTED = "layouts:\n  l0: [{type: rect, w: 1, h: 1}]\n" + "".join(
    f"  l{i}: [" + ", ".join([f"{{type: use, layout: l{i - 1}}}"] * 10) + "]\n"
    for i in range(1, 8))
LAUGHS = "layouts:\n  a: &a ['lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol']\n" + \
    "".join(f"  {c}: &{c} [" + ", ".join([f"*{p}"] * 9) + "]\n"
            for p, c in zip("abcdefgh", "bcdefghi", strict=True))

HEAVY = {
    "aliases nested in a text": (
        {"element": "{type: text, text: $big, w: 10, h: 10}"},
        {"laughs.yaml": LAUGHS.replace("layouts:", "data:")}, "once its aliases"),
    "layouts nested 7 deep, 10 each": (
        {"element": "{type: use, layout: l7}"}, {"deep.yaml": NESTED}, "elements on one face"),
    "a repeat of repeats": (
        {"element": "{type: repeat, over: 2000, layout: r1}"},
        {"rep.yaml": "layouts:\n  r0: [{type: rect, w: 1, h: 1}]\n"
                     "  r1: [{type: repeat, over: 2000, layout: r0}]\n"}, "copies on one face"),
    "a decompression bomb": (
        {"element": "{type: image, path: bomb.png, w: 10, h: 10}"}, {},
        "has 20000 x 20000 pixels"),
    "many copies of a busy face": (
        {"element": "{type: grid, cols: 50, rows: 50, cell_w: 1, cell_h: 1}", "count": "100"},
        {}, "would draw more than 100000 shapes"),
    "a thousand tarot cards with backs": (
        {"element": "{type: rect, w: 1, h: 1}", "count": "1500", "size": "tarot"}, {},
        "would draw more than"),
}


def test_a_metre_square_board_that_check_passes_prints_within_10_s_and_1_gb(
        tmp_path: Path) -> None:
    folder = make_game(tmp_path, size="[1000, 1000]", element="{type: grid, cols: 20, rows: "
                       "20, cell_w: 50, cell_h: 50, labels: [a, b, c]}")
    proc = subprocess.run([sys.executable, LIMITED, str(folder), str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=10)
    assert proc.stdout.splitlines()[-1] == "[0, 0]", proc.stderr
    manifest = json.loads((tmp_path / "out" / "t" / "manifest.json").read_text())
    assert len(manifest["sheets"]) > 20  # the board, split over pages


@pytest.mark.parametrize("case", list(HEAVY))
def test_heavy_inputs_are_refused_within_10_s_and_1_gb(tmp_path: Path, case: str) -> None:
    kwargs, extra, message = HEAVY[case]
    folder = make_game(tmp_path, extra=extra, **kwargs)
    if "bomb" in case:
        (folder / "bomb.png").write_bytes(png(20000, 20000))
        assert (folder / "bomb.png").stat().st_size < 2_000_000
    proc = subprocess.run([sys.executable, LIMITED, str(folder), str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=10)
    assert "Traceback" not in proc.stderr
    assert proc.stdout.splitlines()[-1] == "[2, 2]", proc.stderr
    assert message in proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_large_deck_of_ones_own_passes_with_max_pieces_and_only_then(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = make_game(tmp_path, element="{type: rect, w: 1, h: 1}", count="1500", size="tarot")
    code, err = run(["check", "--components", str(folder)], capsys)
    assert code == 2 and "would draw more than" in err and "--max-pieces" in err
    code, err = run(["check", "--max-pieces", "5000", "--components", str(folder)], capsys)
    assert code == 0, err
    # the allowance is that command's alone: the next one has the defaults again
    code, err = run(["check", "--components", str(folder)], capsys)
    assert code == 2 and "would draw more than" in err
    code, err = run(["check", "--max-pieces", "999999", "--components", str(folder)], capsys)
    assert code == 2 and "--max-pieces" in err and err.count("\n") == 1


def test_an_edition_no_font_can_set_is_refused_by_check_as_by_print(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The footers and the checklist print the edition: a character neither Helvetica nor
    the game's fonts have (the definitions fuzz test's find, U+2291A) is refused by check,
    not left for print to find."""
    folder = make_game(tmp_path, game=GAME + "edition: '1.\U0002291a'\n")
    for args in (["check", "--components", str(folder)],
                 ["print", "--components", str(folder), "--out", str(tmp_path / "out")]):
        code, err = run(args, capsys)
        assert code == 2 and err.count("\n") == 1, err
        assert "U+2291A" in err and "game.yaml" in err, err
    assert not (tmp_path / "out").exists()
