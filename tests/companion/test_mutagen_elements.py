"""Mutagen's Elements kept during a round (``new --elements``): the Elements taken into
storage or installed, the Tree cards' colours, the Element trackers moved during the round,
the Workers placed with the People cards' abilities, Storage tiles by id; the End of Round and
End of Game Scoring from what was kept. Every refusal names the rule and leaves the games file
byte-identical. Numbers worked out by hand in the comments, from the rulebook and
``components/mutagen``:

- 2 players: each location opens its two 1-pip Worker spaces (Available spaces).
- Airship (``data.airship``): squares' costs row 1 A 0, B 1; row 2 A 1; hull H1 H2 side by
  side, apart from the storage area.
- End of Round: 2 an installed Element; tracks 0/2/3/3/4/4/4/4 by space 0-7.
- Tree cards: jade-01 green, blue (+5); jade-02 pink, yellow (+5); jade-03 blue, blue (+5).
- Storage tile 24: ore, green; 09: any, blue.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.mutagen.elements import tree_spend
from tests.companion.test_mutagen_whole_game import Table

BOTH = ("--expansion", "plight-of-the-people", "--expansion", "palace-visitors")
BONUS = ("--bonus", "3=shards,6=points,9=track,12=element,15=points")


@pytest.fixture()
def kept(tmp_path: Path) -> Table:
    t = Table(tmp_path)
    t.ok("new", "--players", "Ann,Bob", "--elements", *BOTH, *BONUS)
    return t


def player(t: Table, name: str) -> dict[str, Any]:
    s = t.state()
    return {k: s[k][name] for k in ("scores", "shards", "tracks", "storage", "installed",
                                    "tiles") if name in (s.get(k) or {})}


def test_a_tree_card_takes_the_colours_it_shows() -> None:
    # the rulebook's example: "a Green Element and a Blue Element", any type
    assert tree_spend(["green", "blue"], ["green ore", "blue gas"]) is None
    assert tree_spend(["green", "blue"], ["blue crystal", "green liquid"]) is None
    # a pink one matches no colour left on the card
    assert "1 of the Elements spent match no colour" in str(
        tree_spend(["green", "blue"], ["green ore", "pink gas"]))
    # the Gardener: one Element on each card of any colour; a Supreme Element is any colour
    assert tree_spend(["green", "blue"], ["green ore", "pink gas"], gardener=True) is None
    assert tree_spend(["blue", "blue"], ["supreme", "blue gas"]) is None
    assert tree_spend(["blue", "blue"], ["green ore", "pink ore"], gardener=True) is not None
    # the Mutation spends one fewer: 1 of 2, and then exactly 1
    assert tree_spend(["green", "blue"], ["blue gas"], fewer=True) is None
    assert "asks for 2 Elements" in str(tree_spend(["green", "blue"], ["blue gas"]))
    assert tree_spend(["green", "blue"], ["green ore", "blue gas"], fewer=True) is not None


def test_elements_are_taken_into_storage_or_installed_by_the_installation_rules(
        kept: Table) -> None:
    t = kept
    t.ok("element", "Ann", "blue", "ore")
    t.ok("element", "Ann", "green gas", "--at", "H1")
    # Storing or Installing Elements: H2 is beside H1, which holds a green Element
    t.refused("H1 beside it holds the same colour (green gas)",
              "element", "Ann", "green ore", "--at", "H2")
    t.refused("A1 is not an installation space yet", "element", "Ann", "pink ore", "--at", "A1")
    # a Storage tile is named by its id when the Elements are kept; the game has one of each
    t.refused("name the tile placed with --tile", "storage", "Ann", "A1,A2")
    t.ok("storage", "Ann", "A1,A2", "--tile", "storage/24-ore-green")   # 0 + 1: Ann 3 -> 2
    t.refused("Ann has placed the Storage tile storage/24-ore-green already",
              "storage", "Bob", "A1,A2", "--tile", "24-ore-green")
    # tile 24's squares: ore on A1, green on A2
    t.refused("A1 takes only the ore type", "element", "Ann", "pink gas", "--at", "A1")
    t.refused("A2 takes only the green colour", "element", "Ann", "yellow liquid", "--at", "A2")
    t.ok("element", "Ann", "pink ore", "--at", "A1")
    ann = player(t, "Ann")
    assert ann["storage"] == ["blue ore"] and ann["shards"] == 2
    assert ann["installed"] == [["H1", "green gas"], ["A1", "pink ore"]]
    assert ann["tiles"] == [["A1", "A2", "storage/24-ore-green"]]
    # the box holds 5 blue ore: Ann takes the other 4, and then there is none for Bob
    for _ in range(4):
        t.ok("element", "Ann", "blue ore")
    t.refused("the box holds 5 blue ore Elements, all held", "element", "Bob", "blue ore")
    # End of Round from what was kept (no FILE): Ann 2 installed, 4 points: 5 -> 9; Bob 0
    t.refused("the saved game keeps Ann's Elements installed (2), the file says 0",
              "round", str(_round_file(t, "  - {name: Ann}\n  - {name: Bob}\n")), "--save")
    assert "Saved. Score track: Ann 9, Bob 5" in t.ok("round", "--save")


def _round_file(t: Table, players: str) -> Path:
    path = t.folder / "round.yaml"
    path.write_text("expansions: [plight-of-the-people, palace-visitors]\nplayers:\n"
                    + players)
    return path


def test_trees_and_element_tracks_spend_what_storage_holds(kept: Table) -> None:
    t = kept
    t.ok("people", "Ann", "supreme")         # round 1: 0 Shard Fragments, into storage
    for element in ("green ore", "blue gas", "pink liquid"):
        t.ok("element", "Ann", element)
    t.refused("Ann's storage holds 0 yellow ore", "tree", "Ann", "jade-02", "--spend",
              "pink liquid, yellow ore")
    t.refused("jade-03 is not completed", "tree", "Ann", "jade-03", "--spend",
              "pink liquid, supreme")
    t.refused("asks for Elements of the colours green, blue", "tree", "Ann", "jade-01")
    t.ok("tree", "Ann", "jade-01", "--spend", "green ore, blue gas")   # +5: Ann 3 -> 8
    # the Worker type actions on what was just spent: ore 1 space, the blue gas installed
    assert "ore 0 -> 1" in t.ok("track", "Ann", "ore", "--spent")
    t.refused("Install Elements: \"choose one of the Element colours you have spent\": "
              "blue and green are two", "install", "Ann", "blue gas H1, green ore H2")
    t.ok("install", "Ann", "blue gas H1")
    # the rest of what was spent has gone back to the supply
    t.refused("returned nothing this round; no green ore left", "install", "Ann",
              "green ore H2")
    # Element Track Location: one space a spent Element; a Supreme one names its type
    t.refused("names the type it counts as", "track", "Ann", "--spend", "supreme")
    assert "liquid 0 -> 1, gas 0 -> 1" in t.ok("track", "Ann", "--spend",
                                               "pink liquid, supreme gas")
    t.refused("Ann's storage holds 0 pink liquid", "track", "Ann", "--spend", "pink liquid")
    t.ok("track", "Ann", "gas", "2")          # a Visitor card's depicted track: 1 -> 3
    t.refused("1 space", "track", "Ann", "gas", "3")
    for _ in range(3):
        t.ok("track", "Ann", "crystal", "2")  # 0 -> 6
    t.refused("the track ends on 7", "track", "Ann", "crystal", "2")
    t.ok("track", "Ann", "crystal")           # 6 -> 7
    ann = player(t, "Ann")
    assert ann["tracks"] == {"crystal": 7, "gas": 3, "liquid": 1, "ore": 1}
    assert ann["storage"] == [] and ann["shards"] == 8
    # End of Round: 1 installed 2 + crystal 7: 4 + gas 3: 3 + liquid 1: 2 + ore 1: 2 = 13
    assert "Saved. Score track: Ann 18, Bob 5" in t.ok("round", "--save")
    # in round 2 a round FILE must say what the saved game kept: the Element installed,
    # and the trackers where they stand (a gas tracker further on is a move not typed)
    tracks = "tracks: {crystal: 7, gas: 4, liquid: 1, ore: 1}"
    t.refused("the saved game keeps Ann's Elements installed (1), the file says 0",
              "round", str(_round_file(t, f"  - {{name: Ann, {tracks}}}\n  - {{name: Bob}}\n")),
              "--save")
    t.refused("the saved game keeps Ann's Element trackers (crystal 7, gas 3, liquid 1, "
              "ore 1), the file says crystal 7, gas 4", "round",
              str(_round_file(t, f"  - {{name: Ann, installed: 1, {tracks}}}\n"
                                 "  - {name: Bob}\n")), "--save")


def test_workers_placed_call_the_people_cards_abilities(kept: Table) -> None:
    t = kept
    t.ok("people", "Ann", "ability", "guide-sacred-tree")   # 3 points: Ann 5 -> 2
    t.ok("people", "Bob", "ability", "clockmaker")          # 3 points: Bob 5 -> 2
    # the Guide: +2 at the Sacred Tree, Ann 3 -> 5
    assert "the Guide: +2 Shard Fragments" in t.ok("place", "Ann", "spy", "sacred-tree")
    t.refused("Ann's spy has been placed this round already", "place", "Ann", "spy",
              "coastal-oasis")
    t.refused("the Clockmaker moves 1 space", "place", "Bob", "robot", "clockwork-city")
    t.ok("place", "Bob", "robot", "clockwork-city", "--track", "ore")   # ore 0 -> 1
    t.ok("place", "Bob", "thug", "clockwork-city", "--track", "gas")    # gas 0 -> 1
    t.refused("2 Worker spaces open with 2 players, all taken", "place", "Ann", "robot",
              "clockwork-city")
    t.refused("Ann has not taken it", "place", "Ann", "robot", "nautical-city", "--track",
              "ore")
    t.ok("place", "Ann", "robot", "palace")                 # The Palace Visitors' location
    # "Once all players have placed all of their workers, proceed to end of round"
    t.refused("Ann's thug, engineer are not placed this round", "round", "--save")
    t.ok("place", "Ann", "thug", "coastal-oasis")
    t.ok("place", "Ann", "engineer", "floating-city")
    t.ok("place", "Bob", "spy", "floating-city")
    t.refused("Bob's engineer is not placed this round", "round", "--save")
    t.ok("place", "Bob", "engineer", "nautical-city")
    # End of Round 1: Ann nothing, 0; Bob ore 1: 2 + gas 1: 2 = 4
    assert "Saved. Score track: Ann 2, Bob 6" in t.ok("round", "--save")
    assert t.state()["shards"] == {"Ann": 5, "Bob": 3}
    # round 2: the Workers are on the Airship again
    t.ok("place", "Ann", "spy", "sacred-tree")              # the Guide: 5 -> 7
    t.ok("people", "Ann", "ability", "diver")               # 2 points: Ann 2 -> 0
    t.refused("the Diver gains 1 Element at random", "place", "Ann", "thug", "nautical-city")
    t.ok("place", "Ann", "thug", "nautical-city", "--drawn", "yellow crystal")
    t.ok("people", "Bob", "ability", "gardener")            # 2 points: Bob 6 -> 4
    t.ok("element", "Bob", "green ore")
    t.ok("element", "Bob", "pink gas")
    # the Gardener: the pink Element stands for the blue; +5, Bob 3 -> 8
    t.ok("tree", "Bob", "jade-01", "--spend", "green ore, pink gas")
    s = t.state()
    assert s["storage"] == {"Ann": ["yellow crystal"], "Bob": []}
    assert (s["scores"], s["shards"]) == ({"Ann": 0, "Bob": 4}, {"Ann": 7, "Bob": 8})


def test_the_hoarders_elements_and_the_end_of_game_from_what_was_kept(kept: Table) -> None:
    t = kept
    t.refused("has not taken the Hoarder's ability", "element", "Ann", "blue ore", "--at",
              "card")
    t.ok("people", "Ann", "ability", "hoarder")             # 3 points: Ann 5 -> 2
    t.ok("element", "Ann", "blue ore", "--at", "card")
    t.ok("element", "Bob", "blue ore")
    t.ok("element", "Bob", "pink gas")
    # End of Round 1: the Hoarder's card 2 Shard Fragments an Element: Ann 3 -> 5
    assert "Saved. Score track: Ann 2, Bob 5" in t.ok("round", "--save")
    assert t.state()["shards"] == {"Ann": 5, "Bob": 3}
    # the Element stays on the card: each End of Round counts it again
    for _ in range(3):
        t.ok("round", "--save")
    assert t.state()["shards"] == {"Ann": 11, "Bob": 3}     # 5 + 3 x 2
    t.refused("the saved game keeps Bob's storage: 2 Elements", "score", "--save",
              "--storage", "Bob=0")
    # End of Game Scoring: Ann 2 + 0 in storage + 11 // 3 = 3 -> 5; Bob 5 + 2 in storage
    # + 3 // 3 = 1 -> 8
    assert "irata play mutagen score --save" in t.ok("next")
    out = t.ok("score", "--save", "--json")
    assert '"winners": [\n    "Bob"\n  ]' in out
    s = t.state()
    assert s["final"]["players"][0]["total"] == 5 and s["final"]["players"][1]["total"] == 8


def test_a_game_without_the_elements_kept_plays_as_before(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.ok("new", "--players", "Ann,Bob", *BOTH, *BONUS)
    t.refused("does not keep the Elements", "element", "Ann", "blue ore")
    t.refused("does not keep the Elements", "round", "--save")
    t.ok("tree", "Ann", "jade-01")                           # the colours are the table's
    # named, the Elements spent are checked against the card's colours all the same
    t.refused("jade-02 is not completed", "tree", "Bob", "jade-02", "--spend",
              "blue ore, pink gas")
    t.ok("storage", "Ann", "A1,A2")                          # no id needed: 0 + 1
    assert "ore 0 -> 1" in t.ok("track", "Ann", "ore")      # the trackers move during a round
    # the End of Round file may not put a tracker behind where it stands
    t.refused("cannot be on 0", "round", str(_round_file(t, "  - {name: Ann}\n"
                                                          "  - {name: Bob}\n")), "--save")


def test_the_table_views_choices_are_what_the_player_holds(kept: Table) -> None:
    from companion.mutagen.view import choices

    t = kept
    t.ok("element", "Ann", "blue ore")
    t.ok("element", "Ann", "green gas")
    t.ok("place", "Ann", "spy", "sacred-tree")
    s = t.state()
    assert choices(s, "tree", "Ann") == {"spend": ("blue ore", "green gas")}
    where = choices(s, "place", "Ann")["where"]
    assert "robot palace" in where and not any(w.startswith("spy ") for w in where)
    t.ok("tree", "Ann", "jade-01", "--spend", "green gas, blue ore")
    assert choices(t.state(), "install", "Ann") == {"element": ("green gas H1",
                                                                "blue ore H1")}


def test_elements_of_one_colour_spent_are_installed_together(kept: Table) -> None:
    t = kept
    t.ok("element", "Ann", "blue ore")
    t.ok("element", "Ann", "blue gas")
    t.ok("track", "Ann", "--spend", "blue ore, blue gas")    # ore 0 -> 1, gas 0 -> 1
    # H1 and H2 are side by side: two blue Elements there share a colour
    t.refused("the blue gas cannot go on H2: H1 beside it holds the same colour (blue ore)",
              "install", "Ann", "blue ore H1, blue gas H2")
    t.ok("storage", "Ann", "A1,A2", "--tile", "storage/09-any-blue")   # 0 + 1: Ann 3 -> 2
    t.ok("install", "Ann", "blue ore H1, blue gas A2")       # A2 takes only blue
    s = t.state()
    assert s["installed"]["Ann"] == [["H1", "blue ore"], ["A2", "blue gas"]]
    assert s["tracks"]["Ann"]["ore"] == 1 and s["storage"]["Ann"] == []
    # End of Round: 2 installed 4 + ore 1: 2 + gas 1: 2 = 8; Ann 5 -> 13
    assert "Saved. Score track: Ann 13, Bob 5" in t.ok("round", "--save")


def test_a_game_saved_by_main_plays_on_with_the_trackers_moved_during_its_round(
        tmp_path: Path) -> None:
    import shutil

    # fixtures/mutagen-saved-main.sqlite3, game 1: round 3, Ann's trackers crystal 2, gas 2,
    # liquid 1, ore 1 (as its round 2 left them); no Elements kept
    t = Table(tmp_path)
    shutil.copy(Path(__file__).parent / "fixtures" / "mutagen-saved-main.sqlite3", t.db)
    assert "ore 1 -> 2" in t.ok("track", "Ann", "ore", "--game", "1")
    t.refused("does not keep the Elements", "element", "Ann", "blue ore", "--game", "1")
    t.ok("place", "Ann", "spy", "sacred-tree", "--game", "1")
    t.refused("Ann's spy has been placed this round already", "place", "Ann", "spy",
              "sunken-mines", "--game", "1")
    # the End of Round FILE may not put Ann's ore tracker back behind 2
    rnd = _round_file(t, "  - {name: Ann, tracks: {crystal: 2, gas: 2, liquid: 1, ore: 1}}\n"
                         "  - {name: Bob, tracks: {ore: 3, gas: 1}}\n"
                         "  - {name: Cid, tracks: {gas: 2, liquid: 1}}\n")
    t.refused("Ann's ore tracker was on 2", "round", str(rnd), "--save", "--game", "1")
    # Ann 36 + crystal 2: 3 + gas 2: 3 + liquid 1: 2 + ore 2: 3 = 47
    rnd.write_text(rnd.read_text().replace("ore: 1}", "ore: 2}"))
    # once Workers are typed, the End of Round waits for all of them; undo takes Ann's back
    t.refused("Ann's robot, thug, engineer are not placed", "round", str(rnd), "--save",
              "--game", "1")
    t.ok("undo", "--game", "1")
    t.ok("round", str(rnd), "--save", "--game", "1")
    game = json.loads(t.ok("status", "--game", "1", "--json"))["state"]
    assert game["round"] == 4 and game["scores"]["Ann"] == 47
    assert game.get("placed") is None        # a new round: no Worker placed yet


def test_next_offers_the_elements_moves_where_the_elements_are_kept(kept: Table,
                                                                   tmp_path: Path) -> None:
    steps = json.loads(kept.ok("next", "--json"))["next"]["steps"]
    assert {"element", "install", "track", "place"} <= set(steps)
    assert json.loads(kept.ok("next", "--json"))["next"]["command"] == \
        "irata play mutagen round --save"
    plain = Table(tmp_path / "plain")
    (tmp_path / "plain").mkdir()
    plain.ok("new", "--players", "Ann,Bob")
    steps = json.loads(plain.ok("next", "--json"))["next"]["steps"]
    assert {"track", "place"} <= set(steps) and not {"element", "install"} & set(steps)


def test_the_informant_discards_when_the_spy_is_placed(kept: Table) -> None:
    t = kept
    t.ok("people", "Bob", "ability", "informant")      # 3 points: Bob 5 -> 2
    t.ok("crew", "Bob", "Champion gas")                # 1: Bob 3 -> 2 Shard Fragments
    t.ok("place", "Bob", "robot", "sunken-mines")
    t.refused("the Informant discards \"when you place your Spy\": Bob's Spy has not been "
              "placed this round", "discard", "Bob", "Champion gas")
    t.ok("place", "Bob", "spy", "sacred-tree")
    # twice the printed cost, 1: +2 points, Bob 2 -> 4
    assert t.ok("discard", "Bob", "Champion gas").startswith(
        "Bob discards 'Champion gas': +2 points, 4.")
