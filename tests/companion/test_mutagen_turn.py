"""Mutagen's guided ``turn``: the generic walk (``irata.play.declared.add_turn``) over the
moves possible now. In a round that is any gain or payment (``Now.kinds``), in the table's
order, until the End of Round's file is given; a refusal is asked again with its reason."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from irata.cli import cli

ROUND = Path(__file__).parent / "fixtures" / "mutagen" / "round.yaml"


def mutagen(db: Path, *args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(cli, ["play", "mutagen", *args, "--db", str(db)], input=input)


def test_a_round_walked_is_its_moves_in_any_order_then_its_end(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    assert mutagen(db, "new", "--players", "Ann,Bob", "--seed", "1").exit_code == 0
    typed = "\n".join(["shards Ann 2 --why pass",     # Ann 3 -> 5
                       "bogus",                       # not a move: asked again
                       "crew Bob crew/all",           # refused: Bob holds 3, it costs 5
                       "crew Bob Surveyor ore",       # costs 0
                       "storage Ann A1,A2",           # 0 + 1: Ann 5 -> 4
                       f"round {ROUND}", ""])
    result = mutagen(db, "turn", input=typed)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "== Turn 1, from round 1 of 4" in out
    assert "a move (round [FILE] | points PLAYER ... | shards PLAYER ... | progress PLAYER" \
        in out
    assert "! type one of round, points, shards" in out
    assert "! Bob holds 3 Shard Fragment tokens and cannot pay 5 for the Crew card" in out
    assert "Turn 1 saved in game 1. Next: round 2 of 4" in out
    state = json.loads(mutagen(db, "status", "--json").output)["state"]
    assert state["shards"] == {"Ann": 4, "Bob": 3} and state["crew"]["Bob"] == ["crew/track-ore"]
    assert state["round"] == 2
    # the People and Palace moves are offered only with their expansions
    assert "people" not in out and "palace" not in out
