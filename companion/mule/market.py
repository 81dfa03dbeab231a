"""6. Market: who can still take part in an Auction, read from the typed State (a Colonist
either Buys or Sells a Good in one Auction; The Store sells what it holds, never Crystite).
The Auction asks only what somebody can still answer (``companion.mule.steps.trade``), and a
Market Auction nobody can take part in runs itself (``companion.mule.game``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from companion.mule import rules
from companion.record import NamedTuple
from components.errors import InputError, RuleError

if TYPE_CHECKING:
    from companion.mule.data import MuleData
    from companion.mule.state import Colonist, State

__all__ = ["Offer", "buy_from_store", "check_offer", "check_preferred", "deal", "declare",
           "declared", "holders_of", "no_deal", "no_purchase", "open_units", "sell_to_store",
           "store_sells_not"]


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


# -- an Auction's trades: each a pure function returning the new State and the lines read --

Trade = tuple["State", tuple[str, ...]]


def declared(s: State, good: str) -> Mapping[str, str]:
    """The Buyers and Sellers declared before ``good``'s Auction (Optional Rule: Declaring
    Buyers and Sellers): Colonist -> buyer or seller; empty without the rule."""
    return dict((s.declared or {}).get(good) or {})


def _take_role(roles: dict[str, str], who: str, role: str, good: str,
               said: Mapping[str, str] | None = None) -> None:
    """A Colonist either Buys or Sells a Good in one Auction, not both; one who declared
    themselves a Buyer or a Seller before it (``said``) is held to it."""
    if (said or {}).get(who, role) != role:
        was = (said or {})[who]
        raise RuleError(f"Declaring Buyers and Sellers: {who} declared {good} {was.capitalize()} "
                        f"before this Auction, and a declared {was.capitalize()} may only "
                        f"{'buy' if was == 'buyer' else 'sell'} it, so {who} cannot "
                        f"{'sell' if was == 'buyer' else 'buy'} it")
    if roles.get(who, role) != role:
        raise RuleError(f"Market: {who} {'sold' if role == 'buyer' else 'bought'} {good} in "
                        f"this Auction: a Colonist either Buys or Sells a Good in one Auction, "
                        "not both")
    roles[who] = role


ROLES = {"b": "buyer", "buyer": "buyer", "buy": "buyer", "s": "seller", "seller": "seller",
         "sell": "seller"}


def declare(s: State, good: str, said: Mapping[str, str]) -> State:
    """Declaring Buyers and Sellers: "Before each Market, players have to declare themselves
    either as Buyers or Sellers (at least for Food and Energy) ... if you declared yourself a
    Seller you are not forced to Sell, but you are not allowed to Buy that Good in this
    Auction." Every Colonist shows one side of the token (``said``: Colonist -> buyer or
    seller, b or s); the declarations are the Auction's Buyers and Sellers from its start.
    The project's reading: declared before each of the four Auctions, Smithore and Crystite
    too (the rule's "at least" leaves them to the table; one habit for all four)."""
    from companion.mule.state import player_name

    names = [c.name for c in s.colonists]
    roles: dict[str, str] = {}
    for typed, word in said.items():
        who = player_name(typed, names)
        role = ROLES.get(word.strip().lower())
        if role is None:
            raise InputError(f"Declaring Buyers and Sellers: {who}={word[:20]}: a Colonist "
                             "declares buyer or seller (b or s)")
        roles[who] = role
    missing = [n for n in s.ranking if n not in roles]
    if missing:
        raise InputError(f"Declaring Buyers and Sellers: every Colonist shows one side of "
                         f"the Buyer/Seller Token; missing: {', '.join(missing)}")
    # the key goes after those the game holds, as a dict's new key would
    keys = s.keys if not s.keys or "declared" in s.keys else (*s.keys, "declared")
    return s._replace(roles=MappingProxyType({**s.roles, good: MappingProxyType(roles)}),
                      declared=MappingProxyType({**(s.declared or {}),
                                                 good: MappingProxyType(roles)}),
                      keys=keys, extra=MappingProxyType({k: v for k, v in s.extra.items()
                                                         if k != "declared"}))


# -- Colonists Preferred over The Store in Auctions -----------------------------------------

class Offer(NamedTuple):
    """An offer made in an Auction: ``who`` buys or sells (``side``) up to ``units`` at
    ``price`` each."""

    who: str
    side: str
    units: int
    price: int


def check_offer(s: State, md: MuleData, good: str, offer: Offer) -> None:
    """Colonists Preferred over The Store in Auctions: an offer the rule binds "at least
    matches the price offered by The Store": to buy at The Store's Buy Price or more, to sell
    at its Sell Price or less. Only such offers are entered (the others bind nobody)."""
    buy = s.prices.of(good)
    if offer.side == "buy" and offer.price < buy:
        raise RuleError(f"Colonists Preferred over The Store in Auctions: {offer.who}'s offer "
                        f"to buy at ${offer.price} is below The Store's Buy Price (${buy}), so "
                        "it binds nobody: enter only offers at least matching The Store's")
    if offer.side == "sell":
        why = store_sells_not(s, good)
        if why is not None and good == "crystite":
            raise RuleError("Colonists Preferred over The Store in Auctions: The Store sells no "
                            "Crystite, so an offer to sell it has no price of The Store to "
                            "match")
        sell = md.track(good).sell_for(buy)
        if offer.price > sell:
            raise RuleError(f"Colonists Preferred over The Store in Auctions: {offer.who}'s "
                            f"offer to sell at ${offer.price} is above The Store's Sell Price "
                            f"(${sell}), so it binds nobody: enter only offers at least "
                            "matching The Store's")


def open_units(s: State, good: str, offer: Offer,
               deals: Sequence[tuple[str, str, int, int]]) -> int:
    """How many units of ``offer`` still stand after ``deals``: the units offered less those
    its maker has traded on its side, no more than the maker can still pay for (buying) or
    still holds (selling); none once the maker took the other side in this Auction."""
    roles = s.roles.get(good) or {}
    role = "buyer" if offer.side == "buy" else "seller"
    if roles.get(offer.who, role) != role:
        return 0
    done = sum(n for seller, buyer, n, _ in deals
               if offer.who == (buyer if offer.side == "buy" else seller))
    c = s.colonist(offer.who)
    can = c.money // offer.price if offer.side == "buy" and offer.price else c.stock(good)
    return max(0, min(offer.units - done, can))


def check_preferred(s: State, good: str, offers: Sequence[Offer],
                    deals: Sequence[tuple[str, str, int, int]], who: str, side: str) -> None:
    """Colonists Preferred over The Store in Auctions: "other players must trade with her
    before they can trade with The Store": ``who`` may not ``side`` (sell to or buy from The
    Store) while another Colonist's offer to take the other side of that trade still stands
    (:func:`open_units`). Checked on the State after ``deals``."""
    wanted = "buy" if side == "sell" else "sell"
    for offer in offers:
        if offer.who == who or offer.side != wanted:
            continue
        left = open_units(s, good, offer, deals)
        if left:
            store = "sell it to The Store" if side == "sell" else "buy it from The Store"
            raise RuleError(f"Colonists Preferred over The Store in Auctions: {offer.who} "
                            f"offers to {wanted} {left} {good} at ${offer.price}, at least "
                            f"matching The Store, so {who} trades with {offer.who} before "
                            f"The Store: {who} cannot {store} while the offer stands")


def _after(s: State, good: str, roles: dict[str, str], colonists: dict[str, Colonist],
           **changes: Any) -> State:
    """``s`` with ``good``'s Buyers and Sellers, the Colonists changed, and ``changes``."""
    return s._replace(
        roles=MappingProxyType({**s.roles, good: MappingProxyType(roles)}),
        colonists=tuple(colonists.get(c.name, c) for c in s.colonists), **changes)


def _add(c: Colonist, good: str, units: int, money: int) -> Colonist:
    return c._replace(stocks=c.stocks._replace(**{good: c.stock(good) + units}),
                      money=c.money + money)


def sell_to_store(s: State, good: str, sales: Mapping[str, int]) -> Trade:
    """6. Market: sales to The Store at its Buy Price (Crystite sold to it is shipped
    off-planet); a Colonist who sells becomes a Seller in the Auction."""
    buy = s.prices.of(good)
    roles = dict(s.roles.get(good) or {})
    changed: dict[str, Colonist] = {}
    store = s.store
    lines: list[str] = []
    for name, n in sales.items():
        c = changed.get(name) or s.colonist(name)
        if n > c.stock(good):
            raise RuleError(f"{name} has {c.stock(good)} {good}: cannot sell {n}")
        if not n:          # nothing sold: no line, no Seller's role
            continue
        _take_role(roles, name, "seller", good, declared(s, good))
        changed[name] = _add(c, good, -n, n * buy)
        if good != "crystite":
            store = store._replace(**{good: store.stock(good) + n})
        lines.append(f"{name} sells {n} {good} to The Store for ${n * buy}")
    return _after(s, good, roles, changed, store=store), tuple(lines)


def buy_from_store(s: State, md: MuleData, good: str, wants: Mapping[str, int]) -> Trade:
    """6. Market: purchases from The Store at its Sell Price, Priority to Buy (the lowest Rank
    first) when it has too few; a Colonist who buys becomes a Buyer in the Auction."""
    wants = {n: q for n, q in wants.items() if q}
    if not wants:
        return s, ()
    if good == "crystite" or not s.store.stock(good):
        raise RuleError(f"The Store has no {good} to sell")
    price = md.track(good).sell_for(s.prices.of(good))
    roles = dict(s.roles.get(good) or {})
    for name, q in wants.items():
        _take_role(roles, name, "buyer", good, declared(s, good))
        money = s.colonist(name).money
        if q * price > money:
            raise RuleError(f"{name} has ${money}: cannot pay for {q} {good} at ${price}")
    alloc = rules.priority_to_buy(list(s.ranking), wants, s.store.stock(good), price)
    changed = {n: _add(s.colonist(n), good, q, -alloc.cost[n]) for n, q in alloc.bought.items()}
    lines = [f"{n} buys {q} {good} from The Store for ${alloc.cost[n]}"
             for n, q in alloc.bought.items()]
    lines += [f"{n} goes without {q} {good}: The Store has no more (Priority to Buy: the "
              "lowest Rank first)" for n, q in alloc.unserved.items()]
    store = s.store._replace(**{good: alloc.store_left})
    return _after(s, good, roles, changed, store=store), tuple(lines)


def deal(s: State, good: str, deals: Sequence[tuple[str, str, int, int]]) -> Trade:
    """6. Market: deals between Colonists (SELLER, BUYER, units, price each), at any price;
    the seller becomes a Seller in the Auction and the buyer a Buyer."""
    roles = dict(s.roles.get(good) or {})
    changed: dict[str, Colonist] = {}
    lines: list[str] = []
    for seller, buyer, n, each in deals:
        if seller == buyer:
            raise InputError(f"{seller} cannot trade with {seller}")
        if not n:
            raise InputError(f"{seller}>{buyer} 0@{each}: a deal trades 1 unit or more")
        _take_role(roles, seller, "seller", good, declared(s, good))
        _take_role(roles, buyer, "buyer", good, declared(s, good))
        a, b = changed.get(seller) or s.colonist(seller), changed.get(buyer) or s.colonist(buyer)
        if n > a.stock(good):
            raise RuleError(f"{seller} has {a.stock(good)} {good}: cannot sell {n}")
        if n * each > b.money:
            raise RuleError(f"{buyer} has ${b.money}: cannot pay ${n * each}")
        changed[seller], changed[buyer] = _add(a, good, -n, n * each), _add(b, good, n, -n * each)
        lines.append(f"{seller} sells {n} {good} to {buyer} for ${n * each}")
    return _after(s, good, roles, changed), tuple(lines)
