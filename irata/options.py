"""What every saved-game command shares: the ``--db``, ``--game`` and ``--json`` options, and
finding the saved game a command means (the one named, or the one touched last)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from components.errors import InputError

if TYPE_CHECKING:
    from companion.session import SavedGame, Store

DB = click.option("--db", "db", type=click.Path(dir_okay=False),
                  help="The games file (default: $IRATA_DB or the user data directory).")
GAME = click.option("--game", "game_id", type=int,
                    help="The saved game (default: the one played last).")
JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
SAVE = click.option("--save", is_flag=True,
                    help="Use the saved game (the one played last, or --game ID): read the "
                         "inputs from it and record the result.")


def open_store(db: str | None) -> Store:
    from companion.session import Store

    return Store(Path(db) if db else None)


def pick(store: Store, game_id: int | None, game: str | None = None, title: str = "",
         start: str = "") -> SavedGame:
    """The saved game ``game_id``, or the latest one (of ``game`` when given).

    ``title`` names the game in messages; ``start`` tells how to begin one."""
    if game_id is not None:
        saved = store.get(game_id)
        if game is not None and saved.game != game:
            raise InputError(f"game {game_id} is a {saved.game} game, not {title or game}")
        return saved
    saved = store.latest(game)
    if saved is None:
        if game is None:
            raise InputError(f"no saved games in {store.path} yet")
        raise InputError(f"no {title or game} game yet: start one with '{start}'")
    return saved


def show_status(db: str | None, game_id: int | None, as_json: bool, game: str | None = None,
                title: str = "", start: str = "") -> None:
    """Print a saved game's state: the game's own summary, or its JSON."""
    from companion import session

    with open_store(db) as store:
        saved = pick(store, game_id, game, title, start)
        state = session.state_of(store, saved)
    if as_json:
        click.echo(json.dumps({"id": saved.id, "game": saved.game, "name": saved.name,
                               "state": state}, indent=2))
    else:
        click.echo(f"Game {saved.id}: {saved.name}")
        click.echo(session.describe_of(saved.game, state))
