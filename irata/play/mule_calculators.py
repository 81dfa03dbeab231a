"""``irata play mule`` calculators: M.U.L.E.'s arithmetic at the table for one Phase at a time,
without a saved game (Usage and Spoilage, Pricing, Production, Ranking, the Market, the Colony's
rating). Each is imported only when it runs (``irata.play.mule`` lists them lazily), so the
saved game's commands never pay for defining them.
"""

from __future__ import annotations

from typing import Any

import click

from companion.amount import parse_amount
from components.errors import InputError
from irata.options import JSON, BoundedInt, IntParamType, emit

GOODS = ("smithore", "crystite", "food", "energy")


# -- parsing what is typed ------------------------------------------------------------------

class Amount(IntParamType):
    """A whole number, or a sum of them (``3+6+2``); 0 or more unless ``signed``."""

    name = "N"

    def __init__(self, signed: bool = False) -> None:
        self.signed = signed

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> int:
        what = f"--{param.name.replace('_', '-')}" if param and param.name else "a number"
        n = parse_amount(value, what)
        if n < 0 and not self.signed:
            raise InputError(f"{what} must be 0 or more, not {n}")
        return n


AMOUNT = Amount()


def _amounts(text: str | None, what: str) -> list[int]:
    if text is None:
        return []
    out = []
    for part in text.split(","):
        n = parse_amount(part, what)
        if n < 0:
            raise InputError(f"{what} must be 0 or more, not {n}")
        out.append(n)
    return out


def _names(text: str | None, what: str) -> list[str]:
    if text is None:
        return []
    names = [p.strip() for p in text.split(",") if p.strip()]
    if len(set(names)) != len(names):
        raise InputError(f"{what} names a Colonist twice")
    return names


def _named(text: str | None, what: str, signed: bool = False) -> dict[str, int]:
    """``A=30,B=25+5`` -> {"A": 30, "B": 30}."""
    if text is None:
        return {}
    out: dict[str, int] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        if "=" not in part:
            raise InputError(f"{what}: '{part.strip()}' should be NAME=N, e.g. Ann=30")
        name, value = (s.strip() for s in part.split("=", 1))
        if name in out:
            raise InputError(f"{what} names {name} twice")
        n = parse_amount(value, f"{what} {name}")
        if n < 0 and not signed:
            raise InputError(f"{what} {name} must be 0 or more, not {n}")
        out[name] = n
    return out


def _data() -> Any:
    from companion.mule import data

    return data.load()


def _goods_line(values: dict[str, int]) -> str:
    return ", ".join(f"{g.capitalize()} {values[g]}" for g in GOODS)


@click.command()
@click.option("--food", type=AMOUNT, default="0", help="Food Stock after Development.")
@click.option("--energy", type=AMOUNT, default="0", help="Energy Stock after Development.")
@click.option("--smithore", type=AMOUNT, default="0", help="Smithore Stock.")
@click.option("--crystite", type=AMOUNT, default="0", help="Crystite Stock.")
@click.option("--mules", type=AMOUNT, default="0", help="M.U.L.E.s on your Lands.")
@click.option("--energy-mules", type=AMOUNT, default="0", help="Of them, producing Energy.")
@JSON
def spoilage(food: int, energy: int, smithore: int, crystite: int, mules: int,
             energy_mules: int, as_json: bool) -> None:
    """Usage and Spoilage for one Colonist's Stocks after the Development Phase."""
    from companion.mule import rules
    from companion.mule.board import check_mules

    md = _data()
    check_mules(mules, md.player_board)
    r = rules.spoilage(rules.Stocks(smithore, crystite, food, energy), mules, energy_mules,
                       food_divisor=md.food_divisor, energy_divisor=md.energy_divisor,
                       overstock_limit=md.overstock_limit)
    payload = {"energy_used": r.energy_used, "shortage": r.shortage, "spoiled": r.spoiled,
               "stocks": r.stocks.as_dict()}

    def lines() -> list[str]:
        out = [f"Energy used: {r.energy_used}"]
        if r.shortage:
            out.append(f"Shortage: {r.shortage} -- flip {r.shortage} M.U.L.E.(s) "
                       "not producing Energy")
        out.append("Spoiled: " + _goods_line(r.spoiled))
        out.append("Stocks:  " + _goods_line(r.stocks.as_dict()))
        return out

    emit(as_json, payload, lines)


@click.command()
@click.argument("good")
@click.option("--buy", type=AMOUNT, required=True, help="The Store's current Buy Price.")
@click.option("--stocks", help="Food or Energy: each Colonist's Stock, e.g. 1,2,3,7.")
@click.option("--mules", help="Energy: each Colonist's M.U.L.E.s, in the --stocks order.")
@click.option("--store", type=AMOUNT, help="Food or Energy: units in The Store.")
@click.option("--store-mules", type=AMOUNT, help="Smithore: M.U.L.E.s in the Corral.")
@click.option("--store-smithore", type=AMOUNT, help="Smithore: Smithore in The Store.")
@click.option("--card", help="Crystite: the Production Card just drawn (id or title).")
@click.option("--value", type=AMOUNT, help="Crystite: the card's Crystite price.")
@JSON
def price(good: str, buy: int, stocks: str | None, mules: str | None, store: int | None,
          store_mules: int | None, store_smithore: int | None, card: str | None,
          value: int | None, as_json: bool) -> None:
    """The Pricing Phase for one GOOD, from The Store's current Buy Price."""
    from companion.mule import pricing
    from companion.mule.data import check_good

    good = check_good(good)
    md = _data()
    track = md.track(good)
    track.position(buy)
    note = ""
    if good == "smithore":
        if store_mules is None or store_smithore is None:
            raise InputError("smithore needs --store-mules and --store-smithore")
        steps = pricing.smithore_steps(store_mules, store_smithore, pens=md.pens,
                                       mules_per_pen=md.mules_per_pen)
    elif good == "crystite":
        if (card is None) == (value is None):
            raise InputError("crystite needs --card (the Production Card) or --value")
        pirates = False
        if card is not None:
            c = md.card(card)
            value, pirates = c.crystite_price, c.pirates
            note = f"{c.title}" + (": the Crystite price holds" if pirates else "")
        steps = pricing.crystite_steps(track, buy, value, pirates)
    else:
        levels = _amounts(stocks, "--stocks")
        if stocks is None or store is None:
            raise InputError(f"{good} needs --stocks (each Colonist's) and --store")
        if good == "food":
            if mules is not None:
                raise InputError("--mules is for energy, not food")
            steps = pricing.food_steps(levels, store, per_colonist=md.food_per_colonist)
        else:
            if mules is None:
                raise InputError("energy needs --mules (each Colonist's, in the --stocks order)")
            steps = pricing.energy_steps(levels, _amounts(mules, "--mules"), store)
    change = pricing.move(track, buy, steps)

    def lines() -> list[str]:
        out = [note] if note else []
        out.append(f"{good.capitalize()}: {steps:+d} steps, moved {change.moved:+d} -> "
                   f"${change.sell}/{change.buy} (Store sells ${change.sell}, "
                   f"buys ${change.buy})")
        return out

    emit(as_json, change.as_dict(), lines)


@click.command()
@click.option("--money", required=True, help="Each Colonist's Money: A=30,B=25,...")
@click.option("--previous", required=True, help="The previous Ranking, Rank 1 first: B,A,...")
@click.option("--lands", help="Optional rule: Lands each, A=3,B=2 ($10 a Land).")
@click.option("--mules", help="Optional rule: M.U.L.E.s each, A=2,B=1 ($5 a M.U.L.E.).")
@JSON
def rank(money: str, previous: str, lands: str | None, mules: str | None,
         as_json: bool) -> None:
    """Ranking: the new order of wealth; ties keep the previous order."""
    from companion.mule import rules

    md = _data()
    wealth = rules.ranking_wealth(_named(money, "--money"),
                                  _named(lands, "--lands"), _named(mules, "--mules"),
                                  land_value=md.land_value, mule_value=md.mule_value)
    order = rules.rank(wealth, _names(previous, "--previous"))
    payload = {"ranking": order, "wealth": wealth}
    emit(as_json, payload, lambda: [f"Rank {i}: {n} (${wealth[n]})"
                                     for i, n in enumerate(order, 1)])


@click.command()
@click.option("--total", type=AMOUNT, required=True, help="All Colonists' Money together.")
@click.option("--players", required=True, help="The Colonists' names: Ann,Bob,Cid,Dee.")
@click.option("--turns", type=BoundedInt(1, 99), default=None,
              help="The Game Turns played (More Game Turns, Variable Number of Game Turns): "
              "the table scaled for them.")
@JSON
def colony(total: int, players: str, turns: int | None, as_json: bool) -> None:
    """Colony Success and Retirement (Tournament): the rating of the Colony's total."""
    from companion.mule import length, rules

    names = _names(players, "--players")
    if any(n.isdigit() for n in names):
        raise InputError(f"--players takes the Colonists' names (e.g. Ann,Bob,Cid,Dee), not a "
                         f"count: '{players}'")
    md = _data()
    played = turns or int(md.data["colony_success"]["turns"])
    result = rules.colony_success(total, len(names), length.colony_rows(md, played))
    note = length.colony_note(md, played, len(names))
    emit(as_json, {"rating": result.rating, "text": result.text, "total": total,
                   "players": names, **({"turns": played, "note": note} if turns else {})},
          lambda: [f"${total} with {len(names)} Colonists ({', '.join(names)}): row "
                   f"{result.rating} of 7", result.text, *([f"({note})"] if note else [])])


@click.command()
@click.option("--card", help="The Production Card drawn (id or title); its effects apply.")
@click.option("--lands", help="Lands with M.U.L.E.s: F3,C1,E3!,P07:C? (Good+value or tile).")
@click.option("--board", help='The Player Board, rows split by "/": "C1 C0 . / C1 C3 E3".')
@click.option("--tournament", is_flag=True, help="Add Economies of Scale (needs --board).")
@click.option("--rank", type=BoundedInt(1, 4), help="Your Rank: whether Radiation! or Pest "
              "Attack! hits you.")
@click.option("--turn", "game_turn", type=BoundedInt(1, 99), help="The Game Turn (Turn 1: "
              "Radiation! and Pest Attack! do their Game Turn 1 effect).")
@click.option("--hit", help="The Land Radiation! or Pest Attack! hits: a tile (P07), a cell "
              "as typed (F3) or its number (2).")
@JSON
def production(card: str | None, lands: str | None, board: str | None, tournament: bool,
               rank: int | None, game_turn: int | None, hit: str | None, as_json: bool) -> None:
    """Production for one Colonist.

    \b
    A Land is typed as a cell: F3 (Food, Production Value 3), P07:C (tile P07,
    producing Crystite), a trailing ! for a flipped M.U.L.E., a trailing ? for
    Crystite produced there for the first time, . for a square without one.
    Radiation! and Pest Attack! take the Land they hit from --hit (or, with
    --rank, the only Land they can hit); Fire in The Store! and the Meteor
    Craters are shown, as they change The Store and Planet Irata, not you.
    """
    from companion.mule import production as prod
    from companion.mule.data import plain

    if (lands is None) == (board is None):
        raise InputError("give --lands (a list) or --board (the layout), one of them")
    md = _data()
    tile = prod.tile_value_from(md.lands)
    worked = prod.parse_board(board, tile) if board else prod.parse_lands(lands or "", tile)
    c = md.card(card) if card else None
    text, effect = c.on_turn(game_turn or 0) if c else ("", {})
    turn_1 = bool(c and game_turn == 1 and isinstance(c.fields.get("game_turn_1"), dict))
    hits = prod.struck_land(effect, worked, rank, hit, turn_1, "--hit")
    struck, notes = hits.land, list(hits.notes)
    lost = struck is not None and bool((effect.get("radiation") or {}).get("mules_lost"))
    hit_label = worked[struck].label if struck is not None else None
    worked = prod.strike(worked, struck)
    result = prod.produce(worked, c.modifiers if c else {}, tournament=tournament)
    notes.extend(_colony_notes(effect, md))
    payload = {"card": c.id if c else None, "base": result.base,
               "economies_of_scale": result.economies_of_scale, "total": result.total,
               "flipped": result.flipped, "turn_over": list(result.turn_over),
               "hit": hit_label, "mule_lost": lost,
               "store_loses_all": list(effect.get("store_loses_all") or []), "notes": notes}

    def lines() -> list[str]:
        out = []
        if c:
            mods = ", ".join(f"{g} {v:+d}" for g, v in c.modifiers.items()) or "none"
            out.append(f"{c.title} (modifiers: {mods})")
            if turn_1:
                out.append(f"  {plain(text)}")
        if hit_label:
            out.append(f"{hit_label} produces nothing this Turn"
                       + (" and its M.U.L.E. is lost" if lost else ""))
        out.extend(notes)
        out.append("Base:  " + _goods_line(result.base))
        if tournament:
            out.append("Economies of Scale: " + _goods_line(result.economies_of_scale))
        out.append("Total: " + _goods_line(result.total))
        if result.turn_over:
            out.append("Turn to the Secret Side: " + ", ".join(result.turn_over))
        return out

    emit(as_json, payload, lines)


def _colony_notes(effect: dict[str, Any], md: Any) -> list[str]:
    """What the card does to the Colony, not to this Colonist: shown, not counted."""
    notes = []
    if effect.get("store_loses_all"):
        notes.append("The Store loses all its " + ", ".join(effect["store_loses_all"]))
    if effect.get("meteor_craters"):
        notes.append("The lowest-ranking Colonist places the Meteor Craters ("
                     + ", ".join(t.tile for t in md.craters()) + ") on Planet Irata")
    if effect.get("lose_all"):
        notes.append(f"Every Colonist loses all their {effect['lose_all']}")
    return notes


@click.command(short_help="M.U.L.E. Production in The Store: Smithore into M.U.L.E.s.")
@click.option("--mules", type=AMOUNT, required=True, help="M.U.L.E.s in the Corral.")
@click.option("--smithore", type=AMOUNT, required=True, help="Smithore in The Store.")
@click.option("--sold", type=AMOUNT, default="0", help="M.U.L.E.s sold during Development.")
@JSON
def store(mules: int, smithore: int, sold: int, as_json: bool) -> None:
    """M.U.L.E. Production in The Store: Smithore made into M.U.L.E.s for empty pens."""
    from companion.mule import rules

    md = _data()
    r = rules.store_mule_production(mules, smithore, sold, pens=md.pens,
                                    mules_per_pen=md.mules_per_pen)
    emit(as_json, {"made": r.made, "mules": r.mules, "smithore": r.smithore},
          lambda: [f"M.U.L.E.s made: {r.made}",
                   f"The Store now: {r.mules} M.U.L.E.s, {r.smithore} Smithore"])


@click.command()
@click.option("--ranking", required=True, help="The Ranking, Rank 1 first: A,B,C,D.")
@click.option("--wants", required=True, help="Who wants how many from The Store: D=2,A=1.")
@click.option("--store", type=AMOUNT, required=True, help="Units The Store has.")
@click.option("--price", type=AMOUNT, help="The Store's Sell Price.")
@click.option("--good", help="Or: the Good ...")
@click.option("--buy", type=AMOUNT, help="... and its Buy Price (the Sell Price is read).")
@JSON
def market(ranking: str, wants: str, store: int, price: int | None, good: str | None,
           buy: int | None, as_json: bool) -> None:
    """Market, Priority to Buy: lower-ranking Colonists buy from The Store first."""
    from companion.mule import rules
    from companion.mule.data import check_good

    if price is None:
        if good is None or buy is None:
            raise InputError("give --price (The Store's Sell Price), or --good and --buy")
        price = _data().track(check_good(good)).sell_for(buy)
    else:        # a Sell Price printed on the Price Track (on the Good's lane, when given)
        lanes = [_data().track(check_good(good))] if good else \
            [_data().track(g) for g in GOODS]
        if not any(t.sells_at(price) for t in lanes):
            raise InputError(f"--price ${price} is not a Sell Price on the Price Track"
                             + (f"'s {lanes[0].good} lane" if good else ""))
    r = rules.priority_to_buy(_names(ranking, "--ranking"), _named(wants, "--wants"), store,
                              price)
    payload = {"bought": r.bought, "cost": r.cost, "store_left": r.store_left,
               "unserved": r.unserved, "price": price}

    def lines() -> list[str]:
        out = [f"{n} buys {q} for ${r.cost[n]}" for n, q in r.bought.items()]
        out += [f"{n} goes without {q}" for n, q in r.unserved.items()]
        out.append(f"The Store has {r.store_left} left")
        return out

    emit(as_json, payload, lines)


@click.command()
@click.option("--money", required=True, help="Each Colonist's Money: A=30,B=25.")
@click.option("--smithore", help="Smithore Stocks: A=3,B=0.")
@click.option("--crystite", help="Crystite Stocks.")
@click.option("--food", help="Food Stocks.")
@click.option("--energy", help="Energy Stocks.")
@click.option("--prices", required=True,
              help="The Store's Buy Prices: smithore=9,crystite=4,food=5,energy=1.")
@click.option("--previous", help="The previous Ranking (Rank 1 first), for the final one.")
@JSON
def sellout(money: str, smithore: str | None, crystite: str | None, food: str | None,
            energy: str | None, prices: str, previous: str | None, as_json: bool) -> None:
    """The final turn's Market: everyone sells all Goods to The Store at its Buy Prices."""
    from companion.mule import rules

    cash = _named(money, "--money")
    stock_args = {"smithore": smithore, "crystite": crystite, "food": food, "energy": energy}
    per_good = {g: _named(v, f"--{g}") for g, v in stock_args.items()}
    for g, values in per_good.items():
        unknown = [n for n in values if n not in cash]
        if unknown:
            raise InputError(f"--{g}: {', '.join(unknown)} has no --money given")
    buy = _named(prices, "--prices")
    md = _data()
    for g in GOODS:
        if g not in buy:
            raise InputError(f"--prices needs {g}=N (The Store's Buy Price)")
        md.track(g).position(buy[g])
    unknown = [g for g in buy if g not in GOODS]
    if unknown:
        raise InputError(f"--prices: unknown good '{unknown[0]}' (goods: {', '.join(GOODS)})")
    stocks = {n: rules.Stocks(**{g: per_good[g].get(n, 0) for g in GOODS}) for n in cash}
    r = rules.final_sell_out(cash, stocks, buy)
    order = rules.rank(r.money, _names(previous, "--previous")) if previous else None
    payload: dict[str, Any] = {"revenue": r.revenue, "money": r.money, "sold": r.sold}
    if order is not None:
        payload["ranking"] = order
    payload["colony_total"] = sum(r.money.values())

    def lines() -> list[str]:
        out = [f"{n}: +${r.revenue[n]} -> ${r.money[n]}" for n in cash]
        if order:
            out.append("Ranking: " + ", ".join(order) + f" -- {order[0]} is the First Founder")
        out.append(f"Colony total: ${payload['colony_total']}")
        return out

    emit(as_json, payload, lines)
