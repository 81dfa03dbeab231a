"""Mule Goes Crazy!'s table view (see :mod:`companion.table`): a column per player in seating
order (Credits, resources, Lands and the Mules on them), the Store's stocks and prices, the
Population cards in play; during the Player Turns each player's buying and moving of Mules
(and a Land Grant) is theirs to enter, with their own Mules and Lands to pick from. Reads the
state's JSON form."""

from __future__ import annotations

from typing import Any

from companion.table import Board, Cell, Column

__all__ = ["board", "choices", "players"]

RESOURCES = ("food", "energy", "smithore", "crystite")


def players(state: dict[str, Any]) -> tuple[str, ...]:
    return tuple(str(n) for n in state.get("seating") or state.get("players", {}))


def _sheet(state: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = (state.get("players") or {}).get(name) or {}
    return found


def _column(state: dict[str, Any], name: str) -> Column:
    sheet = _sheet(state, name)
    cells = (Cell("Credits", str(sheet.get("credits", 0))),
             *(Cell(r.capitalize(), str(sheet.get(r, 0))) for r in RESOURCES))
    mules = [m for m in sheet.get("mules") or [] if isinstance(m, dict)]
    items = tuple(f"Land {land}" for land in sheet.get("lands") or []) + tuple(
        f"Mule {m.get('mule')}" + (f" on {m['land']}" if m.get("land") else " (not placed)")
        for m in mules)
    return Column(name, "favored" if state.get("favored") == name else "", cells, items)


def board(state: dict[str, Any]) -> Board:
    store = state.get("store") or {}
    prices = state.get("prices") or {}
    stocks = tuple(Cell(f"Store {r.capitalize()} (price)",
                        f"{store.get(r, 0)} ({prices.get(r, '-')})") for r in RESOURCES)
    stocks += (Cell("Opening bid", str(state.get("opening_bid", "-"))),)
    pops = tuple(str(p.get("card") if isinstance(p, dict) else p)
                 for p in state.get("populations") or [])
    notes = (f"Population cards in play: {', '.join(pops)}",) if pops else ()
    return Board(f"Mule Goes Crazy!, turn {state.get('turn', 1)}",
                 tuple(_column(state, n) for n in players(state)), stocks, notes)


def choices(state: dict[str, Any], kind: str, who: str | None) -> dict[str, tuple[str, ...]]:
    sheet = _sheet(state, who or "")
    lands = tuple(str(x) for x in sheet.get("lands") or [])
    if kind == "move":
        mules = tuple(str(m.get("mule")) for m in sheet.get("mules") or []
                      if isinstance(m, dict))
        return {"mule": mules, "land": lands, "from": lands}
    if kind == "auction":
        return {"winner": players(state), "unsold": ("yes",)}
    if kind == "produce":
        return {"player": players(state)}
    if kind == "population":
        return {"player": players(state)}
    return {}
