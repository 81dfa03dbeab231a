"""Mutagen's typed state (``companion.mutagen.state``): its pair of JSON functions give back
what they were given, and the JSON is the layout saved games hold."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from companion.mutagen.state import ELEMENTS, Final, Player, Scored, State, from_json, to_json

NAMES = st.lists(st.sampled_from(["Ann", "Bob", "Cid", "Dee"]), min_size=1, max_size=4,
                 unique=True)


@st.composite
def states(draw: st.DrawFn) -> State:
    names = draw(NAMES)
    kept = draw(st.booleans())
    small = st.integers(0, 40)

    def player(name: str) -> Player:
        return Player(name, draw(small),
                      draw(st.none() | st.tuples(*[st.integers(0, 7)] * 4)),
                      draw(small) if kept else None, draw(st.integers(0, 20)) if kept else None,
                      tuple(draw(st.lists(st.sampled_from(["crew/all", "crew/track-ore"]),
                                          unique=True))),
                      tuple(draw(st.lists(st.sampled_from(["tree/jade-01"]), unique=True))),
                      tuple(draw(st.lists(st.sampled_from([("A1", "A2"), ("B1", "B2")]),
                                          unique=True))),
                      tuple(draw(st.lists(st.sampled_from(["people/hoarder"])))))

    players = tuple(player(n) for n in names)
    if draw(st.booleans()):          # a game keeps every player's trackers, or none's
        players = tuple(p._replace(tracks=p.tracks or (0, 0, 0, 0)) for p in players)
    else:
        players = tuple(p._replace(tracks=None) for p in players)
    if draw(st.booleans()):          # the Elements kept (new --elements): every player's
        players = tuple(_elements(draw, p) for p in players)
    players = tuple(_placed(draw, p) for p in players)
    history = tuple(Scored(r, tuple((n, draw(small)) for n in names),
                           tuple((n, draw(st.integers(1, 9))) for n in
                                 draw(st.lists(st.sampled_from(names), unique=True))))
                    for r in range(1, draw(st.integers(1, 5))))
    final = draw(st.none() | st.just(Final(tuple((("name", n), ("total", 3)) for n in names),
                                           (names[0],))))
    return State(players, tuple(draw(st.lists(st.sampled_from(["plight-of-the-people"])))),
                 len(history) + 1, 4, history,
                 tuple(draw(st.dictionaries(st.sampled_from([3, 6, 9]),
                                            st.sampled_from(["shards", "points"]))).items()),
                 tuple(sorted(draw(st.lists(st.integers(1, 4), unique=True)))), final,
                 tuple(draw(st.lists(st.sampled_from(names), unique=True))),
                 people_kept=any(p.people for p in players) or draw(st.booleans()))


ELEMENT = st.sampled_from(["blue ore", "pink gas", "supreme"])


def _elements(draw: st.DrawFn, p: Player) -> Player:
    ids = tuple(draw(st.sampled_from(["storage/09-any-blue", ""])) for _ in p.tiles)
    return p._replace(storage=tuple(draw(st.lists(ELEMENT))),
                      installed=tuple(zip(("H1", "A2"), draw(st.lists(ELEMENT, max_size=2)),
                                          strict=False)),
                      card=tuple(draw(st.lists(ELEMENT, max_size=2))),
                      spent=tuple(draw(st.lists(ELEMENT, max_size=2))),
                      tile_ids=ids if any(ids) else ())


def _placed(draw: st.DrawFn, p: Player) -> Player:
    return p._replace(placed=tuple(draw(st.lists(st.sampled_from(
        [("spy", "sacred-tree"), ("robot", "palace")]), unique=True))))


@given(states())
def test_the_json_pair_gives_back_the_state(state: State) -> None:
    data = to_json(state)
    assert json.loads(json.dumps(data)) == data          # plain JSON
    back = from_json(json.loads(json.dumps(data)))
    assert back._replace(bonus=tuple(sorted(back.bonus))) == state._replace(
        bonus=tuple(sorted(state.bonus)))
    assert to_json(back) == data


def test_the_json_keeps_the_layout_saved_games_hold() -> None:
    state = State((Player("Ann", 5, (1, 0, 0, 2), 3, 0),), ("plight-of-the-people",))
    data = to_json(state)
    assert data["scores"] == {"Ann": 5} and data["players"] == ["Ann"]
    assert data["tracks"] == {"Ann": dict(zip(ELEMENTS, (1, 0, 0, 2), strict=True))}
    assert (data["round"], data["rounds"], data["history"]) == (1, 4, [])
    assert (data["shards"], data["progress"]) == ({"Ann": 3}, {"Ann": 0})
