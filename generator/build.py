"""The print pipeline: load -> (errata) -> draw -> impose -> render PDF and SVG -> manifest.

Every stage is a plain function. Files appear whole: each is written under a temporary name in
the same folder and renamed into place, so a failed build never leaves half a PDF behind.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth

from components import Component, Game
from components.errors import DefinitionError, InputError
from components.facecheck import check_faces
from generator.draw import Faces, Options, draw_component
from generator.draw.elements import Context, FitRecord, draw_elements
from generator.drawing import PT, Drawing, Icon, Primitive, Rect, Style, Text, walk
from generator.fonts import sheet_marks
from generator.icons import BUILTIN, DEFAULT_COLOURS
from generator.layout import (
    Item,
    Settings,
    Sheet,
    best_grid,
    fits_mixed,
    footer,
    impose,
    impose_mixed,
    page_size,
    usable_area,
)
from generator.outdir import confine, move_into, remove_stale, written_before

MAX_ICON_DEPTH = 6  # icons drawing icons
MAX_SHAPES = 100_000  # shapes a whole print draws; the bundled games count under 50000
PAGE_SHAPES = 200  # what a page costs beyond its shapes, counted as shapes


@dataclass
class BuildOptions:
    settings: Settings = field(default_factory=Settings)
    formats: tuple[str, ...] = ("pdf", "svg")
    out: Path = Path("output")
    stamp_qr: bool = False
    since: str | None = None
    checklist: bool = True
    png_dpi: float = 150.0  # for the "png" format: every page rasterised from the PDF


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
    return sum(icon_weight(p.name) if isinstance(p, Icon) else 1 for p in walk(items))


def check_work(game: Game, faces: list[Faces], icon_weight: Callable[[str], int]) -> None:
    """Refuse a game whose print would draw more than MAX_SHAPES shapes in all (a face's
    shapes times its copies, a board's times the pages it is split over, and PAGE_SHAPES for
    each page the copies fill): the bound that keeps any print that ``check`` passes within
    seconds. Pages are counted as on A4 (a board's parts as about 150 x 150 mm)."""
    total = 0.0
    a4 = Settings()
    for f in faces:
        d = f.front
        pages = 1
        if f.comp.kind == "board":
            pages = -(-int(d.w) // 150) * -(-int(d.h) // 150)  # parts overlap and fit
            paper = float(pages)
        else:
            grid = best_grid(d.w, d.h, d.bleed, a4)
            paper = 1.0 / grid.count if grid and grid.count else 1.0
        shapes = sum(_shapes(x.items, icon_weight) for x in (f.front, f.back) if x is not None)
        # duplex prints a page's back, blank or not
        total += (shapes * pages + PAGE_SHAPES * paper * 2) * max(1, f.comp.count)
        if total > MAX_SHAPES:
            raise DefinitionError(
                f"printing the components up to '{f.comp.id}' would draw more than "
                f"{MAX_SHAPES} shapes (it draws {shapes} on its faces, {f.comp.count} "
                f"copies); use fewer copies or simpler faces", f.comp.file, f.comp.line)


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
             tick: Callable[[], None] | None = None) -> list[Faces]:
    """Every face of ``comps``, once the game's faces are checked (``check_faces``: an
    undefined field or a wrong word is refused at its FILE:LINE:COL, never drawn empty) and
    its icons built; then the whole print's work is bounded (``check_work``)."""
    check_faces(game, tuple(DEFAULT_COLOURS))
    weights = check_icons(game)
    out = []
    for comp in comps:
        out.append(draw_component(game, comp, opts))
        if tick:
            tick()
    check_work(game, out, lambda name: weights.get(name, 8))
    return out


def impose_all(game: Game, faces: list[Faces], settings: Settings) -> list[Sheet]:
    """Group the components by kind and size (first appearance order) and impose each group."""
    runs: dict[tuple[Any, ...], list[Item]] = {}
    titles: dict[tuple[Any, ...], list[str]] = {}
    for f in faces:
        d = f.front
        key = (f.comp.kind == "board", round(d.w, 2), round(d.h, 2), d.bleed,
               f.back is not None)
        items = runs.setdefault(key, [])
        for i in range(f.comp.count):
            items.append(Item(f.comp, i + 1, f.front, f.back))
        names = titles.setdefault(key, [])
        name = f.comp.group or f.comp.kind
        if name not in names:
            names.append(name)
    sheets: list[Sheet] = []
    pools: dict[bool, list[Item]] = {True: [], False: []}
    # two-sided runs first: one-sided sheets then sit together at the end of the PDF
    order = sorted(runs, key=lambda k: not k[4])
    for key in order:
        items = runs[key]
        full, rest = split_partial(items, settings)
        if rest:
            pools[key[4]].extend(rest)
        sheets.extend(_titled(impose(full, settings, titles[key][0])))
    # the part-filled last sheets of every size share mixed sheets, two-sided ones first
    mixed_two = _titled(impose_mixed(pools[True], settings, "Mixed"))
    mixed_one = _titled(impose_mixed(pools[False], settings, "Mixed"))
    two_sided = [s for s in sheets if _two_sided(s)]
    one_sided = [s for s in sheets if not _two_sided(s)]
    return two_sided + mixed_two + one_sided + mixed_one


def _two_sided(sheet: Sheet) -> bool:
    return any(p.comp.two_sided for p in sheet.placements)


def split_partial(items: list[Item], settings: Settings) -> tuple[list[Item], list[Item]]:
    """The copies that fill whole sheets, and the rest when so few that they are better
    packed with other sizes (less than half a page of them)."""
    if not items or items[0].comp.kind == "board" or not fits_mixed(items[0], settings):
        return items, []
    d = items[0].front
    g = best_grid(d.w, d.h, d.bleed, settings)
    if g is None:
        return items, []
    k = len(items) % g.count
    if k == 0:
        return items, []
    _, _, uw, uh = usable_area(settings, False)
    area = k * (d.w + 2 * d.bleed) * (d.h + 2 * d.bleed)
    if area >= 0.5 * uw * uh:
        return items, []
    return items[:len(items) - k], items[len(items) - k:]


def _titled(sheets: list[Sheet]) -> list[Sheet]:
    """Each sheet titled by the groups on it, in order of appearance."""
    for sheet in sheets:
        groups: list[str] = []
        for p in sheet.placements:
            name = p.comp.group or p.comp.kind
            if name not in groups:
                groups.append(name)
        if groups and not sheet.placements[0].part and sheet.side == "front":
            sheet.title = ", ".join(groups)
    # a back page carries its front's title
    for prev, sheet in zip(sheets, sheets[1:], strict=False):
        if sheet.side == "back":
            sheet.title = prev.title
    return sheets


def checklist_sheet(game: Game, settings: Settings) -> list[Sheet]:
    """The component checklist as the last sheet: every group of the rulebook's list, its
    count, and a box to tick."""
    W, H = page_size(settings.paper, False)
    m = settings.margin + 6
    sheet = Sheet(W, H, "front", "Component checklist")
    marks: list[Primitive] = [
        Text(m, m + 8, f"{game.name}: component checklist", "Helvetica-Bold", 16, "#222222"),
        Text(m, m + 14, f"Edition {game.edition}. Tick each group once it is printed, cut and "
                        "counted.", "Helvetica", 8.5, "#444444"),
    ]
    y = m + 22
    rows = game.inventory or [
        _group_row(name, count) for name, count in game.counts().items()
    ]
    line_h = min(7.0, (H - y - m - 10) / max(1, len(rows)))
    size = min(10.0, line_h / 0.35 * 0.55)
    box = Style(stroke="#222222", width=0.3)
    count_x = m + 100  # counts right-aligned here; notes after them
    for row in rows:
        marks.append(Rect(m, y + line_h * 0.15, line_h * 0.6, line_h * 0.6, box))
        marks.append(Text(m + line_h, y + line_h * 0.7, row.group, "Helvetica", size, "#222222"))
        marks.append(Text(count_x, y + line_h * 0.7, str(row.count), "Helvetica-Bold", size,
                          "#222222", "end"))
        note = "" if row.printed else "not printed: " + (row.note or "supply your own")
        if note:
            room = W - m - (count_x + 4)
            note_size = size * 0.8
            while note_size > 4 and stringWidth(note, "Helvetica-Oblique", note_size) * PT > room:
                note_size -= 0.25
            marks.append(Text(count_x + 4, y + line_h * 0.7, note, "Helvetica-Oblique",
                              note_size, "#666666"))
        marks.append(Rect(m, y + line_h, W - 2 * m, 0.01, Style(stroke="#cccccc", width=0.1)))
        y += line_h
    sheet.marks.extend(marks)
    out = [sheet]
    if settings.duplex in ("long", "short"):
        out.append(Sheet(W, H, "back", sheet.title, blank=True))
    return out


def _group_row(name: str, count: int) -> Any:
    from components.schema import InventoryGroup

    return InventoryGroup(name, count)


def number_and_footer(game: Game, sheets: list[Sheet], settings: Settings) -> None:
    fronts = sum(1 for s in sheets if s.side == "front")
    k = 0
    for i, s in enumerate(sheets):
        s.page = i + 1
        if s.side == "front":
            k += 1
        side = "front" if s.side == "front" else "back"
        blank = " (this side intentionally left blank)" if s.blank else ""
        text = (f"{game.name} · edition {game.edition} · sheet {k} of {fronts}, {side} · "
                f"{s.title}{blank} · print at 100% (actual size)")
        footer(s, text, settings)


def _atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(Path(tmp))
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def manifest_data(game: Game, sheets: list[Sheet], opts: BuildOptions,
                  svg_names: dict[int, str]) -> dict[str, Any]:
    s = opts.settings
    W, H = page_size(s.paper, False)
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
        "pdf": f"{game.key}.pdf" if "pdf" in opts.formats else None,
        "since": opts.since,
        "sheets": [],
    }
    for sheet in sheets:
        entry: dict[str, Any] = {
            "page": sheet.page,
            "side": sheet.side,
            "title": sheet.title,
            "page_mm": [round(sheet.w, 3), round(sheet.h, 3)],
            "svg": svg_names.get(sheet.page),
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
            if p.turned:
                pl["turned"] = 180
            if p.part:
                pl["part"] = p.part
                pl["board_window_mm"] = [round(v, 3) for v in (p.window or ())]
            entry["placements"].append(pl)
        out["sheets"].append(entry)
    return out


def build(game: Game, opts: BuildOptions,
          progress: Callable[[int], None] | None = None,
          total: Callable[[int], None] | None = None) -> BuildResult:
    """Build one game's printable files into ``opts.out/GAME/``."""
    from generator.backends.pdf import write_pdf
    from generator.backends.svg import sheet_svg

    settings = opts.settings
    settings.check()
    bad = [f for f in opts.formats if f not in ("pdf", "svg", "png")]
    if bad or not opts.formats:
        raise InputError(f"unknown format '{','.join(bad)}' (expected pdf, svg, png or a "
                         "comma-separated list of them)")
    comps = select(game, opts.since)
    dopts = Options(bleed=settings.bleed, stamp_qr=opts.stamp_qr)

    def tick(n: int = 1) -> None:
        if progress:
            progress(n)

    faces = draw_all(game, comps, dopts, lambda: tick())
    sheets = impose_all(game, faces, settings)
    if opts.since is not None:
        from generator.errata_sheet import notice_sheet

        sheets = notice_sheet(game, opts.since, comps, settings) + sheets
    elif opts.checklist:
        sheets.extend(checklist_sheet(game, settings))
    number_and_footer(game, sheets, settings)
    for sheet in sheets:
        sheet.marks[:] = sheet_marks(game, sheet.marks)
    if total:
        total(len(comps) + len(sheets) * len(opts.formats))
    folder = confine(opts.out, game.key)
    folder.mkdir(parents=True, exist_ok=True)
    before = written_before(folder)
    written: list[str] = []
    icons = icon_source(game)
    pdf_path: Path | None = None
    if "pdf" in opts.formats:
        pdf_path = confine(folder, f"{game.key}.pdf")
        _atomic_write(pdf_path, lambda tmp: write_pdf(sheets, tmp, icons, game.name,
                                                      lambda: tick()))
        written.append(pdf_path.name)
    png_names: dict[int, str] = {}
    if "png" in opts.formats:
        from generator.raster import check_dpi, write_sheet_pngs

        check_dpi(opts.png_dpi)
        png_names = write_sheet_pngs(sheets, folder, pdf_path, icons, game.name, opts.png_dpi,
                                     lambda: tick())
        written.extend(png_names.values())
    svg_names: dict[int, str] = {}
    svg_dir: Path | None = None
    if "svg" in opts.formats:
        svg_dir = confine(folder, "svg")
        staging = Path(tempfile.mkdtemp(prefix=".svg.", dir=folder))
        try:
            k = 0
            for sheet in sheets:
                if sheet.side == "front":
                    k += 1
                name = f"sheet-{k:03d}-{sheet.side}.svg"
                (staging / name).write_text(sheet_svg(sheet, icons), encoding="utf-8")
                os.chmod(staging / name, 0o666 & ~_umask())
                svg_names[sheet.page] = f"svg/{name}"
                tick()
            svg_dir = move_into(staging, folder, "svg")
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        written.extend(svg_names.values())
    manifest = confine(folder, "manifest.json")
    data = manifest_data(game, sheets, opts, svg_names)
    for entry in data["sheets"]:
        if entry["page"] in png_names:
            entry["png"] = png_names[entry["page"]]
    data["files"] = written
    _atomic_write(manifest, lambda tmp: tmp.write_text(
        json.dumps(data, indent=1, allow_nan=False), encoding="utf-8"))
    remove_stale(folder, before, written)
    fits = [r for f in faces for r in f.fits]
    return BuildResult(game, folder, pdf_path, svg_dir, manifest, sheets, len(comps),
                       sum(c.count for c in comps), fits)


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
