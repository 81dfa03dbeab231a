"""Outer Earth: the table's arithmetic, as pure functions over small frozen values.

The numbers (the set-up table, the scoring values, the hand limit, the planet tax, the
end-condition setting) come from the game's own YAML, ``components.load("outer-earth")``, the
same definitions the printed cards are drawn from. Sections named in docstrings are the
rulebook's.

Readings the rulebook leaves open (and the project's choice):
- Bidding with 2+ green paddles: the company that opens is the first interested company
  clockwise from the starting player (the starting player itself when it is interested).
- "Whenever a player buys a planet" moves the starting player token: a planet taken for free
  (one green paddle) counts as bought.
- Development cards placed face down under an unsold planet go to the company that buys it.
- Last round: the detailed rule ("two of the bonus revenue decks") is the default; the
  setting ``last_round.bonus_revenue_piles_empty`` in the YAML holds it.
- Ties at the end: the rulebook names no tie-breaker, so tied companies share the win.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.outer_earth.turns import ACTIONS as ACTIONS
from companion.outer_earth.turns import COLOURS as COLOURS
from companion.outer_earth.turns import clockwise_from as _clockwise_from
from companion.outer_earth.turns import company_turn_refusal as company_turn_refusal
from companion.outer_earth.turns import turns_now as turns_now
from components.errors import InputError, RuleError

# --- the rule numbers, read from the YAML --------------------------------------------------------

@dataclass(frozen=True)
class SetupRow:
    """One row of the set-up table (Game Setup Instructions)."""

    players: int
    galaxy_deck: Mapping[str, int]
    planet_market: int
    bonus_revenue: Mapping[str, tuple[int, int]]  # length -> (piles, cards per pile)


@dataclass(frozen=True)
class Rules:
    """The rule numbers of Outer Earth, as the definitions hold them."""

    table: tuple[SetupRow, ...]
    starting_hand: int = 4
    dice_per_company: int = 3
    starting_dice: Mapping[str, int] = field(
        default_factory=lambda: {"draw": 2, "build": 2, "sell": 1})
    die_faces: int = 6
    hand_limit: int = 10
    planet_tax_cards: int = 2
    development_card_vp: int = 1
    portfolio_planet_vp: int = 2
    discarded_planet_vp: int = -2
    planet_in_development_vp: int = -2
    galaxy_deck_ends_game: bool = True
    bonus_revenue_piles_empty: int = 2
    planets_in_box: Mapping[str, int] = field(default_factory=dict)   # length -> planet cards
    bonus_revenue_in_box: Mapping[str, int] = field(default_factory=dict)
    bonus_revenue_counts: Mapping[int, int] = field(default_factory=dict)  # face value -> cards
    development_cards: int = 0                                              # in the box
    bonus_revenue_values: frozenset[int] = frozenset()

    def row(self, players: int) -> SetupRow:
        for row in self.table:
            if row.players == players:
                return row
        counts = ", ".join(str(r.players) for r in self.table)
        raise RuleError(f"Outer Earth is for {counts} players, not {players}")


def rules_from_game(game: Any) -> Rules:
    """Build ``Rules`` from a loaded game's ``data`` and its planet and bonus revenue cards."""
    data = game.data
    setup = data["setup"]
    table = tuple(
        SetupRow(players=int(r["players"]),
                 galaxy_deck={k: int(v) for k, v in r["galaxy_deck"].items()},
                 planet_market=int(r["planet_market"]),
                 bonus_revenue={k: (int(v["piles"]), int(v["cards"]))
                                for k, v in r["bonus_revenue"].items()})
        for r in setup["table"])
    scoring = data["scoring"]
    upkeep = data["upkeep"]
    last = data["last_round"]
    planets = [c for c in game.components if c.get("planet") is not None]
    bonuses = [c for c in game.components if c.get("bonus_revenue") is not None]

    def in_box(cards: list[Any]) -> dict[str, int]:
        normal = sum(c.count for c in cards)
        short = sum(c.count for c in cards if not c.get("long", False))
        return {"short": short, "normal": normal}

    return Rules(
        table=table,
        starting_hand=int(setup["starting_hand"]),
        dice_per_company=int(setup["dice_per_company"]),
        starting_dice={k: int(v) for k, v in setup["starting_dice"].items()},
        die_faces=int(setup["die_faces"]),
        hand_limit=int(upkeep["hand_limit"]),
        planet_tax_cards=int(upkeep["planet_tax_cards"]),
        development_card_vp=int(scoring["development_card"]),
        portfolio_planet_vp=int(scoring["portfolio_planet"]),
        discarded_planet_vp=int(scoring["discarded_planet"]),
        planet_in_development_vp=int(scoring["planet_in_development"]),
        galaxy_deck_ends_game=bool(last["galaxy_deck_empty"]),
        bonus_revenue_piles_empty=int(last["bonus_revenue_piles_empty"]),
        planets_in_box=in_box(planets),
        bonus_revenue_in_box=in_box(bonuses),
        bonus_revenue_values=frozenset(int(c.get("vp")) for c in bonuses),
        bonus_revenue_counts=dict(Counter(int(c.get("vp")) for c in bonuses
                                          for _ in range(c.count))),
        development_cards=sum(c.count for c in game.components
                              if c.get("development") is not None),
    )


def planets_from_game(game: Any) -> dict[str, Planet]:
    """The printed planet cards of ``game``, by id, as ``Planet`` values."""
    return {c.id: planet_from_fields(c.fields) for c in game.components
            if c.get("planet") is not None}


def bonus_revenue_from_game(game: Any) -> dict[str, BonusRevenue]:
    """The printed Bonus Revenue cards of ``game``, by id."""
    return {c.id: BonusRevenue(vp=int(c.get("vp")), cost=tuple(c.get("cost")),
                               linked=bool(c.get("linked")), name=c.id)
            for c in game.components if c.get("bonus_revenue") is not None}


def long_bonus_ids_from_game(game: Any) -> frozenset[str]:
    """The Bonus Revenue cards of ``game`` that only the long game uses."""
    return frozenset(c.id for c in game.components
                     if c.get("bonus_revenue") is not None and c.get("long", False))


# --- End Game Scoring ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Profits:
    """What a company holds at the end (End Game Scoring: Total Profits)."""

    name: str
    profits: int = 0                       # development cards in the profits pile
    bonus_revenue: tuple[int, ...] = ()    # face values of Bonus Revenue cards
    portfolio: int = 0                     # planets sold
    discarded_planets: int = 0             # planets put into the profits pile
    in_development: int = 0                # planets still in the construction area


def check_held(companies: Sequence[Profits], rules: Rules) -> None:
    """End Game Scoring counts what the companies hold, and together they hold no more than
    the box: its planets (portfolio, profits pile and construction area), its development
    cards (profits piles) and its Bonus Revenue cards of each face value. A count past the
    box is a slip that would score points nobody earned."""
    planets = sum(c.portfolio + c.discarded_planets + c.in_development for c in companies)
    box = max(rules.planets_in_box.values(), default=0)
    if box and planets > box:
        raise RuleError(f"the companies hold {planets} planets (portfolio, discarded and in "
                        f"development), but the game has only {box}")
    cards = sum(c.profits for c in companies)
    if rules.development_cards and cards > rules.development_cards:
        raise RuleError(f"the profits piles hold {cards} development cards, but the game has "
                        f"only {rules.development_cards}")
    if rules.bonus_revenue_counts:
        held = Counter(v for c in companies for v in c.bonus_revenue)
        for vp, n in sorted(held.items()):
            have = rules.bonus_revenue_counts.get(vp, 0)
            if n > have:
                raise RuleError(f"{n} Bonus Revenue cards worth {vp} VP are listed, but the "
                                f"game has only {have}")


@dataclass(frozen=True)
class Score:
    name: str
    vp: int
    breakdown: Mapping[str, int]


def total_profits(company: Profits, rules: Rules) -> Score:
    """End Game Scoring, Total Profits: 1 VP a development card in profits, each Bonus Revenue
    card its face value, 2 VP a portfolio planet, -2 VP a planet in the profits pile and -2 VP a
    planet still in development (its infrastructure scores 0)."""
    for what in ("profits", "portfolio", "discarded_planets", "in_development"):
        if getattr(company, what) < 0:
            raise RuleError(f"{company.name}: {what.replace('_', ' ')} cannot be negative")
    if any(v <= 0 for v in company.bonus_revenue):
        raise RuleError(f"{company.name}: a Bonus Revenue card is worth more than 0 VP")
    breakdown = {
        "profits": company.profits * rules.development_card_vp,
        "bonus_revenue": sum(company.bonus_revenue),
        "portfolio": company.portfolio * rules.portfolio_planet_vp,
        "discarded_planets": company.discarded_planets * rules.discarded_planet_vp,
        "in_development": company.in_development * rules.planet_in_development_vp,
    }
    return Score(company.name, sum(breakdown.values()), breakdown)


def winners(scores: Sequence[Score]) -> tuple[str, ...]:
    """The Winner: the company with the most VP (tied companies share it)."""
    if not scores:
        return ()
    best = max(s.vp for s in scores)
    return tuple(s.name for s in scores if s.vp == best)


# --- Phase 2: building and selling ---------------------------------------------------------------

@dataclass(frozen=True)
class Planet:
    """A planet card (Planet Summary): start paths, requirement, company benefits, dice
    increase icons and the L mark."""

    name: str
    requirement: int
    start_paths: tuple[str, ...] = COLOURS
    benefits: Mapping[str, int] = field(default_factory=dict)
    dice_increase: int = 0
    long: bool = False


def _colours(value: Any) -> tuple[str, ...]:
    """Colours given as a list, or as a mapping of colour -> true/false (as printed)."""
    if isinstance(value, Mapping):
        return tuple(c for c in COLOURS if value.get(c))
    return tuple(value)


def planet_from_fields(fields: Mapping[str, Any]) -> Planet:
    """A planet card's fields (as in the definitions) as a ``Planet``."""
    return Planet(name=str(fields.get("name", fields.get("id", "planet"))),
                  requirement=int(fields["requirement"]),
                  start_paths=_colours(fields.get("start_paths", COLOURS)),
                  benefits={k: int(v) for k, v in (fields.get("benefits") or {}).items()},
                  dice_increase=int(fields.get("dice_increase", 0)),
                  long=bool(fields.get("long", False)))


@dataclass(frozen=True)
class BonusRevenue:
    """A Bonus Revenue card (Reading Bonus Revenue Cards): VP and infrastructure cost, linked
    (built in the order shown) or unlinked (any order)."""

    vp: int
    cost: tuple[str, ...]
    linked: bool = False
    name: str = ""


def pays_for(infrastructure: Sequence[str], bonus: BonusRevenue) -> tuple[int, ...] | None:
    """Reading Bonus Revenue Cards: the positions of the infrastructure (in build order) that
    pay the card's cost, or None. Linked: the colours in the order shown, one after another;
    unlinked: the colours in any order."""
    cost = tuple(bonus.cost)
    if bonus.linked:
        n = len(cost)
        for start in range(len(infrastructure) - n + 1):
            if tuple(infrastructure[start:start + n]) == cost:
                return tuple(range(start, start + n))
        return None
    need = Counter(cost)
    used: list[int] = []
    for i, colour in enumerate(infrastructure):
        if need[colour] > 0:
            need[colour] -= 1
            used.append(i)
    return tuple(used) if not +need else None


@dataclass(frozen=True)
class Sale:
    """What selling one planet brings (Action #3: Sell Planets)."""

    planet: str
    to_profits: int                 # development cards moved to the profits pile
    discarded: int                  # development cards paid for the Bonus Revenue card
    bonus_revenue_vp: int           # 0 without a Bonus Revenue card
    planet_vp: int                  # the planet in the portfolio
    dice_increase: int

    @property
    def vp(self) -> int:
        """What this planet and its infrastructure add at End Game Scoring."""
        return self.to_profits + self.bonus_revenue_vp + self.planet_vp


def sell_planet(planet: Planet, infrastructure: Sequence[str], rules: Rules,
                bonus: BonusRevenue | None = None) -> Sale:
    """Action #3, Sell Planets: the planet needs its requirement in developments; the cards
    that pay a Bonus Revenue card (one per planet) are discarded, the rest go to profits, the
    planet goes to the portfolio, and each dice increase icon raises a die by 1."""
    for colour in infrastructure:
        if colour not in COLOURS:
            raise InputError(f"'{colour}' is not a development colour (blue, yellow, red)")
    if len(infrastructure) < planet.requirement:
        raise RuleError(f"{planet.name} needs {planet.requirement} developments to be sold; "
                        f"it has {len(infrastructure)}")
    discarded, vp = 0, 0
    if bonus is not None:
        used = pays_for(infrastructure, bonus)
        if used is None:
            how = "in that order" if bonus.linked else "in any order"
            raise RuleError(f"the infrastructure does not pay {' + '.join(bonus.cost)} "
                            f"({how}) for the {bonus.vp} VP Bonus Revenue card")
        discarded, vp = len(used), bonus.vp
    return Sale(planet=planet.name,
                to_profits=(len(infrastructure) - discarded) * rules.development_card_vp,
                discarded=discarded, bonus_revenue_vp=vp, planet_vp=rules.portfolio_planet_vp,
                dice_increase=planet.dice_increase)


# --- company action values -----------------------------------------------------------------------

@dataclass(frozen=True)
class CompanyDice:
    """The three company dice on the company board (Your Company Dashboard)."""

    draw: int = 2
    build: int = 2
    sell: int = 1

    def as_dict(self) -> dict[str, int]:
        return {"draw": self.draw, "build": self.build, "sell": self.sell}


def starting_dice(rules: Rules) -> CompanyDice:
    """Game Setup, step 6: the dice start at 2 draw, 2 build and 1 sell."""
    return CompanyDice(**{k: int(v) for k, v in rules.starting_dice.items()})


def check_dice(dice: CompanyDice, rules: Rules) -> CompanyDice:
    for action, value in dice.as_dict().items():
        if not 1 <= value <= rules.die_faces:
            raise RuleError(f"the {action} die shows {value}; a six-sided die shows 1 to "
                            f"{rules.die_faces}")
    return dice


def action_values(dice: CompanyDice, latest_planet: Planet | None, rules: Rules
                  ) -> dict[str, int]:
    """Company Action Example: each action value is the company die plus the benefit of the
    most recent planet in the planet portfolio (only that one counts)."""
    check_dice(dice, rules)
    bonus = dict(latest_planet.benefits) if latest_planet else {}
    return {a: getattr(dice, a) + int(bonus.get(a, 0)) for a in ACTIONS}


def increase_die(dice: CompanyDice, action: str, rules: Rules) -> CompanyDice:
    """Action #3, step 3: a dice increase icon raises the draw, build or sell die by 1."""
    if action not in ACTIONS:
        raise InputError(f"'{action}' is not a company die (draw, build or sell)")
    value = getattr(dice, action)
    if value >= rules.die_faces:
        raise RuleError(f"the {action} die already shows {value}, its highest face")
    return replace(dice, **{action: value + 1})


# --- Phase 3: upkeep -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Upkeep:
    """The outcome of Phase 3's Upkeep Order for one company."""

    taxed_planets: int              # planets beyond the sell value
    cards_for_tax: int              # development cards discarded as planet tax
    planets_to_profits: int         # planets discarded into the profits pile instead
    hand_limit_discard: int         # development cards discarded down to the hand limit
    hand_after: int
    planets_after: int


def taxed_planets(planets_in_development: int, sell_value: int) -> int:
    """Upkeep Order, step 1: planets in the construction area beyond the Sell value."""
    if planets_in_development < 0 or sell_value < 0:
        raise RuleError("planets and the sell value cannot be negative")
    return max(0, planets_in_development - sell_value)


def upkeep(hand: int, planets_in_development: int, sell_value: int, rules: Rules,
           planets_discarded: int = 0) -> Upkeep:
    """Upkeep Order: 1) planet tax, 2 development cards for each planet beyond the Sell value,
    or that planet into the profits pile (the company chooses; one that cannot pay must
    discard planets); 2) discard down to the hand limit of 10."""
    if hand < 0:
        raise RuleError("a hand cannot hold fewer than 0 cards")
    taxed = taxed_planets(planets_in_development, sell_value)
    if not 0 <= planets_discarded <= taxed:
        raise RuleError(f"{planets_discarded} planets cannot be discarded: {taxed} "
                        f"planet{'s are' if taxed != 1 else ' is'} taxed")
    paid = taxed - planets_discarded
    cards = paid * rules.planet_tax_cards
    if cards > hand:
        can = hand // rules.planet_tax_cards
        raise RuleError(f"planet tax on {paid} planet{'s' if paid != 1 else ''} is {cards} "
                        f"development cards but the hand holds {hand}: pay for at most {can} "
                        f"and discard {taxed - can} planet{'s' if taxed - can != 1 else ''} "
                        "into the profits pile")
    left = hand - cards
    over = max(0, left - rules.hand_limit)
    return Upkeep(taxed_planets=taxed, cards_for_tax=cards, planets_to_profits=planets_discarded,
                  hand_limit_discard=over, hand_after=left - over,
                  planets_after=planets_in_development - planets_discarded)


def last_round(galaxy_deck: int, bonus_revenue_piles: Sequence[int], rules: Rules) -> bool:
    """Last Round of the Game?: the galaxy deck has run out, or the setting's number of
    bonus revenue piles (two, by the detailed rule) have; the game then lasts one more round."""
    if galaxy_deck < 0 or any(p < 0 for p in bonus_revenue_piles):
        raise RuleError("a deck cannot hold fewer than 0 cards")
    empty = sum(1 for p in bonus_revenue_piles if p == 0)
    need = min(rules.bonus_revenue_piles_empty, len(bonus_revenue_piles)) \
        if bonus_revenue_piles else rules.bonus_revenue_piles_empty
    return (rules.galaxy_deck_ends_game and galaxy_deck == 0) or (
        bool(bonus_revenue_piles) and empty >= need)


def replenish_count(players: int, market_left: int, rules: Rules) -> int:
    """Replenish Planet Market: the market is refilled to the player count + 1 slots."""
    slots = rules.row(players).planet_market
    if not 0 <= market_left <= slots:
        raise RuleError(f"the {players}-player market has {slots} slots, not {market_left}")
    return slots - market_left


# --- Game Setup Instructions ---------------------------------------------------------------------

@dataclass(frozen=True)
class Setup:
    players: int
    length: str
    galaxy_deck: int
    planet_market: int
    bonus_revenue_piles: int
    bonus_revenue_cards_per_pile: int
    starting_hand: int
    dice_per_company: int
    starting_dice: Mapping[str, int]
    remove_long_cards: bool
    planets_in_box: int
    bonus_revenue_in_box: int

    @property
    def galaxy_shortfall(self) -> int:
        """Planets the table asks for beyond the planet cards in the box for this length."""
        return max(0, self.galaxy_deck - self.planets_in_box)


def setup(players: int, length: str, rules: Rules) -> Setup:
    """Game Setup Instructions: the galaxy deck, planet market and bonus revenue piles from the
    set-up table; a short game removes the cards marked L."""
    if length not in ("short", "normal"):
        raise InputError(f"a game is short or normal, not '{length}'")
    row = rules.row(players)
    piles, cards = row.bonus_revenue[length]
    return Setup(players=players, length=length, galaxy_deck=row.galaxy_deck[length],
                 planet_market=row.planet_market, bonus_revenue_piles=piles,
                 bonus_revenue_cards_per_pile=cards, starting_hand=rules.starting_hand,
                 dice_per_company=rules.dice_per_company,
                 starting_dice=dict(rules.starting_dice), remove_long_cards=length == "short",
                 planets_in_box=rules.planets_in_box.get(length, 0),
                 bonus_revenue_in_box=rules.bonus_revenue_in_box.get(length, 0))


# --- Phase 1: bidding ----------------------------------------------------------------------------

@dataclass(frozen=True)
class AuctionStep:
    company: str
    move: str          # "accept", "raise", "bow out"
    bid: int           # the bid standing after the move


@dataclass(frozen=True)
class Auction:
    """The state of one planet's bidding (Phase 1, Step 2: Bidding)."""

    seating: tuple[str, ...]             # clockwise
    starting_player: str
    green: tuple[str, ...]               # interested companies, clockwise from the opener
    cards_under: int = 0
    paddles: int = 0                     # green paddles revealed
    bid: int = 0                         # the bid on the table (or offered, before accepted)
    leader: str | None = None            # who holds the bid, once the initial bid is accepted
    to_act: str | None = None
    steps: tuple[AuctionStep, ...] = ()
    buyer: str | None = None
    price: int = 0

    @property
    def over(self) -> bool:
        return self.buyer is not None or not self.green

    @property
    def next_starting_player(self) -> str:
        """Whenever a company buys a planet, the starting player token moves to it."""
        return self.buyer or self.starting_player

    @property
    def cards_under_after(self) -> int:
        """0 green paddles: a development card goes face down under the planet."""
        return self.cards_under + 1 if not self.green else 0

    def choices(self) -> tuple[str, ...]:
        if self.over:
            return ()
        return ("accept", "bow out") if self.leader is None else ("raise", "bow out")


def open_auction(seating: Sequence[str], starting_player: str, green: Sequence[str],
                 cards_under: int = 0) -> Auction:
    """Step 2, Bidding, after the paddles are revealed: 0 green, nobody gets the planet and a
    development card goes under it; 1 green, that company gets it for free; 2+ green, the
    first interested company clockwise from the starting player is offered the initial bid,
    equal to the number of green paddles."""
    seats = tuple(seating)
    if len(seats) < 2 or len(set(seats)) != len(seats):
        raise InputError("the seating needs at least two companies, each named once")
    if starting_player not in seats:
        raise InputError(f"the starting player '{starting_player}' is not at the table "
                         f"({', '.join(seats)})")
    for name in green:
        if name not in seats:
            raise InputError(f"'{name}' shows a green paddle but is not at the table "
                             f"({', '.join(seats)})")
    if len(set(green)) != len(green):
        raise InputError("a company shows one paddle")
    if cards_under < 0:
        raise InputError("cards under a planet cannot be fewer than 0")
    order = tuple(n for n in _clockwise_from(seats, starting_player) if n in set(green))
    auction = Auction(seating=seats, starting_player=starting_player, green=order,
                      cards_under=cards_under, paddles=len(order))
    if len(order) == 1:
        return replace(auction, buyer=order[0], price=0, leader=order[0])
    if len(order) >= 2:
        return replace(auction, bid=len(order), to_act=order[0])
    return auction


def _next_after(order: Sequence[str], name: str, skip: str | None) -> str:
    i = list(order).index(name)
    for k in range(1, len(order) + 1):
        cand = order[(i + k) % len(order)]
        if cand != skip:
            return cand
    return name


def respond(auction: Auction, move: str, hand: int | None = None) -> Auction:
    """One company's answer in the auction: before the initial bid is accepted, accept it or
    bow out (the next interested company clockwise is then offered it, lowered by 1); after,
    raise by 1 or bow out. When one interested company is left, it buys the planet for its
    bid in development cards. ``hand``, when known, is the cards the company can pay with."""
    move = {"bow": "bow out", "bow-out": "bow out", "pass": "bow out"}.get(move, move)
    if auction.over or auction.to_act is None:
        raise RuleError("the bidding on this planet is over")
    who = auction.to_act
    if move not in auction.choices():
        raise RuleError(f"{who} may {' or '.join(auction.choices())}, not '{move}'")
    remaining = [n for n in auction.green if n != who] if move == "bow out" else \
        list(auction.green)
    if auction.leader is None:          # the initial bid is on offer to `who`
        if move == "accept":
            if hand is not None and hand < auction.bid:
                raise RuleError(f"{who} holds {hand} development cards and cannot accept a "
                                f"bid of {auction.bid}")
            step = AuctionStep(who, "accept", auction.bid)
            nxt = _next_after(auction.green, who, skip=who)
            return replace(auction, leader=who, to_act=nxt, steps=auction.steps + (step,))
        bid = auction.bid - 1
        step = AuctionStep(who, "bow out", bid)
        if len(remaining) == 1:
            return replace(auction, green=tuple(remaining), bid=bid, leader=remaining[0],
                           to_act=None, buyer=remaining[0], price=bid,
                           steps=auction.steps + (step,))
        nxt = _next_after(auction.green, who, skip=None)
        return replace(auction, green=tuple(remaining), bid=bid, to_act=nxt,
                       steps=auction.steps + (step,))
    if move == "raise":
        bid = auction.bid + 1
        if hand is not None and hand < bid:
            raise RuleError(f"{who} holds {hand} development cards and cannot bid {bid}")
        step = AuctionStep(who, "raise", bid)
        nxt = _next_after(auction.green, who, skip=who)
        return replace(auction, bid=bid, leader=who, to_act=nxt, steps=auction.steps + (step,))
    step = AuctionStep(who, "bow out", auction.bid)
    if len(remaining) == 1:
        return replace(auction, green=tuple(remaining), to_act=None, buyer=remaining[0],
                       price=auction.bid, steps=auction.steps + (step,))
    nxt = _next_after(auction.green, who, skip=auction.leader)
    return replace(auction, green=tuple(remaining), to_act=nxt, steps=auction.steps + (step,))


def walk_auction(seating: Sequence[str], starting_player: str, green: Sequence[str],
                 moves: Sequence[str] = (), cards_under: int = 0,
                 hands: Mapping[str, int] | None = None) -> Auction:
    """Phase 1, Step 2: open the bidding on one planet and apply the companies' moves in turn;
    the result is finished, or says who is to act next."""
    auction = open_auction(seating, starting_player, green, cards_under)
    for move in moves:
        if auction.over:
            raise RuleError(f"the bidding ended before the move '{move}'")
        who = auction.to_act
        hand = hands.get(who) if hands and who is not None else None
        auction = respond(auction, move, hand)
    return auction
