"""The preview record: where ``irata print`` put each face, so that ``irata preview --printed
OUT`` draws one face without loading the game, imposing it or scanning font packages.

``irata print`` writes, beside its cache (``OUT/GAME/irata-cache/``):

- ``preview.json``, the index: what the print was made from (the game folder's stamp, the
  state of each art file its faces draw, a digest of irata's own sources and the PDF
  library's version, the print's settings), and for each printed face (component id, face)
  where its first copy was placed (the page's size, the trim, the box it is cut to, its
  origin, turn and outline, whether the PDF draws it as a form) and where its drawing is;
- ``preview-faces.txt``: one drawing per line (the face's primitives, icons drawn into it
  expanded, as plain JSON values), found by the index's byte offset and length;
- ``font-<digest>.ttf``: each embedded font the faces set text in, the very TrueType bytes
  the print registered (irata's own lettering, a game's font), named by their digest.

The preview reads the index, checks that nothing the faces were made from has changed since
(a definition edited after the print changes the stamp: the record is stale), reads one
line and draws it with the PDF backend on a page of the printed page's size, where the print
placed it. Anything wrong (no record, a damaged or hostile one, a stale one, a face the
record does not hold) makes ``load_face`` return None: the caller draws the face the full
way, never a stale picture.

Untrusted like the output folder that holds it: files are read without following links and
within bounds, names are made here (``font-`` + a hex digest, checked), never taken from the
record; paths to art are relative to the game folder and must resolve inside it; every
number is finite and bounded, every string bounded, every list bounded in length and depth.
Nothing in it is executed or unpickled, and it never makes irata write anything.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.drawing import (
    QR,
    Drawing,
    Ellipse,
    Gradient,
    Group,
    Icon,
    Image,
    Line,
    Rect,
    Style,
    Text,
)
from generator.drawing import Path as PathPrim

RECORD_VERSION = 1
INDEX = "preview.json"
# json.dumps(..., separators=(",", ":"), allow_nan=False) (and ensure_ascii=False), each made
# once: json.dumps with settings of its own makes an encoder on every call, 30,000 of them for
# a 10,000-card record
_COMPACT = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode
_COMPACT_TEXT = json.JSONEncoder(separators=(",", ":"), allow_nan=False,
                                 ensure_ascii=False).encode
FACES_RE = re.compile(r"preview-faces-([0-9a-f]{32})\.txt")
CACHE_DIR = "irata-cache"  # generator.incremental.CACHE_DIR
MAX_INDEX_BYTES = 64 * 2**20
MAX_FACE_BYTES = 16 * 2**20
MAX_FONT_BYTES = 32 * 2**20
MAX_ITEMS = 200_000  # primitives in one face, its icons' included
MAX_DEPTH = 12  # groups within groups
MAX_STR = 100_000
MAX_MM = 100_000.0
FONT_RE = re.compile(r"[0-9a-f]{32}")
# each component's faces by name: where each is placed, as the JSON the index holds (None: a
# face the record cannot draw)
Faces = dict[str, dict[str, str | None]]
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.+\-]{0,127}")


class BadRecord(ValueError):
    """A record that is damaged, hostile or not this version's: it is ignored."""


def digest(*parts: object) -> str:
    """``generator.incremental.digest``, without loading what that module loads."""
    from components.stamp import blake2b

    h = blake2b(digest_size=16)
    for part in parts:
        h.update(part if isinstance(part, bytes) else repr(part).encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()


# --- writing (at print time) -----------------------------------------------------------------

def code_key() -> str:
    """What a face's drawing and its pixels depend on besides the game: irata's own sources
    (the drawing code, the backend) and the PDF library's version."""
    import sys

    from reportlab import Version

    here = Path(__file__).resolve().parent
    parts: list[object] = [RECORD_VERSION, sys.version, Version]
    for folder in (here, here.parent / "components"):
        for f in sorted(folder.rglob("*.py")):
            # each source by its size and time (reading them costs a preview a tenth of a
            # second): an edited or reinstalled irata shows
            st = f.stat()
            parts.append((str(f.relative_to(folder)), st.st_size, st.st_mtime_ns))
    return digest(*parts)


def _style(st: Style, memo: dict[int, Any]) -> Any:
    out = memo.get(id(st))
    if out is None:
        g = st.gradient
        out = memo[id(st)] = [st.fill, st.stroke, st.width,
                              list(st.dash) if st.dash is not None else None,
                              None if g is None else [g.kind, list(g.colors), g.angle]]
    return out


def encode(items: Iterable[Any], memo: dict[int, Any]) -> list[Any]:
    """Primitives as plain JSON values: ``[tag, fields...]``."""
    out: list[Any] = []
    for it in items:
        t = type(it)
        if t is Text:
            out.append(["T", it.x, it.y, it.text, it.font, it.size, it.color, it.anchor])
        elif t is Rect:
            out.append(["R", it.x, it.y, it.w, it.h, _style(it.style, memo), it.radius])
        elif t is Line:
            out.append(["L", it.x1, it.y1, it.x2, it.y2, _style(it.style, memo)])
        elif t is Ellipse:
            out.append(["E", it.cx, it.cy, it.rx, it.ry, _style(it.style, memo)])
        elif t is PathPrim:
            out.append(["P", [list(c) for c in it.cmds], _style(it.style, memo)])
        elif t is Group:
            out.append(["G", encode(it.items, memo), it.dx, it.dy, it.rotate, it.scale,
                        list(it.clip) if it.clip is not None else None])
        elif t is Icon:
            out.append(["I", it.name, it.x, it.y, it.size, it.color])
        elif t is QR:
            out.append(["Q", it.payload, it.x, it.y, it.size, it.color])
        elif t is Image:
            out.append(["M", it.path, it.x, it.y, it.w, it.h, it.weight])
        else:
            raise TypeError(f"no record for {t.__name__}")
    return out


def _recordable(items: Iterable[Any], icons: Callable[[str, str | None], list[Any]],
                fonts: set[str], arts: set[str], used: dict[tuple[str, str | None], Any],
                depth: int = 0) -> bool:
    """Whether a face can be drawn from the record (no shaped run, whose glyphs come from the
    font's shaping tables), noting the fonts, art files and icons it uses."""
    if depth > MAX_DEPTH:
        return False
    for it in items:
        if isinstance(it, Text):
            if it.glyphs:
                return False
            fonts.add(it.font)
        elif isinstance(it, Group):
            if not _recordable(it.items, icons, fonts, arts, used, depth + 1):
                return False
        elif isinstance(it, Icon):
            key = (it.name, it.color)
            if key not in used:
                used[key] = icons(it.name, it.color)
                if not _recordable(used[key], icons, fonts, arts, used, depth + 1):
                    return False
        elif isinstance(it, Image):
            arts.add(it.path)
    return True


def _font_entry(font: str, cache: Path, written: set[str]) -> list[Any] | None:
    """How the preview registers ``font``: ``[text font, registered name, digest]`` (the bytes
    in ``font-DIGEST.ttf``), or ``[font, font, None]`` for a standard font reportlab has."""
    from generator import fonts as gfonts

    name = gfonts.embeddable(font)
    data = gfonts._TRUETYPE.get(name)  # the bytes the print registered under that name
    if data is None:
        from components.schema import STANDARD_FONTS

        return [font, name, None] if name in STANDARD_FONTS else None
    key = digest(data)
    path = cache / f"font-{key}.ttf"
    if key not in written and not _holds(path, data):
        _write(path, data)
    written.add(key)
    return [font, name, key]


def _holds(path: Path, data: bytes) -> bool:
    from generator.outdir import read_bounded

    return read_bounded(path, MAX_FONT_BYTES) == data


def _write(path: Path, data: bytes | Iterable[bytes]) -> None:
    """``data`` (its bytes, or their parts in order) written as ``path``, whole or not at
    all."""
    import tempfile

    from generator.build import scratch_prefix

    # a scratch name a killed print's successor clears (``build.clear_scratch``)
    fd, tmp = tempfile.mkstemp(prefix=scratch_prefix("preview"), suffix=".tmp",
                               dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            if isinstance(data, bytes):
                f.write(data)
            else:
                f.writelines(data)
        os.replace(tmp, path)  # a link of that name is replaced, never followed
    except BaseException:
        os.unlink(tmp)
        raise


def _chunks(sheets: list[Any]) -> list[tuple[int, int]]:
    """Each sheet's chunk (first and past-the-last sheet index), as
    ``generator.incremental.chunk_of`` says, for every sheet in one pass."""
    from generator.incremental import CHUNK_PAGES

    starts: list[int] = []
    first = 0
    for i, sheet in enumerate(sheets):
        if i and sheet.file != sheets[i - 1].file:
            first = i
        starts.append(first + (i - first) // CHUNK_PAGES * CHUNK_PAGES)
    ends = {}
    for i, start in enumerate(starts):
        ends[start] = i + 1
    return [(start, ends[start]) for start in starts]


def settings_of(settings: Any, ink: str = "full", stamp_qr: bool = False) -> dict[str, Any]:
    """What the preview must draw with to show what a print with these settings printed."""
    return {"paper": settings.paper, "duplex": settings.duplex, "bleed": settings.bleed,
            "margin": settings.margin, "back_offset": list(settings.back_offset), "ink": ink,
            "stamp_qr": stamp_qr}


def write_record(out: Path, game: Any, sheets: list[Any],
                 icons: Callable[[str, str | None], list[Any]], settings: Any,
                 options: Any) -> None:
    """Write the record of ``sheets``, as ``game`` was printed into ``out`` (its output
    folder) with ``settings`` (``layout.Settings``) and draw ``options`` (``draw.Options``).
    Nothing is written when the cache folder is not a plain folder of ``out``'s own."""
    cache = out / CACHE_DIR
    if cache.is_symlink() or not cache.is_dir() or cache.resolve().parent != out.resolve():
        return
    import tempfile

    from components.stamp import blake2b

    # the faces file, written as it is made (held whole, a long deck's record raised the
    # print's peak memory by a third), its digest taken on the way
    h = blake2b(digest_size=16)
    from generator.build import scratch_prefix

    # a scratch name a killed print's successor clears (``build.clear_scratch``)
    fd, tmp = tempfile.mkstemp(prefix=scratch_prefix("preview"), suffix=".tmp", dir=cache)
    try:
        with os.fdopen(fd, "wb") as out_file:
            made = _write_faces(out_file, h, game, sheets, icons, settings, options, cache)
        if made is None:
            os.unlink(tmp)
            return
        index, faces, written = made
        # the faces file is named by its content (``digest`` of its bytes), and the index
        # names it: an index always reads the very file it was written with (a print stopped
        # between the two leaves the last record whole)
        h.update(b"\x00")
        key = h.hexdigest()
        os.replace(tmp, cache / f"preview-faces-{key}.txt")
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    head = json.dumps(index, separators=(",", ":"), allow_nan=False)
    _write(cache / INDEX, _index_parts(head, faces, key))
    keep = {f"preview-faces-{key}.txt", *(f"font-{k}.ttf" for k in written)}
    for entry in os.scandir(cache):
        if (FACES_RE.fullmatch(entry.name) or re.fullmatch(r"font-[0-9a-f]{32}\.ttf",
                                                            entry.name)) \
                and entry.name not in keep and entry.is_file(follow_symlinks=False):
            os.unlink(entry.path)


def _write_faces(out_file: Any, h: Any, game: Any, sheets: list[Any],
                 icons: Callable[[str, str | None], list[Any]], settings: Any, options: Any,
                 cache: Path) -> tuple[dict[str, Any], Faces, set[str]] | None:
    """Write the faces file into ``out_file`` (its bytes also into the digest ``h``); the
    index, each component's faces' places (each written as JSON when it is found: a long
    deck's places as lists were megabytes), and the font files it wrote; or None where no
    record is to be written."""
    from components.stamp import stamp

    faces: Faces = {}
    fonts: dict[str, list[Any] | None] = {}
    arts: set[str] = set()
    where: dict[int, tuple[int, int]] = {}  # id(Drawing) -> (offset, length)
    offset = 0
    memo: dict[int, Any] = {}
    written: set[str] = set()
    chunk: tuple[int, int] | None = None
    uses: Counter[Any] = Counter()
    spans = _chunks(sheets)
    # every page's preamble names the canvas's initial font (generator.backends.pdf)
    fonts["Helvetica"] = _font_entry("Helvetica", cache, written)
    for i, sheet in enumerate(sheets):
        for p in sheet.placements:
            own = faces.setdefault(p.comp.id, {})
            if p.part or p.face in own:
                continue
            d = p.drawing
            if id(d) not in where:
                used: set[str] = set()
                drawn: dict[tuple[str, str | None], Any] = {}
                if not _recordable(d.items, icons, used, arts, drawn):
                    own[p.face] = None
                    continue
                for f in used - fonts.keys():
                    fonts[f] = _font_entry(f, cache, written)
                if any(fonts[f] is None for f in used):
                    own[p.face] = None
                    continue
                table = [[n, c, encode(v, memo)] for (n, c), v in drawn.items()]
                line = _COMPACT_TEXT([d.w, d.h, d.bleed, encode(d.items, memo),
                                      table]).encode() + b"\n"
                where[id(d)] = (offset, len(line))
                out_file.write(line)
                h.update(line)
                offset += len(line)
            # a PDF is rendered in chunks of pages (generator.incremental): a face placed more
            # than once in its chunk is a form there
            span = spans[i]
            if span != chunk:  # the sheets come in order: one chunk's counts at a time
                chunk = span
                uses = Counter(q.drawing.identity() for s in sheets[span[0]:span[1]]
                               for q in s.placements)
            form = uses[d.identity()] > 1
            own[p.face] = _COMPACT(
                [sheet.w, sheet.h, list(p.trim), list(p.origin), p.turn,
                 [list(pt) for pt in p.outline] if p.outline else None, list(p.clip), form,
                 *where[id(d)]])
    folder = game.folder.resolve()
    files = []
    try:
        for a in sorted(arts):
            st = os.stat(a)
            files.append([str(Path(a).resolve().relative_to(folder)), st.st_size,
                          st.st_mtime_ns])
    except (OSError, ValueError):  # art gone, or not in the game folder: no record
        return None
    index = {"irata_preview": RECORD_VERSION, "game": game.key, "stamp": stamp(folder),
             "code": code_key(), "files": files,
             "settings": settings_of(settings, options.ink, options.stamp_qr),
             "fonts": [v for v in fonts.values() if v is not None]}
    return index, faces, written


def _index_parts(head: str, faces: Faces, key: str) -> Iterator[bytes]:
    """The index file's bytes, a component's faces at a time: ``head`` (the index's JSON)
    with its ``faces`` and ``faces_file`` added. (Joined into one string, then encoded, a
    10,000-card deck's index was three copies of some 5 MB held at the print's peak.)"""
    yield f'{head[:-1]},"faces":{{'.encode()
    for n, (c, fs) in enumerate(faces.items()):
        places = ",".join(f"{json.dumps(f)}:{v}" for f, v in fs.items() if v is not None)
        yield f'{"," if n else ""}{json.dumps(c)}:{{{places}}}'.encode()
    yield f'}},"faces_file":{json.dumps(key)}}}'.encode()


# --- reading (at preview time) ---------------------------------------------------------------

def _num(v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or \
            abs(v) > MAX_MM:
        raise BadRecord("a number out of range")
    return float(v)


def _str(v: Any) -> str:
    if not isinstance(v, str) or len(v) > MAX_STR:
        raise BadRecord("not a string")
    return v


def _opt_str(v: Any) -> str | None:
    return None if v is None else _str(v)


def _list(v: Any, n: int | None = None) -> list[Any]:
    if not isinstance(v, list) or (n is not None and len(v) != n) or len(v) > MAX_ITEMS:
        raise BadRecord("not a list of the expected length")
    return v


def _box(v: Any) -> tuple[float, float, float, float]:
    a, b, c, d = (_num(x) for x in _list(v, 4))
    return (a, b, c, d)


COLOR_RE = re.compile(r"#[0-9a-fA-F]{3,8}|[a-z]{1,30}")


def _colour(v: Any) -> str | None:
    s = _opt_str(v)
    if s is not None and not COLOR_RE.fullmatch(s):
        raise BadRecord("not a colour")
    return s


def _style_of(v: Any) -> Style:
    fill, stroke, width, dash, grad = _list(v, 5)
    g = None
    if grad is not None:
        kind, colours, angle = _list(grad, 3)
        if kind not in ("linear", "radial"):
            raise BadRecord("not a gradient")
        g = Gradient(kind, tuple(str(_colour(c)) for c in _list(colours)), _num(angle))
    return Style(_colour(fill), _colour(stroke), _num(width),
                 None if dash is None else tuple(_num(x) for x in _list(dash)), g)


class _Decoder:
    """Plain JSON values -> primitives, every value checked, the count of them bounded."""

    def __init__(self, folder: Path, arts: dict[str, tuple[int, int]]) -> None:
        self.folder = folder
        self.arts = arts  # art files the index lists, relative path -> (size, mtime)
        self.count = 0
        self.icons: dict[tuple[str, str | None], tuple[Any, ...]] = {}

    def icon_table(self, v: Any) -> None:
        """The face's icons, each as the print's icon source drew it; an icon may draw
        icons listed before it (the table lists each after those it draws)."""
        entries = [_list(e, 3) for e in _list(v)]
        for name, colour, _ in entries:
            self.icons[(_str(name), _colour(colour))] = ()
        for name, colour, items in entries:
            self.icons[(name, colour)] = self.items(items)

    def items(self, v: Any, depth: int = 0) -> tuple[Any, ...]:
        if depth > MAX_DEPTH:
            raise BadRecord("groups nested too deep")
        out = []
        for it in _list(v):
            self.count += 1
            if self.count > MAX_ITEMS:
                raise BadRecord("too many primitives")
            out.append(self.item(_list(it), depth))
        return tuple(out)

    def item(self, it: list[Any], depth: int) -> Any:
        tag, rest = (it[0], it[1:]) if it else (None, [])
        if tag == "T" and len(rest) == 7:
            x, y, text, font, size, colour, anchor = rest
            if anchor not in ("start", "middle", "end") or not NAME_RE.fullmatch(_str(font)):
                raise BadRecord("not a text run")
            return Text(_num(x), _num(y), _str(text), font, _num(size), str(_colour(colour)),
                        anchor)
        if tag == "R" and len(rest) == 6:
            a, b, c, d = _box(rest[:4])
            return Rect(a, b, c, d, _style_of(rest[4]), _num(rest[5]))
        if tag == "L" and len(rest) == 5:
            a, b, c, d = _box(rest[:4])
            return Line(a, b, c, d, _style_of(rest[4]))
        if tag == "E" and len(rest) == 5:
            a, b, c, d = _box(rest[:4])
            return Ellipse(a, b, c, d, _style_of(rest[4]))
        if tag == "P" and len(rest) == 2:
            return PathPrim(tuple(self.cmd(c) for c in _list(rest[0])), _style_of(rest[1]))
        if tag == "G" and len(rest) == 6:
            clip = None if rest[5] is None else _box(rest[5])
            return Group(self.items(rest[0], depth + 1), _num(rest[1]), _num(rest[2]),
                         _num(rest[3]), _num(rest[4]), clip)
        if tag == "I" and len(rest) == 5:
            name, colour = _str(rest[0]), _colour(rest[4])
            if (name, colour) not in self.icons:
                raise BadRecord("an icon the record does not draw")
            return Icon(name, _num(rest[1]), _num(rest[2]), _num(rest[3]), colour)
        if tag == "Q" and len(rest) == 5:
            return QR(_str(rest[0])[:4296], _num(rest[1]), _num(rest[2]), _num(rest[3]),
                      str(_colour(rest[4])))
        if tag == "M" and len(rest) == 6:
            w = rest[5]
            if not isinstance(w, int) or isinstance(w, bool):
                raise BadRecord("not an image")
            a, b, c, d = _box(rest[1:5])
            return Image(self.art(_str(rest[0])), a, b, c, d, w)
        raise BadRecord("an unknown primitive")

    @staticmethod
    def cmd(c: Any) -> tuple[str | float, ...]:
        c = _list(c)
        sizes = {"M": 3, "L": 3, "C": 7, "Z": 1}
        if not c or c[0] not in sizes or len(c) != sizes[c[0]]:
            raise BadRecord("not a path command")
        return (c[0], *(_num(v) for v in c[1:]))

    def art(self, path: str) -> str:
        """An art file's path as the print drew it: it must be a file the index lists, inside
        the game folder, unchanged since the print."""
        from components.confine import ConfineError, inside

        try:
            rel = str(Path(path).resolve().relative_to(self.folder))
            real = inside(self.folder / rel, self.folder)
        except (ValueError, OSError, ConfineError):
            raise BadRecord("an image outside the game folder") from None
        st = os.stat(real)
        if self.arts.get(rel) != (st.st_size, st.st_mtime_ns):
            raise BadRecord("an image changed since the print")
        return path


def _read(path: Path, limit: int) -> bytes | None:
    from generator.outdir import read_bounded

    return read_bounded(path, limit)


def _read_slice(path: Path, offset: int, length: int) -> bytes | None:
    from generator.outdir import read_slice

    return read_slice(path, offset, length)


@dataclass
class Face:
    """One face as the record holds it, ready for the PDF backend."""

    drawing: Drawing
    page: tuple[float, float]
    trim: tuple[float, float, float, float]
    origin: tuple[float, float]
    turn: float
    outline: tuple[tuple[float, float], ...] | None
    clip: tuple[float, float, float, float]
    form: bool
    fonts: list[tuple[str, str, bytes | None]]  # text font, registered name, TrueType bytes
    icons: dict[tuple[str, str | None], tuple[Any, ...]]  # (name, colour) -> primitives


def cache_folder(out: Path, game: str) -> Path | None:
    """``OUT/GAME/irata-cache`` when it is a plain folder inside ``OUT/GAME``."""
    from generator.outdir import confine

    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_\-]{0,63}", game):
        return None
    try:
        folder = confine(out, game)
    except Exception:  # noqa: BLE001 (outside the output folder: no record)
        return None
    cache = folder / CACHE_DIR
    if cache.is_symlink() or not cache.is_dir() or cache.resolve().parent != folder:
        return None
    return cache


def read_index(cache: Path) -> dict[str, Any] | None:
    """The index, when it is whole and of this version (its values checked where used)."""
    data = _read(cache / INDEX, MAX_INDEX_BYTES)
    if data is None:
        return None
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError):
        return None
    if not isinstance(raw, dict) or raw.get("irata_preview") != RECORD_VERSION:
        return None
    return raw


def find(index: dict[str, Any], component: str) -> str | None:
    """The component id ``component`` names in the record: its id, or the part after its
    last / when exactly one component's id ends so."""
    faces = index.get("faces")
    if not isinstance(faces, dict):
        return None
    if component in faces:
        return component
    hits = [c for c in faces if isinstance(c, str) and c.rsplit("/", 1)[-1] == component]
    return hits[0] if len(hits) == 1 else None


def fresh(index: dict[str, Any], folder: Path) -> bool:
    """Whether the index was written from the game folder as it stands, by this irata."""
    from components.stamp import stamp

    return index.get("stamp") == stamp(folder) and index.get("code") == code_key()


def load_face(cache: Path, index: dict[str, Any], folder: Path, comp_id: str,
              face: str) -> Face | None:
    """The face's drawing and placement from the record, or None (not held, damaged)."""
    try:
        return _load_face(cache, index, folder.resolve(), comp_id, face)
    except (BadRecord, ValueError, TypeError, KeyError, IndexError, OSError, RecursionError):
        return None


def _load_face(cache: Path, index: dict[str, Any], folder: Path, comp_id: str,
               face: str) -> Face | None:
    own = index["faces"][comp_id]
    if not isinstance(own, dict):
        raise BadRecord("not a component's faces")
    entry = own.get(face)
    if entry is None:
        return None
    w, h, trim, origin, turn, outline, clip, form, offset, length = _list(entry, 10)
    if not (isinstance(offset, int) and isinstance(length, int) and 0 <= offset and
            0 < length <= MAX_FACE_BYTES) or not isinstance(form, bool):
        raise BadRecord("not a face entry")
    arts = {}
    for rel, size, mtime in (_list(f, 3) for f in _list(index["files"])):
        arts[_str(rel)] = (int(size), int(mtime))
    name = index["faces_file"]
    if not isinstance(name, str) or not FONT_RE.fullmatch(name):
        raise BadRecord("not a faces file")
    line = _read_slice(cache / f"preview-faces-{name}.txt", offset, length)
    if line is None:
        return None
    dw, dh, bleed, items, icons = _list(json.loads(line), 5)
    dec = _Decoder(folder, arts)
    dec.icon_table(icons)
    drawing = Drawing(_num(dw), _num(dh), _num(bleed), list(dec.items(items)))
    pts = None if outline is None else tuple(
        (_num(p[0]), _num(p[1])) for p in (_list(q, 2) for q in _list(outline)))
    o = _list(origin, 2)
    return Face(drawing, (_num(w), _num(h)), _box(trim), (_num(o[0]), _num(o[1])), _num(turn),
                pts, _box(clip), form, _fonts(cache, index, drawing, dec.icons), dec.icons)


def _fonts(cache: Path, index: dict[str, Any], drawing: Drawing,
           icons: dict[tuple[str, str | None], tuple[Any, ...]]
           ) -> list[tuple[str, str, bytes | None]]:
    from generator.drawing import walk

    out: list[tuple[str, str, bytes | None]] = []
    every = [*drawing.items, *(it for items in icons.values() for it in items)]
    used = {it.font for it in walk(every) if isinstance(it, Text)} | {"Helvetica"}
    known = {}
    for entry in _list(index["fonts"]):
        font, name, key = _list(entry, 3)
        known[_str(font)] = (_str(name), key)
    for font in sorted(used):
        name, key = known[font]
        if key is None:
            out.append((font, name, None))
            continue
        if not isinstance(key, str) or not FONT_RE.fullmatch(key):
            raise BadRecord("not a font digest")
        data = _read(cache / f"font-{key}.ttf", MAX_FONT_BYTES)
        if data is None or digest(data) != key:
            raise BadRecord("a font file damaged")
        out.append((font, name, data))
    return out


@dataclass
class _Placed:
    """One placement as the PDF backend reads it (``layout.Placement``'s fields it uses)."""

    drawing: Drawing
    clip: tuple[float, float, float, float]
    origin: tuple[float, float]
    turn: float
    outline: tuple[tuple[float, float], ...] | None


@dataclass
class _Page:
    """A page as the PDF backend reads it (``layout.Sheet``'s fields it uses)."""

    w: float
    h: float
    placements: list[_Placed]
    marks: tuple[()] = ()


def draw(face: Face, dpi: float, trim_only: bool = False) -> Any:
    """The face's image at ``dpi``: drawn alone where the print placed it, on a page of the
    printed page's size, by the PDF backend (a form when the printed PDF makes it one), then
    cut to its trim plus bleed (or its trim alone) and turned upright."""
    import io
    import tempfile

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    from generator import raster
    from generator.backends import pdf

    d = face.drawing
    b = d.bleed
    x, y, w, h = face.trim
    pw, ph = face.page
    box = (max(0.0, x - b), max(0.0, y - b), min(pw, x + w + b) - max(0.0, x - b),
           min(ph, y + h + b) - max(0.0, y - b))
    if box[2] <= 0 or box[3] <= 0 or raster.px(max(pw, ph), dpi) > 60_000:
        raise BadRecord("a face outside its page")
    page = _Page(pw, ph, [_Placed(d, box, face.origin, face.turn, face.outline)])
    registered = set(pdfmetrics.getRegisteredFontNames())
    before = dict(pdf.SET_IN)
    icons = face.icons

    def icon(name: str, colour: str | None) -> list[Any]:
        return list(icons[(name, colour)])

    try:
        for font, name, data in face.fonts:
            if data is not None and name not in registered:
                pdfmetrics.registerFont(TTFont(name, io.BytesIO(data)))
            pdf.SET_IN[font] = name
        with tempfile.TemporaryDirectory(prefix="irata-preview-") as tmp:
            out = Path(tmp) / "preview.pdf"
            pdf.write_pdf([page], out, icon, "preview",  # type: ignore[list-item]
                          as_forms={d.identity()} if face.form else ())
            img = raster.render_page(out, 0, dpi)
    finally:
        pdf.SET_IN.clear()
        pdf.SET_IN.update(before)
    img = img.crop(raster.box_px(face.trim if trim_only else box, dpi))
    if face.turn:
        img = img.rotate(face.turn, expand=True)  # PIL turns anticlockwise: back upright
    return img


def game_folder(game: str, root: Path) -> Path | None:
    """The game folder ``game`` names under ``root`` (a game folder itself, or a folder of
    them named after their games), without reading a definition; None when not found so."""
    root = root.resolve()
    if (root / "game.yaml").is_file():
        return root
    for name in dict.fromkeys((game.replace("-", "_"), game)):
        if NAME_RE.fullmatch(name) and "/" not in name and (root / name / "game.yaml").is_file():
            return (root / name).resolve()
    return None


def recorded(printed: Path, game: str, root: Path, comp: str, face: str,
             settings: dict[str, Any]) -> tuple[str, Face] | None:
    """The face of ``comp`` as the print into ``printed`` recorded it, when the record is
    whole and fresh and was made with ``settings`` (those the command gave); else None."""
    folder = game_folder(game, root)
    if folder is None:
        return None
    for key in dict.fromkeys((game, game.replace("_", "-"))):
        cache = cache_folder(printed, key)
        index = read_index(cache) if cache is not None else None
        if cache is None or index is None or index.get("game") != key:
            continue
        given = index.get("settings")
        if not isinstance(given, dict) or any(given.get(k) != v for k, v in settings.items()):
            return None
        comp_id = find(index, comp)
        if comp_id is None or not fresh(index, folder):
            return None
        got = load_face(cache, index, folder, comp_id, face)
        return None if got is None else (comp_id, got)
    return None


def printed_settings(printed: Path, game: str) -> dict[str, Any]:
    """The settings the print into ``printed`` recorded (empty when there is no record)."""
    for key in dict.fromkeys((game, game.replace("_", "-"))):
        cache = cache_folder(printed, key)
        index = read_index(cache) if cache is not None else None
        if index is not None and isinstance(index.get("settings"), dict):
            return dict(index["settings"])
    return {}


def save_png(img: Any, path: Path, dpi: float) -> None:
    """``raster.save_png``: the PNG written whole (a temporary name in its folder, renamed),
    with its dpi recorded."""
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=".irata-", suffix=".png", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            # (the fastest deflate: a preview is looked at, then thrown away)
            img.save(f, format="PNG", compress_level=1, dpi=(round(dpi), round(dpi)))
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
