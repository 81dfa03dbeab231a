"""The print pipeline: load -> (errata) -> draw -> impose -> render PDF and SVG -> manifest.

Every stage is a plain function. Files appear whole: each is written under a temporary name in
the same folder and renamed into place, so a failed build never leaves half a PDF behind.
"""

from __future__ import annotations

import gc
import json
import math
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from json.encoder import encode_basestring_ascii as _string
from pathlib import Path
from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth

from components import Component, Game
from components.errors import DefinitionError, InputError, attempt, collecting
from components.facecheck import check_faces
from components.schema import LIMITS
from generator.draw import INKS, Faces, Options, draw_component
from generator.draw.elements import Context, FitRecord, draw_elements
from generator.drawing import PT, Drawing, FaceKey, Icon, Image, Primitive, Rect, Style, Text, walk
from generator.fonts import sheet_marks
from generator.icons import BUILTIN, DEFAULT_COLOURS
from generator.layout import Settings, Sheet, best_grid, footer, page_size, usable_area
from generator.outdir import confine, remove_stale, written_before
from generator.outdir import current_umask as _umask
from generator.pack import Panel, impose_game

MAX_ICON_DEPTH = 6  # icons drawing icons
PAGE_SHAPES = 200  # what a page costs beyond its shapes, counted as shapes


@dataclass
class BuildOptions:
    settings: Settings = field(default_factory=Settings)
    formats: tuple[str, ...] = ("pdf", "svg")
    out: Path = Path("output")
    stamp_qr: bool = False
    since: str | None = None
    checklist: bool = True
    ink: str = "full"  # "saver": light tints and outlines instead of dark full-bleed areas
    png_dpi: float = 150.0  # for the "png" format: every page rasterised from the PDF
    cmyk: bool = False  # PDFs in CMYK for press, PDF/X-1a:2003 (generator.cmyk)
    jobs: int = 1  # processes rendering sheets (the bytes are the same for any number)
    cache: bool = True  # reuse the pages OUT/GAME/irata-cache holds (generator.incremental)


@dataclass
class BuildResult:
    game: Game
    folder: Path
    pdf: Path | None
    svg_dir: Path | None
    manifest: Path
    sheets: list[Sheet]
    components: int
    copies: int
    fits: list[FitRecord]
    pdfs: list[Path] = field(default_factory=list)  # every PDF written, in print order
    flattened: list[str] = field(default_factory=list)  # art whose alpha CMYK flattened
    # each PDF's pages that differ from the last build's in the same folder, and how many
    # pages were rendered now (the rest came from the cache: generator.incremental)
    changed: dict[str, list[int]] = field(default_factory=dict)
    rendered_pages: int = 0


def icon_source(game: Game) -> Callable[[str, str | None], list[Primitive]]:
    """Icons as primitives in their 10 x 10 box, built once per (name, colour) and reused.

    An icon may draw other icons, but never itself (directly or through others) and never
    more than MAX_ICON_DEPTH deep: that is checked here, when it is first built, so that
    ``check`` refuses it before a backend would recurse for ever."""
    cache: dict[tuple[str, str | None], list[Primitive]] = {}
    dummy = Component("icon", "card", (10.0, 10.0), 1, "", [], None, {}, "game.yaml", 1)
    building: list[str] = []

    def get(name: str, colour: str | None) -> list[Primitive]:
        key = (name, colour)
        if key not in cache:
            spec = game.icons.get(name) or BUILTIN.get(name) or BUILTIN["x"]
            if name in building or len(building) >= MAX_ICON_DEPTH:
                chain = " -> ".join([*building, name])
                raise DefinitionError(f"icon '{building[0]}' uses itself or nests too deeply "
                                      f"({chain})", getattr(game.icons.get(building[0]),
                                                            "file", None) or "game.yaml",
                                      *(getattr(game.icons.get(building[0]), "mark",
                                                None) or (None, None)))
            building.append(name)
            try:
                ctx = Context(game, dummy, {}, 10.0, 10.0, 0.0, f"icon {name}")
                prims = draw_elements(ctx, spec)
                for p in walk(prims):
                    if isinstance(p, Icon):
                        get(p.name, p.color)
            finally:
                building.pop()
            if colour:
                prims = [_recolour(p, colour) for p in prims]
            cache[key] = prims
        return cache[key]

    return get


def check_icons(game: Game) -> dict[str, int]:
    """Build every icon of the game once, so a bad one is refused before anything prints.
    Returns each icon's weight: the shapes it draws, the icons inside it counted in full."""
    get = icon_source(game)
    weights: dict[str, int] = {}

    def weight(name: str) -> int:
        if name not in weights:
            weights[name] = 1  # a placeholder while it is measured (icons never loop here)
            weights[name] = max(1, _shapes(get(name, None), weight))
        return weights[name]

    for name in game.icons:
        weight(name)
    return weights


def _shapes(items: list[Primitive] | tuple[Primitive, ...],
            icon_weight: Callable[[str], int]) -> int:
    return sum(icon_weight(p.name) if isinstance(p, Icon)
               else p.weight if isinstance(p, Image) else 1 for p in walk(items))


def check_work(game: Game, faces: list[Faces], icon_weight: Callable[[str], int]) -> None:
    """Refuse a game whose print would draw more than LIMITS.shapes shapes in all (a face's
    shapes times its copies, a board's times the pages it is split over, and PAGE_SHAPES for
    each page the copies fill): the bound that keeps any print that ``check`` passes within
    seconds. Pages are counted as on A4 (a board's parts as about 150 x 150 mm)."""
    total = 0.0
    a4 = Settings()
    grids: dict[tuple[float, float, float], Any] = {}
    counted: dict[int, int] = {}  # id(Drawing) -> its shapes (a deck's backs are one drawing)
    keep = KEEP_MEMOS()

    def shapes_of(d: Drawing) -> int:
        n = counted.get(id(d))
        if n is None:
            # kept with the drawing, which never changes once drawn (a watch draws again
            # whatever the game's icons change); a drawing process counts its faces' own
            n = d._shape_count
            if n is None:
                n = _shapes(d.items, icon_weight)
                if keep:  # (a one-off print keeps the count only where a process sent it)
                    d._shape_count = n
            counted[id(d)] = n
        return n

    last = _SHARES if keep else {}
    shares: dict[tuple[int, int], tuple[Drawing, Drawing | None, str, int, float, int]] = {}
    for f in faces:
        d = f.front
        # a face's share, as the last build found it while its drawings are the very ones
        # (held here: their ids stay theirs) and its kind and count the same
        hit = last.get((id(d), id(f.back)))
        if hit is not None and hit[0] is d and hit[1] is f.back and \
                hit[2:4] == (f.comp.kind, f.comp.count):
            shares[(id(d), id(f.back))] = hit
            total += hit[4]
            if total > LIMITS.shapes:
                too_many(f.comp, hit[5])
            continue
        pages = 1
        if f.comp.kind == "board":
            pages = -(-int(d.w) // 150) * -(-int(d.h) // 150)  # parts overlap and fit
            paper = float(pages)
        else:
            size = (d.w, d.h, d.bleed)
            if size not in grids:
                grids[size] = best_grid(d.w, d.h, d.bleed, a4)
            grid = grids[size]
            paper = 1.0 / grid.count if grid and grid.count else 1.0
        shapes = sum(shapes_of(x) for x in (f.front, f.back) if x is not None)
        # duplex prints a page's back, blank or not
        share = (shapes * pages + PAGE_SHAPES * paper * 2) * max(1, f.comp.count)
        if keep:
            shares[(id(d), id(f.back))] = (d, f.back, f.comp.kind, f.comp.count, share, shapes)
        total += share
        if total > LIMITS.shapes:
            too_many(f.comp, shapes)
    if keep:
        _SHARES.clear()
        _SHARES.update(shares)


# each face's share of check_work's total by its drawings, from the last build (while KEEP)
_SHARES: dict[tuple[int, int], tuple[Drawing, Drawing | None, str, int, float, int]] = {}


def too_many(comp: Component, shapes: int) -> None:
    raise DefinitionError(
        f"printing the components up to '{comp.id}' would draw more than "
        f"{LIMITS.shapes} shapes (it draws {shapes} on its faces, {comp.count} "
        f"copies); use fewer copies or simpler faces, or allow a larger print with "
        f"irata print --max-pieces N", comp.file, comp.line)


def _recolour(p: Primitive, colour: str) -> Primitive:
    from dataclasses import replace

    st = getattr(p, "style", None)
    if st is None:
        return p

    def keep(c: str | None) -> str | None:
        return c if c in (None, "#ffffff", "#fff") else colour

    return replace(p, style=replace(st, fill=keep(st.fill), stroke=keep(st.stroke)))


def select(game: Game, since: str | None) -> list[Component]:
    """The components to print: every printed one, or only those changed after ``since``."""
    comps = [c for c in game.components if c.printed and c.count > 0]
    if since is None:
        return comps
    from components.errata import changed_since

    changed = changed_since(game, since)
    return [c for c in comps if c.id in changed]


def draw_all(game: Game, comps: list[Component], opts: Options,
             tick: Callable[[], None] | None = None, jobs: int = 1) -> list[Faces]:
    """Every face of ``comps``, once the game's faces are checked (``check_faces``: an
    undefined field or a wrong word is refused at its FILE:LINE:COL, never drawn empty) and
    its icons built; then the whole print's work is bounded (``check_work``). Faces that draw
    the same picture (a deck's backs) end up as one shared Drawing, so a long deck holds
    each distinct picture once. With ``jobs`` above 1 and at least DRAW_PARALLEL components
    to draw, they are checked and drawn in that many processes (``draw_in_processes``)."""
    from components.facecheck import known_paths
    from generator.incremental import FACES, comp_key, digest

    # a component drawn by an earlier build of this process, unchanged since (and checked
    # against the same field paths): its faces again, unchecked again
    slot, before, now = FACES.start(game, opts)
    known = known_paths(game)
    kd = digest(sorted(known))
    # (the two digests side by side: a digest more of each of 10,000 components would cost a
    # watch's rebuild a tenth of a second). A one-off print keeps no faces for a next build
    # (``FACES`` keeps them only while KEEP): it has no keys, its components' definitions are
    # not digested (0.3 s of a 10,000-card print)
    keep = KEEP_MEMOS()
    keys = {id(c): kd + comp_key(c) for c in game.components} if keep else {}
    out = []
    seen: dict[FaceKey, Drawing] = {}
    checked = dict.fromkeys(keys.values())
    drawn = draw_in_processes(game, [c for c in comps if keys.get(id(c)) not in before], opts,
                              known, jobs)
    with collecting():  # every component's mistake, raised together (components.errors)
        failed = check_faces(game, tuple(DEFAULT_COLOURS), [
            c for c in game.components if keys.get(id(c)) not in before and id(c) not in drawn],
            known)
        weights = check_icons(game)
        for n, comp in enumerate(comps):
            if comp.id in failed:
                continue
            if n % 64 == 63:
                # drawing a face leaves reference cycles (text set by nested functions) that
                # the paused collector would keep to the end of the build: the youngest
                # objects (those made since the last pass) are collected here, never the heap
                gc.collect(0)
            with attempt():
                ck = (keys.get(id(comp)) or kd + comp_key(comp)) if keep else None
                hit = before.get(ck) if ck is not None else None
                if hit is not None:
                    faces = Faces(comp, hit.front, hit.back, list(hit.fits))
                else:
                    faces = drawn.get(id(comp)) or draw_component(game, comp, opts)
                if ck is not None:
                    now[ck] = faces
                faces.front = seen.setdefault(faces.front.identity(), faces.front)
                if faces.back is not None:
                    faces.back = seen.setdefault(faces.back.identity(), faces.back)
                out.append(faces)
            if tick:
                tick()
    check_work(game, out, lambda name: weights.get(name, 8))
    for k in checked:  # checked, though not printed: known as checked next time
        now.setdefault(k, before.get(k))
    FACES.finish(slot, now)
    return out


DRAW_PARALLEL = 400  # components to draw worth starting processes for
DRAW_BATCH = 128  # components a process draws per task

# what the drawing processes draw: set by the parent before they are forked
_DRAWING: tuple[Game, list[Component], Options, set[str]] | None = None
Drawn = tuple[Drawing, Drawing | None, list[FitRecord]] | None


def draw_in_processes(game: Game, comps: list[Component], opts: Options, known: set[str],
                      jobs: int) -> dict[int, Faces]:
    """The faces of ``comps`` (by ``id``), each component checked (``check_faces``) and drawn
    in this process or one of ``jobs - 1`` forked ones (``incremental.share_map``: the faces
    drawn here are never pickled); nothing when there are too few to be worth it. A
    component that has a mistake, or fails to draw, is left out: the caller checks and draws
    it as a build in one process does, and reports it in the same words."""
    global _DRAWING
    from generator.incremental import can_fork, share_map

    if jobs < 2 or len(comps) < DRAW_PARALLEL or not can_fork():
        return {}
    out: dict[int, Faces] = {}
    seen: dict[FaceKey, Drawing] = {}
    batches = [(a, min(a + DRAW_BATCH, len(comps))) for a in range(0, len(comps), DRAW_BATCH)]

    def done(res: tuple[int, list[Drawn]]) -> None:
        for comp, got in zip(comps[res[0]:], res[1], strict=False):
            if got is not None:
                front = seen.setdefault(got[0].identity(), got[0])
                back = None if got[1] is None else seen.setdefault(got[1].identity(), got[1])
                out[id(comp)] = Faces(comp, front, back, got[2])

    _DRAWING = (game, comps, opts, known)
    try:
        share_map(_draw_batch, batches, jobs, done)
    finally:
        _DRAWING = None
    return out


def _draw_batch(bounds: tuple[int, int]) -> tuple[int, list[Drawn]]:
    """In a drawing process: the faces of the components ``bounds`` points at (None for one
    with a mistake). Equal faces of the batch are sent as one (a deck's backs)."""
    import contextvars

    from generator.incremental import content_digest, drawing_chars

    assert _DRAWING is not None
    game, comps, opts, known = _DRAWING
    colours = tuple(DEFAULT_COLOURS)
    seen: dict[FaceKey, Drawing] = {}
    try:
        weights = check_icons(game)  # (as the parent weighs them: the same icons)
    except Exception:  # noqa: BLE001 (icons that fail to draw: the parent says why)
        weights = None
    icons = icon_source(game)
    batch = comps[bounds[0]:bounds[1]]
    # the batch checked at once, then drawn, then its faces weighed and digested: each kind
    # of work in a loop of its own keeps its code and data in the processor's caches (10,000
    # cards in one process: 3.7 s, against 4.1 s for each card checked, drawn and digested
    # in turn). A batch with a mistake has each component checked on its own, as it is drawn
    sound = contextvars.Context().run(_sound, game, colours, batch, known)

    def one(comp: Component) -> Drawn:
        try:
            if not sound:
                check_faces(game, colours, [comp], known)
            f = draw_component(game, comp, opts)
        except Exception:  # noqa: BLE001 (the parent draws it again and says what is wrong)
            return None
        back = None if f.back is None else seen.setdefault(f.back.identity(), f.back)
        front = seen.setdefault(f.front.identity(), f.front)
        return front, back, f.fits

    out: list[Drawn] = []
    for n, comp in enumerate(batch):
        # (outside the parent's collecting of mistakes: a mistake here is raised, not kept)
        out.append(contextvars.Context().run(one, comp))
        if n % 64 == 63:
            gc.collect(0)
    if weights is not None:
        # each face's shapes counted here (check_work), and its content's digest and
        # characters worked out (the sheets' keys and fonts): sent with it, so the parent
        # does not walk 10,000 faces again
        known_weights = weights

        def weight(name: str) -> int:
            return known_weights.get(name, 8)

        for got in out:
            if got is not None:
                for d in (got[0], got[1]):
                    if d is not None and d._shape_count is None:
                        d._shape_count = _shapes(d.items, weight)
                        d._content_digest = content_digest(d)
                        d._font_chars = drawing_chars(d, icons)
    return bounds[0], out


def _sound(game: Game, colours: tuple[str, ...], comps: list[Component],
           known: set[str]) -> bool:
    """Whether ``comps`` are checked (``check_faces``) without a mistake."""
    try:
        check_faces(game, colours, comps, known)
    except Exception:  # noqa: BLE001 (each is checked again on its own: that one is left out)
        return False
    return True


def impose_all(game: Game, faces: list[Faces], settings: Settings,
               panels: list[Panel] | None = None, head: Panel | None = None) -> list[Sheet]:
    """Every copy onto sheets (``pack.impose_game``), each sheet titled by what it holds."""
    return _titled(impose_game(faces, settings, panels, head))


def finish_sheets(game: Game, sheets: list[Sheet], base: str, settings: Settings,
                  jobs: int) -> list[Sheet]:
    """The imposed sheets in their files (``print_files``), numbered and with their
    footers, their marks' text in fonts that have it (``fonts.sheet_marks``)."""
    sheets = print_files(sheets, base, settings)
    number_and_footer(game, sheets, settings, jobs)
    for sheet in sheets:
        sheet.marks[:] = sheet_marks(game, sheet.marks)
    return sheets


@dataclass
class Imposition:
    """A watch's last finished sheets of a game (``imposed``), with where each face's copies
    lie on them and what rendering found of each sheet (``incremental.Known``)."""

    key: str
    drawn: list[tuple[Drawing, Drawing | None]]  # each face's drawings, as placed now
    sheets: list[Sheet]
    where: list[list[tuple[int, Any]]]  # each face's placements, with their sheet's index
    known: Any  # generator.incremental.Known


_IMPOSED: dict[str, Imposition] = {}  # by game folder and name: the last of each (while KEEP)
MAX_IMPOSED = 4


def imposition_key(game: Game, faces: list[Faces], settings: Settings, opts: BuildOptions,
                   base: str, panels: list[Panel]) -> str | None:
    """What the finished sheets depend on but the faces' pictures: the game's look and
    files (``incremental.game_key``, its name and edition in the footers), the settings, the
    panels, and each component's place in the print and its faces' sizes. None when the
    faces were not drawn under a key this process keeps."""
    import marshal

    from generator.incremental import FACES, digest

    gk = FACES.key_of(game)
    if gk is None:
        return None
    sizes = marshal.dumps([
        (f.comp.id, f.comp.kind, f.comp.shape, f.comp.count, f.comp.group, f.comp.file,
         f.comp.line, f.front.w, f.front.h, f.front.bleed,
         None if f.back is None else (f.back.w, f.back.h, f.back.bleed)) for f in faces], 2)
    return digest(gk, game.name, game.edition, repr(settings), base, repr(panels), sizes)


def imposed(game: Game, faces: list[Faces], settings: Settings, opts: BuildOptions,
            base: str, panels: list[Panel]) -> tuple[list[Sheet], Any]:
    """The finished sheets (``impose_all``, ``finish_sheets``) and what rendering may reuse
    of them. A watch keeps them: when only the faces' pictures changed since its last build
    (no component added, removed, resized or counted again), the last sheets are kept with
    each placement given its component's new faces, and only the sheets whose faces changed
    are keyed again; anything else imposes anew."""
    from generator.incremental import Known

    slot = f"{game.folder}\x00{game.key}"
    key = imposition_key(game, faces, settings, opts, base, panels) if KEEP_MEMOS() else None
    last = _IMPOSED.pop(slot, None)
    if key is not None and last is not None and last.key == key:
        for j, f in enumerate(faces):
            front, back = last.drawn[j]
            changed = f.front is not front or f.back is not back
            for i, p in last.where[j]:
                p.comp = f.comp  # (an unchanged component's copy, as the load made it)
                if changed:
                    p.drawing = f.front if p.face == "front" else f.back
                    last.known.forget(i)
            last.drawn[j] = (f.front, f.back)
        _IMPOSED[slot] = last
        return last.sheets, last.known
    sheets = finish_sheets(game, impose_all(game, faces, settings, panels), base, settings,
                           opts.jobs or 1)
    if key is None:
        return sheets, None
    index = {id(f.comp): j for j, f in enumerate(faces)}
    where: list[list[tuple[int, Any]]] = [[] for _ in faces]
    for i, sheet in enumerate(sheets):
        for p in sheet.placements:
            at = index.get(id(p.comp))
            if at is None:
                return sheets, None  # (a piece of no face: never kept)
            where[at].append((i, p))
    _IMPOSED[slot] = Imposition(key, [(f.front, f.back) for f in faces], sheets, where,
                                Known())
    while len(_IMPOSED) > MAX_IMPOSED:
        _IMPOSED.pop(next(iter(_IMPOSED)))
    return sheets, _IMPOSED[slot].known


def _titled(sheets: list[Sheet]) -> list[Sheet]:
    """Each sheet titled by the groups on it, in order of appearance."""
    for sheet in sheets:
        groups: list[str] = []
        for p in sheet.placements:
            name = p.comp.group or p.comp.kind
            if p.part:
                name = f"{name} part {p.part}"
            if name not in groups:
                groups.append(name)
        if sheet.side != "front":
            continue
        if groups or sheet.panels:
            sheet.title = ", ".join(groups + sheet.panels)
    # a back page carries its front's title
    for prev, sheet in zip(sheets, sheets[1:], strict=False):
        if sheet.side == "back":
            sheet.title = prev.title
    return sheets


def checklist_panel(game: Game, settings: Settings) -> Panel:
    """The component checklist: every group of the rulebook's list, its count, and a box to
    tick, in two columns when the list is long. A panel as wide as the printable area, packed
    onto a sheet where it finds room."""
    _, _, uw, _ = usable_area(settings, False)
    w = min(uw - 2.0, 176.0)  # narrow enough for the back of a rules sheet
    marks: list[Primitive] = [
        Text(0, 7, f"{game.name}: component checklist", "Helvetica-Bold", 14, "#222222"),
        Text(0, 13, f"Edition {game.edition}. Tick each group once it is printed, cut and "
                    "counted.", "Helvetica", 8.5, "#444444"),
    ]
    top = 17.0
    rows = game.inventory or [
        _group_row(name, count) for name, count in game.counts().items()
    ]
    line_h = 5.5
    size = 8.5
    box = Style(stroke="#222222", width=0.3)
    columns = 2 if len(rows) > 14 else 1
    col_w = (w - 6.0 * (columns - 1)) / columns
    per_col = -(-len(rows) // columns)
    # counts right-aligned just past the longest name, so names keep the list's size and the
    # notes (what is not printed) keep the rest of the column
    longest = max((stringWidth(r.group, "Helvetica", size) * PT for r in rows), default=0.0)
    count_x = min(max(line_h + longest + 7.0, min(col_w * 0.45, 60.0)), col_w * 0.72)
    for i, row in enumerate(rows):
        x = (i // per_col) * (col_w + 6.0)
        y = top + (i % per_col) * line_h
        marks.append(Rect(x, y + line_h * 0.15, line_h * 0.6, line_h * 0.6, box))
        name_size = size
        while name_size > 5 and stringWidth(row.group, "Helvetica", name_size) * PT > \
                count_x - 6.5 - line_h:
            name_size -= 0.25
        marks.append(Text(x + line_h, y + line_h * 0.7, row.group, "Helvetica", name_size,
                          "#222222"))
        marks.append(Text(x + count_x, y + line_h * 0.7, str(row.count), "Helvetica-Bold",
                          size, "#222222", "end"))
        note = "" if row.printed else "not printed: " + (row.note or "supply your own")
        if note:
            room = col_w - (count_x + 3)
            lines, note_size = _note_lines(note, room, size * 0.8)
            ys = [0.7] if len(lines) == 1 else [0.45, 0.88]
            for line, dy in zip(lines, ys, strict=True):
                marks.append(Text(x + count_x + 3, y + line_h * dy, line, "Helvetica-Oblique",
                                  note_size, "#666666"))
        marks.append(Rect(x, y + line_h, col_w, 0.01, Style(stroke="#cccccc", width=0.1)))
    return Panel("Component checklist", w, top + per_col * line_h + 1.0, marks)


def _note_lines(note: str, room: float, size: float) -> tuple[list[str], float]:
    """A checklist note in ``room`` mm: one line at ``size`` down to 5.5 pt, else two lines
    down to 4.5 pt, else one line as small as it must be."""
    def width(t: str, pt: float) -> float:
        return float(stringWidth(t, "Helvetica-Oblique", pt)) * PT

    pt = size
    while pt > 5.5 and width(note, pt) > room:
        pt -= 0.25
    if width(note, pt) <= room:
        return [note], pt
    words = note.split(" ")
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    if splits:
        a, b = min(splits, key=lambda ab: max(width(ab[0], 1.0), width(ab[1], 1.0)))
        pt = 5.5
        while pt > 4.5 and max(width(a, pt), width(b, pt)) > room:
            pt -= 0.25
        if max(width(a, pt), width(b, pt)) <= room:
            return [a, b], pt
    while pt > 3.5 and width(note, pt) > room:
        pt -= 0.25
    return [note], pt


def _group_row(name: str, count: int) -> Any:
    from components.schema import InventoryGroup

    return InventoryGroup(name, count)


def print_files(sheets: list[Sheet], base: str, settings: Settings) -> list[Sheet]:
    """Which file each sheet prints from, and its page there; the sheets in print order.

    With long or short duplex, sheets with backs (a front page, its back page next) go to
    ``BASE.pdf``, printed double-sided, and one-sided sheets to ``BASE-single-sided.pdf``,
    printed one-sided: no page is left blank to keep a single file in step. With fold or
    none every page prints one-sided already, so they all stay in ``BASE.pdf``. An errata
    notice opens its file."""
    pairs: list[list[Sheet]] = []
    for sheet in sheets:
        if sheet.side == "back" and pairs:
            pairs[-1].append(sheet)
        else:
            pairs.append([sheet])
    split = settings.duplex in ("long", "short")
    duplex = [p for p in pairs if len(p) > 1 or not split]
    single = [p for p in pairs if len(p) == 1 and split]
    out: list[Sheet] = []
    for group, name in ((duplex, f"{base}.pdf"), (single, f"{base}-single-sided.pdf")):
        group.sort(key=lambda p: "Errata notice" not in p[0].panels)
        for page, sheet in enumerate((sh for p in group for sh in p), start=1):
            sheet.file, sheet.page = name, page
            out.append(sheet)
    return out


def number_and_footer(game: Game, sheets: list[Sheet], settings: Settings,
                      jobs: int = 1) -> None:
    """Each page's footer: the sheet's number within its file, its side, what it holds
    (placed in ``jobs`` processes for a long print: ``place_footers``)."""
    fronts: dict[str, int] = {}
    for s in sheets:
        if s.side == "front":
            fronts[s.file] = fronts.get(s.file, 0) + 1
    import marshal

    from generator.incremental import WORDS, digest

    WORDS.begin()  # (the marks' words this build: generator.incremental.MarkWords)
    k: dict[str, int] = {}
    placed: dict[str, list[Primitive]] = {}
    todo: list[tuple[int, str, str]] = []  # the sheets whose footer is placed now
    keep = KEEP_MEMOS()
    for i, s in enumerate(sheets):
        if not s.file:  # numbered as one file when print_files has not run
            s.page = i + 1
        if s.side == "front":
            k[s.file] = k.get(s.file, 0) + 1
        side = "front" if s.side == "front" else "back"
        blank = " (this side intentionally left blank)" if s.blank else ""
        text = (f"{game.name} · edition {game.edition} · sheet {k[s.file]} of "
                f"{fronts[s.file]}, {side} · {s.title}{blank} · print at 100% (actual size)")
        # where a footer goes depends on the page, its pieces' boxes and its marks alone: a
        # rebuild places each footer it placed before without searching again
        key = digest(s.w, s.h, marshal.dumps([p.clip for p in s.placements], 2), s.occupied,
                     WORDS.join(s.marks), text, settings.margin) if keep else ""
        hit = _FOOTERS.get(key) if keep else None
        if hit is None:
            todo.append((i, text, key))
        else:
            s.marks[:] = hit
            placed[key] = hit
    place_footers(sheets, todo, settings, jobs)
    if keep:
        for i, _, key in todo:
            placed[key] = list(sheets[i].marks)
    _FOOTERS.clear()
    _FOOTERS.update(placed)


FOOTER_PARALLEL = 96  # footers to place worth starting processes for (about 1 ms each)
FOOTER_BATCH = 64
_FOOTING: tuple[list[Sheet], Settings] | None = None  # for the footer processes


def place_footers(sheets: list[Sheet], todo: list[tuple[int, str, str]], settings: Settings,
                  jobs: int) -> None:
    """``layout.footer`` on each sheet ``todo`` names (index, text), here or, for many, here
    and in ``jobs - 1`` forked processes (``incremental.share_map``) whose batches hand on
    each sheet's marks (a mark left as it was by its place in the list, so the sheets share
    their crop marks' objects as before) and leave the sheets themselves as they were."""
    global _FOOTING
    from generator.incremental import can_fork, share_map

    if jobs < 2 or len(todo) < FOOTER_PARALLEL or not can_fork():
        for i, text, _ in todo:
            footer(sheets[i], text, settings)
        return
    work = [(i, text) for i, text, _ in todo]
    batches = [work[a:a + FOOTER_BATCH] for a in range(0, len(work), FOOTER_BATCH)]

    def done(res: list[tuple[int, list[Primitive | int]]]) -> None:
        for i, marks in res:
            old = sheets[i].marks
            sheets[i].marks[:] = [old[m] if isinstance(m, int) else m for m in marks]

    _FOOTING = (sheets, settings)
    try:
        share_map(_footer_batch, batches, jobs, done)
    finally:
        _FOOTING = None


def _footer_batch(batch: list[tuple[int, str]]) -> list[tuple[int, list[Primitive | int]]]:
    assert _FOOTING is not None
    sheets, settings = _FOOTING
    out: list[tuple[int, list[Primitive | int]]] = []
    for i, text in batch:
        sheet = sheets[i]
        marks = list(sheet.marks)
        place = {id(m): n for n, m in enumerate(marks)}
        footer(sheet, text, settings)
        out.append((i, [place.get(id(m), m) for m in sheet.marks]))
        sheet.marks[:] = marks  # (as it was: ``done`` places the footer, in any process)
    return out


_FOOTERS: dict[str, list[Primitive]] = {}  # the last build's footers by their page (above)


def KEEP_MEMOS() -> bool:  # noqa: N802 (reads as the flag it is)
    """Whether builds keep what the next build can reuse (``generator.incremental.KEEP``)."""
    from generator import incremental

    return incremental.KEEP


def release_text_memos() -> None:
    """Forget what was worked out per text while the faces were drawn (tokens, lines set,
    fitted boxes, widths, fallback fonts): a one-off print draws each text once and needs
    none of it again, and at 10,000 cards it is about 14 MiB held to the end of the build (the
    footers and the checklist measure their few words again)."""
    from generator import fonts, text
    from generator.draw import elements

    for memo in (text.text_box, text.fitted, text.tokenize, text.segments, text._width,
                 text._mixed_width, elements._lacking, fonts._missing_in_winansi):
        memo.cache_clear()


def scratch_prefix(name: str) -> str:
    """The start of a scratch file's or folder's name: hidden, and naming the process that
    writes it, so that what a killed print left behind is known as such (``clear_scratch``)."""
    return f".{name}.{os.getpid()}."


_SCRATCH = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]{1,10})\.[A-Za-z0-9_]{8}(?:\.tmp)?")


def clear_scratch(folder: Path) -> list[str]:
    """Remove what a print killed mid-way left in ``folder`` (and its sub-folders): the
    scratch files and staging folders of a process that no longer runs. A print that is still
    running keeps its own, and nothing but irata's scratch names is touched; a link is removed
    as a link, never followed. Returns the names removed."""

    removed = []
    subs = [p for p in folder.iterdir()
            if p.is_dir() and not p.is_symlink() and not _SCRATCH.fullmatch(p.name)]
    for where in [folder, *subs]:
        for p in list(where.iterdir()):
            m = _SCRATCH.fullmatch(p.name)
            if m is None or _running(int(m["pid"])):
                continue
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p, ignore_errors=True)
            else:
                p.unlink(missing_ok=True)
            removed.append(str(p.relative_to(folder)))
    return removed


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # someone else's process, or not a process id: leave it
    return True


def _atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    fd, tmp = tempfile.mkstemp(prefix=scratch_prefix(path.name), suffix=".tmp",
                               dir=path.parent)
    os.close(fd)
    try:
        write(Path(tmp))
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def manifest_data(game: Game, sheets: list[Sheet], opts: BuildOptions,
                  svg_names: dict[int, str],
                  png_names: dict[int, str] | None = None) -> dict[str, Any]:
    """What was printed where. ``files`` lists each PDF with how to print it; every sheet
    names its ``file`` and its ``page`` in that file (``svg_names`` and ``png_names`` by the
    sheet's index)."""
    out = manifest_head(game, sheets, opts)
    out["sheets"] = [manifest_entry(i, sheet, svg_names, png_names)
                     for i, sheet in enumerate(sheets)]
    return out


def manifest_head(game: Game, sheets: list[Sheet], opts: BuildOptions) -> dict[str, Any]:
    """The manifest without its sheets' records (``"sheets": []``)."""
    s = opts.settings
    W, H = page_size(s.paper, False)
    files: dict[str, dict[str, Any]] = {}
    for sheet in sheets:
        f = files.setdefault(sheet.file, {"file": sheet.file, "pages": 0, "sheets": 0,
                                          "print": "one-sided"})
        f["pages"] += 1
        if sheet.side == "front":
            f["sheets"] += 1
        else:
            f["print"] = f"double-sided, flip on the {s.duplex} edge"
    out: dict[str, Any] = {
        "game": game.key,
        "name": game.name,
        "edition": game.edition,
        "paper": s.paper,
        "page_mm": [W, H],
        "duplex": s.duplex,
        "bleed_mm": s.bleed,
        "margin_mm": s.margin,
        "back_offset_mm": list(s.back_offset),
        "ink": opts.ink,
        "pdf": sheets[0].file if sheets and "pdf" in opts.formats else None,
        "files": list(files.values()) if "pdf" in opts.formats else [],
        "since": opts.since,
        "sheets": [],
    }
    return out


def manifest_entry(i: int, sheet: Sheet, svg_names: dict[int, str],
                   png_names: dict[int, str] | None = None) -> dict[str, Any]:
    """The record of sheet ``i``: its file and page, side, title, SVG, panels, placements
    and PNG."""
    entry: dict[str, Any] = {
        "file": sheet.file,
        "page": sheet.page,
        "side": sheet.side,
        "title": sheet.title,
        "page_mm": [round(sheet.w, 3), round(sheet.h, 3)],
        "svg": svg_names.get(i),
        "panels": list(sheet.panels),  # sheet texts printed on it: checklist, notice
        "placements": [],
    }
    for p in sheet.placements:
        pl: dict[str, Any] = {
            "component": p.comp.id,
            "kind": p.comp.kind,
            "copy": p.copy,
            "face": p.face,
            "version": p.comp.version,
            "trim_mm": [round(v, 3) for v in p.trim],
            "bleed_mm": [round(v, 3) for v in p.clip],
        }
        if p.turn:
            pl["turned"] = p.turn
        if p.part:
            pl["part"] = p.part
            pl["board_window_mm"] = [round(v, 3) for v in (p.window or ())]
        entry["placements"].append(pl)
    if png_names and i in png_names:
        entry["png"] = png_names[i]
    return entry


def write_manifest(path: Path, game: Game, sheets: list[Sheet], opts: BuildOptions,
                   svg_names: dict[int, str], png_names: dict[int, str] | None = None,
                   after: dict[str, Any] | None = None,
                   keys: list[str] | None = None) -> None:
    """The manifest (``manifest_data`` and then the keys of ``after``) as ``json.dumps(...,
    indent=1, allow_nan=False)`` would write it, but one sheet at a time, so that a long
    deck's manifest is never held whole in memory."""
    import marshal  # (format 2: the same bytes in every process, as the sheet keys')

    from generator.incremental import digest

    data = manifest_head(game, sheets, opts)
    mark = "\u0000sheets\u0000"
    data["sheets"] = mark
    data.update(after or {})
    text = json.dumps(data, indent=1, allow_nan=False)
    head, tail = text.split(json.dumps(mark))
    with path.open("w", encoding="utf-8") as f:
        if not sheets:
            f.write(head + "[]" + tail)
            return
        f.write(head + "[\n")
        made: dict[str, str] = {}
        keep = KEEP_MEMOS()
        for i, sheet in enumerate(sheets):
            # a sheet's record is its content's (``keys``: generator.incremental), its
            # names' and its pieces' kinds and versions (which a face need not show: an
            # erratum may move a version and leave the picture): a rebuild writes again the
            # text it wrote before only when all of those are the same
            mk = digest(keys[i], sheet.file, sheet.page, svg_names.get(i),
                        (png_names or {}).get(i),
                        marshal.dumps([(p.comp.kind, p.comp.version)
                                       for p in sheet.placements], 2)) \
                if keys and keep else None
            entry = _ENTRIES.get(mk) if mk else None
            if entry is None:
                entry = indented(manifest_entry(i, sheet, svg_names, png_names), 2)
            if mk and keep:
                made[mk] = entry
            f.write(("" if i == 0 else ",\n") + "  " + entry)
        f.write("\n ]" + tail)
        _ENTRIES.clear()
        _ENTRIES.update(made)


_ENTRIES: dict[str, str] = {}  # the last manifest's sheet records (write_manifest)


def indented(value: Any, level: int = 0) -> str:
    """``value`` as ``json.dumps(value, indent=1, allow_nan=False)`` writes it, each line
    after the first ``level`` spaces further in, for the plain values a manifest holds
    (mappings with string keys, lists, strings, numbers, booleans, None). json's own indented
    encoder makes a reference cycle of closures on every call, which only the garbage
    collector frees, and a build keeps that off (``collector_out_of_the_way``): a 10,000-card
    manifest's records left about 6 MiB of them behind."""
    kind = type(value)
    if kind is str:
        return _string(value)
    if kind is dict:
        if not value:
            return "{}"
        inner = "\n" + " " * (level + 1)
        return "{" + inner + ("," + inner).join(
            _string(k) + ": " + (_string(v) if type(v) is str else indented(v, level + 1))
            for k, v in value.items()) + "\n" + " " * level + "}"
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        inner = "\n" + " " * (level + 1)
        return "[" + inner + ("," + inner).join([indented(v, level + 1) for v in value]) \
            + "\n" + " " * level + "]"
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if value != value or value in (math.inf, -math.inf):
            raise ValueError(f"Out of range float values are not JSON compliant: {value!r}")
        return float.__repr__(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (dict, list, tuple)):
        return indented(dict(value) if isinstance(value, dict) else list(value), level)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


EDITION_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}")


def output_names(game: Game, since: str | None) -> tuple[str, str, str]:
    """The PDF base name, the manifest's name and the SVG folder's name: an errata reprint
    gets its own (``GAME-errata-V.pdf``, ``manifest-errata-V.json``, ``svg-errata-V``), so it
    sits beside the full print and never replaces it."""
    if since is None:
        return game.key, "manifest.json", "svg"
    if not EDITION_NAME.fullmatch(since) or ".." in since:
        raise InputError(f"--since '{since}': an edition is letters, digits, '.', '-' or '_'")
    return f"{game.key}-errata-{since}", f"manifest-errata-{since}.json", f"svg-errata-{since}"


def build(game: Game, opts: BuildOptions,
          progress: Callable[[int], None] | None = None,
          total: Callable[[int], None] | None = None) -> BuildResult:
    """Build one game's printable files into ``opts.out/GAME/``."""
    with collector_out_of_the_way():
        return _build(game, opts, progress, total)


class collector_out_of_the_way:  # noqa: N801 (used as a context manager)
    """Keep Python's cyclic garbage collector out of the drawing loop.

    Everything that exists when the build starts (the loaded game, the libraries) is frozen,
    never to be rescanned, and the automatic collector is off while faces are drawn, imposed
    and rendered. What a build makes is freed by reference counting (drawings, primitives and
    pages make no reference cycles), so a collector pass would only rescan a heap that grows
    with the deck, and each card would cost more than the one before. On the way out the
    frozen objects are handed back and the collector is restored, so any cycle left over is
    collected between games as usual.
    """

    def __enter__(self) -> None:
        self.enabled = gc.isenabled()
        gc.disable()
        gc.freeze()

    def __exit__(self, *exc: object) -> None:
        gc.unfreeze()
        if self.enabled:
            gc.enable()


def _build(game: Game, opts: BuildOptions, progress: Callable[[int], None] | None,
           total: Callable[[int], None] | None) -> BuildResult:
    from generator.backends.pdf import DocInfo, PageBoxes, build_date

    settings = opts.settings
    settings.check()
    bad = [f for f in opts.formats if f not in ("pdf", "svg", "png")]
    if bad or not opts.formats:
        raise InputError(f"unknown format '{','.join(bad)}' (expected pdf, svg, png or a "
                         "comma-separated list of them)")
    comps = select(game, opts.since)
    if opts.ink not in INKS:
        raise InputError(f"unknown ink '{opts.ink}' (expected one of: {', '.join(INKS)})")
    dopts = Options(bleed=settings.bleed, stamp_qr=opts.stamp_qr, ink=opts.ink)

    def tick(n: int = 1) -> None:
        if progress:
            progress(n)

    faces = draw_all(game, comps, dopts, lambda: tick(), opts.jobs or 1)
    if not KEEP_MEMOS():
        release_text_memos()
    base, manifest_name, svg_name = output_names(game, opts.since)
    if opts.since is not None:
        from generator.errata_sheet import notice_parts

        notice, head = notice_parts(game, opts.since, comps, settings)
        sheets = notice + impose_all(game, faces, settings, head=head)
        sheets = finish_sheets(game, sheets, base, settings, opts.jobs or 1)
        known = None
    else:
        panels = [checklist_panel(game, settings)] if opts.checklist else []
        sheets, known = imposed(game, faces, settings, opts, base, panels)
    if total:
        total(len(comps) + len(sheets) * len(opts.formats))
    folder = confine(opts.out, game.key)
    folder.mkdir(parents=True, exist_ok=True)
    clear_scratch(folder)  # what a killed print left: never a half-written file
    before = _written_before(folder, manifest_name)
    icons = icon_source(game)
    from generator.incremental import render

    info = DocInfo(author=game.author, subject=f"{game.name}, edition {game.edition}: "
                   "print-and-play sheets", cmyk=opts.cmyk)
    boxes: list[PageBoxes | None] = [single_piece_boxes(sh) for sh in sheets]
    from generator.incremental import Rendered

    vector = [f for f in opts.formats if f in ("pdf", "svg")]
    # the preview record (a watch's rebuilds would leave it stale) is written beside the
    # rest once the pages are rendered: in a process of its own when the print has processes
    # and is long enough, while this one puts the SVG sheets in place and writes the manifest
    from contextlib import ExitStack

    from generator.incremental import Beside
    from generator.preview_record import write_record

    record = (lambda: write_record(folder, game, sheets, icons, settings, dopts)) \
        if opts.since is None and not KEEP_MEMOS() else None
    beside = Beside(record, (opts.jobs or 1) > 1 and len(sheets) >= RECORD_PARALLEL,
                    lambda: clear_scratch(folder))
    with ExitStack() as stack:
        def rendered() -> None:
            stack.enter_context(beside)

        done = render(sheets, boxes, folder, game, icons, info, vector, svg_name, build_date(),
                      opts.jobs or 1, tick, opts.cache, known, rendered) \
            if vector else Rendered([], {}, [], {}, 0)
        if not vector:
            rendered()
        _finish_files(folder, game, sheets, opts, done, icons, before, tick, manifest_name)
    pdfs = done.pdfs
    pdf_path = pdfs[0] if pdfs else None
    svg_dir = done.svg_dir
    flattened = done.flattened
    manifest = confine(folder, manifest_name)
    fits = [r for f in faces for r in f.fits]
    return BuildResult(game, folder, pdf_path, svg_dir, manifest, sheets, len(comps),
                       sum(c.count for c in comps), fits, pdfs, flattened, done.changed,
                       done.rendered_pages)


RECORD_PARALLEL = 48  # sheets whose preview record is worth a process of its own


def _finish_files(folder: Path, game: Game, sheets: list[Sheet], opts: BuildOptions,
                  done: Any, icons: Callable[[str, str | None], list[Primitive]],
                  before: list[str], tick: Callable[[], None], manifest_name: str) -> None:
    """A build's PNG sheets (when asked for) and manifest, written once its PDFs and SVGs
    are; then what the last build wrote and this one did not is removed."""
    written = [p.name for p in done.pdfs]
    png_names: dict[int, str] = {}
    if "png" in opts.formats:
        from generator.raster import check_dpi, write_sheet_pngs

        check_dpi(opts.png_dpi)
        whole = done.pdfs[0] if len(done.pdfs) == 1 else None  # one PDF holding every sheet
        png_names = write_sheet_pngs(sheets, folder, whole, icons, game.name, opts.png_dpi,
                                     tick)
        written.extend(png_names.values())
    written.extend(done.svg_names.values())
    manifest = confine(folder, manifest_name)
    # every file this build wrote: the next build deletes only those of them it does not write
    _atomic_write(manifest, lambda tmp: write_manifest(tmp, game, sheets, opts, done.svg_names,
                                                       png_names, {"written": written},
                                                       done.keys))
    _wrote_manifest(folder, manifest_name, written)
    remove_stale(folder, before, [*written, manifest_name])


# the manifest each folder's last build of this process wrote (while KEEP: a watch), by its
# file's state, with the files it lists: a 10,000-card manifest is not read back to learn them
_MANIFESTS: dict[str, tuple[tuple[int, int, int], list[str]]] = {}


def _manifest_state(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _written_before(folder: Path, manifest: str) -> list[str]:
    """``outdir.written_before``: what this process's last build there wrote, while its
    manifest is the very file that build left."""
    hit = _MANIFESTS.get(str(folder / manifest))
    if hit is not None and KEEP_MEMOS() and hit[0] == _manifest_state(folder / manifest):
        return list(hit[1])
    return written_before(folder, manifest)


def _wrote_manifest(folder: Path, manifest: str, written: list[str]) -> None:
    """Remember what the manifest just written lists (as ``written_before`` would read it)."""
    from generator.outdir import MAX_WRITTEN, own_names

    _MANIFESTS.pop(str(folder / manifest), None)
    state = _manifest_state(folder / manifest)
    if not KEEP_MEMOS() or state is None:
        return
    own = own_names(folder.name, manifest)
    ok = len(written) <= MAX_WRITTEN and all(own.fullmatch(f) for f in written)
    _MANIFESTS[str(folder / manifest)] = (state, list(dict.fromkeys(written)) if ok else [])


def single_piece_boxes(sheet: Sheet) -> Any:
    """A page holding one piece (a board, a rules sheet) gets that piece's TrimBox and
    BleedBox (within the page); a page of many keeps the page as both, each piece's trim
    being given by its crop marks."""
    from generator.backends.pdf import PageBoxes

    if len(sheet.placements) != 1 or sheet.blank:
        return None
    p = sheet.placements[0]
    x, y, w, h = p.trim
    cx, cy, cw, ch = p.clip
    bx0, by0 = max(0.0, min(x, cx)), max(0.0, min(y, cy))
    bx1, by1 = min(sheet.w, max(x + w, cx + cw)), min(sheet.h, max(y + h, cy + ch))
    tx0, ty0 = max(bx0, x), max(by0, y)
    tx1, ty1 = min(bx1, x + w), min(by1, y + h)
    if tx1 <= tx0 or ty1 <= ty0:
        return None
    return PageBoxes(bleed=(bx0, by0, bx1 - bx0, by1 - by0), trim=(tx0, ty0, tx1 - tx0, ty1 - ty0))


def fit_report(fits: list[FitRecord]) -> tuple[list[str], list[str]]:
    """Lines naming every text that shrank, and every text that still does not fit."""
    shrunk, overflow = [], []
    seen: set[tuple[str, str, str]] = set()
    for r in fits:
        if r.note:
            continue  # images: see image_report
        key = (r.component, r.face, r.field)
        if key in seen:
            continue
        seen.add(key)
        where = f"{r.file}:{r.line}: {r.component} ({r.face}, {r.field})"
        if r.fits:
            shrunk.append(f"{where}: shrank from {r.wanted:g} pt to {r.size:g} pt")
        else:
            overflow.append(f"{where}: does not fit even at {r.size:g} pt")
    return shrunk, overflow


def image_report(fits: list[FitRecord]) -> list[str]:
    """Lines naming every raster image that prints below the resolution a print needs."""
    out: list[str] = []
    seen: set[tuple[str, str]] = set()
    for r in fits:
        if r.note != "dpi" or (r.component, r.field) in seen:
            continue
        seen.add((r.component, r.field))
        out.append(f"{r.file}:{r.line}: {r.component} ({r.face}, {r.field}) prints at "
                   f"{r.size:g} dpi (at least {r.wanted:g} for a sharp print: a larger image, "
                   "or a smaller box)")
    return out


def render_drawing_items(d: Drawing) -> list[Primitive]:
    """A drawing's primitives (for tests that inspect what a face draws)."""
    return list(d.items)


def backs_report(sheets: list[Sheet], duplex: str) -> list[str]:
    """Lines naming every two-sided component whose back no sheet holds: with ``fold``, a
    piece larger than the printable page prints its front in parts on whole pages and no
    back (long and short print its back in parts behind them)."""
    if duplex == "none":
        return []
    fronts: dict[str, Component] = {}
    backed: set[str] = set()
    for sheet in sheets:
        for p in sheet.placements:
            if p.face == "back":
                backed.add(p.comp.id)
            elif p.part and p.comp.two_sided and p.comp.kind not in ("standee", "die"):
                fronts[p.comp.id] = p.comp
    return [f"{c.file}:{c.line}: {cid} ({c.size[0]:g} x {c.size[1]:g} mm) is larger than "
            "the printable page: its front prints in parts, its back is not printed"
            for cid, c in fronts.items() if cid not in backed]
