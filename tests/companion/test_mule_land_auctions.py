"""M.U.L.E.'s Land Auction as a walk (Land Auctions, Tournament): the Auction Tracker on a
Land, the opening bid of exactly $8, raises of exactly $2 clockwise, Withdrawing, the winner
paying and placing the Land; in the guided ``turn`` and as the ``auction`` step command; and
the Optional Rules Secret Bidding in Land Auctions, Land Auctions before Land Grant and More
Land Auctions, each played on the Turns it changes."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.mule import board, steps, turn
from companion.mule import saved as game
from companion.mule.data import MuleData
from companion.mule.state import Land, State, from_json, land_of, to_json
from components.errors import InputError, RuleError
from irata.cli import cli
from tests import clirun
from tests.companion.mule_states import with_colonist

# the rulebook's example names; seated (clockwise) in this order, Mechtron Rank 1
NAMES = ["Mechtron", "Packer", "Leggite", "Spheroid"]


def at_auctions(md: MuleData, **chosen: str) -> State:
    """Turn 1 after Land Grant: each Colonist holds a Land for Sale! card and $30."""
    s = from_json(game.new_game(md, NAMES, "tournament", seed=3,
                                options={k.replace("_", "-"): v for k, v in chosen.items()}))
    s = turn.begin_turn(s._replace(ranking=tuple(NAMES)), md)
    t = steps.Turn(s._replace(todo=(("grant", "Mechtron"),)), md, lambda *a: None,
                   lambda _x: None)
    turn.advance(t, "grant")
    return t.state


def plains_on(*squares: str, tile: str | None = None) -> tuple[Land, ...]:
    """Lands of Plains on ``squares`` of a Player Board (``tile``: the tile of each)."""
    return tuple(land_of(board.new_land("plains", tile, q)) for q in squares)


def walk(s: State, md: MuleData, answers: list[str]
         ) -> tuple[State, list[str], list[str]]:
    """The step that comes now at the table: each question answered in turn from
    ``answers``; returns the state after it, the questions asked and the lines said."""
    asked: list[str] = []
    said: list[str] = []
    given = iter(answers)

    def ask(question: str, default: str) -> str:
        asked.append(question)
        return next(given)

    after, _, _, _ = turn.take_step(s, md, ask, said.append)
    return after, asked, said


def test_the_rulebooks_land_auction_example(md: MuleData) -> None:
    # "Mechtron (as the Highest Ranking Colonist) ... selects a Land from the Blue Zone of
    # Planet Irata and places the Auction Tracker on it. Mechtron's opening bid must be exactly
    # $8. Bidding continues clockwise, with each player either raising the bid by exactly $2 or
    # Withdrawing. In the end, Mechtron is the highest remaining bidder and must pay what he
    # bid: $22. Mechtron picks the Land and places it on any square on the Blue Zone."
    s = at_auctions(md)
    assert s.todo[0] == ("auction", "Mechtron")
    # $8 opening, then 7 raises of $2: 8 + 7 x 2 = 22. Clockwise from Packer:
    # Packer 10, Leggite 12, Spheroid out, Mechtron 14, Packer 16, Leggite out,
    # Mechtron 18 (Spheroid is out: skipped), Packer 20, Mechtron 22, Packer out.
    answers = ["P13", "raise", "raise", "out", "raise", "raise", "out", "raise", "raise",
               "raise", "out", "E1"]
    after, asked, said = walk(s, md, answers)
    assert [q.split(": ")[1].split(" raises")[0] for q in asked[1:-1]] == [
        "Packer", "Leggite", "Spheroid", "Mechtron", "Packer", "Leggite", "Mechtron",
        "Packer", "Mechtron", "Packer"]
    assert "Mechtron opens the bidding for P13 at $8" in said
    assert "Mechtron raises to $22" in said and "Mechtron is the highest bidder: $22" in said
    m = after.colonist("Mechtron")
    assert m.money == 30 - 22 == 8
    assert m.lands[-1].tile == "P13" and m.lands[-1].square == "E1"
    assert after.held("Mechtron", "land_for_sale") == 0
    assert all(after.colonist(n).money == 30 for n in NAMES[1:])   # only the winner pays
    assert after.todo[0] == ("auction", "Packer")       # then Packer plays a card or not


def test_several_bids_typed_at_once(md: MuleData) -> None:
    # the same Auction, the bids typed in one line: Packer 10, Leggite out, Spheroid out,
    # Mechtron 12, Packer out: Mechtron pays $12
    s = at_auctions(md)
    after, asked, said = walk(s, md, ["P13", "raise out out", "12 out", "E2"])
    assert after.colonist("Mechtron").money == 18
    assert len(asked) == 4 and "Packer withdraws" in said


def test_bids_the_rules_refuse_are_asked_again(md: MuleData) -> None:
    s = with_colonist(at_auctions(md), "Leggite", money=11)
    # Packer raises to $10; Leggite's "13" is not $10 + $2, and with $11 she cannot raise to
    # $12: she is out, then Spheroid and Mechtron; Packer wins at $10, and C2 (The Store)
    # takes no Land
    answers = ["P13", "raise", "13", "raise", "out", "out", "out", "C2", "E3"]
    after, _, said = walk(s, md, answers)
    refusals = [x for x in said if x.startswith("  !")]
    assert "each raise is exactly $2: Leggite raises $10 to $12, not $13" in refusals[0]
    assert "Leggite has $11: cannot raise to $12" in refusals[1]
    assert "C2 is The Store" in refusals[2]
    assert after.colonist("Packer").money == 20       # Packer won at $10


def test_who_may_not_open_or_be_auctioned(md: MuleData) -> None:
    s = with_colonist(at_auctions(md), "Packer", lands=plains_on("B1", tile="P13"))
    with pytest.raises(RuleError, match="P13 is already on Packer's Player Board"):
        steps._auction(s, md, "P13", "Mechtron")
    s = with_colonist(s, "Mechtron", money=7)
    with pytest.raises(RuleError, match=r"opening bid is exactly \$8, and Mechtron has \$7"):
        steps._auction(s, md, "P14", "Mechtron")
    with pytest.raises(RuleError, match="Secret Bidding in Land Auctions is an Optional Rule "
                                        "not chosen"):
        steps._auction(at_auctions(md), md, "P14 secret", "Mechtron")
    with pytest.raises(InputError, match="named by its tile alone"):
        steps._auction(at_auctions(md), md, "P14@E1", "Mechtron")


def test_the_result_entry_still_works(md: MuleData) -> None:
    s = at_auctions(md)
    after, _, said = walk(s, md, ["Packer 12 P13@E1"])
    assert after.colonist("Packer").money == 18
    assert said[-1] == "Mechtron plays Land for Sale!: Packer wins P13 at $12 and places it on E1"


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, ["play", "mule", *args])
    return r.exit_code, r.stdout, r.stderr


def cli_game(tmp_path: Path, *options: str) -> str:
    db = str(tmp_path / "g.db")
    code, _, err = run("new", "--players", ",".join(NAMES), "--tournament", "--seed", "3",
                       "--db", db, *options)
    assert code == 0, err
    code, out, _ = run("status", "--db", db, "--json")
    import json

    ranking = [c["name"] for c in json.loads(out)["colonists"]]
    lows = list(reversed(ranking))
    tiles = iter(["P01@B1", "P02@B2", "P03@B3", "P04@D1", "P05@D2", "P06@D3", "P07@A1",
                  "P08@A2"])
    for _ in range(2):
        code, _, err = run("grant", *(f"{n}={next(tiles)}" for n in lows), "--db", db)
        assert code == 0, err
    return db


def test_the_walk_as_a_step_command(tmp_path: Path) -> None:
    db = cli_game(tmp_path)
    code, out, _ = run("status", "--db", db, "--json")
    import json

    now = json.loads(out)["next"]
    seller = now["who"]
    seats = NAMES[NAMES.index(seller) + 1:] + NAMES[:NAMES.index(seller)]
    before = Path(db).read_bytes()
    # too few bids: the Auction is not over; nothing saved
    code, err = clirun.run(["play", "mule", "auction", seller, "P09", "--bids", "raise",
                            "--square", "E1", "--db", db])
    assert clirun.one_line(code, err) and "is not over" in err, err
    assert Path(db).read_bytes() == before
    # clockwise from the seller: seats[0] raises to $10, seats[1] and seats[2] Withdraw, and
    # the seller too: seats[0] pays $10
    code, out, err = run("auction", seller, "P09", "--bids", "raise out out out", "--square",
                         "E1", "--db", db)
    assert code == 0, err
    assert f"{seats[0]} pays $10 and places P09 on E1" in out
    code, out, _ = run("status", "--db", db, "--json")
    money = {c["name"]: c["money"] for c in json.loads(out)["colonists"]}
    assert money[seats[0]] == 20 and money[seller] == 30


# -- Secret Bidding in Land Auctions -------------------------------------------------------------

def test_secret_bids_and_the_tie_rule(md: MuleData) -> None:
    # "all players hide the Money tokens they wish to bid in their hands and reveal them
    # simultaneously. In case of a tie, the lowest ranking tied player wins."
    s = at_auctions(md, secret_bidding="")
    # Packer (Rank 2) and Spheroid (Rank 4) both bid $13: Spheroid, the lower ranking, wins
    after, asked, said = walk(s, md, ["P13 secret", "Mechtron=8,Packer=13,Spheroid=13", "E1"])
    assert "Secret bids" in asked[1]
    assert after.colonist("Spheroid").money == 30 - 13 == 17
    assert after.colonist("Packer").money == 30
    assert "A tie at $13 (Packer, Spheroid): the lowest ranking tied player wins" in said


def test_secret_bids_the_rules_refuse(md: MuleData) -> None:
    s = at_auctions(md, secret_bidding="")
    before = to_json(s)
    answers = ["P13 secret", "Mechtron=8,Packer=5", "Mechtron=8,Packer=31", "Mechtron=0,Packer=9",
               "Mechtron=8,Packer=9", "E1"]
    after, _, said = walk(s, md, answers)
    refusals = [x for x in said if x.startswith("  !")]
    assert "$0 or at least the opening bid, $8, so Packer's $5" in refusals[0]
    assert "Packer has $30: cannot bid $31" in refusals[1]
    assert "Mechtron plays the card and opens, so bids at least $8" in refusals[2]
    assert after.colonist("Packer").money == 21 and to_json(s) == before
    # the result typed at once: a secret bid is any amount from $8
    out = steps._auction(s, md, "Packer 13 P13@E1 secret", "Mechtron")
    assert isinstance(out, State) and out.colonist("Packer").money == 17
    with pytest.raises(RuleError, match=r"exactly \$8 and each raise exactly \$2"):
        steps._auction(s, md, "Packer 13 P13@E1", "Mechtron")


# -- Land Auctions before Land Grant ------------------------------------------------------------

def test_land_auctions_before_land_grant(md: MuleData) -> None:
    # "Land for Sale! -cards must be played just before Land Grant ... playing Land for Sale!
    # cards is not allowed on the first Game Turn."
    s = at_auctions(md, land_auctions_before_grant="")
    assert s.todo[0][0] == "package"              # Turn 1: no Land Auctions after Land Grant
    s = from_json(game.new_game(md, NAMES, "tournament", seed=3,
                                options={"land-auctions-before-grant": ""}))
    assert {step for step, _ in s.todo} == {"grant"}          # nor before it
    s = turn.begin_turn(s._replace(ranking=tuple(NAMES), turn=2), md)
    assert s.todo == tuple(("auction", n) for n in NAMES) + tuple(("grant", n)
                                                                  for n in reversed(NAMES))
    assert s.phase == "auction"
    # Mechtron auctions P13 (won by Packer at $10); "none": the Land Grant follows
    after, _, _ = walk(s, md, ["P13", "raise out out out", "E1"])
    after, _, said = walk(after, md, ["none"])
    assert said == ["No more Land Auctions this Turn"]
    assert after.todo == tuple(("grant", n) for n in reversed(NAMES))
    for tile in ("P15", "P16", "P17", "P18"):          # Spheroid, Leggite, Packer, Mechtron
        after, _, _ = walk(after, md, [f"{tile}@B2"])
    assert after.todo[0][0] == "package"          # no Land Auctions after the Land Grant


# -- More Land Auctions ---------------------------------------------------------------------------

def test_more_land_auctions_one_more_card_each(md: MuleData) -> None:
    # "give one more Land for Sale! card to every player": 2 each; still one a Turn
    s = at_auctions(md, more_land_auctions="")
    assert all(s.held(n, "land_for_sale") == 2 for n in NAMES)
    out = steps._auction(s, md, "Packer 8 P13@E1", "Mechtron")
    assert isinstance(out, State) and out.held("Mechtron", "land_for_sale") == 1
    with pytest.raises(RuleError, match="has played a Land for Sale! card this Turn"):
        steps._auction(out, md, "Packer 8 P14@E2", "Mechtron")
    # the next Turn Mechtron plays the second one (the Turn's record of the cards played gone)
    out = out._replace(auctions=None, keys=tuple(k for k in out.keys if k != "auctions"))
    again = steps._auction(out, md, "Packer 8 P14@E2", "Mechtron")
    assert isinstance(again, State) and again.held("Mechtron", "land_for_sale") == 0


def test_a_colonist_bids_only_for_a_land_they_could_place(md: MuleData) -> None:
    # the project's decision: the winner has to place the Land, so a Colonist whose Player
    # Board has no empty square for it neither opens nor raises (Leggite's is full)
    squares = md.player_board.squares
    s = with_colonist(at_auctions(md), "Leggite", lands=plains_on(*squares))
    after, _, said = walk(s, md, ["P13", "raise", "raise", "out", "out", "out", "E1"])
    refusals = [x for x in said if x.startswith("  !")]
    assert ("Leggite has no empty square that could take P13 (Plains), so Leggite cannot "
            "raise (out, then)") in refusals[0]
    assert after.colonist("Packer").money == 20          # Packer won at $10
    s = with_colonist(s, "Mechtron", lands=plains_on(*squares))
    with pytest.raises(RuleError, match="Mechtron cannot open the bidding for it"):
        steps._auction(s, md, "P13", "Mechtron")
