"""Which Land each M.U.L.E. is on, in a saved game: claims by tile and square, M.U.L.E.s typed
as LAND=GOOD, and the placement rules of Land Grant (River beds, The Store's square)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from companion.mule import board
from companion.mule import data as mule_data
from companion.mule import saved as game
from companion.mule.data import MuleData
from companion.mule.state import from_json, to_json
from components.errors import InputError, RuleError
from irata.cli import cli
from tests.companion.mule_states import with_colonist


def test_a_claim_by_tile_and_square(md: MuleData) -> None:
    assert board.parse_claim("p07@b2", md.land, {}, [], [], md.player_board) == {
        "land": "plains", "tile": "P07", "square": "B2", "mule": None, "secret": False}
    assert board.parse_claim("P07 B2", md.land, {}, [], [], md.player_board)["square"] == "B2"
    # the word printed large on a Land names many tiles: which one is asked
    with pytest.raises(InputError, match="which tile"):
        board.parse_claim("plains", md.land, {}, [], [], md.player_board)
    assert board.parse_claim("  ", md.land, {}, [], [], md.player_board) is None


@pytest.mark.parametrize(("text", "error", "message"), [
    ("R01@B1", RuleError, "river bed"),              # Rivers only on the river beds
    ("P07@C2", RuleError, "The Store"),              # The Store's square holds no Land
    ("P07@F1", InputError, "A1 to E3"),
    ("P99", InputError, "no Land tile"),
    ("swamp", InputError, "the tile's code as printed"),
    ("River@C1", InputError, "which tile"),          # a River, but which of them?
    ("P08", RuleError, "already on Bob's"),          # a tile is owned once
    ("P01@A1", RuleError, "A1 already holds"),
    ("M02", RuleError, "Meteor Crater"),
    ("@", InputError, "give a tile and a square"),   # not a blank: not taken as "no Land"
])
def test_claims_the_rules_refuse(md: MuleData, text: str, error: type[Exception],
                                 message: str) -> None:
    mine = [board.new_land("plains", "P02", "A1")]
    with pytest.raises(error, match=message):
        board.parse_claim(text, md.land, {"P08": "Bob"}, [], mine, md.player_board)


def test_a_river_may_take_a_river_bed(md: MuleData) -> None:
    assert board.parse_claim("R01@C3", md.land, {}, [], [], md.player_board)["square"] == "C3"


def test_worked_lands_read_from_the_tiles(md: MuleData) -> None:
    lands = [board.new_land("plains", "P07", "B1", "crystite"),
             board.new_land("river", "R01", "C1", "food"), board.new_land("plains", "P08")]
    worked = board.worked_from(lands, md.land, md.player_board)
    assert worked is not None
    assert [(w.good, w.value, w.first_crystite, w.at) for w in worked] == [
        ("crystite", 2, True, (0, 1)), ("food", 3, False, (0, 2))]
    lands[0]["secret"] = True
    assert not board.worked_from(lands, md.land, md.player_board)[0].first_crystite   # type: ignore[index]
    # a Land with a M.U.L.E. but no tile: its value must be typed
    untiled = [board.new_land("river", mule="food")]
    assert board.worked_from(untiled, md.land, md.player_board) is None


def test_old_saved_lands_become_dicts() -> None:
    assert board.normalise(["river", "P07"]) == [
        board.new_land("river"), board.new_land("land", "P07")]


def test_new_game_with_named_rivers(md: MuleData) -> None:
    state = game.new_game(md, ["Ann", "Bob", "Cid"], seed=1, rivers={"ann": "R02"})
    assert state["players"]["Ann"]["lands"] == [board.new_land("river", "R02", mule="food")]
    # the others' Rivers are dealt from the River tiles left, in the order they are named
    assert [state["players"][n]["lands"][0]["tile"] for n in ("Bob", "Cid")] == ["R01", "R03"]
    with pytest.raises(InputError, match="not a River"):
        game.new_game(md, ["Ann", "Bob", "Cid"], rivers={"Ann": "P07"})
    with pytest.raises(InputError, match="given to Ann and Bob"):
        game.new_game(md, ["Ann", "Bob", "Cid"], rivers={"Ann": "R01", "Bob": "R01"})
    with pytest.raises(InputError, match="starts with no River"):
        game.new_game(md, ["Ann", "Bob", "Cid"], "tournament", rivers={"Ann": "R01"})
    with pytest.raises(InputError, match="not a player"):
        game.new_game(md, ["Ann", "Bob", "Cid"], rivers={"Zed": "R01"})


# Land Grant: a Colonist who can claim a Land has to (Questions and Answers); where a test
# names no claim, each Colonist claims these in turn, in the Blue Zone (column E), which has
# 6 Plains, 2 Low Mountain and 2 High Mountain squares on Planet Irata
CLAIMS = {"Ann": ["P13@E1", "P14@E2"], "Bob": ["P15@E1", "P16@E2"],
          "Cid": ["P17@E1", "P18@E2"], "Dee": ["L05@E1", "H05@E2"]}


def table(answers: dict[str, list[str]], said: list[str], asked: list[str] | None = None
          ) -> Any:
    """A table answering the questions that contain a key of ``answers`` (in order), a Land
    Grant with the Colonist's next claim of ``CLAIMS``, the Production Card with A Quiet Turn,
    the Event cards with Seeds from Home! and Land Tax! given to the next Colonist, and Enter
    everywhere else."""
    count = [0]
    claims = {n: list(c) for n, c in CLAIMS.items()}

    def ask(question: str, default: str) -> str:
        count[0] += 1
        assert count[0] < 300, said[-3:]
        if asked is not None:
            asked.append(question)
        for key, queue in answers.items():
            if key in question and queue:
                return queue.pop(0)
        if question.startswith("Land Grant: "):
            return claims[question.split()[2]].pop(0)
        if "Production Card drawn" in question:
            return "quiet-turn"
        if "Lucky Event card drawn" in question:
            return "seed-crate"
        if "Unlucky Event card drawn" in question:
            return "land-tax"
        if "gives it to" in question:
            giver = question.split()[0]
            return next(n for n in ("Ann", "Bob", "Cid", "Dee") if n != giver)
        if question.startswith("Development, Action Round"):
            return "pass"      # a Pass is typed, never taken from a blank
        return default

    return ask


def test_a_tile_claimed_twice_is_asked_again(md: MuleData) -> None:
    raw = game.new_game(md, ["Ann", "Bob", "Cid", "Dee"], seed=2, rivers={"Ann": "R01"})
    raw.pop("todo")  # saved without the steps: the Land Grant order follows this Ranking
    state = from_json(raw)._replace(ranking=("Ann", "Bob", "Cid", "Dee"))
    river = state.colonist("Ann").lands[0]
    state = with_colonist(state, "Ann", lands=(river._replace(square="C1"),
                                               *state.colonist("Ann").lands[1:]))
    said: list[str] = []
    ask = table({"Land Grant": ["P07@B1", "P07@B2", "plains", "P08@B1"],
                 "working Lands": ["F3", "F3", "F3"]}, said)
    after, _ = game.play_turn(state, md, ask, said.append)
    assert "  ! P07 is already on Dee's Player Board" in said
    # a Land named by its type is asked again: which tile it is decides what it produces
    assert "  ! 'plains': which tile? Name the Land by the code printed in its corner (P07, R01, " \
        "L03, H02, M01), e.g. P07@B2" in said
    # Cid's River (dealt at the set-up), P08, and the Plains of his second Land Grant
    assert [x.tile for x in after.colonist("Cid").lands] == ["R03", "P08", "P17"]
    # Ann's River has its tile: her Production needs no typing
    assert any(line.startswith("Ann produces smithore 0, crystite 0, food 3,") for line in said)
    assert "R01@C1:F" in game.describe(to_json(after))


def test_mules_are_counted_from_the_lands_they_are_on(md: MuleData) -> None:
    from companion.session import apply_set

    raw = game.new_game(md, ["Ann", "Bob", "Cid"], seed=2,
                        rivers={"Ann": "R01", "Bob": "R02", "Cid": "R03"})
    state = from_json(apply_set(raw, {"path": "players.Ann.mules.food", "value": 2}))
    assert state.colonist("Ann").mules.food == 2
    said: list[str] = []
    after, _ = game.play_turn(state, md, table({}, said), said.append)
    assert after.colonist("Ann").mules.food == 1     # her one River's M.U.L.E.


def test_cli_new_with_rivers_and_alt_events(mule_folder: object,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mule_data, "FOLDER", mule_folder)
    result = CliRunner().invoke(cli, ["play", "mule", "new", "--players", "Ann,Bob,Cid",
                                      "--rivers", "Ann=R01,Bob=R02", "--deck", "--alt-events",
                                      "--json"])
    assert result.exit_code == 0, result.output
    state = json.loads(result.output)["state"]
    assert state["alt_events"] is True
    assert state["players"]["Bob"]["lands"][0]["tile"] == "R02"
    assert len(state["event_decks"]["unlucky"]["draw"]) == 4


def test_production_left_blank_for_working_mules_is_refused_and_asked_again(md: MuleData
                                                                         ) -> None:
    # a game saved before the starting Rivers were dealt: every Colonist has a River with a
    # Food M.U.L.E. but no tile. A blank is no longer counted as no Production: it is refused
    # with the reason and asked again
    state = from_json(game.new_game(md, ["Ann", "Bob", "Cid"], seed=2))
    for c in state.colonists:
        state = with_colonist(state, c.name, lands=(c.lands[0]._replace(tile=None),
                                                    *c.lands[1:]))
    asked: list[str] = []
    said: list[str] = []
    answers = table({"Ann: working Lands": ["", "F3"], "Bob: working Lands": ["F2"],
                     "Cid: working Lands": ["F1"]}, said, asked)
    game.play_turn(state, md, answers, said.append)
    assert any("Ann: working Lands" in q and "M.U.L.E.s on: river food" in q for q in asked)
    assert any(line.startswith("  ! Production: Ann's Lands with M.U.L.E.s are not all known "
                               "by their tile") for line in said)
    assert any(line.startswith("Ann produces smithore 0, crystite 0, food 3") for line in said)


@pytest.mark.parametrize("cell", ["F4", "E9", "S10", "C99999999999999999999"])
def test_a_production_value_is_zero_to_three(cell: str) -> None:
    """Game Components, Land Tiles: Production Values range from zero to three; a typed F9
    used to be counted as 9 Food."""
    from companion.mule import production

    with pytest.raises(InputError, match="a Production Value is 0 to 3"):
        production.parse_cell(cell)
    assert production.parse_cell("F3") is not None and production.parse_cell("E0") is not None
