"""Incremental and parallel rendering: each sheet known by a content key, PDFs made in chunks.

A full print and a rebuild take the same road, so they write the same bytes:

- Every sheet gets a **content key**: a digest of everything its page shows (each placed
  face's primitives, image files' size and time, the placement boxes, the page's marks and
  boxes) and of what turns a sheet into bytes (irata's renderer sources, the library versions,
  the game's icons and font files, the document's info). Keys are ``blake2b`` over ``repr``
  of plain values, so they are the same in every process.
- A PDF is rendered in **chunks** of ``CHUNK_PAGES`` consecutive pages, each a small PDF of
  its own, cached in ``OUT/GAME/irata-cache/`` under its key, then joined into the file
  (``generator.pdfjoin``). Fonts are seeded in every chunk with the build's whole character
  set in one order, so each chunk embeds the same font objects, and the join keeps one copy
  of each (and of each form, a deck's backs): the file holds its fonts once, not once per
  chunk. The chunking is fixed (never by the number of processes), so the bytes are the same
  for any ``--jobs``.
- SVG sheets are cached per sheet key; an unchanged sheet is copied from the cache, and one
  the last build left in place untouched is left as it is.
- Chunks and SVGs that are not cached are rendered in parallel processes (``fork``): a
  process is given the index of its work, never pickled data, and outlines each chunk it
  renders (its objects' digests) so that the join reads it once.
- A PDF is written as soon as its chunks are there: before any SVG sheet is rendered when
  few chunks are (a watch's rebuild: the PDF is what the designer waits for), else while the
  processes go on with the SVG sheets.
- While KEEP (a watch), a build keeps for the next: each sheet's key and characters while
  its imposition is kept (``Known``, ``generator.build.imposed``), and each chunk's objects
  as joined (``pdfjoin`` blocks, written again as they were while their numbers are).

The cache lives inside the output folder and is untrusted like the folder itself (a shared
game folder may carry one): its index is JSON read within bounds, file names are made here
from hex keys (never taken from the index), no link is followed, and a file is used only when
its size, page count and keyed digest (``mac``: a key of this user's, kept beside irata's own
fonts, never in a game or output folder) are what the index recorded; anything else is
ignored and rendered again. Nothing in it is ever executed or unpickled, and a PDF in it is
read only by ``generator.pdfjoin``, only once its digest shows irata wrote it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import marshal
import operator
import os
import re
import shutil
import stat
import sys
import tempfile
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.drawing import Drawing, Group, Icon, Image, Primitive, Text, walk
from generator.layout import Sheet
from generator.outdir import current_umask as _umask
from generator.outdir import read_bounded as _read_bounded

CACHE_VERSION = 1
CACHE_DIR = "irata-cache"  # beside svg/: a hidden name would pass for a leftover
INDEX = "index.json"
CHUNK_PAGES = 16  # a rebuild re-renders at most this many pages per changed page
MIN_PARALLEL = 48  # pages to render (PDF and SVG) worth starting processes for
MAX_INDEX_BYTES = 16 * 2**20
MAX_CHUNK_BYTES = 512 * 2**20
KEY_RE = re.compile(r"[0-9a-f]{32}")
# reportlab's date in a chunk: the build's own date is written into the joined file
CHUNK_DATE = "D:20000101000000Z"

IconSource = Callable[[str, str | None], list[Primitive]]


def digest(*parts: object) -> str:
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        h.update(part if isinstance(part, bytes) else repr(part).encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()


_RENDERER: str | None = None


def renderer_key() -> str:
    """What turns a sheet into bytes: irata's rendering sources and the libraries' versions."""
    global _RENDERER
    if _RENDERER is None:
        from importlib.metadata import version

        here = Path(__file__).resolve().parent
        files = [here / "incremental.py", here / "drawing.py", here / "fonts.py",
                 here / "qr.py", here / "images.py", here / "cmyk.py", here / "layout.py",
                 *sorted((here / "backends").glob("*.py"))]
        parts: list[object] = [CACHE_VERSION, sys.version]
        for f in files:
            parts.append(f.read_bytes() if f.is_file() else b"")
        for lib in ("reportlab", "svgwrite", "pikepdf", "svglib", "pillow", "qrcode"):
            try:
                parts.append((lib, version(lib)))
            except Exception:  # noqa: BLE001 (an optional library absent: no version)
                parts.append((lib, None))
        _RENDERER = digest(*parts)
    return _RENDERER


def _file_state(path: str) -> tuple[str, int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (path, -1, -1)
    return (path, st.st_size, st.st_mtime_ns)


@dataclass
class Keys:
    """The content keys of one build's sheets and chunks."""

    base: str  # what every page shares: renderer, icons, fonts, document info
    drawings: dict[int, str] = field(default_factory=dict)  # id(Drawing) -> digest

    def drawing(self, d: Drawing) -> str:
        k = self.drawings.get(id(d))
        if k is None:
            # the primitives' digest stays with the drawing (a drawing is never changed once
            # drawn), the art files' state is read for every build
            own = content_digest(d)
            if KEEP:  # (kept with the drawing: its words are not made again)
                d._content_digest = own
            k = own[0] if not own[1] else digest(own[0], [_file_state(p) for p in own[1]])
            self.drawings[id(d)] = k
        return k

    def sheet(self, sheet: Sheet, boxes: object = None) -> str:
        # the placements' plain values as marshal writes them (format 2: no references, so
        # the same bytes in every process), and each mark as ``mark``: a long deck's sheets
        # share their ruler's shapes and their crop marks' values, each put in words once
        places = marshal.dumps([(self.drawing(p.drawing), p.comp.id, p.copy, p.face, p.trim,
                                 p.clip, p.origin, p.turn, p.part, p.window)
                                for p in sheet.placements], 2)
        images = [_file_state(path) for m in sheet.marks for path in WORDS.images(m)]
        return digest(self.base, sheet.w, sheet.h, sheet.side, sheet.title, sheet.blank,
                      sheet.panels, boxes, places, WORDS.join(sheet.marks), images)

    def mark(self, p: Primitive) -> str:
        return WORDS.of(p)


class MarkWords:
    """Page marks in words: a mark's ``repr``, a group's a digest of its items' words; each
    object's found once, and each value's (a long deck's sheets share their ruler's shapes
    and their crop marks' values). A watch keeps the words of the last build's marks: the
    footers it places again are the very objects (``generator.build.number_and_footer``)."""

    def __init__(self) -> None:
        # id(mark) -> [the mark (held), its words, its images, its text by font]
        self.now: dict[int, list[Any]] = {}
        self.last: dict[int, list[Any]] = {}
        self.values: dict[Any, str] = {}

    def begin(self) -> None:
        """A build starts: what the last one used is kept (while KEEP) for this one."""
        self.last = self.now if KEEP else {}
        self.now = {}
        if not KEEP or len(self.values) > 4096:
            self.values = {}

    def _entry(self, p: Primitive) -> list[Any]:
        hit = self.now.get(id(p))
        if hit is None:
            hit = self.last.get(id(p))
            if hit is None or hit[0] is not p:
                hit = [p, None, None, None]  # (filled as asked)
            self.now[id(p)] = hit
        return hit

    def of(self, p: Primitive) -> str:
        hit = self._entry(p)
        if hit[1] is None:
            hit[1] = self._words(p)
        words: str = hit[1]
        return words

    def images(self, p: Primitive) -> tuple[str, ...]:
        """The files of the images in a mark."""
        hit = self._entry(p)
        if hit[2] is None:
            hit[2] = tuple(x.path for x in walk([p]) if isinstance(x, Image))
        paths: tuple[str, ...] = hit[2]
        return paths

    def chars(self, p: Primitive) -> dict[str, str] | None:
        """Each font a mark's text is set in (as embedded) with its characters; None for a
        mark that draws an icon (whose text is the game's icons', read each build)."""
        hit = self._entry(p)
        if hit[3] is None:
            from generator.fonts import embeddable

            found: dict[str, set[str]] = {}
            for x in walk([p]):
                if isinstance(x, Icon):
                    hit[3] = False
                    return None
                if isinstance(x, Text):
                    found.setdefault(embeddable(x.font), set()).update(x.text)
            hit[3] = {font: "".join(sorted(c)) for font, c in found.items()}
        value: dict[str, str] | bool = hit[3]
        return None if value is False else value  # type: ignore[return-value]

    def _words(self, p: Primitive) -> str:
        if isinstance(p, Group):
            return "G" + digest(p.dx, p.dy, p.rotate, p.scale, p.clip,
                                "\x00".join([self.of(x) for x in p.items]))
        try:
            k = self.values.get(p)
            if k is None:
                k = self.values[p] = repr(p)
            return k
        except TypeError:  # (a shape holding a list: not hashable)
            return repr(p)

    def join(self, marks: Iterable[Primitive]) -> str:
        return "\x00".join([self.of(m) for m in marks])


WORDS = MarkWords()


def content_digest(d: Drawing) -> tuple[str, tuple[str, ...]]:
    """A drawing's primitives' digest and the art files it draws (whose state is read by
    each build): kept with the drawing where it was worked out already (a watch's faces; a
    drawing process's, which sends it with the face)."""
    own = d._content_digest
    if own is None:
        paths = tuple(p.path for p in walk(d.items) if isinstance(p, Image))
        # (as a tuple whichever form the drawing holds: the same words every build)
        own = (digest(d.w, d.h, d.bleed, tuple(d.items)), paths)
    return own


def drawing_chars(d: Drawing, icons: IconSource) -> dict[str, str]:
    """Each font a drawing's text is set in (as embedded), with its characters (its icons'
    too): kept with the drawing where it was worked out already, as ``content_digest``."""
    own = d._font_chars
    if own is None:
        found: dict[str, set[str]] = {}
        _collect(d.items, found, icons, set())
        # as strings: a set per drawing would cost kilobytes a card
        own = {font: "".join(sorted(chars)) for font, chars in found.items()}
    return own


def base_key(game: Any, info: object, formats: Sequence[str]) -> str:
    from components.yamlloc import plain

    fonts = sorted(_file_state(str(p)) for p in _font_paths(game))
    return digest(renderer_key(), game.key, game.name, plain(game.icons), plain(game.fonts),
                  fonts, info, tuple(formats))


def _font_paths(game: Any) -> list[str]:
    files = getattr(game, "font_files", None) or {}
    out: list[str] = []
    values = files.values() if isinstance(files, dict) else files
    for v in values:
        if isinstance(v, (str, Path)):
            out.append(str(v))
        elif isinstance(v, (tuple, list)):
            out.extend(str(x) for x in v if isinstance(x, (str, Path)))
    return out


def font_seed(sheets: Sequence[Sheet], icons: IconSource,
              known: list[dict[str, str] | None] | None = None) -> list[tuple[str, str]]:
    """Each font the PDF's text is set in (as embedded) with every character it sets, sorted:
    the order in which each chunk registers its fonts and their characters. ``known``: each
    sheet's own fonts and characters (``sheet_chars``) where an earlier build found them
    (None where not), filled in here."""
    mine: dict[int, dict[str, str]] = {}
    used: dict[str, set[str]] = {}
    for i, sheet in enumerate(sheets):
        own = known[i] if known is not None else None
        if own is None:
            own = sheet_chars(sheet, icons, mine)
            if known is not None:
                known[i] = own
        for font, text in own.items():
            used.setdefault(font, set()).update(text)
    return [(font, "".join(sorted(chars))) for font, chars in sorted(used.items())]


def _collect(items: Sequence[Primitive], into: dict[str, set[str]], icons: IconSource,
             icon_seen: set[tuple[str, str | None]]) -> None:
    from generator.fonts import embeddable

    for it in walk(list(items)):
        if isinstance(it, Text):
            into.setdefault(embeddable(it.font), set()).update(it.text)
        elif isinstance(it, Icon) and (it.name, it.color) not in icon_seen:
            icon_seen.add((it.name, it.color))
            _collect(icons(it.name, it.color), into, icons, icon_seen)


def sheet_chars(sheet: Sheet, icons: IconSource,
                drawn: dict[int, dict[str, str]]) -> dict[str, str]:
    """Each font one sheet's text is set in, with its characters (its faces' and its
    marks'); ``drawn`` holds each drawing's (by ``id``) for the sheets of one build."""
    used: dict[str, set[str]] = {}
    for p in sheet.placements:
        d = p.drawing
        own = drawn.get(id(d))
        if own is None:
            # a drawing's own characters, kept with it while KEEP (a drawing never changes
            # once drawn; its icons are the game's, part of every key)
            own = drawing_chars(d, icons)
            if KEEP:
                d._font_chars = own
            drawn[id(d)] = own
        for font, text in own.items():
            used.setdefault(font, set()).update(text)
    for m in sheet.marks:
        text_of = WORDS.chars(m)
        if text_of is None:
            _collect([m], used, icons, set())
        else:
            for font, text in text_of.items():
                used.setdefault(font, set()).update(text)
    return {font: "".join(sorted(chars)) for font, chars in used.items()}


# ---- faces drawn once per content, kept between builds of one process (--watch) --------

MEMO_GAMES = 4  # games whose faces a process keeps
# whether this process keeps what a build made for the next build (``irata print --watch``
# sets it): a single print keeps nothing beyond what it writes
KEEP = False


def game_key(game: Any, opts: Any) -> str:
    """What every face of ``game`` may depend on beyond its own component: the layouts,
    palette, fonts, icons, data and the files of the game folder (art, fonts), with the
    drawing options."""
    from components.yamlloc import plain

    files: list[tuple[str, int, int]] = []
    folder = Path(game.folder)
    try:
        for root, dirs, names in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for n in sorted(names):
                if not n.lower().endswith((".yaml", ".yml")):
                    files.append(_file_state(os.path.join(root, n)))
            if len(files) > 20_000:
                break
    except OSError:
        pass
    return digest(renderer_key(), game.key, game.name, game.edition, game.base_edition,
                  game.author, plain(game.layouts), plain(game.palette), plain(game.fonts),
                  plain(game.icons), plain(game.data), repr(game.ink_saver),
                  repr(game.distinct), repr(game.font_files), files, repr(opts))


class FaceMemo:
    """Each component's drawn faces by a digest of its definition (and ``game_key``): a
    rebuild draws again only the components whose definition, data row, layouts, fonts or
    art changed. Only the last build of each game is kept."""

    def __init__(self) -> None:
        self.games: dict[str, tuple[str, dict[str, Any]]] = {}

    def start(self, game: Any, opts: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
        gk = game_key(game, opts)
        slot = f"{game.folder}\x00{game.key}"
        old_gk, old = self.games.get(slot, ("", {}))
        return slot, (old if old_gk == gk else {}), {"": gk}

    def finish(self, slot: str, new: dict[str, Any]) -> None:
        gk = new.pop("")
        self.games.pop(slot, None)
        if not KEEP:
            return
        self.games[slot] = (gk, new)
        while len(self.games) > MEMO_GAMES:
            self.games.pop(next(iter(self.games)))

    def key_of(self, game: Any) -> str | None:
        """The ``game_key`` the last build of ``game`` drew its faces under (while KEEP)."""
        hit = self.games.get(f"{game.folder}\x00{game.key}")
        return hit[0] if hit is not None else None


FACES = FaceMemo()


def comp_key(comp: Any) -> str:
    """A digest of a component's definition (its ``repr``). While KEEP, kept with the
    component's field values: a component whose every field is the very object it was when
    its key was made (a load's copy of an unchanged one) has that key again."""
    if not KEEP:
        return digest(repr(comp))
    now = tuple(getattr(comp, name) for name in comp.__slots__)
    hit = _COMP_KEYS.get(id(comp.fields))
    if hit is not None and len(hit[0]) == len(now) and all(map(operator.is_, hit[0], now)):
        return hit[1]
    key = digest(repr(comp))
    _COMP_KEYS[id(comp.fields)] = (now, key)  # (holding ``fields``: its id stays its own)
    if len(_COMP_KEYS) > MAX_COMP_KEYS:
        _COMP_KEYS.pop(next(iter(_COMP_KEYS)))
    return key


_COMP_KEYS: dict[int, tuple[tuple[Any, ...], str]] = {}
MAX_COMP_KEYS = 100_000


# ---- the cache folder --------------------------------------------------------------------

_SECRET: bytes | None = None
# the cache files this process checked or wrote: (inode, size, time, digest) by path, so a
# watch's rebuild does not read every unchanged page again to check it
_VERIFIED: dict[str, tuple[int, int, int, str]] = {}


def _stat_of(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns) if stat.S_ISREG(st.st_mode) else None


def secret() -> bytes:
    """This user's key for the cache's digests: 32 random bytes kept beside irata's own
    lettering fonts (``generator.fonts.house_font_cache``), made once. A cache that a game
    folder brings along cannot carry digests made with it, so its files are never used; where
    the key cannot be kept, this process makes one of its own (its cache serves it alone)."""
    global _SECRET
    if _SECRET is None:
        from generator.fonts import house_font_cache

        path = house_font_cache() / "cache-key"
        data = _read_bounded(path, 64)
        if data is None or len(data) != 32:
            data = os.urandom(32)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                fd, tmp = tempfile.mkstemp(prefix=".cache-key.", dir=path.parent)
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                os.replace(tmp, path)  # a link named cache-key is replaced, never followed
            except OSError:
                pass
        _SECRET = data
    return _SECRET


def mac(kind: str, key: str, data: bytes) -> str:
    h = hashlib.blake2b(digest_size=16, key=secret())
    h.update(f"{CACHE_VERSION}:{kind}:{key}:".encode())
    h.update(data)
    return h.hexdigest()


class Cache:
    """``OUT/GAME/irata-cache``: rendered chunks and SVG sheets by key, and an index of
    what they hold. Disabled (every lookup a miss, nothing written) when the folder is not a
    plain folder inside the output folder."""

    def __init__(self, folder: Path) -> None:
        self.dir = folder / CACHE_DIR
        self.ok = True
        try:
            if self.dir.is_symlink() or (self.dir.exists() and not self.dir.is_dir()):
                self.ok = False
            else:
                self.dir.mkdir(exist_ok=True)
                self.ok = self.dir.resolve().parent == folder.resolve() and \
                    os.access(self.dir, os.W_OK | os.X_OK)
        except OSError:
            self.ok = False
        self.index = self._read_index() if self.ok else {}

    def _read_index(self) -> dict[str, Any]:
        data = _read_bounded(self.dir / INDEX, MAX_INDEX_BYTES)
        try:
            raw = json.loads(data) if data is not None else None
        except (ValueError, RecursionError):
            return {}
        if not isinstance(raw, dict) or raw.get("irata_cache") != CACHE_VERSION:
            return {}
        out: dict[str, Any] = {"chunks": {}, "svgs": {}, "pages": {}}
        for kind in ("chunks", "svgs"):
            entries = raw.get(kind)
            if isinstance(entries, dict):
                for k, v in entries.items():
                    if KEY_RE.fullmatch(str(k)) and isinstance(v, dict) and \
                            isinstance(v.get("bytes"), int) and isinstance(v.get("mac"), str):
                        out[kind][k] = v
        placed = raw.get("placed")
        if isinstance(placed, dict):
            out["placed"] = {k: v for k, v in placed.items() if isinstance(v, list)}
        pages = raw.get("pages")
        if isinstance(pages, dict):
            for name, keys in pages.items():
                if isinstance(name, str) and isinstance(keys, list) and \
                        all(isinstance(k, str) for k in keys):
                    out["pages"][name] = keys
        return out

    def path(self, kind: str, key: str) -> Path:
        if not KEY_RE.fullmatch(key):
            raise ValueError(f"not a cache key: {key[:40]}")
        return self.dir / (f"chunk-{key}.pdf" if kind == "chunks" else f"sheet-{key}.svg")

    def lookup(self, kind: str, key: str, pages: int | None = None) -> Path | None:
        """The cached file for ``key`` when it is whole (size, digest and, for a chunk, its
        page count as recorded), else None."""
        if not self.ok:
            return None
        entry = self.index.get(kind, {}).get(key)
        if entry is None or (pages is not None and entry.get("pages") != pages):
            return None
        path = self.path(kind, key)
        state = _stat_of(path)
        if state is not None and _VERIFIED.get(str(path)) == (*state, entry["mac"]):
            return path  # checked by this process, untouched since
        data = _read_bounded(path, MAX_CHUNK_BYTES)
        if data is None or len(data) != entry["bytes"] or \
                not hmac.compare_digest(mac(kind, key, data), entry["mac"]):
            return None
        self.verified(path, entry["mac"])
        return path

    def verified(self, path: Path, made: str) -> None:
        """Remember that ``path`` holds what its digest ``made`` says, as it stands now."""
        state = _stat_of(path)
        if state is not None:
            _VERIFIED[str(path)] = (*state, made)

    def record(self, kind: str, key: str, size: int, made: str,
               pages: int | None = None) -> None:
        entry: dict[str, Any] = {"bytes": size, "mac": made}
        if pages is not None:
            entry["pages"] = pages
        self.index.setdefault(kind, {})[key] = entry

    def save(self, keep_chunks: set[str], keep_svgs: set[str],
             pages: dict[str, list[str]], placed: dict[str, list[Any]] | None = None) -> None:
        """Write the index for this build and delete the cache's files it no longer needs
        (only names this module makes, only plain files)."""
        if not self.ok:
            return
        index = {"irata_cache": CACHE_VERSION,
                 "chunks": {k: v for k, v in self.index.get("chunks", {}).items()
                            if k in keep_chunks},
                 "svgs": {k: v for k, v in self.index.get("svgs", {}).items() if k in keep_svgs},
                 "pages": pages, "placed": placed or {}}
        keep = {self.path("chunks", k).name for k in keep_chunks} | \
            {self.path("svgs", k).name for k in keep_svgs}
        own = re.compile(r"(chunk-[0-9a-f]{32}\.pdf|sheet-[0-9a-f]{32}\.svg)")
        try:
            for entry in os.scandir(self.dir):
                if own.fullmatch(entry.name) and entry.name not in keep and \
                        entry.is_file(follow_symlinks=False):
                    os.unlink(entry.path)
            fd, tmp = tempfile.mkstemp(prefix=".index.", suffix=".tmp", dir=self.dir)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(index, f)
            os.replace(tmp, self.dir / INDEX)
        except OSError:
            pass  # a cache that cannot be written is a cache that is not used next time


def _write_new(cache_dir: Path, final: Path, write: Callable[[Path], object]) -> object:
    fd, tmp = tempfile.mkstemp(prefix=f".{final.name}.{os.getpid()}.", suffix=".tmp",
                               dir=cache_dir)
    os.close(fd)
    try:
        out = write(Path(tmp))
        os.chmod(tmp, 0o666 & ~_umask())  # a printed SVG may be this very file (_place)
        os.replace(tmp, final)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return out


# ---- the work, in this process or in forked ones -----------------------------------------

@dataclass
class Chunk:
    file: str
    start: int  # index of its first sheet in the build's sheet list
    end: int
    key: str
    outline: Any = None  # its objects' digests once rendered (a pdfjoin.Part outline)


@dataclass
class _Work:
    sheets: list[Sheet]
    boxes: list[Any]
    icons: IconSource
    title: str
    info: Any
    seed: list[tuple[str, str]]
    scratch: Path
    svg_faces: OrderedDict[tuple[Any, int], tuple[Any, list[Any], int]] = field(
        default_factory=OrderedDict)


_WORK: _Work | None = None


def _render_chunk(chunk: Chunk, target: Path) -> tuple[list[str], int, str]:
    from generator.backends.pdf import DocInfo, write_pdf

    w = _WORK
    assert w is not None
    info = DocInfo(author=w.info.author, subject=w.info.subject, cmyk=w.info.cmyk)
    flat = _write_new(w.scratch, target, lambda tmp: write_pdf(
        w.sheets[chunk.start:chunk.end], tmp, w.icons, w.title,
        boxes=w.boxes[chunk.start:chunk.end], info=info, fonts=w.seed, date=CHUNK_DATE,
        finish=False))
    data = target.read_bytes()  # just written: still in the page cache
    from generator.pdfjoin import read_part

    try:
        # its objects' digests, found here (in a process of its own, for a long print), so
        # that the join reads the chunk once, only to copy its objects
        chunk.outline = read_part(data).outline()
    except ValueError:
        chunk.outline = None  # (the join reads it whole, and says what is wrong)
    return flat, len(data), mac("chunks", chunk.key, data)  # type: ignore[return-value]


class _Count:
    """``itertools.count(1)`` whose next value can be read."""

    def __init__(self) -> None:
        self.n = 1

    def __iter__(self) -> _Count:
        return self

    def __next__(self) -> int:
        self.n += 1
        return self.n - 1


def sheet_faces(memo: OrderedDict[tuple[Any, int], tuple[Any, list[Any], int]]) -> Any:
    """A ``FaceCache`` for one SVG sheet whose clip ids count from 1 on that sheet, so the
    sheet's SVG depends on the sheet alone (a cached sheet is what a full build writes); the
    groups drawn are shared between sheets through ``memo``, by face and by the count at
    which they start (a deck's backs are drawn once, not once a sheet)."""
    from generator.backends.svg import FaceCache

    class SheetFaces(FaceCache):
        def __init__(self) -> None:
            super().__init__()
            self.ids = _Count()  # type: ignore[assignment]

        def get(self, d: Drawing, r: Any) -> tuple[Any, list[Any]]:
            count = self.ids
            assert isinstance(count, _Count)
            key = (d.identity(), count.n)
            hit = memo.get(key)
            if hit is not None:
                memo.move_to_end(key)
                count.n += hit[2]
                return hit[0], hit[1]
            start = count.n
            g, clips = super().get(d, r)
            memo[key] = (g, clips, count.n - start)
            if len(memo) > 256:
                memo.popitem(last=False)
            return g, clips

    return SheetFaces()


def _render_svg(index: int, key: str, target: Path) -> tuple[int, str]:
    from generator.backends.svg import sheet_svg

    w = _WORK
    assert w is not None
    data = sheet_svg(w.sheets[index], w.icons, sheet_faces(w.svg_faces)).encode("utf-8")
    _write_new(w.scratch, target, lambda tmp: tmp.write_bytes(data))
    return len(data), mac("svgs", key, data)


def _task(task: tuple[str, Any, str, str]) -> tuple[str, Any, list[str], int, str]:
    """One chunk or SVG sheet rendered into the cache folder; with its size and keyed digest
    (made where it is written, so the file is never read back)."""
    kind, what, key, target = task
    if kind == "pdf":
        flat, size, digest_ = _render_chunk(what, Path(target))
        return kind, what, flat, size, digest_
    size, digest_ = _render_svg(what, key, Path(target))
    return kind, what, [], size, digest_


def can_fork() -> bool:
    import multiprocessing as mp

    return "fork" in mp.get_all_start_methods()


def _child_signals() -> None:
    """A worker's signals: Ctrl-C (sent to the whole terminal's group) is the parent's to
    answer, and SIGTERM (the parent's pool stopping it) ends the worker on the spot, whatever
    it is doing; the parent then removes what the worker left half-written."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def fork_map(fn: Callable[[Any], Any], tasks: Sequence[Any], jobs: int,
             done: Callable[[Any], None], ordered: bool = True) -> None:
    """``done(fn(task))`` for each task, ``fn`` run in ``jobs`` forked processes (a task and
    its result are pickled; the work they point into is the parent's, inherited by the fork),
    in the tasks' order unless ``ordered`` is false. A parent stopped mid-way (an error,
    Ctrl-C, SIGTERM) has stopped its workers when this returns or raises."""
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    with ctx.Pool(min(jobs, len(tasks)), initializer=_child_signals) as pool:
        for res in (pool.imap if ordered else pool.imap_unordered)(fn, tasks):
            done(res)


PIPE_BYTES = 2**20  # what a sharing process's pipe holds before its sends wait


def share_map(fn: Callable[[Any], Any], tasks: Sequence[Any], jobs: int,
              done: Callable[[Any], None]) -> None:
    """``done(fn(task))`` for each task, in the tasks' order, ``fn`` run in this process and
    in ``jobs - 1`` forked ones, each taking the next task none has taken yet. For work whose
    results are large (drawn faces): what this process works out is never pickled, and it
    works instead of waiting. A worker's results are read off its pipe as they come (by a
    thread, so a worker never waits on this one's work) and unpickled here between tasks.
    A worker's error is raised here; a worker that dies (a signal) is an error, never a
    hang; and this process stopped mid-way (an error, Ctrl-C, SIGTERM) has stopped its
    workers when this returns or raises. ``fn`` must leave this process's state as it was
    (whatever it computes, it returns)."""
    import multiprocessing as mp
    import pickle
    import threading
    from collections import deque
    from multiprocessing.connection import Connection, wait

    n = len(tasks)
    helpers = min(jobs, n) - 1
    if helpers < 1:
        for t in tasks:
            done(fn(t))
        return
    ctx = mp.get_context("fork")
    taken = ctx.Value("q", 0)

    def take() -> int:
        with taken.get_lock():
            i = int(taken.value)
            taken.value = i + 1
        return i

    pipes = [ctx.Pipe(duplex=False) for _ in range(helpers)]
    for _, w in pipes:
        _widen(w)

    def work(conn: Connection) -> None:  # pragma: no cover (in the forked worker)
        _child_signals()
        for _, w in pipes:
            if w is not conn:
                w.close()  # (so a worker's pipe ends when that worker does)
        try:
            while (i := take()) < n:
                conn.send((i, fn(tasks[i])))
        except BaseException as e:  # noqa: BLE001 (sent to the parent, raised there)
            try:
                conn.send((-1, e))
            except Exception:  # noqa: BLE001 (an error that does not pickle: its words)
                conn.send((-1, RuntimeError(f"{type(e).__name__}: {e}")))
        conn.close()

    sys.stdout.flush()
    sys.stderr.flush()
    procs = [ctx.Process(target=work, args=(w,), daemon=True) for _, w in pipes]
    arrived: deque[bytes | None] = deque()
    ready = threading.Event()  # (set whenever something has arrived)
    readers = [r for r, _ in pipes]
    reader: threading.Thread | None = None
    try:
        for p in procs:
            p.start()
        for _, w in pipes:
            w.close()

        def read() -> None:
            open_ = list(readers)
            while open_:
                for r in wait(open_):
                    assert isinstance(r, Connection)
                    try:
                        arrived.append(r.recv_bytes())
                    except (EOFError, OSError):
                        open_.remove(r)
                        arrived.append(None)  # (one worker's pipe ended)
                    ready.set()
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        got: dict[int, Any] = {}
        ended = 0
        nxt = 0

        def unpickle() -> None:
            nonlocal ended
            while arrived:
                data = arrived.popleft()
                if data is None:
                    ended += 1
                    continue
                i, res = pickle.loads(data)
                if i < 0:
                    raise res
                got[i] = res

        def hand_on() -> None:
            nonlocal nxt
            while nxt in got:
                done(got.pop(nxt))
                nxt += 1

        while (i := take()) < n:
            got[i] = fn(tasks[i])
            unpickle()
            hand_on()
        while nxt < n:
            ready.wait()
            ready.clear()
            unpickle()
            hand_on()
            if nxt < n and ended == helpers and not arrived:
                codes = [p.exitcode for p in procs]
                raise RuntimeError(f"a worker process stopped before its work was done "
                                   f"(exit codes {codes})")
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            if p.pid is not None:
                p.join()
        if reader is not None:
            reader.join()
        for r in readers:
            r.close()


def _widen(conn: Any) -> None:
    """A pipe that holds PIPE_BYTES (on Linux), so a worker's send of a batch of faces
    rarely waits for the reading thread to be scheduled."""
    import fcntl

    try:
        fcntl.fcntl(conn.fileno(), getattr(fcntl, "F_SETPIPE_SZ", 1031), PIPE_BYTES)
    except OSError:
        pass  # (a system whose pipes do not grow: sends wait a little more)


class Beside:
    """``with Beside(fn, fork):`` runs ``fn()`` in a forked process while the block runs here
    (when ``fork`` and this system forks; else here, after the block; ``fn`` None: nothing).
    The block's end waits for the process; one that failed (an error, a signal) has
    ``cleanup()`` and then ``fn()`` run here, so its mistake is raised in the words it always
    is. A block that raises stops the process first, and ``cleanup()`` removes what it left.
    Nothing ``fn`` returns comes back: it is run for what it writes."""

    def __init__(self, fn: Callable[[], object] | None, fork: bool,
                 cleanup: Callable[[], object] = lambda: None) -> None:
        self.fn: Callable[[], object] = fn or (lambda: None)
        self.cleanup = cleanup
        self.fork = fn is not None and fork and can_fork()
        self.pid = 0

    def __enter__(self) -> Beside:
        if self.fork:
            # (a forked process inherits the buffers: flushed first, never written twice)
            sys.stdout.flush()
            sys.stderr.flush()
            self.pid = os.fork()
            if self.pid == 0:  # pragma: no cover (the forked process: ends in os._exit)
                code = 1
                try:
                    _child_signals()
                    self.fn()
                    code = 0
                finally:
                    os._exit(code)
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        import signal

        if not self.pid:
            if kind is None:
                self.fn()
            return
        if kind is not None:
            os.kill(self.pid, signal.SIGTERM)
        status = os.waitpid(self.pid, 0)[1]
        if kind is not None:
            self.cleanup()  # (what the process stopped mid-way left)
        elif os.waitstatus_to_exitcode(status) != 0:
            self.cleanup()
            self.fn()


def _pages(task: tuple[str, Any, str, str]) -> int:
    return int(task[1].end - task[1].start) if task[0] == "pdf" else 1


def _batch(tasks: list[tuple[str, Any, str, str]]) -> list[tuple[str, Any, list[str], int, str]]:
    import gc

    out = []
    for t in tasks:
        out.append(_task(t))
        gc.collect(0)  # (as run_tasks does in one process)
    return out


def run_tasks(tasks: list[tuple[str, Any, str, str]], jobs: int,
              done: Callable[[tuple[str, Any, list[str], int, str]], None]) -> None:
    """Run the tasks, in ``jobs`` forked processes when there is more than one of each."""
    # a few pages (a rebuild's, a small game's) are rendered here: processes would cost more
    pages = sum(_pages(t) for t in tasks)
    if jobs > 1 and len(tasks) > 1 and pages >= MIN_PARALLEL and can_fork():
        # sent in batches of about a chunk's pages: a task sent alone costs the parent more
        # than an SVG sheet's rendering saves it
        batches: list[list[tuple[str, Any, str, str]]] = [[]]
        for t in tasks:
            if batches[-1] and sum(map(_pages, batches[-1])) + _pages(t) > CHUNK_PAGES:
                batches.append([])
            batches[-1].append(t)

        def each(results: list[tuple[str, Any, list[str], int, str]]) -> None:
            for res in results:
                done(res)

        fork_map(_batch, batches, jobs, each, ordered=False)
        return
    import gc

    for t in tasks:
        done(_task(t))
        # a PDF document is a web of references the build's paused collector would keep to
        # the end: collected here, the youngest objects only (those made since the last task)
        gc.collect(0)


# ---- a build's PDFs and SVGs ---------------------------------------------------------------

@dataclass
class Rendered:
    pdfs: list[Path]
    svg_names: dict[int, str]
    flattened: list[str]
    changed: dict[str, list[int]]  # PDF file name -> pages that differ from the last build
    rendered_pages: int  # pages rendered now (the rest came from the cache)
    svg_dir: Path | None = None
    keys: list[str] = field(default_factory=list)  # each sheet's content key


def chunks_of(sheets: list[Sheet], keys: list[str], base: str,
              seed: list[tuple[str, str]]) -> list[Chunk]:
    """The sheets of each PDF file in runs of CHUNK_PAGES, each with its key."""
    out: list[Chunk] = []
    start = 0
    while start < len(sheets):
        name = sheets[start].file
        end = start
        while end < len(sheets) and sheets[end].file == name and end - start < CHUNK_PAGES:
            end += 1
        out.append(Chunk(name, start, end, digest(base, seed, keys[start:end])))
        start = end
    return out


def chunk_of(sheets: list[Sheet], index: int) -> tuple[int, int]:
    """The first and past-the-last sheet index of the chunk holding sheet ``index``."""
    first = index
    while first > 0 and sheets[first - 1].file == sheets[index].file:
        first -= 1
    start = first + (index - first) // CHUNK_PAGES * CHUNK_PAGES
    end = start
    while end < len(sheets) and sheets[end].file == sheets[index].file and \
            end - start < CHUNK_PAGES:
        end += 1
    return start, end


@dataclass
class Known:
    """What a build found of each sheet of an imposition a watch keeps (``generator.build``)
    for the next build of the very same sheets: its content key and its fonts' characters,
    None for a sheet to look at again (one whose faces changed). Valid under ``base``."""

    base: str = ""
    keys: list[str | None] = field(default_factory=list)
    chars: list[dict[str, str] | None] = field(default_factory=list)

    def forget(self, i: int) -> None:
        self.keys[i] = None
        self.chars[i] = None

    def under(self, base: str, n: int) -> Known:
        """Itself, emptied unless it was found under ``base`` for ``n`` sheets."""
        if self.base != base or len(self.keys) != n or len(self.chars) != n:
            self.base, self.keys, self.chars = base, [None] * n, [None] * n
        return self


@dataclass
class _Job:
    """One render's state: what is cached, what is queued, what came back."""

    cache: Cache
    scratch: Path
    keys: list[str]
    tick: Callable[[int], None]
    tasks: list[tuple[str, Any, str, str]] = field(default_factory=list)
    queued: set[str] = field(default_factory=set)
    chunk_files: dict[str, Path] = field(default_factory=dict)
    outlines: dict[str, Any] = field(default_factory=dict)  # of the chunks rendered now
    svg_files: dict[str, Path] = field(default_factory=dict)
    flattened: list[str] = field(default_factory=list)
    rendered_pages: int = 0
    pdf_left: int = 0  # chunks queued whose file has not come back yet

    def queue_chunks(self, chunks: list[Chunk]) -> None:
        for ch in chunks:
            hit = self.cache.lookup("chunks", ch.key, ch.end - ch.start)
            if hit is not None:
                self.chunk_files[ch.key] = hit
                self.tick(ch.end - ch.start)
            elif ch.key not in self.queued:
                self.queued.add(ch.key)
                self.pdf_left += 1
                self.tasks.append(("pdf", ch, ch.key, str(self.scratch / f"chunk-{ch.key}.pdf")))

    def queue_svgs(self) -> None:
        for i, k in enumerate(self.keys):
            hit = self.cache.lookup("svgs", k)
            if hit is not None:
                self.svg_files[k] = hit
                self.tick(1)
            elif k not in self.queued:
                self.queued.add(k)
                self.tasks.append(("svg", i, k, str(self.scratch / f"sheet-{k}.svg")))

    def done(self, res: tuple[str, Any, list[str], int, str]) -> None:
        kind, what, flat, size, made = res
        cache = self.cache
        if kind == "pdf":
            path = self.scratch / f"chunk-{what.key}.pdf"
            self.chunk_files[what.key] = path
            if what.outline is not None:
                self.outlines[what.key] = what.outline
            if cache.ok:
                cache.record("chunks", what.key, size, made, what.end - what.start)
                cache.verified(path, made)
            self.rendered_pages += what.end - what.start
            self.pdf_left -= 1
            self.tick(what.end - what.start)
        else:
            key = self.keys[what]
            path = self.scratch / f"sheet-{key}.svg"
            self.svg_files[key] = path
            if cache.ok:
                cache.record("svgs", key, size, made)
                cache.verified(path, made)
            self.tick(1)
        for art in flat:
            if art not in self.flattened:
                self.flattened.append(art)


def render(sheets: list[Sheet], boxes: list[Any], folder: Path, game: Any, icons: IconSource,
           info: Any, formats: Sequence[str], svg_name: str, date: str, jobs: int,
           tick: Callable[[int], None], use_cache: bool = True,
           known: Known | None = None, rendered: Callable[[], object] | None = None
           ) -> Rendered:
    """Every PDF file (joined from chunks) and SVG sheet of a build, rendered where the cache
    does not hold them; written whole (temp + rename) into ``folder``. The PDFs are written
    as soon as their chunks are there: before the SVG sheets are rendered when the chunks
    are few (a watch's rebuild: the PDF is what the designer waits for), else while the
    processes go on with the SVG sheets. ``known``: what the last build found of these very
    sheets (``Known``), updated here. ``rendered()`` is called once every page is rendered
    and the PDFs are written, before the SVG sheets are put in place."""
    global _WORK
    from generator.build import scratch_prefix

    keys_of = Keys(base_key(game, (game.name, info.author, info.subject, info.cmyk), formats))
    if known is not None:
        known.under(keys_of.base, len(sheets))
    want_pdf = "pdf" in formats
    want_svg = "svg" in formats
    keys, chars = sheet_keys(keys_of, known, sheets, boxes, icons, want_pdf, jobs)
    cache = Cache(folder)
    if not use_cache:
        cache.index = {}
    seed = font_seed(sheets, icons, chars) if want_pdf else []
    chunks = chunks_of(sheets, keys, keys_of.base, seed) if want_pdf else []
    if cache.ok and _names_in_the_way(cache, chunks, keys if want_svg else []):
        cache.ok = False  # something not irata's holds a name it writes: not used at all
        cache.index = {}
    scratch = cache.dir if cache.ok else Path(tempfile.mkdtemp(prefix=scratch_prefix("cache"),
                                                               dir=folder))
    job = _Job(cache, scratch, keys, tick)
    job.queue_chunks(chunks)
    pdf_pages = sum(_pages(t) for t in job.tasks)
    written: list[tuple[list[Path], dict[str, list[int]], dict[str, list[str]]]] = []

    def pdfs_when_ready(res: tuple[str, Any, list[str], int, str] | None = None) -> None:
        if res is not None:
            job.done(res)
        if want_pdf and job.pdf_left == 0 and not written:
            written.append(_write_pdfs(folder, chunks, job, keys, game, info, date))

    _WORK = _Work(sheets, boxes, icons, game.name, info, seed, scratch)
    try:
        if pdf_pages < MIN_PARALLEL or jobs < 2:
            run_tasks(job.tasks, jobs, job.done)  # (the few chunks of a rebuild: here)
            pdfs_when_ready()
            job.tasks = []
            if want_svg:
                job.queue_svgs()
            run_tasks(job.tasks, jobs, job.done)
        else:
            if want_svg:
                job.queue_svgs()
            pdfs_when_ready()  # (every chunk cached)
            run_tasks(job.tasks, jobs, pdfs_when_ready)
    except BaseException:
        # a process stopped mid-way (a full disk in another) leaves its scratch file behind
        from generator.build import clear_scratch

        clear_scratch(folder)
        if not cache.ok:
            shutil.rmtree(scratch, ignore_errors=True)
        raise
    finally:
        _WORK = None
    if rendered is not None:
        rendered()
    pdfs, changed, pages = written[0] if written else ([], {}, {})
    svg_names, svg_dir, placed = _place_svgs(folder, sheets, keys, job, svg_name) if want_svg \
        else ({}, None, {})
    if not KEEP:
        WORDS.begin()  # (a single print keeps no mark's words)
    if cache.ok:
        cache.save({ch.key for ch in chunks}, set(keys) if want_svg else set(), pages, placed)
    else:
        shutil.rmtree(scratch, ignore_errors=True)
    return Rendered(pdfs, svg_names, job.flattened, changed, job.rendered_pages, svg_dir,
                    keys)


KEYS_PARALLEL = 256  # sheets to key worth starting processes for
KEYS_BATCH = 64  # sheets a process keys per task

# what the keying processes key: set by the parent before they are forked (each process
# keeps its own copy of the memos at the end, filled as it goes)
_KEYING: tuple[Keys, list[Sheet], list[Any], IconSource, bool, dict[int, dict[str, str]]] \
    | None = None


def sheet_keys(keys_of: Keys, known: Known | None, sheets: list[Sheet], boxes: list[Any],
               icons: IconSource, chars_too: bool, jobs: int
               ) -> tuple[list[str], list[dict[str, str] | None] | None]:
    """Each sheet's content key (``Keys.sheet``) and what is found of its fonts' characters
    (``sheet_chars``; None for a sheet whose characters ``font_seed`` is to find, and no list
    when nothing was found). A sheet ``known`` holds is not keyed again; the others, when
    there are at least KEYS_PARALLEL of them and ``jobs`` above 1, are keyed (and, with
    ``chars_too``, their characters found) here and in ``jobs - 1`` forked processes
    (``share_map``): the same keys, the words of a sheet being plain values."""
    global _KEYING
    n = len(sheets)
    keys: list[str | None] = list(known.keys) if known is not None else [None] * n
    # (a one-off print's sheets' characters are held only when processes found them)
    chars: list[dict[str, str] | None] | None = known.chars if known is not None else None
    todo = [i for i in range(n) if keys[i] is None]
    if jobs > 1 and len(todo) >= KEYS_PARALLEL and can_fork():
        found: list[dict[str, str] | None] = chars if chars is not None else [None] * n
        chars = found

        def done(res: list[tuple[int, str, dict[str, str] | None]]) -> None:
            for i, k, c in res:
                keys[i] = k
                if c is not None:
                    found[i] = c

        _KEYING = (keys_of, sheets, boxes, icons, chars_too, {})
        try:
            share_map(_key_batch, [todo[a:a + KEYS_BATCH] for a in range(0, len(todo),
                                                                          KEYS_BATCH)],
                      jobs, done)
        finally:
            _KEYING = None
        from generator.fonts import register_embedded

        # (finding a sheet's characters registers the fonts it sets: the processes did)
        register_embedded({font for c in found if c is not None for font in c})
    out: list[str] = []
    for i, k in enumerate(keys):
        if k is None:
            k = keys_of.sheet(sheets[i], boxes[i])
        out.append(k)
    if known is not None:
        known.keys[:] = out
    return out, chars


def _key_batch(todo: list[int]) -> list[tuple[int, str, dict[str, str] | None]]:
    """In a keying process: the key of each sheet ``todo`` names, with its characters."""
    assert _KEYING is not None
    keys_of, sheets, boxes, icons, chars_too, drawn = _KEYING
    return [(i, keys_of.sheet(sheets[i], boxes[i]),
             sheet_chars(sheets[i], icons, drawn) if chars_too else None) for i in todo]


def _names_in_the_way(cache: Cache, chunks: list[Chunk], svg_keys: list[str]) -> bool:
    """Whether a folder (not irata's) holds a name the cache writes (read in one listing)."""
    try:
        folders = {e.name for e in os.scandir(cache.dir) if e.is_dir(follow_symlinks=False)}
    except OSError:
        return False
    if not folders:
        return False
    return any(cache.path("chunks", ch.key).name in folders for ch in chunks) or \
        any(cache.path("svgs", k).name in folders for k in svg_keys)


def _write_pdfs(folder: Path, chunks: list[Chunk], job: _Job, keys: list[str], game: Any,
                info: Any, date: str) -> tuple[list[Path], dict[str, list[int]],
                                               dict[str, list[str]]]:
    """Each PDF file joined from its chunks; with the pages that differ from the last build
    (by the cache's index) and each file's pages' keys."""
    from generator.build import _atomic_write
    from generator.outdir import confine

    pdfs: list[Path] = []
    old_pages = job.cache.index.get("pages", {})
    changed: dict[str, list[int]] = {}
    pages: dict[str, list[str]] = {}
    for name in dict.fromkeys(ch.file for ch in chunks):
        path = confine(folder, name)
        mine = [(ch.key, job.chunk_files[ch.key]) for ch in chunks if ch.file == name]

        def write(tmp: Path, mine: list[tuple[str, Path]] = mine) -> None:
            join(mine, tmp, game.name, info, date, job.outlines)

        _atomic_write(path, write)
        pdfs.append(path)
        now = [k for ch in chunks if ch.file == name for k in keys[ch.start:ch.end]]
        before = old_pages.get(name, [])
        changed[name] = [i + 1 for i, k in enumerate(now) if i >= len(before) or before[i] != k]
        pages[name] = now
    return pdfs, changed, pages


def _place_svgs(folder: Path, sheets: list[Sheet], keys: list[str], job: _Job,
                svg_name: str) -> tuple[dict[int, str], Path, dict[str, list[Any]]]:
    """Each SVG sheet in ``folder/svg_name``, under its name there (left as it is where the
    last build put the same sheet and it is untouched since)."""
    from generator.outdir import confine

    svg_names: dict[int, str] = {}
    placed: dict[str, list[Any]] = {}
    (folder / svg_name).mkdir(exist_ok=True)
    svg_dir = confine(folder, svg_name)
    last = job.cache.index.get("placed", {})
    number = 0
    for i, sheet in enumerate(sheets):
        if sheet.side == "front":
            number += 1
        name = f"sheet-{number:03d}-{sheet.side}.svg"
        rel = f"{svg_name}/{name}"
        svg_names[i] = rel
        target = svg_dir / name
        # the file this build would write is there, as the last build left it: kept
        state = _plain_state(target)
        if state is None or last.get(rel) != [keys[i], *state]:
            _place(job.svg_files[keys[i]], svg_dir, name)
            state = _plain_state(target)
        if state is not None:
            placed[rel] = [keys[i], *state]
    return svg_names, svg_dir, placed


def _in_the_way(path: Path) -> bool:
    """Whether ``path`` is something a file cannot be renamed over (a folder)."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _plain_state(path: Path) -> tuple[int, int] | None:
    """A plain file's size and time (None for a link, a folder or nothing)."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns) if stat.S_ISREG(st.st_mode) else None


def _place(src: Path, folder: Path, name: str) -> None:
    """``src`` (a cached file) as ``folder/name``, put in place whole."""
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.{os.getpid()}.", suffix=".tmp", dir=folder)
    os.close(fd)
    try:
        # a second name for the cached file where the file system allows (a sheet written
        # once, not twice); a person who edits it in place changes the cache's copy too, which
        # its digest then refuses
        os.unlink(tmp)
        try:
            os.link(src, tmp, follow_symlinks=False)
        except OSError:
            shutil.copyfile(src, tmp)
        os.replace(tmp, folder / name)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


_PARTS: dict[str, Any] = {}  # chunk key -> its objects, read (generator.pdfjoin)
_BLOCKS: dict[str, Any] = {}  # chunk key -> its objects as last joined (pdfjoin.Blocks)


def join(chunks: list[tuple[str, Path]], out: Path, title: str, info: Any, date: str,
         outlines: dict[str, Any] | None = None) -> None:
    """The chunk PDFs (key, file) as one file (``generator.pdfjoin``): pages in order, each
    font and form object kept once, the build's Info and date, an ID made from the content.
    Chunks read by an earlier build of this process are not read again; a chunk whose
    ``outlines`` entry the process that rendered it made is read once, without digests."""
    from generator.pdfjoin import join_parts, read_part

    known = outlines or {}

    def part_of(key: str, path: Path) -> Any:
        part = _PARTS.get(key)
        if part is None:
            outline = known.get(key)
            part = read_part(path.read_bytes(), digests=outline is None)
            if outline is not None:
                part.digests = outline.digests
            if KEEP:
                _PARTS[key] = part
        return part

    def outline_of(key: str, path: Path) -> Any:
        hit = _PARTS.get(key)
        return (hit if hit is not None else known.get(key) or part_of(key, path)).outline()

    # a part is read when it is written, once its objects are numbered: a long deck's file
    # is never held whole (a watch keeps the parts it read for its next build)
    parts = [outline_of(key, path) for key, path in chunks]
    readers = [(lambda key=key, path=path: part_of(key, path)) for key, path in chunks]
    keep = {k for k, _ in chunks}
    for k in [k for k in _PARTS if k not in keep and len(_PARTS) > 4 * len(keep)]:
        del _PARTS[k]
    names = [k for k, _ in chunks]
    if KEEP:
        for k in [k for k in _BLOCKS if k not in keep]:
            del _BLOCKS[k]
    with out.open("wb") as f:
        join_parts(parts, readers, {
            "Title": title, "Author": info.author, "Subject": info.subject, "Creator": "irata",
            "Producer": "ReportLab PDF Library - www.reportlab.com", "Keywords": "",
            "CreationDate": date, "ModDate": date, "Trapped": "/False"}, f, names,
            _BLOCKS if KEEP else None)
    if info.cmyk:
        from generator.cmyk import make_pdfx

        make_pdfx(out, title, date)
