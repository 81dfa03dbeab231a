"""How long a game of M.U.L.E. lasts, with the Optional Rules that change it: the Production
deck of the set-up, the Turns The Ship is Back! may be drawn on, and the Colony Success Table
for a game of other than 7 Turns.

- More Game Turns (``more-game-turns=1`` or ``=2``): "add 1 or 2 Production Cards to the
  deck": 7+1 or 8+1 cards in a Tournament, so The Ship is Back! is drawn on Turn 8 or 9.
- Variable Number of Game Turns (``variable-turns``): "take one card less when forming the
  initial Production Card deck ... take two additional Production Cards and shuffle them with
  one The Ship is Back! card. Place these three cards to the bottom of the deck": The Ship is
  Back! is drawn on one of the last three Turns (6, 7 or 8 in a Tournament).
- Both together: the deck of More Game Turns, formed the Variable way (the project's reading:
  the rules add up; 7 to 9 Turns with ``more-game-turns=1``).

The Colony Success Table is printed "scaled for a 7-turn Tournament" and the rulebook gives no
table for a game of 6, 8 or 9 Turns. The project's decision: the table's bounds scale with the
Turns played (each row's lowest total times TURNS/7, fractions rounded down as the rulebook's
principle says; each row ends a dollar below the row above it), and ``status`` and the end say
so. A 7-Turn game reads the printed table as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.mule import options
from companion.record import NamedTuple
from components.errors import RuleError

if TYPE_CHECKING:
    import random

    from companion.mule.data import MuleData

__all__ = ["Length", "colony_note", "colony_rows", "length", "production_deck"]


class Length(NamedTuple):
    """The Production deck of the set-up: ``top`` cards dealt on top, then ``bottom`` cards
    (The Ship is Back! and the others shuffled with it) under them."""

    top: int
    bottom: int

    @property
    def first(self) -> int:
        """The first Turn The Ship is Back! may be drawn on."""
        return self.top + 1

    @property
    def last(self) -> int:
        """The last Turn it may be drawn on (the last Turn of the game)."""
        return self.top + self.bottom

    def describe(self) -> str:
        if self.first == self.last:
            return (f"The Ship is Back! lies under {self.top} Production Cards: drawn on "
                    f"Turn {self.last}")
        return (f"The Ship is Back! is shuffled with the last {self.bottom - 1} of "
                f"{self.top + self.bottom - 1} Production Cards: drawn on Turn {self.first} "
                f"to {self.last}")


def length(md: MuleData, mode: str, players: int, chosen: Mapping[str, str] | None) -> Length:
    """The Production deck the set-up of ``mode`` forms with the Optional Rules ``chosen``."""
    count = int(md.setup(mode, players).get("production_deck", 0))
    more = options.value(chosen, "more-game-turns")
    count += int(more) if more else 0
    if options.on(chosen, "variable-turns"):
        return Length(count - 1, 3)
    return Length(count, 1)


def production_deck(md: MuleData, mode: str, rng: random.Random, players: int,
                    chosen: Mapping[str, str] | None = None) -> list[str]:
    """Set-up 4. Production Cards (top of the deck first): the set-up's number of cards on
    one random The Ship is Back!; with the Optional Rules, as :func:`length` forms it (the
    bottom cards shuffled with The Ship is Back!)."""
    ships = [c.id for c in md.cards if c.ship_is_back]
    others = [c.id for c in md.cards if not c.ship_is_back]
    if not ships:
        raise RuleError("the Production Cards hold no The Ship is Back! card")
    deck = length(md, mode, players, chosen)
    wanted = deck.top + deck.bottom - 1
    if wanted > len(others):
        raise RuleError(f"the deck needs {wanted} Production Cards besides The Ship is Back!, "
                        f"and the game has {len(others)}")
    rng.shuffle(others)
    bottom = [*others[deck.top:wanted], rng.choice(ships)]
    if deck.bottom > 1:
        rng.shuffle(bottom)
    return others[:deck.top] + bottom


def _table_turns(md: MuleData) -> int:
    return int(md.data.get("colony_success", {}).get("turns", 7))


def colony_rows(md: MuleData, turns: int) -> list[dict[str, Any]]:
    """The Colony Success Table's rows for a game of ``turns`` Game Turns (see the module's
    docstring: the printed rows for the printed Turns, else each bound scaled)."""
    rows = md.colony_rows()
    base = _table_turns(md)
    if turns == base:
        return rows
    out: list[dict[str, Any]] = []
    for i, row in enumerate(rows):
        new = dict(row)
        for column in ("three", "four"):
            above = _scaled(rows[i - 1][column][0], turns, base) if i else None
            new[column] = [_scaled(row[column][0], turns, base),
                           None if above is None else above - 1]
        out.append(new)
    return out


def _scaled(bound: int | None, turns: int, base: int) -> int | None:
    return None if bound is None else bound * turns // base


def colony_note(md: MuleData, turns: int, players: int) -> str | None:
    """What the end says of the table read for a game of ``turns`` Turns (None: the printed
    table, for the Turns it is printed for)."""
    base = _table_turns(md)
    if turns == base:
        return None
    column = {3: "three", 4: "four"}.get(players, "four")
    top = colony_rows(md, turns)[0][column][0]
    return (f"the rulebook prints the Colony Success Table for {base} Turns only; for this "
            f"{turns}-Turn game the project scales each bound by {turns}/{base}, fractions "
            f"down (the best row from ${top}): the project's decision")

