"""Text boxes: wrapping, shrinking to fit, inline icons, and the build's fit report."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from generator import text as t
from generator.drawing import PT, Icon, Text

FONTS = ("Helvetica", "Helvetica-Bold")
ICONS = frozenset({"food", "energy"})


def test_short_text_keeps_its_size() -> None:
    size, lines, fit = t.fit("Hello there", FONTS, ICONS, 50, 10, 9, 5, 1.2)
    assert size == 9 and fit.fits and len(lines) == 1


def test_long_text_wraps_within_the_width() -> None:
    words = "Each Land producing Food makes two more this turn, and every Land " * 3
    size, lines, fit = t.fit(words, FONTS, ICONS, 50, 60, 9, 5, 1.2)
    assert fit.fits and len(lines) > 3
    for line in lines:
        assert t.line_width(line, FONTS, size) <= 50 + 1e-6


def test_text_shrinks_in_quarter_points_until_it_fits() -> None:
    words = "word " * 120
    size, lines, fit = t.fit(words, FONTS, ICONS, 50, 40, 9, 4, 1.2)
    assert fit.fits and size < 9 and fit.wanted == 9
    assert abs(size * 4 - round(size * 4)) < 1e-9
    assert t.block_height(len(lines), size, 1.2) <= 40
    # a quarter point larger would not fit
    bigger, ok = t.wrap(t.tokenize(words, ICONS), FONTS, size + 0.25, 50)
    assert not ok or t.block_height(len(bigger), size + 0.25, 1.2) > 40


def test_text_that_cannot_fit_is_reported_as_not_fitting() -> None:
    size, _, fit = t.fit("word " * 500, FONTS, ICONS, 30, 10, 9, 6, 1.2)
    assert not fit.fits and size == 6


def test_icons_sit_on_the_baseline_at_the_text_size() -> None:
    size, lines, _ = t.fit("Gain {food} now", FONTS, ICONS, 60, 10, 10, 5, 1.2)
    prims = t.render_lines(lines, FONTS, size, 0, 0, 60, 10, "left", "top", 1.2, "#000000")
    icon = next(p for p in prims if isinstance(p, Icon))
    text = next(p for p in prims if isinstance(p, Text))
    assert icon.name == "food"
    assert abs(icon.size - 10 * t.ICON_EM * PT) < 1e-9
    bottom = icon.y + icon.size
    assert text.y <= bottom <= text.y + 0.3 * icon.size  # sits on the baseline
    words = [p.text for p in prims if isinstance(p, Text)]
    assert words == ["Gain ", " now"]


def test_bold_runs_use_the_bold_font() -> None:
    size, lines, _ = t.fit("a **bold** word", FONTS, ICONS, 60, 10, 10, 5, 1.2)
    prims = t.render_lines(lines, FONTS, size, 0, 0, 60, 10, "left", "top", 1.2, "#000000")
    fonts = {p.text.strip(): p.font for p in prims if isinstance(p, Text)}
    assert fonts == {"a": "Helvetica", "bold": "Helvetica-Bold", "word": "Helvetica"}


def test_build_reports_shrunk_and_overflowing_text_and_strict_fails(deck_dir: Path,
                                                                     tmp_path: Path) -> None:
    cards = deck_dir / "cards.yaml"
    long_text = " ".join(["An unreasonably long rule text that keeps going."] * 12)
    huge = " ".join(["Far too much text for any card at all."] * 60)
    cards.write_text(cards.read_text()
                     .replace('text: "A third card."', f'text: "{long_text}"')
                     .replace('text: "A fourth card."', f'text: "{huge}"'))
    args = [sys.executable, "-m", "irata.cli", "print", "--components", str(deck_dir),
            "--out", str(tmp_path), "--format", "pdf"]
    r = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "shrank: " in r.stderr and "card/gamma (front, text)" in r.stderr
    assert "does not fit: " in r.stderr and "card/delta (front, text)" in r.stderr
    assert "cards.yaml:" in r.stderr
    strict = subprocess.run(args + ["--strict"], capture_output=True, text=True, timeout=120)
    assert strict.returncode == 2
    assert strict.stderr.strip().splitlines()[-1].startswith("error: --strict: 1 text(s)")


def test_watch_prints_with_the_same_ink_and_strictness(deck_dir: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    """What --watch runs on each save: the print's own options (--ink among them), and under
    --strict an error line for text that does not fit, the watch going on."""
    import json

    from components import load_path
    from generator.build import BuildOptions
    from generator.layout import Settings
    from irata.print_cmd import watch_printer

    cards = deck_dir / "cards.yaml"
    huge = " ".join(["Far too much text for any card at all."] * 60)
    cards.write_text(cards.read_text().replace('text: "A fourth card."', f'text: "{huge}"'))
    opts = BuildOptions(Settings(), ("pdf",), tmp_path, ink="saver")
    watch_printer(opts, strict=True)(load_path(deck_dir))
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1] == ("error: --strict: 1 text(s) do not fit their "
                                            "boxes (listed above)")
    manifest = next(tmp_path.glob("*/manifest.json"))
    assert json.loads(manifest.read_text())["ink"] == "saver"
    watch_printer(opts, strict=False)(load_path(deck_dir))
    assert "--strict" not in capsys.readouterr().err


def test_a_word_glued_to_punctuation_moves_to_the_next_line_whole() -> None:
    text = "Whenever you visit the **Sacred Tree**, gain 2 {food}."
    size, lines, fit = t.fit(text, FONTS, ICONS, 51.5, 30, 9, 5, 1.2)
    assert fit.fits and size == 9
    for line in lines:
        assert t.line_width(line, FONTS, size) <= 51.5 + 1e-6
    flat = ["".join(p.text for p in line) for line in lines]
    assert any(line.endswith("Tree,") or "Tree," in line for line in flat)


def test_the_largest_fitting_size_is_found_even_when_fitting_is_not_monotonic() -> None:
    text = "Whenever you visit the **Sacred Tree**, gain 2 {food}. " * 3
    size, _, fit = t.fit(text, FONTS, ICONS, 51.5, 25, 9, 5, 1.2)
    assert fit.fits
    for k in range(1, int((9 - size) / t.STEP) + 1):  # every larger quarter point fails
        bigger = size + k * t.STEP
        lines, ok = t.wrap(t.tokenize(text, ICONS), FONTS, bigger, 51.5)
        assert not ok or t.block_height(len(lines), bigger, 1.2) > 25


def test_field_text_reaches_the_rule_data(deck_dir: Path) -> None:
    from components import load_path
    from generator.draw import Options, draw_component
    from generator.drawing import walk

    (deck_dir / "rules.yaml").write_text("data:\n  prices: {land: 8}\n")
    cards = deck_dir / "cards.yaml"
    cards.write_text(cards.read_text().replace('text: "Fifth."',
                                               'text: "Buy a Land for $${data.prices.land}."'))
    game = load_path(deck_dir)
    faces = draw_component(game, game.component("card/epsilon"), Options())
    texts = "".join(p.text for p in walk(faces.front.items) if isinstance(p, Text))
    assert "Buy a Land for $8." in texts
