"""M.U.L.E. rules as pure functions: Usage and Spoilage, The Store's M.U.L.E. Production,
the Market's Priority to Buy, Ranking, the final sell-out and Colony Success.

No I/O here: the rule numbers (12, 1/2, 1/4, the Corral's pens...) come in as arguments, read
by the caller from the game's definitions (``companion.mule.data``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.record import NamedTuple
from components.errors import InputError, RuleError

GOODS: tuple[str, ...] = ("smithore", "crystite", "food", "energy")


class _Stocks(NamedTuple):
    smithore: int = 0
    crystite: int = 0
    food: int = 0
    energy: int = 0


class Stocks(_Stocks):
    """A Colonist's four Stocks, each a whole number 0 or more."""

    __slots__ = ()

    def __new__(cls, smithore: int = 0, crystite: int = 0, food: int = 0, energy: int = 0
                ) -> Stocks:
        for good, value in zip(GOODS, (smithore, crystite, food, energy), strict=True):
            if not isinstance(value, int) or value < 0:
                raise InputError(f"{good} stock must be a whole number 0 or more, not {value}")
        return super().__new__(cls, smithore, crystite, food, energy)

    def as_dict(self) -> dict[str, int]:
        return {g: getattr(self, g) for g in GOODS}


class SpoilageResult(NamedTuple):
    """What Usage and Spoilage leaves (3. Usage and Spoilage)."""

    energy_used: int
    shortage: int
    spoiled: dict[str, int]
    stocks: Stocks


def spoilage(stocks: Stocks, mules: int, energy_mules: int, *, food_divisor: int = 2,
             energy_divisor: int = 4, overstock_limit: int = 12) -> SpoilageResult:
    """3. Usage and Spoilage, for one Colonist's Stocks after the Development Phase.

    Energy Usage is one per M.U.L.E. producing anything but Energy; a Shortage is how many
    M.U.L.E.s to flip. Then every other Food and every fourth Energy left spoils (fractions
    down), then every Stock above the overstock limit. (Food Usage is the Food Usage box,
    which is not part of the Stock.)
    """
    if mules < 0 or energy_mules < 0:
        raise InputError("M.U.L.E. counts must be 0 or more")
    if energy_mules > mules:
        raise InputError(f"{energy_mules} Energy M.U.L.E.s is more than the {mules} M.U.L.E.s")
    needed = mules - energy_mules
    energy_used = min(needed, stocks.energy)
    shortage = needed - energy_used
    left = stocks.as_dict()
    left["energy"] -= energy_used
    spoiled = dict.fromkeys(GOODS, 0)
    spoiled["food"] = left["food"] // food_divisor
    spoiled["energy"] = left["energy"] // energy_divisor
    left["food"] -= spoiled["food"]
    left["energy"] -= spoiled["energy"]
    for good in GOODS:
        over = max(0, left[good] - overstock_limit)
        spoiled[good] += over
        left[good] -= over
    return SpoilageResult(energy_used, shortage, spoiled, Stocks(**left))


class MuleProduction(NamedTuple):
    """The Store after making M.U.L.E.s (M.U.L.E. Production in The Store)."""

    made: int
    mules: int
    smithore: int


def store_mule_production(mules: int, smithore: int, sold: int = 0, *, pens: int = 6,
                          mules_per_pen: int = 2) -> MuleProduction:
    """M.U.L.E. Production in The Store: whenever a pen of the Corral has room, one Smithore
    becomes one M.U.L.E. until the Corral is full or the Smithore is gone. ``sold`` M.U.L.E.s
    are sold one by one during the Development Phase, each replaced at once if possible."""
    capacity = pens * mules_per_pen
    if min(mules, smithore, sold) < 0:
        raise InputError("M.U.L.E.s, Smithore and M.U.L.E.s sold must be 0 or more")
    if mules > capacity:
        raise InputError(f"the Corral holds at most {capacity} M.U.L.E.s, not {mules}")
    if sold > mules + smithore:
        raise RuleError(f"The Store can sell at most {mules + smithore} M.U.L.E.s "
                        f"({mules} in the Corral and {smithore} from Smithore), not {sold}")
    total = mules + smithore - sold
    final_mules = min(capacity, total)
    made = final_mules - (mules - sold)
    made = max(made, 0)
    return MuleProduction(made, final_mules, smithore - made)


def empty_pens(mules: int, *, pens: int = 6, mules_per_pen: int = 2) -> int:
    """Completely empty pens: each pen houses two M.U.L.E.s if it can (5. Pricing)."""
    filled = -(-mules // mules_per_pen)
    return max(0, pens - filled)


def rank(wealth: Mapping[str, int], previous: Sequence[str]) -> list[str]:
    """7. Ranking: wealthiest first; tied Colonists keep their previous order.

    ``previous`` is the previous Ranking, Rank 1 first, and names the same Colonists.
    """
    check_same_colonists(wealth, previous)
    place = {name: i for i, name in enumerate(previous)}
    return sorted(previous, key=lambda name: (-wealth[name], place[name]))


def check_same_colonists(given: Mapping[str, object] | Sequence[str],
                         previous: Sequence[str]) -> None:
    names = list(given)
    if len(set(previous)) != len(previous):
        raise InputError("the previous Ranking names a Colonist twice")
    missing = [n for n in previous if n not in names]
    extra = [n for n in names if n not in previous]
    if extra:
        raise InputError(f"{', '.join(extra)} not in the Ranking ({', '.join(previous)})")
    if missing:
        raise InputError(f"no amount given for {', '.join(missing)}")


def ranking_wealth(money: Mapping[str, int], lands: Mapping[str, int] | None = None,
                   mules: Mapping[str, int] | None = None, *, land_value: int = 10,
                   mule_value: int = 5) -> dict[str, int]:
    """Wealth for Ranking: Money, plus (Optional Rule: Inherent Land and M.U.L.E. Value in
    Ranking) $10 a Land and $5 a M.U.L.E."""
    for extra in (lands or {}, mules or {}):
        unknown = [n for n in extra if n not in money]
        if unknown:
            raise InputError(f"{', '.join(unknown)} has no money given")
    return {name: amount + land_value * (lands or {}).get(name, 0)
            + mule_value * (mules or {}).get(name, 0) for name, amount in money.items()}


class Allocation(NamedTuple):
    """Who buys how many from The Store (6. Market, Priority to Buy)."""

    bought: dict[str, int]
    cost: dict[str, int]
    store_left: int
    unserved: dict[str, int] = {}


def priority_to_buy(ranking: Sequence[str], wants: Mapping[str, int], store: int,
                    sell_price: int) -> Allocation:
    """6. Market, Priority to Buy: the lowest-ranking Colonist buys from The Store first, as
    many as she wants, then the next above her, in reverse Rank order, at the Sell Price."""
    unknown = [n for n in wants if n not in ranking]
    if unknown:
        raise InputError(f"{', '.join(unknown)} not in the Ranking ({', '.join(ranking)})")
    if store < 0 or any(v < 0 for v in wants.values()):
        raise InputError("amounts must be 0 or more")
    left = store
    bought: dict[str, int] = {}
    unserved: dict[str, int] = {}
    for name in reversed(ranking):
        if name not in wants:
            continue
        got = min(wants[name], left)
        left -= got
        bought[name] = got
        if got < wants[name]:
            unserved[name] = wants[name] - got
    return Allocation(bought, {n: q * sell_price for n, q in bought.items()}, left, unserved)


class SellOut(NamedTuple):
    """The final turn's Market: every Good sold to The Store at its Buy Price."""

    revenue: dict[str, int]
    money: dict[str, int]
    sold: dict[str, dict[str, int]]


def final_sell_out(money: Mapping[str, int], stocks: Mapping[str, Stocks],
                   buy_prices: Mapping[str, int]) -> SellOut:
    """Game End and Winning: in the Market Phase of the Final Turn, Colonists sell all their
    Goods to The Store at its Buy Prices."""
    unknown = [n for n in stocks if n not in money]
    if unknown:
        raise InputError(f"{', '.join(unknown)} has no money given")
    revenue: dict[str, int] = {}
    sold: dict[str, dict[str, int]] = {}
    for name in money:
        s = stocks.get(name, Stocks()).as_dict()
        sold[name] = s
        revenue[name] = sum(s[g] * buy_prices[g] for g in GOODS)
    return SellOut(revenue, {n: money[n] + revenue[n] for n in money}, sold)


class ColonySuccess(NamedTuple):
    """A row of the Colony Success Table: 1 is the best, 7 the worst."""

    rating: int
    text: str
    total: int


def colony_success(total: int, players: int, rows: Sequence[Mapping[str, object]]
                   ) -> ColonySuccess:
    """Colony Success and Retirement (Tournament only): the Colony's total wealth read on the
    table's column for 3 or 4 Colonists."""
    column = {3: "three", 4: "four"}.get(players)
    if column is None:
        raise InputError(f"the Colony Success Table is for 3 or 4 Colonists, not {players}")
    for row in rows:
        bounds: Any = row[column]
        low, high = bounds
        if (low is None or total >= low) and (high is None or total <= high):
            return ColonySuccess(int(row["rating"]), str(row["text"]), total)  # type: ignore[call-overload]
    raise RuleError(f"the Colony Success Table has no row for ${total}")
