"""Text boxes: wrap to a width, shrink until the block fits, inline icons on the baseline.

Measurement uses the standard PDF fonts' own metrics (reportlab's ``stringWidth``), so what
fits in the PDF fits in the SVG, which names the same fonts. ``**bold**`` switches to the bold
font; ``{name}`` places the icon ``name`` at the text's size, sat on the baseline, and
``{name*N}`` places it N times (``{pip-food*${production.food}}``); a newline starts a new
paragraph.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from reportlab.pdfbase.pdfmetrics import stringWidth
from uniseg.linebreak import LineBreak, line_break, line_break_breakables

from generator.drawing import PT, Icon, Primitive, Text

ASCENT = 0.78  # of the font size: first baseline below the box's top
DESCENT = 0.22
ICON_EM = 0.95  # an inline icon's side, in ems
STEP = 0.25  # points: the shrink step

TOKEN_RE = re.compile(r"\*\*|\{[A-Za-z0-9_\-]+(?:\*\d+)?\}|\n|[^\S\n]+|[^\s*{]+|[*{]")
MAX_REPEAT = 50  # ``{pip*N}``: at most this many copies of one icon


@dataclass(frozen=True)
class Piece:
    kind: str  # word | space | icon | br
    text: str
    bold: bool


@dataclass(frozen=True)
class Fit:
    """The outcome of fitting one text box."""

    size: float  # the size used, in points
    wanted: float  # the size asked for
    fits: bool
    lines: int


@lru_cache(maxsize=4096)
def tokenize(text: str, icons: frozenset[str]) -> tuple[Piece, ...]:
    out: list[Piece] = []
    bold = False
    for tok in TOKEN_RE.findall(text):
        if tok == "**":
            bold = not bold
        elif tok == "\n":
            out.append(Piece("br", "", bold))
        elif tok.isspace():
            out.append(Piece("space", " ", bold))
        elif tok.startswith("{") and tok.endswith("}") and tok[1:-1] in icons:
            out.append(Piece("icon", tok[1:-1], bold))
        elif tok.startswith("{") and "*" in tok and tok[1:-1].split("*")[0] in icons \
                and int(tok[1:-1].split("*")[1]) <= MAX_REPEAT:
            # ``{pip*3}``: the icon as many times as the number says (a count from a field)
            name, times = tok[1:-1].split("*")
            out.extend(Piece("icon", name, bold) for _ in range(int(times)))
        else:
            out.append(Piece("word", tok, bold))
    return _cjk_breaks(out)


# Chinese and Japanese set no spaces: a line may break between characters, except where
# Japanese and Chinese typesetting (kinsoku shori) forbids it. Where a run of text holds such
# characters, the Unicode line breaking algorithm (UAX #14, from ``uniseg``) finds the breaks:
# none before closing brackets, quotes and CJK punctuation, small kana, the prolonged sound
# mark or iteration marks, none after an opening bracket, none inside a Latin word or a number,
# one allowed between a CJK character and a Latin word. Korean sets spaces between words, so
# Hangul breaks at spaces only (as CSS ``word-break: keep-all``). A run with none of these
# characters (Latin, Greek, Cyrillic, Korean) breaks at spaces only, as it always has.
_CJK = re.compile(r"[\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3190-\u31ff"
                  r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff01-\uff60"
                  r"\uff66-\uff9f\U00020000-\U0003134f]")
_HANGUL = frozenset({LineBreak.H2, LineBreak.H3, LineBreak.JL, LineBreak.JV, LineBreak.JT})


def _breaks(text: str) -> list[int]:
    """Where a line may break inside ``text`` (a run with no spaces), as offsets."""
    classes = [line_break(ch) for ch in text]
    return [i for i, ok in enumerate(line_break_breakables(text)) if ok and i
            and classes[i - 1] not in _HANGUL and classes[i] not in _HANGUL]


def _cjk_breaks(pieces: list[Piece]) -> tuple[Piece, ...]:
    """``pieces`` with a break of no width wherever a line may break inside a run of glued
    words (a bold switch does not part a run) that holds Chinese or Japanese."""
    out: list[Piece] = []
    i = 0
    while i < len(pieces):
        if pieces[i].kind != "word":
            out.append(pieces[i])
            i += 1
            continue
        j = i
        while j < len(pieces) and pieces[j].kind == "word":
            j += 1
        run = pieces[i:j]
        text = "".join(p.text for p in run)
        cuts = set(_breaks(text)) if _CJK.search(text) else set()
        at = 0
        for p in run:
            start = at
            at += len(p.text)
            if start in cuts and out and out[-1].kind == "word":
                out.append(Piece("space", "", p.bold))
            edges = [start] + sorted(c for c in cuts if start < c < at) + [at]
            for k, (a, b) in enumerate(zip(edges, edges[1:], strict=False)):
                if k:
                    out.append(Piece("space", "", p.bold))  # a break of no width
                out.append(Piece("word", text[a:b], p.bold))
        i = j
    return tuple(out)


@lru_cache(maxsize=16384)
def _width(text: str, font: str, size: float) -> float:
    return stringWidth(text, font, size) * PT


def piece_width(p: Piece, fonts: tuple[str, str], size: float) -> float:
    if p.kind == "icon":
        return size * ICON_EM * PT
    font = fonts[1] if p.bold else fonts[0]
    return _width(p.text, font, size)


Line = list[Piece]


def wrap(pieces: tuple[Piece, ...], fonts: tuple[str, str], size: float,
         width: float) -> tuple[list[Line], bool]:
    """Greedy wrap into lines no wider than ``width``; False if a single word is too wide.

    Lines break only at spaces (in Chinese and Japanese, also at the breaks of no width that
    ``tokenize`` puts between characters): a word and what is glued to it (punctuation, a bold
    run, an icon) move to the next line together.
    """
    lines: list[Line] = [[]]
    cur_w = 0.0
    ok = True
    for p in pieces:
        if p.kind == "br":
            lines.append([])
            cur_w = 0.0
            continue
        line = lines[-1]
        if p.kind == "space":
            if line and line[-1].kind != "space":
                line.append(p)
                cur_w += piece_width(p, fonts, size)
            continue
        w = piece_width(p, fonts, size)
        if line and cur_w + w > width + 1e-6:
            # the glued group this piece belongs to starts after the line's last space
            cut = max((i for i, q in enumerate(line) if q.kind == "space"), default=-1)
            if cut >= 0:
                group = line[cut + 1:]
                del line[cut:]
                lines.append(group)
                line = lines[-1]
                cur_w = sum(piece_width(q, fonts, size) for q in group)
        line.append(p)
        cur_w += w
        if cur_w > width + 1e-6:
            ok = False
    for line in lines:
        while line and line[-1].kind == "space":
            line.pop()
    return lines, ok


def line_width(line: Sequence[Piece], fonts: tuple[str, str], size: float) -> float:
    return sum(piece_width(p, fonts, size) for p in line)


def block_height(n_lines: int, size: float, leading: float) -> float:
    if n_lines == 0:
        return 0.0
    return ((n_lines - 1) * leading + ASCENT + DESCENT) * size * PT


def fit(text: str, fonts: tuple[str, str], icons: frozenset[str], w: float, h: float,
        size: float, min_size: float, leading: float) -> tuple[float, list[Line], Fit]:
    """Find the largest size (in STEP points, from ``size`` down to ``min_size``) that fits.

    The same text in the same box and style is fitted once (``fitted`` keeps the outcome); the
    caller gets its own lists, so the cached lines cannot be changed through them.
    """
    s, lines, result = fitted(text, fonts, icons, w, h, size, min_size, leading)
    return s, [list(line) for line in lines], result


@lru_cache(maxsize=2048)
def fitted(text: str, fonts: tuple[str, str], icons: frozenset[str], w: float, h: float,
           size: float, min_size: float, leading: float
           ) -> tuple[float, tuple[tuple[Piece, ...], ...], Fit]:
    """``fit``'s outcome, cached (lines as tuples: shared between callers, never changed)."""
    s, lines, result = _fit(text, fonts, icons, w, h, size, min_size, leading)
    return s, tuple(tuple(line) for line in lines), result


def _fit(text: str, fonts: tuple[str, str], icons: frozenset[str], w: float, h: float,
         size: float, min_size: float, leading: float) -> tuple[float, list[Line], Fit]:
    pieces = tokenize(text, icons)

    def attempt(s: float) -> tuple[list[Line], bool]:
        lines, ok = wrap(pieces, fonts, s, w)
        return lines, ok and block_height(len(lines), s, leading) <= h + 1e-6

    # from the size asked for down, a quarter point at a time: the first that fits (wrapping
    # is not monotonic in the size, so no bisection)
    steps = int(round((size - min_size) / STEP))
    for k in range(steps + 1):
        s = size - k * STEP
        lines, ok = attempt(s)
        if ok:
            return s, lines, Fit(s, size, True, len(lines))
    s = min(size, min_size)
    lines, _ = wrap(pieces, fonts, s, w)
    return s, lines, Fit(s, size, False, len(lines))


def render_lines(lines: Sequence[Sequence[Piece]], fonts: tuple[str, str], size: float,
                 x: float, y: float, w: float, h: float, align: str, valign: str, leading: float,
                 color: str) -> list[Primitive]:
    """Glyph runs and icons for laid-out lines in the box (x, y, w, h)."""
    out: list[Primitive] = []
    total = block_height(len(lines), size, leading)
    if valign == "middle":
        top = y + (h - total) / 2
    elif valign == "bottom":
        top = y + h - total
    else:
        top = y
    for i, line in enumerate(lines):
        baseline = top + (ASCENT + i * leading) * size * PT
        lw = line_width(line, fonts, size)
        if align == "center":
            cx = x + (w - lw) / 2
        elif align == "right":
            cx = x + w - lw
        else:
            cx = x
        run = ""
        run_bold = False
        run_x = cx
        for p in line:
            if p.kind == "icon":
                if run:
                    out.append(Text(run_x, baseline, run, fonts[1] if run_bold else fonts[0],
                                    size, color))
                    run = ""
                side = size * ICON_EM * PT
                out.append(Icon(p.text, cx, baseline - side * 0.86, side, None))
                cx += side
                run_x = cx
                continue
            if run and p.bold != run_bold:
                out.append(Text(run_x, baseline, run, fonts[1] if run_bold else fonts[0], size,
                                color))
                run = ""
                run_x = cx
            if not run:
                run_bold = p.bold
                run_x = cx
            run += p.text
            cx += piece_width(p, fonts, size)
        if run:
            out.append(Text(run_x, baseline, run, fonts[1] if run_bold else fonts[0], size,
                            color))
    return out


@lru_cache(maxsize=2048)
def text_box(text: str, fonts: tuple[str, str], icons: frozenset[str], w: float, h: float,
             size: float, min_size: float, leading: float, align: str, valign: str,
             color: str) -> tuple[tuple[Primitive, ...], Fit]:
    """A whole text box, fitted and laid out in its own (0, 0, w, h): the glyph runs and the
    fit's outcome. The same string in the same box and style is laid out once per build (a
    deck repeats its rules text on many cards); the primitives are immutable, so sharing them
    is safe."""
    used, lines, result = fitted(text, fonts, icons, w, h, size, min_size, leading)
    prims = render_lines(lines, fonts, used, 0, 0, w, h, align, valign, leading, color)
    return tuple(prims), result
