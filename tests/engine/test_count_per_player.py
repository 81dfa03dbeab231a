"""``count_per_player``: a piece each player takes (a player board, a screen, a summary
sheet) prints once for each player the game seats at most, and follows ``players: max``
when that changes; it and ``count`` together, or a count that is not a whole number of
copies, are refused with the file and line."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from components import load, load_path
from tests.clirun import one_line, run

GAME = """
    game: seats
    name: Seats
    edition: "1.0"
    players: {min: 2, max: MAX}
    """
PIECES = """
    components:
      - {id: sheet/aid, kind: sheet, size: [90, 60], count_per_player: PER, front: [
           {type: text, text: "Aid", x: 5, y: 5, w: 40, h: 8}]}
      - {id: token/x, kind: token, size: [20, 20], count: 3, front: [
           {type: text, text: "X", x: 5, y: 5, w: 10, h: 8}]}
    """


def _folder(tmp_path: Path, max_players: int = 3, per: str = "2",
            pieces: str = PIECES) -> Path:
    folder = tmp_path / "seats"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(
        textwrap.dedent(GAME).lstrip().replace("MAX", str(max_players)), encoding="utf-8")
    (folder / "pieces.yaml").write_text(
        textwrap.dedent(pieces).lstrip().replace("PER", per), encoding="utf-8")
    return folder


@pytest.mark.parametrize(("max_players", "copies"), [(3, 6), (5, 10)])
def test_copies_follow_the_most_players_the_game_seats(tmp_path: Path, max_players: int,
                                                       copies: int) -> None:
    game = load_path(_folder(tmp_path, max_players))
    aid = game.component("sheet/aid")
    assert (aid.count, aid.per_player) == (copies, 2)
    assert game.component("token/x").count == 3  # count as given, untouched
    out = tmp_path / "out"
    code, err = run(["print", "seats", "--components", str(tmp_path), "--out", str(out)])
    assert code == 0, err
    manifest = json.loads((out / "seats" / "manifest.json").read_text(encoding="utf-8"))
    printed = [p for s in manifest["sheets"] for p in s["placements"]
               if p["component"] == "sheet/aid" and p["face"] == "front"]
    assert len(printed) == copies


@pytest.mark.parametrize(("per", "says"), [
    ("0", "count_per_player must be a whole number from 1 to 2000, not the number 0"),
    ("two", "count_per_player must be a whole number from 1 to 2000, not the text 'two'"),
    ("true", "count_per_player must be a whole number from 1 to 2000"),
    ("1.5", "count_per_player must be a whole number from 1 to 2000"),
    ("1000", "count_per_player 1000 for 3 players makes 3000 copies, more than 2000"),
])
def test_a_count_per_player_that_is_no_number_of_copies_is_refused(
        tmp_path: Path, per: str, says: str) -> None:
    _folder(tmp_path, per=per)
    code, err = run(["check", "seats", "--components", str(tmp_path)])
    assert one_line(code, err), err
    assert "pieces.yaml:2" in err and says in err


def test_count_and_count_per_player_together_are_refused(tmp_path: Path) -> None:
    both = PIECES.replace("count_per_player: PER", "count: 4, count_per_player: PER")
    _folder(tmp_path, pieces=both)
    code, err = run(["check", "seats", "--components", str(tmp_path)])
    assert one_line(code, err), err
    assert "pieces.yaml:2" in err and "give count or count_per_player, not both" in err


def test_the_bundled_per_player_sheets_print_for_the_most_players() -> None:
    """M.U.L.E.'s Turn Sequence Summary ("each player picks ... one"), for 4 players at
    most, and Mule Goes Crazy!'s resource sheet, for 5."""
    assert load("mule").component("sheet/sequence-of-play").count == 4
    assert load("mule-goes-crazy").component("sheet/player").count == 5
