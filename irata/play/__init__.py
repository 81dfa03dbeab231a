"""``irata play``: each game's companion as a lazy sub-group, plus the saved-game commands.

The game sub-groups live in ``irata/play/<game>.py``; the saved-game commands that work for
any game (status, log, undo, export, set, list) live in ``irata/play/session.py``.
"""

from __future__ import annotations

import click

from irata.lazy import LazyGroup

GAMES: dict[str, tuple[str, str]] = {
    "mule": ("irata.play.mule:mule", "M.U.L.E.: pricing, spoilage, production, ranking, games."),
    "mutagen": ("irata.play.mutagen:mutagen", "Mutagen: scoring, airship checks, set-up, games."),
    "outer-earth": ("irata.play.outer_earth:outer_earth",
                    "Outer Earth: VP, bidding, upkeep, games."),
    "muli": ("irata.play.muli:muli", "Das Störrische Muli: the race, its dice and moves."),
    "mule-goes-crazy": ("irata.play.mule_goes_crazy:mule_goes_crazy",
                        "Mule Goes Crazy!: auctions, production dice, upkeep, games."),
    "status": ("irata.play.session:status", "Show a saved game's state."),
    "log": ("irata.play.session:log", "Show a saved game's events."),
    "undo": ("irata.play.session:undo", "Drop a saved game's last event."),
    "export": ("irata.play.session:export", "Write a saved game's log as JSON (and CSV)."),
    "set": ("irata.play.session:set_cmd", "Correct any number in a saved game."),
    "games": ("irata.play.session:games", "List the saved games."),
}


@click.group(cls=LazyGroup, lazy=GAMES)
def play() -> None:
    """The companion: does the table's arithmetic while you play the printed copy."""
