"""Mule Goes Crazy!: the draft's arithmetic (favored player, bids, Mules, production, spoilage,
upkeep) as pure functions, with the cards' own numbers, and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

import components
from companion.mule_goes_crazy import rules as mgc
from components.errors import InputError, RuleError
from irata.cli import cli

ROOT = Path(__file__).resolve().parents[2]
GAME = components.load("mule-goes-crazy")


# --- Favored Player ---------------------------------------------------------------------------

def test_the_favored_player_has_the_fewest_credits() -> None:
    assert mgc.favored_player({"Ann": 1000, "Bob": 650, "Cy": 800}) == "Bob"


def test_a_tie_goes_clockwise_from_the_last_favored_player() -> None:
    credits = {"Ann": 500, "Bob": 900, "Cy": 500, "Dee": 700}
    assert mgc.favored_player(credits) == "Ann"
    assert mgc.favored_player(credits, previous="Ann") == "Cy"
    assert mgc.favored_player(credits, previous="Cy") == "Ann"


def test_in_subsequent_turns_the_last_favored_player_is_one_of_the_players() -> None:
    credits = {"Ann": 500, "Bob": 900, "Cy": 500}
    assert mgc.favored_after(credits, "Ann") == "Cy"
    assert mgc.favored_after(credits, None) == "Ann"
    with pytest.raises(RuleError, match="the last favored player, Zed, is not among the "
                                        r"players \(Ann, Bob, Cy\)"):
        mgc.favored_after(credits, "Zed")


# --- Land Auctions ----------------------------------------------------------------------------

def test_a_land_auction_closes_at_its_opening_bid_or_above() -> None:
    assert mgc.previous_auction(200, 260) == mgc.Auction(200, 260)
    assert mgc.previous_auction(200, 200).sold and not mgc.previous_auction(200, None).sold
    with pytest.raises(RuleError, match="the closing bid 150 is below the opening bid 200"):
        mgc.previous_auction(200, 150)


def test_the_first_opening_bid_is_200() -> None:
    assert mgc.opening_bid(None) == 200


def test_after_a_sale_the_closing_bid_minus_50() -> None:
    assert mgc.opening_bid(mgc.Auction(opening=200, closing=420)) == 370


def test_after_no_sale_the_opening_bid_minus_200() -> None:
    assert mgc.opening_bid(mgc.Auction(opening=350)) == 150


def test_the_opening_bid_never_goes_below_0() -> None:
    assert mgc.opening_bid(mgc.Auction(opening=150)) == 0
    assert mgc.opening_bid(mgc.Auction(opening=0, closing=20)) == 0


def test_a_chain_of_auctions() -> None:
    bid = mgc.opening_bid(None)                              # 200, sold at 260
    bid = mgc.opening_bid(mgc.Auction(bid, 260))             # 210, nobody bids
    bid = mgc.opening_bid(mgc.Auction(bid))                  # 10
    assert bid == 10


@given(st.integers(0, 5000), st.one_of(st.none(), st.integers(0, 5000)))
def test_opening_bids_are_never_negative(opening: int, closing: int | None) -> None:
    assert mgc.opening_bid(mgc.Auction(opening, closing)) >= 0


def test_bids_start_at_the_opening_bid_and_then_must_beat_the_high_bid() -> None:
    assert mgc.check_bid(200, None, 200) == 200
    with pytest.raises(RuleError):
        mgc.check_bid(200, None, 150)
    with pytest.raises(RuleError):
        mgc.check_bid(200, 250, 250)


def test_the_auction_numbers_come_from_the_definitions() -> None:
    assert mgc.auction_rules(GAME.data) == mgc.AuctionRules(200, -50, -200, 0)


# --- Mules ------------------------------------------------------------------------------------

def test_the_energy_mule_is_the_drafts_sample_card() -> None:
    mule = mgc.mule_card(GAME, "energy")
    assert (mule.energy_use, dict(mule.move_cost), dict(mule.cost), mule.short_credits) == \
        (5, {"food": 5}, {"smithore": 5, "credits": 100}, 200)


def test_a_mule_costs_more_when_the_store_began_the_turn_without_smithore() -> None:
    mule = mgc.mule_card(GAME, "energy")
    assert mgc.mule_price(mule, {"smithore": 0}) == 200
    assert mgc.mule_price(mule, {"smithore": 3}) == 100


def test_a_crystite_mule_is_short_when_the_store_lacks_crystite() -> None:
    mule = mgc.mule_card(GAME, "crystite")
    assert mgc.mule_price(mule, {"smithore": 10, "crystite": 0}) == 200
    assert mgc.mule_price(mule, {"smithore": 10, "crystite": 5}) == 100


def test_buying_takes_the_smithore_from_the_store_but_never_below_0() -> None:
    mule = mgc.mule_card(GAME, "food")
    p = mgc.buy_mule(mule, 1000, {"smithore": 3}, {"smithore": 3, "food": 50})
    assert (p.price, p.credits_after, p.store_after["smithore"]) == (100, 900, 0)
    # the Store is now out of Smithore, but the price only rises from the next turn
    again = mgc.buy_mule(mule, 900, {"smithore": 3}, p.store_after)
    assert again.price == 100
    with pytest.raises(RuleError):
        mgc.buy_mule(mule, 50, {"smithore": 3}, p.store_after)


def test_every_printed_cost_line_matches_the_cards_numbers() -> None:
    for comp in GAME.components:
        f = comp.fields
        if comp.id.startswith("mule/"):
            assert f["cost_line"] == mgc.cost_line(f["cost"], f["short_credits"]), comp.id
        elif comp.id.startswith(("interrupt/", "event/", "upgrade/")):
            assert f["cost_line"] == mgc.cost_line(f["cost"]), comp.id


# --- Consumption of Energy, Under-powering Mules ------------------------------------------

def W(name: str, use: int, resource: str = "food", dice: int = 2) -> mgc.WorkingMule:
    return mgc.WorkingMule(name, use, resource, dice)


def test_enough_energy_powers_every_mule() -> None:
    r = mgc.consume_energy(20, [W("a", 5), W("b", 8)])
    assert r.underpowered == () and r.energy_used == 13 and r.energy_after == 7


def test_the_highest_consumption_is_underpowered_first() -> None:
    r = mgc.consume_energy(10, [W("food", 3), W("crystite", 8), W("energy", 5)])
    assert [m.name for m in r.underpowered] == ["crystite"]
    assert r.energy_used == 8 and r.energy_after == 2


def test_underpowering_continues_until_the_rest_are_powered() -> None:
    r = mgc.consume_energy(4, [W("a", 3), W("b", 6), W("c", 5)])
    assert [m.name for m in r.underpowered] == ["b", "c"]
    assert [m.name for m in r.powered] == ["a"]


def test_among_equal_consumption_the_first_named_is_chosen() -> None:
    r = mgc.consume_energy(5, [W("x", 5), W("y", 5)])
    assert [m.name for m in r.underpowered] == ["x"]


@given(st.integers(0, 60), st.lists(st.integers(0, 12), max_size=8))
def test_energy_is_never_overspent(energy: int, uses: list[int]) -> None:
    mules = [W(str(i), u) for i, u in enumerate(uses)]
    r = mgc.consume_energy(energy, mules)
    assert 0 <= r.energy_after <= energy
    assert len(r.powered) + len(r.underpowered) == len(mules)
    if r.underpowered:  # every under-powered Mule uses at least as much as any powered one
        assert min(m.energy_use for m in r.underpowered) >= \
            max((m.energy_use for m in r.powered), default=0)


# --- Production ---------------------------------------------------------------------------

def test_a_land_rolls_its_dice_for_its_mule() -> None:
    dice = mgc.land_dice(GAME, "sunny-flats")
    energy_mule = W("Energy Mule", 5, "energy", dice["energy"])
    r = mgc.production([energy_mule], results=[4, 6, 2])
    assert dice["energy"] == 3 and r.totals["energy"] == 12


def test_an_underpowered_mule_rolls_all_ones() -> None:
    # the draft: a Land that would give 3 dice of Energy makes exactly 3 when under-powered
    r = mgc.production([], underpowered=[W("Energy Mule", 5, "energy", 3)])
    assert r.plots[0].rolls == (1, 1, 1) and r.totals["energy"] == 3


def test_typed_results_must_match_the_dice() -> None:
    with pytest.raises(InputError, match="not enough"):
        mgc.production([W("a", 1, "food", 3)], results=[1, 2])
    with pytest.raises(InputError, match="left over"):
        mgc.production([W("a", 1, "food", 1)], results=[1, 2])
    with pytest.raises(InputError):
        mgc.production([W("a", 1, "food", 1)], results=[7])


def test_seeded_production_repeats() -> None:
    mules = [W("a", 1, "food", 3), W("b", 1, "smithore", 2)]
    one = mgc.production(mules, roll=mgc.seeded_roller(5))
    two = mgc.production(mules, roll=mgc.seeded_roller(5))
    assert one == two and all(1 <= d <= 6 for p in one.plots for d in p.rolls)


# --- Spoilage -----------------------------------------------------------------------------

@pytest.mark.parametrize("food, energy, after", [
    (10, 20, (10, 20)),     # at the limits nothing spoils
    (11, 21, (6, 10)),      # Food over 10 loses 5; Energy over 20 halves, rounding down
    (30, 50, (25, 25)),
    (0, 0, (0, 0)),
])
def test_spoilage(food: int, energy: int, after: tuple[int, int]) -> None:
    r = mgc.spoilage(food, energy, mgc.spoilage_rules(GAME.data))
    assert (r.food, r.energy) == after


# --- Population and Facilities ------------------------------------------------------------

def test_population_upkeep_comes_from_the_store() -> None:
    pop = mgc.population_card(GAME, "colonists")
    assert (pop.people, pop.food, pop.energy) == (100, 20, 10)   # the draft's sample card
    r = mgc.population_upkeep({"food": 50, "energy": 50}, [pop, pop])
    assert r.store["food"] == 10 and r.store["energy"] == 30 and r.population == 200


def test_a_population_the_store_cannot_keep_is_discarded() -> None:
    pop = mgc.population_card(GAME, "colonists")
    r = mgc.population_upkeep({"food": 30, "energy": 50}, [pop, pop])
    assert len(r.kept) == 1 and len(r.discarded) == 1
    assert r.store == {"food": 10, "energy": 40, "smithore": 0, "crystite": 0}


def test_hydroponic_gardens_feed_the_store_instead_of_eating() -> None:
    pop = mgc.population_card(GAME, "colonists", "hydroponic-gardens")
    assert pop.upkeep() == (0, 15)
    r = mgc.population_upkeep({"food": 0, "energy": 15}, [pop])
    assert r.kept == (pop,) and r.store["food"] == 10 and r.store["energy"] == 0


def test_a_facility_losing_its_population_falls_into_disrepair() -> None:
    pop = mgc.population_card(GAME, "miners", "mining-outpost")
    r = mgc.population_upkeep({"food": 10, "energy": 50}, [pop])
    assert r.discarded == (pop,) and r.facilities_discarded == ("Mining Outpost",)


# --- the command line ---------------------------------------------------------------------

def run(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(cli, ["play", "mule-goes-crazy", *args, "--json"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)  # type: ignore[no-any-return]


def test_cli_answers() -> None:
    assert run("favored", "--credits", "Ann=800,Bob=600")["favored"] == "Bob"
    assert run("opening-bid")["opening_bid"] == 200
    assert run("opening-bid", "--last-opening", "200", "--last-closing", "300")[
        "opening_bid"] == 250
    assert run("opening-bid", "--last-opening", "100", "--unsold")["opening_bid"] == 0
    assert run("mule-price", "smithore", "--store-smithore", "0")["price"] == 300
    assert run("spoilage", "--food", "12", "--energy", "24") == {
        "food": 7, "energy": 12, "food_lost": 5, "energy_lost": 12}
    up = run("upkeep", "--store-food", "20", "--store-energy", "5",
             "--population", "colonists")
    assert up["discarded"] == ["Population"]


def test_cli_production_with_typed_and_seeded_dice() -> None:
    out = run("produce", "--energy", "6", "--mule", "energy@sunny-flats",
              "--mule", "food@river-bottom", "--rolls", "2,2,2")
    assert out["underpowered"] == ["Energy Mule on sunny-flats"]
    assert out["totals"] == {"food": 6, "energy": 3, "smithore": 0, "crystite": 0}
    a = run("produce", "--energy", "20", "--mule", "smithore@high-mountains", "--seed", "4")
    b = run("produce", "--energy", "20", "--mule", "smithore@high-mountains", "--seed", "4")
    assert a == b and len(a["plots"][0]["rolls"]) == 3


@pytest.mark.parametrize("args, message", [
    (["mule-price", "donkey", "--store-smithore", "1"], "no mule card 'donkey'"),
    (["spoilage", "--food", "-3", "--energy", "1"], "0 or more"),
    (["favored", "--credits", "Ann:800"], "should be NAME=..."),
    (["produce", "--energy", "5", "--mule", "energy"], "MULE@LAND"),
    (["opening-bid", "--unsold"], "--last-opening"),
    (["opening-bid", "--last-opening", "300", "--last-closing", "250"],
     "the closing bid 250 is below the opening bid 300"),
    (["favored", "--credits", "Ann=800,Bob=600", "--previous", "Zed"],
     "the last favored player, Zed, is not among the players (Ann, Bob)"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    exe = str(ROOT / ".venv" / "bin" / "irata")
    p = subprocess.run([exe, "play", "mule-goes-crazy", *args], capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stderr.startswith("error: ") and message in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_the_opening_bid_is_explained_in_the_data_s_numbers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An erratum to the Land Auction numbers changes the bid and its explanation alike."""
    from types import SimpleNamespace

    from irata.play import mule_goes_crazy as commands

    game = commands._game()
    erratum = {"first_opening_bid": 150, "after_sale": -40, "after_no_sale": -120,
               "minimum": 10}
    monkeypatch.setattr(commands, "_game", lambda: SimpleNamespace(
        data={**game.data, "land_auction": erratum}))
    out = CliRunner().invoke(cli, ["play", "mule-goes-crazy", "opening-bid", "--last-opening",
                                   "120", "--last-closing", "130"])
    assert out.output.strip() == "Opening bid: 90 Credits (last closing bid 130 - 40, never " \
                                 "below 10)"
    out = CliRunner().invoke(cli, ["play", "mule-goes-crazy", "opening-bid", "--last-opening",
                                   "100", "--unsold"])
    assert out.output.strip() == "Opening bid: 10 Credits (last opening bid 100 - 120, never " \
                                 "below 10)"
    assert mgc.opening_bid_reason(None) == "the first Land Auction, never below 0"


def test_a_facility_holds_one_population_card() -> None:
    # Population and Facilities: a Population card becomes assigned to the Facility
    proc = subprocess.run([str(Path(sys.executable).parent / "irata"), "play",
                           "mule-goes-crazy", "upkeep", "--store-food", "50", "--store-energy",
                           "50", "--population", "colonists+hydroponic-gardens",
                           "--population", "miners+hydroponic-gardens"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "holds one Population card, not 2" in proc.stderr
    assert proc.stdout == "" and proc.stderr.count("\n") == 1


def test_more_mules_on_a_land_than_its_printed_copies_hold_is_refused() -> None:
    # one Mule a Land (the project's reconstruction); the deck prints River Bottom twice
    irata = str(Path(sys.executable).parent / "irata")
    two = [irata, "play", "mule-goes-crazy", "produce", "--energy", "20", "--mule",
           "food@river-bottom", "--mule", "energy@river-bottom", "--rolls", "1,1,1,1"]
    assert subprocess.run(two, capture_output=True, text=True, check=False).returncode == 0
    three = [*two[:-2], "--mule", "food@river-bottom", "--rolls", "1,1,1,1,1,1,1"]
    proc = subprocess.run(three, capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "3 Mules on River Bottom" in proc.stderr, proc.stderr


def test_the_mules_per_land_check_is_the_companion_s() -> None:
    """One Mule a Land (the project's reconstruction), River Bottom printed twice: two Mules
    on it fit, a third is refused naming the rule; the command line only reads MULE@LAND."""
    from companion.mule_goes_crazy.data import game
    from companion.mule_goes_crazy.saved import mules_fit_their_lands
    from components.errors import RuleError

    g = game()
    mules_fit_their_lands(g, ["river-bottom", "River Bottom", "sunny-flats"])
    with pytest.raises(RuleError, match="3 Mules on River Bottom: the deck prints 2 of that "
                                        "Land and each holds 1 Mule"):
        mules_fit_their_lands(g, ["river-bottom"] * 3)
