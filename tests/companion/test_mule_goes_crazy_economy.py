"""Mule Goes Crazy!'s economy as pure functions (``companion.mule_goes_crazy.economy``): the
Player Turns' order, the Resource Auctions (the project's: nothing is created or lost), the
cards' effects, Upgrades in production and the final score, with numbers worked by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.mule_goes_crazy import economy as eco
from companion.mule_goes_crazy import saved
from companion.mule_goes_crazy.data import game
from components.errors import InputError, RuleError

RULES = eco.TradeRules(("smithore", "crystite", "food", "energy"), spread=15, step=10, floor=10)


def test_the_player_turns_start_left_of_the_favored_player() -> None:
    assert eco.turn_order(["Ann", "Bob", "Cid"], "Bob") == ["Cid", "Ann", "Bob"]
    assert eco.turn_order(["Ann", "Bob", "Cid"], None) == ["Ann", "Bob", "Cid"]
    order = ["Cid", "Ann", "Bob"]
    assert eco.turn_refusal(order, [], [], "Cid") is None
    assert "it is Cid's turn" in str(eco.turn_refusal(order, [], [], "Ann"))
    assert eco.turn_refusal(order, ["Cid"], [], "Ann") is None       # Ann begins hers
    assert "Cid's turn is over" in str(eco.turn_refusal(order, ["Cid", "Ann"], [], "Cid"))
    # Ann is taking her turn: Bob, next, may begin his (hers is then over)
    assert eco.turn_refusal(order, ["Cid", "Ann"], ["Cid"], "Bob") is None
    assert "Bob's turn is over" in str(eco.turn_refusal(order, ["Cid", "Bob"], ["Bob"], "Bob"))


def test_a_resource_auction_worked_by_hand() -> None:
    # Food at 30, the Store selling at 45: Ann sells 4 (+120), Bob buys 3 (-135), Ann sells
    # Bob 2 at 20 (+40 / -40). The Store bought 4 and sold 3: the price falls to 20.
    t = eco.resource_auction("food", 30, 0, {"Ann": 6, "Bob": 0}, {"Ann": 0, "Bob": 200},
                             {"Ann": 4}, {"Bob": 3}, [eco.Deal("Ann", "Bob", 2, 20)], RULES)
    assert (t.units, t.credits, t.store, t.next_price) == (
        {"Ann": -6, "Bob": 5}, {"Ann": 160, "Bob": -175}, 1, 20)
    with pytest.raises(RuleError, match="cannot sell 5"):       # 4 sold to it, then 5 asked
        eco.resource_auction("food", 30, 0, {"Ann": 6, "Bob": 0}, {"Ann": 0, "Bob": 999},
                             {"Ann": 4}, {"Bob": 5}, [], RULES)
    with pytest.raises(RuleError, match="Bob has 10 Credits and cannot pay 45"):
        eco.resource_auction("food", 30, 5, {"Ann": 0, "Bob": 0}, {"Ann": 0, "Bob": 10}, {},
                             {"Bob": 1}, [], RULES)
    with pytest.raises(InputError, match="no player 'Zed'"):
        eco.resource_auction("food", 30, 5, {"Ann": 0}, {"Ann": 0}, {"Zed": 1}, {}, [], RULES)
    assert eco.next_price(15, 0, 9, RULES) == 10                  # never below the floor


@given(stock=st.integers(0, 30), have=st.lists(st.integers(0, 20), min_size=3, max_size=3),
       cash=st.lists(st.integers(0, 2000), min_size=3, max_size=3),
       sell=st.lists(st.integers(0, 8), min_size=3, max_size=3),
       buy=st.lists(st.integers(0, 8), min_size=3, max_size=3),
       price=st.integers(10, 200))
def test_a_resource_auction_creates_and_loses_nothing(stock: int, have: list[int],
                                                      cash: list[int], sell: list[int],
                                                      buy: list[int], price: int) -> None:
    names = ["Ann", "Bob", "Cid"]
    try:
        t = eco.resource_auction("smithore", price, stock, dict(zip(names, have, strict=True)),
                                 dict(zip(names, cash, strict=True)),
                                 {n: s for n, s in zip(names, sell, strict=True) if s},
                                 {n: b for n, b in zip(names, buy, strict=True) if b},
                                 [eco.Deal("Ann", "Bob", 1, 5)], RULES)
    except RuleError:
        return
    assert sum(t.units.values()) + t.store == 0                   # units only change hands
    assert stock + t.store >= 0
    assert all(have[i] + t.units[n] >= 0 and cash[i] + t.credits[n] >= 0
               for i, n in enumerate(names))
    assert t.next_price >= RULES.floor


def test_the_cards_effects_worked_by_hand() -> None:
    sheets = {"Ann": {"credits": 60, "food": 7, "crystite": 4, "lands": ["foothills"]},
              "Bob": {"credits": 500, "food": 0, "crystite": 0, "lands": []}}
    store = {"smithore": 2}
    # Lose Money Gambling: the target pays what they have, up to 100
    assert eco.card_effect({"target_pays": 100}, "Bob", "Ann", sheets, store).players == {
        "Ann": {"credits": -60}, "Bob": {"credits": 60}}
    # Space Pests: half the Food, rounding down what is kept: 7 -> 3
    assert eco.card_effect({"target_loses_half": "food"}, "Bob", "Ann", sheets,
                           store).players == {"Ann": {"food": -4}}
    # Lucky Strike: up to 3 Smithore, as much as the Store has (2)
    e = eco.card_effect({"take_from_store": {"smithore": 3}}, "Bob", None, sheets, store)
    assert (e.players, e.store) == ({"Bob": {"smithore": 2}}, {"smithore": -2})
    # Meteorite Shower: every player holding a Land gains 3 Crystite
    assert eco.card_effect({"each_with_land_gains": {"crystite": 3}}, "Bob", None, sheets,
                           store).players == {"Ann": {"crystite": 3}}
    with pytest.raises(InputError, match="names a player"):
        eco.card_effect({"target_loses_all": "crystite"}, "Bob", None, sheets, store)


def test_upgrades_add_their_dice_and_photosynthesis_follows_its_mule() -> None:
    g = game()
    from companion.mule_goes_crazy.state import MuleInPlay, Sheet

    sheet = Sheet(1000, 10, 5, 0, 0, lands=("grassy-plains",), land_upgrades=("irrigation",),
                  mules=(MuleInPlay("energy", "grassy-plains", "photosynthesis"),))
    mules = saved.working_mules(g, sheet, {"energy": -1})
    # Grassy Plains rolls 2 Energy dice, 1 fewer this turn (Acid Rain); Photosynthesis makes
    # Food with the Land's 2 Energy dice (Irrigation adds a Food die, not an Energy one)
    assert [(m.name, m.resource, m.dice, m.energy_use) for m, _ in mules] == [
        ("Energy Mule on Grassy Plains", "energy", 1, 5),
        ("Energy Mule on Grassy Plains (Photosynthesis)", "food", 2, 0)]
    # 4 Energy cannot power the Energy Mule (5): its Photosynthesis is under-powered with it
    result = saved.powered(4, mules)
    assert result.powered == () and [m.resource for m in result.underpowered] == ["energy",
                                                                                  "food"]


def test_the_final_score_and_a_failed_colony() -> None:
    end = {"land_value": 300, "mule_value": 100, "colony_minimum": 300}
    sheets = {"Ann": {"credits": 100, "food": 2, "energy": 0, "smithore": 0, "crystite": 1,
                      "lands": ["a"], "mules": []},
              "Bob": {"credits": 220, "food": 0, "energy": 0, "smithore": 0, "crystite": 0,
                      "lands": ["b"], "mules": [{}]}}
    prices = {"food": 30, "energy": 25, "smithore": 50, "crystite": 100}
    # Ann: 100 + 2 x 30 + 1 x 100 + 300 = 560; Bob: 220 + 300 + 100 = 620
    won = eco.final_score(sheets, prices, 300, end)
    assert (won.worth, won.winners, won.failed) == ({"Ann": 560, "Bob": 620}, ("Bob",), False)
    failed = eco.final_score(sheets, prices, 250, end)
    assert (failed.winners, failed.failed) == ((), True)
