"""``irata play muli``: Das Störrische Muli's race, kept as a saved game.

``new`` places the pieces, ``roll`` rolls the two colour dice (or records the table's own with
``--dice``) and moves the pieces, ``status`` shows the track. A thin shell over
``companion.muli``; every roll is an event of the saved game, so ``irata play undo`` takes one
back.
"""

from __future__ import annotations

import random
from typing import Any

import click

from companion.muli import rules
from companion.muli.data import load_rules
from companion.muli.saved import describe, race_to_state, state_to_race
from companion.names import check_names
from components.errors import InputError
from irata.options import (
    DB,
    GAME,
    JSON,
    SEED,
    create,
    emit,
    next_command,
    record,
    show_status,
)


def race_mule(race: rules.Race, player: str) -> str:
    return next(p.colour for p in race.pieces if p.owner == player)


def _list(text: str | None) -> list[str]:
    return [p.strip() for p in (text or "").split(",") if p.strip()]


@click.group()
def muli() -> None:
    """Das Störrische Muli: place the pieces, roll the colour dice, move, find the winner."""


@muli.command()
@click.option("--players", required=True,
              help="The players' names in turn order, youngest first: Ann,Bob,Cy (3 to 5).")
@click.option("--mules", help="Each player's Mule colour, in the same order: red,yellow,green.")
@click.option("--seed", type=SEED, help="Makes the dice of this race repeatable.")
@click.option("--name", "game_name", help="A name for the saved race.")
@DB
@JSON
def new(players: str, mules: str | None, seed: int | None, game_name: str | None,
        db: str | None, as_json: bool) -> None:
    """Start a race: each player's Mule, and runners until six pieces show six colours."""
    people = check_names(_list(players))
    race = rules.setup(load_rules(), people, _list(mules) or None)
    if seed is None:
        seed = random.SystemRandom().randrange(10**9)
    # the Mules in the players' order (the race lists its pieces by colour)
    setup = {"players": list(race.players),
             "mules": [race_mule(race, n) for n in race.players],
             "rules": race_to_state(race)["rules"], "seed": seed}
    saved, state = create(db, "muli", setup, game_name or f"Muli race, {len(people)} players")
    emit(as_json, {"id": saved.id, "name": saved.name, "state": state},
         lambda: [f"Game {saved.id}: {saved.name} (seed {seed})", describe(state)])


def _step_line(race: rules.Race, step: rules.Step) -> str:
    piece = race.piece(step.colour)
    who = f"{piece.owner}'s {step.colour} Mule" if piece.kind == rules.MULE \
        else f"the {step.colour} runner"
    if step.before == step.after and not step.note.startswith("crosses"):
        return f"  {who}: {step.note}"
    arrow = f"{step.before} -> {step.after}" if step.after != 0 or not race.turned \
        else f"{step.before} -> finish"
    return f"  {who}: {arrow}" + (f" ({step.note})" if step.note else "")


@muli.command()
@click.option("--dice", help="The table's own dice, two colours: red,blue.")
@click.option("--keep", help="Leave this die as it lies and roll only the other.")
@click.option("--first", help="Which of two moving pieces moves first (a colour).")
@GAME
@DB
@JSON
def roll(dice: str | None, keep: str | None, first: str | None, game_id: int | None,
         db: str | None, as_json: bool) -> None:
    """Roll the two colour dice for the player whose turn it is, and move the pieces."""
    done: dict[str, Any] = {}

    def build(state: dict[str, Any]) -> dict[str, Any]:
        race = state_to_race(state)
        if race.over:
            raise InputError(f"the race is over: {race.winner} has won")
        kept = rules.check_keep(race, keep) if keep is not None else None
        if dice is not None:
            thrown = rules.parse_dice(race.rules, dice)
            if kept is not None and kept not in thrown:
                raise InputError(f"--keep {kept}, but --dice {dice} does not show it")
        else:
            seed = int(state.get("seed") or 0)
            thrown = rules.roll_dice(race, rules.seeded_rng(seed, race.rolls), keep)
        done.update(roller=race.active, thrown=thrown,
                    result=rules.play_roll(race, thrown, first))
        data: dict[str, Any] = {"dice": list(thrown)}
        if first is not None:
            data["first"] = first.strip().lower()
        if kept is not None:
            data["kept"] = kept
        return data

    saved, _, state = record(db, game_id, "muli", "roll", build)
    roller, thrown, result = done["roller"], done["thrown"], done["result"]
    after = result.race
    payload = {
        "id": saved.id, "player": roller, "dice": list(thrown),
        "steps": [{"colour": s.colour, "kind": s.kind, "from": s.before, "to": s.after,
                   "note": s.note} for s in result.steps],
        "turned": result.turned, "winner": after.winner, "end": after.end,
        "next": None if after.over else after.active, "state": state}
    lines = [f"{roller} rolls {thrown[0]} and {thrown[1]}"
             + (f" (keeping {keep.strip().lower()})" if keep else "") + ":"]
    lines += [_step_line(after, step) for step in result.steps]
    if result.turned:
        lines.append("A piece reached the turning field: everyone turns around and races home.")
    if after.over:
        why = ("the last Mule on the track" if after.end == rules.LAST_MULE
               else "only Human Mule Runners are left, and their Mule was home first")
        lines.append(f"The race is over. {after.winner} wins: {why}.")
    else:
        lines.append(f"Next to roll: {after.active}")
    emit(as_json, payload, lines)


@muli.command()
@GAME
@DB
@JSON
def status(game_id: int | None, db: str | None, as_json: bool) -> None:
    """Show the track: where every piece is, whose turn it is, the winner."""
    show_status(db, game_id, as_json, "muli")


next_command(muli, "muli", "companion.muli.saved")
