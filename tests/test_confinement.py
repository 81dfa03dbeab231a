"""Confinement, proven by watching: every file irata opens (and every folder it lists) while it
checks, prints, previews or exports a hostile game folder is recorded by an audit hook
(``sys.addaudithook``, no strace), and must lie inside the game folder, the output folder, the
installed packages or the interpreter's own files. No program may be started either (svglib,
left alone, asks ``fc-match`` for the font an SVG names).

Each hostile folder tries one way out: a link (to a file, a folder, itself), a path that climbs
out, SVG art that names an outside font, image, stylesheet or entity, a spreadsheet or font
that is a link. Beside them a benign folder that uses every kind of file (a font, raster and
SVG art, a spreadsheet, errata) shows the watch sees real reads.
"""

from __future__ import annotations

import contextlib
import os
import site
import struct
import sys
import sysconfig
import tempfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import components

sys.path.insert(0, str(Path(__file__).parent / "designer"))
from conftest import make_font  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
import clirun  # noqa: E402

_SEEN: list[tuple[str, str]] | None = None  # (event, path) while a command is watched
_WATCHED = ("open", "os.listdir", "os.scandir", "shutil.copyfile", "shutil.copytree")
_PROGRAMS = ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn",
             "os.fork", "pty.spawn")


def _hook(event: str, args: tuple[Any, ...]) -> None:
    seen = _SEEN
    if seen is None:
        return
    if event in _PROGRAMS:
        seen.append((event, repr(args)[:200]))
    elif event in _WATCHED and args:
        target = args[0]
        if isinstance(target, (str, bytes, os.PathLike)):
            seen.append((event, os.fsdecode(target)))


sys.addaudithook(_hook)  # a hook stays for the process: it records only inside watch()

# reportlab lists the system's font folders once, as it is imported, to build its search path:
# imported before anything is watched, since no game folder has a say in it
import reportlab.rl_config  # noqa: E402,F401


@contextlib.contextmanager
def watch() -> Iterator[list[tuple[str, str]]]:
    global _SEEN
    seen: list[tuple[str, str]] = []
    _SEEN = seen
    try:
        yield seen
    finally:
        _SEEN = None


def allowed_roots(*folders: Path) -> list[str]:
    """The game and output folders, the installed packages and the interpreter's files (and
    irata's own bundled games and code, which an editable install keeps in its checkout, and
    its own lettering font cut once into the user's cache)."""
    from generator.fonts import house_font_cache

    roots = [*folders, Path(sys.prefix), Path(sys.base_prefix), Path(sys.exec_prefix),
             house_font_cache(),
             Path(components.__file__).parent.parent,
             *(Path(p) for p in sysconfig.get_paths().values()),
             *(Path(p) for p in site.getsitepackages())]
    return sorted({os.path.realpath(r) for r in roots})


# files of the libraries' and interpreter's own that they read whatever the game: reportlab's
# user settings and the system's MIME table (mimetypes), none of them named by a game folder
LIBRARY_FILES = (str(Path.home() / ".reportlab_settings"), str(Path.home() / ".reportlab_mods"),
                 "/etc/mime.types", "/etc/localtime", "/dev/null", "/dev/urandom")


def _scratch(real: str) -> bool:
    """A file in a scratch folder irata made for itself (``tempfile.mkdtemp(prefix="irata-")``,
    private to the user): the PDF a preview or an export rasterises. Its name comes from irata,
    never from a game folder."""
    tmp = os.path.realpath(tempfile.gettempdir())
    rel = os.path.relpath(real, tmp)
    return not rel.startswith("..") and rel.split(os.sep)[0].startswith("irata-")


def outside(seen: list[tuple[str, str]], roots: list[str]) -> list[str]:
    bad = []
    for event, path in seen:
        if event in _PROGRAMS:
            bad.append(f"{event} {path}")
            continue
        real = os.path.realpath(os.path.join(os.getcwd(), path))
        if real in LIBRARY_FILES or path in LIBRARY_FILES:
            continue
        if not any(real == r or real.startswith(r + os.sep) for r in roots) \
                and not _scratch(real):
            bad.append(f"{event} {path}")
    return bad


def run(args: list[str]) -> tuple[int, str]:
    """irata in-process (tests/clirun.py), which may succeed or refuse, never crash."""
    code, err = clirun.run(args)
    assert code in (0, 2), (args, code, err)
    assert "Traceback" not in err, err
    return code, err


def png(w: int, h: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    raw = b"".join(b"\0" + b"\x80" * w for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


GAME = 'game: t\nname: T\nedition: "1.0"\n'
CARD = """\
components:
  - id: c
    kind: card
    size: poker
    front:
      - {{type: rect, w: 10, h: 10}}
{extra}"""
SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ' \
      'width="10" height="10" viewBox="0 0 10 10">{}</svg>'
ROWS = ("defaults: {kind: card, size: poker, front: [{type: text, text: '${title}', w: 40, "
        "h: 10}]}\ncomponents_from: %s\n")


def _art(path: str) -> str:
    return f"      - {{type: image, path: {path}, w: 30, h: 30}}\n"


def hostile_folders(secret: Path) -> dict[str, Callable[[Path], None]]:
    """name -> a function filling a fresh game folder so that it reaches for ``secret``."""
    s = str(secret)

    def files(game: str = GAME, extra: str = "", **more: str | bytes) -> Callable[[Path], None]:
        def fill(folder: Path) -> None:
            (folder / "game.yaml").write_text(game, encoding="utf-8")
            (folder / "cards.yaml").write_text(CARD.format(extra=extra), encoding="utf-8")
            for name, content in more.items():
                p = folder / name.replace("__", "/")
                p.parent.mkdir(parents=True, exist_ok=True)
                if isinstance(content, bytes):
                    p.write_bytes(content)
                else:
                    p.write_text(content, encoding="utf-8")
        return fill

    def linked(name: str, target: str, base: Callable[[Path], None]) -> Callable[[Path], None]:
        def fill(folder: Path) -> None:
            base(folder)
            p = folder / name
            p.unlink(missing_ok=True)
            p.parent.mkdir(parents=True, exist_ok=True)
            p.symlink_to(target)
        return fill

    fonted = GAME + "fonts:\n  body: f.ttf\n"
    text = "      - {type: text, text: ABC, w: 40, h: 10, font: body}\n"
    return {
        "game.yaml links out": linked("game.yaml", f"{s}/game.yaml", files()),
        "a component file links out": linked("more.yaml", f"{s}/cards.yaml", files()),
        "a folder links out": linked("sub", s, files()),
        "errata.yaml links out": linked("errata.yaml", f"{s}/errata.yaml", files()),
        "an image links out": linked("a.png", f"{s}/a.png", files(extra=_art("a.png"))),
        "an image climbs out": files(extra=_art("../../secret/a.png")),
        "an image is absolute": files(extra=_art(f"{s}/a.png")),
        "SVG art links out": linked("a.svg", f"{s}/a.svg", files(extra=_art("a.svg"))),
        "SVG text names a font file outside": files(extra=_art("a.svg"), a__svg=SVG.format(
            f'<text x="1" y="5" font-family="{s}/f">ABC</text>'
            f'<text x="1" y="8" style="font-family:\'{s}/f\'; font-weight: bold">AB</text>')),
        "SVG text names an unknown family": files(extra=_art("a.svg"), a__svg=SVG.format(
            '<text x="1" y="5" font-family="Zorglub Sans">ABC</text>')),
        "SVG art links an image outside": files(extra=_art("a.svg"), a__svg=SVG.format(
            f'<image width="5" height="5" xlink:href="file://{s}/a.png"/>')),
        "SVG art uses a file outside": files(extra=_art("a.svg"), a__svg=SVG.format(
            f'<use href="{s}/a.svg#x"/>')),
        "SVG art imports a stylesheet": files(extra=_art("a.svg"), a__svg=SVG.format(
            f'<style>@import url("{s}/a.css");</style><rect width="2" height="2"/>')),
        "SVG art declares an external entity": files(extra=_art("a.svg"), a__svg=(
            f'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file://{s}/cards.yaml">]>'
            + SVG.format("<text>&x;</text>"))),
        "a font links out": linked("f.ttf", f"{s}/f.ttf", files(game=fonted, extra=text)),
        "a font climbs out": files(game=GAME + "fonts:\n  body: ../../secret/f.ttf\n",
                                   extra=text),
        "a font loops": linked("f.ttf", "f.ttf", files(game=fonted, extra=text)),
        "a spreadsheet links out": linked("t.csv", f"{s}/t.csv",
                                          files(more__yaml=ROWS % "t.csv")),
        "a spreadsheet climbs out": files(more__yaml=ROWS % "../../secret/t.csv"),
        "a spreadsheet is absolute": files(more__yaml=ROWS % f"{s}/t.csv"),
    }


def make_secret(root: Path) -> Path:
    secret = root / "secret"
    secret.mkdir()
    (secret / "game.yaml").write_text("game: s\nname: Secret\n", encoding="utf-8")
    (secret / "cards.yaml").write_text(CARD.format(extra=""), encoding="utf-8")
    (secret / "errata.yaml").write_text("errata: []\n", encoding="utf-8")
    (secret / "a.png").write_bytes(png(40, 40))
    (secret / "a.svg").write_text(SVG.format('<rect id="x" width="4" height="4"/>'),
                                  encoding="utf-8")
    (secret / "a.css").write_text("rect { fill: red }", encoding="utf-8")
    (secret / "t.csv").write_text("id,title\nleak,Leak\n", encoding="utf-8")
    make_font(secret / "f.ttf", "ABC", family="Secret Face")
    return secret


def benign(folder: Path) -> None:
    """A folder that reads one of everything: a font, PNG and SVG art, a spreadsheet, errata."""
    make_font(folder / "f.ttf", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
              cff=False)
    (folder / "game.yaml").write_text(GAME + "fonts:\n  body: f.ttf\n", encoding="utf-8")
    (folder / "a.png").write_bytes(png(600, 600))
    (folder / "a.svg").write_text(SVG.format(
        '<rect width="4" height="4" fill="#c00"/><text x="1" y="8" font-family="serif">Hi'
        '</text>'), encoding="utf-8")
    (folder / "cards.yaml").write_text(CARD.format(extra=(
        "      - {type: text, text: Abc, w: 40, h: 10, font: body}\n" + _art("a.png")
        + _art("a.svg"))), encoding="utf-8")
    (folder / "t.csv").write_text("id,title\nrow,Row\n", encoding="utf-8")
    (folder / "more.yaml").write_text(ROWS % "t.csv", encoding="utf-8")
    (folder / "errata.yaml").write_text(
        "errata:\n  - id: E1\n    version: '1.1'\n    summary: s\n    changes:\n"
        "      - component: c\n        set: {count: 2}\n", encoding="utf-8")


def commands(folder: Path, out: Path) -> list[list[str]]:
    where = ["--components", str(folder)]
    return [["check", *where],
            ["print", *where, "--out", str(out), "--format", "pdf,svg,png", "--dpi", "30"],
            ["print", *where, "t", "--since", "1.0", "--out", str(out)],
            ["preview", "t", "c", *where, "--dpi", "30", "--out", str(out / "c.png")],
            ["export", "tts", "t", *where, "--out", str(out), "--dpi", "30"],
            ["export", "pod", "t", *where, "--vendor", "dtc", "--out", str(out)],
            ["errata", "list", "t", *where]]


def test_the_watch_sees_a_read_outside(tmp_path: Path) -> None:
    """The audit hook is not a check that cannot fail: an open outside is recorded."""
    (tmp_path / "x").write_text("x")
    with watch() as seen:
        (tmp_path / "x").read_text()
    assert outside(seen, allowed_roots(tmp_path / "elsewhere")) == [f"open {tmp_path / 'x'}"]


def test_a_benign_folder_reads_its_own_files_and_nothing_else() -> None:
    with tempfile.TemporaryDirectory() as base:
        root = Path(base)
        folder = root / "share" / "G"
        folder.mkdir(parents=True)
        benign(folder)
        out = root / "out"
        roots = allowed_roots(folder, out)
        for args in commands(folder, out):
            with watch() as seen:
                code, err = run(args)
            assert code == 0, (args, err)
            assert outside(seen, roots) == [], args
            if args[0] == "check":  # the first command: the watch sees the game being read
                read = {Path(p).name for e, p in seen if e == "open"}
                assert {"game.yaml", "cards.yaml", "f.ttf", "t.csv", "a.png", "a.svg",
                        "errata.yaml"} <= read, read
        assert list(out.rglob("*.png")) and list(out.rglob("*.pdf"))


@pytest.mark.parametrize("name", list(hostile_folders(Path("/x"))))
def test_a_hostile_folder_opens_nothing_outside(name: str) -> None:
    with tempfile.TemporaryDirectory() as base:
        root = Path(base)
        secret = make_secret(root)
        folder = root / "share" / "G"
        folder.mkdir(parents=True)
        hostile_folders(secret)[name](folder)
        out = root / "out"
        roots = allowed_roots(folder, out)
        for args in commands(folder, out):
            with watch() as seen:
                run(args)
            assert outside(seen, roots) == [], (name, args)
        for pdf in out.rglob("*.pdf"):
            data = pdf.read_bytes()
            assert b"Secret" not in data and b"leak" not in data.lower(), pdf
