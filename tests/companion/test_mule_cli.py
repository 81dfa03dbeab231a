"""``irata play mule ...`` and ``irata play status|log|undo|set|export|games`` as a person
types them: JSON keys, sums, one-line errors with exit 2, and a scripted guided turn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.mule import data as mule_data
from irata.cli import cli, main


@pytest.fixture(autouse=True)
def _fixture_game(mule_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mule_data, "FOLDER", mule_folder)


def run(*args: str, input: str | None = None) -> Any:
    result = CliRunner().invoke(cli, ["play", *args], input=input, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def js(*args: str) -> Any:
    return json.loads(run(*args, "--json"))


def exit_of(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with pytest.raises(SystemExit) as info:
        main(["play", *args])
    return int(info.value.code or 0), capsys.readouterr().err


def test_spoilage_json_keys() -> None:
    out = js("mule", "spoilage", "--food", "1", "--energy", "9", "--smithore", "10+5",
             "--crystite", "7", "--mules", "6", "--energy-mules", "2")
    assert out == {"energy_used": 4, "shortage": 0,
                   "spoiled": {"smithore": 3, "crystite": 0, "food": 0, "energy": 1},
                   "stocks": {"smithore": 12, "crystite": 7, "food": 1, "energy": 4}}


def test_price_examples() -> None:
    assert js("mule", "price", "smithore", "--buy", "6", "--store-mules", "5",
              "--store-smithore", "0") == {"good": "smithore", "steps": 3, "moved": 3,
                                           "buy": 9, "sell": 11}
    assert js("mule", "price", "food", "--buy", "5", "--stocks", "1,2,3,7", "--store", "1") \
        == {"good": "food", "steps": 5, "moved": 2, "buy": 7, "sell": 9}
    assert js("mule", "price", "energy", "--buy", "2", "--stocks", "5,6,4,3", "--mules",
              "2,3,1,0", "--store", "5") == {"good": "energy", "steps": -5, "moved": -1,
                                             "buy": 1, "sell": 3}
    assert js("mule", "price", "crystite", "--buy", "9", "--card", "quiet-turn")["buy"] == 4
    assert js("mule", "price", "crystite", "--buy", "9", "--card", "Pirate Ship!")["moved"] == 0


def test_rank_colony_store_market_production() -> None:
    assert js("mule", "rank", "--money", "Mechtron=30,Packer=25,Spheroid=25,Leggite=8",
              "--previous", "Leggite,Spheroid,Mechtron,Packer")["ranking"] == \
        ["Mechtron", "Spheroid", "Packer", "Leggite"]
    assert js("mule", "colony", "--total", "1000+300", "--players",
              "Ann,Bob,Cid,Dee")["rating"] == 3
    assert js("mule", "store", "--mules", "10", "--smithore", "5", "--sold", "2") == \
        {"made": 4, "mules": 12, "smithore": 1}
    out = js("mule", "market", "--ranking", "Mechtron,Spheroid,Packer,Leggite", "--wants",
             "Leggite=1,Mechtron=1", "--store", "1", "--good", "food", "--buy", "5")
    assert out["bought"] == {"Leggite": 1, "Mechtron": 0} and out["cost"]["Leggite"] == 7
    out = js("mule", "production", "--card", "acid-rain-storm", "--board",
             "C1 C0 E3 / C1 C3 E3 / F3 F3! .", "--tournament")
    assert out["base"] == {"smithore": 0, "crystite": 5, "food": 5, "energy": 2}
    assert out["total"] == {"smithore": 0, "crystite": 9, "food": 5, "energy": 3}


def test_sellout() -> None:
    out = js("mule", "sellout", "--money", "A=30,B=10", "--smithore", "A=12", "--food", "B=3",
             "--prices", "smithore=9,crystite=4,food=7,energy=1", "--previous", "B,A")
    assert out["money"] == {"A": 138, "B": 31}
    assert out["ranking"] == ["A", "B"]


@pytest.mark.parametrize(("args", "message"), [
    (["mule", "price", "gold", "--buy", "3"], "unknown good 'gold'"),
    (["mule", "spoilage", "--food", "-1"], "--food must be 0 or more"),
    (["mule", "rank", "--money", "A=1,Zed=2", "--previous", "A,B"], "Zed not in the Ranking"),
    (["mule", "price", "energy", "--buy", "2", "--stocks", "1,2", "--mules", "1", "--store",
      "0"], "same order"),
    (["mule", "spoilage", "--food", "three"], "not a number"),
    (["mule", "price", "food", "--buy", "8", "--stocks", "1", "--store", "0"], "Price Track"),
    (["mule", "production", "--lands", "Q3"], "start with the Good"),
    # Money is never below $0 (a loss is carried out as far as possible)
    (["mule", "rank", "--money", "A=-5,B=3", "--previous", "A,B"], "must be 0 or more"),
    (["mule", "sellout", "--money", "A=-5,B=3", "--prices", "smithore=3"],
     "must be 0 or more"),
    (["mule", "production", "--lands", "F9"], "a Production Value is 0 to 3"),
    (["mule", "spoilage", "--energy", "6", "--mules", "20"], "at most 14"),   # one per Land
    (["mule", "market", "--ranking", "A,B", "--wants", "A=1", "--store", "3", "--price", "0"],
     "not a Sell Price on the Price Track"),
    (["mule", "market", "--ranking", "A,B", "--wants", "A=1", "--store", "3", "--price", "4",
      "--good", "smithore"], "smithore lane"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, err = exit_of(args, capsys)
    assert code == 2
    assert err.startswith("error: ") and message in err
    assert err.count("\n") == 1


# -- saved games ------------------------------------------------------------------------------

TURN_1 = "\n".join([
    # seed 7: the initial Ranking is Dee, Bob, Ann, Cid; the Production deck starts with Pirate
    # Ship!, the Lucky Event deck with Seeds from Home! (no Wampus), then Dance Night (Wampus)
    # 1. Expansion, Beginner: two Land Grants on Turn 1, lowest Rank first (Cid, Ann, Bob, Dee,
    # twice); a Colonist who can claim a Land has to (Questions and Answers), so each claims
    # two, by the tile and the Player Board's square
    "P08@B1", "P01@B1", "P02@B1", "P07@B1", "H01@A1", "L01@E1", "P13@D1", "P14@D1",
    # 2. Development: no Package From Home World!; then Action Rounds in Rank order (12
    # M.U.L.E.s in the Corral): Dee buys a M.U.L.E. for P07 (White Zone: 1 Food), Bob passes,
    # Ann hunts the Wampus twice (1 Food each), Cid passes; in Round 2 Dee and Ann pass
    "",
    "buy P07 E", "pass", "wampus, wampus", "pass",
    "pass", "pass",
    # 4. Production: every Land with a M.U.L.E. is known by its tile (the starting Rivers were
    # dealt at the set-up: Ann R01, Bob R02, Cid R03, Dee R04), so nothing is typed
    # 6. Market: nobody holds Smithore, so only The Store's sales are asked; nobody holds
    # Crystite and The Store sells none: its Auction runs itself; Food and Energy: sold,
    # bought, deals
    "",
    "", "", "",
    "", "", "",
    # 8. Personal Events (new Ranking: Ann, Bob, Cid, Dee): Ann gives the Lucky Event to Dee,
    # Dee the Unlucky Event to Ann
    "Dee", "Ann",
]) + "\n"


def test_new_turn_status_set_undo_export(tmp_path: Path) -> None:
    new = js("mule", "new", "--players", "Ann,Bob,Cid,Dee", "--seed", "7", "--deck")
    state = new["state"]
    ranking = state["ranking"]
    assert ranking == ["Dee", "Bob", "Ann", "Cid"]
    assert state["store"] == {"mules": 12, "smithore": 8, "food": 8, "energy": 8}
    assert state["prices"] == {"smithore": 3, "crystite": 4, "food": 1, "energy": 1}
    assert state["players"]["Ann"]["money"] == 30 and state["players"]["Ann"]["energy"] == 3
    assert len(state["production_deck"]) == 6     # Beginner: 5 dealt on a The Ship is Back!
    assert "ship-is-back" in state["production_deck"][-1]
    assert sorted(state["event_decks"]["lucky"]["draw"]) == [
        "lucky/dance-night", "lucky/kitchen-garden", "lucky/mining-bonus", "lucky/seed-crate"]

    out = run("mule", "turn", input=TURN_1)
    assert "Turn 1 saved" in out
    assert "Ann draws Seeds from Home!: no Wampus" in out
    assert "Ann draws First Prize at the Dance Night!: the Wampus! +$10" in out
    after = js("status")["state"]
    p = after["players"]["Dee"]
    assert after["turn"] == 2
    assert [(land["land"], land["tile"], land["mule"]) for land in p["lands"]] == [
        ("river", "R04", "food"), ("plains", "P07", "energy"), ("plains", "P14", None)]
    assert p["mules"] == {"smithore": 0, "crystite": 0, "food": 1, "energy": 1}
    assert p["money"] == 30 - 5                     # one M.U.L.E. at Smithore's $5
    assert after["ranking"] == ["Ann", "Bob", "Cid", "Dee"]
    # Ann: $10 from the Wampus, then Land Tax! ($3 for each of her three Lands: her River,
    # P01 and L01)
    assert after["players"]["Ann"]["money"] == 30 + 10 - 3 * 3
    assert "Dee: +1 food" in out                    # A Fine Kitchen Garden!, 1-4 Lands
    assert after["store"]["mules"] == 12 and after["store"]["smithore"] == 7
    assert after["production_drawn"] == ["production/pirate-ship"]
    lucky = after["event_decks"]["lucky"]
    assert lucky["discard"] == ["lucky/seed-crate", "lucky/dance-night", "lucky/kitchen-garden"]
    assert after["event_decks"]["unlucky"]["discard"] == ["unlucky/land-tax"]
    first = "Dee"

    run("set", f"players.{first}.food", "3+2")
    assert js("status")["state"]["players"][first]["food"] == 5
    kinds = [e["kind"] for e in js("log")]
    assert kinds[0] == "setup" and kinds[-1] == "set" and set(kinds[1:-1]) == {"step"}
    run("undo")
    assert js("status")["state"]["players"][first]["food"] == p["food"]
    run("undo")                       # one step: the Unlucky Event
    assert js("status")["state"]["todo"] == [["unlucky", "Dee"]]
    run("undo", "--turn")             # the rest of Turn 1
    undone = js("status")["state"]
    assert undone["turn"] == 1
    assert undone["event_decks"] == state["event_decks"]     # the draws are undone too
    assert "nothing to undo" in run("undo")

    target = tmp_path / "game.json"
    run("export", "--out", str(target))
    doc = json.loads(target.read_text())
    assert doc["events"][0]["kind"] == "setup"
    header = target.with_suffix(".csv").read_text().splitlines()[0].split(",")
    assert header[:3] == ["event", "turn", "player"]
    assert {"money", "food", "mules.food", "mules.energy"} <= set(header)  # nested flattened
    assert "mule" in run("games")


def test_session_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = exit_of(["status"], capsys)
    assert code == 2 and "no saved games" in err
    run("mule", "new", "--players", "Ann,Bob,Cid")
    code, err = exit_of(["set", "players.Zed.food", "3"], capsys)
    assert code == 2 and "no 'Zed'" in err
    code, err = exit_of(["set", "players.Ann.food", "--", "-3"], capsys)
    assert code == 2 and "negative" in err
    # a list position is checked, and so is what follows it
    code, err = exit_of(["set", "players.Ann.lands.5.mule", "food"], capsys)
    assert code == 2 and "no position 5" in err
    code, err = exit_of(["set", "players.Ann.lands.0.mul", "food"], capsys)
    assert code == 2 and "no 'mul'" in err and "mule" in err
    run("set", "players.Ann.lands.0.mule", "energy")
    # a value keeps its kind: text is refused where a number is kept, and the other way round
    code, err = exit_of(["set", "players.Ann.food", "plenty"], capsys)
    assert code == 2 and "'players.Ann.food' holds a number (4)" in err
    code, err = exit_of(["set", "players.Ann.lands.0.mule", "3"], capsys)
    assert code == 2 and "holds text" in err
    assert js("status")["state"]["players"]["Ann"]["lands"][0]["mule"] == "energy"
    code, err = exit_of(["mule", "new", "--players", "Ann,Bob"], capsys)
    assert code == 2 and "3 or 4 players" in err


def test_db_option_chooses_the_file(tmp_path: Path) -> None:
    db = str(tmp_path / "other.sqlite3")
    run("mule", "new", "--players", "Ann,Bob,Cid", "--db", db)
    assert len(js("games", "--db", db)) == 1
    assert js("games") == []


def test_colony_takes_players_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    # the same rule arithmetic as by count: $1300 is row 3 for four Colonists
    out = js("mule", "colony", "--total", "1300", "--players", "Ann, Bob, Cid,Dee")
    assert out["players"] == ["Ann", "Bob", "Cid", "Dee"] and out["rating"] == 3
    code, err = exit_of(["mule", "colony", "--total", "1300", "--players", "4"], capsys)
    assert code == 2 and "names" in err and "not a count" in err and err.count("\n") == 1
    code, err = exit_of(["mule", "colony", "--total", "1300", "--players", "Ann,Ann,Bob"], capsys)
    assert code == 2 and "twice" in err
    code, err = exit_of(["mule", "colony", "--total", "1300", "--players", "Ann,Bob"], capsys)
    assert code == 2 and "for 3 or 4 Colonists, not 2" in err
