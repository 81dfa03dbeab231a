"""Outer Earth's table view (see :mod:`companion.table`): a column per company in seating
order (hand, dice, planets in development with what is built on them, portfolio, profits,
Bonus Revenue), the Galaxy deck, the planet market and the Bonus Revenue piles; the planets a
company may build on or sell now. Reads the state's JSON form."""

from __future__ import annotations

from typing import Any

from companion.table import Board, Cell, Column

__all__ = ["board", "choices", "players"]


def players(state: dict[str, Any]) -> tuple[str, ...]:
    return tuple(str(n) for n in state.get("seating") or state.get("players", {}))


def _company(state: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = (state.get("players") or {}).get(name) or {}
    return found


def _developing(c: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in c.get("in_development") or [] if isinstance(p, dict)]


def _column(state: dict[str, Any], name: str) -> Column:
    c = _company(state, name)
    dice = c.get("dice") or {}
    profits = c.get("profits") or {}
    cells = (Cell("Cards in hand", str(c.get("hand", 0))),
             Cell("Dice draw/build/sell", "/".join(str(dice.get(k, "-"))
                                                    for k in ("draw", "build", "sell"))),
             Cell("Profits (cards)", str(profits.get("cards", 0))),
             Cell("Bonus Revenue cards", str(len(c.get("bonus_revenue_cards") or []))))
    items = tuple(f"building {p.get('planet')}: {', '.join(map(str, p.get('built') or [])) or '-'}"
                  for p in _developing(c)) + tuple(f"portfolio: {x}"
                                                   for x in c.get("portfolio") or [])
    first = "starting player" if state.get("starting_player") == name else ""
    return Column(name, first, cells, items)


def board(state: dict[str, Any]) -> Board:
    market = state.get("market") or {}
    piles = state.get("bonus_revenue_piles") or []
    stocks = (Cell("Galaxy deck", str(state.get("galaxy_deck", "-"))),
              Cell("Planet market", str(market.get("planets", "-"))),
              Cell("Bonus Revenue piles", ", ".join(str(x) for x in piles) or "-"))
    last = state.get("final_round")
    notes = (f"Last round: {last}",) if last else ()
    title = f"Outer Earth, round {state.get('round', 1)}" + (" (over)" if state.get("over")
                                                             else "")
    return Board(title, tuple(_column(state, n) for n in players(state)), stocks, notes)


def choices(state: dict[str, Any], kind: str, who: str | None) -> dict[str, tuple[str, ...]]:
    names = players(state)
    mine = tuple(str(p.get("planet")) for p in _developing(_company(state, who or "")))
    if kind == "build":
        return {"planet": mine, "colours": ("blue", "red", "green", "yellow")}
    if kind == "sell":
        return {"planet": mine, "pile": ("1", "2", "3"), "raise": ("draw", "build", "sell")}
    if kind == "bid":
        return {"green": names, "moves": ("accept", "raise", "bow")}
    if kind == "upkeep":
        return {"discard": tuple(f"{n}=PLANET" for n in names)}
    return {}
