"""Outer Earth kept as a saved game: set-up, a round played through as a table types it, the
rulebook's sell example through the saved game, the last round from the saved piles, undo,
set, and refused steps that save nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from companion import session
from companion.outer_earth import data as oe_data
from companion.outer_earth import saved
from companion.outer_earth.state import state_from_json
from components.errors import InputError, RuleError
from irata.cli import cli, main

RULES = oe_data.load_rules()


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, ["play", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def oe_(*args: str) -> str:
    return run("outer-earth", *args)


def js(*args: str) -> Any:
    return json.loads(oe_(*args, "--json"))


def state() -> dict[str, Any]:
    return json.loads(run("status", "--json"))["state"]  # type: ignore[no-any-return]


def events() -> int:
    return len(json.loads(run("log", "--json")))


def refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run a command that must be refused: exit 2, one line on stderr, nothing saved."""
    before = events()
    capsys.readouterr()
    with pytest.raises(SystemExit) as info:
        main(["play", *args])
    out = capsys.readouterr()
    assert info.value.code == 2, out
    assert out.err.startswith("error: ") and out.err.count("\n") == 1, out.err
    assert "Traceback" not in out.err
    assert events() == before
    return out.err


def ended() -> dict[str, Any]:
    """The end of the round, which ran itself after the upkeep (nothing in it is decided):
    its event in the log, marked so, and the state after it."""
    event = json.loads(run("log", "--json"))[-1]
    assert event["kind"] == "round" and event["data"]["auto"]["move"] == "round", event
    s, d = state(), event["data"]
    return {"round": s["round"], "refill": d["refill"], "galaxy_deck": s["galaxy_deck"],
            "market": s["market"]["planets"], "over": s["over"],
            "last_round": s["final_round"] == s["round"] and not s["over"]}


def company(s: dict[str, Any], name: str) -> dict[str, Any]:
    return s["players"][name]  # type: ignore[no-any-return]


def nobody_bids(*planets: str) -> None:
    """Phase 1: the rest of the market put up for sale one after the other, nobody bidding
    (a development card goes under each, from the deck: no hand changes)."""
    for planet in planets:
        assert js("bid", "--save", "--planet", planet)["status"] == "no bids"


# --- Game Setup Instructions ---------------------------------------------------------------------

def test_a_new_game_holds_the_set_up_table() -> None:
    out = js("new", "--players", "Ann,Bob,Cid", "--starting-player", "Bob", "--name", "Friday")
    s = out["state"]
    assert out["name"] == "Friday"
    # 3 players, normal: the table asks for 30 planets, the box holds 20 (all used)
    assert s["setup"] == {"galaxy_deck": 20, "galaxy_deck_table": 30, "planet_market": 4,
                          "bonus_revenue_piles": 3, "bonus_revenue_cards_per_pile": 7,
                          "remove_long_cards": False}
    assert (s["galaxy_deck"], s["market"]) == (16, {"planets": 4, "under": {}})
    assert s["bonus_revenue_piles"] == [7, 7, 7]
    assert (s["round"], s["starting_player"], s["seating"]) == (1, "Bob", ["Ann", "Bob", "Cid"])
    for name in ("Ann", "Bob", "Cid"):
        assert company(s, name) == {
            "dice": {"draw": 2, "build": 2, "sell": 1}, "hand": 4, "in_development": [],
            "portfolio": [], "profits": {"cards": 0, "planets": []}, "bonus_revenue": [],
            "bonus_revenue_cards": []}


@pytest.mark.parametrize(("players", "length", "deck", "market", "galaxy", "piles"), [
    ("Ann,Bob", "--short", 12, 3, 9, [3, 3]),
    ("Ann,Bob", "--normal", 20, 3, 17, [6, 6]),
    ("Ann,Bob,Cid,Dee", "--short", 12, 5, 7, [6, 6, 6]),
    ("Ann,Bob,Cid,Dee", "--normal", 20, 5, 15, [10, 10, 10]),
])
def test_set_up_for_every_table(players: str, length: str, deck: int, market: int,
                                galaxy: int, piles: list[int]) -> None:
    s = js("new", "--players", players, length, "--seed", "1")["state"]
    assert s["setup"]["galaxy_deck"] == deck
    assert s["market"]["planets"] == market and s["galaxy_deck"] == galaxy
    assert s["bonus_revenue_piles"] == piles
    assert s["setup"]["remove_long_cards"] is (length == "--short")


def test_the_seed_rolls_the_same_starting_player() -> None:
    a = js("new", "--players", "Ann,Bob,Cid,Dee", "--seed", "42")["state"]
    b = js("new", "--players", "Ann,Bob,Cid,Dee", "--seed", "42")["state"]
    assert a["starting_player"] == b["starting_player"] in ("Ann", "Bob", "Cid", "Dee")
    assert a["seed"] == 42


# --- a round played through ----------------------------------------------------------------------

def test_a_round_played_through_with_the_rulebook_sell_example() -> None:
    oe_("new", "--players", "Ann,Bob,Cid", "--starting-player", "Ann")

    # Phase 1: Halcyon, Ann and Cid green; Ann accepts 2, Cid bows out: Ann pays 2 cards
    bid = js("bid", "--save", "--planet", "Halcyon", "--green", "Ann,Cid", "accept", "bow")
    assert (bid["buyer"], bid["price"], bid["saved"]) == ("Ann", 2, True)
    s = state()
    assert company(s, "Ann")["hand"] == 2
    assert company(s, "Ann")["in_development"] == [{"planet": "Halcyon", "built": []}]
    assert (s["market"]["planets"], s["starting_player"]) == (3, "Ann")

    # an unfinished auction saves nothing and says who is to act
    out = oe_("bid", "--save", "--planet", "Tidewell", "--green", "Bob,Cid")
    assert "Bob may open at 2." in out and "Nothing saved" in out
    assert events() == 2

    # Tidewell: no green paddle, a card goes under it and it stays in the market
    bid = js("bid", "--save", "--planet", "Tidewell")
    assert (bid["status"], bid["cards_under"]) == ("no bids", 1)
    s = state()
    assert s["market"] == {"planets": 3, "under": {"Tidewell": 1}}
    assert s["starting_player"] == "Ann"
    assert [company(s, n)["hand"] for n in ("Ann", "Bob", "Cid")] == [2, 4, 4]

    # Ferrox: Bob alone, for free; the starting player token moves to Bob
    oe_("bid", "--save", "--planet", "Ferrox", "--green", "Bob")
    # Obelisk: Bob and Cid green; clockwise from Bob, Bob bows out (bid lowered to 1), Cid buys
    bid = js("bid", "--save", "--planet", "planet/obelisk", "--green", "Cid,Bob", "bow")
    assert (bid["buyer"], bid["price"]) == ("Cid", 1)
    s = state()
    assert s["starting_player"] == "Cid"
    assert s["market"] == {"planets": 1, "under": {"Tidewell": 1}}
    assert [company(s, n)["hand"] for n in ("Ann", "Bob", "Cid")] == [2, 4, 3]
    assert company(s, "Bob")["in_development"] == [{"planet": "Ferrox", "built": []}]
    assert company(s, "Cid")["in_development"] == [{"planet": "Obelisk", "built": []}]

    # Phase 2, one turn of 3 actions each, clockwise from the starting player (Cid): Cid
    # stocks up with three draw actions of 2, the most a turn draws; Ann draws her draw value
    # (2) and builds four (two build actions); Bob builds on Ferrox (yellow or red start path)
    assert js("draw", "Cid", "6")["hand"] == 9
    assert js("draw", "Ann")["hand"] == 4
    built = js("build", "Ann", "blue,red,yellow,yellow", "--planet", "Halcyon")
    assert (built["built"], built["hand"]) == (["blue", "red", "yellow", "yellow"], 0)
    js("build", "Bob", "yellow,red", "--planet", "Ferrox")
    assert company(state(), "Bob")["in_development"] == [
        {"planet": "Ferrox", "built": ["yellow", "red"]}]

    # Phase 3: nobody is taxed (one planet each, sell 1); Cid keeps 9, under the limit of 10
    up = js("upkeep", "--save")["companies"]
    assert up["Cid"]["hand_limit_discard"] == 0 and up["Cid"]["hand_after"] == 9
    assert all(u["taxed_planets"] == 0 for u in up.values())
    s = state()
    assert [company(s, n)["hand"] for n in ("Ann", "Bob", "Cid")] == [0, 2, 9]
    assert (s["upkeep_done"], s["round"]) == (False, 2)   # the round's end ran itself

    # the round ends by itself: the market is refilled to its 4 slots from the galaxy deck
    end = ended()
    assert (end["round"], end["refill"], end["galaxy_deck"], end["market"]) == (2, 3, 13, 4)
    assert end["last_round"] is False
    s = state()
    assert (s["round"], s["galaxy_deck"], s["upkeep_done"], s["final_round"]) == (
        2, 13, False, None)
    assert s["market"] == {"planets": 4, "under": {"Tidewell": 1}}

    # round 2: Cid, still the starting player, draws first; then Ann draws 2 (a sum, as
    # typed) and sells Halcyon: the last two built now from the hand (a build action), the
    # linked red-yellow-yellow Bonus Revenue card (8 VP) from pile 2: 3 cards to profits,
    # 13 VP in all
    nobody_bids("Tidewell", "Meridian", "Solace", "Gaia's Rest")   # round 2's Phase 1
    oe_("draw", "Cid", "2")
    assert js("draw", "Ann", "1+1")["hand"] == 2
    sale = js("sell", "Ann", "--save", "--planet", "Halcyon", "--built",
              "blue,red,yellow,yellow,red,blue", "--bonus", "br/14", "--pile", "2")
    assert (sale["vp"], sale["to_profits"], sale["discarded"], sale["bonus_revenue_vp"]) == (
        13, 3, 3, 8)
    s = state()
    ann = company(s, "Ann")
    assert ann["hand"] == 0 and ann["in_development"] == []
    assert ann["portfolio"] == ["Halcyon"]
    assert ann["profits"] == {"cards": 3, "planets": []}
    assert (ann["bonus_revenue"], ann["bonus_revenue_cards"]) == ([8], ["br/14"])
    assert s["bonus_revenue_piles"] == [7, 6, 7]

    # the action values now read Ann's latest portfolio planet (Halcyon: +1 draw, +1 build)
    acts = js("actions", "--save")["companies"]
    assert acts["Ann"]["values"] == {"draw": 3, "build": 3, "sell": 1}
    assert acts["Ann"]["planet"] == "Halcyon"
    assert acts["Bob"]["values"] == {"draw": 2, "build": 2, "sell": 1}

    # End Game Scoring from the saved companies, same table as the file form
    score = js("score", "--save")
    assert [(p["name"], p["vp"]) for p in score["players"]] == [
        ("Ann", 13), ("Bob", -2), ("Cid", -2)]
    assert score["players"][0]["breakdown"] == {"profits": 3, "bonus_revenue": 8,
                                                "portfolio": 2, "discarded_planets": 0,
                                                "in_development": 0}
    assert score["winner"] == "Ann"
    text = oe_("score", "--save")
    assert text.splitlines()[0].startswith("company") and "winner: Ann" in text

    status = run("status")
    assert "round 2" in status and "Galaxy deck 13 left" in status
    assert "Ann: hand 0, dice 2/2/1" in status and "bonus revenue 8" in status


def test_the_sell_example_in_a_game_of_its_own() -> None:
    """The rulebook's Sell Planet Example alone: 13 VP for the selling company at the end."""
    oe_("new", "--players", "Solo,Bob", "--starting-player", "Solo")
    oe_("bid", "--save", "--planet", "Halcyon", "--green", "Solo")
    nobody_bids("Meridian", "Solace")
    # six infrastructures take two rounds: a turn is 3 actions of draw 2 / build 2
    oe_("draw", "Solo", "2")
    oe_("build", "Solo", "blue,red,yellow,yellow", "--planet", "Halcyon")
    oe_("done", "Bob")
    oe_("upkeep", "--save")
    oe_("round")
    nobody_bids("Meridian", "Solace", "Tidewell")      # two under already, one new
    oe_("draw", "Solo", "2")
    oe_("build", "Solo", "red,blue", "--planet", "Halcyon")
    oe_("sell", "Solo", "--save", "--planet", "Halcyon", "--bonus", "br/14",
        "--pile", "1")
    solo = js("score", "--save")["players"][0]
    assert (solo["name"], solo["vp"]) == ("Solo", 13)


def test_a_dice_increase_raises_the_die_named() -> None:
    oe_("new", "--players", "Ann,Bob", "--starting-player", "Ann")
    oe_("bid", "--save", "--planet", "Nimbus Prime", "--green", "Ann")
    nobody_bids("Meridian", "Solace")
    oe_("build", "Ann", "blue,blue,yellow,red", "--planet", "Nimbus Prime")
    sale = js("sell", "Ann", "--save", "--planet", "Nimbus Prime", "--raise",
              "sell")
    assert sale["dice_increase"] == 1 and sale["vp"] == 6
    ann = company(state(), "Ann")
    assert ann["dice"] == {"draw": 2, "build": 2, "sell": 2}
    assert js("actions", "--save", "--player", "Ann")["companies"]["Ann"]["values"] == {
        "draw": 2, "build": 2, "sell": 2}


def test_planet_tax_through_the_saved_game() -> None:
    oe_("new", "--players", "Ann,Bob", "--starting-player", "Ann")
    for planet in ("Verdant Reach", "Amber Hollow", "Cinder Point"):
        oe_("bid", "--save", "--planet", planet, "--green", "Ann")
    oe_("build", "Ann", "blue", "--planet", "Verdant Reach")
    oe_("draw", "Ann", "3")
    assert company(state(), "Ann")["hand"] == 6
    oe_("done", "Bob")
    # three planets, sell value 1: two are taxed; Ann pays for one and discards Cinder Point
    up = js("upkeep", "--save", "--discard", "Ann=Cinder Point")["companies"]["Ann"]
    assert (up["taxed_planets"], up["cards_for_tax"], up["planets_to_profits"]) == (
        2, 2, ["Cinder Point"])
    ann = company(state(), "Ann")
    assert ann["hand"] == 4
    assert [p["planet"] for p in ann["in_development"]] == ["Verdant Reach", "Amber Hollow"]
    assert ann["profits"] == {"cards": 0, "planets": ["Cinder Point"]}
    # at the end: two planets in development and one discarded, -2 VP each
    ann_score = next(p for p in js("score", "--save")["players"] if p["name"] == "Ann")
    assert ann_score["vp"] == -6


# --- the last round, from the saved piles --------------------------------------------------------

def test_two_empty_bonus_revenue_piles_make_the_next_round_the_last() -> None:
    oe_("new", "--players", "Ann,Bob", "--short", "--starting-player", "Ann")
    run("set", "bonus_revenue_piles.0", "1")          # the table is the truth
    run("set", "bonus_revenue_piles.1", "1")
    oe_("bid", "--save", "--planet", "Amber Hollow", "--green", "Bob")
    oe_("bid", "--save", "--planet", "Verdant Reach", "--green", "Ann")   # Ann starts Phase 2
    nobody_bids("Meridian")
    oe_("build", "Ann", "blue,blue,blue", "--planet", "Verdant Reach")
    oe_("sell", "Ann", "--save", "--planet", "Verdant Reach", "--bonus", "br/01",
        "--pile", "1")
    last = js("last-round", "--save")
    assert (last["piles"], last["last_round"], last["next_round_is_last"]) == ([0, 1], False,
                                                                               False)
    assert oe_("last-round", "--save").startswith("no (ends when the galaxy deck or 2 bonus")
    oe_("build", "Bob", "yellow,yellow,yellow", "--planet", "Amber Hollow")
    # one pile left with cards: the sale takes from it without --pile
    oe_("sell", "Bob", "--save", "--planet", "Amber Hollow", "--bonus", "br/02")
    last = js("last-round", "--save")
    assert (last["piles"], last["last_round"], last["next_round_is_last"]) == ([0, 0], True,
                                                                               True)
    assert oe_("last-round", "--save").startswith("yes: round 2 will be the last round")
    oe_("upkeep", "--save")
    end = ended()
    assert (end["round"], end["last_round"], end["over"]) == (2, True, False)
    assert state()["final_round"] == 2
    assert "round 2 (the last round)" in run("status")
    assert oe_("last-round", "--save").startswith("yes: round 2 is the last round")
    nobody_bids("Meridian", "Solace", "Tidewell")
    oe_("done", "Ann")
    oe_("done", "Bob")                # the upkeep (nobody taxed) and the end ran themselves
    end = ended()
    assert end["over"] is True and state()["over"] is True
    assert "the game is over" in run("status")
    score = js("score", "--save")
    assert score["over"] is True
    assert {p["name"]: p["vp"] for p in score["players"]} == {"Ann": 3 + 1 + 2, "Bob": 3 + 1 + 2}
    assert score["tied"] == ["Ann", "Bob"]


def test_an_empty_galaxy_deck_makes_the_next_round_the_last() -> None:
    oe_("new", "--players", "Ann,Bob", "--short", "--starting-player", "Ann")
    run("set", "galaxy_deck", "1")
    oe_("bid", "--save", "--planet", "Verdant Reach", "--green", "Ann")
    oe_("bid", "--save", "--planet", "Amber Hollow", "--green", "Bob")
    nobody_bids("Meridian")
    oe_("done", "Bob")                # Bob, the starting player now, lets his turn go, then Ann
    oe_("done", "Ann")                # the upkeep (nobody taxed) runs itself after it
    end = ended()                     # two slots empty, one planet left to fill them
    assert (end["refill"], end["galaxy_deck"], end["market"], end["last_round"]) == (
        1, 0, 2, True)


# --- undo and set --------------------------------------------------------------------------------

def test_undo_drops_the_last_step() -> None:
    oe_("new", "--players", "Ann,Bob", "--starting-player", "Ann")
    oe_("bid", "--save", "--planet", "Halcyon", "--green", "Ann")
    nobody_bids("Meridian", "Solace")
    oe_("draw", "Ann", "2")
    oe_("build", "Ann", "blue,red,yellow,yellow", "--planet", "Halcyon")
    oe_("done", "Bob")
    oe_("upkeep", "--save")           # the end of the round runs itself after it
    assert "'round' ran itself already" in oe_("round")
    nobody_bids("Meridian", "Solace", "Tidewell")
    oe_("draw", "Ann", "2")
    oe_("build", "Ann", "red,blue", "--planet", "Halcyon")
    before = state()
    oe_("sell", "Ann", "--save", "--planet", "Halcyon", "--bonus", "br/14",
        "--pile", "1")
    assert state() != before
    assert "dropped event 15 (sell" in run("undo")
    assert state() == before
    for _ in range(5):                        # the build, the draw, 3 bids
        run("undo")
    assert state()["round"] == 2
    # Bob's turn let go, with the upkeep and the end of the round that ran themselves after
    assert "dropped event 7 (done" in run("undo")
    assert state()["round"] == 1 and state()["upkeep_done"] is False
    run("undo")                               # the build
    assert company(state(), "Ann")["hand"] == 6
    assert company(state(), "Ann")["in_development"] == [{"planet": "Halcyon", "built": []}]
    for _ in range(4):                        # the draw, the 3 bids
        run("undo")
    assert state()["market"]["planets"] == 3 and company(state(), "Ann")["hand"] == 4
    assert "nothing to undo" in run("undo")


def test_set_corrects_any_number_and_the_calculators_read_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    oe_("new", "--players", "Ann,Bob", "--starting-player", "Ann")
    run("set", "players.Ann.hand", "3+4")
    run("set", "players.Ann.dice.draw", "5")
    run("set", "players.Bob.portfolio", '["Meridian"]')
    s = state()
    assert company(s, "Ann")["hand"] == 7 and company(s, "Ann")["dice"]["draw"] == 5
    acts = js("actions", "--save")["companies"]
    assert acts["Ann"]["values"]["draw"] == 5
    assert acts["Bob"]["values"]["draw"] == 4                     # Meridian: +2 draw
    nobody_bids("Halcyon", "Solace", "Tidewell")
    assert js("draw", "Ann")["hand"] == 12           # her draw value, 5
    err = refused(["set", "players.Ann.hand", "2-3"], capsys)
    assert "cannot be negative" in err
    refused(["set", "players.Zed.hand", "3"], capsys)
    run("undo")
    assert company(state(), "Ann")["hand"] == 7


def test_export_writes_the_log(tmp_path: Any) -> None:
    oe_("new", "--players", "Ann,Bob", "--starting-player", "Bob")
    nobody_bids("Halcyon", "Solace", "Tidewell")
    oe_("draw", "Bob", "2")
    doc = json.loads(run("export"))
    assert doc["game"] == "outer-earth" and [e["kind"] for e in doc["events"]] == [
        "setup", "bid", "bid", "bid", "draw"]
    assert doc["state"]["players"]["Bob"]["hand"] == 6
    out = tmp_path / "oe.json"
    run("export", "--out", str(out))
    assert "Bob" in (tmp_path / "oe.csv").read_text()


def test_game_id_picks_the_saved_game() -> None:
    first = js("new", "--players", "Ann,Bob", "--starting-player", "Ann")["id"]
    second = js("new", "--players", "Cid,Dee", "--starting-player", "Dee")["id"]
    oe_("bid", "--game", str(first), "--planet", "Halcyon", "--green", "Bob")
    one = json.loads(run("status", "--game", str(first), "--json"))["state"]
    assert one["players"]["Bob"]["in_development"] == [{"planet": "Halcyon", "built": []}]
    two = json.loads(run("status", "--game", str(second), "--json"))["state"]
    assert two["market"]["planets"] == 3                  # the other game is untouched
    assert state() == one                                 # the game touched last
    assert js("score", "--game", str(first))["game"] == first


def test_a_value_that_is_not_a_count_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    oe_("new", "--players", "Ann,Bob", "--starting-player", "Ann")
    # set keeps a number a number: text where a count belongs is refused, nothing saved
    assert "holds a number (4)" in refused(["set", "players.Ann.hand", "many"], capsys)


# --- refused steps -------------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "message"), [
    (["bid", "--save", "--planet", "Ferrox", "--green", "Ann,Zed"], "no company 'Zed'"),
    (["bid", "--save", "--planet", "Ferrox", "--green", "Ann,Bob", "accept"],
     "Ann holds 1 development cards and cannot accept a bid of 2"),
    (["bid", "--save", "--planet", "Ferrox", "--green", "Bob,Cid", "accept", "accept"],
     "Cid may raise or bow out, not 'accept'"),
    (["draw", "Cid"], "round 1 is in Phase 1, 1 planet(s) of the market not yet put up"),
    (["done", "Ann"], "round 1 is in Phase 1, 1 planet(s) of the market not yet put up"),
    (["upkeep", "--save"], "round 1 is in Phase 1, 1 planet(s) of the market not yet put up"),
    (["round"], "no upkeep yet"),
])
def test_a_refused_step_in_phase_1_saves_nothing(args: list[str], message: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Phase 1, three of the market's four planets put up for sale: a bid the rules refuse,
    and a step of Phase 2 or 3 before the last planet was offered, save nothing."""
    oe_("new", "--players", "Ann,Bob,Cid", "--starting-player", "Ann")
    run("set", "players.Ann.hand", "1")
    nobody_bids("Halcyon", "Meridian", "Solace")
    err = refused(["outer-earth", *args], capsys)
    assert message in err


@pytest.mark.parametrize(("args", "message"), [
    (["draw", "Zed", "2"], "no company 'Zed'"),
    (["sell", "Zed", "--save", "--planet", "Halcyon"], "no company 'Zed'"),
    (["upkeep", "--save", "--discard", "Zed=Halcyon"], "no company 'Zed'"),
    (["upkeep", "--save"], "Bob has not taken its turn yet (it is Ann's turn): once every "
                           "company has completed its turn, Phase 3: Upkeep begins"),
    (["draw", "Ann", "1-3"], "cannot be negative"),
    (["draw", "Ann", "3-5"], "cannot be negative"),
    (["draw", "Ann", "lots"], "is not a number"),
    (["sell", "Ann", "--save", "--planet", "Halcyon"], "needs 4 developments"),
    (["sell", "Ann", "--save", "--planet", "Halcyon", "--built",
      "yellow,red,yellow,blue", "--bonus", "br/14", "--pile", "1"], "not yellow,red"),
    (["sell", "Ann", "--save", "--planet", "Halcyon", "--built",
      "blue,red,yellow,red", "--bonus", "br/14", "--pile", "1"], "does not pay"),
    (["sell", "Ann", "--save", "--planet", "Halcyon", "--built",
      "blue,red,yellow,yellow", "--bonus", "br/14", "--pile", "4"], "3 bonus revenue piles"),
    (["sell", "Ann", "--save", "--planet", "Halcyon", "--built",
      "blue,red,yellow,yellow", "--bonus", "br/14"], "say which bonus revenue pile"),
    (["sell", "Bob", "--save", "--planet", "Halcyon"], "not in Bob's construction"),
    (["sell", "Ann", "--save", "--planet", "Halcyon", "--built",
      "blue,red,yellow,yellow,red,blue,blue"], "cannot build 4 more"),
    (["build", "Ann", "red,red", "--planet", "Halcyon"],
     "holds 1 development cards and cannot build 2"),
    (["bid", "--save", "--planet", "Halcyon", "--green", "Bob"], "already belongs to Ann"),
    (["bid", "--save", "--planet", "Halcyon"], "already belongs to Ann"),
    (["bid", "--save", "--planet", "Calix", "--green", "Bob"], "did you mean 'Calyx'"),
    (["bid", "--save", "--planet", "Ferrox", "--green", "Bob"], "Phase 1 is over"),
    (["bid", "--save", "--players", "Ann,Bob", "--planet", "Ferrox"], "is for the calculator"),
    (["bid", "--save", "--green", "Bob"], "--planet NAME"),
    (["round"], "no upkeep yet"),
    (["actions", "--save", "--player", "Zed"], "no company 'Zed'"),
    (["score", "--save", "some.yaml"], "not both"),
    (["sell", "Ann", "--planet", "Halcyon", "--built", "blue"], "not blue (correct it"),
    (["sell", "--planet", "Halcyon", "--built", "blue", "--pile", "1"],
     "--pile belongs to the saved game's move (sell NAME ...)"),
])
def test_a_refused_step_saves_nothing(args: list[str], message: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    oe_("new", "--players", "Ann,Bob,Cid", "--starting-player", "Ann")
    oe_("bid", "--save", "--planet", "Halcyon", "--green", "Ann,Cid", "accept", "bow")
    nobody_bids("Meridian", "Solace", "Tidewell")
    oe_("draw", "Ann", "2")
    oe_("build", "Ann", "blue,red,yellow", "--planet", "Halcyon")
    assert company(state(), "Ann")["hand"] == 1
    err = refused(["outer-earth", *args], capsys)
    assert message in err


def test_rule_checks_on_planets_and_cards(capsys: pytest.CaptureFixture[str]) -> None:
    oe_("new", "--players", "Ann,Bob", "--short", "--starting-player", "Ann")
    assert "marked L" in refused(["outer-earth", "bid", "--save", "--planet", "Vesper Deep",
                                  "--green", "Ann"], capsys)
    oe_("bid", "--save", "--planet", "Nimbus Prime", "--green", "Bob")
    oe_("bid", "--save", "--planet", "Amber Hollow", "--green", "Ann")    # Ann starts Phase 2
    nobody_bids("Meridian")
    assert "start paths are yellow" in refused(
        ["outer-earth", "build", "Ann", "blue", "--planet", "Amber Hollow"], capsys)
    oe_("build", "Ann", "yellow,yellow,yellow", "--planet", "Amber Hollow")
    assert "marked L" in refused(
        ["outer-earth", "sell", "Ann", "--save", "--planet", "Amber Hollow",
         "--bonus", "br/30", "--pile", "1"], capsys)
    oe_("build", "Bob", "blue,blue,yellow,red", "--planet", "Nimbus Prime")
    assert "--raise" in refused(["outer-earth", "sell", "Bob", "--save",
                                 "--planet", "Nimbus Prime"], capsys)
    oe_("upkeep", "--save")            # the end of the round ran itself after it
    assert "'round' ran itself already" in oe_("round")
    assert state()["round"] == 2


def test_a_bonus_revenue_card_is_taken_once(capsys: pytest.CaptureFixture[str]) -> None:
    oe_("new", "--players", "Ann,Bob", "--starting-player", "Ann")
    oe_("bid", "--save", "--planet", "Tidewell", "--green", "Bob")
    oe_("bid", "--save", "--planet", "Verdant Reach", "--green", "Ann")   # Ann starts Phase 2
    nobody_bids("Meridian")
    oe_("build", "Ann", "blue,blue,blue", "--planet", "Verdant Reach")
    oe_("sell", "Ann", "--save", "--planet", "Verdant Reach", "--bonus", "br/01",
        "--pile", "1")
    oe_("build", "Bob", "blue,blue,yellow,yellow", "--planet", "Tidewell")
    assert "already in Ann's profits" in refused(
        ["outer-earth", "sell", "Bob", "--save", "--planet", "Tidewell", "--bonus",
         "br/01", "--pile", "2"], capsys)


def test_an_empty_pile_gives_no_card(capsys: pytest.CaptureFixture[str]) -> None:
    oe_("new", "--players", "Ann,Bob", "--starting-player", "Ann")
    run("set", "bonus_revenue_piles.0", "0")
    oe_("bid", "--save", "--planet", "Verdant Reach", "--green", "Ann")
    nobody_bids("Meridian", "Solace")
    oe_("build", "Ann", "blue,blue,blue", "--planet", "Verdant Reach")
    assert "pile 1 is empty" in refused(
        ["outer-earth", "sell", "Ann", "--save", "--planet", "Verdant Reach",
         "--bonus", "br/01", "--pile", "1"], capsys)


def test_after_the_game_is_over_nothing_more_is_played(
        capsys: pytest.CaptureFixture[str]) -> None:
    oe_("new", "--players", "Ann,Bob", "--starting-player", "Ann")
    run("set", "final_round", "1")
    nobody_bids("Halcyon", "Meridian", "Solace")
    oe_("done", "Ann")
    oe_("done", "Bob")                # the upkeep (nobody taxed) runs itself after it
    assert ended()["over"] is True
    assert "game is over" in refused(["outer-earth", "round"], capsys)
    assert "game is over" in refused(["outer-earth", "bid", "--save", "--planet", "Ferrox"],
                                     capsys)
    assert oe_("last-round", "--save").startswith("the game is over")


def test_a_planet_tax_the_hand_cannot_pay_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    oe_("new", "--players", "Ann,Bob", "--starting-player", "Ann")
    run("set", "players.Ann.in_development",
        '[{"planet": "Solace", "built": []}, {"planet": "Ferrox", "built": []},'
        ' {"planet": "Obelisk", "built": []}]')
    run("set", "players.Ann.hand", "3")
    nobody_bids("Halcyon", "Meridian", "Tidewell")
    oe_("done", "Ann")
    oe_("done", "Bob")
    err = refused(["outer-earth", "upkeep", "--save"], capsys)
    assert "discard 1 planet into the profits pile" in err
    up = js("upkeep", "--save", "--discard", "Ann=Obelisk")["companies"]["Ann"]
    assert (up["cards_for_tax"], up["hand_after"]) == (2, 1)


# --- the calculators without a saved game still ask for their inputs -----------------------------

def test_the_calculators_still_need_their_inputs(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["upkeep", "--hand", "3"], ["bid", "--players", "Ann,Bob"], ["last-round"],
                 ["sell", "--planet", "Halcyon"], ["score"]):
        with pytest.raises(SystemExit) as info:
            main(["play", "outer-earth", *args])
        assert info.value.code == 2
        assert " is needed (or use the saved game" in capsys.readouterr().err
    # without a calculator's own option, it is the saved game's move
    with pytest.raises(SystemExit) as info:
        main(["play", "outer-earth", "bid", "--green", "Ann"])
    assert info.value.code == 2 and "no Outer Earth game yet" in capsys.readouterr().err


def test_no_saved_game_yet_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["play", "outer-earth", "actions", "--save"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "no Outer Earth game yet" in err


# --- the pure fold -------------------------------------------------------------------------------

def test_the_fold_and_its_builders_without_the_cli() -> None:
    setup = saved.new_game(["Ann", "Bob"], "normal", RULES, "Ann", seed=5)
    log = [session.Event(1, "setup", setup, "t")]
    state0 = saved.fold(log)
    typed0 = state_from_json(state0)     # the builders take the typed State
    _, data = saved.bid_event(typed0, "Halcyon", ["Ann"])
    assert data is not None and data["buyer"] == "Ann"
    log.append(session.Event(2, "bid", data, "t"))
    state1 = saved.fold(log)
    assert state1["market"]["planets"] == 2
    assert state0["market"]["planets"] == 3 == typed0.market.planets   # never touched
    with pytest.raises(InputError, match="no company"):
        saved.draw_event(state_from_json(state1), "Zed", 2, RULES)
    with pytest.raises(RuleError, match="Outer Earth is for"):
        saved.new_game(["Ann"], "normal", RULES)
    assert session.describe_of("outer-earth", state1).startswith("Outer Earth, 2 companies")


# --- the table's mistakes: numbers a round cannot produce -----------------------------------------

def test_a_turn_draws_builds_and_sells_in_at_most_three_actions(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Company Actions: one turn of 3 actions a round; an action draws (builds, sells) the
    # company's draw (build, sell) value: 2, 2 and 1 at the start
    oe_("new", "--players", "Ann,Bob", "--short", "--starting-player", "Ann")
    oe_("bid", "--save", "--planet", "Halcyon", "--green", "Bob")
    oe_("bid", "--save", "--planet", "Tidewell", "--green", "Ann")        # Ann starts Phase 2
    nobody_bids("Meridian")
    assert "drawing 99 development cards (a draw value of 2) takes 50: 50 actions" in refused(
        ["outer-earth", "draw", "Ann", "99"], capsys)
    assert "at least 1" in refused(["outer-earth", "draw", "Ann", "0"], capsys)
    oe_("draw", "Ann", "4")                              # two actions
    assert "takes 4: 4 actions" in refused(["outer-earth", "draw", "Ann", "3"],
                                           capsys)
    assert js("draw", "Ann", "2")["hand"] == 10          # the third
    assert "building 1 (a build value of 2) takes 1: 4 actions" in refused(
        ["outer-earth", "build", "Ann", "blue", "--planet", "Tidewell"], capsys)
    # Bob: a draw action and two build actions spend his turn; a sale would be a fourth
    oe_("draw", "Bob", "2")
    oe_("build", "Bob", "blue,red,yellow,yellow", "--planet", "Halcyon")
    assert "selling 1 planets (a sell value of 1) takes 1: 4 actions" in refused(
        ["outer-earth", "sell", "Bob", "--save", "--planet", "Halcyon"], capsys)
    # a new round is a new turn
    oe_("upkeep", "--save")
    oe_("round")
    nobody_bids("Meridian", "Solace", "Ferrox")
    assert js("draw", "Ann", "6")["hand"] == 16


def test_each_planet_of_the_market_is_offered_once_in_phase_1(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Phase 1: the market's planets are put up for sale one after the other (3 in a
    # 2-player game); Phase 2 follows
    oe_("new", "--players", "Ann,Bob", "--short", "--starting-player", "Ann")
    oe_("bid", "--save", "--planet", "Meridian")                 # nobody: a card under it
    assert "offered once a round" in refused(
        ["outer-earth", "bid", "--save", "--planet", "Meridian", "--green", "Ann"], capsys)
    oe_("bid", "--save", "--planet", "Halcyon", "--green", "Bob")
    oe_("bid", "--save", "--planet", "Tidewell", "--green", "Ann")        # Ann starts Phase 2
    assert "every planet of the market has been put up for sale" in refused(
        ["outer-earth", "bid", "--save", "--planet", "Ferrox", "--green", "Ann"], capsys)
    oe_("draw", "Ann")
    oe_("done", "Bob")
    oe_("upkeep", "--save")
    oe_("round")
    # round 2: the market holds Meridian and two new planets; Phase 2 comes after the last
    # of them was put up for sale
    oe_("bid", "--save", "--planet", "Meridian", "--green", "Bob")
    assert "is in Phase 1, 2 planet(s) of the market not yet put up for sale" in refused(
        ["outer-earth", "draw", "Bob"], capsys)
    assert "upkeep comes once Phase 1 is over" in refused(
        ["outer-earth", "upkeep", "--save"], capsys)
    nobody_bids("Ferrox", "Solace")
    oe_("draw", "Bob")
    assert "every planet of the market has been put up for sale" in refused(
        ["outer-earth", "bid", "--save", "--planet", "Obelisk", "--green", "Ann"], capsys)


# --- Phase 2: the companies' turns, clockwise from the starting player ---------------------------

def test_only_the_company_whose_turn_it_is_draws_builds_or_sells(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Company Actions: "In clockwise order starting with the company that is the starting
    player, each company takes 3 consecutive actions points during their turn." A draw (a
    build, a sale) by another company is refused with that rule, and the games file is left
    byte for byte as it was."""
    import os
    from pathlib import Path

    db = Path(os.environ["IRATA_DB"])
    oe_("new", "--players", "Ann,Bob,Cid", "--starting-player", "Bob")
    oe_("bid", "--save", "--planet", "Halcyon", "--green", "Cid")
    oe_("bid", "--save", "--planet", "Ferrox", "--green", "Ann")     # Ann: starting player
    nobody_bids("Meridian", "Solace")
    seats = "clockwise from the starting player (Ann, Bob, Cid)"
    before = db.read_bytes()
    err = refused(["outer-earth", "draw", "Bob"], capsys)
    assert err == (f"error: it is Ann's turn, the starting player's: in Phase 2 each company "
                   f"takes its 3 actions in one turn, {seats}, so Bob acts after Ann\n")
    assert "it is Ann's turn" in refused(
        ["outer-earth", "build", "Cid", "blue", "--planet", "Halcyon"], capsys)
    assert db.read_bytes() == before
    oe_("draw", "Ann")
    oe_("build", "Ann", "red", "--planet", "Ferrox")    # Ann goes on with her turn
    nxt = js("next")["next"]
    assert "Ann's turn of 3 actions (draw, build, sell), then done" in nxt["text"]
    assert (nxt["who"], nxt["steps"]) == ("Ann", ["draw", "build", "sell", "done"])
    assert "draw|build|sell|done Ann" in nxt["command"]
    # Cid comes after Bob: he may not jump the queue
    err = refused(["outer-earth", "build", "Cid", "blue", "--planet", "Halcyon"],
                  capsys)
    assert err == (f"error: it is Ann's turn, then Bob's: in Phase 2 each company takes its 3 "
                   f"actions in one turn, {seats}, so Cid acts after Bob\n")
    oe_("draw", "Bob")                                   # Bob's turn begins
    before = db.read_bytes()
    err = refused(["outer-earth", "draw", "Ann"], capsys)
    assert err == (f"error: Ann's turn this round is over: in Phase 2 each company takes its 3 "
                   f"actions in one turn, {seats}, and Bob is taking its turn now\n")
    assert "Ann's turn this round is over" in refused(
        ["outer-earth", "sell", "Ann", "--save", "--planet", "Ferrox"], capsys)
    assert db.read_bytes() == before
    oe_("build", "Cid", "blue", "--planet", "Halcyon")
    assert js("next")["next"]["who"] == "Cid"
    assert "Bob's turn this round is over" in refused(
        ["outer-earth", "draw", "Bob"], capsys)
    # the next round's turns begin again from the starting player
    oe_("upkeep", "--save")
    oe_("round")
    nobody_bids("Meridian", "Solace", "Tidewell", "Obelisk")
    assert "it is Ann's turn" in refused(["outer-earth", "draw", "Cid"], capsys)
    assert js("draw", "Ann")["player"] == "Ann"


def test_the_turn_order_as_a_rule() -> None:
    from companion.outer_earth.rules import company_turn_refusal

    seats = ["Ann", "Bob", "Cid", "Dee"]
    assert company_turn_refusal(seats, "Cid", [], "Cid") is None
    assert company_turn_refusal(seats, "Cid", ["Cid"], "Cid") is None
    assert company_turn_refusal(seats, "Cid", ["Cid"], "Dee") is None
    assert company_turn_refusal(seats, "Cid", ["Cid", "Dee"], "Ann") is None
    assert "it is Cid's turn, the starting player's" in str(
        company_turn_refusal(seats, "Cid", [], "Ann"))
    assert "Cid's turn this round is over" in str(
        company_turn_refusal(seats, "Cid", ["Cid", "Dee"], "Cid"))
    assert "it is Dee's turn, then Ann's" in str(
        company_turn_refusal(seats, "Cid", ["Cid", "Dee"], "Bob"))
