"""``irata play GAME next``: what the table does now in a saved game, and the command that
records it, for Muli, Mutagen, Outer Earth and Mule Goes Crazy!; nothing is written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from irata.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "mutagen"


def play(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as info:
        main(["play", *args])
    out = capsys.readouterr()
    assert info.value.code == 0, out.err
    return out.out


def nxt(game: str, db: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    before = db.read_bytes()
    doc: dict[str, Any] = json.loads(play([game, "next", "--db", str(db), "--json"], capsys))
    assert db.read_bytes() == before
    return doc


def test_muli_next_names_who_rolls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "g.sqlite3"
    play(["muli", "new", "--players", "Ann,Bob,Cy", "--db", str(db)], capsys)
    assert nxt("muli", db, capsys)["next"] == "Ann rolls the two colour dice"
    play(["muli", "roll", "--dice", "red,blue", "--db", str(db)], capsys)
    doc = nxt("muli", db, capsys)
    assert doc["next"] == "Bob rolls the two colour dice"
    assert doc["command"] == "irata play muli roll"


def test_mutagen_next_walks_the_rounds_to_end_of_game_scoring(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "g.sqlite3"
    play(["mutagen", "new", "--players", "Ann,Bob", "--db", str(db)], capsys)
    # Mutagen's next is the declared game's (irata.play.declared.show_next)
    first = nxt("mutagen", db, capsys)["next"]
    assert first["text"].startswith("round 1 of 4") and first["turn"] == 1
    assert first["steps"][:4] == ["round", "points", "shards", "progress"]
    for _ in range(4):
        play(["mutagen", "round", str(FIXTURES / "round.yaml"), "--save", "--db", str(db)],
             capsys)
    doc = nxt("mutagen", db, capsys)["next"]
    assert "End of Game Scoring" in doc["text"] and doc["step"] == "score"
    assert doc["command"] == "irata play mutagen score --save --storage Ann=N,Bob=N"


def test_outer_earth_next_walks_the_phases(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "g.sqlite3"
    oe = ["outer-earth"]
    play([*oe, "new", "--players", "Ann,Bob", "--short", "--starting-player", "Ann", "--db",
          str(db)], capsys)
    assert "Phase 1" in nxt("outer-earth", db, capsys)["next"]["text"]
    for planet in ("Tidewell", "Halcyon", "Ferrox"):
        play([*oe, "bid", "--planet", planet, "--green", "Ann", "--db", str(db)], capsys)
    now = nxt("outer-earth", db, capsys)["next"]
    assert "Phase 2" in now["text"] and now["who"] == "Ann"
    play([*oe, "done", "Ann", "--db", str(db)], capsys)
    assert nxt("outer-earth", db, capsys)["next"]["who"] == "Bob"
    play([*oe, "done", "Bob", "--db", str(db)], capsys)
    # Phase 3: Ann holds 3 planets, 2 over her sell value of 1: she chooses their tax
    now = nxt("outer-earth", db, capsys)["next"]
    assert (now["step"], now["auto"]) == ("upkeep", False)
    assert "planet tax chosen by Ann" in now["text"]
    play([*oe, "upkeep", "--db", str(db)], capsys)
    # the end of the round has nothing to decide: it ran itself, and round 2 begins
    now = nxt("outer-earth", db, capsys)["next"]
    assert (now["step"], now["turn"], now["auto"]) == ("bid", 2, False)


def test_mule_goes_crazy_next_walks_the_turn(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "g.sqlite3"
    mgc = ["mule-goes-crazy"]
    play([*mgc, "new", "--players", "Ann,Bob", "--db", str(db)], capsys)

    def step() -> dict[str, Any]:
        return nxt("mule-goes-crazy", db, capsys)["next"]  # type: ignore[no-any-return]

    assert step()["step"] == "favored"
    play([*mgc, "favored", "--db", str(db)], capsys)
    assert (step()["step"], step()["who"]) == ("grant", "Ann")
    play([*mgc, "auction", "foothills", "--unsold", "--db", str(db)], capsys)
    # Ann is favored: the Player Turns begin on her left
    assert (step()["step"], step()["who"]) == ("buy", "Bob") and "done" in step()["steps"]
    play([*mgc, "done", "Bob", "--db", str(db)], capsys)
    assert step()["who"] == "Ann"
    play([*mgc, "done", "Ann", "--db", str(db)], capsys)
    assert step()["step"] == "produce"
    play([*mgc, "produce", "--save", "--db", str(db)], capsys)
    # Spoilage ran itself after the production (no Population card: no upkeep)
    assert (step()["step"], step()["who"]) == ("trade", "smithore")
    play([*mgc, "reshuffle", "--db", str(db)], capsys)
    play([*mgc, "reshuffle", "--db", str(db)], capsys)
    assert step()["step"] == "trade" and "end-turn" in step()["steps"]   # nobody trades
    play([*mgc, "end-turn", "--db", str(db)], capsys)
    assert nxt("mule-goes-crazy", db, capsys)["next"] is None     # the game is over


def test_mule_next_of_a_game_saved_before_the_steps_leaves_its_state_as_it_was(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A game saved before the steps keeps no ``todo``: what comes now begins its turn on a
    value of its own, so the state read from the games file (applied to next, or shown) is as
    it was."""
    import copy

    from companion.mule.game import GAME
    from companion.session import Store, state_of

    db = tmp_path / "g.sqlite3"
    play(["mule", "new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "1",
          "--db", str(db)], capsys)
    store = Store(db)
    saved = store.latest("mule")
    assert saved is not None
    state = state_of(store, saved)
    store.close()
    expected = GAME.now(GAME.from_json(state))
    old = {k: v for k, v in state.items() if k != "todo"}
    kept = copy.deepcopy(old)
    typed = GAME.from_json(old)
    assert GAME.now(typed) == expected
    assert old == kept and GAME.to_json(typed) == kept
