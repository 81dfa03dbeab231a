"""M.U.L.E.'s table view (see :mod:`companion.table`): the Ranking in columns (Money, Goods,
Lands with their M.U.L.E.s, Hand Cards), The Store's stocks and prices, the steps still to take
in this Phase; and for a Colonist's move, the choices open to them now (their own Lands for a
Development Action). Reads the state's JSON form and the price tracks of the rule data."""

from __future__ import annotations

from typing import Any

from companion.table import Board, Cell, Column

__all__ = ["board", "choices", "players"]

GOODS = ("smithore", "crystite", "food", "energy")
_LETTER = {"food": "F", "energy": "E", "smithore": "S", "crystite": "C"}
_STEP = {"grant": "Land Grant", "auction": "Land Auction", "package": "Package From Home World!",
         "develop": "Action Round", "reveal": "the Production Card revealed",
         "usage": "Usage and Spoilage", "produce": "Production",
         "pricing": "Pricing", "trade": "Market Auction", "sellout": "Final Market",
         "ranking": "Ranking", "lucky": "Lucky Event", "unlucky": "Unlucky Event",
         "end": "the end"}


def players(state: dict[str, Any]) -> tuple[str, ...]:
    return tuple(str(n) for n in state.get("order") or state.get("players", {}))


def _land(land: dict[str, Any]) -> str:
    name = str(land.get("tile") or land.get("land") or "Land")
    where = f"@{land['square']}" if land.get("square") else ""
    mule = f": {str(land['mule']).capitalize()} M.U.L.E." if land.get("mule") else ""
    return f"{name}{where}{mule}"


def _prices(state: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Each Good's price as The Store sells and buys it (the price tracks' markers)."""
    from companion.mule import data

    md = data.load()
    return {g: (md.track(g).sell_for(state["prices"][g]), state["prices"][g]) for g in GOODS}


def _column(state: dict[str, Any], rank: int, name: str) -> Column:
    p = state["players"][name]
    hand = (state.get("hands") or {}).get(name) or {}
    cells = (Cell("Money", f"${p['money']}"),
             *(Cell(good.capitalize(), str(p.get(good, 0))) for good in GOODS),
             Cell("Land for Sale! cards", str(hand.get("land_for_sale", 0))),
             Cell("Package cards", str(hand.get("package", 0))))
    lands = tuple(_land(x) for x in p.get("lands") or [] if isinstance(x, dict))
    species = (state.get("species") or {}).get(name)
    return Column(name, f"Rank {rank}", cells, lands + ((f"Colonist card {species}",)
                                                        if species else ()))


def board(state: dict[str, Any]) -> Board:
    ranking = state.get("ranking") or list(state.get("players", {}))
    columns = tuple(_column(state, i, n) for i, n in enumerate(ranking, 1))
    store, prices = state.get("store") or {}, _prices(state)
    stocks = (Cell("The Store: M.U.L.E.s", f"{store.get('mules', 0)} at "
                                          f"${prices['smithore'][0]}"),
              *(Cell(f"{good.capitalize()} (stock, sells/buys)",
                     f"{store.get(good, '-')}, ${prices[good][0]}/${prices[good][1]}")
                for good in GOODS))
    mode = str(state.get("mode") or "").capitalize()
    title = f"M.U.L.E. {mode} Game, Turn {state.get('turn')}" + (" (over)" if state.get("over")
                                                                  else "")
    upcoming = tuple(_said(step) for step in (state.get("todo") or [])[1:7])
    notes: tuple[str, ...] = (f"Meteor Craters: {', '.join(state['craters'])}",) \
        if state.get("craters") else ()
    if state.get("planet"):      # Random Land Placement: Planet Irata as the table laid it
        notes += ("Planet Irata as laid: " + " / ".join(" ".join(row)
                                                        for row in state["planet"]),)
    if state.get("card") and state.get("phase") in ("develop", "usage"):   # More Predictability
        from companion.mule import data

        card = data.load().card(str(state["card"]))
        notes += (f"Production Card revealed: {card.code} {card.title} (it takes effect at "
                  "Production)",)
    return Board(title, columns, stocks, notes, upcoming)


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
        secret = ("TILE secret",) if "secret-bidding" in (state.get("options") or {}) else ()
        return {"auction": ("TILE", *secret,
                            *(f"{n} BID TILE@SQUARE" for n in names if n != who), "none")}
    if kind == "package":
        return {"package": ("none",)}
    if kind == "trade":
        return {"sell": tuple(f"{n}=1" for n in names), "buy": tuple(f"{n}=1" for n in names)}
    if kind in ("lucky", "unlucky"):
        return {"to": names}
    return {}


def _actions(player: dict[str, Any]) -> tuple[str, ...]:
    """The Actions of a Development round that name the Colonist's own Lands: a M.U.L.E.
    bought for a Land without one, refitted or moved to a Land without one."""
    lands = [(str(x.get("tile") or x.get("square") or ""), x.get("mule"))
             for x in player.get("lands", []) if isinstance(x, dict)]
    lands = [(where, mule) for where, mule in lands if where]
    empty = [where for where, mule in lands if mule is None]
    out: list[str] = []
    for where, mule in lands:
        if mule is None:
            out.extend(f"buy {where} {_LETTER[good]}" for good in GOODS)
            continue
        out.extend(f"refit {where} {_LETTER[good]}" for good in GOODS if good != mule)
        out.extend(f"move {where} {to}" for to in empty)
    return (*out, "assay", "wampus yes", "pub", "pass")
