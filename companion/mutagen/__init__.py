"""Mutagen's companion: the table's arithmetic for the printed copy.

- ``rules``: End of Game Scoring (Crew cards, storage, Shard Fragments, Tree cards, the
  tie-break), End of Round scoring, setup, the progress track and the expansions' changes.
- ``airship``: Storage tiles and the Element installation rules of the Airship board.
- ``files``: the YAML files the ``irata play mutagen`` commands read, with located errors.
- ``data``: the rule numbers and the Crew and Storage catalogue, read once (``companion.data``).
- ``saved``: a game kept as a saved game (the score track through the rounds).

Every number comes from ``components/mutagen``. The game is declared in ``companion.games``.
"""

from __future__ import annotations

from companion.mutagen.airship import (
    Airship,
    Element,
    PlacedTile,
    Verdict,
    filled_columns,
    install_check,
    parse_element,
    place_tile_check,
)
from companion.mutagen.data import load_rules
from companion.mutagen.rules import (
    Breakdown,
    Crew,
    FinalScore,
    PlayerEnd,
    PlayerRound,
    RoundScore,
    Rules,
    Setup,
    Tracks,
    advance_progress,
    crew_points,
    end_of_game,
    end_of_round,
    palace_move_cost,
    people_card_cost,
    setup,
    shard_points,
    spy_discard_points,
    starting_score,
    storage_points,
    track_round_points,
    tree_points,
)

__all__ = [
    "Airship", "Breakdown", "Crew", "Element", "FinalScore", "PlacedTile", "PlayerEnd",
    "PlayerRound", "RoundScore", "Rules", "Setup", "Tracks", "Verdict", "advance_progress",
    "crew_points", "end_of_game", "end_of_round", "filled_columns", "install_check",
    "load_rules", "palace_move_cost", "parse_element", "people_card_cost", "place_tile_check",
    "setup", "shard_points", "spy_discard_points", "starting_score", "storage_points",
    "track_round_points", "tree_points",
]
