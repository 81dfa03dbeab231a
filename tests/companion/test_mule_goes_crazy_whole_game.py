"""A whole game of Mule Goes Crazy! played to its final score through saved commands, as a table
of three types it: two turns (the Draw pile runs out in each, so the game ends after the
second), with a Land Grant, Land Auctions, Mules bought and moved, an Upgrade in production,
Interrupts, Events (one stopped by a Mule Kick), Population cards, a Facility's Build cost,
Resource Auctions with sales, purchases and a deal, and the end.

Every number is worked out by hand in the comments, from the draft's rules and the project's
(``components/mule_goes_crazy/data.yaml``, the cards' data).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from irata.cli import cli

MGC = "mule-goes-crazy"


@pytest.fixture(autouse=True)
def _db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IRATA_DB", str(tmp_path / "games.sqlite3"))


def mgc(*args: str) -> Any:
    result = CliRunner().invoke(cli, ["play", MGC, *args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, (args, result.output)
    return json.loads(result.output)


def state() -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["play", "status", "--json"], catch_exceptions=False)
    return json.loads(result.output)["state"]  # type: ignore[no-any-return]


def sheets() -> dict[str, tuple[int, int, int, int, int]]:
    """Each player's Credits, Energy, Food, Smithore, Crystite."""
    return {n: (p["credits"], p["energy"], p["food"], p["smithore"], p["crystite"])
            for n, p in state()["players"].items()}


def ran_itself(kind: str) -> dict[str, Any]:
    """The data of the last ``kind`` event, a step with nothing to decide that ran itself."""
    result = CliRunner().invoke(cli, ["play", "log", "--json"], catch_exceptions=False)
    event = [e for e in json.loads(result.output) if e["kind"] == kind][-1]
    assert event["data"]["auto"]["move"] == kind and event["data"]["auto"]["why"], event
    return event["data"]  # type: ignore[no-any-return]


def store() -> tuple[int, int, int, int]:
    s = state()["store"]
    return s["food"], s["energy"], s["smithore"], s["crystite"]


def test_a_whole_game_to_its_final_score() -> None:
    # Setup: 1000 Credits, 10 Energy, 5 Food each; the Store 50 Food, 50 Energy; last prices
    # Smithore 50, Crystite 100, Food 30, Energy 25. Ann is the first favored player.
    mgc("new", "--players", "Ann,Bob,Cid", "--favored", "Ann", "--seed", "1")

    # === Turn 1 ===
    assert mgc("favored")["favored"] == "Ann"
    mgc("grant", "Ann", "river-bottom")
    mgc("grant", "Bob", "sunny-flats")
    mgc("grant", "Cid", "none")                          # Cid holds no Land card
    # first opening bid 200; Cid pays 250: Cid 750; the next opens at 250 - 50 = 200
    assert mgc("auction", "foothills", "--winner", "Cid", "--price", "250")[
        "next_opening_bid"] == 200
    # nobody bids: the auctions are over; the next opens at 200 - 200 = 0
    assert mgc("auction", "grassy-plains", "--unsold")["next_opening_bid"] == 0

    # Player Turns from the favored player's left: Bob, Cid, Ann
    assert mgc("next")["next"]["who"] == "Bob"
    # the Store began the turn without Smithore: the price in brackets, 200: Bob 800
    assert mgc("buy", "Bob", "energy")["price"] == 200
    mgc("move", "Bob", "energy", "sunny-flats")          # 5 Food: Bob's Food 0
    mgc("upgrade", "Bob", "solar-panels", "--on", "sunny-flats")   # 200 Credits: Bob 600
    # Bob's Event (Space Pests on Ann) is stopped by Ann's Mule Kick: Ann pays 100, 900
    mgc("event", "Bob", "pests", "--target", "Ann", "--kick", "Ann")
    mgc("done", "Bob")
    # Supply Ship: Cid pays 100 (650); the Store gains 20 Food and 20 Energy: 70, 70
    mgc("event", "Cid", "supply-ship")
    assert store() == (70, 70, 0, 0)
    assert mgc("buy", "Cid", "smithore")["price"] == 300       # short: Cid 350
    mgc("move", "Cid", "smithore", "foothills")          # Cid's Food 0
    mgc("done", "Cid")
    # Wampus Bounty, any time: Ann pays 50, the Store pays her 300: 900 - 50 + 300 = 1150
    mgc("interrupt", "Ann", "wampus-bounty")
    mgc("buy", "Ann", "food")                            # 200: Ann 950
    mgc("move", "Ann", "food", "river-bottom")           # Ann's Food 0
    mgc("population", "colonists", "--player", "Ann")    # Ann's Event of the turn
    mgc("done", "Ann")
    assert sheets() == {"Ann": (950, 10, 0, 0, 0), "Bob": (600, 10, 0, 0, 0),
                        "Cid": (350, 10, 0, 0, 0)}

    # Production. Bob: Energy Use 5 (10 - 5 = 5); Sunny Flats' 3 Energy dice + 1 for Solar
    # Panels: 3+4+5+6 = 18, Energy 23. Cid: Energy Use 6 (4 left); Foothills' 2 Smithore
    # dice 2+5 = 7. Ann: Energy Use 3 (7 left); River Bottom's 3 Food dice 4+3+3 = 10.
    assert mgc("produce", "--player", "Bob", "--rolls", "3,4,5,6")["players"]["Bob"][
        "produced"]["energy"] == 18
    mgc("produce", "--player", "Cid", "--rolls", "2,5")
    out = mgc("produce", "--player", "Ann", "--rolls", "4,3,3")
    # Spoilage and the upkeep have nothing to decide: they ran themselves after it
    assert [r["step"] for r in out["ran_itself"]] == ["spoilage", "upkeep"]
    # Spoilage: Ann's 10 Food is not over 10; Bob's 23 Energy is over 20: halved, 11
    assert ran_itself("spoilage")["players"]["Bob"] == {"food_lost": 0, "energy_lost": 12}
    # the table typing it out of habit changes nothing
    assert mgc("spoilage")["notes"] == ["'spoilage' ran itself already: nothing more to "
                                        "record"]
    # upkeep: the Colonists eat 20 Food and use 10 Energy of the Store: 50, 60
    assert ran_itself("upkeep")["population"] == 100
    assert store() == (50, 60, 0, 0)
    assert sheets() == {"Ann": (950, 7, 10, 0, 0), "Bob": (600, 11, 0, 0, 0),
                        "Cid": (350, 4, 0, 7, 0)}

    # Resource Auctions. Smithore at 50: Cid sells 5 (+250: 600); the Store bought more than
    # it sold, so the price falls 10, to 40.
    assert mgc("trade", "smithore", "--sell", "Cid=5")["next"]["who"] == "crystite"
    # nobody trades Crystite. Food at 30: Ann sells 10 (+300: 1250); the price falls to 20.
    mgc("trade", "food", "--sell", "Ann=10")
    # Energy at 25, the Store selling at 25 + 15 = 40: Ann buys 3 (-120: 1130); Bob sells
    # Cid 4 at 20 (Bob +80: 680, Energy 7; Cid -80: 520, Energy 8). The Store sold more than
    # it bought: the price rises to 35.
    mgc("trade", "energy", "--buy", "Ann=3", "--deal", "Bob>Cid 4@20")
    assert store() == (60, 57, 5, 0)
    assert state()["prices"] == {"smithore": 40, "crystite": 100, "food": 20, "energy": 35}
    mgc("reshuffle")                                     # the Draw pile runs out: once
    end = mgc("end-turn")
    assert end["turn"] == 2 and [r["step"] for r in end["ran_itself"]] == ["favored"]
    assert sheets() == {"Ann": (1130, 10, 0, 0, 0), "Bob": (680, 7, 0, 0, 0),
                        "Cid": (520, 8, 0, 2, 0)}

    # === Turn 2 ===
    assert ran_itself("favored")["favored"] == "Cid"     # the fewest Credits, 520
    # the last auction had no bid: it opens at 0; Ann pays 100 (1030); the next opens at 50
    assert mgc("auction", "crystal-crater", "--winner", "Ann", "--price", "100")[
        "next_opening_bid"] == 50
    mgc("auction", "none")          # a card that is not a Land: the auctions are over
    # Lose Money Gambling, any time: Bob pays Cid 100: Bob 580, Cid 620
    mgc("interrupt", "Cid", "lose-money-gambling", "--target", "Bob")
    # Player Turns from Cid's left: Ann, Bob, Cid; each plays their Event card
    mgc("population", "colonists", "--player", "Ann")
    mgc("done", "Ann")
    mgc("population", "colonists", "--player", "Bob")
    mgc("done", "Bob")
    mgc("facility", "Cid", "mining-outpost")             # built over 3 turns, 150 a turn
    mgc("done", "Cid")
    # Production. Ann: 10 - 3 = 7 Energy; 6+6+6 = 18 Food. Bob: 7 - 5 = 2 Energy; 1+1+1+1
    # = 4, Energy 6. Cid: 8 - 6 = 2 Energy; 3+3 = 6 Smithore, 8.
    mgc("produce", "--player", "Ann", "--rolls", "6,6,6")
    mgc("produce", "--player", "Bob", "--rolls", "1,1,1,1")
    mgc("produce", "--player", "Cid", "--rolls", "3,3")
    assert ran_itself("spoilage")["players"]["Ann"]["food_lost"] == 5   # 18 Food: 13
    # upkeep: three Colonists, 60 Food and 30 Energy of the Store's 60 and 57: 0 and 27;
    # the colony holds 300 people. Cid pays the Mining Outpost's 150 (470), 1 turn of 3.
    up = ran_itself("upkeep")
    assert (up["population"], up["discarded"]) == (300, [])
    assert [p["card"] for p in state()["populations"]] == ["colonists"] * 3
    assert up["builds"] == [{"facility": "mining-outpost", "player": "Cid",
                             "cost": {"credits": 150}, "built": False}]
    assert store() == (0, 27, 5, 0)
    # Smithore at 40: Cid sells 8 (+320: 790); the price falls to 30. Food at 20: Ann sells
    # 13 (+260: 1290); the price falls to 10, its floor.
    mgc("trade", "smithore", "--sell", "Cid=8")
    mgc("trade", "food", "--sell", "Ann=13")
    mgc("reshuffle")                                     # twice: this turn is the last
    assert mgc("next")["next"]["steps"] == ["trade", "end-turn"]     # nobody trades Energy
    end = mgc("end-turn")

    # The final score at the last prices (Smithore 30, Crystite 100, Food 10, Energy 35):
    # Ann: 1290 + 7 Energy x 35 = 245 + 2 Lands x 300 + 1 Mule x 100 = 2235
    # Bob:  580 + 6 x 35 = 210 + 1 Land 300 + 1 Mule 100 = 1190
    # Cid:  790 + 2 x 35 = 70 + 1 Land 300 + 1 Mule 100 = 1260
    # The colony holds 300 people, not fewer: it did not fail, and Ann wins.
    score = end["score"]
    assert score["worth"] == {"Ann": 2235, "Bob": 1190, "Cid": 1260}
    assert score["parts"]["Ann"] == {"credits": 1290, "resources": 245, "lands": 600,
                                     "mules": 100}
    assert (score["people"], score["winners"], score["failed"]) == (300, ["Ann"], False)
    assert mgc("next")["next"] is None
    text = CliRunner().invoke(cli, ["play", "status"]).output
    assert "The game is over: Ann 2235, Bob 1190, Cid 1260; winner Ann" in text
    assert "This copy's rules where the draft stops" in text
