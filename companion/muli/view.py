"""Das Störrische Muli's table view (see :mod:`companion.table`): a column per player with
their Mule's colour and field, the runners, the last roll, the finish. Reads the state's JSON
form."""

from __future__ import annotations

from typing import Any

from companion.table import Board, Cell, Column

__all__ = ["board", "choices", "players"]


def players(state: dict[str, Any]) -> tuple[str, ...]:
    return tuple(str(n) for n in state.get("players", ()))


def _where(piece: dict[str, Any]) -> str:
    where = str(piece.get("where") or "track")
    return f"field {piece.get('field', 0)}" if where == "track" else where


def board(state: dict[str, Any]) -> Board:
    pieces: dict[str, dict[str, Any]] = state.get("pieces") or {}
    finished = [str(x) for x in state.get("finished") or []]
    columns = []
    for name in players(state):
        mine = [(colour, p) for colour, p in pieces.items() if p.get("owner") == name]
        cells = tuple(Cell(f"{colour.capitalize()} Mule", _where(p)) for colour, p in mine)
        place = next((f"finished {i + 1}." for i, c in enumerate(finished)
                      if any(colour == c for colour, _ in mine)), "")
        columns.append(Column(name, "rolls now" if state.get("active") == name else "",
                              cells, (place,) if place else ()))
    stocks = tuple(Cell(f"{colour.capitalize()} runner", _where(p))
                   for colour, p in pieces.items() if p.get("kind") == "runner")
    dice = state.get("dice")
    notes = [f"Last roll: {', '.join(str(d) for d in dice) if isinstance(dice, list) else dice}"
             ] if dice else []
    if state.get("turned"):
        notes.append("The race has turned: back to the start")
    if state.get("winner"):
        notes.append(f"Winner: {state['winner']}")
    return Board(f"Das Störrische Muli, roll {int(state.get('rolls') or 0) + 1}",
                 tuple(columns), stocks, tuple(notes))


def choices(state: dict[str, Any], kind: str, who: str | None) -> dict[str, tuple[str, ...]]:
    colours = tuple(str(c) for c in (state.get("rules") or {}).get("colours", ()))
    if kind == "roll":
        return {"keep": colours, "first": colours}
    return {}
