"""``irata check`` and ``irata print`` report every mistake they find in one run: one line
each, FILE:LINE:COL, sorted by place, at most MAX_REPORTED and then a line saying how many
more; exit 2, nothing written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from components.errors import MAX_REPORTED
from irata.cli import main

GAME = """\
game: m
name: Many Mistakes
palette: {ink: "#111111"}
inventory:
  - {group: Cards, count: 5}
layouts:
  good: [{type: rect, w: 10, h: 10, fill: ink}]
  shared: [{type: text, text: "${titel}", w: 20, h: 8}]
  bad: [{type: rect, w: 10, hh: 10}]
"""
A_YAML = """\
components:
  - id: one
    kind: card
    size: poker
    group: Cards
    front:
      - {type: star, cx: 5, cy: 5, r: 4, points: 99}
  - id: two
    kind: crad
    size: poker
    front: good
  - id: three
    kind: card
    size: poker
    group: Cards
    front: bad
"""
B_YAML = """\
defaults: {kind: card, size: poker, group: Cards}
components:
  - id: four
    front:
      - {type: rect, w: 10, h: 10, fill: inkk}
  - id: five
    front:
      - {type: text, text: "hi", w: 10, h: 10, align: middel}
  - {id: six, front: shared, title: Six}
  - {id: seven, front: shared, title: Seven}
"""
# every mistake above: (file, line, col, words)
EXPECTED = [
    ("a.yaml", 7, 42, "points must be between 3 and 64, not 99"),
    ("a.yaml", 9, 5, "unknown kind 'crad'"),
    ("b.yaml", 5, 36, "unknown colour 'inkk'"),
    ("b.yaml", 8, 48, "unknown align 'middel'"),
    ("game.yaml", 8, 25, "has no field 'titel'"),
    ("game.yaml", 9, 29, "unknown key 'hh' in a rect element"),
]


def _folder(tmp_path: Path, files: dict[str, str]) -> Path:
    folder = tmp_path / "G"
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    with pytest.raises(SystemExit) as info:
        main(args)
    code = info.value.code
    return int(code) if isinstance(code, int) else 1, capsys.readouterr().err.splitlines()


LINE_RE = re.compile(r"error: (.+?):(\d+):(\d+): (.*)")


def _places(lines: list[str]) -> list[tuple[str, int, int, str]]:
    out = []
    for ln in lines:
        m = LINE_RE.fullmatch(ln)
        assert m, ln
        out.append((m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)))
    return out


@pytest.mark.parametrize("command", ["check", "print"])
def test_every_mistake_of_several_files_in_one_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    folder = _folder(tmp_path, {"game.yaml": GAME, "a.yaml": A_YAML, "b.yaml": B_YAML})
    args = [command, "--components", str(folder)]
    if command == "print":
        args += ["--out", str(tmp_path / "out")]
    code, lines = _run(args, capsys)
    assert code == 2
    places = _places(lines)
    assert len(places) == len(EXPECTED), lines
    assert places == sorted(places)  # by file, line, column
    for (file, line, col, words), (pf, pl, pc, msg) in zip(EXPECTED, places, strict=True):
        assert Path(pf).name == file and (pl, pc) == (line, col), (file, line, pf, pl, pc)
        assert words in msg, msg
    # the shared layout's slip, met by two components, is one line that says so
    assert "(and in 1 more component)" in places[4][3]
    assert not (tmp_path / "out").exists()


def test_when_the_mistakes_are_fixed_the_game_checks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fixed = {"game.yaml": GAME.replace("titel", "title").replace("hh:", "h:").replace(
        "count: 5", "count: 7"),
             "a.yaml": A_YAML.replace("99", "5").replace("crad", "card\n    group: Cards"),
             "b.yaml": B_YAML.replace("inkk", "ink").replace("middel", "center")}
    folder = _folder(tmp_path, fixed)
    with pytest.raises(SystemExit) as info:
        main(["check", "--components", str(folder)])
    assert info.value.code in (0, None), capsys.readouterr().err
    assert "m: ok, 7 components" in capsys.readouterr().out


def test_a_single_mistake_is_still_one_line(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path, {"game.yaml": GAME.replace("titel", "title").replace(
        "hh:", "h:").replace("count: 5", "count: 1"), "b.yaml": B_YAML.split("  - id: five")[0]})
    code, lines = _run(["check", "--components", str(folder)], capsys)
    assert code == 2 and len(lines) == 1 and "unknown colour 'inkk'" in lines[0]


def test_a_run_with_very_many_mistakes_lists_the_first_and_counts_the_rest(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    n = MAX_REPORTED + 20
    comps = "".join(f"  - {{id: c{i:03d}, front: [{{type: rect, w: 10, h: 10, fill: "
                    f"nocolour{i}}}]}}\n" for i in range(n))
    folder = _folder(tmp_path, {"game.yaml": "game: m\nname: M\n",
                                "cards.yaml": "defaults: {kind: card, size: poker}\n"
                                              "components:\n" + comps})
    code, lines = _run(["check", "--components", str(folder)], capsys)
    assert code == 2
    assert len(lines) == MAX_REPORTED + 1
    places = _places(lines[:-1])
    assert [p[1] for p in places] == list(range(3, 3 + MAX_REPORTED))  # the first, in order
    assert lines[-1] == (f"error: ... and 20 more mistakes not listed (the first "
                         f"{MAX_REPORTED} of {n} are above)")


def test_mistakes_in_two_games_are_all_reported(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "games"
    for name in ("g1", "g2"):
        _folder(root / name, {"game.yaml": f"game: {name}\nname: {name}\n",
                              "cards.yaml": "components:\n  - {id: a, kind: card, size: "
                                            "pokre, front: []}\n"})
        (root / name / "G").rename(root / f"{name}-folder")
        (root / name).rmdir()
    code, lines = _run(["check", "--components", str(root)], capsys)
    assert code == 2 and len(lines) == 2
    assert all("unknown size 'pokre'" in ln for ln in lines)
    assert "g1-folder" in lines[0] and "g2-folder" in lines[1]


def test_a_mistake_on_each_face_of_a_component_is_reported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path, {"game.yaml": "game: m\nname: M\n", "cards.yaml": (
        "components:\n  - id: c\n    kind: card\n    size: poker\n"
        "    front: [{type: rect, w: 5, h: 5, fill: nocolour}]\n"
        "    back: [{type: text, text: \"${nofield}\", w: 5, h: 5}]\n")})
    code, lines = _run(["check", "--components", str(folder)], capsys)
    assert code == 2
    places = _places(lines)
    assert [p[1] for p in places] == [5, 6]
    assert places[0][3].startswith("unknown colour 'nocolour' for component 'c' (front)")
    assert places[1][3].startswith("component 'c' (back) has no field 'nofield'")
