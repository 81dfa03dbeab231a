"""Whether Helvetica (WinAnsi, cp1252) can set a text: the whole-text shortcut of
``fonts._missing_in_winansi`` answers as the character-by-character rule does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from generator import fonts

# footers and marks as they come: Latin text, accents, the middle dot, Hebrew and Arabic
# names, control characters, tabs and new lines, euro and typographic quotes
_TEXT = st.text(st.one_of(
    st.sampled_from(list("ab Z09·–—€‘’“”…éÅœŠžÿ\t\n\x00\x7f\x81\u00a0")),
    st.characters(min_codepoint=0x20, max_codepoint=0x24FF),
    st.characters(min_codepoint=0x0590, max_codepoint=0x06FF),
), max_size=60)


@settings(max_examples=1500, deadline=None)
@given(_TEXT)
def test_the_shortcut_finds_what_each_character_finds(text: str) -> None:
    fonts._missing_in_winansi.cache_clear()
    expected = tuple(ch for ch in dict.fromkeys(text) if not fonts._winansi(ch))
    assert fonts._missing_in_winansi(text) == expected


def test_a_footer_in_latin_is_set_and_one_in_hebrew_is_not() -> None:
    assert fonts._missing_in_winansi("Floor deck · edition 1.0 · sheet 12 of 1112 · “front”") == ()
    assert fonts._missing_in_winansi("Scripts · חפיסה") == tuple("חפיסה")
    assert fonts._missing_in_winansi("a\x81b") == ("\x81",)  # (cp1252 leaves 0x81 undefined)
