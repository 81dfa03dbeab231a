"""Fuzzing the command line with hostile input, bounded so the suite stays fast (the module
runs in well under 30 s): mutated definitions through ``check`` and ``print``, random
companion arguments, score files and ``set`` values.

What must hold for every input: no traceback (irata's own one-line error or success), exit
code 0 or 2, nothing created or deleted outside the output folder, whatever ``check`` passes
``print`` prints, and a saved game left unchanged by every refused command (and still readable
after every accepted one).

The second pass adds the surfaces that came after the first: mutated fonts, SVG art and
spreadsheets (CSV cells, XLSX parts), errata versions (in errata.yaml and as --since/--from),
preview and export options, and the M.U.L.E. step commands in random order. Every command
here must also end within 10 s (``run`` stops it with an alarm otherwise).

Each test draws 25 examples; ``IRATA_FUZZ_EXAMPLES=400`` runs a longer hunt by hand (before
each release; its totals go into the README's reliability section).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import yaml
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from components.errors import MAX_REPORTED
from irata.cli import main

DECK = Path(__file__).parent / "engine" / "fixtures" / "deck"
# no shrinking: a failure is reported as found, so a failing run stays as short as a passing one
FAST = settings(max_examples=int(os.environ.get("IRATA_FUZZ_EXAMPLES", "25")), deadline=None,
                suppress_health_check=list(HealthCheck),
                phases=[Phase.explicit, Phase.reuse, Phase.generate])

HOSTILE_TEXT = ["", "nan", "NaN", ".nan", "inf", "-inf", "1e999", "1e308", "-1e308", "../x",
                "/etc/passwd", "..", "#xyz", "#12345", "²", "٣", "9" * 5000, "9" * 400, "-1",
                "0", "100%", "1.2.3%", "50%-", "$nope", "${data.x}", "[1]", "{}", "x\ny",
                "\0", "*" * 300, "big", "2026-13-45", "a/../../b", "card-front"]
hostile = st.one_of(
    st.sampled_from(HOSTILE_TEXT),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(),
    st.text(max_size=30),
    st.booleans(),
    st.none(),
    st.lists(st.one_of(st.integers(-5, 5), st.sampled_from(HOSTILE_TEXT[:12])), max_size=4),
    st.dictionaries(st.sampled_from(["x", "type", "w", "id"]), st.integers(-5, 5), max_size=2),
)


class Hang(Exception):
    """A command ran past the time any hostile input may take."""


def _alarm(signum: int, frame: Any) -> None:
    raise Hang()


def run(args: list[str], limit: float = 10.0) -> tuple[int, str]:
    """Run irata in-process: its exit code and stderr. A traceback fails the test here, and
    so does a command still running after ``limit`` seconds."""
    err = io.StringIO()
    code: Any = 0
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            main(args)
        except SystemExit as exc:
            code = exc.code
        except Hang:
            code = "hang"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    assert code != "hang", f"{args} ran past {limit} s"
    assert code in (0, 2), (args, code, err.getvalue())
    if code == 2:
        # one line per mistake found (several mutations: several lines), each an error line,
        # at most MAX_REPORTED and the line saying how many more
        lines = [ln for ln in err.getvalue().splitlines() if ln.startswith("error: ")]
        assert 1 <= len(lines) <= MAX_REPORTED + 1, err.getvalue()
        assert all(ln.startswith("error: ") for ln in err.getvalue().splitlines()
                   if not ln.startswith("  ")), err.getvalue()
    return int(code), err.getvalue()


def snapshot(root: Path, skip: Path) -> dict[str, int | str]:
    """Every path under ``root`` but ``skip``: a file's size and time, a link's target, a
    folder's presence."""
    out: dict[str, int | str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        if here == skip or skip in here.parents:
            dirnames[:] = []
            continue
        for name in dirnames + filenames:
            p = here / name
            if p == skip:
                continue
            if p.is_symlink():
                out[str(p)] = "-> " + os.readlink(p)
            elif p.is_dir():
                out[str(p)] = "folder"
            else:
                out[str(p)] = f"{p.stat().st_size} {p.stat().st_mtime_ns}"
    return out


def leaves(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a YAML document a value sits (mappings' values and lists' items)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield (*path, k)
            yield from leaves(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield (*path, i)
            yield from leaves(v, (*path, i))


def put(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    doc = copy.deepcopy(doc)
    node = doc
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return doc


@FAST
@given(data=st.data())
def test_mutated_definitions_never_crash_escape_or_pass_check_and_fail_print(
        data: st.DataObject) -> None:
    files = sorted(p.name for p in DECK.glob("*.yaml"))
    name = data.draw(st.sampled_from(files), label="file")
    doc = yaml.safe_load((DECK / name).read_text(encoding="utf-8"))
    mutations = data.draw(st.integers(1, 3), label="mutations")
    for _ in range(mutations):
        places = list(leaves(doc))
        if not places:
            break
        where = data.draw(st.sampled_from(places), label="where")
        doc = put(doc, where, data.draw(hostile, label="value"))
    with tempfile.TemporaryDirectory() as base:
        root = Path(base) / "a" / "b"
        shutil.copytree(DECK, root / "G")
        try:
            text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
        except (yaml.YAMLError, ValueError):
            return  # not a document YAML can write
        (root / "G" / name).write_text(text, encoding="utf-8")
        out = root / "out"
        before = snapshot(Path(base), out)
        checked, err = run(["check", "--components", str(root / "G")])
        printed, perr = run(["print", "--components", str(root / "G"), "--out", str(out)])
        assert snapshot(Path(base), out) == before
        if checked == 0:
            assert printed == 0, f"check passed but print failed: {perr}"
        else:
            assert printed == 2 and not list(out.glob("*/manifest.json")), perr


# --- the companion ------------------------------------------------------------------------

amount = st.one_of(st.sampled_from(HOSTILE_TEXT), st.integers(-(10**12), 10**12).map(str),
                   st.text(alphabet="0123456789+-$ ²٣.e", max_size=12))
name = st.one_of(st.sampled_from(["Ann", "Bob", "Cid", "", "Zed", "x" * 300, "Ann\n"]),
                 st.text(max_size=8))

COMMANDS = st.one_of(
    st.tuples(st.just(["play", "mule-goes-crazy", "auction"]),
              st.sampled_from(["sunny-flats", "river-bottom", "nowhere", ""]),
              st.just("--winner"), name, st.just("--price"), amount),
    st.tuples(st.just(["play", "mule-goes-crazy", "buy"]), name,
              st.sampled_from(["food", "energy", "smithore", "crystite", "gold"])),
    st.tuples(st.just(["play", "mule-goes-crazy", "grant"]), name,
              st.sampled_from(["sunny-flats", "foothills", "x"])),
    st.tuples(st.just(["play", "mule-goes-crazy", "end-turn"])),
    st.tuples(st.just(["play", "status", "--game"]), amount),
    st.tuples(st.just(["play", "undo", "--game"]), amount),
    st.tuples(st.just(["play", "mule", "spoilage", "--food"]), amount, st.just("--energy"),
              amount, st.just("--smithore"), amount, st.just("--crystite"), amount),
    st.tuples(st.just(["play", "mutagen", "setup"]), amount),
    st.tuples(st.just(["play", "outer-earth", "setup", "--players"]), amount),
)


def flat(parts: tuple[Any, ...]) -> list[str]:
    out: list[str] = []
    for p in parts:
        out.extend(p) if isinstance(p, list) else out.append(str(p))
    return out


def rows(db: Path) -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(db)) as con:
        return (con.execute("SELECT * FROM games ORDER BY id").fetchall()
                + con.execute("SELECT * FROM events ORDER BY game_id, seq").fetchall())


@contextlib.contextmanager
def saved_game() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as base:
        db = Path(base) / "games.sqlite3"
        with mock.patch.dict(os.environ, {"IRATA_DB": str(db)}):
            code, err = run(["play", "mule-goes-crazy", "new", "--players", "Ann,Bob,Cid",
                             "--seed", "3"])
            assert code == 0, err
            yield db


@FAST
@given(commands=st.lists(COMMANDS, min_size=1, max_size=4))
def test_random_companion_commands_change_nothing_when_refused(
        commands: list[tuple[Any, ...]]) -> None:
    with saved_game() as db:
        for parts in commands:
            before = rows(db)
            code, _ = run(flat(parts))
            if code == 2:
                assert rows(db) == before
            assert run(["play", "status"])[0] == 0


@FAST
@given(data=st.data())
def test_set_never_saves_a_value_that_breaks_the_game(data: st.DataObject) -> None:
    with saved_game() as db:
        state_paths = ["round", "turn", "players.Ann.food", "players.Ann", "players.Ann.lands",
                       "players.Bob.credits", "store.smithore", "prices", "opening_bid",
                       "players.Ann.food.x", "players.0", "seating.0", "seating.9"]
        for _ in range(data.draw(st.integers(1, 3))):
            path = data.draw(st.one_of(st.sampled_from(state_paths), st.text(max_size=12)))
            value = data.draw(st.one_of(
                amount, st.sampled_from(['{}', '[]', '[1, 2]', '"x"', 'true', 'null', 'NaN',
                                         'Infinity', '1e999', '2.5', '[{"a": 1}]'])))
            if path.startswith("-") or value.startswith("-"):
                continue  # click reads those as options
            before = rows(db)
            code, _ = run(["play", "set", path, value])
            if code == 2:
                assert rows(db) == before
            # whatever set accepted, every command that reads the game still works
            assert run(["play", "status"])[0] == 0
            assert run(["play", "mule-goes-crazy", "mule-price", "food"])[0] in (0, 2)


score_value = st.one_of(st.integers(-(10**7), 10**7), st.sampled_from(HOSTILE_TEXT), st.floats(),
                        st.lists(st.sampled_from(["jade", "amber", "x", 3]), max_size=3),
                        st.none())
player = st.fixed_dictionaries({"name": name}, optional={
    "score": score_value, "storage": score_value, "shards": score_value, "trees": score_value,
    "tracks": st.one_of(score_value, st.fixed_dictionaries(
        {}, optional={"ore": score_value, "gas": score_value, "nope": score_value})),
    "crew": st.one_of(score_value, st.lists(st.sampled_from(
        ["all", "crew/peak-gas", "nope", {"kind": "highest", "element": "ore"}]), max_size=3)),
})


@FAST
@given(doc=st.one_of(st.fixed_dictionaries({"players": st.lists(player, max_size=5)}),
                     hostile, st.text(max_size=60)),
       command=st.sampled_from([["play", "mutagen", "score"], ["play", "mutagen", "round"],
                                ["play", "outer-earth", "score"]]))
def test_random_score_files_are_scored_or_refused_in_one_line(doc: Any,
                                                               command: list[str]) -> None:
    with tempfile.TemporaryDirectory() as base:
        path = Path(base) / "scores.yaml"
        if isinstance(doc, str) and not doc.startswith("players"):
            path.write_text(doc, encoding="utf-8")
        else:
            try:
                path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
            except (yaml.YAMLError, ValueError):
                return
        with mock.patch.dict(os.environ, {"IRATA_DB": str(Path(base) / "g.sqlite3")}):
            run([*command, str(path)])


# --- the second pass: fonts, SVG art, spreadsheets, versions, exports, step commands --------

sys.path.insert(0, str(Path(__file__).parent / "designer"))
from conftest import make_font  # noqa: E402

SMALL = "game: t\nname: T\nedition: \"1.0\"\n"
ONE_CARD = """\
components:
  - id: c
    kind: card
    size: poker
    front:
{elements}"""


def hostile_game(base: Path, files: dict[str, bytes | str], elements: list[str],
                 game: str = SMALL) -> Path:
    folder = base / "share" / "G"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    (folder / "cards.yaml").write_text(ONE_CARD.format(elements="".join(
        f"      - {e}\n" for e in elements or ["{type: rect, w: 10, h: 10}"])),
        encoding="utf-8")
    for name, content in files.items():
        p = folder / name
        p.write_bytes(content) if isinstance(content, bytes) else p.write_text(
            content, encoding="utf-8")
    return folder


def check_then_print(folder: Path, base: Path) -> tuple[int, int]:
    """check and print ``folder``: nothing outside the output folder changes, whatever check
    passes print prints, and a refused print leaves no manifest."""
    out = base / "out"
    before = snapshot(base, out)
    checked, err = run(["check", "--components", str(folder)])
    printed, perr = run(["print", "--components", str(folder), "--out", str(out)])
    assert snapshot(base, out) == before
    if checked == 0:
        assert printed == 0, f"check passed but print failed: {perr}"
    else:
        assert printed == 2 and not list(out.glob("*/manifest.json")), perr
    return checked, printed


_FONT_CACHE: dict[bool, bytes] = {}


def font_bytes(cff: bool) -> bytes:
    if cff not in _FONT_CACHE:
        with tempfile.TemporaryDirectory() as tmp:
            _FONT_CACHE[cff] = make_font(Path(tmp) / "f.ttf", "ABCDEFGHIJ abc", cff=cff
                                         ).read_bytes()
    return _FONT_CACHE[cff]


def table_offsets(data: bytes) -> list[tuple[int, int]]:
    """Where each table of a font file lies: (offset, length), as its directory says."""
    try:
        (count,) = struct.unpack(">H", data[4:6])
        return [struct.unpack(">II", data[12 + 16 * i + 8:12 + 16 * i + 16])
                for i in range(min(count, 64))]
    except struct.error:
        return []


@FAST
@given(data=st.data())
def test_mutated_fonts_never_crash_and_check_agrees_with_print(data: st.DataObject) -> None:
    font = bytearray(font_bytes(data.draw(st.booleans(), label="cff")))
    for _ in range(data.draw(st.integers(1, 4), label="mutations")):
        how = data.draw(st.sampled_from(["flip", "cut", "table", "directory"]), label="how")
        if how == "cut":
            font = font[:data.draw(st.integers(0, len(font)), label="cut at")]
        elif how == "flip" and font:
            at = data.draw(st.integers(0, len(font) - 1), label="at")
            font[at] = data.draw(st.integers(0, 255), label="byte")
        elif how == "table" and table_offsets(bytes(font)):
            offset, length = data.draw(st.sampled_from(table_offsets(bytes(font))))
            fill = data.draw(st.sampled_from([0x00, 0xFF, 0x7F]), label="fill")
            font[offset:offset + length] = bytes([fill]) * len(font[offset:offset + length])
        elif how == "directory" and len(font) > 28:
            at = data.draw(st.integers(12, min(len(font), 12 + 16 * 12) - 4), label="entry")
            font[at:at + 4] = struct.pack(">I", data.draw(st.integers(0, 2**32 - 1)))
    spec = data.draw(st.sampled_from(["f.ttf", "{file: f.ttf}", "f.otf"]), label="spec")
    name = "f.otf" if spec == "f.otf" else "f.ttf"
    with tempfile.TemporaryDirectory() as base:
        folder = hostile_game(Path(base), {name: bytes(font)},
                              ["{type: text, text: 'ABC abc', w: 40, h: 10, font: body}"],
                              game=SMALL + f"fonts:\n  body: {spec}\n")
        check_then_print(folder, Path(base))


SVG_TAGS = ["rect", "circle", "ellipse", "line", "polyline", "polygon", "path", "text", "g",
            "use", "image", "style", "defs", "linearGradient", "clipPath", "tspan", "svg"]
SVG_ATTRS = ["x", "y", "width", "height", "r", "rx", "ry", "cx", "cy", "x1", "y2", "points",
             "d", "transform", "fill", "stroke", "stroke-width", "stroke-dasharray", "opacity",
             "font-family", "font-size", "font-weight", "style", "href", "id", "viewBox",
             "clip-path", "offset"]
svg_value = st.one_of(
    st.sampled_from(["1", "0", "-1", "5x", "1e999", "nan", "inf", "2qq", "", "10%", "3mm",
                     "1,2 3,4", "M0 0 L5 5 Z", "M 1", "translate(1)", "rotate(x)",
                     "scale(1e308)", "matrix(1,2)", "#ff0000", "url(#a)", "url(/etc/x)",
                     "#a", "/etc/passwd", "../x.svg", "file:///etc/passwd", "data:,x",
                     "Helvetica", "/tmp/irata-font", "serif, /etc/secret", "bold", "900",
                     "font-family: /etc/secret", "@import url(x.css)", "0 0 10 10",
                     "0 0 0 0", "a b c d", "9" * 400]),
    st.text(alphabet="0123456789.-e, ", max_size=12),
    st.text(max_size=12).map(lambda t: "".join(c for c in t if c.isprintable()
                                               and c not in "<>&\"")))


@st.composite
def svg_element(draw: st.DrawFn, depth: int = 0) -> str:
    tag = draw(st.sampled_from(SVG_TAGS))
    attrs = draw(st.dictionaries(st.sampled_from(SVG_ATTRS), svg_value, max_size=4))
    text = "".join(f' {k}="{v}"' for k, v in attrs.items())
    inner = ""
    if depth < 2:
        inner = "".join(draw(st.lists(svg_element(depth + 1), max_size=3)))
    if tag in ("text", "tspan", "style"):
        inner += draw(st.sampled_from(["AB", "", "@import url(/etc/x.css);", "x { fill: red }"]))
    return f"<{tag}{text}>{inner}</{tag}>"


@FAST
@given(elements=st.lists(svg_element(), max_size=6),
       root=st.sampled_from(['width="10" height="10"', 'viewBox="0 0 10 10"', "",
                             'width="1e999" height="5"', 'viewBox="0 0 x 1"',
                             'width="5mm" height="5mm" viewBox="0 0 -1 10"']),
       head=st.sampled_from(["", '<?xml version="1.0"?>',
                             '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
                             '<!DOCTYPE svg [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]>']),
       fit=st.sampled_from(["contain", "cover", "stretch"]))
def test_random_svg_art_never_crashes_and_check_agrees_with_print(
        elements: list[str], root: str, head: str, fit: str) -> None:
    art = (f'{head}<svg xmlns="http://www.w3.org/2000/svg" '
           f'xmlns:xlink="http://www.w3.org/1999/xlink" {root}>{"".join(elements)}</svg>')
    with tempfile.TemporaryDirectory() as base:
        folder = hostile_game(Path(base), {"a.svg": art},
                              [f"{{type: image, path: a.svg, w: 30, h: 30, fit: {fit}}}"])
        check_then_print(folder, Path(base))


cell = st.one_of(st.sampled_from(HOSTILE_TEXT), st.text(max_size=10),
                 st.integers(-(10**30), 10**30).map(str))


@FAST
@given(rows=st.lists(st.lists(cell, min_size=1, max_size=4), max_size=5),
       header=st.lists(st.sampled_from(["id", "title", "count", "size", "front", "x", "",
                                        "title.x", "id"]), min_size=1, max_size=4),
       kind=st.sampled_from(["csv", "tsv", "xlsx"]))
def test_random_spreadsheets_never_crash_and_check_agrees_with_print(
        rows: list[list[str]], header: list[str], kind: str) -> None:
    with tempfile.TemporaryDirectory() as base:
        name = f"t.{kind}"
        if kind == "xlsx":
            import openpyxl
            from openpyxl.utils.exceptions import IllegalCharacterError

            wb = openpyxl.Workbook()
            for r in [header, *rows]:
                try:
                    wb.active.append([c.replace("\0", "") for c in r])
                except (ValueError, TypeError, IllegalCharacterError):  # XML cannot hold it
                    return
            buf = io.BytesIO()
            wb.save(buf)
            content: bytes | str = buf.getvalue()
        else:
            sep = "\t" if kind == "tsv" else ","
            content = "\n".join(sep.join(c.replace(sep, " ").replace("\n", " ")
                                         .replace('"', "") for c in r)
                                for r in [header, *rows]) + "\n"
        more = ("defaults: {kind: card, size: poker, front: [{type: text, text: '${title}', "
                f"w: 40, h: 10}}], title: x}}\ncomponents_from: {name}\n")
        folder = hostile_game(Path(base), {name: content, "more.yaml": more}, [])
        check_then_print(folder, Path(base))


def _workbook() -> dict[str, bytes]:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    for r in (["id", "title"], ["a", "A"], ["b", "B"]):
        ws.append(r)
    buf = io.BytesIO()
    wb.save(buf)
    with zipfile.ZipFile(buf) as z:
        return {n: z.read(n) for n in z.namelist()}


@FAST
@given(data=st.data())
def test_mutated_xlsx_parts_never_crash_and_check_agrees_with_print(
        data: st.DataObject) -> None:
    parts = _workbook()
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        name = data.draw(st.sampled_from(sorted(parts)), label="part")
        xml = parts[name]
        how = data.draw(st.sampled_from(["cell ref", "dimension", "cut", "flip", "entity",
                                         "drop", "number"]), label="how")
        if how == "cell ref":
            ref = data.draw(st.sampled_from(["XFD1048576", "A1048576", "ZZZZ1", "A0", "A-1",
                                             "A" + "9" * 5000, "AAAAAAA1", "B30000"]))
            xml = xml.replace(b'r="B3"', f'r="{ref}"'.encode(), 1)
        elif how == "dimension":
            ref = data.draw(st.sampled_from(["A1:XFD1048576", "A1:B" + "9" * 5000, "x", "",
                                             "A1:A1"]))
            xml = xml.replace(b'ref="A1:B3"', f'ref="{ref}"'.encode(), 1)
        elif how == "cut":
            xml = xml[:data.draw(st.integers(0, len(xml)))]
        elif how == "flip" and xml:
            at = data.draw(st.integers(0, len(xml) - 1))
            xml = xml[:at] + bytes([data.draw(st.integers(0, 255))]) + xml[at + 1:]
        elif how == "entity":
            xml = b'<!DOCTYPE x [<!ENTITY a "aaaaaaaa">]>' + xml
        elif how == "drop":
            parts.pop(name)
            continue
        elif how == "number":
            xml = xml.replace(b"<v>", b"<v>" + data.draw(st.sampled_from(
                [b"1e999", b"9" * 5000, b"nan", b"-0", b"1.5"])) + b"</v><x>", 1)
        parts[name] = xml
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, xml in parts.items():
            z.writestr(name, xml)
    more = ("defaults: {kind: card, size: poker, front: [{type: text, text: '${title}', "
            "w: 40, h: 10}]}\ncomponents_from: t.xlsx\n")
    with tempfile.TemporaryDirectory() as base:
        folder = hostile_game(Path(base), {"t.xlsx": buf.getvalue(), "more.yaml": more}, [])
        check_then_print(folder, Path(base))


version = st.one_of(st.sampled_from(["1.0", "1.1", "2", "1.10", "9" * 5000, "1." + "9" * 4400,
                                     "١.٢", "1..2", ".1", "1.", "1.0.0.0.0.0.0.0.0.0", "-1",
                                     "1e3", " 1.1 ", "1.1\n", "0x10", "+1"]),
                    st.text(alphabet="0123456789.", max_size=12),
                    st.integers(0, 10**12).map(str))


@FAST
@given(versions=st.lists(version, min_size=1, max_size=3), since=version,
       edition=st.sampled_from(["1.0", "first", "9" * 5000, "1"]))
def test_random_errata_versions_never_crash(versions: list[str], since: str,
                                            edition: str) -> None:
    errata = "errata:\n" + "".join(
        f"  - id: E{i}\n    summary: s\n    version: {json.dumps(v)}\n"
        f"    changes:\n      - component: c\n        set: {{count: {i + 2}}}\n"
        for i, v in enumerate(versions))
    with tempfile.TemporaryDirectory() as base:
        folder = hostile_game(Path(base), {"errata.yaml": errata}, [],
                              game=f"game: t\nname: T\nedition: {json.dumps(edition)}\n")
        check_then_print(folder, Path(base))
        where = ["--components", str(folder)]
        out = Path(base) / "out"
        for args in (["print", "t", *where, "--since", since, "--out", str(out)],
                     ["errata", "diff", "t", *where, "--from", since],
                     ["errata", "list", "t", *where],
                     ["errata", "check", f"irata:t/c@{since}", *where]):
            if not since.startswith("-"):
                run(args)


export_value = st.one_of(st.sampled_from(["0", "-1", "1e999", "nan", "30", "72", "100000",
                                          "9" * 5000, "²", "", "png", "jpg", "x"]),
                         st.text(max_size=6))


@FAST
@given(data=st.data())
def test_random_preview_and_export_options_never_crash_or_write_outside(
        data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as base:
        root = Path(base) / "a"
        shutil.copytree(DECK, root / "G")
        out = root / "out"
        where = ["--components", str(root / "G")]
        command = data.draw(st.sampled_from(["preview", "tts", "pod"]), label="command")
        if command == "preview":
            args = ["preview", "deck", data.draw(st.sampled_from(
                ["card/alpha", "alpha", "board/map", "die/colour", "nope", "../x", ""])),
                *where, "--out", str(out / data.draw(st.sampled_from(
                    ["p.png", "../p.png", "p", "x/p.png"])))]
            opts = {"--dpi": export_value, "--face": st.sampled_from(["front", "back", "x"]),
                    "--bleed": export_value, "--margin": export_value,
                    "--paper": st.sampled_from(["a4", "letter", "x"])}
        elif command == "tts":
            args = ["export", "tts", "deck", *where, "--out", str(out)]
            opts = {"--dpi": export_value, "--image-format": st.sampled_from(["png", "jpg", "x"])}
        else:
            args = ["export", "pod", "deck", *where, "--out", str(out)]
            opts = {"--vendor": st.sampled_from(["tgc", "mpc", "dtc", "x", ""])}
        for key in data.draw(st.lists(st.sampled_from(sorted(opts)), max_size=3,
                                      unique=True)):
            value = data.draw(opts[key], label=key)
            if not value.startswith("-"):
                args += [key, value]
        if command == "preview" and "--dpi" not in args:
            args += ["--dpi", "30"]
        if command == "tts" and "--dpi" not in args:
            args += ["--dpi", "20"]
        before = snapshot(Path(base), out)
        run(args, limit=30.0)
        assert snapshot(Path(base), out) == before


# --- M.U.L.E. step commands in random order ----------------------------------------------------

COLONIST = st.sampled_from(["Ann", "Bob", "Cid", "Dee", "Zed", "", "ann", "x" * 300])
LAND = st.one_of(st.sampled_from(["P07@B1", "P01@A1", "P13@E3", "P07@Z9", "P99@B1", "P07",
                                  "@", "P07@B1@C1", "²@B1", "P" + "9" * 5000 + "@B1"]),
                 st.builds(lambda t, r, c: f"P{t:02d}@{r}{c}", st.integers(1, 24),
                           st.sampled_from("ABCDEF"), st.integers(0, 4)))
CARD = st.sampled_from(["PR01", "PR05", "PR10", "Acid Rain Storm", "LE09", "UE03", "nope",
                        "", "PR" + "9" * 5000])
GOOD = st.sampled_from(["food", "energy", "smithore", "crystite", "gold", ""])
STEPS = st.one_of(
    st.tuples(st.just(["play", "mule", "grant"]), COLONIST, LAND),
    st.tuples(st.just(["play", "mule", "develop"]), COLONIST,
              st.sampled_from(["buy P07 F, assay", "pass", "buy P07 F", "assay", "", "x",
                               "buy P07 Q", "wampus", "pub"])),
    st.tuples(st.just(["play", "mule", "usage"])),
    st.tuples(st.just(["play", "mule", "produce"]), CARD),
    st.tuples(st.just(["play", "mule", "produce"]), CARD, st.just("--craters"),
              st.sampled_from(["white,red", "x", "", "²"])),
    st.tuples(st.just(["play", "mule", "pricing"])),
    st.tuples(st.just(["play", "mule", "trade"]), GOOD),
    st.tuples(st.just(["play", "mule", "trade"]), GOOD, st.just("--sell"),
              st.sampled_from(["Bob=3", "Bob=" + "9" * 5000, "Bob=²", "=", "Zed=1"])),
    st.tuples(st.just(["play", "mule", "ranking"])),
    st.tuples(st.just(["play", "mule", "lucky"]), COLONIST, CARD),
    st.tuples(st.just(["play", "mule", "unlucky"]), COLONIST, CARD, st.just("--to"), COLONIST),
    st.tuples(st.just(["play", "mule", "auction"]), COLONIST, COLONIST, amount, LAND),
    st.tuples(st.just(["play", "mule", "package"]), COLONIST),
    st.tuples(st.just(["play", "mule", "final-market"])),
    st.tuples(st.just(["play", "mule", "end"])),
    st.tuples(st.just(["play", "undo"])),
    st.tuples(st.just(["play", "mule", "next"])),
)


@contextlib.contextmanager
def mule_game() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as base:
        db = Path(base) / "games.sqlite3"
        with mock.patch.dict(os.environ, {"IRATA_DB": str(db)}):
            code, err = run(["play", "mule", "new", "--players", "Ann,Bob,Cid,Dee",
                             "--seed", "3"])
            assert code == 0, err
            yield db


@FAST
@given(steps=st.lists(STEPS, min_size=1, max_size=6))
def test_mule_step_commands_in_random_order_change_nothing_when_refused(
        steps: list[tuple[Any, ...]]) -> None:
    with mule_game() as db:
        for parts in steps:
            args = flat(parts)
            if any(a.startswith("-") and a not in ("--craters", "--sell", "--to")
                   for a in args):
                continue
            before = rows(db)
            code, _ = run(args)
            if code == 2:
                assert rows(db) == before
            assert run(["play", "status"])[0] == 0
            assert run(["play", "mule", "next"])[0] == 0


# --- several processes, and processes killed mid-way -------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
# a few examples each: every one starts Python processes
FEW = settings(FAST, max_examples=max(3, FAST.max_examples // 6))
CHILD = r"""
import contextlib, io, json, sys
from components.errors import MAX_REPORTED
from irata.cli import main

for args in json.loads(sys.argv[1]) * int(sys.argv[2]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(args)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    print(json.dumps({"args": args, "code": code, "err": err.getvalue()}), flush=True)
"""


def child(commands: list[list[str]], times: int, db: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "IRATA_DB": str(db), "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", CHILD, json.dumps(commands), str(times)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def intact(db: Path) -> None:
    """The games file is whole and every command that reads the game reads it."""
    with contextlib.closing(sqlite3.connect(db)) as con:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    with mock.patch.dict(os.environ, {"IRATA_DB": str(db)}):
        for args in (["play", "status"], ["play", "log"], ["play", "mule", "next"]):
            code, err = run(args)
            assert code == 0, (args, err)


@FEW
@given(jobs=st.lists(st.lists(STEPS, min_size=1, max_size=4), min_size=4, max_size=4))
def test_step_commands_from_four_processes_at_once_never_break_the_game(
        jobs: list[list[tuple[Any, ...]]]) -> None:
    with mule_game() as db:
        commands = [[flat(p) for p in job if not any(
            a.startswith("-") and a not in ("--craters", "--sell", "--to") for a in flat(p))]
            for job in jobs]
        procs = [child(c, 2, db) for c in commands]
        for proc in procs:
            out, err = proc.communicate(timeout=240)
            assert proc.returncode == 0 and "Traceback" not in err, err
            for line in out.splitlines():
                result = json.loads(line)
                assert result["code"] in (0, 2) and "Traceback" not in result["err"], result
        intact(db)


@FEW
@given(delay=st.floats(0.3, 2.5))
def test_a_step_killed_at_any_moment_loses_at_most_that_step(delay: float) -> None:
    with mule_game() as db:
        start = rows(db)
        proc = child([["play", "mule", "grant", "Bob", "P01@A1"], ["play", "undo"]], 200, db)
        time.sleep(delay)
        proc.kill()
        proc.communicate(timeout=30)
        intact(db)
        after = rows(db)
        # the game as it was, or with the grant: never a part of one
        games, events = len(start[:1]), after[1:]
        assert len(after) - games in (len(start) - games, len(start) - games + 1), after
        assert after[games:len(start)] == start[games:]
        assert all(e in start or "P01" in str(e) for e in events)


def _complete(out: Path) -> None:
    """Every file of the print in ``out`` is whole: each PDF opens and has its pages, the
    manifest reads and names only files that are there, and no scratch file is left."""
    import pypdfium2 as pdfium

    for pdf in out.rglob("*.pdf"):
        doc = pdfium.PdfDocument(str(pdf))
        try:
            assert len(doc) > 0
        finally:
            doc.close()
    for manifest in out.rglob("manifest.json"):
        listed = json.loads(manifest.read_text(encoding="utf-8"))
        for f in listed.get("files", []):
            assert (manifest.parent / f["file"]).is_file(), f
    leftovers = [p for p in out.rglob(".*")]
    assert leftovers == [], leftovers


@FEW
@given(delay=st.floats(0.8, 4.0))
def test_a_print_killed_at_any_moment_leaves_the_last_good_print_or_none(delay: float) -> None:
    with tempfile.TemporaryDirectory() as base:
        root = Path(base)
        shutil.copytree(DECK, root / "G")
        out = root / "out"
        args = ["print", "--components", str(root / "G"), "--out", str(out),
                "--format", "pdf,svg,png", "--dpi", "40"]
        proc = child([args], 3, root / "unused.sqlite3")
        time.sleep(delay)
        proc.kill()
        proc.communicate(timeout=30)
        # what the killed print left is whole; the next print clears what it left behind
        for p in out.rglob("*"):
            if p.is_file() and not p.name.startswith("."):
                assert p.stat().st_size > 0, p
        assert run(args)[0] == 0
        _complete(out)
