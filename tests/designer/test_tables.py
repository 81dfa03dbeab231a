"""Components from spreadsheets: a CSV/TSV/XLSX row per component, YAML defaults under each
row, and every mistake located as FILE:ROW:COLUMN."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from components import load_path
from components.errors import DefinitionError

GAME = """\
game: csvgame
name: CSV Game
fonts:
  body: {family: Fira Sans}
"""

CARDS_YAML = """\
layouts:
  face:
    - {type: text, text: "${title}", x: 3, y: 3, w: 57, h: 10, size: 11, font: bold}
    - {type: text, text: "Cost ${cost}", x: 3, y: 15, w: 57, h: 8}
    - {type: text, text: "${text}", x: 3, y: 25, w: 57, h: 30, size: 10}
    - {type: icon, name: food, x: 3, y: 60, size: 6, when: food}
    - {type: text, text: "${modifiers.food}", x: 12, y: 60, w: 20, h: 8, when: food}
defaults:
  kind: card
  size: poker
  front: face
  group: Cards
  cost: 0
  modifiers: {food: 0, energy: 0}
components_from: cards.csv
"""

GOOD_CSV = (
    "id,title,cost,count,text,food,modifiers.food\n"
    'c/one,One,3,2,"First card, with a comma",,\n'
    "c/two,Δύο,5,,Second,TRUE,2\n"
    "\n"
    'c/three,Три,,3,"Third ""quoted""",,\n'
)


def game(game_dir: Any, csv: str = GOOD_CSV, name: str = "cards.csv",
         yaml: str = CARDS_YAML) -> Path:
    return game_dir({"game.yaml": GAME, "cards.yaml": yaml.replace("cards.csv", name),
                     name: csv})


def test_each_row_is_a_component_over_the_yaml_defaults(game_dir: Any) -> None:
    g = load_path(game(game_dir))
    one, two, three = g.components
    assert [c.id for c in g.components] == ["c/one", "c/two", "c/three"]
    assert [c.count for c in g.components] == [2, 1, 3]  # an empty count is the default 1
    assert one.fields["text"] == "First card, with a comma"
    assert three.fields["text"] == 'Third "quoted"'
    assert (one.fields["cost"], two.fields["cost"], three.fields["cost"]) == (3, 5, 0)
    assert two.fields["title"] == "Δύο" and two.fields["food"] is True
    # a dotted column fills one key of a mapping; the others keep their defaults
    assert two.fields["modifiers"] == {"food": 2, "energy": 0}
    assert one.fields["modifiers"] == {"food": 0, "energy": 0}
    assert (one.kind, one.size, one.group) == ("card", (63.5, 88.9), "Cards")
    # where each component and field came from: the CSV's row and column
    assert one.file.endswith("cards.csv") and three.line == 5
    assert two.where("title")[1:] == (3, 2)


def test_the_csv_game_prints(game_dir: Any, builder: Any, tmp_path: Path) -> None:
    folder = game(game_dir)
    # the rulebook's inventory counts the spreadsheet's copies
    with (folder / "game.yaml").open("a") as fh:
        fh.write("inventory:\n  - {group: Cards, count: 6}\n")
    result = builder(folder, tmp_path / "out", ("pdf",))
    assert result.copies == 6
    with pymupdf.open(result.pdf) as doc:
        text = doc[0].get_text()
    for word in ("First card, with a comma", "Δύο", "Три", "Cost 5", 'Third "quoted"'):
        assert word in text


def test_tsv_and_semicolons(game_dir: Any) -> None:
    tsv = "id\ttitle\tcost\nt/a\tTab, A\t2\n"
    assert load_path(game(game_dir, tsv, "cards.tsv")).components[0].fields["title"] == "Tab, A"
    semi = "id;title;cost\ns/a;Semi, A;4\n"  # what a comma-decimal spreadsheet writes
    comp = load_path(game(game_dir, semi)).components[0]
    assert (comp.fields["title"], comp.fields["cost"]) == ("Semi, A", 4)


def test_xlsx(game_dir: Any, tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    folder = game(game_dir, "", "cards.xlsx", CARDS_YAML.replace(
        "components_from: cards.csv", "components_from: {file: cards.xlsx, sheet: Deck}"))
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Deck"
    ws.append(["id", "title", "cost", "count"])
    ws.append(["x/one", "Ξ", 4, 2])
    ws.append(["x/two", "Two", None, "three"])
    book.save(folder / "cards.xlsx")
    with pytest.raises(DefinitionError) as exc:
        load_path(folder)
    assert re.search(r"cards\.xlsx:3:4: count must be a whole number", str(exc.value))
    ws["D3"] = 3
    book.save(folder / "cards.xlsx")
    comps = load_path(folder).components
    assert [(c.id, c.count, c.fields["cost"]) for c in comps] == [("x/one", 2, 4),
                                                                 ("x/two", 3, 0)]


BROKEN = {
    # name: (the CSV, ROW, COLUMN, what the message says)
    "unknown column": ("id,titel,cost\nc/a,A,1\n", 1, 2,
                       "unknown column 'titel'.*did you mean 'title'"),
    "bad number": ("id,title,cost\nc/a,A,1\nc/b,B,five\n", 3, 3,
                   "bad number 'five' in column 'cost'"),
    "duplicate id": ("id,title\nc/a,A\nc/b,B\nc/a,C\n", 4, 1,
                     r"component id 'c/a' is used twice \(also at \S*cards\.csv:2\)"),
    "missing id": ("title,id,cost\nA,c/a,1\nB,,2\n", 3, 2, "missing id"),
    "wrong count": ("id,title,count\nc/a,A,2\nc/b,B,-1\n", 3, 3,
                    "count must be a whole number 0 or more, not '-1'"),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_csv_gets_one_located_line(case: str, game_dir: Any, cli: Any) -> None:
    csv, row, col, message = BROKEN[case]
    folder = game(game_dir, csv)
    for command in ("check", "print"):
        args = [command, "--components", str(folder)]
        if command == "print":
            args += ["--out", str(folder.parent / "out")]
        r = cli(*args)
        assert r.returncode == 2
        lines = r.stderr.strip().splitlines()
        # the spreadsheet's mistake is one line (other lines: what else the run found, such
        # as a layout's ${text} that these rows do not give)
        assert all(ln.startswith("error: ") for ln in lines), lines
        (err,) = [ln for ln in lines if "cards.csv:" in ln]
        assert "Traceback" not in r.stderr
        assert re.search(rf"cards\.csv:{row}:{col}: ", err), err
        assert re.search(message, err), err
    assert not (folder.parent / "out" / "csvgame" / "csvgame.pdf").exists()


def test_no_id_column_and_no_header(game_dir: Any) -> None:
    with pytest.raises(DefinitionError, match=r"cards\.csv:1:1: unknown column 'ID'.*'id'\?"):
        load_path(game(game_dir, "ID,title\nc/a,A\n"))
    with pytest.raises(DefinitionError, match=r"cards\.csv:1:1: no 'id' column"):
        load_path(game(game_dir, "title,cost\nA,1\n"))
    with pytest.raises(DefinitionError, match=r"cards\.csv:1:1: the first row must name"):
        load_path(game(game_dir, "\n"))


def test_a_row_with_more_cells_than_headings(game_dir: Any) -> None:
    with pytest.raises(DefinitionError, match=r"cards\.csv:3:3: row 3 has 3 cells"):
        load_path(game(game_dir, "id,title\nc/a,A\nc/b,B,extra\n"))


@pytest.mark.parametrize("where", ["../outside.csv", "/etc/passwd.csv", "none.csv"])
def test_the_file_must_lie_inside_the_game_folder(game_dir: Any, where: str) -> None:
    folder = game(game_dir, GOOD_CSV, where if where == "none.csv" else "cards.csv")
    text = (folder / "cards.yaml").read_text().replace("components_from: cards.csv",
                                                       f"components_from: {where}")
    (folder / "cards.yaml").write_text(text)
    (folder.parent / "outside.csv").write_text(GOOD_CSV)
    (folder / "none.csv").unlink(missing_ok=True)
    with pytest.raises(DefinitionError, match="inside the game folder|does not exist") as exc:
        load_path(folder)
    assert exc.value.file and exc.value.file.endswith("cards.yaml") and exc.value.line == 15


def test_a_character_the_font_lacks_is_located_in_the_csv(game_dir: Any, cli: Any) -> None:
    folder = game(game_dir, "id,title,text\nc/a,Plain,Calm.\nc/b,日の出,Dawn.\n")
    (folder / "game.yaml").write_text(GAME.replace("  body: {family: Fira Sans}\n", "  {}\n"))
    r = cli("check", "--components", str(folder))
    assert r.returncode == 2
    assert re.search(r"cards\.csv:3:2: '日' \(U\+65E5 CJK UNIFIED IDEOGRAPH-65E5\)", r.stderr)


def test_a_changed_spreadsheet_refreshes_the_companions_cached_rule_data(
        game_dir: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from companion import data

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = game(game_dir)
    csv = folder / "cards.csv"

    def costs(_: Any) -> dict[str, Any]:
        return {"costs": [c.fields["cost"] for c in _.components]}

    def a_new_process() -> None:  # what one process keeps in memory, forgotten
        for memo in ("_GAMES", "_BUILT", "_JSON"):
            monkeypatch.setattr(data, memo, {})

    a_new_process()
    assert data.cached_json("csvgame", costs, 1, folder)["costs"] == [3, 5, 0]
    a_new_process()
    # the second card's cost 5 becomes 7: same size, and the old time put back, so only the
    # contents tell (a save within one clock tick, or a copy that keeps times)
    st = csv.stat()
    csv.write_text(GOOD_CSV.replace("c/two,Δύο,5", "c/two,Δύο,7"))
    os.utime(csv, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert csv.stat().st_size == st.st_size
    assert data.cached_json("csvgame", costs, 1, folder)["costs"] == [3, 7, 0]
    a_new_process()
    # and unchanged, the cache on disk answers without reading the folder
    monkeypatch.setattr(data, "definitions", lambda *_: pytest.fail("read the folder again"))
    assert data.cached_json("csvgame", costs, 1, folder)["costs"] == [3, 7, 0]
