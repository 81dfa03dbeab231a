"""A whole Mutagen game kept by the companion: 3 players, 4 rounds, both mini expansions,
every gain and payment typed as it happens, End of Game Scoring from the saved game alone
(no score file: only each player's Elements left in storage are typed). Every number is worked
out by hand in the comments, from the rulebook and ``components/mutagen``.

Numbers used (``components/mutagen/game.yaml`` ``data:`` and the cards):
- Setup: score tracker on 5 (The Plight of the People), 3 Shard Fragments each, Progress 0.
- People cards (Gameplay Changes): Supreme Element 0/1/2/3 Shard Fragments, ability 3/2/1/0
  points, in rounds 1/2/3/4.
- Progress Track Location: pay 2/4/6 for 2/5/8 spaces, 'free' 2 spaces; Bonus tokens laid
  with --bonus on 3 shards (+2), 6 points (+3), 9 track, 12 element, 15 points (+3); points
  spaces 14: 1, 16: 2, 18: 3, 20: 4.
- Storage squares' costs (rows 1-4 of column A): 0, 1, 1, 0.
- Crew cards' printed costs: Surveyor 0, Champion 1, the 'all' card 5.
- Palace moves: the first Worker placed there 2, the second 1, the others 0.
- End of Round: 2 an installed Element, columns 1/2/3, tracks 0/2/3/3/4/4/4/4 by space 0-7;
  the Hoarder's Elements 2 Shard Fragments each.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from irata.cli import main


class Table:
    """The table typing its entries into one games file."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.db = folder, folder / "games.sqlite3"

    def _run(self, args: tuple[str, ...]) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        code = 0
        with redirect_stdout(out), redirect_stderr(err):
            try:
                main(["play", "mutagen", *args, "--db", str(self.db)])
            except SystemExit as exc:
                code = int(exc.code or 0)
        return code, out.getvalue(), err.getvalue()

    def ok(self, *args: str) -> str:
        code, out, err = self._run(args)
        assert code == 0, (args, err)
        return out

    def refused(self, why: str, *args: str) -> None:
        before = self.db.read_bytes()
        code, _, err = self._run(args)
        assert code == 2 and why in err and err.count("\n") == 1, (args, err)
        assert self.db.read_bytes() == before            # nothing changed

    def round(self, n: int, players: str) -> str:
        path = self.folder / f"round-{n}.yaml"
        path.write_text("expansions: [plight-of-the-people, palace-visitors]\nplayers:\n"
                        + players)
        return self.ok("round", str(path), "--save")

    def state(self) -> dict[str, Any]:
        return json.loads(self.ok("status", "--json"))["state"]  # type: ignore[no-any-return]

    def held(self) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
        s = self.state()
        return s["scores"], s["shards"], s["progress"]


@pytest.fixture()
def table(tmp_path: Path) -> Table:
    t = Table(tmp_path)
    t.ok("new", "--players", "Ann,Bob,Cid", "--expansion", "plight-of-the-people",
         "--expansion", "palace-visitors",
         "--bonus", "3=shards,6=points,9=track,12=element", "--bonus", "15=points")
    return t


def round_1(t: Table) -> None:
    t.ok("people", "Ann", "ability", "people/hoarder")     # 3 points: Ann 5 -> 2
    t.ok("people", "Bob", "supreme")                        # 0 Shard Fragments: Bob 3
    t.ok("people", "Cid", "ability", "guide-sacred-tree")   # 3 points: Cid 5 -> 2
    t.ok("shards", "Ann", "2", "--why", "Engineer at the Sacred Tree")   # Ann 3 -> 5
    t.ok("crew", "Bob", "Surveyor ore")                     # costs 0: Bob 3
    t.ok("progress", "Cid", "2")                            # Cid 3 -> 1; 0 -> 2, no Bonus
    t.ok("storage", "Ann", "A1,A2")                         # 0 + 1: Ann 5 -> 4
    t.ok("tree", "Bob", "jade-01")                          # +5: Bob 3 -> 8
    t.ok("shards", "Cid", "2", "--why", "Guide")            # Cid 1 -> 3
    t.ok("palace", "Ann", "1")                              # the first: 2, Ann 4 -> 2
    assert t.held() == ({"Ann": 2, "Bob": 5, "Cid": 2}, {"Ann": 2, "Bob": 8, "Cid": 3},
                        {"Ann": 0, "Bob": 0, "Cid": 2})
    # Ann: 1 installed 2 + ore on 1: 2 = 4, and the Hoarder's Element +2 Shard Fragments;
    # Bob: 1 installed 2 + gas on 1: 2 = 4; Cid: nothing, 0
    t.round(1, "  - {name: Ann, installed: 1, tracks: {ore: 1}, card_elements: 1}\n"
               "  - {name: Bob, installed: 1, tracks: {gas: 1}}\n"
               "  - {name: Cid, installed: 0}\n")
    assert t.held() == ({"Ann": 6, "Bob": 9, "Cid": 2}, {"Ann": 4, "Bob": 8, "Cid": 3},
                        {"Ann": 0, "Bob": 0, "Cid": 2})


def round_2(t: Table) -> None:
    t.ok("people", "Ann", "supreme")                        # 1: Ann 4 -> 3
    t.ok("people", "Bob", "ability", "informant")           # 2 points: Bob 9 -> 7
    t.ok("people", "Cid", "supreme")                        # 1: Cid 3 -> 2
    t.refused("one each round", "people", "Cid", "supreme")
    # Bob pays 4 (8 -> 4) for 5 spaces, 0 -> 5: the Bonus on 3 gives +2 (4 -> 6)
    out = t.ok("progress", "Bob", "4")
    assert "0 -> 5" in out and "Bonus space 3: +2 Shard Fragments" in out
    t.ok("crew", "Cid", "Champion gas")                     # 1: Cid 2 -> 1
    t.ok("progress", "Ann", "free")                         # 0 -> 2, nothing paid
    t.ok("storage", "Ann", "A3,A4")                         # 1 + 0: Ann 3 -> 2
    t.ok("points", "Bob", "2", "--why", "Mutation")         # Bob 7 -> 9
    t.refused("Cid holds 1 Shard Fragment token and cannot pay 2", "palace", "Cid", "1")
    t.ok("shards", "Cid", "1", "--why", "an action passed")  # Cid 1 -> 2
    t.ok("palace", "Cid", "1")                               # 2: Cid 2 -> 0
    t.refused("has moved this round already", "palace", "Ann", "1")
    t.ok("palace", "Bob", "2")                               # 1: Bob 6 -> 5
    assert t.held() == ({"Ann": 6, "Bob": 9, "Cid": 2}, {"Ann": 2, "Bob": 5, "Cid": 0},
                        {"Ann": 2, "Bob": 5, "Cid": 2})
    # Ann: 3 installed 6 + the left column 1 + ore 2: 3 + crystal 1: 2 = 12, Hoarder +2;
    # Bob: 2 installed 4 + gas 2: 3 + ore 1: 2 = 9; Cid: 1 installed 2 + gas 3: 3 = 5
    t.round(2, "  - {name: Ann, installed: 3, columns: [left], tracks: {ore: 2, crystal: 1},"
               " card_elements: 1}\n"
               "  - {name: Bob, installed: 2, tracks: {gas: 2, ore: 1}}\n"
               "  - {name: Cid, installed: 1, tracks: {gas: 3}}\n")
    assert t.held() == ({"Ann": 18, "Bob": 18, "Cid": 7}, {"Ann": 4, "Bob": 5, "Cid": 0},
                        {"Ann": 2, "Bob": 5, "Cid": 2})


def round_3(t: Table) -> None:
    t.ok("people", "Ann", "supreme")                        # 2: Ann 4 -> 2
    t.ok("people", "Bob", "supreme")                        # 2: Bob 5 -> 3
    t.ok("people", "Cid", "ability", "clockmaker")          # 1 point: Cid 7 -> 6
    t.refused("Ann holds 2 Shard Fragment tokens and cannot pay 5", "crew", "Ann", "crew/all")
    t.ok("tree", "Ann", "tree/violet-05")                   # +7: Ann 2 -> 9
    t.ok("crew", "Ann", "crew/all")                         # 5: Ann 9 -> 4
    t.ok("tree", "Cid", "amber-01")                         # +5: Cid 0 -> 5
    # Cid pays 4 (5 -> 1) for 5 spaces, 2 -> 7: Bonus 3 +2 (1 -> 3), Bonus 6 +3 points (6 -> 9)
    t.ok("progress", "Cid", "4")
    t.ok("shards", "Bob", "2")                              # Bob 3 -> 5
    # Bob pays 4 (5 -> 1), 5 -> 10: Bonus 6 +3 points (18 -> 21), Bonus 9 a track space
    out = t.ok("progress", "Bob", "4")
    assert "Bonus space 9: move 1 space on any Element track" in out
    t.ok("shards", "Bob", "-1", "--why", "a Mutation's reaction")   # Bob 1 -> 0
    assert t.held() == ({"Ann": 18, "Bob": 21, "Cid": 9}, {"Ann": 4, "Bob": 0, "Cid": 3},
                        {"Ann": 2, "Bob": 10, "Cid": 7})
    # Ann: 4 installed 8 + left column 1 + ore 3: 3 + crystal 2: 3 + gas 1: 2 = 17;
    # Bob: 3 installed 6 + gas 3: 3 + ore 2: 3 + liquid 1 (the Bonus): 2 = 14;
    # Cid: 2 installed 4 + gas 4: 4 + crystal 1: 2 = 10
    t.round(3, "  - {name: Ann, installed: 4, columns: [left], tracks: {ore: 3, crystal: 2,"
               " gas: 1}}\n"
               "  - {name: Bob, installed: 3, tracks: {gas: 3, ore: 2, liquid: 1}}\n"
               "  - {name: Cid, installed: 2, tracks: {gas: 4, crystal: 1}}\n")
    assert t.held() == ({"Ann": 35, "Bob": 35, "Cid": 19}, {"Ann": 4, "Bob": 0, "Cid": 3},
                        {"Ann": 2, "Bob": 10, "Cid": 7})


def round_4(t: Table) -> None:
    t.ok("people", "Ann", "ability", "gardener")            # 0 points in round 4
    t.refused("Bob holds 0 Shard Fragment tokens and cannot pay 3", "people", "Bob", "supreme")
    t.ok("people", "Bob", "ability", "smuggler")            # 0 points
    t.ok("people", "Cid", "supreme")                        # 3: Cid 3 -> 0
    t.ok("shards", "Bob", "3", "--why", "Mutation")         # Bob 0 -> 3
    t.ok("crew", "Bob", "Champion ore")                     # 1: Bob 3 -> 2
    t.ok("tree", "Bob", "jade-02")                          # +5: Bob 2 -> 7
    # Bob pays 6 (7 -> 1) for 8 spaces, 10 -> 18: Bonus 12 an Element, Bonus 15 +3 points,
    # points spaces 14, 16 and 18: 1 + 2 + 3; 35 + 3 + 6 = 44
    out = t.ok("progress", "Bob", "6")
    assert "10 -> 18" in out and "1 Shard Fragment token, 44 points" in out
    t.ok("tree", "Cid", "amber-02")                         # +5: Cid 0 -> 5
    t.ok("progress", "Ann", "2")                            # 2: Ann 4 -> 2; 2 -> 4, Bonus 3 +2
    t.ok("palace", "Ann", "1")                              # 2: Ann 4 -> 2
    t.ok("palace", "Cid", "3")                              # the third: free
    # the second Worker there stays (moving is a choice); once the third has moved it cannot
    t.refused("top to bottom", "palace", "Bob", "2")
    assert t.held() == ({"Ann": 35, "Bob": 44, "Cid": 19}, {"Ann": 2, "Bob": 1, "Cid": 5},
                        {"Ann": 4, "Bob": 18, "Cid": 7})
    # Ann: 5 installed 10 + left column 1 + ore 4: 4 + crystal 2: 3 + gas 2: 3 + liquid 1: 2
    # = 23; Bob: 3 installed 6 + gas 3: 3 + ore 5: 4 + liquid 1: 2 = 15;
    # Cid: 3 installed 6 + gas 5: 4 + crystal 1: 2 + ore 1: 2 = 14
    t.round(4, "  - {name: Ann, installed: 5, columns: [left], tracks: {ore: 4, crystal: 2,"
               " gas: 2, liquid: 1}}\n"
               "  - {name: Bob, installed: 3, tracks: {gas: 3, ore: 5, liquid: 1}}\n"
               "  - {name: Cid, installed: 3, tracks: {gas: 5, crystal: 1, ore: 1}}\n")
    assert t.held() == ({"Ann": 58, "Bob": 59, "Cid": 33}, {"Ann": 2, "Bob": 1, "Cid": 5},
                        {"Ann": 4, "Bob": 18, "Cid": 7})


def test_a_whole_game_with_both_mini_expansions_is_scored_from_the_saved_game(
        table: Table) -> None:
    t = table
    for play_round in (round_1, round_2, round_3, round_4):
        play_round(t)
    t.refused("all 4 rounds have been scored", "shards", "Ann", "1")
    t.refused("Cid's is missing", "score", "--save", "--storage", "Ann=2,Bob=0")
    # End of Game Scoring, from what the saved game kept (Completing Crew Cards, Elements and
    # Tokens, Tree Cards); trackers: Ann crystal 2, gas 2, liquid 1, ore 4; Bob 0, 3, 1, 5;
    # Cid 1, 5, 0, 1.
    # Ann: 58 + the 'all' card 4 x lowest track 1 = 4 + storage 2 + Shard Fragments 2 // 3 = 0
    #      + one violet Tree 1 = 65
    # Bob: 59 + Surveyor ore (ore 5) 5 + Champion ore (5 is the highest) 4 + storage 0
    #      + 1 // 3 = 0 + a jade pair 3 = 71
    # Cid: 33 + Champion gas (5 is the highest) 4 + storage 4 + 5 // 3 = 1 + an amber pair 3
    #      = 45
    out = json.loads(t.ok("score", "--save", "--storage", "Ann=2,Bob=0", "--storage",
                          "Cid=4", "--json"))
    totals = {p["name"]: (p["crew"], p["storage"], p["shards"], p["trees"], p["total"])
              for p in out["players"]}
    assert totals == {"Ann": (4, 2, 0, 1, 65), "Bob": (9, 0, 0, 3, 71), "Cid": (4, 4, 1, 3, 45)}
    assert out["winners"] == ["Bob"]
    state = t.state()
    # 3 Shard Fragments discarded for each point: Ann 2, Bob 1, Cid 2 remain
    assert state["shards"] == {"Ann": 2, "Bob": 1, "Cid": 2}
    assert state["final"]["winners"] == ["Bob"]
    assert t.ok("next").strip() == "Game 1 is over."
    t.refused("End of Game Scoring is saved already", "score", "--save", "--storage",
              "Ann=2,Bob=0,Cid=4")


def test_the_informant_discards_a_crew_card_and_only_the_hoarder_keeps_elements(
        table: Table) -> None:
    t = table
    t.refused("has not taken the Informant's ability", "discard", "Bob", "Champion gas")
    t.ok("people", "Bob", "ability", "informant")      # 3 points: Bob 5 -> 2
    t.ok("crew", "Bob", "Champion gas")                # 1: Bob 3 -> 2 Shard Fragments
    # twice the printed cost, 1: +2 points, Bob 2 -> 4; the card no longer scores
    assert t.ok("discard", "Bob", "Champion gas").startswith(
        "Bob discards 'Champion gas': +2 points, 4.")
    assert t.state()["crew"]["Bob"] == []
    t.refused("Bob holds no Crew card 'Champion gas'", "discard", "Bob", "Champion gas")
    # Elements on a People card are the Hoarder's alone
    path = t.folder / "hoard.yaml"
    path.write_text("expansions: [plight-of-the-people, palace-visitors]\nplayers:\n"
                    "  - {name: Ann}\n  - {name: Bob, card_elements: 1}\n  - {name: Cid}\n")
    t.refused("Bob has not taken the Hoarder's ability", "round", str(path), "--save")
