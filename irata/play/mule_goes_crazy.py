"""``irata play mule-goes-crazy``: the card game's arithmetic at the table.

A thin shell over ``companion.mule_goes_crazy``: the favored player, the Land Auction's opening
bid, a Mule's price, the Production Phase (energy, under-powered Mules, production dice),
spoilage, and the Population upkeep the Store pays. Card numbers are read from the same card
definitions the deck is printed from. Every command takes ``--json``.

Saved games: ``new`` starts one (every player's resource sheet, the Store, the Lands and Mules,
the turn, the Land Auction history, the favored player). Every step the table records is a move
of the game's declaration (``companion.mule_goes_crazy.game``), its command generated from it
(``irata.play.declared``: ``favored``, ``grant``, ``auction``, ``buy``, ``move``, ``upgrade``,
``event``, ``interrupt``, ``facility``, ``done``, ``population``, ``produce``, ``spoilage``,
``upkeep``, ``trade``, ``reshuffle``, ``end-turn``; ``next`` and the guided ``turn``). Four of
them share their name with a calculator: without a saved game (a calculator's own option, and
neither ``--save`` nor ``--game``) the calculator runs. This module keeps only the calculators
and how each step is printed. ``irata play status | log | undo |
export | set`` work for these games as for every other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from companion.mule_goes_crazy import saved as saved_game
from companion.mule_goes_crazy.game import amount
from companion.mule_goes_crazy.moves import MOVES
from companion.names import check_names
from components.errors import InputError
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
    read,
    using_saved,
)
from irata.play.declared import DeclaredGroup, Face

if TYPE_CHECKING:
    from companion.mule_goes_crazy import rules as mgc
    from companion.play import Played


def _game() -> Any:
    from companion.mule_goes_crazy.data import game

    return game()


@click.group("mule-goes-crazy", cls=DeclaredGroup)
def mule_goes_crazy() -> None:
    """Mule Goes Crazy!: auctions, Mule prices, production dice, spoilage, upkeep, saved games."""


# --- saved games: the shared plumbing of irata.options, for this game ---------------------------

def _read(db: str | None, game_id: int | None) -> tuple[Any, dict[str, Any]]:
    return read(db, game_id, saved_game.GAME)


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


@click.command("favored")
@click.option("--credits", "credits_text", multiple=True,
              help="Each player's Credits in seating order: Ann=800,Bob=1000,Cy=650 "
                   "(repeatable).")
@click.option("--previous", help="Last turn's favored player (breaks ties).")
@SAVE
@JSON
def favored_calculator(credits_text: tuple[str, ...], previous: str | None, save: bool,
                       as_json: bool) -> None:
    """The favored player: the fewest Credits (--credits NAME=N,...; ties clockwise from
    --previous)."""
    from companion.mule_goes_crazy import rules as mgc
    from irata.play.declared import pairs

    if not credits_text:
        need(None, "--credits")
    credits = {name: amount(value, f"{name}'s Credits")
               for name, value in pairs(credits_text, "--credits").items()}
    who = mgc.favored_after(credits, previous)
    emit(as_json, {"favored": who, "credits": credits[who]},
         [f"Favored player: {who} ({credits[who]} Credits)",
          f"Turns start on {who}'s left."])


def _show_favored(done: Played, state: dict[str, Any], game: int
                  ) -> tuple[dict[str, Any], list[str]]:
    data = done.event.data
    return ({"game": game, "favored": data["favored"], "credits": data["credits"]},
            [f"Favored player: {data['favored']} ({data['credits']} Credits)",
             f"Turns start on {data['favored']}'s left. Saved in game {game}."])


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
    from companion.mule_goes_crazy import rules as mgc

    rules = mgc.auction_rules(_game().data)
    if using_saved(save, game_id, {"--last-opening": last_opening, "--last-closing": last_closing,
                              "--unsold": unsold}):
        game, state = _read(db, game_id)
        bid, why = saved_game.opening_bid_of(state, rules)
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
        previous = mgc.previous_auction(opening, closing)
    bid = mgc.opening_bid(previous, rules)
    emit(as_json, {"opening_bid": bid},
         [f"Opening bid: {bid} Credits ({mgc.opening_bid_reason(previous, rules)})"])


def _show_auction(done: Played, state: dict[str, Any], game: int
                  ) -> tuple[dict[str, Any], list[str]]:
    data, shown = done.event.data, done.detail
    key, price, winner = shown["land"], shown["price"], data["winner"]
    doc = {"game": game, "land": key, "opening": data["opening"], "closing": data["closing"],
           "winner": winner, "next_opening_bid": data["next_opening"]}
    if key is None:
        lines = ["A card that is not a Land was turned over: it goes to the Discard pile, and "
                 "the Land Auctions are over for this turn."]
    elif winner is not None:
        doc["credits"] = state["players"][winner]["credits"]
        lines = [f"{winner} wins {saved_game._title(key)} for {price} Credits "
                 f"(opening bid {data['opening']}); {winner} has "
                 f"{state['players'][winner]['credits']} Credits left."]
    else:
        lines = [f"{saved_game._title(key)}: no bid at {data['opening']}; the Land Auctions "
                 "are over for this turn."]
    lines.append(f"Next opening bid: {data['next_opening']} Credits. Saved in game {game}.")
    return doc, lines


def _show_grant(done: Played, state: dict[str, Any], game: int
                ) -> tuple[dict[str, Any], list[str]]:
    player, key = str(done.move.who), done.detail
    lands = state["players"][player]["lands"]
    return ({"game": game, "player": player, "land": key, "lands": lands},
            [f"{player} lays down {saved_game._title(key)} as a Land Grant. Saved in game "
             f"{game}." if key else f"{player} lays down no Land Grant. Saved in game {game}."])


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
    from companion.mule_goes_crazy import rules as mgc

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


def _show_buy(done: Played, state: dict[str, Any], game: int
              ) -> tuple[dict[str, Any], list[str]]:
    data, card, player = done.event.data, done.detail, str(done.move.who)
    sheet = state["players"][player]
    article = "an" if card.name[0] in "AEIOU" else "a"
    return ({"game": game, "player": player, "mule": data["mule"], "price": data["price"],
             "credits": sheet["credits"], "store": state["store"]},
            [f"{player} buys {article} {card.name} for {data['price']} Credits "
             f"({sheet['credits']} left).",
             "The Store now has " + ", ".join(f"{state['store'][r]} {r.capitalize()}"
                                              for r in saved_game.STORE)
             + f". Saved in game {game}."])


def _show_move(done: Played, state: dict[str, Any], game: int
               ) -> tuple[dict[str, Any], list[str]]:
    data, shown, player = done.event.data, done.detail, str(done.move.who)
    sheet = state["players"][player]
    paid = ", ".join(f"{n} {r.capitalize()}" for r, n in data["cost"].items())
    return ({"game": game, "player": player, "mule": data["mule"], "land": shown["land"],
             "paid": data["cost"], "sheet": {r: sheet[r] for r in saved_game.SHEET}},
            [f"{player}'s {shown['card'].name} now tends {saved_game._title(shown['land'])} "
             f"(paid {paid}).", _sheet_line(player, sheet) + f". Saved in game {game}."])


def _show_population(done: Played, state: dict[str, Any], game: int
                     ) -> tuple[dict[str, Any], list[str]]:
    key, fac = done.detail["card"], done.detail["facility"]
    return ({"game": game, "card": key, "facility": fac, "populations": state["populations"]},
            [f"{saved_game._title(key)} comes into play"
             + (f" at the {saved_game._title(fac)}" if fac else "")
             + f" ({len(state['populations'])} Population card(s)). Saved in game {game}."])


def _working(game: Any, spec: str) -> mgc.WorkingMule:
    from companion.mule_goes_crazy import rules as mgc

    if "@" not in spec:
        raise InputError(f"--mule takes MULE@LAND such as energy@sunny-flats, not '{spec}'")
    mule_name, land_name = (s.strip() for s in spec.split("@", 1))
    card = mgc.mule_card(game, mule_name)
    dice = mgc.land_dice(game, land_name)
    return mgc.WorkingMule(f"{card.name} on {land_name}", card.energy_use, card.produces,
                           dice.get(card.produces, 0))


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


@click.command("produce")
@click.option("--energy", "energy_text", help="The player's Energy.")
@click.option("--mule", "mules", multiple=True,
              help="A Mule on a Land, MULE@LAND (repeat): energy@sunny-flats.")
@click.option("--rolls", help="The table's dice, in order: 3,5,1,6 (else they are rolled).")
@click.option("--seed", type=SEED, help="Roll repeatable dice.")
@SAVE
@JSON
def produce_calculator(energy_text: str | None, mules: tuple[str, ...], rolls: str | None,
                       seed: int | None, save: bool, as_json: bool) -> None:
    """The Production Phase for one player: --energy, --mule MULE@LAND (repeat), --rolls or
    --seed; Energy use, under-powered Mules, then the production dice (Upgrades and Events
    are counted with a saved game)."""
    from companion.mule_goes_crazy import rules as mgc

    g = _game()
    if not mules:
        raise InputError("--mule is needed (or --save to use the saved game)")
    working = [_working(g, m) for m in mules]
    saved_game.mules_fit_their_lands(g, [m.split("@", 1)[1] for m in mules])
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


def _show_produce(done: Played, state: dict[str, Any], game: int
                  ) -> tuple[dict[str, Any], list[str]]:
    data = done.event.data
    lines: list[str] = []
    for name, r in data["players"].items():
        lines.append(f"{name}:")
        lines += ["  " + x for x in _production_lines(
            r["energy_used"], None, r["underpowered"], r["plots"], r["produced"])]
        lines.append("  " + _sheet_line(name, state["players"][name]))
    lines.append(f"Saved in game {game}.")
    return {"game": game, "players": data["players"]}, lines


@click.command("spoilage")
@click.option("--food", "food_text", help="The player's Food.")
@click.option("--energy", "energy_text", help="The player's Energy.")
@SAVE
@JSON
def spoilage_calculator(food_text: str | None, energy_text: str | None, save: bool,
                        as_json: bool) -> None:
    """Spoilage for one player (--food, --energy): Food over 10 loses 5; Energy over 20 is
    halved."""
    from companion.mule_goes_crazy import rules as mgc

    r = mgc.spoilage(amount(need(food_text, "--food"), "--food"),
                     amount(need(energy_text, "--energy"), "--energy"),
                     mgc.spoilage_rules(_game().data))
    emit(as_json, {"food": r.food, "energy": r.energy, "food_lost": r.food_lost,
                   "energy_lost": r.energy_lost},
         [f"Food: {r.food} (lost {r.food_lost})", f"Energy: {r.energy} (lost {r.energy_lost})"])


def _show_spoilage(done: Played, state: dict[str, Any], game: int
                   ) -> tuple[dict[str, Any], list[str]]:
    data = done.event.data
    players = {n: {"food": state["players"][n]["food"],
                   "energy": state["players"][n]["energy"], **r}
               for n, r in data["players"].items()}
    return ({"game": game, "players": players},
            [f"{n}: Food {p['food']} (lost {p['food_lost']}), Energy {p['energy']} "
             f"(lost {p['energy_lost']})" for n, p in players.items()]
            + [f"Saved in game {game}."])


@click.command("upkeep")
@click.option("--store-food", help="The Store's Food.")
@click.option("--store-energy", help="The Store's Energy.")
@click.option("--store-smithore", help="The Store's Smithore (default 0).")
@click.option("--population", "populations", multiple=True,
              help="A Population card in play, oldest first (repeat); CARD+FACILITY for one "
                   "assigned to a Facility: colonists+hydroponic-gardens.")
@SAVE
@JSON
def upkeep_calculator(store_food: str | None, store_energy: str | None,
                      store_smithore: str | None, populations: tuple[str, ...], save: bool,
                      as_json: bool) -> None:
    """Population upkeep (--store-food, --store-energy, --population CARD[+FACILITY]): the
    Store feeds and powers each Population card, oldest first."""
    from companion.mule_goes_crazy import rules as mgc

    game = _game()
    if not populations:
        raise InputError("--population is needed (or --save to use the saved game)")
    cards = []
    for spec in populations:
        name, _, facility = spec.partition("+")
        cards.append(mgc.population_card(game, name.strip(), facility.strip() or None))
    stock = {"food": amount(need(store_food, "--store-food"), "--store-food"),
             "energy": amount(need(store_energy, "--store-energy"), "--store-energy"),
             "smithore": amount(store_smithore or "0", "--store-smithore"), "crystite": 0}
    r = mgc.population_upkeep(stock, cards)
    doc = {"store": r.store, "kept": [c.name for c in r.kept],
           "discarded": [c.name for c in r.discarded],
           "facilities_discarded": list(r.facilities_discarded), "population": r.population}
    emit(as_json, doc, _upkeep_lines(doc, r.store, len(r.kept),
                                     [c.name for c in r.discarded]))


def _upkeep_lines(doc: dict[str, Any], store: dict[str, int], kept: int, gone: list[str]
                  ) -> list[str]:
    lines = [f"Store after upkeep: {store['food']} Food, {store['energy']} Energy, "
             f"{store['smithore']} Smithore",
             f"Colony population: {doc['population']} people ({kept} card(s) kept)"]
    if gone:
        lines.append("Discarded (the Store could not pay): " + ", ".join(gone))
    if doc["facilities_discarded"]:
        lines.append("Facilities in disrepair: " + ", ".join(doc["facilities_discarded"]))
    return lines


def _show_upkeep(done: Played, state: dict[str, Any], game: int
                 ) -> tuple[dict[str, Any], list[str]]:
    data, before = done.event.data, done.detail
    gone = [saved_game._title(before[i]["card"]) for i in data["discarded"]]
    doc = {"game": game, "store": state["store"],
           "kept": [p["card"] for p in state["populations"]],
           "discarded": [before[i]["card"] for i in data["discarded"]],
           "facilities_discarded": data["facilities_discarded"],
           "population": data["population"], "builds": data.get("builds", [])}
    lines = _upkeep_lines(doc, state["store"], len(state["populations"]), gone)
    lines += [f"{b['player']} pays {saved_game._title(b['facility'])}'s Build cost ("
              + ", ".join(f"{n} {r.capitalize()}" for r, n in b["cost"].items()) + ")"
              + (": it is built." if b["built"] else ".") for b in doc["builds"]]
    unpaid = [f for f in data.get("facilities_ruined", []) if f not in
              {before[i].get("facility") for i in data["discarded"]}]
    if unpaid:
        lines.append("Facilities discarded, their Build cost unpaid: "
                     + ", ".join(saved_game._title(f) for f in unpaid))
    lines.append(f"Saved in game {game}.")
    return doc, lines


def _show_end_turn(done: Played, state: dict[str, Any], game: int
                   ) -> tuple[dict[str, Any], list[str]]:
    if state.get("over"):
        return ({"game": game, "turn": state["turn"], "over": True, "score": state["score"]},
                [*done.lines, f"Saved in game {game}."])
    return ({"game": game, "turn": state["turn"],
             "store_at_turn_start": state["store_at_turn_start"]},
            [f"Turn {state['turn']} begins. Saved in game {game}.",
             "Next: the Land Auctions (the Favored Player runs itself)."])


START = "irata play mule-goes-crazy new --players ..."
FACES = {"favored": Face(_show_favored, calculator=favored_calculator),
         "grant": Face(_show_grant), "auction": Face(_show_auction), "buy": Face(_show_buy),
         "move": Face(_show_move), "population": Face(_show_population),
         "produce": Face(_show_produce, calculator=produce_calculator),
         "spoilage": Face(_show_spoilage, calculator=spoilage_calculator),
         "upkeep": Face(_show_upkeep, calculator=upkeep_calculator),
         "end-turn": Face(_show_end_turn)}

mule_goes_crazy.declare(saved_game.GAME, saved_game.TITLE, START, MOVES, FACES)
