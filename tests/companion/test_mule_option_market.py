"""M.U.L.E.'s Optional Rules of the Market: Declaring Buyers and Sellers, and Colonists
Preferred over The Store in Auctions, each played on the Auction it changes (the rulebook's
Market Example where it shows one), the numbers worked by hand."""

from __future__ import annotations

from typing import Any

import pytest

from companion.mule import market, turn
from companion.mule import saved as game
from companion.mule.data import MuleData
from companion.mule.state import State, from_json, to_json
from components.errors import InputError, RuleError
from tests.companion.mule_states import colonist, with_colonist

# the Market Example's Colonists; Leggite ranks lower than Mechtron
NAMES = ["Mechtron", "Packer", "Leggite", "Spheroid"]


def food_auction(md: MuleData, *chosen: str) -> State:
    """The Food Auction of a Tournament Turn: The Store buys Food at $5 and sells it at $7
    (the Market Example's prices); Spheroid holds 5 Food, the others none; $30 each."""
    s = from_json(game.new_game(md, NAMES, "tournament", seed=3,
                                options=dict.fromkeys(chosen, "")))
    return s._replace(
        ranking=("Mechtron", "Packer", "Leggite", "Spheroid"),
        prices=s.prices._replace(food=5), store=s.store._replace(food=0),
        colonists=tuple(colonist(c, food=5 if c.name == "Spheroid" else 0)
                        for c in s.colonists),
        todo=(("trade", "food"), ("trade", "energy")), phase="trade")


def walk(s: State, md: MuleData, answers: dict[str, list[str]]
         ) -> tuple[State, list[str], list[str]]:
    """The Auction at the table: each question answered from ``answers`` (by the words it
    starts with), in turn; returns the state after it, the questions and the lines said."""
    asked: list[str] = []
    said: list[str] = []
    given = {k: iter(v) for k, v in answers.items()}

    def ask(question: str, default: str) -> str:
        asked.append(question)
        key = next(k for k in given if k in question)
        return next(given[key])

    after, _, _, _ = turn.take_step(s, md, ask, said.append)
    return after, asked, said


# -- Colonists Preferred over The Store in Auctions ----------------------------------------------

def test_an_offer_matching_the_store_is_taken_first(md: MuleData) -> None:
    # The Market Example: "Spheroid sells 2 Food units to Packer for $6, after which [she]
    # proceeds to sell 1 Food unit to The Store at its Buy Price ($5). Both Leggite and
    # Mechtron offer to pay $6 for it to Spheroid, but Spheroid prefers to sell it to The
    # Store". The Optional Rule: "If a player offers to Buy or Sell any Good at a price that
    # at least matches the price offered by The Store, other players must trade with her
    # before they can trade with The Store."
    s = food_auction(md, "colonists-preferred")
    before = to_json(s)
    after, asked, said = walk(s, md, {
        "offers": ["Leggite buys 1@4", "Leggite buys 1@6, Mechtron buys 1@6"],
        "deals": ["Spheroid>Packer 2@6"],
        # refused: Leggite's and Mechtron's $6 offers stand; after the deals Spheroid sells
        # her last unit to The Store
        "sold to The Store": ["Spheroid=1", ""]})
    refusals = [x for x in said if x.startswith("  !")]
    assert "offer to buy at $4 is below The Store's Buy Price ($5)" in refusals[0]
    assert ("Leggite offers to buy 1 food at $6, at least matching The Store, so Spheroid "
            "trades with Leggite before The Store: Spheroid cannot sell it to The Store while "
            "the offer stands") in refusals[1]
    assert to_json(s) == before and len(refusals) == 2
    # Spheroid: $30 + 2 x $6 = $42, 3 Food left; Packer: $30 - $12 = $18, 2 Food
    spheroid = after.colonist("Spheroid")
    assert spheroid.money == 42 and spheroid.stock("food") == 3
    assert after.colonist("Packer").money == 18
    # the deals between Colonists come before the trades with The Store
    kinds = [next(k for k in ("offers", "deals", "sold") if k in q) for q in asked]
    assert kinds == ["offers", "offers", "deals", "sold", "sold"]


def test_once_the_offers_are_taken_the_store_is_open(md: MuleData) -> None:
    s = food_auction(md, "colonists-preferred")
    after, _, said = walk(s, md, {
        "offers": ["Leggite buys 1@6, Mechtron buys 1@6"],
        "deals": ["Spheroid>Packer 2@6, Spheroid>Leggite 1@6, Spheroid>Mechtron 1@6"],
        "sold to The Store": ["Spheroid=1"],
        "bought from": [""]})
    assert not [x for x in said if x.startswith("  !")]
    # Spheroid: $30 + 2 x $6 + $6 + $6 + 1 x $5 = $59; The Store now holds that 1 Food
    assert after.colonist("Spheroid").money == 59
    assert after.colonist("Spheroid").stock("food") == 0 and after.store.food == 1


def test_an_offer_to_sell_keeps_buyers_from_the_store(md: MuleData) -> None:
    s = food_auction(md, "colonists-preferred")
    s = s._replace(store=s.store._replace(food=3))
    # Spheroid offers 2 Food at $7, The Store's Sell Price: Mechtron may not buy from The
    # Store until he (or others) took them; an offer at $8 is above it and binds nobody
    with pytest.raises(RuleError, match=r"offer to sell at \$8 is above The Store's Sell "
                                        r"Price \(\$7\)"):
        turn.run_step(s, md, turn.scripted({"offers": "Spheroid sells 2@8"}, {}),
                      lambda _x: None)
    with pytest.raises(RuleError, match="Spheroid offers to sell 2 food at \\$7.*Mechtron "
                                        "cannot buy it from The Store"):
        turn.run_step(s, md, turn.scripted({"offers": "Spheroid sells 2@7", "deals": "",
                                            "sell": "", "buy": "Mechtron=1"}, {}),
                      lambda _x: None)
    after, _, _ = turn.run_step(s, md, turn.scripted(
        {"offers": "Spheroid sells 2@7", "deals": "Spheroid>Mechtron 2@7", "sell": "",
         "buy": "Mechtron=1"}, {}), lambda _x: None)
    # Mechtron: $30 - 2 x $7 - $7 = $9, 3 Food
    assert after.colonist("Mechtron").money == 9
    assert after.colonist("Mechtron").stock("food") == 3


def test_without_the_rule_the_store_is_chosen_freely(md: MuleData) -> None:
    s = food_auction(md)
    after, _, _ = turn.run_step(s, md, turn.scripted({"sell": "Spheroid=1"}, {}),
                                lambda _x: None)
    assert after.colonist("Spheroid").money == 35
    with pytest.raises(InputError, match="--offer"):
        game_apply(s, {"sell": "Spheroid=1", "offers": "Leggite buys 1@6"})


def game_apply(s: State, answers: dict[str, str]) -> Any:
    from companion.mule.game import GAME
    from companion.play import Move

    return GAME.apply(s, Move.of("trade", "food", answers))


# -- Declaring Buyers and Sellers ----------------------------------------------------------------

def test_declared_buyers_and_sellers(md: MuleData) -> None:
    # "Once declared, players are only allowed to Buy or Sell this Good during the Auction, or
    # do nothing. That is, if you declared yourself a Seller you are not forced to Sell, but
    # you are not allowed to Buy that Good in this Auction."
    s = food_auction(md, "declaring-buyers-and-sellers")
    s = with_colonist(s._replace(store=s.store._replace(food=4)), "Packer", food=2)
    after, asked, said = walk(s, md, {
        "declares": ["Mechtron=S,Packer=B,Leggite=B", "Mechtron=S,Packer=B,Leggite=B,Spheroid=S"],
        "sold to The Store": ["Packer=1", "Spheroid=2"],
        "bought from": ["Mechtron=1", "Leggite=1"],
        "deals": ["Spheroid>Mechtron 1@6", "Spheroid>Packer 1@6"]})
    refusals = [x for x in said if x.startswith("  !")]
    assert "every Colonist shows one side of the Buyer/Seller Token; missing: Spheroid" \
        in refusals[0]
    assert ("Declaring Buyers and Sellers: Packer declared food Buyer before this Auction, "
            "and a declared Buyer may only buy it, so Packer cannot sell it") in refusals[1]
    assert "Mechtron declared food Seller" in refusals[2] and "cannot buy it" in refusals[2]
    assert "Mechtron declared food Seller" in refusals[3]
    assert "Declared: Mechtron Seller, Packer Buyer, Leggite Buyer, Spheroid Seller" in said
    # Spheroid: $30 + 2 x $5 + $6 = $46; Leggite: $30 - $7 = $23; Packer: $30 - $6 = $24;
    # Mechtron, a Seller holding nothing, did nothing: $30
    money = {n: after.colonist(n).money for n in NAMES}
    assert money == {"Mechtron": 30, "Packer": 24, "Leggite": 23, "Spheroid": 46}
    assert market.declared(after, "food")["Packer"] == "buyer"


def test_declarations_on_the_command_line(md: MuleData) -> None:
    from companion.mule.game import GAME
    from companion.play import Move

    s = food_auction(md, "declaring-buyers-and-sellers")
    # a declaration must come first: a sale without it is refused, nothing changes
    with pytest.raises(InputError, match="missing: Mechtron, Packer, Leggite, Spheroid"):
        GAME.apply(s, Move.of("trade", "food", {"sell": "Spheroid=1"}))
    out = GAME.apply(s, Move.of("trade", "food", {
        "declare": "Mechtron=b,Packer=b,Leggite=b,Spheroid=s", "sell": "Spheroid=1"}))
    after = out.state
    assert after.colonist("Spheroid").money == 35
    # the next Auction asks its own declaration; the Turn's end forgets them
    assert after.declared is not None
    assert {g: dict(r) for g, r in after.declared.items()} == {
        "food": {"Mechtron": "buyer", "Packer": "buyer", "Leggite": "buyer",
                 "Spheroid": "seller"}}
    now = turn.current(s, md)
    assert now is not None and "--declare NAME=B|S" in turn.command(now, s)
