"""``irata play mule-goes-crazy``: the card game's arithmetic at the table.

A thin shell over ``companion.mule_goes_crazy``: the favored player, the Land Auction's opening
bid, a Mule's price, the Production Phase (energy, under-powered Mules, production dice),
spoilage, and the Population upkeep the Store pays. Card numbers are read from the same card
definitions the deck is printed from. Every command takes ``--json``.
"""

from __future__ import annotations

import json
from typing import Any

import click

from companion import mule_goes_crazy as mgc
from companion.session import parse_amount
from components.errors import InputError

JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def _game() -> Any:
    import components

    return components.load("mule-goes-crazy")


def _amount(text: str, what: str) -> int:
    n = parse_amount(text, what)
    if n < 0:
        raise InputError(f"{what} must be 0 or more, not {n}")
    return n


def _out(as_json: bool, doc: dict[str, Any], lines: list[str]) -> None:
    if as_json:
        click.echo(json.dumps(doc, indent=2))
    else:
        click.echo("\n".join(lines))


@click.group("mule-goes-crazy")
def mule_goes_crazy() -> None:
    """Mule Goes Crazy!: auctions, Mule prices, production dice, spoilage, upkeep."""


@mule_goes_crazy.command()
@click.option("--credits", "credits_text", required=True,
              help="Each player's Credits in seating order: Ann=800,Bob=1000,Cy=650.")
@click.option("--previous", help="Last turn's favored player (breaks ties).")
@JSON
def favored(credits_text: str, previous: str | None, as_json: bool) -> None:
    """The favored player: the fewest Credits."""
    credits: dict[str, int] = {}
    for part in credits_text.split(","):
        if "=" not in part:
            raise InputError(f"--credits takes NAME=CREDITS pairs, not '{part.strip()}'")
        name, value = (s.strip() for s in part.split("=", 1))
        if not name or name in credits:
            raise InputError(f"--credits: '{name}' is empty or named twice")
        credits[name] = _amount(value, f"{name}'s Credits")
    if previous is not None and previous not in credits:
        raise InputError(f"--previous {previous} is not among the players "
                         f"({', '.join(credits)})")
    who = mgc.favored_player(credits, previous)
    _out(as_json, {"favored": who, "credits": credits[who]},
         [f"Favored player: {who} ({credits[who]} Credits)",
          f"Turns start on {who}'s left."])


@mule_goes_crazy.command("opening-bid")
@click.option("--last-opening", help="The previous Land Auction's opening bid.")
@click.option("--last-closing", help="The previous Land Auction's closing bid (it sold).")
@click.option("--unsold", is_flag=True, help="The previous Land Auction had no bid.")
@JSON
def opening_bid_cmd(last_opening: str | None, last_closing: str | None, unsold: bool,
                    as_json: bool) -> None:
    """The Land Auction's opening bid (200 for the first one)."""
    rules = mgc.auction_rules(_game().data)
    previous: mgc.Auction | None = None
    if last_closing is not None and unsold:
        raise InputError("--last-closing and --unsold contradict each other")
    if last_closing is not None or unsold or last_opening is not None:
        if last_opening is None and unsold:
            raise InputError("--unsold needs --last-opening (the opening bid nobody took)")
        if last_closing is None and not unsold:
            raise InputError("say how the last auction ended: --last-closing N or --unsold")
        opening = _amount(last_opening, "--last-opening") if last_opening else 0
        closing = _amount(last_closing, "--last-closing") if last_closing else None
        if closing is not None and last_opening is not None and closing < opening:
            raise InputError(f"the closing bid {closing} is below the opening bid {opening}")
        previous = mgc.Auction(opening, closing)
    bid = mgc.opening_bid(previous, rules)
    why = ("the first Land Auction" if previous is None
           else f"last closing bid {previous.closing} - 50" if previous.sold
           else f"last opening bid {previous.opening} - 200")
    _out(as_json, {"opening_bid": bid}, [f"Opening bid: {bid} Credits ({why}, never below 0)"])


@mule_goes_crazy.command("mule-price")
@click.argument("mule")
@click.option("--store-smithore", required=True, help="The Store's Smithore when this turn began.")
@click.option("--store-crystite", default="0", show_default=True,
              help="The Store's Crystite when this turn began.")
@JSON
def mule_price_cmd(mule: str, store_smithore: str, store_crystite: str, as_json: bool) -> None:
    """What MULE (food, energy, smithore, crystite) costs this turn."""
    card = mgc.mule_card(_game(), mule)
    store = {"smithore": _amount(store_smithore, "--store-smithore"),
             "crystite": _amount(store_crystite, "--store-crystite")}
    price = mgc.mule_price(card, store)
    short = price == card.short_credits and price != card.cost.get("credits")
    takes = ", ".join(f"{n} {r.capitalize()}" for r, n in card.cost.items() if r != "credits")
    _out(as_json, {"mule": card.id, "price": price, "short": short, "store_loses": {
        r: n for r, n in card.cost.items() if r != "credits"}},
         [f"{card.name}: {price} Credits" + (" (the Store was short)" if short else ""),
          f"The Store loses {takes} (down to 0 at least)."])


def _working(game: Any, spec: str) -> mgc.WorkingMule:
    if "@" not in spec:
        raise InputError(f"--mule takes MULE@LAND such as energy@sunny-flats, not '{spec}'")
    mule_name, land_name = (s.strip() for s in spec.split("@", 1))
    card = mgc.mule_card(game, mule_name)
    dice = mgc.land_dice(game, land_name)
    return mgc.WorkingMule(f"{card.name} on {land_name}", card.energy_use, card.produces,
                           dice.get(card.produces, 0))


@mule_goes_crazy.command()
@click.option("--energy", "energy_text", required=True, help="The player's Energy.")
@click.option("--mule", "mules", multiple=True, required=True,
              help="A Mule on a Land, MULE@LAND (repeat): energy@sunny-flats.")
@click.option("--rolls", help="The table's dice, in order: 3,5,1,6 (else they are rolled).")
@click.option("--seed", type=int, help="Roll repeatable dice.")
@JSON
def produce(energy_text: str, mules: tuple[str, ...], rolls: str | None, seed: int | None,
            as_json: bool) -> None:
    """The Production Phase: Energy use, under-powered Mules, then the production dice."""
    game = _game()
    working = [_working(game, m) for m in mules]
    energy = mgc.consume_energy(_amount(energy_text, "--energy"), working)
    results = [_amount(r, "--rolls") for r in rolls.split(",")] if rolls else None
    roller = None
    if results is None:
        import random

        if seed is None:
            seed = random.SystemRandom().randrange(10**9)
        roller = mgc.seeded_roller(seed)
    out = mgc.production(energy.powered, energy.underpowered, roller, results)
    doc = {"energy_used": energy.energy_used, "energy_after": energy.energy_after,
           "underpowered": [m.name for m in energy.underpowered],
           "plots": [{"mule": p.mule.name, "resource": p.mule.resource, "rolls": list(p.rolls),
                      "underpowered": p.underpowered, "total": p.total} for p in out.plots],
           "totals": out.totals}
    lines = [f"Energy used: {energy.energy_used}, left: {energy.energy_after}"]
    if energy.underpowered:
        lines.append("Under-powered (dice count as 1): "
                     + ", ".join(m.name for m in energy.underpowered))
    for p in out.plots:
        lines.append(f"  {p.mule.name}: {'+'.join(map(str, p.rolls)) or 'no dice'} = "
                     f"{p.total} {p.mule.resource}")
    lines.append("Produced: " + ", ".join(f"{n} {r}" for r, n in out.totals.items() if n)
                 if any(out.totals.values()) else "Produced: nothing")
    _out(as_json, doc, lines)


@mule_goes_crazy.command()
@click.option("--food", "food_text", required=True, help="The player's Food.")
@click.option("--energy", "energy_text", required=True, help="The player's Energy.")
@JSON
def spoilage(food_text: str, energy_text: str, as_json: bool) -> None:
    """Spoilage: Food over 10 loses 5; Energy over 20 is halved."""
    rules = mgc.spoilage_rules(_game().data)
    r = mgc.spoilage(_amount(food_text, "--food"), _amount(energy_text, "--energy"), rules)
    _out(as_json, {"food": r.food, "energy": r.energy, "food_lost": r.food_lost,
                   "energy_lost": r.energy_lost},
         [f"Food: {r.food} (lost {r.food_lost})", f"Energy: {r.energy} (lost {r.energy_lost})"])


@mule_goes_crazy.command()
@click.option("--store-food", required=True, help="The Store's Food.")
@click.option("--store-energy", required=True, help="The Store's Energy.")
@click.option("--store-smithore", default="0", show_default=True, help="The Store's Smithore.")
@click.option("--population", "populations", multiple=True, required=True,
              help="A Population card in play, oldest first (repeat); CARD+FACILITY for one "
                   "assigned to a Facility: colonists+hydroponic-gardens.")
@JSON
def upkeep(store_food: str, store_energy: str, store_smithore: str,
           populations: tuple[str, ...], as_json: bool) -> None:
    """Population upkeep: the Store feeds and powers each Population card, oldest first."""
    game = _game()
    cards = []
    for spec in populations:
        name, _, facility = spec.partition("+")
        cards.append(mgc.population_card(game, name.strip(), facility.strip() or None))
    store = {"food": _amount(store_food, "--store-food"),
             "energy": _amount(store_energy, "--store-energy"),
             "smithore": _amount(store_smithore, "--store-smithore"), "crystite": 0}
    r = mgc.population_upkeep(store, cards)
    doc = {"store": r.store, "kept": [c.name for c in r.kept],
           "discarded": [c.name for c in r.discarded],
           "facilities_discarded": list(r.facilities_discarded), "population": r.population}
    lines = [f"Store after upkeep: {r.store['food']} Food, {r.store['energy']} Energy, "
             f"{r.store['smithore']} Smithore",
             f"Colony population: {r.population} people ({len(r.kept)} card(s) kept)"]
    if r.discarded:
        lines.append("Discarded (the Store could not pay): "
                     + ", ".join(c.name for c in r.discarded))
    if r.facilities_discarded:
        lines.append("Facilities in disrepair: " + ", ".join(r.facilities_discarded))
    _out(as_json, doc, lines)
