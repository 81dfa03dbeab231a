"""8. Personal Events (and Hunt the Wampus): the Lucky and Unlucky Event decks, who receives a
card, and what its structured ``effect`` does to the Colonist who receives it.

The decks are plain JSON-able dicts kept in the saved game (``{"draw": [ids, top first],
"discard": [ids], "shuffles": n}``), so a draw is part of the event that records it and undo
puts the card back. A deck whose draw pile runs out is re-made from its discard pile, shuffled
by a generator seeded from the game's seed, the deck's name and how many times it was
shuffled before: the same ``--seed`` gives the same cards in the same order.

The effect vocabulary is the one the Event Cards' YAML uses (``components/mule/layouts.yaml``,
beside the event layouts): ``money``, ``money_by_lands``, ``money_per_land``,
``money_per_mule``, ``goods``, ``goods_by_lands``, ``lose_half``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.record import NamedTuple
from components.errors import InputError, RuleError

GOODS: tuple[str, ...] = ("smithore", "crystite", "food", "energy")
SCALE_AT = 5    # "a small or no effect with 1-4 lands and a larger effect with 5+ lands"


# -- the decks --------------------------------------------------------------------------------

def new_deck(ids: Sequence[str], seed: int | str, name: str) -> dict[str, Any]:
    """Set-up 3. Event Cards: a deck shuffled face down, with an empty discard pile."""
    if not ids:
        raise RuleError(f"the game defines no {name.capitalize()} Event Cards")
    draw = list(ids)
    random.Random(f"{seed}:{name}:0").shuffle(draw)
    return {"draw": draw, "discard": [], "shuffles": 0}


def draw(deck: dict[str, Any], seed: int | str, name: str) -> tuple[str, bool]:
    """Draw the top card, in place; returns it and whether the discard pile was shuffled
    first to re-create an exhausted deck. The card is not discarded yet (:func:`discard`)."""
    reshuffled = False
    if not deck["draw"]:
        if not deck["discard"]:
            raise RuleError(f"the {name.capitalize()} Event deck and its discard pile are "
                            "empty")
        deck["shuffles"] = int(deck.get("shuffles", 0)) + 1
        pile = list(deck["discard"])
        random.Random(f"{seed}:{name}:{deck['shuffles']}").shuffle(pile)
        deck["draw"], deck["discard"] = pile, []
        reshuffled = True
    return deck["draw"].pop(0), reshuffled


def discard(deck: dict[str, Any], card: str) -> None:
    """After the card is played it goes face up onto its discard pile."""
    deck["discard"].append(card)


# -- who receives the card ------------------------------------------------------------------------

def check_target(giver: str, target: str) -> None:
    """Event Cards must always be given to another Colonist."""
    if giver == target:
        raise RuleError(f"{giver} drew the card and cannot receive it: give it to another "
                        "Colonist")


def alt_event_target(alt_event: Mapping[str, int], ranking: Sequence[str]) -> str:
    """Alternative Personal Event System: the Rank highlighted on the card's diagram (for a
    3- or 4-player game) receives it. ``ranking`` is Rank 1 first."""
    key = {3: "three", 4: "four"}.get(len(ranking))
    if key is None:
        raise RuleError("the Alternative Personal Event System is for 3 or 4 players")
    if key not in alt_event:
        raise RuleError(f"the card has no Rank for a {len(ranking)}-player game")
    rank = int(alt_event[key])
    if not 1 <= rank <= len(ranking):
        raise RuleError(f"Rank {rank} is not in a {len(ranking)}-player game")
    return ranking[rank - 1]


# -- what the card does --------------------------------------------------------------------------

class _Colonist(NamedTuple):
    money: int
    stocks: Mapping[str, int]
    lands: int                                   # Lands on the Player Board
    mules: Mapping[str, int] = {}                # Good -> M.U.L.E.s producing it


class Colonist(_Colonist):
    """What an Event Card reads of the Colonist who receives it (every number 0 or more)."""

    __slots__ = ()

    def __new__(cls, money: int, stocks: Mapping[str, int], lands: int,
                mules: Mapping[str, int] | None = None) -> Colonist:
        mules = {} if mules is None else mules
        if money < 0 or lands < 0 or any(v < 0 for v in stocks.values()) \
                or any(v < 0 for v in mules.values()):
            raise InputError("Money, Stocks, Lands and M.U.L.E.s must be 0 or more")
        return super().__new__(cls, money, stocks, lands, mules)


class EventOutcome(NamedTuple):
    """An Event Card carried out: the change asked, and what is left after it."""

    money: int                       # change asked (negative: lost)
    goods: dict[str, int]            # change asked per Good
    money_after: int
    stocks_after: dict[str, int]

    def summary(self) -> str:
        parts = [f"{'+' if self.money >= 0 else '-'}${abs(self.money)}"] if self.money else []
        parts += [f"{n:+d} {g}" for g, n in self.goods.items() if n]
        return ", ".join(parts) or "no effect"


def _scaled(table: Mapping[str, Any], lands: int) -> Any:
    return table["lands_5_plus"] if lands >= SCALE_AT else table["lands_1_4"]


def event_change(effect: Mapping[str, Any], who: Colonist) -> tuple[int, dict[str, int]]:
    """The Money and Goods an Event Card's effect asks of (or gives to) its target."""
    money = 0
    goods = dict.fromkeys(GOODS, 0)
    for key, value in effect.items():
        if key == "money":
            money += int(value)
        elif key == "money_by_lands":
            money += int(_scaled(value, who.lands))
        elif key == "money_per_land":
            producing = value.get("producing")
            count = who.lands if not producing else sum(int(who.mules.get(g, 0))
                                                        for g in producing)
            money += int(value["amount"]) * count
        elif key == "money_per_mule":
            money += int(value) * sum(int(v) for v in who.mules.values())
        elif key == "goods":
            for g, n in value.items():
                goods[_good(g)] += int(n)
        elif key == "goods_by_lands":
            for g, n in _scaled(value, who.lands).items():
                goods[_good(g)] += int(n)
        elif key == "lose_half":
            for g in value:
                goods[_good(g)] -= int(who.stocks.get(_good(g), 0)) // 2
        else:
            raise RuleError(f"an Event Card effect '{key}' the companion does not know")
    return money, goods


def apply_event(effect: Mapping[str, Any], who: Colonist) -> EventOutcome:
    """8. Personal Events: the target follows the card's instructions. Money and Goods gained
    come from the neutral stacks, those lost go to them; a loss is carried out as far as
    possible (a Colonist with $5 who loses $10 loses the $5), fractions are rounded down."""
    money, goods = event_change(effect, who)
    stocks = {g: max(0, int(who.stocks.get(g, 0)) + goods[g]) for g in GOODS}
    return EventOutcome(money, {g: n for g, n in goods.items() if n},
                        max(0, who.money + money), stocks)


def _good(name: str) -> str:
    good = str(name).lower()
    if good not in GOODS:
        raise RuleError(f"an Event Card names an unknown good '{name}'")
    return good
