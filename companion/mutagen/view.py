"""Mutagen's table view (see :mod:`companion.table`): the score track in columns, each
player's Element trackers, the round; a player's points gained during a round are theirs to
enter at any time of it. Reads the state's JSON form."""

from __future__ import annotations

from typing import Any

from companion.table import Board, Cell, Column

__all__ = ["board", "choices", "players"]


def players(state: dict[str, Any]) -> tuple[str, ...]:
    return tuple(str(n) for n in state.get("players", ()))


def board(state: dict[str, Any]) -> Board:
    scores: dict[str, Any] = state.get("scores") or {}
    tracks: dict[str, dict[str, Any]] = state.get("tracks") or {}
    ranked = sorted(players(state), key=lambda n: -int(scores.get(n, 0) or 0))
    columns = tuple(
        Column(name, f"{i + 1}.", (Cell("Points", str(scores.get(name, 0))),
                                   *(Cell(element.capitalize(), str(value)) for element, value
                                     in sorted((tracks.get(name) or {}).items()))))
        for i, name in enumerate(ranked))
    rnd, rounds = int(state.get("round") or 1), int(state.get("rounds") or 4)
    title = ("Mutagen, End of Game Scoring" if rnd > rounds
             else f"Mutagen, round {rnd} of {rounds}")
    expansions = tuple(str(x) for x in state.get("expansions") or ())
    notes: tuple[str, ...] = (f"Expansions: {', '.join(expansions)}",) if expansions else ()
    final = state.get("final")
    if isinstance(final, dict) and final.get("winners"):
        notes += (f"Winner: {' and '.join(str(w) for w in final['winners'])}",)
    return Board(title, columns, (), notes)


def choices(state: dict[str, Any], kind: str, who: str | None) -> dict[str, tuple[str, ...]]:
    if kind == "points":
        return {"points": ("2", "1", "-1")}
    return {}
