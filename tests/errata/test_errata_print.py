"""Errata in print: the reprinted card, --since, the notice sheet, the QR stamp, the companion."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pymupdf
import pytest
import zxingcpp
from click.testing import CliRunner
from PIL import Image

from components import load
from generator.build import BuildOptions, build
from generator.layout import Settings
from irata.cli import cli, main


def _words(text: str) -> str:
    return " ".join(text.split())


def _build(root: Path, out: Path, since: str | None = None, stamp: bool = False,
           duplex: str = "long") -> dict[str, Any]:
    game = load("mule", root)
    result = build(game, BuildOptions(Settings(duplex=duplex), ("pdf",), out, stamp, since))
    return json.loads(result.manifest.read_text())


def _page(out: Path, manifest: dict[str, Any], sheet: dict[str, Any]) -> pymupdf.Page:
    return pymupdf.open(out / "mule" / sheet["file"])[sheet["page"] - 1]


def _placed(manifest: dict[str, Any]) -> set[str]:
    return {p["component"] for s in manifest["sheets"] for p in s["placements"]}


def test_since_prints_exactly_the_changed_components_after_a_notice(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace,
        tmp_path: Path) -> None:
    write_errata(E.ERRATA + E.LATER)
    manifest = _build(root, tmp_path / "out", since="1.0")
    assert manifest["since"] == "1.0" and manifest["edition"] == "1.10"
    assert _placed(manifest) == {E.ACID, E.PEST}
    versions = {p["component"]: p["version"] for s in manifest["sheets"]
                for p in s["placements"]}
    assert versions == {E.ACID: "1.1", E.PEST: "1.10"}
    # the notice opens the reprint and shares its sheet with the reprinted cards; the cards'
    # backs follow on the next page, and no page is blank
    first, back = manifest["sheets"][:2]
    assert first["file"] == "mule-errata-1.0.pdf" and first["page"] == 1
    assert first["title"].endswith("Errata notice") and first["placements"]
    assert back["side"] == "back" and back["placements"]
    assert all(s["placements"] for s in manifest["sheets"])    # only what changed after 1.1
    later = _build(root, tmp_path / "later", since="1.1")
    assert _placed(later) == {E.PEST}
    # nothing changed after the latest edition: the notice alone
    none = _build(root, tmp_path / "none", since="1.10")
    assert _placed(none) == set()
    assert [s["title"] for s in none["sheets"]] == ["Errata notice"]
    assert [f["file"] for f in none["files"]] == ["mule-errata-1.10-single-sided.pdf"]
    # the notice's lettering travels in the file, as every font irata sets does
    for folder in ("out", "none"):
        for pdf in (tmp_path / folder / "mule").glob("*.pdf"):
            fonts = {f[3]: f[1] for page in pymupdf.open(pdf) for f in page.get_fonts()}
            assert fonts and "n/a" not in fonts.values(), (pdf.name, fonts)


def test_a_reprint_sits_beside_the_full_print_and_never_replaces_it(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace,
        tmp_path: Path) -> None:
    write_errata(E.ERRATA + E.LATER)
    out = tmp_path / "out"
    full = _build(root, out, duplex="long")
    folder = out / "mule"
    before = {f["file"]: (folder / f["file"]).read_bytes() for f in full["files"]}
    manifest_before = (folder / "manifest.json").read_bytes()
    assert "mule.pdf" in before
    errata = _build(root, out, since="1.0")
    assert errata["since"] == "1.0"
    assert {f["file"] for f in errata["files"]} <= {"mule-errata-1.0.pdf",
                                                    "mule-errata-1.0-single-sided.pdf"}
    assert (folder / "manifest-errata-1.0.json").exists()
    assert {f: (folder / f).read_bytes() for f in before} == before
    assert (folder / "manifest.json").read_bytes() == manifest_before
    with pytest.raises(Exception, match="edition"):
        _build(root, out, since="../x")


def test_the_notice_sheet_lists_the_errata_and_the_components(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace,
        tmp_path: Path) -> None:
    write_errata(E.ERRATA + E.LATER)
    manifest = _build(root, tmp_path / "out", since="1.0", duplex="none")
    assert [s["side"] for s in manifest["sheets"]].count("back") == 0
    text = _words(_page(tmp_path / "out", manifest, manifest["sheets"][0]).get_text())
    assert "M.U.L.E. The Board Game: errata notice" in text
    assert "edition 1.0 to edition 1.10" in text
    assert "E1 · edition 1.1 · 2026-11-29" in text
    assert "Acid Rain Storm! lowers Energy by 1, not 2" in text
    assert "Pest Attack! sets the Crystite price to $8" in text
    assert f"{E.ACID} Acid Rain Storm! · Production Cards 1 v1.1" in text
    assert f"{E.PEST} Pest Attack! · Production Cards 1 v1.10" in text


def test_the_erratum_changes_the_printed_card(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace,
        tmp_path: Path) -> None:
    write_errata(E.ERRATA)
    manifest = _build(root, tmp_path / "out", since="1.0")
    sheet = next(s for s in manifest["sheets"] if s["placements"] and s["side"] == "front")
    text = _words(_page(tmp_path / "out", manifest, sheet).get_text())
    assert "Acid rain soaks the fields and corrodes the power lines." in text
    assert "makes 1 less (Erratum E1)" in text
    assert "makes 2 less" not in text
    assert "v1.1" in text  # the version mark at the card's bottom edge


def test_the_qr_stamp_decodes_to_the_payload_and_errata_check_answers(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace,
        tmp_path: Path) -> None:
    write_errata(E.ERRATA)
    manifest = _build(root, tmp_path / "out", since="1.0", stamp=True)
    sheet = next(s for s in manifest["sheets"] if s["placements"] and s["side"] == "front")
    pix = _page(tmp_path / "out", manifest, sheet).get_pixmap(dpi=300)
    img = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
    found = {r.text for r in zxingcpp.read_barcodes(img)}
    payload = f"irata:mule/{E.ACID}@1.1"
    assert found == {payload}

    runner = CliRunner()
    current = runner.invoke(cli, ["errata", "check", payload, "--components", str(root),
                                  "--json"])
    assert current.exit_code == 0, current.output
    answer = json.loads(current.output)
    assert answer["current"] is True and answer["version"] == "1.1"
    assert answer["errata"] == [] and answer["fields"] == []
    text = runner.invoke(cli, ["errata", "check", payload, "--components", str(root)])
    assert text.output.startswith(f"current: {E.ACID} v1.1")

    old = payload.replace("@1.1", "@1.0")
    outdated = runner.invoke(cli, ["errata", "check", old, "--components", str(root), "--json"])
    answer = json.loads(outdated.output)
    assert answer["current"] is False and answer["version"] == "1.1"
    assert [e["id"] for e in answer["errata"]] == ["E1"]
    fields = {f["field"]: (f["before"], f["after"]) for f in answer["fields"]}
    assert fields["modifiers"] == ({"food": 2, "energy": -2}, {"food": 2, "energy": -1})
    assert fields["text"][1] == E.NEW_TEXT
    lines = runner.invoke(cli, ["errata", "check", old, "--components", str(root)]).output
    assert lines.startswith(f"outdated: {E.ACID} v1.0; the current version is v1.1")
    assert "E1 (v1.1, 2026-11-29): Acid Rain Storm! lowers Energy by 1, not 2" in lines
    assert 'before: {"food": 2, "energy": -2}' in lines
    assert 'after:  {"food": 2, "energy": -1}' in lines


def test_a_card_no_erratum_touched_is_current_at_any_edition(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace) -> None:
    write_errata(E.ERRATA)
    out = CliRunner().invoke(cli, ["errata", "check", f"irata:mule/{E.PEST}@1.0",
                                   "--components", str(root), "--json"])
    assert json.loads(out.output)["current"] is True


@pytest.mark.parametrize(("payload", "message"), [
    ("mule/production/acid-rain-storm@1.0", "is not an irata stamp"),
    ("irata:mule/production/acid-rain-storm", "is not an irata stamp"),
    ("irata:mule/production/acid-rain-storm@one", "is not an irata stamp"),
    ("irata:mule/production/acid-rain-stom@1.0", "mule has no component "
                                                 "'production/acid-rain-stom'; did you mean"),
    ("irata:mule/production/acid-rain-storm@1.7", "mule has no edition '1.7' (its editions: "
                                                  "1.0, 1.1)"),
    ("irata:mulle/production/acid-rain-storm@1.0", "no game 'mulle'"),
])
def test_errata_check_refuses_a_bad_payload_in_one_line(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace,
        capsys: pytest.CaptureFixture[str], payload: str, message: str) -> None:
    write_errata(E.ERRATA)
    with pytest.raises(SystemExit) as info:
        main(["errata", "check", payload, "--components", str(root)])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and message in err[0]


def test_the_companion_computes_with_the_erratum(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.mule import data

    folder = root / "mule"
    monkeypatch.setattr(data, "FOLDER", folder)
    runner = CliRunner()
    args = ["play", "mule", "production", "--card", "acid-rain-storm", "--lands", "F3,E3",
            "--json"]
    before = json.loads(runner.invoke(cli, args).output)
    assert (before["total"]["food"], before["total"]["energy"]) == (5, 1)
    assert data.load(folder).card(E.ACID).modifiers == {"food": 2, "energy": -2}
    # the cache is keyed on every YAML file of the folder, errata.yaml included: the next
    # command reads the erratum without any clearing by hand
    write_errata(E.ERRATA)
    assert data.load(folder).card(E.ACID).modifiers == {"food": 2, "energy": -1}
    after = json.loads(runner.invoke(cli, args).output)
    assert (after["total"]["food"], after["total"]["energy"]) == (5, 2)
    text = runner.invoke(cli, args[:-1]).output
    assert "Acid Rain Storm! (modifiers: food +2, energy -1)" in text
    # an edit of errata.yaml itself is seen as well
    write_errata(E.ERRATA.replace("energy: -1}", "energy: 0}"))
    assert data.load(folder).card(E.ACID).modifiers == {"food": 2, "energy": 0}


def test_print_since_through_the_command_line(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace,
        tmp_path: Path) -> None:
    write_errata(E.ERRATA)
    out = tmp_path / "cli"
    result = CliRunner().invoke(cli, ["print", "mule", "--components", str(root), "--since",
                                      "1.0", "--format", "pdf", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output[result.output.index("{"):])
    assert summary["games"][0]["components"] == 1
    manifest = json.loads((out / "mule" / "manifest-errata-1.0.json").read_text())
    assert _placed(manifest) == {E.ACID}
    assert (out / "mule" / "mule-errata-1.0.pdf").exists()
    assert not (out / "mule" / "mule.pdf").exists()  # the full print is not written over


def test_print_since_an_unknown_edition_is_one_error_line(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace,
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_errata(E.ERRATA)
    with pytest.raises(SystemExit) as info:
        main(["print", "mule", "--components", str(root), "--since", "2.0", "--out",
              str(tmp_path / "x")])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == "error: mule has no edition '2.0' (its editions: 1.0, 1.1)"


def test_a_long_notice_runs_over_more_pages_and_names_each_component_once(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace) -> None:
    from generator.drawing import Text
    from generator.errata_sheet import notice_sheet

    write_errata(E.ERRATA)
    game = load("mule", root)
    comps = [c for c in game.components if c.printed][:90]
    sheets = notice_sheet(game, "1.0", comps, Settings(duplex="short"))
    fronts = [s for s in sheets if s.side == "front"]
    assert len(fronts) >= 2 and len(sheets) == len(fronts)  # no blank backs
    named = [m.text for s in fronts for m in s.marks if isinstance(m, Text)
             and m.font == "Helvetica-Bold" and m.text in {c.id for c in comps}]
    assert sorted(named) == sorted(c.id for c in comps)
    for s in fronts:  # every row stays above the footer's strip
        assert max(m.y for m in s.marks if isinstance(m, Text)) < s.h - 6 - 6 - 10


DATA_ERRATUM = """\
errata:
  - id: E1
    version: "1.1"
    date: 2026-11-30
    summary: In a 4-player Beginner Game The Store starts with 10 Smithore
    changes:
      - data: setup.beginner.players_4.store
        set: {smithore: 10}
"""


def test_a_rule_data_erratum_reprints_the_sheets_that_print_it(
        root: Path, write_errata: Callable[[str], Path], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.mule import data

    write_errata(DATA_ERRATUM)
    game = load("mule", root)
    assert game.errata[0].readers == ("sheet/setup-beginner",)
    assert game.component("sheet/setup-beginner").version == "1.1"
    assert game.component("sheet/setup-tournament").version == "1.0"
    # --since reprints the one sheet that prints the number, with the number changed
    manifest = _build(root, tmp_path / "out", since="1.0", duplex="none")
    assert _placed(manifest) == {"sheet/setup-beginner"}
    sheet = next(s for s in manifest["sheets"] if s["placements"])
    text = _words(_page(tmp_path / "out", manifest, sheet).get_text())
    assert "Smithore 4 10" in text and "v1.1" in text
    notice = _page(tmp_path / "out", manifest, manifest["sheets"][0])
    assert "sheet/setup-beginner" in _words(notice.get_text())     # on the notice, too
    # errata diff names the sheet and the number, before and after
    out = CliRunner().invoke(cli, ["errata", "diff", "mule", "--from", "1.0", "--components",
                                   str(root), "--json"])
    assert out.exit_code == 0, out.output
    diff = json.loads(out.output)
    assert diff["components"] == [{
        "component": "sheet/setup-beginner", "errata": ["E1"], "version": "1.1",
        "fields": [{"field": "data.setup.beginner.players_4.store.smithore",
                    "before": 8, "after": 10}]}]
    assert diff["data"][0]["printed_on"] == ["sheet/setup-beginner"]
    # the companion sets The Store up from the same number
    monkeypatch.setattr(data, "FOLDER", root / "mule")
    new = CliRunner().invoke(cli, ["play", "mule", "new", "--players", "Ann,Bob,Cid,Dee",
                                   "--json"])
    assert new.exit_code == 0, new.output
    assert json.loads(new.output)["state"]["store"]["smithore"] == 10


PRICE_ERRATUM = """\
errata:
  - id: E1
    version: "1.1"
    date: 2026-12-01
    summary: Food's lane of the Price Track runs from $4/2 to $11/9
    changes:
      - data: price_track
        set: {food: {sell: [4, 11], buy: [2, 9], step: 1}}
      - data: corral
        set: {pens: 4}
"""


def _board_prices(game: Any) -> Counter[str]:
    """The "$SELL/BUY" squares drawn on the Game Board, as many as there are."""
    from generator.draw import Options, draw_component
    from generator.drawing import Text, walk

    front = draw_component(game, game.component("board/game-board"), Options()).front
    return Counter(p.text for p in walk(front.items)
                   if isinstance(p, Text) and re.fullmatch(r"\$\d+/\d+", p.text))


def _lanes(tracks: dict[str, Any]) -> Counter[str]:
    out: Counter[str] = Counter()
    for t in tracks.values():
        for k in range((t["sell"][1] - t["sell"][0]) // t["step"] + 1):
            out[f"${t['sell'][0] + k * t['step']}/{t['buy'][0] + k * t['step']}"] += 1
    return out


def test_a_price_track_erratum_reprints_the_board_with_the_new_numbers(
        root: Path, write_errata: Callable[[str], Path], tmp_path: Path) -> None:
    before = load("mule", root)
    assert _board_prices(before) == _lanes(before.data["price_track"])
    assert "price_track_labels" not in before.component("board/game-board").fields
    write_errata(PRICE_ERRATUM)
    game = load("mule", root)
    assert game.data["price_track"]["food"]["sell"] == [4, 11]
    prices = _board_prices(game)
    assert prices == _lanes(game.data["price_track"])
    assert prices["$11/9"] == 3 and prices["$3/1"] == 1     # Food's lane moved, Energy's not
    assert "board/game-board" in game.errata[0].readers
    assert game.component("board/game-board").version == "1.1"
    # --since reprints the board, and the printed pages carry the new top of Food's lane
    manifest = _build(root, tmp_path / "out", since="1.0", duplex="none")
    assert "board/game-board" in _placed(manifest)
    words = " ".join(_words(_page(tmp_path / "out", manifest, s).get_text())
                     for s in manifest["sheets"])
    assert manifest["files"][0]["file"] == "mule-errata-1.0.pdf"  # beside the full print
    assert "$11/9" in words and "4 pens of 2" in words


@pytest.mark.parametrize("duplex", ["fold", "none", "short"])
def test_a_reprint_opens_with_its_notice_with_any_duplex(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace, tmp_path: Path,
        duplex: str) -> None:
    write_errata(E.ERRATA + E.LATER)
    manifest = _build(root, tmp_path / "out", since="1.0", duplex=duplex)
    assert _placed(manifest) == {E.ACID, E.PEST}
    first = manifest["sheets"][0]
    assert first["page"] == 1 and "Errata notice" in first["panels"]
    text = _words(_page(tmp_path / "out", manifest, first).get_text())
    assert "M.U.L.E. The Board Game: errata notice" in text
    assert all(s["placements"] or s["panels"] for s in manifest["sheets"])


PLANET_ERRATUM = """\
errata:
  - id: E1
    version: "1.1"
    date: 2026-12-01
    summary: the Red Zone's top-left square of Planet Irata is Plains, not High Mountain
    changes:
      - data: planet_irata
        set: {rows: ["PPLRPLH", "PHPRPLP", "LPPSPPH", "PLPRHPP", "PHPRLPP"]}
"""


def _planet_labels(game: Any) -> dict[tuple[int, int], tuple[str | None, str]]:
    """Each square of Planet Irata on the drawn Game Board: (row, column) -> fill, label."""
    from generator.draw import Options, draw_component
    from generator.drawing import Rect, Text, walk

    front = draw_component(game, game.component("board/game-board"), Options()).front
    out: dict[tuple[int, int], tuple[str | None, str]] = {}
    at: tuple[int, int] | None = None
    for p in walk(front.items):
        if isinstance(p, Rect):
            at = (round((p.y - 24) / 33), round((p.x - 10) / 33)) \
                if abs(p.w - 33) < 1e-6 and abs(p.h - 33) < 1e-6 else None
            if at is not None:
                out[at] = (p.style.fill, "")
        elif isinstance(p, Text) and at is not None:
            out[at] = (out[at][0], f"{out[at][1]} {p.text}".strip())
    return out


def test_a_planet_irata_erratum_reprints_the_board_and_moves_the_land_grant(
        root: Path, write_errata: Callable[[str], Path], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    before = load("mule", root)
    squares = _planet_labels(before)
    assert squares[(0, 0)] == (before.palette["high-mountain"], "HIGH MOUNTAIN")
    write_errata(PLANET_ERRATUM)
    game = load("mule", root)
    after = _planet_labels(game)
    # the one square changed, on the board as in the data; every other square as it was
    assert after[(0, 0)] == (game.palette["plains"], "PLAINS")
    assert {k: v for k, v in after.items() if k != (0, 0)} == \
        {k: v for k, v in squares.items() if k != (0, 0)}
    assert "board/game-board" in game.errata[0].readers
    assert game.component("board/game-board").version == "1.1"
    # --since reprints the board (it reads the map) and nothing else of the game's pieces
    manifest = _build(root, tmp_path / "out", since="1.0", duplex="none")
    assert _placed(manifest) == {"board/game-board"}
    # the companion's Land Grant check reads the same map: the Red Zone now has 2 High
    # Mountain squares, so a third High Mountain claimed there is refused
    from companion.mule import data, saved, steps
    from companion.mule.board import new_land
    from companion.mule.state import from_json
    from components.errors import RuleError

    monkeypatch.setattr(data, "FOLDER", root / "mule")
    md = data.load()
    assert md.planet_irata.rows[0] == "PPLRPLH"
    assert md.planet_irata.squares("red", "high-mountain") == 2
    s = saved.new_game(md, ["Ann", "Bob", "Cid", "Dee"], "tournament", seed=3)
    s["players"]["Dee"]["lands"] = [new_land("high-mountain", None, f"A{i}") for i in (1, 2)]
    with pytest.raises(RuleError, match="Red Zone of Planet Irata has 2 High Mountain"):
        steps.claim(from_json(s), md, "Ann", "H03@A3")


def test_a_map_erratum_with_a_letter_the_board_lacks_is_one_line_at_the_erratum(
        root: Path, write_errata: Callable[[str], Path],
        capsys: pytest.CaptureFixture[str]) -> None:
    write_errata(PLANET_ERRATUM.replace('"PPLRPLH"', '"PPLRPLX"'))
    for command in (["check", "mule"], ["print", "mule", "--out", str(root.parent / "out")]):
        with pytest.raises(SystemExit) as info:
            main([*command, "--components", str(root)])
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
        assert err.startswith("error: ") and "errata.yaml:8:22: 'X' (row 1, mark 7 of the " \
            "grid's cells) is not in its legend (expected one of: P, L, H, R, S)" in err
        assert "board/game-board" in err
    assert not (root.parent / "out" / "mule").exists()
