"""Mule Goes Crazy!, declared (:class:`companion.play.Declaration`): the steps the table records
in a saved game (:data:`~companion.mule_goes_crazy.moves.MOVES`), what comes now (the saved
game's ``next_step``), and each move applied by the saved game's own event builder (which
raises the rule's refusal) and folded by its own fold step, so the events are exactly those the
commands have always recorded.

Nothing runs itself: the draft leaves every step to the table (production may be typed dice,
a Land Auction is the table's bidding), so :meth:`MuleGoesCrazyGame.auto` is always None.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from companion.mule_goes_crazy import rules as mgc
from companion.mule_goes_crazy import saved
from companion.mule_goes_crazy.moves import MOVES
from companion.play import Move, Now, Outcome
from companion.session import Event, parse_amount
from components.errors import InputError, RuleError

__all__ = ["GAME", "MOVES", "MuleGoesCrazyGame"]

Built = tuple[dict[str, Any], Any]   # an event's data, and what the command shows of it


def _definitions() -> Any:
    from companion.mule_goes_crazy.data import game

    return game()


def amount(text: str, what: str) -> int:
    """A number typed at the table (a sum too), 0 or more."""
    n = parse_amount(text, what)
    if n < 0:
        raise InputError(f"{what} must be 0 or more, not {n}")
    return n


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


def _favored(state: dict[str, Any], move: Move) -> Built:
    return saved.favored_event(state), None


def _grant(state: dict[str, Any], move: Move) -> Built:
    g = _definitions()
    key = saved.card_key(g, _word(move, "land"), "land")
    return saved.grant_event(state, _who(move), key, saved.copies(g, "land", key)), key


def _auction(state: dict[str, Any], move: Move) -> Built:
    given = move.answers
    unsold, winner, price_text = _flag(given.get("unsold")), given.get("winner"), \
        given.get("price")
    if unsold and (winner is not None or price_text is not None):
        raise InputError("--unsold takes no --winner or --price")
    if not unsold and winner is None:
        raise InputError("say who won the Land (--winner NAME --price N), or --unsold")
    price = parse_amount(price_text, "--price") if price_text is not None else None
    if price is not None and price < 0:
        raise InputError(f"--price must be 0 or more, not {price}")
    g = _definitions()
    key = saved.card_key(g, _word(move, "land"), "land")
    data = saved.auction_event(state, key, winner, price, mgc.auction_rules(g.data),
                               saved.copies(g, "land", key))
    return data, {"land": key, "winner": winner, "price": price}


def _buy(state: dict[str, Any], move: Move) -> Built:
    g = _definitions()
    key = saved.card_key(g, _word(move, "mule"), "mule")
    card = mgc.mule_card(g, key)
    return saved.buy_event(state, _who(move), card, key, saved.copies(g, "mule", key)), card


def _move(state: dict[str, Any], move: Move) -> Built:
    g = _definitions()
    key = saved.card_key(g, _word(move, "mule"), "mule")
    land_key = saved.card_key(g, _word(move, "land"), "land")
    from_land = move.answers.get("from")
    from_key = saved.card_key(g, from_land, "land") if from_land else None
    card = mgc.mule_card(g, key)
    per_land = int(g.data.get("mules_per_land", 1))
    data = saved.move_event(state, _who(move), key, card, land_key, from_key, per_land)
    return data, {"card": card, "land": land_key}


def _population(state: dict[str, Any], move: Move) -> Built:
    g = _definitions()
    key = saved.card_key(g, _word(move, "card"), "population")
    facility = move.answers.get("facility")
    fac = saved.card_key(g, facility, "facility") if facility else None
    data = saved.population_event(state, key, fac, move.answers.get("player"),
                                  saved.copies(g, "population", key),
                                  saved.copies(g, "facility", fac) if fac else None)
    return data, {"card": key, "facility": fac}


def _produce(state: dict[str, Any], move: Move) -> Built:
    rolls = move.answers.get("rolls")
    typed = [amount(r, "--rolls") for r in rolls.split(",")] if rolls else None
    return saved.produce_event(state, _definitions(), move.answers.get("player"), typed), None


def _spoilage(state: dict[str, Any], move: Move) -> Built:
    return saved.spoilage_event(state, mgc.spoilage_rules(_definitions().data)), None


def _upkeep(state: dict[str, Any], move: Move) -> Built:
    g = _definitions()
    before = [dict(p) for p in state["populations"]]
    cards = [mgc.population_card(g, p["card"], p.get("facility")) for p in before]
    return saved.upkeep_event(state, cards), before


def _end_turn(state: dict[str, Any], move: Move) -> Built:
    return saved.end_turn_event(state), None


_BUILD: dict[str, Callable[[dict[str, Any], Move], Built]] = {
    "favored": _favored, "grant": _grant, "auction": _auction, "buy": _buy, "move": _move,
    "population": _population, "produce": _produce, "spoilage": _spoilage,
    "upkeep": _upkeep, "end-turn": _end_turn}


def _a(key: str | None) -> str:
    title = saved._title(key)
    return f"{'an' if title[:1] in 'AEIOU' else 'a'} {title}"


def _lines(kind: str, data: dict[str, Any], after: dict[str, Any]) -> tuple[str, ...]:
    """The step as the table reads it, in one line (the command prints its own)."""
    if kind == "favored":
        return (f"Favored player: {data['favored']} ({data['credits']} Credits)",)
    if kind == "end-turn":
        return (f"Turn {after['turn']} begins.",)
    who = data.get("player")
    what = {"grant": f"lays down {saved._title(data.get('land'))} as a Land Grant",
            "auction": f"Land Auction of {saved._title(data.get('land'))}: "
                       + (f"won by {data.get('winner')} for {data.get('closing')} Credits"
                          if data.get("winner") else "no bid"),
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

    def now(self, state: dict[str, Any]) -> Now | None:
        text, command = saved.next_step(state)
        kind = (command or "").removeprefix("irata play mule-goes-crazy ").split(" ")[0]
        return Now(int(state["turn"]), kind, None, text, command or "")

    def apply(self, state: dict[str, Any], move: Move) -> Outcome:
        build = _BUILD.get(move.kind)
        if build is None:
            raise RuleError(f"{saved.TITLE} has no move '{move.kind}' (moves: "
                            f"{', '.join(_BUILD)})")
        before = json.loads(json.dumps(state))     # the builders and the fold never touch it
        data, detail = build(before, move)
        after = saved._step(json.loads(json.dumps(before)),
                            Event(0, move.kind, json.loads(json.dumps(data)), ""))
        return Outcome(move.kind, data, _lines(move.kind, data, after), after, detail)

    def auto(self, state: dict[str, Any]) -> Move | None:
        return None


GAME = MuleGoesCrazyGame()
