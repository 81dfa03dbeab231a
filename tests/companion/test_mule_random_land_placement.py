"""M.U.L.E.'s Optional Rule Random Land Placement: "Set up all lands on Planet Irata in random
locations, either including or not including Rivers to this randomization." The placement is
typed at ``new`` (``--planet``) or drawn from the seed; every Zone check (Land Grant, what a
Colonist must claim, Land Auctions, the empty squares of Meteorite Strike!) follows it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.mule import board, planet, steps, turn
from companion.mule import data as mule_data
from companion.mule import saved as game
from companion.mule.data import MuleData
from companion.mule.expansion import claimable
from companion.mule.state import Land, State, from_json, land_of, to_json
from components.errors import InputError, RuleError
from tests import clirun
from tests.companion.mule_states import with_colonist

NAMES = ["Ann", "Bob", "Cid", "Dee"]
PRINTED = "HPLRPLH/PHPRPLP/LPPSPPH/PLPRHPP/PHPRLPP"
# Without Rivers: the Rivers keep the printed squares (column 4), every High Mountain laid in
# the Red Zone (columns 1 and 2), none in the Blue Zone (columns 6 and 7). 18 P, 6 L, 6 H, 4 R.
NO_RIVERS = "HHPRPLP/HHPRPLP/HHPSPLP/PLPRPLP/PLPRPPP"


@pytest.fixture()
def real(monkeypatch: pytest.MonkeyPatch) -> MuleData:
    """The bundled game: its 24 Plains, 8 of each Mountain and 4 Rivers to draw from."""
    monkeypatch.setattr(mule_data, "FOLDER", None)
    return mule_data.load()


def tournament(md: MuleData, value: str = "no-rivers", laid: str | None = None,
               names: list[str] = NAMES) -> State:
    s = from_json(game.new_game(md, names, "tournament", seed=3,
                                options={"random-land-placement": value}, planet=laid))
    return turn.begin_turn(s._replace(ranking=tuple(names)), md)


def plains_on(*squares: str) -> tuple[Land, ...]:
    """Lands of Plains without a tile on ``squares`` of a Player Board."""
    return tuple(land_of(board.new_land("plains", None, q)) for q in squares)


def check(s: State, md: MuleData, kind: str, square: str,
          tile: str | None = None) -> None:
    steps.check_from_planet(s, md, land_of(board.new_land(kind, tile, square)))


def test_the_zone_checks_follow_the_placement_typed(real: MuleData) -> None:
    s = tournament(real, laid=NO_RIVERS)
    assert s.planet[0] == tuple("HHPRPLP")
    # the Blue Zone holds no High Mountain as laid (the printed map has two there)
    with pytest.raises(RuleError, match="Blue Zone of Planet Irata as Random Land Placement "
                                        "laid it has no High Mountain square"):
        check(s, real, "high-mountain", "E1")
    printed = tournament(real, laid=PRINTED)
    check(printed, real, "high-mountain", "E1")
    # the Red Zone holds all six as laid: with Bob's three claimed, Cid claims a fourth
    # there (the printed map's Red Zone has three High Mountain squares)
    bobs = tuple(land_of(board.new_land("high-mountain", None, q)) for q in ("A1", "A2", "A3"))
    s, printed = (with_colonist(x, "Bob", lands=bobs) for x in (s, printed))
    steps.check_from_planet(s, real, land_of(board.new_land("high-mountain", None, "A1")))
    with pytest.raises(RuleError, match=r"Red Zone of Planet Irata has 3 High Mountain "
                                        r"square\(s\), all claimed already \(Bob A1, Bob A2, "
                                        r"Bob A3\)"):
        check(printed, real, "high-mountain", "A1")


def test_what_must_be_claimed_follows_it(real: MuleData) -> None:
    # Ann's empty squares are in the Blue Zone alone: as laid it still holds Plains and Low
    # Mountains, so she must claim one; the High Mountains are all in the Red Zone
    s = with_colonist(tournament(real, laid=NO_RIVERS), "Ann", lands=plains_on(
        "A1", "A2", "A3", "B1", "B2", "B3", "C1", "C3", "D1", "D2", "D3"))
    can = claimable(s, real, "Ann")
    assert [(c.zone, c.lands) for c in can] == [("blue", ("plains", "low-mountain"))]


def test_placement_typed_at_new_is_checked(real: MuleData) -> None:
    bad = [
        ("HPLRPLH/PHPRPLP", "5 rows of 7 squares"),
        ("HPLRPLH/PHPRPLP/LPPPSPH/PLPRHPP/PHPRLPP", "row 3, square 4 is The Store's square"),
        ("HPLRPLH/PHPRPLP/LPPSPPH/PLPRHPP/PHPRLPH", "lays 18 Plains on Planet Irata, not 17"),
        ("RPLHPLH/PHPRPLP/LPPSPPH/PLPRHPP/PHPRLPP", "without Rivers: the Rivers keep the "
                                                    "printed River squares"),
        ("H01 H01 L01 R01 P01 L02 H02/PHPRPLP/LPPSPPH/PLPRHPP/PHPRLPP", "H01 is one tile"),
        ("M01 P01 L01 R01 P02 L02 H01/PHPRPLP/LPPSPPH/PLPRHPP/PHPRLPP",
         "M01 is a Meteor Crater: it comes with Meteorite Strike!"),
        ("HPLRPLH/PHPRPLP/LPPSPPH/PLPRHPP/PHPRLPX", "'X': a square of Planet Irata is"),
    ]
    for text, says in bad:
        with pytest.raises((InputError, RuleError), match=says):
            tournament(real, laid=text)
    # with Rivers in the draw, a River may lie anywhere: the first River and High Mountain
    # of the printed first row swapped
    s = tournament(real, "rivers", laid="RPLHPLH/PHPRPLP/LPPSPPH/PLPRHPP/PHPRLPP")
    assert s.planet[0][0] == "R"


def test_three_colonists_leave_a_square_empty(real: MuleData) -> None:
    # 3 Colonists: 3 Rivers; the fourth River square is typed empty (-)
    laid = "HPL-PLH/PHPRPLP/LPPSPPH/PLPRHPP/PHPRLPP"
    s = tournament(real, laid=laid, names=NAMES[:3])
    assert s.planet[0][3] == "-"
    with pytest.raises(RuleError, match="lays 3 River on Planet Irata, not 4"):
        tournament(real, laid=PRINTED, names=NAMES[:3])
    # Meteorite Strike! reads the empty square: the White Zone has one from the start
    assert steps.empty_on_planet(s, real)["white"] == 1
    assert steps.empty_on_planet(tournament(real, laid=PRINTED), real)["white"] == 0


def test_the_placement_drawn_from_the_seed(real: MuleData) -> None:
    plain = game.new_game(real, NAMES, "tournament", seed=11)
    for value in ("rivers", "no-rivers"):
        a = game.new_game(real, NAMES, "tournament", seed=11,
                          options={"random-land-placement": value})
        b = game.new_game(real, NAMES, "tournament", seed=11,
                          options={"random-land-placement": value})
        assert a["planet"] == b["planet"]               # the same seed lays the same
        assert a["ranking"] == plain["ranking"]         # and leaves the Ranking as it was
        entries = [e for row in a["planet"] for e in row]
        kinds = [real.land(e).land for e in entries if len(e) > 1]
        assert (kinds.count("plains"), kinds.count("low-mountain"),
                kinds.count("high-mountain"), kinds.count("river")) == (18, 6, 6, 4)
        assert a["planet"][2][3] == "S" and len(set(entries)) == len(entries)
        rivers = [(y, x) for y, row in enumerate(a["planet"]) for x, e in enumerate(row)
                  if len(e) > 1 and real.land(e).land == "river"]
        if value == "no-rivers":
            assert rivers == [(0, 3), (1, 3), (3, 3), (4, 3)]
    # different seeds lay differently
    c = game.new_game(real, NAMES, "tournament", seed=12,
                      options={"random-land-placement": "rivers"})
    assert c["planet"] != a["planet"]


def test_a_tile_is_claimed_into_the_zone_it_was_laid_in(real: MuleData) -> None:
    s = tournament(real, "rivers")
    zones = real.planet_irata.zones
    red = next(e for row in s.planet for x, e in enumerate(row)
               if zones[x] == "red" and len(e) > 1 and real.land(e).land == "plains")
    kind = real.land(red).land
    with pytest.raises(RuleError, match=f"{red} was laid in the Red Zone of Planet Irata "
                                        r"\(Random Land Placement\), so it cannot go on B1"):
        check(s, real, kind, "B1", red)
    check(s, real, kind, "A1", red)
    # a tile the set-up did not lay is not on Planet Irata
    laid = {e for row in s.planet for e in row}
    absent = next(t.tile for t in real.lands.values()
                  if t.land == "plains" and t.tile not in laid)
    with pytest.raises(RuleError, match=f"{absent} was not laid on Planet Irata"):
        check(s, real, "plains", "A1", absent)
    t = steps.Turn(s._replace(todo=(("grant", "Ann"),)), real, lambda *a: None,
                   lambda _x: None)
    turn.advance(t, "grant")
    s = t.state
    with pytest.raises(RuleError, match=f"{absent} was not laid on Planet Irata"):
        steps._auction(s, real, absent, "Ann")


def test_a_river_laid_outside_the_white_zone_is_never_claimed(real: MuleData) -> None:
    # The river beds of the Player Board are White Zone squares, and a Land goes on a square
    # of the Zone it came from: a River laid in the Red Zone cannot be claimed at all (the
    # rules' consequence), so it never makes a claim a must
    laid = "RPLHPLH/PHPRPLP/LPPSPPH/PLPRHPP/PHPRLPP"      # the first River in the Red Zone
    s = with_colonist(tournament(real, "rivers", laid=laid), "Ann", lands=plains_on(
        "A2", "A3", "B1", "B2", "B3", "C1", "C3", "D1", "D2", "D3", "E1", "E2", "E3"))
    # A1 is Ann's one empty square: a Red Zone Land is a must, never the River
    assert [(c.zone, c.lands) for c in claimable(s, real, "Ann")] == [
        ("red", ("plains", "low-mountain", "high-mountain"))]
    with pytest.raises(RuleError, match="a River goes only on a river bed"):
        steps.claim(s, real, "Ann", "R01@A1")


def test_new_and_status_on_the_command_line(tmp_path: Path, real: MuleData) -> None:
    db = str(tmp_path / "g.db")
    base = ["play", "mule", "new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--db", db]
    code, err = clirun.run([*base, "--planet", NO_RIVERS])
    assert clirun.one_line(code, err) and "--option random-land-placement" in err
    code, err = clirun.run([*base, "--option", "random-land-placement", "--planet", "HPL"])
    assert clirun.one_line(code, err) and "5 rows of 7 squares" in err
    assert not Path(db).exists() or clirun.run(["play", "mule", "status", "--db", db])[0] == 2
    code, err = clirun.run([*base, "--option", "random-land-placement", "--planet",
                            NO_RIVERS])
    assert code == 0, err
    from click.testing import CliRunner

    from irata.cli import cli

    out = CliRunner().invoke(cli, ["play", "mule", "status", "--db", db]).stdout
    assert "Random Land Placement (no-rivers)" in out
    assert "Planet Irata as laid (Random Land Placement), top row first:" in out
    assert "  H   H   P   R   P   L   P" in out
    state = json.loads(CliRunner().invoke(cli, ["play", "mule", "status", "--db", db,
                                                "--json"]).stdout)
    assert state["options"] == {"random-land-placement": "no-rivers"}


def test_a_set_correction_of_the_placement_is_checked(real: MuleData) -> None:
    s = to_json(tournament(real, laid=NO_RIVERS))
    game.validate(s)
    swapped = game.set_path(s, "planet", [list("RHPHPLP"), *s["planet"][1:]])
    with pytest.raises(RuleError, match="without Rivers: the Rivers keep the printed River"):
        game.validate(swapped)
    plain = game.new_game(real, NAMES, "tournament", seed=3)
    with pytest.raises(RuleError, match="kept with Random Land Placement alone"):
        game.validate({**plain, "planet": s["planet"]})
    with pytest.raises(RuleError, match="More Game Turns takes 1 or 2"):
        game.validate({**plain, "options": {"more-game-turns": "5"}})


def test_every_drawn_placement_is_one_the_table_could_type(real: MuleData) -> None:
    import random

    for mode in ("beginner", "tournament"):
        for players in (3, 4):
            for rivers in (True, False):
                for seed in range(5):
                    rows = planet.draw(real, mode, players, rivers, random.Random(seed))
                    planet.check(rows, real, mode, players, rivers)     # raises if not
                    typed = "/".join(" ".join(row) for row in rows)
                    assert planet.parse(typed, real, mode, players, rivers) == rows
