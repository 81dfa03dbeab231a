"""Outer Earth's moves as the table types them, declared once: one for each command of
``irata play outer-earth`` that records a step of the saved game (``bid --save``, ``draw``,
``build``, ``sell``, ``done``, ``upkeep``, ``round``). :mod:`companion.outer_earth.game`
plays them. Light to import: listing the commands reads it."""

from __future__ import annotations

from companion.moves import MoveSpec, Param

__all__ = ["MOVES"]

MOVES: tuple[MoveSpec, ...] = (
    MoveSpec("bid", "bid", "Phase 1: the bidding on one planet of the market.",
             "Phase 1, Step 2: the planet up for sale, who revealed a green paddle, then the "
             "MOVES in turn (accept, raise or bow); saved once the bidding ends.",
             params=(Param("planet", "The planet up for sale (name or id).",
                           option="--planet", once=True, title="Planet"),
                     Param("green", "Who revealed a green paddle, comma-separated.",
                           option="--green", once=True, title="Green paddles"),
                     Param("moves", "The moves in turn: accept, raise or bow.",
                           title="Moves"))),
    MoveSpec("draw", "draw", "Action #1: draw development cards.",
             "Action #1: PLAYER draws CARDS development cards (default: its draw value).",
             who="player",
             params=(Param("cards", "How many development cards (default: the draw value).",
                           title="Cards"),)),
    MoveSpec("build", "build", "Action #2: build development cards on a planet.",
             "Action #2: PLAYER builds COLOURS (blue,red,...) on a planet in its construction "
             "area, in order, from its hand.", who="player",
             params=(Param("colours", "The development cards built: colours, comma-separated.",
                           title="Colours"),
                     Param("planet", "The planet in its construction area.",
                           option="--planet", once=True, title="Planet"))),
    MoveSpec("sell", "sell", "Action #3: sell a planet.",
             "Action #3, Sell Planets: the planet to the portfolio, the cards to profits, the "
             "Bonus Revenue card from its pile, the dice raised.", who="player",
             params=(Param("planet", "The planet sold (name or id).", option="--planet",
                           once=True, title="Planet"),
                     Param("built", "Its infrastructure in build order: colours, "
                           "comma-separated (default: as saved).", option="--built",
                           once=True, title="Built"),
                     Param("bonus", "The Bonus Revenue card taken (id, such as br/14).",
                           option="--bonus", once=True, title="Bonus Revenue card"),
                     Param("pile", "The bonus revenue pile it is taken from (1, 2, 3).",
                           option="--pile", once=True, title="Pile"),
                     Param("raise", "The die a dice increase icon raises (once per icon).",
                           option="--raise", many=True, title="Dice raised"))),
    MoveSpec("done", "done", "Phase 2: a company's turn is over.",
             "Company Actions: PLAYER's turn is over (its 3 actions taken, or the rest let "
             "go): the next company clockwise takes its turn; after the last, Phase 3.",
             who="player"),
    MoveSpec("upkeep", "upkeep", "Phase 3: upkeep for every company.",
             "Phase 3, Upkeep Order, for every company at once: planet tax, then the hand "
             "limit; NAME=PLANET puts a taxed planet into NAME's profits pile instead of "
             "paying its 2 cards.",
             params=(Param("discard", "A taxed planet put into NAME's profits pile: "
                           "NAME=PLANET (repeatable).", option="--discard", pairs=True,
                           title="Planets to profits"),)),
    MoveSpec("round", "round", "The end of the round.",
             "Replenish Planet Market, Last Round of the Game?, New Round Begins; after the "
             "last round, the game is over."),
)
