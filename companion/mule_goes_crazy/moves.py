"""Mule Goes Crazy!'s moves as the table types them: one per command of
``irata play mule-goes-crazy`` that records a step of the saved game, declared once;
:mod:`companion.mule_goes_crazy.game` plays them. Light to import: listing the commands reads
it.

``auction``'s ``unsold`` is a flag (its answer ``yes``): nobody bid."""

from __future__ import annotations

from companion.moves import MoveSpec, Param

__all__ = ["MOVES"]

MOVES: tuple[MoveSpec, ...] = (
    MoveSpec("favored", "favored", "Favored Player: the fewest saved Credits.",
             "Favored Player: the fewest saved Credits, ties clockwise from the last one; in "
             "the first turn the table's own choice (new --favored, or --player here) "
             "stands. Runs itself once nothing is left to choose.",
             params=(Param("player", "Turn 1: the table's choice of favored player.",
                           option="--player", once=True, title="Favored player"),)),
    MoveSpec("grant", "grant", "Land Grant: a player lays down one Land.",
             "Land Grant Phase: PLAYER lays down one LAND from their hand, before the first "
             "auction.", who="player",
             params=(Param("land", "The Land card laid down, or none.", title="Land"),)),
    MoveSpec("auction", "auction", "Record a Land Auction: winner and price, or unsold.",
             "A Land Auction: LAND won by --winner at --price (at least the opening bid, at "
             "most the winner's Credits), or --unsold; 'auction none' when the card turned "
             "over is not a Land (the Land Auctions are over).",
             params=(Param("land", "The Land turned over from the Draw pile, or none.",
                           title="Land"),
                     Param("winner", "The player who won the Land.", option="--winner",
                           title="Winner"),
                     Param("price", "The closing bid the winner pays the Store.",
                           option="--price", title="Price"),
                     Param("unsold", "Nobody bid: the Land Auctions are over.",
                           option="--unsold", title="Unsold", flag=True),
                     Param("bids", "The bidding, bid by bid from the favored player: "
                           "NAME=CREDITS or NAME=pass (repeatable).", option="--bid",
                           pairs=True, title="Bids"))),
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
    MoveSpec("upgrade", "upgrade", "Upgrades: a player puts an Upgrade on a Land or Mule.",
             "Upgrades: PLAYER pays CARD's cost and puts it on their Land --on LAND, or (a Mule "
             "Upgrade) on the Mule tending that Land; one Upgrade a Land and a Mule.",
             who="player",
             params=(Param("card", "The Upgrade card.", title="Upgrade"),
                     Param("on", "The Land it goes on (or whose Mule it goes on).",
                           option="--on", once=True, title="On"))),
    MoveSpec("discard-upgrade", "discard-upgrade",
             "Upgrades: a player discards one of their Upgrades.",
             "Upgrades: \"Any upgrade can be discarded during this phase\": in Play out cards, "
             "PLAYER puts the Upgrade on their Land --on LAND (with --mule: on the Mule "
             "tending it) into the Discard pile.", who="player",
             params=(Param("on", "The Land that holds it (or whose Mule does).",
                           option="--on", once=True, title="On"),
                     Param("mule", "The Upgrade is the Mule's on that Land.", option="--mule",
                           title="On its Mule", flag=True))),
    MoveSpec("event", "event", "Events: a player plays an Event card in their turn.",
             "Events: PLAYER plays CARD in their own turn (one Event a turn); --target names "
             "the player it hits, --mule the Land of the Mule that runs off, --kick the player "
             "who stops it with a Mule Kick.", who="player",
             params=(Param("card", "The Event card.", title="Event"),
                     Param("target", "The player it hits.", option="--target", once=True,
                           title="Target"),
                     Param("mule", "Radiation Storm: the Land of the Mule that runs off.",
                           option="--mule", once=True, title="Mule on"),
                     Param("kick", "The player who stops it with a Mule Kick.",
                           option="--kick", once=True, title="Kicked by"))),
    MoveSpec("interrupt", "interrupt", "Interrupts: a player plays an Interrupt card.",
             "Interrupts: PLAYER plays CARD at any time, even in another player's turn; "
             "--target names the player it hits.", who="player",
             params=(Param("card", "The Interrupt card.", title="Interrupt"),
                     Param("target", "The player it hits.", option="--target", once=True,
                           title="Target"))),
    MoveSpec("facility", "facility", "Facilities: a player plays a Facility card.",
             "Population and Facilities: PLAYER plays a Facility CARD (their Event of the "
             "turn) and pays its Build cost at each upkeep for the turns it shows; then a "
             "Population card may be assigned to it.", who="player",
             params=(Param("card", "The Facility card.", title="Facility"),)),
    MoveSpec("done", "done", "Player Turns: a player's turn is over.",
             "Player Turns: PLAYER's turn is over (Draw, Play out cards, Discard, Move Mules): "
             "the next player takes theirs.", who="player"),
    MoveSpec("population", "population", "A Population card comes into play.",
             "A Population CARD comes into play (the Store pays its upkeep each turn), "
             "assigned to --facility when one is named.",
             params=(Param("card", "The Population card.", title="Population card"),
                     Param("facility", "The Facility it is assigned to.", option="--facility",
                           title="Facility"),
                     Param("player", "Who played it (kept in the log).", option="--player",
                           title="Player"))),
    MoveSpec("move-population", "move-population",
             "Population and Facilities: a Population card moved by vote.",
             "Population and Facilities: \"Population cards may be moved at any time, but "
             "this requires a majority vote among the players\": CARD moves --to a built "
             "Facility that holds none (or --to none, off its Facility), --for naming who "
             "voted for it (more than half the players).",
             params=(Param("card", "The Population card moved.", title="Population card"),
                     Param("to", "The built Facility it moves onto, or none.",
                           option="--to", once=True, title="To"),
                     Param("from", "The Facility it is on now (when several are in play).",
                           option="--from", once=True, title="From"),
                     Param("for", "The players who voted for it, comma-separated.",
                           option="--for", many=True, title="Voted for"))),
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
    MoveSpec("trade", "trade", "Resource Auctions: one resource traded.",
             "Resource Auctions: RESOURCE sold to the Store at its last price (--sell), bought "
             "from its stock at the last price plus the spread (--buy), traded between players "
             "at their own price (--deal SELLER>BUYER UNITS@PRICE).", who="good",
             params=(Param("sell", "Units sold to the Store: NAME=N (repeatable).",
                           option="--sell", pairs=True, title="Sold to the Store"),
                     Param("buy", "Units bought from the Store: NAME=N (repeatable).",
                           option="--buy", pairs=True, title="Bought from the Store"),
                     Param("deal", "SELLER>BUYER UNITS@PRICE (repeatable).", option="--deal",
                           many=True, title="Deals"))),
    MoveSpec("reshuffle", "reshuffle", "The Draw pile ran out: a new one from the Discards.",
             "The Draw pile ran out: the Discard pile is shuffled into a new one. The game "
             "ends after the turn in which it runs out the second time."),
    MoveSpec("end-turn", "end-turn", "End the turn: the next one begins.",
             "End the turn once the Production Phase is done: the next one begins."),
)
