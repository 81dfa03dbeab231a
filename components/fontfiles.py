"""Where a game's TrueType/OpenType fonts come from: a file in its folder, or an installed
font package.

``game.yaml``'s ``fonts:`` maps a style name to a font. Besides the 14 standard PDF fonts
(checked in ``schema.check_fonts``), a style may name

- a font file inside the game folder: ``fonts/Inter-Bold.ttf`` (``.ttf``, ``.otf``, and
  collections ``.ttc``/``.otc`` as ``{file: fonts/Pan.ttc, index: 1}``);
- a family from an installed Python font package (the ``fontpkg`` registry, which finds
  packages such as ``fontpkg-fira-sans`` through their entry points):
  ``{family: Fira Sans, weight: bold, style: italic}``.

This module only finds and checks the file (inside the folder, really a font, readable). The
generator (``generator.fonts``) reads its glyphs, embeds it and checks text against it. The
font's name in drawings is its file's stem plus a hash of its bytes, so two games' fonts of the
same name never collide and an edited font file is a new font.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from components.yamlloc import LocDict

if TYPE_CHECKING:
    from components.schema import FontFile

FONT_SUFFIXES = (".ttf", ".otf", ".ttc", ".otc")
# the first four bytes of a TrueType, OpenType (CFF), Apple TrueType and collection file
FONT_MAGIC = (b"\x00\x01\x00\x00", b"OTTO", b"true", b"ttcf")
MAX_FONT_BYTES = 64 * 1024 * 1024
SPEC_KEYS = ("file", "index", "family", "weight", "style")
DEFAULT_PACKAGE_FAMILY = "Fira Sans"  # irata depends on fontpkg-fira-sans: Latin, Greek, Cyrillic


@lru_cache(maxsize=256)
def _digest(path: Path, size: int, mtime: int) -> str:
    h = hashlib.sha1()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:10]


def font_name(path: Path, index: int = 0) -> str:
    """The name drawings use for the font at ``path``: ``Stem-HASH`` (``-iN`` for a face of a
    collection other than the first)."""
    st = path.stat()
    stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in path.stem)[:40] or "font"
    face = f"-i{index}" if index else ""
    return f"{stem}{face}-{_digest(path, st.st_size, st.st_mtime_ns)}"


def font_from_spec(spec: Any, node: LocDict, key: str, folder: Path | None) -> FontFile:
    """The font that ``fonts: {key: spec}`` names, checked; errors located at ``key``."""
    from components.schema import STANDARD_FONTS, FontFile, check_keys, err, suggest, type_name

    line, col = node.at(key)
    if isinstance(spec, str):
        if not spec.lower().endswith(FONT_SUFFIXES):
            raise err(f"unknown font '{spec}' for style '{key}' (expected a standard PDF font "
                      f"such as Helvetica{suggest(spec, STANDARD_FONTS)}, a .ttf/.otf file in "
                      "the game folder, or {family: NAME} from an installed font package)",
                      node, key)
        path = _inside(spec, folder, node, key)
        _check_font_file(path, spec, node, key)
        return FontFile(font_name(path), path, 0, spec, node.file, line, col)
    if not isinstance(spec, LocDict):
        raise err(f"font for style '{key}' must be a font name, a file or a mapping, not "
                  f"{type_name(spec)}", node, key)
    check_keys(spec, SPEC_KEYS, f"font '{key}'")
    if ("file" in spec) == ("family" in spec):
        raise err(f"font '{key}' needs either 'file' (a font file in the game folder) or "
                  "'family' (a font from an installed package)", node, key)
    if "file" in spec:
        rel = spec["file"]
        if not isinstance(rel, str) or not rel.lower().endswith(FONT_SUFFIXES):
            raise err(f"font file must be a .ttf, .otf, .ttc or .otc file, not "
                      f"{type_name(rel)}", spec, "file")
        index = spec.get("index", 0)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < 64:
            raise err("index must be a whole number 0 to 63 (the face in a font collection)",
                      spec, "index")
        path = _inside(rel, folder, spec, "file")
        _check_font_file(path, rel, spec, "file", index)
        label = rel if not index else f"{rel} (face {index})"
        return FontFile(font_name(path, index), path, index, label, node.file, line, col)
    return _package_font(spec, key, line, col)


def _inside(rel: str, folder: Path | None, node: LocDict, key: str) -> Path:
    from components.confine import ConfineError, inside
    from components.schema import err

    if folder is None:
        raise err("a font file needs the game's folder", node, key)
    p = Path(rel)
    if p.is_absolute() or ".." in p.parts or "\0" in rel:
        raise err(f"font file '{rel}' must stay inside the game folder", node, key)
    try:
        full = inside(folder / p, folder)
    except ConfineError as exc:
        raise err(f"font file '{rel}' {exc}", node, key) from None
    if not full.is_file():
        raise err(f"font file '{rel}' does not exist in the game folder", node, key)
    return full


def _check_font_file(path: Path, rel: str, node: LocDict, key: str, index: int = 0) -> None:
    from components.schema import err

    size = path.stat().st_size
    if size > MAX_FONT_BYTES:
        raise err(f"font file '{rel}' is {size // (1024 * 1024)} MB (at most "
                  f"{MAX_FONT_BYTES // (1024 * 1024)} MB)", node, key)
    with path.open("rb") as fh:
        magic = fh.read(4)
    if magic not in FONT_MAGIC:
        raise err(f"'{rel}' is not a TrueType or OpenType font", node, key)
    if index and magic != b"ttcf":
        raise err(f"'{rel}' is a single font, not a collection: leave out 'index'", node, key)


def _package_font(spec: LocDict, key: str, line: int, col: int) -> FontFile:
    from components.schema import FontFile, err, suggest, type_name

    family = spec["family"]
    weight = spec.get("weight", 400)
    style = spec.get("style", "normal")
    if not isinstance(family, str):
        raise err("family must be a font family's name, such as Fira Sans", spec, "family")
    if isinstance(weight, bool) or not isinstance(weight, (int, str)) or (
            isinstance(weight, int) and not 1 <= weight <= 1000) or (
            isinstance(weight, str) and len(weight) > 40):
        raise err(f"weight must be a number 1 to 1000 (400 regular, 700 bold) or a name such "
                  f"as bold or black, not {type_name(weight)}", spec, "weight")
    if not isinstance(style, str) or style not in ("normal", "italic"):
        raise err(f"style must be normal or italic{suggest(str(style), ('normal', 'italic'))}",
                  spec, "style")
    try:
        import fontpkg
    except ImportError:  # pragma: no cover - fontpkg is a dependency of irata
        raise err("fonts from packages need the fontpkg package", spec, "family") from None
    installed = {f.name: f for f in fontpkg.families().values()}
    try:
        fam = fontpkg.family(family)
    except fontpkg.FontpkgError:
        raise err(f"no installed font package has the family '{family}' (installed: "
                  f"{', '.join(sorted(installed)) or 'none'}{suggest(family, list(installed))}; "
                  "install one with pip, for example fontpkg-fira-sans)", spec, "family"
                  ) from None
    try:
        path = fontpkg.select_file(fam, fontpkg.normalize_weight(weight),
                                   fontpkg.normalize_style(str(style))).path
    except fontpkg.FontpkgError as exc:
        raise err(f"font '{key}': {exc}", spec, "weight" if "weight" in spec else "family"
                  ) from None
    label = fam.name + ("" if weight in (400, "regular", "normal") else f" {weight}") + (
        " italic" if style == "italic" else "")
    path = Path(path).resolve()
    return FontFile(font_name(path), path, 0, label, spec.file, line, col)
