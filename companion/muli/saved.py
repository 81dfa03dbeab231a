"""A race of Das Störrische Muli kept as a saved game: the race as a JSON-able state, the
fold that replays the rolls, and the race described in a few lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.muli.rules import (
    CITY,
    LAST_MULE,
    MULE,
    OUT,
    RUNNER,
    TRACK,
    Piece,
    Race,
    RaceRules,
    play_roll,
    rules_from_data,
    setup,
)
from companion.record import NamedTuple
from companion.session import apply_set
from components.errors import RuleError

__all__ = ["SavedRace", "describe", "fold", "next_step", "race_to_state", "saved_json",
           "saved_race", "state_to_race", "validate"]


class SavedRace(NamedTuple):
    """A saved game's State: the race, and the seed of the companion's dice (None: the
    table's own)."""

    race: Race
    seed: int | None = None


def saved_race(state: Mapping[str, Any]) -> SavedRace:
    """The State a saved game's JSON form holds."""
    seed = state.get("seed")
    return SavedRace(state_to_race(state), None if seed is None else int(seed))


def saved_json(saved: SavedRace) -> dict[str, Any]:
    """The State as the saved game keeps it (:func:`saved_race` reads it back)."""
    return {**race_to_state(saved.race), "seed": saved.seed}


def race_to_state(race: Race) -> dict[str, Any]:
    """A race as a JSON-able dict (the saved game's state)."""
    return {
        "game": "muli",
        "players": list(race.players),
        "pieces": {p.colour: {"kind": p.kind, "owner": p.owner, "field": p.field,
                              "where": p.where} for p in race.pieces},
        "turned": race.turned,
        "finished": list(race.finished),
        "active": race.active,
        "dice": list(race.dice) if race.dice else None,
        "winner": race.winner,
        "end": race.end,
        "rolls": race.rolls,
        "rules": {"colours": list(race.rules.colours), "mules": list(race.rules.mule_colours),
                  "runners": list(race.rules.runner_colours),
                  "turning_field": race.rules.turning_field},
    }


def state_to_race(state: Mapping[str, Any]) -> Race:
    r = state["rules"]
    rules = RaceRules(tuple(r["colours"]), tuple(r["mules"]), tuple(r["runners"]),
                      int(r["turning_field"]))
    pieces = tuple(Piece(c, v["kind"], v["owner"], int(v["field"]), v["where"])
                   for c, v in state["pieces"].items())
    return Race(rules=rules, players=tuple(state["players"]), pieces=pieces,
                turned=bool(state["turned"]), finished=tuple(state["finished"]),
                active=state["active"], dice=tuple(state["dice"]) if state["dice"] else None,
                winner=state["winner"], end=state["end"], rolls=int(state["rolls"]))


def fold(events: Sequence[Any]) -> dict[str, Any]:
    """The state of a saved race: setup, then each roll replayed (``set`` applied in order)."""
    state: dict[str, Any] = {}
    for ev in events:
        if ev.kind == "setup":
            rules = rules_from_data({"race": ev.data["rules"]})
            race = setup(rules, ev.data["players"], ev.data["mules"])
            state = race_to_state(race)
            state["seed"] = ev.data.get("seed")
        elif ev.kind == "roll":
            seed = state.get("seed")
            result = play_roll(state_to_race(state), tuple(ev.data["dice"]),
                               ev.data.get("first"))
            state = race_to_state(result.race)
            state["seed"] = seed
        elif ev.kind == "set":
            apply_set(state, ev.data)
    return state


def validate(state: dict[str, Any]) -> None:
    """What a corrected race may hold (``irata play set``): every piece on a field of the
    printed track (0 to the turning field) or home, the turn and the winner among the
    players, the dice showing the dice's colours."""
    race = state_to_race(state)
    t = race.rules.turning_field
    players = set(race.players)
    for p in race.pieces:
        if not 0 <= p.field <= t:
            raise RuleError(f"the track runs from field 0 to the turning field {t}: the "
                            f"{p.colour} piece cannot stand on field {p.field}")
        if p.where not in (TRACK, CITY, OUT):
            raise RuleError(f"a piece is on the track, in the city or out, not '{p.where}'")
        if p.kind == MULE and p.owner not in players:
            raise RuleError(f"the {p.colour} Mule belongs to no player of the race")
        if p.kind not in (MULE, RUNNER) or (p.kind == RUNNER and p.owner is not None):
            raise RuleError(f"the {p.colour} piece is a player's Mule or a Human Mule Runner "
                            "(a runner belongs to no one)")
    for name in players:  # every turn looks up the one Mule of the player
        owned = [p.colour for p in race.pieces if p.kind == MULE and p.owner == name]
        if len(owned) != 1:
            raise RuleError(f"each player has one Mule: {name} would have "
                            f"{len(owned)} ({', '.join(owned) or 'none'})")
    if race.active not in players:
        raise RuleError(f"'{race.active}' is not a player of the race "
                        f"({', '.join(race.players)})")
    if race.winner is not None and race.winner not in players:
        raise RuleError(f"'{race.winner}' is not a player of the race "
                        f"({', '.join(race.players)})")
    for colour in (*(race.dice or ()), *race.finished):
        if colour not in race.rules.colours:
            raise RuleError(f"'{colour}' is not a colour of the dice "
                            f"({', '.join(race.rules.colours)})")
    if len(race.pieces) != len(race.rules.colours):
        raise RuleError("the race has one piece of each of the six colours")


def describe(state: dict[str, Any]) -> str:
    """The race in a few lines: the track, who is where, whose turn, the winner."""
    race = state_to_race(state)
    t = race.rules.turning_field
    lines = [f"Das Störrische Muli: {len(race.players)} players, turning field {t}, "
             f"{'heading home' if race.turned else 'heading out'}"]
    for p in race.pieces:
        who = f"{p.owner}'s Mule" if p.kind == MULE else "Human Mule Runner"
        place = {TRACK: f"field {p.field}", CITY: "in the city (home first)",
                 OUT: "home, out of the race"}[p.where]
        lines.append(f"  {p.colour:<7} {who:<22} {place}")
    if race.dice:
        lines.append(f"dice: {race.dice[0]}, {race.dice[1]}")
    if race.over:
        why = ("the last Mule on the track" if race.end == LAST_MULE
               else "only Human Mule Runners are left; their Mule was home first")
        lines.append(f"winner: {race.winner} ({why})")
    else:
        lines.append(f"to roll: {race.active}")
    return "\n".join(lines)


def next_step(state: dict[str, Any]) -> tuple[str, str | None]:
    """What the table does now, and the command that records it (None once the race is
    over)."""
    race = state_to_race(state)
    if race.over:
        return f"the race is over: {race.winner} has won", None
    return f"{race.active} rolls the two colour dice", "irata play muli roll"
