"""Whole Tournament games of M.U.L.E. with the Optional Rules that change how a game ends,
played step by step to The Ship is Back! with the companion's decks: every Land Grant claimed
as the rules make it a must, every Action Round passed, nothing sold. More Game Turns (=1)
ends on Turn 8; Variable Number of Game Turns on the Turn the Ship comes up (6 to 8); with
Inherent Land and M.U.L.E. Value in Ranking (=end) the last Ranking and the Colony total count
each Land at $10; the Colony Success Table is read scaled for the Turns played."""

from __future__ import annotations

import pytest

from companion.mule import data as mule_data
from companion.mule import saved as game
from companion.mule import steps, turn
from companion.mule.data import MuleData
from companion.mule.expansion import claimable, owned
from companion.mule.state import State, from_json

NAMES = ["Ann", "Bob", "Cid", "Dee"]


@pytest.fixture()
def real(monkeypatch: pytest.MonkeyPatch) -> MuleData:
    monkeypatch.setattr(mule_data, "FOLDER", None)
    return mule_data.load()


def a_claim(s: State, md: MuleData, who: str) -> str:
    """The first Land ``who`` has to claim (blank: none is a must), as TILE@SQUARE."""
    can = claimable(s, md, who)
    if not can:
        return ""
    first = can[0]
    kind = first.lands[0]
    mine = owned(s)
    tile = next(t.tile for t in sorted(md.lands.values()) if t.land == kind
                and t.tile not in mine and (kind != "meteor-crater" or t.tile in s.craters))
    beds = md.player_board.river_beds
    square = next(q for q in first.squares if kind != "river" or q in beds)
    return f"{tile}@{square}"


def answer(s: State, md: MuleData, question: str) -> str:
    now = turn.current(s, md)
    assert now is not None
    if question.startswith("Land Grant: "):
        return a_claim(s, md, str(now.who))
    if question.startswith("Land Auctions:"):
        return "none"
    if question.startswith("Development, Action Round"):
        return "pass"
    if question.startswith("Meteorite Strike!"):
        room = steps.empty_on_planet(s, md)
        zones = [z for z, n in room.items() for _ in range(n)] or ["beside"] * 2
        return ",".join((zones * 2)[:question.count("M0")])
    if " gives it to" in question:
        giver = question.split(" gives it to")[0]
        return next(n for n in s.ranking if n != giver)
    return ""


def play_to_the_end(md: MuleData, s: State) -> tuple[State, list[str]]:
    said: list[str] = []
    for _ in range(400):
        if s.over:
            return s, said
        state = s

        def ask(question: str, default: str, state: State = state) -> str:
            return answer(state, md, question)

        s, _, _, _ = turn.take_step(s, md, ask, said.append)
    raise AssertionError("the game did not end")


def test_more_game_turns_ends_on_turn_8(real: MuleData) -> None:
    s = from_json(game.new_game(real, NAMES, "tournament", seed=5, deck=True,
                                options={"more-game-turns": "1", "inherent-value": "end"}))
    ships = [i for i, c in enumerate(s.production_deck or ()) if "ship-is-back" in c]
    assert ships == [7]                              # 7 cards, then The Ship is Back!
    end, said = play_to_the_end(real, s)
    assert end.turn == 8 and end.over
    assert any("Ship is Back" in line for line in said if line.startswith(
        "Production Card drawn"))
    # nothing was sold and nobody bought: each Colonist's Money is the $30 of the set-up, plus
    # what Personal Events gave; the last Ranking (=end) adds $10 a Land (no M.U.L.E.s)
    total = sum(c.money + 10 * len(c.lands) for c in end.colonists)
    assert end.colony is not None and end.colony.total == total
    lands = sum(len(c.lands) for c in end.colonists)
    assert lands == 34                               # every Land of Planet Irata claimed
    # 8 Turns: the table scaled by 8/7 (rows from $2057, $1771, $1485, $1200, $914, $628)
    lows = [2057, 1771, 1485, 1200, 914, 628]
    row = next((i + 1 for i, low in enumerate(lows) if total >= low), 7)
    assert end.colony.rating == row
    assert any("scales each bound by 8/7" in line for line in said)


@pytest.mark.parametrize(("seed", "turns"), [(1, 6), (7, 8)])
def test_variable_turns_ends_when_the_ship_comes_up(real: MuleData, seed: int,
                                                   turns: int) -> None:
    # seed 1 shuffles The Ship is Back! to the first of the three bottom cards (Turn 6),
    # seed 7 to the last (Turn 8)
    s = from_json(game.new_game(real, NAMES, "tournament", seed=seed, deck=True,
                                options={"variable-turns": ""}))
    where = next(i for i, c in enumerate(s.production_deck or ()) if "ship-is-back" in c)
    assert where + 1 == turns
    end, said = play_to_the_end(real, s)
    assert end.turn == turns and end.over
    total = sum(c.money for c in end.colonists)
    assert end.colony is not None
    assert end.colony.total == total                    # Money alone, without the rule
    assert any(f"scales each bound by {turns}/7" in line for line in said)
