"""The steps of Outer Earth and Mule Goes Crazy! with nothing to decide run themselves: saved
as events like any other (marked ``auto``, with why), shown by ``next`` (before they run, when
a game saved before them waits on one) and ``log``, and taken back by ``undo`` with the entry
before them, which says so. A step that still has something to decide stays the table's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion import session
from companion.mule_goes_crazy.game import GAME as MGC_GAME
from companion.outer_earth import saved as oe_saved
from companion.outer_earth.data import load_rules
from companion.outer_earth.game import GAME as OE_GAME
from components.errors import IrataError
from irata.cli import cli


@pytest.fixture(autouse=True)
def _db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv("IRATA_DB", str(db))
    return db


def run(*args: str, refused: bool = False) -> str:
    """The command's output; with ``refused``, the rule's refusal it raised instead."""
    result = CliRunner().invoke(cli, ["play", *args])
    if refused:
        assert isinstance(result.exception, IrataError), result.output
        return str(result.exception)
    assert result.exit_code == 0, result.output
    return result.output


def js(*args: str) -> Any:
    return json.loads(run(*args, "--json"))


def log() -> list[dict[str, Any]]:
    return js("log")  # type: ignore[no-any-return]


def ran(kind: str) -> list[dict[str, Any]]:
    return [e for e in log() if e["kind"] == kind and "auto" in e["data"]]


# --- Outer Earth -------------------------------------------------------------------------------

def oe_round_without_tax() -> None:
    """Bob and Ann buy one planet each (sell value 1: nobody is taxed; the starting player
    token goes to the last buyer, Ann), then Ann ends her turn."""
    run("outer-earth", "new", "--players", "Ann,Bob", "--short", "--starting-player", "Ann",
        "--seed", "7")
    run("outer-earth", "bid", "--planet", "Tidewell", "--green", "Bob")
    run("outer-earth", "bid", "--planet", "Halcyon", "--green", "Ann")
    run("outer-earth", "bid", "--planet", "Ferrox")            # nobody: a card under it
    run("outer-earth", "done", "Ann")


def test_outer_earth_upkeep_and_round_run_themselves_when_nobody_is_taxed() -> None:
    oe_round_without_tax()
    out = js("outer-earth", "done", "Bob")
    # Upkeep Order: one planet each, beyond no sell value of 1; then the round's end
    assert [r["step"] for r in out["ran_itself"]] == ["upkeep", "round"]
    assert out["next"]["step"] == "bid" and out["next"]["turn"] == 2
    up, end = ran("upkeep")[0]["data"], ran("round")[0]["data"]
    assert "no company holds more planets" in up["auto"]["why"]
    assert all(u["taxed_planets"] == 0 for u in up["companies"].values())
    # Replenish Planet Market: 3 slots (2 players + 1), 1 planet left (Ferrox): 2 refilled
    assert (end["round"], end["refill"], end["over"]) == (1, 2, False)
    assert "upkeep (ran itself)" in run("log") and "round (ran itself)" in run("log")


def test_undo_takes_the_entry_back_with_what_ran_itself_after_it() -> None:
    oe_round_without_tax()
    run("outer-earth", "done", "Bob")
    before = len(log())
    said = run("undo")
    # the entry typed (Bob's done) and the upkeep and round that ran themselves after it
    assert f"dropped event {before - 2} (done" in said
    assert f"what ran itself after it: {before - 1} (upkeep (ran itself)), {before} (round " \
           "(ran itself))" in said
    assert len(log()) == before - 3
    now = js("outer-earth", "next")["next"]
    assert (now["step"], now["who"], now["turn"]) == ("draw", "Bob", 1)


def test_a_taxed_company_decides_its_upkeep_then_the_round_runs_itself() -> None:
    run("outer-earth", "new", "--players", "Ann,Bob", "--short", "--starting-player", "Ann",
        "--seed", "7")
    for planet in ("Tidewell", "Halcyon", "Ferrox"):
        run("outer-earth", "bid", "--planet", planet, "--green", "Ann")
    run("outer-earth", "done", "Ann")
    run("outer-earth", "done", "Bob")
    # Ann holds 3 planets, her sell value 1: 2 are taxed, and she chooses how to pay
    now = js("outer-earth", "next")["next"]
    assert (now["step"], now["auto"]) == ("upkeep", False)
    assert "planet tax chosen by Ann" in now["text"] and not ran("upkeep")
    out = js("outer-earth", "upkeep", "--discard", "Ann=Ferrox,Ann=Halcyon")
    assert [r["step"] for r in out["ran_itself"]] == ["round"]
    assert js("status")["state"]["players"]["Ann"]["profits"]["planets"] == ["Ferrox",
                                                                             "Halcyon"]


UNTAXED = {"taxed_planets": 0, "cards_for_tax": 0, "planets_to_profits": [],
           "hand_limit_discard": 0, "hand_after": 4}


def test_a_game_saved_before_the_steps_ran_themselves_plays_on(tmp_path: Path) -> None:
    """A game saved with its upkeep done and its round not ended (as every game saved before
    this version was), and saved in an order the companion now refuses (the upkeep in Phase 1,
    before any planet was put up for sale): the log is the truth, so it folds as saved;
    ``next`` says the round's end runs itself with the next entry, and it does, before that
    entry."""
    rules = load_rules()
    store = session.Store(Path(str(tmp_path / "games.sqlite3")))
    with store.transaction():
        game = store.create("outer-earth", oe_saved.new_game(["Ann", "Bob"], "short", rules,
                                                             "Ann", 7))
        state = session.state_of(store, game)
        assert "is in Phase 1" in str(oe_saved.upkeep_too_soon(OE_GAME.from_json(state)))
        store.append(game.id, "upkeep", {"round": 1, "companies": {"Ann": UNTAXED,
                                                                   "Bob": UNTAXED}})
    store.close()
    assert js("status")["state"]["upkeep_done"] is True
    now = js("outer-earth", "next")["next"]
    assert (now["step"], now["auto"]) == ("round", True)
    assert "(it runs itself with the next entry)" in run("outer-earth", "next")
    assert OE_GAME.auto(OE_GAME.from_json(js("status")["state"])) is not None
    out = js("outer-earth", "bid", "--planet", "Tidewell", "--green", "Ann")
    assert [r["step"] for r in out["ran_itself"]] == ["round"]
    assert [e["kind"] for e in log()] == ["setup", "upkeep", "round", "bid"]


# --- Mule Goes Crazy! --------------------------------------------------------------------------

def mgc_turn() -> None:
    run("mule-goes-crazy", "new", "--players", "Ann,Bob", "--favored", "Ann", "--seed", "3")
    run("mule-goes-crazy", "auction", "none")
    run("mule-goes-crazy", "population", "colonists", "--player", "Bob")
    run("mule-goes-crazy", "done", "Bob")
    run("mule-goes-crazy", "done", "Ann")


def test_mule_goes_crazy_favored_spoilage_and_upkeep_run_themselves() -> None:
    run("mule-goes-crazy", "new", "--players", "Ann,Bob", "--favored", "Ann", "--seed", "3")
    # the table's choice at 'new' is all the first Favored Player needs
    now = js("mule-goes-crazy", "next")["next"]
    assert (now["step"], now["auto"]) == ("favored", True)
    assert MGC_GAME.auto(MGC_GAME.from_json(js("status")["state"])) is not None
    out = js("mule-goes-crazy", "auction", "none")
    assert [r["step"] for r in out["ran_itself"]] == ["favored"]
    run("mule-goes-crazy", "population", "colonists", "--player", "Bob")
    run("mule-goes-crazy", "done", "Bob")
    run("mule-goes-crazy", "done", "Ann")
    run("set", "players.Ann.food", "14")
    out = js("mule-goes-crazy", "produce", "--save")
    assert [r["step"] for r in out["ran_itself"]] == ["spoilage", "upkeep"]
    # Spoilage: Ann's 14 Food is over 10, loses 5: 9; Bob's 5 is not. Energy 10 each (less
    # what no Mule used): not over 20
    s = js("status")["state"]
    assert (s["players"]["Ann"]["food"], s["players"]["Bob"]["food"]) == (9, 5)
    # upkeep: the Colonists' 20 Food and 10 Energy of the Store's 50 and 50
    assert (s["store"]["food"], s["store"]["energy"]) == (30, 40)
    assert ran("spoilage")[0]["data"]["auto"]["why"].startswith("Spoilage has nothing")
    # the next turn's Favored Player: the fewest Credits (a tie, clockwise from Ann: Bob)
    out = js("mule-goes-crazy", "end-turn")
    assert [r["step"] for r in out["ran_itself"]] == ["favored"]
    assert ran("favored")[-1]["data"]["favored"] == "Bob"


def test_mule_goes_crazy_first_favored_player_is_the_tables_when_not_named() -> None:
    run("mule-goes-crazy", "new", "--players", "Ann,Bob,Cid", "--seed", "3")
    now = js("mule-goes-crazy", "next")["next"]
    assert (now["step"], now["auto"]) == ("favored", False)
    assert "--player NAME" in now["command"]
    assert js("mule-goes-crazy", "favored", "--player", "Cid")["favored"] == "Cid"
    s = js("status")["state"]
    assert s["favored"] == "Cid" and not ran("favored")
    # once chosen, the turn's Favored Player is not chosen again
    assert "once a turn" in run("mule-goes-crazy", "favored", "--player", "Bob", refused=True)


def test_mule_goes_crazy_favored_after_the_first_turn_is_not_a_choice(_db: Path) -> None:
    mgc_turn()
    run("mule-goes-crazy", "produce", "--save")
    run("mule-goes-crazy", "end-turn")
    # the table naming another: the step ran itself, and what was typed is not taken
    said = run("mule-goes-crazy", "favored", "--player", "Ann", refused=True)
    assert "so 'favored' ran itself, and what was typed for it is not taken" in said
    said = run("undo")  # the end of the turn, and the Favored Player that ran itself after it
    assert "end-turn" in said and "favored (ran itself)" in said
    assert js("status")["state"]["turn"] == 1
    assert [e["kind"] for e in log()][-1] == "upkeep"


def test_undo_of_the_last_production_takes_back_spoilage_and_upkeep() -> None:
    mgc_turn()
    run("mule-goes-crazy", "produce", "--save")
    said = run("undo")
    assert "spoilage (ran itself)" in said and "upkeep (ran itself)" in said
    now = js("mule-goes-crazy", "next")["next"]
    assert now["step"] == "produce"
