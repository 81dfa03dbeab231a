"""``irata play serve``: the table view of a saved game, served over the games file.

The web stack (Starlette, uvicorn, Jinja2) is the optional extra ``[table]``, imported only
when ``serve`` runs: every other command starts as fast as before.
"""

from __future__ import annotations

import io
import socket
import sys
from pathlib import Path
from typing import Any

import click

from components.errors import InputError
from irata.options import DB, GAME, BoundedInt, open_store, pick

__all__ = ["lan_address", "serve"]

INSTALL = ("the table view needs its extra: pip install -e '.[table]' (in the checkout), or "
           "pip install 'irata[table]'")


def _require_extra() -> None:
    try:
        import jinja2  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise InputError(f"{INSTALL} ({exc.name or 'a part of it'} is not installed)"
                         ) from None


def lan_address() -> str:
    """This machine's address on its local network (no packet is sent: a UDP socket is only
    pointed at a private address to learn which interface would be used)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def _bind(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise InputError(f"cannot listen on {host}:{port} ({exc.strerror or exc}): pass "
                         "--port with another number (0: any free one)") from None
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def qr_text(url: str) -> str:
    """A QR code of ``url`` drawn in the terminal."""
    import qrcode

    code = qrcode.QRCode(border=1)
    code.add_data(url)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


@click.command("serve")
@GAME
@DB
@click.option("--lan", is_flag=True,
              help="Listen on the local network too, so phones can join (default: this "
                   "machine only, 127.0.0.1).")
@click.option("--port", type=BoundedInt(0, 65535), default=8765, show_default=True,
              help="The port to listen on (0: any free one).")
@click.option("--code", "code", hidden=True, help="The table's code (tests only).")
def serve(game_id: int | None, db: str | None, lan: bool, port: int, code: str | None) -> None:
    """The table view: the saved game (the latest, or --game N) live on a screen everyone
    sees, and each player's moves from their own phone.

    Prints the board view's address (open it on the table's screen: it holds the key that
    enters any move) and a QR code of the players' address, with the table's code. A player
    joins, picks their name, and enters their own moves; the board updates itself within a
    second of any entry, from a phone or the command line. Stop it with Ctrl-C: everything
    entered is saved."""
    _require_extra()
    import uvicorn

    from irata.table.app import CODE_ALPHABET, Table, make_app, server

    if code is not None and (len(code) < 4 or set(code) - set(CODE_ALPHABET)):
        raise InputError(f"--code: 4 or more of {CODE_ALPHABET}")
    with open_store(db) as store:
        saved = pick(store, game_id)
        path = store.path
    from companion.play import declaration

    if declaration(saved.game) is None:
        raise InputError(f"game {saved.id} is a {saved.game} game, which has no table view")
    host = "0.0.0.0" if lan else "127.0.0.1"
    sock = _bind(host, port)
    port = sock.getsockname()[1]
    shown = lan_address() if lan else "127.0.0.1"
    hosts = ["127.0.0.1", "localhost", shown]
    if lan:
        hosts += [socket.gethostname(), f"{socket.gethostname()}.local"]
    table = Table(Path(path), saved.id, code=code,
                  join_url=f"http://{shown}:{port}/join?code=")
    table.join_url += table.code
    _announce(table, saved, shown, port, lan)
    config = uvicorn.Config(make_app(table, hosts), log_level="warning",
                            timeout_graceful_shutdown=1, lifespan="on")
    try:
        server(table, config).run(sockets=[sock])
    except KeyboardInterrupt:      # Ctrl-C: the way to stop it
        click.echo("Stopped; everything entered is saved.")
    finally:
        sock.close()


def _announce(table: Any, saved: Any, shown: str, port: int, lan: bool) -> None:
    click.echo(f"The table view of game {saved.id} ({saved.name}), over {table.db}")
    click.echo(f"Board view (the table's screen): http://127.0.0.1:{port}/board?key="
               f"{table.holder}")
    click.echo(f"Players join: {table.join_url}   (the table's code: {table.code})")
    if not lan:
        click.echo("Listening on this machine only: phones join with --lan.")
    click.echo(qr_text(table.join_url), nl=False)
    click.echo("Ctrl-C stops it (everything entered is saved).")
    sys.stdout.flush()
