"""Mule Goes Crazy!: three rules of the draft beyond the economy, checked on the typed State
(:mod:`companion.mule_goes_crazy.state`; :mod:`companion.mule_goes_crazy.fold` folds their
events):

- an Upgrade discarded ("Any upgrade can be discarded during this phase by simply placing it
  in the discard pile"): in its owner's Play out cards, as a part of their turn;
- a Population card moved ("Population cards may be moved at any time, but this requires a
  majority vote among the players"): onto a built Facility that holds none, or off one;
- a Land Auction's bidding, bid by bid ("Start with the favored player, who may bid any
  amount starting at the opening bid, and move clockwise around the table ... Each player in
  turn may bid any amount higher than the current high bid. When no one else bids any
  higher, that player places the Land card in front of them").

Where the draft stops, the project decides (said in ``data.yaml``'s ``decisions``, in
``status`` and starred on the rules sheet): a majority is more than half of the players; the
bidding goes round the table until every other player has passed after the high bid in a
row (a player who passed may bid again when the bidding comes round), and nobody bids more
Credits than they hold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.mule_goes_crazy.state import State
from companion.record import NamedTuple
from components.errors import InputError, RuleError

__all__ = ["LandBidding", "discard_upgrade_event", "population_move_event",
           "walk_land_auction"]


def _title(key: str | None) -> str:
    return (key or "none").replace("-", " ").title()


# --- an Upgrade discarded ------------------------------------------------------------------

def discard_upgrade_event(s: State, name: str, land: str, on_mule: bool
                          ) -> dict[str, Any]:
    """Upgrades: "Any upgrade can be discarded during this phase" (Play out cards, in the
    player's own turn): the Upgrade on ``name``'s Land ``land``, or with ``on_mule`` the one on
    the Mule tending it, goes to the Discard pile."""
    from companion.mule_goes_crazy.steps import player_turn

    player_turn(s, name, "discarding an Upgrade")
    sheet = s.sheet(name)
    if land not in sheet.lands:
        raise RuleError(f"{name} holds no {_title(land)} Land")
    if on_mule:
        at = next((i for i, m in enumerate(sheet.mules) if m.land == land), None)
        if at is None or sheet.mules[at].upgrade is None:
            raise RuleError(f"no Mule of {name}'s on {_title(land)} holds an Upgrade: "
                            "nothing to discard")
        upgrade = sheet.mules[at].upgrade
    else:
        at = next((i for i, x in enumerate(sheet.lands)
                   if x == land and sheet.land_upgrade(i) is not None), None)
        if at is None:
            raise RuleError(f"{name}'s {_title(land)} holds no Upgrade: nothing to discard")
        upgrade = sheet.land_upgrade(at)
    return {"turn": s.turn, "player": name, "upgrade": upgrade,
            "on": "mule" if on_mule else "land", "index": at, "land": land}


# --- a Population card moved by vote ---------------------------------------------------------

def _majority(s: State, votes: Sequence[str]) -> list[str]:
    """The players who voted for the move, each once; more than half of the players (the
    project's reading of "a majority vote among the players")."""
    names = {n.lower(): n for n in s.seating}
    out: list[str] = []
    for v in votes:
        who = names.get(v.strip().lower())
        if who is None:
            raise InputError(f"--for names the players who vote for the move, not "
                             f"'{v.strip()[:40]}' ({', '.join(s.seating)})")
        if who in out:
            raise InputError(f"{who} votes once")
        out.append(who)
    need = len(s.seating) // 2 + 1
    if len(out) < need:
        raise RuleError(f"a Population card moves only by a majority vote among the players: "
                        f"{len(out)} of {len(s.seating)} voted for it, {need} needed")
    return out


def population_move_event(s: State, card: str, to: str | None,
                          votes: Sequence[str], source: str | None = None) -> dict[str, Any]:
    """Population and Facilities: a Population card in play (``card``; the one on the
    Facility ``source`` when named, else the first one elsewhere than ``to``) moves onto the
    built Facility ``to`` that holds no Population card, or off its Facility (``to`` None),
    by a majority vote (``votes``: who voted for it)."""
    if s.over:
        raise RuleError("the game is over: 'irata play status' shows the final score")
    at = next((i for i, (c, f) in enumerate(s.populations)
               if c == card and (f == source if source is not None else f != to)), None)
    if at is None:
        where = f" on {_title(source)}" if source is not None else ""
        raise RuleError(f"no {_title(card)} Population card{where} is in play to move"
                        + (f" (it is on {_title(to)} already)" if to is not None
                           and (card, to) in s.populations else ""))
    if to is not None:
        if not any(f.card == to and f.built for f in s.facilities):
            raise RuleError(f"{_title(to)} is no built Facility in play: a Population card "
                            "is assigned to a Facility once it is built")
        if any(f == to for _, f in s.populations):
            raise RuleError(f"{_title(to)} holds a Population card already")
    voted = _majority(s, votes)
    return {"turn": s.turn, "card": card, "index": at, "from": s.populations[at][1],
            "to": to, "for": voted}


# --- a Land Auction, bid by bid --------------------------------------------------------------

class LandBidding(NamedTuple):
    """A Land Auction's bidding walked: who won it for what (None: nobody bid), and the bids
    in order (``None``: a pass)."""

    winner: str | None
    price: int | None
    bids: tuple[tuple[str, int | None], ...]


def _bid(text: str, who: str) -> int | None:
    word = text.strip().lower()
    if word in ("pass", "no", "-", "0 pass"):
        return None
    digits = word.removeprefix("+")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 9):
        raise InputError(f"--bid takes NAME=CREDITS or NAME=pass, not {who}={text[:40]}")
    return int(digits)


def walk_land_auction(order: Sequence[str], opening: int, credits: Mapping[str, int],
                      bids: Sequence[tuple[str, str]]) -> LandBidding:
    """Bidding, clockwise from the favored player (``order``): each in turn bids more than the
    high bid (the first at least ``opening``) or passes; the bidding is over once every other
    player has passed after the high bid, or every player passed without one. A bid out of
    turn, too low, or beyond the bidder's Credits is refused; bids after the end, or an end not
    reached, too."""
    high: tuple[str, int] | None = None
    passes = 0
    walked: list[tuple[str, int | None]] = []
    n = len(order)
    for k, (who, text) in enumerate(bids):
        turn = order[k % n]
        if who.strip().lower() != turn.lower():
            raise RuleError(f"bid {k + 1} is {turn}'s: the bidding goes clockwise from the "
                            f"favored player ({', '.join(order)})")
        if (high is not None and passes == n - 1) or (high is None and passes == n):
            raise RuleError(f"the bidding was over before bid {k + 1}: nobody bids after it")
        value = _bid(text, turn)
        if value is None:
            passes += 1
        else:
            least = opening if high is None else high[1] + 1
            if value < least:
                raise RuleError(f"{turn} bids {value}: " + (
                    f"the first bid is at least the opening bid, {opening}" if high is None
                    else f"a bid is higher than the high bid, {high[1]} ({high[0]})"))
            if value > int(credits[turn]):
                raise RuleError(f"{turn} bids {value} Credits and holds {credits[turn]}")
            high, passes = (turn, value), 0
        walked.append((turn, value))
    over = (high is not None and passes == n - 1) or (high is None and passes == n)
    if not over:
        nxt = order[len(bids) % n]
        raise RuleError(f"the bidding is not over ({nxt} to bid or pass"
                        + (f"; the high bid is {high[1]}, {high[0]}'s" if high else "")
                        + "): give every bid until the others have passed")
    return LandBidding(high[0] if high else None, high[1] if high else None, tuple(walked))
