"""Mule Goes Crazy!: an Upgrade discarded in Play out cards, a Population card moved by a
majority vote, a Land Auction's bidding walked bid by bid from the favored player; each
refusal names its rule and saves nothing (the games file stays byte for byte as it was)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.mule_goes_crazy.cards import walk_land_auction
from components.errors import IrataError, RuleError
from irata.cli import cli

MGC = "mule-goes-crazy"


@pytest.fixture(autouse=True)
def _db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv("IRATA_DB", str(db))
    return db


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, ["play", *args])
    assert result.exit_code == 0, result.output
    return result.output


def js(*args: str) -> Any:
    return json.loads(run(*args, "--json"))


def state() -> dict[str, Any]:
    return js("status")["state"]  # type: ignore[no-any-return]


def refused(db: Path, *args: str) -> str:
    """The entry is refused with the rule's reason, and the games file is unchanged."""
    before = db.read_bytes()
    result = CliRunner().invoke(cli, ["play", MGC, *args])
    assert isinstance(result.exception, IrataError), result.output
    assert db.read_bytes() == before
    return str(result.exception)


def start() -> None:
    """Ann, Bob, Cid; Ann favored (the Player Turns go Bob, Cid, Ann); Ann's Land Grant."""
    run(MGC, "new", "--players", "Ann,Bob,Cid", "--favored", "Ann", "--seed", "5")
    run(MGC, "grant", "Ann", "sunny-flats")
    run(MGC, "grant", "Bob", "river-bottom")
    run("set", "store.smithore", "20")
    run("set", "store_at_turn_start.smithore", "20")


# --- Land Auctions, bid by bid ---------------------------------------------------------------

def test_the_bidding_walk_from_the_favored_player() -> None:
    order = ["Ann", "Bob", "Cid"]            # Ann favored: she bids first, then clockwise
    credits = {"Ann": 1000, "Bob": 1000, "Cid": 300}
    # the first auction opens at 200: Ann 200, Bob 250, Cid passes, Ann passes, Bob's 250
    # stands once Cid and Ann (every other player) have passed after it
    walk = walk_land_auction(order, 200, credits, [("Ann", "200"), ("Bob", "250"),
                                                   ("Cid", "pass"), ("Ann", "pass")])
    assert (walk.winner, walk.price) == ("Bob", 250)
    # a player who passed bids again when it comes round
    walk = walk_land_auction(order, 200, credits, [
        ("Ann", "pass"), ("Bob", "200"), ("Cid", "pass"), ("Ann", "300"), ("Bob", "pass"),
        ("Cid", "pass")])
    assert (walk.winner, walk.price) == ("Ann", 300)
    # nobody bids: the Land is not sold
    walk = walk_land_auction(order, 200, credits, [(n, "pass") for n in order])
    assert (walk.winner, walk.price) == (None, None)


@pytest.mark.parametrize(("bids", "why"), [
    ([("Bob", "200")], "bid 1 is Ann's: the bidding goes clockwise from the favored player"),
    ([("Ann", "150")], "the first bid is at least the opening bid, 200"),
    ([("Ann", "200"), ("Bob", "200")], "a bid is higher than the high bid, 200 (Ann)"),
    ([("Ann", "200"), ("Bob", "pass"), ("Cid", "301")], "Cid bids 301 Credits and holds 300"),
    ([("Ann", "200"), ("Bob", "pass")], "the bidding is not over (Cid to bid or pass; the "
                                        "high bid is 200, Ann's)"),
    ([("Ann", "200"), ("Bob", "pass"), ("Cid", "pass"), ("Ann", "250")],
     "the bidding was over before bid 4"),
])
def test_a_bid_against_the_rules_is_refused(bids: list[tuple[str, str]], why: str) -> None:
    with pytest.raises(RuleError, match=why.replace("(", r"\(").replace(")", r"\)")):
        walk_land_auction(["Ann", "Bob", "Cid"], 200,
                          {"Ann": 1000, "Bob": 1000, "Cid": 300}, bids)


def test_an_auction_walked_on_the_saved_game(_db: Path) -> None:
    start()
    # the Favored Player (Ann, the table's choice) ran itself; the first auction opens at 200
    assert "Cid bids 1200 Credits and holds 1000" in refused(
        _db, "auction", "foothills", "--bid", "Ann=200,Bob=pass,Cid=1200")
    out = js(MGC, "auction", "foothills", "--bid", "Ann=200,Bob=250,Cid=pass,Ann=pass")
    assert (out["winner"], out["closing"]) == ("Bob", 250)
    # the next auction opens at the closing bid minus 50: 200
    assert out["next_opening_bid"] == 200
    s = state()
    assert s["players"]["Bob"]["credits"] == 750 and "foothills" in s["players"]["Bob"]["lands"]
    event = js("log")[-1]["data"]
    assert event["bids"] == [["Ann", 200], ["Bob", 250], ["Cid", None], ["Ann", None]]
    assert "leave out --winner" in refused(_db, "auction", "grassy-plains", "--bid",
                                           "Ann=pass", "--winner", "Ann", "--price", "200")
    # nobody bids on the next: the Land Auctions are over
    js(MGC, "auction", "grassy-plains", "--bid", "Ann=pass,Bob=pass,Cid=pass")
    assert state()["auctions"][-1]["winner"] is None
    assert "the Land Auctions of turn 1 ended" in refused(_db, "auction", "high-mountains",
                                                         "--bid", "Ann=200")


# --- an Upgrade discarded --------------------------------------------------------------------

def test_an_upgrade_is_discarded_in_its_owners_turn(_db: Path) -> None:
    start()
    run(MGC, "auction", "none")
    run(MGC, "done", "Bob")
    run(MGC, "done", "Cid")
    run(MGC, "upgrade", "Ann", "solar-panels", "--on", "sunny-flats")
    assert state()["players"]["Ann"]["land_upgrades"] == ["solar-panels"]
    assert "nothing to discard" in refused(_db, "discard-upgrade", "Ann", "--on",
                                           "sunny-flats", "--mule")
    assert "Ann holds no River Bottom Land" in refused(_db, "discard-upgrade", "Ann", "--on",
                                                       "river-bottom")
    out = js(MGC, "discard-upgrade", "Ann", "--on", "sunny-flats")
    assert out["lines"] == ["Ann discards Solar Panels from Sunny Flats."]
    assert state()["players"]["Ann"]["land_upgrades"] == [None]
    # the Land holds none now: another may go on it
    run(MGC, "upgrade", "Ann", "solar-panels", "--on", "sunny-flats")
    run(MGC, "done", "Ann")
    # only in one's own turn: Ann's is over
    assert "Ann's turn is over" in refused(_db, "discard-upgrade", "Ann", "--on",
                                           "sunny-flats")


def test_discarding_an_upgrade_in_another_players_turn_is_refused(_db: Path) -> None:
    start()
    run(MGC, "auction", "none")
    why = refused(_db, "discard-upgrade", "Ann", "--on", "sunny-flats")
    # Bob's turn comes first, left of the favored player
    assert "it is Bob's turn: the Player Turns go once round the table" in why


# --- a Population card moved by vote ---------------------------------------------------------

def built_farm() -> None:
    """Cid plays a Solar Farm; the table corrects it to built (its two turns of Build cost)."""
    start()
    run(MGC, "auction", "none")
    run(MGC, "population", "colonists", "--player", "Bob")
    run(MGC, "done", "Bob")
    run(MGC, "facility", "Cid", "solar-farm")
    run("set", "facilities.0.built", "true")


def test_a_population_card_moves_by_a_majority_vote(_db: Path) -> None:
    built_farm()
    # 3 players: a majority is 2
    assert "by a majority vote among the players: 1 of 3 voted for it, 2 needed" in refused(
        _db, "move-population", "colonists", "--to", "solar-farm", "--for", "Cid")
    assert "Zed" in refused(_db, "move-population", "colonists", "--to", "solar-farm",
                            "--for", "Cid,Zed")
    assert "Mining Outpost is no built Facility in play" in refused(
        _db, "move-population", "colonists", "--to", "mining-outpost", "--for", "Ann,Cid")
    out = js(MGC, "move-population", "colonists", "--to", "solar-farm", "--for", "Cid,ann")
    assert out["lines"] == ["By a vote of Cid, Ann: Colonists moves onto Solar Farm."]
    assert state()["populations"] == [{"card": "colonists", "facility": "solar-farm"}]
    assert "no Colonists Population card is in play to move (it is on Solar Farm already)" \
        in refused(_db, "move-population", "colonists", "--to", "solar-farm", "--for",
                   "Ann,Bob")
    # and off it again, by another vote
    run(MGC, "move-population", "colonists", "--to", "none", "--for", "Ann,Bob,Cid")
    assert state()["populations"] == [{"card": "colonists", "facility": None}]
    said = run("undo")
    assert "move-population" in said
    assert state()["populations"] == [{"card": "colonists", "facility": "solar-farm"}]


def test_a_facility_holds_one_population_card(_db: Path) -> None:
    built_farm()
    run(MGC, "move-population", "colonists", "--to", "solar-farm", "--for", "Ann,Bob")
    run(MGC, "done", "Cid")
    run(MGC, "population", "miners", "--player", "Ann")
    assert "Solar Farm holds a Population card already" in refused(
        _db, "move-population", "miners", "--to", "solar-farm", "--for", "Ann,Bob")
