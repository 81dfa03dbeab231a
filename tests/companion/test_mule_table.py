"""A 4-player Tournament game of M.U.L.E. played at the table through the step commands, from
the set-up to the Colony's rating, with the inputs the table types (the printed copy's names:
tiles, the Player Board's squares, the cards' codes and titles), the mistakes a table makes
(each refused with the rule's reason, the saved game unchanged), and the state after Turns 1
and 2 worked out by hand from the rulebook in the comments.

The bundled game's definitions are used: the Land tiles, cards and rule numbers printed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.mule import data as mule_data
from irata.cli import cli, main


@pytest.fixture(autouse=True)
def _bundled_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mule_data, "FOLDER", None)


def mule(*args: str) -> str:
    result = CliRunner().invoke(cli, ["play", "mule", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def refused(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> str:
    """The entry is refused with one line and exit 2, and the games file is byte for byte as
    it was."""
    before = db.read_bytes()
    with pytest.raises(SystemExit) as info:
        main(["play", "mule", *args])
    err = capsys.readouterr().err
    assert info.value.code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert db.read_bytes() == before
    return err


def glance() -> dict[str, Any]:
    return json.loads(mule("status", "--json"))  # type: ignore[no-any-return]


def colonist(g: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in g["colonists"] if c["name"] == name)


def stocks(g: dict[str, Any], name: str) -> tuple[int, int, int, int, int]:
    c = colonist(g, name)
    return c["money"], c["smithore"], c["crystite"], c["food"], c["energy"]


def lands(g: dict[str, Any], name: str) -> list[str]:
    return [f"{x['land']}@{x['square']}" + (f":{x['mule'][0].upper()}" if x["mule"] else "")
            for x in colonist(g, name)["lands"]]


def flips() -> list[str]:
    """The M.U.L.E.s each Colonist short of Energy flips: the first ones not producing Energy
    (the rule leaves the choice to them)."""
    state = json.loads(CliRunner().invoke(cli, ["play", "status", "--json"]).output)["state"]
    out = []
    for name, short in (state.get("shortage") or {}).items():
        tiles = [x["tile"] for x in state["players"][name]["lands"]
                 if x.get("mule") and x["mule"] != "energy"][:short]
        if tiles:
            out.append(f"--flip={name}={','.join(tiles)}")
    return out


# Turns 3 to 7: a Colonist has to claim a Land if one is available and they have an empty
# square in its Zone (Questions and Answers), and after Turn 2 there are 20 Lands left on
# Planet Irata for the 20 Land Grants of Turns 3 to 7: in the Red Zone 2 Plains, 3 High and 2
# Low Mountains; in the White Zone 2 Low and 1 High Mountain; in the Blue Zone 6 Plains, 2 Low
# and 2 High Mountains. The Blue Zone's 10 take 3 + 3 + 2 + 2 of the Colonists' Blue squares,
# the Red Zone's 7 Ann's, Bob's and Cid's empty Red squares (Dee has one left, Bob two), so each
# Colonist claims one Land a Turn, these in turn, and Planet Irata is empty after Turn 7.
CLAIMS = {
    "Ann": ["P02@E1", "P08@E2", "L01@E3", "P12@A1", "H01@A2"],
    "Bob": ["P14@E1", "P15@E2", "H02@E3", "P16@A2", "H03@A3"],
    "Cid": ["P17@E1", "L02@E2", "H04@A1", "L03@A2", "L04@A3"],
    "Dee": ["P18@E1", "H05@E2", "L05@B1", "L06@D1", "H06@B2"],
}


def land_grants(claims: dict[str, list[str]]) -> None:
    """A Turn's Land Grant, lowest Rank first: each Colonist claims their next Land."""
    for _ in range(4):
        now = json.loads(mule("next", "--json"))["next"]
        assert now["step"] == "grant"
        mule("grant", now["who"], claims[now["who"]].pop(0))


def quiet_turn(card: str, events: tuple[str, str], claims: dict[str, list[str]]) -> None:
    """A Turn where each Colonist claims a Land (they have to) and nobody auctions, plays a
    package, acts or trades."""
    land_grants(claims)
    now = json.loads(mule("next", "--json"))["next"]
    if now["step"] == "auction":
        mule("auction", "none")
    if json.loads(mule("next", "--json"))["next"]["step"] == "package":
        mule("package", "none")
    while (now := json.loads(mule("next", "--json"))["next"])["step"] == "develop":
        mule("develop", now["who"], "pass")
    mule("usage")
    mule("produce", card, *flips())
    mule("pricing")
    for good in ("smithore", "crystite", "food", "energy"):
        mule("trade", good)
    mule("ranking")
    for kind, card in zip(("lucky", "unlucky"), events, strict=True):
        giver = json.loads(mule("next", "--json"))["next"]["who"]
        other = next(c["name"] for c in glance()["colonists"] if c["name"] != giver)
        mule(kind, giver, card, "--to", other)


def test_a_tournament_game_at_the_table(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    # Set-up, Tournament, 4 Colonists: $30, 4 Food, 2 Energy each, one Package From Home World!
    # and one Land for Sale! card; The Store: 12 M.U.L.E.s, 8 Smithore, 6 Food, 6 Energy; every
    # price at the bottom of its lane (Buy: Smithore $3, Crystite $4, Food $1, Energy $1).
    # Seed 3 draws the initial Ranking Dee, Ann, Cid, Bob.
    mule("new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3")
    g = glance()
    assert [c["name"] for c in g["colonists"]] == ["Dee", "Ann", "Cid", "Bob"]
    assert g["next"]["command"].startswith("irata play mule grant Bob ")

    # == Turn 1. 1. Expansion: Land Grant twice, the lowest Rank first (Bob, Cid, Ann, Dee)
    mule("grant", "Bob", "R01@C1")
    assert "not Ann's turn" in refused(capsys, db, "grant", "Ann", "R02@C1")
    assert "already on Bob's Player Board" in refused(capsys, db, "grant", "Cid", "R01@C3")
    assert "river bed" in refused(capsys, db, "grant", "Cid", "R02@B1")
    mule("grant", "Cid", "R02@C1")
    assert "The Store" in refused(capsys, db, "grant", "Ann", "R03@C2")
    mule("grant", "Ann", "R03@C3")
    mule("grant", "Dee", "R04@C1")
    mule("grant", "Bob", "P03@B1")
    mule("grant", "Cid", "P09@B1")
    mule("grant", "Ann", "P07@D3")
    mule("grant", "Dee", "P04@A1")
    # Land Auctions: Dee (Rank 1) plays Land for Sale!; the bid opens at exactly $8 and rises by
    # exactly $2, so $9 cannot win; Ann wins P13 at $10 ($30 -> $20)
    assert "exactly $8" in refused(capsys, db, "auction", "Dee", "Ann", "9", "P13@B3")
    assert "cannot pay" in refused(capsys, db, "auction", "Dee", "Ann", "40", "P13@B3")
    mule("auction", "Dee", "Ann", "10", "P13@B3")
    # the cards are played from Rank 1 down: now Ann (Rank 2) plays hers or not, not Cid (3)
    assert "from Rank 1 down" in refused(capsys, db, "auction", "Cid", "Bob", "8", "P05@B2")
    assert "from Rank 1 down" in refused(capsys, db, "auction", "Dee", "Bob", "8", "P05@B2")
    assert "Ann plays a Land for Sale! card or not" in glance()["next"]["text"]
    mule("auction", "Ann", "none")                      # Ann keeps her card
    assert "Cid plays a Land for Sale! card or not" in glance()["next"]["text"]
    mule("auction", "none")                             # nobody else this Turn
    # 2. Development. Package From Home World!: every Food Stock is 4 and every Energy Stock 2,
    # so nobody has a smaller one: Bob's Food package (+3: Food 7), Ann's Energy one (HC03, +3:
    # Energy 5)
    mule("package", "Bob=food,", "Ann=HC03")
    # The Corral is full (12): the Rank order, Dee, Ann, Cid, Bob. A M.U.L.E. costs Smithore's
    # Sell Price, $5; the Food cost is 1 in the White Zone, 2 in the Red (column A)
    assert "no more than 2 Food" in refused(capsys, db, "develop", "Dee", "buy R04 F, buy P04 E")
    mule("develop", "Dee", "buy R04 F, assay")          # $25, Food 4-2=2
    assert "already has a M.U.L.E." in refused(capsys, db, "develop", "Ann", "buy R03 F, buy R03 E")
    mule("develop", "Ann", "buy R03 F, buy P07 E")      # $20-10=$10, Food 2
    mule("develop", "Cid", "buy R02 F, wampus yes")     # $30-5+10=$35, Food 2
    mule("develop", "Bob", "buy R01 F, buy P03 E")      # $20, Food 7-2=5
    # The Store replaced each M.U.L.E. sold at once from its Smithore: 12 M.U.L.E.s, 8-6=2
    # Smithore. Action Round 2:
    mule("develop", "Dee", "pass")
    mule("develop", "Ann", "pub")                       # +$5: $15, Food 1, her Phase ends
    mule("develop", "Cid", "buy P09 E")                 # $30, Food 1; The Store: 1 Smithore
    mule("develop", "Bob", "pass")
    assert "not Dee's turn" in refused(capsys, db, "develop", "Dee", "assay")   # Dee passed
    mule("develop", "Cid", "pass")                      # Action Round 3: only Cid is left
    # 3. Usage and Spoilage: one Energy per M.U.L.E. not producing Energy (1 each). Dee: Energy
    # 2-1=1, Food 2 -> 1 spoiled -> 1. Ann: Energy 5-1=4, a fourth spoils -> 3; Food 1. Cid:
    # Energy 1, Food 1. Bob: Energy 1, Food 5 -> 2 spoiled -> 3.
    mule("usage")
    # 4. Production: Acid Rain Storm! by its printed title: Food +2, Energy -2; no two
    # Adjacent Lands produce the same Good, so no Economies of Scale.
    # Dee: R04 Food 3+2=5 -> Food 6. Ann: R03 Food 5 -> 6, P07 Energy 3-2=1 -> 4.
    # Cid: R02 Food 2+2=4 -> 5, P09 Energy 2-2=0 -> 1. Bob: R01 Food 5 -> 8, P03 Energy 1 -> 2.
    assert "each Production Card is drawn once" not in mule("produce", "Acid Rain Storm!")
    # 5. Pricing. Smithore: The Store sold 7 M.U.L.E.s and made 7 from its Smithore (12
    # M.U.L.E.s, 8-7=1 Smithore): no empty pen, 1 surplus Smithore: down a step, but it is at
    # the bottom of its lane ($3). Crystite: the card's corner, $7. Food: no Stock below 4, 6
    # in The Store: down, stays at $1. Energy: Cid is 1 below his 2 M.U.L.E.s, 6 in The Store:
    # down, stays at $1.
    mule("pricing")
    g = glance()
    assert {x: g["prices"][x]["buy"] for x in g["prices"]} == {
        "smithore": 3, "crystite": 7, "food": 1, "energy": 1}
    assert g["store"] == {"mules": 12, "smithore": 1, "food": 6, "energy": 6}
    # 6. Market. Smithore: Dee buys 1 from The Store at its Sell Price $5 ($20)
    mule("trade", "smithore", "--buy", "Dee=1")
    mule("trade", "crystite")
    # Food: a Colonist Buys or Sells in one Auction, not both
    assert "not both" in refused(capsys, db, "trade", "food", "--sell", "Bob=3", "--buy",
                                 "Bob=1")
    assert "cannot sell 9" in refused(capsys, db, "trade", "food", "--sell", "Bob=9")
    # Bob sells 3 to The Store at $1 ($23, Food 5); Cid sells Dee 1 for $4 (Cid $34, Dee $16)
    mule("trade", "food", "--sell", "Bob=3", "--deal", "Cid>Dee 1@4")
    # Energy: Ann sells Cid 2 for $3 each (Ann $21, Energy 2; Cid $28, Energy 3)
    mule("trade", "energy", "--deal", "Ann>Cid 2@3")
    # 7. Ranking: Cid $28, Bob $23, Ann $21, Dee $16
    mule("ranking")
    # 8. Personal Events: Cid (Rank 1) draws Colony Lottery! (LE09, +$12) for Dee ($28); Dee
    # draws Land Tax! (UE07, $3 a Land) for Ann, who has 3 Lands ($21-9=$12)
    assert "cannot receive it" in refused(capsys, db, "lucky", "Cid", "LE09", "--to", "Cid")
    assert "Unlucky Event card" in refused(capsys, db, "lucky", "Cid", "UE07", "--to", "Dee")
    mule("lucky", "Cid", "LE09", "--to", "Dee")
    mule("unlucky", "Dee", "Land Tax!", "--to", "Ann")
    g = glance()
    assert g["turn"] == 2
    assert [c["name"] for c in g["colonists"]] == ["Cid", "Bob", "Ann", "Dee"]
    # (Money, Smithore, Crystite, Food, Energy) after Turn 1, worked out above
    assert stocks(g, "Cid") == (28, 0, 0, 4, 3)
    assert stocks(g, "Bob") == (23, 0, 0, 5, 2)
    assert stocks(g, "Ann") == (12, 0, 0, 6, 2)
    assert stocks(g, "Dee") == (28, 1, 0, 7, 1)
    assert lands(g, "Ann") == ["R03@C3:F", "P07@D3:E", "P13@B3"]
    assert lands(g, "Dee") == ["R04@C1:F", "P04@A1"]
    # The Store: Dee bought its last Smithore, Bob's 3 Food came in
    assert g["store"] == {"mules": 12, "smithore": 0, "food": 9, "energy": 6}

    # == Turn 2. Land Grant, once, lowest Rank first: Dee, Ann, Bob, Cid
    mule("grant", "Dee", "P11@A2")
    mule("grant", "Ann", "P01@D2")
    mule("grant", "Bob", "P05@B2")
    # Cid may not let the Land Grant pass: Lands are left in every Zone where he has an empty
    # square (the White Zone of Planet Irata still has a Plains: 7 squares, 6 claimed)
    err = refused(capsys, db, "grant", "Cid", "none")
    assert "has to claim a Land if one is available" in err and "Cid cannot claim none" in err
    assert "Plains, Low Mountain or High Mountain from the White Zone (empty: D1, B2, D2, " \
        "B3, C3, D3)" in err
    mule("grant", "Cid", "P10@B2")
    # Land Auctions: Cid plays his card; nobody raises, Bob wins P06 at the opening $8 ($15)
    mule("auction", "Cid", "Bob", "8", "P06@A1")
    mule("auction", "none")
    mule("package", "none")
    # Development: the Corral holds 12 (more than 6): Rank order, Cid, Bob, Ann, Dee
    mule("develop", "Cid", "refit P09 F, assay")        # White Zone: 1 Food each: Food 2
    assert "no more than 2 Food" in refused(capsys, db, "develop", "Bob",
                                            "buy P05 E, buy P06 S")   # P06 is in the Red Zone
    mule("develop", "Bob", "buy P05 E")                 # $10, Food 4; the Corral: 11
    mule("develop", "Ann", "buy P01 E")                 # $7, Food 5; the Corral: 10
    mule("develop", "Dee", "buy P11 E")                 # Red Zone, 2 Food: $23, Food 5; 9 left
    mule("develop", "Cid", "pass")                      # The Store has no Smithore to make more
    mule("develop", "Bob", "pass")
    mule("develop", "Ann", "pass")
    mule("develop", "Dee", "move P11 P04")              # 1 Food: Food 4; P04 now makes Energy
    mule("develop", "Dee", "pass")
    # Usage and Spoilage. Cid: 2 Food M.U.L.E.s use 2 of his 3 Energy -> 1; Food 2 -> 1.
    # Bob: Energy 2-1=1; Food 4 -> 2. Ann: Energy 2-1=1; Food 5 -> 3. Dee: Energy 1-1=0;
    # Food 4 -> 2.
    mule("usage")
    # Production: Bumper Harvest! (PR13): Food +1, Crystite at $4. Economies of Scale, one
    # Good per Path between Adjacent Lands producing the same Good:
    # Cid: R02@C1 Food 3 + P09@B1 Food 4, and their Path: 8 -> Food 9.
    # Bob: R01 Food 4 -> 6; P03@B1 and P05@B2 Energy 3+3 and their Path: 7 -> Energy 8.
    # Ann: R03 Food 4 -> 7; P07@D3 and P01@D2 Energy 3+3+1 -> Energy 8.
    # Dee: R04 Food 4 -> 6; P04@A1 Energy 3 -> 3.
    mule("produce", "PR13")
    # Pricing: 9 M.U.L.E.s fill 5 pens, one pen empty: Smithore up a step to $4 (Sell $6);
    # Crystite $4; Food: no Stock below 4, 9 in The Store: $1; Energy: Cid is 1 below his 2
    # M.U.L.E.s, 6 in The Store: $1.
    mule("pricing")
    # Market: Dee sells her Smithore to The Store at $4 ($27); Cid sells 5 Food at $1 ($33,
    # Food 4) and Dee buys 2 from The Store at $3 ($21, Food 8); Bob sells Cid 2 Energy at
    # $2 (Bob $14, Energy 6; Cid $29, Energy 3)
    mule("trade", "smithore", "--sell", "Dee=1")
    mule("trade", "crystite")
    mule("trade", "food", "--sell", "Cid=5", "--buy", "Dee=2")
    mule("trade", "energy", "--deal", "Bob>Cid 2@2")
    # Ranking: Cid $29, Dee $21, Bob $14, Ann $7
    mule("ranking")
    # Personal Events: Cid draws Tourist Ship! (LE12; 1-4 Lands: +$6) for Ann ($13); Ann draws
    # New Oil Filters! (UE05, $2 a M.U.L.E.) for Cid, who has 2 ($25)
    mule("lucky", "Cid", "LE12", "--to", "Ann")
    mule("unlucky", "Ann", "UE05", "--to", "Cid")
    g = glance()
    assert g["turn"] == 3
    assert [c["name"] for c in g["colonists"]] == ["Cid", "Dee", "Bob", "Ann"]
    assert stocks(g, "Cid") == (25, 0, 0, 4, 3)
    assert stocks(g, "Dee") == (21, 0, 0, 8, 3)
    assert stocks(g, "Bob") == (14, 0, 0, 6, 6)
    assert stocks(g, "Ann") == (13, 0, 0, 7, 8)
    assert lands(g, "Cid") == ["R02@C1:F", "P09@B1:F", "P10@B2"]
    assert lands(g, "Dee") == ["R04@C1:F", "P04@A1:E", "P11@A2"]
    assert lands(g, "Bob") == ["R01@C1:F", "P03@B1:E", "P05@B2:E", "P06@A1"]
    assert g["store"] == {"mules": 9, "smithore": 1, "food": 12, "energy": 6}
    assert {x: g["prices"][x]["buy"] for x in g["prices"]} == {
        "smithore": 4, "crystite": 4, "food": 1, "energy": 1}
    # the table corrects a Land by the names it uses: Bob's P06 by its tile
    CliRunner().invoke(cli, ["play", "set", "players.Bob.lands.P06.secret", "true"],
                       catch_exceptions=False)
    assert glance()["colonists"][2]["lands"][3]["land"] == "P06"
    CliRunner().invoke(cli, ["play", "undo"], catch_exceptions=False)

    # == Turns 3 to 6: quiet Turns but for the Land Grants
    claims = {n: list(c) for n, c in CLAIMS.items()}
    quiet_turn("PR23", ("LE02", "UE04"), claims)
    quiet_turn("Fair Winds", ("LE03", "UE04"), claims)
    quiet_turn("PR14", ("LE10", "UE03"), claims)
    quiet_turn("PR11", ("LE02", "UE04"), claims)
    # == Turn 7: the Production deck holds only The Ship is Back! (six cards lay on it)
    quiet_until_production(claims)
    g = glance()
    assert sum(len(c["lands"]) for c in g["colonists"]) == 4 + 18 + 6 + 6   # every Land
    assert [len(colonist(g, n)["lands"]) for n in ("Ann", "Bob", "Cid", "Dee")] == \
        [9, 9, 8, 8]
    err = refused(capsys, db, "produce", "The Ship is Back!")
    assert "PR01 ($5), PR02 ($8), PR03 ($11), PR04 ($14)" in err
    assert "only The Ship is Back!" in refused(capsys, db, "produce", "PR22")
    assert "drawn once" in refused(capsys, db, "produce", "PR24")     # Fair Winds, Turn 4
    out = mule("produce", "The Ship is Back!", "--price", "8", *flips())
    # Pricing, the Final Turn's Market (all Goods sold to The Store), Ranking and the end have
    # nothing to decide: they run themselves, and the game is over
    for said in ("5. Pricing", "6. Market: the Final Turn's sell-out", "7. Ranking",
                 "Game End: the Colony's rating"):
        assert f"(ran itself) {said}" in out, said
    assert json.loads(mule("next", "--json"))["next"] is None
    g = glance()
    total = sum(c["money"] for c in g["colonists"])
    assert g["over"] and g["colony"]["total"] == total
    # four Colonists who stopped developing after Turn 2 end far below $549 together: the
    # Colony Success Table's worst row
    assert total < 549 and f"Colony total ${total}: row 7 of 7" in out
    assert f"{g['colonists'][0]['name']} is the First Founder!" in out
    assert "over" in refused(capsys, db, "ranking")


def quiet_until_production(claims: dict[str, list[str]]) -> None:
    land_grants(claims)
    for step in ("auction", "package"):
        if json.loads(mule("next", "--json"))["next"]["step"] == step:
            mule(step, "none")
    while (now := json.loads(mule("next", "--json"))["next"])["step"] == "develop":
        mule("develop", now["who"], "pass")
    mule("usage")
