"""Mule Goes Crazy!'s moves as the table types them: one per command of
``irata play mule-goes-crazy`` that records a step of the saved game, declared once;
:mod:`companion.mule_goes_crazy.game` plays them. Light to import: listing the commands reads
it.

``auction``'s ``unsold`` is a flag: any answer but an empty one (``yes``) says nobody bid."""

from __future__ import annotations

from companion.moves import MoveSpec, Param

__all__ = ["MOVES"]

MOVES: tuple[MoveSpec, ...] = (
    MoveSpec("favored", "favored", "Favored Player: the fewest saved Credits.",
             "Favored Player: the fewest saved Credits, ties clockwise from the last one; in "
             "the first turn the table's own choice (new --favored) stands."),
    MoveSpec("grant", "grant", "Land Grant: a player lays down one Land.",
             "Land Grant Phase: PLAYER lays down one LAND from their hand, before the first "
             "auction.", who="player",
             params=(Param("land", "The Land card laid down.", title="Land"),)),
    MoveSpec("auction", "auction", "Record a Land Auction: winner and price, or unsold.",
             "A Land Auction: LAND won by --winner at --price (at least the opening bid, at "
             "most the winner's Credits), or --unsold.",
             params=(Param("land", "The Land turned over from the Draw pile.", title="Land"),
                     Param("winner", "The player who won the Land.", option="--winner",
                           title="Winner"),
                     Param("price", "The closing bid the winner pays the Store.",
                           option="--price", title="Price"),
                     Param("unsold", "Nobody bid (yes): the Land Auctions are over.",
                           option="--unsold", title="Unsold"))),
    MoveSpec("buy", "buy", "A player buys a Mule from the saved Store.",
             "PLAYER buys a MULE (food, energy, smithore, crystite) from the Store.",
             who="player",
             params=(Param("mule", "The Mule bought: food, energy, smithore, crystite.",
                           title="Mule"),)),
    MoveSpec("move", "move", "Move Mules: put a Mule on a Land for its Move Cost.",
             "Move Mules: PLAYER pays the MULE's Move Cost and puts it below their LAND; with "
             "--from the Mule that tends that Land.", who="player",
             params=(Param("mule", "The Mule moved.", title="Mule"),
                     Param("land", "The player's Land it goes to.", title="Land"),
                     Param("from", "Move the Mule that tends this Land.", option="--from",
                           title="From"))),
    MoveSpec("population", "population", "A Population card comes into play.",
             "A Population CARD comes into play (the Store pays its upkeep each turn), "
             "assigned to --facility when one is named.",
             params=(Param("card", "The Population card.", title="Population card"),
                     Param("facility", "The Facility it is assigned to.", option="--facility",
                           title="Facility"),
                     Param("player", "Who played it (kept in the log).", option="--player",
                           title="Player"))),
    MoveSpec("produce", "produce", "Production: Energy use, under-powered Mules, dice.",
             "Consumption of Energy and Production from the saved sheets: for --player NAME "
             "(with --rolls for the table's dice) or for every player who has not produced "
             "this turn (the saved game's seeded dice).",
             params=(Param("player", "This player only (the others produce later).",
                           option="--player", title="Player"),
                     Param("rolls", "The table's dice, in order: 3,5,1,6.", option="--rolls",
                           title="Dice"))),
    MoveSpec("spoilage", "spoilage", "Spoilage on every saved sheet.",
             "Spoilage: Food over 10 loses 5; Energy over 20 is halved; once a turn, after "
             "Production."),
    MoveSpec("upkeep", "upkeep", "Population upkeep from the Store, oldest first.",
             "Population upkeep: the Store feeds and powers each Population card in play, "
             "oldest first, once a turn; the cards it cannot keep leave play."),
    MoveSpec("end-turn", "end-turn", "End the turn: the next one begins.",
             "End the turn once the Production Phase is done: the next one begins."),
)
