"""Land Grant's forced claim (Questions and Answers, Expansion: "You have to pick a land if one
is available and you have an empty place on the same Zone on your Player Board"): a pass is
refused, naming what could be claimed, when a Land is left in a Zone where the Colonist has an
empty square, and taken when there is none; ``next`` and ``turn`` say the claim is a must.

"Available" is read from the set-up's Lands on the printed Planet Irata map
(``data.planet_irata``, ``setup.*.lands``): with 4 Colonists in a Tournament every square of
the map holds a Land, with 3 only three of the four River squares do.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.mule import board, steps, turn
from companion.mule import data as mule_data
from companion.mule import saved as game
from companion.mule.data import MuleData
from companion.mule.state import Land, State, from_json, land_of, to_json
from components.errors import InputError, RuleError
from irata.cli import cli, main
from tests.companion.mule_states import with_colonist

NAMES = ["Ann", "Bob", "Cid", "Dee"]


@pytest.fixture(autouse=True)
def _bundled_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mule_data, "FOLDER", None)


def tournament(md: MuleData, names: list[str] = NAMES) -> State:
    s = from_json(game.new_game(md, names, "tournament", seed=3))
    return turn.begin_turn(s._replace(ranking=tuple(names)), md)


def added(s: State, who: str, *lands: Land) -> State:
    """``s`` with ``lands`` added to ``who``'s Player Board."""
    return with_colonist(s, who, lands=(*s.colonist(who).lands, *lands))


def put(s: State, who: str, *claims: str) -> State:
    """``s`` with Lands on ``who``'s Player Board, as KIND@SQUARE (P Plains, L Low, H High
    Mountain, R River)."""
    kinds = {"P": "plains", "L": "low-mountain", "H": "high-mountain", "R": "river"}
    return added(s, who, *(land_of(board.new_land(kinds[kind], None, square))
                           for kind, square in (text.split("@") for text in claims)))


def claim_kind(s: State, md: MuleData, who: str, text: str) -> Land:
    """A claim of a Land of a type (``plains@B1``) by some tile of it: the table names the
    tile, and the Zone checks look at its type and square alone."""
    kind, square = text.split("@")
    pb = md.player_board
    board.check_square(square, [{"square": x.square} for x in s.colonist(who).lands], pb)
    if kind == "river" and square not in pb.river_beds:
        raise RuleError(f"a River goes only on a river bed, not {square}")
    land = land_of(board.new_land(kind, None, square))
    steps.check_from_planet(s, md, land)
    return land


def grant_none(s: State, md: MuleData) -> State:
    after, _, lines = turn.run_step(s, md, turn.scripted({"claim": "none"}, {}), lambda x: None)
    who = s.todo[0][1]
    assert lines == [f"{who} claims no Land"]
    return after


def test_a_pass_is_refused_while_a_land_is_left_in_a_zone_with_an_empty_square(
        md: MuleData) -> None:
    s = tournament(md)                      # Land Grant: Dee first (the lowest Rank)
    before = to_json(s)
    for blank in ("", "none", " - "):
        with pytest.raises(RuleError) as info:
            turn.run_step(s, md, turn.scripted({"claim": blank}, {}), lambda x: None)
        assert to_json(s) == before
    why = str(info.value)
    assert why.startswith("Land Grant: a Colonist has to claim a Land if one is available and "
                          "they have an empty square in its Zone (Questions and Answers), so "
                          "Dee cannot claim none: ")
    assert "River, Plains, Low Mountain or High Mountain from the White Zone (empty: B1, C1, " \
        "D1, B2, D2, B3, C3, D3)" in why
    assert "Plains, Low Mountain or High Mountain from the Red Zone (empty: A1, A2, A3)" in why
    # a claim is taken
    after, _, lines = turn.run_step(s, md, turn.scripted({"claim": "P07@B2"}, {}),
                                    lambda x: None)
    assert lines == ["Dee claims P07 on B2"]


def _white_zone_claimed(s: State) -> State:
    """Bob and Cid hold every Land of Planet Irata's White Zone: its 4 Rivers, 7 Plains, 2
    Low Mountains and 1 High Mountain (the map's columns 3 to 5)."""
    s = put(s, "Bob", "R@C1", "R@C3", "P@B1", "P@B2", "P@B3", "P@D1", "P@D2", "P@D3")
    return put(s, "Cid", "R@C1", "R@C3", "P@B1", "L@B2", "L@B3", "H@D1")


def test_a_pass_is_taken_with_no_empty_square_in_a_zone_with_a_land_left(md: MuleData) -> None:
    s = _white_zone_claimed(tournament(md))
    # Dee's Red and Blue squares are full; Lands are left only in those Zones, and her empty
    # squares are all White
    s = put(s, "Dee", "P@A1", "P@A2", "H@A3", "P@E1", "P@E2", "L@E3")
    assert steps.must_claim(s, md, "Dee") is None
    after = grant_none(s, md)
    assert after.colonist("Dee") == s.colonist("Dee")
    assert after.todo[0] == ("grant", "Cid")
    # Cid has empty Red and Blue squares: he has to claim
    why = steps.must_claim(after, md, "Cid")
    assert why is not None and "from the White Zone" not in why
    assert "from the Red Zone (empty: A1, A2, A3)" in why
    assert "from the Blue Zone (empty: E1, E2, E3)" in why


def test_a_pass_is_taken_when_planet_irata_is_empty(md: MuleData) -> None:
    s = _white_zone_claimed(tournament(md))
    # the Red Zone's 5 Plains, 3 High and 2 Low Mountains and the Blue Zone's 6 Plains, 2 Low
    # and 2 High Mountains
    s = put(s, "Ann", "P@A1", "P@A2", "P@A3", "P@E1", "P@E2", "P@E3")
    s = put(s, "Bob", "P@A1", "P@A2", "H@A3", "P@E1", "P@E2", "P@E3")
    s = put(s, "Cid", "H@A1", "H@A2", "L@A3", "L@E1", "L@E2", "H@E3")
    s = put(s, "Dee", "L@A1", "H@E1")
    assert sum(len(c.lands) for c in s.colonists) == 4 + 18 + 6 + 6
    for name in NAMES:      # Dee has 12 empty squares, but nothing is left to claim
        assert steps.claimable(s, md, name) == []
    grant_none(s, md)
    with pytest.raises(RuleError, match="all claimed already"):
        claim_kind(s, md, "Dee", "plains@B1")


def test_rivers_left_are_counted_from_the_set_up(md: MuleData) -> None:
    """With 3 Colonists the Tournament set-up places 3 Rivers on the map's 4 River squares: a
    River is left while fewer than 3 are claimed, and a River takes only a river bed."""
    s = tournament(md, NAMES[:3])
    # Ann: every square full but the river beds; the White Zone's other Lands are claimed
    s = put(s, "Ann", "P@A1", "P@A2", "P@A3", "P@E1", "P@E2", "P@E3",
            "P@B1", "P@B2", "P@B3", "P@D1", "P@D2", "L@D3")
    s = put(s, "Bob", "P@B1", "P@B2", "L@B3", "H@D1", "R@C1")
    why = steps.must_claim(s, md, "Ann")
    assert why is not None and why.endswith("so Ann cannot claim none: River from the White "
                                            "Zone (empty: C1, C3)")
    s = put(s, "Cid", "R@C1")
    assert steps.must_claim(s, md, "Ann") is not None            # one River is left
    s = put(s, "Cid", "R@C3")      # the third: the fourth River square was left empty
    assert steps.must_claim(s, md, "Ann") is None


def test_a_river_without_a_square_fills_a_river_bed(md: MuleData) -> None:
    """Beginner: each Colonist starts with a River (on a river bed, square not typed); Ann's
    other White squares are full, so she has no empty White square, though C1 and C3 were
    never named."""
    s = from_json(game.new_game(md, NAMES[:3], seed=3))
    s = put(s, "Ann", "P@A1", "P@A2", "P@A3", "P@E1", "P@E2", "P@E3",
            "P@B1", "P@B2", "P@B3", "P@D1", "P@D2", "L@D3", "P@C1")
    assert steps.must_claim(s, md, "Ann") is None
    # now C1 or C3 is empty: she has to claim
    s = with_colonist(s, "Ann", lands=s.colonist("Ann").lands[:-1])
    assert "White Zone (empty: C1, C3)" in (steps.must_claim(s, md, "Ann") or "")


def _planet_claimed(s: State) -> State:
    """Every Land the set-up placed on Planet Irata is claimed; Ann's Red and Blue squares are
    full, her White ones empty; Dee has empty squares in every Zone."""
    s = _white_zone_claimed(s)
    s = put(s, "Ann", "P@A1", "P@A2", "P@A3", "P@E1", "P@E2", "P@E3")
    s = put(s, "Bob", "P@A1", "P@A2", "H@A3", "P@E1", "P@E2", "P@E3")
    s = put(s, "Cid", "H@A1", "H@A2", "L@A3", "L@E1", "L@E2", "H@E3")
    return put(s, "Dee", "L@A1", "H@E1")


@pytest.mark.parametrize(("zone", "ann", "dee"), [
    ("white", "Meteor Crater from the White Zone (empty: B1, C1, D1, B2, D2, B3, C3, D3)",
     "Meteor Crater from the White Zone"),
    ("red", None, "Meteor Crater from the Red Zone (empty: A2, A3)"),
    ("blue", None, "Meteor Crater from the Blue Zone (empty: E2, E3)"),
    # beside the board (no empty square was left): it goes in any Zone
    ("beside", "Meteor Crater from Planet Irata, any Zone (empty: B1, C1, D1, B2, D2, B3, "
     "C3, D3)", "Meteor Crater from Planet Irata, any Zone"),
])
def test_a_meteor_crater_is_a_must_with_an_empty_square_in_its_zone(
        md: MuleData, zone: str, ann: str | None, dee: str) -> None:
    s = _planet_claimed(tournament(md))
    s = s._replace(craters=("M01",), crater_zones=MappingProxyType({"M01": zone}))
    why = steps.must_claim(s, md, "Ann")
    assert (why is None) if ann is None else (why is not None and why.endswith(
        f"so Ann cannot claim none: {ann}")), why
    assert dee in (steps.must_claim(s, md, "Dee") or "")
    # the Land goes on a square of the Zone it came from
    if zone != "beside":
        wrong = "B1" if zone != "white" else "A2"
        with pytest.raises(RuleError, match=f"M01 lies in the {zone.capitalize()} Zone of "
                           f"Planet Irata, so it cannot go on {wrong}"):
            steps.claim(s, md, "Dee", f"M01@{wrong}")
    right = {"white": "B1", "red": "A2", "blue": "E2", "beside": "B1"}[zone]
    assert steps.claim(s, md, "Dee", f"M01@{right}") == land_of(board.new_land(
        "meteor-crater", "M01", right))
    s = added(s, "Dee", land_of(board.new_land("meteor-crater", "M01", right)))
    assert steps.must_claim(s, md, "Ann") is None


def test_meteor_craters_go_on_empty_squares_of_planet_irata(md: MuleData) -> None:
    """Meteorite Strike!: a Crater goes on an empty square of Planet Irata, beside the board
    only when none is left."""
    s = tournament(md)              # Tournament, 4 Colonists: every square holds a Land
    for zones in ("white,red", "blue,blue", "white,beside"):
        with pytest.raises(RuleError, match="Meteorite Strike!: a Meteor Crater goes on an "
                           "empty square of Planet Irata"):
            steps.parse_crater_zones(s, md, ["M01", "M02"], zones)
    assert steps.parse_crater_zones(s, md, ["M01", "M02"], "beside,beside") == {
        "M01": "beside", "M02": "beside"}
    s = put(s, "Ann", "P@B1")       # one White square is empty now
    with pytest.raises(RuleError, match="White Zone has 1 empty square"):
        steps.parse_crater_zones(s, md, ["M01", "M02"], "white,white")
    with pytest.raises(RuleError, match=r"beside the board only when Planet Irata has no "
                       r"empty square, and the White Zone may still have one, so M01, M02"):
        steps.parse_crater_zones(s, md, ["M01", "M02"], "beside,beside")
    assert steps.parse_crater_zones(s, md, ["M01", "M02"], "M02=white, M01=beside") == {
        "M01": "beside", "M02": "white"}
    for wrong in ("white", "white,red,blue", "green,white", "M03=white,M01=red",
                  "M01=white,M01=red"):
        with pytest.raises(InputError, match="Meteorite Strike!"):
            steps.parse_crater_zones(s, md, ["M01", "M02"], wrong)
    # a Crater placed before, and not claimed, fills its square
    s = s._replace(craters=("M01",), crater_zones=MappingProxyType({"M01": "white"}))
    with pytest.raises(RuleError, match="White Zone has no empty square"):
        steps.parse_crater_zones(s, md, ["M02"], "white")
    # Beginner: the River squares are left empty at the set-up
    b = from_json(game.new_game(md, NAMES, seed=3))
    assert steps.empty_on_planet(b, md) == {"red": 0, "white": 4, "blue": 0}


def test_a_meteor_crater_of_an_older_saved_game_is_a_must_only_with_an_empty_square_in_every_zone(
        md: MuleData) -> None:
    """A game saved before the Crater's Zone was kept: it may lie in any Zone."""
    s = _planet_claimed(tournament(md))
    # saved without the Craters' Zones; Meteorite Strike! placed M01 on an empty square
    s = s._replace(craters=("M01",), crater_zones=MappingProxyType({}),
                   keys=tuple(k for k in s.keys if k != "crater_zones"))
    # Dee has empty squares in every Zone: wherever the Crater lies, she can take it
    why = steps.must_claim(s, md, "Dee")
    assert why is not None and "Meteor Crater from Planet Irata, any Zone" in why
    # Ann's Red and Blue squares are full: the Crater may lie where she cannot place it
    assert steps.must_claim(s, md, "Ann") is None
    s = added(s, "Dee", land_of(board.new_land("meteor-crater", "M01", "B1")))
    assert steps.must_claim(s, md, "Dee") is None


# -- at the table ------------------------------------------------------------------------------

def mule(*args: str) -> str:
    result = CliRunner().invoke(cli, ["play", "mule", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_grant_none_is_refused_on_the_command_line_and_saves_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"       # the games file of every test (conftest)
    mule("new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3")
    nxt = json.loads(mule("next", "--json"))["next"]
    assert (nxt["step"], nxt["who"]) == ("grant", "Bob")
    # next names the claim that is a must, and what can be claimed
    assert nxt["command"].startswith("irata play mule grant Bob TILE@SQUARE   (Bob has to "
                                     "claim one: Plains, Low Mountain or High Mountain from "
                                     "the Red Zone (empty: A1, A2, A3); River, ")
    assert "(or: none)" not in nxt["command"]
    assert "Bob has to claim one" in mule("next")
    for entry in (["none"], []):
        before = db.read_bytes()
        with pytest.raises(SystemExit) as info:
            main(["play", "mule", "grant", "Bob", *entry])
        err = capsys.readouterr().err
        assert info.value.code == 2
        assert err.startswith("error: Land Grant: a Colonist has to claim a Land if one is "
                              "available") and err.count("\n") == 1, err
        assert "Bob cannot claim none" in err
        assert db.read_bytes() == before
    assert "Bob claims R01 on C1" in mule("grant", "Bob", "R01@C1")


def test_turn_asks_for_the_claim_again_and_says_it_is_a_must() -> None:
    mule("new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3")
    # Bob presses Enter, then claims; Cid's claim is typed; then the input ends
    result = CliRunner().invoke(cli, ["play", "mule", "turn"], input="\nR01@C1\nR02@C1\n")
    assert result.exit_code == 2
    out = result.output
    assert "Land Grant: Bob claims (TILE@SQUARE as printed, e.g. P07@B2; must claim one)" in out
    assert "  ! Land Grant: a Colonist has to claim a Land if one is available" in out
    assert "Bob claims R01 on C1" in out and "Cid claims R02 on C1" in out
    state = json.loads(CliRunner().invoke(cli, ["play", "status", "--json"]).output)["state"]
    assert [x["tile"] for x in state["players"]["Bob"]["lands"]] == ["R01"]
    assert state["todo"][0] == ["grant", "Ann"]


def test_turn_stops_when_the_same_pass_is_typed_again_and_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A refused answer is asked again, but the same refused answer given over and over (a
    script, ``yes none |``) ends the command with the reason, exit 2, and every step answered
    before kept."""
    import io

    db = tmp_path / "games.sqlite3"
    mule("new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3")
    monkeypatch.setattr("sys.stdin", io.StringIO("R01@C1\n" + "none\n" * 1000))
    before = db.read_bytes()
    with pytest.raises(SystemExit) as info:
        main(["play", "mule", "turn"])
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert err.startswith("error: Land Grant: a Colonist has to claim a Land") and \
        err.count("\n") == 1, err
    assert "Cid cannot claim none" in err and "refused 4 times" in err
    assert "stopped at 1. Expansion: Land Grant, Cid claims a Land: everything before it is " \
        "saved" in err
    assert db.read_bytes() != before                 # Bob's claim is saved ...
    state = json.loads(CliRunner().invoke(cli, ["play", "status", "--json"]).output)["state"]
    assert state["todo"][0] == ["grant", "Cid"]      # ... and Cid's Land Grant is still to do
    assert state["players"]["Cid"]["lands"] == []


# -- the forced claim agrees with the claims the companion takes -------------------------------

def legal_claims(s: State, md: MuleData, who: str) -> set[tuple[str, str]]:
    """(Zone, Land type) of every claim by type the companion takes from ``who`` now, tried on
    each empty square of the Player Board."""
    pb = md.player_board
    taken = {x.square for x in s.colonist(who).lands}
    out = set()
    for kind in steps.PLANET_LANDS:
        for square in pb.squares:
            if square in taken:
                continue
            try:
                claim_kind(s, md, who, f"{kind}@{square}")
            except RuleError:
                continue
            out.add((pb.zone(square), kind))
    return out


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 4]), picks=st.lists(st.integers(0, 10**6), max_size=40))
def test_a_claim_is_a_must_exactly_when_the_companion_would_take_one(
        md: MuleData, players: int, picks: list[int]) -> None:
    """Through a Tournament game's Land Grants (every Land with its square), a Colonist may
    pass exactly when no claim of theirs would be taken, and what the refusal names is what
    would be taken."""
    names = NAMES[:players]
    s = tournament(md, names)
    for i, pick in enumerate([*picks, 0]):
        who = names[i % players]
        legal = legal_claims(s, md, who)
        named = {(c.zone, k) for c in steps.claimable(s, md, who) for k in c.lands}
        assert named == legal
        assert (steps.must_claim(s, md, who) is None) == (not legal)
        if not legal:
            continue
        zone, kind = sorted(legal)[pick % len(legal)]
        taken = {x.square for x in s.colonist(who).lands}
        square = next(q for q in md.player_board.squares if q not in taken
                      and md.player_board.zone(q) == zone
                      and (kind != "river" or q in md.player_board.river_beds))
        s = added(s, who, claim_kind(s, md, who, f"{kind}@{square}"))
