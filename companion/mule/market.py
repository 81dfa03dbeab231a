"""6. Market: who can still take part in an Auction, read from the typed State (a Colonist
either Buys or Sells a Good in one Auction; The Store sells what it holds, never Crystite).
The Auction asks only what somebody can still answer (``companion.mule.steps.trade``), and a
Market Auction nobody can take part in runs itself (``companion.mule.game``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.mule.data import MuleData
    from companion.mule.state import State

__all__ = ["holders_of", "no_deal", "no_purchase", "store_sells_not"]


def store_sells_not(s: State, good: str) -> str | None:
    """Why The Store sells none of ``good`` in this Auction (None: it sells)."""
    if good == "crystite":
        return "Market: The Store sells no Crystite (Crystite sold to it leaves the planet)"
    if not s.store.stock(good):
        return f"Market: The Store has no {good} to sell"
    return None


def holders_of(s: State, good: str) -> list[str]:
    """The Colonists who can still sell ``good`` in this Auction: holding some, and not a
    Buyer in it (a Colonist either Buys or Sells a Good in one Auction)."""
    roles = s.roles.get(good) or {}
    return [c.name for c in s.colonists if c.stock(good) > 0 and roles.get(c.name) != "buyer"]


def no_purchase(s: State, md: MuleData, good: str) -> str | None:
    """Why nobody can buy ``good`` from The Store in this Auction now (None: somebody can):
    The Store sells none, or every Colonist is a Seller in it (a Colonist either Buys or Sells
    a Good in one Auction) or cannot pay its Sell Price for one."""
    why = store_sells_not(s, good)
    if why is not None:
        return why
    price = md.track(good).sell_for(s.prices.of(good))
    roles = s.roles.get(good) or {}
    if any(c.money >= price for c in s.colonists if roles.get(c.name) != "seller"):
        return None
    return (f"Market: nobody can buy {good} from The Store: every Colonist sold {good} in this "
            f"Auction or has less than the ${price} it asks for one")


def no_deal(s: State, good: str) -> str | None:
    """Why no deal between Colonists can be made in this Auction now (None: one can): a deal
    needs a Colonist holding ``good`` who is not a Buyer in it, and another who is not a
    Seller in it."""
    sellers = holders_of(s, good)
    title = good.capitalize()
    if not any(c.stock(good) > 0 for c in s.colonists):
        return f"Market: no Colonist holds {title} now, so none is sold, to The Store or to " \
            "another Colonist"
    if not sellers:
        return (f"Market: every Colonist holding {title} bought it in this Auction, and a "
                "Colonist either Buys or Sells a Good in one Auction: no deal between "
                "Colonists is left to make")
    roles = s.roles.get(good) or {}
    buyers = [c.name for c in s.colonists if roles.get(c.name) != "seller"]
    if any(b != h for h in sellers for b in buyers):
        return None
    return (f"Market: no deal between Colonists is left to make in the {title} "
            f"Auction: it needs a Colonist who holds {good} and is not a Buyer in it, and "
            "another who is not a Seller in it")
