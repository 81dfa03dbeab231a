"""Mule Goes Crazy! kept as a saved game: every player's resource sheet, the Store, the Lands
and Mules in play, the turn, the Land Auction history and the favored player.

The log holds a ``setup`` event (Setup: 1000 Credits, 10 Energy and 5 Food a player; the
Store's 50 Energy and 50 Food; the last prices) and one event per step the table takes:
``favored`` (Favored Player), ``grant`` (Land Grant Phase), ``auction`` (Land Auctions),
``buy`` (Mules), ``move`` (Move Mules), ``population`` (Population and Facilities),
``produce`` (Consumption of Energy, Production), ``spoilage`` (Spoilage), ``upkeep``
(Population upkeep from the Store) and ``end-turn``. Each event carries its computed result
(the dice rolled, the price paid), so the fold (on the typed State:
``companion.mule_goes_crazy.fold``) only adds and subtracts: replaying a log never rolls a die
again. The rules are ``companion.mule_goes_crazy.rules``' pure functions; the numbers
the draft leaves out are in ``components/mule_goes_crazy/data.yaml``.

Each event builder takes the typed State (:mod:`companion.mule_goes_crazy.state`); the
saved game keeps its JSON form, so that ``irata play set`` can correct any number at an
obvious path: ``players.Ann.credits``, ``store.smithore``, ``prices.food``, ``opening_bid``,
``players.Ann.mules.0.land``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion import session
from companion.mule_goes_crazy import steps
from companion.mule_goes_crazy.state import Sheet, State, state_from_json
from components.errors import InputError, RuleError

if TYPE_CHECKING:
    from companion.mule_goes_crazy import rules as mgc

GAME = "mule-goes-crazy"
TITLE = "Mule Goes Crazy!"
SHEET = ("credits", "energy", "food", "smithore", "crystite")   # the player resource sheet
STORE = ("food", "energy", "smithore", "crystite")               # the Store's sheet
PRICES = ("smithore", "crystite", "food", "energy")              # its last prices


# --- set-up -----------------------------------------------------------------------------------

def new_setup(players: Sequence[str], data: Mapping[str, Any], limits: Mapping[str, int],
              seed: int, favored: str | None = None) -> dict[str, Any]:
    """The ``setup`` event of a new game (Setup): the sheets, the Store, the last prices."""
    names = [p.strip() for p in players if p.strip()]
    low, high = int(limits.get("min", 2)), int(limits.get("max", 5))
    if not low <= len(names) <= high:
        raise RuleError(f"{TITLE} is played by {low} to {high} players, not {len(names)}")
    if len(set(names)) != len(names):
        raise InputError("two players have the same name")
    if any("." in n for n in names):
        raise InputError("a player's name cannot hold a dot (it would break 'irata play set')")
    if favored is not None and favored not in names:
        raise InputError(f"--favored {favored} is not among the players ({', '.join(names)})")
    start = data["setup"]["player"]
    store = {r: int(data["setup"]["store"].get(r, 0)) for r in STORE}
    return {
        "seating": names,
        "players": {n: {**{r: int(start.get(r, 0)) for r in SHEET}, "lands": [], "mules": []}
                    for n in names},
        "store": store,
        "store_at_turn_start": dict(store),
        "prices": {r: int(v) for r, v in data["resource_auction"]["starting_prices"].items()},
        "turn": 1,
        "favored": favored,
        "opening_bid": int(data["land_auction"]["first_opening_bid"]),
        "auctions": [],
        "granted": [],
        "populations": [],
        "this_turn": _fresh_turn(),
        "seed": int(seed),
    }


def _fresh_turn() -> dict[str, Any]:
    return {"produced": [], "spoilage": False, "upkeep": False}


# --- checks shared by every step ----------------------------------------------------------------

def player(s: State, name: str) -> Sheet:
    """The sheet of the player ``name``; InputError naming the game's players otherwise."""
    if name not in dict(s.players):
        from companion.suggest import did_you_mean

        raise InputError(f"no player '{name}' in this game ({', '.join(s.seating)})"
                         + did_you_mean(name, s.seating))
    return s.sheet(name)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def card_key(game: Any, text: str, prefix: str) -> str:
    """A card named as a person types it (``sunny-flats``, ``Sunny Flats``, ``land/sunny-flats``;
    ``energy`` or ``Energy Mule``) -> its short key (``sunny-flats``, ``energy``)."""
    from companion.mule_goes_crazy import rules as mgc

    wanted = _slug(text.split("/", 1)[1] if text.startswith(prefix + "/") else text)
    for c in game.components:
        if c.id.startswith(prefix + "/"):
            short = str(c.id).split("/", 1)[1]
            if wanted in (short, _slug(str(c.fields.get("title", "")))):
                return short
    mgc.find_card(game, text, prefix)   # raises the calculators' "no land card" line
    raise InputError(f"no {prefix} card '{text}'")  # pragma: no cover


def copies(game: Any, prefix: str, key: str) -> int:
    """How many copies of the card ``prefix/key`` the printed deck holds."""
    return sum(int(c.count) for c in game.components if c.id == f"{prefix}/{key}")


def _in_play(s: State, prefix: str, key: str) -> int:
    if prefix == "land":
        return sum(sh.lands.count(key) for _, sh in s.players)
    if prefix == "mule":
        return sum(1 for _, sh in s.players for m in sh.mules if m.mule == key)
    if prefix == "population":
        return sum(1 for card, _ in s.populations if card == key)
    return sum(1 for _, facility in s.populations if facility == key)   # facility


def check_copies(s: State, prefix: str, key: str, printed: int | None) -> None:
    """A card comes into play only while a copy of it is left: the deck prints ``printed``
    (a Land, Mule, Population or Facility card laid in front of a player stays in play until
    the table removes it; correct the saved game with 'set' when a card is discarded)."""
    if printed is None:
        return
    held = _in_play(s, prefix, key)
    if held >= printed:
        what = "Population card assigned to" if prefix == "facility" else f"{prefix} card"
        raise RuleError(f"the deck has {printed} {_title(key)} {prefix} card"
                        f"{'s' if printed != 1 else ''} and {held} "
                        f"{'is' if held == 1 else 'are'} in play already"
                        if prefix != "facility" else
                        f"{_title(key)} has a {what} it already")


def mules_fit_their_lands(game: Any, lands: Sequence[str]) -> None:
    """A Land holds ``mules_per_land`` Mules (the project's reconstruction: one), and the deck
    prints a Land a few times: more Mules on one Land (named as typed, once for each Mule on
    it) than its copies hold is refused."""
    per_land = int(game.data.get("mules_per_land", 1))
    on: dict[str, int] = {}
    for name in lands:
        land = card_key(game, name.strip(), "land")
        on[land] = on.get(land, 0) + 1
    for land, n in on.items():
        printed = copies(game, "land", land)
        if n > per_land * printed:
            raise RuleError(f"{n} Mules on {_title(land)}: the deck prints {printed} of that "
                            f"Land and each holds {per_land} Mule")


def _auctions_open(s: State, what: str) -> None:
    """Land Auctions come before the Player Turns of a turn, and end with a Land nobody bids
    on."""
    t = s.this_turn
    if t.played or t.produced or t.spoilage or t.upkeep:
        raise RuleError(f"the Player Turns of turn {s.turn} have begun: {what} comes before "
                        "them")
    if t.auctions_over:
        raise RuleError(f"the Land Auctions of turn {s.turn} ended when a card that is not a "
                        "Land was turned over")
    unsold = next((a["land"] for a in s.auctions
                   if int(a["turn"]) == s.turn and a["winner"] is None), None)
    if unsold is not None:
        raise RuleError(f"the Land Auctions of turn {s.turn} ended when {_title(unsold)} got "
                        "no bid")


def opening_bid_of(state: Mapping[str, Any], rules: mgc.AuctionRules) -> tuple[int, str]:
    """Land Auctions, Bidding: the saved game's next opening bid, and why (in the rule's own
    numbers, from the last auction recorded)."""
    from companion.mule_goes_crazy import rules as mgc

    s = state_from_json(state)
    last = s.auctions[-1] if s.auctions else None
    before = mgc.Auction(int(last["opening"]), last["closing"]) if last else None
    return s.opening_bid, mgc.opening_bid_reason(before, rules)


# --- Favored Player ---------------------------------------------------------------------------

def favored_event(s: State, chosen: str | None = None) -> dict[str, Any]:
    """Favored Player: the fewest saved Credits; a tie goes clockwise from the last one.

    In the first turn the table chooses ("Be fair and choose the one with the least
    experience ..."): ``new --favored``, or ``chosen`` here; a choice saved stands. Without
    one, the fewest Credits (all equal: the first seat)."""
    from companion.mule_goes_crazy import rules as mgc

    credits = {n: s.sheet(n).credits for n in s.seating}
    if s.this_turn.favored:
        raise RuleError(f"the favored player of turn {s.turn} is {s.favored} already: once a "
                        "turn")
    if chosen is not None:
        player(s, chosen)
        if s.turn != 1:
            raise RuleError(f"Favored Player: from turn 2 on it is the player with the least "
                            f"Credits ({mgc.favored_player(credits, s.favored)}), not the "
                            "table's choice")
        if s.favored not in (None, chosen):
            raise RuleError(f"Favored Player: the table chose {s.favored} when the game began "
                            "('new --favored'); that choice stands")
        who = chosen
    elif s.turn == 1 and s.favored in credits:
        who = str(s.favored)
    else:
        who = mgc.favored_player(credits, s.favored)
    return {"turn": s.turn, "favored": who, "credits": credits[who]}


# --- Land Grant, Land Auctions ------------------------------------------------------------------

def grant_event(s: State, name: str, land: str | None, printed: int | None = None
                ) -> dict[str, Any]:
    """Land Grant Phase: before the first turn's auctions, each player may lay one Land
    (``land`` None: they lay none, holding none or keeping it)."""
    player(s, name)
    if s.turn != 1 or s.auctions:
        raise RuleError("the Land Grant comes before the first Land Auction of the game")
    _auctions_open(s, "the Land Grant")
    if name in s.granted:
        raise RuleError(f"{name} has laid down a Land Grant already")
    if land is not None:
        check_copies(s, "land", land, printed)
    return {"player": name, "land": land}


def not_a_land_event(s: State) -> dict[str, Any]:
    """Land Auctions: "Any non-Land card turned over in the Land Auction phase is placed in
    the Discard pile", and the Land Auctions are over for the turn."""
    _auctions_open(s, "a Land Auction")
    return {"turn": s.turn, "land": None, "card": "not-a-land", "opening": s.opening_bid,
            "closing": None, "winner": None, "next_opening": s.opening_bid}


def auction_event(s: State, land: str, winner: str | None, price: int | None,
                  rules: mgc.AuctionRules, printed: int | None = None) -> dict[str, Any]:
    """Land Auctions: the Land goes to the winner, who pays the Store the closing bid.

    The first bid must be at least the opening bid, which the saved auction history gives
    (``opening_bid`` in the state); a player cannot bid more Credits than they have. The
    event also carries the next auction's opening bid (Bidding)."""
    from companion.mule_goes_crazy import rules as mgc

    _auctions_open(s, "a Land Auction")
    check_copies(s, "land", land, printed)
    opening = s.opening_bid
    if winner is None:
        if price is not None:
            raise InputError("an unsold Land has no price: give --winner and --price, "
                             "or --unsold alone")
        closing = None
    else:
        sheet = player(s, winner)
        if price is None:
            raise InputError(f"say what {winner} paid: --price N")
        if price < 0:
            raise InputError(f"--price must be 0 or more, not {price}")
        closing = mgc.check_bid(opening, None, price)
        if price > sheet.credits:
            raise RuleError(f"{winner} has {sheet.credits} Credits and cannot bid {price}")
    nxt = mgc.opening_bid(mgc.Auction(opening, closing), rules)
    return {"turn": s.turn, "land": land, "opening": opening, "closing": closing,
            "winner": winner, "next_opening": nxt}


# --- Mules -----------------------------------------------------------------------------------

def buy_event(s: State, name: str, mule: mgc.MuleCard, key: str, printed: int | None = None
              ) -> dict[str, Any]:
    """Mules: the price (in brackets when the Store began the turn short), paid in Credits;
    the Store loses the Smithore (and Crystite) in the cost, down to 0 at least. In the
    player's own turn (Player Turns)."""
    from companion.mule_goes_crazy import rules as mgc

    sheet = player(s, name)
    steps.player_turn(s, name, "buying a Mule")
    check_copies(s, "mule", key, printed)
    bought = mgc.buy_mule(mule, sheet.credits, dict(s.store_at_turn_start), dict(s.store))
    taken = {r: s.stock(r) - bought.store_after[r] for r in STORE if r in bought.store_after}
    return {"turn": s.turn, "player": name, "mule": key, "price": bought.price,
            "store_loses": {r: n for r, n in taken.items() if n}}


def move_event(s: State, name: str, mule_key: str, mule: mgc.MuleCard, land: str,
               from_land: str | None, per_land: int) -> dict[str, Any]:
    """Move Mules: pay the Mule's Move Cost and place it below one of the player's Lands.

    The Mule moved is the player's first of that kind off a Land, or (``from_land``) the one
    on that Land. A Land holds ``per_land`` Mules at most (the project's reconstruction). In
    the player's own turn; not while Lost Paperwork holds them."""
    sheet = player(s, name)
    steps.player_turn(s, name, "moving a Mule")
    if name in s.blocked:
        raise RuleError(f"{name} may not move any Mule in this Move Mules step (Lost "
                        "Paperwork was played on them)")
    if land not in sheet.lands:
        raise RuleError(f"{name} holds no {_title(land)} Land")
    index = next((i for i, m in enumerate(sheet.mules)
                  if m.mule == mule_key and m.land == from_land), None)
    if index is None:
        where = f"on {_title(from_land)}" if from_land else "off a Land"
        raise RuleError(f"{name} has no {mule.name} {where}")
    if from_land == land:
        raise RuleError(f"that {mule.name} is on {_title(land)} already")
    tending = sum(1 for m in sheet.mules if m.land == land)
    if tending >= per_land * sheet.lands.count(land):
        raise RuleError(f"{name}'s {_title(land)} is tended by a Mule already")
    for r, n in mule.move_cost.items():
        held = sheet.amount(r) if r in SHEET else 0
        if held < n:
            raise RuleError(f"moving the {mule.name} costs {n} {r.capitalize()}; {name} has "
                            f"{held}")
    return {"turn": s.turn, "player": name, "index": index, "mule": mule_key,
            "land": land, "cost": dict(mule.move_cost)}


# --- Population -----------------------------------------------------------------------------

def population_event(s: State, card: str, facility: str | None, name: str | None,
                     printed: int | None = None, facility_printed: int | None = None
                     ) -> dict[str, Any]:
    """Population and Facilities: a Population card comes into play (assigned to a Facility
    when one is named); the Store pays its upkeep from now on."""
    if name is not None:
        player(s, name)
        steps.player_turn(s, name, "a Population card")
        if name in s.this_turn.events:
            raise RuleError(f"{name} has played an Event card this turn already (a Population "
                            "card is one): one Event card a player a turn")
    check_copies(s, "population", card, printed)
    if facility is not None:
        check_copies(s, "facility", facility, facility_printed)
        if not any(f.built for f in s.facilities if f.card == facility):
            raise RuleError(f"{_title(facility)} is not built: play it with 'facility NAME "
                            f"{facility}' and pay its Build cost at each upkeep for the turns "
                            "it shows; then a Population card is assigned to it")
    return {"turn": s.turn, "card": card, "facility": facility, "player": name}


# --- Production Phase -------------------------------------------------------------------------

def _bonus(game: Any, upgrade: str | None, resource: str) -> int:
    from companion.mule_goes_crazy import rules as mgc

    if not upgrade:
        return 0
    return int(mgc.find_card(game, upgrade, "upgrade").fields.get("bonus", {}).get(resource, 0))


def working_mules(game: Any, sheet: Sheet, dice_now: Mapping[str, int] | None = None
                  ) -> list[tuple[mgc.WorkingMule, str | None]]:
    """The Mules tending a Land, in the order of the sheet, with their Land's dice, "including
    any bonuses or upgrades" (Production): a Land Upgrade's and a Mule Upgrade's extra dice,
    and this turn's Events' (``dice_now``). A Photosynthesis Mule also produces Food with its
    Land's Energy dice: that output follows it, as (WorkingMule, the Mule it belongs to)."""
    from companion.mule_goes_crazy import rules as mgc

    out: list[tuple[mgc.WorkingMule, str | None]] = []
    seen: dict[str, int] = {}
    lands, ups = sheet.lands, sheet.land_upgrades
    for m in sheet.mules:
        if not m.land:
            continue
        k = seen.get(m.land, 0)
        seen[m.land] = k + 1
        at = [i for i, x in enumerate(lands) if x == m.land]
        land_up = ups[at[k]] if k < len(at) and at[k] < len(ups) else None
        card = mgc.mule_card(game, m.mule)
        dice = mgc.land_dice(game, m.land)
        r = card.produces
        n = dice.get(r, 0) + _bonus(game, land_up, r) + _bonus(game, m.upgrade, r) \
            + int((dice_now or {}).get(r, 0))
        name = f"{card.name} on {_title(m.land)}"
        out.append((mgc.WorkingMule(name, card.energy_use, r, max(0, n)), None))
        also = mgc.find_card(game, m.upgrade, "upgrade").fields.get("also") \
            if m.upgrade else None
        if also:
            extra = dice.get(also["dice_of"], 0) + _bonus(game, land_up, also["dice_of"])
            out.append((mgc.WorkingMule(f"{name} ({_title(m.upgrade)})", 0,
                                        also["produces"], extra), name))
    return out


def powered(energy: int, mules: Sequence[tuple[mgc.WorkingMule, str | None]]
            ) -> mgc.EnergyResult:
    """Consumption of Energy over the Mules and what their Upgrades add: an Upgrade's output
    is under-powered with its Mule."""
    from companion.mule_goes_crazy import rules as mgc

    result = mgc.consume_energy(energy, [m for m, of in mules if of is None])
    under = {m.name for m in result.underpowered}
    on = [m for m, of in mules if of is None and m.name not in under or of is not None
          and of not in under]
    off = [m for m, of in mules if (of is None and m.name in under)
           or (of is not None and of in under)]
    return mgc.EnergyResult(tuple(on), tuple(off), result.energy_used, result.energy_after)


def roller(s: State, name: str) -> Callable[[], int]:
    """The saved game's dice for ``name`` this turn: the same seed, turn and player always
    roll the same, whatever was rolled (or undone) before."""
    import random  # only a roll needs it: next and the fold never roll

    rng = random.Random(f"mule-goes-crazy:{s.seed}:{s.turn}:{name}")
    return lambda: rng.randint(1, 6)


def produce_event(s: State, game: Any, name: str | None = None,
                  results: Sequence[int] | None = None) -> dict[str, Any]:
    """Consumption of Energy and Production, from the saved sheets: for one player (typed dice
    or the game's seed) or for every player who has not produced this turn (the seed)."""
    from companion.mule_goes_crazy import rules as mgc

    done = s.this_turn.produced
    if name is not None:
        player(s, name)
        if name in done:
            raise RuleError(f"{name} has produced this turn already")
        names = [name]
    else:
        if results is not None:
            raise InputError("typed dice are one player's: give --player NAME with --rolls")
        names = _to_produce(s)
        if not names:
            raise RuleError("every player has produced this turn; 'end-turn' starts the next")
    out: dict[str, Any] = {}
    for n in names:
        sheet = s.sheet(n)
        energy = powered(sheet.energy, working_mules(game, sheet, dict(s.this_turn.dice)))
        made = mgc.production(energy.powered, energy.underpowered,
                              None if results is not None else roller(s, n), results)
        out[n] = {"energy_used": energy.energy_used,
                  "underpowered": [m.name for m in energy.underpowered],
                  "plots": [{"mule": p.mule.name, "resource": p.mule.resource,
                             "rolls": list(p.rolls), "underpowered": p.underpowered,
                             "total": p.total} for p in made.plots],
                  "produced": {r: v for r, v in made.totals.items()}}
    return {"turn": s.turn, "players": out}


def spoilage_event(s: State, rules: mgc.SpoilageRules) -> dict[str, Any]:
    """Spoilage, on every player's saved sheet, once a turn."""
    from companion.mule_goes_crazy import rules as mgc

    if s.this_turn.spoilage:
        raise RuleError(f"spoilage has been counted in turn {s.turn} already")
    waiting = _to_produce(s)
    if waiting:
        raise RuleError(f"Spoilage follows Production: {', '.join(waiting)} "
                        f"{'has' if len(waiting) == 1 else 'have'} not produced in turn "
                        f"{s.turn} yet ('produce --save')")
    out = {}
    for n in s.seating:
        sheet = s.sheet(n)
        r = mgc.spoilage(sheet.food, sheet.energy, rules)
        out[n] = {"food_lost": r.food_lost, "energy_lost": r.energy_lost}
    return {"turn": s.turn, "players": out}


def upkeep_event(s: State, cards: Sequence[mgc.PopulationCard],
                 builds: tuple[list[dict[str, Any]], list[str]] = ([], [])) -> dict[str, Any]:
    """Population upkeep from the saved Store, once a turn, oldest card first; the cards the
    Store cannot keep leave play (with their Facilities). With it, the Build costs of the
    Facilities being built (``steps.build_payments``)."""
    from companion.mule_goes_crazy import rules as mgc

    if s.this_turn.upkeep:
        raise RuleError(f"the upkeep of turn {s.turn} has been paid already")
    r = mgc.population_upkeep(dict(s.store), cards)
    gone: list[int] = []
    k = 0
    for i, c in enumerate(cards):     # the kept cards come back in the order they were paid
        if k < len(r.kept) and r.kept[k] is c:
            k += 1
        else:
            gone.append(i)
    change = {k: r.store[k] - s.stock(k) for k in STORE}
    lost = [s.populations[i][1] for i in gone]
    return {"turn": s.turn, "store_change": {k: v for k, v in change.items() if v},
            "discarded": gone, "facilities_discarded": list(r.facilities_discarded),
            "population": r.population, "builds": builds[0],
            "facilities_ruined": [*builds[1], *(f for f in lost if f)]}


def _to_produce(s: State) -> list[str]:
    return [n for n in s.seating if n not in s.this_turn.produced]


def end_turn_event(s: State, data: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The turn is over: the next begins, and the Store's stock now is what Mule prices of the
    next turn look at (Mules: a shortage raises the price from the next turn on).

    The Production Phase comes first: every player produces, then spoilage, and the upkeep of
    the Population cards in play (a turn ended without them would carry wrong numbers)."""
    missing = []
    waiting = _to_produce(s)
    if waiting:
        missing.append(f"production ({', '.join(waiting)})")
    if not s.this_turn.spoilage:
        missing.append("spoilage")
    if steps.needs_upkeep(s) and not s.this_turn.upkeep:
        missing.append("population upkeep")
    if s.over:
        raise RuleError("the game is over: 'irata play status' shows the final score")
    if missing:
        raise RuleError(f"turn {s.turn} has not had its {', '.join(missing)} yet: "
                        "the Production Phase ends the turn")
    out: dict[str, Any] = {"turn": s.turn, "store": {r: s.stock(r) for r in STORE}}
    end = (data or {}).get("game_end")
    if end and s.reshuffles >= int(end["draw_pile_exhausted"]):
        out["over"] = True
        out["score"] = score_of(s, end)
    return out


def score_of(s: State, end: Mapping[str, Any]) -> dict[str, Any]:
    """The final score of the saved game (``economy.final_score``): the Population cards in
    play give the colony's people."""
    from companion.mule_goes_crazy import rules as mgc
    from companion.mule_goes_crazy.data import game
    from companion.mule_goes_crazy.economy import final_score

    g = game()
    people = sum(int(mgc.find_card(g, card, "population").fields["people"])
                 for card, _ in s.populations)
    sheets = {n: sh._asdict() for n, sh in s.players}
    score = final_score(sheets, dict(s.prices), people, end)
    return {"worth": score.worth, "parts": score.parts, "people": score.people,
            "winners": list(score.winners), "failed": score.failed}


# --- the fold ---------------------------------------------------------------------------------

def fold(events: list[session.Event]) -> dict[str, Any]:
    """The saved game's state: the fold of its log, on the typed State
    (``companion.mule_goes_crazy.fold``)."""
    from companion.mule_goes_crazy import fold as typed_fold

    return typed_fold.fold(events)


# --- what `irata play set` may save ---------------------------------------------------------------

def _keys(game: Any, prefix: str) -> set[str]:
    return {c.id.split("/", 1)[1] for c in game.components if c.id.startswith(prefix + "/")}


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def validate(state: dict[str, Any]) -> None:
    """What a corrected game may hold (``irata play set``), so that every later step reads
    it: the seating is the players, each once; every name a step looks up (favored, granted,
    produced, an auction's winner) is a player; every Land, Mule, Population and Facility is
    a card of the printed deck; a Mule stands on one of its owner's Lands or on none; every
    count on a sheet, in the Store and on the price list is a whole number, 0 or more."""
    from companion.mule_goes_crazy.data import game as definitions

    players = state["players"]
    names = list(players)
    if sorted(map(str, state["seating"])) != sorted(names) or \
            len(set(state["seating"])) != len(state["seating"]):
        raise RuleError(f"the seating holds each player once ({', '.join(names)})")

    def a_player(value: Any, what: str, none: bool = True) -> None:
        if not ((none and value is None) or value in players):
            raise RuleError(f"{what} is a player ({', '.join(names)}), not {value!r}")

    a_player(state["favored"], "the favored player")
    for n in (*state["granted"], *state["this_turn"]["produced"]):
        a_player(n, "a player who laid a Land Grant or produced", none=False)
    for flag in ("spoilage", "upkeep", "played"):
        if not isinstance(state["this_turn"].get(flag, False), bool):
            raise RuleError(f"this turn's '{flag}' is true or false")
    for what, value in (("the turn", state["turn"]), ("the opening bid", state["opening_bid"])):
        if not _count(value) or (what == "the turn" and value < 1):
            raise RuleError(f"{what} is a whole number (turns from 1), not {value!r}")
    for group, keys in (("store", STORE), ("store_at_turn_start", STORE), ("prices", PRICES)):
        for k in keys:
            if not _count(state[group][k]):
                raise RuleError(f"{group}.{k} is a whole number, 0 or more, not "
                                f"{state[group][k]!r}")
    g = definitions()
    lands, mules = _keys(g, "land"), _keys(g, "mule")
    for n, sheet in players.items():
        for k in SHEET:
            if not _count(sheet[k]):
                raise RuleError(f"{n}'s {k} is a whole number, 0 or more, not {sheet[k]!r}")
        for land in sheet["lands"]:
            if land not in lands:
                raise RuleError(f"{n}'s Land {land!r} is no Land card of the deck")
        for m in sheet["mules"]:
            if not isinstance(m, dict) or m.get("mule") not in mules:
                raise RuleError(f"{n}'s Mule {m!r} is no Mule card of the deck "
                                f"({', '.join(sorted(mules))})")
            if m.get("land") is not None and m["land"] not in sheet["lands"]:
                raise RuleError(f"{n}'s {_mule_title(m['mule'])} stands on "
                                f"{_title(str(m['land']))}, which is not {n}'s Land")
    for a in state["auctions"]:
        if a["land"] not in lands or not _count(a["turn"]) or not _count(a["opening"]) \
                or not (a["closing"] is None or _count(a["closing"])):
            raise RuleError(f"an auction holds a Land card of the deck and its bids, not {a!r}")
        a_player(a["winner"], "an auction's winner")
    pops, facilities = _keys(g, "population"), _keys(g, "facility")
    for pop in state["populations"]:
        if pop["card"] not in pops or not (pop.get("facility") is None
                                           or pop["facility"] in facilities):
            raise RuleError(f"a Population card in play is one of the deck's, with a Facility "
                            f"of the deck or none, not {pop!r}")
    _validate_economy(state, g, a_player)


def _validate_economy(state: dict[str, Any], g: Any, a_player: Callable[..., None]) -> None:
    """The economy's keys: Upgrades of the deck on Lands and Mules, Facilities of the deck
    owned by players, names of players where a player is named, counts that are counts."""
    ups = _keys(g, "upgrade")
    for n, sheet in state["players"].items():
        for u in (*sheet.get("land_upgrades", []), *(m.get("upgrade") for m in sheet["mules"])):
            if u is not None and u not in ups:
                raise RuleError(f"{n}'s Upgrade {u!r} is no Upgrade card of the deck "
                                f"({', '.join(sorted(ups))})")
    for f in state.get("facilities", []):
        if not isinstance(f, dict) or f.get("card") not in _keys(g, "facility") \
                or not _count(f.get("paid")) or not isinstance(f.get("built"), bool):
            raise RuleError(f"a Facility being built is a Facility card of the deck, its turns "
                            f"paid and whether it is built, not {f!r}")
        a_player(f["owner"], "a Facility's owner", none=False)
    t = state["this_turn"]
    for n in (*state.get("blocked", []), *t.get("acted", []), *t.get("done", []),
              *t.get("events", [])):
        a_player(n, "a player named in the turn", none=False)
    if not _count(state.get("reshuffles", 0)):
        raise RuleError(f"the Draw pile's run-outs are a count, not {state['reshuffles']!r}")
    if any(r not in PRICES for r in t.get("traded", [])) or any(
            r not in PRICES or isinstance(v, bool) or not isinstance(v, int)
            for r, v in dict(t.get("dice", {})).items()):
        raise RuleError("this turn's Resource Auctions and dice name resources "
                        f"({', '.join(PRICES)})")


# --- what `irata play status` prints --------------------------------------------------------------

def _title(key: str | None) -> str:
    return (key or "").replace("-", " ").title()


def _mule_title(key: str) -> str:
    return f"{_title(key)} Mule"


def _goods(values: Mapping[str, Any], keys: Sequence[str]) -> str:
    return ", ".join(f"{values.get(k, 0)} {k.capitalize()}" for k in keys)


def describe(state: dict[str, Any]) -> str:
    turn = state.get("turn", 1)
    head = f"{TITLE}, turn {turn}. Favored player: {state.get('favored') or 'not chosen yet'}. " \
           f"Next Land Auction opens at {state.get('opening_bid')} Credits."
    lines = [head]
    for n in state.get("seating", []):
        p = state["players"].get(n, {})
        lines.append(f"  {n}: {_goods(p, SHEET)}")
        lands = ", ".join(_title(x) for x in p.get("lands", [])) or "none"
        mules = ", ".join(_mule_title(m["mule"]) + (f" on {_title(m['land'])}"
                                                    if m.get("land") else " (no Land)")
                          for m in p.get("mules", [])) or "none"
        lines.append(f"      Lands: {lands}. Mules: {mules}.")
    lines.append(f"  Store: {_goods(state.get('store', {}), STORE)}; "
                 f"last prices: {_goods(state.get('prices', {}), PRICES)}")
    pops = state.get("populations", [])
    if pops:
        lines.append("  Population cards in play: " + ", ".join(
            _title(p["card"]) + (f" + {_title(p['facility'])}" if p.get("facility") else "")
            for p in pops))
    lines += _economy(state)
    t = state.get("this_turn", {})
    todo = [n for n in state.get("seating", []) if n not in t.get("produced", [])]
    lines.append("  This turn: " + "; ".join([
        "produced: " + (", ".join(t.get("produced", [])) or "nobody yet")
        + (f" (to produce: {', '.join(todo)})" if todo else ""),
        "spoilage " + ("done" if t.get("spoilage") else "to do"),
        "upkeep " + ("paid" if t.get("upkeep") else "to pay")]))
    return "\n".join(lines)


def _economy(state: dict[str, Any]) -> list[str]:
    """What the economy adds to ``status``: Upgrades, Facilities, the Draw pile, the end, and
    the rules this copy chose where the draft stops."""
    lines = []
    for n in state.get("seating", []):
        p = state["players"].get(n, {})
        ups = [f"{_title(u)} on {_title(land)}" for land, u in
               zip(p.get("lands", []), p.get("land_upgrades", []), strict=False) if u]
        ups += [f"{_title(m['upgrade'])} on the Mule on {_title(m.get('land'))}"
                for m in p.get("mules", []) if m.get("upgrade")]
        if ups:
            lines.append(f"  {n}'s Upgrades: {', '.join(ups)}.")
    for f in state.get("facilities", []):
        lines.append(f"  Facility {_title(f['card'])} ({f['owner']}): "
                     + ("built" if f["built"] else f"{f['paid']} turn(s) of its Build cost paid"))
    if state.get("blocked"):
        lines.append(f"  Lost Paperwork: {', '.join(state['blocked'])} may not move Mules.")
    lines.append(f"  The Draw pile has run out {state.get('reshuffles', 0)} time(s).")
    score = state.get("score")
    if state.get("over") and score:
        lines.append("  The game is over: " + ", ".join(
            f"{n} {w}" for n, w in score["worth"].items()) + (
            "; the colony failed, nobody wins" if score["failed"]
            else f"; winner {', '.join(score['winners'])}"))
    from companion.mule_goes_crazy.data import game

    lines.append("  This copy's rules where the draft stops (starred on the rules sheet):")
    lines += [f"    * {d}" for d in game().data.get("decisions", [])]
    return lines
