"""No font irata writes is left to the printer's or viewer's own: every font in every PDF
(prints, the calibration sheet, print-on-demand decks; the errata reprint is tested with
the errata) is
embedded, and every SVG sheet carries the glyphs of each font its text names. A print shop's
preflight rejects a file with an unembedded font (Helvetica was, for footers and marks)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from components import list_games, load
from irata.cli import main

sys.path.insert(0, str(Path(__file__).parents[1]))
from pdfcheck import preflight, unembedded_fonts  # noqa: E402


def _run(*args: str) -> None:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    assert done.value.code in (0, None)


@pytest.mark.parametrize("game", list_games())
def test_every_pdf_and_svg_of_a_bundled_game_embeds_its_fonts(tmp_path: Path,
                                                              game: str) -> None:
    _run("print", game, "--out", str(tmp_path), "--format", "pdf,svg", "--stamp", "qr")
    folder = tmp_path / game
    pdfs = sorted(folder.glob("*.pdf"))
    assert pdfs
    for pdf in pdfs:
        pf, doc = preflight(pdf)
        doc.close()
        assert pf.fonts, f"{pdf.name} sets text in no font at all"
        assert [f for f, ok in pf.fonts.items() if not ok] == [], pdf.name
        assert not any("Helvetica" in f for f in pf.fonts)
    svgs = sorted((folder / "svg").glob("*.svg"))
    assert svgs
    for svg in svgs:
        text = svg.read_text(encoding="utf-8")
        faces = set(re.findall(r"@font-face\{font-family:'([^']+)'", text))
        used = {m.split(",")[0].strip().strip("'\"")
                for m in re.findall(r'font-family="([^"]+)"', text)}
        assert used, f"{svg.name} sets no text"
        assert used <= faces, f"{svg.name}: {sorted(used - faces)} not embedded"


def test_calibration_sheet_and_pod_decks_embed_their_fonts(tmp_path: Path) -> None:
    _run("calibrate", "--out", str(tmp_path))
    _run("export", "pod", "mutagen", "--vendor", "dtc", "--out", str(tmp_path))
    pdfs = [*tmp_path.glob("calibrate-*.pdf"),
            *sorted((tmp_path / "mutagen" / "pod-dtc").glob("*.pdf"))]
    assert len(pdfs) > 1
    for pdf in pdfs:
        assert unembedded_fonts(pdf) == [], pdf.name


def test_home_prints_say_what_they_are_and_when(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Title, Subject (name and edition) and the build's date, reproducible with
    SOURCE_DATE_EPOCH; a page holding one piece has that piece's TrimBox and BleedBox."""
    import pikepdf

    from generator.build import BuildOptions, build
    from generator.layout import Settings

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01 00:00 UTC
    game = load("muli")
    result = build(game, BuildOptions(Settings(), ("pdf",), tmp_path))
    single = 0
    for path in result.pdfs:
        with pikepdf.open(path) as pdf:
            info = pdf.docinfo
            assert str(info.Title) == game.name
            assert game.edition in str(info.Subject) and game.name in str(info.Subject)
            assert str(info.CreationDate).startswith("D:20260101000000")
            for page, sheet in zip(pdf.pages, [s for s in result.sheets if
                                               s.file == path.name], strict=True):
                trim = [float(v) for v in page.obj.get("/TrimBox", page.obj.MediaBox)]
                media = [float(v) for v in page.obj.MediaBox]
                if len(sheet.placements) == 1:
                    single += 1
                    x, y, w, h = sheet.placements[0].trim
                    want = [x * 72 / 25.4, (sheet.h - y - h) * 72 / 25.4,
                            (x + w) * 72 / 25.4, (sheet.h - y) * 72 / 25.4]
                    assert trim == pytest.approx(want, abs=0.01)
                    assert trim != pytest.approx(media, abs=0.01)
    assert single > 0  # Das Störrische Muli's board parts and rules sheet
    again = build(game, BuildOptions(Settings(), ("pdf",), tmp_path / "again"))
    assert [p.read_bytes() for p in again.pdfs] == [p.read_bytes() for p in result.pdfs]


def test_the_embedded_stand_in_is_cached_and_a_damaged_cache_is_cut_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import fontpkg
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from generator import fonts

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    fam = fontpkg.families()["arimo"]
    path = Path(fontpkg.select_file(fam, 700, "normal").path)
    first = fonts._house_bytes(path, 700, False)
    [cached] = (tmp_path / "irata" / "fonts").glob("Arimo-*-700-*.ttf")
    assert cached.read_bytes() == first
    cached.write_bytes(b"\x00\x01\x00\x00 not a font")
    name = fonts._register_house("Helvetica-Bold", 700, False)
    assert cached.read_bytes() == first  # cut again and kept
    # Helvetica's widths, as the layout measured them
    text = "Smithore, Crystite & Energy: 12 / 34"
    assert stringWidth(text, name, 10) == pytest.approx(stringWidth(text, "Helvetica-Bold", 10),
                                                        abs=0.05)
