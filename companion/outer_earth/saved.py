"""Outer Earth kept as a saved game: the set-up, the round, and every company's counts.

The log holds a ``setup`` event (the first state, from the set-up table) and one event per
thing that happened at the table: ``bid`` (Phase 1, one planet's auction), ``draw`` and
``build`` (Phase 2, Actions #1 and #2), ``sell`` (Action #3), ``upkeep`` (Phase 3, Upkeep
Order, every company at once) and ``round`` (Replenish Planet Market, Last Round of the Game?,
New Round Begins). Each event builder checks the request against the saved state and the
rules, and applies it to a copy, before anything is appended: a refused step saves nothing.
The event data holds what happened (who bought which planet for how many cards, what went to
profits), so the log reads as the game did and the fold only adds and subtracts.

Each event builder takes the typed State (:mod:`companion.outer_earth.state`); the saved
game keeps its JSON form, where every number a person may want to correct is at an obvious
path for ``irata play set``: ``players.Ann.hand``, ``players.Ann.dice.sell``,
``players.Ann.profits.cards``, ``galaxy_deck``, ``bonus_revenue_piles.1``, ``market.planets``.

Readings the rulebook leaves open (and the project's choice), beside those of
``companion.outer_earth.rules``:
- The development cards under a planet nobody wanted go into the buyer's hand.
- The card put under an unwanted planet comes from the development deck, not from a hand.
- The companion keeps the development deck uncounted (it is reshuffled from the discards).
- Only the first development card on a planet is checked (against the planet's start paths):
  the exit paths of the cards in play are on the table, not in the saved game.
- A round is ended by ``round`` after ``upkeep``; ending the last round ends the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion import session
from companion.outer_earth import fold as typed_fold
from companion.outer_earth.state import Company, Development, State, TurnSoFar, state_from_json
from companion.outer_earth.turns import ACTIONS, COLOURS, company_turn_refusal, turns_now
from components.errors import InputError, RuleError

if TYPE_CHECKING:
    from companion.outer_earth.rules import (
        Auction,
        BonusRevenue,
        CompanyDice,
        Planet,
        Profits,
        Rules,
    )

GAME = "outer-earth"


# --- finding things ------------------------------------------------------------------------------

def find_planet(name: str) -> tuple[str, Planet, bool]:
    """A printed planet card by its name or id: (id, planet, marked L)."""
    from companion.outer_earth.data import planet_cards
    from components.schema import suggest

    cards = planet_cards()
    key = name.strip().lower()
    for pid, planet in cards.items():
        if key in (pid.lower(), pid.split("/")[-1].lower(), planet.name.lower()):
            return pid, planet, planet.long
    names = [p.name for p in cards.values()]
    raise InputError(f"no planet '{name}'{suggest(name, names) or ' (see the planet cards)'}")


def company(state: Mapping[str, Any], name: str) -> dict[str, Any]:
    """A company of the saved game, by name; InputError for one not in the game."""
    from companion.suggest import did_you_mean

    players = state["players"]
    if name not in players:
        raise InputError(f"no company '{name}' in this game ({', '.join(players)})"
                         + did_you_mean(name, players))
    found: dict[str, Any] = players[name]
    return found


def _company(s: State, name: str) -> Company:
    """A company of the saved game, by name; InputError for one not in the game."""
    from companion.suggest import did_you_mean

    found = dict(s.players).get(name)
    if found is None:
        names = [n for n, _ in s.players]
        raise InputError(f"no company '{name}' in this game ({', '.join(names)})"
                         + did_you_mean(name, names))
    return found


def _amount(value: int | str, what: str) -> int:
    n = session.parse_amount(value, what)
    if n < 0:
        raise InputError(f"{what} cannot be negative ({n})")
    return n


def _playing(s: State, phase: str = "") -> None:
    """Refuse a step once the game is over, and a Phase 1 or 2 step after the round's upkeep."""
    if s.over:
        raise RuleError("the game is over: score it with 'irata play outer-earth score --save'")
    if phase and s.upkeep_done:
        raise RuleError(f"round {s.round} has had its upkeep: end it with 'round' "
                        f"before the next {phase}")


def company_values(s: State, name: str, rules: Rules
                   ) -> tuple[CompanyDice, Planet | None, dict[str, int]]:
    """Company Action Example: a saved company's dice, the most recent planet in its
    portfolio (the last one sold) and its draw, build and sell values."""
    from companion.outer_earth.rules import CompanyDice, action_values

    c = _company(s, name)
    dice = CompanyDice(*c.dice)
    latest = find_planet(c.portfolio[-1])[1] if c.portfolio else None
    return dice, latest, action_values(dice, latest, rules)


def values_of(s: State, name: str, rules: Rules) -> dict[str, int]:
    """Company Action Example: a saved company's draw, build and sell values."""
    return company_values(s, name, rules)[2]


def _held_by(s: State, planet: str) -> str | None:
    for name, c in s.players:
        held = [p.planet for p in c.in_development] + list(c.portfolio) \
            + list(c.profit_planets)
        if planet in held:
            return name
    return None


def _check(s: State) -> None:
    """Nothing the game counts goes below 0 (a step that would do so is refused)."""
    if s.galaxy_deck < 0 or s.market.planets < 0:
        raise RuleError("the galaxy deck and the planet market cannot hold fewer than 0 planets")
    if any(p < 0 for p in s.bonus_revenue_piles):
        raise RuleError("a bonus revenue pile cannot hold fewer than 0 cards")
    for name, c in s.players:
        if c.hand < 0:
            raise RuleError(f"{name} would hold fewer than 0 development cards")
        if c.profit_cards < 0:
            raise RuleError(f"{name}'s profits cannot hold fewer than 0 cards")


def _tried(s: State, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """Apply an event to the State (a value: never changed) and check the result; return the
    event data."""
    try:
        _check(typed_fold.apply(s, kind, data))
    except (TypeError, KeyError, ValueError, IndexError) as exc:
        raise InputError(f"the saved game holds something that is not a count ({exc}): "
                         "correct it with 'irata play set'") from None
    return data


# --- Game Setup Instructions ---------------------------------------------------------------------

def new_game(players: Sequence[str], length: str, rules: Rules,
             starting_player: str | None = None, seed: int | None = None) -> dict[str, Any]:
    """The ``setup`` event (Game Setup Instructions): the galaxy deck (the whole deck when the
    box holds fewer planets than the table asks for), the planet market dealt from it, the
    bonus revenue piles, each company's 4 cards and dice at 2 draw, 2 build and 1 sell, and the
    starting player (rolled for, with ``seed``, unless named)."""
    import random

    from companion.outer_earth.rules import setup as game_setup

    names = [p.strip() for p in players if p.strip()]
    if len(set(names)) != len(names):
        raise InputError("two companies have the same name")
    s = game_setup(len(names), length, rules)
    if seed is None:
        seed = random.SystemRandom().randrange(10**9)
    if starting_player is None:
        starting_player = random.Random(seed).choice(names)
    elif starting_player.strip() not in names:
        raise InputError(f"the starting player '{starting_player}' is not at the table "
                         f"({', '.join(names)})")
    deck = min(s.galaxy_deck, s.planets_in_box)
    market = min(s.planet_market, deck)
    per_pile = min(s.bonus_revenue_cards_per_pile,
                   s.bonus_revenue_in_box // max(1, s.bonus_revenue_piles))
    return {
        "length": length,
        "seed": seed,
        "setup": {"galaxy_deck": deck, "galaxy_deck_table": s.galaxy_deck,
                  "planet_market": s.planet_market, "bonus_revenue_piles": s.bonus_revenue_piles,
                  "bonus_revenue_cards_per_pile": per_pile,
                  "remove_long_cards": s.remove_long_cards},
        "seating": names,
        "starting_player": starting_player.strip(),
        "round": 1,
        "final_round": None,
        "upkeep_done": False,
        "over": False,
        "galaxy_deck": deck - market,
        "market": {"planets": market, "under": {}},
        "bonus_revenue_piles": [per_pile] * s.bonus_revenue_piles,
        "players": {n: {"dice": dict(s.starting_dice), "hand": s.starting_hand,
                        "in_development": [], "portfolio": [],
                        "profits": {"cards": 0, "planets": []},
                        "bonus_revenue": [], "bonus_revenue_cards": []} for n in names},
    }


# --- Phase 1: bidding ----------------------------------------------------------------------------

def bid_event(s: State, planet: str, green: Sequence[str],
              moves: Sequence[str] = ()) -> tuple[Auction, dict[str, Any] | None]:
    """Phase 1, Step 2, on the saved game: the seating, starting player, hands and the cards
    under the planet come from it. Returns the auction and, once it is over, the ``bid`` event
    (None while a company is still to act)."""
    from companion.outer_earth.rules import walk_auction

    _playing(s, "bid")
    pid, card, long = find_planet(planet)
    name = card.name
    if long and dict(s.setup).get("remove_long_cards"):
        raise RuleError(f"{name} is marked L: it is not in a short game")
    holder = _held_by(s, name)
    if holder is not None:
        raise RuleError(f"{name} already belongs to {holder}")
    if s.market.planets < 1:
        raise RuleError("the planet market is empty: end the round with 'round'")
    offered = dict(s.offered)
    if name in offered:
        raise RuleError(f"{name} was put up for sale in this round's Phase 1 already: each "
                        "planet of the market is offered once a round")
    if _left_for_sale(s) < 1:
        raise RuleError(f"every planet of the market has been put up for sale this round "
                        f"({', '.join(offered)}): Phase 1 is over")
    for g in green:
        _company(s, g)
    under = dict(s.market.under).get(name, 0)
    hands = {n: c.hand for n, c in s.players}
    auction = walk_auction(list(s.seating), s.starting_player, list(green), moves, under,
                           hands)
    if s.phase2:
        raise RuleError(f"round {s.round} is in Phase 2 (a company has drawn, built or "
                        "sold): planets are bought in Phase 1, before the companies' actions")
    if not auction.over:
        return auction, None
    data: dict[str, Any] = {
        "planet": name, "card": pid, "green": list(green),
        "moves": list(moves), "buyer": auction.buyer,
        "price": auction.price if auction.buyer else 0,
        "cards_taken": auction.cards_under if auction.buyer else 0,
        "under": auction.cards_under_after if auction.buyer is None else 0,
        "starting_player": auction.next_starting_player,
    }
    return auction, _tried(s, "bid", data)


# --- Phase 2: actions ----------------------------------------------------------------------------

ACTIONS_PER_TURN = 3
"""Company Actions: "each company takes 3 consecutive actions points during their turn", one
turn a round (Phase 2 ends once every company has completed its turn)."""


def _its_turn(s: State, player: str) -> None:
    """Refuse an action by a company of the game whose turn it is not (Company Actions:
    clockwise from the starting player, one turn each)."""
    _company(s, player)
    if not s.phase2 and _left_for_sale(s) > 0:
        raise RuleError(f"round {s.round} is in Phase 1, {_left_for_sale(s)} "
                        "planet(s) of the market not yet put up for sale: a company's turn of "
                        "actions comes in Phase 2, after the planet closest to the galaxy deck "
                        "has been put up for auction")
    if player in s.done:
        raise RuleError(f"{player}'s turn this round is over (its turn was ended with 'done'): "
                        "in Phase 2 each company takes its 3 actions in one turn")
    refusal = company_turn_refusal(list(s.seating), s.starting_player, list(s.acted), player)
    if refusal:
        raise RuleError(refusal)


def done_event(s: State, player: str) -> dict[str, Any]:
    """Company Actions: the company's turn is over (its 3 actions taken, or the rest let go),
    so the next company clockwise takes its turn; after the last, Phase 3."""
    _playing(s, "turn")
    _its_turn(s, player)
    return _tried(s, "done", {"round": s.round, "player": player})


def _within_turn(s: State, player: str, values: Mapping[str, int],
                 drawn: int = 0, built: int = 0, sold: int = 0) -> None:
    """A company's draws, builds and sales in a round fit its one turn of three actions.

    One action draws (builds, sells) as many development cards (planets) as the company's
    draw (build, sell) value, so the round's draws take at least drawn / draw value actions,
    rounded up, and so on; together at most three. A sale during the turn may change the
    values: the highest value the company had this round counts, so a legal turn is never
    refused (the companion does not know which actions the turn spent on what)."""
    t = dict(s.turn).get(player, TurnSoFar())
    done = {"draw": t.drawn + drawn, "build": t.built + built, "sell": t.sold + sold}
    had = {"draw": t.draw, "build": t.build, "sell": t.sell}
    best = {w: max(had[w], int(values[w]), 1) for w in done}
    need = {w: -(-n // best[w]) for w, n in done.items()}
    if sum(need.values()) > ACTIONS_PER_TURN:
        what = {"draw": "drawing {n} development cards", "build": "building {n}",
                "sell": "selling {n} planets"}
        parts = [f"{what[w].format(n=n)} (a {w} value of {best[w]}) takes {need[w]}"
                 for w, n in done.items() if n]
        raise RuleError(f"{player} has one turn of {ACTIONS_PER_TURN} actions a round: "
                        f"{'; '.join(parts)}: {sum(need.values())} actions")


def draw_event(s: State, player: str, cards: int | str | None, rules: Rules
               ) -> dict[str, Any]:
    """Action #1: draw development cards (by default, the company's draw value)."""
    _playing(s, "draw")
    _its_turn(s, player)
    values = values_of(s, player, rules)
    n = values["draw"] if cards is None else _amount(cards, "cards")
    if n == 0:
        raise InputError("a draw action draws at least 1 development card")
    _within_turn(s, player, values, drawn=n)
    return _tried(s, "draw", {"player": player, "cards": n, "value": values["draw"]})


def _colours(colours: Sequence[str]) -> list[str]:
    out = [c.strip().lower() for c in colours if c.strip()]
    for c in out:
        if c not in COLOURS:
            raise InputError(f"'{c}' is not a development colour (blue, yellow, red)")
    return out


def _in_development(s: State, player: str, planet: str) -> tuple[Development, str]:
    c = _company(s, player)
    name = find_planet(planet)[1].name
    for p in c.in_development:
        if p.planet == name:
            return p, name
    have = ", ".join(p.planet for p in c.in_development) or "none"
    raise RuleError(f"{name} is not in {player}'s construction area (it holds: {have})")


def build_event(s: State, player: str, planet: str, colours: Sequence[str], rules: Rules
                ) -> dict[str, Any]:
    """Action #2: build development cards from the hand on a planet in development; the first
    one must match one of the planet's start paths."""
    _playing(s, "build")
    _its_turn(s, player)
    built = _colours(colours)
    if not built:
        raise InputError("say which development cards are built: colours, such as blue,red")
    on, name = _in_development(s, player, planet)
    hand = _company(s, player).hand
    card = find_planet(name)[1]
    if not on.built and built[0] not in card.start_paths:
        raise RuleError(f"{name}'s start paths are {', '.join(card.start_paths)}: a {built[0]} "
                        "development cannot be built on it first")
    if len(built) > hand:
        raise RuleError(f"{player} holds {hand} development cards and cannot build "
                        f"{len(built)}")
    values = values_of(s, player, rules)
    _within_turn(s, player, values, built=len(built))
    return _tried(s, "build", {"player": player, "planet": name, "built": built,
                               "value": values["build"]})


def _infrastructure(s: State, player: str, planet: str, built: Sequence[str] | None
                    ) -> tuple[str, list[str], int]:
    """A sale's planet, its infrastructure (as saved, or as given: colours beyond the saved
    ones are built now from the hand) and how many are built now."""
    on, name = _in_development(s, player, planet)
    saved = list(on.built)
    infrastructure = saved
    if built is not None:
        infrastructure = _colours(built)
        if infrastructure[:len(saved)] != saved:
            raise RuleError(f"the saved game has {','.join(saved)} built on {name}, not "
                            f"{','.join(infrastructure)} (correct it with 'set' first)")
    built_now = len(infrastructure) - len(saved)
    hand = _company(s, player).hand
    if built_now > hand:
        raise RuleError(f"{player} holds {hand} development cards and cannot build "
                        f"{built_now} more on {name}")
    return name, infrastructure, built_now


def sell_event(s: State, player: str, planet: str, rules: Rules,
               built: Sequence[str] | None = None, bonus: str | None = None,
               pile: int | None = None, raises: Sequence[str] = ()) -> dict[str, Any]:
    """Action #3, Sell Planets, on the saved game: the planet's infrastructure (as saved, or as
    given: colours beyond the saved ones are built now from the hand), the Bonus Revenue card
    taken from a pile, the cards to profits, the planet to the portfolio and each dice
    increase icon raising the die named in ``raises``."""
    from companion.outer_earth.rules import CompanyDice, increase_die, sell_planet

    _playing(s, "sale")
    _its_turn(s, player)
    name, infrastructure, built_now = _infrastructure(s, player, planet, built)
    values = values_of(s, player, rules)
    card = find_planet(name)[1]
    br, bonus_data = _bonus_taken(s, bonus, pile) if bonus is not None else (None, None)
    sale = sell_planet(card, infrastructure, rules, br)
    raised = _raised(name, sale.dice_increase, raises)
    dice = CompanyDice(*_company(s, player).dice)
    for r in raised:
        dice = increase_die(dice, r, rules)
    data = {"player": player, "planet": name, "built": infrastructure, "built_now": built_now,
            "to_profits": sale.to_profits, "discarded": sale.discarded, "bonus": bonus_data,
            "raise": raised, "vp": sale.vp, "values": dict(values)}
    _within_turn(s, player, values, built=built_now, sold=1)
    return _tried(s, "sell", data)


def _bonus_taken(s: State, bonus: str, pile: int | None
                 ) -> tuple[BonusRevenue, dict[str, Any]]:
    """The Bonus Revenue card a sale takes, and from which pile: a card of the game (not
    marked L in a short game) that no company holds yet, from a pile that holds cards (the
    one pile left with cards when ``pile`` is not given)."""
    from companion.outer_earth.data import bonus_revenue_cards, long_bonus_ids
    from components.schema import suggest

    cards = bonus_revenue_cards()
    if bonus not in cards:
        raise InputError(f"no Bonus Revenue card '{bonus}'{suggest(bonus, list(cards))}")
    br = cards[bonus]
    if dict(s.setup).get("remove_long_cards") and bonus in long_bonus_ids():
        raise RuleError(f"{bonus} is marked L: it is not in a short game")
    for other, oc in s.players:
        if bonus in oc.bonus_revenue_cards:
            raise RuleError(f"{bonus} is already in {other}'s profits")
    piles = s.bonus_revenue_piles
    if pile is None:
        stocked = [k for k, n in enumerate(piles) if n > 0]
        if len(stocked) != 1:
            raise InputError(f"say which bonus revenue pile {bonus} is taken from: --pile 1 "
                             f"to {len(piles)}")
        index = stocked[0]
    else:
        if not 1 <= pile <= len(piles):
            raise InputError(f"there are {len(piles)} bonus revenue piles, not {pile}")
        index = pile - 1
    if piles[index] < 1:
        raise RuleError(f"bonus revenue pile {index + 1} is empty")
    return br, {"card": bonus, "vp": br.vp, "pile": index}


def _raised(name: str, icons: int, raises: Sequence[str]) -> list[str]:
    """The dice a sale raises: one named for each dice increase icon of the planet."""
    raised = [r.strip().lower() for r in raises if r.strip()]
    if len(raised) != icons:
        if icons:
            raise InputError(f"{name} has {icons} dice increase icon"
                             f"{'s' if icons != 1 else ''}: say which die goes "
                             "up with --raise draw|build|sell"
                             + (" (once for each)" if icons > 1 else ""))
        raise InputError(f"{name} has no dice increase icon: no die goes up")
    return raised


# --- Phase 3: upkeep and the round ---------------------------------------------------------------

def _left_for_sale(s: State) -> int:
    """Phase 1: how many planets of the market are still to be put up for sale this round."""
    unsold = sum(1 for _, bought in s.offered if not bought)
    return s.market.planets - unsold


def upkeep_too_soon(s: State) -> str | None:
    """Phase 3 comes after Phase 2, which comes after Phase 1: "Planets are put up for sale one
    after the other", and "After the planet closest to the galaxy deck has been put up for
    auction, proceed to Phase 2"; "Once every company has completed their turn, Phase 3:
    Upkeep begins". Why the upkeep cannot be done yet, or None when it can.

    Phase 2's turns go clockwise from the starting player, and a company's turn ends when the
    next one begins (or with ``done``): the upkeep may end the last company's turn, once that
    turn has begun, as the next company's action ends the one before."""
    rnd = s.round
    if not s.phase2 and _left_for_sale(s) > 0:
        offered = [name for name, _ in s.offered]
        return (f"round {rnd} is in Phase 1, {_left_for_sale(s)} planet(s) of the market "
                f"not yet put up for sale (offered: {', '.join(offered) or 'none'}): the "
                "upkeep comes once Phase 1 is over (planets are put up for sale one after the "
                "other, Phase 2 follows the last) and every company has taken its turn")
    current, then = turns_now(list(s.seating), s.starting_player, list(s.acted))
    if then is None:
        return None
    waiting = then if current is None or current in s.done else current
    return (f"round {rnd} is in Phase 2 and {then} has not taken its turn yet (it is "
            f"{waiting}'s turn): once every company has completed its turn, Phase 3: Upkeep "
            "begins")


def upkeep_event(s: State, rules: Rules, discards: Mapping[str, Sequence[str]] | None = None
                 ) -> dict[str, Any]:
    """Upkeep Order for every company: planet tax (2 development cards for each planet beyond
    the Sell value, or the planets named in ``discards`` into the profits pile), then the hand
    limit of 10."""
    from companion.outer_earth.rules import upkeep as upkeep_of

    _playing(s)
    if s.upkeep_done:
        raise RuleError(f"upkeep of round {s.round} is done: end the round with 'round'")
    discards = discards or {}
    for who in discards:
        _company(s, who)
    too_soon = upkeep_too_soon(s)
    if too_soon:
        raise RuleError(too_soon)
    out: dict[str, Any] = {}
    for name, c in s.players:
        planets = [_in_development(s, name, p)[1] for p in discards.get(name, ())]
        if len(set(planets)) != len(planets):
            raise InputError(f"{name} names a planet twice")
        sell_value = values_of(s, name, rules)["sell"]
        u = upkeep_of(c.hand, len(c.in_development), sell_value, rules, len(planets))
        out[name] = {"taxed_planets": u.taxed_planets, "cards_for_tax": u.cards_for_tax,
                     "planets_to_profits": planets, "hand_limit_discard": u.hand_limit_discard,
                     "hand_after": u.hand_after}
    return _tried(s, "upkeep", {"round": s.round, "companies": out})


def round_event(s: State, rules: Rules) -> dict[str, Any]:
    """End of the round: Replenish Planet Market (refilled to its slots, player count + 1, from
    the galaxy deck), then Last Round of the Game?; after the last round, the game is over."""
    from companion.outer_earth.rules import last_round

    _playing(s)
    if not s.upkeep_done:
        raise RuleError(f"round {s.round} has had no upkeep yet: run 'upkeep' first")
    if s.final_round == s.round:
        return _tried(s, "round", {"round": s.round, "refill": 0, "over": True,
                                   "last_round_next": False})
    slots = int(dict(s.setup)["planet_market"])
    refill = max(0, min(slots - s.market.planets, s.galaxy_deck))
    galaxy_after = s.galaxy_deck - refill
    nxt = s.final_round is None and last_round(galaxy_after, list(s.bonus_revenue_piles),
                                               rules)
    return _tried(s, "round", {"round": s.round, "refill": refill, "over": False,
                               "last_round_next": bool(nxt)})


def plays_last_round(state: Mapping[str, Any]) -> bool:
    """Last Round of the Game?: the round under way (the game not over) is the last one."""
    s = state_from_json(state)
    return s.final_round == s.round and not s.over


def last_round_of(state: Mapping[str, Any], rules: Rules) -> dict[str, Any]:
    """Last Round of the Game?, from the saved galaxy deck and bonus revenue piles."""
    from companion.outer_earth.rules import last_round

    piles = list(state["bonus_revenue_piles"])
    triggered = last_round(int(state["galaxy_deck"]), piles, rules)
    final = state.get("final_round")
    return {"round": state["round"], "galaxy_deck": state["galaxy_deck"], "piles": piles,
            "triggered": triggered, "final_round": final,
            "this_round_is_last": final == state["round"],
            "next_round_is_last": final is None and triggered and not state.get("over"),
            "over": bool(state.get("over"))}


# --- End Game Scoring ----------------------------------------------------------------------------

def profits_of(state: Mapping[str, Any]) -> list[Profits]:
    """Each saved company as End Game Scoring counts it."""
    from companion.outer_earth.rules import Profits

    return [Profits(name=name, profits=int(c["profits"]["cards"]),
                    bonus_revenue=tuple(int(v) for v in c["bonus_revenue"]),
                    portfolio=len(c["portfolio"]),
                    discarded_planets=len(c["profits"]["planets"]),
                    in_development=len(c["in_development"]))
            for name, c in state["players"].items()]


# --- the fold ------------------------------------------------------------------------------------
# On the typed State (companion.outer_earth.fold): one pure apply per kind of event.

def step(state: Mapping[str, Any], kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """The state after one event of ``kind`` with ``data`` (the fold's step: ``state`` is not
    changed)."""
    return typed_fold.step(state, kind, data)


def fold(events: list[session.Event]) -> dict[str, Any]:
    """The saved game's state: the fold of its log."""
    return typed_fold.fold(events)


def validate(state: dict[str, Any]) -> None:
    """What a corrected game may hold (``irata play set``): company dice showing a face of
    a six-sided die, counts of 0 or more (``_check``)."""
    from companion.outer_earth.data import load_rules

    faces = load_rules().die_faces
    _check(state_from_json(state))
    for name, c in state["players"].items():
        for die, value in c["dice"].items():
            if not 1 <= int(value) <= faces:
                raise RuleError(f"{name}'s {die} die shows 1 to {faces}, not {value}")
    if int(state["round"]) < 1:
        raise RuleError("rounds are counted from 1")
    _check_seating(state)
    for name, c in state["players"].items():  # what the actions look up by name
        planets = [p["planet"] for p in c["in_development"]] + list(c["portfolio"]) \
            + list(c["profits"]["planets"])
        for planet in planets:
            if not isinstance(planet, str):
                raise RuleError(f"{name} holds planets by their printed names, not {planet!r}")
            find_planet(planet)
        for p in c["in_development"]:
            if not isinstance(p["built"], list) or any(b not in COLOURS for b in p["built"]):
                raise RuleError(f"{name}'s {p['planet']} holds development colours "
                                f"({', '.join(COLOURS)}), not {p['built']!r}")
        if any(not isinstance(v, int) or isinstance(v, bool) for v in c["bonus_revenue"]):
            raise RuleError(f"{name}'s bonus revenue is whole numbers, not "
                            f"{c['bonus_revenue']!r}")


def _check_seating(state: dict[str, Any]) -> None:
    """The seating is the game's companies, each once, and the starting player one of them:
    Phase 2's turns go clockwise from it."""
    companies = list(state["players"])
    seating = state.get("seating", companies)
    if not isinstance(seating, list) or sorted(map(str, seating)) != sorted(companies):
        raise RuleError(f"the seating is the game's companies, each once ({', '.join(companies)}"
                        f"), not {seating!r}")
    start = state.get("starting_player")
    if start is not None and start not in companies:
        raise RuleError(f"the starting player is one of the companies ({', '.join(companies)}), "
                        f"not {start!r}")
    if any(name not in companies for name in (*state.get("turn", {}), *state.get("done", []))):
        raise RuleError(f"a turn is taken by the game's companies ({', '.join(companies)})")


def describe(state: dict[str, Any]) -> str:
    """What ``irata play status`` prints: the round, the decks, each company in a line."""
    if not state:
        return "Outer Earth (no set-up)"
    rnd = state.get("round", 1)
    if state.get("over"):
        where = "the game is over: score it with 'irata play outer-earth score --save'"
    else:
        where = f"round {rnd}" + (" (the last round)" if state.get("final_round") == rnd
                                  else "")
        where += ", upkeep done" if state.get("upkeep_done") else ""
    piles = ", ".join(str(p) for p in state.get("bonus_revenue_piles", []))
    market = state.get("market", {})
    under = ", ".join(f"{n} {k}" for n, k in market.get("under", {}).items())
    lines = [f"Outer Earth, {len(state.get('players', {}))} companies, "
             f"{state.get('length', 'normal')} game, {where}.",
             f"Starting player {state.get('starting_player')}. Galaxy deck "
             f"{state.get('galaxy_deck')} left, planet market {market.get('planets')} of "
             f"{state.get('setup', {}).get('planet_market')}"
             + (f" (cards under: {under})" if under else "")
             + f", bonus revenue piles {piles}."]
    for name, c in state.get("players", {}).items():
        d = c["dice"]
        dev = ", ".join(f"{p['planet']} ({len(p['built'])})" for p in c["in_development"])
        lines.append(
            f"  {name}: hand {c['hand']}, dice {d['draw']}/{d['build']}/{d['sell']}, "
            f"in development: {dev or 'none'}; portfolio: "
            f"{', '.join(c['portfolio']) or 'none'}; profits {c['profits']['cards']} cards"
            + (f", {len(c['profits']['planets'])} planets" if c["profits"]["planets"] else "")
            + (f", bonus revenue {'+'.join(str(v) for v in c['bonus_revenue'])}"
               if c["bonus_revenue"] else ""))
    return "\n".join(lines)


__all__ = ["ACTIONS", "bid_event", "build_event", "company", "describe", "draw_event",
           "company_values", "find_planet", "fold", "last_round_of", "new_game",
           "profits_of", "round_event", "sell_event", "step", "upkeep_event", "done_event",
           "values_of"]
