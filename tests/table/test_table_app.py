"""The table view over real HTTP: who may write (the table's code, a player's own seat, the
board holder), CSRF and Host checks, refusals said as the command line says them, updates
pushed to every page within a second of any entry, and forms that give the command line's own
Moves."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from companion import table as view
from companion.entry import moves_of
from companion.play import declaration

sys.path.insert(0, str(Path(__file__).parent))
from tablerun import CODE, Client, Served, form_entry, irata, one_per_step, turn_1  # noqa: E402


def events(db: Path) -> list[tuple[int, str, str]]:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT seq, kind, data FROM events ORDER BY seq").fetchall()


def test_a_write_needs_the_code_and_the_players_own_seat(served: Served, mule_db: Path
                                                           ) -> None:
    before = mule_db.read_bytes()
    stranger = Client(served.url)
    stranger.http.get("/join")
    refused = stranger.enter("grant", "Bob", claim="R01@C1")
    assert refused.status_code == 403 and "join the table first" in refused.json()["error"]
    wrong = Client(served.url)
    wrong.http.get("/join?code=WRONG1")
    assert wrong.http.post("/join", data={"csrf": wrong.csrf, "code": "WRONG1",
                                          "name": "Bob"}).status_code == 403
    ann = Client(served.url).join("Ann")
    other = ann.enter("grant", "Bob", claim="R01@C1")
    assert other.status_code == 403
    assert other.json()["error"] == "your seat is Ann's: it enters Ann's moves, not Bob's"
    table_entry = ann.enter("package", package="none")
    assert table_entry.status_code == 403 and "it is Bob's step now" in table_entry.json()["error"]
    assert ann.enter("grant", "Ann", code="WRONG1", claim="R03@C3").status_code == 403
    assert mule_db.read_bytes() == before
    bob = Client(served.url).join("bob")        # a name in any case is the player's
    done = bob.enter("grant", "Bob", claim="R01@C1")
    assert done.status_code == 200, done.text
    assert done.json()["lines"] == ["Bob claims R01 on C1"]
    holder = Client(served.url).hold(served.table.holder)
    assert holder.enter("grant", "Cid", claim="R02@C1").status_code == 200   # any player's
    assert [k for _, k, _ in events(mule_db)] == ["setup", "step", "step"]


def test_forms_are_csrf_safe_and_the_host_is_checked(served: Served, mule_db: Path) -> None:
    before = mule_db.read_bytes()
    bob = Client(served.url).join("Bob")
    data = {"csrf": bob.csrf, "code": CODE, "kind": "grant", "who": "Bob", "p_claim": "R01@C1"}
    cases = {
        "no token": ({**data, "csrf": ""}, {}),
        "another token": ({**data, "csrf": "x" * 24}, {}),
        "another site": (data, {"Origin": "http://evil.example"}),
        "no origin": (data, {"Origin": ""}),
    }
    for why, (form, headers) in cases.items():
        got = bob.http.post("/move", data=form, headers=headers)
        assert got.status_code == 403, why
        assert got.json()["error"], why
    plain = bob.http.post("/move", content=b"kind=grant", headers={"Content-Type": "text/plain"})
    assert plain.status_code == 415
    huge = bob.http.post("/move", data={**data, "p_claim": "x" * 70_000})
    assert huge.status_code == 413
    page = httpx.get(f"{served.url}/join")
    assert page.headers["x-frame-options"] == "DENY"            # never framed by another site
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    rebound = httpx.get(f"{served.url}/join", headers={"Host": "evil.example"})
    assert rebound.status_code == 400
    assert mule_db.read_bytes() == before
    assert httpx.get(f"{served.url}/board").status_code == 403
    assert httpx.get(f"{served.url}/events", timeout=5).status_code == 403   # no stream
    assert httpx.get(f"{served.url}/board?key=nope").status_code == 403
    assert httpx.get(f"{served.url}/fragment/../../etc/passwd").status_code == 404


def test_a_refusal_is_the_command_lines_and_changes_nothing(served: Served, mule_db: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    from irata.cli import main

    before = mule_db.read_bytes()
    bob = Client(served.url).join("Bob")
    for args, fields in ((["grant", "Bob", "River@C1"], {"claim": "River@C1"}),
                         (["develop", "Bob", "pass"], None)):
        form = bob.enter(args[0], "Bob", **(fields or {"actions": "pass"}))
        assert form.status_code == 400
        with pytest.raises(SystemExit):
            main(["play", "mule", *args])
        said = capsys.readouterr().err.strip()
        # the terminal's error line folds runs of spaces; the words are the same
        assert said.split() == f"error: {form.json()['error']}".split()
        assert mule_db.read_bytes() == before


def test_forms_give_the_command_lines_moves() -> None:
    decl = declaration("mule")
    assert decl is not None
    import click

    from irata.play.mule import mule

    for args in one_per_step(turn_1()):
        spec = next(m for m in decl.moves if m.command == args[0])
        command = mule.get_command(click.Context(mule), args[0])   # generated when asked for
        assert command is not None, args[0]
        typed = moves_of(spec, command.make_context(args[0], args[1:]).params)
        entry = form_entry(args)
        assert view.read_form(decl, entry.kind, entry.who or None, entry.fields) == typed, args


def test_every_page_is_told_of_an_entry_from_the_command_line(served: Served) -> None:
    holder = Client(served.url).hold(served.table.holder)
    with holder.http.stream("GET", "/events") as stream:
        lines = stream.iter_lines()
        first = json.loads(next(line for line in lines if line.startswith("data:"))[5:])
        start = time.monotonic()
        irata("play", "mule", "grant", "Bob", "R01@C1")
        second = json.loads(next(line for line in lines if line.startswith("data:"))[5:])
        took = time.monotonic() - start
        irata("play", "undo")       # an undo is news too
        third = json.loads(next(line for line in lines if line.startswith("data:"))[5:])
        irata("play", "mule", "grant", "Bob", "R01@C1")
        next(line for line in lines if line.startswith("data:"))
    assert second["version"] > first["version"] and third["version"] > second["version"]
    assert took < 5          # the figure itself: benchmarks/table_latency.py
    state = holder.http.get("/state.json").json()
    bob = next(c for c in state["board"]["columns"] if c["name"] == "Bob")
    assert bob["items"] == ["R01@C1"]
    assert state["board"]["now"]["who"] == "Cid"


def test_serve_listens_on_this_machine_only_by_default(mule_db: Path) -> None:
    server = subprocess.Popen([sys.executable, "-m", "irata.cli", "play", "serve", "--db",
                               str(mule_db), "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        lines = [server.stdout.readline() for _ in range(3)]
        board = next(line for line in lines if "/board?key=" in line)
        port = int(board.split("127.0.0.1:")[1].split("/")[0])
        listening = [line.split()[1] for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
                     if line.split()[3] == "0A"]
        assert f"0100007F:{port:04X}" in listening        # 127.0.0.1, nowhere else
        assert not any(a.endswith(f":{port:04X}") and a != f"0100007F:{port:04X}"
                       for a in listening)
        assert httpx.get(f"http://127.0.0.1:{port}/join").status_code == 200
    finally:
        server.terminate()
        server.wait(10)


def test_serve_without_the_extra_says_how_to_install_it(mule_db: Path) -> None:
    blocked = ("import sys; sys.modules['starlette'] = None; from irata.cli import main; "
               f"main(['play', 'serve', '--db', {str(mule_db)!r}])")
    done = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "pip install -e '.[table]'" in done.stderr


def test_a_file_move_takes_its_text_never_a_path() -> None:
    decl = declaration("mutagen")
    assert decl is not None
    (move,) = view.read_form(decl, "round", None, {"file": "/etc/passwd"})
    assert move.answers == {"file": view.FILE_LABEL, "text": "/etc/passwd"}


def test_an_entry_naming_no_single_player_is_the_boards(served: Served, mule_db: Path) -> None:
    for args in turn_1()[:3]:           # up to Package From Home World!
        irata("play", "mule", *args)
    before = mule_db.read_bytes()
    ann = Client(served.url).join("Ann")
    got = ann.enter("package", package="Ann=HC03")
    assert got.status_code == 403
    assert got.json()["error"] == ("'package' is the table's entry, not one player's: the "
                                   "board view enters it")
    assert mule_db.read_bytes() == before
    holder = Client(served.url).hold(served.table.holder)
    assert holder.enter("package", package="Bob=food,Ann=HC03").status_code == 200


def test_ctrl_c_stops_it_with_pages_open(mule_db: Path) -> None:
    import signal

    server = subprocess.Popen([sys.executable, "-m", "irata.cli", "play", "serve", "--db",
                               str(mule_db), "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    assert server.stdout is not None
    line = ""
    while "/board?key=" not in line:
        line = server.stdout.readline()
        assert line, "the server ended before it printed its address"
    board = line.split(": ", 1)[1].strip()
    while True:
        try:
            holder = httpx.Client(follow_redirects=True)
            holder.get(board)
            break
        except httpx.TransportError:
            time.sleep(0.05)
    with holder.stream("GET", board.split("/board")[0] + "/events") as stream:
        assert next(stream.iter_lines()).startswith("data:")
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=15)
    assert server.returncode == 0, err
    assert "Stopped; everything entered is saved." in out
    assert "Traceback" not in err


def test_the_companions_start_up_imports_none_of_the_web_stack(mule_db: Path) -> None:
    probe = ("import sys; from irata.cli import main\n"
             "try:\n    main(['play', 'mule', 'next', '--db', sys.argv[1]])\n"
             "except SystemExit:\n    pass\n"
             "web = ('starlette', 'uvicorn', 'jinja2', 'httpx', 'companion.table', "
             "'irata.table')\n"
             "print(sorted(m for m in sys.modules if m.startswith(web)))")
    done = subprocess.run([sys.executable, "-c", probe, str(mule_db)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_guessing_the_code_is_slowed_down(served: Served) -> None:
    guesser = Client(served.url)
    guesser.http.get("/join")
    answers = [guesser.http.post("/join", data={"csrf": guesser.csrf, "code": f"AAAA{i:02d}",
                                                "name": "Ann"}).status_code for i in range(31)]
    assert answers[:30] == [403] * 30 and answers[30] == 429
    # even the right code waits out the minute: a guesser cannot tell it found it
    right = guesser.http.post("/join", data={"csrf": guesser.csrf, "code": CODE, "name": "Ann"})
    assert right.status_code == 429
