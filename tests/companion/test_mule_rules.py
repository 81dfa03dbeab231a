"""The rulebook's worked examples with arithmetic, as tests of the pure rule functions."""

from __future__ import annotations

import pytest

from companion.mule import pricing, production, rules
from companion.mule.data import MuleData, check_good
from components.errors import InputError, RuleError

# -- 3. Usage and Spoilage -------------------------------------------------------------------

def test_usage_and_spoilage_example_leggite(md: MuleData) -> None:
    # Leggite: 15 Smithore, 7 Crystite, 1 Food, 9 Energy; 6 M.U.L.E.s, 2 producing Energy
    result = rules.spoilage(rules.Stocks(15, 7, 1, 9), 6, 2, food_divisor=md.food_divisor,
                            energy_divisor=md.energy_divisor,
                            overstock_limit=md.overstock_limit)
    assert result.energy_used == 4
    assert result.shortage == 0
    assert result.spoiled == {"smithore": 3, "crystite": 0, "food": 0, "energy": 1}
    assert result.stocks == rules.Stocks(12, 7, 1, 4)


def test_food_spoilage_rounds_down() -> None:
    # "a player with 5 Food in their Stock after Usage has 2 of them spoiled"
    assert rules.spoilage(rules.Stocks(food=5), 0, 0).spoiled["food"] == 2


def test_energy_spoilage_rounds_down() -> None:
    # "if a player has 3 Energy in their Stock after Usage, none are spoiled"
    assert rules.spoilage(rules.Stocks(energy=3), 0, 0).spoiled["energy"] == 0


def test_energy_shortage_is_the_mules_to_flip() -> None:
    result = rules.spoilage(rules.Stocks(energy=2), 5, 1)
    assert (result.energy_used, result.shortage, result.stocks.energy) == (2, 2, 0)


def test_overstock_counts_after_normal_spoilage() -> None:
    # 30 Food: 15 spoil, then 3 more over 12
    result = rules.spoilage(rules.Stocks(food=30), 0, 0)
    assert result.spoiled["food"] == 18 and result.stocks.food == 12


def test_spoilage_refuses_more_energy_mules_than_mules() -> None:
    with pytest.raises(InputError):
        rules.spoilage(rules.Stocks(), 1, 2)


def test_negative_stock_is_refused() -> None:
    with pytest.raises(InputError, match="food"):
        rules.Stocks(food=-1)


# -- 4. Production ---------------------------------------------------------------------------

BOARD = "C1 C0 E3 / C1 C3 E3 / F3 F3! ."


def test_production_example_1_base_production(md: MuleData) -> None:
    # Acid Rain Storm!: Food +2, Energy -2. Crystite 1+0+1+3; River Food 3(+2), the second
    # Food M.U.L.E. flipped; two Energy Lands of 3 make 1+1.
    card = md.card("acid-rain-storm")
    assert card.modifiers == {"food": 2, "energy": -2}
    result = production.produce(production.parse_board(BOARD), card.modifiers)
    assert result.base == {"smithore": 0, "crystite": 5, "food": 5, "energy": 2}
    assert result.flipped == 1


def test_production_example_2_economies_of_scale(md: MuleData) -> None:
    card = md.card("Acid Rain Storm!")
    result = production.produce(production.parse_board(BOARD), card.modifiers, tournament=True)
    # four Paths between the Crystite Lands, none for Food (one M.U.L.E. flipped), one Energy
    assert result.economies_of_scale == {"smithore": 0, "crystite": 4, "food": 0, "energy": 1}
    assert result.total == {"smithore": 0, "crystite": 9, "food": 5, "energy": 3}


def test_a_square_of_four_gives_plus_four() -> None:
    result = production.produce(production.parse_board("F0 F0/F0 F0"), tournament=True)
    assert result.total["food"] == 4


def test_modifiers_never_drop_a_value_below_zero() -> None:
    result = production.produce(production.parse_lands("E1,E0"), {"energy": -2})
    assert result.base["energy"] == 0


def test_first_time_crystite_turns_the_land_over(md: MuleData) -> None:
    value = production.tile_value_from(md.lands)
    lands = production.parse_lands("P07:C?,H01:C!?,P08:F", value)
    result = production.produce(lands)
    assert result.base["crystite"] == 2          # P07's Secret Side; H01 flipped
    assert result.base["food"] == 1
    assert result.turn_over == ("P07",)          # a flipped M.U.L.E. does not turn it


def test_rivers_have_no_smithore_value(md: MuleData) -> None:
    with pytest.raises(RuleError, match="smithore"):
        production.parse_lands("R01:S", production.tile_value_from(md.lands))


def test_tournament_production_needs_a_board() -> None:
    with pytest.raises(InputError, match="board"):
        production.produce(production.parse_lands("F3"), tournament=True)


def test_a_bad_cell_is_one_clear_error() -> None:
    with pytest.raises(InputError, match="start with the Good"):
        production.parse_lands("X3")


# -- 5. Pricing ------------------------------------------------------------------------------

def test_pricing_example_smithore(md: MuleData) -> None:
    # 3 completely empty pens and one partially empty pen (5 M.U.L.E.s): +3, $8/6 -> $11/9
    steps = pricing.smithore_steps(5, 0, pens=md.pens, mules_per_pen=md.mules_per_pen)
    change = pricing.move(md.track("smithore"), 6, steps)
    assert (change.steps, change.moved, change.sell, change.buy) == (3, 3, 11, 9)


def test_pricing_example_crystite(md: MuleData) -> None:
    track = md.track("crystite")
    steps = pricing.crystite_steps(track, 9, 4, pirates=False)
    change = pricing.move(track, 9, steps)
    assert (change.buy, change.sell) == (4, 6)


def test_pirate_ship_keeps_the_crystite_price(md: MuleData) -> None:
    card = md.card("pirate-ship")
    assert card.pirates
    track = md.track("crystite")
    assert pricing.crystite_steps(track, 9, card.crystite_price, pirates=card.pirates) == 0


def test_pricing_example_food(md: MuleData) -> None:
    # stocks 1, 2, 3, 7 and 1 in The Store: +6 - 1 = +5, but only two steps are left: $9/7
    steps = pricing.food_steps([1, 2, 3, 7], 1, per_colonist=md.food_per_colonist)
    change = pricing.move(md.track("food"), 5, steps)
    assert (change.steps, change.moved, change.sell, change.buy) == (5, 2, 9, 7)


def test_pricing_example_energy(md: MuleData) -> None:
    # everyone has more Energy than M.U.L.E.s; The Store's 5 Energy: -5, one step left: $3/1
    steps = pricing.energy_steps([5, 6, 4, 3], [2, 3, 1, 0], 5)
    change = pricing.move(md.track("energy"), 2, steps)
    assert (change.steps, change.moved, change.sell, change.buy) == (-5, -1, 3, 1)


def test_surplus_smithore_lowers_the_price_only_with_a_full_corral() -> None:
    assert pricing.smithore_steps(12, 3) == -3
    assert pricing.smithore_steps(11, 3) == 0


def test_energy_lists_must_match() -> None:
    with pytest.raises(InputError, match="same order"):
        pricing.energy_steps([1, 2], [1], 0)


def test_a_price_off_the_track_is_refused(md: MuleData) -> None:
    with pytest.raises(InputError, match="Price Track"):
        pricing.move(md.track("food"), 8, 1)


def test_unknown_good() -> None:
    with pytest.raises(InputError, match="unknown good 'gold'"):
        check_good("gold")


def test_price_tracks_match_the_set_up(md: MuleData) -> None:
    # "All Prices start at minimum values: 5/3 for Smithore, 6/4 for Crystite, 3/1, 3/1"
    starts = {g: (md.track(g).sell_at(0), md.track(g).buy_at(0))
              for g in ("smithore", "crystite", "food", "energy")}
    assert starts == {"smithore": (5, 3), "crystite": (6, 4), "food": (3, 1), "energy": (3, 1)}
    tops = {g: md.track(g).sell_at(md.track(g).steps - 1) for g in starts}
    assert tops == {"smithore": 16, "crystite": 16, "food": 9, "energy": 9}


# -- M.U.L.E. Production in The Store ------------------------------------------------------------

def test_store_mule_production_example(md: MuleData) -> None:
    # 10 M.U.L.E.s and 5 Smithore: two made at once (A); two sold and replaced (B); 1 left (C)
    before = rules.store_mule_production(10, 5, pens=md.pens, mules_per_pen=md.mules_per_pen)
    assert (before.made, before.mules, before.smithore) == (2, 12, 3)
    after = rules.store_mule_production(10, 5, sold=2)
    assert (after.made, after.mules, after.smithore) == (4, 12, 1)


def test_store_cannot_sell_mules_it_cannot_make() -> None:
    with pytest.raises(RuleError):
        rules.store_mule_production(1, 1, sold=3)


# -- 6. Market: Priority to Buy ------------------------------------------------------------------

def test_market_example_priority_to_buy() -> None:
    # Leggite ranks below Mechtron, so she buys the one Food in The Store, at $7
    ranking = ["Mechtron", "Spheroid", "Packer", "Leggite"]
    result = rules.priority_to_buy(ranking, {"Mechtron": 1, "Leggite": 1}, 1, 7)
    assert result.bought == {"Leggite": 1, "Mechtron": 0}
    assert result.cost == {"Leggite": 7, "Mechtron": 0}
    assert result.unserved == {"Mechtron": 1}
    assert result.store_left == 0


def test_priority_to_buy_refuses_a_stranger() -> None:
    with pytest.raises(InputError, match="Zed"):
        rules.priority_to_buy(["A", "B"], {"Zed": 1}, 3, 4)


# -- 7. Ranking ----------------------------------------------------------------------------------

def test_ranking_example() -> None:
    money = {"Mechtron": 30, "Packer": 25, "Spheroid": 25, "Leggite": 8}
    previous = ["Leggite", "Spheroid", "Mechtron", "Packer"]
    assert rules.rank(money, previous) == ["Mechtron", "Spheroid", "Packer", "Leggite"]


def test_ranking_with_land_and_mule_values() -> None:
    wealth = rules.ranking_wealth({"A": 30, "B": 25}, {"B": 1}, {"B": 1})
    assert wealth == {"A": 30, "B": 40}
    assert rules.rank(wealth, ["A", "B"]) == ["B", "A"]


def test_ranking_names_must_agree() -> None:
    with pytest.raises(InputError, match="Zed"):
        rules.rank({"A": 1, "Zed": 2}, ["A", "B"])
    with pytest.raises(InputError, match="no amount given for B"):
        rules.rank({"A": 1}, ["A", "B"])


# -- Game End: sell-out and Colony Success --------------------------------------------------------

def test_final_sell_out_at_buy_prices() -> None:
    result = rules.final_sell_out({"A": 30, "B": 10}, {"A": rules.Stocks(12, 7, 1, 4)},
                                  {"smithore": 9, "crystite": 4, "food": 7, "energy": 1})
    assert result.revenue == {"A": 12 * 9 + 7 * 4 + 7 + 4, "B": 0}
    assert result.money == {"A": 30 + 147, "B": 10}


@pytest.mark.parametrize(("total", "players", "rating"), [
    (1800, 4, 1), (1799, 4, 2), (1550, 4, 2), (1300, 4, 3), (1050, 4, 4), (1049, 4, 5),
    (800, 4, 5), (799, 4, 6), (550, 4, 6), (549, 4, 7), (0, 4, 7),
    (1350, 3, 1), (1349, 3, 2), (1162, 3, 2), (1161, 3, 3), (975, 3, 3), (787, 3, 4),
    (786, 3, 5), (600, 3, 5), (599, 3, 6), (412, 3, 6), (411, 3, 7),
])
def test_colony_success_table(md: MuleData, total: int, players: int, rating: int) -> None:
    assert rules.colony_success(total, players, md.colony_rows()).rating == rating


def test_colony_success_is_for_three_or_four(md: MuleData) -> None:
    with pytest.raises(InputError, match="3 or 4"):
        rules.colony_success(1000, 2, md.colony_rows())
