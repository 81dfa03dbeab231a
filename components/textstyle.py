"""A game's text settings in game.yaml: keywords styled wherever they appear, hyphenation.

```yaml
hyphenate: en          # long words may break with a hyphen, by English rules (off if absent)
keywords:              # every "Food" in the game's text, bold and green
  Food: {bold: true, color: food}
  Crystite: {italic: true, color: "#6a4fb3", size: 110%}
```

A keyword is a word or a few words, matched whole and with its case; its style takes the
keys a span's does (``bold``, ``italic``, ``color``, ``size``, ``font``). This module checks
the values; the generator (``generator.text``) applies them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from components.yamlloc import LocDict

KEYWORD_KEYS = ("bold", "italic", "color", "size", "font")
MAX_KEYWORDS = 200


@dataclass(frozen=True)
class Keyword:
    """One keyword's style, as game.yaml gives it, and where."""

    bold: bool | None = None
    italic: bool | None = None
    color: str | None = None
    scale: float | None = None  # of the text's size
    font: str | None = None
    file: str = ""
    line: int = 0
    col: int = 0


def check_hyphenate(value: Any, node: LocDict) -> str:
    """``hyphenate: en``: a language pyphen has a dictionary for (``""``: off)."""
    from components.schema import err, suggest

    if value in (None, False, "", "off", "no"):
        return ""
    import pyphen

    langs = sorted(pyphen.LANGUAGES)
    if not isinstance(value, str) or len(value) > 20 or not pyphen.language_fallback(value):
        shown = str(value)[:20]
        raise err(f"hyphenate must be a language such as en, en_GB, de, fr or nl (one of "
                  f"pyphen's {len(langs)} dictionaries), not '{shown}'"
                  f"{suggest(shown, langs)}", node, "hyphenate")
    return value


def check_keywords(value: Any, node: LocDict, palette: dict[str, str],
                   fonts: dict[str, str]) -> dict[str, Keyword]:
    """``keywords: {Food: {bold: true, color: food}}``, checked."""
    from components.schema import check_keys, err, expect_mapping, suggest, type_name

    if value is None:
        return {}
    mapping = expect_mapping(value, "keywords", node, "keywords")
    if len(mapping) > MAX_KEYWORDS:
        raise err(f"at most {MAX_KEYWORDS} keywords", node, "keywords")
    out: dict[str, Keyword] = {}
    for word, style in mapping.items():
        if not isinstance(word, str) or not 0 < len(word) <= 60 or not re.search(r"\w", word):
            raise err(f"a keyword must be a word or a few words (at most 60 characters), not "
                      f"{type_name(word)}", mapping, word)
        if not isinstance(style, LocDict):
            raise err(f"keyword '{word}' needs a style such as {{bold: true, color: green}}, "
                      f"not {type_name(style)}", mapping, word)
        check_keys(style, KEYWORD_KEYS, f"keyword '{word}'")
        for flag in ("bold", "italic"):
            if flag in style and not isinstance(style[flag], bool):
                raise err(f"{flag} must be true or false", style, flag)
        colour = style.get("color")
        if colour is not None and not isinstance(colour, str):
            raise err("color must be '#rrggbb' or a palette name", style, "color")
        scale = None
        if "size" in style:
            m = re.fullmatch(r"(\d{1,3}(?:\.\d+)?)%", str(style["size"]))
            if not m or not 10 <= float(m.group(1)) <= 400:
                raise err("size must be a percentage of the text's size, 10% to 400% "
                          "(size: 120%)", style, "size")
            scale = float(m.group(1)) / 100
        font = style.get("font")
        if font is not None and (not isinstance(font, str) or font not in fonts):
            raise err(f"unknown font '{str(font)[:30]}' for keyword '{word}' (expected a "
                      f"name under fonts:{suggest(str(font), list(fonts))})", style, "font")
        line, col = mapping.at(word)
        out[word] = Keyword(style.get("bold"), style.get("italic"), colour, scale, font,
                            mapping.file or "", line, col)
    return out
