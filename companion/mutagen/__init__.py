"""Mutagen's companion: the table's arithmetic for the printed copy.

- ``rules``: End of Game Scoring (Crew cards, storage, Shard Fragments, Tree cards, the
  tie-break), End of Round scoring, setup, the progress track and the expansions' changes.
- ``airship``: Storage tiles and the Element installation rules of the Airship board.
- ``files``: the YAML files the ``irata play mutagen`` commands read, with located errors.
- ``data``: the rule numbers and the Crew and Storage catalogue, read once (``companion.data``).
- ``saved``: a game kept as a saved game (the score track through the rounds).
- ``state``: the saved game as a typed, frozen value, with its pair of JSON functions.
- ``game``: the declaration (its moves in ``moves``); ``elements``: its moves of the Elements
  (taken, spent, installed), the Element trackers and the Workers placed.

Every number comes from ``components/mutagen``. The game is declared in ``companion.games``.
"""

from __future__ import annotations

import importlib
from typing import Any

# The names below are imported when first asked for (PEP 562): importing one light module of
# the package (``companion.mutagen.moves``, which every command's listing reads) then costs
# nothing of the rules and the Airship.
_WHERE = {
    "Airship": "companion.mutagen.airship",
    "Element": "companion.mutagen.airship",
    "PlacedTile": "companion.mutagen.airship",
    "Verdict": "companion.mutagen.airship",
    "filled_columns": "companion.mutagen.airship",
    "install_check": "companion.mutagen.airship",
    "parse_element": "companion.mutagen.airship",
    "place_tile_check": "companion.mutagen.airship",
    "load_rules": "companion.mutagen.data",
    "Breakdown": "companion.mutagen.rules",
    "Crew": "companion.mutagen.rules",
    "FinalScore": "companion.mutagen.rules",
    "PlayerEnd": "companion.mutagen.rules",
    "PlayerRound": "companion.mutagen.rules",
    "RoundScore": "companion.mutagen.rules",
    "Rules": "companion.mutagen.rules",
    "Setup": "companion.mutagen.rules",
    "Tracks": "companion.mutagen.rules",
    "advance_progress": "companion.mutagen.rules",
    "crew_points": "companion.mutagen.rules",
    "end_of_game": "companion.mutagen.rules",
    "end_of_round": "companion.mutagen.rules",
    "palace_move_cost": "companion.mutagen.rules",
    "people_card_cost": "companion.mutagen.rules",
    "setup": "companion.mutagen.rules",
    "shard_points": "companion.mutagen.rules",
    "spy_discard_points": "companion.mutagen.rules",
    "starting_score": "companion.mutagen.rules",
    "storage_points": "companion.mutagen.rules",
    "track_round_points": "companion.mutagen.rules",
    "tree_points": "companion.mutagen.rules",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'companion.mutagen' has no attribute {name!r}")
    return getattr(importlib.import_module(where), name)
