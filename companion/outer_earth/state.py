"""Outer Earth's saved state, typed and frozen: :class:`State` and its companies, with one pair
of JSON functions (:func:`state_from_json`, :func:`state_to_json`) over the layout saved games
have always held (``saved.new_game`` and the fold write it; ``irata play set`` corrects it at
its dotted paths). Keys later versions added are optional in the JSON and read with their
defaults, so a game saved before them reads the same.

Named tuples, not dataclasses: as immutable, and cheaper to define on every command's start.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.record import NamedTuple
from components.errors import InputError

__all__ = ["Company", "Market", "State", "TurnSoFar", "state_from_json", "state_to_json"]


class Development(NamedTuple):
    """A planet in a company's construction area and the development cards built on it."""

    planet: str
    built: tuple[str, ...] = ()


class Company(NamedTuple):
    """A company's counts: its dice, hand, construction area, portfolio and profits pile."""

    dice: tuple[int, int, int]           # draw, build, sell
    hand: int
    in_development: tuple[Development, ...] = ()
    portfolio: tuple[str, ...] = ()
    profit_cards: int = 0
    profit_planets: tuple[str, ...] = ()
    bonus_revenue: tuple[int, ...] = ()
    bonus_revenue_cards: tuple[str, ...] = ()


class TurnSoFar(NamedTuple):
    """Phase 2: what a company's turn has drawn, built and sold this round, and the highest
    draw, build and sell values it had."""

    drawn: int = 0
    built: int = 0
    sold: int = 0
    draw: int = 0
    build: int = 0
    sell: int = 0


class Market(NamedTuple):
    planets: int
    under: tuple[tuple[str, int], ...] = ()


class State(NamedTuple):
    """A saved game of Outer Earth (see ``companion.outer_earth.saved`` for each field's
    rule)."""

    length: str
    seed: int
    setup: tuple[tuple[str, Any], ...]
    seating: tuple[str, ...]
    starting_player: str
    round: int
    final_round: int | None
    upkeep_done: bool
    over: bool
    galaxy_deck: int
    market: Market
    bonus_revenue_piles: tuple[int, ...]
    players: tuple[tuple[str, Company], ...]
    offered: tuple[tuple[str, bool], ...] = ()
    phase2: bool = False
    turn: tuple[tuple[str, TurnSoFar], ...] = ()
    done: tuple[str, ...] = ()           # companies whose Phase 2 turn is over this round

    def company(self, name: str) -> Company:
        return dict(self.players)[name]

    @property
    def acted(self) -> tuple[str, ...]:
        """The companies that have drawn, built, sold (or ended their turn) this round."""
        return tuple(name for name, _ in self.turn)


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"the saved game's {what} is not a whole number ({value!r}): correct "
                         "it with 'irata play set'")
    return value


def _company(name: str, c: Mapping[str, Any]) -> Company:
    d = c["dice"]
    return Company(
        dice=(_int(d["draw"], f"{name}'s draw die"), _int(d["build"], f"{name}'s build die"),
              _int(d["sell"], f"{name}'s sell die")),
        hand=_int(c["hand"], f"{name}'s hand"),
        in_development=tuple(Development(str(p["planet"]), tuple(map(str, p["built"])))
                             for p in c["in_development"]),
        portfolio=tuple(map(str, c["portfolio"])),
        profit_cards=_int(c["profits"]["cards"], f"{name}'s profits"),
        profit_planets=tuple(map(str, c["profits"]["planets"])),
        bonus_revenue=tuple(_int(v, f"{name}'s bonus revenue") for v in c["bonus_revenue"]),
        bonus_revenue_cards=tuple(map(str, c.get("bonus_revenue_cards", ()))))


def state_from_json(data: Mapping[str, Any]) -> State:
    """The typed state of a saved game's JSON state (the layout of ``saved.new_game``).
    A state its game cannot read (a count edited into a word) is an InputError."""
    try:
        m = data["market"]
        final = data.get("final_round")
        return State(
            length=str(data["length"]), seed=_int(data.get("seed", 0), "seed"),
            setup=tuple(sorted(dict(data["setup"]).items())),
            seating=tuple(map(str, data["seating"])),
            starting_player=str(data["starting_player"]),
            round=_int(data["round"], "round"),
            final_round=None if final is None else _int(final, "final round"),
            upkeep_done=bool(data.get("upkeep_done")), over=bool(data.get("over")),
            galaxy_deck=_int(data["galaxy_deck"], "galaxy deck"),
            market=Market(_int(m["planets"], "planet market"),
                          tuple((str(k), _int(v, "cards under a planet"))
                                for k, v in dict(m.get("under", {})).items())),
            bonus_revenue_piles=tuple(_int(p, "bonus revenue pile")
                                      for p in data["bonus_revenue_piles"]),
            players=tuple((str(n), _company(str(n), c)) for n, c in data["players"].items()),
            offered=tuple((str(k), bool(v)) for k, v in dict(data.get("offered", {})).items()),
            phase2=bool(data.get("phase2")),
            turn=tuple((str(n), TurnSoFar(**{k: _int(v, "turn count") for k, v in t.items()}))
                       for n, t in dict(data.get("turn", {})).items()),
            done=tuple(map(str, data.get("done", ()))))
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise InputError(f"the saved Outer Earth game cannot be read ({exc!r}): correct it with "
                         "'irata play set'") from None


def _company_json(c: Company) -> dict[str, Any]:
    return {"dice": {"draw": c.dice[0], "build": c.dice[1], "sell": c.dice[2]},
            "hand": c.hand,
            "in_development": [{"planet": p.planet, "built": list(p.built)}
                               for p in c.in_development],
            "portfolio": list(c.portfolio),
            "profits": {"cards": c.profit_cards, "planets": list(c.profit_planets)},
            "bonus_revenue": list(c.bonus_revenue),
            "bonus_revenue_cards": list(c.bonus_revenue_cards)}


def state_to_json(state: State) -> dict[str, Any]:
    """The JSON state of a typed one, in the saved games' layout (every optional key
    written)."""
    return {
        "length": state.length, "seed": state.seed, "setup": dict(state.setup),
        "seating": list(state.seating), "starting_player": state.starting_player,
        "round": state.round, "final_round": state.final_round,
        "upkeep_done": state.upkeep_done, "over": state.over,
        "galaxy_deck": state.galaxy_deck,
        "market": {"planets": state.market.planets, "under": dict(state.market.under)},
        "bonus_revenue_piles": list(state.bonus_revenue_piles),
        "players": {n: _company_json(c) for n, c in state.players},
        "offered": dict(state.offered), "phase2": state.phase2,
        "turn": {n: t._asdict() for n, t in state.turn}, "done": list(state.done)}
