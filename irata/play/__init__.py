"""``irata play``: each game's companion as a lazy sub-group, plus the saved-game commands.

The games come from the one registry, ``companion.games`` (each game's commands live in
``irata/play/<game>.py``); the saved-game commands that work for any game (status, log, undo,
export, set, games) live in ``irata/play/session.py``.
"""

from __future__ import annotations

import click

from companion.games import GAMES as REGISTRY
from irata.lazy import LazyGroup

SESSION: dict[str, tuple[str, str]] = {
    "status": ("irata.play.session:status", "Show a saved game's state."),
    "log": ("irata.play.session:log", "Show a saved game's events."),
    "undo": ("irata.play.session:undo", "Drop a saved game's last event."),
    "export": ("irata.play.session:export", "Write a saved game's log as JSON (and CSV)."),
    "set": ("irata.play.session:set_cmd", "Correct any number in a saved game."),
    "games": ("irata.play.session:games", "List the saved games."),
}
GAMES: dict[str, tuple[str, str]] = {g.name: (g.commands, g.summary) for g in REGISTRY}


@click.group(cls=LazyGroup, lazy={**GAMES, **SESSION})
def play() -> None:
    """The companion: does the table's arithmetic while you play the printed copy."""
