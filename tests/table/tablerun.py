"""The table view's tests' helpers: a saved M.U.L.E. game, the scripted Turn as forms, the
table view served on 127.0.0.1 by uvicorn in a thread (real HTTP), and a browser-like client."""

from __future__ import annotations

import shlex
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
TURN_1 = ROOT / "examples" / "mule" / "tournament-turn-1.txt"
NEW_MULE = ["new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3"]
CODE = "TABLE7"

def irata(*args: str) -> str:
    from irata.cli import cli

    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def turn_1() -> list[list[str]]:
    """The scripted Tournament Turn 1, an entry a line (as typed after ``irata play mule``)."""
    return [shlex.split(line) for line in TURN_1.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


class Served(NamedTuple):
    url: str
    table: Any


def serve(db: Path, game_id: int = 1) -> Iterator[Served]:
    import uvicorn

    from irata.table.app import Table, make_app
    from irata.table.app import server as served_by

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    table = Table(db, game_id, code=CODE, join_url=f"http://127.0.0.1:{port}/join?code={CODE}")
    config = uvicorn.Config(make_app(table, ["127.0.0.1", "localhost"]), log_level="warning",
                            timeout_graceful_shutdown=1)
    server = served_by(table, config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the table view did not start"
        time.sleep(0.02)
    try:
        yield Served(f"http://127.0.0.1:{port}", table)
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def one_per_step(batched: list[list[str]]) -> list[list[str]]:
    """The Turn one Colonist's step an entry (as a player's phone enters it)."""
    out: list[list[str]] = []
    for entry in batched:
        if entry[0] in ("grant", "develop") and "=" in entry[1]:
            for part in entry[1:]:
                name, _, text = part.partition("=")
                out.append([entry[0], name, text])
        else:
            out.append(entry)
    return out


class FormEntry(NamedTuple):
    """An entry as a form gives it: whose seat enters it (None: the board), the move, whom it
    is for, and the text of each field."""

    seat: str | None
    kind: str
    who: str
    fields: dict[str, str]


def form_entry(args: list[str]) -> FormEntry:
    """A command line entry (``develop Dee "buy R04 F"``) as the form that enters the same:
    read by the generated command's own click parser, each field's text as typed."""
    import click

    from companion.mule.moves import MOVES
    from irata.play.mule import mule

    spec = next(m for m in MOVES if m.command == args[0])
    command = mule.get_command(click.Context(mule), args[0])   # generated when asked for
    assert command is not None, args[0]
    params = command.make_context(args[0], list(args[1:])).params
    words = list(params.get("words") or ())
    who = str(params.get("who") or "")
    if spec.who == "seller" and len(words) > 1:
        who, words = words[0], words[1:]
    fields: dict[str, str] = {}
    for p in spec.params:
        if p.option is None:
            if words:
                fields[p.key] = " ".join(words)
            continue
        value = params.get(p.key)
        if isinstance(value, tuple):
            value = ",".join(value)
        if value:
            fields[p.key] = str(value)
    seat = who if spec.who in ("player", "seller") and who else None
    return FormEntry(seat, spec.kind, who, fields)


class Client:
    """One browser at the table (httpx with cookies): a player's seat or the board holder."""

    def __init__(self, url: str) -> None:
        import httpx

        self.url = url
        self.http = httpx.Client(base_url=url, headers={"Origin": url}, timeout=30,
                                 follow_redirects=True)

    @property
    def csrf(self) -> str:
        return str(self.http.cookies.get("irata_csrf", ""))

    def join(self, name: str, code: str = CODE) -> Client:
        self.http.get(f"/join?code={code}")
        response = self.http.post("/join", data={"csrf": self.csrf, "code": code,
                                                 "name": name})
        assert response.status_code == 200, response.text
        return self

    def hold(self, key: str) -> Client:
        assert self.http.get(f"/board?key={key}").status_code == 200
        return self

    def enter(self, kind: str, who: str = "", code: str = CODE, **fields: str) -> Any:
        data = {"csrf": self.csrf, "code": code, "kind": kind, "who": who,
                **{f"p_{k}": v for k, v in fields.items()}}
        return self.http.post("/move", data=data, headers={"Accept": "application/json"})

    def close(self) -> None:
        self.http.close()
