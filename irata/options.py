"""What every game's commands share, declared once: the options (``--json``, ``--save``,
``--game``, ``--db``, ``--name``), finding the saved game a command means, reading it,
recording a step in it, and printing a result.

A command that records a step calls :func:`record`: the saved game's state is read, the entry
checked and the event appended inside one ``store.transaction()`` (``BEGIN IMMEDIATE``), so a
refused entry changes nothing and two commands on one game take turns. A missing value is an
``InputError`` (one line, exit 2), as every other bad input.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from components.errors import InputError

if TYPE_CHECKING:
    from companion.session import SavedGame, Store

T = TypeVar("T")

if TYPE_CHECKING:
    # a parameter type converting to an int, a float: click 8.4 made ParamType generic in the
    # value it converts to (mypy asks for it); the click 8.1 the project allows takes no
    # subscript at run time
    IntParamType = click.ParamType[int]
    FloatParamType = click.ParamType[float]
else:
    IntParamType = FloatParamType = click.ParamType

__all__ = ["BLEED", "BoundedFloat", "BoundedInt", "DB", "DPI", "FloatParamType", "GAME",
           "IntParamType", "JSON", "MARGIN", "NAME", "SAVE", "SEED", "create", "emit", "names",
           "need", "open_store", "pick", "read", "next_command", "record", "show_next",
           "start_hint", "using_saved"]


# -- bounded numbers ----------------------------------------------------------------------------

# patterns, compiled on first use by re's own cache (not at import: most commands read none)
_WHOLE = r"[+-]?[0-9]+"
_DECIMAL = r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,3})?"


def _shown(value: object) -> str:
    """A typed value as an error line shows it: never more than 24 characters of it."""
    text = str(value)
    return repr(text) if len(text) <= 24 else repr(text[:20]) + f"... ({len(text)} characters)"


class BoundedInt(IntParamType):
    """A whole number of at most 10 ASCII digits, within ``low``..``high``: a calculator's
    number, a seed, a game id. Anything else (5,000 digits, ``²``, ``1e3``) is one line naming
    the option, exit 2, with the typed text shortened."""

    name = "integer"

    def __init__(self, low: int = -10**9, high: int = 10**9) -> None:
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if not re.fullmatch(_WHOLE, text, re.ASCII):
                self.fail(f"{_shown(value)} is not a whole number", param, ctx)
            if len(text.lstrip("+-")) > 10:
                self.fail(f"{_shown(value)} is far too large a number", param, ctx)
            number = int(text)
        if not self.low <= number <= self.high:
            self.fail(f"{number} is out of range ({self.low} to {self.high})", param, ctx)
        return number

    def __repr__(self) -> str:
        return f"BoundedInt({self.low}, {self.high})"


class BoundedFloat(FloatParamType):
    """A finite decimal number within ``low``..``high`` (millimetres, dots per inch): ``nan``,
    ``inf``, ``1e999`` and hundreds of digits are one line naming the option, exit 2."""

    name = "number"

    def __init__(self, low: float, high: float) -> None:
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        else:
            text = str(value).strip()
            if len(text) > 24 or not re.fullmatch(_DECIMAL, text, re.ASCII):
                self.fail(f"{_shown(value)} is not a number (such as 2.5)", param, ctx)
            number = float(text)
        if not math.isfinite(number):
            self.fail(f"{_shown(value)} is far too large a number", param, ctx)
        if not self.low <= number <= self.high:
            self.fail(f"{number:g} is out of range ({self.low:g} to {self.high:g})", param, ctx)
        return number

    def __repr__(self) -> str:
        return f"BoundedFloat({self.low}, {self.high})"


SEED = BoundedInt()
"""A seed that makes dice or decks repeatable."""
DPI = BoundedFloat(10, 1200)
"""Dots per inch of a rendered image (as generator.raster.MAX_DPI allows)."""
BLEED = BoundedFloat(0, 10)
"""Bleed in mm (as generator.layout.Settings allows)."""
MARGIN = BoundedFloat(0, 30)
"""A printer's non-printable margin in mm (as generator.layout.Settings allows)."""

DB = click.option("--db", "db", type=click.Path(dir_okay=False),
                  help="The games file (default: $IRATA_DB or the user data directory).")
GAME = click.option("--game", "game_id", type=BoundedInt(1, 10**9),
                    help="The saved game (default: the one played last).")
JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
NAME = click.option("--name", "game_name", help="A name for the saved game.")
SAVE = click.option("--save", is_flag=True,
                    help="Use the saved game (the one played last, or --game ID): the inputs "
                         "are read from it, and a step the command records is saved in it.")


# -- printing -----------------------------------------------------------------------------------

def emit(as_json: bool, payload: dict[str, Any] | list[Any],
         text: str | Iterable[str] | Callable[[], str | Iterable[str]]) -> None:
    """Print a result: ``payload`` as JSON with ``--json``, else ``text`` (a string, lines, or
    a function giving either, called only when the text is wanted)."""
    if as_json:
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    shown = text() if callable(text) else text
    click.echo(shown if isinstance(shown, str) else "\n".join(shown))


# -- inputs -------------------------------------------------------------------------------------

def need(value: T | None, option: str) -> T:
    """A calculator's value that only a saved game may stand in for."""
    if value is None or value == ():
        raise InputError(f"{option} is needed (or use the saved game: --save, or --game ID)")
    return value


def using_saved(save: bool, game_id: int | None, given: dict[str, Any] | None = None) -> bool:
    """Whether a calculator works on the saved game (``--save`` or ``--game ID``).

    Then the inputs in ``given`` (option -> value) come from the saved game and must be left
    out: a value typed beside the saved one would be a second truth."""
    if not (save or game_id is not None):
        return False
    named = [option for option, value in (given or {}).items()
             if value is not None and value is not False and value not in ((), "")]
    if named:
        one = len(named) == 1
        raise InputError(f"{', '.join(named)} {'is' if one else 'are'} read from the saved game: "
                         f"leave {'it' if one else 'them'} out (correct the saved game with "
                         "'irata play set')")
    return True


def names(text: str | None, option: str = "--players") -> list[str]:
    """Players as the table names them, comma-separated (Ann,Bob,Cy): never a count."""
    found = [n.strip() for n in (text or "").split(",") if n.strip()]
    if not found:
        raise InputError(f"{option} names the players, comma-separated: Ann,Bob,Cy")
    if len(found) > 20 or any(len(n) > 40 for n in found):
        raise InputError(f"{option}: at most 20 names of at most 40 characters each")
    from companion.names import check_names

    check_names(found, option)      # a count where the names are asked is refused
    twice = sorted({n for n in found if found.count(n) > 1})
    if twice:
        raise InputError(f"{option}: {', '.join(twice)} named twice")
    return found


# -- saved games ------------------------------------------------------------------------------

def open_store(db: str | None) -> Store:
    from companion.session import Store

    return Store(Path(db) if db else None)


def start_hint(game: str) -> str:
    """The command that starts a saved game of ``game``."""
    return f"irata play {game} new --players A,B,C"


def pick(store: Store, game_id: int | None, game: str | None = None, title: str = "",
         start: str = "") -> SavedGame:
    """The saved game ``game_id``, or the latest one (of ``game`` when given).

    ``title`` names the game in messages and ``start`` tells how to begin one; both default to
    the game's registry entry."""
    if game is not None and not title:
        from companion.games import entry

        title = entry(game).title
    if game_id is not None:
        named = store.get(game_id)
        if game is not None and named.game != game:
            raise InputError(f"game {game_id} is a {named.game} game, not {title or game}")
        return named
    latest = store.latest(game)
    if latest is None:
        if game is None:
            raise InputError(f"no saved games in {store.path} yet")
        raise InputError(f"no {title or game} game yet: start one with "
                         f"'{start or start_hint(game)}'")
    return latest


def create(db: str | None, game: str, setup: dict[str, Any], name: str | None = None
           ) -> tuple[SavedGame, dict[str, Any]]:
    """A new saved game of ``game`` from its ``setup`` event; the game and its state."""
    from companion import session

    with open_store(db) as store, store.transaction():
        saved = store.create(game, setup, name)
        return saved, session.state_of(store, saved)


def read(db: str | None, game_id: int | None, game: str | None = None
         ) -> tuple[SavedGame, dict[str, Any]]:
    """The saved game a command means, and its state (nothing is written)."""
    from companion import session

    with open_store(db) as store:
        saved = pick(store, game_id, game)
        return saved, session.state_of(store, saved)


def record(db: str | None, game_id: int | None, game: str | None, kind: str,
           build: Callable[[dict[str, Any]], dict[str, Any]]
           ) -> tuple[SavedGame, dict[str, Any], dict[str, Any]]:
    """One step of a saved game: read its state, check and compute the event (``build``, which
    raises to refuse), append it; all in one transaction. Returns the game, the event's data
    and the state after it. A refused entry (any exception) leaves the game as it was."""
    from companion import session

    with open_store(db) as store, store.transaction():
        saved = pick(store, game_id, game)
        data = build(session.state_of(store, saved))
        store.append(saved.id, kind, data)
        return saved, data, session.state_of(store, saved)


def next_command(group: click.Group, game: str, saved_module: str) -> None:
    """Add ``next`` to a game's command group: what the table does now in the saved game and
    the command that records it, from ``saved_module``'s ``next_step``."""
    @group.command("next")
    @GAME
    @DB
    @JSON
    def next_cmd(game_id: int | None, db: str | None, as_json: bool) -> None:
        """What the table does now in the saved game, and the command that records it."""
        import importlib

        show_next(db, game_id, as_json, game,
                  importlib.import_module(saved_module).next_step)


def show_next(db: str | None, game_id: int | None, as_json: bool, game: str,
              step: Callable[[dict[str, Any]], tuple[str, str | None]]) -> None:
    """Print what the table does now in a saved game of ``game`` and the command that
    records it (``step`` is the game's ``next_step``)."""
    from companion import session

    saved, state = read(db, game_id, game)
    with session.readable(Path(db) if db else session.default_db_path(), saved):
        text, command = step(state)
    emit(as_json, {"id": saved.id, "game": game, "next": text, "command": command},
         [f"Game {saved.id}: {text}"] + ([f"  {command}"] if command else []))


components_option = click.option(
    "--components", "components_dir", type=click.Path(file_okay=False, path_type=Path),
    help="A folder of your own game folders (or one game folder) instead of the bundled games.")
