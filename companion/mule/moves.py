"""M.U.L.E.'s moves as the table types them (a step of the Game Turn each), declared once: the
command line's step commands are built from them (``irata/play/declared.py``) and
:mod:`companion.mule.game` plays them. Light to import: listing the commands reads it."""

from __future__ import annotations

from companion.moves import MoveSpec, Param

__all__ = ["MOVES"]

MOVES: tuple[MoveSpec, ...] = (
    MoveSpec("grant", "grant", "Step: Land Grant (NAME TILE@SQUARE).",
             "1. Expansion, Land Grant: NAME claims a Land, TILE@SQUARE as printed (P07@B2), "
             "or none. Several Colonists in one entry: grant Ann=P07@B2 Bob=none.",
             who="player", batch=True,
             params=(Param("claim", "The Land claimed: its tile and square, TILE@SQUARE.",
                           title="Land (TILE@SQUARE)"),)),
    MoveSpec("auction", "auction", "Step: a Land Auction (SELLER TILE --bids ... --square ...).",
             "1. Expansion, Land Auctions (Tournament), from Rank 1 down: SELLER TILE, the "
             "Land the Auction Tracker goes on, opened at $8, with --bids (clockwise from "
             "the Colonist after SELLER, raise or out each: 'raise out raise out') and "
             "--square (where the winner places it); SELLER TILE secret with Secret Bidding "
             "in Land Auctions, --bids NAME=N,...; or the result at once, SELLER WINNER BID "
             "TILE@SQUARE. SELLER none when SELLER plays no Land for Sale! card; none when "
             "nobody else plays one this Turn.", who="seller",
             params=(Param("auction", "TILE [secret], or WINNER BID TILE@SQUARE, or none.",
                           title="Land (or winner, bid, Land)"),
                     Param("bids", "The bids: raise or out for each Colonist in clockwise "
                           "order ('raise out raise out'); secret: NAME=N,...",
                           option="--bids", once=True),
                     Param("square", "The square of the winner's Player Board the Land goes "
                           "on (E1).", option="--square", once=True))),
    MoveSpec("package", "package", "Step: Package From Home World! cards played.",
             "2. Development: Package From Home World! cards played, NAME=CARD,... (CARD: its "
             "code or its Good), or none.",
             params=(Param("package", "NAME=CARD,... or none.", title="Cards played"),)),
    MoveSpec("develop", "develop", "Step: a Colonist's Action Round of Development.",
             "2. Development: NAME's Action Round, e.g. \"buy P07 F, assay\"; or pass. Several "
             "Colonists in one entry: develop Ann=\"buy P07 F\" Bob=pass.\n\nActions: buy LAND "
             "GOOD, refit LAND GOOD [LAND GOOD] (two Adjacent Lands), move FROM TO [GOOD], "
             "assay, wampus (yes/no without the companion's deck), pub. LAND: its tile (P07) or "
             "square (B2).", who="player", batch=True,
             params=(Param("actions", "The Actions, comma-separated; or pass.",
                           title="Actions"),)),
    MoveSpec("reveal", "reveal", "Step: the Production Card revealed in Development.",
             "2. Development, Optional Rule More Predictability: the Production Card drawn "
             "and revealed at the beginning of the last Action Round (its code or title; "
             "nothing with the companion's deck); it takes effect at Production.",
             params=(Param("card", "The Production Card drawn: its code or title.",
                           title="Production Card"),
                     Param("card_price", "The printed Crystite price, for a title printed on "
                           "several cards (The Ship is Back!).", option="--price", once=True))),
    MoveSpec("usage", "usage", "Step: Usage and Spoilage.",
             "3. Usage and Spoilage (nothing to type: it runs itself)."),
    MoveSpec("produce", "produce", "Step: Production (the Production Card drawn).",
             "4. Production: the Production Card drawn (its code or title; nothing with the "
             "companion's deck), and who flips or loses what.",
             params=(Param("card", "The Production Card drawn: its code or title.",
                           title="Production Card"),
                     Param("card_price", "The printed Crystite price, for a title printed on "
                           "several cards (The Ship is Back!).", option="--price", once=True),
                     Param("flip", "NAME=TILES flipped for an Energy Shortage.",
                           option="--flip", pairs=True, per_name=True),
                     Param("hit", "NAME=LAND hit by Radiation! or Pest Attack!.",
                           option="--hit", pairs=True, per_name=True),
                     Param("lands", "NAME=CELLS: working Lands without tiles (F3,E2).",
                           option="--lands", pairs=True, per_name=True),
                     Param("craters", "Meteorite Strike!: the Zone of Planet Irata each Meteor "
                           "Crater was placed in, in order (red,blue; beside: no empty square "
                           "left).", option="--craters", once=True))),
    MoveSpec("pricing", "pricing", "Step: Pricing.",
             "5. Pricing (nothing to type: it runs itself)."),
    MoveSpec("trade", "trade", "Step: one Auction of the Market (GOOD).",
             "6. Market, one Auction (GOOD): sales to The Store, purchases from it, deals "
             "between Colonists.", who="good",
             params=(Param("sell", "Sold to The Store: NAME=N,... (repeatable).",
                           option="--sell", pairs=True),
                     Param("buy", "Bought from The Store: NAME=N,... (repeatable).",
                           option="--buy", pairs=True),
                     Param("deals", "SELLER>BUYER N@PRICE (repeatable).", option="--deal",
                           many=True),
                     Param("declare", "Declaring Buyers and Sellers: NAME=B or NAME=S for "
                           "every Colonist.", option="--declare", pairs=True),
                     Param("offers", "Colonists Preferred over The Store: NAME buys N@PRICE "
                           "or NAME sells N@PRICE (repeatable).", option="--offer",
                           many=True))),
    MoveSpec("sellout", "final-market", "Step: the Final Turn's Market (all sold to The Store).",
             "6. Market of the Final Turn: everyone sells all their Goods to The Store (it "
             "runs itself)."),
    MoveSpec("ranking", "ranking", "Step: Ranking.",
             "7. Ranking (nothing to type: it runs itself)."),
    *(MoveSpec(kind, kind, f"Step: the {title} Event (NAME CARD --to NAME).",
               f"8. Personal Events: the {title} Event drawn by NAME (CARD: its code or title; "
               "nothing with the companion's deck), --to whom.", who="player",
               params=(Param("card", f"The {title} Event card drawn.", title="Card"),
                       Param("to", "The Colonist who receives the card.", option="--to",
                             once=True)))
      for kind, title in (("lucky", "Lucky"), ("unlucky", "Unlucky"))),
    MoveSpec("end", "end", "Step: the end of the game and the Colony's rating.",
             "The end of the game: the First Founder and the Colony's rating (it runs "
             "itself)."),
)
