"""Mutagen's moves as the table types them, declared once, which :mod:`companion.mutagen.game`
plays and ``irata play mutagen`` turns into commands: the End of Round and End of Game Scoring
(``round FILE``, ``score [FILE]``), and what a player gains and pays during a round (points,
Shard Fragments, the Progress track, Crew cards, Tree cards, Storage tiles, People cards,
Palace moves, the Elements taken, spent and installed, the Element trackers and the Workers
placed with the People cards' abilities they call). Light to import: listing the commands
reads it."""

from __future__ import annotations

from companion.moves import MoveSpec, Param

__all__ = ["DURING", "MOVES"]

_WHY = Param("why", "What it is for (kept in the log).", option="--why", once=True,
             title="Why")

MOVES: tuple[MoveSpec, ...] = (
    MoveSpec("round", "round", "Step: the End of Round points (a YAML FILE of players).",
             "End of Round: each player's points (Elements installed, Storage columns filled, "
             "the Element tracks; with the Plight of the People, Elements on the Hoarder's "
             "card), added to the saved game's score track: from what the saved game kept "
             "(no FILE), or from a YAML FILE (checked against what it kept).",
             params=(Param("file", "The YAML FILE of players (see 'round --help'); none: "
                           "the saved game's.", title="Round file"),)),
    MoveSpec("score", "score", "Step: End of Game Scoring (the saved game, or a YAML FILE).",
             "End of Game Scoring after the fourth round: Crew cards, storage, Shard Fragments "
             "and Tree cards, from the saved game (each player's Elements left in storage with "
             "--storage NAME=N) or from a YAML FILE; the game is then over.",
             params=(Param("file", "The YAML FILE of players (see 'score --help').",
                           title="Score file"),
                     Param("storage", "Elements left in each player's storage: NAME=N "
                           "(repeatable, or comma-separated).", option="--storage",
                           pairs=True, per_name=True, title="Elements in storage"))),
    MoveSpec("points", "points", "Points gained or paid during a round (PLAYER N).",
             "Move PLAYER's score tracker by N points during a round (negative to pay points): "
             "a Mutation's 2 points, a Crew card discarded by the Informant.",
             who="player", batch=True,
             params=(Param("points", "The points gained (negative: paid).", title="Points"),
                     _WHY)),
    MoveSpec("shards", "shards", "Shard Fragments gained or paid (PLAYER N).",
             "PLAYER gains N Shard Fragment tokens (negative: pays them): an action passed "
             "(1 each), 'Gain 2 Shard Fragment tokens', a Mutation's 3, a Guide's 2, or a "
             "Mutation's activation or reaction cost. A payment is refused when PLAYER holds "
             "fewer.",
             who="player", batch=True,
             params=(Param("shards", "Shard Fragments gained (negative: paid).",
                           title="Shard Fragments"), _WHY)),
    MoveSpec("progress", "progress", "The Progress track: pay 2, 4 or 6 (or 'free' for 2 spaces).",
             "Progress Track Location: PLAYER pays 2, 4 or 6 Shard Fragments to move the "
             "Progress tracker 2, 5 or 8 spaces; 'free' moves it 2 spaces without paying (a "
             "Worker type action, a Mutation, a Visitor card). Bonus tokens and points spaces "
             "landed on or passed are resolved.",
             who="player", params=(Param("paid", "2, 4 or 6 Shard Fragments, or 'free'.",
                                         title="Paid"), _WHY)),
    MoveSpec("crew", "crew", "Take a Crew card, paying its printed cost (PLAYER CARD).",
             "Take a Crew card: PLAYER takes the Crew card (its id such as crew/ladder-ore, or "
             "its printed title and Element: 'Climber ore') and pays the Shard Fragments "
             "printed in its top left.",
             who="player", params=(Param("card", "The Crew card.", title="Crew card"),)),
    MoveSpec("tree", "tree", "Complete a Tree card, gaining its Shard Fragments (PLAYER CARD).",
             "Tree Location: PLAYER completes the Tree card (its id, such as tree/jade-01), "
             "returning Elements from storage of the colours it shows (--spend; a Supreme "
             "Element is any colour, the Gardener lets one be any colour, --fewer for the "
             "Mutation's one Element fewer), and gains the Shard Fragments printed on it; it "
             "scores at the end of the game.",
             who="player", params=(Param("card", "The Tree card.", title="Tree card"),
                                   Param("spend", "The Elements returned from storage: "
                                         "'green ore, blue gas'.", option="--spend",
                                         many=True, title="Elements spent"),
                                   Param("fewer", "The Mutation: one Element fewer.",
                                         option="--fewer", flag=True, title="One fewer"))),
    MoveSpec("storage", "storage", "Place a Storage tile on two squares (PLAYER SQ,SQ).",
             "Storage Tiles: PLAYER places a Storage tile covering two side-by-side squares of "
             "the Airship (A1,A2) and pays both squares' Shard Fragment costs.",
             who="player",
             params=(Param("at", "The two squares it covers: A1,A2.", title="Squares"),
                     Param("tile", "The tile's id (storage/13-any-pink): its squares' "
                           "installation restrictions, kept with it.",
                           option="--tile", once=True, title="Tile"))),
    MoveSpec("people", "people", "The Plight of the People: take a People card "
             "(PLAYER supreme|ability CARD).",
             "Gameplay Changes: PLAYER takes a People card, paying Shard Fragments for a Supreme "
             "Element token (0/1/2/3 in rounds 1-4) or points for its ability (3/2/1/0).",
             who="player",
             params=(Param("take", "'supreme' or 'ability', then the card "
                           "(people/gardener).", title="Benefit and card"),)),
    MoveSpec("discard", "discard", "The Informant: discard a Crew card for twice its cost "
             "(PLAYER CARD).",
             "People Card Abilities (the Informant): when PLAYER places the Spy, a Crew card "
             "they hold may be discarded to gain points equal to double its Shard Fragment "
             "cost; it no longer scores at the end of the game.",
             who="player", params=(Param("card", "The Crew card held.", title="Crew card"),)),
    MoveSpec("palace", "palace", "The Palace Visitors: move a Palace Worker (PLAYER ORDER).",
             "Gameplay Changes: PLAYER moves the Worker placed ORDER-th at the Palace (1 the "
             "first) to the Game board, top to bottom: the first costs 2 Shard Fragments, the "
             "second 1, the others nothing.",
             who="player", params=(Param("order", "Which Worker placed at the Palace (1, 2, "
                                         "...).", title="Order"),)),
)

_ELEMENT_MOVES: tuple[MoveSpec, ...] = (
    MoveSpec("element", "element", "Take an Element (PLAYER COLOUR TYPE [--at SPACE]).",
             "Element Locations (and every action that takes 1 Element): PLAYER takes the "
             "Element (blue ore) into storage, or installs it on an Airship space (--at H1, "
             "A2, ...; the installation rules checked), or (the Hoarder) keeps it on the "
             "People card (--at card). The box holds 5 of each colour and type.",
             who="player",
             params=(Param("element", "The Element: 'blue ore'.", title="Element"),
                     Param("at", "Install it on this space (H1, A2, ...), or 'card' (the "
                           "Hoarder); none: into storage.", option="--at", once=True,
                           title="Install at"), _WHY)),
    MoveSpec("install", "install", "Install Elements just spent (PLAYER 'COLOUR TYPE SPACE, "
             "...').",
             "Install Elements (a Worker type action): the Elements of one colour PLAYER has "
             "just spent at this location are installed on the Airship instead of going back "
             "to the supply, each on its space ('blue gas H1, blue ore A2'); the installation "
             "rules are checked.",
             who="player",
             params=(Param("element", "Each Element spent and its space: 'blue gas H1, "
                           "blue ore A2'.", title="Elements and spaces"),)),
    MoveSpec("track", "track", "Move an Element tracker (PLAYER TYPE [N], or --spend).",
             "Element Track Location: PLAYER spends Elements from storage (--spend 'blue ore, "
             "pink ore, supreme gas') to move one space on the matching track for each; or "
             "moves TYPE's tracker N spaces without spending (1: a Mutation, a Bonus token, "
             "the Clockmaker, a Visitor card; 2: a Visitor card's depicted track), or, with "
             "--spent, as many spaces as Elements of TYPE were just spent (the Worker type "
             "action). A tracker ends on space 7.",
             who="player",
             params=(Param("track", "The Element track and spaces: 'ore 1'.", title="Track"),
                     Param("spend", "The Elements spent from storage.", option="--spend",
                           many=True, title="Elements spent"),
                     Param("spent", "As many spaces as Elements of TYPE just spent.",
                           option="--spent", flag=True, title="Just spent"), _WHY)),
    MoveSpec("place", "place", "Place a Worker (PLAYER WORKER LOCATION).",
             "Place Workers: PLAYER places a Worker (robot, thug, spy, engineer) at a "
             "location (clockwork-city, ...; palace with The Palace Visitors), once each a "
             "round, on the open spaces. With The Plight of the People the abilities of the "
             "People cards taken follow: a Guide's 2 Shard Fragments at its location, the "
             "Clockmaker's space (--track TYPE) at the Clockwork City, the Diver's Element "
             "drawn (--drawn 'blue ore') at the Nautical City.",
             who="player",
             params=(Param("where", "The Worker and the location: 'spy sacred-tree'.",
                           title="Worker and location"),
                     Param("track", "The Clockmaker: the Element track moved 1 space.",
                           option="--track", once=True, title="Clockmaker's track"),
                     Param("drawn", "The Diver: the Element drawn from the supply.",
                           option="--drawn", once=True, title="Diver's Element"))),
)

MOVES = (*MOVES, *_ELEMENT_MOVES)

DURING = tuple(spec.kind for spec in MOVES if spec.kind not in ("round", "score"))
"""The moves of a round, before its End of Round: any of them, in the table's order."""
