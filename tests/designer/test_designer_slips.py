"""What a designer meets when making a game from scratch: a print says only what matters on
stderr, and each usual slip (a misspelt key, a missing layout, a wrong file name in a
spreadsheet cell) is one error line at the place to fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fontTools.ttLib import TTFont
from fontTools.ttLib.tables.DefaultTable import DefaultTable

GAME = """\
game: slips
name: Slips
fonts:
  body: fonts/Body.ttf
"""

CARDS = """\
layouts:
  face:
    - {type: text, text: "${title}", x: 5, y: 5, w: 50, h: 10, size: 11}
defaults: {kind: card, size: poker, front: face}
components:
  - {id: c/one, title: One}
"""


def test_a_font_with_a_table_the_subsetter_does_not_know_prints_quietly(
        game_dir: Any, font_maker: Any, cli: Any, tmp_path: Path) -> None:
    # FontForge writes an 'FFTM' table (its timestamps) into the fonts it saves, as
    # Liberation's: fontTools' subsetter drops it with a logged warning, which reached the
    # designer's terminal once per SVG sheet
    folder = game_dir({"game.yaml": GAME, "cards.yaml": CARDS})
    path = font_maker(folder / "fonts" / "Body.ttf", "One", "Body", cff=False)
    font = TTFont(str(path))
    fftm = DefaultTable("FFTM")
    fftm.data = bytes(28)
    font["FFTM"] = fftm
    font.save(str(path))
    r = cli("print", "--components", str(folder), "--out", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    assert "FFTM" not in r.stderr and "subset" not in r.stderr, r.stderr


def test_a_clean_print_or_export_says_nothing_on_stderr(game_dir: Any, cli: Any,
                                                        tmp_path: Path) -> None:
    # a progress bar belongs on a terminal: into a log it wrote its bare label ("slips   ")
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": CARDS})
    out = str(tmp_path / "out")
    for args in (("print",), ("export", "tts", "slips"), ("export", "pod", "slips", "--vendor", "tgc")):
        r = cli(*args, "--components", str(folder), "--out", out)
        assert r.returncode == 0, r.stderr
        assert r.stderr == "", (args, r.stderr)
