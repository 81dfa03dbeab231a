"""What the table does now in a game of Mule Goes Crazy! (``Declaration.now``), read from the
typed state: the turn's steps in the draft's order (Favored Player, the Land Grant before the
first turn, Land Auctions, the Player Turns from the favored player's left, the Production
Phase: Production, Spoilage, upkeep), then the project's Resource Auctions and the end of the
turn; None once the game is over (the turn in which the Draw pile ran out the second time has
ended and its final score is saved).

Three steps have nothing to decide, and run themselves (``Now.auto``): the Favored Player
after the first turn (the fewest Credits, a tie clockwise from the last one), and in the first
turn once the table has named one (``new --favored``); Spoilage (every sheet's Food over 10
loses 5, Energy over 20 is halved); the upkeep of the Population cards (the Store pays each,
oldest first) with the Facilities' Build costs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.mule_goes_crazy.state import State
from companion.play import Now

__all__ = ["PLAYER_KINDS", "now_of", "whose_turn"]

M = "irata play mule-goes-crazy"
PLAYER_KINDS = ("buy", "move", "upgrade", "discard-upgrade", "event", "interrupt", "facility",
                "population", "move-population", "done")
"""The moves of a player's turn (Play out cards, Move Mules), and its end."""


def whose_turn(s: State) -> str | None:
    """The player taking their turn in the Player Turns (None once every one is over)."""
    from companion.mule_goes_crazy.economy import turn_order

    order = turn_order(s.seating, s.favored)
    acted = [order.index(n) for n in s.this_turn.acted if n in order]
    now = max(acted, default=-1)
    if now < 0:
        return order[0] if order else None
    if order[now] not in s.this_turn.done:
        return order[now]
    return order[now + 1] if now + 1 < len(order) else None


def _begun(s: State) -> bool:
    t = s.this_turn
    return bool(t.played or t.produced or t.spoilage or t.upkeep or t.auctions_over
                or any(int(a["turn"]) == s.turn for a in s.auctions)
                or (s.turn == 1 and s.granted))


def _opening(s: State) -> Now | None:
    """Favored Player, the Land Grant, the Land Auctions."""
    t = s.this_turn
    if not t.favored and not _begun(s):
        chosen = s.turn > 1 or s.favored is not None
        return Now(s.turn, "favored", None, f"turn {s.turn}: Favored Player (" +
                   ("the fewest Credits" if s.turn > 1 else "the table's choice in the "
                    "first turn" + (f": {s.favored}" if s.favored else "")) + ")",
                   f"{M} favored" + ("" if chosen else " [--player NAME]"), auto=chosen)
    if t.played or t.produced:
        return None
    if s.turn == 1 and not s.auctions and not t.auctions_over:
        waiting = [n for n in s.seating if n not in s.granted]
        if waiting:
            return Now(1, "grant", waiting[0], f"turn 1: Land Grant: {waiting[0]} may lay one "
                       "Land card from their hand (or none); then the Land Auctions",
                       f"{M} grant {waiting[0]} LAND|none", kinds=("grant", "auction"))
    unsold = any(int(a["turn"]) == s.turn and a["winner"] is None for a in s.auctions)
    if unsold or t.auctions_over:
        return None
    return Now(s.turn, "auction", None, f"turn {s.turn}: Land Auctions (turn over a card of "
               "the Draw pile: a Land is auctioned, the favored player bidding first; a card "
               "that is not a Land, or a Land nobody bids on, ends them)",
               f"{M} auction LAND --winner NAME --price N | LAND --bid NAME=N|pass,... | "
               "LAND --unsold | none")


def _production(s: State, data: Mapping[str, Any]) -> Now:
    """The Production Phase, the Resource Auctions, the end of the turn."""
    from companion.mule_goes_crazy.steps import needs_upkeep

    t = s.this_turn
    waiting = [n for n in s.seating if n not in t.produced]
    if waiting:
        return Now(s.turn, "produce", waiting[0], f"turn {s.turn}: Production for "
                   f"{', '.join(waiting)} (the table's dice with --player and --rolls, or the "
                   "saved game's for all at once)", f"{M} produce [--player NAME --rolls ...]")
    if not t.spoilage:
        return Now(s.turn, "spoilage", None, f"turn {s.turn}: Spoilage", f"{M} spoilage",
                   auto=True)
    if needs_upkeep(s) and not t.upkeep:
        return Now(s.turn, "upkeep", None, f"turn {s.turn}: the upkeep of the Population "
                   "cards and the Build costs of the Facilities", f"{M} upkeep", auto=True)
    order = list(data["resource_auction"]["order"])
    last = max((order.index(r) for r in t.traded if r in order), default=-1)
    if last + 1 < len(order):
        res = order[last + 1]
        return Now(s.turn, "trade", res, f"turn {s.turn}: Resource Auction of "
                   f"{res.capitalize()} (or end the turn: nobody trades the rest)",
                   f"{M} trade {res} [--sell NAME=N] [--buy NAME=N] [--deal S>B N@PRICE]",
                   kinds=("trade", "end-turn"))
    last_turn = s.reshuffles >= int(data["game_end"]["draw_pile_exhausted"])
    return Now(s.turn, "end-turn", None, f"turn {s.turn} is done: "
               + ("the last turn: the game ends with the final score" if last_turn
                  else "the next turn begins"), f"{M} end-turn")


def now_of(s: State, data: Callable[[], Mapping[str, Any]]) -> Now | None:
    """What the table does now (see the module's docstring). ``data`` gives the game's turn
    data (the Resource Auctions' order, the game's end), read only once the Production Phase
    needs it."""
    if s.over:
        return None
    opening = _opening(s)
    if opening is not None:
        return opening
    t = s.this_turn
    if not (t.produced or t.spoilage or t.upkeep):
        who = whose_turn(s)
        if who is not None:
            return Now(s.turn, "buy", who, f"turn {s.turn}, Player Turns: {who}'s turn (draw "
                       "to six cards, play cards, discard, move Mules), then done",
                       f"{M} buy|move|upgrade|discard-upgrade|event|interrupt|facility|"
                       f"population|move-population|done {who} ...", kinds=PLAYER_KINDS)
    return _production(s, data())
