"""Outer Earth's companion: the rulebook's scoring, bidding, upkeep, action values, last round
and set-up, read from the same YAML the cards are printed from."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.outer_earth import data as oe_data
from companion.outer_earth import rules as oe
from components.errors import InputError, RuleError

FIXTURES = Path(__file__).parent / "fixtures" / "outer_earth"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def rules() -> oe.Rules:
    return oe_data.load_rules()


# --- End Game Scoring ----------------------------------------------------------------------------

def test_the_rulebook_sell_example_is_13_vp(rules: oe.Rules) -> None:
    # a linked red, yellow, yellow Bonus Revenue card (8 VP) paid from six developments
    planet = oe.Planet(name="Example", requirement=5)
    bonus = oe.BonusRevenue(vp=8, cost=("red", "yellow", "yellow"), linked=True)
    sale = oe.sell_planet(planet, ["blue", "red", "yellow", "yellow", "red", "blue"], rules,
                          bonus)
    assert sale.discarded == 3
    assert sale.to_profits == 3
    assert sale.bonus_revenue_vp == 8
    assert sale.planet_vp == 2
    assert sale.vp == 13
    # the same planet at End Game Scoring
    score = oe.total_profits(oe.Profits("Solo", profits=3, bonus_revenue=(8,), portfolio=1),
                             rules)
    assert score.vp == 13


def test_the_printed_card_of_the_sell_example(rules: oe.Rules) -> None:
    card = oe_data.bonus_revenue_cards()["br/14"]
    assert (card.vp, card.cost, card.linked) == (8, ("red", "yellow", "yellow"), True)
    sale = oe.sell_planet(oe_data.planet_cards()["planet/halcyon"],
                          ["blue", "red", "yellow", "yellow", "red", "blue"], rules, card)
    assert sale.vp == 13


def test_total_profits_breakdown(rules: oe.Rules) -> None:
    ann = oe.Profits("Ann", profits=9, bonus_revenue=(8, 5), portfolio=4, discarded_planets=1,
                     in_development=1)
    score = oe.total_profits(ann, rules)
    assert dict(score.breakdown) == {"profits": 9, "bonus_revenue": 13, "portfolio": 8,
                                     "discarded_planets": -2, "in_development": -2}
    assert score.vp == 26


def test_an_empty_company_scores_zero(rules: oe.Rules) -> None:
    assert oe.total_profits(oe.Profits("Nobody"), rules).vp == 0


def test_unfinished_planets_cost_vp_and_their_infrastructure_scores_nothing(
        rules: oe.Rules) -> None:
    assert oe.total_profits(oe.Profits("Ann", in_development=3), rules).vp == -6


def test_negative_counts_are_refused(rules: oe.Rules) -> None:
    with pytest.raises(RuleError):
        oe.total_profits(oe.Profits("Ann", portfolio=-1), rules)


def test_winners_and_ties() -> None:
    a, b, c = oe.Score("Ann", 20, {}), oe.Score("Bob", 20, {}), oe.Score("Cat", 5, {})
    assert oe.winners([a, c]) == ("Ann",)
    assert oe.winners([a, b, c]) == ("Ann", "Bob")
    assert oe.winners([]) == ()


@given(st.integers(0, 60), st.lists(st.integers(1, 15), max_size=6), st.integers(0, 20),
       st.integers(0, 20), st.integers(0, 20))
def test_vp_is_the_sum_of_its_breakdown(profits: int, bonus: list[int], portfolio: int,
                                        discarded: int, in_dev: int) -> None:
    rules = oe_data.load_rules()
    score = oe.total_profits(oe.Profits("X", profits, tuple(bonus), portfolio, discarded,
                                        in_dev), rules)
    assert score.vp == sum(score.breakdown.values())
    assert score.vp == profits + sum(bonus) + 2 * portfolio - 2 * discarded - 2 * in_dev


# --- selling and bonus revenue -------------------------------------------------------------------

def test_linked_cost_must_be_built_in_order_one_after_another() -> None:
    card = oe.BonusRevenue(vp=8, cost=("red", "yellow", "yellow"), linked=True)
    assert oe.pays_for(["red", "yellow", "yellow"], card) == (0, 1, 2)
    assert oe.pays_for(["blue", "red", "yellow", "yellow"], card) == (1, 2, 3)
    assert oe.pays_for(["yellow", "red", "yellow"], card) is None
    assert oe.pays_for(["red", "blue", "yellow", "yellow"], card) is None


def test_unlinked_cost_may_be_built_in_any_order() -> None:
    card = oe.BonusRevenue(vp=5, cost=("red", "yellow", "yellow"), linked=False)
    assert oe.pays_for(["yellow", "blue", "red", "yellow"], card) == (0, 2, 3)
    assert oe.pays_for(["yellow", "red"], card) is None


def test_a_planet_below_its_requirement_cannot_be_sold(rules: oe.Rules) -> None:
    with pytest.raises(RuleError, match="needs 4 developments"):
        oe.sell_planet(oe.Planet("Tidewell", requirement=4), ["blue", "blue", "yellow"], rules)


def test_a_bonus_the_infrastructure_does_not_pay_is_refused(rules: oe.Rules) -> None:
    card = oe.BonusRevenue(vp=8, cost=("red", "yellow", "yellow"), linked=True)
    with pytest.raises(RuleError, match="does not pay"):
        oe.sell_planet(oe.Planet("P", 3), ["yellow", "red", "yellow"], rules, card)


def test_a_sale_without_bonus_puts_every_card_in_profits(rules: oe.Rules) -> None:
    sale = oe.sell_planet(oe.Planet("P", 3, dice_increase=1), ["blue"] * 4, rules)
    assert (sale.to_profits, sale.discarded, sale.vp, sale.dice_increase) == (4, 0, 6, 1)


# --- bidding -------------------------------------------------------------------------------------

SEATS = ("Ann", "Bob", "Cat", "Dan")


def test_no_green_paddle_puts_a_card_under_the_planet() -> None:
    a = oe.walk_auction(SEATS, "Ann", [])
    assert a.over and a.buyer is None
    assert a.cards_under_after == 1
    assert a.next_starting_player == "Ann"
    assert oe.walk_auction(SEATS, "Ann", [], cards_under=2).cards_under_after == 3


def test_one_green_paddle_takes_the_planet_for_free() -> None:
    a = oe.walk_auction(SEATS, "Ann", ["Cat"], cards_under=1)
    assert (a.buyer, a.price) == ("Cat", 0)
    assert a.next_starting_player == "Cat"
    assert a.cards_under_after == 0


def test_the_initial_bid_is_the_number_of_green_paddles() -> None:
    a = oe.open_auction(SEATS, "Ann", ["Bob", "Cat", "Dan"])
    assert (a.bid, a.to_act, a.choices()) == (3, "Bob", ("accept", "bow out"))


def test_the_starting_player_opens_when_interested() -> None:
    a = oe.open_auction(SEATS, "Cat", ["Ann", "Cat"])
    assert a.to_act == "Cat"
    assert a.green == ("Cat", "Ann")


def test_accept_then_the_other_bows_out_buys_at_the_initial_bid() -> None:
    a = oe.walk_auction(SEATS, "Ann", ["Ann", "Cat"], ["accept", "bow"])
    assert (a.buyer, a.price) == ("Ann", 2)
    assert a.next_starting_player == "Ann"
    assert [(s.company, s.move, s.bid) for s in a.steps] == [("Ann", "accept", 2),
                                                            ("Cat", "bow out", 2)]


def test_a_bowing_opener_lowers_the_initial_bid_by_one() -> None:
    a = oe.walk_auction(SEATS, "Ann", ["Ann", "Bob", "Cat"], ["bow"])
    assert (a.bid, a.to_act, a.leader) == (2, "Bob", None)
    a = oe.respond(a, "accept")
    assert (a.leader, a.bid, a.to_act) == ("Bob", 2, "Cat")


def test_when_every_opener_bows_out_the_last_company_buys_at_the_lowered_bid() -> None:
    a = oe.walk_auction(SEATS, "Ann", ["Ann", "Cat"], ["bow"])
    assert (a.buyer, a.price) == ("Cat", 1)
    assert a.next_starting_player == "Cat"
    b = oe.walk_auction(SEATS, "Bob", ["Ann", "Bob", "Dan"], ["bow", "bow"])
    assert (b.buyer, b.price) == ("Ann", 1)


def test_raises_go_round_until_one_company_is_left() -> None:
    # Bob holds the token; Ann, Cat, Dan bid: Cat opens at 3, Dan raises, Ann raises,
    # Cat bows out, Dan raises, Ann bows out: Dan buys for 6
    a = oe.walk_auction(SEATS, "Bob", ["Ann", "Cat", "Dan"],
                        ["accept", "raise", "raise", "bow", "raise", "bow"])
    assert [(s.company, s.move, s.bid) for s in a.steps] == [
        ("Cat", "accept", 3), ("Dan", "raise", 4), ("Ann", "raise", 5),
        ("Cat", "bow out", 5), ("Dan", "raise", 6), ("Ann", "bow out", 6)]
    assert (a.buyer, a.price, a.next_starting_player) == ("Dan", 6, "Dan")


def test_the_leader_is_not_asked_to_answer_its_own_bid() -> None:
    a = oe.walk_auction(SEATS, "Ann", ["Ann", "Bob", "Cat"], ["accept", "bow"])
    assert a.to_act == "Cat"
    a = oe.respond(a, "raise")
    assert (a.leader, a.to_act, a.bid) == ("Cat", "Ann", 4)


def test_an_unfinished_auction_says_who_is_to_act() -> None:
    a = oe.walk_auction(SEATS, "Ann", ["Ann", "Cat"], ["accept"])
    assert not a.over
    assert (a.to_act, a.choices(), a.leader, a.bid) == ("Cat", ("raise", "bow out"), "Ann", 2)


def test_a_company_cannot_bid_more_cards_than_it_holds() -> None:
    with pytest.raises(RuleError, match="cannot accept a bid of 3"):
        oe.walk_auction(SEATS, "Ann", ["Ann", "Bob", "Cat"], ["accept"], hands={"Ann": 2})
    with pytest.raises(RuleError, match="cannot bid 3"):
        oe.walk_auction(SEATS, "Ann", ["Ann", "Bob"], ["accept", "raise"], hands={"Bob": 2})


def test_moves_the_rules_do_not_allow() -> None:
    with pytest.raises(RuleError, match="may accept or bow out"):
        oe.walk_auction(SEATS, "Ann", ["Ann", "Bob"], ["raise"])
    with pytest.raises(RuleError, match="ended"):
        oe.walk_auction(SEATS, "Ann", ["Ann", "Bob"], ["accept", "bow", "raise"])
    with pytest.raises(RuleError, match="over"):
        oe.respond(oe.open_auction(SEATS, "Ann", ["Bob"]), "raise")


def test_bad_tables_are_input_errors() -> None:
    with pytest.raises(InputError, match="not at the table"):
        oe.open_auction(SEATS, "Eve", ["Ann"])
    with pytest.raises(InputError, match="not at the table"):
        oe.open_auction(SEATS, "Ann", ["Eve"])
    with pytest.raises(InputError):
        oe.open_auction(("Ann", "Ann"), "Ann", [])


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_any_auction_ends_with_an_interested_buyer_paying_at_least_one(
        data: st.DataObject) -> None:
    seats = SEATS[: data.draw(st.integers(2, 4))]
    green = data.draw(st.lists(st.sampled_from(seats), min_size=2, unique=True))
    start = data.draw(st.sampled_from(seats))
    a = oe.open_auction(seats, start, green)
    assert a.bid == len(green)
    for _ in range(50):
        if a.over:
            break
        a = oe.respond(a, data.draw(st.sampled_from(a.choices())))
    if not a.over:  # finish by bowing out
        while not a.over:
            a = oe.respond(a, "bow out")
    assert a.buyer in green
    assert a.price >= 1
    assert a.next_starting_player == a.buyer
    bids = [s.bid for s in a.steps if s.move != "bow out"]
    assert bids == sorted(bids)


# --- upkeep, action values, last round -----------------------------------------------------------

def test_no_tax_within_the_sell_value(rules: oe.Rules) -> None:
    u = oe.upkeep(hand=5, planets_in_development=2, sell_value=2, rules=rules)
    assert (u.taxed_planets, u.cards_for_tax, u.hand_limit_discard, u.hand_after) == (0, 0, 0, 5)


def test_planet_tax_is_two_cards_a_planet_beyond_the_sell_value(rules: oe.Rules) -> None:
    u = oe.upkeep(hand=7, planets_in_development=4, sell_value=1, rules=rules)
    assert (u.taxed_planets, u.cards_for_tax, u.hand_after) == (3, 6, 1)


def test_a_taxed_planet_may_go_to_the_profits_instead(rules: oe.Rules) -> None:
    u = oe.upkeep(hand=3, planets_in_development=3, sell_value=1, rules=rules,
                  planets_discarded=1)
    assert (u.cards_for_tax, u.planets_to_profits, u.planets_after, u.hand_after) == (2, 1, 2, 1)


def test_a_company_that_cannot_pay_must_discard_planets(rules: oe.Rules) -> None:
    with pytest.raises(RuleError, match="pay for at most 1 and discard 1 planet"):
        oe.upkeep(hand=3, planets_in_development=3, sell_value=1, rules=rules)
    with pytest.raises(RuleError):
        oe.upkeep(hand=3, planets_in_development=2, sell_value=2, rules=rules,
                  planets_discarded=1)


def test_the_hand_limit_is_ten_after_tax(rules: oe.Rules) -> None:
    u = oe.upkeep(hand=14, planets_in_development=2, sell_value=1, rules=rules)
    assert (u.cards_for_tax, u.hand_limit_discard, u.hand_after) == (2, 2, 10)
    assert oe.upkeep(hand=10, planets_in_development=0, sell_value=1,
                     rules=rules).hand_limit_discard == 0


def test_action_values_are_dice_plus_the_latest_planet(rules: oe.Rules) -> None:
    dice = oe.starting_dice(rules)
    assert dice == oe.CompanyDice(2, 2, 1)
    assert oe.action_values(dice, None, rules) == {"draw": 2, "build": 2, "sell": 1}
    # the rulebook's example company: draw 3, build 2, sell 2
    planet = oe.Planet("P", 4, benefits={"draw": 1, "sell": 1})
    assert oe.action_values(dice, planet, rules) == {"draw": 3, "build": 2, "sell": 2}
    calyx = oe_data.planet_cards()["planet/calyx"]
    assert oe.action_values(oe.CompanyDice(3, 2, 1), calyx, rules) == {
        "draw": 5, "build": 3, "sell": 1}


def test_dice_increase(rules: oe.Rules) -> None:
    dice = oe.increase_die(oe.CompanyDice(2, 2, 1), "sell", rules)
    assert dice == oe.CompanyDice(2, 2, 2)
    with pytest.raises(RuleError, match="highest face"):
        oe.increase_die(oe.CompanyDice(6, 2, 1), "draw", rules)
    with pytest.raises(InputError):
        oe.increase_die(dice, "trade", rules)
    with pytest.raises(RuleError):
        oe.action_values(oe.CompanyDice(0, 2, 1), None, rules)


def test_last_round_by_the_galaxy_deck(rules: oe.Rules) -> None:
    assert oe.last_round(0, [3, 4, 2], rules)
    assert not oe.last_round(1, [3, 4, 2], rules)


def test_last_round_needs_two_empty_bonus_revenue_piles(rules: oe.Rules) -> None:
    assert rules.bonus_revenue_piles_empty == 2
    assert not oe.last_round(5, [0, 4, 2], rules)
    assert oe.last_round(5, [0, 0, 2], rules)
    assert oe.last_round(5, [0, 0], rules)


def test_last_round_setting_one_pile(rules: oe.Rules) -> None:
    one = replace(rules, bonus_revenue_piles_empty=1)
    assert oe.last_round(5, [0, 4, 2], one)


def test_replenish_the_market(rules: oe.Rules) -> None:
    assert oe.replenish_count(4, 2, rules) == 3
    with pytest.raises(RuleError):
        oe.replenish_count(2, 4, rules)


# --- set-up --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "length", "galaxy", "market", "piles", "cards"), [
    (2, "short", 12, 3, 2, 3), (2, "normal", 20, 3, 2, 6),
    (3, "short", 18, 4, 3, 4), (3, "normal", 30, 4, 3, 7),
    (4, "short", 24, 5, 3, 6), (4, "normal", 40, 5, 3, 10),
])
def test_setup_table(rules: oe.Rules, players: int, length: str, galaxy: int, market: int,
                     piles: int, cards: int) -> None:
    s = oe.setup(players, length, rules)
    assert (s.galaxy_deck, s.planet_market, s.bonus_revenue_piles,
            s.bonus_revenue_cards_per_pile) == (galaxy, market, piles, cards)
    assert s.planet_market == players + 1
    assert s.remove_long_cards == (length == "short")
    assert s.starting_hand == 4 and dict(s.starting_dice) == {"draw": 2, "build": 2, "sell": 1}
    # the bonus revenue piles always fit the cards in the box
    assert piles * cards <= s.bonus_revenue_in_box


def test_setup_outside_two_to_four_players(rules: oe.Rules) -> None:
    with pytest.raises(RuleError, match="2, 3, 4 players"):
        oe.setup(5, "normal", rules)
    with pytest.raises(InputError):
        oe.setup(3, "medium", rules)


def test_short_games_use_the_planets_without_l(rules: oe.Rules) -> None:
    assert rules.planets_in_box == {"short": 12, "normal": 20}
    assert rules.bonus_revenue_in_box == {"short": 18, "normal": 30}


# --- the command line ----------------------------------------------------------------------------

def run(*args: str) -> tuple[int, str, str]:
    """Run the ``irata`` entry point in a fresh interpreter: exit code, stdout, stderr."""
    proc = subprocess.run([sys.executable, "-m", "irata.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


def test_score_the_issue_example() -> None:
    from irata.cli import cli

    result = CliRunner().invoke(cli, ["play", "outer-earth", "score",
                                      str(FIXTURES / "issue-example.yaml"), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["winner"] == "Ann"
    ann = out["players"][0]
    assert (ann["name"], ann["vp"]) == ("Ann", 26)
    assert ann["breakdown"]["bonus_revenue"] == 13
    assert out["players"][1]["vp"] == 24


def test_score_table_and_the_sell_example() -> None:
    from irata.cli import cli

    result = CliRunner().invoke(cli, ["play", "outer-earth", "score",
                                      str(FIXTURES / "sell-example.yaml")])
    assert result.exit_code == 0
    assert "Solo" in result.output and "13" in result.output
    assert "winner: Solo" in result.output


def test_score_a_tie() -> None:
    from irata.cli import cli

    result = CliRunner().invoke(cli, ["play", "outer-earth", "score", str(FIXTURES / "tie.yaml"),
                                      "--json"])
    out = json.loads(result.output)
    assert out["winner"] is None and out["tied"] == ["Ann", "Bob"]


@pytest.mark.parametrize(("fixture", "where", "what"), [
    ("bad-negative.yaml", ":3:5:", "whole number 0 or more"),
    ("bad-key.yaml", ":5:5:", "did you mean 'portfolio'"),
    ("bad-bonus.yaml", ":3:24:", "face value"),
    ("bad-syntax.yaml", ":4:", "malformed YAML"),
    ("bad-no-name.yaml", ":2:5:", "needs a name"),
    ("bad-duplicate.yaml", ":3:5:", "given twice"),
    ("bad-top.yaml", ":1:1:", "expected 'players:'"),
    ("bad-face-value.yaml", ":3:21:", "no Bonus Revenue card is worth 2"),
])
def test_bad_score_files_name_file_and_line(fixture: str, where: str, what: str) -> None:
    code, out, err = run("play", "outer-earth", "score", str(FIXTURES / fixture))
    assert code == 2
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1
    assert f"{fixture}{where}" in err
    assert what in err
    assert "Traceback" not in err


def test_score_a_missing_file() -> None:
    code, _, err = run("play", "outer-earth", "score", "no-such-file.yaml")
    assert code == 2 and "no such file" in err


def test_bid_command_walks_the_auction() -> None:
    code, out, _ = run("play", "outer-earth", "bid", "--players", "Ann,Bob,Cat,Dan", "--start",
                       "Bob", "--green", "Ann,Cat,Dan", "accept", "raise", "bow", "bow",
                       "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["status"], data["buyer"], data["price"], data["starting_player"]) == (
        "sold", "Dan", 4, "Dan")
    assert data["paddles"] == 3


def test_bid_command_text_and_no_bids() -> None:
    from irata.cli import cli

    runner = CliRunner()
    r = runner.invoke(cli, ["play", "outer-earth", "bid", "--players", "Ann,Bob", "--start",
                            "Ann", "--under", "1"])
    assert r.exit_code == 0 and "2 under it now" in r.output
    r = runner.invoke(cli, ["play", "outer-earth", "bid", "--players", "Ann,Bob,Cat", "--start",
                            "Ann", "--green", "Ann,Cat", "accept"])
    assert "Cat to act: raise to 3 or bow out (Ann holds 2)." in r.output


def test_bid_command_refuses_an_illegal_move() -> None:
    code, _, err = run("play", "outer-earth", "bid", "--players", "Ann,Bob", "--start", "Ann",
                       "--green", "Ann,Bob", "accept", "accept")
    assert code == 2
    assert err == "error: Bob may raise or bow out, not 'accept'\n"


def test_other_commands_json() -> None:
    from irata.cli import cli

    runner = CliRunner()

    def call(*args: str) -> dict[str, object]:
        r = runner.invoke(cli, ["play", "outer-earth", *args, "--json"])
        assert r.exit_code == 0, r.output
        return json.loads(r.output)  # type: ignore[no-any-return]

    assert call("upkeep", "--hand", "14", "--planets", "2", "--sell", "1")["hand_after"] == 10
    assert call("actions", "--dice", "2,2,1", "--planet", "Calyx")["values"] == {
        "draw": 4, "build": 3, "sell": 1}
    assert call("last-round", "--galaxy", "4", "--piles", "0,0,3")["last_round"] is True
    s = call("setup", "--players", "Ann,Bob,Cid", "--short")
    assert (s["galaxy_deck"], s["bonus_revenue_piles"], s["bonus_revenue_cards_per_pile"]) == (
        18, 3, 4)
    sale = call("sell", "--planet", "Halcyon", "--built",
                "blue,red,yellow,yellow,red,blue", "--bonus", "br/14")
    assert sale["vp"] == 13


def test_unknown_planet_suggests_a_name() -> None:
    code, _, err = run("play", "outer-earth", "actions", "--planet", "Calix")
    assert code == 2 and "did you mean 'Calyx'" in err


@given(st.integers(0, 30), st.integers(0, 8), st.integers(0, 8), st.data())
def test_upkeep_never_leaves_more_than_ten_cards_and_conserves_them(
        hand: int, planets: int, sell_value: int, data: st.DataObject) -> None:
    rules = oe_data.load_rules()
    taxed = max(0, planets - sell_value)
    must_discard = max(0, taxed - hand // 2)
    discarded = data.draw(st.integers(must_discard, taxed))
    u = oe.upkeep(hand, planets, sell_value, rules, discarded)
    assert 0 <= u.hand_after <= rules.hand_limit
    assert u.hand_after + u.cards_for_tax + u.hand_limit_discard == hand
    assert u.cards_for_tax == 2 * (taxed - discarded)
    assert u.planets_after == planets - discarded


@pytest.mark.parametrize(("companies", "message"), [
    ("  - {name: Ann, portfolio: 15, discarded_planets: 3}\n  - {name: Bob, in_development: 3}\n",
     "hold 21 planets (portfolio, discarded and in development), but the game has only 20"),
    ("  - {name: Ann, profits: 60}\n  - {name: Bob, profits: 41}\n",
     "hold 101 development cards, but the game has only 100"),
    ("  - {name: Ann, bonus_revenue: [15]}\n  - {name: Bob, bonus_revenue: [15]}\n",
     "2 Bonus Revenue cards worth 15 VP are listed, but the game has only 1"),
])
def test_a_score_file_holding_more_than_the_box_is_refused(
        tmp_path: Path, companies: str, message: str) -> None:
    # VP only for what was built and sold: the box has 20 planets, 100 development cards and
    # one Bonus Revenue card worth 15
    f = tmp_path / "score.yaml"
    f.write_text("players:\n" + companies)
    proc = subprocess.run([str(Path(sys.executable).parent / "irata"), "play", "outer-earth",
                           "score", str(f)], capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and proc.stdout == ""


def test_a_score_file_holding_exactly_the_box_is_scored(rules: oe.Rules) -> None:
    full = [oe.Profits("Ann", profits=100, portfolio=20,
                       bonus_revenue=tuple(v for v, n in rules.bonus_revenue_counts.items()
                                           for _ in range(n)))]
    oe.check_held(full, rules)
    assert sum(rules.bonus_revenue_counts.values()) == 30 and rules.development_cards == 100
