"""irata preview: one face, rasterised from the PDF irata prints."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from components import load
from generator import raster
from generator.build import BuildOptions, build
from generator.layout import Settings
from irata.cli import main


def _run(args: list[str]) -> int:
    with pytest.raises(SystemExit) as exc:
        main(args)
    return int(exc.value.code or 0)


def test_preview_matches_the_card_cut_from_the_printed_page(tmp_path: Path) -> None:
    """At 254 dpi every 0.1 mm is a whole pixel, so the printed card's trim box and the
    preview's both land on whole pixels and are compared without any resampling.

    They are still not identical bit for bit: PDFium's anti-aliasing of text and curves is
    not invariant under a whole-pixel translation of the same form XObject (measured here:
    the same face placed at 3 mm and at 13 mm on one page differs on about 1-8% of pixels,
    all on glyph and curve edges). So the test demands the same size, at least 90% of pixels
    identical, a mean difference under 2 levels of 255, and that another card of the same
    deck is far from that.
    """
    dpi = 254.0
    out = tmp_path / "lost-wallet.png"
    assert _run(["preview", "mule", "lost-wallet", "--dpi", "254", "--trim",
                 "--out", str(out)]) == 0
    preview = Image.open(out).convert("RGB")
    assert preview.size == (635, 889)  # 63.5 x 88.9 mm at 10 px/mm
    result = build(load("mule"), BuildOptions(Settings(), ("pdf",), tmp_path / "print"))

    def printed(comp_id: str) -> Image.Image:
        sheet, pl = next((s, p) for s in result.sheets for p in s.placements
                         if p.comp.id == comp_id and p.face == "front")
        assert raster.on_whole_pixels(pl.trim, dpi, 1e-4)
        page = raster.render_page(result.pdf, sheet.page - 1, dpi)  # type: ignore[arg-type]
        return page.crop(raster.box_px(pl.trim, dpi))

    def compare(a: Image.Image, b: Image.Image) -> tuple[float, float]:
        diff = ImageChops.difference(a, b).convert("L")
        hist = diff.histogram()
        total = sum(hist)
        return hist[0] / total, sum(i * n for i, n in enumerate(hist)) / total

    same, mean = compare(preview, printed("unlucky/lost-wallet"))
    assert same >= 0.90 and mean < 2.0
    other_same, other_mean = compare(preview, printed("unlucky/land-tax"))
    assert other_mean > 3 * mean and other_same < same


def test_preview_with_bleed_and_back(tmp_path: Path) -> None:
    out = tmp_path / "back.png"
    assert _run(["preview", "mule", "unlucky/land-tax", "--face", "back", "--dpi", "100",
                 "--out", str(out)]) == 0
    with Image.open(out) as im:
        # trim plus 3 mm bleed each side at 100 dpi
        assert im.size == (round(69.5 / 25.4 * 100), round(94.9 / 25.4 * 100))


@pytest.mark.parametrize(("args", "message"), [
    (["mule", "lost-walet"], "did you mean"),
    (["muli", "board", "--face", "back"], "one-sided"),
    (["mule", "lost-wallet", "--dpi", "5000"], "dpi must be between"),
])
def test_preview_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     args: list[str], message: str) -> None:
    code = _run(["preview", *args, "--out", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1
    assert message in err
    assert not (tmp_path / "x.png").exists()


def test_print_format_png_writes_every_sheet(tmp_path: Path) -> None:
    assert _run(["print", "muli", "--format", "pdf,png", "--dpi", "40", "--out",
                 str(tmp_path)]) == 0
    import json

    manifest = json.loads((tmp_path / "muli" / "manifest.json").read_text(encoding="utf-8"))
    for sheet in manifest["sheets"]:
        with Image.open(tmp_path / "muli" / sheet["png"]) as im:
            w, h = sheet["page_mm"]
            assert im.size == (round(w / 25.4 * 40), round(h / 25.4 * 40))
