"""M.U.L.E.'s table view (see :mod:`companion.table`): the Ranking in columns (Money, Goods,
Lands with their M.U.L.E.s, Hand Cards), The Store's stocks and prices, the steps still to take
in this Phase; and for a Colonist's move, the choices open to them now (their own Lands for a
Development Action). Reads the state's JSON form (``companion.mule.saved.glance``)."""

from __future__ import annotations

from typing import Any

from companion.table import Board, Cell, Column

__all__ = ["board", "choices", "players"]

GOODS = ("smithore", "crystite", "food", "energy")
_LETTER = {"food": "F", "energy": "E", "smithore": "S", "crystite": "C"}
_STEP = {"grant": "Land Grant", "auction": "Land Auction", "package": "Package From Home World!",
         "develop": "Action Round", "usage": "Usage and Spoilage", "produce": "Production",
         "pricing": "Pricing", "trade": "Market Auction", "sellout": "Final Market",
         "ranking": "Ranking", "lucky": "Lucky Event", "unlucky": "Unlucky Event",
         "end": "the end"}


def players(state: dict[str, Any]) -> tuple[str, ...]:
    return tuple(str(n) for n in state.get("order") or state.get("players", {}))


def _land(land: dict[str, Any]) -> str:
    name = str(land.get("land") or "Land")
    where = f"@{land['square']}" if land.get("square") else ""
    mule = f": {str(land['mule']).capitalize()} M.U.L.E." if land.get("mule") else ""
    return f"{name}{where}{mule}"


def board(state: dict[str, Any]) -> Board:
    from companion.mule.saved import glance

    g = glance(state)
    columns = []
    for c in g["colonists"]:
        hand = c.get("hand") or {}
        cells = (Cell("Money", f"${c['money']}"),
                 *(Cell(good.capitalize(), str(c[good])) for good in GOODS),
                 Cell("Land for Sale! cards", str(hand.get("land_for_sale", 0))),
                 Cell("Package cards", str(hand.get("package", 0))))
        species = c.get("species")
        items = tuple(_land(x) for x in c["lands"]) + (
            (f"{species['species']}: {species['talent']}",) if species else ())
        columns.append(Column(c["name"], f"Rank {c['rank']}", cells, items))
    store, prices = g["store"], g["prices"]
    stocks = (Cell("The Store: M.U.L.E.s", f"{store.get('mules', 0)} at "
                                          f"${prices['smithore']['sell']}"),
              *(Cell(f"{good.capitalize()} (stock, sells/buys)",
                     f"{store.get(good, 0)}, ${prices[good]['sell']}/${prices[good]['buy']}"
                     if good != "crystite" else
                     f"-, ${prices[good]['sell']}/${prices[good]['buy']}")
                for good in GOODS))
    mode = str(g.get("mode") or "").capitalize()
    title = f"M.U.L.E. {mode} Game, Turn {g['turn']}" + (" (over)" if g["over"] else "")
    upcoming = tuple(_said(step) for step in (state.get("todo") or [])[1:7])
    notes = (f"Meteor Craters: {', '.join(state['craters'])}",) if state.get("craters") else ()
    return Board(title, tuple(columns), stocks, notes, upcoming)


def _said(step: Any) -> str:
    kind, who = (list(step) + [None, None])[:2]
    title = _STEP.get(str(kind), str(kind))
    return f"{title}: {who.capitalize() if kind == 'trade' else who}" if who else title


def choices(state: dict[str, Any], kind: str, who: str | None) -> dict[str, tuple[str, ...]]:
    names = players(state)
    if kind == "develop" and who in state.get("players", {}):
        return {"actions": _actions(state["players"][who])}
    if kind == "grant":
        return {"claim": ("none",)}
    if kind == "auction":
        return {"auction": tuple(f"{n} BID TILE@SQUARE" for n in names if n != who)
                + ("none",)}
    if kind == "package":
        return {"package": ("none",)}
    if kind == "trade":
        return {"sell": tuple(f"{n}=1" for n in names), "buy": tuple(f"{n}=1" for n in names)}
    if kind in ("lucky", "unlucky"):
        return {"to": names}
    return {}


def _actions(player: dict[str, Any]) -> tuple[str, ...]:
    """The Actions of a Development round that name the Colonist's own Lands."""
    out: list[str] = []
    for land in player.get("lands", []):
        if not isinstance(land, dict):
            continue
        where = str(land.get("tile") or land.get("square") or "")
        if not where:
            continue
        mule = land.get("mule")
        for good in GOODS:
            if mule is None:
                out.append(f"buy {where} {_LETTER[good]}")
            elif mule != good:
                out.append(f"refit {where} {_LETTER[good]}")
    return (*out, "assay", "wampus yes", "pub", "pass")
