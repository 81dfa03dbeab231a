"""The duplex calibration sheet: a front with main scales, a back with verniers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

from generator.calibrate import calibration_sheets
from generator.drawing import Line, Text
from generator.layout import Settings, mirror


def test_calibrate_writes_a_two_page_pdf(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "irata.cli", "calibrate", "--paper", "letter",
                        "--duplex", "short", "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    doc = pymupdf.open(tmp_path / "calibrate-letter-short.pdf")
    assert doc.page_count == 2
    assert "--back-offset" in doc[0].get_text()
    assert "Back" in doc[1].get_text()


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_vernier_zero_lands_on_the_main_scale_zero(duplex: str) -> None:
    s = Settings("a4", duplex)
    front, back = calibration_sheets(s)
    # the front's zero ticks (labelled "0") and the back's zero lines, seen through the paper
    zeros = [m for m in front.marks if isinstance(m, Text) and m.text == "0"]
    assert len(zeros) == 6
    back_lines = [m for m in back.marks if isinstance(m, Line)]
    for z in zeros[::2]:  # the horizontal scales: label centred over its tick
        x = z.x
        tick_y = z.y + 0.8 + 4.0  # label baseline sits 0.8 mm above a 4 mm tick
        bx, by, _, _ = mirror((x, tick_y, 0, 0), front.w, front.h, s, False)
        assert any(abs(b.x1 - bx) < 1e-6 and abs(b.y1 - by) < 1e-6 for b in back_lines)
