"""Mule Goes Crazy!'s economy as pure functions: the order of the Player Turns, the Resource
Auctions, the Interrupt and Event cards' effects, Upgrades in production, Facilities' Build
costs and the final score.

The draft rulebook (``mule-goes-crazy.txt``) names most of these and stops at "Resource
Auctions"; every number and every reading it leaves open is the project's, written in
``components/mule_goes_crazy/data.yaml`` (``resource_auction``, ``game_end``, ``economy``)
and on the cards (``effect:``, ``build:``, ``bonus:``), and printed with a star on the rules
sheet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.record import NamedTuple
from components.errors import InputError, RuleError

__all__ = ["Deal", "Effect", "Score", "Trade", "TradeRules", "card_effect", "final_score",
           "next_price", "resource_auction", "turn_order", "turn_refusal"]


# --- Player Turns ---------------------------------------------------------------------------

def turn_order(seating: Sequence[str], favored: str | None) -> list[str]:
    """Player Turns: "start with the player on the favored player's left", clockwise, so the
    favored player goes last (no favored player yet: the seating order)."""
    names = list(seating)
    if favored not in names:
        return names
    at = names.index(str(favored))
    return names[at + 1:] + names[:at + 1]


def turn_refusal(order: Sequence[str], acted: Sequence[str], done: Sequence[str],
                 player: str) -> str | None:
    """Player Turns, one player after the other: the player taking their turn is the one
    furthest round the table who has acted (none yet: the first in ``order``); they may act
    on, unless their turn is over (``done``), or the next player may begin theirs. Returns why
    ``player`` may not act now, or None."""
    if player not in order:
        return None
    now = max((order.index(n) for n in acted if n in order), default=-1)
    at = order.index(player)
    seats = ", ".join(order)
    if player in done or 0 <= at < now:
        return (f"{player}'s turn is over: the Player Turns go once round the table, from the "
                f"favored player's left ({seats})")
    if at <= now + 1 or (now < 0 and at == 0):
        return None
    current = order[now] if now >= 0 and order[now] not in done else order[now + 1]
    return (f"it is {current}'s turn: the Player Turns go once round the table, from the "
            f"favored player's left ({seats}), so {player} comes after {order[at - 1]}")


# --- Resource Auctions ----------------------------------------------------------------------

class TradeRules(NamedTuple):
    """The project's Resource Auctions (the draft ends at the heading): the Store buys at the
    last price and sells at the last price plus ``spread``; the price moves ``step`` after the
    resource, never below ``floor``."""

    order: tuple[str, ...]
    spread: int
    step: int
    floor: int


def trade_rules(data: Mapping[str, Any]) -> TradeRules:
    r = data["resource_auction"]
    return TradeRules(tuple(r["order"]), int(r["spread"]), int(r["step"]), int(r["floor"]))


class Deal(NamedTuple):
    seller: str
    buyer: str
    units: int
    price: int            # Credits a unit, as the two players agreed


class Trade(NamedTuple):
    """One Resource Auction's result: the units and Credits each player gains (negative:
    gives), the Store's stock change, and the resource's next last price."""

    resource: str
    price: int
    sell_price: int
    units: dict[str, int]
    credits: dict[str, int]
    store: int
    next_price: int


def next_price(price: int, store_sold: int, store_bought: int, rules: TradeRules) -> int:
    """After the resource: up ``step`` if the Store sold more units than it bought, down
    ``step`` (never below ``floor``) if it bought more."""
    if store_sold > store_bought:
        return price + rules.step
    if store_bought > store_sold:
        return max(rules.floor, price - rules.step)
    return price


def resource_auction(resource: str, price: int, stock: int, holdings: Mapping[str, int],
                     credits: Mapping[str, int], sell: Mapping[str, int],
                     buy: Mapping[str, int], deals: Sequence[Deal], rules: TradeRules
                     ) -> Trade:
    """Resource Auctions (the project's): first the sales to the Store at the last price,
    then the purchases from its stock at the last price plus the spread, then the deals
    between players at their own price. Nobody sells units they do not have or pays Credits
    they do not have; the Store sells only what it holds."""
    units = {n: 0 for n in holdings}
    cash = {n: 0 for n in holdings}
    for who in (*sell, *buy, *(d.seller for d in deals), *(d.buyer for d in deals)):
        if who not in holdings:
            raise InputError(f"no player '{who}' in this game ({', '.join(holdings)})")
    for who, n in sell.items():
        units[who] -= n
        cash[who] += n * price
    sell_price = price + rules.spread
    wanted = sum(buy.values())
    if wanted > stock + sum(sell.values()):
        raise RuleError(f"the Store holds {stock + sum(sell.values())} {resource.capitalize()} "
                        f"after the sales to it, and cannot sell {wanted}")
    for who, n in buy.items():
        units[who] += n
        cash[who] -= n * sell_price
    for d in deals:
        if d.seller == d.buyer:
            raise InputError(f"a deal is between two players, not {d.seller} and themself")
        units[d.seller] -= d.units
        units[d.buyer] += d.units
        cash[d.seller] += d.units * d.price
        cash[d.buyer] -= d.units * d.price
    for who in holdings:
        if holdings[who] + units[who] < 0:
            raise RuleError(f"{who} has {holdings[who]} {resource.capitalize()} and cannot "
                            f"give {-units[who]}")
        if credits[who] + cash[who] < 0:
            raise RuleError(f"{who} has {credits[who]} Credits and cannot pay "
                            f"{-cash[who]}")
    store_change = sum(sell.values()) - wanted
    return Trade(resource, price, sell_price, units, cash, store_change,
                 next_price(price, wanted, sum(sell.values()), rules))


# --- Interrupts and Events ------------------------------------------------------------------

class Effect(NamedTuple):
    """What an Interrupt or Event card does: each player's resource changes (Credits
    included), the Store's, the Mule that runs away (player, index on the sheet), the dice
    this turn's Mules roll more or fewer, and who may not move Mules."""

    players: dict[str, dict[str, int]]
    store: dict[str, int]
    runaway: tuple[str, int] | None = None
    dice: dict[str, int] = {}
    blocked: str | None = None


def _add(out: dict[str, dict[str, int]], who: str, resource: str, n: int) -> None:
    if n:
        mine = out.setdefault(who, {})
        mine[resource] = mine.get(resource, 0) + n


def card_effect(effect: Mapping[str, Any], player: str, target: str | None,
                sheets: Mapping[str, Mapping[str, Any]], store: Mapping[str, int],
                mule: int | None = None) -> Effect:
    """The effect of an Interrupt or Event card (its ``effect:`` data) played by ``player``
    on ``target`` (a player, for the cards that name one; ``mule``: the index of the
    target's Mule a Radiation Storm drives off)."""
    out: dict[str, dict[str, int]] = {}
    shop: dict[str, int] = {}
    kind, value = next(iter(effect.items()))
    if kind in ("target_pays", "target_loses_all", "target_loses_half", "target_no_move",
                "mule_runs_away") and target is None:
        raise InputError("this card names a player: --target NAME")
    if kind == "target_pays":
        paid = min(int(value), int(sheets[str(target)]["credits"]))
        _add(out, str(target), "credits", -paid)
        _add(out, player, "credits", paid)
    elif kind == "target_loses_all":
        _add(out, str(target), str(value), -int(sheets[str(target)][str(value)]))
    elif kind == "target_loses_half":
        have = int(sheets[str(target)][str(value)])
        _add(out, str(target), str(value), -(have - have // 2))
    elif kind == "store_pays":
        _add(out, player, "credits", int(value))
    elif kind == "take_from_store":
        for resource, n in dict(value).items():
            taken = min(int(n), int(store.get(resource, 0)))
            _add(out, player, resource, taken)
            shop[resource] = -taken
    elif kind in ("each_gains", "each_with_land_gains"):
        for who, sheet in sheets.items():
            if kind == "each_gains" or sheet["lands"]:
                for resource, n in dict(value).items():
                    _add(out, who, resource, int(n))
    elif kind == "store_gains":
        shop = {r: int(n) for r, n in dict(value).items()}
    elif kind == "dice_this_turn":
        return Effect(out, shop, dice={r: int(n) for r, n in dict(value).items()})
    elif kind == "target_no_move":
        return Effect(out, shop, blocked=target)
    elif kind == "mule_runs_away":
        if mule is None:
            raise InputError("say which Mule runs off: --mule LAND (the Land it tends)")
        return Effect(out, shop, runaway=(str(target), mule))
    else:
        raise InputError(f"a card's effect '{kind}' is not one the companion knows")
    return Effect(out, shop)


# --- the end --------------------------------------------------------------------------------

class Score(NamedTuple):
    """The final score (the project's): each player's net worth and its parts, the colony's
    people, and the winners (none when the colony failed)."""

    worth: dict[str, int]
    parts: dict[str, dict[str, int]]
    people: int
    winners: tuple[str, ...]
    failed: bool


def final_score(sheets: Mapping[str, Mapping[str, Any]], prices: Mapping[str, int],
                people: int, end: Mapping[str, Any]) -> Score:
    """Net worth: Credits, plus every resource at the Store's last price, plus ``land_value``
    a Land and ``mule_value`` a Mule in play. The highest net worth wins (a tie: all of
    them), if the colony's Population in play holds ``colony_minimum`` people or more."""
    parts: dict[str, dict[str, int]] = {}
    for who, s in sheets.items():
        parts[who] = {"credits": int(s["credits"]),
                      "resources": sum(int(s[r]) * int(prices[r]) for r in prices),
                      "lands": len(s["lands"]) * int(end["land_value"]),
                      "mules": len(s["mules"]) * int(end["mule_value"])}
    worth = {who: sum(p.values()) for who, p in parts.items()}
    failed = people < int(end["colony_minimum"])
    best = max(worth.values(), default=0)
    winners = () if failed else tuple(w for w, v in worth.items() if v == best)
    return Score(worth, parts, people, winners, failed)
