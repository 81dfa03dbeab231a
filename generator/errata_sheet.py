"""The errata notice sheet that opens ``irata print GAME --since EDITION``.

It says which editions the reprint spans, each erratum's id, edition, date and summary, and
lists every component reprinted on the sheets that follow (id, title, group, copies, version),
each with a box to tick once the old copies are replaced. It runs over as many pages as it needs;
its last page's text opens the first sheet of reprinted components where they fit beside it.
"""

from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import stringWidth

from components import Component, Game
from components.errata import Erratum, errata_between, known_edition
from generator.drawing import Group, Primitive, Rect, Style, Text
from generator.icons import BUILTIN
from generator.layout import Settings, Sheet, page_size
from generator.pack import Panel
from generator.text import fit, render_lines

INK = "#222222"
GREY = "#555555"
RULE = Style(stroke="#cccccc", width=0.1)
BOX = Style(stroke=INK, width=0.3)
PT = 25.4 / 72
FOOTER_ROOM = 14.0  # mm kept free at the bottom for the footer and its ruler


class _Pages:
    """Sheets filled top to bottom; a new one starts when the next block does not fit."""

    def __init__(self, game: Game, settings: Settings, title: str) -> None:
        self.W, self.H = page_size(settings.paper, False)
        self.m = settings.margin + 6
        self.title = title
        self.game = game
        self.sheets: list[Sheet] = []
        self.y = 0.0
        self.new()

    @property
    def bottom(self) -> float:
        return self.H - self.m - FOOTER_ROOM

    @property
    def width(self) -> float:
        return self.W - 2 * self.m

    def new(self) -> None:
        sheet = Sheet(self.W, self.H, "front", self.title)
        more = " (continued)" if self.sheets else ""
        sheet.marks.append(Text(self.m, self.m + 8, f"{self.game.name}: errata notice{more}",
                                "Helvetica-Bold", 16, INK))
        self.sheets.append(sheet)
        self.y = self.m + 14

    def room(self, h: float) -> None:
        if self.y + h > self.bottom and self.y > self.m + 14:
            self.new()

    def add(self, *items: Primitive) -> None:
        self.sheets[-1].marks.extend(items)


def _icons(game: Game) -> frozenset[str]:
    return frozenset(BUILTIN) | frozenset(game.icons)


def _paragraph(pages: _Pages, text: str, x: float, w: float, size: float, font: str,
               bold: str, color: str) -> None:
    """A wrapped paragraph (``**bold**`` and ``{icon}`` as on the components) at pages.y."""
    fonts = (font, bold)
    _, lines, _ = fit(text, fonts, _icons(pages.game), w, 1e6, size, size, 1.25)
    line_h = size * 1.25 * PT
    h = len(lines) * line_h
    pages.room(h)
    pages.add(*render_lines(lines, fonts, size, x, pages.y, w, h + 1, "left", "top", 1.25,
                            color))
    pages.y += h


def _erratum(pages: _Pages, e: Erratum) -> None:
    pages.room(12)
    head = f"{e.id} · edition {e.version}" + (f" · {e.date}" if e.date else "")
    pages.add(Text(pages.m, pages.y + 4, head, "Helvetica-Bold", 10, INK))
    pages.y += 6
    _paragraph(pages, e.summary, pages.m + 4, pages.width - 4, 9.5, "Helvetica",
               "Helvetica-Bold", INK)
    if e.note:
        _paragraph(pages, e.note, pages.m + 4, pages.width - 4, 8, "Helvetica-Oblique",
                   "Helvetica-BoldOblique", GREY)
    changes = e.components + [f"rule data '{c.data}'" for c in e.changes if c.data]
    _paragraph(pages, "Changes: " + (", ".join(changes) if changes else
                                     "no component (the printed components already follow "
                                     "this reading)"),
               pages.m + 4, pages.width - 4, 8, "Helvetica", "Helvetica-Bold", GREY)
    pages.y += 3


def _label(comp: Component) -> str:
    for key in ("title", "name"):
        value = comp.fields.get(key)
        if isinstance(value, str) and value and "$" not in value:
            return value.replace("**", "")
    return ""


def notice_sheet(game: Game, since: str, comps: list[Component],
                 settings: Settings) -> list[Sheet]:
    """The notice for a reprint of ``comps`` (the components changed after edition ``since``)."""
    pages = _notice(game, since, comps, settings)
    for sheet in pages.sheets:
        sheet.panels.append("Errata notice")
    return pages.sheets


def _notice(game: Game, since: str, comps: list[Component], settings: Settings) -> _Pages:
    since = known_edition(game, since)
    pages = _Pages(game, settings, "Errata notice")
    errata = errata_between(game, since, game.edition)
    copies = sum(c.count for c in comps)
    intro = (f"This reprint takes **edition {since}** to **edition {game.edition}**. "
             f"The sheets that follow hold the **{len(comps)} component(s)** "
             f"({copies} piece(s)) changed since edition {since}: replace your old copies "
             "with them and tick each one off. Every component shows its version at its "
             "bottom edge.")
    if not comps:
        intro = (f"No printed component changed between edition {since} and edition "
                 f"{game.edition}: there is nothing to replace.")
    _paragraph(pages, intro, pages.m, pages.width, 9.5, "Helvetica", "Helvetica-Bold", GREY)
    pages.y += 4
    pages.room(10)
    pages.add(Text(pages.m, pages.y + 5, "ERRATA", "Helvetica-Bold", 11, INK))
    pages.y += 9
    for e in errata:
        _erratum(pages, e)
    if comps:
        _components(pages, comps)
    return pages


def notice_parts(game: Game, since: str, comps: list[Component],
                 settings: Settings) -> tuple[list[Sheet], Panel]:
    """The notice as whole sheets for all but its last page, and that last page's text as a
    panel that opens the first packed sheet, so the reprinted components share its paper."""
    pages = _notice(game, since, comps, settings)
    sheets = pages.sheets
    for sheet in sheets:
        sheet.panels.append("Errata notice")
    last = sheets.pop()
    m = settings.margin
    used = pages.y - m + 2.0
    W = last.w
    panel = Panel("Errata notice", W - 2 * m, used,
                  [Group(tuple(last.marks), dx=-m, dy=-m)])
    return sheets, panel


def _components(pages: _Pages, comps: list[Component]) -> None:
    m, W = pages.m, pages.W
    line_h = 6.0

    def header() -> None:
        pages.add(Text(m, pages.y + 5, "COMPONENTS TO REPLACE", "Helvetica-Bold", 11, INK),
                  Text(W - m - 22, pages.y + 5, "copies", "Helvetica-Bold", 8, GREY, "end"),
                  Text(W - m, pages.y + 5, "version", "Helvetica-Bold", 8, GREY, "end"))
        pages.y += 8

    pages.room(8 + line_h * 2)
    header()
    for comp in comps:
        if pages.y + line_h > pages.bottom:
            pages.new()
            header()
        y = pages.y
        size = 8.5
        while size > 5 and stringWidth(comp.id, "Helvetica-Bold", size) * PT > 72:
            size -= 0.25
        pages.add(Rect(m, y + 1.2, 3.6, 3.6, BOX),
                  Text(m + 6, y + 4.4, comp.id, "Helvetica-Bold", size, INK))
        label = _label(comp)
        what = f"{label} · {comp.group or comp.kind}" if label else (comp.group or comp.kind)
        pages.add(Text(m + 80, y + 4.4, _clip(what, 60), "Helvetica", 8, GREY),
                  Text(W - m - 22, y + 4.4, str(comp.count), "Helvetica", 8.5, INK, "end"),
                  Text(W - m, y + 4.4, f"v{comp.version}", "Helvetica", 8.5, INK, "end"),
                  Rect(m, y + line_h, W - 2 * m, 0.01, RULE))
        pages.y += line_h


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"
