"""What a designer meets when making a game from scratch: a print says only what matters on
stderr, and each usual slip (a misspelt key, a missing layout, a wrong file name in a
spreadsheet cell) is one error line at the place to fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
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
    for args in (("print",), ("export", "tts", "slips"),
                 ("export", "pod", "slips", "--vendor", "tgc")):
        r = cli(*args, "--components", str(folder), "--out", out)
        assert r.returncode == 0, r.stderr
        assert r.stderr == "", (args, r.stderr)


def _error(folder: Path) -> str:
    from components import load_path
    from components.errors import DefinitionError

    try:
        load_path(folder)
    except DefinitionError as exc:
        return str(exc)
    raise AssertionError("the folder loaded without an error")


def _at(msg: str, folder: Path) -> str:
    """The message from the file's name in the game folder on: FILE:LINE:COL: ..."""
    return msg.split(f"{folder.name}/", 1)[-1]


SHEET_YAML = """\
layouts:
  face:
    - {type: text, text: "${title}", x: 5, y: 5, w: 50, h: 10}
defaults:
  kind: card
  size: poker
  front: face
  group: Cards
components_from: cards.csv
"""


def test_a_misspelt_key_under_defaults_is_named_where_it_is(game_dir: Any) -> None:
    # 'gruop' used to become a field of every card, and the error was the inventory's
    # count of the group that no card joined
    yaml = SHEET_YAML.replace("  group: Cards", "  gruop: Cards")
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\ninventory:\n"
                                    "  - {group: Cards, count: 1}\n",
                       "cards.yaml": yaml, "cards.csv": "id,title\nc/one,One\n"})
    msg = _error(folder)
    assert _at(msg, folder).startswith("cards.yaml:8:3: unknown key 'gruop' in defaults"), msg
    assert "did you mean 'group'?" in msg


def test_a_required_key_misspelt_beyond_the_slip_check_is_pointed_at(game_dir: Any) -> None:
    cards = CARDS.replace("{id: c/one, title: One}", "{id: c/one, title: One, sise: poker}")
    cards = cards.replace("size: poker, ", "")
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": cards})
    msg = _error(folder)
    assert _at(msg, folder).startswith("cards.yaml:6:29: component 'c/one' needs a 'size'"), msg
    assert "did you mean 'size' for 'sise'?" in msg


def test_an_id_with_a_dot_is_quoted_plainly(game_dir: Any) -> None:
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": SHEET_YAML,
                       "cards.csv": "id,title\nc/one,One\nc/t.wo,Two\n"})
    msg = _error(folder)
    assert _at(msg, folder).startswith("cards.csv:3:1: component id 'c/t.wo' must be "), msg


def test_rows_without_a_layout_say_so_not_that_a_column_is_unknown(game_dir: Any) -> None:
    yaml = SHEET_YAML.replace("  front: face\n", "")
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": yaml,
                       "cards.csv": "id,title\nc/one,One\n"})
    msg = _error(folder)
    assert _at(msg, folder).startswith("cards.csv:1:1: these rows have no layout"), msg
    assert "front: LAYOUT" in msg and "unknown column" not in msg


def test_a_missing_image_named_in_a_spreadsheet_cell_is_located_at_the_cell(
        game_dir: Any, cli: Any) -> None:
    # the error named the layout's `path: "${art}"` in the YAML, not the row that misspelt it
    yaml = SHEET_YAML.replace('    - {type: text', '    - {type: image, path: "${art}", x: 5, '
                              'y: 20, w: 50, h: 40}\n    - {type: text')
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": yaml,
                       "art.png": "", "cards.csv": "id,title,art\nc/one,One,art/nope.png\n"})
    r = cli("check", "--components", str(folder))
    assert r.returncode == 2
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert _at(lines[0], folder).startswith("cards.csv:2:3: image 'art/nope.png' does not "
                                            "exist in the game folder"), lines[0]
    assert "field 'art'" in lines[0] and "cards.yaml:3" in lines[0]


def test_a_missing_image_written_in_the_layout_stays_located_there(game_dir: Any,
                                                                  cli: Any) -> None:
    yaml = SHEET_YAML.replace('    - {type: text', '    - {type: image, path: art/no.png, x: 5, '
                              'y: 20, w: 50, h: 40}\n    - {type: text')
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": yaml,
                       "cards.csv": "id,title\nc/one,One\n"})
    r = cli("check", "--components", str(folder))
    assert r.returncode == 2
    assert _at(r.stderr, folder).startswith("cards.yaml:3:7: image 'art/no.png' does not"), r.stderr


def test_check_strict_fails_on_text_that_does_not_fit_as_print_strict_does(
        game_dir: Any, cli: Any) -> None:
    # a designer's CI runs `irata check`; without --strict there it could not fail on this
    long = " ".join(["A sentence far too long for the title box of this card."] * 40)
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": SHEET_YAML,
                       "cards.csv": f'id,title\nc/one,"{long}"\n'})
    lax = cli("check", "--components", str(folder))
    assert lax.returncode == 0 and "does not fit" in lax.stderr
    strict = cli("check", "--components", str(folder), "--strict")
    assert strict.returncode == 2 and "Traceback" not in strict.stderr
    assert strict.stderr.splitlines()[-1] == ("error: --strict: 1 text(s) do not fit their "
                                              "boxes (listed above)")
    fits = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": SHEET_YAML,
                     "cards.csv": "id,title\nc/one,One\n"})
    assert cli("check", "--components", str(fits), "--strict").returncode == 0


def test_a_worksheet_the_workbook_lacks_is_refused_at_the_yaml_line_naming_it(
        game_dir: Any) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    yaml = SHEET_YAML.replace("components_from: cards.csv",
                              "components_from: {file: cards.xlsx, sheet: Rotues}")
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": yaml})
    book = openpyxl.Workbook()
    book.active.title = "Routes"
    book.active.append(["id", "title"])
    book.active.append(["c/one", "One"])
    book.save(folder / "cards.xlsx")
    msg = _at(_error(folder), folder)
    assert msg.startswith("cards.yaml:9:37: no worksheet 'Rotues' in "), msg
    assert "did you mean 'Routes'?" in msg


def test_a_quote_left_open_in_a_csv_names_the_line_it_broke_at(game_dir: Any) -> None:
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": SHEET_YAML,
                       "cards.csv": 'id,title\nc/one,"One\nc/two,"Two"\nc/three,Three\n'})
    msg = _at(_error(folder), folder)
    assert msg.startswith("cards.csv:3: malformed CSV: "), msg


def test_the_back_of_a_standee_is_explained_not_called_missing(game_dir: Any, cli: Any,
                                                               tmp_path: Path) -> None:
    # preview --face back of a standee said "is one-sided: it has no back", though its
    # definition has one: the back prints upside down on the strip with the front
    cards = CARDS + ("  - {id: s/hero, kind: standee, size: [30, 50], title: Hero, "
                     "front: face, back: face}\n")
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": cards})
    out = tmp_path / "hero.png"
    r = cli("preview", "--components", str(folder), "slips", "s/hero", "--face", "back",
            "--out", str(out))
    assert r.returncode == 2 and not out.exists()
    assert r.stderr == ("error: s/hero is a standee: its back prints on the same strip as its "
                        "front; preview --face front shows it whole\n")
    assert cli("preview", "--components", str(folder), "slips", "s/hero", "--out",
               str(out)).returncode == 0 and out.exists()


def test_a_dtc_export_of_one_deck_says_one_file(game_dir: Any, cli: Any,
                                                tmp_path: Path) -> None:
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": CARDS})
    r = cli("export", "pod", "slips", "--vendor", "dtc", "--components", str(folder),
            "--out", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    assert ", 1 file -> " in r.stdout, r.stdout


def test_a_game_name_that_is_not_one_word_is_quoted_plainly(game_dir: Any) -> None:
    folder = game_dir({"game.yaml": "game: ../sky\nname: Slips\n", "cards.yaml": CARDS})
    msg = _at(_error(folder), folder)
    assert msg.startswith("game.yaml:1:1: the game's name '../sky' must be one word"), msg


ERRATA = """\
errata:
  - id: E1
    version: "1.1"
    date: 2026-12-01
    summary: One reads Uno
    changes:
      - component: c/one
        set: {title: Uno}
"""


def test_errata_check_tells_a_designer_the_reprint_command_that_works(
        game_dir: Any, cli: Any, tmp_path: Path) -> None:
    # the hint said `irata print slips --since 1.0`, which knows only the bundled games
    import shlex

    folder = game_dir({"game.yaml": "game: slips\nname: Slips\nedition: '1.0'\n",
                       "cards.yaml": CARDS, "errata.yaml": ERRATA})
    r = cli("errata", "check", "--components", str(folder), "irata:slips/c/one@1.0")
    assert r.returncode == 0, r.stderr
    hint = r.stdout.splitlines()[0].split("Reprint it: ", 1)[1]
    assert hint == f"irata print slips --since 1.0 --components {shlex.quote(str(folder))}"
    reprint = cli(*shlex.split(hint)[1:], "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert reprint.returncode == 0, reprint.stderr
    assert (tmp_path / "out" / "slips" / "manifest-errata-1.0.json").is_file()


def test_a_one_page_print_says_one_page(game_dir: Any, cli: Any, tmp_path: Path) -> None:
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": CARDS})
    r = cli("print", "--components", str(folder), "--out", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    assert "1 component, 1 piece, 1 page -> " in r.stdout.splitlines()[0], r.stdout


def test_an_unknown_icon_in_a_text_is_refused_not_printed_in_braces(game_dir: Any,
                                                                   cli: Any) -> None:
    # `{mony}` passed check and printed as the word "{mony}" on the card
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": SHEET_YAML,
                       "cards.csv": "id,title\nc/one,Gain {mony}\n"})
    r = cli("check", "--components", str(folder))
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert _at(r.stderr, folder).startswith("cards.csv:2:2: unknown icon '{mony}' in a text")
    assert "did you mean 'money'?" in r.stderr
    fine = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": SHEET_YAML,
                     "cards.csv": "id,title\nc/one,Gain {money*2}\n"})
    assert cli("check", "--components", str(fine)).returncode == 0


def test_a_misspelt_group_is_named_before_the_count_it_leaves_short(game_dir: Any) -> None:
    yaml = SHEET_YAML.replace("  group: Cards", "  group: Card")
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\ninventory:\n"
                                    "  - {group: Cards, count: 1}\n",
                       "cards.yaml": yaml, "cards.csv": "id,title\nc/one,One\n"})
    msg = _at(_error(folder), folder)
    assert msg.startswith("cards.yaml:8:3: component 'c/one' is in group 'Card', which the "
                          "inventory in game.yaml does not list; did you mean 'Cards'?"), msg


def test_a_two_sided_piece_larger_than_the_page_prints_its_back_in_parts(
        game_dir: Any, cli: Any, tmp_path: Path) -> None:
    """A 250 x 200 mm two-sided tile is split over pages; with a duplex flip each part's back
    page holds the region of the back that lies behind it: the back's left half (red) behind
    the front's right part, its right half (blue) behind the front's left part. With fold
    there is no room for the back, and the print says so."""
    import json

    import pymupdf

    layouts = ("layouts:\n  face:\n    - {type: text, text: \"${title}\", x: 5, y: 5, w: 50, "
               "h: 10, size: 11}\n  halves:\n    - {type: rect, x: 0, y: 0, w: 125, h: 200, "
               "fill: \"#ff0000\"}\n    - {type: rect, x: 125, y: 0, w: 125, h: 200, "
               "fill: \"#0000ff\"}\n")
    cards = layouts + ("defaults: {kind: card, size: poker, front: face}\ncomponents:\n"
                       "  - {id: c/one, title: One}\n"
                       "  - {id: t/big, kind: tile, size: [250, 200], title: Big, front: face, "
                       "back: halves}\n")
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": cards})
    for duplex in ("long", "short"):
        out = tmp_path / duplex
        r = cli("print", "--components", str(folder), "--out", str(out), "--duplex", duplex)
        assert r.returncode == 0 and "no back" not in r.stderr, r.stderr
        manifest = json.loads((out / "slips" / "manifest.json").read_text())
        sheets = manifest["sheets"]
        fronts = {p["part"]: (s, p) for s in sheets for p in s["placements"]
                  if p["component"] == "t/big" and p["face"] == "front"}
        backs = {p["part"]: (s, p) for s in sheets for p in s["placements"]
                 if p["component"] == "t/big" and p["face"] == "back"}
        assert len(fronts) >= 2 and set(backs) == set(fronts)
        seen: set[tuple[int, int, int]] = set()
        for part, (fs, fp) in fronts.items():
            bs, bp = backs[part]
            assert bs["file"] == fs["file"] and bs["page"] == fs["page"] + 1
            fx, fy, fw, fh = fp["board_window_mm"]
            assert bp["board_window_mm"] == [round(250 - fx - fw, 3), fy, fw, fh]
            x, y, w, h = bp["trim_mm"]
            page = pymupdf.open(out / "slips" / bs["file"])[bs["page"] - 1]
            pix = page.get_pixmap(dpi=20)
            pw, ph = bs["page_mm"]
            # the back region's colour at the middle of the part, from the window's middle
            mid = 250 - (fx + fw / 2)
            want = (255, 0, 0) if mid < 125 else (0, 0, 255)
            if abs(mid - 125) > 10:  # away from the halves' seam
                px = pix.pixel(int((x + w / 2) / pw * pix.width),
                               int((y + h / 2) / ph * pix.height))
                assert all(abs(a - b) < 40 for a, b in zip(px, want, strict=True)), (part, px)
                seen.add(want)
        assert seen == {(255, 0, 0), (0, 0, 255)}, duplex  # both halves, each behind its part
    fold = cli("print", "--components", str(folder), "--out", str(tmp_path / "fold"),
               "--duplex", "fold")
    assert fold.returncode == 0
    assert "no back: " in fold.stderr and "t/big (250 x 200 mm) is larger than the " \
        "printable page: its front prints in parts, its back is not printed" in fold.stderr
    none = cli("print", "--components", str(folder), "--out", str(tmp_path / "none"),
               "--duplex", "none")
    assert none.returncode == 0 and "no back" not in none.stderr


def test_a_misspelt_layout_under_defaults_is_named_not_a_column(game_dir: Any) -> None:
    # with 'front: fcae' no layout read 'title', so the sheet's 'title' column was blamed
    yaml = SHEET_YAML.replace("  front: face", "  front: fcae")
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": yaml,
                       "cards.csv": "id,title\nc/one,One\n"})
    msg = _at(_error(folder), folder)
    assert msg.startswith("cards.yaml:7:3: unknown layout 'fcae'"), msg
    assert "did you mean 'face'?" in msg


def test_a_csv_saved_in_latin_1_names_its_line(game_dir: Any) -> None:
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": SHEET_YAML})
    (folder / "cards.csv").write_bytes("id,title\nc/one,One\nc/two,Straße\n".encode("latin-1"))
    msg = _at(_error(folder), folder)
    assert msg.startswith("cards.csv:3: not UTF-8 text"), msg


def test_soft_art_named_in_a_spreadsheet_is_reported_at_its_row(game_dir: Any,
                                                                cli: Any) -> None:
    from PIL import Image

    yaml = SHEET_YAML.replace('    - {type: text', '    - {type: image, path: "${art}", x: 5, '
                              'y: 20, w: 50, h: 40}\n    - {type: text')
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": yaml,
                       "cards.csv": "id,title,art\nc/one,One,sharp.png\nc/two,Two,soft.png\n"})
    Image.new("RGB", (600, 480), "red").save(folder / "sharp.png")
    Image.new("RGB", (40, 32), "blue").save(folder / "soft.png")
    r = cli("check", "--components", str(folder))
    assert r.returncode == 0, r.stderr
    soft = [ln for ln in r.stderr.splitlines() if "low resolution" in ln]
    assert len(soft) == 1 and _at(soft[0], folder).startswith("cards.csv:3: c/two"), r.stderr


def test_an_out_folder_that_cannot_be_made_is_one_line_not_a_traceback(
        game_dir: Any, cli: Any, tmp_path: Path) -> None:
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": CARDS})
    (tmp_path / "a-file").write_text("not a folder")
    for args in (("print",), ("export", "tts", "slips")):
        r = cli(*args, "--components", str(folder), "--out", str(tmp_path / "a-file" / "out"))
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("error: cannot use ")
        assert "Not a directory" in r.stderr


def test_a_print_stopped_by_sigterm_leaves_no_staging_folder(game_dir: Any,
                                                            tmp_path: Path) -> None:
    # killed while it rendered PNG sheets, a print left its hidden staging folder
    # (.png.XXXX) in the output for good: no later print removes it
    import signal
    import subprocess
    import sys
    import time

    cards = CARDS.replace("  - {id: c/one, title: One}\n", "".join(
        f"  - {{id: c/n{i}, title: Card {i}}}\n" for i in range(60)))
    folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": cards})
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-c", "from irata.cli import main; main()",
                             "print", "--components", str(folder), "--out", str(out),
                             "--format", "pdf,png", "--dpi", "300"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    staging: list[Path] = []
    while proc.poll() is None and time.monotonic() < deadline and not staging:
        staging = list((out / "slips").glob(".png.*")) if (out / "slips").is_dir() else []
        time.sleep(0.005)
    if not staging:
        proc.wait(timeout=120)
        pytest.skip("the print ended before its PNG staging folder could be seen")
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(timeout=60)
    assert [p.name for p in (out / "slips").iterdir() if p.name.startswith(".")] == []
    assert code == 128 + signal.SIGTERM


def test_a_wrong_word_or_colour_from_a_spreadsheet_cell_is_refused_at_the_cell(
        game_dir: Any) -> None:
    from components import load_path
    from components.errors import DefinitionError
    from components.facecheck import check_faces

    yaml = SHEET_YAML.replace(
        '    - {type: text, text: "${title}", x: 5, y: 5, w: 50, h: 10}',
        '    - {type: rect, x: 0, y: 0, w: 20, h: 20, fill: "${band}"}\n'
        '    - {type: text, text: "${title}", x: 5, y: 5, w: 50, h: 10, align: "${align}"}')
    yaml = yaml.replace("  group: Cards\n", "  group: Cards\n  band: red\n  align: left\n")
    for csv, where, what, line in (
            ("id,title,band\nc/one,One,blue\nc/two,Two,bleu\n", "cards.csv:3:3:",
             "unknown colour 'bleu'", "cards.yaml:3"),
            ("id,title,align\nc/one,One,centre\n", "cards.csv:2:3:", "unknown align",
             "cards.yaml:4")):
        folder = game_dir({"game.yaml": "game: slips\nname: Slips\n", "cards.yaml": yaml,
                           "cards.csv": csv})
        try:
            check_faces(load_path(folder), ("red", "blue", "black", "white"))
        except DefinitionError as exc:
            msg = _at(str(exc), folder)
        else:
            raise AssertionError("the wrong word was not refused")
        assert msg.startswith(f"{where} {what}"), msg
        assert "the layout's " in msg and msg.endswith(f"{line})"), msg
