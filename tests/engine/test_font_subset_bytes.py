"""A font subset embedded in an SVG is the same bytes whenever it is cut: a print made a
minute later writes the same files (and a cached sheet is what a full build writes)."""

from __future__ import annotations

from fontTools.ttLib.tables import _h_e_a_d

from generator import fonts


def test_a_subset_cut_at_another_time_has_the_same_bytes(monkeypatch):
    name = fonts.embeddable("Helvetica")
    chars = frozenset("Draw two cards 123")
    monkeypatch.setattr(_h_e_a_d, "timestampNow", lambda: 3_000_000_000)
    first = fonts.subset_bytes.__wrapped__(name, chars)
    monkeypatch.setattr(_h_e_a_d, "timestampNow", lambda: 3_000_086_400)  # a day later
    again = fonts.subset_bytes.__wrapped__(name, chars)
    assert first == again
    assert len(first) > 1000  # a font, with its glyphs
