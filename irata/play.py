"""``irata play``: each game's companion as a lazy sub-group, plus the saved-game commands.

The game sub-groups live in ``irata/play_<game>.py``; the saved-game commands that work for
any game (status, log, undo, export, set, list) live in ``irata/play_session.py``.
"""

from __future__ import annotations

import click

from irata.lazy import LazyGroup

GAMES: dict[str, tuple[str, str]] = {
    "mule": ("irata.play_mule:mule", "M.U.L.E.: pricing, spoilage, production, ranking, games."),
    "mutagen": ("irata.play_mutagen:mutagen", "Mutagen: scoring, airship checks, set-up, games."),
    "outer-earth": ("irata.play_outer_earth:outer_earth",
                    "Outer Earth: VP, bidding, upkeep, games."),
    "muli": ("irata.play_muli:muli", "Das Störrische Muli: the race, its dice and moves."),
    "mule-goes-crazy": ("irata.play_mule_goes_crazy:mule_goes_crazy",
                        "Mule Goes Crazy!: auctions, production dice, upkeep, games."),
    "status": ("irata.play_session:status", "Show a saved game's state."),
    "log": ("irata.play_session:log", "Show a saved game's events."),
    "undo": ("irata.play_session:undo", "Drop a saved game's last event."),
    "export": ("irata.play_session:export", "Write a saved game's log as JSON (and CSV)."),
    "set": ("irata.play_session:set_cmd", "Correct any number in a saved game."),
    "games": ("irata.play_session:games", "List the saved games."),
}


@click.group(cls=LazyGroup, lazy=GAMES)
def play() -> None:
    """The companion: does the table's arithmetic while you play the printed copy."""
