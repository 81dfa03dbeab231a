"""Das Störrische Muli, declared (:class:`companion.play.Declaration`): one move, the roll of
the two colour dice by the player whose turn it is, over the race's typed, frozen state
(:class:`companion.muli.saved.SavedRace`: the :class:`companion.muli.rules.Race` and the
seed of the companion's dice, kept as JSON by ``saved.saved_json`` and ``saved.saved_race``).

The dice are the companion's (seeded: the same race rolls the same dice) or the table's own
(``dice``); ``keep`` leaves one die as it lies, ``first`` says which of two moving pieces moves
first. Nothing runs itself: a roll is the table's to make.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.muli import rules
from companion.muli.moves import MOVES
from companion.muli.saved import SavedRace, saved_json, saved_race
from companion.play import Move, Now, Outcome
from components.errors import RuleError

__all__ = ["GAME", "MOVES", "MuliGame", "step_line"]


def step_line(race: rules.Race, step: rules.Step) -> str:
    """One piece's move, as the table reads it."""
    piece = race.piece(step.colour)
    who = f"{piece.owner}'s {step.colour} Mule" if piece.kind == rules.MULE \
        else f"the {step.colour} runner"
    if step.before == step.after and not step.note.startswith("crosses"):
        return f"  {who}: {step.note}"
    arrow = f"{step.before} -> {step.after}" if step.after != 0 or not race.turned \
        else f"{step.before} -> finish"
    return f"  {who}: {arrow}" + (f" ({step.note})" if step.note else "")


def _lines(roller: str, thrown: tuple[str, str], kept: str | None,
           result: rules.RollResult) -> tuple[str, ...]:
    after = result.race
    lines = [f"{roller} rolls {thrown[0]} and {thrown[1]}"
             + (f" (keeping {kept})" if kept else "") + ":"]
    lines += [step_line(after, step) for step in result.steps]
    if result.turned:
        lines.append("A piece reached the turning field: everyone turns around and races home.")
    if after.over:
        why = ("the last Mule on the track" if after.end == rules.LAST_MULE
               else "only Human Mule Runners are left, and their Mule was home first")
        lines.append(f"The race is over. {after.winner} wins: {why}.")
    else:
        lines.append(f"Next to roll: {after.active}")
    return tuple(lines)


class MuliGame:
    """Das Störrische Muli's declaration: see the module's docstring."""

    name = "muli"
    moves = MOVES

    def from_json(self, data: Mapping[str, Any]) -> SavedRace:
        return saved_race(data)

    def to_json(self, state: SavedRace) -> dict[str, Any]:
        return saved_json(state)

    def now(self, state: SavedRace) -> Now | None:
        race = state.race
        if race.over:
            return None
        # a turn of the race: each player rolls once
        return Now(race.rolls // len(race.players) + 1, "roll", race.active,
                   f"{race.active} rolls the two colour dice", "irata play muli roll")

    def apply(self, state: SavedRace, move: Move) -> Outcome[SavedRace]:
        race = state.race
        if race.over:
            raise RuleError(f"the race is over: {race.winner} has won")
        if move.kind != "roll":
            raise RuleError(f"Das Störrische Muli has no move '{move.kind}': roll the dice")
        given = move.answers
        keep, dice, first = given.get("keep"), given.get("dice"), given.get("first")
        kept = rules.check_keep(race, keep) if keep is not None else None
        if dice is not None:
            thrown = rules.parse_dice(race.rules, dice)
            if kept is not None and kept not in thrown:
                raise RuleError(f"--keep {kept}, but --dice {dice} does not show it")
        else:
            thrown = rules.roll_dice(race, rules.seeded_rng(state.seed or 0, race.rolls), kept)
        result = rules.play_roll(race, thrown, first)
        data: dict[str, Any] = {"dice": list(thrown)}
        if first is not None:
            data["first"] = first.strip().lower()
        if kept is not None:
            data["kept"] = kept
        return Outcome("roll", data, _lines(race.active, thrown, kept, result),
                       state._replace(race=result.race), detail=(race.active, result))

    def auto(self, state: SavedRace) -> Move | None:
        return None

    def end(self, state: SavedRace) -> str | None:
        """The race ends with the last Mule on the track, or with only Human Mule Runners
        left once their Mule is home."""
        race = state.race
        return f"the race is over: {race.winner} has won" if race.over else None


GAME = MuliGame()
