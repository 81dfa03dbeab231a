"""A game's own fonts in print: registration with reportlab, glyph coverage, SVG embedding.

- **Registration.** Each font file a game names (``components.fontfiles``) is registered with
  reportlab under its unique name the first time a face uses it, so text is measured with its
  own metrics and the PDF embeds a subset of it (reportlab subsets TrueType fonts itself).
  reportlab reads TrueType outlines only, so an OpenType font with PostScript (CFF) outlines
  is first cut down to the characters the game's definitions hold (fontTools' subsetter) and
  its curves converted to TrueType quadratics (fontTools' cu2qu): a 16 MB CJK font becomes a
  few kilobytes in a third of a second, and prints the same glyphs.
- **Coverage.** ``missing(font, text)`` names the characters a font lacks: a TrueType font's
  own character map, and for the 14 standard PDF fonts the WinAnsi encoding they are limited
  to. Text with such a character is refused (``check_text``), naming where it is, the
  character and its code point, and the fonts that have it, instead of printing a box.
- **irata's own lettering.** Footers, version marks, the checklist, export marks and a game
  that names the PDF standard Helvetica are set in Arimo (``fontpkg-arimo``, OFL), whose
  advance widths are Helvetica's: text measured with Helvetica's metrics sets identically,
  and the font travels inside every PDF and SVG (``embeddable``), as print shops require.
  Arimo ships as a variable font; each style is pinned to its weight, cut down to the
  characters Helvetica covers (WinAnsi), once per process.
- **SVG.** ``font_face_css(name, chars)`` is an ``@font-face`` rule whose source is the font cut
  down to the characters a sheet uses (HarfBuzz's subsetter, ``cut_down``), inlined as a
  ``data:`` URL, so an SVG sheet shows the very glyphs of the PDF on a machine that does not
  have the font.
"""

from __future__ import annotations

import base64
import io
import logging
import operator
import string
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from components import Game
from components.errors import DefinitionError
from components.schema import STANDARD_FONTS, FontFile

# every font registered with reportlab in this process, by its unique name
_REGISTERED: dict[str, FontFile] = {}
# the bytes of the TrueType font registered under a name (what the SVG embeds a subset of)
_TRUETYPE: dict[str, bytes] = {}
_STYLE: dict[str, tuple[str, int, bool]] = {}
# the characters a font registered cut down (CFF or variable) was cut to
_CUT_TO: dict[str, frozenset[str]] = {}
_PREPARED: dict[int, Game] = {}
# registered fonts whose glyphs are colour layers or bitmaps (emoji)
_COLOUR: set[str] = set()
_COLOUR_TAGS = ("COLR", "CBDT", "sbix")
# the embedded stand-ins for the PDF standard Helvetica family: (weight, italic)
_HOUSE_STYLES: dict[str, tuple[int, bool]] = {
    "Helvetica": (400, False), "Helvetica-Bold": (700, False),
    "Helvetica-Oblique": (400, True), "Helvetica-BoldOblique": (700, True),
}
HOUSE_FAMILY = "Arimo"
_HOUSE: dict[str, str] = {}  # standard name -> the registered stand-in's name
# PDF standard fonts with their own encodings: their glyphs are not WinAnsi characters
_SYMBOLIC = ("Symbol", "ZapfDingbats")
BASIC = frozenset(string.printable + "\u00a0")


def game_chars(game: Game) -> frozenset[str]:
    """Every character the game's definitions hold (fields, faces, layouts, rule data, names),
    plus printable ASCII: what any text the game prints can be made of."""
    chars: set[str] = set(BASIC)

    def walk(node: Any) -> None:
        if isinstance(node, str):
            chars.update(node)
        elif isinstance(node, dict):
            for k, v in node.items():
                chars.update(str(k))
                walk(v)
        elif isinstance(node, (list, tuple)):
            for v in node:
                walk(v)

    walk([game.name, game.edition, game.data, game.layouts, game.icons])
    for comp in game.components:
        walk([comp.fields, comp.faces, comp.front, comp.back, comp.version])
    return frozenset(chars)


def prepare(game: Game) -> None:
    """Register the game's font files with reportlab (once per game and font)."""
    if _PREPARED.get(id(game)) is game:
        return
    chars: frozenset[str] | None = None
    for name, ff in game.font_files.items():
        cut = _CUT_TO.get(name)
        if name in _REGISTERED and cut is None:
            continue  # registered whole
        if chars is None:
            chars = game_chars(game)
        if cut is not None and chars <= cut:
            continue
        # first use, or a font cut down for other text (another game, an earlier edit of
        # this one) that lacks some of this game's characters: (re)register it
        register(ff, chars | (cut or frozenset()), again=cut is not None)
    _PREPARED[id(game)] = game


def register(ff: FontFile, chars: Iterable[str] = BASIC, again: bool = False) -> None:
    """Register ``ff`` with reportlab under ``ff.name``; a CFF or variable font is cut down to
    ``chars`` (and converted to TrueType outlines, or pinned to its default instance) first."""
    from reportlab.pdfbase.ttfonts import TTFont

    if ff.name in _REGISTERED and not again:
        return
    wanted = frozenset(chars)
    try:
        data, cut = truetype_bytes(ff, wanted)
        font = TTFont(ff.name, io.BytesIO(data))
        style = _face_style(data)
        _trial(font, data, wanted | frozenset(BASIC))
    # a damaged or hostile font file makes fontTools and reportlab raise many kinds (TTLibError,
    # struct.error, IndexError, ...): each is this font's fault, told as one line
    except Exception as exc:  # noqa: BLE001
        shown = " ".join(str(exc).split())[:120] or type(exc).__name__
        raise DefinitionError(f"cannot use the font {ff.label}: {shown}", ff.file or None,
                              ff.line or None, ff.col or None) from None
    _install(font, ff.name)
    _REGISTERED[ff.name] = ff
    _TRUETYPE[ff.name] = data
    if cut:
        _CUT_TO[ff.name] = wanted
    subset_bytes.cache_clear()
    _STYLE[ff.name] = style
    if _colour_tables(ff):
        _COLOUR.add(ff.name)
    else:
        _COLOUR.discard(ff.name)
    from generator import shaping

    shaping.forget(ff.name)


def _colour_tables(ff: FontFile) -> bool:
    from fontTools.ttLib import TTFont as FtFont

    font = FtFont(str(ff.path), fontNumber=ff.index, lazy=True)
    return any(tag in font for tag in _COLOUR_TAGS)


def is_colour(font: str) -> bool:
    """Whether ``font`` is a registered colour font (emoji): its glyphs are drawn from their
    colour layers or bitmaps (``generator.shaping``), never as plain text."""
    return font in _COLOUR


def font_label(font: str) -> str:
    """How the game names a registered font (``fonts/Inter.ttf``, ``Fira Sans bold``)."""
    ff = _REGISTERED.get(font)
    return ff.label if ff is not None else font


def font_source(font: str) -> tuple[bytes, int]:
    """The whole font file a registered font came from (its shaping tables intact) and the
    face's index in it; irata's own lettering, its cut. Read once per font: HarfBuzz keeps
    it (``generator.shaping.shape_font``)."""
    ff = _REGISTERED.get(font)
    if ff is not None:
        return ff.path.read_bytes(), ff.index
    return _TRUETYPE[embeddable(font)], 0


def _trial(font: Any, data: bytes, chars: frozenset[str]) -> None:
    """Cut the font down as the PDF (reportlab) and the SVG sheets (HarfBuzz) will, for
    ``chars``, and read every table of it (fontTools, which HarfBuzz's lenient reading would
    not refuse: a damaged ``hmtx`` sets every line at a wrong width): a font whose tables are
    damaged past its first few (glyph outlines, metrics) is refused now, where ``check`` sees
    it, not while a PDF is being written."""
    from fontTools.ttLib import TTFont as FtFont

    codes = sorted(ord(c) for c in chars if ord(c) > 32)
    for start in range(0, len(codes), 255):  # reportlab embeds 256 characters a subset
        font.face.makeSubset([0, *codes[start:start + 255]])
    ft = FtFont(io.BytesIO(data))
    _subset(ft, set(chars) | {" "})
    ft.save(io.BytesIO())
    cut_down(data, chars)


def _install(font: Any, name: str) -> None:
    """Register ``font`` with reportlab, replacing an earlier font of that name.

    reportlab keeps dynamic fonts by name and by their internal (PostScript) face name, and
    hands a new name the font already registered for the same face name: two different files
    named alike inside (two versions of one font, a font edited during --watch, a font cut
    down again for more characters) would print with the first one's glyphs. So the earlier
    registration under this name is dropped (reportlab has no public call for it), and a face
    name some other font holds is made unique with the file's hash.
    """
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFNameBytes

    fonts: dict[str, Any] = pdfmetrics._fonts
    faces: dict[Any, Any] = pdfmetrics._dynFaceNames
    if name in fonts:
        previous: Any = fonts.pop(name)
        face_name = previous.face.name
        if faces.get(face_name) is previous:
            del faces[face_name]
    if font.face.name in faces:
        unique = f"{font.face.name.ustr}-{name.rsplit('-', 1)[-1]}"
        font.face.name = TTFNameBytes(unique.encode("ascii", "replace"))
    pdfmetrics.registerFont(font)


def _face_style(data: bytes) -> tuple[str, int, bool]:
    """The font's family name, weight (100-900) and whether it is italic."""
    from fontTools.ttLib import TTFont as FtFont

    ft = FtFont(io.BytesIO(data), lazy=True)
    names = ft["name"]
    family = str(names.getDebugName(16) or names.getDebugName(1) or "")
    os2 = ft["OS/2"] if "OS/2" in ft else None
    weight = int(getattr(os2, "usWeightClass", 400) or 400)
    italic = bool(os2 and os2.fsSelection & 1) or bool(ft["post"].italicAngle)
    return family, weight, italic


def face_style(font: str) -> tuple[str, int, bool] | None:
    """(family, weight, italic) of a registered game font, for renderers that do not read
    the embedded one and look for an installed font of that name instead."""
    return _STYLE.get(font)


def truetype_bytes(ff: FontFile, chars: frozenset[str]) -> tuple[bytes, bool]:
    """The font as a single TrueType-outlined font, and whether it was cut down to ``chars``:
    a TrueType file (or collection face) whole; a CFF-outlined one cut down and converted; a
    variable one cut down and pinned to its default instance."""
    from fontTools.ttLib import TTFont as FtFont

    # (the same bytes from every cut: a saved font keeps its own date, not the clock's)
    font = FtFont(str(ff.path), fontNumber=ff.index, lazy=False, recalcTimestamp=False)
    if "COLR" in font and font["COLR"].version >= 1 and not getattr(
            getattr(font["COLR"], "table", None), "BaseGlyphRecordCount", 0) \
            and "CBDT" not in font and "sbix" not in font:
        # its glyphs are paint graphs (gradients, transforms) that irata does not draw: the
        # plain outlines beneath are often empty, which would print nothing
        raise ValueError("it is a COLRv1 colour font, which irata cannot draw yet; use a "
                         "CBDT or COLRv0 colour font (such as Noto Color Emoji's CBDT build)")
    variable = "fvar" in font
    if variable:
        # a variable font: its default instance is what a reader without variations shows
        # (cut down to the game's characters first: instancing every glyph takes seconds)
        from fontTools.varLib.instancer import instantiateVariableFont

        _subset(font, chars)
        defaults = {a.axisTag: a.defaultValue for a in font["fvar"].axes}
        font = instantiateVariableFont(font, defaults)
    if "glyf" in font:
        if ff.index == 0 and not variable and ff.path.suffix.lower() != ".ttc":
            return ff.path.read_bytes(), False
        buf = io.BytesIO()
        font.save(buf)
        return buf.getvalue(), variable
    if "CFF " not in font and "CFF2" not in font:
        if "CBDT" in font or "sbix" in font:
            # a bitmap colour font (emoji): reportlab gets a stand-in with its character map
            # and advances and blank glyphs, for measuring and for the PDF's invisible text;
            # the pictures themselves are drawn from the file (generator.shaping)
            _subset(font, chars)
            _blank_glyf(font)
            buf = io.BytesIO()
            font.save(buf)
            return buf.getvalue(), True
        raise ValueError("it has neither TrueType nor PostScript outlines, nor colour bitmaps")
    _subset(font, chars)
    _cff_to_glyf(font)
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue(), True


def _subset(font: Any, chars: Iterable[str]) -> None:
    from fontTools import subset

    # a table the subsetter does not know (FontForge's 'FFTM' timestamps, a vendor's own) is
    # dropped, as it should be: its logged warning is no news for the designer's terminal
    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)

    opts = subset.Options()
    opts.layout_features = []  # reportlab places glyphs one by one: no shaping tables needed
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.notdef_outline = True
    opts.glyph_names = False
    opts.drop_tables += ["VORG", "vhea", "vmtx", "DSIG"]
    sub = subset.Subsetter(opts)
    sub.populate(text="".join(sorted(set(chars))))
    sub.subset(font)


def _blank_glyf(font: Any) -> None:
    """Give a bitmap-only font TrueType glyphs with no outline (its advances kept)."""
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {name: TTGlyphPen(None).glyph() for name in order}
    font["loca"] = newTable("loca")
    font["glyf"] = glyf
    for tag in ("CBDT", "CBLC", "sbix", "EBDT", "EBLC"):
        if tag in font:
            del font[tag]
    _truetype_maxp(font)


def _truetype_maxp(font: Any) -> None:
    """The tables a font whose outlines are now ``glyf`` (TrueType) needs to match: a version
    1.0 ``maxp`` (fontTools works out its maxima on save), ``post`` naming the glyphs, and
    the TrueType sfnt version."""
    from fontTools.ttLib import newTable

    maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    maxp.numGlyphs = len(font.getGlyphOrder())
    for attr in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs",
                 "maxInstructionDefs", "maxStackElements", "maxSizeOfInstructions",
                 "maxComponentElements", "maxPoints", "maxContours", "maxCompositePoints",
                 "maxCompositeContours", "maxComponentDepth"):
        setattr(maxp, attr, 0)
    maxp.maxZones = 1
    font["maxp"] = maxp
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = font.getGlyphOrder()
    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\x00\x01\x00\x00"


def _cff_to_glyf(font: Any) -> None:
    """Replace PostScript (cubic) outlines by TrueType (quadratic) ones, in place."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyphs)
        # max error 1 font unit; PostScript contours run the other way round
        glyphs[name].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
        glyf[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf
    for tag in ("CFF ", "CFF2", "VORG"):
        if tag in font:
            del font[tag]
    _truetype_maxp(font)


# --- coverage ----------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _file_cmap(path: str, index: int, size: int, mtime: int) -> frozenset[int]:
    from fontTools.ttLib import TTFont as FtFont

    font = FtFont(path, fontNumber=index, lazy=True)
    cmap = font.getBestCmap() or {}
    return frozenset(cmap)


def file_cmap(path: Path, index: int = 0) -> frozenset[int]:
    """The code points a font file maps to glyphs."""
    st = path.stat()
    return _file_cmap(str(path), index, st.st_size, st.st_mtime_ns)


def _winansi(ch: str) -> bool:
    if ch in "\n\t":
        return True
    if unicodedata.category(ch) == "Cc":
        return False
    try:
        ch.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def missing(font: str, text: str, game: Game | None = None) -> list[str]:
    """The characters of ``text`` that ``font`` has no glyph for, in order, each once."""
    ff = _REGISTERED.get(font) or (game.font_files.get(font) if game else None)
    if ff is not None:
        st = ff.path.stat()
        return list(_missing_in_file(str(ff.path), ff.index, st.st_size, st.st_mtime_ns, text))
    if font in _SYMBOLIC:
        return []  # their own encodings: not checked character by character
    return list(_missing_in_winansi(text))


@lru_cache(maxsize=16384)
def _missing_in_file(path: str, index: int, size: int, mtime: int, text: str) -> tuple[str, ...]:
    cmap = _file_cmap(path, index, size, mtime)
    return tuple(ch for ch in dict.fromkeys(text) if ch not in "\n\t" and ord(ch) not in cmap)


@lru_cache(maxsize=16384)
def _missing_in_winansi(text: str) -> tuple[str, ...]:
    if text.isprintable():
        # (a footer's text, "Game · edition 1.0 · sheet 12 of 1112, ...", different on every
        # sheet: one encoding of the whole, not one of each character)
        try:
            text.encode("cp1252")
        except UnicodeEncodeError:
            pass
        else:
            return ()
    return tuple(ch for ch in dict.fromkeys(text) if not _winansi(ch))


def describe(ch: str) -> str:
    """``'Ж' (U+0416 CYRILLIC CAPITAL LETTER ZHE)``."""
    name = unicodedata.name(ch, "")
    shown = ch if ch.isprintable() and not ch.isspace() else ""
    label = f"U+{ord(ch):04X}" + (f" {name}" if name else "")
    return f"'{shown}' ({label})" if shown else label


@lru_cache(maxsize=1)
def _package_candidates() -> tuple[tuple[str, str, Path], ...]:
    """(label, how to name it in game.yaml, file) for fonts that installed packages ship."""
    out: list[tuple[str, str, Path]] = []
    try:
        import fontpkg

        for fam in sorted(fontpkg.families().values(), key=lambda f: f.name):
            try:
                path = fontpkg.select_file(fam, 400, "normal", nearest=True).path
            except fontpkg.FontpkgError:
                continue
            out.append((f"{fam.name} (installed package)", f"{{family: {fam.name}}}",
                        Path(path)))
    except ImportError:  # pragma: no cover - fontpkg is a dependency of irata
        pass
    try:
        import reportlab

        vera = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
        if vera.is_file():
            out.append(("Bitstream Vera (ships with reportlab)", "a copy of Vera.ttf", vera))
    except ImportError:  # pragma: no cover
        pass
    return tuple(out)


def fonts_with(ch: str, game: Game, style: str = "body") -> list[str]:
    """The fonts that have ``ch``: the game's own styles first, then installed packages'."""
    found: list[str] = []
    for own, name in game.fonts.items():
        if not missing(name, ch, game):
            ff = game.font_files.get(name)
            found.append(f"the game's '{own}' font ({ff.label if ff else name})")
    for label, how, path in _package_candidates():
        try:
            if ord(ch) in file_cmap(path):
                found.append(f"{label}, as fonts: {{{style}: {how}}}" if how.startswith("{")
                             else label)
        except Exception:  # a broken package font is no candidate  # noqa: BLE001
            continue
    if _winansi(ch) and not any(n in STANDARD_FONTS for n in game.fonts.values()):
        found.append("the standard PDF fonts (Helvetica, Times, Courier)")
    return found


def style_of(game: Game, font: str) -> str:
    """How a font is named in messages: ``Helvetica (body)``, ``fonts/X.ttf (title)``."""
    styles = [s for s, n in game.fonts.items() if n == font]
    ff = game.font_files.get(font)
    label = ff.label if ff else font
    return f"{label} ({', '.join(styles)})" if styles else label


def check_text(game: Game, runs: Iterable[tuple[str, str]], where: tuple[str | None, int | None,
               int | None], what: str) -> None:
    """Refuse text a font cannot print: ``runs`` are (text, font) pairs; ``where`` the
    FILE, LINE, COL to blame; ``what`` says which text (component, face, field)."""
    for text, font in runs:
        lacking = missing(font, text, game)
        if not lacking:
            continue
        ch = lacking[0]
        others = (f" (nor {len(lacking) - 1} more of its characters: "
                  + " ".join(lacking[1:6]) + (" ..." if len(lacking) > 6 else "") + ")"
                  ) if len(lacking) > 1 else ""
        styles = [s for s, n in game.fonts.items() if n == font]
        have = fonts_with(ch, game, styles[0] if styles else "body")
        hint = ("; fonts that have it: " + "; ".join(have)) if have else (
            "; no installed font has it: put a .ttf/.otf font that does in the game folder "
            "and name it under fonts: in game.yaml")
        raise DefinitionError(f"{describe(ch)} in {what} is not in the font "
                              f"{style_of(game, font)}, so it would print as a box{others}"
                              f"{hint}", *where)


def sheet_marks(game: Game, items: list[Any]) -> list[Any]:
    """Sheet furniture (footers, the checklist) is set in Helvetica; text of the game's that
    Helvetica lacks (a Greek game name, a Cyrillic group) takes the game's own body or bold
    font instead, and is refused if that lacks it too."""
    from dataclasses import replace

    from generator.drawing import Group, Text

    out: list[Any] = []
    prepare(game)
    for it in items:
        if isinstance(it, Group):
            inner = tuple(sheet_marks(game, list(it.items)))
            if len(inner) != len(it.items) or not all(map(operator.is_, inner, it.items)):
                it = replace(it, items=inner)  # (else the very group: a watch knows it)
        elif isinstance(it, Text) and missing(it.font, it.text, game):
            bold = "Bold" in it.font
            own = game.fonts.get("bold" if bold else "body", it.font)
            lacking = missing(own, it.text, game)
            if lacking:
                ch = lacking[0]
                have = fonts_with(ch, game, "bold" if bold else "body")
                raise DefinitionError(
                    f"{describe(ch)} in the sheets' text ({it.text[:40]!r}: the game's name or "
                    f"a group) is in neither Helvetica nor the font {style_of(game, own)}"
                    + ("; fonts that have it: " + "; ".join(have) if have else ""),
                    str(game.folder / "game.yaml"))
            it = replace(it, font=own)
            from generator import shaping

            if shaping.needs_shaping(it.text) or shaping.has_rtl(it.text):
                from generator.text import set_line

                out.extend(set_line(it.text, own, it.size, it.x, it.y, it.anchor, it.color))
                continue
        out.append(it)
    return out


def check_sheet_text(game: Game) -> None:
    """What the sheets print of the game's own words (its name and edition in the footers
    and the checklist, its inventory's groups) can be set: the check ``irata check`` makes
    without building sheets."""
    from generator.drawing import Text

    words = [game.name, str(game.edition)] + [g.group for g in game.inventory] + \
        [c.group for c in game.components]
    sheet_marks(game, [Text(0, 0, w, font, 9, "#000000") for w in dict.fromkeys(words) if w
                       for font in ("Helvetica", "Helvetica-Bold")])


# --- SVG ---------------------------------------------------------------------------------------

def is_embedded(font: str) -> bool:
    """Whether ``font`` is a font registered here whose glyphs travel in the file (a game's
    own, or the stand-in for a standard one), not a standard PDF font."""
    return (font in _REGISTERED or font in _HOUSE.values()) and font not in STANDARD_FONTS


def is_house(font: str) -> bool:
    """Whether ``font`` is the embedded stand-in for a standard font (irata's lettering)."""
    return font in _HOUSE.values()


def embeddable(font: str) -> str:
    """The font a backend sets ``font`` in: the embedded Arimo stand-in for the Helvetica
    family (same metrics), every other font as it is."""
    style = _HOUSE_STYLES.get(font)
    if style is None:
        return font
    name = _HOUSE.get(font)
    if name is None:
        name = _register_house(font, *style)
    return name


def register_embedded(names: Iterable[str]) -> None:
    """Register in this process each font of ``names`` (as ``embeddable`` names them) that is
    irata's own lettering font, as a process forked from this one found it: a process forked
    after this one sets it too."""
    for name in names:
        standard = name.removeprefix("irata-")
        if standard != name and standard in _HOUSE_STYLES:
            embeddable(standard)


def _register_house(standard: str, weight: int, italic: bool) -> str:
    import fontpkg
    from reportlab.pdfbase.ttfonts import TTFont

    fam = fontpkg.families()[HOUSE_FAMILY.lower()]
    path = Path(fontpkg.select_file(fam, weight, "italic" if italic else "normal").path)
    data = _house_bytes(path, weight, italic)
    name = f"irata-{standard}"
    try:
        font = TTFont(name, io.BytesIO(data))
    except Exception:  # a damaged cache file: cut the font again  # noqa: BLE001
        data = _house_bytes(path, weight, italic, fresh=True)
        font = TTFont(name, io.BytesIO(data))
    _install(font, name)
    _TRUETYPE[name] = data
    _STYLE[name] = (HOUSE_FAMILY, weight, italic)
    _HOUSE[standard] = name
    subset_bytes.cache_clear()
    return name


_HOUSE_CACHE_VERSION = "1"


def house_font_cache() -> Path:
    """Where irata keeps its own lettering font, cut once per style: the user's cache folder
    (``$XDG_CACHE_HOME`` or ``~/.cache``), ``irata/fonts``. Nothing a game folder says names
    a file there: the files are named by the installed font's content."""
    import os

    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "irata" / "fonts"


def _house_bytes(path: Path, weight: int, italic: bool, fresh: bool = False) -> bytes:
    """The stand-in's TrueType bytes, kept in the user's cache folder: cutting and pinning
    the variable font takes about a second a style, which every command would pay again.
    The cache is keyed by the font file's content; one that cannot be written is skipped."""
    import hashlib
    import os
    import tempfile

    key = hashlib.sha256(path.read_bytes()).hexdigest()[:20]
    root = house_font_cache()
    style = f"{weight}{'i' if italic else ''}"
    cached = root / f"{HOUSE_FAMILY}-{key}-{style}-v{_HOUSE_CACHE_VERSION}.ttf"
    try:
        data = b"" if fresh else cached.read_bytes()
        if data[:4] == b"\x00\x01\x00\x00":
            return data
    except OSError:
        pass
    data = _cut_house(path, weight, italic)
    try:
        root.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=root, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, cached)
    except OSError:
        pass
    return data


def _cut_house(path: Path, weight: int, italic: bool) -> bytes:
    from fontTools.ttLib import TTFont as FtFont
    from fontTools.varLib.instancer import instantiateVariableFont

    ft = FtFont(str(path), recalcTimestamp=False)  # the same bytes from every cut
    # only what Helvetica covers is ever set in it (``missing`` checks WinAnsi)
    _subset(ft, bytes(range(0x20, 0x100)).decode("cp1252", errors="ignore") + "\u00a0")
    if "fvar" in ft:
        ft = instantiateVariableFont(ft, {"wght": weight})
    # the PDF names the font by its PostScript name: the pinned instance's own, not the
    # variable font's default
    style = ("Bold" if weight >= 700 else "") + ("Italic" if italic else "")
    ps = f"{HOUSE_FAMILY}-{style or 'Regular'}"
    for rec in list(ft["name"].names):
        if rec.nameID == 6:
            ft["name"].setName(ps, 6, rec.platformID, rec.platEncID, rec.langID)
    buf = io.BytesIO()
    ft.save(buf)
    return buf.getvalue()


@lru_cache(maxsize=256)
def subset_bytes(font: str, chars: frozenset[str]) -> bytes:
    """The registered font cut down to ``chars`` (TrueType outlines), for embedding."""
    return cut_down(_TRUETYPE[font], chars)


# tables an SVG's embedded font never needs (vertical metrics, a signature the cut voids)
_DROPPED = tuple(int.from_bytes(t.encode("ascii"), "big") for t in ("VORG", "vhea", "vmtx",
                                                                      "DSIG"))


def cut_down(data: bytes, chars: Iterable[str]) -> bytes:
    """A TrueType font's bytes cut down to ``chars`` and a space, for embedding in an SVG:
    every name record kept (its copyright and licence), no shaping tables (the text is set
    glyph by glyph), the .notdef outline kept, glyph names dropped.

    HarfBuzz's subsetter (uharfbuzz, already irata's shaper) does this in well under a
    millisecond and with no Python objects per glyph, where fontTools' took 0.15 s and some
    13 MiB of parsed tables for a print's first subset; its output keeps the font's own dates,
    so a subset is the same bytes whenever it is cut. A font it cannot cut raises
    ``ValueError``."""
    import uharfbuzz as hb

    given = hb.SubsetInput()
    given.unicode_set.update(ord(c) for c in set(chars) | {" "})
    for every in (hb.SubsetInputSets.NAME_ID, hb.SubsetInputSets.NAME_LANG_ID):
        kept = given.sets(every)
        kept.clear()
        kept.invert()
    given.sets(hb.SubsetInputSets.LAYOUT_FEATURE_TAG).clear()
    given.sets(hb.SubsetInputSets.DROP_TABLE_TAG).update(_DROPPED)
    given.flags = hb.SubsetFlags.NOTDEF_OUTLINE
    try:
        cut = hb.subset(hb.Face(hb.Blob(data)), given)
    except RuntimeError:
        raise ValueError("its tables cannot be cut down to the characters used") from None
    out: bytes = cut.blob.data
    if not out:
        raise ValueError("its tables cannot be cut down to the characters used")
    return out


def font_face_css(font: str, chars: Iterable[str]) -> str:
    """An ``@font-face`` rule for ``font`` holding the glyphs of ``chars``, inlined."""
    data = base64.b64encode(subset_bytes(font, frozenset(chars))).decode("ascii")
    return (f"@font-face{{font-family:'{font}';"
            f"src:url(data:font/ttf;base64,{data}) format('truetype');}}")
