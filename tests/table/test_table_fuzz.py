"""Hostile requests to the table view (hypothesis): any path, method, form, cookie or header
gets an answer (never a 500, never a hang), and the games file changes only for an entry the
game accepts from a seat or the board that may enter it."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():   # starlette's client names a successor of httpx: same calls
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))
from tablerun import CODE, NEW_MULE, irata  # noqa: E402

from irata.table.app import Table, make_app  # noqa: E402

PATHS = ["/", "/board", "/seat", "/join", "/move", "/fragment/status", "/fragment/forms",
         "/fragment/x", "/state.json", "/nowhere", "/board?key=x", "/join?code=" + CODE,
         "/%2e%2e/%2e%2e/etc/passwd", "/fragment/..%2fbase"]
KINDS = ["grant", "auction", "package", "develop", "produce", "trade", "lucky", "end", "",
         "x" * 300, "../../etc/passwd"]
text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> tuple[TestClient, Table, Path]:
    db = tmp_path_factory.mktemp("fuzz") / "games.sqlite3"
    mp = pytest.MonkeyPatch()
    mp.setenv("IRATA_DB", str(db))
    irata("play", "mule", *NEW_MULE)
    mp.undo()
    table = Table(db, 1, code=CODE)
    client = TestClient(make_app(table, ["testserver"]), raise_server_exceptions=False)
    return client, table, db


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(PATHS) | text.map(lambda t: "/" + quote(t, safe="/?=&%")),
       method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]),
       kind=st.sampled_from(KINDS) | text, who=text,
       fields=st.dictionaries(st.sampled_from(["p_claim", "p_actions", "p_card", "p_sell",
                                               "p_to", "p_file", "code", "csrf", "name"])
                              | text, text, max_size=5),
       cookie=st.sampled_from(["none", "csrf", "holder", "seat"]),
       origin=st.sampled_from(["same", "other", "none"]),
       raw=st.none() | st.binary(max_size=200))
def test_any_request_gets_an_answer(app: tuple[TestClient, Table, Path], path: str,
                                    method: str, kind: str, who: str, fields: dict[str, str],
                                    cookie: str, origin: str, raw: bytes | None) -> None:
    client, table, db = app
    client.cookies.clear()
    if cookie != "none":
        client.cookies.set("irata_csrf", "tok")
    if cookie == "holder":
        client.cookies.set("irata_board", table.holder)
    if cookie == "seat":
        table.seats["a-seat"] = "Bob"
        client.cookies.set("irata_seat", "a-seat")
    headers = {"same": {"Origin": "http://testserver"}, "other": {"Origin": "http://x.example"},
               "none": {}}[origin]
    before = db.read_bytes()
    form = {"csrf": "tok", "kind": kind, "who": who, **fields}
    if raw is not None:
        got = client.request(method, path, content=raw, headers={
            **headers, "Content-Type": "application/x-www-form-urlencoded"})
    else:
        got = client.request(method, path, data=form if method != "GET" else None,
                             headers=headers)
    assert got.status_code < 500, (path, got.text[:300])
    if got.status_code != 200 or path != "/move":
        assert db.read_bytes() == before, (path, got.status_code)
    if got.status_code == 200 and path == "/move":
        assert cookie in ("holder", "seat") and origin == "same"


GAME_STATES: dict[str, object] = {}


@settings(max_examples=300, deadline=None)
@given(game=st.sampled_from(["mule", "muli", "mutagen", "outer-earth", "mule-goes-crazy"]),
       pick=st.integers(0, 20), who=st.none() | text,
       fields=st.dictionaries(text, text, max_size=4), seat=st.sampled_from(["Ann", "Zed"]))
def test_any_form_is_read_or_refused_in_one_line(game: str, pick: int, who: str | None,
                                                 fields: dict[str, str], seat: str) -> None:
    from companion import table as view
    from companion.play import declaration
    from components.errors import InputError

    decl = declaration(game)
    assert decl is not None
    spec = decl.moves[pick % len(decl.moves)]
    typed = {**fields, **{p.key: v for p, v in zip(spec.params, fields.values(), strict=False)}}
    try:
        moves = view.read_form(decl, spec.kind, who, typed)
    except InputError as exc:      # the command line's own refusal of the same entry
        assert str(exc)
        return
    state = GAME_STATES.setdefault(game, _new_state(game))
    assert isinstance(state, dict)
    why = view.seat_refusal(decl, state, moves, seat, ("Ann", "Bob", "Cid"))
    assert why is None or (why and "\n" not in why)


def _new_state(game: str) -> dict[str, object]:
    import tempfile

    from companion.session import Store, state_of

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "g.sqlite3"
        players = "Ann,Bob,Cid,Dee" if game == "mule" else "Ann,Bob,Cid"
        extra = {"outer-earth": ["--starting-player", "Ann"]}.get(game, [])
        irata("play", game, "new", "--players", players, "--db", str(db), *extra)
        with Store(db) as store:
            return state_of(store, store.get(1))


@pytest.mark.parametrize("typed", ["\x80", "é", "TABLE\u00e9", "\U0001f600"])
def test_a_code_key_or_token_outside_ascii_is_refused_not_a_crash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, typed: str) -> None:
    """A typed code, board key or form token with a character outside ASCII is a wrong
    one (hmac.compare_digest raises on such a str: it was a 500 before)."""
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv("IRATA_DB", str(db))
    irata("play", "mule", *NEW_MULE)
    table = Table(db, 1, code=CODE)
    client = TestClient(make_app(table, ["testserver"]), raise_server_exceptions=False)
    same = {"Origin": "http://testserver"}
    client.cookies.set("irata_csrf", "tok")
    assert client.post("/join", data={"code": typed, "csrf": "tok"}, headers=same,
                       follow_redirects=False).status_code == 403
    assert client.get("/board", params={"key": typed},
                      follow_redirects=False).status_code == 403
    assert client.post("/join", data={"code": CODE, "csrf": typed}, headers=same,
                       follow_redirects=False).status_code in (400, 403)
