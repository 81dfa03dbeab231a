"""Text boxes: wrap to a width, shrink until the block fits, inline icons on the baseline.

- **Markup** (FORMAT.md): ``**bold**``, ``*italic*`` or ``_italic_``, spans
  ``[words]{color=NAME size=150% font=STYLE bold italic}``, ``{name}`` places the icon
  ``name`` at the text's size, sat on the baseline, and ``{name*N}`` places it N times
  (``{pip-food*${production.food}}``); a backslash prints the next markup character as it is
  (``\\*``, ``\\_``, ``\\[``, ``\\{``, ``\\\\``); a newline starts a new paragraph. A
  game's ``keywords:`` style every occurrence of a word (every "Food" bold and green).
- **Fonts.** A text is set in a chain of fonts (``font: [body, arabic, cjk, emoji]``): each
  character takes the first font of the chain that has it (``Setting``).
- **Measurement.** Text in one glyph per character (Latin, Greek, Cyrillic, CJK) is measured
  with its font's own metrics (reportlab's ``stringWidth``) and placed as runs of characters,
  as the PDF sets them and the SVG names them; text that needs shaping (Arabic, Hebrew,
  Indic scripts, Thai, marks, colour emoji) is shaped by HarfBuzz and placed as glyphs
  (``generator.shaping``), measured with the shaped advances. Both are cached, so a word is
  measured once per font and size.
- **Direction.** Each paragraph's embedding levels come from the Unicode bidirectional
  algorithm; after wrapping, each line is put in visual order, so Hebrew and Arabic run right
  to left beside left-to-right words and numbers. ``align: start``/``end`` follow the
  paragraph's direction.
- **Hyphenation** (``hyphenate: en`` in game.yaml, off by default): long words may break
  at the places ``pyphen``'s dictionary for that language allows, with a hyphen.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from reportlab.pdfbase.pdfmetrics import stringWidth
from uniseg.linebreak import LineBreak, line_break, line_break_breakables

from generator import fonts as fontreg
from generator import shaping
from generator.drawing import PT, Icon, Primitive, Text, one_float

ASCENT = 0.78  # of the font size: first baseline below the box's top
DESCENT = 0.22
ICON_EM = 0.95  # an inline icon's side, in ems
STEP = 0.25  # points: the shrink step

MAX_REPEAT = 50  # ``{pip*N}``: at most this many copies of one icon
ESCAPABLE = frozenset("\\*_[]{}")
_ICON_TOKEN = re.compile(r"\{([A-Za-z0-9_\-]+)(?:\*(\d+))?\}")
# ``[words]{attributes}``: the words up to the first unescaped ``]``
_SPAN = re.compile(r"\[((?:\\.|[^\]\\])*)\]\{([^{}\n]{1,200})\}")
_HEX = re.compile(r"#(?:[0-9A-Fa-f]{3}){1,2}")
_SPECIAL = re.compile(r"[\\*_{\[]")
MIN_HYPHEN_WORD = 6  # letters: shorter words are never hyphenated
MAX_SCALE = 4.0  # a span's size: at most 400% of the text's


@dataclass(frozen=True, slots=True)
class Piece:
    kind: str  # word | space | icon | br | shy (a place a word may break with a hyphen)
    text: str
    bold: bool
    italic: bool = False
    color: str | None = None  # a span's colour ('#rrggbb'), else the box's
    scale: float = 1.0  # a span's size, of the text's
    font: str | None = None  # a span's named font style
    levels: tuple[int, ...] = ()  # bidi embedding level of each character (empty: all 0)
    rtl: bool = False  # the paragraph runs right to left


@dataclass(frozen=True)
class Fit:
    """The outcome of fitting one text box."""

    size: float  # the size used, in points
    wanted: float  # the size asked for
    fits: bool
    lines: int


@dataclass(frozen=True, eq=False)
class Setting:
    """How a game's text is set: each style's font chain (its font, then fallbacks), the
    named styles a span may ask for, colours by name, keywords and hyphenation. Compared by
    identity (``setting`` makes one per distinct value), so caches keyed by it stay cheap."""

    regular: tuple[str, ...]
    bold: tuple[str, ...]
    italic: tuple[str, ...]
    bold_italic: tuple[str, ...]
    named: tuple[tuple[str, tuple[str, ...]], ...] = ()
    colours: tuple[tuple[str, str], ...] = ()
    keywords: tuple[tuple[str, SpanStyle], ...] = ()
    hyphenate: str = ""

    def __getitem__(self, i: int) -> str:
        """``fonts[0]``, ``fonts[1]``: the regular and bold font, as a pair of fonts was."""
        return (self.regular[0], self.bold[0])[i]


@dataclass(frozen=True)
class SpanStyle:
    bold: bool | None = None
    italic: bool | None = None
    color: str | None = None
    scale: float | None = None
    font: str | None = None


_SETTINGS: dict[tuple[object, ...], Setting] = {}


def setting(regular: tuple[str, ...], bold: tuple[str, ...], italic: tuple[str, ...] = (),
            bold_italic: tuple[str, ...] = (),
            named: tuple[tuple[str, tuple[str, ...]], ...] = (),
            colours: tuple[tuple[str, str], ...] = (),
            keywords: tuple[tuple[str, SpanStyle], ...] = (), hyphenate: str = "") -> Setting:
    """The one ``Setting`` of these values."""
    key = (regular, bold, italic or regular, bold_italic or bold, named, colours, keywords,
           hyphenate)
    hit = _SETTINGS.get(key)
    if hit is None:
        if len(_SETTINGS) > 4096:  # a long watch session: start again
            _SETTINGS.clear()
        hit = _SETTINGS[key] = Setting(regular, bold, italic or regular, bold_italic or bold,
                                       named, colours, keywords, hyphenate)
    return hit


Fonts = Setting | tuple[str, str]


def as_setting(fonts: Fonts) -> Setting:
    if isinstance(fonts, Setting):
        return fonts
    return setting((fonts[0],), (fonts[1],))


def parse_span(attrs: str, colours: dict[str, str] | None = None,
               named: Sequence[str] | None = None) -> SpanStyle | str:
    """A span's ``{...}`` (``color=green size=120% bold``) as a style, or what is wrong."""
    out: dict[str, object] = {}
    for word in attrs.split():
        key, eq, value = word.partition("=")
        if not eq:
            if key in ("bold", "italic"):
                out[key] = True
                continue
            return f"'{word[:30]}' is not a span's style (bold, italic, color=, size=, font=)"
        if key in ("color", "colour"):
            if not (_HEX.fullmatch(value) or colours is None or value in colours):
                return f"unknown colour '{value[:30]}' in a span"
            out["color"] = value
        elif key == "size":
            m = re.fullmatch(r"(\d{1,3}(?:\.\d+)?)%", value)
            if not m or not 10 <= float(m.group(1)) <= MAX_SCALE * 100:
                return (f"a span's size must be a percentage of the text's, 10% to "
                        f"{MAX_SCALE * 100:g}% (size=150%), not '{value[:30]}'")
            out["scale"] = float(m.group(1)) / 100
        elif key == "font":
            if named is not None and value not in named:
                return (f"unknown font '{value[:30]}' in a span (expected one of "
                        f"{', '.join(named)})")
            out["font"] = value
        else:
            return f"'{key[:30]}' is not a span's style (bold, italic, color=, size=, font=)"
    if not out:
        return "a span needs a style (bold, italic, color=, size=, font=)"
    return SpanStyle(**out)  # type: ignore[arg-type]


def markup_problem(text: str, colours: dict[str, str], named: Sequence[str]) -> str:
    """What is wrong with the text's spans (an unknown colour, a size out of range), or
    ``""``: a span that cannot be set is refused rather than printed as it was written."""
    for m in _SPAN.finditer(text):
        if m.start() and text[m.start() - 1] == "\\":
            continue
        got = parse_span(m.group(2), colours, named)
        if isinstance(got, str):
            return f"{got}: '{m.group(0)[:60]}'"
    return ""


@dataclass
class _State:
    bold: bool = False
    italic: bool = False
    color: str | None = None
    scale: float = 1.0
    font: str | None = None


def _styled(st: _State, sp: SpanStyle, colours: dict[str, str]) -> _State:
    return _State(st.bold if sp.bold is None else sp.bold,
                  st.italic if sp.italic is None else sp.italic,
                  st.color if sp.color is None else colours.get(
                      sp.color, sp.color if _HEX.fullmatch(sp.color) else st.color),
                  st.scale if sp.scale is None else st.scale * sp.scale,
                  st.font if sp.font is None else sp.font)


@lru_cache(maxsize=256)
def _keyword_re(keywords: tuple[tuple[str, SpanStyle], ...]) -> re.Pattern[str] | None:
    if not keywords:
        return None
    words = sorted((k for k, _ in keywords), key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)")


def _closes(text: str, i: int, mark: str) -> bool:
    """Whether an emphasis mark at ``i`` is closed later in the paragraph."""
    j = i + 1
    while True:
        j = text.find(mark, j)
        if j < 0 or text.find("\n", i, j) >= 0:
            return False
        if text[j - 1] != "\\" and text[j - 1] not in " \t" and not (
                mark == "*" and (text.startswith("**", j) or text[j - 1] == "*")):
            return True
        j += 1


@lru_cache(maxsize=4096)
def tokenize(text: str, icons: frozenset[str], fonts: Setting | None = None
             ) -> tuple[Piece, ...]:
    """``text`` as pieces: words, spaces, icons and paragraph breaks, each with its style,
    the breaks Chinese and Japanese allow, hyphenation points, and bidi levels."""
    st = fonts or as_setting(("Helvetica", "Helvetica-Bold"))
    colours = dict(st.colours)
    keywords = dict(st.keywords)
    kw_re = _keyword_re(st.keywords)
    out: list[Piece] = []

    def emit_text(chunk: str, s: _State) -> None:
        if kw_re is not None:
            at = 0
            for m in kw_re.finditer(chunk):
                emit_plain(chunk[at:m.start()], s)
                emit_plain(m.group(0), _styled(s, keywords[m.group(0)], colours))
                at = m.end()
            chunk = chunk[at:]
        emit_plain(chunk, s)

    def emit_plain(chunk: str, s: _State) -> None:
        for tok in re.findall(r"\n|[^\S\n]+|[^\s]+", chunk):
            if tok == "\n":
                out.append(Piece("br", "", s.bold, s.italic, s.color, s.scale, s.font))
            elif tok.isspace():
                out.append(Piece("space", " ", s.bold, s.italic, s.color, s.scale, s.font))
            else:
                out.append(Piece("word", tok, s.bold, s.italic, s.color, s.scale, s.font))

    def scan(src: str, s: _State) -> None:
        buf: list[str] = []

        def flush() -> None:
            if buf:
                emit_text("".join(buf), s)
                buf.clear()

        i, n = 0, len(src)
        while i < n:
            m = _SPECIAL.search(src, i)  # plain text up to the next mark, in one step
            if m is None:
                buf.append(src[i:])
                break
            if m.start() > i:
                buf.append(src[i:m.start()])
                i = m.start()
            c = src[i]
            if c == "\\" and i + 1 < n and src[i + 1] in ESCAPABLE:
                buf.append(src[i + 1])
                i += 2
                continue
            if c == "*" and src.startswith("**", i):
                flush()
                s = replace(s, bold=not s.bold)
                i += 2
                continue
            if c == "*" and (s.italic or _closes(src, i, "*")) and (
                    s.italic or i + 1 < n and not src[i + 1].isspace()):
                flush()
                s = replace(s, italic=not s.italic)
                i += 1
                continue
            if c == "_":
                before = src[i - 1] if i else " "
                after = src[i + 1] if i + 1 < n else " "
                opening = not s.italic and not before.isalnum() and not after.isspace() \
                    and _closes(src, i, "_")
                closing = s.italic and not after.isalnum() and not before.isspace()
                if opening or closing:
                    flush()
                    s = replace(s, italic=not s.italic)
                    i += 1
                    continue
            if c == "{":
                m = _ICON_TOKEN.match(src, i)
                if m and m.group(1) in icons and (
                        m.group(2) is None or int(m.group(2)) <= MAX_REPEAT):
                    flush()
                    times = 1 if m.group(2) is None else int(m.group(2))
                    out.extend(Piece("icon", m.group(1), s.bold, s.italic, s.color, s.scale,
                                     s.font) for _ in range(times))
                    i = m.end()
                    continue
            if c == "[":
                m = _SPAN.match(src, i)
                if m:
                    sp = parse_span(m.group(2), colours if st.colours else None,
                                    None)
                    if isinstance(sp, SpanStyle):
                        flush()
                        scan(m.group(1), _styled(s, sp, colours))
                        i = m.end()
                        continue
            buf.append(c)
            i += 1
        flush()

    scan(text, _State())
    pieces = _cjk_breaks(out)
    if st.hyphenate:
        pieces = _hyphenate(pieces, st.hyphenate)
    return tuple(_bidi(pieces))


# --- hyphenation -------------------------------------------------------------------------------

@lru_cache(maxsize=16)
def _dictionary(lang: str) -> object | None:
    import pyphen

    found = pyphen.language_fallback(lang)
    return pyphen.Pyphen(lang=found) if found else None


def hyphenation_languages() -> list[str]:
    import pyphen

    return sorted(pyphen.LANGUAGES)


@lru_cache(maxsize=8192)
def _syllables(word: str, lang: str) -> tuple[str, ...]:
    dic = _dictionary(lang)
    m = re.fullmatch(r"(\W*)(\w+)(\W*)", word)
    if dic is None or m is None or len(m.group(2)) < MIN_HYPHEN_WORD or not m.group(2).isalpha():
        return (word,)
    parts = dic.inserted(m.group(2), "\u00ad").split("\u00ad")  # type: ignore[attr-defined]
    parts[0] = m.group(1) + parts[0]
    parts[-1] += m.group(3)
    return tuple(parts)


def _hyphenate(pieces: list[Piece], lang: str) -> list[Piece]:
    out: list[Piece] = []
    for p in pieces:
        parts = _syllables(p.text, lang) if p.kind == "word" else (p.text,)
        if len(parts) == 1:
            out.append(p)
            continue
        for k, part in enumerate(parts):
            if k:
                out.append(replace(p, kind="shy", text=""))
            out.append(replace(p, text=part))
    return out


# --- direction ---------------------------------------------------------------------------------

def _bidi(pieces: list[Piece]) -> list[Piece]:
    """Each piece with the embedding levels of its characters, paragraph by paragraph."""
    out: list[Piece] = []
    start = 0
    for end in [i for i, p in enumerate(pieces) if p.kind == "br"] + [len(pieces)]:
        para = pieces[start:end]
        text = "".join("\ufffc" if p.kind == "icon" else p.text for p in para)
        if not shaping.has_rtl(text):
            out.extend(para)
        else:
            rtl = shaping.base_rtl(text)
            lv = shaping.levels(text, rtl)
            at = 0
            for p in para:
                n = 1 if p.kind == "icon" else len(p.text)
                own = tuple(lv[at:at + n]) or (int(rtl),)
                out.append(replace(p, levels=own, rtl=rtl))
                at += n
        if end < len(pieces):
            out.append(pieces[end])
        start = end + 1
    return out


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


def _cjk_breaks(pieces: list[Piece]) -> list[Piece]:
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
        if not _CJK.search(text):  # no breaks inside: the pieces as they are
            out.extend(run)
            i = j
            continue
        cuts = set(_breaks(text))
        at = 0
        for p in run:
            start = at
            at += len(p.text)
            if start in cuts and out and out[-1].kind == "word":
                out.append(replace(p, kind="space", text=""))
            edges = [start] + sorted(c for c in cuts if start < c < at) + [at]
            for k, (a, b) in enumerate(zip(edges, edges[1:], strict=False)):
                if k:
                    out.append(replace(p, kind="space", text=""))  # a break of no width
                out.append(replace(p, text=text[a:b]))
        i = j
    return out



# --- measuring ---------------------------------------------------------------------------------

@lru_cache(maxsize=16384)
def _width(text: str, font: str, size: float) -> float:
    return float(stringWidth(text, font, size)) * PT


@lru_cache(maxsize=4096)
def chain_of(fonts: Setting, bold: bool, italic: bool, font: str | None) -> tuple[str, ...]:
    """The fonts a piece of this style is set in, in order of preference."""
    if font is not None:
        named = dict(fonts.named).get(font)
        if named:
            return named
    if bold and italic:
        return fonts.bold_italic
    if bold:
        return fonts.bold
    if italic:
        return fonts.italic
    return fonts.regular


def _chain(p: Piece, fonts: Setting) -> tuple[str, ...]:
    return chain_of(fonts, p.bold, p.italic, p.font)


Segment = tuple[str, str, int, bool]  # text, font, bidi level, shaped


@lru_cache(maxsize=4096)
def segments(text: str, chain: tuple[str, ...], levels: tuple[int, ...] = ()
             ) -> tuple[Segment, ...]:
    """``text`` cut where its font (the first of ``chain`` that has the character) or its
    direction changes, each part marked for shaping or not."""
    from generator.fonts import is_colour, missing

    first = chain[0]
    if not levels and (len(chain) == 1 or not missing(first, text)):
        return ((text, first, 0, shaping.needs_shaping(text) or is_colour(first)),)
    lv = levels or (0,) * len(text)
    parts: list[list[object]] = []
    for i, ch in enumerate(text):
        if parts and (unicodedata.category(ch)[0] == "M" or ch in "\u200d\ufe0f\ufe0e"
                      or 0x1F3FB <= ord(ch) <= 0x1F3FF) and parts[-1][2] == lv[i]:
            font = str(parts[-1][1])  # a mark, a joiner, a modifier: its base's font
        else:
            font = next((f for f in chain if not missing(f, ch)), first)
        if parts and parts[-1][1] == font and parts[-1][2] == lv[i]:
            parts[-1][0] = str(parts[-1][0]) + ch
        else:
            parts.append([ch, font, lv[i]])
    return tuple((str(t), str(f), int(str(v)), shaping.needs_shaping(str(t)) or is_colour(str(f)))
                 for t, f, v in parts)


def _segment_width(seg: Segment, size: float) -> float:
    text, font, level, shaped = seg
    if shaped:
        return shaping.advance(text, font, bool(level % 2)) * size * PT
    return _width(text, font, size)


def _text_width(text: str, chain: tuple[str, ...], levels: tuple[int, ...],
                size: float) -> float:
    first = chain[0]
    if not levels and not shaping.needs_shaping(text) and not fontreg.is_colour(first) and (
            len(chain) == 1 or not fontreg.missing(first, text)):
        return _width(text, first, size)  # one font, one glyph a character: as always
    return _mixed_width(text, chain, levels, size)


@lru_cache(maxsize=4096)
def _mixed_width(text: str, chain: tuple[str, ...], levels: tuple[int, ...],
                 size: float) -> float:
    return sum(_segment_width(seg, size) for seg in segments(text, chain, levels))


def piece_width(p: Piece, fonts: Fonts, size: float) -> float:
    if p.kind == "icon":
        return size * p.scale * ICON_EM * PT
    if p.kind == "shy" or not p.text:
        return 0.0
    st = as_setting(fonts)
    return _text_width(p.text, _chain(p, st), p.levels, size * p.scale)


def _measure(st: Setting, size: float) -> Callable[[Piece], float]:
    """``piece_width`` for one setting and size, with the chains of the styles met kept."""
    # a style's chain, and its one font when that font sets plain text alone (no fallback,
    # not a colour font): ASCII in it is measured straight from the font's metrics
    chains: dict[tuple[bool, bool, str | None], tuple[tuple[str, ...], str | None]] = {}
    icon = size * ICON_EM * PT

    def alone(chain: tuple[str, ...]) -> str | None:
        return chain[0] if len(chain) == 1 and not fontreg.is_colour(chain[0]) else None

    regular, bold = alone(st.regular), alone(st.bold)

    def width(p: Piece) -> float:
        kind = p.kind
        if kind == "icon":
            return icon * p.scale
        if kind == "shy" or not p.text:
            return 0.0
        if not (p.italic or p.font or p.levels) and p.scale == 1.0:
            font = bold if p.bold else regular  # the common case, the quickest way
            if font is not None and p.text.isascii():
                return _width(p.text, font, size)
        key = (p.bold, p.italic, p.font)
        hit = chains.get(key)
        if hit is None:
            chain = chain_of(st, p.bold, p.italic, p.font)
            hit = chains[key] = (chain, alone(chain))
        s = size if p.scale == 1.0 else size * p.scale
        if hit[1] is not None and not p.levels and p.text.isascii():
            return _width(p.text, hit[1], s)
        return _text_width(p.text, hit[0], p.levels, s)

    return width


def _hyphen(p: Piece) -> Piece:
    """The hyphen a line broken at ``p`` (a hyphenation point) ends with."""
    return replace(p, kind="word", text="-", levels=p.levels[-1:] if p.levels else ())


Line = list[Piece]


def wrap(pieces: tuple[Piece, ...], fonts: Fonts, size: float,
         width: float) -> tuple[list[Line], bool]:
    """Greedy wrap into lines no wider than ``width``; False if a single word is too wide.

    Lines break only at spaces (in Chinese and Japanese, also at the breaks of no width that
    ``tokenize`` puts between characters; with hyphenation, at a word's hyphenation points,
    where the line ends with a hyphen): a word and what is glued to it (punctuation, a bold
    run, an icon) move to the next line together.
    """
    st = as_setting(fonts)
    width_of = _measure(st, size)
    lines: list[Line] = [[]]
    cur_w = 0.0
    ok = True
    for p in pieces:
        if p.kind == "br":
            lines.append([])
            cur_w = 0.0
            continue
        line = lines[-1]
        if p.kind in ("space", "shy"):
            if line and line[-1].kind not in ("space", "shy"):
                line.append(p)
                cur_w += width_of(p)
            continue
        w = width_of(p)
        if line and cur_w + w > width + 1e-6:
            # the glued group this piece belongs to starts after the line's last break
            # (a hyphenation point only where the line with its hyphen still fits)
            cut = -1
            for i in range(len(line) - 1, -1, -1):
                q = line[i]
                if q.kind == "space":
                    cut = i
                    break
                if q.kind == "shy" and sum(width_of(r) for r in line[:i]) + width_of(
                        _hyphen(q)) <= width + 1e-6:
                    cut = i
                    break
            if cut >= 0:
                group = line[cut + 1:]
                if line[cut].kind == "shy":
                    line[cut] = _hyphen(line[cut])
                    del line[cut + 1:]
                else:
                    del line[cut:]
                lines.append(group)
                line = lines[-1]
                cur_w = sum(width_of(q) for q in group)
        line.append(p)
        cur_w += w
        if cur_w > width + 1e-6:
            ok = False
    for line in lines:
        while line and line[-1].kind in ("space", "shy"):
            line.pop()
    return lines, ok


def line_width(line: Sequence[Piece], fonts: Fonts, size: float) -> float:
    st = as_setting(fonts)
    return sum(piece_width(p, st, size) for p in line)


def _line_scale(line: Sequence[Piece]) -> float:
    return max((p.scale for p in line if p.kind != "shy"), default=1.0) if line else 1.0


def lines_height(lines: Sequence[Sequence[Piece]], size: float, leading: float) -> float:
    """The block's height: each line as tall as its largest span."""
    if not lines:
        return 0.0
    scales = [max(1.0, _line_scale(line)) for line in lines]
    return (ASCENT * scales[0] + sum(leading * s for s in scales[1:]) + DESCENT * scales[-1]
            ) * size * PT


def block_height(n_lines: int, size: float, leading: float) -> float:
    if n_lines == 0:
        return 0.0
    return ((n_lines - 1) * leading + ASCENT + DESCENT) * size * PT


def fit(text: str, fonts: Fonts, icons: frozenset[str], w: float, h: float,
        size: float, min_size: float, leading: float) -> tuple[float, list[Line], Fit]:
    """Find the largest size (in STEP points, from ``size`` down to ``min_size``) that fits.

    The same text in the same box and style is fitted once (``fitted`` keeps the outcome); the
    caller gets its own lists, so the cached lines cannot be changed through them.
    """
    s, lines, result = fitted(text, as_setting(fonts), icons, w, h, size, min_size, leading)
    return s, [list(line) for line in lines], result


@lru_cache(maxsize=2048)
def fitted(text: str, fonts: Setting, icons: frozenset[str], w: float, h: float,
           size: float, min_size: float, leading: float
           ) -> tuple[float, tuple[tuple[Piece, ...], ...], Fit]:
    """``fit``'s outcome, cached (lines as tuples: shared between callers, never changed)."""
    s, lines, result = _fit(text, fonts, icons, w, h, size, min_size, leading)
    return s, tuple(tuple(line) for line in lines), result


def _fit(text: str, fonts: Fonts, icons: frozenset[str], w: float, h: float,
         size: float, min_size: float, leading: float) -> tuple[float, list[Line], Fit]:
    st = as_setting(fonts)
    pieces = tokenize(text, icons, st)
    scaled = any(p.scale != 1.0 for p in pieces)

    def attempt(s: float) -> tuple[list[Line], bool]:
        lines, ok = wrap(pieces, st, s, w)
        tall = lines_height(lines, s, leading) if scaled else block_height(len(lines), s,
                                                                           leading)
        return lines, ok and tall <= h + 1e-6

    # from the size asked for down, a quarter point at a time: the first that fits (wrapping
    # is not monotonic in the size, so no bisection)
    steps = int(round((size - min_size) / STEP))
    for k in range(steps + 1):
        s = size - k * STEP
        lines, ok = attempt(s)
        if ok:
            return s, lines, Fit(s, size, True, len(lines))
    s = min(size, min_size)
    lines, _ = wrap(pieces, st, s, w)
    return s, lines, Fit(s, size, False, len(lines))


@dataclass
class _Item:
    """One thing placed on a line: a run of text in one font and direction, or an icon."""

    piece: Piece
    text: str
    font: str
    level: int
    shaped: bool
    width: float


def _items(line: Sequence[Piece], st: Setting, size: float) -> list[_Item]:
    out: list[_Item] = []
    for p in line:
        s = size * p.scale
        if p.kind == "icon":
            lv = p.levels[0] if p.levels else int(p.rtl)
            out.append(_Item(p, "", "", lv, False, s * ICON_EM * PT))
            continue
        if p.kind == "shy" or not p.text:
            continue
        for seg in segments(p.text, _chain(p, st), p.levels):
            out.append(_Item(p, seg[0], seg[1], seg[2], seg[3], _segment_width(seg, s)))
    return out


def render_lines(lines: Sequence[Sequence[Piece]], fonts: Fonts, size: float,
                 x: float, y: float, w: float, h: float, align: str, valign: str, leading: float,
                 color: str) -> list[Primitive]:
    """Glyph runs and icons for laid-out lines in the box (x, y, w, h), each line in visual
    order (left to right as printed)."""
    st = as_setting(fonts)
    out: list[Primitive] = []
    scaled = any(p.scale != 1.0 for line in lines for p in line)
    total = lines_height(lines, size, leading) if scaled else block_height(len(lines), size,
                                                                           leading)
    if valign == "middle":
        top = y + (h - total) / 2
    elif valign == "bottom":
        top = y + h - total
    else:
        top = y
    baseline = top
    for i, line in enumerate(lines):
        ls = max(1.0, _line_scale(line)) if scaled else 1.0
        baseline += (ASCENT if i == 0 else leading) * size * PT * ls
        items = _items(line, st, size)
        rtl = any(p.rtl for p in line)
        if any(it.level for it in items):
            items = [items[k] for k in shaping.visual_order([it.level for it in items])]
        lw = sum(it.width for it in items)
        side = align
        if align in ("start", "end"):
            side = "right" if (align == "start") == rtl else "left"
        if side == "center":
            cx = x + (w - lw) / 2
        elif side == "right":
            cx = x + w - lw
        else:
            cx = x
        out.extend(_place(items, cx, baseline, size, color))
    return out


def _place(items: list[_Item], cx: float, baseline: float, size: float,
           color: str) -> list[Primitive]:
    """The line's items from ``cx`` rightwards: character runs of one font, size and colour
    merged into one ``Text``, shaped runs as glyphs, icons as icons."""
    out: list[Primitive] = []
    run: list[str] = []
    run_key: tuple[str, float, str] | None = None
    run_x = cx

    def flush() -> None:
        if run and run_key is not None:
            out.append(Text(one_float(run_x), one_float(baseline), "".join(run), run_key[0],
                            run_key[1], run_key[2]))
        run.clear()

    for it in items:
        p = it.piece
        s = size * p.scale
        colour = p.color or color
        if p.kind == "icon":
            flush()
            run_key = None
            side = s * ICON_EM * PT
            out.append(Icon(p.text, cx, baseline - side * 0.86, side,
                            p.color if p.color else None))
        elif it.shaped:
            flush()
            run_key = None
            glyphs, _ = shaping.glyph_run(it.text, it.font, bool(it.level % 2), s)
            out.append(Text(cx, baseline, it.text, it.font, s, colour, glyphs=glyphs))
        else:
            key = (it.font, s, colour)
            if key != run_key:
                flush()
                run_key = key
                run_x = cx
            run.append(it.text)
        cx += it.width
    flush()
    return out


@lru_cache(maxsize=2048)
def text_box(text: str, fonts: Fonts, icons: frozenset[str], w: float, h: float,
             size: float, min_size: float, leading: float, align: str, valign: str,
             color: str) -> tuple[tuple[Primitive, ...], Fit]:
    """A whole text box, fitted and laid out in its own (0, 0, w, h): the glyph runs and the
    fit's outcome. The same string in the same box and style is laid out once per build (a
    deck repeats its rules text on many cards); the primitives are immutable, so sharing them
    is safe."""
    st = as_setting(fonts)
    used, lines, result = fitted(text, st, icons, w, h, size, min_size, leading)
    prims = render_lines(lines, st, used, 0, 0, w, h, align, valign, leading, color)
    return tuple(prims), result


_MARKUP_CHARS = re.compile(r"([\\*_\[\]{}])")


def set_line(text: str, font: str, size: float, x: float, y: float, anchor: str,
             color: str) -> list[Primitive]:
    """One line of plain text (no markup: sheet furniture, a game's name) on the baseline
    ``y``, ``anchor`` at ``x``: shaped and in visual order, like a text box's line."""
    st = as_setting((font, font))
    pieces = tuple(p for p in tokenize(_MARKUP_CHARS.sub(r"\\\1", text), frozenset(), st)
                   if p.kind != "br")
    wide = line_width(pieces, st, size) + 1.0
    x0 = x - wide / 2 if anchor == "middle" else x - wide if anchor == "end" else x
    side = {"middle": "center", "end": "right"}.get(anchor, "left")
    return render_lines([list(pieces)], st, size, x0, y - ASCENT * size * PT, wide, 0, side,
                        "top", 1.2, color)
