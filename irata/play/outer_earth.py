"""``irata play outer-earth``: Outer Earth's companion on the command line.

A thin shell over ``companion.outer_earth``: parse, call the pure rule function, print a short
table or ``--json``. The saved game (``companion.outer_earth.saved``) is kept with ``new``,
``draw``, ``build`` and ``round``, and by the calculators with ``--save`` (the game played
last) or ``--game ID``. Each step it records is a move of the game's declaration
(``companion.outer_earth.game``), played by ``companion.play.play``: the rules check it there,
and the command prints what it did.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from companion.names import check_names
from companion.outer_earth.moves import MOVES
from components.errors import InputError
from irata.options import (
    DB,
    GAME,
    JSON,
    NAME,
    SAVE,
    SEED,
    BoundedInt,
    create,
    emit,
    names,
    need,
    read,
    using_saved,
)
from irata.play.declared import DeclaredGroup, Face, pairs

if TYPE_CHECKING:
    from companion.play import Played
    from companion.session import SavedGame

def _names(value: str, what: str) -> list[str]:
    names = [n.strip() for n in value.split(",") if n.strip()]
    if not names and what != "green":
        raise InputError(f"--{what} needs at least one name (comma-separated)")
    return names


# --- saved games ---------------------------------------------------------------------------------
# One convention for every command: --save uses the saved game played last, --game ID a named
# one; either makes a calculator read its inputs from the saved game and record its result
# there as one event (score, actions and last-round only read).

def _read(db: str | None, game_id: int | None) -> tuple[SavedGame, dict[str, Any]]:
    return read(db, game_id, "outer-earth")


def _saved_rules() -> Any:
    from companion.outer_earth import saved
    from companion.outer_earth.data import load_rules

    return saved, load_rules()


# --- the commands ------------------------------------------------------------------------------

@click.group("outer-earth", cls=DeclaredGroup)
def outer_earth() -> None:
    """Outer Earth: victory points, bidding, upkeep, action values, the last round, set-up;
    and saved games (new, then bid, draw, build, sell, done, upkeep, round; turn walks a
    round)."""


def _score_report(scores: list[Any], as_json: bool, extra: dict[str, Any] | None = None
                  ) -> None:
    from companion.outer_earth.rules import winners

    scores = sorted(scores, key=lambda s: -s.vp)
    best = winners(scores)
    payload = {
        "players": [{"name": s.name, "vp": s.vp, "breakdown": dict(s.breakdown)}
                    for s in scores],
        "winner": best[0] if len(best) == 1 else None,
        "tied": list(best) if len(best) > 1 else [],
        **(extra or {}),
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
    emit(as_json, payload, "\n".join(lines))


@outer_earth.command()
@click.argument("file", type=click.Path(path_type=Path), required=False)
@SAVE
@GAME
@DB
@JSON
def score(file: Path | None, save: bool, game_id: int | None, db: str | None,
          as_json: bool) -> None:
    """End-game victory points from a YAML FILE of each company's profits, or from the saved
    game's companies (--save, or --game ID).

    \b
    players:
      - name: Ann
        profits: 9               # development cards in the profits pile
        bonus_revenue: [8, 5]    # face values of Bonus Revenue cards
        portfolio: 4             # planets sold
        discarded_planets: 1     # planets put in the profits pile
        in_development: 1        # planets still in development
    """
    from companion.outer_earth.data import load_rules
    from companion.outer_earth.rules import check_held, total_profits

    rules = load_rules()
    if using_saved(save, game_id):
        if file is not None:
            raise InputError("give a score FILE or a saved game (--save / --game ID), not both")
        saved, _ = _saved_rules()
        game, state = _read(db, game_id)
        companies = saved.profits_of(state)
        extra: dict[str, Any] | None = {"game": game.id, "over": bool(state.get("over"))}
    else:
        from companion.outer_earth.files import read_score_file

        companies = read_score_file(need(file, "FILE"), rules.bonus_revenue_values)
        extra = None
    check_held(companies, rules)
    _score_report([total_profits(c, rules) for c in companies], as_json, extra)


def _auction_report(auction: Any) -> tuple[list[str], dict[str, Any]]:
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
    return lines, payload


@click.command("bid")
@click.option("--players", "seating", default=None,
              help="The companies in clockwise order, comma-separated.")
@click.option("--start", "starting_player", default=None, help="The starting player.")
@click.option("--green", default="", help="Who revealed a green paddle, comma-separated.")
@click.option("--under", "cards_under", type=BoundedInt(), default=None,
              help="Development cards already under the planet (default 0).")
@click.option("--hand", "hands", multiple=True, metavar="NAME=N",
              help="Each company's hand size, to check what it can bid: Ann=5,Bob=3 "
                   "(repeatable).")
@click.argument("moves", nargs=-1)
@SAVE
@JSON
def bid_calculator(seating: str | None, starting_player: str | None, green: str,
                   cards_under: int | None, hands: tuple[str, ...], moves: tuple[str, ...],
                   save: bool, as_json: bool) -> None:
    """Walk the bidding on one planet: paddles revealed, then MOVES in turn.

    Each move is the answer of the company whose turn it is: accept (the initial bid),
    raise (by 1) or bow (out). Without enough moves, says who is to act and what they may do.

    \b
    irata play outer-earth bid --players Ann,Bob,Cat --start Ann --green Ann,Cat accept bow
    irata play outer-earth bid --planet Halcyon --green Ann,Cat accept bow   (the saved game)
    """
    from companion.outer_earth.rules import walk_auction

    seating = ",".join(check_names(names(need(seating, "--players"))))
    starting_player = need(starting_player, "--start")
    hand_sizes: dict[str, int] = {}
    for name, n in pairs(hands, "--hand").items():     # NAME=N, repeatable or comma-separated
        if not (n.isascii() and n.isdigit() and len(n) <= 6):
            raise InputError(f"--hand takes NAME=N, such as Ann=5, not '{name}={n[:40]}'")
        hand_sizes[name] = int(n)
    auction = walk_auction(_names(seating, "players"), starting_player.strip(),
                           _names(green or "", "green"), moves, cards_under or 0, hand_sizes)
    lines, payload = _auction_report(auction)
    emit(as_json, payload, "\n".join(lines))


def _bidding_goes_on(exc: Exception) -> tuple[dict[str, Any], list[str]] | None:
    """A saved game's bidding that is not over yet: the auction so far, nothing saved."""
    from companion.outer_earth.game import BiddingGoesOn

    if not isinstance(exc, BiddingGoesOn):
        return None
    lines, payload = _auction_report(exc.auction)
    return {**payload, "saved": False}, [*lines, "Nothing saved until the bidding ends."]


def _show_bid(done: Played, state: dict[str, Any], game: int) -> tuple[dict[str, Any], list[str]]:
    data = done.event.data
    lines, payload = _auction_report(done.detail)
    lines.append(f"Saved in game {game}: {data['planet']} "
                 + (f"to {data['buyer']}, {data['buyer']} holds "
                    f"{state['players'][data['buyer']]['hand']} cards."
                    if data["buyer"] else
                    f"stays in the market with {data['under']} card(s) under it."))
    return {**payload, "saved": True, "game": game, "planet": data["planet"]}, lines


@click.command("upkeep")
@click.option("--hand", type=BoundedInt(0, 10**6), default=None,
              help="Development cards in hand.")
@click.option("--planets", type=BoundedInt(0, 10**6), default=None,
              help="Planets in the construction area.")
@click.option("--sell", "sell_value", type=BoundedInt(0, 10**6), default=None,
              help="The company's Sell action value.")
@click.option("--discard-planets", type=BoundedInt(0, 10**6), default=0, show_default=True,
              help="Taxed planets put into the profits pile instead of paying 2 cards.")
@SAVE
@JSON
def upkeep_calculator(hand: int | None, planets: int | None, sell_value: int | None,
                      discard_planets: int, save: bool, as_json: bool) -> None:
    """Phase 3 for one company: planet tax, then the hand limit (--hand, --planets, --sell).
    """
    from companion.outer_earth.data import load_rules
    from companion.outer_earth.rules import upkeep as do_upkeep

    rules = load_rules()
    u = do_upkeep(need(hand, "--hand"), need(planets, "--planets"), need(sell_value, "--sell"),
                  rules, discard_planets)
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
    emit(as_json, payload, "\n".join(lines))


def _show_upkeep(done: Played, state: dict[str, Any], game: int
                 ) -> tuple[dict[str, Any], list[str]]:
    data = done.event.data
    lines = [f"Upkeep of round {data['round']}:"]
    for name, u in data["companies"].items():
        part = [f"{u['taxed_planets']} taxed planet(s)"]
        if u["cards_for_tax"]:
            part.append(f"pays {u['cards_for_tax']} cards")
        if u["planets_to_profits"]:
            part.append(f"{', '.join(u['planets_to_profits'])} to profits (-2 VP each)")
        part.append(f"discards {u['hand_limit_discard']} to the hand limit")
        lines.append(f"  {name}: {', '.join(part)}; hand {u['hand_after']}")
    lines.append(f"Saved in game {game}. The end of the round runs itself after it.")
    return {"game": game, "round": data["round"], "companies": data["companies"]}, lines


def _action_lines(d: Any, latest: Any, values: dict[str, int]) -> list[str]:
    lines = [f"{a:<5}  {values[a]}  (die {getattr(d, a)}"
             + (f" + {latest.name} {latest.benefits.get(a, 0)}" if latest else "") + ")"
             for a in ("draw", "build", "sell")]
    lines.append(f"tax-free planets in construction: {values['sell']}")
    return lines


@outer_earth.command()
@click.option("--dice", default=None, help="The draw, build and sell dice, comma-separated "
              "(default 2,2,1).")
@click.option("--planet", default=None, help="The most recent planet in the portfolio.")
@click.option("--player", default=None, help="With a saved game: one company (default all).")
@SAVE
@GAME
@DB
@JSON
def actions(dice: str | None, planet: str | None, player: str | None, save: bool,
            game_id: int | None, db: str | None, as_json: bool) -> None:
    """A company's draw, build and sell values: dice plus the latest planet's benefits.

    With a saved game, from each company's saved dice and latest portfolio planet.
    """
    from companion.outer_earth.data import find_planet, load_rules
    from companion.outer_earth.rules import CompanyDice, action_values

    rules = load_rules()
    if using_saved(save, game_id, {"--dice": dice, "--planet": planet}):
        saved, _ = _saved_rules()
        game, state = _read(db, game_id)
        s = saved.state_from_json(state)
        names = [player] if player else [n for n, _ in s.players]
        out: dict[str, Any] = {}
        lines: list[str] = []
        for name in names:
            d, latest, values = saved.company_values(s, name, rules)
            out[name] = {"dice": d.as_dict(), "planet": latest.name if latest else None,
                         "values": values}
            lines.append(f"{name}:")
            lines += ["  " + line for line in _action_lines(d, latest, values)]
        emit(as_json, {"game": game.id, "companies": out}, "\n".join(lines))
        return
    if player:
        raise InputError("--player names a saved game's company: add --save")
    dice = dice or "2,2,1"
    parts = [p.strip() for p in dice.split(",")]
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() and len(p) <= 6 for p in parts):
        raise InputError(f"--dice takes three numbers, draw,build,sell (such as 2,2,1), "
                         f"not '{dice[:40]}'")
    d = CompanyDice(*(int(p) for p in parts))
    latest = find_planet(planet) if planet else None
    values = action_values(d, latest, rules)
    emit(as_json, {"dice": d.as_dict(), "planet": latest.name if latest else None,
                    "values": values}, "\n".join(_action_lines(d, latest, values)))


@outer_earth.command("last-round")
@click.option("--galaxy", type=BoundedInt(0, 10**6), default=None,
              help="Planets left in the galaxy deck.")
@click.option("--piles", default=None, help="Cards left in each bonus revenue pile, "
              "comma-separated (such as 0,2,4).")
@SAVE
@GAME
@DB
@JSON
def last_round_cmd(galaxy: int | None, piles: str | None, save: bool, game_id: int | None,
                   db: str | None, as_json: bool) -> None:
    """Is the next round the last? (galaxy deck or bonus revenue piles run out)

    With a saved game, from its galaxy deck and bonus revenue piles; 'round' records it.
    """
    from companion.outer_earth.data import load_rules
    from companion.outer_earth.rules import last_round

    rules = load_rules()
    why = (f"ends when the galaxy deck or {rules.bonus_revenue_piles_empty} bonus revenue "
           "piles are empty")
    if using_saved(save, game_id, {"--galaxy": galaxy, "--piles": piles}):
        saved, _ = _saved_rules()
        game, state = _read(db, game_id)
        r = saved.last_round_of(state, rules)
        if r["over"]:
            text = "the game is over: score it with 'irata play outer-earth score --save'"
        elif r["this_round_is_last"]:
            text = f"yes: round {r['round']} is the last round, then score"
        elif r["next_round_is_last"]:
            text = (f"yes: round {r['round'] + 1} will be the last round "
                    "(recorded when this round ends)")
        else:
            text = f"no ({why})"
        text += (f"\ngalaxy deck {r['galaxy_deck']} left, bonus revenue piles "
                 f"{', '.join(str(p) for p in r['piles'])}")
        emit(as_json, {"game": game.id, "last_round": bool(r["triggered"]), **r,
                        "piles_empty_to_end": rules.bonus_revenue_piles_empty}, text)
        return
    galaxy = need(galaxy, "--galaxy")
    piles = need(piles, "--piles")
    parts = [p.strip() for p in piles.split(",") if p.strip()]
    if not parts or not all(p.isascii() and p.isdigit() and len(p) <= 6 for p in parts):
        shown = piles if len(piles) <= 40 else piles[:40] + "..."
        raise InputError(f"--piles takes whole numbers (at most 6 digits each), "
                         f"comma-separated, not '{shown}'")
    counts = [int(p) for p in parts]
    result = last_round(galaxy, counts, rules)
    text = ("yes: play one more round, then score" if result else f"no ({why})")
    emit(as_json, {"last_round": result, "galaxy_deck": galaxy, "piles": counts,
                    "piles_empty_to_end": rules.bonus_revenue_piles_empty}, text)


@outer_earth.command()
@click.option("--players", "players_text", required=True,
              help="The companies' names, comma-separated: Ann,Bob,Cid (2 to 4).")
@click.option("--short/--normal", "short", default=False,
              help="A short game (new players) or a normal one.")
@JSON
def setup(players_text: str, short: bool, as_json: bool) -> None:
    """The set-up for 2 to 4 players: galaxy deck, planet market, bonus revenue piles."""
    from companion.outer_earth.data import load_rules
    from companion.outer_earth.rules import setup as do_setup

    players = len(check_names(names(players_text)))
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
    emit(as_json, payload, "\n".join(lines))


def _sale_lines(name: str, vp: int, to_profits: int, discarded: int, bonus_vp: int | None,
                planet_vp: int, dice_increase: int) -> list[str]:
    lines = [f"{name}: {vp} VP at the end",
             f"  {to_profits} development cards to profits ({to_profits} VP)"]
    if bonus_vp is not None:
        lines.append(f"  {discarded} cards paid for the Bonus Revenue card ({bonus_vp} VP)")
    lines.append(f"  the planet in the portfolio ({planet_vp} VP)")
    if dice_increase:
        lines.append(f"  raise a company die by 1, {dice_increase} time(s)")
    return lines


@click.command("sell")
@click.option("--planet", required=True, help="The planet sold (name or id).")
@click.option("--built", default=None, help="Its infrastructure in build order: colours, "
              "comma-separated.")
@click.option("--bonus", default=None, help="The Bonus Revenue card taken (id, such as br/14).")
@SAVE
@JSON
def sell_calculator(planet: str, built: str | None, bonus: str | None, save: bool,
                    as_json: bool) -> None:
    """What selling a planet brings: profits, bonus revenue, the planet's 2 VP."""
    from companion.outer_earth.data import bonus_revenue_cards, find_planet, load_rules
    from companion.outer_earth.rules import sell_planet
    from components.schema import suggest

    rules = load_rules()
    infrastructure = [c.strip().lower() for c in need(built, "--built").split(",")
                      if c.strip()]
    card = None
    if bonus:
        cards = bonus_revenue_cards()
        if bonus not in cards:
            raise InputError(f"no Bonus Revenue card '{bonus}'{suggest(bonus, list(cards))}")
        card = cards[bonus]
    sale = sell_planet(find_planet(planet), infrastructure, rules, card)
    emit(as_json, {"planet": sale.planet, "vp": sale.vp, "to_profits": sale.to_profits,
                    "discarded": sale.discarded, "bonus_revenue_vp": sale.bonus_revenue_vp,
                    "planet_vp": sale.planet_vp, "dice_increase": sale.dice_increase},
          "\n".join(_sale_lines(sale.planet, sale.vp, sale.to_profits, sale.discarded,
                                sale.bonus_revenue_vp if card else None, sale.planet_vp,
                                sale.dice_increase)))


def _show_sell(done: Played, state: dict[str, Any], game: int
               ) -> tuple[dict[str, Any], list[str]]:
    from companion.outer_earth.data import load_rules

    rules = load_rules()
    data, player = done.event.data, str(done.move.who)
    b = data["bonus"]
    lines = _sale_lines(data["planet"], data["vp"], data["to_profits"], data["discarded"],
                        b["vp"] if b else None, rules.portfolio_planet_vp, len(data["raise"]))
    c = state["players"][player]
    lines.append(f"Saved in game {game}: {player} holds {c['hand']} cards, profits "
                 f"{c['profits']['cards']} cards, portfolio {', '.join(c['portfolio'])}"
                 + (f", dice {c['dice']['draw']}/{c['dice']['build']}/"
                    f"{c['dice']['sell']}" if data["raise"] else "")
                 + (f"; pile {b['pile'] + 1} has "
                    f"{state['bonus_revenue_piles'][b['pile']]} left" if b else ""))
    return {"planet": data["planet"], "vp": data["vp"], "to_profits": data["to_profits"],
            "discarded": data["discarded"], "bonus_revenue_vp": b["vp"] if b else 0,
            "planet_vp": rules.portfolio_planet_vp, "dice_increase": len(data["raise"]),
            "game": game, "company": c}, lines


# --- commands of the saved game alone ------------------------------------------------------------

@outer_earth.command()
@click.option("--players", "players_text", required=True,
              help="The companies in clockwise order, comma-separated: Ann,Bob,Cid.")
@click.option("--short/--normal", "short", default=False,
              help="A short game (cards marked L removed) or a normal one.")
@click.option("--starting-player", default=None,
              help="The starting player (default: rolled for, by --seed).")
@click.option("--seed", type=SEED, default=None, help="Makes the starting player's roll "
              "repeatable.")
@NAME
@DB
@JSON
def new(players_text: str, short: bool, starting_player: str | None, seed: int | None,
        game_name: str | None, db: str | None, as_json: bool) -> None:
    """Start a saved game: the set-up table's decks, market and piles, every company's dice
    and hand, the starting player."""
    saved, rules = _saved_rules()
    state = saved.new_game(check_names(names(players_text)), "short" if short else "normal", rules,
                           starting_player, seed)
    game, _ = create(db, "outer-earth", state,
                     game_name or f"Outer Earth, {len(state['seating'])} companies")
    emit(as_json, {"id": game.id, "name": game.name, "state": state},
          f"Saved game {game.id} ({game.name}), seed {state['seed']}\n"
          + saved.describe(state))


def _show_draw(done: Played, state: dict[str, Any], game: int
               ) -> tuple[dict[str, Any], list[str]]:
    data, player = done.event.data, str(done.move.who)
    hand = state["players"][player]["hand"]
    return ({"game": game, "player": player, "cards": data["cards"], "hand": hand},
            [f"{player} draws {data['cards']}: {hand} cards in hand."])


def _show_build(done: Played, state: dict[str, Any], game: int
                ) -> tuple[dict[str, Any], list[str]]:
    data, player = done.event.data, str(done.move.who)
    c = state["players"][player]
    on = next(p for p in c["in_development"] if p["planet"] == data["planet"])
    return ({"game": game, "player": player, "planet": data["planet"], "built": on["built"],
             "hand": c["hand"]},
            [f"{data['planet']}: {', '.join(on['built'])} ({len(on['built'])}); {player} "
             f"holds {c['hand']} cards."])


def _show_round(done: Played, state: dict[str, Any], game: int
                ) -> tuple[dict[str, Any], list[str]]:
    data = done.event.data
    if data["over"]:
        text = (f"Round {data['round']} was the last: the game is over. Score it with "
                "'irata play outer-earth score --save'.")
    else:
        text = (f"Round {data['round']} ends: {data['refill']} planet(s) added to the market, "
                f"galaxy deck {state['galaxy_deck']} left. Round {state['round']} begins"
                + (" (the last round)." if data["last_round_next"] else "."))
    return ({"game": game, "round": state["round"], "refill": data["refill"],
             "galaxy_deck": state["galaxy_deck"], "market": state["market"]["planets"],
             "last_round": _saved_rules()[0].plays_last_round(state),
             "over": state["over"]}, [text])


START = "irata play outer-earth new --players ..."
FACES = {"bid": Face(_show_bid, _bidding_goes_on, bid_calculator),
         "draw": Face(_show_draw), "build": Face(_show_build),
         "sell": Face(_show_sell, calculator=sell_calculator),
         "upkeep": Face(_show_upkeep, calculator=upkeep_calculator),
         "round": Face(_show_round)}

outer_earth.declare("outer-earth", "Outer Earth", START, MOVES, FACES)
