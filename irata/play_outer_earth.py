"""``irata play outer-earth``: Outer Earth's companion on the command line.

A thin shell over ``companion.outer_earth``: parse, call the pure rule function, print a short
table or ``--json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from components.errors import DefinitionError, InputError

SCORE_KEYS = ("name", "profits", "bonus_revenue", "portfolio", "discarded_planets",
              "in_development")


def _emit(as_json: bool, payload: dict[str, Any], text: str) -> None:
    click.echo(json.dumps(payload, indent=2, ensure_ascii=False) if as_json else text)


def _names(value: str, what: str) -> list[str]:
    names = [n.strip() for n in value.split(",") if n.strip()]
    if not names and what != "green":
        raise InputError(f"--{what} needs at least one name (comma-separated)")
    return names


# --- reading a score file ------------------------------------------------------------------------

def _at(node: Any, key: str | int | None, file: str) -> str:
    mark = (0, 0)
    if key is not None and hasattr(node, "at"):
        mark = node.at(key)
    elif hasattr(node, "mark"):
        mark = node.mark
    line, col = mark
    return f"{file}:{line}:{col}" if line else file


def read_score_file(path: Path, face_values: frozenset[int] = frozenset()) -> list[Any]:
    """The companies of a score file, as ``Profits``; mistakes are reported as FILE:LINE:COL.
    ``face_values``, when given, are the values the Bonus Revenue cards show."""
    from companion.outer_earth import Profits
    from components.schema import suggest
    from components.yamlloc import load_file

    shown = str(path)
    if not path.is_file():
        raise InputError(f"{shown}: no such file")
    try:
        doc = load_file(path, shown)
    except DefinitionError as exc:
        raise InputError(str(exc)) from None
    if not isinstance(doc, dict) or "players" not in doc:
        raise InputError(f"{_at(doc, None, shown)}: expected 'players:' followed by a list of "
                         "companies (- name: Ann, profits: 9, ...)")
    players = doc["players"]
    if not isinstance(players, list) or not players:
        raise InputError(f"{_at(doc, 'players', shown)}: 'players' must be a list of at least "
                         "one company")
    out = []
    seen: set[str] = set()
    for i, item in enumerate(players):
        where = _at(players, i, shown)
        if not isinstance(item, dict):
            raise InputError(f"{where}: each player is a mapping (name: ..., profits: ...)")
        for key in item:
            if key not in SCORE_KEYS:
                raise InputError(f"{_at(item, key, shown)}: unknown key '{key}' (expected one "
                                 f"of: {', '.join(SCORE_KEYS)}{suggest(str(key), SCORE_KEYS)})")
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"{_at(item, 'name' if 'name' in item else None, shown)}: each "
                             "player needs a name")
        if name in seen:
            raise InputError(f"{_at(item, 'name', shown)}: the name '{name}' is given twice")
        seen.add(name)
        values: dict[str, Any] = {}
        for key in SCORE_KEYS[1:]:
            if key not in item:
                continue
            value = item[key]
            if key == "bonus_revenue":
                if not isinstance(value, list):
                    raise InputError(f"{_at(item, key, shown)}: bonus_revenue is a list of "
                                     "the cards' face values, such as [8, 5]")
                for j, v in enumerate(value):
                    if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                        raise InputError(f"{_at(value, j, shown)}: a Bonus Revenue card's "
                                         f"face value is a whole number above 0, not {v!r}")
                    if face_values and v not in face_values:
                        shows = ", ".join(str(x) for x in sorted(face_values))
                        raise InputError(f"{_at(value, j, shown)}: no Bonus Revenue card is "
                                         f"worth {v} VP (the cards show {shows})")
                values[key] = tuple(value)
            else:
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise InputError(f"{_at(item, key, shown)}: {key} must be a whole number "
                                     f"0 or more, not {value!r}")
                values[key] = value
        out.append(Profits(name=name, **values))
    return out


# --- the commands ------------------------------------------------------------------------------

@click.group("outer-earth")
def outer_earth() -> None:
    """Outer Earth: victory points, bidding, upkeep, action values, the last round, set-up."""


@outer_earth.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def score(file: Path, as_json: bool) -> None:
    """End-game victory points from a YAML FILE of each company's profits.

    \b
    players:
      - name: Ann
        profits: 9               # development cards in the profits pile
        bonus_revenue: [8, 5]    # face values of Bonus Revenue cards
        portfolio: 4             # planets sold
        discarded_planets: 1     # planets put in the profits pile
        in_development: 1        # planets still in development
    """
    from companion.outer_earth import load_rules, total_profits, winners

    rules = load_rules()
    companies = read_score_file(file, rules.bonus_revenue_values)
    scores = sorted((total_profits(c, rules) for c in companies), key=lambda s: -s.vp)
    best = winners(scores)
    payload = {
        "players": [{"name": s.name, "vp": s.vp, "breakdown": dict(s.breakdown)}
                    for s in scores],
        "winner": best[0] if len(best) == 1 else None,
        "tied": list(best) if len(best) > 1 else [],
    }
    width = max([len("company")] + [len(s.name) for s in scores])
    lines = [f"{'company':<{width}}  {'VP':>4}  profits  bonus  portfolio  discarded  "
             "in dev."]
    for s in scores:
        b = s.breakdown
        lines.append(f"{s.name:<{width}}  {s.vp:>4}  {b['profits']:>7}  "
                     f"{b['bonus_revenue']:>5}  {b['portfolio']:>9}  "
                     f"{b['discarded_planets']:>9}  {b['in_development']:>7}")
    lines.append(f"winner: {best[0]}" if len(best) == 1 else f"tied: {', '.join(best)}")
    _emit(as_json, payload, "\n".join(lines))


@outer_earth.command()
@click.option("--players", "seating", required=True,
              help="The companies in clockwise order, comma-separated.")
@click.option("--start", "starting_player", required=True, help="The starting player.")
@click.option("--green", default="", help="Who revealed a green paddle, comma-separated.")
@click.option("--under", "cards_under", type=int, default=0, show_default=True,
              help="Development cards already under the planet.")
@click.option("--hand", "hands", multiple=True, metavar="NAME=N",
              help="A company's hand size, to check what it can bid (repeatable).")
@click.argument("moves", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def bid(seating: str, starting_player: str, green: str, cards_under: int,
        hands: tuple[str, ...], moves: tuple[str, ...], as_json: bool) -> None:
    """Walk the bidding on one planet: paddles revealed, then MOVES in turn.

    Each move is the answer of the company whose turn it is: accept (the initial bid),
    raise (by 1) or bow (out). Without enough moves, says who is to act and what they may do.

    \b
    irata play outer-earth bid --players Ann,Bob,Cat --start Ann --green Ann,Cat accept bow
    """
    from companion.outer_earth import walk_auction

    hand_sizes: dict[str, int] = {}
    for h in hands:
        name, _, n = h.partition("=")
        if not n.strip().isdigit():
            raise InputError(f"--hand takes NAME=N, such as Ann=5, not '{h}'")
        hand_sizes[name.strip()] = int(n)
    auction = walk_auction(_names(seating, "players"), starting_player.strip(),
                           _names(green, "green"), moves, cards_under, hand_sizes)
    lines = [f"green paddles: {auction.paddles}"]
    status: str
    if not auction.green:
        status = "no bids"
        lines.append(f"Nobody buys the planet: put a development card face down under it "
                     f"({auction.cards_under_after} under it now).")
    else:
        if len(auction.steps) == 0 and auction.buyer is None:
            lines.append(f"{auction.to_act} may open at {auction.bid}.")
        for step in auction.steps:
            if step.move == "accept":
                lines.append(f"{step.company} accepts the initial bid of {step.bid}.")
            elif step.move == "raise":
                lines.append(f"{step.company} raises to {step.bid}.")
            else:
                lines.append(f"{step.company} bows out (bid {step.bid}).")
        if auction.buyer is not None:
            status = "sold"
            pay = ("for free" if auction.price == 0 else
                   f"for {auction.price} development card{'s' if auction.price != 1 else ''}")
            lines.append(f"{auction.buyer} buys the planet {pay}.")
            if auction.cards_under:
                lines.append(f"{auction.buyer} takes the {auction.cards_under} development "
                             "card(s) from under it.")
            lines.append(f"The starting player token moves to {auction.next_starting_player}.")
        else:
            status = "bidding"
            verb = "open at" if auction.leader is None else "raise to"
            target = auction.bid if auction.leader is None else auction.bid + 1
            lines.append(f"{auction.to_act} to act: {verb} {target} or bow out"
                         + (f" ({auction.leader} holds {auction.bid})." if auction.leader
                            else "."))
    payload = {
        "status": status,
        "paddles": auction.paddles,
        "green": list(auction.green),
        "steps": [{"company": s.company, "move": s.move, "bid": s.bid} for s in auction.steps],
        "bid": auction.bid,
        "leader": auction.leader,
        "to_act": auction.to_act,
        "choices": list(auction.choices()),
        "buyer": auction.buyer,
        "price": auction.price if auction.buyer else None,
        "cards_under": auction.cards_under_after if not auction.green else auction.cards_under,
        "starting_player": auction.next_starting_player,
    }
    _emit(as_json, payload, "\n".join(lines))


@outer_earth.command()
@click.option("--hand", type=click.IntRange(min=0), required=True,
              help="Development cards in hand.")
@click.option("--planets", type=click.IntRange(min=0), required=True,
              help="Planets in the construction area.")
@click.option("--sell", "sell_value", type=click.IntRange(min=0), required=True,
              help="The company's Sell action value.")
@click.option("--discard-planets", type=click.IntRange(min=0), default=0, show_default=True,
              help="Taxed planets put into the profits pile instead of paying 2 cards.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def upkeep(hand: int, planets: int, sell_value: int, discard_planets: int,
           as_json: bool) -> None:
    """Phase 3 for one company: planet tax, then the hand limit."""
    from companion.outer_earth import load_rules
    from companion.outer_earth import upkeep as do_upkeep

    rules = load_rules()
    u = do_upkeep(hand, planets, sell_value, rules, discard_planets)
    lines = [f"planets beyond the sell value: {u.taxed_planets}"]
    if u.taxed_planets:
        lines.append(f"planet tax: discard {u.cards_for_tax} development cards"
                     + (f" and put {u.planets_to_profits} planet(s) into profits (-2 VP each)"
                        if u.planets_to_profits else ""))
    lines.append(f"hand limit {rules.hand_limit}: discard {u.hand_limit_discard}")
    lines.append(f"after upkeep: {u.hand_after} cards in hand, {u.planets_after} planets in "
                 "construction")
    payload = {"taxed_planets": u.taxed_planets, "cards_for_tax": u.cards_for_tax,
               "planets_to_profits": u.planets_to_profits,
               "hand_limit_discard": u.hand_limit_discard, "hand_after": u.hand_after,
               "planets_after": u.planets_after}
    _emit(as_json, payload, "\n".join(lines))


def _find_planet(name: str) -> Any:
    from companion.outer_earth import planet_cards
    from components.schema import suggest

    cards = planet_cards()
    key = name.strip().lower()
    for pid, planet in cards.items():
        if key in (pid.lower(), pid.split("/")[-1].lower(), planet.name.lower()):
            return planet
    names = [p.name for p in cards.values()]
    raise InputError(f"no planet '{name}'{suggest(name, names) or ' (see the planet cards)'}")


@outer_earth.command()
@click.option("--dice", default="2,2,1", show_default=True,
              help="The draw, build and sell dice, comma-separated.")
@click.option("--planet", default=None, help="The most recent planet in the portfolio.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def actions(dice: str, planet: str | None, as_json: bool) -> None:
    """A company's draw, build and sell values: dice plus the latest planet's benefits."""
    from companion.outer_earth import CompanyDice, action_values, load_rules

    parts = [p.strip() for p in dice.split(",")]
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise InputError(f"--dice takes three numbers, draw,build,sell (such as 2,2,1), "
                         f"not '{dice}'")
    d = CompanyDice(*(int(p) for p in parts))
    latest = _find_planet(planet) if planet else None
    values = action_values(d, latest, load_rules())
    lines = [f"{a:<5}  {values[a]}  (die {getattr(d, a)}"
             + (f" + {latest.name} {latest.benefits.get(a, 0)}" if latest else "") + ")"
             for a in ("draw", "build", "sell")]
    lines.append(f"tax-free planets in construction: {values['sell']}")
    _emit(as_json, {"dice": d.as_dict(), "planet": latest.name if latest else None,
                    "values": values}, "\n".join(lines))


@outer_earth.command("last-round")
@click.option("--galaxy", type=click.IntRange(min=0), required=True,
              help="Planets left in the galaxy deck.")
@click.option("--piles", required=True, help="Cards left in each bonus revenue pile, "
              "comma-separated (such as 0,2,4).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def last_round_cmd(galaxy: int, piles: str, as_json: bool) -> None:
    """Is the next round the last? (galaxy deck or bonus revenue piles run out)"""
    from companion.outer_earth import last_round, load_rules

    parts = [p.strip() for p in piles.split(",") if p.strip()]
    if not parts or not all(p.isdigit() for p in parts):
        raise InputError(f"--piles takes whole numbers, comma-separated, not '{piles}'")
    counts = [int(p) for p in parts]
    rules = load_rules()
    result = last_round(galaxy, counts, rules)
    text = ("yes: play one more round, then score" if result else
            f"no (ends when the galaxy deck or {rules.bonus_revenue_piles_empty} bonus revenue "
            "piles are empty)")
    _emit(as_json, {"last_round": result, "galaxy_deck": galaxy, "piles": counts,
                    "piles_empty_to_end": rules.bonus_revenue_piles_empty}, text)


@outer_earth.command()
@click.option("--players", type=int, required=True, help="2 to 4.")
@click.option("--short/--normal", "short", default=False,
              help="A short game (new players) or a normal one.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def setup(players: int, short: bool, as_json: bool) -> None:
    """The set-up for 2 to 4 players: galaxy deck, planet market, bonus revenue piles."""
    from companion.outer_earth import load_rules
    from companion.outer_earth import setup as do_setup

    s = do_setup(players, "short" if short else "normal", load_rules())
    lines = [f"{s.players} players, {s.length} game"]
    if s.remove_long_cards:
        lines.append("remove every Planet and Bonus Revenue card marked L")
    lines.append(f"galaxy deck: {s.galaxy_deck} planets")
    if s.galaxy_shortfall:
        lines.append(f"  (the box holds {s.planets_in_box} such planets: use them all)")
    lines += [f"planet market: {s.planet_market} slots",
              f"bonus revenue: {s.bonus_revenue_piles} piles of "
              f"{s.bonus_revenue_cards_per_pile} cards",
              f"each company: {s.starting_hand} development cards, {s.dice_per_company} dice "
              f"at {s.starting_dice['draw']} draw, {s.starting_dice['build']} build, "
              f"{s.starting_dice['sell']} sell"]
    payload = {"players": s.players, "length": s.length, "galaxy_deck": s.galaxy_deck,
               "planets_in_box": s.planets_in_box, "planet_market": s.planet_market,
               "bonus_revenue_piles": s.bonus_revenue_piles,
               "bonus_revenue_cards_per_pile": s.bonus_revenue_cards_per_pile,
               "remove_long_cards": s.remove_long_cards, "starting_hand": s.starting_hand,
               "starting_dice": dict(s.starting_dice)}
    _emit(as_json, payload, "\n".join(lines))


@outer_earth.command()
@click.option("--planet", required=True, help="The planet sold (name or id).")
@click.option("--built", required=True,
              help="Its infrastructure in build order: colours, comma-separated.")
@click.option("--bonus", default=None, help="The Bonus Revenue card taken (id, such as br/14).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def sell(planet: str, built: str, bonus: str | None, as_json: bool) -> None:
    """What selling a planet brings: profits, bonus revenue, the planet's 2 VP."""
    from companion.outer_earth import bonus_revenue_cards, load_rules, sell_planet
    from components.schema import suggest

    infrastructure = [c.strip().lower() for c in built.split(",") if c.strip()]
    card = None
    if bonus:
        cards = bonus_revenue_cards()
        if bonus not in cards:
            raise InputError(f"no Bonus Revenue card '{bonus}'{suggest(bonus, list(cards))}")
        card = cards[bonus]
    sale = sell_planet(_find_planet(planet), infrastructure, load_rules(), card)
    lines = [f"{sale.planet}: {sale.vp} VP at the end",
             f"  {sale.to_profits} development cards to profits ({sale.to_profits} VP)"]
    if card:
        lines.append(f"  {sale.discarded} cards paid for the Bonus Revenue card "
                     f"({sale.bonus_revenue_vp} VP)")
    lines.append(f"  the planet in the portfolio ({sale.planet_vp} VP)")
    if sale.dice_increase:
        lines.append(f"  raise a company die by 1, {sale.dice_increase} time(s)")
    _emit(as_json, {"planet": sale.planet, "vp": sale.vp, "to_profits": sale.to_profits,
                    "discarded": sale.discarded, "bonus_revenue_vp": sale.bonus_revenue_vp,
                    "planet_vp": sale.planet_vp, "dice_increase": sale.dice_increase},
          "\n".join(lines))
