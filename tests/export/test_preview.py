"""irata preview: one face, rasterised from the PDF irata prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from generator import raster
from irata.cli import main


def _run(args: list[str]) -> int:
    with pytest.raises(SystemExit) as exc:
        main(args)
    return int(exc.value.code or 0)


def test_preview_is_the_printed_pdf_pixel_for_pixel(tmp_path: Path) -> None:
    """``irata print`` writes the PDF; its page is rasterised at the preview's dpi and the
    card's trim box cut out. At 508 dpi every 0.05 mm is a whole pixel, so the printed trim
    boxes (at 9.75 mm, 15.15 mm, ...) land on whole pixels and no resampling is involved: the
    preview's pixels must be the printed pixels, every one of them (fronts, and backs on the
    back pages)."""
    dpi = 508.0
    assert _run(["print", "mule-goes-crazy", "--format", "pdf", "--out",
                 str(tmp_path / "print")]) == 0
    pdf = tmp_path / "print" / "mule-goes-crazy" / "mule-goes-crazy.pdf"
    manifest = json.loads((pdf.parent / "manifest.json").read_text(encoding="utf-8"))
    pages: dict[int, Image.Image] = {}
    compared = 0
    for sheet in manifest["sheets"][:2]:  # a front page and its back page
        # the preview shows the first copy, where the sheet prints it
        for pl in [p for p in sheet["placements"] if p["copy"] == 1][:1]:
            trim = tuple(pl["trim_mm"])
            assert raster.on_whole_pixels(trim, dpi, 1e-3)
            if sheet["page"] not in pages:
                pages[sheet["page"]] = raster.render_page(pdf, sheet["page"] - 1, dpi)
            printed = pages[sheet["page"]].crop(raster.box_px(trim, dpi))
            out = tmp_path / f"{compared}.png"
            assert _run(["preview", "mule-goes-crazy", pl["component"], "--face", pl["face"],
                         "--dpi", "508", "--trim", "--out", str(out)]) == 0
            with Image.open(out) as im:
                preview = im.convert("RGB")
            assert preview.size == printed.size
            assert ImageChops.difference(preview, printed).getbbox() is None, pl["component"]
            compared += 1
    assert compared == 2


def test_a_face_moved_on_the_page_is_not_pixel_identical(tmp_path: Path) -> None:
    """Why the preview draws the face where the sheet prints it: the same face alone on a
    page of its own differs from the printed one on curve and stroke edges, even when both
    trims lie on whole pixels (PDFium's anti-aliasing is not translation-invariant). The
    difference is small (under 2 levels of 255 on average), which is the tolerance the
    Tabletop Simulator comparison relies on, but it is not zero."""
    from components import load
    from generator.build import BuildOptions, build, icon_source
    from generator.layout import Settings

    dpi = 254.0
    game = load("mule")
    result = build(game, BuildOptions(Settings(), ("pdf",), tmp_path))
    sheet, pl = next((s, p) for s in result.sheets for p in s.placements
                     if p.comp.id == "unlucky/lost-wallet" and p.face == "front")
    assert raster.on_whole_pixels(pl.trim, dpi, 1e-4)
    page = raster.render_page(result.pdf, sheet.page - 1, dpi)  # type: ignore[arg-type]
    printed = page.crop(raster.box_px(pl.trim, dpi))
    alone = raster.trim_of(next(raster.render_faces(
        [raster.Face(pl.comp, "front", pl.drawing)], dpi, icon_source(game))), pl.drawing, dpi)
    hist = ImageChops.difference(alone, printed).convert("L").histogram()
    mean = sum(i * n for i, n in enumerate(hist)) / sum(hist)
    assert alone.size == printed.size
    assert 0 < mean < 2.0


def test_preview_with_bleed_and_back(tmp_path: Path) -> None:
    out = tmp_path / "back.png"
    assert _run(["preview", "mule", "unlucky/land-tax", "--face", "back", "--dpi", "100",
                 "--out", str(out)]) == 0
    with Image.open(out) as im:
        # trim plus 3 mm bleed each side at 100 dpi (edges rounded to whole pixels)
        assert abs(im.width - 69.5 / 25.4 * 100) <= 1
        assert abs(im.height - 94.9 / 25.4 * 100) <= 1


@pytest.mark.parametrize(("args", "message"), [
    (["mule", "lost-walet"], "did you mean"),
    (["muli", "board", "--face", "back"], "one-sided"),
    (["mule", "lost-wallet", "--dpi", "5000"], "--dpi': 5000 is out of range (10 to 1200)"),
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
    manifest = json.loads((tmp_path / "muli" / "manifest.json").read_text(encoding="utf-8"))
    for sheet in manifest["sheets"]:
        with Image.open(tmp_path / "muli" / sheet["png"]) as im:
            w, h = sheet["page_mm"]
            assert im.size == (round(w / 25.4 * 40), round(h / 25.4 * 40))


def test_png_sheets_are_replaced_whole(tmp_path: Path) -> None:
    assert _run(["print", "muli", "--format", "png", "--dpi", "20", "--out",
                 str(tmp_path)]) == 0
    first = sorted(p.name for p in (tmp_path / "muli" / "png").iterdir())
    assert _run(["print", "muli", "--format", "png", "--duplex", "none", "--dpi", "20",
                 "--out", str(tmp_path)]) == 0
    second = sorted(p.name for p in (tmp_path / "muli" / "png").iterdir())
    manifest = json.loads((tmp_path / "muli" / "manifest.json").read_text(encoding="utf-8"))
    # exactly the new print's sheets: the duplex print's back page is gone
    assert ["png/" + n for n in second] == sorted(s["png"] for s in manifest["sheets"])
    assert any("back" in n for n in first) and not any("back" in n for n in second)
    assert sorted(p.name for p in (tmp_path / "muli").iterdir()) == ["manifest.json", "png"]
