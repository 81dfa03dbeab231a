"""Mule Goes Crazy!, declared (:class:`companion.play.Declaration`): the steps the table records
in a saved game (:data:`~companion.mule_goes_crazy.moves.MOVES`), what comes now (the saved
game's ``next_step``), and each move applied by the saved game's own event builder (which
raises the rule's refusal) and folded by its own fold step, so the events are exactly those the
commands have always recorded.

The steps with nothing to decide run themselves (:meth:`MuleGoesCrazyGame.auto`, from
``now``'s ``auto``): the Favored Player, Spoilage, the Population upkeep; saved as events like
any other (marked ``auto``), shown in ``next`` and ``status``, and taken back by ``undo`` with
the entry before them. Production may be typed dice and a Land Auction is the table's bidding,
so they stay the table's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from companion.mule_goes_crazy import saved, steps
from companion.mule_goes_crazy.moves import MOVES
from companion.mule_goes_crazy.now import now_of
from companion.mule_goes_crazy.state import State, state_from_json, state_to_json
from companion.mule_goes_crazy.steps import amount
from companion.play import Move, Now, Outcome, auto_move
from companion.session import parse_amount
from components.errors import InputError, RuleError

__all__ = ["GAME", "MOVES", "MuleGoesCrazyGame", "amount"]

Built = tuple[dict[str, Any], Any]   # an event's data, and what the command shows of it


def _definitions() -> Any:
    from companion.mule_goes_crazy.data import game

    return game()


def _who(move: Move) -> str:
    if not move.who:
        raise InputError(f"'{move.kind}' names a player first: {move.kind} NAME ...")
    return move.who


def _word(move: Move, key: str) -> str:
    text = move.answers.get(key, "").strip()
    if not text:
        raise InputError(f"'{move.kind}' needs its {key.upper()}")
    return text


def _flag(text: str | None) -> bool:
    return bool(text and text.strip()) and str(text).strip().lower() not in ("no", "false", "0")


def _favored(s: State, move: Move) -> Built:
    return saved.favored_event(s, move.answers.get("player") or None), None


def _none(text: str) -> bool:
    return text.strip().lower() in ("none", "-", "no land", "not a land")


def _grant(s: State, move: Move) -> Built:
    g = _definitions()
    word = _word(move, "land")
    if _none(word):
        return saved.grant_event(s, _who(move), None), None
    key = saved.card_key(g, word, "land")
    return saved.grant_event(s, _who(move), key, saved.copies(g, "land", key)), key


def _walked(s: State, text: str) -> tuple[Any, dict[str, str]]:
    """``--bid NAME=CREDITS|pass ...``: the Land Auction's bidding walked from the favored
    player (``cards.walk_land_auction``), and the winner and price it gives."""
    from companion.entry import pair_list
    from companion.mule_goes_crazy.cards import walk_land_auction

    saved._auctions_open(s, "a Land Auction")     # the auctions go on: a Land is up
    if s.favored not in s.seating:
        raise RuleError("the favored player bids first: record the Favored Player first")
    at = s.seating.index(s.favored)
    order = [*s.seating[at:], *s.seating[:at]]
    credits = {n: s.sheet(n).credits for n in order}
    walk = walk_land_auction(order, s.opening_bid, credits, pair_list([text], "--bid"))
    return walk, ({"unsold": "yes"} if walk.winner is None else
                  {"winner": walk.winner, "price": str(walk.price)})


def _auction(s: State, move: Move) -> Built:
    from companion.mule_goes_crazy import rules as mgc

    given, walk = move.answers, None
    if given.get("bids"):
        if any(k in given for k in ("unsold", "winner", "price")) or _none(_word(move, "land")):
            raise InputError("--bid walks the bidding on a Land: it gives the winner and the "
                             "price, so leave out --winner, --price and --unsold")
        walk, won = _walked(s, given["bids"])
        given = {**given, **won}
    unsold, winner, price_text = _flag(given.get("unsold")), given.get("winner"), \
        given.get("price")
    if unsold and (winner is not None or price_text is not None):
        raise InputError("--unsold takes no --winner or --price")
    if _none(_word(move, "land")):
        if unsold or winner is not None or price_text is not None:
            raise InputError("'auction none' (the card turned over is not a Land) takes no "
                             "--winner, --price or --unsold")
        return saved.not_a_land_event(s), {"land": None, "winner": None, "price": None}
    if not unsold and winner is None:
        raise InputError("say who won the Land (--winner NAME --price N), or --unsold")
    price = parse_amount(price_text, "--price") if price_text is not None else None
    if price is not None and price < 0:
        raise InputError(f"--price must be 0 or more, not {price}")
    g = _definitions()
    key = saved.card_key(g, _word(move, "land"), "land")
    data = saved.auction_event(s, key, winner, price, mgc.auction_rules(g.data),
                               saved.copies(g, "land", key))
    if walk is not None:
        data["bids"] = [list(b) for b in walk.bids]
    return data, {"land": key, "winner": winner, "price": price}


def _buy(s: State, move: Move) -> Built:
    from companion.mule_goes_crazy import rules as mgc

    g = _definitions()
    key = saved.card_key(g, _word(move, "mule"), "mule")
    card = mgc.mule_card(g, key)
    return saved.buy_event(s, _who(move), card, key, saved.copies(g, "mule", key)), card


def _move(s: State, move: Move) -> Built:
    from companion.mule_goes_crazy import rules as mgc

    g = _definitions()
    key = saved.card_key(g, _word(move, "mule"), "mule")
    land_key = saved.card_key(g, _word(move, "land"), "land")
    from_land = move.answers.get("from")
    from_key = saved.card_key(g, from_land, "land") if from_land else None
    card = mgc.mule_card(g, key)
    per_land = int(g.data.get("mules_per_land", 1))
    data = saved.move_event(s, _who(move), key, card, land_key, from_key, per_land)
    return data, {"card": card, "land": land_key}


def _population(s: State, move: Move) -> Built:
    g = _definitions()
    key = saved.card_key(g, _word(move, "card"), "population")
    facility = move.answers.get("facility")
    fac = saved.card_key(g, facility, "facility") if facility else None
    data = saved.population_event(s, key, fac, move.answers.get("player"),
                                  saved.copies(g, "population", key),
                                  saved.copies(g, "facility", fac) if fac else None)
    return data, {"card": key, "facility": fac}


def _produce(s: State, move: Move) -> Built:
    rolls = move.answers.get("rolls")
    typed = [amount(r, "--rolls") for r in rolls.split(",")] if rolls else None
    return saved.produce_event(s, _definitions(), move.answers.get("player"), typed), None


def _spoilage(s: State, move: Move) -> Built:
    from companion.mule_goes_crazy import rules as mgc

    return saved.spoilage_event(s, mgc.spoilage_rules(_definitions().data)), None


def _upkeep(s: State, move: Move) -> Built:
    from companion.mule_goes_crazy import rules as mgc

    g = _definitions()
    before = [{"card": card, "facility": facility} for card, facility in s.populations]
    cards = [mgc.population_card(g, card, facility) for card, facility in s.populations]
    builds = steps.build_payments(s, g)
    return saved.upkeep_event(s, cards, builds), before


def _end_turn(s: State, move: Move) -> Built:
    return saved.end_turn_event(s, _definitions().data), None


def _done(s: State, move: Move) -> Built:
    return steps.done_event(s, _who(move)), None


def _key(move: Move, prefix: str) -> str:
    return saved.card_key(_definitions(), _word(move, "card"), prefix)


def _event(s: State, move: Move) -> Built:
    given = move.answers
    land = given.get("mule")
    land_key = saved.card_key(_definitions(), land, "land") if land else None
    return steps.event_event(s, _definitions(), _who(move), _key(move, "event"),
                             given.get("target"), land_key, given.get("kick")), None


def _interrupt(s: State, move: Move) -> Built:
    return steps.interrupt_event(s, _definitions(), _who(move), _key(move, "interrupt"),
                                 move.answers.get("target")), None


def _upgrade(s: State, move: Move) -> Built:
    g = _definitions()
    on = move.answers.get("on")
    if not on:
        raise InputError("say which Land it goes on (or whose Mule): --on LAND")
    key = _key(move, "upgrade")
    return steps.upgrade_event(s, g, _who(move), key, saved.card_key(g, on, "land"),
                               saved.copies(g, "upgrade", key)), None


def _discard_upgrade(s: State, move: Move) -> Built:
    from companion.mule_goes_crazy.cards import discard_upgrade_event

    on = move.answers.get("on")
    if not on:
        raise InputError("say which Land holds it (or whose Mule does): --on LAND")
    land = saved.card_key(_definitions(), on, "land")
    return discard_upgrade_event(s, _who(move), land, _flag(move.answers.get("mule"))), None


def _move_population(s: State, move: Move) -> Built:
    from companion.mule_goes_crazy.cards import population_move_event

    g, given = _definitions(), move.answers
    card = saved.card_key(g, _word(move, "card"), "population")
    to_text = given.get("to", "").strip()
    if not to_text:
        raise InputError("say where it moves: --to FACILITY, or --to none (off its Facility)")
    to = None if _none(to_text) else saved.card_key(g, to_text, "facility")
    source = saved.card_key(g, given["from"], "facility") if given.get("from") else None
    votes = [v for v in given.get("for", "").split(",") if v.strip()]
    return population_move_event(s, card, to, votes, source), None


def _facility(s: State, move: Move) -> Built:
    key = _key(move, "facility")
    return steps.facility_event(s, _definitions(), _who(move), key,
                                saved.copies(_definitions(), "facility", key)), None


def _trade(s: State, move: Move) -> Built:
    return steps.trade_event(s, _definitions().data, _who(move), move.answers), None


def _reshuffle(s: State, move: Move) -> Built:
    return steps.reshuffle_event(s, _definitions().data["game_end"]), None


_BUILD: dict[str, Callable[[State, Move], Built]] = {
    "favored": _favored, "grant": _grant, "auction": _auction, "buy": _buy, "move": _move,
    "population": _population, "produce": _produce, "spoilage": _spoilage,
    "upkeep": _upkeep, "end-turn": _end_turn, "done": _done, "event": _event,
    "interrupt": _interrupt, "upgrade": _upgrade, "facility": _facility, "trade": _trade,
    "reshuffle": _reshuffle, "discard-upgrade": _discard_upgrade,
    "move-population": _move_population}


def _a(key: str | None) -> str:
    title = saved._title(key)
    return f"{'an' if title[:1] in 'AEIOU' else 'a'} {title}"


def _changes(data: dict[str, Any]) -> str:
    parts = [f"{who} {'+' if n > 0 else ''}{n} {r.capitalize()}"
             for who, c in data.get("changes", {}).items() for r, n in c.items()]
    parts += [f"the Store {'+' if n > 0 else ''}{n} {r.capitalize()}"
              for r, n in data.get("store", {}).items() if n]
    return "; ".join(parts)


def _economy_line(kind: str, data: dict[str, Any], after: State) -> str:
    who = data.get("player")
    if kind == "done":
        return f"{who}'s turn is over."
    if kind in ("event", "interrupt"):
        kicked = f" (stopped by {data['kicked_by']}'s Mule Kick)" if data.get("kicked_by") \
            else ""
        what = _changes(data)
        return (f"{who} plays {data.get('title') or saved._title(data['card'])}{kicked}"
                + (f": {what}" if what else "")
                + (f"; {data['runaway'][0]}'s Mule runs off" if data.get("runaway") else "")
                + (f"; {data['blocked']} may not move Mules" if data.get("blocked") else "")
                + ".")
    if kind == "upgrade":
        return (f"{who} puts {saved._title(data['upgrade'])} on "
                + (f"{saved._title(data['land'])}" if data["on"] == "land"
                   else f"the Mule on {saved._title(data['land'])}") + f": {_changes(data)}.")
    if kind == "facility":
        return (f"{who} plays {saved._title(data['facility'])}: its Build cost at each upkeep "
                f"for {data['turns']} turns.")
    if kind == "trade":
        return (f"Resource Auction of {data['resource'].capitalize()} at {data['price']} "
                f"(the Store sells at {data['sell_price']}): "
                + (", ".join(f"{n} {u:+}" for n, u in data["units"].items()) or "no trades")
                + f"; next price {data['next_price']}.")
    if data.get("last_turn"):
        return f"The Draw pile ran out for the {data['times']}. time: this turn is the last."
    return f"The Draw pile ran out ({data['times']}): the Discard pile is the new one."


def _score_lines(score: dict[str, Any]) -> tuple[str, ...]:
    lines = [f"The game is over. The colony holds {score['people']} people."]
    lines += [f"  {who}: net worth {w} (Credits {p['credits']}, resources {p['resources']}, "
              f"Lands {p['lands']}, Mules {p['mules']})"
              for who, w, p in ((n, score["worth"][n], score["parts"][n])
                                for n in score["worth"])]
    lines.append("The colony failed: nobody wins." if score["failed"] else
                 f"Winner: {', '.join(score['winners'])}.")
    return tuple(lines)


def _lines(kind: str, data: dict[str, Any], after: State) -> tuple[str, ...]:
    """The step as the table reads it, in one line (the command prints its own)."""
    if kind == "favored":
        return (f"Favored player: {data['favored']} ({data['credits']} Credits)",)
    if kind == "end-turn":
        return _score_lines(data["score"]) if data.get("over") else \
            (f"Turn {after.turn} begins.",)
    if kind in ("done", "event", "interrupt", "upgrade", "facility", "trade", "reshuffle"):
        return (_economy_line(kind, data, after),)
    if kind == "discard-upgrade":
        return (f"{data['player']} discards {saved._title(data['upgrade'])} from "
                + ("the Mule on " if data["on"] == "mule" else "")
                + f"{saved._title(data['land'])}.",)
    if kind == "move-population":
        return (f"By a vote of {', '.join(data['for'])}: {saved._title(data['card'])} moves "
                + (f"onto {saved._title(data['to'])}." if data["to"] else
                   f"off {saved._title(data['from'])}."),)
    who = data.get("player")
    what = {"grant": f"lays down {saved._title(data.get('land'))} as a Land Grant"
                     if data.get("land") else "lays down no Land Grant",
            "auction": f"Land Auction of {saved._title(data.get('land'))}: "
                       + (f"won by {data.get('winner')} for {data.get('closing')} Credits"
                          if data.get("winner") else "no bid")
                       if data.get("land") else "a card that is not a Land: the Land "
                       "Auctions are over",
            "buy": f"buys {_a(data.get('mule'))} Mule for {data.get('price')} Credits",
            "move": f"moves {_a(data.get('mule'))} Mule to {saved._title(data.get('land'))}",
            "population": f"{saved._title(data.get('card'))} comes into play",
            "produce": "Production: " + ", ".join(data.get("players", {})),
            "spoilage": "Spoilage counted", "upkeep": "Population upkeep paid"}[kind]
    return (f"{who} {what}." if who and kind in ("grant", "buy", "move") else f"{what}.",)


class MuleGoesCrazyGame:
    """Mule Goes Crazy!'s declaration: see the module's docstring."""

    name = saved.GAME
    moves = MOVES

    def from_json(self, data: Mapping[str, Any]) -> State:
        return state_from_json(data)

    def to_json(self, state: State) -> dict[str, Any]:
        return state_to_json(state)

    def now(self, state: State) -> Now | None:
        from companion.mule_goes_crazy.data import turn_data

        return now_of(state, turn_data)

    def apply(self, state: State, move: Move) -> Outcome[State]:
        build = _BUILD.get(move.kind)
        if build is None:
            raise RuleError(f"{saved.TITLE} has no move '{move.kind}' (moves: "
                            f"{', '.join(_BUILD)})")
        from companion.mule_goes_crazy.fold import apply

        data, detail = build(state, move)
        # the State after it: the fold's step, as the log replays it (on the event's JSON)
        after = apply(state, move.kind, json.loads(json.dumps(data)))
        return Outcome(move.kind, data, _lines(move.kind, data, after), after, detail)

    def auto(self, state: State) -> Move | None:
        return auto_move(self.now(state), WHY)

    def end(self, state: State) -> str | None:
        """The game ends after the turn in which the Draw pile runs out for the last time
        (the project's): its final score is saved."""
        if not state.over:
            return None
        return "the game is over: 'irata play status' shows the final score"


WHY = {"favored": "the favored player is the one with the fewest Credits (a tie clockwise "
                  "from the last one), or the table's choice saved with the game",
       "spoilage": "Spoilage has nothing to decide (Food over 10 loses 5, Energy over 20 is "
                   "halved)",
       "upkeep": "the Store pays each Population card's upkeep, oldest first, and the "
                 "Facilities' Build costs: nothing to decide"}
"""Why a step that runs itself has nothing to decide."""


GAME = MuleGoesCrazyGame()
