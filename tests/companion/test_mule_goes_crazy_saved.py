"""Mule Goes Crazy! as a saved game: a whole turn typed at the table, every number checked after
each step; undo and set; refused steps that save nothing; repeatable seeded production."""

from __future__ import annotations

import csv
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from irata.cli import cli, main

ROOT = Path(__file__).resolve().parents[2]
MGC = "mule-goes-crazy"


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, ["play", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def js(*args: str) -> Any:
    return json.loads(run(*args, "--json"))


def mgc(*args: str) -> Any:
    return js(MGC, *args)


def state() -> dict[str, Any]:
    return js("status")["state"]  # type: ignore[no-any-return]


def events() -> list[str]:
    return [e["kind"] for e in js("log")]


def sheet(name: str) -> dict[str, int]:
    p = state()["players"][name]
    return {k: p[k] for k in ("credits", "energy", "food", "smithore", "crystite")}


def ran_itself(kind: str) -> dict[str, Any]:
    """The data of the last ``kind`` event, a step with nothing to decide that ran itself."""
    event = [e for e in js("log") if e["kind"] == kind][-1]
    assert event["data"]["auto"]["move"] == kind and event["data"]["auto"]["why"], event
    return event["data"]  # type: ignore[no-any-return]


def exit_of(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with pytest.raises(SystemExit) as info:
        main(["play", *args])
    return int(info.value.code or 0), capsys.readouterr().err


def end_turn() -> Any:
    """The Production Phase of the turn (production, spoilage, upkeep), then 'end-turn'."""
    mgc("produce", "--save")
    mgc("spoilage", "--save")
    if state()["populations"]:
        mgc("upkeep", "--save")
    return mgc("end-turn")


def start(seed: int = 7) -> dict[str, Any]:
    return mgc("new", "--players", "Ann,Bob,Cid", "--seed", str(seed))  # type: ignore


# --- a whole turn ---------------------------------------------------------------------------

def test_a_full_turn_played_with_typed_results() -> None:
    new = start()
    s = new["state"]
    # Setup: 1000 Credits, 10 Energy and 5 Food each; the Store 50 Energy and 50 Food
    assert s["seating"] == ["Ann", "Bob", "Cid"]
    for name in ("Ann", "Bob", "Cid"):
        assert s["players"][name] == {"credits": 1000, "energy": 10, "food": 5, "smithore": 0,
                                      "crystite": 0, "lands": [], "mules": []}
    assert s["store"] == {"food": 50, "energy": 50, "smithore": 0, "crystite": 0}
    assert s["prices"] == {"smithore": 50, "crystite": 100, "food": 30, "energy": 25}
    assert (s["turn"], s["favored"], s["opening_bid"], s["auctions"]) == (1, None, 200, [])

    # Land Grant Phase: one Land each, by card name as the table types it
    mgc("grant", "Ann", "Sunny Flats")
    mgc("grant", "Bob", "river-bottom")
    assert state()["players"]["Ann"]["lands"] == ["sunny-flats"]
    assert state()["players"]["Bob"]["lands"] == ["river-bottom"]

    # Favored Player: everybody has 1000 Credits; the tie goes to the first seat
    assert mgc("favored", "--save")["favored"] == "Ann"
    assert state()["favored"] == "Ann"

    # Land Auctions: the first opens at 200; Cid wins Foothills for 250 (typed as a sum)
    assert mgc("opening-bid", "--save")["opening_bid"] == 200
    out = mgc("auction", "foothills", "--winner", "Cid", "--price", "200+50")
    assert (out["opening"], out["closing"], out["next_opening_bid"]) == (200, 250, 200)
    assert sheet("Cid")["credits"] == 750 and state()["players"]["Cid"]["lands"] == ["foothills"]
    # after a sale: the closing bid minus 50
    assert mgc("opening-bid", "--save")["opening_bid"] == 200
    mgc("auction", "Grassy Plains", "--winner", "Ann", "--price", "200")
    assert sheet("Ann")["credits"] == 800
    assert mgc("opening-bid", "--save")["opening_bid"] == 150
    assert run(MGC, "opening-bid", "--save").startswith(
        "Opening bid: 150 Credits (last closing bid 200 - 50")
    # nobody bids: the opening bid minus 200, never below 0
    mgc("auction", "high-mountains", "--unsold")
    assert mgc("opening-bid", "--save")["opening_bid"] == 0
    s = state()
    assert [(a["land"], a["opening"], a["closing"], a["winner"]) for a in s["auctions"]] == [
        ("foothills", 200, 250, "Cid"), ("grassy-plains", 200, 200, "Ann"),
        ("high-mountains", 150, None, None)]
    assert s["players"]["Ann"]["lands"] == ["sunny-flats", "grassy-plains"]

    # Mules: the Store began the turn without Smithore, so the price in brackets
    assert mgc("mule-price", "energy", "--save")["price"] == 200
    # the table corrects the Store (Smithore sold to it, say): the price drops to 100
    run("set", "store.smithore", "12")
    run("set", "store_at_turn_start.smithore", "12")
    assert mgc("mule-price", "energy", "--save")["price"] == 100
    # Player Turns, from the favored player's left: Bob, Cid, then Ann
    mgc("buy", "Bob", "Food Mule")
    assert sheet("Bob")["credits"] == 900 and state()["store"]["smithore"] == 7
    # Move Mules: 5 Food each, onto a Land of their own
    mgc("move", "Bob", "food", "River Bottom")
    # Population (an Event card of Bob's turn): its upkeep comes from the Store
    mgc("population", "colonists", "--player", "Bob")
    mgc("done", "Bob")
    mgc("buy", "Cid", "smithore")
    # the Smithore Mule costs 150 (Cid had 750 after Foothills)
    assert sheet("Cid")["credits"] == 600 and state()["store"]["smithore"] == 2
    mgc("move", "Cid", "smithore", "foothills")
    mgc("done", "Cid")
    bought = mgc("buy", "Ann", "energy")
    # the Store's Smithore stops at 0 (it had 2 of the 5)
    assert (bought["price"], bought["credits"], bought["store"]["smithore"]) == (100, 700, 0)
    # ...and the shortage raises the price only from the next turn on
    assert mgc("mule-price", "energy", "--save")["price"] == 100
    assert state()["players"]["Ann"]["mules"] == [{"mule": "energy", "land": None,
                                                 "upgrade": None}]
    mgc("move", "Ann", "energy", "sunny-flats")
    assert [sheet(n)["food"] for n in ("Ann", "Bob", "Cid")] == [0, 0, 0]
    assert state()["players"]["Cid"]["mules"] == [{"mule": "smithore", "land": "foothills",
                                                 "upgrade": None}]

    # Production: Ann's Energy Mule uses 5 and rolls Sunny Flats' 3 Energy dice
    out = mgc("produce", "--save", "--player", "Ann", "--rolls", "6,6,6")
    assert out["players"]["Ann"]["energy_used"] == 5
    assert out["players"]["Ann"]["produced"]["energy"] == 18
    assert sheet("Ann") == {"credits": 700, "energy": 23, "food": 0, "smithore": 0,
                            "crystite": 0}
    # Bob's Food Mule uses 3 and rolls River Bottom's 3 Food dice
    mgc("produce", "--save", "--player", "Bob", "--rolls", "3+0,3,6")
    assert sheet("Bob") == {"credits": 900, "energy": 7, "food": 12, "smithore": 0,
                            "crystite": 0}
    # Cid has 4 Energy: his Smithore Mule (Energy Use 6) is under-powered, its 2 dice are 1s
    run("set", "players.Cid.energy", "4")
    out = mgc("produce", "--save")          # everybody left: Cid
    assert list(out["players"]) == ["Cid"]
    # then Spoilage and the upkeep, which have nothing to decide, ran themselves
    assert [r["step"] for r in out["ran_itself"]] == ["spoilage", "upkeep"]
    assert out["players"]["Cid"]["underpowered"] == ["Smithore Mule on Foothills"]
    assert out["players"]["Cid"]["plots"][0]["rolls"] == [1, 1]
    assert sheet("Cid") == {"credits": 600, "energy": 4, "food": 0, "smithore": 2,
                            "crystite": 0}
    assert state()["this_turn"]["produced"] == ["Ann", "Bob", "Cid"]

    # Spoilage: Bob's 12 Food loses 5; Ann's 23 Energy is halved (rounding down)
    spoiled = ran_itself("spoilage")["players"]
    assert spoiled["Ann"] == {"food_lost": 0, "energy_lost": 12}
    assert spoiled["Bob"] == {"food_lost": 5, "energy_lost": 0}
    assert [sheet(n)["energy"] for n in ("Ann", "Bob", "Cid")] == [11, 7, 4]
    assert [sheet(n)["food"] for n in ("Ann", "Bob", "Cid")] == [0, 7, 0]

    # Population upkeep: 20 Food and 10 Energy from the Store
    up = ran_itself("upkeep")
    assert up["population"] == 100 and up["discarded"] == []
    assert state()["populations"] == [{"card": "colonists", "facility": None}]
    assert state()["store"] == {"food": 30, "energy": 40, "smithore": 0, "crystite": 0}

    # the next turn: the Store began it without Smithore, so Mules cost the price in brackets
    assert mgc("end-turn")["turn"] == 2
    s = state()
    assert s["store_at_turn_start"] == {"food": 30, "energy": 40, "smithore": 0, "crystite": 0}
    # the Favored Player ran itself as the turn began
    assert s["this_turn"] == {"produced": [], "spoilage": False, "upkeep": False,
                              "favored": True, "played": False, "auctions_over": False,
                              "acted": [], "done": [], "events": [], "dice": {},
                              "traded": []}
    assert mgc("mule-price", "energy", "--save")["price"] == 200
    # the fewest Credits: Cid (600) against Ann's 700 and Bob's 900
    assert (ran_itself("favored")["favored"], ran_itself("favored")["credits"]) == ("Cid", 600)
    assert mgc("favored", "--save")["notes"] == ["'favored' ran itself already: nothing more "
                                                 "to record"]
    assert events() == ["setup", "grant", "grant", "favored", "auction", "auction", "auction",
                        "set", "set", "buy", "move", "population", "done", "buy", "move",
                        "done", "buy", "move", "produce", "produce", "set", "produce",
                        "spoilage", "upkeep", "end-turn", "favored"]
    text = run("status")
    assert "Mule Goes Crazy!, turn 2" in text and "Favored player: Cid" in text
    assert "Energy Mule on Sunny Flats" in text


def test_the_store_that_cannot_pay_discards_the_population() -> None:
    start()
    run("set", "store.food", "40")
    mgc("population", "miners")                       # 30 Food, 15 Energy
    mgc("population", "colonists")                    # 20 Food, 10 Energy: only 10 Food left
    out = mgc("upkeep", "--save")
    assert out["kept"] == ["miners"] and out["discarded"] == ["colonists"]
    assert out["population"] == 150
    assert state()["store"]["food"] == 10 and state()["store"]["energy"] == 35
    assert state()["populations"] == [{"card": "miners", "facility": None}]


def test_a_mule_moves_to_another_land_for_its_move_cost_again() -> None:
    start()
    mgc("grant", "Ann", "sunny-flats")
    mgc("auction", "grassy-plains", "--winner", "Ann", "--price", "200")
    mgc("buy", "Ann", "energy")
    run("set", "players.Ann.food", "10")
    mgc("move", "Ann", "energy", "sunny-flats")
    mgc("move", "Ann", "energy", "grassy-plains", "--from", "sunny-flats")
    assert state()["players"]["Ann"]["mules"] == [{"mule": "energy", "land": "grassy-plains",
                                                 "upgrade": None}]
    assert sheet("Ann")["food"] == 0


# --- undo and set ---------------------------------------------------------------------------

def test_undo_takes_back_one_step_at_a_time() -> None:
    start()
    before = state()
    mgc("buy", "Ann", "crystite")
    assert sheet("Ann")["credits"] == 800
    end_turn()
    assert state()["turn"] == 2
    run("undo")
    assert state()["turn"] == 1 and sheet("Ann")["credits"] == 800
    for _ in range(3):                               # spoilage, production, the purchase
        run("undo")
    assert state() == before
    assert "nothing to undo" in run("undo")


def test_set_corrects_any_number_and_the_next_steps_read_it() -> None:
    start()
    run("set", "players.Bob.credits", "250")
    assert sheet("Bob")["credits"] == 250
    assert mgc("favored", "--save")["favored"] == "Bob"
    run("set", "opening_bid", "150")
    assert mgc("opening-bid", "--save")["opening_bid"] == 150
    mgc("auction", "foothills", "--winner", "Bob", "--price", "150")
    assert sheet("Bob")["credits"] == 100
    assert mgc("opening-bid", "--save")["opening_bid"] == 100
    run("undo")
    assert sheet("Bob")["credits"] == 250 and state()["opening_bid"] == 150


# --- refused steps --------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    ([MGC, "auction", "foothills", "--winner", "Zed", "--price", "300"], "no player 'Zed'"),
    ([MGC, "auction", "foothills", "--winner", "Ann", "--price", "150"],
     "at least the opening bid of 200"),
    ([MGC, "auction", "foothills", "--winner", "Ann", "--price", "1200"],
     "Ann has 1000 Credits and cannot bid 1200"),
    ([MGC, "auction", "foothills", "--winner", "Ann", "--price", "-5"], "0 or more"),
    ([MGC, "auction", "volcano", "--winner", "Ann", "--price", "300"], "no land card"),
    ([MGC, "auction", "foothills", "--unsold", "--price", "300"], "--unsold"),
    ([MGC, "buy", "Zed", "energy"], "no player 'Zed'"),
    ([MGC, "buy", "Ann", "donkey"], "no mule card 'donkey'"),
    ([MGC, "move", "Ann", "energy", "foothills"], "holds no Foothills"),
    ([MGC, "grant", "Zed", "foothills"], "no player 'Zed'"),
    ([MGC, "produce", "--save", "--player", "Zed"], "no player 'Zed'"),
    ([MGC, "produce", "--save", "--rolls", "1,2"], "--player"),
    ([MGC, "produce", "--save", "--player", "Ann", "--rolls", "-1"], "0 or more"),
    ([MGC, "favored", "--save", "--credits", "Ann=5"], "is for the calculator"),
    ([MGC, "spoilage", "--game", "1", "--food", "3"], "is for the calculator"),
    ([MGC, "favored", "--previous", "Ann"], "--credits is needed"),
    (["set", "players.Zed.credits", "5"], "no 'Zed'"),
    (["set", "players.Ann.credits", "--", "-5"], "negative"),
])
def test_a_refused_step_is_one_line_exit_2_and_saves_nothing(
        args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    start()
    before = js("log")
    code, err = exit_of(args, capsys)
    assert code == 2
    assert err.startswith("error: ") and message in err, err
    assert len(err.strip().splitlines()) == 1
    assert js("log") == before


def test_steps_taken_once_a_turn_are_refused_the_second_time(
        capsys: pytest.CaptureFixture[str]) -> None:
    start()
    mgc("auction", "foothills", "--unsold")
    mgc("produce", "--save")
    mgc("spoilage", "--save")
    mgc("upkeep", "--save")
    n = len(events())
    for args, message in (([MGC, "produce", "--save"], "every player has produced"),
                          ([MGC, "produce", "--save", "--player", "Bob"], "already"),
                          ([MGC, "spoilage", "--save"], "already"),
                          ([MGC, "upkeep", "--save"], "already"),
                          ([MGC, "grant", "Ann", "foothills"], "before the first Land Auction")):
        code, err = exit_of(args, capsys)
        assert code == 2 and message in err, err
    assert len(events()) == n


def test_a_game_of_another_companion_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    run("mutagen", "new", "--players", "Ann,Bob")
    code, err = exit_of([MGC, "favored", "--game", "1"], capsys)
    assert code == 2 and "not Mule Goes Crazy!" in err
    code, err = exit_of([MGC, "favored", "--save"], capsys)
    assert code == 2 and "no Mule Goes Crazy! game yet" in err


def test_new_checks_the_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert exit_of([MGC, "new", "--players", "Ann"], capsys)[1].count("2 to 5 players") == 1
    assert "same name" in exit_of([MGC, "new", "--players", "Ann,Ann"], capsys)[1]
    assert "--favored Zed" in exit_of([MGC, "new", "--players", "Ann,Bob", "--favored", "Zed"],
                                      capsys)[1]
    s = mgc("new", "--players", "Ann,Bob", "--favored", "Bob", "--name", "Friday")
    assert s["name"] == "Friday" and s["state"]["favored"] == "Bob"
    # the first turn's favored player is the table's choice; later, the fewest Credits
    assert mgc("favored", "--save")["favored"] == "Bob"
    run("set", "players.Ann.credits", "999")
    end_turn()           # the next turn's Favored Player runs itself: nothing to decide
    assert ran_itself("favored")["favored"] == "Ann"
    assert state()["favored"] == "Ann"


# --- seeded production ------------------------------------------------------------------------

def _seeded_turn(seed: int) -> dict[str, Any]:
    start(seed)
    mgc("grant", "Ann", "high-mountains")
    mgc("grant", "Bob", "crystal-crater")
    mgc("buy", "Ann", "smithore")
    mgc("move", "Ann", "smithore", "high-mountains")
    mgc("buy", "Bob", "crystite")
    run("set", "players.Bob.food", "5")
    mgc("move", "Bob", "crystite", "crystal-crater")
    run("set", "players.Bob.energy", "8")
    return mgc("produce", "--save")  # type: ignore[no-any-return]


def test_seeded_production_is_repeatable(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    one = _seeded_turn(11)
    rolls = one["players"]["Ann"]["plots"][0]["rolls"]
    assert len(rolls) == 3 and all(1 <= d <= 6 for d in rolls)      # High Mountains: 3 dice
    assert sheet("Ann")["smithore"] == sum(rolls)
    # undone and rolled again: the same dice
    run("undo")
    assert mgc("produce", "--save")["players"] == one["players"]
    # another games file, the same seed and steps: the same dice
    monkeypatch.setenv("IRATA_DB", str(tmp_path / "second.sqlite3"))
    again = _seeded_turn(11)
    assert again["players"] == one["players"]


# --- the session commands ---------------------------------------------------------------------

def test_export_and_a_fresh_process_find_the_game(tmp_path: Path) -> None:
    start()
    mgc("auction", "foothills", "--winner", "Cid", "--price", "300")
    target = tmp_path / "game.json"
    run("export", "--out", str(target))
    doc = json.loads(target.read_text())
    assert [e["kind"] for e in doc["events"]] == ["setup", "auction"]
    with target.with_suffix(".csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert {"credits", "energy", "food", "smithore", "crystite"} <= set(rows[0])
    cid = [r for r in rows if r["player"] == "Cid"]
    assert [(r["event"], r["turn"], r["credits"]) for r in cid] == [("1", "1", "1000"),
                                                                    ("2", "1", "700")]
    assert MGC in run("games")
    # a new process imports the companion on demand to fold the game
    env = {**os.environ, "IRATA_DB": os.environ["IRATA_DB"]}
    p = subprocess.run([str(ROOT / ".venv" / "bin" / "irata"), "play", "status", "--json"],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["state"]["players"]["Cid"]["credits"] == 700


def test_land_auctions_end_with_an_unsold_land_and_come_before_the_player_turns(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Land Auctions: "If no players bid on a Land, the Land Auction phase is over"; the
    # Player Turns and the Production Phase follow
    start()
    mgc("auction", "foothills", "--winner", "Ann", "--price", "200")
    mgc("auction", "sunny-flats", "--unsold")
    n = len(events())
    code, err = exit_of([MGC, "auction", "sunny-flats", "--winner", "Bob", "--price", "500"],
                        capsys)
    assert code == 2 and "ended when Sunny Flats got no bid" in err, err
    assert len(events()) == n
    end_turn()
    mgc("auction", "foothills", "--winner", "Bob", "--price", "200")   # a new turn's auctions
    mgc("produce", "--save")
    code, err = exit_of([MGC, "auction", "high-mountains", "--winner", "Cid", "--price", "500"],
                        capsys)
    assert code == 2 and "Player Turns of turn 2 have begun" in err, err


def test_a_card_comes_into_play_only_while_the_deck_has_a_copy_left(
        capsys: pytest.CaptureFixture[str]) -> None:
    # the deck prints River Bottom twice, three Food Mules, one Hydroponic Gardens
    start()
    mgc("grant", "Ann", "river-bottom")
    mgc("grant", "Bob", "river-bottom")
    code, err = exit_of([MGC, "grant", "Cid", "river-bottom"], capsys)
    assert code == 2 and "the deck has 2 River Bottom land cards and 2 are in play" in err, err
    code, err = exit_of([MGC, "auction", "river-bottom", "--winner", "Cid", "--price", "300"],
                        capsys)
    assert code == 2 and "2 are in play" in err, err
    mgc("facility", "Ann", "hydroponic-gardens")
    run("set", "facilities.0.built", "true")      # its Build cost paid (the project's rule)
    mgc("population", "colonists", "--facility", "hydroponic-gardens")
    code, err = exit_of([MGC, "population", "miners", "--facility", "hydroponic-gardens"],
                        capsys)
    assert code == 2 and "Hydroponic Gardens has a Population card" in err, err
    for buyer in ("Ann", "Ann", "Bob"):
        mgc("buy", buyer, "food")
    code, err = exit_of([MGC, "buy", "Cid", "food"], capsys)
    assert code == 2 and "the deck has 3 Food mule cards and 3 are in play" in err, err


def test_spoilage_follows_production_and_the_production_phase_ends_the_turn(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Production Phase: production, then spoilage (Food over 10 loses 5, Energy over 20 is
    # halved): spoiling before producing, or ending a turn without either, changes the numbers
    start()
    n = len(events())
    code, err = exit_of([MGC, "end-turn"], capsys)
    assert code == 2 and "has not had its production (Ann, Bob, Cid), spoilage" in err, err
    code, err = exit_of([MGC, "spoilage", "--save"], capsys)
    assert code == 2 and "Spoilage follows Production: Ann, Bob, Cid have not produced" in err
    mgc("produce", "--save", "--player", "Ann")
    code, err = exit_of([MGC, "spoilage", "--save"], capsys)
    assert code == 2 and "Bob, Cid have not produced" in err, err
    assert len(events()) == n + 1
    mgc("population", "colonists")
    # the last production: Spoilage and the upkeep run themselves after it, in that order
    assert [r["step"] for r in mgc("produce", "--save")["ran_itself"]] == ["spoilage",
                                                                            "upkeep"]
    assert events()[-3:] == ["produce", "spoilage", "upkeep"]
    assert mgc("end-turn")["turn"] == 2
