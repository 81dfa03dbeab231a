"""Das Störrische Muli's one move as the table types it: the roll of the two colour dice
(light to import: the command line builds ``turn`` from it)."""

from __future__ import annotations

from companion.moves import MoveSpec, Param

__all__ = ["MOVES"]

MOVES: tuple[MoveSpec, ...] = (
    MoveSpec("roll", "roll", "Roll the two colour dice and move the pieces.",
             "Roll the two colour dice for the player whose turn it is, and move the pieces.",
             params=(Param("dice", "The table's own dice, two colours: red,blue.",
                           option="--dice", once=True, title="Dice"),
                     Param("keep", "Leave this die as it lies and roll only the other.",
                           option="--keep", once=True, title="Keep"),
                     Param("first", "Which of two moving pieces moves first (a colour).",
                           option="--first", once=True, title="First"))),
)
