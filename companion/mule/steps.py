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
:mod:`companion.mule.phases`, :mod:`companion.mule.market`, :mod:`companion.mule.personal`):
their steps here ask the table's questions, read what is typed, and read and write the Turn's
copy through :func:`companion.mule.state.from_json` and ``to_json``. The reading of a claim
(``companion.mule.board``) still works on the JSON form itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from companion.mule import board, development, market, personal, phases, producing, production
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
    check_from_planet,
    check_land_auction,
    crater_zone,
    land_auction_won,
    land_granted,
    left_on_planet,
    must_claim,
    owned,
)
from companion.mule.expansion import Claimable as Claimable
from companion.mule.expansion import claimable as claimable
from companion.mule.market import holders_of, no_deal, no_purchase
from companion.mule.market import store_sells_not as store_sells_not
from companion.mule.state import State, from_json, to_json
from companion.mule.state import land_of as state_land
from companion.mule.state import player_name as player_name
from companion.session import parse_amount
from components.errors import InputError, RuleError

T = TypeVar("T")
Asker = Callable[[str, str, str, Callable[[str], Any]], Any]
Say = Callable[[str], None]
NONE_WORDS = ("", "none", "-", "no")


class Turn:
    """The state a step works on (a copy of the saved game's), with the rule data, where lines
    go (``say``) and where questions go (``ask``).

    The state is held as the typed :class:`~companion.mule.state.State` (``state``, written
    with ``put``) or as its JSON form (``s``, for the steps that still read and change it in
    place), each made from the other only when it is asked for. A Turn made over a JSON form
    (a test's, a caller's copy) writes every ``put`` into that dict too, so that its holder
    sees it."""

    __slots__ = ("_raw", "_through", "_typed", "ask", "lines", "md", "say")

    def __init__(self, s: dict[str, Any] | State, md: MuleData, ask: Asker, say: Say,
                 lines: list[str] | None = None) -> None:
        self._through = isinstance(s, dict)
        self._raw: dict[str, Any] | None = s if isinstance(s, dict) else None
        self._typed: State | None = None if isinstance(s, dict) else s
        self.md, self.ask, self.say = md, ask, say
        self.lines: list[str] = [] if lines is None else lines

    @property
    def s(self) -> dict[str, Any]:
        """The JSON form, which the caller may change in place (the typed copy is dropped)."""
        if self._raw is None:
            assert self._typed is not None
            self._raw = to_json(self._typed)
        self._typed = None
        return self._raw

    @property
    def state(self) -> State:
        """The typed State (read from the JSON form when that was the last changed)."""
        if self._typed is None:
            assert self._raw is not None
            self._typed = from_json(self._raw)
        return self._typed

    def put(self, after: State, lines: tuple[str, ...] = ()) -> None:
        """The State a pure function returned, written back; its lines told."""
        if self._through:
            assert self._raw is not None
            self._raw.clear()
            self._raw.update(to_json(after))
        else:
            self._raw = None
        self._typed = after
        for line in lines:
            self.tell(line)

    @property
    def names(self) -> list[str]:
        return list(self.state.ranking)

    @property
    def players(self) -> dict[str, Any]:
        players: dict[str, Any] = self.s["players"]
        return players

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

def claim(s: dict[str, Any], md: MuleData, who: str, text: str) -> dict[str, Any] | None:
    """A Land claimed by ``who`` (Land Grant or won at a Land Auction): ``P07@B2``, the tile
    printed on the Land and the square of the Player Board, as printed, it goes on."""
    if _none(text):
        return None
    lands = s["players"][who]["lands"]
    land = board.parse_claim(text, md.land, owned(from_json(s)), s.get("craters", []), lands,
                             md.player_board)
    if land is not None and land.get("square") is None:
        raise InputError(f"'{text.strip()}': give the square it goes on, as printed on the Player "
                         f"Board, e.g. {(land.get('tile') or land['land'])}@B1")
    if land is not None:
        check_from_planet(from_json(s), md, state_land(land))
    return land


def empty_on_planet(s: dict[str, Any], md: MuleData) -> dict[str, int]:
    """How many squares of each Zone of Planet Irata may be empty now (Meteorite Strike!
    places the Meteor Craters on empty squares): a Zone's Land squares (The Store is in no
    Zone), less the Lands surely still lying there (``_left_on_planet``), less the Meteor
    Craters placed there and not claimed. An upper bound: a Zone is refused a Crater only
    when it surely has no empty square."""
    planet = md.planet_irata
    typed = from_json(s)
    mine = owned(typed)
    out: dict[str, int] = {}
    for zone in dict.fromkeys(planet.zones):
        lying = sum(left_on_planet(typed, md, k).get(zone, 0) for k in PLANET_LANDS)
        craters = sum(1 for c in typed.craters if c not in mine and crater_zone(typed, c) == zone)
        out[zone] = max(0, sum(planet.squares(zone, k) for k in PLANET_LANDS) - lying - craters)
    return out


def parse_crater_zones(s: dict[str, Any], md: MuleData, craters: list[str], text: str
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
    Colonist who can claim one has to (:func:`claimable`)."""
    forced = must_claim(from_json(t.s), t.md, who)

    def parse(a: str) -> dict[str, Any] | None:
        if forced and _none(a):
            raise RuleError(forced)
        return claim(t.s, t.md, who, a)

    hint = "must claim one" if forced else "blank: none"
    land = t.ask("claim", f"Land Grant: {who} claims (TILE@SQUARE as printed, e.g. P07@B2; "
                 f"{hint})", "", parse)
    if land:
        after = land_granted(from_json(t.s), who, state_land(land))
        t.s.clear()
        t.s.update(to_json(after))
        t.tell(f"{who} claims {land.get('tile') or land['land']} on {land['square']}")
    else:
        t.tell(f"{who} claims no Land")


def _auction(s: dict[str, Any], md: MuleData, text: str, who: str | None = None
             ) -> dict[str, Any] | None:
    """A Land Auction, ``[SELLER] WINNER BID TILE@SQUARE``: the Land for Sale! cards are played
    from Rank 1 down (``who``: the Colonist whose turn it is to play one or not; None: the
    first holder by Rank). ``SELLER none`` (or blank) is ``who`` declining; None when so."""
    names = list(s["players"])
    holders = auction_holders(s)
    if who is None:
        if not holders:
            raise RuleError("Land Auctions: no Colonist holds a Land for Sale! card to play")
        who = holders[0]
    words = text.split()
    if words and words[0].lower() not in NONE_WORDS and len(words) in (2, 4):
        seller = player_name(words[0], names)
        words = words[1:]
    else:
        seller = who
    if seller != who:
        raise RuleError(f"Land Auctions: the Land for Sale! cards are played from Rank 1 down, "
                        f"and now it is {who}'s turn to play one or not (not {seller}'s)")
    if not words or (len(words) == 1 and _none(words[0])):
        return None
    if len(words) != 3:
        raise InputError("Land Auction: give SELLER WINNER BID TILE@SQUARE, e.g. Ann Bob 12 "
                         "P09@E1 (the Colonist playing Land for Sale!, the highest bidder, the "
                         "bid, the Land)")
    winner = player_name(words[0], names)
    bid = _nonneg(words[1], "bid")
    typed = from_json(s)
    check_land_auction(typed, md, seller, winner, bid)
    land = claim(s, md, winner, words[2])
    if land is None:
        raise InputError("Land Auction: name the Land won, TILE@SQUARE")
    out = to_json(land_auction_won(typed, seller, winner, bid, state_land(land)))
    out["auction_won"] = [seller, winner, bid, land.get("tile") or land["land"], land["square"]]
    return out


def auction(t: Turn, who: str | None) -> None:
    """Land Auctions (Tournament only), after all Land Grants: from Rank 1 down, each Colonist
    holding a Land for Sale! card plays one or not; the bid opens at exactly $8 and rises by
    exactly $2; the winner pays it and places the Land. ``none`` alone: nobody else plays one
    this Turn."""
    if who is None:                       # a game saved when one step took every auction
        holders = auction_holders(t.s)
        who = holders[0] if holders else None
    answer: list[str] = []

    def parse(a: str) -> dict[str, Any] | None:
        answer[:] = [a]
        return _auction(t.s, t.md, a, who)

    after = t.ask("auction", f"Land Auctions: {who} plays Land for Sale!? WINNER BID "
                  f"TILE@SQUARE (blank: {who} does not; none: nobody else does this Turn)", "",
                  parse)
    if after is None:
        if answer and answer[0].strip().lower() in NONE_WORDS[1:]:
            t.s["todo"] = t.s["todo"][:1] + [x for x in t.s["todo"][1:] if x[0] != "auction"]
            t.tell("No more Land Auctions this Turn")
        else:
            t.tell(f"{who} plays no Land for Sale! card")
        return
    t.s.clear()
    t.s.update(after)
    seller, winner, bid, land, square = t.s.pop("auction_won")
    t.tell(f"{seller} plays Land for Sale!: {winner} wins {land} at ${bid} and places it on "
           f"{square}")


def auction_holders(s: dict[str, Any]) -> list[str]:
    return [n for n in s["ranking"] if s["hands"][n].get("land_for_sale", 0) > 0
            and n not in s.get("auctions", [])]


# -- 2. Development ----------------------------------------------------------------------------

def _package(s: dict[str, Any], md: MuleData, text: str) -> dict[str, Any] | None:
    """Package From Home World! cards as typed (``Ann=HC02,Bob=food``; none), played on a copy
    of ``s`` (:func:`companion.mule.phases.package_from_home_world`); None: none played."""
    if _none(text):
        return None
    plays: list[tuple[str, str]] = []
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        if "=" not in part:
            raise InputError(f"'{part.strip()}': write NAME=CARD (its code, e.g. HC02, or the "
                             "Good of the package, e.g. Ann=food)")
        who, ref = (x.strip() for x in part.split("=", 1))
        plays.append((who, ref))
    after, _ = phases.package_from_home_world(from_json(s), md, plays)
    return to_json(after)


def package(t: Turn, who: str | None) -> None:
    """At the start of Development, before any Action: Package From Home World! cards, each
    only if no other Colonist has a smaller Stock of its Good (checked once, before any takes
    effect)."""
    after = t.ask("package", "Package From Home World! played: NAME=CARD,... (CARD: its code, "
                  "or the Good of the package; blank: none)", "", lambda a: _package(t.s, t.md, a))
    if after is None:
        t.tell("No Package From Home World! played")
        return
    t.s.clear()
    t.s.update(after)
    for who_, good, n in after.pop("packages"):
        t.tell(f"{who_} plays Package From Home World!: +{n} {good}")


def begin_development(t: Turn) -> list[list[Any]]:
    """2. Development begins (:func:`companion.mule.development.development_begins`): The
    Store fills its Corral, the order of play; returns the first Action Round's steps."""
    after, lines = development.development_begins(t.state, t.md)
    t.put(after, lines)
    return [list(x) for x in development.round_steps(after, t.md)]


ACTIONS = development.ACTIONS


def develop_actions(s: dict[str, Any], md: MuleData, who: str, text: str,
                    lines: list[str]) -> dict[str, Any]:
    """One Colonist's Action Round as typed, played on a copy of ``s``
    (:func:`companion.mule.development.action_round`); RuleError with the rule's reason."""
    after, said = development.action_round(from_json(s), md, who,
                                           development.parse_actions(text))
    lines += said
    return to_json(after)


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


def next_round(s: dict[str, Any], md: MuleData) -> list[list[Any]]:
    """The next Action Round (:func:`companion.mule.development.next_action_round`), written
    to ``s``: its steps; none when the Phase is over."""
    after = development.next_action_round(from_json(s), md)
    if after is None:
        return []
    s.clear()
    s.update(to_json(after))
    return [list(x) for x in development.round_steps(after, md)]


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
    if card.id in t.s.get("production_drawn", []):
        raise RuleError(f"{card.code or card.id} {card.title} was drawn on an earlier Turn: "
                        "each Production Card is drawn once")
    n = int(t.md.setup(t.s["mode"], len(t.names)).get("production_deck", 0))
    if n and card.ship_is_back and t.s["turn"] != n + 1:
        raise RuleError(f"The Ship is Back! lies under the {n} Production Cards of the set-up: "
                        f"it is drawn on Turn {n + 1}, not Turn {t.s['turn']}")
    if n and not card.ship_is_back and t.s["turn"] == n + 1:
        raise RuleError(f"on Turn {n + 1} only The Ship is Back! is left in the Production deck")


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
        "left)", "", lambda a: parse_crater_zones(t.s, t.md, list(craters), a))
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


def sell_to_store(s: dict[str, Any], good: str, text: str, lines: list[str]
                  ) -> dict[str, Any]:
    """Sales to The Store as typed (``Ann=2,Bob=1``), on a copy of ``s``
    (:func:`companion.mule.market.sell_to_store`)."""
    typed = from_json(s)
    after, said = market.sell_to_store(typed, good,
                                       parse_named(text, [c.name for c in typed.colonists], "sold"))
    lines += said
    return to_json(after)


def _buy(s: dict[str, Any], md: MuleData, good: str, text: str, lines: list[str]
         ) -> dict[str, Any]:
    """Purchases from The Store as typed (:func:`companion.mule.market.buy_from_store`)."""
    typed = from_json(s)
    after, said = market.buy_from_store(typed, md, good,
                                        parse_named(text, [c.name for c in typed.colonists],
                                                    "bought"))
    lines += said
    return to_json(after)


def _deal(s: dict[str, Any], good: str, text: str, lines: list[str]) -> dict[str, Any]:
    """Deals between Colonists as typed (:func:`companion.mule.market.deal`)."""
    typed = from_json(s)
    after, said = market.deal(typed, good, _deals(text, [c.name for c in typed.colonists]))
    lines += said
    return to_json(after)


def trade(t: Turn, good: str) -> None:
    """6. Market, one Auction: sales to The Store at its Buy Price, purchases from it at its
    Sell Price (Priority to Buy: the lowest Rank first), deals between Colonists at any price;
    a Colonist Buys or Sells in one Auction, not both. Only what somebody can still do is
    asked: a sale needs a Colonist holding the Good, a purchase one who can pay The Store, a
    deal a Colonist to sell and another to buy."""
    good = check_good(good)
    buy = t.s["prices"][good]
    sell_price = t.md.track(good).sell_for(buy)
    lines: list[str] = []
    title = good.capitalize()

    def step(key: str, question: str, fn: Callable[[str], dict[str, Any]]) -> None:
        def parse(a: str) -> dict[str, Any]:
            lines.clear()
            return fn(a)

        after = t.ask(key, question, "", parse)
        t.s.clear()
        t.s.update(after)
        for line in lines:
            t.tell(line)

    if holders_of(from_json(t.s), good):
        step("sell", f"{title} Auction: sold to The Store at ${buy} (NAME=N,...)",
             lambda a: sell_to_store(t.s, good, a, lines))
    if no_purchase(from_json(t.s), t.md, good) is None:
        step("buy", f"{title}: bought from The Store at ${sell_price} (NAME=N,...)",
             lambda a: _buy(t.s, t.md, good, a, lines))
    if no_deal(from_json(t.s), good) is None:
        step("deals", f"{title}: deals between Colonists (SELLER>BUYER N@PRICE, ...)",
             lambda a: _deal(t.s, good, a, lines))


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
    """A Phase of :mod:`companion.mule.phases` as a step: the State read from the step's
    copy of the saved game, the State it returns written back, its lines told."""

    def step(t: Turn, who: str | None) -> None:
        t.put(*phase(t.state, t.md))

    step.__doc__ = phase.__doc__
    return step


usage = _typed(phases.usage_and_spoilage)
pricing_step = _typed(phases.pricing)
sellout = _typed(phases.final_market)
ranking = _typed(phases.ranking)
end = _typed(phases.game_end)
