"""``irata play set`` corrects any value of a saved M.U.L.E. game, but never to a state the rules
forbid: a Land off the Player Board or on The Store, two Lands on one square, a River off its
river bed, a tile owned twice or of another Land type, a M.U.L.E. without a Land or producing a
Good its Land cannot, a price off the Price Track, a Ranking that is not the Colonists', a
Meteor Crater in no Zone, a card that is not the game's. Each is refused with the rule in one
``error:`` line, exit 2, the games file byte for byte as it was; a correction the rules allow
goes through."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from components.errors import RuleError
from irata.cli import main


def play(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(["play", *args])
    out = capsys.readouterr()
    return int(info.value.code or 0), out.out, out.err


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A Beginner Game with the decks kept: each Colonist starts with a River and a Food
    M.U.L.E. on it; Ann's River is tile R01 on the river bed C1."""
    path = tmp_path / "games.sqlite3"
    assert play(["mule", "new", "--players", "Ann,Bob,Cy,Dee", "--seed", "3", "--deck",
                 "--db", str(path)], capsys)[0] == 0
    for where, value in (("players.Ann.lands.0.tile", "R01"),
                         ("players.Ann.lands.0.square", "C1")):
        assert play(["set", where, value, "--db", str(path)], capsys)[0] == 0
    return path


def state(db: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, _ = play(["status", "--json", "--db", str(db)], capsys)
    assert code == 0
    return json.loads(out)["state"]  # type: ignore[no-any-return]


PLAINS_AT = '{"land": "plains", "tile": "%s", "square": "%s", "mule": null, "secret": false}'
CRATER = ('{"land": "meteor-crater", "tile": "M01", "square": "A1", "mule": null, '
          '"secret": false}')
RIVER = '{"land": "river", "tile": "R01", "square": "C1", "mule": "food", "secret": false}'


@pytest.mark.parametrize(("path", "bad", "reason"), [
    # the Player Board's squares
    ("players.Ann.lands.0.square", "F9", "a square is A1 to E3"),
    ("players.Ann.lands.0.square", "C2", "C2 is The Store, which is in no Zone"),
    ("players.Ann.lands.0.square", "A1", "a River goes only on a river bed (C1 or C3), not A1"),
    ("players.Ann.lands", f'[{RIVER}, {PLAINS_AT % ("P01", "C1")}]',
     "C1 holds one Land, not both R01 and P01"),
    # the Land tiles
    ("players.Ann.lands.0.tile", "P01", "tile P01 is plains, not river"),
    ("players.Ann.lands.0.tile", "Z99", "no Land tile 'Z99'"),
    ("players.Bob.lands.0.tile", "R01", "cannot be on both Ann's and Bob's Player Board"),
    ("players.Ann.lands.0.land", "swamp", "'swamp' is not a Land type"),
    ("players.Ann.lands.0.secret", "true", "Rivers and Meteor Craters only have a Public Side"),
    ("players.Ann.lands", f'[{RIVER}, {CRATER}]',
     "M01 is a Meteor Crater, on Planet Irata (and so claimable) only once it is in 'craters'"),
    # the M.U.L.E.s
    ("players.Ann.mules.smithore", "1", "M.U.L.E.s are installed on Lands, one M.U.L.E. per "
     "tile: Ann's Lands have 0 M.U.L.E.(s) producing smithore, not 1"),
    ("players.Ann.lands.0.mule", "smithore", "R01 (river) has no Production Value for "
     "smithore"),
    ("players.Ann.lands.0.mule", "gold", "a M.U.L.E. produces a Good"),
    ("store.mules", "13", "at most 12 M.U.L.E.s, not 13"),
    # Goods and Money
    ("players.Ann.food", "-3", "cannot be negative"),
    ("store.food", "-1", "cannot be negative"),
    ("prices.food", "99", "food: $99 is not a Buy Price on its Price Track"),
    # the Colonists and the Ranking
    ("ranking.0", "Zed", "the Ranking: 'Zed' is not a Colonist of this game"),
    ("ranking.0", "Ann", "every Colonist holds exactly one Rank, 1 to 4; Ann is ranked twice"),
    ("order", '["Ann", "Bob", "Cy", "Zed"]', "the Colonists of the game are Ann, Bob, Cy, Dee"),
    ("todo.0.1", "Zed", "'todo': 'Zed' is not a Colonist of this game"),
    # the Game Turn
    ("turn", "0", "Game Turns are counted from 1, not 0"),
    ("phase", "bogus", "'bogus' is not a step of the Game Turn"),
    ("todo.0.0", "nap", "is not a step of the Game Turn"),
    ("mode", "expert", "not 'expert'"),
    # Meteor Craters and the decks
    ("craters", '["H01"]', "'H01' is not a Meteor Crater tile of the game"),
    ("craters", '["M01", "M01"]', "M01 is one Meteor Crater tile: it is on Planet Irata once"),
    ("production_deck.0", "production/no-such-card", "is not a Production Card of the game"),
    ("event_decks.lucky.draw.0", "unlucky/no-such-card",
     "the Lucky Event deck: 'unlucky/no-such-card' is not one of its cards"),
])
def test_set_refuses_a_state_the_rules_forbid(db: Path, path: str, bad: str, reason: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    before = db.read_bytes()
    code, _, err = play(["set", "--db", str(db), "--", path, bad], capsys)
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert reason in err, err
    assert db.read_bytes() == before


def test_a_meteor_crater_is_in_a_zone_of_planet_irata(db: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    # set corrects a value the game keeps (crater_zones gains a Meteor Crater only in play),
    # so the saved game's own check is called with the state a correction would make
    from companion.mule.saved import validate

    assert play(["set", "--db", str(db), "craters", '["M01"]'], capsys)[0] == 0
    s = state(db, capsys)
    validate({**s, "crater_zones": {"M01": "blue"}})
    with pytest.raises(RuleError, match="M01: 'purple' is not a Zone of Planet Irata "
                                        r"\(red, white, blue\)"):
        validate({**s, "crater_zones": {"M01": "purple"}})
    with pytest.raises(RuleError, match=r"M02 is not on Planet Irata \('craters'\), so it is "
                                        "in no Zone"):
        validate({**s, "crater_zones": {"M02": "red"}})


def test_corrections_the_rules_allow_go_through(db: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    for path, value in (
            ("players.Ann.food", "7"), ("players.Ann.money", "0"), ("store.mules", "12"),
            ("prices.food", "2"), ("ranking", '["Ann", "Bob", "Cy", "Dee"]'),
            ("turn", "3"), ("players.Ann.lands.0.square", "C3"),
            ("players.Ann.lands.0.mule", "energy"),
            ("players.Ann.lands", f'[{RIVER}, {PLAINS_AT % ("P01", "A1")}]'),
            ("players.Ann.lands.1.mule", "smithore"),
            ("players.Ann.lands.1.secret", "true"),
            ("craters", '["M01"]'), ("players.Bob.lands.0.tile", "R02")):
        code, _, err = play(["set", "--db", str(db), path, value], capsys)
        assert code == 0, (path, value, err)
    s = state(db, capsys)
    ann = s["players"]["Ann"]
    assert [(x["tile"], x["square"], x["mule"]) for x in ann["lands"]] == [
        ("R01", "C1", "food"), ("P01", "A1", "smithore")]
    # the M.U.L.E.s move with the Lands they are installed on
    assert ann["mules"] == {"smithore": 1, "crystite": 0, "food": 1, "energy": 0}
    assert s["ranking"] == ["Ann", "Bob", "Cy", "Dee"] and s["prices"]["food"] == 2


def test_taking_a_land_off_takes_its_mule_off(db: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    bare = RIVER.replace('"food"', "null")
    code, _, err = play(["set", "--db", str(db), "players.Ann.lands", f"[{bare}]"], capsys)
    assert code == 0, err
    assert state(db, capsys)["players"]["Ann"]["mules"]["food"] == 0
