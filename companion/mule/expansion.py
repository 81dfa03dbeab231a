"""1. Expansion, Land Grant: which Lands a Colonist could claim now and whether they have to
claim one, read from the saved game's state and the printed map. Light to import: ``next``
names what the Colonist whose Land Grant it is could claim, without the steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from companion.mule.planet import check_on_planet, planet_of
from companion.record import NamedTuple
from components.errors import InputError, RuleError

if TYPE_CHECKING:
    from companion.mule.data import MuleData
    from companion.mule.state import Land, State

__all__ = ["ANY_ZONE", "BESIDE", "PLANET_LANDS", "Bidding", "Claimable", "bid_word",
           "check_card_play", "check_crater_zone", "check_from_planet", "check_land_auction",
           "claimable", "clockwise", "crater_zone", "land_auction_won", "land_granted",
           "left_on_planet", "must_claim", "next_bidder", "open_auction", "owned",
           "secret_winner"]


def owned(s: State) -> dict[str, str]:
    """Each Land tile on a Player Board -> the Colonist whose board it is."""
    return {land.tile: c.name for c in s.colonists for land in c.lands if land.tile}


# Land types the set-up places on Planet Irata, on squares printed with their type
PLANET_LANDS = ("river", "plains", "low-mountain", "high-mountain")
ANY_ZONE = "any"
# A Meteor Crater placed beside the board (Meteorite Strike!: no empty square left on Planet
# Irata). The card names no Zone for it; the project's reading: it lies in no Zone, so it goes on
# an empty square of any Zone of the Player Board.
BESIDE = "beside"


def crater_zone(s: State, tile: str) -> str | None:
    """The Zone of Planet Irata a Meteor Crater was placed in (``crater_zones``: white, red,
    blue, or BESIDE the board); None for a game saved before the Zone was recorded."""
    zone = s.crater_zones.get(tile)
    return str(zone) if zone else None


class Claimable(NamedTuple):
    """Lands ``who`` could claim now from one Zone of Planet Irata (``zone`` ANY_ZONE: a
    Meteor Crater, whose square the companion does not know), and ``who``'s empty squares that
    take them."""

    zone: str
    lands: tuple[str, ...]
    squares: tuple[str, ...]

    def describe(self) -> str:
        names = [k.replace("-", " ").title() for k in self.lands]
        titles = " or ".join(filter(None, (", ".join(names[:-1]), names[-1])))
        where = "from Planet Irata, any Zone" if self.zone == ANY_ZONE else \
            f"from the {self.zone.capitalize()} Zone"
        return f"{titles} {where} (empty: {', '.join(self.squares)})"


def left_on_planet(s: State, md: MuleData, kind: str) -> dict[str, int]:
    """How many Lands of ``kind`` surely still lie in each Zone of Planet Irata.

    The set-up placed ``lands.KIND`` of them on the squares printed with that type; each
    claimed one came from the Zone of the Player Board square it went on (Land Grant). When
    the set-up placed fewer than there are squares (Rivers with three Colonists), a Zone is sure
    to hold only what the other Zones cannot: the Lands left, less the squares left elsewhere."""
    pb, planet = md.player_board, planet_of(s, md)
    placed = int(md.setup(s.mode, len(s.ranking)).get("lands", {}).get(kind, 0))
    claimed = [x for c in s.colonists for x in c.lands if x.land == kind]
    left = placed - len(claimed)
    # the printed squares of that type, Zone by Zone, counted in one pass over the map
    printed = dict.fromkeys(planet.zones, 0)
    for row in planet.rows:
        for col, letter in enumerate(row):
            if planet.letters.get(letter) == kind:
                printed[planet.zones[col]] += 1
    squares = {z: n - sum(1 for x in claimed if x.square and pb.zone(x.square) == z)
               for z, n in printed.items()}
    return {z: max(0, left - sum(max(0, n) for o, n in squares.items() if o != z))
            for z in squares}


def claimable(s: State, md: MuleData, who: str) -> list[Claimable]:
    """Land Grant (Questions and Answers, Expansion: a Colonist has to pick a Land if one is
    available and they have an empty place in the same Zone on their Player Board): what
    ``who`` could claim now, Zone by Zone; empty when ``who`` may claim none.

    A Land is available when it surely still lies on Planet Irata (``left_on_planet``): the
    set-up's Lands on the printed map, less those claimed; a River takes only an empty river
    bed. A Meteor Crater on Planet Irata lies on a square the companion does not know, so it
    makes the claim a must only when ``who`` has an empty square in every Zone. A Land on the
    Player Board without a square (a Beginner's starting River) is counted in the Zones it can
    lie in, so an empty square is never assumed where there may be none."""
    pb = md.player_board
    lands = s.colonist(who).lands
    taken = {x.square for x in lands if x.square}
    unplaced = [x for x in lands if not x.square]
    bed_zones = {pb.zone(b) for b in pb.river_beds}
    zones = list(dict.fromkeys(pb.zones.values()))

    # a Land without a square may lie in any Zone, a River only on a river bed
    unknown = {z: sum(1 for x in unplaced if x.land != "river" or z in bed_zones)
               for z in zones}
    empty = {z: [q for q in pb.squares if pb.zone(q) == z and q not in taken] for z in zones}
    beds = {z: [q for q in empty[z] if q in pb.river_beds] for z in zones}
    free = {z: len(empty[z]) - unknown[z] for z in zones}
    free_beds = {z: len(beds[z]) - unknown[z] for z in zones}
    mine = owned(s)
    # the Zones the unclaimed Meteor Craters lie in (None: a game saved before they were kept)
    craters = {crater_zone(s, c) for c in s.craters if c not in mine}
    left = {k: left_on_planet(s, md, k) for k in PLANET_LANDS}     # once a kind, not a Zone
    out: list[Claimable] = []
    for zone in zones:
        kinds = [k for k in PLANET_LANDS if left[k].get(zone, 0) > 0
                 and (free_beds[zone] if k == "river" else free[zone]) > 0]
        if zone in craters and free[zone] > 0:
            kinds.append("meteor-crater")
        if kinds:
            squares = beds[zone] if kinds == ["river"] else empty[zone]
            out.append(Claimable(zone, tuple(kinds), tuple(squares)))
    # beside the board: it goes in any Zone; Zone not kept: it may lie in any, so the claim
    # is a must only with an empty square in every Zone
    if (BESIDE in craters and any(free[z] > 0 for z in zones)) or \
            (None in craters and all(free[z] > 0 for z in zones)):
        out.append(Claimable(ANY_ZONE, ("meteor-crater",),
                             tuple(q for z in zones if free[z] > 0 for q in empty[z])))
    return out


def must_claim(s: State, md: MuleData, who: str) -> str | None:
    """Why ``who`` may not pass in Land Grant, naming what could be claimed; None: may pass."""
    can = claimable(s, md, who)
    if not can:
        return None
    return (f"Land Grant: a Colonist has to claim a Land if one is available and they have an "
            f"empty square in its Zone (Questions and Answers), so {who} cannot claim none: "
            + "; ".join(c.describe() for c in can))


def check_from_planet(s: State, md: MuleData, land: Land) -> None:
    """Land Grant: a claimed Land goes on a Player Board square of the Zone of the Planet Irata
    square it came from. The companion does not know which square each tile lay on, but it knows
    the printed map (``data.planet_irata``) and the set-up's Lands: a Zone gives up no more
    Lands of a type than it has squares of that type, and no more of a type are claimed than the
    set-up placed. Meteor Craters go on any empty square of Planet Irata, so any Zone takes one."""
    kind, square = land.land, str(land.square)
    if kind == "meteor-crater":
        check_crater_zone(s, md, land)
        return
    if kind not in PLANET_LANDS:
        return
    pb, planet = md.player_board, planet_of(s, md)
    zone = pb.zone(square)
    laid_in = check_on_planet(s, md, land.tile) if land.tile else None
    if laid_in is not None and laid_in != zone:
        raise RuleError(f"Land Grant: a Land goes on a square of the Zone it came from, and "
                        f"{land.tile} was laid in the {laid_in.capitalize()} Zone of Planet "
                        f"Irata (Random Land Placement), so it cannot go on {square} "
                        f"({zone.capitalize()} Zone)")
    what = land.tile or kind
    title = kind.replace("-", " ").title()
    placed = int(md.setup(s.mode, len(s.ranking)).get("lands", {}).get(kind, 0))
    if placed == 0:
        raise RuleError(f"Land Grant: the {s.mode.capitalize()} set-up places no {title} on "
                        f"Planet Irata, so {what} cannot be claimed")
    have = planet.squares(zone, kind)
    if have == 0:
        zones = " and ".join(z.capitalize() for z in planet.zones_of(kind))
        laid = " as Random Land Placement laid it" if planet is not md.planet_irata else ""
        raise RuleError(f"Land Grant: a Land goes on a square of the Zone it came from, and the "
                        f"{zone.capitalize()} Zone of Planet Irata{laid} has no {title} square "
                        f"({title}: {zones} Zone), so {what} cannot go on {square}")
    claimed = [(c.name, x) for c in s.colonists for x in c.lands if x.land == kind]
    here = [f"{n} {x.square}" for n, x in claimed if x.square and pb.zone(x.square) == zone]
    if len(here) >= have:
        raise RuleError(f"Land Grant: a Land goes on a square of the Zone it came from, and the "
                        f"{zone.capitalize()} Zone of Planet Irata has {have} {title} "
                        f"square(s), all claimed already ({', '.join(here)}), so {what} cannot "
                        f"go on {square}")
    if len(claimed) >= placed:
        raise RuleError(f"Land Grant: the set-up placed {placed} {title} on Planet Irata and all "
                        f"are claimed already, so {what} cannot be claimed")


def check_crater_zone(s: State, md: MuleData, land: Land) -> None:
    """Land Grant: a claimed Land goes on a Player Board square of the Zone of the Planet Irata
    square it came from; for a Meteor Crater that is the Zone it was placed in by Meteorite
    Strike!. A Crater beside the board, or one of a game saved before the Zone was kept, goes
    in any Zone."""
    tile, square = land.tile, str(land.square)
    zone = crater_zone(s, tile) if tile else None
    if zone is None or zone == BESIDE:
        return
    on = md.player_board.zone(square)
    if on != zone:
        raise RuleError(f"Land Grant: a Land goes on a square of the Zone it came from, and "
                        f"{tile} lies in the {zone.capitalize()} Zone of Planet Irata, so it "
                        f"cannot go on {square} ({on.capitalize()} Zone)")


def land_granted(s: State, who: str, land: Land) -> State:
    """Land Grant: the Land claimed goes on ``who``'s Player Board (checked by
    :func:`check_from_planet` and the claim's own reading)."""
    return s._replace(colonists=tuple(c._replace(lands=(*c.lands, land)) if c.name == who
                                      else c for c in s.colonists))


# -- Land Auctions (Tournament) ------------------------------------------------------------------

def check_card_play(s: State, seller: str) -> None:
    """Land Auctions: ``seller`` plays a Land for Sale! card: one they hold, one each a Turn."""
    if s.held(seller, "land_for_sale") < 1:
        raise RuleError(f"Land Auctions: {seller} holds no Land for Sale! card")
    if seller in (s.auctions or ()):
        raise RuleError(f"Land Auctions: {seller} has played a Land for Sale! card this Turn "
                        "(one card each)")


def check_land_auction(s: State, md: MuleData, seller: str, winner: str, bid: int,
                       secret: bool = False) -> None:
    """Land Auctions: ``seller`` plays a Land for Sale! card (one each a Turn); the bid opens at
    exactly the opening bid and rises by exactly the raise (``data.land_auction``); the winner
    pays it. A secret Auction's bid (Secret Bidding in Land Auctions) is any amount from the
    opening bid up (:func:`secret_winner`)."""
    check_card_play(s, seller)
    opening, step = md.land_auction
    if secret:
        check_secret_rule(s)
        if bid < opening:
            raise RuleError(f"Secret Bidding in Land Auctions: a bid is at least the opening "
                            f"bid, ${opening}, so ${bid} cannot be the winning bid")
    elif bid < opening or (bid - opening) % step:
        raise RuleError(f"Land Auctions: the opening bid is exactly ${opening} and each raise "
                        f"exactly ${step}, so ${bid} cannot be the winning bid (${opening}, "
                        f"${opening + step}, ${opening + 2 * step}, ...)")
    money = s.colonist(winner).money
    if money < bid:
        raise RuleError(f"{winner} has ${money}: cannot pay a bid of ${bid}")


def check_secret_rule(s: State) -> None:
    from companion.mule import options

    if not options.on(s.options, "secret-bidding"):
        raise RuleError("Land Auctions: the bidding is public (Secret Bidding in Land "
                        "Auctions is an Optional Rule not chosen for this game: --option "
                        "secret-bidding at new)")


class Bidding(NamedTuple):
    """A public Land Auction while it lasts: who played the card, the Land the Auction Tracker
    is on, the highest bidder and bid, who has Withdrawn, who spoke last, and what was said."""

    seller: str
    tile: str
    high: str
    bid: int
    out: tuple[str, ...] = ()
    last: str = ""
    said: tuple[str, ...] = ()


def clockwise(s: State, after: str) -> list[str]:
    """The Colonists in clockwise order from the one after ``after``: the project's reading
    of the table's seating is the order the Colonists were named at ``new`` (``order``)."""
    seats = list(s.order) or list(s.ranking)
    i = seats.index(after)
    return seats[i + 1:] + seats[:i + 1]


def check_can_place(s: State, md: MuleData, who: str, tile: str, what: str) -> None:
    """Land Auctions: the winner "places the auctioned Land on his Player Board, following the
    placement rules described under Land Grant", so (the project's decision) a Colonist bids
    only for a Land they could place: an empty square of a Zone that may hold it (a River: an
    empty river bed; with Random Land Placement naming tiles, the Zone it was laid in), as
    :func:`claimable` reads Planet Irata."""
    kind = md.land(tile).land
    laid_in = check_on_planet(s, md, tile)
    if any(kind in c.lands and (laid_in is None or c.zone in (laid_in, ANY_ZONE))
           for c in claimable(s, md, who)):
        return
    raise RuleError(f"Land Auctions: the winner places the Land won on their Player Board, "
                    f"and {who} has no empty square that could take {tile} "
                    f"({kind.replace('-', ' ').title()}), so {who} cannot {what}")


def open_auction(s: State, md: MuleData, seller: str, tile: str) -> Bidding:
    """Land Auctions: ``seller`` plays a Land for Sale! card, places the Auction Tracker on an
    unclaimed Land of Planet Irata (``tile``, checked by the claim's reading) and opens the
    bidding at exactly the opening bid. The project's decision: the opening bid is the seller's
    own bid, paid if nobody raises, so a seller without that much Money cannot open."""
    check_card_play(s, seller)
    opening, _ = md.land_auction
    money = s.colonist(seller).money
    if money < opening:
        raise RuleError(f"Land Auctions: the opening bid is exactly ${opening}, and {seller} "
                        f"has ${money}: the one who opens pays it if nobody raises")
    check_can_place(s, md, seller, tile, "open the bidding for it")
    return Bidding(seller, tile, seller, opening, (), seller,
                   (f"{seller} opens the bidding for {tile} at ${opening}",))


def next_bidder(s: State, b: Bidding) -> str | None:
    """Who raises or Withdraws next, clockwise after the last to speak (None: the Auction is
    over, every other Colonist having Withdrawn). The highest bidder is passed over: a
    Colonist does not raise their own bid (the project's reading)."""
    for name in clockwise(s, b.last):
        if name not in b.out and name != b.high:
            return name
    return None


RAISE_WORDS = ("raise", "r", "+", "bid", "up")
OUT_WORDS = ("out", "withdraw", "w", "o", "pass", "no")


def bid_word(s: State, md: MuleData, b: Bidding, word: str) -> Bidding:
    """One Colonist's turn in a public Land Auction, as typed: ``raise`` (or the new bid, the
    highest plus exactly the raise) or ``out`` (Withdraw: no more bids in this Auction)."""
    who = next_bidder(s, b)
    if who is None:
        raise RuleError(f"Land Auctions: the Auction of {b.tile} is over ({b.high} is the "
                        f"highest bidder at ${b.bid}), so '{word}' is one bid too many")
    _, step = md.land_auction
    to = b.bid + step
    text = word.strip().lower()
    if text in OUT_WORDS:
        return b._replace(out=(*b.out, who), last=who, said=(*b.said, f"{who} withdraws"))
    if text.removeprefix("$").isdigit() and len(text) < 10:
        if int(text.removeprefix("$")) != to:
            raise RuleError(f"Land Auctions: each raise is exactly ${step}: {who} raises "
                            f"${b.bid} to ${to}, not ${text.removeprefix('$')}")
    elif text not in RAISE_WORDS:
        raise InputError(f"'{word[:40]}': {who} raises (raise, or ${to}) or Withdraws (out)")
    money = s.colonist(who).money
    if money < to:
        raise RuleError(f"Land Auctions: the winner pays the bid, and {who} has ${money}: "
                        f"cannot raise to ${to} (out, then)")
    check_can_place(s, md, who, b.tile, "raise (out, then)")
    return b._replace(high=who, bid=to, last=who, said=(*b.said, f"{who} raises to ${to}"))


def secret_winner(s: State, md: MuleData, seller: str, tile: str, bids: Mapping[str, int]
                  ) -> tuple[str, int]:
    """Secret Bidding in Land Auctions: every Colonist hides the Money they bid and all are
    revealed at once; the highest wins, and "in case of a tie, the lowest ranking tied player
    wins". The project's decisions: a bid is $0 (none) or at least the opening bid, any
    dollar amount (the raise is the public procedure's), never more than the Colonist's
    Money; the seller's is at least the opening bid, as it is in the public procedure, so the
    Land is always sold. A Colonist not named bids nothing."""
    check_secret_rule(s)
    opening, _ = md.land_auction
    for name, bid in bids.items():
        if bid and bid < opening:
            raise RuleError(f"Secret Bidding in Land Auctions: a bid is $0 or at least the "
                            f"opening bid, ${opening}, so {name}'s ${bid} cannot be one")
        money = s.colonist(name).money
        if bid > money:
            raise RuleError(f"Secret Bidding in Land Auctions: {name} has ${money}: cannot "
                            f"bid ${bid} (the Money bid is hidden in the hand)")
        if bid:
            check_can_place(s, md, name, tile, "bid for it")
    if bids.get(seller, 0) < opening:
        raise RuleError(f"Secret Bidding in Land Auctions: {seller} plays the card and opens, "
                        f"so bids at least ${opening} (the project's reading)")
    best = max(bids.values())
    tied = [n for n in s.ranking if bids.get(n, 0) == best]
    return tied[-1], best


def land_auction_won(s: State, seller: str, winner: str, bid: int, land: Land) -> State:
    """The Land Auction's end: the winner pays the bid and places the Land won on their Player
    Board; the seller's Land for Sale! card is spent."""
    hands = {n: dict(h) for n, h in (s.hands or {}).items()}
    hands[seller]["land_for_sale"] = hands[seller].get("land_for_sale", 0) - 1
    colonists = tuple(c._replace(money=c.money - bid, lands=(*c.lands, land))
                      if c.name == winner else c for c in s.colonists)
    # the key goes after those the game holds, as a dict's new key would
    keys = s.keys if not s.keys or "auctions" in s.keys else (*s.keys, "auctions")
    return s._replace(colonists=colonists, auctions=(*(s.auctions or ()), seller), keys=keys,
                      extra=MappingProxyType({k: v for k, v in s.extra.items()
                                              if k != "auctions"}),
                      hands=MappingProxyType({n: MappingProxyType(h) for n, h in hands.items()}))
