"""Outer Earth and Mule Goes Crazy! as declared games on the command line: the guided ``turn``
is the generic walk (``irata.play.declared.add_turn``) over the moves possible now and for
whom; their typed, frozen States read and write the saved games' JSON; games saved by the
code before them (``fixtures/saved-oe-mgc-0a9371d.sqlite3``, written by main at 0a9371d) open
and play on."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.mule_goes_crazy.state import state_from_json as mgc_from_json
from companion.mule_goes_crazy.state import state_to_json as mgc_to_json
from companion.outer_earth.state import state_from_json as oe_from_json
from companion.outer_earth.state import state_to_json as oe_to_json
from irata.cli import cli

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "saved-oe-mgc-0a9371d.sqlite3"


@pytest.fixture(autouse=True)
def _db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv("IRATA_DB", str(db))
    return db


def run(*args: str, input: str | None = None, code: int = 0) -> str:
    result = CliRunner().invoke(cli, ["play", *args], input=input)
    assert result.exit_code == code, result.output
    return result.output


def js(*args: str) -> Any:
    return json.loads(run(*args, "--json"))


def state(game: int | None = None) -> dict[str, Any]:
    where = ["--game", str(game)] if game else []
    return js("status", *where)["state"]  # type: ignore[no-any-return]


def covers(typed: Any, saved: Any) -> bool:
    """The JSON written from a typed state holds everything the saved JSON held."""
    if isinstance(saved, dict):
        return isinstance(typed, dict) and all(k in typed and covers(typed[k], v)
                                               for k, v in saved.items())
    if isinstance(saved, list):
        return isinstance(typed, list) and len(typed) == len(saved) and all(
            covers(t, s) for t, s in zip(typed, saved, strict=True))
    return bool(typed == saved)


# --- the guided walk ---------------------------------------------------------------------------

def test_outer_earth_turn_walks_a_round_company_by_company() -> None:
    run("outer-earth", "new", "--players", "Ann,Bob", "--short", "--starting-player", "Ann",
        "--seed", "7")
    typed = "\n".join([
        "--planet Tidewell --green Ann", "--planet Halcyon --green Ann",
        "--planet Ferrox --green Ann",
        "draw",              # Ann draws her draw value, 2
        "fly away",          # not a move of her turn: asked again
        "draw 9",            # refused: more than her one turn of three actions takes
        "done", "draw 2", "done",
        "",                  # upkeep: no planet put into profits
        "",                  # the end of the round
    ]) + "\n"
    out = run("outer-earth", "turn", input=typed)
    assert "== Turn 1, from round 1, Phase 1" in out
    assert "Ann draws 2: 6 cards in hand." in out
    assert "! type one of draw, build, sell, done first, not 'fly'" in out
    assert "! Ann has one turn of 3 actions a round" in out
    assert "Ann's turn is over." in out and "Bob's turn is over." in out
    assert "Turn 1 saved in game 1. Next: round 2, Phase 1" in out
    kinds = [e["kind"] for e in js("log")]
    assert kinds == ["setup", "bid", "bid", "bid", "draw", "done", "draw", "done", "upkeep",
                     "round"]


def test_mule_goes_crazy_turn_asks_whose_move_it_is_and_ends_with_the_game() -> None:
    run("mule-goes-crazy", "new", "--players", "Ann,Bob", "--favored", "Ann", "--seed", "3")
    run("mule-goes-crazy", "reshuffle")
    run("mule-goes-crazy", "reshuffle")          # the Draw pile ran out twice: the last turn
    typed = "\n".join([
        # the Favored Player, Ann (the table's choice at 'new'), runs itself
        "grant sunny-flats",             # Ann's Land Grant
        "grant none",                    # Bob lays none
        "auction none",                  # a card that is not a Land: the auctions end
        "buy food",                      # Bob's turn (left of Ann): refused, no Food to move
        "buy energy", "move energy nowhere", "done",
        "move food sunny-flats",         # Ann holds no Mule: refused
        "done",
        "--player Bob --rolls 1,1,1",    # refused: Bob's Mule stands on no Land
        "",                              # everybody's dice, the saved game's
        # Spoilage runs itself (and no Population card asks for an upkeep)
        "end-turn",                      # nobody trades: the last turn ends, with the score
    ]) + "\n"
    out = run("mule-goes-crazy", "turn", input=typed)
    # the Favored Player ran itself with the first entry (the reshuffle), Spoilage in the walk
    assert [e["data"]["auto"]["move"] for e in js("log") if "auto" in e["data"]] == [
        "favored", "spoilage"]
    assert "-- (ran itself) turn 1: Spoilage" in out
    assert "turn 1: Land Grant: Ann may lay one Land" in out
    assert "turn 1, Player Turns: Bob's turn" in out and "turn 1, Player Turns: Ann's turn" in out
    assert "Bob buys an Energy Mule for 200 Credits." in out
    assert "! Ann has no Food Mule off a Land" in out
    assert "The game is over. The colony holds 0 people." in out
    assert "The colony failed: nobody wins." in out and "The game is over (game 1)." in out
    assert state()["over"] is True
    assert run("mule-goes-crazy", "next") == "Game 1 is over.\n"


# --- the typed States ------------------------------------------------------------------------

def test_the_typed_states_read_and_write_the_saved_games_json() -> None:
    run("outer-earth", "new", "--players", "Ann,Bob,Cid", "--starting-player", "Ann",
        "--seed", "7")
    run("outer-earth", "bid", "--planet", "Halcyon", "--green", "Ann,Bob", "accept", "bow")
    run("mule-goes-crazy", "new", "--players", "Ann,Bob", "--favored", "Ann", "--seed", "3")
    run("mule-goes-crazy", "auction", "foothills", "--winner", "Bob", "--price", "200")
    run("mule-goes-crazy", "buy", "Bob", "smithore")
    for game, to_json, from_json in ((1, oe_to_json, oe_from_json),
                                     (2, mgc_to_json, mgc_from_json)):
        saved = state(game)
        typed = from_json(saved)
        assert covers(to_json(typed), saved)
        assert from_json(to_json(typed)) == typed        # one pair of JSON functions
        with pytest.raises(AttributeError):
            typed.round = 9  # type: ignore[misc]         # frozen
    s = oe_from_json(state(1))
    assert s.company("Ann").in_development[0].planet == "Halcyon" and s.offered
    m = mgc_from_json(state(2))
    assert m.sheet("Bob").mules[0].mule == "smithore" and m.this_turn.acted == ("Bob",)


# --- games saved before ----------------------------------------------------------------------

def test_games_saved_by_main_open_and_play_on(_db: Path) -> None:
    shutil.copy(FIXTURE, _db)
    # Outer Earth, round 1, Phase 2: Bob drew and built, Cid drew
    now = js("outer-earth", "next", "--game", "1")["next"]
    assert (now["step"], now["who"], now["steps"]) == ("draw", "Cid",
                                                       ["draw", "build", "sell", "done"])
    run("outer-earth", "done", "Cid", "--game", "1")
    run("outer-earth", "draw", "Ann", "--game", "1")
    done = js("outer-earth", "done", "Ann", "--game", "1")
    # nobody is taxed: the upkeep and the end of the round ran themselves after it
    assert [r["step"] for r in done["ran_itself"]] == ["upkeep", "round"]
    assert js("outer-earth", "next", "--game", "1")["next"]["step"] == "bid"
    assert state(1)["round"] == 2
    # Mule Goes Crazy!, the Production Phase of turn 1: Ann produced 11 Food
    now = js("mule-goes-crazy", "next", "--game", "2")["next"]
    assert (now["step"], now["who"]) == ("produce", "Bob")
    # Bob's Mule is on no Land; Cid has none. Then Spoilage and the upkeep run themselves
    out = js("mule-goes-crazy", "produce", "--game", "2")
    assert [r["step"] for r in out["ran_itself"]] == ["spoilage", "upkeep"]
    # Ann's 11 Food is over 10: 6. The Colonists' upkeep: 20 Food, 10 Energy of 50 and 50
    s = state(2)
    assert (s["players"]["Ann"]["food"], s["store"]["food"], s["store"]["energy"]) == (6, 30, 40)
    run("mule-goes-crazy", "trade", "food", "--sell", "Ann=6", "--game", "2")
    assert js("mule-goes-crazy", "end-turn", "--game", "2")["turn"] == 2
    s = state(2)
    # Ann sold 6 Food at 30: 800 + 180 = 980; the Store 30 + 6 Food; Food's price 30 - 10
    assert (s["players"]["Ann"]["credits"], s["store"]["food"], s["prices"]["food"]) == \
        (980, 36, 20)


# --- one reading of an entry -------------------------------------------------------------------

@pytest.mark.parametrize(("typed", "field", "given"), [
    ((), "", None),                             # no die raised: no answer at all, either way
    (("",), "", None),                          # --raise "" is no die raised, as a blank field
    (("draw", "sell"), "draw,sell", "draw,sell"),
])
def test_outer_earth_sell_reads_the_same_typed_or_in_the_form(
        typed: tuple[str, ...], field: str, given: str | None) -> None:
    from companion.entry import moves_of
    from companion.outer_earth.game import GAME
    from companion.table import read_form

    spec = next(m for m in GAME.moves if m.kind == "sell")
    kwargs = {"planet": ("Halcyon",), "raise": typed, "who": "Ann", "built": (), "bonus": (),
              "pile": ()}       # as click hands the command its options
    line = moves_of(spec, kwargs)
    form = read_form(GAME, "sell", "Ann", {"planet": "Halcyon", "raise": field})
    assert line == form
    assert line[0].answers.get("raise") == given
