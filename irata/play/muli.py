"""``irata play muli``: Das Störrische Muli's race, kept as a saved game.

``new`` places the pieces, ``roll`` rolls the two colour dice (or records the table's own with
``--dice``) and moves the pieces, ``status`` shows the track. A thin shell over
``companion.muli``; every roll is an event of the saved game, so ``irata play undo`` takes one
back.
"""

from __future__ import annotations

import random

import click

from companion.muli import rules
from companion.muli.data import load_rules
from companion.muli.moves import MOVES
from companion.muli.saved import describe, race_to_state
from companion.names import check_names
from irata.options import (
    DB,
    GAME,
    JSON,
    SEED,
    create,
    emit,
    next_command,
    open_store,
    pick,
)
from irata.play.declared import add_turn, show_status


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
    from companion.muli.game import GAME as DECLARED
    from companion.play import Move, play

    given = {k: v for k, v in (("dice", dice), ("keep", keep), ("first", first))
             if v is not None}
    with open_store(db) as store:
        saved = pick(store, game_id, "muli")
        played, state, _ = play(store, saved, DECLARED, [Move.of("roll", None, given)])
    done = played[-1]
    roller, result = done.detail
    after = result.race
    payload = {
        "id": saved.id, "player": roller, "dice": list(result.dice),
        "steps": [{"colour": s.colour, "kind": s.kind, "from": s.before, "to": s.after,
                   "note": s.note} for s in result.steps],
        "turned": result.turned, "winner": after.winner, "end": after.end,
        "next": None if after.over else after.active, "state": state}
    emit(as_json, payload, list(done.lines))


@muli.command()
@GAME
@DB
@JSON
def status(game_id: int | None, db: str | None, as_json: bool) -> None:
    """Show the track: where every piece is, whose turn it is, the winner."""
    show_status(db, game_id, as_json, "muli")


next_command(muli, "muli", "companion.muli.saved")
add_turn(muli, "muli", "Das Störrische Muli", "irata play muli new --players A,B,C", MOVES)
