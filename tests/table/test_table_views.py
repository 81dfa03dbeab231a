"""Every bundled game has its board view and player view, generated from its declaration and
its view module: columns per player, the step of now, and forms that give the Moves its
command line gives (the pairs its own declared tests check)."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

from companion import table as view
from companion.games import GAMES
from companion.play import Move, declaration, now_of
from companion.session import Store, state_of

sys.path.insert(0, str(Path(__file__).parent))
from tablerun import CODE, irata  # noqa: E402

with warnings.catch_warnings():   # starlette's client names a successor of httpx: same calls
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from irata.table.app import Table, make_app  # noqa: E402

NEW = {"mule": ["--tournament", "--seed", "3"], "muli": ["--seed", "1"], "mutagen": [],
       "outer-earth": ["--seed", "7", "--starting-player", "Ann"],
       "mule-goes-crazy": ["--seed", "7", "--favored", "Ann"]}
PLAYERS = ("Ann", "Bob", "Cid")

# a form's fields -> the Move the game's command line gives for the same entry (as each game's
# own test_<game>_declared.py states it)
SAME = [
    ("mule-goes-crazy", "grant", "Ann", {"land": "Sunny Flats"},
     Move.of("grant", "Ann", {"land": "Sunny Flats"})),
    ("outer-earth", "bid", None, {"planet": "Halcyon", "green": "Ann,Cid",
                                  "moves": "accept bow"},
     Move.of("bid", None, {"planet": "Halcyon", "green": "Ann,Cid", "moves": "accept bow"})),
    ("muli", "roll", None, {"dice": "red,blue"}, Move.of("roll", None, {"dice": "red,blue"})),
    ("mutagen", "points", "Ann", {"points": "2", "why": "a Mutation"},
     Move.of("points", "Ann", {"points": "2", "why": "a Mutation"})),
    ("mule", "trade", "food", {"sell": "Bob=3", "deals": "Cid>Dee 1@4"},
     Move.of("trade", "food", {"sell": "Bob=3", "deals": "Cid>Dee 1@4"})),
]


def new_game(game: str, db: Path) -> None:
    players = "Ann,Bob,Cid,Dee" if game == "mule" else ",".join(PLAYERS)
    irata("play", game, "new", "--players", players, *NEW[game], "--db", str(db))


@pytest.mark.parametrize("game", [g.name for g in GAMES])
def test_every_game_has_its_board_and_player_view(game: str, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    new_game(game, db)
    decl = declaration(game)
    assert decl is not None
    with Store(db) as store:
        state = state_of(store, store.get(1))
    board = view.board_of(game, decl, state)
    assert set(PLAYERS) <= {c["name"] for c in board["columns"]}
    assert all(c["cells"] for c in board["columns"])
    now = now_of(decl, state)
    assert now is not None and board["now"] == now.as_dict()
    assert view.forms(game, decl, state, None), "the board may enter the move of now"
    table = Table(db, 1, code=CODE)
    client = TestClient(make_app(table, ["testserver"]), raise_server_exceptions=False)
    page = client.get(f"/board?key={table.holder}")
    assert page.status_code == 200
    assert all(name in page.text for name in PLAYERS) and CODE in page.text
    client.cookies.clear()
    joined = client.get(f"/join?code={CODE}")
    assert all(f'value="{n}"' in joined.text for n in PLAYERS)
    client.post("/join", data={"csrf": client.cookies["irata_csrf"], "code": CODE,
                               "name": "Ann"}, headers={"Origin": "http://testserver"})
    seat = client.get("/seat")
    assert seat.status_code == 200 and 'id="seat">Ann<' in seat.text


@pytest.mark.parametrize(("game", "kind", "who", "fields", "typed"), SAME,
                         ids=[s[0] for s in SAME])
def test_a_form_gives_the_command_lines_move(game: str, kind: str, who: str | None,
                                             fields: dict[str, str], typed: Move) -> None:
    decl = declaration(game)
    assert decl is not None
    assert view.read_form(decl, kind, who, fields) == [typed]


def test_a_players_step_is_theirs_to_enter_and_nobody_elses(tmp_path: Path) -> None:
    """Das Störrische Muli's roll names nobody: it is the player's whose turn it is."""
    db = tmp_path / "games.sqlite3"
    new_game("muli", db)
    decl = declaration("muli")
    assert decl is not None
    with Store(db) as store:
        state = state_of(store, store.get(1))
    (roll,) = view.read_form(decl, "roll", None, {"dice": "red,blue"})
    assert view.seat_refusal(decl, state, [roll], "Ann", PLAYERS) is None
    assert view.seat_refusal(decl, state, [roll], "Bob", PLAYERS) == (
        "it is Ann's step now (Ann rolls the two colour dice), not Bob's")
    assert [f.kind for f in view.forms("muli", decl, state, "Ann")] == ["roll"]
    assert view.forms("muli", decl, state, "Bob") == ()


def test_a_step_named_otherwise_than_its_moves_offers_them_all(tmp_path: Path) -> None:
    """Tolerant of a game whose ``now`` names its step in its own words: every move is
    offered, and the game's check judges what is entered."""
    from companion.play import Now

    decl = declaration("mutagen")
    assert decl is not None
    now = Now(1, "End of Round", None, "round 1", "irata play mutagen round FILE")
    every = tuple(m.kind for m in decl.moves)
    assert view.open_kinds("mutagen", {}, now, every) == every
    # the moves a Now names besides its own (a Mutagen round's gains and payments) are open
    both = now._replace(kind="round", kinds=("round", "shards", "crew"))
    assert view.open_kinds("mutagen", {}, both, every) == ("round", "shards", "crew")
    assert view.open_kinds("outer-earth", {}, now._replace(kind="draw|build|sell"),
                           ("bid", "draw", "build", "sell")) == ("draw", "build", "sell")


def test_what_a_player_typed_is_shown_never_run(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    irata("play", "muli", "new", "--players", "<script>alert(1)</script>,Bob,Cid", "--db",
          str(db))
    table = Table(db, 1, code=CODE)
    client = TestClient(make_app(table, ["testserver"]), raise_server_exceptions=False)
    page = client.get(f"/board?key={table.holder}")
    assert page.status_code == 200
    assert "<script>alert(1)</script>" not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text


def test_a_game_without_a_view_shows_its_describe(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.session import describe_of

    db = tmp_path / "games.sqlite3"
    new_game("muli", db)
    monkeypatch.setattr(view, "_view", lambda game: None)
    decl = declaration("muli")
    assert decl is not None
    with Store(db) as store:
        state = state_of(store, store.get(1))
    board = view.board_of("muli", decl, state)
    assert board["columns"] == [] and board["notes"] == describe_of("muli", state).splitlines()
    assert [f.kind for f in view.forms("muli", decl, state, None)] == ["roll"]


def test_the_mule_board_says_what_status_says(tmp_path: Path) -> None:
    """The board's figures are those of ``irata play mule status`` (its glance), after a
    whole Turn."""
    import json

    from tablerun import NEW_MULE, turn_1

    db = tmp_path / "games.sqlite3"
    irata("play", "mule", *NEW_MULE, "--db", str(db))
    for args in turn_1():
        irata("play", "mule", *args, "--db", str(db))
    decl = declaration("mule")
    assert decl is not None
    with Store(db) as store:
        state = state_of(store, store.get(1))
    board = view.board_of("mule", decl, state)
    glance = json.loads(irata("play", "mule", "status", "--db", str(db), "--json"))
    colonists = glance["colonists"]
    assert [c["name"] for c in board["columns"]] == [c["name"] for c in colonists]
    for column, colonist in zip(board["columns"], colonists, strict=True):
        cells = dict(column["cells"])
        assert cells["Money"] == f"${colonist['money']}"
        assert [cells[g] for g in ("Smithore", "Crystite", "Food", "Energy")] == [
            str(colonist[g]) for g in ("smithore", "crystite", "food", "energy")]
        assert len(column["items"]) == len(colonist["lands"])
    prices = glance["prices"]
    stocks = dict(board["stocks"])
    assert stocks["Food (stock, sells/buys)"].endswith(
        f"${prices['food']['sell']}/${prices['food']['buy']}")


def test_a_colonists_development_offers_their_own_lands(tmp_path: Path) -> None:
    from tablerun import NEW_MULE, turn_1

    db = tmp_path / "games.sqlite3"
    irata("play", "mule", *NEW_MULE, "--db", str(db))
    for args in turn_1()[:4]:       # up to Development
        irata("play", "mule", *args, "--db", str(db))
    irata("play", "mule", "develop", "Dee", "buy R04 F, assay", "--db", str(db))  # now Ann
    decl = declaration("mule")
    assert decl is not None
    with Store(db) as store:
        state = state_of(store, store.get(1))
    (form,) = view.forms("mule", decl, state, "Ann")
    assert (form.kind, form.who) == ("develop", "Ann")
    offered = form.fields[0].choices
    named = {word for choice in offered for word in choice.split()[1:2]}
    assert named - {"yes"} == {"R03", "P07", "P13"}        # Ann's Lands, nobody else's
    assert {"buy P07 E", "assay", "pub", "pass"} <= set(offered)
    assert view.forms("mule", decl, state, "Bob") == ()


MGC_TURN = [Move.of("favored"),
            Move.of("grant", "Ann", {"land": "Sunny Flats"}),
            Move.of("grant", "Bob", {"land": "river-bottom"}),
            Move.of("grant", "Cid", {"land": "none"}),
            Move.of("auction", None, {"land": "foothills", "winner": "Cid", "price": "200+50"}),
            Move.of("auction", None, {"land": "Grassy Plains", "winner": "Ann", "price": "200"}),
            Move.of("auction", None, {"land": "high-mountains", "unsold": "yes"}),
            # Player Turns from the favored player's left: Bob first
            Move.of("buy", "Bob", {"mule": "Food Mule"})]
OE_ROUND = [Move.of("bid", None, {"planet": "Halcyon", "green": "Ann,Cid",
                                  "moves": "accept bow"}),
            Move.of("bid", None, {"planet": "Tidewell"}),
            Move.of("bid", None, {"planet": "Ferrox", "green": "Bob"}),
            Move.of("bid", None, {"planet": "planet/obelisk", "green": "Cid,Bob",
                                  "moves": "bow"}),
            Move.of("draw", "Cid", {"cards": "6"}), Move.of("draw", "Ann"),
            Move.of("build", "Ann", {"colours": "blue,red,yellow,yellow", "planet": "Halcyon"})]


@pytest.mark.parametrize(("game", "moves"), [("mule-goes-crazy", MGC_TURN),
                                             ("outer-earth", OE_ROUND)])
def test_a_game_played_through_its_forms(game: str, moves: list[Move], tmp_path: Path) -> None:
    """Each move entered as its form's fields gives the Move its command line gives (the
    moves of the game's own declared tests), plays, and the board shows what follows."""
    from companion.play import play

    db = tmp_path / "games.sqlite3"
    new_game(game, db)
    decl = declaration(game)
    assert decl is not None
    with Store(db) as store:
        saved = store.get(1)
        for move in moves:
            state = state_of(store, saved)
            assert move.kind in view.open_kinds(game, state, now_of(decl, state),
                                                tuple(m.kind for m in decl.moves)), move
            formed = view.read_form(decl, move.kind, move.who, move.answers)
            assert formed == [move]
            play(store, saved, decl, formed)
            board = view.board_of(game, decl, state_of(store, saved))
            assert len(board["columns"]) == len(PLAYERS)
        shown = [item for c in board["columns"] for item in c["items"]]
    assert shown, "Lands, Mules or planets are on the board"


def test_a_mutagen_round_entered_as_its_files_text(tmp_path: Path) -> None:
    """A move that reads a file takes the file's text from the form: the same round as the
    command line reading the file, and the error lines name the text, never a path."""
    import json
    import sqlite3

    from tablerun import ROOT

    from companion.play import play
    from components.errors import IrataError

    example = ROOT / "examples" / "mutagen" / "round.yaml"
    typed, formed = tmp_path / "typed.sqlite3", tmp_path / "formed.sqlite3"
    for db in (typed, formed):
        irata("play", "mutagen", "new", "--players", "Ann,Bob,Cy", "--db", str(db))
    irata("play", "mutagen", "round", str(example), "--save", "--db", str(typed))
    decl = declaration("mutagen")
    assert decl is not None
    (move,) = view.read_form(decl, "round", None, {"file": example.read_text("utf-8")})
    with Store(formed) as store:
        play(store, store.get(1), decl, [move])
        with pytest.raises(IrataError, match=view.FILE_LABEL):
            play(store, store.get(1), decl,
                 view.read_form(decl, "round", None, {"file": "players: [1"}))

    def rounds(db: Path) -> list[object]:
        with sqlite3.connect(db) as con:
            return [json.loads(r[0]) for r in con.execute(
                "SELECT data FROM events WHERE kind = 'round'")]

    assert rounds(formed) == rounds(typed) and rounds(typed)
