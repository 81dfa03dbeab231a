"""Production Cards' effects beyond modifiers, and Production counted from the Lands kept in a
saved game (tiles and squares): the rulebook's 4. Production, its Questions and Answers, and
the Production Cards' structured ``effect`` / ``game_turn_1`` data."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from click.testing import CliRunner

from companion.mule import board, production
from companion.mule import data as mule_data
from companion.mule import saved as game
from companion.mule.data import MuleData
from companion.mule.state import GOODS, Goods, Land, State, Store, from_json, land_of, to_json
from components.errors import InputError, RuleError
from irata.cli import cli
from tests.companion.mule_states import colonist, with_colonist

NAMES = ["Ann", "Bob", "Cid", "Dee"]


# Land Grant: a Colonist who can claim a Land has to (Questions and Answers), so the table
# claims one each time, in the Blue Zone (column E), where these tests put no Land: Planet
# Irata's Blue Zone has 6 Plains, 2 Low Mountain and 2 High Mountain squares, enough for the
# two Land Grants of Turn 1, or of two later Turns
CLAIMS = {"Ann": ["P13@E1", "P14@E2"], "Bob": ["P15@E1", "P16@E2"],
          "Cid": ["P17@E1", "P18@E2"], "Dee": ["L05@E1", "H05@E2"]}


class Script:
    """Answers a guided turn's questions: the first unused (words, answer) pair whose words are
    in the question; a Land Grant with the Colonist's next claim of ``CLAIMS``; the question's
    default otherwise."""

    def __init__(self, *pairs: tuple[str, str], claimed: int = 0) -> None:
        self.pairs = list(pairs)
        self.asked: list[str] = []
        self.said: list[str] = []
        # ``claimed``: how many of CLAIMS each Colonist claimed in the Turns played before
        self.claims = {n: list(c[claimed:]) for n, c in CLAIMS.items()}

    def ask(self, question: str, default: str) -> str:
        self.asked.append(question)
        assert len(self.asked) < 200, "the turn keeps asking: " + question
        for i, (words, answer) in enumerate(self.pairs):
            if words in question:
                del self.pairs[i]
                return answer
        if question.startswith("Land Grant: "):
            return self.claims[question.split()[2]].pop(0)
        if question.startswith("Development, Action Round"):
            return "pass"      # a Pass is typed, never taken from a blank
        return default

    def say(self, line: str) -> None:
        assert not line.startswith("  !"), line     # no answer here is refused
        self.said.append(line)

    @property
    def text(self) -> str:
        return "\n".join(self.said)


def mule_counts(lands: Sequence[Land]) -> Goods:
    """The M.U.L.E.s on ``lands``, by the Good they produce."""
    return Goods(*(sum(x.mule == g for x in lands) for g in GOODS))


def start(md: MuleData, card: str, turn: int = 2, **lands: list[Land]) -> State:
    """A Tournament game at ``turn`` with the Ranking Ann, Bob, Cid, Dee, ``card`` on top of
    the Production deck, plenty of Energy, and the Lands given."""
    raw = game.new_game(md, NAMES, "tournament", seed=3, deck=True, alt_events=True)
    raw.pop("todo")  # saved before the steps: the Land Grant order follows this Ranking
    s = from_json(raw)
    return s._replace(
        ranking=tuple(NAMES), turn=turn,
        production_deck=(card, "production/the-ship-is-back-1"),
        colonists=tuple(colonist(c, energy=12, lands=tuple(lands.get(c.name, [])),
                                 mules=mule_counts(lands.get(c.name, [])))
                        for c in s.colonists))


def land(tile: str, square: str, mule: str | None, md: MuleData, secret: bool = False
         ) -> Land:
    return land_of(board.new_land(md.land(tile).land, tile, square, mule))._replace(
        secret=secret)


def play(state: State, md: MuleData, script: Script) -> State:
    before = to_json(state)
    after, _ = game.play_turn(state, md, script.ask, script.say)
    assert to_json(state) == before          # the saved state is never changed in place
    return after


def produced(script: Script, name: str) -> str:
    return next(line for line in script.said if line.startswith(f"{name} produces"))


# -- Production from the saved game's Lands ------------------------------------------------------

def test_square_of_four_gives_four_economies_of_scale_and_turns_lands_over(md: MuleData
                                                                            ) -> None:
    # "you get a total +4 bonus for having four Lands producing the same type of Good in a
    # square formation"; Crystite produced for the first time turns each Land over
    ann = [land("P07", "A1", "crystite", md), land("P08", "B1", "crystite", md),
           land("P01", "A2", "crystite", md), land("P02", "B2", "crystite", md)]
    s = Script()
    after = play(start(md, "production/quiet-turn", Ann=ann), md, s)
    # base 2+0+1+3 = 6, four Paths: +4 (then spoilage is next turn's business)
    assert "Ann produces smithore 0, crystite 10, food 0, energy 0 (Economies of Scale " \
        "crystite +4); turn to the Secret Side: P07, P08, P01, P02" in s.text
    # the Plains Ann claimed in Land Grant (E1) has no M.U.L.E.: it keeps its Public Side
    assert [x.secret for x in after.colonist("Ann").lands] == [True] * 4 + [False]
    assert not any("working Lands" in q for q in s.asked)      # nothing typed
    # next turn the Lands show their Secret Side: nothing more turns over
    s2 = Script(claimed=1)
    play(after, md, s2)
    assert "Secret Side" not in produced(s2, "Ann")


def test_energy_shortage_flips_named_mules(md: MuleData) -> None:
    ann = [land("P07", "A1", "crystite", md), land("P08", "B1", "crystite", md),
           land("P01", "A2", "crystite", md), land("P02", "B2", "crystite", md)]
    state = with_colonist(start(md, "production/quiet-turn", Ann=ann), "Ann",
                          energy=1)                     # 4 M.U.L.E.s use Energy: 3 short
    s = Script(("flipped for the Energy Shortage", "P07,P08,P01"))
    play(state, md, s)
    # only P02 works: 3 Crystite, no Path between working Lands, only P02 turns over
    assert produced(s, "Ann") == ("Ann produces smithore 0, crystite 3, food 0, energy 0; "
                                  "turn to the Secret Side: P02")


def test_flipping_the_wrong_number_is_refused_then_asked_again(md: MuleData) -> None:
    ann = [land("P07", "A1", "food", md), land("R01", "C1", "food", md)]
    state = with_colonist(start(md, "production/quiet-turn", Ann=ann), "Ann", energy=1)
    answers = iter(["P07,R01", "R01"])
    said: list[str] = []

    def ask(question: str, default: str) -> str:
        if question.startswith("Land Grant: "):
            return CLAIMS[question.split()[2]][0]
        if question.startswith("Development, Action Round"):
            return "pass"
        return next(answers) if "Energy Shortage" in question else default

    game.play_turn(state, md, ask, said.append)
    assert any("flip exactly 1" in line for line in said)
    assert any(line.startswith("Ann produces smithore 0, crystite 0, food 2,") for line in said)


# -- Radiation! ------------------------------------------------------------------------------------

def test_radiation_rank_1_loses_a_mule_of_their_choice(md: MuleData) -> None:
    ann = [land("R01", "C1", "food", md), land("P07", "B1", "energy", md)]
    bob = [land("R02", "C3", "food", md)]
    s = Script(("Radiation!: Ann loses which", "P07"))
    after = play(start(md, "production/radiation", Ann=ann, Bob=bob), md, s)
    assert "Ann loses the M.U.L.E. on P07" in s.text
    assert produced(s, "Ann").startswith("Ann produces smithore 0, crystite 0, food 3, energy 0")
    assert produced(s, "Bob").startswith("Bob produces smithore 0, crystite 0, food 2")
    a = after.colonist("Ann")
    # gone to the neutral stacks (the third Land, claimed in Land Grant, never had one)
    assert [x.mule for x in a.lands] == ["food", None, None]
    assert a.mules._asdict() == {"smithore": 0, "crystite": 0, "food": 1, "energy": 0}
    assert after.store.mules == 12                                # not to The Store


def test_radiation_on_game_turn_1_flips_one_mule_each(md: MuleData) -> None:
    ann = [land("R01", "C1", "food", md), land("P07", "B1", "energy", md)]
    bob = [land("R02", "C3", "food", md)]
    s = Script(("Radiation!: Ann flips which", "R01"))
    after = play(start(md, "production/radiation", turn=1, Ann=ann, Bob=bob), md, s)
    assert "Every Colonist flips over one M.U.L.E." not in s.text   # the fixture's own words
    assert "Game Turn 1" in s.text
    assert produced(s, "Ann").startswith("Ann produces smithore 0, crystite 0, food 0, energy 3")
    assert produced(s, "Bob").startswith("Bob produces smithore 0, crystite 0, food 0")
    assert "Radiation!: Cid has no M.U.L.E. to flip" in s.text    # Turn 1: flipped, not lost
    assert after.colonist("Ann").mules.food == 1                     # flipped, not lost


def test_radiation_hit_land_turns_no_secret_side_and_gives_no_economies(md: MuleData) -> None:
    # Questions and Answers (Production): a Land whose M.U.L.E. Radiation! took is not turned
    # over, and gives no Economies of Scale
    ann = [land("P07", "A1", "crystite", md), land("P02", "B1", "crystite", md)]
    s = Script(("Radiation!: Ann loses which", "P07"))
    play(start(md, "production/radiation", Ann=ann), md, s)
    assert produced(s, "Ann") == ("Ann produces smithore 0, crystite 3, food 0, energy 0; "
                                  "turn to the Secret Side: P02")


# -- Pest Attack! ----------------------------------------------------------------------------------

def test_pest_attack_hits_rank_1(md: MuleData) -> None:
    ann = [land("R01", "C1", "food", md), land("P07", "B1", "food", md)]
    s = Script(("Pest Attack!: which of Ann's food Lands", "R01"))
    play(start(md, "production/pest-attack", Ann=ann), md, s)
    assert "Ann loses the food of R01" in s.text
    assert produced(s, "Ann").startswith("Ann produces smithore 0, crystite 0, food 2,")


def test_pest_attack_falls_to_rank_2_when_rank_1_makes_no_food(md: MuleData) -> None:
    ann = [land("P07", "B1", "energy", md)]
    bob = [land("R02", "C3", "food", md)]            # the only candidate: nothing asked
    s = Script()
    play(start(md, "production/pest-attack", Ann=ann, Bob=bob), md, s)
    assert "Bob loses the food of R02" in s.text
    assert produced(s, "Bob").startswith("Bob produces smithore 0, crystite 0, food 0,")


def test_pest_attack_never_reaches_rank_3(md: MuleData) -> None:
    # Questions and Answers: after the first Production Phase Pest Attack! can only affect
    # Rank 1 or Rank 2
    cid = [land("R02", "C3", "food", md)]
    s = Script()
    play(start(md, "production/pest-attack", Cid=cid), md, s)
    assert "Pest Attack!: no Colonist it can hit produces food" in s.text
    assert produced(s, "Cid").startswith("Cid produces smithore 0, crystite 0, food 2,")


def test_pest_attack_on_game_turn_1_hits_every_food_producer(md: MuleData) -> None:
    ann = [land("P07", "B1", "energy", md)]
    bob = [land("R02", "C3", "food", md)]
    dee = [land("R01", "C1", "food", md)]
    s = Script()
    play(start(md, "production/pest-attack", turn=1, Ann=ann, Bob=bob, Dee=dee), md, s)
    assert "Bob loses the food of R02" in s.text and "Dee loses the food of R01" in s.text
    assert produced(s, "Ann").endswith("energy 3")


def test_pest_attack_targets_as_pure_function() -> None:
    effect = {"pest_attack": {"ranks": [1, 2], "good": "food", "lands": 1}}
    every = {"pest_attack": {"ranks": [1, 2, 3, 4], "good": "food", "lands": 1}}
    makes = {"A": False, "B": True, "C": True}.__getitem__
    assert production.pest_attack_targets(effect, ["A", "B", "C"], makes, False) == ["B"]
    assert production.pest_attack_targets(every, ["A", "B", "C"], makes, True) == ["B", "C"]
    assert production.pest_attack_targets(effect, ["A", "B", "C"], lambda n: False,
                                          False) == []


# -- Fire in The Store! and the Meteor Craters -----------------------------------------------------

def test_fire_in_the_store_burns_its_goods_not_its_mules(md: MuleData) -> None:
    s = Script()
    after = play(start(md, "production/fire-in-the-store"), md, s)
    assert after.store == Store(mules=12, smithore=0, food=0, energy=0)   # no Crystite key
    assert "The Store loses all its smithore, food, energy" in s.text
    # Pricing sees the empty Store: every Colonist has less than 4 Food (4 each, after
    # spoilage 2): +8 steps, clamped at the top of the lane
    assert "Food: +8 steps, moved +6 -> $9/7" in s.text


def test_meteor_craters_come_into_play_and_can_then_be_claimed(md: MuleData) -> None:
    with pytest.raises(RuleError, match="Meteor Crater"):
        board.parse_claim("M01", md.land, {}, [], [], md.player_board)
    # this Turn's Land Grant emptied four Blue squares (E1 of each Player Board); the Red and
    # White Zones are full (Tournament, 4 Colonists: every square holds a Land)
    s = Script(("Meteorite Strike!: Dee places M01, M02", "red,blue"),
               ("Meteorite Strike!: Dee places M01, M02", "blue,blue"))
    s.say = s.said.append      # type: ignore[method-assign]   # the refusal is said
    after = play(start(md, "production/meteorite-strike"), md, s)
    assert after.craters == ("M01", "M02")
    assert dict(after.crater_zones) == {"M01": "blue", "M02": "blue"}
    assert "Dee places M01, M02 on empty squares of Planet Irata (M01 Blue Zone, M02 Blue " \
        "Zone)" in s.text
    # the refused answer was asked again, with the rule's reason
    assert sum("Meteorite Strike!: Dee places" in q for q in s.asked) == 2
    assert "  ! Meteorite Strike!: a Meteor Crater goes on an empty square of Planet Irata, " \
        "and the Red Zone has no empty square, so it cannot take M01" in s.said
    # a Land goes on a square of the Zone it came from: M01 lies in the Blue Zone (column E)
    s2 = Script(("Land Grant: Dee claims", "M01@A3"), ("Land Grant: Dee claims", "M01@E3"),
                claimed=1)
    s2.say = s2.said.append      # type: ignore[method-assign]   # the refusal is said
    later = play(after, md, s2)
    assert any("M01 lies in the Blue Zone of Planet Irata, so it cannot go on A3 (Red Zone)"
               in line for line in s2.said)
    assert later.colonist("Dee").lands[-1] == Land(
        land="meteor-crater", tile="M01", square="E3", mule=None, secret=False)


def test_pirate_ship_takes_every_crystite(md: MuleData) -> None:
    state = with_colonist(start(md, "production/pirate-ship"), "Bob", crystite=5)
    s = Script()
    after = play(state, md, s)
    assert after.colonist("Bob").stock("crystite") == 0
    assert "Crystite: +0 steps" in s.text


# -- the production calculator ---------------------------------------------------------------------

@pytest.fixture
def _fixture_game(mule_folder: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mule_data, "FOLDER", mule_folder)


def calc(*args: str) -> Any:
    import json

    result = CliRunner().invoke(cli, ["play", "mule", "production", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.usefixtures("_fixture_game")
def test_calculator_radiation_and_pest_attack() -> None:
    out = calc("--card", "radiation", "--lands", "F3,E2,C1", "--rank", "1", "--hit", "E2")
    assert out["total"] == {"smithore": 0, "crystite": 1, "food": 3, "energy": 0}
    assert (out["hit"], out["mule_lost"]) == ("E2", True)
    # not Rank 1: Radiation! passes by
    assert calc("--card", "radiation", "--lands", "F3,E2", "--rank", "2")["hit"] is None
    # Game Turn 1: every Rank flips one; the only M.U.L.E. needs no --hit
    out = calc("--card", "radiation", "--lands", "F3", "--rank", "3", "--turn", "1")
    assert out["total"]["food"] == 0 and out["mule_lost"] is False
    out = calc("--card", "pest-attack", "--lands", "R01:F,P07:F,E2", "--rank", "1",
               "--hit", "P07")
    assert out["total"]["food"] == 3 and out["hit"] == "P07"
    # Rank 2 only if Rank 1 makes no Food: a note, unless --hit says so
    out = calc("--card", "pest-attack", "--lands", "F3", "--rank", "2")
    assert out["total"]["food"] == 3 and "only if Rank 1" in out["notes"][0]
    out = calc("--card", "pest", "--lands", "F3,F2", "--rank", "2", "--hit", "2")
    assert out["total"]["food"] == 3
    out = calc("--card", "fire", "--lands", "F3")
    assert out["store_loses_all"] == ["smithore", "food", "energy"]


@pytest.mark.usefixtures("_fixture_game")
@pytest.mark.parametrize(("args", "message"), [
    (["--card", "radiation", "--lands", "F3,E2", "--rank", "1"], "chooses one of F3, E2"),
    (["--card", "radiation", "--lands", "F3", "--rank", "2", "--hit", "F3"],
     "does not hit Rank 2"),
    (["--card", "sunspots", "--lands", "F3", "--hit", "F3"], "--hit is for Radiation!"),
    (["--card", "pest-attack", "--lands", "F3,E2", "--hit", "E2"], "not one of the Lands"),
])
def test_calculator_refusals(args: list[str], message: str,
                             capsys: pytest.CaptureFixture[str]) -> None:
    from irata.cli import main

    with pytest.raises(SystemExit) as info:
        main(["play", "mule", "production", *args])
    err = capsys.readouterr().err
    assert info.value.code == 2 and message in err and err.count("\n") == 1


def test_land_index_and_strike() -> None:
    lands = production.parse_lands("F3,E2!,P07:C", lambda t, g: 2)
    assert production.land_index(lands, "p07") == 2
    assert production.land_index(lands, "2") == 1
    assert production.land_index(lands, None, "food") == 0
    assert production.land_index(lands, None, "smithore") is None
    with pytest.raises(InputError):
        production.land_index(lands, None)
    struck = production.strike(lands, 0)
    assert struck[0].flipped and not lands[0].flipped
    assert production.produce(struck).total["food"] == 0
