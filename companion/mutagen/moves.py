"""Mutagen's moves as the table types them, declared once: the steps a saved game records
(``irata play mutagen round FILE --save``, ``score FILE --save``, ``points PLAYER N``), which
:mod:`companion.mutagen.game` plays. Light to import: listing the commands reads it."""

from __future__ import annotations

from companion.moves import MoveSpec, Param

__all__ = ["MOVES"]

MOVES: tuple[MoveSpec, ...] = (
    MoveSpec("round", "round", "Step: the End of Round points (a YAML FILE of players).",
             "End of Round: each player's points from a YAML FILE (Elements installed, Storage "
             "columns filled, the Element tracks; with the Plight of the People, Elements on "
             "its People card), added to the saved game's score track.",
             params=(Param("file", "The YAML FILE of players (see 'round --help').",
                           title="Round file"),)),
    MoveSpec("score", "score", "Step: End of Game Scoring (a YAML FILE of players).",
             "End of Game Scoring after the fourth round: Crew cards, storage, Shard Fragments "
             "and Tree cards from a YAML FILE, on the saved game's score track; the game is "
             "then over.",
             params=(Param("file", "The YAML FILE of players (see 'score --help').",
                           title="Score file"),)),
    MoveSpec("points", "points", "Step: points gained or paid during a round (PLAYER N).",
             "Move PLAYER's score tracker by N points during a round (negative to pay points): "
             "a Mutation's 2 points, the progress track, a People card's ability.",
             who="player",
             params=(Param("points", "The points gained (negative: paid).", title="Points"),
                     Param("why", "What the points are for (kept in the log).",
                           option="--why", once=True, title="Why"))),
)
