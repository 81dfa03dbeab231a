"""A grid drawn from a map: ``cells`` (rows of marks, such as rule data) and a ``legend`` (what
each mark draws), so a map written once under ``data:`` is the printed board; and each slip in
the map or its legend is one error line at the place to fix."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

GAME = """\
game: isles
name: Isles
palette: {sea: "#2f62b3", sand: "#e6d39a", rock: "#777777"}
data:
  map:
    rows: ["SSL", "SLR", "LRL"]
"""

BOARD = """\
layouts:
  board:
    - {type: grid, x: 5, y: 5, cols: 2, rows: 3, cell_w: 20, cell_h: 20,
       cells: "${data.map.rows}", legend: "${legend}"}
    - {type: grid, x: 45, y: 5, cols: 1, rows: 2, cell_w: 20, cell_h: 20,
       cells: "${data.map.rows}", skip_cols: 2, skip_rows: 1, fill: sand,
       legend: {S: {fill: sea}, L: {label: LAND}, R: {fill: rock, label: ROCK}}}
components:
  - id: board/isles
    kind: board
    size: [80, 70]
    front: board
    legend:
      S: {fill: sea, label: SEA}
      L: {fill: sand, label: LAND}
      R: {label: ROCK}
"""

Check = Callable[..., Any]


def _drawn(folder: Path) -> list[tuple[float, float, str | None, str]]:
    """Each cell the board draws: its corner, its fill and its label."""
    from components import load_path
    from generator.draw import Options, draw_component
    from generator.drawing import Rect, Text, walk

    game = load_path(folder)
    front = draw_component(game, game.component("board/isles"), Options()).front
    cells: list[tuple[float, float, str | None, str]] = []
    for p in walk(front.items):
        if isinstance(p, Rect) and p.w == 20:
            cells.append((p.x, p.y, p.style.fill, ""))
        elif isinstance(p, Text) and cells and cells[-1][0] < p.x < cells[-1][0] + 20 \
                and cells[-1][1] < p.y < cells[-1][1] + 20:
            x, y, fill, label = cells[-1]
            cells[-1] = (x, y, fill, f"{label} {p.text}".strip())
    return cells


def test_each_cell_draws_its_marks_legend_entry(game_dir: Check, cli: Check,
                                                tmp_path: Path) -> None:
    folder = game_dir({"game.yaml": GAME, "board.yaml": BOARD})
    r = cli("check", "--components", str(folder))
    assert r.returncode == 0, r.stderr
    sea, sand, rock = "#2f62b3", "#e6d39a", "#777777"
    assert _drawn(folder) == [
        # the first grid: the map's first two columns, each mark's fill and label (the
        # field's legend gives R no fill, and the grid none)
        (5, 5, sea, "SEA"), (25, 5, sea, "SEA"),
        (5, 25, sea, "SEA"), (25, 25, sand, "LAND"),
        (5, 45, sand, "LAND"), (25, 45, None, "ROCK"),
        # the second: the third column after the first row, from its own legend; an entry
        # without a fill takes the grid's fill
        (45, 5, rock, "ROCK"), (45, 25, sand, "LAND"),
    ]


def _one_error(cli: Check, folder: Path) -> str:
    r = cli("check", "--components", str(folder))
    assert r.returncode == 2, r.stdout
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    return lines[0].split(f"{folder.name}/", 1)[-1]


def test_a_mark_the_legend_lacks_is_refused_at_its_row_of_the_data(game_dir: Check,
                                                                   cli: Check) -> None:
    folder = game_dir({"game.yaml": GAME.replace('"SLR"', '"SlR"'), "board.yaml": BOARD})
    line = _one_error(cli, folder)
    assert line.startswith("game.yaml:6:"), line
    assert "'l' (row 2, mark 2 of the grid's cells) is not in its legend (expected one of: " \
           "S, L, R; did you mean 'L'?)" in line
    assert "board/isles" in line


def test_a_misspelt_legend_key_is_refused_with_the_right_word(game_dir: Check,
                                                              cli: Check) -> None:
    # written out on the grid: the schema's check, at the key
    folder = game_dir({"game.yaml": GAME,
                       "board.yaml": BOARD.replace("L: {label: LAND}, R",
                                                   "L: {lable: LAND}, R")})
    line = _one_error(cli, folder)
    assert line.startswith("board.yaml:7:"), line
    assert "unknown key 'lable' in the legend's entry for 'L'" in line
    assert "did you mean 'label'?" in line
    # in the component's field the grid reads: at the field's line
    folder = game_dir({"game.yaml": GAME,
                       "board.yaml": BOARD.replace("R: {label: ROCK}", "R: {colour: rock}")})
    line = _one_error(cli, folder)
    assert line.startswith("board.yaml:16:"), line
    assert "unknown key 'colour' in the legend's entry for 'R'" in line
    assert "did you mean 'fill'?" in line


def test_a_legend_fill_that_is_no_colour_is_refused(game_dir: Check, cli: Check) -> None:
    folder = game_dir({"game.yaml": GAME,
                       "board.yaml": BOARD.replace("{fill: sea, label: SEA}",
                                                   "{fill: seaa, label: SEA}")})
    line = _one_error(cli, folder)
    assert line.startswith("board.yaml:14:"), line     # at the entry's fill, in the field
    assert "unknown colour 'seaa' in the legend's entry for 'S'" in line
    assert "did you mean 'sea'?" in line


def test_cells_and_labels_together_are_refused(game_dir: Check, cli: Check) -> None:
    folder = game_dir({"game.yaml": GAME,
                       "board.yaml": BOARD.replace('legend: "${legend}"',
                                                   'legend: "${legend}", labels: [A]')})
    line = _one_error(cli, folder)
    assert line.startswith("board.yaml:4:"), line
    assert "a grid takes 'labels' or 'cells', not both" in line
    folder = game_dir({"game.yaml": GAME,
                       "board.yaml": BOARD.replace('legend: "${legend}"}', '}')})
    assert "a grid with 'cells' needs a 'legend'" in _one_error(cli, folder)


def test_a_map_smaller_than_its_grid_is_refused(game_dir: Check, cli: Check) -> None:
    folder = game_dir({"game.yaml": GAME.replace('"LRL"', '"LR"'), "board.yaml": BOARD})
    line = _one_error(cli, folder)
    assert line.startswith("game.yaml:6:"), line
    assert "row 3 of a grid's cells has 2 marks; the grid draws 1 after skipping 2" in line
