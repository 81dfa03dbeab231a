"""M.U.L.E.'s Game Turn as steps: one small function per Phase (and per Colonist's part of it,
where the rulebook has one), each over a :class:`Turn` and each testable alone.

A step asks its questions through ``t.ask(key, question, default, parse)``; ``parse`` reads
the answer *and checks it against the rules and the state*, raising ``InputError`` or
``RuleError`` with the rule's reason. At the table (``turn``) a refused answer is asked again
(a bounded number of times: ``turn.Refusals``); on the command line (one command per step) it
is one ``error:`` line and nothing is saved.
``parse`` never changes the state it checks: it works on a copy and returns it, so a refused
answer leaves nothing half-done behind.

Which step comes now is kept in the state (``todo``: ``[[STEP, WHO], ...]``, the current one
first): :mod:`companion.mule.turn` walks it. Every rule number comes from
``companion.mule.data`` (the game's ``components/mule`` definitions), so an erratum to a number
changes the check too.

The rules of Land Grant's Zones, Land Auctions, Package From Home World!, Development's
Action Rounds, Usage and Spoilage, Production, Pricing, the Market, Ranking, Personal Events
and the end are pure functions over the typed State (:mod:`companion.mule.expansion`,
:mod:`companion.mule.development`, :mod:`companion.mule.producing`,
:mod:`companion.mule.phases`, :mod:`companion.mule.market`, :mod:`companion.mule.personal`).
Land Grant, the Land Auctions, Package From Home World! and the Market's entries are frozen
moves with one pure check and one pure apply (:mod:`companion.mule.plays`): their steps here
read what is typed into a move (``read_grant``, ``read_auction``, ``read_package``, the
Market's ``_Auction``), and apply it, which refuses it with the rule's reason. The steps read
and write the typed State (``Turn.state``, ``Turn.put``), and so do the helpers the tests
call alone (``claim``, ``_auction``, ``_package``, ``sell_to_store``, ...): the saved game's
JSON form is read and written by the declaration (:mod:`companion.mule.game`) alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from companion.mule import (
    board,
    development,
    expansion,
    length,
    market,
    options,
    personal,
    phases,
    plays,
    producing,
    production,
)
from companion.mule.data import (
    EventCard,
    MuleData,
    PlayerBoard,
    ProductionCard,
    check_good,
    describe_card,
    matching,
    plain,
)
from companion.mule.expansion import ANY_ZONE as ANY_ZONE  # Land Grant's, named here too
from companion.mule.expansion import (
    BESIDE,
    PLANET_LANDS,
    crater_zone,
    left_on_planet,
    must_claim,
    owned,
)
from companion.mule.expansion import Claimable as Claimable
from companion.mule.expansion import check_from_planet as check_from_planet  # Land Grant's
from companion.mule.expansion import claimable as claimable
from companion.mule.market import holders_of, no_deal, no_purchase
from companion.mule.market import store_sells_not as store_sells_not
from companion.mule.planet import planet_of
from companion.mule.state import GOODS, Land, State
from companion.mule.state import player_name as player_name
from companion.session import parse_amount
from components.errors import InputError, RuleError

T = TypeVar("T")
Asker = Callable[[str, str, str, Callable[[str], Any]], Any]
Say = Callable[[str], None]
NONE_WORDS = ("", "none", "-", "no")


class Turn:
    """The state a step works on (the typed :class:`~companion.mule.state.State`,
    ``state``, written with ``put``), with the rule data, where lines go (``say``) and where
    questions go (``ask``)."""

    __slots__ = ("ask", "lines", "md", "say", "state")

    def __init__(self, s: State, md: MuleData, ask: Asker, say: Say,
                 lines: list[str] | None = None) -> None:
        self.state = s
        self.md, self.ask, self.say = md, ask, say
        self.lines: list[str] = [] if lines is None else lines

    def put(self, after: State, lines: tuple[str, ...] = ()) -> None:
        """The State a pure function returned, written back; its lines told."""
        self.state = after
        for line in lines:
            self.tell(line)

    @property
    def names(self) -> list[str]:
        return list(self.state.ranking)

    @property
    def pb(self) -> PlayerBoard:
        return self.md.player_board

    @property
    def tournament(self) -> bool:
        return self.state.mode == "tournament"

    def tell(self, line: str) -> None:
        self.lines.append(line)
        self.say(line)

    def player(self, name: str) -> str:
        return player_name(name, list(self.state.ranking))


def _none(text: str) -> bool:
    return text.strip().lower() in NONE_WORDS


def _nonneg(text: str, what: str) -> int:
    n = parse_amount(text, what)
    if n < 0:
        raise InputError(f"{what} must be 0 or more")
    return n


def parse_named(text: str, names: list[str], what: str) -> dict[str, int]:
    """``Ann=3,Bob=1+1``; every name must be a Colonist of the game, and is given once (a
    second ``Ann=`` is more likely a slip than a sum, so it is refused: sums are ``1+1``)."""
    out: dict[str, int] = {}
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        if "=" not in part:
            raise InputError(f"{what}: '{part.strip()}' should be NAME=N")
        name, value = (x.strip() for x in part.split("=", 1))
        name = player_name(name, names)
        if name in out:
            raise InputError(f"{what}: {name} is given twice (write a sum as {name}=1+1)")
        out[name] = _nonneg(value, f"{what} {name}")
    return out


# -- 1. Expansion ------------------------------------------------------------------------------

def read_grant(md: MuleData, who: str, text: str) -> plays.Grant:
    """A Land Grant answer as typed: ``P07@B2``, the tile printed on the Land and the square
    of the Player Board, as printed, it goes on; blank or none: no Land."""
    if _none(text):
        return plays.Grant(who)
    read = board.read_claim(text, md.land, md.player_board)
    assert read is not None
    tile, square = read
    if square is None:
        raise InputError(f"'{text.strip()}': give the square it goes on, as printed on the Player "
                         f"Board, e.g. {tile.tile}@B1")
    return plays.Grant(who, tile.tile, square)


def claim(s: State, md: MuleData, who: str, text: str) -> Land | None:
    """A Land claimed by ``who`` (Land Grant or won at a Land Auction), as typed
    (:func:`read_grant`) and checked by the placement rules (:func:`companion.mule.plays.check`);
    the Land as it goes on the Player Board, None for none."""
    move = read_grant(md, who, text)
    if move.tile is None:
        return None
    why = plays.check(s, md, move)
    if why:
        raise RuleError(why)
    return Land(md.land(move.tile).land, move.tile, move.square)


def empty_on_planet(typed: State, md: MuleData) -> dict[str, int]:
    """How many squares of each Zone of Planet Irata may be empty now (Meteorite Strike!
    places the Meteor Craters on empty squares): a Zone's Land squares (The Store is in no
    Zone), less the Lands surely still lying there (``_left_on_planet``), less the Meteor
    Craters placed there and not claimed. An upper bound: a Zone is refused a Crater only
    when it surely has no empty square."""
    planet = planet_of(typed, md)
    mine = owned(typed)
    out: dict[str, int] = {}
    for zone in dict.fromkeys(planet.zones):
        lying = sum(left_on_planet(typed, md, k).get(zone, 0) for k in PLANET_LANDS)
        craters = sum(1 for c in typed.craters if c not in mine and crater_zone(typed, c) == zone)
        # a square Random Land Placement left empty is empty from the start
        land_squares = sum(planet.squares(zone, k) for k in (*PLANET_LANDS, "empty"))
        out[zone] = max(0, land_squares - lying - craters)
    return out


def parse_crater_zones(s: State, md: MuleData, craters: list[str], text: str
                       ) -> dict[str, str]:
    """Meteorite Strike!: the Zone of Planet Irata each Meteor Crater was placed in, in the
    order of ``craters`` (``red,blue``) or by tile (``M01=red,M02=blue``); ``beside`` for one
    placed beside the board. The card puts a Crater on an empty square, and beside the board
    only when no empty square is left: a Zone with no empty square left, or ``beside`` while
    a square may be empty, is refused."""
    zones = list(dict.fromkeys(md.planet_irata.zones))
    words = [w.strip() for w in text.replace(";", ",").replace(" ", ",").split(",")
             if w.strip()]
    shape = (f"give the Zone of Planet Irata each Meteor Crater was placed in, "
             f"{', '.join(craters)} in that order ({', '.join(zones)}, or {BESIDE} the board), "
             f"e.g. {','.join((zones * 2)[1:1 + len(craters)])}")
    if len(words) != len(craters):
        raise InputError(f"Meteorite Strike!: {shape}")
    got: dict[str, str] = {}
    for i, word in enumerate(words):
        tile, _, zone = word.rpartition("=")
        tile = tile.strip().upper() or craters[i]
        zone = zone.strip().lower()
        if tile not in craters:
            raise InputError(f"Meteorite Strike!: {tile} is not one of the Meteor Craters "
                             f"placed now ({', '.join(craters)})")
        if tile in got:
            raise InputError(f"Meteorite Strike!: {tile} is given twice")
        if zone not in (*zones, BESIDE):
            raise InputError(f"Meteorite Strike!: '{zone}' is not a Zone of Planet Irata "
                             f"({', '.join(zones)}, or {BESIDE} the board)")
        got[tile] = zone
    room = empty_on_planet(s, md)
    for zone in zones:
        here = [c for c in craters if got[c] == zone]
        if len(here) > room[zone]:
            raise RuleError(f"Meteorite Strike!: a Meteor Crater goes on an empty square of "
                            f"Planet Irata, and the {zone.capitalize()} Zone has "
                            + (f"{room[zone]} empty square(s) at most" if room[zone] else
                               "no empty square")
                            + f", so it cannot take {', '.join(here)}")
    beside = [c for c in craters if got[c] == BESIDE]
    left = sum(room.values()) - (len(craters) - len(beside))
    if beside and left > 0:
        open_zones = [z.capitalize() for z in zones
                      if room[z] > sum(1 for c in craters if got[c] == z)]
        raise RuleError(f"Meteorite Strike!: a Meteor Crater goes beside the board only when "
                        f"Planet Irata has no empty square, and the {' and '.join(open_zones)} "
                        f"Zone may still have one, so {', '.join(beside)} cannot go beside it")
    return {c: got[c] for c in craters}


def grant(t: Turn, who: str) -> None:
    """Land Grant: ``who`` claims one free Land (lowest Rank first; twice on Turn 1); a
    Colonist who can claim one has to (:func:`claimable`). The move:
    :class:`companion.mule.plays.Grant`."""
    s = t.state
    hint = "must claim one" if must_claim(s, t.md, who) else "blank: none"
    t.put(*t.ask("claim", f"Land Grant: {who} claims (TILE@SQUARE as printed, e.g. P07@B2; "
                 f"{hint})", "", lambda a: plays.apply(s, t.md, read_grant(t.md, who, a))))


AuctionMove = plays.NoLandForSale | plays.OpenAuction | plays.LandAuction


def read_auction(s: State, md: MuleData, text: str, who: str | None) -> AuctionMove:
    """A Land Auction, as typed: ``[SELLER] TILE [secret]`` begins the walk (the Auction
    Tracker placed on the Land TILE), ``[SELLER] WINNER BID TILE@SQUARE [secret]`` enters its
    result at once. The Land for Sale! cards are played from Rank 1 down (``who``: the
    Colonist whose turn it is to play one or not; None: the first holder by Rank). ``SELLER
    none`` (or blank) is ``who`` declining; ``none`` alone: nobody else plays one this Turn."""
    names = [c.name for c in s.colonists]
    if who is None:
        who = next(iter(plays.card_holders(s)), None)
    words = text.split()
    secret = bool(words) and words[-1].lower() == "secret"
    words = words[:-1] if secret else words
    if words and words[0].lower() not in NONE_WORDS and len(words) in (2, 4):
        seller = player_name(words[0], names)
        words = words[1:]
    else:
        seller = who or ""
    why = plays.auction_turn_refused(s, who, seller)
    if why:
        raise RuleError(why)
    if not words or (len(words) == 1 and _none(words[0])):
        if secret:
            raise InputError("Land Auction: 'secret' goes after the Land put up for sale, "
                             "e.g. P09 secret")
        return plays.NoLandForSale(seller, text.strip().lower() in NONE_WORDS[1:])
    if len(words) == 1:
        if "@" in words[0]:
            raise InputError(f"'{words[0][:40]}': the Land put up for sale is named by its "
                             "tile alone (P09); its winner says the square it goes on")
        return plays.OpenAuction(seller, md.land(board.tile_code(words[0])).tile, secret)
    if len(words) != 3:
        raise InputError("Land Auction: give SELLER TILE to walk its bidding (e.g. Ann P09), or "
                         "its result, SELLER WINNER BID TILE@SQUARE (e.g. Ann Bob 12 P09@E1)")
    won = read_grant(md, player_name(words[0], names), words[2])
    bid = _nonneg(words[1], "bid")
    if won.tile is None or won.square is None:
        raise InputError("Land Auction: name the Land won, TILE@SQUARE")
    return plays.LandAuction(seller, won.colonist, bid, won.tile, won.square, secret)


def _auction(s: State, md: MuleData, text: str, who: str | None = None
             ) -> State | plays.OpenAuction | None:
    """A Land Auction as typed (:func:`read_auction`), checked: the State after its result,
    the Auction opened (its bids to walk), or None when no card is played."""
    move = read_auction(s, md, text, who)
    if isinstance(move, plays.NoLandForSale):
        return None
    if isinstance(move, plays.OpenAuction):
        plays.opening(s, md, move)
        return move
    return plays.apply(s, md, move)[0]


def auction(t: Turn, who: str | None) -> None:
    """Land Auctions (Tournament only): from Rank 1 down, each Colonist holding a Land for
    Sale! card plays one or not (with Land Auctions before Land Grant, before it; else after
    all Land Grants). The walk: the Auction Tracker on a Land, the bid opened at exactly $8,
    each Colonist clockwise raising by exactly $2 or Withdrawing, the highest bidder paying
    and placing the Land (secret bids revealed at once, with Secret Bidding in Land Auctions);
    or the result typed at once. ``none`` alone: nobody else plays one this Turn. The moves:
    :mod:`companion.mule.plays`."""
    s = t.state
    if who is None:                       # a game saved when one step took every auction
        holders = auction_holders(s)
        who = holders[0] if holders else None

    def parse(a: str) -> tuple[AuctionMove, tuple[State, tuple[str, ...]] | None]:
        move = read_auction(s, t.md, a, who)
        if isinstance(move, plays.OpenAuction):
            plays.opening(s, t.md, move)
            return move, None
        return move, plays.apply(s, t.md, move)

    move, done = t.ask("auction", f"Land Auctions: {who} plays Land for Sale!? TILE to auction "
                       f"it (add 'secret' for secret bids), or its result WINNER BID "
                       f"TILE@SQUARE (blank: {who} does not; none: nobody else does this "
                       "Turn)", "", parse)
    if isinstance(move, plays.OpenAuction):
        _walk_auction(t, move)
    else:
        assert done is not None
        t.put(*done)


def _walk_auction(t: Turn, opened: plays.OpenAuction) -> None:
    """The Land Auction walked: the bids (:func:`_public_bids` or :func:`_secret_bids`), then
    the winner pays and says the square of their Player Board the Land goes on (the move:
    :class:`companion.mule.plays.LandAuction`)."""
    seller, tile = opened.seller, opened.tile
    t.tell(f"{seller} plays Land for Sale!: the Auction Tracker goes on {tile}")
    winner, bid = (_secret_bids if opened.secret else _public_bids)(t, opened)
    s = t.state

    def place(a: str) -> tuple[State, plays.LandAuction]:
        square = a.strip()
        if square.upper().startswith(f"{tile}@"):
            square = square[len(tile) + 1:]
        if _none(square) or " " in square:
            raise InputError(f"{winner} places {tile}: give the square of the Player Board, "
                             "as printed (e.g. E1; on the command line --square E1)")
        move = plays.LandAuction(seller, winner, bid, tile, t.md.player_board.square(square),
                                 opened.secret)
        return plays.apply(s, t.md, move)[0], move

    after, move = t.ask("square", f"{winner} wins {tile} at ${bid}: the square of {winner}'s "
                        "Player Board it goes on (as printed, e.g. E1)", "", place)
    t.put(after, (f"{winner} pays ${bid} and places {tile} on {move.square}",))


def _public_bids(t: Turn, opened: plays.OpenAuction) -> tuple[str, int]:
    """The public procedure: opened at exactly $8 by the seller, then clockwise each
    Colonist raises by exactly $2 or Withdraws until one bidder is left. Typed one turn at a
    time, or several at once in clockwise order (``raise out raise``); on the command line
    all of them at once (``--bids``)."""
    s = t.state
    b = plays.opening(s, t.md, opened)
    t.tell(b.said[0])
    asked = 0
    while (who := expansion.next_bidder(s, b)) is not None:
        asked += 1
        before = b

        def parse(a: str, b: expansion.Bidding = before) -> expansion.Bidding:
            words = a.replace(",", " ").split()
            if not words:
                raise InputError(f"Land Auctions: the Auction of {b.tile} is not over: "
                                 f"{who} raises (raise) or Withdraws (out)")
            for word in words:
                b = expansion.bid_word(s, t.md, b, word)
            return b

        to = b.bid + t.md.land_auction[1]
        b = t.ask("bids" if asked == 1 else f"bids{asked}",
                  f"{opened.tile} at ${b.bid} ({b.high}): {who} raises to ${to} or is out? "
                  "(raise/out; several in clockwise order at once: raise out ...)", "", parse)
        for line in b.said[len(before.said):]:
            t.tell(line)
    t.tell(f"{b.high} is the highest bidder: ${b.bid}")
    return b.high, b.bid


def _secret_bids(t: Turn, opened: plays.OpenAuction) -> tuple[str, int]:
    """Secret Bidding in Land Auctions: every Colonist's hidden bid, revealed at once
    (:func:`companion.mule.expansion.secret_winner`)."""
    s = t.state
    names = list(s.ranking)

    def parse(a: str) -> tuple[dict[str, int], tuple[str, int]]:
        bids = parse_named(a, names, "secret bid")
        return bids, expansion.secret_winner(s, t.md, opened.seller, opened.tile, bids)

    bids, (winner, bid) = t.ask("bids", f"Secret bids for {opened.tile}, revealed at once: "
                                "NAME=N for each Colonist bidding (0, or not named: no bid)", "",
                                parse)
    t.tell("Secret bids: " + ", ".join(f"{n} ${bids.get(n, 0)}" for n in names))
    tied = [n for n in names if bids.get(n, 0) == bid]
    if len(tied) > 1:
        t.tell(f"A tie at ${bid} ({', '.join(tied)}): the lowest ranking tied player wins")
    return winner, bid


def auction_holders(s: State) -> list[str]:
    """The Colonists still to play a Land for Sale! card or not this Turn, Rank 1 first
    (:func:`companion.mule.plays.card_holders`)."""
    return list(plays.card_holders(s))


# -- 2. Development ----------------------------------------------------------------------------

def read_package(s: State, md: MuleData, text: str) -> plays.Package:
    """Package From Home World! cards as typed: ``Ann=HC02,Bob=food`` (the card's code, or the
    Good of the package); blank or none: none."""
    if _none(text):
        return plays.Package()
    names = [c.name for c in s.colonists]
    packages = [c for c in md.hand_cards if c.kind == "package"]
    out: list[tuple[str, str]] = []
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        if "=" not in part:
            raise InputError(f"'{part.strip()}': write NAME=CARD (its code, e.g. HC02, or the "
                             "Good of the package, e.g. Ann=food)")
        who, ref = (x.strip() for x in part.split("=", 1))
        if ref.lower() in GOODS:
            found = [c for c in packages if c.effect.get("if_smallest_stock") == ref.lower()]
            if not found:
                raise InputError(f"no Package From Home World! card holds {ref}")
            card = found[0]
        else:
            card = md.hand(ref)
        if card.kind != "package":
            raise InputError(f"{card.code or card.id} is not a Package From Home World! card")
        out.append((player_name(who, names), card.id))
    return plays.Package(tuple(out))


def _package(s: State, md: MuleData, text: str) -> State | None:
    """Package From Home World! cards as typed (:func:`read_package`), played on ``s``; None:
    none played."""
    move = read_package(s, md, text)
    return plays.apply(s, md, move)[0] if move.plays else None


def package(t: Turn, who: str | None) -> None:
    """At the start of Development, before any Action: Package From Home World! cards, each
    only if no other Colonist has a smaller Stock of its Good (checked once, before any takes
    effect). The move: :class:`companion.mule.plays.Package`."""
    s = t.state
    t.put(*t.ask("package", "Package From Home World! played: NAME=CARD,... (CARD: its code, "
                 "or the Good of the package; blank: none)", "",
                 lambda a: plays.apply(s, t.md, read_package(s, t.md, a))))


def begin_development(t: Turn) -> list[tuple[str, str | None]]:
    """2. Development begins (:func:`companion.mule.development.development_begins`): The
    Store fills its Corral, the order of play; returns the first Action Round's steps."""
    after, lines = development.development_begins(t.state, t.md)
    t.put(after, lines)
    return list(development.round_steps(after, t.md))


ACTIONS = development.ACTIONS


def develop_actions(s: State, md: MuleData, who: str, text: str, lines: list[str]) -> State:
    """One Colonist's Action Round as typed, played on ``s``
    (:func:`companion.mule.development.action_round`); RuleError with the rule's reason."""
    after, said = development.action_round(s, md, who, development.parse_actions(text))
    lines += said
    return after


def develop(t: Turn, who: str) -> None:
    """One Colonist's Action Round of the Development Phase."""
    s = t.state
    rnd = s.dev.round if s.dev else 1
    label = "the single Action Round" if development.limits(s, t.md).rounds == 1 else \
        f"Action Round {rnd}"

    def parse(a: str) -> tuple[State, tuple[str, ...]]:
        if not a.strip():    # a Pass ends the Colonist's Phase: never taken from a blank
            raise InputError(f"Development: type {who}'s Actions ({ACTIONS}), or pass to Pass")
        return development.action_round(s, t.md, who, development.parse_actions(a))

    t.put(*t.ask("actions", f"Development, {label}: {who}'s Actions ({ACTIONS}; or pass)",
                 "", parse))


def next_round(t: Turn) -> list[tuple[str, str | None]]:
    """The next Action Round (:func:`companion.mule.development.next_action_round`), written
    to the Turn: its steps; none when the Phase is over."""
    after = development.next_action_round(t.state, t.md)
    if after is None:
        return []
    t.put(after)
    return list(development.round_steps(after, t.md))


# -- 4. Production -------------------------------------------------------------------------------

def production_card(t: Turn, text: str) -> ProductionCard | list[ProductionCard]:
    """The Production Card typed: its code or title (a title printed on several cards gives
    them all, to be told apart by their printed price); checked against the deck: each card is
    drawn once, and The Ship is Back! lies under the set-up's cards."""
    if _none(text):
        raise InputError("the Production Card drawn is needed (its code, e.g. PR05, or title)")
    found = matching(t.md.cards, text)
    if not found:
        t.md.card(text)      # the one-line refusal listing the codes
    drawn = set(t.state.production_drawn)
    found = [c for c in found if c.id not in drawn] or found
    if len(found) > 1:
        return list(found)
    card: ProductionCard = found[0]
    check_card(t, card)
    return card


def check_card(t: Turn, card: ProductionCard) -> None:
    s = t.state
    if card.id in s.production_drawn:
        raise RuleError(f"{card.code or card.id} {card.title} was drawn on an earlier Turn: "
                        "each Production Card is drawn once")
    # the deck of the set-up, with More Game Turns and Variable Number of Game Turns
    deck = length.length(t.md, s.mode, len(s.ranking), s.options)
    now = s.turn
    if deck.top and card.ship_is_back and not deck.first <= now <= deck.last:
        raise RuleError(deck.describe() + f", not Turn {now}" if deck.bottom > 1 else
                        f"The Ship is Back! lies under the {deck.top} Production Cards of the "
                        f"set-up: it is drawn on Turn {deck.last}, not Turn {now}")
    if deck.top and not card.ship_is_back and now >= deck.last:
        raise RuleError(f"on Turn {deck.last} only The Ship is Back! is left in the Production "
                        "deck")


def _by_price(t: Turn, cards: list[ProductionCard], text: str) -> ProductionCard:
    listed = ", ".join(describe_card(c) for c in cards)
    if _none(text):
        raise InputError(f"'{cards[0].title}' is printed on {len(cards)} cards: give its code "
                         f"({listed}) or its printed Crystite price")
    price = _nonneg(text, "the printed price")
    pick = [c for c in cards if c.crystite_price == price or (c.code or "").upper()
            == text.strip().upper()]
    if not pick:
        raise InputError(f"no {cards[0].title} card prints ${price} ({listed})")
    check_card(t, pick[0])
    return pick[0]


def _draw(t: Turn, s: State, how: str) -> tuple[State, ProductionCard, bool]:
    """The Production Card drawn now (``how``: drawn, revealed): from the companion's deck
    (taken off it), or as the table types it. Returns the State, the card, and whether the
    companion's deck gave it."""
    if s.production_deck:
        s, card_id = producing.draw_card(s)
        return s, t.md.card(card_id), True
    got = t.ask("card", f"Production Card {how} (its code, e.g. PR05, or title)", "",
                lambda a: production_card(t, a))
    if isinstance(got, list):
        cards: list[ProductionCard] = got
        prices = ", ".join(f"${c.crystite_price}" for c in cards)
        got = t.ask("card_price", f"{cards[0].title}: which one? Its printed Crystite price "
                    f"({prices})", "", lambda a: _by_price(t, cards, a))
    card: ProductionCard = got
    return s, card, False


def reveal(t: Turn, who: str | None) -> None:
    """More Predictability: the Production Card drawn and revealed at the beginning of the
    last Action Round (:func:`companion.mule.producing.reveal`); it takes effect at
    Production."""
    s, card, _ = _draw(t, t.state, "revealed")
    after, lines = producing.reveal(s, t.md, card.id)
    text = producing.card_effect(after, card).text
    t.put(after, (*lines, *((f"  {plain(text)}",) if text else ())))


def produce(t: Turn, who: str | None) -> None:
    """4. Production: the Production Card (drawn from the companion's deck, or typed; under
    More Predictability the one revealed in Development), its effects on the Colony, the
    M.U.L.E.s flipped for an Energy Shortage, Radiation! and Pest Attack!, then every
    Colonist's Production (Economies of Scale in a Tournament)."""
    s, md = t.state, t.md
    shown = producing.revealed(s)
    if shown is not None:
        card = md.card(shown)
        t.tell(f"Production Card revealed in Development: {card.code} {card.title}")
    else:
        s, card, deck = _draw(t, s, "drawn")
        s = producing.card_drawn(s, card.id)
        t.tell(f"Production Card{' drawn' if deck else ''}: {card.code} {card.title}")
    effect = producing.card_effect(s, card)
    if effect.text:
        t.tell(f"  {plain(effect.text)}")
    craters, placer = producing.craters_to_place(s, md, effect.effect)
    zones = _crater_zones(t, craters, placer) if craters else {}
    s, lines = producing.card_on_colony(s, md, effect.effect, zones)
    for line in lines:
        t.tell(line)
    shortage = s.shortage or {}
    worked = {n: _worked_lands(t, s, n, int(shortage.get(n, 0))) for n in s.ranking}
    s = _card_on_lands(t, s, effect, worked)
    t.put(*producing.lands_produce(s, md, card, worked))


def _crater_zones(t: Turn, craters: tuple[str, ...], placer: str) -> dict[str, str]:
    zones: dict[str, str] = t.ask(
        "craters", f"Meteorite Strike!: {placer} places {', '.join(craters)} on empty squares "
        "of Planet Irata: the Zone of each, in that order "
        f"({', '.join(dict.fromkeys(t.md.planet_irata.zones))}; {BESIDE}: no empty square "
        "left)", "", lambda a: parse_crater_zones(t.state, t.md, list(craters), a))
    return zones


def _worked_lands(t: Turn, s: State, name: str, short: int) -> list[production.Worked]:
    """A Colonist's Lands with M.U.L.E.s: read from the saved game when each has its tile
    (only the M.U.L.E.s flipped for an Energy Shortage are asked), typed otherwise."""
    known = producing.worked_from_tiles(s, t.md, name)
    if known is not None:
        if short:
            choices = [w for w in known if w.good != "energy"]
            need = min(short, len(choices))
            flipped = t.ask(f"flip.{name}", f"{name}: {short} M.U.L.E.(s) flipped for the "
                            "Energy Shortage (tiles, e.g. P07,R01)", "",
                            lambda a: _flipped(a, choices, need, name))
            known = [w._replace(flipped=True, first_crystite=False) if w.tile in flipped else w
                     for w in known]
        return known
    return _typed_lands(t, s, name, short)


def _typed_lands(t: Turn, s: State, name: str, short: int) -> list[production.Worked]:
    """A Colonist's working Lands typed at the table (a Land with a M.U.L.E. has no tile)."""
    lands = s.colonist(name).lands
    hint = f" ({short} flipped: mark them !)" if short else ""
    shape = "the board: rows split by /" if t.tournament else "e.g. F3,C1,E2!"
    working = [f"{x.land} {x.mule}" for x in lands if x.mule]
    if working:
        hint += f"; M.U.L.E.s on: {', '.join(working)}"
    tile = production.tile_value_from(t.md.lands)

    def parse(a: str) -> list[production.Worked]:
        cells = production.parse_board(a, tile) if t.tournament else \
            production.parse_lands(a, tile)
        if working and not cells:   # never counted as nothing behind the table's back
            untiled = ", ".join(str(x.tile or i + 1) for i, x in enumerate(lands)
                                if x.mule and not x.tile)
            raise RuleError(f"Production: {name}'s Lands with M.U.L.E.s are not all known by "
                            f"their tile{' and square' if t.tournament else ''} (Land "
                            f"{untiled or '?'}), so their Production is typed: {shape}; or "
                            f"name the tile: irata play set players.{name}.lands.N.tile P07")
        if len(cells) > len(working):
            raise RuleError(f"{name} has {len(working)} M.U.L.E.(s) at work, not {len(cells)}")
        return cells

    worked: list[production.Worked] = t.ask(f"lands.{name}", f"{name}: working Lands "
                                            f"({shape}){hint}", "", parse)
    return worked


def _flipped(text: str, choices: list[production.Worked], count: int, name: str) -> set[str]:
    tiles = {x.strip().upper() for x in text.replace(" ", ",").split(",") if x.strip()}
    allowed = {w.tile for w in choices if w.tile}
    wrong = sorted(tiles - allowed)
    if wrong:
        raise InputError(f"{', '.join(wrong)}: not a Land with a M.U.L.E. that uses Energy "
                         f"({', '.join(sorted(allowed))})")
    why = producing.check_flipped(tiles, choices, count, name)
    if why:
        raise RuleError(why)
    return tiles


def _card_on_lands(t: Turn, s: State, effect: producing.Effect,
                   worked: dict[str, list[production.Worked]]) -> State:
    """Radiation! and Pest Attack! (:func:`companion.mule.producing.radiation_hits`,
    ``pest_hits``): the Land hit asked where there is a choice; returns the State (a
    M.U.L.E. lost), ``worked`` changed to what produces."""
    for hits in (producing.radiation_hits, producing.pest_hits):
        found, lines = hits(s, effect, worked)
        for line in lines:
            t.tell(line)
        for hit in found:
            question = f"Pest Attack!: which of {hit.name}'s {hit.good} Lands loses its " \
                "production" if hit.good else f"Radiation!: {hit.name} " \
                f"{'loses' if hit.lost else 'flips'} which M.U.L.E. (tile, cell as typed, or " \
                "number)"
            i = _choose(t, f"hit.{hit.name}", question, worked[hit.name], hit.good)
            s, after, said = producing.land_hit(s, worked, hit, i)
            worked.update(after)
            for line in said:
                t.tell(line)
    return s


def _choose(t: Turn, key: str, question: str, lands: Sequence[production.Worked],
            good: str | None) -> int | None:
    what = f"the Land hit ({key.partition('.')[2]}'s)"
    try:        # the only candidate needs no question
        return production.land_index(lands, None, good, what)
    except InputError:
        index: int | None = t.ask(key, question, "",
                                  lambda a: production.land_index(lands, a, good, what))
        return index


# -- 5. Pricing ----------------------------------------------------------------------------------

# -- 6. Market -------------------------------------------------------------------------------------

def _deals(text: str, names: list[str]) -> list[tuple[str, str, int, int]]:
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            who, what = part.split(None, 1) if " " in part else (part, "")
            seller, buyer = who.split(">")
            n, each = what.replace(" ", "").split("@")
        except ValueError:
            raise InputError(f"'{part}': a deal is SELLER>BUYER N@PRICE, e.g. Ann>Bob 2@4") \
                from None
        out.append((player_name(seller, names), player_name(buyer, names),
                    _nonneg(n, "units"), _nonneg(each, "price")))
    return out


def _named(text: str, s: State, what: str) -> tuple[tuple[str, int], ...]:
    return tuple(parse_named(text, [c.name for c in s.colonists], what).items())


def _applied(s: State, md: MuleData | None, move: plays.Play, lines: list[str]) -> State:
    """``move`` checked and applied on ``s``, its lines added to ``lines``."""
    if md is None:
        from companion.mule import data

        md = data.load()
    after, said = plays.apply(s, md, move)
    lines += said
    return after


def sell_to_store(s: State, good: str, text: str, lines: list[str]) -> State:
    """Sales to The Store as typed (``Ann=2,Bob=1``), on ``s``
    (:class:`companion.mule.plays.Sell`)."""
    return _applied(s, None, plays.Sell(good, _named(text, s, "sold")), lines)


def _buy(s: State, md: MuleData, good: str, text: str, lines: list[str]) -> State:
    """Purchases from The Store as typed (:class:`companion.mule.plays.Buy`)."""
    return _applied(s, md, plays.Buy(good, _named(text, s, "bought")), lines)


def _deal(s: State, good: str, text: str, lines: list[str]) -> State:
    """Deals between Colonists as typed (:class:`companion.mule.plays.Deals`)."""
    deals = _deals(text, [c.name for c in s.colonists])
    return _applied(s, None, plays.Deals(good, tuple(deals)), lines)


def _offers(typed: State, md: MuleData, good: str, text: str) -> list[market.Offer]:
    """Colonists Preferred over The Store in Auctions: the offers at least matching The
    Store's price, as typed: ``Ann buys 2@6, Bob sells 1@5``; blank or none: none
    (:class:`companion.mule.plays.Offers`)."""
    if _none(text):
        return []
    names = [c.name for c in typed.colonists]
    out: list[market.Offer] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        words = part.replace("@", " @ ").split()
        if len(words) != 5 or words[1].lower() not in ("buys", "sells") or words[3] != "@":
            raise InputError(f"'{part[:40]}': an offer is NAME buys N@PRICE or NAME sells "
                             "N@PRICE, e.g. Ann buys 2@6")
        side = {"buys": "buy", "sells": "sell"}[words[1].lower()]
        offer = market.Offer(player_name(words[0], names), side, _nonneg(words[2], "units"),
                             _nonneg(words[4], "price"))
        if offer.units < 1:
            raise InputError(f"'{part[:40]}': an offer is for 1 unit or more")
        out.append(offer)
    why = plays.check(typed, md, plays.Offers(good, tuple(out)))
    if why:
        raise RuleError(why)
    return out


class _Auction:
    """One Market Auction while its questions are asked: the Turn, the Good, the offers
    standing (Colonists Preferred over The Store in Auctions) and the deals made between
    Colonists. Each answer is read into its move (:mod:`companion.mule.plays`), checked and
    applied."""

    def __init__(self, t: Turn, good: str) -> None:
        self.t, self.good = t, good
        self.offers: list[market.Offer] = []
        self.deals: list[tuple[str, str, int, int]] = []
        self.asked: set[str] = set()

    def step(self, key: str, question: str, read: Callable[[str], plays.MarketAuction]
             ) -> plays.MarketAuction:
        self.asked.add(key)
        s = self.t.state

        def parse(a: str) -> tuple[plays.MarketAuction, tuple[State, tuple[str, ...]]]:
            move = read(a)
            return move, plays.apply(s, self.t.md, move)

        move: plays.MarketAuction
        move, done = self.t.ask(key, question, "", parse)
        self.t.put(*done)
        if isinstance(move, plays.Deals):
            self.deals = list(move.deals)
        return move

    def sell(self, a: str) -> plays.Sell:
        return plays.Sell(self.good, _named(a, self.t.state, "sold"), tuple(self.offers),
                          tuple(self.deals))

    def buy(self, a: str) -> plays.Buy:
        return plays.Buy(self.good, _named(a, self.t.state, "bought"), tuple(self.offers),
                         tuple(self.deals))

    def deal(self, a: str) -> plays.Deals:
        return plays.Deals(self.good,
                           tuple(_deals(a, [c.name for c in self.t.state.colonists])))

    def declare(self, a: str) -> plays.Declare:
        return plays.Declare(self.good, tuple(_pairs(a, "declared").items()))


def _pairs(text: str, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in text.replace(";", ",").split(","):
        if part.strip():
            name, eq, value = part.partition("=")
            if not eq:
                raise InputError(f"{what}: '{part.strip()[:40]}' should be NAME=VALUE")
            out[name.strip()] = value.strip()
    return out


def trade(t: Turn, good: str) -> None:
    """6. Market, one Auction: sales to The Store at its Buy Price, purchases from it at its
    Sell Price (Priority to Buy: the lowest Rank first), deals between Colonists at any price;
    a Colonist Buys or Sells in one Auction, not both. Only what somebody can still do is
    asked: a sale needs a Colonist holding the Good, a purchase one who can pay The Store, a
    deal a Colonist to sell and another to buy.

    Optional Rules: Declaring Buyers and Sellers asks every Colonist's declaration first;
    Colonists Preferred over The Store in Auctions asks the offers at least matching The
    Store's, then the deals between Colonists before the trades with The Store, and refuses
    a trade with The Store while another Colonist's offer for it stands."""
    good = check_good(good)
    buy = t.state.prices.of(good)
    sell_price = t.md.track(good).sell_for(buy)
    title = good.capitalize()
    a = _Auction(t, good)
    chosen = t.state.options
    if holders_of(t.state, good) or no_purchase(t.state, t.md, good) is None:
        if options.on(chosen, "declaring-buyers-and-sellers"):
            a.step("declare", f"{title} Auction: each Colonist declares Buyer or Seller "
                   "(NAME=B or NAME=S, every Colonist)", a.declare)
        if options.on(chosen, "colonists-preferred"):
            a.offers = t.ask("offers", f"{title} Auction: offers at least matching The "
                             f"Store's ${buy}/${sell_price} (NAME buys N@PRICE, NAME sells "
                             "N@PRICE, ...; blank: none)", "",
                             lambda x: _offers(t.state, t.md, good, x))
            if no_deal(t.state, good) is None:
                a.step("deals", f"{title}: deals between Colonists, first (SELLER>BUYER "
                       "N@PRICE, ...)", a.deal)
    if holders_of(t.state, good):
        a.step("sell", f"{title} Auction: sold to The Store at ${buy} (NAME=N,...)", a.sell)
    if no_purchase(t.state, t.md, good) is None:
        a.step("buy", f"{title}: bought from The Store at ${sell_price} (NAME=N,...)", a.buy)
    if "deals" not in a.asked and no_deal(t.state, good) is None:
        a.step("deals", f"{title}: deals between Colonists (SELLER>BUYER N@PRICE, ...)",
               a.deal)


# -- 7. Ranking, the end: see the Phases that ask nothing below

# -- 8. Personal Events: the steps over companion.mule.personal ---------------------------------

def _event_card(md: MuleData, text: str, deck: str) -> EventCard:
    if _none(text):
        raise InputError(f"the {deck.capitalize()} Event card drawn is needed (its code or "
                         "title)")
    card = md.event(text)
    if card.deck != deck:
        raise InputError(f"{card.code or card.id} {card.title} is a"
                         f"{'n' if card.deck == 'unlucky' else ''} {card.deck.capitalize()} "
                         "Event card")
    return card


def _target(s: State, card: EventCard, text: str, giver: str) -> str:
    if _none(text):
        raise InputError("name the Colonist who receives the card")
    target = player_name(text, list(s.ranking))
    why = personal.check_receiver(s, card, giver, target)
    if why:
        raise RuleError(why)
    return target


def personal_event(t: Turn, giver: str, deck_name: str) -> str:
    """8. Personal Events, one card: drawn by ``giver`` (from the companion's deck, or typed),
    given to another Colonist (or, under the Alternative Personal Event System, to the Rank on
    the card's diagram), who follows it (:mod:`companion.mule.personal`). Returns who
    received it."""
    s = t.state
    if s.event_decks:
        s, card, said = personal.draw(s, t.md, deck_name)
    else:
        card = t.ask("card", f"{deck_name.capitalize()} Event card drawn by {giver} (its code "
                     "or title)", "", lambda a: _event_card(t.md, a, deck_name))
        said = ()
    for line in (*said, *personal.card_lines(card, giver)):
        t.tell(line)
    target = personal.diagram_receiver(s, card)
    if target is not None:
        t.tell(f"  the card's diagram gives it to {target}")
    else:
        target = t.ask("to", f"{giver} gives it to", "",
                       lambda a: _target(s, card, a, giver))
    after, lines = personal.card_given(s, deck_name, card, target)
    t.put(after, lines)
    return target


def lucky(t: Turn, who: str) -> None:
    target = personal_event(t, who, "lucky")
    t.put(personal.unlucky_next(t.state, target))


def unlucky(t: Turn, who: str) -> None:
    personal_event(t, who, "unlucky")


# -- the Phases that ask nothing: pure functions over the typed State (companion.mule.phases) --

def _typed(phase: Callable[[State, MuleData], tuple[State, tuple[str, ...]]]
           ) -> Callable[[Turn, str | None], None]:
    """A Phase of :mod:`companion.mule.phases` as a step: the Turn's State given to it,
    the State it returns written back, its lines told."""

    def step(t: Turn, who: str | None) -> None:
        t.put(*phase(t.state, t.md))

    step.__doc__ = phase.__doc__
    return step


usage = _typed(phases.usage_and_spoilage)
pricing_step = _typed(phases.pricing)
sellout = _typed(phases.final_market)
ranking = _typed(phases.ranking)
end = _typed(phases.game_end)
