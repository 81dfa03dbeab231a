"""The typed State's one pair of JSON functions keeps every JSON form a game of M.U.L.E. reaches,
key order included: a step's event saves ``change(to_json(before), to_json(after))``, and the
fold rebuilds the state from those changes, so the round trip must lose nothing and reorder
nothing (the change's operations follow the keys' order, and their bytes are saved).

A form the game writes (``to_json``) reads back to the same bytes. The fold's form (its keys
sorted, as the games file holds it) reads back to the same bytes too, its nested keys in the
order read (``State.layout``); the change of a step taken on it is the one taken on the fold's
form itself, operation for operation, as the versions before the typed State saved it.

Whole games are played step by step through the declaration (the steps that run themselves,
then each step asked at the table), as the table plays them, with several Optional Rules; at
every step the State's JSON form, and the fold's (its keys sorted, as the games file holds
it), are read and written again."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.mule import data as mule_data
from companion.mule import saved as game
from companion.mule import turn
from companion.mule.changes import change, patch
from companion.mule.data import MuleData
from companion.mule.game import GAME
from companion.mule.state import State, from_json, land_of, to_json
from companion.play import Move
from tests.companion.test_mule_option_whole_game import answer

NAMES = ["Ann", "Bob", "Cid", "Dee"]


@pytest.fixture()
def real(monkeypatch: pytest.MonkeyPatch) -> MuleData:
    monkeypatch.setattr(mule_data, "FOLDER", None)
    return mule_data.load()


def _sorted(node: Any) -> Any:
    """A JSON form with its keys sorted, as the games file holds it and the fold gives it."""
    return json.loads(json.dumps(node, sort_keys=True))


def assert_round_trip(raw: dict[str, Any]) -> None:
    """``raw`` (a form the game writes) read and written again: the same bytes, key order
    included."""
    assert json.dumps(to_json(from_json(raw))) == json.dumps(raw)


def assert_fold_round_trip(folded: dict[str, Any], after: dict[str, Any]) -> None:
    """The fold's form read and written again: the same bytes (nested keys in their order
    too), and the same change to ``after`` as the fold's form itself gives."""
    again = to_json(from_json(folded))
    assert json.dumps(again) == json.dumps(folded)
    assert json.dumps(again, sort_keys=True) == json.dumps(folded, sort_keys=True)
    assert list(again) == list(folded)
    assert json.dumps(change(again, after)) == json.dumps(change(folded, after))


def a_move(s: State, md: MuleData) -> Move:
    """The move that comes now: one that runs itself, else the step asked at the table,
    answered as the whole-game test answers it (a Pub visit first in Development, one unit
    sold where somebody holds the Good, the first M.U.L.E.s flipped for an Energy
    Shortage)."""
    auto = GAME.auto(s)
    if auto is not None:
        return auto
    raw = to_json(s)

    def ask(question: str, default: str) -> str:
        if question.startswith("Development, ") and "pub" not in asked:
            asked.append("pub")
            return "pub"
        if "sold to The Store" in question:
            good = question.split()[0].lower()
            held = [n for n in raw["ranking"] if raw["players"][n][good] > 0]
            return f"{held[-1]}=1" if held else ""
        if "flipped for the Energy Shortage" in question:
            name, count = question.split(":")[0], int(question.split()[1])
            return ",".join([x["tile"] for x in raw["players"][name]["lands"]
                             if x["mule"] not in (None, "energy")][:count])
        if "declares Buyer or Seller" in question:
            return ",".join(f"{n}=S" for n in raw["ranking"])
        return answer(s, md, question)

    asked: list[str] = []
    _, done, _, typed = turn.take_step(s, md, ask, lambda _line: None)
    return Move.of(done.step, done.who, typed)


@pytest.mark.parametrize(("mode", "seed", "options"), [
    ("tournament", 3, {}),
    ("tournament", 4, {"land-auctions-before-grant": "", "declaring-buyers-and-sellers": ""}),
    ("tournament", 6, {"single-action-round": "", "colonists-preferred": "",
                       "more-game-turns": "1"}),
    ("beginner", 8, {"more-predictability": ""}),
])
def test_every_state_a_game_reaches_reads_back_as_it_was(
        real: MuleData, mode: str, seed: int, options: dict[str, str]) -> None:
    setup = game.new_game(real, NAMES, mode, seed=seed, deck=True, options=options)
    assert_round_trip(setup)
    folded = _sorted(setup)          # the set-up as the games file gives it back
    s = GAME.from_json(folded)
    assert_round_trip(to_json(s))
    steps = set()
    for _ in range(60):
        if s.over:
            break
        outcome = GAME.apply(s, a_move(s, real))
        steps.add(outcome.data["step"])
        after = to_json(outcome.state)
        assert_round_trip(after)
        assert_fold_round_trip(folded, after)
        # the fold: the change saved, applied to the state before, gives the state after
        saved = json.loads(json.dumps(outcome.data["change"], sort_keys=True))
        folded = _sorted(patch(folded, saved))
        assert json.dumps(folded) == json.dumps(_sorted(after))
        assert change(to_json(GAME.from_json(folded)), after) == []
        s = GAME.from_json(folded)   # the next step reads the fold, as the next command does
    assert {"grant", "develop", "produce", "trade", "ranking"} <= steps


def test_a_game_saved_before_the_steps_reads_back_as_it_was(real: MuleData) -> None:
    """Without ``todo`` (and with what its Phases kept): read as it is, its Turn begun only
    when a step is taken (:func:`companion.mule.turn.begun`)."""
    raw = _sorted(game.new_game(real, NAMES, "tournament", seed=3, deck=True))
    for key in ("todo", "hands"):
        del raw[key]
    raw["declared"] = {"food": {}}
    s = from_json(raw)
    assert list(to_json(s)) == list(raw) and _sorted(to_json(s)) == raw
    begun = turn.begun(s, real)
    assert begun.todo and begun.held("Ann", "package") == 0
    out = to_json(begun)
    assert "declared" not in out and list(out)[-2:] == ["hands", "todo"]
    assert_round_trip(out)
    assert _sorted(to_json(s)) == raw          # s itself is a value: left as it was


def test_land_auctions_and_declarations_are_typed_fields(real: MuleData) -> None:
    """Land Auctions' record of the Turn (who played a Land for Sale! card) and Declaring
    Buyers and Sellers' (Good -> Colonist -> role) are the State's own fields, not ``extra``;
    written where the saved game holds them, a null kept null; a shape this version does not
    write (a ``set`` by hand) is kept as it is."""
    raw = game.new_game(real, NAMES, "tournament", seed=3, deck=True)
    raw["auctions"] = ["Bob", "Ann"]
    raw["declared"] = {"food": {"Ann": "buyer", "Bob": "seller"}, "energy": {}}
    s = from_json(raw)
    assert s.auctions == ("Bob", "Ann") and "auctions" not in s.extra
    assert s.declared is not None and dict(s.declared["food"]) == {"Ann": "buyer",
                                                                  "Bob": "seller"}
    assert "declared" not in s.extra
    assert_round_trip(raw)
    for odd in (None, [], {"food": None}, "Bob", [1, 2]):
        raw["auctions"] = raw["declared"] = odd
        assert_round_trip(raw)
    del raw["auctions"], raw["declared"]
    s = from_json(raw)
    assert s.auctions is None and s.declared is None
    assert "auctions" not in to_json(s) and "declared" not in to_json(s)
    # a State made without the keys' order writes them after the set-up's keys, when set
    made = s._replace(keys=(), auctions=("Cid",))
    assert list(to_json(made))[-1] == "auctions" and to_json(made)["auctions"] == ["Cid"]


def _permuted(node: Any, depth: int = 0) -> Any:
    """``node`` with every nested dict's keys in reverse order (the top level as it is)."""
    if isinstance(node, dict):
        keys = list(node) if depth == 0 else list(reversed(node))
        return {k: _permuted(node[k], depth + 1) for k in keys}
    if isinstance(node, list):
        return [_permuted(x, depth + 1) for x in node]
    return node


def test_nested_keys_read_back_in_their_order(real: MuleData) -> None:
    """A saved game whose nested dicts (a Colonist, a Land, dev, The Store, the Hand Cards,
    ...) hold their keys in another order than this version writes reads back in that order;
    a step taken on it keeps it where it changes nothing, a Land added is written in this
    version's order, and the step's change is the one taken on this version's layout."""
    s = GAME.from_json(game.new_game(real, NAMES, "tournament", seed=3, deck=True))
    while s.dev is None:
        s = GAME.apply(s, a_move(s, real)).state
    raw = _permuted(to_json(s))
    assert list(raw["players"]["Ann"])[0] == "mules"
    assert list(raw["players"]["Ann"]["lands"][0])[0] == "secret"
    assert list(raw["dev"])[0] == list(to_json(s)["dev"])[-1]
    assert json.dumps(raw) != json.dumps(to_json(s))
    assert json.dumps(to_json(from_json(raw))) == json.dumps(raw)
    # a step on it: the nested order read is kept, the change as on this version's layout
    typed = from_json(raw)
    outcome = GAME.apply(typed, a_move(typed, real))
    assert json.dumps(outcome.data) == json.dumps(GAME.apply(s, a_move(s, real)).data)
    after = to_json(outcome.state)
    assert [list(p) for p in after["players"].values()] == [list(p) for p in raw["players"]
                                                            .values()]
    assert list(after["store"]) == list(raw["store"])
    # a Land added to a permuted Colonist: written in this version's order
    typed = from_json(raw)
    added = typed._replace(colonists=tuple(
        c._replace(lands=(*c.lands, land_of({"land": "plain", "tile": "P99"})))
        if c.name == "Ann" else c for c in typed.colonists))
    lands = to_json(added)["players"]["Ann"]["lands"]
    assert list(lands[-1]) == ["land", "tile", "square", "mule", "secret"]
    assert [list(x) for x in lands[:-1]] == [list(x) for x in raw["players"]["Ann"]["lands"]]
