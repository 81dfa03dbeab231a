"""Mutagen's companion: the rulebook's scoring, the Airship rules, set-up and the expansions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

import components
from companion.mutagen import (
    Airship,
    Crew,
    Element,
    PlacedTile,
    PlayerEnd,
    PlayerRound,
    Tracks,
    advance_progress,
    crew_points,
    end_of_game,
    end_of_round,
    filled_columns,
    install_check,
    load_rules,
    palace_move_cost,
    parse_element,
    people_card_cost,
    place_tile_check,
    setup,
    shard_points,
    spy_discard_points,
    starting_score,
    storage_points,
    track_round_points,
    tree_points,
)
from companion.mutagen.airship import build
from components.errors import InputError, RuleError
from irata.cli import cli

R = load_rules()
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures" / "mutagen"
IRATA = Path(sys.executable).parent / "irata"


def on(element: str, pos: int) -> Tracks:
    return Tracks(**{element: pos})


def points(crew: Crew, tracks: Tracks, others: tuple[Tracks, ...] = ()) -> int:
    return crew_points(crew, tracks, R, others)


# --- Crew cards, each kind at each of its thresholds ------------------------------------------

@pytest.mark.parametrize(("pos", "want"), [(0, 0), (1, 1), (4, 1), (5, 5), (7, 5)])
def test_track_crew_scores_1_on_1_to_4_and_5_on_5_to_7(pos: int, want: int) -> None:
    assert points(Crew("track", element="ore"), on("ore", pos)) == want


@pytest.mark.parametrize(("left", "right", "want"), [(3, 2, 3), (2, 2, 0), (1, 4, 0), (7, 0, 3)])
def test_higher_crew_scores_3_only_when_left_is_strictly_above_right(
        left: int, right: int, want: int) -> None:
    crew = Crew("higher", left="crystal", right="gas")
    assert points(crew, Tracks(crystal=left, gas=right)) == want


def test_highest_crew_scores_4_for_the_highest_including_ties() -> None:
    crew = Crew("highest", element="ore")
    assert points(crew, on("ore", 5), (on("ore", 3), on("ore", 4))) == 4
    assert points(crew, on("ore", 5), (on("ore", 5),)) == 4          # ties count
    assert points(crew, on("ore", 4), (on("ore", 5),)) == 0
    assert points(crew, on("ore", 2)) == 4                            # alone at the table


@pytest.mark.parametrize(("pos", "want"),
                         [(0, 0), (1, 1), (3, 1), (4, 4), (6, 4), (7, 6)])
def test_ladder_crew_scores_1_4_6(pos: int, want: int) -> None:
    assert points(Crew("ladder", element="crystal"), on("crystal", pos)) == want


@pytest.mark.parametrize(("pos", "want"),
                         [(0, 0), (1, 1), (2, 1), (3, 4), (5, 4), (6, 2), (7, 7)])
def test_peak_crew_dips_to_2_on_space_6(pos: int, want: int) -> None:
    assert points(Crew("peak", element="gas"), on("gas", pos)) == want


def test_pair_crew_rulebook_example_left_4_right_2_scores_4() -> None:
    crew = Crew("pair", left="ore", right="crystal")
    assert points(crew, Tracks(ore=4, crystal=2)) == 4
    assert points(crew, Tracks(ore=0, crystal=7)) == 0
    assert points(crew, Tracks(ore=7, crystal=7)) == 14


def test_all_crew_rulebook_example_every_tracker_moved_2_scores_8() -> None:
    assert points(Crew("all"), Tracks(2, 2, 2, 2)) == 8
    assert points(Crew("all"), Tracks(7, 3, 5, 1)) == 4
    assert points(Crew("all"), Tracks(7, 7, 7, 0)) == 0


def test_crew_cards_must_show_the_elements_their_kind_needs() -> None:
    with pytest.raises(InputError, match="needs 'element'"):
        points(Crew("track"), Tracks())
    with pytest.raises(InputError, match="two different"):
        points(Crew("pair", left="ore", right="ore"), Tracks())
    with pytest.raises(InputError, match="unknown Crew card kind"):
        points(Crew("lowest", element="ore"), Tracks())
    with pytest.raises(InputError, match="no Element 'wood'"):
        points(Crew("track", element="wood"), Tracks())


@given(st.sampled_from(["track", "highest", "ladder", "peak"]), st.sampled_from(R.elements),
       st.integers(0, 7))
def test_single_track_crew_points_are_never_negative_and_at_most_7(
        kind: str, element: str, pos: int) -> None:
    assert 0 <= points(Crew(kind, element=element), on(element, pos)) <= 7


# --- the definitions hold the same numbers ----------------------------------------------------

def test_the_printed_crew_cards_carry_the_table_costs_and_every_kind() -> None:
    game = components.load("mutagen")
    cards = game.by_group("Crew cards")
    assert sum(c.count for c in cards) == 27
    assert {c.fields["crew"] for c in cards} == set(R.crew_kinds)
    for c in cards:
        assert c.fields["cost"] == R.crew_kinds[c.fields["crew"]].cost, c.id
    costs = {k: v.cost for k, v in R.crew_kinds.items()}
    assert costs == {"track": 0, "higher": 0, "highest": 1, "ladder": 2, "peak": 2, "pair": 4,
                     "all": 5}


# --- Elements and Tokens, Tree cards ----------------------------------------------------------

@pytest.mark.parametrize(("shards", "want"), [(0, (0, 0)), (2, (0, 2)), (3, (1, 0)),
                                              (7, (2, 1)), (9, (3, 0))])
def test_three_shard_fragments_make_a_point(shards: int, want: tuple[int, int]) -> None:
    assert shard_points(shards, R) == want


def test_one_point_per_element_in_storage() -> None:
    assert storage_points(0, R) == 0
    assert storage_points(3, R) == 3
    with pytest.raises(InputError):
        storage_points(-1, R)


@pytest.mark.parametrize(("trees", "want"), [
    ([], 0), (["jade"], 1), (["jade", "jade"], 3), (["jade", "jade", "jade"], 4),
    (["jade", "amber", "violet"], 3), (["jade", "jade", "amber", "amber"], 6),
    (["violet"] * 4 + ["amber"], 7),
])
def test_tree_pairs_score_3_and_the_rest_1(trees: list[str], want: int) -> None:
    assert tree_points(trees, R) == want


def test_an_unknown_tree_colour_is_refused() -> None:
    with pytest.raises(InputError, match="no Tree card colour 'green'"):
        tree_points(["green"], R)


@given(st.lists(st.sampled_from(R.tree_colours), max_size=12))
def test_tree_points_lie_between_one_and_one_and_a_half_per_card(trees: list[str]) -> None:
    got = tree_points(trees, R)
    assert len(trees) <= got <= 1.5 * len(trees)


@given(st.integers(0, 200))
def test_shard_conversion_loses_no_token(shards: int) -> None:
    pts, left = shard_points(shards, R)
    assert pts * 3 + left == shards and 0 <= left < 3


# --- End of Game Scoring: totals, winner, tie-break -------------------------------------------

ANN = PlayerEnd("Ann", 41, Tracks(crystal=5, gas=2, liquid=0, ore=7),
                crew=(Crew("track", element="ore"), Crew("higher", left="crystal", right="gas"),
                      Crew("highest", element="ore"), Crew("ladder", element="crystal"),
                      Crew("peak", element="gas"), Crew("pair", left="ore", right="crystal"),
                      Crew("all")),
                storage=3, shards=7, trees=("jade", "jade", "amber"))


def test_a_full_end_of_game_breakdown() -> None:
    result = end_of_game([ANN], R)
    ann = result.players[0]
    # track 5 + higher 3 + highest 4 + ladder 4 + peak 1 + pair 10 + all 0
    assert [c.points for c in ann.crew] == [5, 3, 4, 4, 1, 10, 0]
    assert (ann.storage, ann.shards, ann.trees, ann.shards_left) == (3, 2, 4, 1)
    assert ann.total == 41 + 27 + 3 + 2 + 4
    assert result.winners == ("Ann",)


def test_highest_is_decided_against_the_other_players() -> None:
    bob = PlayerEnd("Bob", 0, Tracks(ore=7), crew=(Crew("highest", element="ore"),))
    cat = PlayerEnd("Cat", 0, Tracks(ore=6), crew=(Crew("highest", element="ore"),))
    res = end_of_game([bob, cat], R)
    assert [b.crew_total for b in res.players] == [4, 0]


def test_most_points_wins() -> None:
    res = end_of_game([PlayerEnd("Ann", 30, Tracks()), PlayerEnd("Bob", 31, Tracks())], R)
    assert res.winners == ("Bob",) and not res.tie_broken


def test_a_tie_goes_to_the_most_shard_fragments_remaining_after_conversion() -> None:
    # Ann: 30 + 2 (from 7 tokens, 1 left); Bob: 31 + 1 (from 5 tokens, 2 left)
    ann = PlayerEnd("Ann", 30, Tracks(), shards=7)
    bob = PlayerEnd("Bob", 31, Tracks(), shards=5)
    res = end_of_game([ann, bob], R)
    assert [b.total for b in res.players] == [32, 32]
    assert res.winners == ("Bob",) and res.tie_broken


def test_a_tie_on_points_and_on_remaining_tokens_is_shared() -> None:
    res = end_of_game([PlayerEnd("Ann", 20, Tracks(), shards=4),
                       PlayerEnd("Bob", 21, Tracks(), shards=1)], R)
    assert res.winners == ("Ann", "Bob")


def test_players_need_distinct_names() -> None:
    with pytest.raises(InputError, match="same name"):
        end_of_game([PlayerEnd("Ann", 0, Tracks()), PlayerEnd("Ann", 1, Tracks())], R)


# --- End of Round -----------------------------------------------------------------------------

@pytest.mark.parametrize(("pos", "want"),
                         [(0, 0), (1, 2), (2, 3), (3, 3), (4, 4), (5, 4), (6, 4), (7, 4)])
def test_track_position_points_at_the_end_of_a_round(pos: int, want: int) -> None:
    assert track_round_points(pos, R) == want


def test_end_of_round_installed_columns_and_tracks() -> None:
    got = end_of_round(PlayerRound("Ann", installed=3, filled_columns=(0, 2),
                                   tracks=Tracks(crystal=1, gas=3, liquid=0, ore=6)), R)
    assert (got.installed, got.columns) == (6, 1 + 3)
    assert dict(got.tracks) == {"crystal": 2, "gas": 3, "liquid": 0, "ore": 4}
    assert got.total == 6 + 4 + 9 and got.shards == 0


def test_each_filled_column_scores_its_own_value_once() -> None:
    for cols, want in [((), 0), ((0,), 1), ((1,), 2), ((2,), 3), ((0, 1, 2), 6)]:
        assert end_of_round(PlayerRound("A", 0, cols, Tracks()), R).columns == want
    with pytest.raises(InputError):
        end_of_round(PlayerRound("A", 0, (3,), Tracks()), R)


def test_a_tracker_beyond_7_is_impossible() -> None:
    with pytest.raises(RuleError):
        track_round_points(8, R)


# --- the Airship ------------------------------------------------------------------------------

BLUE_ORE = Element("ore", "blue")


def ship(*tiles: tuple[str, str, str, str], installed: tuple[tuple[str, str], ...] = ()
         ) -> Airship:
    placed = [PlacedTile((a, b), (ra, rb)) for a, b, ra, rb in tiles]
    return build(placed, [(s, parse_element(e, R)) for s, e in installed], R)


def test_the_hull_spaces_take_any_element_from_the_start() -> None:
    assert install_check(Airship(), "H1", BLUE_ORE, R).allowed


def test_a_storage_square_needs_a_tile_first() -> None:
    v = install_check(Airship(), "A1", BLUE_ORE, R)
    assert not v.allowed and "Storage tile" in v.reasons[0]


def test_a_type_restriction_refuses_another_type() -> None:
    s = ship(("A1", "A2", "gas", "any"))
    assert not install_check(s, "A1", BLUE_ORE, R).allowed
    assert "takes only the gas type" in install_check(s, "A1", BLUE_ORE, R).reasons[0]
    assert install_check(s, "A1", Element("gas", "pink"), R).allowed


def test_a_colour_restriction_takes_any_type_of_that_colour() -> None:
    s = ship(("B1", "C1", "pink", "any"))
    assert install_check(s, "B1", Element("crystal", "pink"), R).allowed
    v = install_check(s, "B1", Element("crystal", "green"), R)
    assert not v.allowed and "pink colour" in v.reasons[0]


def test_neighbours_may_not_share_type_or_colour() -> None:
    s = ship(("A1", "A2", "any", "any"), installed=(("A1", "blue ore"),))
    same_colour = install_check(s, "A2", Element("gas", "blue"), R)
    assert not same_colour.allowed and "same colour" in same_colour.reasons[0]
    same_type = install_check(s, "A2", Element("ore", "pink"), R)
    assert not same_type.allowed and "same type" in same_type.reasons[0]
    assert install_check(s, "A2", Element("gas", "pink"), R).allowed


def test_the_hull_spaces_are_neighbours_of_each_other() -> None:
    s = ship(installed=(("H1", "blue ore"),))
    assert not install_check(s, "H2", Element("ore", "green"), R).allowed


def test_diagonal_squares_are_not_neighbours() -> None:
    s = ship(("A1", "B1", "any", "any"), ("A2", "B2", "any", "any"),
             installed=(("A1", "blue ore"),))
    assert install_check(s, "B2", BLUE_ORE, R).allowed


def test_an_occupied_space_is_refused() -> None:
    s = ship(installed=(("H1", "blue ore"),))
    assert "already holds" in install_check(s, "H1", Element("gas", "pink"), R).reasons[0]


def test_a_supreme_element_fits_anywhere_and_restricts_no_neighbour() -> None:
    s = ship(("A1", "A2", "gas", "any"), installed=(("A2", "blue ore"),))
    assert install_check(s, "A1", Element(supreme=True), R).allowed
    s2 = ship(("A1", "A2", "any", "any"), installed=(("A1", "supreme"),))
    assert install_check(s2, "A2", BLUE_ORE, R).allowed


def test_a_storage_tile_covers_two_free_neighbouring_squares_and_costs_both() -> None:
    v = place_tile_check(Airship(), ["C3", "C4"], R)
    assert v.allowed and v.cost == 3 + 3
    assert not place_tile_check(Airship(), ["A1", "B2"], R).allowed
    s = ship(("A1", "A2", "any", "any"))
    v = place_tile_check(s, ["A2", "A3"], R)
    assert not v.allowed and "already covered" in v.reasons[0]


def test_filled_columns_are_the_wholly_covered_ones() -> None:
    s = ship(("A1", "A2", "any", "any"), ("A3", "A4", "any", "any"), ("B1", "B2", "any", "any"))
    assert filled_columns(s, R) == (0,)


def test_an_element_is_a_colour_and_a_type() -> None:
    assert parse_element("Pink Gas", R) == Element("gas", "pink")
    assert parse_element("supreme", R).supreme
    with pytest.raises(InputError):
        parse_element("pink", R)


# --- Setup and Available spaces ---------------------------------------------------------------

@pytest.mark.parametrize(("players", "open_pips"), [(1, [1, 1]), (2, [1, 1]), (3, [1, 1, 2]),
                                                    (4, [1, 1, 2, 3])])
def test_worker_spaces_open_by_pips(players: int, open_pips: list[int]) -> None:
    s = setup(players, R)
    assert [sp.pips for sp in s.spaces if sp.open] == open_pips
    assert s.mutation_cards == players + 1
    assert (s.starting_shards, s.starting_score, s.people_cards) == (3, 0, 0)


def test_setup_refuses_five_players() -> None:
    with pytest.raises(RuleError):
        setup(5, R)


# --- the expansions ---------------------------------------------------------------------------

def test_plight_of_the_people_starts_the_score_at_5_and_deals_people_cards() -> None:
    assert starting_score(R) == 0
    assert starting_score(R, ["plight-of-the-people"]) == 5
    s = setup(4, R, ["plight-of-the-people"])
    assert (s.starting_score, s.people_cards, s.mutation_cards) == (5, 5, 5)


def test_people_cards_cost_shards_or_points_by_round() -> None:
    assert [people_card_cost(r, "supreme", R) for r in (1, 2, 3, 4)] == [
        (0, 0), (1, 0), (2, 0), (3, 0)]
    assert [people_card_cost(r, "ability", R) for r in (1, 2, 3, 4)] == [
        (0, 3), (0, 2), (0, 1), (0, 0)]
    with pytest.raises(RuleError):
        people_card_cost(5, "supreme", R)


def test_the_spy_people_card_pays_double_the_crew_cost() -> None:
    assert spy_discard_points(Crew("pair", left="ore", right="gas"), R) == 8
    assert spy_discard_points(Crew("track", element="ore"), R) == 0


def test_the_people_card_holding_elements_pays_2_shards_each_round() -> None:
    got = end_of_round(PlayerRound("Ann", 0, (), Tracks(), card_elements=3), R)
    assert got.shards == 6 and got.total == 0


def test_palace_workers_pay_2_then_1_then_nothing_to_move() -> None:
    assert [palace_move_cost(i, R) for i in (1, 2, 3, 4)] == [2, 1, 0, 0]


def test_progress_resolves_every_bonus_and_points_space_passed() -> None:
    move = advance_progress(2, 5, R)
    assert (move.end, move.bonuses, move.points) == (7, (3, 6), 0)
    move = advance_progress(13, 8, R)           # stops on the last space, 20
    assert move.end == 20 and move.bonuses == (15,) and move.points == 1 + 2 + 3 + 4


# --- the command line -------------------------------------------------------------------------

def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["play", "mutagen", *args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def irata(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(IRATA), "play", "mutagen", *args], capture_output=True,
                          text=True, check=False)


def test_score_prints_each_breakdown_and_the_winner() -> None:
    code, out = run("score", str(FIXTURES / "score.yaml"))
    assert code == 0
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[2:4]}
    assert rows["Ann"] == ["41", "27", "3", "2", "4", "77"]
    # the Crew cards as they are printed (title, and the Element when titles repeat)
    assert "Bob's Crew cards: Champion ore 4, Summiteer gas 2, Foreman 12" in out
    assert out.strip().endswith("Winner: Bob with 81 points")


def test_score_json_has_the_issue_fields() -> None:
    code, out = run("score", str(FIXTURES / "score.yaml"), "--json")
    data = json.loads(out)
    ann = data["players"][0]
    assert {k: ann[k] for k in ("name", "crew", "storage", "shards", "trees", "total")} == {
        "name": "Ann", "crew": 27, "storage": 3, "shards": 2, "trees": 4, "total": 77}
    assert data["winner"] == "Bob" and data["tie_break"] is None
    assert data["players"][1]["crew_cards"][0] == {"card": "Champion ore",
                                                    "id": "crew/highest-ore", "points": 4}


def test_score_breaks_a_tie_by_remaining_shard_fragments() -> None:
    data = json.loads(run("score", str(FIXTURES / "tie.yaml"), "--json")[1])
    assert [p["total"] for p in data["players"]] == [32, 32]
    assert data["winner"] == "Bob" and "remaining" in data["tie_break"]
    data = json.loads(run("score", str(FIXTURES / "shared.yaml"), "--json")[1])
    assert data["winner"] is None and data["winners"] == ["Ann", "Bob"]
    assert "share the win" in run("score", str(FIXTURES / "shared.yaml"))[1]


def test_score_with_plight_of_the_people_starts_from_5() -> None:
    data = json.loads(run("score", str(FIXTURES / "plight.yaml"), "--json")[1])
    assert data["players"][0]["score"] == 5 and data["players"][0]["total"] == 5


@pytest.mark.parametrize(("fixture", "where", "what"), [
    ("bad_crew.yaml", "bad_crew.yaml:6:9:", "no Element 'wood'"),
    ("bad_track.yaml", "bad_track.yaml:3:14:", "at most 7, not 9"),
    ("bad_syntax.yaml", "bad_syntax.yaml:4:", "malformed YAML"),
])
def test_bad_score_files_get_file_line_errors_and_exit_2(fixture: str, where: str,
                                                         what: str) -> None:
    proc = irata("score", str(FIXTURES / fixture))
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: ") and where in proc.stderr and what in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_a_missing_file_is_one_error_line() -> None:
    proc = irata("score", str(FIXTURES / "nowhere.yaml"))
    assert proc.returncode == 2 and "no such file" in proc.stderr


def test_round_scores_installed_columns_and_tracks() -> None:
    data = json.loads(run("round", str(FIXTURES / "round.yaml"), "--json")[1])
    ann, bob = data["players"]
    assert (ann["installed"], ann["columns"], ann["total"]) == (6, 4, 19)
    assert ann["tracks"] == {"crystal": 2, "gas": 3, "liquid": 0, "ore": 4}
    # Bob's Airship: two Elements installed, the left column wholly covered
    assert (bob["installed"], bob["columns"], bob["total"]) == (4, 1, 8)


def test_round_with_plight_pays_shards_for_the_people_card() -> None:
    code, out = run("round", str(FIXTURES / "round_plight.yaml"))
    assert code == 0 and "Shards" in out and "+4" in out


def test_airship_lists_its_spaces_and_answers_for_an_element() -> None:
    code, out = run("airship", str(FIXTURES / "airship.yaml"))
    assert "A2  shows ore" in out and "End of round, from the Airship: 4 points" in out
    data = json.loads(run("airship", str(FIXTURES / "airship.yaml"), "--element", "pink ore",
                          "--json")[1])["spaces"]
    assert data["A2"] == {"allowed": True, "reasons": []}
    assert data["B1"]["allowed"]                        # a pink square, beside green A1
    assert not data["H2"]["allowed"]                    # beside H1's blue ore: same type
    assert "already holds" in data["H1"]["reasons"][0]
    code, out = run("airship", str(FIXTURES / "airship.yaml"), "--element", "pink gas",
                    "--at", "A2")
    assert out.strip() == "A2: no: A2 takes only the ore type"


def test_airship_checks_a_storage_tile_and_its_cost() -> None:
    code, out = run("airship", str(FIXTURES / "airship.yaml"), "--tile", "A3,A4")
    assert out.strip() == "A Storage tile fits on A3+A4: pay 1 Shard Fragment tokens."
    code, out = run("airship", str(FIXTURES / "airship.yaml"), "--tile", "A2,A3")
    assert "already covered" in out


def test_an_impossible_airship_file_names_the_line() -> None:
    proc = irata("airship", str(FIXTURES / "bad_airship.yaml"))
    assert proc.returncode == 2 and "bad_airship.yaml:5:5:" in proc.stderr
    assert "same colour" in proc.stderr


def test_setup_help_for_each_player_count() -> None:
    for players, open_count in [(1, 2), (2, 2), (3, 3), (4, 4)]:
        data = json.loads(run("setup", "--players", ",".join("ABCD"[:players]), "--json")[1])
        assert data["open_spaces_per_location"] == open_count
        assert data["mutation_cards"] == players + 1
    data = json.loads(run("setup", "--players", "Ann,Bob", "--expansion", "plight-of-the-people",
                          "--json")[1])
    assert (data["starting_score"], data["people_cards"]) == (5, 3)
    assert irata("setup", "--players", "A,B,C,D,E").returncode == 2


# --- a saved game: the score track through the rounds -----------------------------------------

def test_a_saved_game_keeps_the_score_track_through_rounds(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite3")
    code, out = run("new", "--players", "Ann,Bob", "--expansion", "plight-of-the-people",
                    "--db", db)
    assert code == 0 and "Ann 5, Bob 5" in out                 # Plight starts the score at 5
    assert run("points", "Ann", "2", "--why", "Golden Voice", "--db", db)[1].splitlines()[0] \
        == "Ann: 7 points"
    assert run("points", "Bob", "-3", "--db", db)[1].splitlines()[0] == "Bob: 2 points"
    round_file = tmp_path / "round.yaml"           # the round as the Plight game plays it
    round_file.write_text("expansions: [plight-of-the-people]\n"
                          + (FIXTURES / "round.yaml").read_text())
    data = json.loads(run("round", str(round_file), "--save", "--db", db, "--json")[1])
    assert data["score_track"] == {"Ann": 7 + 19, "Bob": 2 + 8}
    both = tmp_path / "end.yaml"
    both.write_text("expansions: [plight-of-the-people]\nplayers:\n"
                    "  - {name: Ann, tracks: {crystal: 1, gas: 3, ore: 6}, crew: [{kind: all}]}\n"
                    "  - {name: Bob, crew: [{kind: track, element: ore}]}\n")
    # End of Game Scoring after round 4 only
    assert irata("score", str(both), "--save", "--db", db).returncode == 2
    for _ in range(3):
        run("round", str(round_file), "--save", "--db", db)
    ended = json.loads(run("score", str(both), "--save", "--db", db, "--json")[1])
    assert [p["score"] for p in ended["players"]] == [7 + 4 * 19, 2 + 4 * 8]  # the saved game's
    # Crew cards scored from the trackers the last End of Round kept: Ann's lowest is liquid
    # 0 (all: 4 a step, 0); Bob left 'tracks' out and takes the saved ore 2 (track: 1 point on
    # spaces 1-4)
    assert [p["crew"] for p in ended["players"]] == [0, 1]
    # trackers in the file other than the saved game's are refused: nothing moves them after
    # the fourth End of Round
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("expansions: [plight-of-the-people]\nplayers:\n"
                     "  - {name: Ann, tracks: {crystal: 1, gas: 3, ore: 7}}\n  - {name: Bob}\n")
    proc = irata("score", str(wrong), "--save", "--db", db)
    assert proc.returncode == 2 and proc.stderr == (
        "error: Ann's Element trackers are where the last End of Round left them (crystal 1, "
        "gas 3, liquid 0, ore 6), and nothing moves them before End of Game Scoring, but the "
        "file says ore 7: leave 'tracks' out (correct the saved game with 'irata play set')\n")


def _round(tmp_path: Path, ann: str, bob: str = "{ore: 2}") -> str:
    path = tmp_path / "round.yaml"
    path.write_text("players:\n"
                    f"  - {{name: Ann, installed: 0, tracks: {ann}}}\n"
                    f"  - {{name: Bob, installed: 0, tracks: {bob}}}\n")
    return str(path)


def test_element_trackers_only_move_on_between_rounds(tmp_path: Path) -> None:
    """Element Track Location: "Move your tracker token one space on the matching tracks for
    each Element spent"; the rulebook's example: the Green player spends three Ore Elements
    and a Gas Element and moves as many spaces on each track. Nothing moves a tracker back."""
    db = tmp_path / "games.sqlite3"
    run("new", "--players", "Ann,Bob", "--db", str(db))
    # round 1: Ann, from '0' (Player Setup C), spends three Ore and a Gas
    code, out = run("round", _round(tmp_path, "{ore: 3, gas: 1}"), "--save", "--db", str(db))
    assert code == 0, out
    before = db.read_bytes()
    proc = irata("round", _round(tmp_path, "{ore: 2, gas: 1}"), "--save", "--db", str(db))
    assert proc.returncode == 2 and proc.stderr == (
        "error: Ann's ore tracker was on 3 at the End of Round 1, and an Element tracker only "
        "moves on (the Element Track Location, Mutations and People cards move it forward, "
        "nothing moves it back), so it cannot be on 2\n")
    assert db.read_bytes() == before
    # a track left out of the file is on '0': Bob's ore was on 2
    proc = irata("round", _round(tmp_path, "{ore: 3, gas: 1}", "{gas: 1}"), "--save", "--db",
                 str(db))
    assert proc.returncode == 2 and "Bob's ore tracker was on 2 at" in proc.stderr
    assert db.read_bytes() == before
    # beyond the track's last space: refused by the file's reader
    proc = irata("round", _round(tmp_path, "{ore: 8}"), "--save", "--db", str(db))
    assert proc.returncode == 2 and "'ore' must be at most 7, not 8" in proc.stderr
    assert db.read_bytes() == before
    # staying put, or moving on (to the last space), is taken
    assert run("round", _round(tmp_path, "{ore: 3, gas: 1}"), "--save", "--db", str(db))[0] == 0
    assert run("round", _round(tmp_path, "{ore: 7, gas: 1, crystal: 2}", "{ore: 3}"),
               "--save", "--db", str(db))[0] == 0
    state = json.loads(CliRunner().invoke(cli, ["play", "status", "--json", "--db", str(db)]
                                          ).output)["state"]
    assert state["tracks"] == {"Ann": {"crystal": 2, "gas": 1, "liquid": 0, "ore": 7},
                               "Bob": {"crystal": 0, "gas": 0, "liquid": 0, "ore": 3}}


def test_the_fold_keeps_the_element_trackers_and_an_older_game_has_none_to_check() -> None:
    from companion import session
    from companion.mutagen.rules import RoundScore
    from companion.mutagen.saved import fold, new_setup, round_event
    from companion.mutagen.state import from_json

    setup = new_setup(["Ann"], R)
    assert setup["tracks"] == {"Ann": {"crystal": 0, "gas": 0, "liquid": 0, "ore": 0}}
    events = [session.Event(1, "setup", setup, "t")]
    score = [RoundScore("Ann", 0, 0, {}, 4)]
    ev = round_event(from_json(fold(events)), score,
                     tracks={"Ann": {"ore": 4, "gas": 0, "crystal": 0, "liquid": 0}})
    events.append(session.Event(2, "round", ev, "t"))
    assert fold(events)["tracks"]["Ann"]["ore"] == 4
    with pytest.raises(RuleError, match="Ann's ore tracker was on 4 at the End of Round 1"):
        round_event(from_json(fold(events)), score, tracks={"Ann": {"ore": 3}})
    assert fold(events[:-1])["tracks"]["Ann"]["ore"] == 0        # undo drops the round
    # a game saved before the trackers were kept: nothing to compare the first round with
    old = {k: v for k, v in setup.items() if k != "tracks"}
    older = [session.Event(1, "setup", old, "t")]
    assert "tracks" not in fold(older)
    ev = round_event(from_json(fold(older)), score, tracks={"Ann": {"ore": 2}})
    older.append(session.Event(2, "round", ev, "t"))
    # the typed state keeps all four trackers (those the round file leaves out on 0)
    assert fold(older)["tracks"] == {"Ann": {"crystal": 0, "gas": 0, "liquid": 0, "ore": 2}}
    with pytest.raises(RuleError, match="Ann's ore tracker was on 2 at the End of Round 1"):
        round_event(from_json(fold(older)), score, tracks={"Ann": {"ore": 1}})


def test_end_of_game_scoring_of_a_saved_game_waits_for_round_4_and_scores_everyone(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    run("new", "--players", "Ann,Bob", "--db", str(db))
    only_ann = tmp_path / "ann.yaml"
    only_ann.write_text("players:\n  - {name: Ann, storage: 30}\n")
    proc = irata("score", str(only_ann), "--save", "--db", str(db))
    assert proc.returncode == 2 and "round 1 of 4" in proc.stderr
    for _ in range(4):
        assert run("round", str(FIXTURES / "round.yaml"), "--save", "--db", str(db))[0] == 0
    proc = irata("score", str(only_ann), "--save", "--db", str(db))
    assert proc.returncode == 2 and "leaves out Bob" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    before = db.read_bytes()
    proc = irata("points", "Ann", "2", "--db", str(db))
    assert proc.returncode == 2 and "all 4 rounds have been scored" in proc.stderr
    assert db.read_bytes() == before


def test_a_saved_game_refuses_what_the_rules_do_not_allow(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite3")
    run("new", "--players", "Ann,Bob", "--db", db)
    proc = subprocess.run([str(IRATA), "play", "mutagen", "points", "Bob", "-1", "--db", db],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "cannot pay 1" in proc.stderr
    proc = subprocess.run([str(IRATA), "play", "mutagen", "round",
                           str(FIXTURES / "round_plight.yaml"), "--save", "--db", db],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "not the saved game's" in proc.stderr


def test_the_saved_game_fold_ends_after_four_rounds() -> None:
    from companion import session
    from companion.mutagen.rules import RoundScore
    from companion.mutagen.saved import fold, new_setup, round_event
    from companion.mutagen.state import from_json

    events = [session.Event(1, "setup", new_setup(["Ann"], R), "t")]
    for n in range(4):
        ev = round_event(from_json(fold(events)), [RoundScore("Ann", 0, 0, {}, 10)])
        events.append(session.Event(n + 2, "round", ev, "t"))
    state = fold(events)
    assert state["scores"] == {"Ann": 40} and state["round"] == 5
    with pytest.raises(RuleError, match="game is over"):
        round_event(from_json(state), [RoundScore("Ann", 0, 0, {}, 10)])
    assert fold(events[:-1])["scores"] == {"Ann": 30}             # undo drops the last round


ELEMENTS = st.builds(Element, st.sampled_from(R.elements), st.sampled_from(R.colours))
SPACES = st.sampled_from(["H1", "H2"] + [f"{c}{r}" for r in range(1, 5) for c in "ABC"])


@given(st.lists(st.tuples(SPACES, st.one_of(ELEMENTS, st.just(Element(supreme=True)))),
                max_size=30))
def test_whatever_the_checker_allows_no_two_neighbours_share_type_or_colour(
        tries: list[tuple[str, Element]]) -> None:
    from companion.mutagen.airship import neighbours

    full = ship(*[(f"{c}{r}", f"{c}{r + 1}", "any", "any") for c in "ABC" for r in (1, 3)])
    for space, element in tries:
        if install_check(full, space, element, R).allowed:
            full = Airship(full.tiles, full.installed + ((space, element),))
    placed = dict(full.installed)
    assert len(placed) == len(full.installed)                   # one Element per space
    for space, el in placed.items():
        for n in neighbours(space, R):
            other = placed.get(n)
            if other and not (el.supreme or other.supreme):
                assert other.type != el.type and other.colour != el.colour


# --- Crew cards by their printed names -------------------------------------------------------

def test_crew_cards_are_taken_by_their_printed_titles() -> None:
    from companion.mutagen.files import crew_card, printed_name

    assert crew_card("Climber ore").id == "crew/ladder-ore"
    assert crew_card("climber", element="gas").id == "crew/ladder-gas"
    assert crew_card("Foreman").id == "crew/all"                  # the one card of its title
    assert crew_card("Rival crystal gas") == crew_card("crew/higher-crystal-gas")
    for card_id in ("crew/ladder-ore", "crew/higher-crystal-gas", "crew/all"):
        assert crew_card(printed_name(crew_card(card_id))).id == card_id


@pytest.mark.parametrize(("name", "message"), [
    ("Climber", "4 Crew cards are titled 'Climber': say which by the Element(s) it shows: "
                "'Climber crystal', 'Climber gas', 'Climber liquid', 'Climber ore'"),
    ("Climbr", "did you mean 'Climber'?"),
    ("Rival ore", "no Crew card 'Rival' shows ore"),
])
def test_a_crew_title_that_names_no_one_card_is_refused(name: str, message: str) -> None:
    from companion.mutagen.files import crew_card

    with pytest.raises(InputError) as info:
        crew_card(name)
    assert message in str(info.value)


def test_the_readme_example_scores_by_printed_titles() -> None:
    code, out = run("score", str(ROOT / "examples" / "mutagen" / "score.yaml"))
    assert code == 0
    assert "Ann's Crew cards: Climber ore 6, Rival crystal gas 3, Foreman 4" in out


# --- the table's mistakes: numbers the printed copy cannot produce ------------------------------

def test_more_elements_installed_than_the_airship_has_spaces_is_refused() -> None:
    # two hull spaces and twelve storage squares: 14 with every column filled, and a column
    # that is not filled lacks at least one covered square
    full = PlayerRound("Ann", 14, (0, 1, 2), Tracks())
    assert end_of_round(full, R).installed == 28
    with pytest.raises(RuleError, match="at most 14 installation spaces"):
        end_of_round(PlayerRound("Ann", 15, (0, 1, 2), Tracks()), R)
    assert end_of_round(PlayerRound("Ann", 11, (), Tracks()), R).installed == 22
    with pytest.raises(RuleError, match="at most 11"):
        end_of_round(PlayerRound("Ann", 12, (), Tracks()), R)
    with pytest.raises(RuleError, match="at most 12"):
        end_of_round(PlayerRound("Ann", 99, (0,), Tracks()), R)


def test_a_refused_round_file_leaves_the_saved_game_as_it_was(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    run("new", "--players", "Ann,Bob", "--db", str(db))
    before = db.read_bytes()
    bad = tmp_path / "round.yaml"
    bad.write_text("players:\n  - {name: Ann, installed: 99}\n  - {name: Bob}\n")
    proc = irata("round", str(bad), "--save", "--db", str(db))
    assert proc.returncode == 2 and "at most 11 installation spaces" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and db.read_bytes() == before


@pytest.mark.parametrize(("players", "message"), [
    ("  - {name: Ann, crew: [Climber ore, Climber ore]}\n",
     "'Climber ore' is listed 2 times (Ann), but the game has only 1"),
    ("  - {name: Ann, crew: [Foreman]}\n  - {name: Bob, crew: [Foreman]}\n",
     "'Foreman' is listed 2 times (Ann, Bob), but the game has only 1"),
    ("  - {name: Ann, crew: [{kind: higher, left: gas, right: crystal}]}\n",
     "Ann: the game has no Crew card"),
    ("  - {name: Ann, trees: [jade, jade, jade, jade, jade, jade]}\n"
     "  - {name: Bob, trees: [jade, jade, jade, jade, jade]}\n",
     "11 jade Tree cards are listed, but the game has only 10"),
])
def test_a_card_scored_more_often_than_the_game_prints_it_is_refused(
        tmp_path: Path, players: str, message: str) -> None:
    # each Crew card is one of a kind and a Tree card colour has ten: a card listed twice
    # would be scored twice
    f = tmp_path / "score.yaml"
    f.write_text("players:\n" + players)
    proc = irata("score", str(f))
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and proc.stdout == ""


def test_a_pair_crew_card_is_the_same_card_in_either_order(tmp_path: Path) -> None:
    f = tmp_path / "score.yaml"
    f.write_text("players:\n  - {name: Ann, tracks: {crystal: 4, ore: 2},\n"
                 "     crew: [{kind: pair, left: ore, right: crystal}]}\n")
    assert json.loads(run("score", str(f), "--json")[1])["players"][0]["crew"] == 4


def test_rulebook_example_a_storage_tile_on_a_2_and_a_1_square_costs_3() -> None:
    # Storage Tiles, the example: the Blue player covers a space costing 2 and one costing 1
    # and returns 3 Shard Fragment tokens (B1 costs 1 and C1 costs 2 on the printed Airship)
    v = place_tile_check(Airship(), ["B1", "C1"], R)
    assert v.allowed and v.cost == 3


def test_rulebook_example_a_green_and_a_blue_element_complete_a_tree_for_5_shards() -> None:
    # Tree Location, the example: a Green and a Blue Element complete the card, 5 Shard
    # Fragment tokens
    game = components.load("mutagen")
    cards = [c.fields for c in game.by_group("Tree cards")]
    assert any(sorted(f["needs"]) == ["blue", "green"] and f["shards"] == 5 for f in cards)


def test_a_round_file_with_other_expansions_than_the_saved_game_is_refused(
        tmp_path: Path) -> None:
    # a People card's Shard Fragments belong to The Plight of the People only
    db = tmp_path / "games.sqlite3"
    run("new", "--players", "Ann,Bob", "--db", str(db))
    before = db.read_bytes()
    f = tmp_path / "round.yaml"
    f.write_text("expansions: [plight-of-the-people]\nplayers:\n"
                 "  - {name: Ann, card_elements: 2}\n  - {name: Bob}\n")
    proc = irata("round", str(f), "--save", "--db", str(db))
    assert proc.returncode == 2 and "saved game with no expansion" in proc.stderr
    assert db.read_bytes() == before


def test_zero_points_are_not_recorded(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    run("new", "--players", "Ann,Bob", "--db", str(db))
    before = db.read_bytes()
    proc = irata("points", "Ann", "0", "--db", str(db))
    assert proc.returncode == 2 and "nothing to record" in proc.stderr
    assert db.read_bytes() == before


def test_more_elements_in_storage_than_the_box_holds_is_refused(tmp_path: Path) -> None:
    # 80 Element tiles (and 16 Supreme Element tokens with The Plight of the People)
    f = tmp_path / "score.yaml"
    f.write_text("players:\n  - {name: Ann, storage: 50}\n  - {name: Bob, storage: 31}\n")
    proc = irata("score", str(f))
    assert proc.returncode == 2 and "holds 81 Elements, but the game has only 80" in proc.stderr
    f.write_text("expansions: [plight-of-the-people]\n"
                 "players:\n  - {name: Ann, storage: 50}\n  - {name: Bob, storage: 31}\n")
    assert irata("score", str(f)).returncode == 0


def test_a_score_in_the_file_beside_the_saved_score_track_must_agree(tmp_path: Path) -> None:
    # with --save the score track is the saved game's: a different number in the file would
    # be a second truth
    db = tmp_path / "games.sqlite3"
    run("new", "--players", "Ann,Bob", "--db", str(db))
    for _ in range(4):
        run("round", str(FIXTURES / "round.yaml"), "--save", "--db", str(db))
    f = tmp_path / "end.yaml"
    f.write_text("players:\n  - {name: Ann, score: 90}\n  - {name: Bob}\n")
    proc = irata("score", str(f), "--save", "--db", str(db))
    assert proc.returncode == 2 and "read from the saved game (76), but the file says 90" in (
        proc.stderr)
    f.write_text("players:\n  - {name: Ann, score: 76}\n  - {name: Bob}\n")
    data = json.loads(run("score", str(f), "--save", "--db", str(db), "--json")[1])
    assert [p["total"] for p in data["players"]] == [76, 32]


def test_end_of_game_scoring_with_save_is_saved_and_next_moves_on(tmp_path: Path) -> None:
    """``score --save`` saves the result as the game's last event: ``next`` no longer asks
    for End of Game Scoring, the game is over, and a second scoring is refused unchanged."""
    db = tmp_path / "games.sqlite3"
    run("new", "--players", "Ann,Bob", "--db", str(db))
    for _ in range(4):
        assert run("round", str(FIXTURES / "round.yaml"), "--save", "--db", str(db))[0] == 0
    asked = json.loads(run("next", "--db", str(db), "--json")[1])["next"]
    # the saved game kept the Shard Fragments: only the Elements in storage are typed
    assert asked["command"] == "irata play mutagen score --save --storage Ann=N,Bob=N"
    end = tmp_path / "end.yaml"
    end.write_text("players:\n  - {name: Ann, storage: 30}\n  - {name: Bob, storage: 2}\n")
    code, out = run("score", str(end), "--save", "--db", str(db), "--json")
    scored = json.loads(out)
    assert code == 0 and scored["saved"] is True and scored["winners"] == ["Ann"]
    ann_total = scored["players"][0]["total"]

    now = json.loads(run("next", "--db", str(db), "--json")[1])
    assert now["next"] is None            # the game is over
    assert run("next", "--db", str(db))[1].strip() == "Game 1 is over."
    assert run("status", "--db", str(db))[1].splitlines()[1].startswith(
        f"Mutagen, the game is over: Ann wins with {ann_total} points")
    log = json.loads(CliRunner().invoke(cli, ["play", "log", "--db", str(db), "--json"]).output)
    assert [e["kind"] for e in log][-1] == "score"
    state = json.loads(CliRunner().invoke(cli, ["play", "status", "--db", str(db), "--json"]
                                          ).output)["state"]
    assert state["final"]["winners"] == ["Ann"]
    assert [p["total"] for p in state["final"]["players"]] == [
        p["total"] for p in scored["players"]]

    before = db.read_bytes()
    proc = irata("score", str(end), "--save", "--db", str(db))
    assert proc.returncode == 2 and proc.stderr == (
        f"error: End of Game Scoring is saved already (Ann wins with {ann_total} points): "
        "'irata play status' shows it; 'irata play undo' takes it back to score again\n")
    assert db.read_bytes() == before
    # undo takes the result back: End of Game Scoring is asked for again
    assert CliRunner().invoke(cli, ["play", "undo", "--db", str(db)]).exit_code == 0
    assert json.loads(run("next", "--db", str(db), "--json")[1])["next"]["command"] == (
        "irata play mutagen score --save --storage Ann=N,Bob=N")
