"""M.U.L.E.'s moves of 1. Expansion, Package From Home World! and 6. Market as frozen values,
each with one pure check and one pure apply over the typed
:class:`~companion.mule.state.State` (``mule-board-game.txt``, "1. Expansion": "Land Grant",
"Land Auctions"; "2. Development": "Package From Home World!"; "6. Market"; the Optional Rules
Secret Bidding in Land Auctions, Declaring Buyers and Sellers, Colonists Preferred over The
Store in Auctions).

A move holds what the table types, read already (a Colonist as the game spells the name, a
tile by its code, a square as the Player Board prints it): :func:`check` says why the rules
refuse it (the refusal's text, in the rulebook's words) or None; :func:`apply` returns the
State after it and the lines the table reads, and raises RuleError with that refusal for a
move :func:`check` refuses. Neither changes the State it is given. A value that cannot be a
move at all (a negative bid, a deal of a Colonist with themselves) is refused when it is made
(InputError), so every move that exists can be checked.

The steps of :mod:`companion.mule.steps` are the adapters: they ask the table's questions,
read the answers into these values, and call ``check`` and ``apply``. The rules themselves are
the pure functions of :mod:`companion.mule.expansion`, :mod:`companion.mule.board` and
:mod:`companion.mule.market`, which these checks call.

Development's Action Rounds, Production and the Personal Events have their moves beside their
rules (:mod:`companion.mule.development`, :mod:`companion.mule.producing`,
:mod:`companion.mule.personal`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from companion.mule import board, expansion, market
from companion.mule.expansion import check_from_planet, land_granted, must_claim, owned
from companion.mule.planet import check_on_planet
from companion.mule.state import Land, State
from components.errors import InputError, RuleError

if TYPE_CHECKING:
    from companion.mule.data import MuleData

__all__ = ["Buy", "Declare", "Deals", "Grant", "LandAuction", "MarketAuction", "NoLandForSale",
           "Offers", "OpenAuction", "Package", "Play", "Sell", "apply", "auction_turn_refused",
           "card_holders", "check", "opening"]

Lines = tuple[str, ...]
Deal = tuple[str, str, int, int]          # SELLER, BUYER, units, price each


def _refusal(rule: Callable[..., Any], *args: Any) -> str | None:
    """A rule function that raises RuleError, as a refusal's text (None: it does not)."""
    try:
        rule(*args)
    except RuleError as exc:
        return str(exc)
    return None


# -- 1. Expansion: Land Grant ---------------------------------------------------------------------

@dataclass(frozen=True)
class Grant:
    """Land Grant: ``colonist`` claims the Land ``tile`` (its printed code) onto ``square`` of
    their Player Board; ``tile`` None: claims no Land."""

    colonist: str
    tile: str | None = None
    square: str | None = None

    def __post_init__(self) -> None:
        if (self.tile is None) != (self.square is None):
            raise InputError("Land Grant: a Land claimed is its tile and the square it goes "
                             "on, TILE@SQUARE, e.g. P07@B2")


def _claim_refused(s: State, md: MuleData, who: str, tile: str, square: str | None
                   ) -> str | None:
    """Why ``who`` cannot place the Land ``tile`` on ``square`` (None: not said yet) of their
    Player Board: the claim's own rules (:func:`companion.mule.board.claim_refused`), then the
    Zone it came from (:func:`companion.mule.expansion.check_from_planet`)."""
    land = md.land(tile)
    why = board.claim_refused(land.land, land.tile, square, owned(s), s.craters,
                              [x.square for x in s.colonist(who).lands], md.player_board)
    if why or square is None:
        return why
    return _refusal(check_from_planet, s, md, Land(land.land, land.tile, square))


def _check_grant(s: State, md: MuleData, m: Grant) -> str | None:
    """A Colonist who can claim a Land has to (Questions and Answers); the Land claimed meets
    the placement rules."""
    if m.tile is None:
        return must_claim(s, md, m.colonist)
    return _claim_refused(s, md, m.colonist, m.tile, m.square)


def _apply_grant(s: State, md: MuleData, m: Grant) -> tuple[State, Lines]:
    if m.tile is None:
        return s, (f"{m.colonist} claims no Land",)
    land = md.land(m.tile)
    return land_granted(s, m.colonist, Land(land.land, land.tile, m.square)), (
        f"{m.colonist} claims {land.tile} on {m.square}",)


# -- 1. Expansion: Land Auctions (Tournament) ------------------------------------------------------

def card_holders(s: State) -> tuple[str, ...]:
    """The Colonists holding a Land for Sale! card who have not played one this Turn, Rank 1
    first: the order the cards are played in."""
    played = s.auctions or ()
    return tuple(n for n in s.ranking if s.held(n, "land_for_sale") > 0 and n not in played)


def auction_turn_refused(s: State, who: str | None, seller: str) -> str | None:
    """The Land for Sale! cards are played from Rank 1 down: ``who`` is the Colonist whose turn
    it is to play one or not (None: nobody holds one)."""
    if who is None:
        return "Land Auctions: no Colonist holds a Land for Sale! card to play"
    if seller != who:
        return (f"Land Auctions: the Land for Sale! cards are played from Rank 1 down, and now "
                f"it is {who}'s turn to play one or not (not {seller}'s)")
    return None


@dataclass(frozen=True)
class NoLandForSale:
    """Land Auctions: ``seller`` plays no Land for Sale! card (keeping it); ``rest``: nobody
    else plays one this Turn either."""

    seller: str
    rest: bool = False


def _apply_no_sale(s: State, md: MuleData, m: NoLandForSale) -> tuple[State, Lines]:
    if not m.rest:
        return s, (f"{m.seller} plays no Land for Sale! card",)
    todo = (*s.todo[:1], *(x for x in s.todo[1:] if x[0] != "auction"))
    return s._replace(todo=todo), ("No more Land Auctions this Turn",)


@dataclass(frozen=True)
class OpenAuction:
    """Land Auctions: ``seller`` plays a Land for Sale! card and places the Auction Tracker on
    the unclaimed Land ``tile`` of Planet Irata; ``secret``: Secret Bidding in Land Auctions.
    It changes no State: its bids are walked (:func:`opening`), and the Auction's end is a
    :class:`LandAuction`."""

    seller: str
    tile: str
    secret: bool = False


def _check_open(s: State, md: MuleData, m: OpenAuction) -> str | None:
    """The Land is unclaimed and on Planet Irata; the seller holds a card, can pay the opening
    bid and could place the Land (:func:`companion.mule.expansion.open_auction`)."""
    why = _claim_refused(s, md, m.seller, m.tile, None)
    if why:
        return why
    if (why := _refusal(check_on_planet, s, md, m.tile)) is not None:
        return why
    if m.secret and (why := _refusal(expansion.check_secret_rule, s)) is not None:
        return why
    return _refusal(expansion.open_auction, s, md, m.seller, m.tile)


def opening(s: State, md: MuleData, m: OpenAuction) -> expansion.Bidding:
    """The Auction opened: the bidding at exactly the opening bid, the seller the highest
    bidder. Raises RuleError with :func:`check`'s refusal."""
    why = _check_open(s, md, m)
    if why:
        raise RuleError(why)
    return expansion.open_auction(s, md, m.seller, m.tile)


@dataclass(frozen=True)
class LandAuction:
    """A Land Auction's end: ``seller`` played the Land for Sale! card, ``winner`` pays
    ``bid`` and places ``tile`` on ``square`` of their Player Board; ``secret``: the bids were
    secret (Secret Bidding in Land Auctions)."""

    seller: str
    winner: str
    bid: int
    tile: str
    square: str
    secret: bool = False

    def __post_init__(self) -> None:
        if self.bid < 0:
            raise InputError("bid must be 0 or more")


def _check_auction(s: State, md: MuleData, m: LandAuction) -> str | None:
    """The card held and played once a Turn, the bid as the procedure allows and paid, the Land
    placed as Land Grant places it (:func:`companion.mule.expansion.check_land_auction`)."""
    why = _refusal(expansion.check_land_auction, s, md, m.seller, m.winner, m.bid, m.secret)
    return why or _claim_refused(s, md, m.winner, m.tile, m.square)


def _apply_auction(s: State, md: MuleData, m: LandAuction) -> tuple[State, Lines]:
    land = md.land(m.tile)
    after = expansion.land_auction_won(s, m.seller, m.winner, m.bid,
                                       Land(land.land, land.tile, m.square))
    return after, (f"{m.seller} plays Land for Sale!: {m.winner} wins {land.tile} at ${m.bid} "
                   f"and places it on {m.square}",)


# -- 2. Development: Package From Home World! ----------------------------------------------------

@dataclass(frozen=True)
class Package:
    """Package From Home World! cards played at the start of Development, before any Action:
    (Colonist, the card's id) for each; none: no card played."""

    plays: tuple[tuple[str, str], ...] = ()


def _check_package(s: State, md: MuleData, m: Package) -> str | None:
    """One card a Colonist, one they hold, and only if no other Colonist has a smaller Stock
    of its Good (a Special Talent may waive that), checked once on the Stocks before any card
    takes effect."""
    seen: set[str] = set()
    for who, card_id in m.plays:
        if who in seen:
            return f"Package From Home World!: {who} plays one card"
        seen.add(who)
        if s.held(who, "package") < 1:
            return f"Package From Home World!: {who} holds no such card"
        good = str(md.hand(card_id).effect.get("if_smallest_stock"))
        mine = s.colonist(who).stock(good)
        talent_card = s.talent_card(who)
        if talent_card and md.species(talent_card).talent.get("package_ignores_condition"):
            continue
        smaller = [c for c in s.colonists if c.name != who and c.stock(good) < mine]
        if smaller:
            return (f"Package From Home World!: {smaller[0].name} has a smaller {good} Stock "
                    f"({smaller[0].stock(good)}) than {who} ({mine})")
    return None


def _apply_package(s: State, md: MuleData, m: Package) -> tuple[State, Lines]:
    if not m.plays:
        return s, ("No Package From Home World! played",)
    colonists = {c.name: c for c in s.colonists}
    hands = {n: dict(h) for n, h in (s.hands or {}).items()}
    lines: list[str] = []
    for who, card_id in m.plays:
        card = md.hand(card_id)
        good = str(card.effect.get("if_smallest_stock"))
        n = int(card.effect.get("goods", {}).get(good, 0))
        c = colonists[who]
        colonists[who] = c._replace(stocks=c.stocks._replace(**{good: c.stock(good) + n}))
        hands[who]["package"] = hands[who].get("package", 0) - 1
        lines.append(f"{who} plays Package From Home World!: +{n} {good}")
    return s._replace(colonists=tuple(colonists[c.name] for c in s.colonists),
                      hands=MappingProxyType({n: MappingProxyType(h) for n, h in hands.items()})
                      ), tuple(lines)


# -- 6. Market: one Auction's entries -------------------------------------------------------------

@dataclass(frozen=True)
class Declare:
    """Declaring Buyers and Sellers: every Colonist's side of the token before ``good``'s
    Auction (Colonist, buyer or seller)."""

    good: str
    roles: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Offers:
    """Colonists Preferred over The Store in Auctions: the offers made in ``good``'s Auction
    that at least match The Store's price. They change no State: they stand while the
    Auction's sales and purchases are checked (:class:`Sell`, :class:`Buy`)."""

    good: str
    offers: tuple[market.Offer, ...] = ()


@dataclass(frozen=True)
class Sell:
    """Sales to The Store at its Buy Price in ``good``'s Auction (Colonist, units), with the
    offers standing and the deals made before them in this Auction."""

    good: str
    sales: tuple[tuple[str, int], ...]
    offers: tuple[market.Offer, ...] = ()
    deals: tuple[Deal, ...] = ()


@dataclass(frozen=True)
class Buy:
    """Purchases from The Store at its Sell Price in ``good``'s Auction (Colonist, units),
    with the offers standing and the deals made before them in this Auction."""

    good: str
    purchases: tuple[tuple[str, int], ...]
    offers: tuple[market.Offer, ...] = ()
    deals: tuple[Deal, ...] = ()


@dataclass(frozen=True)
class Deals:
    """Deals between Colonists in ``good``'s Auction, at any price: (SELLER, BUYER, units,
    price each)."""

    good: str
    deals: tuple[Deal, ...]

    def __post_init__(self) -> None:
        for seller, buyer, n, each in self.deals:
            if seller == buyer:
                raise InputError(f"{seller} cannot trade with {seller}")
            if n < 1:
                raise InputError(f"{seller}>{buyer} {n}@{each}: a deal trades 1 unit or more")
            if each < 0:
                raise InputError("price must be 0 or more")


MarketAuction = Declare | Offers | Sell | Buy | Deals


def _check_declare(s: State, md: MuleData, m: Declare) -> str | None:
    return _refusal(market.declare, s, m.good, dict(m.roles))


def _apply_declare(s: State, md: MuleData, m: Declare) -> tuple[State, Lines]:
    after = market.declare(s, m.good, dict(m.roles))
    roles = market.declared(after, m.good)
    return after, ("Declared: " + ", ".join(f"{n} {roles[n].capitalize()}"
                                            for n in after.ranking),)


def _check_offers(s: State, md: MuleData, m: Offers) -> str | None:
    """An offer the rule binds at least matches The Store's price
    (:func:`companion.mule.market.check_offer`)."""
    for offer in m.offers:
        why = _refusal(market.check_offer, s, md, m.good, offer)
        if why:
            return why
    return None


def _preferred(s: State, m: Sell | Buy, given: tuple[tuple[str, int], ...], side: str
               ) -> str | None:
    """A trade with The Store waits while another Colonist's offer for it stands."""
    for name, n in given:
        if n:
            why = _refusal(market.check_preferred, s, m.good, m.offers, m.deals, name, side)
            if why:
                return why
    return None


def _check_sell(s: State, md: MuleData, m: Sell) -> str | None:
    """A Colonist sells what they hold, and either Buys or Sells a Good in one Auction
    (:func:`companion.mule.market.sell_to_store`)."""
    return _preferred(s, m, m.sales, "sell") or \
        _refusal(market.sell_to_store, s, m.good, dict(m.sales))


def _check_buy(s: State, md: MuleData, m: Buy) -> str | None:
    """The Store sells what it holds at its Sell Price, Priority to Buy
    (:func:`companion.mule.market.buy_from_store`)."""
    return _preferred(s, m, m.purchases, "buy") or \
        _refusal(market.buy_from_store, s, md, m.good, dict(m.purchases))


def _check_deals(s: State, md: MuleData, m: Deals) -> str | None:
    """The seller holds the units, the buyer pays for them (:func:`companion.mule.market.deal`)."""
    return _refusal(market.deal, s, m.good, m.deals)


def _apply_market(s: State, md: MuleData, m: Sell | Buy | Deals) -> tuple[State, Lines]:
    if isinstance(m, Sell):
        return market.sell_to_store(s, m.good, dict(m.sales))
    if isinstance(m, Buy):
        return market.buy_from_store(s, md, m.good, dict(m.purchases))
    return market.deal(s, m.good, m.deals)


def _unchanged(s: State, md: MuleData, m: Any) -> tuple[State, Lines]:
    return s, ()


def _no_refusal(s: State, md: MuleData, m: Any) -> None:
    return None


# -- the one check and the one apply -------------------------------------------------------------

Play = Grant | NoLandForSale | OpenAuction | LandAuction | Package | MarketAuction

_RULES: Mapping[type, tuple[Callable[..., str | None], Callable[..., tuple[State, Lines]]]] = {
    Grant: (_check_grant, _apply_grant), NoLandForSale: (_no_refusal, _apply_no_sale),
    OpenAuction: (_check_open, _unchanged), LandAuction: (_check_auction, _apply_auction),
    Package: (_check_package, _apply_package), Declare: (_check_declare, _apply_declare),
    Offers: (_check_offers, _unchanged), Sell: (_check_sell, _apply_market),
    Buy: (_check_buy, _apply_market), Deals: (_check_deals, _apply_market)}


def check(s: State, md: MuleData, move: Play) -> str | None:
    """Why the rules refuse ``move`` now (the refusal names the rule); None: they do not."""
    return _RULES[type(move)][0](s, md, move)


def apply(s: State, md: MuleData, move: Play) -> tuple[State, Lines]:
    """The State after ``move`` and the lines the table reads; RuleError with
    :func:`check`'s refusal when the rules refuse it."""
    checked, applied = _RULES[type(move)]
    why = checked(s, md, move)
    if why:
        raise RuleError(why)
    return applied(s, md, move)
