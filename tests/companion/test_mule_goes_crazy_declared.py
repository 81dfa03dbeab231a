"""Mule Goes Crazy! declared (``companion.mule_goes_crazy.game``): every move played through
``companion.play.play`` records the events, and reaches the state, that its command records;
``refusal`` is None exactly when the command takes the entry; ``now`` says what ``next`` says;
a refused move leaves the games file as it was, to the byte."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.mule_goes_crazy.game import GAME
from companion.mule_goes_crazy.moves import MOVES
from companion.play import Move, declaration, play, refusal
from companion.session import Store, state_of
from components.errors import IrataError
from irata.cli import cli, main

MGC = "mule-goes-crazy"

# a whole turn and the start of the next: each entry as typed, and as a Move
SCRIPT: list[tuple[list[str], Move]] = [
    (["grant", "Ann", "Sunny Flats"], Move.of("grant", "Ann", {"land": "Sunny Flats"})),
    (["grant", "Bob", "river-bottom"], Move.of("grant", "Bob", {"land": "river-bottom"})),
    (["favored", "--save"], Move.of("favored")),
    (["auction", "foothills", "--winner", "Cid", "--price", "200+50"],
     Move.of("auction", None, {"land": "foothills", "winner": "Cid", "price": "200+50"})),
    (["auction", "Grassy Plains", "--winner", "Ann", "--price", "200"],
     Move.of("auction", None, {"land": "Grassy Plains", "winner": "Ann", "price": "200"})),
    (["auction", "high-mountains", "--unsold"],
     Move.of("auction", None, {"land": "high-mountains", "unsold": "yes"})),
    # Player Turns from the favored player's (Ann's) left: Bob, Cid, Ann
    (["buy", "Bob", "Food Mule"], Move.of("buy", "Bob", {"mule": "Food Mule"})),
    (["move", "Bob", "food", "River Bottom"],
     Move.of("move", "Bob", {"mule": "food", "land": "River Bottom"})),
    (["population", "colonists", "--player", "Bob"],
     Move.of("population", None, {"card": "colonists", "player": "Bob"})),
    (["done", "Bob"], Move.of("done", "Bob")),
    (["interrupt", "Ann", "lose-money-gambling", "--target", "Cid"],
     Move.of("interrupt", "Ann", {"card": "lose-money-gambling", "target": "Cid"})),
    (["facility", "Cid", "Solar Farm"], Move.of("facility", "Cid", {"card": "Solar Farm"})),
    (["done", "Cid"], Move.of("done", "Cid")),
    (["buy", "Ann", "energy"], Move.of("buy", "Ann", {"mule": "energy"})),
    (["buy", "Ann", "food"], Move.of("buy", "Ann", {"mule": "food"})),
    (["move", "Ann", "energy", "grassy-plains"],
     Move.of("move", "Ann", {"mule": "energy", "land": "grassy-plains"})),
    (["move", "Ann", "energy", "sunny-flats", "--from", "grassy-plains"],
     Move.of("move", "Ann", {"mule": "energy", "land": "sunny-flats",
                             "from": "grassy-plains"})),
    (["move", "Ann", "food", "grassy-plains"],
     Move.of("move", "Ann", {"mule": "food", "land": "grassy-plains"})),
    (["upgrade", "Ann", "irrigation", "--on", "grassy-plains"],
     Move.of("upgrade", "Ann", {"card": "irrigation", "on": "grassy-plains"})),
    (["discard-upgrade", "Ann", "--on", "grassy-plains"],
     Move.of("discard-upgrade", "Ann", {"on": "grassy-plains"})),
    (["upgrade", "Ann", "irrigation", "--on", "grassy-plains"],
     Move.of("upgrade", "Ann", {"card": "irrigation", "on": "grassy-plains"})),
    (["event", "Ann", "sunspots"], Move.of("event", "Ann", {"card": "sunspots"})),
    (["done", "Ann"], Move.of("done", "Ann")),
    (["produce", "--save", "--player", "Ann", "--rolls", "6,6,6,2,1,4"],
     Move.of("produce", None, {"player": "Ann", "rolls": "6,6,6,2,1,4"})),
    (["produce", "--save"], Move.of("produce")),
    (["spoilage", "--save"], Move.of("spoilage")),
    (["upkeep", "--save"], Move.of("upkeep")),
    (["trade", "energy", "--deal", "Ann>Bob 1@20"],
     Move.of("trade", "energy", {"deal": "Ann>Bob 1@20"})),
    (["reshuffle"], Move.of("reshuffle")),
    (["end-turn"], Move.of("end-turn")),
    (["favored", "--save"], Move.of("favored")),
]


def cli_run(db: Path, *args: str) -> Any:
    result = CliRunner().invoke(cli, ["play", *args, "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def cli_code(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """An entry typed as the command line takes it: its exit code and its error line."""
    capsys.readouterr()
    try:
        main(["play", MGC, *args, "--db", str(db)])
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


def new_game(db: Path) -> None:
    cli_run(db, MGC, "new", "--players", "Ann,Bob,Cid", "--seed", "7")
    cli_run(db, "set", "store.smithore", "12")          # so that the Mules cost their price
    cli_run(db, "set", "store_at_turn_start.smithore", "12")
    cli_run(db, "set", "players.Ann.food", "20")        # Food for three Moves


def logged(db: Path) -> list[tuple[str, Any]]:
    return [(e["kind"], e["data"]) for e in cli_run(db, "log")]


def state(db: Path) -> dict[str, Any]:
    return cli_run(db, "status")["state"]  # type: ignore[no-any-return]


def read_state(db: Path) -> Any:
    """The saved game's State, as the declaration reads it."""
    return GAME.from_json(state(db))


def played(db: Path, move: Move) -> dict[str, Any]:
    with Store(db) as store:
        saved = store.latest(MGC)
        assert saved is not None
        done, after, notes = play(store, saved, GAME, [move])
    if not done:     # its step had nothing to decide: it ran itself after the entry before
        assert notes == [f"'{move.kind}' ran itself already: nothing more to record"]
        return after
    assert notes == [] and done[0].event.kind == move.kind
    assert done[0].lines and not done[0].auto
    # after it, the steps with nothing to decide ran themselves, each saying why
    assert all(p.auto and p.event.data["auto"]["why"] for p in done[1:])
    assert {p.event.kind for p in done[1:]} <= {"favored", "spoilage", "upkeep"}
    return after


def test_the_declaration_is_the_registry_s() -> None:
    assert declaration(MGC) is GAME
    assert {m.kind for m in MOVES} == {"favored", "grant", "auction", "buy", "move",
                                       "upgrade", "discard-upgrade", "event", "interrupt",
                                       "facility", "done", "population", "move-population",
                                       "produce", "spoilage", "upkeep", "trade", "reshuffle",
                                       "end-turn"}
    # a Population card moves onto a built Facility: test_mule_goes_crazy_cards plays it
    assert {move.kind for _, move in SCRIPT} == {m.kind for m in MOVES} - {"move-population"}


def test_every_move_played_records_what_its_command_records(tmp_path: Path) -> None:
    by_cli, by_play = tmp_path / "cli.sqlite3", tmp_path / "play.sqlite3"
    new_game(by_cli)
    new_game(by_play)
    for args, move in SCRIPT:
        cli_run(by_cli, MGC, *args)
        after = played(by_play, move)
        assert logged(by_play) == logged(by_cli), args
        assert after == state(by_play) == state(by_cli), args


def test_now_says_what_next_says(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    new_game(db)
    seen = set()
    for step in range(len(SCRIPT) + 1):
        out = cli_run(db, MGC, "next")
        now = GAME.now(read_state(db))
        assert now is not None
        nxt = out["next"]
        assert (now.text, now.command, now.turn) == (nxt["text"], nxt["command"],
                                                     state(db)["turn"])
        assert now.kind == nxt["step"] and nxt["steps"][0] == now.kind
        if now.kind == "buy":       # a player's turn names the player and its moves
            assert now.who is not None and "done" in now.possible
        auto = GAME.auto(read_state(db))
        assert (auto is not None) == now.auto == nxt["auto"]
        seen.add(now.kind)
        if step < len(SCRIPT):
            played(db, SCRIPT[step][1])
    # Spoilage and the upkeep ran themselves after the last production: never asked
    assert seen >= {"favored", "grant", "auction", "buy", "produce", "trade", "end-turn"}
    assert not seen & {"spoilage", "upkeep"}
    assert GAME.auto(read_state(db)) is None


# (entry as typed, the same as a Move): accepted (None) or refused (a part of the message)
ENTRIES: list[tuple[list[str], Move, str | None]] = [
    (["grant", "Cid", "foothills"], Move.of("grant", "Cid", {"land": "foothills"}), None),
    (["grant", "Zed", "foothills"], Move.of("grant", "Zed", {"land": "foothills"}),
     "no player 'Zed'"),
    (["grant", "Ann", "volcano"], Move.of("grant", "Ann", {"land": "volcano"}), "no land card"),
    (["auction", "foothills", "--winner", "Ann", "--price", "300"],
     Move.of("auction", None, {"land": "foothills", "winner": "Ann", "price": "300"}), None),
    (["auction", "foothills", "--unsold"],
     Move.of("auction", None, {"land": "foothills", "unsold": "yes"}), None),
    (["auction", "foothills", "--winner", "Ann", "--price", "150"],
     Move.of("auction", None, {"land": "foothills", "winner": "Ann", "price": "150"}),
     "at least the opening bid of 200"),
    (["auction", "foothills", "--winner", "Ann", "--price", "1200"],
     Move.of("auction", None, {"land": "foothills", "winner": "Ann", "price": "1200"}),
     "Ann has 1000 Credits and cannot bid 1200"),
    (["auction", "foothills", "--winner", "Ann", "--price", "-5"],
     Move.of("auction", None, {"land": "foothills", "winner": "Ann", "price": "-5"}),
     "0 or more"),
    (["auction", "foothills", "--unsold", "--price", "300"],
     Move.of("auction", None, {"land": "foothills", "unsold": "yes", "price": "300"}),
     "--unsold takes no --winner or --price"),
    (["auction", "foothills"], Move.of("auction", None, {"land": "foothills"}),
     "say who won the Land"),
    (["buy", "Ann", "energy"], Move.of("buy", "Ann", {"mule": "energy"}), None),
    (["buy", "Ann", "donkey"], Move.of("buy", "Ann", {"mule": "donkey"}),
     "no mule card 'donkey'"),
    (["buy", "Zed", "energy"], Move.of("buy", "Zed", {"mule": "energy"}), "no player 'Zed'"),
    (["move", "Ann", "energy", "foothills"],
     Move.of("move", "Ann", {"mule": "energy", "land": "foothills"}), "holds no Foothills"),
    (["population", "colonists"], Move.of("population", None, {"card": "colonists"}), None),
    (["produce", "--save", "--player", "Ann"], Move.of("produce", None, {"player": "Ann"}),
     None),
    (["produce", "--save"], Move.of("produce"), None),
    (["produce", "--save", "--player", "Zed"], Move.of("produce", None, {"player": "Zed"}),
     "no player 'Zed'"),
    (["produce", "--save", "--rolls", "1,2"], Move.of("produce", None, {"rolls": "1,2"}),
     "--player"),
    (["produce", "--save", "--player", "Ann", "--rolls", "-1"],
     Move.of("produce", None, {"player": "Ann", "rolls": "-1"}), "0 or more"),
    (["spoilage", "--save"], Move.of("spoilage"), "Spoilage follows Production"),
    (["upkeep", "--save"], Move.of("upkeep"), None),
    (["end-turn"], Move.of("end-turn"), "has not had its production"),
    (["favored", "--save"], Move.of("favored"), None),
    (["done", "Ann"], Move.of("done", "Ann"), None),
    (["done", "Bob"], Move.of("done", "Bob"), "it is Ann's turn"),
    (["event", "Ann", "sunspots"], Move.of("event", "Ann", {"card": "sunspots"}), None),
    (["event", "Ann", "pests"], Move.of("event", "Ann", {"card": "pests"}),
     "this card names a player"),
    (["event", "Ann", "mule-kick"], Move.of("event", "Ann", {"card": "mule-kick"}),
     "no event card"),
    (["interrupt", "Bob", "wampus-bounty"],
     Move.of("interrupt", "Bob", {"card": "wampus-bounty"}), None),
    (["interrupt", "Bob", "mule-kick"], Move.of("interrupt", "Bob", {"card": "mule-kick"}),
     "record it with that Event"),
    (["upgrade", "Ann", "irrigation", "--on", "foothills"],
     Move.of("upgrade", "Ann", {"card": "irrigation", "on": "foothills"}),
     "holds no Foothills"),
    (["facility", "Ann", "mining-outpost"],
     Move.of("facility", "Ann", {"card": "mining-outpost"}), None),
    (["trade", "food"], Move.of("trade", "food"), "come after the Production Phase"),
    (["reshuffle"], Move.of("reshuffle"), None),
]


@pytest.mark.parametrize("args, move, message", ENTRIES,
                         ids=[" ".join(a) for a, _, _ in ENTRIES])
def test_refusal_is_none_exactly_when_the_command_takes_the_entry(
        tmp_path: Path, args: list[str], move: Move, message: str | None,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "g.sqlite3"
    cli_run(db, MGC, "new", "--players", "Ann,Bob,Cid", "--seed", "7")
    before = state(db)
    said = refusal(GAME, GAME.from_json(before), move)
    assert state(db) == before
    code, out = cli_code(db, capsys, *args)
    if message is None:
        assert said is None and code == 0, (said, out)
    else:
        assert said is not None and message in said, said
        assert code == 2 and said in out, out


@pytest.mark.parametrize("args, move, message",
                         [e for e in ENTRIES if e[2] is not None][:8])
def test_a_refused_move_leaves_the_games_file_byte_identical(
        tmp_path: Path, args: list[str], move: Move, message: str) -> None:
    db = tmp_path / "g.sqlite3"
    cli_run(db, MGC, "new", "--players", "Ann,Bob,Cid", "--seed", "7")
    cli_run(db, MGC, "grant", "Ann", "sunny-flats")
    files = sorted(tmp_path.iterdir())
    raw = {p: p.read_bytes() for p in files}
    with Store(db) as store:
        saved = store.latest(MGC)
        assert saved is not None
        with pytest.raises(IrataError, match=re.escape(message)):
            play(store, saved, GAME, [move])
        assert state_of(store, saved)["players"]["Ann"]["lands"] == ["sunny-flats"]
    assert sorted(tmp_path.iterdir()) == files
    assert {p: p.read_bytes() for p in files} == raw


def test_a_move_the_game_does_not_have_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    cli_run(db, MGC, "new", "--players", "Ann,Bob", "--seed", "1")
    said = refusal(GAME, read_state(db), Move.of("roll"))
    assert said is not None and "no move 'roll'" in said
