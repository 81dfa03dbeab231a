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


# -- the same game with the Elements kept: no file at all --------------------------------------
# Two players (each location opens two Worker spaces), both mini expansions, 'new --elements':
# every Element taken, spent and installed is typed, the Workers placed call the People
# cards' abilities, and each End of Round and End of Game Scoring reads what was kept.
# Storage tiles: 09 (any, blue), 31 (blue, pink), 13 (any, blue); squares' costs A1 0, A2 1,
# B1 1, B2 1. Tree cards: jade-03 blue, blue; jade-02 pink, yellow; amber-01 pink, green;
# amber-03 green, green (each +5).


def elements_round_1(t: Table) -> None:
    t.ok("people", "Ann", "ability", "guide-sunken-mines")   # 3 points: Ann 5 -> 2
    t.ok("people", "Bob", "supreme")                          # 0: a Supreme Element stored
    t.ok("place", "Ann", "robot", "sunken-mines")             # the Guide: Ann 3 -> 5
    t.ok("element", "Ann", "yellow gas", "--at", "H1")
    t.ok("storage", "Ann", "A1,A2", "--tile", "storage/09-any-blue")   # 0 + 1: Ann 5 -> 4
    t.ok("place", "Bob", "robot", "clockwork-city")
    t.ok("element", "Bob", "blue gas")
    t.ok("place", "Ann", "spy", "nautical-city")
    t.ok("element", "Ann", "blue ore")
    t.ok("progress", "Ann", "free")                           # 0 -> 2
    t.ok("place", "Bob", "spy", "sacred-tree")
    t.ok("tree", "Bob", "jade-03", "--spend", "supreme, blue gas")   # +5: Bob 3 -> 8
    t.ok("install", "Bob", "blue gas H1")                     # the Spy's Install Elements
    t.ok("place", "Ann", "thug", "floating-city")
    t.ok("track", "Ann", "--spend", "blue ore")               # ore 0 -> 1
    t.ok("element", "Ann", "pink liquid", "--at", "A1")       # tile 09's 'any' square
    t.ok("place", "Bob", "thug", "coastal-oasis")
    t.ok("progress", "Bob", "4")                  # Bob 8 -> 4, 0 -> 5: Bonus 3 +2, 4 -> 6
    t.ok("place", "Ann", "engineer", "coastal-oasis")
    t.ok("progress", "Ann", "2")                  # Ann 4 -> 2, 2 -> 4: Bonus 3 +2, 2 -> 4
    t.ok("shards", "Ann", "2", "--why", "Engineer at the Coastal Oasis")   # 4 -> 6
    t.refused("the coastal-oasis has 2 Worker spaces open with 2 players", "place", "Bob",
              "engineer", "coastal-oasis")
    t.ok("place", "Bob", "engineer", "palace")
    t.ok("palace", "Bob", "1")                                # the first: 2, Bob 6 -> 4
    # Ann: 2 installed 4 + ore 1: 2 = 6, 2 -> 8; Bob: 1 installed 2, 5 -> 7
    t.ok("round", "--save")
    assert t.held() == ({"Ann": 8, "Bob": 7}, {"Ann": 6, "Bob": 4}, {"Ann": 4, "Bob": 5})


def elements_round_2(t: Table) -> None:
    t.ok("people", "Ann", "ability", "hoarder")               # 2 points: Ann 8 -> 6
    t.ok("people", "Bob", "ability", "clockmaker")            # 2 points: Bob 7 -> 5
    t.ok("place", "Bob", "robot", "clockwork-city", "--track", "crystal")   # crystal 0 -> 1
    t.ok("element", "Bob", "green ore", "--at", "H2")         # beside the blue gas: allowed
    t.ok("place", "Ann", "robot", "clockwork-city")
    t.ok("element", "Ann", "pink crystal", "--at", "card")    # on the Hoarder's card
    t.ok("place", "Bob", "spy", "nautical-city")
    t.ok("element", "Bob", "yellow liquid")
    t.ok("progress", "Bob", "free")                           # 5 -> 7: Bonus 6 +3, 5 -> 8
    t.ok("place", "Ann", "spy", "sunken-mines")               # the Guide: Ann 6 -> 8
    t.ok("element", "Ann", "green liquid")
    # a Mutation's Tree card with one Element fewer: amber-03 (green, green) +5, 8 -> 13
    t.ok("tree", "Ann", "amber-03", "--spend", "green liquid", "--fewer")
    t.ok("place", "Ann", "thug", "floating-city")
    t.ok("element", "Ann", "yellow ore")
    t.ok("track", "Ann", "--spend", "yellow ore")             # ore 1 -> 2
    t.ok("place", "Bob", "thug", "floating-city")
    t.ok("track", "Bob", "--spend", "yellow liquid")          # liquid 0 -> 1
    t.ok("place", "Ann", "engineer", "sacred-tree")
    t.ok("shards", "Ann", "2")                                # 13 -> 15
    t.ok("place", "Bob", "engineer", "sunken-mines")
    t.ok("element", "Bob", "pink gas")
    t.ok("storage", "Bob", "A1,A2", "--tile", "storage/31-blue-pink")   # 0 + 1: Bob 4 -> 3
    # Ann: 2 installed 4 + ore 2: 3 = 7, 6 -> 13, the Hoarder's Element +2 (15 -> 17);
    # Bob: 2 installed 4 + crystal 1: 2 + liquid 1: 2 = 8, 8 -> 16
    t.ok("round", "--save")
    assert t.held() == ({"Ann": 13, "Bob": 16}, {"Ann": 17, "Bob": 3}, {"Ann": 4, "Bob": 7})


def elements_round_3(t: Table) -> None:
    t.ok("people", "Ann", "supreme")                          # 2: Ann 17 -> 15
    t.ok("people", "Bob", "ability", "gardener")              # 1 point: Bob 16 -> 15
    t.ok("place", "Ann", "robot", "sunken-mines")             # the Guide: 15 -> 17
    t.ok("element", "Ann", "pink ore")
    t.ok("crew", "Ann", "Surveyor ore")                       # costs 0
    t.ok("place", "Ann", "spy", "sacred-tree")
    t.ok("tree", "Ann", "jade-02", "--spend", "pink ore, supreme")   # +5: 17 -> 22
    t.refused("A2 takes only the blue colour", "install", "Ann", "pink ore A2")
    t.ok("install", "Ann", "pink ore H2")                     # beside the yellow gas
    t.ok("place", "Bob", "robot", "clockwork-city", "--track", "ore")   # ore 0 -> 1
    t.ok("element", "Bob", "blue crystal", "--at", "A1")      # tile 31's blue square
    t.ok("place", "Bob", "thug", "nautical-city")
    t.ok("element", "Bob", "yellow crystal")
    t.ok("crew", "Bob", "Champion crystal")                   # 1: Bob 3 -> 2
    t.ok("place", "Bob", "spy", "sacred-tree")
    # amber-01 (pink, green): the Gardener lets the yellow Element stand for the green; +5
    t.ok("tree", "Bob", "amber-01", "--spend", "pink gas, yellow crystal")   # 2 -> 7
    t.ok("place", "Ann", "thug", "coastal-oasis")
    # Ann pays 6 (22 -> 16), 4 -> 12: Bonus 6 +3 points (13 -> 16), 9 a track, 12 an Element
    out = t.ok("progress", "Ann", "6")
    assert "4 -> 12" in out and "16 Shard Fragment tokens, 16 points" in out
    t.ok("track", "Ann", "liquid", "--why", "Bonus token")    # liquid 0 -> 1
    t.ok("element", "Ann", "green gas", "--at", "card", "--why", "Bonus token")
    t.ok("place", "Ann", "engineer", "floating-city")
    t.ok("progress", "Ann", "free")                           # 12 -> 14: 1 point, 17
    t.ok("place", "Bob", "engineer", "coastal-oasis")
    t.ok("progress", "Bob", "2")                              # Bob 7 -> 5, 7 -> 9: a track
    t.ok("track", "Bob", "liquid")                            # liquid 1 -> 2
    t.ok("shards", "Bob", "2")                                # 5 -> 7
    # Ann: 3 installed 6 + ore 2: 3 + liquid 1: 2 = 11, 17 -> 28, the Hoarder's 2 +4 (20);
    # Bob: 3 installed 6 + crystal 1: 2 + liquid 2: 3 + ore 1: 2 = 13, 15 -> 28
    t.ok("round", "--save")
    assert t.held() == ({"Ann": 28, "Bob": 28}, {"Ann": 20, "Bob": 7}, {"Ann": 14, "Bob": 9})


def elements_round_4(t: Table) -> None:
    t.ok("people", "Ann", "ability", "smuggler")              # 0 points in round 4
    t.ok("people", "Bob", "supreme")                          # 3: Bob 7 -> 4
    assert "the Smuggler" in t.ok("place", "Ann", "thug", "sunken-mines")   # Guide: 22
    t.ok("element", "Ann", "blue liquid")
    t.ok("place", "Bob", "robot", "clockwork-city", "--track", "ore")   # ore 1 -> 2
    t.ok("element", "Bob", "green crystal")
    t.ok("place", "Ann", "robot", "floating-city")
    t.ok("track", "Ann", "--spend", "blue liquid")            # liquid 1 -> 2
    t.ok("place", "Bob", "spy", "floating-city")
    t.ok("track", "Bob", "--spend", "supreme crystal, green crystal")   # crystal 1 -> 3
    t.ok("place", "Ann", "spy", "palace")
    t.ok("palace", "Ann", "1")                                # 2: Ann 22 -> 20
    t.ok("place", "Bob", "thug", "palace")
    t.ok("palace", "Bob", "2")                                # 1: Bob 4 -> 3
    t.ok("place", "Ann", "engineer", "coastal-oasis")
    # Ann pays 4 (20 -> 16), 14 -> 19: Bonus 15 +3, points spaces 16: 2 and 18: 3; 28 -> 36
    t.ok("progress", "Ann", "4")
    t.ok("place", "Bob", "engineer", "sunken-mines")
    t.refused("Ann has placed the Storage tile storage/09-any-blue already", "storage", "Bob",
              "B1,B2", "--tile", "storage/09-any-blue")
    t.ok("storage", "Bob", "B1,B2", "--tile", "storage/13-any-blue")   # 1 + 1: Bob 3 -> 1
    # Ann: 3 installed 6 + ore 2: 3 + liquid 2: 3 = 12, 36 -> 48, the Hoarder's 2 +4 (20);
    # Bob: 3 installed 6 + crystal 3: 3 + liquid 2: 3 + ore 2: 3 = 15, 28 -> 43
    t.ok("round", "--save")
    assert t.held() == ({"Ann": 48, "Bob": 43}, {"Ann": 20, "Bob": 1}, {"Ann": 19, "Bob": 9})


def test_a_whole_game_with_the_elements_kept_needs_no_file(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.ok("new", "--players", "Ann,Bob", "--elements", "--expansion", "plight-of-the-people",
         "--expansion", "palace-visitors",
         "--bonus", "3=shards,6=points,9=track,12=element,15=points")
    for play_round in (elements_round_1, elements_round_2, elements_round_3, elements_round_4):
        play_round(t)
    s = t.state()
    assert s["tracks"] == {"Ann": {"crystal": 0, "gas": 0, "liquid": 2, "ore": 2},
                           "Bob": {"crystal": 3, "gas": 0, "liquid": 2, "ore": 2}}
    assert s["storage"] == {"Ann": [], "Bob": []}
    assert s["card"]["Ann"] == ["pink crystal", "green gas"]
    # End of Game Scoring from the saved game alone:
    # Ann: 48 + Surveyor ore (ore 2) 1 + storage 0 + 20 // 3 = 6 + jade and amber singles 2
    #      = 57
    # Bob: 43 + Champion crystal (3, the highest) 4 + storage 0 + 1 // 3 = 0 + jade and amber
    #      singles 2 = 49
    out = json.loads(t.ok("score", "--save", "--json"))
    totals = {p["name"]: (p["crew"], p["storage"], p["shards"], p["trees"], p["total"])
              for p in out["players"]}
    assert totals == {"Ann": (1, 0, 6, 2, 57), "Bob": (4, 0, 0, 2, 49)}
    assert out["winners"] == ["Ann"]
    assert t.state()["shards"] == {"Ann": 2, "Bob": 1}
