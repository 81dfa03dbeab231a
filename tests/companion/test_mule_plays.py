"""M.U.L.E.'s moves of Land Grant, the Land Auctions, Package From Home World! and the Market
as frozen values (``companion.mule.plays``): a refused move's check names the rule in the
rulebook's words and apply refuses it with the same text, leaving the State as it was; a move
the rules allow is applied; and, over moves drawn at random, check-then-apply never raises and
a move apply refuses is one check refused. Also the Production calculator's Land hit by
Radiation! or Pest Attack! (``companion.mule.production.struck_land``)."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.mule import plays, production
from companion.mule import saved as game
from companion.mule import turn as typed_turn
from companion.mule.data import MuleData
from companion.mule.market import Offer
from companion.mule.state import Land, State, from_json, to_json
from components.errors import InputError, RuleError

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def tournament(md: MuleData, **chosen: str) -> State:
    """Turn 1 of a Tournament, Ann Rank 1: each Colonist $30, 4 Food, a Land for Sale! card
    and a Package From Home World! card."""
    s = game.new_game(md, NAMES, "tournament", seed=3,
                      options={k.replace("_", "-"): v for k, v in chosen.items()})
    s["ranking"] = list(NAMES)
    return typed_turn.begin_turn(from_json(s), md)


def with_lands(s: State, **lands: list[Land]) -> State:
    return s._replace(colonists=tuple(c._replace(lands=tuple(lands.get(c.name, c.lands)))
                                      for c in s.colonists))


def with_stocks(s: State, good: str, **stock: int) -> State:
    return s._replace(colonists=tuple(
        c._replace(stocks=c.stocks._replace(**{good: stock.get(c.name, c.stock(good))}))
        for c in s.colonists))


def refused(s: State, md: MuleData, move: plays.Play) -> str:
    """The refusal's text; apply refuses with the same text and leaves ``s`` as it was."""
    before = to_json(s)
    why = plays.check(s, md, move)
    assert why is not None
    with pytest.raises(RuleError) as exc:
        plays.apply(s, md, move)
    assert str(exc.value) == why
    assert to_json(s) == before
    return why


# -- Land Grant ----------------------------------------------------------------------------------

def test_a_grant_refused_names_the_placement_rule(md: MuleData) -> None:
    s = with_lands(tournament(md), Bob=[Land("plains", "P07", "B1")])
    assert "a River goes only on a river bed (C1 or C3), not B2" in \
        refused(s, md, plays.Grant("Ann", "R01", "B2"))
    assert refused(s, md, plays.Grant("Ann", "P07", "B2")) == \
        "P07 is already on Bob's Player Board"
    assert "C2 is The Store, which is in no Zone" in refused(s, md, plays.Grant("Ann", "P08", "C2"))
    assert refused(s, md, plays.Grant("Bob", "P08", "B1")) == "B1 already holds a Land"
    assert "Meteor Crater: it is on Planet Irata only after" in \
        refused(s, md, plays.Grant("Ann", "M01", "B2"))
    # an empty Player Board and Lands left in every Zone: the claim is a must
    assert "a Colonist has to claim a Land if one is available" in \
        refused(s, md, plays.Grant("Ann"))


def test_a_grant_allowed_puts_the_land_on_the_board(md: MuleData) -> None:
    s = tournament(md)
    move = plays.Grant("Ann", "R01", "C1")
    assert plays.check(s, md, move) is None
    after, lines = plays.apply(s, md, move)
    assert after.colonist("Ann").lands == (Land("river", "R01", "C1"),)
    assert lines == ("Ann claims R01 on C1",)
    assert s.colonist("Ann").lands == ()            # the State given is left alone


def test_a_grant_names_a_square_with_its_tile() -> None:
    with pytest.raises(InputError, match="TILE@SQUARE"):
        plays.Grant("Ann", "P07")


# -- Land Auctions --------------------------------------------------------------------------------

def test_a_land_auction_refused_names_the_rule(md: MuleData) -> None:
    s = tournament(md)
    assert "the opening bid is exactly $8 and each raise exactly $2, so $9" in \
        refused(s, md, plays.LandAuction("Ann", "Bob", 9, "P08", "B1"))
    assert refused(s, md, plays.LandAuction("Ann", "Bob", 32, "P08", "B1")) == \
        "Bob has $30: cannot pay a bid of $32"
    assert "Secret Bidding in Land Auctions is an Optional Rule not chosen" in \
        refused(s, md, plays.LandAuction("Ann", "Bob", 9, "P08", "B1", secret=True))
    assert "a River goes only on a river bed" in \
        refused(s, md, plays.LandAuction("Ann", "Bob", 12, "R01", "B1"))
    after, _ = plays.apply(s, md, plays.LandAuction("Ann", "Bob", 12, "P08", "B1"))
    assert after.colonist("Bob").money == 18 and after.held("Ann", "land_for_sale") == 0
    assert refused(after, md, plays.LandAuction("Ann", "Cid", 8, "P07", "B1")) == \
        "Land Auctions: Ann holds no Land for Sale! card"
    with pytest.raises(InputError, match="bid must be 0 or more"):
        plays.LandAuction("Ann", "Bob", -2, "P08", "B1")


def test_the_cards_are_played_from_rank_1_down(md: MuleData) -> None:
    s = tournament(md)
    assert plays.card_holders(s) == tuple(NAMES)
    assert plays.auction_turn_refused(s, "Ann", "Bob") == (
        "Land Auctions: the Land for Sale! cards are played from Rank 1 down, and now it is "
        "Ann's turn to play one or not (not Bob's)")
    assert plays.auction_turn_refused(s, "Ann", "Ann") is None
    assert "no Colonist holds a Land for Sale! card" in str(
        plays.auction_turn_refused(s, None, "Ann"))


def test_an_auction_opened_or_declined(md: MuleData) -> None:
    s = with_lands(tournament(md), Bob=[Land("plains", "P07", "B1")])
    assert refused(s, md, plays.OpenAuction("Ann", "P07")) == \
        "P07 is already on Bob's Player Board"
    poor = s._replace(colonists=tuple(c._replace(money=7) if c.name == "Ann" else c
                                      for c in s.colonists))
    assert "the opening bid is exactly $8, and Ann has $7" in \
        refused(poor, md, plays.OpenAuction("Ann", "P08"))
    assert plays.opening(s, md, plays.OpenAuction("Ann", "P08")).bid == 8
    s = s._replace(todo=(("auction", "Ann"), ("auction", "Bob"), ("package", None)))
    after, lines = plays.apply(s, md, plays.NoLandForSale("Ann", rest=True))
    assert after.todo == (("auction", "Ann"), ("package", None))
    assert lines == ("No more Land Auctions this Turn",)
    assert plays.apply(s, md, plays.NoLandForSale("Ann")) == \
        (s, ("Ann plays no Land for Sale! card",))


# -- Package From Home World! -------------------------------------------------------------------

def test_a_package_refused_names_the_rule(md: MuleData) -> None:
    s = with_stocks(tournament(md), "food", Ann=2, Bob=3)
    food = "hand/package-food"
    assert refused(s, md, plays.Package((("Ann", food), ("Bob", food)))) == (
        "Package From Home World!: Ann has a smaller food Stock (2) than Bob (3)")
    assert refused(s, md, plays.Package((("Ann", food), ("Ann", food)))) == \
        "Package From Home World!: Ann plays one card"
    after, lines = plays.apply(s, md, plays.Package((("Ann", food),)))
    assert after.colonist("Ann").stock("food") == 5 and after.held("Ann", "package") == 0
    assert lines == ("Ann plays Package From Home World!: +3 food",)
    assert refused(after, md, plays.Package((("Ann", "hand/package-energy"),))) == \
        "Package From Home World!: Ann holds no such card"
    assert plays.apply(s, md, plays.Package()) == (s, ("No Package From Home World! played",))


# -- the Market -----------------------------------------------------------------------------------

def test_a_market_entry_refused_names_the_rule(md: MuleData) -> None:
    s = with_stocks(tournament(md), "food", Ann=4)
    assert refused(s, md, plays.Sell("food", (("Ann", 5),))) == "Ann has 4 food: cannot sell 5"
    sold, lines = plays.apply(s, md, plays.Sell("food", (("Ann", 1),)))
    assert sold.colonist("Ann").stock("food") == 3 and lines[0].startswith("Ann sells 1 food")
    assert "a Colonist either Buys or Sells a Good in one Auction" in \
        refused(sold, md, plays.Buy("food", (("Ann", 1),)))
    assert refused(s, md, plays.Deals("food", (("Ann", "Bob", 5, 1),))) == \
        "Ann has 4 food: cannot sell 5"
    with pytest.raises(InputError, match="a deal trades 1 unit or more"):
        plays.Deals("food", (("Ann", "Bob", 0, 5),))
    with pytest.raises(InputError, match="Ann cannot trade with Ann"):
        plays.Deals("food", (("Ann", "Ann", 1, 5),))


def test_colonists_preferred_over_the_store(md: MuleData) -> None:
    s = with_stocks(tournament(md, colonists_preferred="on"), "food", Ann=4)
    buy = s.prices.food
    assert "below The Store's Buy Price" in str(
        plays.check(s, md, plays.Offers("food", (Offer("Bob", "buy", 2, buy - 1),))))
    standing = (Offer("Bob", "buy", 2, buy + 1),)
    assert plays.check(s, md, plays.Offers("food", standing)) is None
    assert "Bob offers to buy 2 food" in \
        refused(s, md, plays.Sell("food", (("Ann", 1),), standing))
    # once Bob has bought his 2 from Ann, The Store is open to her
    dealt = plays.apply(s, md, plays.Deals("food", (("Ann", "Bob", 2, buy + 1),)))[0]
    assert plays.check(dealt, md, plays.Sell("food", (("Ann", 1),), standing,
                                             (("Ann", "Bob", 2, buy + 1),))) is None


def test_declaring_buyers_and_sellers(md: MuleData) -> None:
    s = with_stocks(tournament(md, declaring_buyers_and_sellers="on"), "food", Ann=4)
    roles = (("Ann", "buyer"), ("Bob", "seller"), ("Cid", "b"), ("Dee", "s"))
    after, lines = plays.apply(s, md, plays.Declare("food", roles))
    assert lines == ("Declared: Ann Buyer, Bob Seller, Cid Buyer, Dee Seller",)
    assert "Ann declared food Buyer before this Auction" in \
        refused(after, md, plays.Sell("food", (("Ann", 1),)))


# -- the property: check-then-apply ----------------------------------------------------------------

def _moves(md: MuleData) -> st.SearchStrategy[plays.Play]:
    names = st.sampled_from(NAMES)
    tiles = st.sampled_from(sorted(t.tile for t in md.lands.values()))
    squares = st.sampled_from(md.player_board.squares + (md.player_board.store,))
    goods = st.sampled_from(("smithore", "crystite", "food", "energy"))
    amounts = st.integers(0, 12)
    named = st.lists(st.tuples(names, amounts), max_size=3, unique_by=lambda x: x[0]).map(tuple)
    deal = st.tuples(names, names, st.integers(1, 6), st.integers(0, 40)).filter(
        lambda d: d[0] != d[1])
    offer = st.builds(Offer, names, st.sampled_from(("buy", "sell")), st.integers(1, 4),
                      st.integers(0, 80))
    cards = st.sampled_from(("hand/package-food", "hand/package-energy"))
    return st.one_of(
        st.builds(plays.Grant, names),
        st.builds(plays.Grant, names, tiles, squares),
        st.builds(plays.NoLandForSale, names, st.booleans()),
        st.builds(plays.OpenAuction, names, tiles, st.booleans()),
        st.builds(plays.LandAuction, names, names, st.integers(0, 40), tiles, squares,
                  st.booleans()),
        st.builds(plays.Package, st.lists(st.tuples(names, cards), max_size=3).map(tuple)),
        st.builds(plays.Sell, goods, named, st.lists(offer, max_size=2).map(tuple)),
        st.builds(plays.Buy, goods, named, st.lists(offer, max_size=2).map(tuple)),
        st.builds(plays.Deals, goods, st.lists(deal, max_size=2).map(tuple)),
        st.builds(plays.Offers, goods, st.lists(offer, max_size=2).map(tuple)))


@pytest.fixture(scope="module")
def states(md: MuleData) -> list[State]:
    """A fresh Tournament, one with Lands claimed, Stocks held and a Land for Sale! card
    spent, and one with a Package From Home World! card spent."""
    fresh = tournament(md, colonists_preferred="on")
    s = plays.apply(fresh, md, plays.Grant("Ann", "R01", "C1"))[0]
    s = plays.apply(s, md, plays.LandAuction("Bob", "Cid", 14, "P08", "B1"))[0]
    s = with_stocks(with_stocks(s, "food", Ann=6, Bob=0, Cid=2), "smithore", Dee=5)
    spent = plays.apply(fresh, md, plays.Package((("Ann", "hand/package-food"),)))[0]
    return [fresh, s, spent]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_check_then_apply_never_raises(md: MuleData, states: list[State], data: Any) -> None:
    s = data.draw(st.sampled_from(states))
    move = data.draw(_moves(md))
    before = to_json(s)
    why = plays.check(s, md, move)
    if why is None:
        after, lines = plays.apply(s, md, move)
        assert isinstance(after, State) and all(isinstance(x, str) for x in lines)
        to_json(after)                  # the saved game can still hold it
        # Money, Stocks and Hand Cards never go below nothing; a square holds one Land
        for c in after.colonists:
            assert c.money >= 0 and min(c.stocks) >= 0
            assert all(n >= 0 for n in (after.hands or {}).get(c.name, {}).values())
            squares = [x.square for x in c.lands if x.square]
            assert len(squares) == len(set(squares))
        assert min(v or 0 for v in after.store) >= 0
    else:
        assert why.strip()
        with pytest.raises(RuleError, match="^" + re.escape(why) + "$"):
            plays.apply(s, md, move)
    assert to_json(s) == before         # pure: the State given is left as it was
    assert dataclasses.is_dataclass(move)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(move, dataclasses.fields(move)[0].name, None)


# -- the Production calculator's Land hit ---------------------------------------------------------

def test_the_land_radiation_or_pest_attack_hits(md: MuleData) -> None:
    lands = production.parse_lands("F3,E2,C1")
    radiation = md.card("radiation").on_turn(2)[1]
    assert production.struck_land(radiation, lands, 1, "E2", False, "--hit") == \
        production.Struck(1)
    with pytest.raises(RuleError, match=r"^Radiation! does not hit Rank 2$"):
        production.struck_land(radiation, lands, 2, "E2", False, "--hit")
    assert production.struck_land(radiation, lands, 2, None, False) == production.Struck(None)
    pest = md.card("pest").on_turn(2)[1]
    note = production.struck_land(pest, lands, None, None, False, "--hit").notes[0]
    assert note.startswith("Pest Attack! hits Rank") and "give --rank (and --hit)" in note
    # Rank 2 only if Rank 1 produces no Food: a note unless the Land hit is named
    assert production.struck_land(pest, lands, 2, None, False, "--hit").notes
    assert production.struck_land(pest, lands, 2, "F3", False, "--hit").land == 0
    sunspots = md.card("sunspots").on_turn(2)[1]
    with pytest.raises(InputError, match="--hit is for Radiation! and Pest Attack!"):
        production.struck_land(sunspots, lands, 1, "F3", False, "--hit")
