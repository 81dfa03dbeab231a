"""Two of M.U.L.E.'s Optional Rules played over the Turns they change, as the table types them:
Single Action Round per Turn and More Predictability (``mule-board-game.txt``, "Optional
Rules"). Every game starts as ``examples/mule/tournament-turn-1.txt`` does: four Colonists,
Tournament, seed 3 (the Ranking Dee, Ann, Cid, Bob; each with $30, 4 Food, 2 Energy; The Store
with 12 M.U.L.E.s and 8 Smithore, a M.U.L.E. at $5), the same eight Land Grants."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from irata.cli import cli
from tests import clirun

GRANTS = ["grant", "Bob=R01@C1", "Cid=R02@C1", "Ann=R03@C3", "Dee=R04@C1", "Bob=P03@B1",
          "Cid=P09@B1", "Ann=P07@D3", "Dee=P04@A1"]


def mule(*args: str, stdin: str | None = None) -> str:
    result = CliRunner().invoke(cli, ["play", "mule", *args], input=stdin,
                                catch_exceptions=False)
    assert result.exit_code == 0, (args, result.output)
    return result.output


def refused(*args: str) -> str:
    """The entry refused: one error line, and the games file byte-identical."""
    db = Path(os.environ["IRATA_DB"])
    before = db.read_bytes()
    code, err = clirun.run(["play", "mule", *args])
    assert clirun.one_line(code, err), err
    assert db.read_bytes() == before
    return err


def state() -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["play", "status", "--json"], catch_exceptions=False)
    return json.loads(result.output)["state"]  # type: ignore[no-any-return]


def set_up(*option: str, deck: bool = False) -> None:
    extra = [f"--option={o}" for o in option] + (["--deck"] if deck else [])
    mule("new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3", *extra)
    mule(*GRANTS)
    mule("auction", "none")
    mule("package", "none")


def colonist(name: str) -> dict[str, Any]:
    return state()["players"][name]  # type: ignore[no-any-return]


# -- Single Action Round per Turn ------------------------------------------------------------------

def test_single_action_round_up_to_six_food(tmp_path: Path) -> None:
    # "There is only one Action Round in Development. Maximum six (6) Food can be used by
    # each Colonist's single Action Round."
    set_up("single-action-round")
    assert "Dee's single Action Round" in mule("next")
    # Dee: Buy in the White Zone (R04@C1) 1 Food + Buy in the Red Zone (P04@A1) 2 Food + Assay
    # 1 Food = 4 Food, three Actions (refused in a three-Round game: see below); two
    # M.U.L.E.s at $5: $30 - $10 = $20; Food 4 - 4 = 0
    mule("develop", "Dee", "buy R04 F, buy P04 E, assay")
    dee = colonist("Dee")
    assert (dee["money"], dee["food"], state()["dev"]["food_used"]["Dee"]) == (20, 0, 4)
    # Ann: three White Zone Buys and an Assay, 4 Food; $30 - $15 = $15
    mule("develop", "Ann", "buy R03 F, buy P07 E, assay, assay")
    # Cid: 1 + 1 (Wampus caught: +$10) + 1 + 1 = 4 Food; $30 - $10 + $10 = $30
    mule("develop", "Cid", "buy R02 F, buy P09 E, wampus yes, assay")
    # Bob has 4 Food: 1 + 1 + 2 (Refit M.U.L.E.s on Two Adjacent Lands, B1 and C1) = 4 Food is
    # allowed; five Actions of 1 Food cost 5, more than Bob holds
    err = refused("develop", "Bob", "buy R01 F, buy P03 E, assay, assay, assay")
    assert "Bob has 0 Food left, 'assay' costs 1" in err
    # seven Actions: more than the six the project allows (the three Rounds' two each)
    err = refused("develop", "Bob", "assay, assay, assay, assay, assay, assay, assay")
    assert "up to 6 Actions in the single Action Round, not 7" in err
    out = mule("develop", "Bob", "buy R01 F, buy P03 E, refit R01 E P03 F")
    assert "Bob: 4 Food into the Food Usage box; $20, Food 0" in out
    # no Action Round 2: Usage and Spoilage ran itself, Production comes now
    assert "(ran itself) 3. Usage and Spoilage" in out
    assert "4. Production: Production" in mule("next")
    assert state()["dev"]["round"] == 1


def test_seven_food_is_too_much_even_in_the_single_round(tmp_path: Path) -> None:
    set_up("single-action-round")
    for who, actions in (("Dee", "pass"), ("Ann", "pass"), ("Cid", "pass")):
        mule("develop", who, actions)
    # Bob holds 4 Food; give him 9 (a correction) to see the six-Food limit: 1 + 1 + 2 + 2 + 1
    # = 7 Food in one Action Round is refused
    mule("set", "players.Bob.food", "9")
    err = refused("develop", "Bob",
                  "buy R01 F, buy P03 E, refit R01 E P03 F, refit R01 F P03 E, assay")
    assert "no more than 6 Food in one Action Round (Bob's Actions cost 7)" in err
    # 1 + 1 + 2 + 2 = 6 Food: allowed; 9 - 6 = 3 Food left
    out = mule("develop", "Bob", "buy R01 F, buy P03 E, refit R01 E P03 F, refit R01 F P03 E")
    assert "Bob: 6 Food into the Food Usage box; $20, Food 3" in out


def test_without_the_rule_the_same_round_is_refused(tmp_path: Path) -> None:
    # "each with up to two (2) Actions per Player ... No more than two (2) Food"
    set_up()
    err = refused("develop", "Dee", "buy R04 F, buy P04 E, assay")
    assert "up to 2 Actions in one Action Round, not 3" in err
    assert "Dee's Action Round 1" in mule("next")


def test_single_action_round_in_the_guided_turn(tmp_path: Path) -> None:
    set_up("single-action-round")
    typed = "\n".join([
        "buy R04 F, buy P04 E, assay",            # Dee: 1 + 2 + 1 = 4 Food
        "buy R03 F, buy P07 E, assay, assay",     # Ann: 4 Food
        "buy R02 F, buy P09 E, wampus yes, assay",  # Cid: 4 Food
        "buy R01 F, buy P03 E, assay, assay, assay",  # Bob: 5 Food, he has 4: asked again
        "buy R01 F, buy P03 E, assay, assay",     # Bob: 4 Food
        "Acid Rain Storm!", ""]) + "\n"
    out = CliRunner().invoke(cli, ["play", "mule", "turn"], input=typed).output
    assert out.count("Development, the single Action Round:") == 5   # Bob asked twice
    assert "! Development: Bob has 0 Food left, 'assay' costs 1" in out
    assert "Action Round 2" not in out
    # Production with Acid Rain Storm! (Food +2, Energy -2): Dee's R04 Food 3 + 2 = 5, P04
    # Energy 3 - 2 = 1
    assert "Dee produces smithore 0, crystite 0, food 5, energy 1" in out


# -- More Predictability ---------------------------------------------------------------------------

def _two_rounds(wampus: str = "wampus yes") -> None:
    # Round 1 as examples/mule/tournament-turn-1.txt; Round 2: nobody Passes
    mule("develop", "Dee=buy R04 F, assay", "Ann=buy R03 F, buy P07 E",
         f"Cid=buy R02 F, {wampus}", "Bob=buy R01 F, buy P03 E")
    mule("develop", "Dee=assay", "Ann=assay", "Cid=buy P09 E", "Bob=assay")


def test_more_predictability_over_two_turns(tmp_path: Path) -> None:
    set_up("more-predictability")
    _two_rounds()
    # "Draw and reveal the Production Card already in Development Phase, at the beginning of
    # Action Round 3."
    assert "the Production Card revealed at the beginning of Action Round 3" in mule("next")
    assert "not the time for 'develop'" in refused("develop", "Dee", "pass")
    assert "drawn on Turn 7" in refused("reveal", "PR01")
    assert "Production Card revealed: PR05 Acid Rain Storm!" in mule("reveal",
                                                                     "Acid Rain Storm!")
    status = mule("status")
    assert "Production Card revealed: PR05 Acid Rain Storm! (it takes effect at Production)" \
        in status
    assert "Dee's Action Round 3" in status
    from companion.mule import view

    assert "Production Card revealed: PR05 Acid Rain Storm! (it takes effect at Production)" \
        in view.board(state()).notes
    # "The Production Card will take effect at the beginning of Production Phase, as usual":
    # nothing to type at Production, so it runs itself after Round 3. Acid Rain Storm!: Food
    # +2, Energy -2. Dee R04 Food 3 + 2 = 5; Ann R03 Food 3 + 2 = 5, P07 Energy 3 - 2 = 1;
    # Cid R02 Food 2 + 2 = 4, P09 Energy 2 - 2 = 0; Bob R01 Food 3 + 2 = 5, P03 Energy 3 - 2
    # = 1 (no Paths between Lands producing the same Good)
    out = mule("develop", "Dee=pass", "Ann=pass", "Cid=pass", "Bob=pass")
    assert "Production Card revealed in Development: PR05 Acid Rain Storm!" in out
    for line in ("Dee produces smithore 0, crystite 0, food 5, energy 0",
                 "Ann produces smithore 0, crystite 0, food 5, energy 1",
                 "Cid produces smithore 0, crystite 0, food 4, energy 0",
                 "Bob produces smithore 0, crystite 0, food 5, energy 1"):
        assert line in out
    for good in ("smithore", "crystite", "food", "energy"):
        out = mule("trade", good)
    # "Skip the Personal Events phase": after Ranking, Turn 2's Land Grant
    assert "Lucky" not in out and state()["turn"] == 2
    assert "Land Grant, Bob claims a Land" in mule("next")
    mule("grant", "Bob=P05@B2", "Ann=P06@B2", "Dee=P08@B2", "Cid=P10@B2")
    mule("auction", "none")
    mule("package", "none")
    # everyone Passes in Round 1: no Round 3 comes, so the card is drawn at Production
    mule("develop", "Cid=pass", "Dee=pass", "Ann=pass", "Bob=pass")
    assert "4. Production: Production" in mule("next")
    # "Production Cards that have an altered effect on Game Turn 1 (Pest Attack! and
    # Radiation!) use the 'Effect on Game Turn 1' only, on all Game Turns": on Turn 2
    # Radiation! stuns every Colonist's M.U.L.E. (flipped), where the Rank 1 Colonist (Cid)
    # would lose one. Cid flips P09: R02 Food 2; Dee's only M.U.L.E. (R04) flipped: nothing;
    # Ann flips R03: P07 Energy 3; Bob flips P03: R01 Food 3
    out = mule("produce", "Radiation!", "--hit", "Cid=P09", "--hit", "Ann=R03",
               "--hit", "Bob=P03")
    assert "Every Colonist flips over one M.U.L.E." in out
    for line in ("Cid produces smithore 0, crystite 0, food 2, energy 0",
                 "Dee produces smithore 0, crystite 0, food 0, energy 0",
                 "Ann produces smithore 0, crystite 0, food 0, energy 3",
                 "Bob produces smithore 0, crystite 0, food 3, energy 0"):
        assert line in out
    assert [x["mule"] for x in colonist("Cid")["lands"]][:2] == ["food", "energy"]


def test_more_predictability_with_the_companions_decks(tmp_path: Path) -> None:
    set_up("more-predictability", deck=True)
    lucky = len(state()["event_decks"]["lucky"]["draw"])
    _two_rounds("wampus")      # Cid's Wampus hunt draws one Lucky Event card
    s = state()
    # the card was drawn and revealed by the companion itself at the beginning of Round 3
    drawn = s["production_drawn"]
    assert len(drawn) == 1 and s["card"] == drawn[0] and s["dev"]["round"] == 3
    out = mule("develop", "Dee=pass", "Ann=pass", "Cid=pass", "Bob=pass")
    assert "Production Card revealed in Development" in out
    assert state()["production_drawn"] == drawn        # not drawn again at Production
    for good in ("smithore", "crystite", "food", "energy"):
        if state()["turn"] == 1 and state()["todo"][0] == ["trade", good]:
            mule("trade", good)
    # "Lucky Event cards are only used for Hunting the Wampus": one card drawn, for Cid
    s = state()
    assert s["turn"] == 2
    assert len(s["event_decks"]["lucky"]["draw"]) == lucky - 1
    assert s["event_decks"]["unlucky"]["discard"] == []


def test_both_rules_reveal_before_the_single_round(tmp_path: Path) -> None:
    # the project's decision: with Single Action Round there is no Round 3, and the card is
    # revealed at the beginning of the last (the one) Action Round
    set_up("more-predictability", "single-action-round")
    status = mule("status")
    assert "revealed at the beginning of the single Action Round" in status
    assert "the Production Card revealed at the beginning of Action Round 1" in mule("next")
    mule("reveal", "PR05")
    assert "Dee's single Action Round" in mule("next")


def test_more_predictability_in_the_guided_turn(tmp_path: Path) -> None:
    set_up("more-predictability")
    typed = "\n".join([
        "buy R04 F, assay", "buy R03 F, buy P07 E", "buy R02 F, wampus yes",
        "buy R01 F, buy P03 E",                       # Action Round 1
        "assay", "assay", "buy P09 E", "assay",       # Action Round 2: nobody Passes
        "Acid Rain Storm!",                           # revealed before Action Round 3
        "pass", "pass", "pass", "pass",               # Action Round 3
        *[""] * 12]) + "\n"                           # the Market: nothing traded
    out = CliRunner().invoke(cli, ["play", "mule", "turn"], input=typed).output
    reveal = out.index("Production Card revealed: PR05 Acid Rain Storm! (it takes effect at "
                       "Production)")
    assert out.index("Dee's Actions") < reveal < out.index("Action Round 3: Dee's Actions")
    # Production takes the card revealed: nothing asked; Acid Rain Storm! makes Dee's R04
    # Food 3 + 2 = 5
    assert "Production Card drawn" not in out
    assert "Dee produces smithore 0, crystite 0, food 5, energy 0" in out
    # no Personal Events: the Turn ends at Ranking, Turn 2 begins with the Land Grant
    assert "Lucky" not in out and "Unlucky" not in out
    assert "Turn 1 saved in game 1. Next: 1. Expansion: Land Grant, Bob claims a Land" in out
