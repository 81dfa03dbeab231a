"""Mutagen, declared (``companion.mutagen.game``): each move played through
``companion.play.play`` saves what the command line saves, ``refusal`` refuses what the command
line refuses, ``now`` says what ``irata play mutagen next`` says, and a refused move changes
nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import session
from companion.mutagen.game import GAME
from companion.play import Move, declaration, play, refusal
from components.errors import InputError, RuleError
from irata.cli import cli

FIXTURES = Path(__file__).parent / "fixtures" / "mutagen"
ROUND = FIXTURES / "round.yaml"


def cli_run(db: Path, *args: str) -> tuple[int, str]:
    """The command line's answer: its exit code and what it printed (a refusal, which the
    ``irata`` executable prints as one line and exit 2, as its message)."""
    result = CliRunner().invoke(cli, ["play", "mutagen", *args, "--db", str(db)])
    if isinstance(result.exception, (InputError, RuleError)):
        return 2, str(result.exception)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def new_game(db: Path, players: str = "Ann,Bob") -> None:
    # the Bonus tokens drawn the same way each time
    assert cli_run(db, "new", "--players", players, "--seed", "7")[0] == 0


def file_move(kind: str, path: Path) -> Move:
    return Move.of(kind, None, {"file": str(path), "text": path.read_text(encoding="utf-8")})


def points_move(player: str, points: int, why: str = "") -> Move:
    return Move.of("points", player, {"points": str(points), "why": why})


def saved(db: Path) -> tuple[session.Store, session.SavedGame]:
    store = session.Store(db)
    game = store.latest("mutagen")
    assert game is not None
    return store, game


def state(db: Path) -> dict[str, Any]:
    store, game = saved(db)
    with store:
        return session.state_of(store, game)


def read_state(db: Path) -> Any:
    """The saved game's State, as the declaration reads it."""
    return GAME.from_json(state(db))


def events(db: Path) -> list[tuple[str, dict[str, Any]]]:
    store, game = saved(db)
    with store:
        return [(e.kind, e.data) for e in store.events(game.id)]


def play_one(db: Path, move: Move) -> dict[str, Any]:
    store, game = saved(db)
    with store:
        _, after, _ = play(store, game, GAME, [move])
    return after


def end_file(tmp_path: Path) -> Path:
    end = tmp_path / "end.yaml"
    end.write_text("players:\n  - {name: Ann, storage: 30, crew: [{kind: all}]}\n"
                   "  - {name: Bob, storage: 2, shards: 4, trees: [violet]}\n")
    return end


def command(move: Move) -> list[str]:
    """The command line's entry for a move."""
    given = move.answers
    if move.kind == "points":
        return ["points", str(move.who), given["points"], "--why", given.get("why", "")]
    return [move.kind, given["file"], "--save"]


def whole_game(tmp_path: Path) -> list[Move]:
    return [points_move("Ann", 2, "Golden Voice"), points_move("Ann", -1),
            file_move("round", ROUND), points_move("Bob", 3, "progress track"),
            file_move("round", ROUND), file_move("round", ROUND), file_move("round", ROUND),
            file_move("score", end_file(tmp_path))]


def test_the_registry_declares_mutagen_with_its_recording_commands() -> None:
    assert declaration("mutagen") is GAME
    kinds = ["round", "score", "points", "shards", "progress", "crew", "tree", "storage",
             "people", "discard", "palace", "element", "install", "track", "place"]
    assert [spec.kind for spec in GAME.moves] == kinds
    assert {spec.command for spec in GAME.moves} == set(kinds)
    assert GAME.auto(GAME.from_json(state_after_setup())) is None
    listed = CliRunner().invoke(cli, ["play", "mutagen", "--help"]).output
    for name in [*kinds, "new", "next", "turn", "status", "undo", "log", "set"]:
        assert f"\n  {name} " in listed, name


def state_after_setup() -> dict[str, Any]:
    from companion.mutagen.data import load_rules
    from companion.mutagen.saved import fold, new_setup

    return fold([session.Event(1, "setup", new_setup(["Ann", "Bob"], load_rules()), "t")])


def test_each_move_played_through_play_saves_what_the_command_line_saves(tmp_path: Path
                                                                          ) -> None:
    by_cli, by_play = tmp_path / "cli.sqlite3", tmp_path / "play.sqlite3"
    new_game(by_cli)
    new_game(by_play)
    for move in whole_game(tmp_path):
        code, out = cli_run(by_cli, *command(move))
        assert code == 0, out
        after = play_one(by_play, move)
        assert events(by_play) == events(by_cli), move
        assert after == state(by_cli) == state(by_play), move
    assert state(by_play)["final"]["winners"] == ["Ann"]
    assert GAME.now(read_state(by_play)) is None


def test_the_outcome_is_the_event_and_its_lines(tmp_path: Path) -> None:
    start = GAME.from_json(state_after_setup())
    out = GAME.apply(start, points_move("Bob", 4, "Mutation"))
    assert (out.kind, out.data) == ("points", {"player": "Bob", "points": 4, "why": "Mutation"})
    assert out.lines == ("Bob: 4 points",)
    assert GAME.to_json(out.state)["scores"] == {"Ann": 0, "Bob": 4}
    assert GAME.to_json(start)["scores"] == {"Ann": 0, "Bob": 0}   # apply changes no state
    out = GAME.apply(start, file_move("round", ROUND))
    assert out.kind == "round" and out.data["round"] == 1 and out.state.round == 2
    assert out.lines[0].startswith("End of Round 1: Ann ")
    # a face that gives only the file's name has it read
    assert GAME.apply(start, Move.of("round", None, {"file": str(ROUND)})).data == out.data


def test_refusal_is_none_exactly_when_the_command_line_accepts_the_entry(tmp_path: Path
                                                                          ) -> None:
    db = tmp_path / "games.sqlite3"
    new_game(db)
    plight = FIXTURES / "round_plight.yaml"
    only_ann = tmp_path / "ann.yaml"
    only_ann.write_text("players:\n  - {name: Ann, storage: 3}\n")
    end = end_file(tmp_path)
    entries = [
        (points_move("Bob", -1), False),              # cannot pay
        (points_move("Zed", 1), False),               # no such player
        (points_move("Ann", 0), False),               # moves nothing
        (points_move("Ann", 2), True),
        (points_move("Ann", -2), True),
        (file_move("round", plight), False),          # another expansion
        (file_move("score", end), False),             # before the fourth round
        (file_move("round", ROUND), True),
        (file_move("round", ROUND), True),
        (file_move("round", ROUND), True),
        (file_move("round", ROUND), True),
        (file_move("round", ROUND), False),           # all four rounds are scored
        (points_move("Ann", 1), False),               # points belong to a round
        (file_move("score", only_ann), False),        # leaves out Bob
        (file_move("score", end), True),
        (file_move("score", end), False),             # scored already
    ]
    for move, accepted in entries:
        now = read_state(db)
        before = db.read_bytes()
        said = refusal(GAME, now, move)
        code, out = cli_run(db, *command(move))
        assert (said is None) == accepted == (code == 0), (move, said, out)
        if not accepted:
            assert said is not None and said in out     # the same reason, word for word
            assert db.read_bytes() == before


@pytest.mark.parametrize("moves", [0, 1, 4, 5])
def test_now_says_what_next_says(tmp_path: Path, moves: int) -> None:
    db = tmp_path / "games.sqlite3"
    new_game(db)
    for move in [m for m in whole_game(tmp_path) if m.kind != "points"][:moves]:
        play_one(db, move)
    asked = json.loads(cli_run(db, "next", "--json")[1])["next"]
    now = GAME.now(read_state(db))
    if asked is None:
        assert now is None and moves == 5
        return
    assert now is not None and now.as_dict() == asked
    assert now.kind == ("score" if moves >= 4 else "round")
    assert now.command == ("irata play mutagen score --save --storage Ann=N,Bob=N"
                           if moves >= 4 else "irata play mutagen round FILE --save")


def test_a_refused_move_leaves_the_games_file_byte_identical(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    new_game(db)
    bad_track = tmp_path / "back.yaml"
    bad_track.write_text("players:\n  - {name: Ann, tracks: {ore: 8}}\n  - {name: Bob}\n")
    play_one(db, file_move("round", ROUND))
    back = tmp_path / "lower.yaml"
    back.write_text("players:\n  - {name: Ann, installed: 1}\n  - {name: Bob}\n")
    for move in (points_move("Bob", -100), points_move("Ann", 1)._replace(who="Zed"),
                 Move.of("points", "Ann", {"points": "lots"}),
                 file_move("round", back),                  # Ann's trackers moved back
                 file_move("round", bad_track),              # beyond the track
                 file_move("score", end_file(tmp_path)),     # round 2 of 4
                 Move.of("round", None, {"file": str(tmp_path / "missing.yaml")}),
                 Move.of("setup")):
        before = db.read_bytes()
        with pytest.raises((InputError, RuleError)):
            play_one(db, move)
        assert db.read_bytes() == before, move


_TYPED = {
    "points": ("points", ["2", "-9", "0", "x", ""]),
    "shards": ("shards", ["2", "-4", "-3", "0", "1e3", ""]),
    "progress": ("paid", ["2", "4", "6", "free", "3", ""]),
    "crew": ("card", ["crew/all", "Surveyor ore", "Champion gas", "x", ""]),
    "tree": ("card", ["jade-01", "tree/amber-02", "oak", ""]),
    "storage": ("at", ["A1,A2", "A2,A3", "C3,C4", "A1", "Q1,Q2", ""]),
    "people": ("take", ["supreme", "ability people/gardener", "ability", "x"]),
    "palace": ("order", ["1", "2", "3", "0", "x"]),
    "discard": ("card", ["Surveyor ore", "crew/all", "x"]),
    "round": ("file", [str(ROUND), "nowhere.yaml", ""]),
    "score": ("storage.Ann", ["1", "-1", "x"]),
    "element": ("element", ["blue ore", "supreme", "ore", "x", ""]),
    "install": ("element", ["blue ore H1", "blue ore", "x", ""]),
    "track": ("track", ["ore", "ore 2", "ore 3", "gas 9", "x", ""]),
    "place": ("where", ["spy sacred-tree", "thug palace", "robot moon", "x", ""]),
}


def _held_game(db: Path, elements: bool = False) -> None:
    """Both mini expansions, a round under way: Ann has paid for a tile and a Palace move;
    with ``elements`` (the Elements kept) she holds a blue ore and a green gas, and has
    installed a pink ore."""
    code, out = cli_run(db, "new", "--players", "Ann,Bob", "--seed", "3", "--expansion",
                        "plight-of-the-people", "--expansion", "palace-visitors",
                        *(["--elements"] if elements else []))
    assert code == 0, out
    tile = {"tile": "storage/09-any-blue"} if elements else {}
    for move in (Move.of("storage", "Ann", {"at": "A1,A2", **tile}),
                 Move.of("palace", "Ann", {"order": "1"}),
                 Move.of("crew", "Bob", {"card": "Surveyor ore"})):
        play_one(db, move)
    if elements:
        for element, at in (("blue ore", ""), ("green gas", ""), ("pink ore", "A1")):
            play_one(db, Move.of("element", "Ann", {"element": element,
                                                    **({"at": at} if at else {})}))


_KEPT = {  # with the Elements kept: what is typed where they are read
    "element": ("element", ["blue ore", "pink ore", "supreme", "x"]),
    "install": ("element", ["blue ore H1", "green gas H1, blue ore H2", "x"]),
    "track": ("spend", ["blue ore", "blue ore, green gas", "supreme ore", "pink ore", "x"]),
    "tree": ("spend", ["green gas, blue ore", "blue ore", "green gas, green gas", "x"]),
    "storage": ("tile", ["storage/09-any-blue", "storage/13-any-blue", "x", ""]),
    "round": ("file", ["", "nowhere.yaml"]),
    "score": ("storage.Ann", ["2", "0", "x"]),
}
_FIXED = {"tree": {"card": "jade-01"}, "storage": {"at": "B1,B2"}}   # beside what is drawn


@pytest.mark.parametrize(("kind", "elements"), [*((k, False) for k in sorted(_TYPED)),
                                                *((k, True) for k in sorted(_KEPT))])
@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_refused_move_of_any_kind_leaves_the_saved_game_byte_identical(
        kind: str, elements: bool, data: st.DataObject,
        tmp_path_factory: pytest.TempPathFactory) -> None:
    db = tmp_path_factory.mktemp("held") / "games.sqlite3"
    _held_game(db, elements)
    key, typed = (_KEPT if elements else _TYPED)[kind]
    who = data.draw(st.sampled_from(["Ann", "Bob", "Zed", ""]), label="who")
    given = {**(_FIXED.get(kind, {}) if elements else {}),
             key: data.draw(st.one_of(st.sampled_from(typed), st.text(max_size=8)),
                            label=key)}
    move = Move.of(kind, who if kind not in ("round", "score") else None, given)
    before = db.read_bytes()
    said = refusal(GAME, read_state(db), move)
    try:
        play_one(db, move)
    except (InputError, RuleError) as exc:
        assert said == str(exc)                   # check(state, move) said the same
        assert db.read_bytes() == before, move    # nothing changed
    else:
        assert said is None
