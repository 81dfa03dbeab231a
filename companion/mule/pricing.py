"""5. Pricing: how many steps each Good's price moves on the Price Track.

Each function returns the net steps the Pricing Rules ask (``steps``); :func:`move` then moves
the counter, clamped at the ends of the lane (``moved``), and reads both prices of the new step.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.mule.data import PriceTrack
from companion.mule.rules import empty_pens
from companion.record import NamedTuple
from components.errors import InputError


class PriceChange(NamedTuple):
    """The outcome of the Pricing Phase for one Good."""

    good: str
    steps: int      # net steps the Pricing Rules ask for
    moved: int      # steps the counter actually moved (the lane's ends clamp it)
    buy: int        # The Store's Buy Price after the move
    sell: int       # The Store's Sell Price after the move

    def as_dict(self) -> dict[str, object]:
        return {"good": self.good, "steps": self.steps, "moved": self.moved, "buy": self.buy,
                "sell": self.sell}


def move(track: PriceTrack, buy: int, steps: int) -> PriceChange:
    """Move a price counter ``steps`` steps from Buy Price ``buy``; it stops at either end."""
    start = track.position(buy)
    end = min(track.steps - 1, max(0, start + steps))
    return PriceChange(track.good, steps, end - start, track.buy_at(end), track.sell_at(end))


def _nonnegative(values: Sequence[int], what: str) -> None:
    if any(v < 0 for v in values):
        raise InputError(f"{what} must be 0 or more")


def smithore_steps(store_mules: int, store_smithore: int, *, pens: int = 6,
                   mules_per_pen: int = 2) -> int:
    """Smithore and M.U.L.E. Prices: up a step per completely empty pen, down a step per
    surplus Smithore unit in The Store (possible only when every pen is full)."""
    _nonnegative([store_mules, store_smithore], "The Store's M.U.L.E.s and Smithore")
    if store_mules > pens * mules_per_pen:
        raise InputError(f"the Corral holds at most {pens * mules_per_pen} M.U.L.E.s")
    up = empty_pens(store_mules, pens=pens, mules_per_pen=mules_per_pen)
    down = store_smithore if store_mules == pens * mules_per_pen else 0
    return up - down


def crystite_steps(track: PriceTrack, buy: int, card_price: int | None, pirates: bool) -> int:
    """Crystite Price: the most recent Production Card's Crystite price is the new Buy Price;
    after Pirate Ship! it stays unchanged."""
    start = track.position(buy)
    if pirates or card_price is None:
        return 0
    return (card_price - track.buy_min) // track.step - start


def food_steps(stocks: Sequence[int], store: int, *, per_colonist: int = 4) -> int:
    """Food Price: up a step per unit any Colonist's Food Stock is below 4 (added over all
    Colonists), down a step per unit of Food in The Store."""
    _nonnegative([*stocks, store], "Food stocks")
    return sum(max(0, per_colonist - s) for s in stocks) - store


def energy_steps(stocks: Sequence[int], mules: Sequence[int], store: int) -> int:
    """Energy Price: up a step per unit any Colonist's Energy Stock is below their number of
    M.U.L.E.s (whatever they produce), down a step per unit of Energy in The Store."""
    if len(stocks) != len(mules):
        raise InputError(f"{len(stocks)} Energy stocks but {len(mules)} M.U.L.E. counts: give "
                         "one of each per Colonist, in the same order")
    _nonnegative([*stocks, *mules, store], "Energy stocks and M.U.L.E. counts")
    return sum(max(0, m - s) for s, m in zip(stocks, mules, strict=True)) - store
