"""M.U.L.E.'s Optional Rules that change how long the game lasts and how it is won: More Game
Turns, Variable Number of Game Turns, and Inherent Land and M.U.L.E. Value in Ranking; each
played on the Turns it changes, the numbers worked by hand in the comments."""

from __future__ import annotations

import random
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest
from click.testing import CliRunner

from companion.mule import board, length, steps, turn
from companion.mule import saved as game
from companion.mule.data import MuleData
from companion.mule.state import Goods, State, from_json, land_of
from components.errors import RuleError
from irata.cli import cli
from tests.companion.mule_states import with_colonist

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def tournament(md: MuleData, deck: bool = False, **chosen: str) -> State:
    s = from_json(game.new_game(md, NAMES, "tournament", seed=3, deck=deck,
                                options={k.replace("_", "-"): v for k, v in chosen.items()}))
    return turn.begin_turn(s._replace(ranking=tuple(NAMES)), md)


def step(s: State, md: MuleData, **answers: str) -> tuple[State, list[str]]:
    after, _, lines = turn.run_step(s, md, turn.scripted(answers, {}), lambda _x: None)
    return after, lines


def typed_card(s: State, md: MuleData, turn_no: int, text: str) -> Any:
    return steps.production_card(
        steps.Turn(s._replace(turn=turn_no), md, lambda *a: None, lambda _x: None), text)


# -- More Game Turns ------------------------------------------------------------------------

def test_more_game_turns_adds_production_cards(md: MuleData) -> None:
    # "instead of 6 normal Production Cards and 1 The Ship is Back! card, you start the game
    # with 7+1 or 8+1 Production Cards."
    for more, cards in (("1", 8), ("2", 9)):
        s = tournament(md, deck=True, more_game_turns=more)
        deck = s.production_deck or ()
        assert len(deck) == cards                    # 7+1, 8+1
        assert "ship-is-back" in deck[-1]
        assert not any("ship-is-back" in c for c in deck[:-1])
    # without the rule the deck of the set-up: 6+1, the same cards from the same seed
    plain = tournament(md, deck=True)
    assert len(plain.production_deck or ()) == 7


def test_more_game_turns_the_ship_is_back_on_turn_8(md: MuleData) -> None:
    # 7 cards lie on The Ship is Back!: drawn on Turn 8 (7 + 1), not Turn 7
    s = tournament(md, more_game_turns="1")
    with pytest.raises(RuleError, match="under the 7 Production Cards of the set-up: it is "
                                        "drawn on Turn 8, not Turn 7"):
        typed_card(s, md, 7, "PR01")
    assert typed_card(s, md, 7, "Quiet Turn").title      # a normal card on Turn 7 is fine
    assert typed_card(s, md, 8, "PR01").ship_is_back
    with pytest.raises(RuleError, match="on Turn 8 only The Ship is Back! is left"):
        typed_card(s, md, 8, "Quiet Turn")
    # =2: Turn 9
    s2 = tournament(md, more_game_turns="2")
    with pytest.raises(RuleError, match="drawn on Turn 9, not Turn 8"):
        typed_card(s2, md, 8, "PR01")


# -- Variable Number of Game Turns ---------------------------------------------------------------

def test_variable_turns_deck_puts_the_ship_among_the_last_three(md: MuleData) -> None:
    # "take one card less ... (5 instead of 6) ... take two additional Production Cards and
    # shuffle them with one The Ship is Back! card. Place these three cards to the bottom"
    seen = set()
    for seed in range(12):
        deck = length.production_deck(md, "tournament", random.Random(seed), 4,
                                      {"variable-turns": ""})
        assert len(deck) == 8                        # 5 + 3
        ships = [i for i, c in enumerate(deck) if "ship-is-back" in c]
        assert len(ships) == 1 and ships[0] in (5, 6, 7)   # drawn on Turn 6, 7 or 8
        seen.add(ships[0])
    assert seen == {5, 6, 7}                         # each of the three places comes up
    assert length.length(md, "tournament", 4, {"variable-turns": ""}) == (5, 3)


def test_variable_turns_typed_cards(md: MuleData) -> None:
    s = tournament(md, variable_turns="")
    with pytest.raises(RuleError, match="drawn on Turn 6 to 8, not Turn 5"):
        typed_card(s, md, 5, "PR01")
    for turn_no in (6, 7, 8):
        assert typed_card(s, md, turn_no, "PR01").ship_is_back
    assert typed_card(s, md, 7, "Quiet Turn").title       # the Ship may still lie below
    with pytest.raises(RuleError, match="on Turn 8 only The Ship is Back! is left"):
        typed_card(s, md, 8, "Quiet Turn")


def test_variable_turns_ends_the_game_when_the_ship_comes(md: MuleData) -> None:
    # With the companion's deck the game ends on the Turn the Ship is drawn: the Final Turn's
    # Market (the sell-out), Ranking, the end. The deck below is seed 3's.
    s = tournament(md, deck=True, variable_turns="")
    deck = s.production_deck or ()
    where = next(i for i, c in enumerate(deck) if "ship-is-back" in c)
    s = s._replace(turn=where + 1, todo=(("produce", None),), shortage=MappingProxyType({}),
                   production_deck=deck[where:],
                   colonists=tuple(c._replace(lands=()) for c in s.colonists))
    after, lines = step(s, md)
    assert lines[0].startswith("Production Card drawn: PR0") and "Ship is Back" in lines[0]
    assert after.final and after.todo == (("pricing", None),)


def test_colony_rating_scaled_for_eight_turns(md: MuleData) -> None:
    # 4 Colonists, 8 Turns: each bound x 8/7, fractions down: row 1 from 1800*8/7 = 2057.1 ->
    # $2057; row 2 from 1550*8/7 = 1771.4 -> $1771, to $2056. A total of $2000 is row 1 on the
    # printed 7-Turn table (1800 or more) but row 2 after 8 Turns.
    rows = length.colony_rows(md, 8)
    assert rows[0]["four"] == [2057, None] and rows[1]["four"] == [1771, 2056]
    # the worst row ends a dollar below row 6, which starts at 550*8/7 = 628.6 -> $628
    assert rows[6]["four"] == [None, 627]
    # 3 Colonists, 9 Turns: 1350*9/7 = 1735.7 -> 1735
    assert length.colony_rows(md, 9)[0]["three"] == [1735, None]
    s = tournament(md, more_game_turns="1")
    s = s._replace(turn=8, final=True, todo=(("end", None),), colonists=tuple(
        c._replace(money=money)                     # 800 + 500 + 400 + 300 = 2000
        for c, money in zip(s.colonists, (800, 500, 400, 300), strict=True)))
    after, lines = step(s, md)
    assert after.over and after.colony is not None and after.colony.total == 2000
    assert after.colony.rating == 2
    assert "scales each bound by 8/7" in lines[-1] and "project's decision" in lines[-1]
    # Turn 7 reads the printed table: the same $2000 is row 1, no note
    after7, lines7 = step(s._replace(turn=7), md)
    assert after7.colony is not None
    assert after7.colony.rating == 1 and "scales" not in " ".join(lines7)


def test_status_says_how_long_and_how_the_table_scales(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    r = CliRunner().invoke(cli, ["play", "mule", "new", "--players", "Ann,Bob,Cid",
                                 "--tournament", "--option", "more-game-turns=2", "--db", db])
    assert r.exit_code == 0, r.stderr
    out = CliRunner().invoke(cli, ["play", "mule", "status", "--db", db]).stdout
    assert "The Ship is Back! lies under 8 Production Cards: drawn on Turn 9" in out
    # 3 Colonists, 9 Turns: 1350*9/7 -> $1735
    assert "for this 9-Turn game the project scales each bound by 9/7" in out
    assert "best row from $1735" in out


# -- Inherent Land and M.U.L.E. Value in Ranking -------------------------------------------------

def _lands(s: State, who: str, n: int, mules: int) -> State:
    tiles = ["P01", "P02", "P03", "P04"]
    lands = [board.new_land("plains", tiles[i], f"B{i + 1}" if i < 3 else "D1",
                            "food" if i < mules else None) for i in range(n)]
    return with_colonist(s, who, lands=tuple(land_of(x) for x in lands),
                         mules=Goods(**board.mule_counts(lands)))


def _money(s: State, *money: int) -> State:
    by_name = dict(zip(NAMES, money, strict=True))
    return s._replace(colonists=tuple(c._replace(money=by_name[c.name]) for c in s.colonists))


def ranked(md: MuleData, value: str | None, final: bool) -> tuple[list[str], list[str]]:
    s = _money(tournament(md, **({"inherent_value": value} if value else {})), 40, 30, 20, 10)
    s = _lands(s, "Bob", 2, 1)       # Bob: $30 + 2 x $10 + 1 x $5 = $55
    s = _lands(s, "Dee", 4, 0)       # Dee: $10 + 4 x $10 = $50
    after, lines = step(s._replace(todo=(("ranking", None),), final=final), md)
    return list(after.ranking), lines


def test_inherent_value_in_all_rankings(md: MuleData) -> None:
    # "count each Land to be worth $10 in Ranking and each M.U.L.E. to be worth $5"
    order, lines = ranked(md, "all", final=False)
    assert order == ["Bob", "Dee", "Ann", "Cid"]     # 55, 50, 40, 20
    assert lines[0] == "Rank 1: Bob ($55: $30 + 2 Land(s) x $10 + 1 M.U.L.E.(s) x $5)"
    # without the rule, Money alone: 40, 30, 20, 10
    assert ranked(md, None, final=False)[0] == NAMES


def test_inherent_value_at_game_end_only(md: MuleData) -> None:
    # "Either agree to count these values in all Ranking Phases, or only in Game End."
    assert ranked(md, "end", final=False)[0] == NAMES        # a Turn before the last: Money
    assert ranked(md, "end", final=True)[0] == ["Bob", "Dee", "Ann", "Cid"]


def test_inherent_value_in_the_colony_total(md: MuleData) -> None:
    s = _lands(_money(tournament(md, inherent_value="end"), 400, 300, 200, 100), "Bob", 2, 1)
    after, _ = step(s._replace(turn=7, final=True, todo=(("end", None),)), md)
    # $1000 Money + 2 Lands x $10 + 1 M.U.L.E. x $5 = $1025: row 5 (800-1049)
    assert after.colony is not None
    assert after.colony.total == 1025 and after.colony.rating == 5


def test_the_colony_calculator_scales_for_the_turns_played() -> None:
    # $2000, 4 Colonists: row 1 on the printed table ($1800 or more), row 2 after 8 Turns
    # (row 1 from 1800*8/7 = $2057)
    args = ["play", "mule", "colony", "--total", "2000", "--players", "Ann,Bob,Cid,Dee"]
    out = CliRunner().invoke(cli, args).stdout
    assert "row 1 of 7" in out and "scales" not in out
    out = CliRunner().invoke(cli, [*args, "--turns", "8"]).stdout
    assert "row 2 of 7" in out and "scales each bound by 8/7" in out
