"""Outer Earth, declared (:class:`companion.play.Declaration`): its moves as the table types
them (:mod:`companion.outer_earth.moves`), what comes now (``irata play outer-earth next``),
and each move applied to the saved game's state.

What comes now is read from the typed state (:mod:`companion.outer_earth.state`): in
Phase 2 the company whose turn it is, and the moves of its turn (``Now.kinds``: draw, build,
sell, done). A move is checked and made into its event by the saved game's own event builder
(``saved.bid_event``, ``draw_event``, ``build_event``, ``sell_event``, ``done_event``,
``upkeep_event``, ``round_event``), which raises the rule's refusal; the state after it is the
fold's step on the typed State (``companion.outer_earth.fold``). So the events are those the
commands have always recorded.

A bidding that is not over yet records nothing: :class:`BiddingGoesOn` is its refusal, and
carries the auction so far for the table to read.

Two steps run themselves when they have nothing to decide (``Now.auto``; saved as events like
any other, marked ``auto``, and taken back by ``undo`` with the entry before them):

- Phase 3's Upkeep Order, when no company holds more planets in its construction area than
  its sell value: then no company chooses between 2 development cards and a planet into its
  profits pile, and the hand limit only counts cards (the companion keeps no hand's colours);
- the end of the round (Replenish Planet Market, Last Round of the Game?, New Round Begins),
  once the upkeep is done: its numbers all follow from the saved game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from companion.outer_earth.moves import MOVES
from companion.outer_earth.state import State, state_from_json, state_to_json
from companion.outer_earth.turns import turns_now
from companion.play import Move, Now, Outcome, auto_move
from components.errors import InputError, RuleError

if TYPE_CHECKING:
    from companion.outer_earth.rules import Auction, Rules

__all__ = ["ACTION_KINDS", "GAME", "MOVES", "BiddingGoesOn", "OuterEarthGame", "discards",
           "now_of"]

DIE_NAMES = ("draw", "build", "sell")


class BiddingGoesOn(RuleError):
    """Phase 1: the bidding on a planet is not over, so nothing is saved yet; ``auction`` is
    the bidding so far (who is to act, and what they may do)."""

    def __init__(self, auction: Auction, planet: str) -> None:
        super().__init__(f"the bidding on {planet} is not over ({auction.to_act} to act): "
                         "nothing is saved until it ends")
        self.auction = auction


def _names(value: str) -> list[str]:
    return [n.strip() for n in value.split(",") if n.strip()]


def discards(text: str) -> dict[str, list[str]]:
    """``--discard NAME=PLANET`` values, comma-separated (a part without ``=`` continues the
    planet before it): each company's planets put into its profits pile."""
    out: dict[str, list[str]] = {}
    last: str | None = None
    for part in text.split(",") if text.strip() else ():
        name, sep, what = part.partition("=")
        if not sep and last is not None:
            out[last][-1] += "," + part
            continue
        if not sep or not name.strip() or not what.strip():
            raise InputError(f"--discard takes NAME=PLANET, such as Ann=Halcyon, not '{part}'")
        last = name.strip()
        out.setdefault(last, []).append(what.strip())
    return out


def _player(move: Move, what: str) -> str:
    if not move.who:
        raise InputError(f"say which company {what}: --player NAME")
    return move.who


def _needed(given: dict[str, str], key: str, say: str) -> str:
    value = given.get(key)
    if not value:
        raise InputError(say)
    return value


def _bid(state: State, move: Move, rules: Rules) -> tuple[dict[str, Any], Any]:
    from companion.outer_earth import saved

    given = move.answers
    planet = _needed(given, "planet", "say which planet is up for sale: --planet NAME")
    auction, data = saved.bid_event(state, planet, _names(given.get("green", "")),
                                    given.get("moves", "").split())
    if data is None:
        raise BiddingGoesOn(auction, planet)
    return data, auction


def _draw(state: State, move: Move, rules: Rules) -> tuple[dict[str, Any], Any]:
    from companion.outer_earth import saved

    player = _player(move, "draws")
    return saved.draw_event(state, player, move.answers.get("cards"), rules), None


def _build(state: State, move: Move, rules: Rules) -> tuple[dict[str, Any], Any]:
    from companion.outer_earth import saved

    player = _player(move, "builds")
    given = move.answers
    planet = _needed(given, "planet", "say on which planet it builds: --planet NAME")
    colours = given.get("colours", "").split(",")
    return saved.build_event(state, player, planet, colours, rules), None


def _pile(text: str | None) -> int | None:
    if text is None:
        return None
    digits = text.strip().removeprefix("-").removeprefix("+")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 10):
        raise InputError(f"--pile takes the number of a bonus revenue pile, not '{text[:40]}'")
    return int(text)


def _sell(state: State, move: Move, rules: Rules) -> tuple[dict[str, Any], Any]:
    from companion.outer_earth import saved

    player = _player(move, "sells")
    given = move.answers
    planet = _needed(given, "planet", "say which planet is sold: --planet NAME")
    built = given.get("built")
    colours = None if built is None else [c for c in built.split(",") if c.strip()]
    raises = [r.strip().lower() for r in given.get("raise", "").split(",") if r.strip()]
    for r in raises:
        if r not in DIE_NAMES:
            raise InputError(f"--raise names a die ({', '.join(DIE_NAMES)}), not '{r[:40]}'")
    data = saved.sell_event(state, player, planet, rules, colours, given.get("bonus"),
                            _pile(given.get("pile")), raises)
    return data, None


def _upkeep(state: State, move: Move, rules: Rules) -> tuple[dict[str, Any], Any]:
    from companion.outer_earth import saved

    return saved.upkeep_event(state, rules, discards(move.answers.get("discard", ""))), None


def _round(state: State, move: Move, rules: Rules) -> tuple[dict[str, Any], Any]:
    from companion.outer_earth import saved

    return saved.round_event(state, rules), None


def _done(state: State, move: Move, rules: Rules) -> tuple[dict[str, Any], Any]:
    from companion.outer_earth import saved

    return saved.done_event(state, _player(move, "ends its turn")), None


_APPLY: dict[str, Callable[[State, Move, Rules], tuple[dict[str, Any], Any]]] = {
    "bid": _bid, "draw": _draw, "build": _build, "sell": _sell, "done": _done,
    "upkeep": _upkeep, "round": _round,
}

ACTION_KINDS = ("draw", "build", "sell", "done")
"""Phase 2: the moves of a company's turn (Company Actions), and the end of it."""


def _lines(kind: str, data: dict[str, Any], after: State) -> tuple[str, ...]:
    """The event as the table reads it, in a line."""
    if kind == "bid":
        if data["buyer"]:
            return (f"{data['buyer']} buys {data['planet']} for {data['price']} development "
                    f"card(s); the starting player token moves to {data['starting_player']}.",)
        return (f"Nobody buys {data['planet']}: {data['under']} card(s) under it now.",)
    if kind == "done":
        return (f"{data['player']}'s turn is over.",)
    if kind in ("draw", "build", "sell"):
        c = after.company(data["player"])
        what = {"draw": f"draws {data.get('cards')}",
                "build": f"builds {','.join(data.get('built', []))} on {data.get('planet')}",
                "sell": f"sells {data.get('planet')} ({data.get('vp')} VP)"}[kind]
        return (f"{data['player']} {what}: {c.hand} cards in hand.",)
    if kind == "upkeep":
        return tuple(f"{name}: upkeep, hand {u['hand_after']}"
                     for name, u in data["companies"].items())
    if data["over"]:
        return (f"Round {data['round']} was the last: the game is over.",)
    return (f"Round {data['round']} ends: {data['refill']} planet(s) added to the market; "
            f"round {after.round} begins.",)


class OuterEarthGame:
    """Outer Earth's declaration: see the module's docstring."""

    name = "outer-earth"
    moves = MOVES

    def from_json(self, data: Mapping[str, Any]) -> State:
        return state_from_json(data)

    def to_json(self, state: State) -> dict[str, Any]:
        return state_to_json(state)

    def now(self, state: State) -> Now | None:
        return now_of(state)

    def apply(self, state: State, move: Move) -> Outcome[State]:
        from companion.outer_earth.data import load_rules
        from companion.outer_earth.fold import apply as step

        apply = _APPLY.get(move.kind)
        if apply is None:
            raise RuleError(f"Outer Earth has no move '{move.kind}' "
                            f"({', '.join(_APPLY)})")
        data, detail = apply(state, move, load_rules())
        after = step(state, move.kind, data)
        return Outcome(move.kind, data, _lines(move.kind, data, after), after, detail)

    def auto(self, state: State) -> Move | None:
        return auto_move(now_of(state), _WHY)

    def end(self, state: State) -> str | None:
        """End Game Scoring follows the last round (its end saved)."""
        if not state.over:
            return None
        return (f"the game is over: round {state.round} was the last; score it with 'irata "
                "play outer-earth score --save'")


_WHY = {"upkeep": "no company holds more planets in its construction area than its sell "
                  "value, so no planet tax is chosen",
        "round": "the end of the round has nothing to decide (the market is refilled from "
                 "the galaxy deck, the last round follows from the decks)"}
"""Why a step that runs itself has nothing to decide (said when what was typed for it is not
taken)."""


def taxed(s: State) -> tuple[str, ...]:
    """Upkeep Order, step 1: the companies with more planets in their construction area than
    their sell value (each chooses, per planet over it, 2 development cards or the planet into
    its profits pile)."""
    from companion.outer_earth.data import find_planet, load_rules
    from companion.outer_earth.rules import CompanyDice, action_values, taxed_planets

    rules = load_rules()
    out = []
    for name, c in s.players:
        latest = find_planet(c.portfolio[-1]) if c.portfolio else None
        sell = action_values(CompanyDice(*c.dice), latest, rules)["sell"]
        if taxed_planets(len(c.in_development), sell) > 0:
            out.append(name)
    return tuple(out)


def now_of(s: State) -> Now | None:
    """Game Play Overview: Phase 1 (a planet of the market up for sale), Phase 2 (each
    company's turn of actions, clockwise from the starting player: draw, build, sell, or
    done), Phase 3 (upkeep), the end of the round; None once the game is over (End Game
    Scoring)."""
    oe = "irata play outer-earth"
    rnd = s.round
    if s.over:
        return None
    if s.upkeep_done:
        return Now(rnd, "round", None, f"round {rnd}'s upkeep is done: replenish the planet "
                   "market and begin the next round (or end the game after the last one)",
                   f"{oe} round", auto=True)
    unsold = sum(1 for _, bought in s.offered if not bought)
    left = s.market.planets - unsold
    if not s.phase2 and left > 0:
        return Now(rnd, "bid", None, f"round {rnd}, Phase 1: put the next planet of the "
                   f"market up for sale ({len(s.offered)} offered, {left} to go)",
                   f"{oe} bid --planet NAME --green NAMES [MOVES]")
    current, then = turns_now(s.seating, s.starting_player, s.acted)
    who = then if current is None or current in s.done else current
    if who is None:
        choosing = taxed(s)
        return Now(rnd, "upkeep", None, f"round {rnd}, Phase 3: upkeep for every company"
                   + (f" (planet tax chosen by {', '.join(choosing)})" if choosing else
                      " (no planet tax to choose)"),
                   f"{oe} upkeep [--discard NAME=PLANET]", auto=not choosing)
    return Now(rnd, "draw", who, f"round {rnd}, Phase 2: {who}'s turn of 3 actions (draw, "
               "build, sell), then done; clockwise from the starting player "
               f"({s.starting_player}); then Phase 3",
               f"{oe} draw|build|sell|done {who} ... (then: {oe} upkeep)", kinds=ACTION_KINDS)


GAME = OuterEarthGame()
