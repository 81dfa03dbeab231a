"""``irata play mule-goes-crazy``: the card game's arithmetic at the table.

A thin shell over ``companion.mule_goes_crazy``: the favored player, the Land Auction's opening
bid, a Mule's price, the Production Phase (energy, under-powered Mules, production dice),
spoilage, and the Population upkeep the Store pays. Card numbers are read from the same card
definitions the deck is printed from. Every command takes ``--json``.

Saved games: ``new`` starts one (every player's resource sheet, the Store, the Lands and Mules,
the turn, the Land Auction history, the favored player). The calculators take ``--save`` (the
game played last) or ``--game ID``: they then read their inputs from the saved game and record
their result in it as one event. ``grant``, ``auction``, ``buy``, ``move``, ``population`` and
``end-turn`` record the table's other steps. Each recording is a move of the game's declaration
(``companion.mule_goes_crazy.game``) played by ``companion.play.play``: the checks are the
companion's, this module only reads the options and prints. ``irata play status | log | undo |
export | set`` work for these games as for every other.
"""

from __future__ import annotations

from typing import Any

import click

from companion.mule_goes_crazy import rules as mgc
from companion.mule_goes_crazy import saved as saved_game
from companion.mule_goes_crazy.game import amount
from companion.names import check_names
from components.errors import InputError, RuleError
from irata.options import (
    DB,
    GAME,
    JSON,
    NAME,
    SAVE,
    SEED,
    create,
    emit,
    need,
    next_command,
    open_store,
    pick,
    read,
    using_saved,
)


def _game() -> Any:
    from companion.mule_goes_crazy.data import game

    return game()


@click.group("mule-goes-crazy")
def mule_goes_crazy() -> None:
    """Mule Goes Crazy!: auctions, Mule prices, production dice, spoilage, upkeep, saved games."""


# --- saved games: the shared plumbing of irata.options, for this game ---------------------------

def _read(db: str | None, game_id: int | None) -> tuple[Any, dict[str, Any]]:
    return read(db, game_id, saved_game.GAME)


def _record(db: str | None, game_id: int | None, kind: str, who: str | None = None,
            given: dict[str, str | None] | None = None
            ) -> tuple[Any, dict[str, Any], dict[str, Any], Any]:
    """One step played into the saved game through its declaration (the rules, the event and
    the state after it are the companion's): the game, the event's data, the state after it,
    and what the step's rule function gave (``Outcome.detail``)."""
    from companion.mule_goes_crazy.game import GAME as DECLARED
    from companion.play import Move, play

    typed = {k: v for k, v in (given or {}).items() if v is not None}
    with open_store(db) as store:
        saved = pick(store, game_id, saved_game.GAME)
        played, state, _ = play(store, saved, DECLARED, [Move.of(kind, who, typed)])
    done = played[-1]
    return saved, done.event.data, state, done.detail


def _sheet_line(name: str, sheet: dict[str, Any]) -> str:
    return f"{name}: " + ", ".join(f"{sheet[r]} {r.capitalize()}" for r in saved_game.SHEET)


@mule_goes_crazy.command(short_help="Start a saved game.")
@click.option("--players", "players_text", required=True,
              help="The players in seating order (clockwise): Ann,Bob,Cid.")
@click.option("--favored", help="The first turn's favored player, as the table agrees.")
@click.option("--seed", type=SEED, help="Makes the saved game's production dice repeatable.")
@NAME
@DB
@JSON
def new(players_text: str, favored: str | None, seed: int | None, game_name: str | None,
        db: str | None, as_json: bool) -> None:
    """Start a saved game: resource sheets, the Store, Lands, Mules, auctions, the turn.

    Every player starts with the Setup's 1000 Credits, 10 Energy and 5 Food; the Store with 50
    Energy and 50 Food; the last prices are the Resource Auctions' starting prices.
    """
    g = _game()
    if seed is None:
        import random

        seed = random.SystemRandom().randrange(10**9)
    names = check_names(players_text.split(","))
    setup = saved_game.new_setup(names, g.data, g.players, seed, favored)
    game, _ = create(db, saved_game.GAME, setup, game_name)
    emit(as_json, {"id": game.id, "name": game.name, "state": setup},
         [f"Saved game {game.id} ({game.name}), seed {seed}", saved_game.describe(setup)])


@mule_goes_crazy.command()
@click.option("--credits", "credits_text",
              help="Each player's Credits in seating order: Ann=800,Bob=1000,Cy=650.")
@click.option("--previous", help="Last turn's favored player (breaks ties).")
@SAVE
@GAME
@DB
@JSON
def favored(credits_text: str | None, previous: str | None, save: bool, game_id: int | None,
            db: str | None, as_json: bool) -> None:
    """The favored player: the fewest Credits.

    With --save (or --game ID) the Credits are the saved sheets', ties go clockwise from the
    saved favored player, and the choice is recorded for this turn. In the first turn the
    table's own choice (new --favored) stands.
    """
    if using_saved(save, game_id, {"--credits": credits_text, "--previous": previous}):
        game, data, _, _ = _record(db, game_id, "favored")
        emit(as_json, {"game": game.id, "favored": data["favored"], "credits": data["credits"]},
             [f"Favored player: {data['favored']} ({data['credits']} Credits)",
              f"Turns start on {data['favored']}'s left. Saved in game {game.id}."])
        return
    credits: dict[str, int] = {}
    for part in need(credits_text, "--credits").split(","):
        if "=" not in part:
            raise InputError(f"--credits takes NAME=CREDITS pairs, not '{part.strip()}'")
        name, value = (s.strip() for s in part.split("=", 1))
        if not name or name in credits:
            raise InputError(f"--credits: '{name}' is empty or named twice")
        credits[name] = amount(value, f"{name}'s Credits")
    if previous is not None and previous not in credits:
        raise InputError(f"--previous {previous} is not among the players "
                         f"({', '.join(credits)})")
    who = mgc.favored_player(credits, previous)
    emit(as_json, {"favored": who, "credits": credits[who]},
         [f"Favored player: {who} ({credits[who]} Credits)",
          f"Turns start on {who}'s left."])


@mule_goes_crazy.command("opening-bid")
@click.option("--last-opening", help="The previous Land Auction's opening bid.")
@click.option("--last-closing", help="The previous Land Auction's closing bid (it sold).")
@click.option("--unsold", is_flag=True, help="The previous Land Auction had no bid.")
@SAVE
@GAME
@DB
@JSON
def opening_bid_cmd(last_opening: str | None, last_closing: str | None, unsold: bool,
                    save: bool, game_id: int | None, db: str | None, as_json: bool) -> None:
    """The Land Auction's opening bid, from the one before (the rule's numbers are the game's data).

    With --save (or --game ID) it follows from the saved auction history (the last auction
    recorded with 'auction'); this only reads the game: 'auction' records the auction.
    """
    rules = mgc.auction_rules(_game().data)
    if using_saved(save, game_id, {"--last-opening": last_opening, "--last-closing": last_closing,
                              "--unsold": unsold}):
        game, state = _read(db, game_id)
        bid = int(state["opening_bid"])
        last = state["auctions"][-1] if state["auctions"] else None
        before = mgc.Auction(int(last["opening"]), last["closing"]) if last else None
        why = mgc.opening_bid_reason(before, rules)
        emit(as_json, {"game": game.id, "opening_bid": bid,
                       "auctions": len(state["auctions"])},
             [f"Opening bid: {bid} Credits ({why})"])
        return
    previous: mgc.Auction | None = None
    if last_closing is not None and unsold:
        raise InputError("--last-closing and --unsold contradict each other")
    if last_closing is not None or unsold or last_opening is not None:
        if last_opening is None and unsold:
            raise InputError("--unsold needs --last-opening (the opening bid nobody took)")
        if last_closing is None and not unsold:
            raise InputError("say how the last auction ended: --last-closing N or --unsold")
        opening = amount(last_opening, "--last-opening") if last_opening else 0
        closing = amount(last_closing, "--last-closing") if last_closing else None
        if closing is not None and last_opening is not None and closing < opening:
            raise InputError(f"the closing bid {closing} is below the opening bid {opening}")
        previous = mgc.Auction(opening, closing)
    bid = mgc.opening_bid(previous, rules)
    emit(as_json, {"opening_bid": bid},
         [f"Opening bid: {bid} Credits ({mgc.opening_bid_reason(previous, rules)})"])


@mule_goes_crazy.command(short_help="Record a Land Auction: winner and price, or unsold.")
@click.argument("land")
@click.option("--winner", help="The player who won the Land.")
@click.option("--price", "price_text", help="The closing bid the winner pays the Store.")
@click.option("--unsold", is_flag=True, help="Nobody bid: the Land Auctions are over.")
@GAME
@DB
@JSON
def auction(land: str, winner: str | None, price_text: str | None, unsold: bool,
            game_id: int | None, db: str | None, as_json: bool) -> None:
    """Record a Land Auction of the saved game: LAND won by --winner at --price, or --unsold.

    The price must be at least the opening bid (which the saved history gives) and no more
    than the winner's Credits. The Land goes onto the winner's sheet; the Credits go to the
    Store. The next opening bid follows from this auction.
    """
    game, data, state, shown = _record(
        db, game_id, "auction", None,
        {"land": land, "winner": winner, "price": price_text, "unsold": "yes" if unsold else None})
    key, price = shown["land"], shown["price"]
    doc = {"game": game.id, "land": key, "opening": data["opening"],
           "closing": data["closing"], "winner": data["winner"],
           "next_opening_bid": data["next_opening"]}
    if winner is not None:
        doc["credits"] = state["players"][winner]["credits"]
        lines = [f"{winner} wins {saved_game._title(key)} for {price} Credits "
                 f"(opening bid {data['opening']}); {winner} has "
                 f"{state['players'][winner]['credits']} Credits left."]
    else:
        lines = [f"{saved_game._title(key)}: no bid at {data['opening']}; the Land Auctions "
                 "are over for this turn."]
    lines.append(f"Next opening bid: {data['next_opening']} Credits. Saved in game {game.id}.")
    emit(as_json, doc, lines)


@mule_goes_crazy.command(short_help="Land Grant: a player lays down one Land.")
@click.argument("player")
@click.argument("land")
@GAME
@DB
@JSON
def grant(player: str, land: str, game_id: int | None, db: str | None, as_json: bool) -> None:
    """Land Grant Phase: PLAYER lays down one LAND from their hand, before the first auction."""
    game, _, state, key = _record(db, game_id, "grant", player, {"land": land})
    lands = state["players"][player]["lands"]
    emit(as_json, {"game": game.id, "player": player, "land": key, "lands": lands},
         [f"{player} lays down {saved_game._title(key)} as a Land Grant. Saved in game "
          f"{game.id}."])


@mule_goes_crazy.command("mule-price")
@click.argument("mule")
@click.option("--store-smithore", help="The Store's Smithore when this turn began.")
@click.option("--store-crystite", help="The Store's Crystite when this turn began (default 0).")
@SAVE
@GAME
@DB
@JSON
def mule_price_cmd(mule: str, store_smithore: str | None, store_crystite: str | None,
                   save: bool, game_id: int | None, db: str | None, as_json: bool) -> None:
    """What MULE (food, energy, smithore, crystite) costs this turn.

    With --save (or --game ID) the Store's stock when the saved turn began decides; this only
    reads the game: 'buy PLAYER MULE' buys one.
    """
    card = mgc.mule_card(_game(), mule)
    doc: dict[str, Any] = {}
    if using_saved(save, game_id, {"--store-smithore": store_smithore,
                              "--store-crystite": store_crystite}):
        game, state = _read(db, game_id)
        store = {r: int(state["store_at_turn_start"].get(r, 0)) for r in ("smithore",
                                                                           "crystite")}
        doc["game"] = game.id
    else:
        store = {"smithore": amount(need(store_smithore, "--store-smithore"),
                                     "--store-smithore"),
                 "crystite": amount(store_crystite or "0", "--store-crystite")}
    price = mgc.mule_price(card, store)
    short = price == card.short_credits and price != card.cost.get("credits")
    takes = ", ".join(f"{n} {r.capitalize()}" for r, n in card.cost.items() if r != "credits")
    doc.update({"mule": card.id, "price": price, "short": short, "store_loses": {
        r: n for r, n in card.cost.items() if r != "credits"}})
    emit(as_json, doc,
         [f"{card.name}: {price} Credits" + (" (the Store was short)" if short else ""),
          f"The Store loses {takes} (down to 0 at least)."])


@mule_goes_crazy.command(short_help="A player buys a Mule from the saved Store.")
@click.argument("player")
@click.argument("mule")
@GAME
@DB
@JSON
def buy(player: str, mule: str, game_id: int | None, db: str | None, as_json: bool) -> None:
    """PLAYER buys a MULE (food, energy, smithore, crystite) from the saved game's Store.

    The price is what 'mule-price' gives (in brackets when the Store began the turn without a
    resource of the cost); the Credits come off the player's sheet and the Smithore (and
    Crystite) off the Store, down to 0 at least. The Mule is laid beside the player's Lands:
    'move' puts it on one.
    """
    game, data, state, card = _record(db, game_id, "buy", player, {"mule": mule})
    key = data["mule"]
    sheet = state["players"][player]
    article = "an" if card.name[0] in "AEIOU" else "a"
    emit(as_json, {"game": game.id, "player": player, "mule": key, "price": data["price"],
                   "credits": sheet["credits"], "store": state["store"]},
         [f"{player} buys {article} {card.name} for {data['price']} Credits "
          f"({sheet['credits']} left).",
          "The Store now has " + ", ".join(f"{state['store'][r]} {r.capitalize()}"
                                           for r in saved_game.STORE)
          + f". Saved in game {game.id}."])


@mule_goes_crazy.command(short_help="Move Mules: put a Mule on a Land for its Move Cost.")
@click.argument("player")
@click.argument("mule")
@click.argument("land")
@click.option("--from", "from_land", help="Move the Mule that tends this Land.")
@GAME
@DB
@JSON
def move(player: str, mule: str, land: str, from_land: str | None, game_id: int | None,
         db: str | None, as_json: bool) -> None:
    """Move Mules: PLAYER pays the MULE's Move Cost and puts it below their LAND.

    The Mule moved is one that tends no Land yet, or with --from the one on that Land. A Land
    is tended by one Mule.
    """
    game, data, state, shown = _record(db, game_id, "move", player,
                                       {"mule": mule, "land": land, "from": from_land})
    key, land_key, card = data["mule"], shown["land"], shown["card"]
    sheet = state["players"][player]
    paid = ", ".join(f"{n} {r.capitalize()}" for r, n in data["cost"].items())
    emit(as_json, {"game": game.id, "player": player, "mule": key, "land": land_key,
                   "paid": data["cost"], "sheet": {r: sheet[r] for r in saved_game.SHEET}},
         [f"{player}'s {card.name} now tends {saved_game._title(land_key)} (paid {paid}).",
          _sheet_line(player, sheet) + f". Saved in game {game.id}."])


@mule_goes_crazy.command(short_help="A Population card comes into play.")
@click.argument("card")
@click.option("--facility", help="The Facility the Population card is assigned to.")
@click.option("--player", help="Who played it (kept in the log).")
@GAME
@DB
@JSON
def population(card: str, facility: str | None, player: str | None, game_id: int | None,
               db: str | None, as_json: bool) -> None:
    """A Population CARD comes into play in the saved game (upkeep from the Store each turn).

    Facilities' building costs are not kept: pay them with 'irata play set'.
    """
    game, _, state, shown = _record(db, game_id, "population", None,
                                    {"card": card, "facility": facility, "player": player})
    key, fac = shown["card"], shown["facility"]
    emit(as_json, {"game": game.id, "card": key, "facility": fac,
                   "populations": state["populations"]},
         [f"{saved_game._title(key)} comes into play"
          + (f" at the {saved_game._title(fac)}" if fac else "")
          + f" ({len(state['populations'])} Population card(s)). Saved in game {game.id}."])


def _working(game: Any, spec: str) -> mgc.WorkingMule:
    if "@" not in spec:
        raise InputError(f"--mule takes MULE@LAND such as energy@sunny-flats, not '{spec}'")
    mule_name, land_name = (s.strip() for s in spec.split("@", 1))
    card = mgc.mule_card(game, mule_name)
    dice = mgc.land_dice(game, land_name)
    return mgc.WorkingMule(f"{card.name} on {land_name}", card.energy_use, card.produces,
                           dice.get(card.produces, 0))


def _lands_hold_their_mules(game: Any, mules: tuple[str, ...]) -> None:
    """A Land holds ``mules_per_land`` Mules (the project's reconstruction: one), and the deck
    prints a Land a few times: more Mules on one Land name than its copies hold is refused."""
    per_land = int(game.data.get("mules_per_land", 1))
    on: dict[str, int] = {}
    for spec in mules:
        land = saved_game.card_key(game, spec.split("@", 1)[1].strip(), "land")
        on[land] = on.get(land, 0) + 1
    for land, n in on.items():
        room = per_land * saved_game.copies(game, "land", land)
        if n > room:
            raise RuleError(f"{n} Mules on {land.replace('-', ' ').title()}: the deck prints "
                            f"{saved_game.copies(game, 'land', land)} of that Land and each "
                            f"holds {per_land} Mule")


def _production_lines(energy_used: int, energy_after: int | None, underpowered: list[str],
                      plots: list[dict[str, Any]], totals: dict[str, int]) -> list[str]:
    lines = [f"Energy used: {energy_used}"
             + (f", left: {energy_after}" if energy_after is not None else "")]
    if underpowered:
        lines.append("Under-powered (dice count as 1): " + ", ".join(underpowered))
    for p in plots:
        lines.append(f"  {p['mule']}: {'+'.join(map(str, p['rolls'])) or 'no dice'} = "
                     f"{p['total']} {p['resource']}")
    lines.append("Produced: " + ", ".join(f"{n} {r}" for r, n in totals.items() if n)
                 if any(totals.values()) else "Produced: nothing")
    return lines


@mule_goes_crazy.command(short_help="Production: Energy use, under-powered Mules, dice.")
@click.option("--energy", "energy_text", help="The player's Energy.")
@click.option("--mule", "mules", multiple=True,
              help="A Mule on a Land, MULE@LAND (repeat): energy@sunny-flats.")
@click.option("--rolls", help="The table's dice, in order: 3,5,1,6 (else they are rolled).")
@click.option("--seed", type=SEED, help="Roll repeatable dice.")
@click.option("--player", help="With --save: this player only (the others produce later).")
@SAVE
@GAME
@DB
@JSON
def produce(energy_text: str | None, mules: tuple[str, ...], rolls: str | None,
            seed: int | None, player: str | None, save: bool, game_id: int | None,
            db: str | None, as_json: bool) -> None:
    """The Production Phase: Energy use, under-powered Mules, then the production dice.

    With --save (or --game ID) each player's Energy and Mules on Lands come from the saved
    sheets, the Energy used comes off and the goods produced go on: for --player NAME (with
    --rolls for the table's dice, in the order of the player's Mules) or for every player who
    has not produced this turn (the saved game's seeded dice, the same on every replay).
    Among Mules of equal Energy Use the first on the sheet is under-powered, as the
    calculator takes the first named (the draft lets the player choose). Upgrades and Events
    that change dice are not counted, here as in the calculator: correct the sheet with
    'irata play set'.
    """
    g = _game()
    if using_saved(save, game_id, {"--energy": energy_text, "--mule": mules, "--seed": seed}):
        game, data, state, _ = _record(db, game_id, "produce", None,
                                       {"player": player, "rolls": rolls})
        doc: dict[str, Any] = {"game": game.id, "players": data["players"]}
        lines: list[str] = []
        for name, r in data["players"].items():
            lines.append(f"{name}:")
            lines += ["  " + x for x in _production_lines(
                r["energy_used"], None, r["underpowered"], r["plots"], r["produced"])]
            lines.append("  " + _sheet_line(name, state["players"][name]))
        lines.append(f"Saved in game {game.id}.")
        emit(as_json, doc, lines)
        return
    if player is not None:
        raise InputError("--player is for the saved game: add --save")
    if not mules:
        raise InputError("--mule is needed (or --save to use the saved game)")
    working = [_working(g, m) for m in mules]
    _lands_hold_their_mules(g, mules)
    energy = mgc.consume_energy(amount(need(energy_text, "--energy"), "--energy"), working)
    results = [amount(r, "--rolls") for r in rolls.split(",")] if rolls else None
    roller = None
    if results is None:
        import random

        if seed is None:
            seed = random.SystemRandom().randrange(10**9)
        roller = mgc.seeded_roller(seed)
    out = mgc.production(energy.powered, energy.underpowered, roller, results)
    plots = [{"mule": p.mule.name, "resource": p.mule.resource, "rolls": list(p.rolls),
              "underpowered": p.underpowered, "total": p.total} for p in out.plots]
    under = [m.name for m in energy.underpowered]
    doc = {"energy_used": energy.energy_used, "energy_after": energy.energy_after,
           "underpowered": under, "plots": plots, "totals": out.totals}
    emit(as_json, doc, _production_lines(energy.energy_used, energy.energy_after, under, plots,
                                         out.totals))


@mule_goes_crazy.command()
@click.option("--food", "food_text", help="The player's Food.")
@click.option("--energy", "energy_text", help="The player's Energy.")
@SAVE
@GAME
@DB
@JSON
def spoilage(food_text: str | None, energy_text: str | None, save: bool, game_id: int | None,
             db: str | None, as_json: bool) -> None:
    """Spoilage: Food over 10 loses 5; Energy over 20 is halved.

    With --save (or --game ID) every player's saved sheet spoils, once a turn.
    """
    if using_saved(save, game_id, {"--food": food_text, "--energy": energy_text}):
        game, data, state, _ = _record(db, game_id, "spoilage")
        players = {n: {"food": state["players"][n]["food"],
                       "energy": state["players"][n]["energy"], **r}
                   for n, r in data["players"].items()}
        emit(as_json, {"game": game.id, "players": players},
             [f"{n}: Food {p['food']} (lost {p['food_lost']}), Energy {p['energy']} "
              f"(lost {p['energy_lost']})" for n, p in players.items()]
             + [f"Saved in game {game.id}."])
        return
    r = mgc.spoilage(amount(need(food_text, "--food"), "--food"),
                     amount(need(energy_text, "--energy"), "--energy"),
                     mgc.spoilage_rules(_game().data))
    emit(as_json, {"food": r.food, "energy": r.energy, "food_lost": r.food_lost,
                   "energy_lost": r.energy_lost},
         [f"Food: {r.food} (lost {r.food_lost})", f"Energy: {r.energy} (lost {r.energy_lost})"])


@mule_goes_crazy.command(short_help="Population upkeep from the Store, oldest first.")
@click.option("--store-food", help="The Store's Food.")
@click.option("--store-energy", help="The Store's Energy.")
@click.option("--store-smithore", help="The Store's Smithore (default 0).")
@click.option("--population", "populations", multiple=True,
              help="A Population card in play, oldest first (repeat); CARD+FACILITY for one "
                   "assigned to a Facility: colonists+hydroponic-gardens.")
@SAVE
@GAME
@DB
@JSON
def upkeep(store_food: str | None, store_energy: str | None, store_smithore: str | None,
           populations: tuple[str, ...], save: bool, game_id: int | None, db: str | None,
           as_json: bool) -> None:
    """Population upkeep: the Store feeds and powers each Population card, oldest first.

    With --save (or --game ID) the saved Store pays for the saved Population cards in play,
    once a turn; the cards it cannot keep leave play.
    """
    game = _game()
    saved = using_saved(save, game_id, {"--store-food": store_food, "--store-energy": store_energy,
                                   "--store-smithore": store_smithore,
                                   "--population": populations})
    if saved:
        # kept_before: the cards in play before the upkeep
        saved_g, data, state, kept_before = _record(db, game_id, "upkeep")
        gone = [saved_game._title(kept_before[i]["card"]) for i in data["discarded"]]
        doc = {"game": saved_g.id, "store": state["store"],
               "kept": [p["card"] for p in state["populations"]],
               "discarded": [kept_before[i]["card"] for i in data["discarded"]],
               "facilities_discarded": data["facilities_discarded"],
               "population": data["population"]}
        store, kept_n = state["store"], len(state["populations"])
    else:
        cards = []
        if not populations:
            raise InputError("--population is needed (or --save to use the saved game)")
        for spec in populations:
            name, _, facility = spec.partition("+")
            cards.append(mgc.population_card(game, name.strip(), facility.strip() or None))
        stock = {"food": amount(need(store_food, "--store-food"), "--store-food"),
                 "energy": amount(need(store_energy, "--store-energy"), "--store-energy"),
                 "smithore": amount(store_smithore or "0", "--store-smithore"),
                 "crystite": 0}
        r = mgc.population_upkeep(stock, cards)
        doc = {"store": r.store, "kept": [c.name for c in r.kept],
               "discarded": [c.name for c in r.discarded],
               "facilities_discarded": list(r.facilities_discarded),
               "population": r.population}
        store, kept_n, gone = r.store, len(r.kept), [c.name for c in r.discarded]
    lines = [f"Store after upkeep: {store['food']} Food, {store['energy']} Energy, "
             f"{store['smithore']} Smithore",
             f"Colony population: {doc['population']} people ({kept_n} card(s) kept)"]
    if gone:
        lines.append("Discarded (the Store could not pay): " + ", ".join(gone))
    if doc["facilities_discarded"]:
        lines.append("Facilities in disrepair: " + ", ".join(doc["facilities_discarded"]))
    if saved:
        lines.append(f"Saved in game {doc['game']}.")
    emit(as_json, doc, lines)


@mule_goes_crazy.command("end-turn")
@GAME
@DB
@JSON
def end_turn(game_id: int | None, db: str | None, as_json: bool) -> None:
    """End the saved game's turn: the next one begins.

    The Store's stock now is what the next turn's Mule prices look at.
    """
    game, _, state, _ = _record(db, game_id, "end-turn")
    emit(as_json, {"game": game.id, "turn": state["turn"],
                   "store_at_turn_start": state["store_at_turn_start"]},
         [f"Turn {state['turn']} begins. Saved in game {game.id}.",
          "Next: 'favored --save', then the Land Auctions."])


next_command(mule_goes_crazy, "mule-goes-crazy", "companion.mule_goes_crazy.saved")
