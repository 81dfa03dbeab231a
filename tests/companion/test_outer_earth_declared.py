"""Outer Earth, declared: every move played through ``companion.play.play`` records the same
events, and reaches the same state, as the command that records it; ``refusal`` is None exactly
when the command saves the entry; ``now`` says what ``irata play outer-earth next`` says; a
refused move leaves the games file byte for byte as it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion import session
from companion.outer_earth import saved
from companion.outer_earth.data import load_rules
from companion.outer_earth.game import GAME, BiddingGoesOn, discards
from companion.outer_earth.state import State
from companion.play import Move, declaration, play, refusal
from components.errors import InputError, RuleError
from irata.cli import cli

OE = "outer-earth"
Step = tuple[list[str], Move]


def cli_run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["play", *args])
    return result.exit_code, result.output


def ok(*args: str) -> str:
    code, out = cli_run(*args)
    assert code == 0, out
    return out


def cli_events() -> list[tuple[str, dict[str, Any]]]:
    return [(e["kind"], e["data"]) for e in json.loads(ok("log", "--json"))]


def cli_state() -> dict[str, Any]:
    return json.loads(ok("status", "--json"))["state"]


def typed() -> State:
    """The saved game's State, as the declaration reads it."""
    return GAME.from_json(cli_state())


def direct(tmp_path: Path, players: list[str], start: str
           ) -> tuple[session.Store, session.SavedGame]:
    """A games file of its own, the same set-up as ``new --seed 7``, played through play()."""
    store = session.Store(tmp_path / "direct.sqlite3")
    setup = saved.new_game(players, "normal", load_rules(), start, 7)
    with store.transaction():
        game = store.create(OE, setup, "direct")
    return store, game


def new_cli(players: list[str], start: str) -> None:
    ok(OE, "new", "--players", ",".join(players), "--starting-player", start, "--seed", "7")


def bid(planet: str, green: str = "", *moves: str) -> Step:
    args = ["bid", "--save", "--planet", planet] + (["--green", green] if green else [])
    given = {"planet": planet, "green": green, "moves": " ".join(moves)}
    return [*args, *moves], Move.of("bid", None, {k: v for k, v in given.items() if v})


def draw(player: str, cards: str | None = None) -> Step:
    return (["draw", player, *([cards] if cards else [])],
            Move.of("draw", player, {"cards": cards} if cards else {}))


def build(player: str, colours: str, planet: str) -> Step:
    return (["build", player, colours, "--planet", planet],
            Move.of("build", player, {"colours": colours, "planet": planet}))


def sell(player: str, planet: str, **given: str) -> Step:
    args = ["sell", player, "--planet", planet]
    for key, value in given.items():
        args += [f"--{key}", value] if key != "raise" else \
            [x for r in value.split(",") for x in ("--raise", r)]
    return args, Move.of("sell", player, {"planet": planet, **given})


def upkeep(*wanted: str) -> Step:
    return (["upkeep", "--save", *[x for w in wanted for x in ("--discard", w)]],
            Move.of("upkeep", None, {"discard": ",".join(wanted)} if wanted else {}))


ROUND: Step = (["round"], Move.of("round"))


def done(player: str) -> Step:
    return ["done", player], Move.of("done", player)

# the round of test_outer_earth_saved played through, and a sale of round 2
A_ROUND = (["Ann", "Bob", "Cid"], "Ann", [
    bid("Halcyon", "Ann,Cid", "accept", "bow"), bid("Tidewell"), bid("Ferrox", "Bob"),
    bid("planet/obelisk", "Cid,Bob", "bow"),
    draw("Cid", "6"), draw("Ann"), build("Ann", "blue,red,yellow,yellow", "Halcyon"),
    build("Bob", "yellow,red", "Ferrox"), upkeep(), ROUND,
    bid("Tidewell"), bid("Meridian"), bid("Solace"), bid("Gaia's Rest"),   # round 2's market
    draw("Cid", "2"), draw("Ann", "1+1"),
    sell("Ann", "Halcyon", built="blue,red,yellow,yellow,red,blue", bonus="br/14", pile="2"),
])
A_RAISE = (["Ann", "Bob"], "Ann", [
    bid("Nimbus Prime", "Ann"), bid("Meridian"), bid("Solace"),
    build("Ann", "blue,blue,yellow,red", "Nimbus Prime"),
    sell("Ann", "Nimbus Prime", **{"raise": "sell"}),
])
A_TAX = (["Ann", "Bob"], "Ann", [
    *(bid(p, "Ann") for p in ("Verdant Reach", "Amber Hollow", "Cinder Point")),
    build("Ann", "blue", "Verdant Reach"), draw("Ann", "3"), done("Bob"),
    upkeep("Ann=Cinder Point"),
    ROUND,
])


@pytest.mark.parametrize("script", [A_ROUND, A_RAISE, A_TAX], ids=["round", "raise", "tax"])
def test_each_move_played_records_what_the_command_records(
        script: tuple[list[str], str, list[Step]], tmp_path: Path) -> None:
    players, start, steps = script
    new_cli(players, start)
    store, game = direct(tmp_path, players, start)
    assert cli_events()[0] == ("setup", store.events(game.id)[0].data)
    for args, move in steps:
        before = len(cli_events())
        ok(OE, *args)
        appended = cli_events()[before:]
        played, state, notes = play(store, game, GAME, [move])
        assert [(p.event.kind, p.event.data) for p in played] == appended, args
        # the steps with nothing to decide ran themselves after the entry, marked so
        assert [p.auto for p in played] == [bool(d.get("auto")) for _, d in appended]
        if args == ROUND[0]:     # the end of the round ran itself after the upkeep already
            assert played == [] and notes == ["'round' ran itself already: nothing more to "
                                              "record"]
        else:
            assert not notes and not played[0].auto
        assert state == cli_state() == session.state_of(store, game), args
    assert [(e.kind, e.data) for e in store.events(game.id)] == cli_events()


def test_the_registry_names_the_declaration() -> None:
    assert declaration(OE) is GAME
    assert {m.kind for m in GAME.moves} == {"bid", "draw", "build", "sell", "done", "upkeep",
                                            "round"}


def _state_after(tmp_path: Path, steps: list[Step]) -> State:
    """The state after ``steps``; after an upkeep, as it leaves it (the end of the round,
    which runs itself after it, not yet taken: so a game saved before it ran itself)."""
    new_cli(["Ann", "Bob", "Cid"], "Ann")
    *before, (args, move) = steps
    for a, _ in before:
        ok(OE, *a)
    if move.kind == "upkeep":
        return GAME.apply(typed(), move).state
    ok(OE, *args)
    return typed()


PHASE1 = A_ROUND[2][:1]
PHASE2 = A_ROUND[2][:6]
UPKEEP = A_ROUND[2][:9]     # the state the upkeep leaves (before the round runs itself)

ENTRIES: list[tuple[list[Step], Step, bool]] = [
    (PHASE1, bid("Tidewell"), True),
    (PHASE1, bid("Halcyon", "Bob"), False),                  # already Ann's
    (PHASE1, bid("Tidewell", "Bob,Cid"), False),             # the bidding is not over
    (PHASE1, bid("Nowhere"), False),                         # no such planet
    (PHASE1, draw("Ann"), False),                            # 3 planets not yet offered
    (PHASE1, build("Ann", "blue", "Halcyon"), False),
    (PHASE1, done("Ann"), False),
    (PHASE1, upkeep(), False),                               # Phase 1 is not over
    (A_ROUND[2][:4], draw("Ann"), False),                    # Cid, the starting player, first
    (A_ROUND[2][:4], draw("Cid"), True),                     # the market offered: Phase 2
    (PHASE2, draw("Cid"), False),                            # Cid's turn is over
    (PHASE2, draw("Bob"), True),                             # Bob may begin his turn
    (PHASE2, draw("Ann", "2"), True),
    (PHASE2, build("Ann", "blue,red", "Halcyon"), True),
    (PHASE2, build("Ann", "blue,blue,blue,blue,blue", "Halcyon"), False),  # a hand of 4
    (PHASE2, build("Ann", "green", "Halcyon"), False),
    (PHASE2, sell("Ann", "Halcyon"), False),                 # nothing built on it
    (PHASE2, bid("Tidewell"), False),                        # Phase 2 has begun
    (PHASE2, ROUND, False),                                  # no upkeep yet
    (PHASE2, upkeep(), False),                               # Bob has not had his turn
    (A_ROUND[2][:8], upkeep(), True),                        # Bob's turn begun: it ends it
    (PHASE2, upkeep("Zed=Halcyon"), False),
    (UPKEEP, upkeep(), False),                               # done already
    (UPKEEP, draw("Ann"), False),
    (UPKEEP, ROUND, True),
]


@pytest.mark.parametrize(("before", "entry", "accepted"), ENTRIES)
def test_refusal_is_none_exactly_when_the_command_saves_the_entry(
        before: list[Step], entry: Step, accepted: bool, tmp_path: Path) -> None:
    state = _state_after(tmp_path, before)
    why = refusal(GAME, state, entry[1])
    if before is UPKEEP:     # the command's game has taken the end of the round since
        assert (why is None) is accepted, why
        return
    count = len(cli_events())
    code, out = cli_run(OE, *entry[0])
    saved_it = len(cli_events()) > count     # with the steps that ran themselves after it
    assert (why is None) is accepted is saved_it, (why, out)
    # the command refuses it too, but for a bidding not over yet (it says who is to act)
    assert (code == 0) is (accepted or "is not over" in str(why)), out


def test_an_unfinished_bidding_is_refused_with_the_auction_so_far() -> None:
    new_cli(["Ann", "Bob", "Cid"], "Ann")
    with pytest.raises(BiddingGoesOn) as info:
        GAME.apply(typed(), bid("Tidewell", "Bob,Cid")[1])
    assert info.value.auction.to_act == "Bob"
    assert "Bob may open at 2." in ok(OE, *bid("Tidewell", "Bob,Cid")[0])


@pytest.mark.parametrize("upto", range(len(A_ROUND[2]) + 1))
def test_now_says_what_next_says(upto: int) -> None:
    new_cli(["Ann", "Bob", "Cid"], "Ann")
    for args, _ in A_ROUND[2][:upto]:
        ok(OE, *args)
    nxt = json.loads(ok(OE, "next", "--json"))
    now = GAME.now(typed())
    assert now is not None
    assert (now.text, now.command) == (nxt["next"]["text"], nxt["next"]["command"])
    assert now.kind in ("bid", "draw", "upkeep", "round") and now.turn == cli_state()["round"]
    if now.kind == "draw":     # Phase 2: the company whose turn it is, and its moves
        assert now.who is not None and now.possible == ("draw", "build", "sell", "done")
    auto = GAME.auto(typed())
    assert (auto is not None) == now.auto
    if auto is not None:      # a step with nothing to decide: its move, and why
        assert auto.kind == now.kind and auto.why


def test_now_is_none_once_the_game_is_over() -> None:
    new_cli(["Ann", "Bob"], "Ann")
    over = GAME.from_json({**cli_state(), "over": True})
    assert GAME.now(over) is None
    assert "the game is over" in str(refusal(GAME, over, ROUND[1]))
    # the game's own end, which every face says (the guided walk, a seat of the table view)
    assert GAME.end(over) == ("the game is over: round 1 was the last; score it with 'irata "
                              "play outer-earth score --save'")
    assert GAME.end(typed()) is None


def test_a_refused_move_leaves_the_games_file_as_it_was(tmp_path: Path) -> None:
    store, game = direct(tmp_path, ["Ann", "Bob", "Cid"], "Ann")
    play(store, game, GAME, [bid("Halcyon", "Ann")[1], *(bid(p)[1] for p in
                                                         ("Meridian", "Solace", "Ferrox"))])
    before = store.path.read_bytes()
    for move in (draw("Bob")[1], ROUND[1], bid("Halcyon", "Bob")[1], Move.of("score"),
                 bid("Tidewell", "Bob,Cid")[1], sell("Ann", "Halcyon", pile="x")[1]):
        with pytest.raises((InputError, RuleError)):
            play(store, game, GAME, [move])
        assert store.path.read_bytes() == before, move
    # several entries in one: the second refused, the first not saved either
    with pytest.raises(RuleError, match="entry 2 of 2"):
        play(store, game, GAME, [draw("Ann")[1], draw("Cid")[1]])
    assert store.path.read_bytes() == before


def test_apply_changes_nothing_it_is_given() -> None:
    new_cli(["Ann", "Bob"], "Ann")
    copy = cli_state()
    state = GAME.from_json(copy)
    outcome = GAME.apply(state, bid("Halcyon", "Ann")[1])
    assert GAME.to_json(state) == copy and outcome.state != state
    assert GAME.to_json(outcome.state)["market"]["planets"] == copy["market"]["planets"] - 1
    assert outcome.lines and outcome.kind == "bid"


def test_discards_are_read_as_the_command_reads_them() -> None:
    assert discards("") == {}
    assert discards("Ann=Cinder Point,Bob=Halcyon,Ann=Obelisk") == {
        "Ann": ["Cinder Point", "Obelisk"], "Bob": ["Halcyon"]}
    with pytest.raises(InputError, match="--discard takes NAME=PLANET"):
        discards("Ann")


@pytest.mark.parametrize("entry", [
    draw("Cid"), build("Ann", "green", "Halcyon"), sell("Ann", "Halcyon", pile="-1"),
    upkeep("Zed=Halcyon"), ROUND, bid("Halcyon", "Bob")])
def test_the_refusal_is_the_commands_error(entry: Step, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    from irata.cli import main

    state = _state_after(tmp_path, PHASE2)
    why = refusal(GAME, state, entry[1])
    capsys.readouterr()
    with pytest.raises(SystemExit) as info:
        main(["play", OE, *entry[0]])
    assert info.value.code == 2
    assert capsys.readouterr().err == f"error: {why}\n"
