"""The table view's web app (Starlette, an ASGI app served by uvicorn): the board view and the
player view of one saved game, over the same games file as the command line.

- Reads fold the saved game as ``irata play status`` does; every write is one entry played by
  :func:`companion.play.play` in the session's one ``BEGIN IMMEDIATE`` transaction, so four
  phones entering at once are serialised by SQLite exactly as four terminals would be, and a
  refused entry changes nothing.
- A watcher polls the games file (``PRAGMA data_version``, then the game's last event) every
  ``POLL`` seconds and tells every open page by server-sent events, whoever wrote: a phone or
  the command line.
- Safety: a write needs the table's code (shown on the board view, in the QR link) through a
  seat, chosen at join (a random token kept in memory: a player's seat enters only that
  player's moves), or the board holder's key (printed by ``irata play serve``: any move).
  Cookies are ``SameSite=Strict`` and ``HttpOnly``; each form carries a token equal to a cookie
  (double submit) and its ``Origin`` must be the page's; the Host header must be one the server
  listens as (no DNS rebinding). No file path is ever taken from a request: the games file is
  the server's, and a file's move (Mutagen's round) takes the file's text from the form.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hmac
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import jinja2
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from components.errors import IrataError

__all__ = ["CODE_ALPHABET", "Table", "make_app", "new_code", "server"]

POLL = 0.1            # seconds between looks at the games file
KEEP_ALIVE = 15.0     # seconds between comments on an idle event stream
MAX_BODY = 64 * 1024  # bytes of one form
MAX_WRONG = 30        # wrong codes a minute before joining waits
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I: read off a screen
HOLDER, SEAT, CSRF = "irata_board", "irata_seat", "irata_csrf"
_PARTS = {"status": "_status.html", "forms": "_forms.html"}   # the parts a page refreshes

_TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(str(Path(__file__).parent / "templates")),
    autoescape=True, undefined=jinja2.StrictUndefined)


def new_code() -> str:
    """The table's code: 6 characters a person types from the screen (about 30 bits)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))



def _same(typed: str, secret: str) -> bool:
    """``typed`` is ``secret``, compared in constant time. As UTF-8 bytes: ``compare_digest``
    raises TypeError on a str holding a character outside ASCII, which anyone can type."""
    return hmac.compare_digest(typed.encode("utf-8", "surrogatepass"),
                               secret.encode("utf-8", "surrogatepass"))

class Refused(Exception):
    """A request refused before anything is read or played: its status and its one line."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Table:
    """One served saved game: the games file, the game, the table's code, the board holder's
    key, the seats taken, and the version of the game that the pages show."""

    def __init__(self, db: Path, game_id: int, code: str | None = None,
                 join_url: str = "") -> None:
        self.db, self.game_id = Path(db), game_id
        self.code = code or new_code()
        self.holder = secrets.token_urlsafe(18)
        self.seats: dict[str, str] = {}     # seat token -> player
        self.join_url = join_url
        self.version = 0
        self.closing = False
        self.saved_at = 0.0
        self._wrong: collections.deque[float] = collections.deque()   # when wrong codes came
        self._signature: tuple[Any, ...] | None = None
        self._changed: asyncio.Event | None = None
        self._watch: sqlite3.Connection | None = None
        self._lock = threading.Lock()    # the watcher's connection, used from several threads
        self._cache: tuple[tuple[Any, ...], tuple[Any, Any, dict[str, Any]]] | None = None

    # -- the saved game ----------------------------------------------------------------------
    def read(self) -> tuple[Any, Any, dict[str, Any]]:
        """The saved game, its declaration and its state now (folded once for every page that
        asks after the same entry)."""
        from companion import session
        from companion.play import declaration

        try:
            mark: tuple[Any, ...] | None = self.signature()
        except sqlite3.Error:
            mark = None
        cached = self._cache
        if mark is not None and cached is not None and cached[0] == mark:
            return cached[1]
        with session.Store(self.db) as store:
            saved = store.get(self.game_id)
            decl = declaration(saved.game)
            if decl is None:
                raise Refused(400, f"{saved.game} is not a declared game")
            with session.readable(store.path, saved):
                found = saved, decl, session.state_of(store, saved)
        if mark is not None:
            self._cache = (mark, found)
        return found

    def write(self, kind: str, who: str | None, fields: dict[str, str], seat: str | None
              ) -> dict[str, Any]:
        """One entry from a form, played as the command line plays it; a seat's entry must be
        that player's (checked in the same transaction as the play)."""
        from companion import session, table
        from companion.play import declaration, now_of, play

        with session.Store(self.db) as store:
            saved = store.get(self.game_id)
            decl = declaration(saved.game)
            if decl is None:
                raise Refused(400, f"{saved.game} is not a declared game")
            with store.transaction():
                state = session.state_of(store, saved)
                spec = next((m for m in decl.moves if m.kind == kind), None)
                if seat is not None and spec is not None and not who and \
                        spec.who in ("player", "seller"):
                    who = seat
                moves = table.read_form(decl, kind, who, fields)
                if seat is not None:
                    why = table.seat_refusal(decl, state, moves, seat,
                                             table.players(saved.game, state))
                    if why:
                        raise Refused(403, why)
                played, after, notes = play(store, saved, decl, moves)
        self.saved_at = time.monotonic()     # committed (read by benchmarks/table_latency.py)
        now = now_of(decl, after)
        lines = [f"(ran itself) {p.said}" if p.auto else line for p in played
                 for line in ([""] if p.auto else p.lines)]
        return {"ok": True, "lines": [x for x in lines if x] + list(notes),
                "next": now.as_dict() if now else None}

    def signature(self) -> tuple[Any, ...]:
        """What changes with every entry and every undo of the game (a cheap read)."""
        with self._lock:
            if self._watch is None:
                self._watch = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True,
                                              check_same_thread=False, timeout=1.0)
            row = self._watch.execute(
                "SELECT COUNT(*), COALESCE(MAX(seq), 0), (SELECT touched FROM games WHERE id "
                "= ?) FROM events WHERE game_id = ?", (self.game_id, self.game_id)).fetchone()
        return tuple(row)

    def look(self) -> bool:
        """Has the game changed since the last look? (The version goes up when it has.)"""
        try:
            found = self.signature()
        except sqlite3.Error:       # busy for a moment, or being written: look again soon
            return False
        if found == self._signature:
            return False
        self._signature = found
        self.version += 1
        return True

    def tell(self) -> None:
        """Tell every open page when the game has changed (called in the event loop)."""
        if self.look() and self._changed is not None:
            changed, self._changed = self._changed, asyncio.Event()
            changed.set()

    async def watch(self) -> None:
        while True:
            self.tell()
            await asyncio.sleep(POLL)

    def close(self) -> None:
        """The server is stopping: every open event stream ends now (a browser would hold one
        open for ever, and the server would wait for it)."""
        self.closing = True
        if self._changed is not None:
            self._changed.set()

    async def changed(self, seen: int, timeout: float) -> None:
        if self.version != seen:
            return
        if self._changed is None:
            self._changed = asyncio.Event()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout)

    def check_code(self, typed: str) -> None:
        """The table's code, or refused; after ``MAX_WRONG`` wrong codes in a minute every
        code is refused for the rest of that minute (guessing 30 bits takes for ever)."""
        now = time.monotonic()
        while self._wrong and self._wrong[0] < now - 60:
            self._wrong.popleft()
        if len(self._wrong) >= MAX_WRONG:
            raise Refused(429, "too many wrong codes in the last minute: wait a minute, then "
                               "type the code shown on the board view")
        if not _same(typed.strip().upper(), self.code):
            self._wrong.append(now)
            raise Refused(403, "that is not the table's code: it is shown on the board view")

    # -- who is asking -----------------------------------------------------------------------
    def seat_of(self, request: Request) -> str | None:
        return self.seats.get(request.cookies.get(SEAT, ""))

    def is_holder(self, request: Request) -> bool:
        return _same(request.cookies.get(HOLDER, ""), self.holder)

    def viewer(self, request: Request) -> str:
        """Who asks: "" for the board holder, a player's name for a seat; else refused."""
        if self.is_holder(request):
            return ""
        seat = self.seat_of(request)
        if seat is None:
            raise Refused(403, "join the table first: scan the QR code on the board view, "
                               "or open /join and type the table's code")
        return seat


# -- requests -------------------------------------------------------------------------------

def _csrf(request: Request) -> str:
    return request.cookies.get(CSRF) or secrets.token_urlsafe(18)


def _cookie(response: Response, name: str, value: str) -> None:
    response.set_cookie(name, value, httponly=True, samesite="strict", path="/")


def _page(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    token = _csrf(request)
    body = _TEMPLATES.get_template(template).render(csrf=token, **context)
    response = HTMLResponse(body, status_code=status)
    if request.cookies.get(CSRF) != token:
        _cookie(response, CSRF, token)
    return response


async def _form(request: Request) -> dict[str, str]:
    """A posted form, checked: its origin is this page's, its token the cookie's, its size and
    its fields bounded, each field once."""
    host = request.headers.get("host", "")
    origin = request.headers.get("origin") or ""
    if not origin:
        referer = urlsplit(request.headers.get("referer") or "")
        origin = f"{referer.scheme}://{referer.netloc}" if referer.netloc else ""
    if not origin or origin != f"http://{host}":
        raise Refused(403, "a write must come from the table's own page (its Origin is "
                           f"{origin[:60] or 'missing'}, the page's http://{host[:60]})")
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise Refused(415, "a write is a form (application/x-www-form-urlencoded)")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Refused(413, f"the form is too large (at most {MAX_BODY // 1024} KB)")
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, max_num_fields=100,
                          strict_parsing=False, errors="strict")
    except (UnicodeDecodeError, ValueError) as exc:
        raise Refused(400, f"the form cannot be read ({str(exc)[:80]})") from None
    fields: dict[str, str] = {}
    for key, value in pairs:
        if key in fields:
            raise Refused(400, f"the field '{key[:40]}' is given twice")
        fields[key] = value
    token = request.cookies.get(CSRF, "")
    if not token or not _same(fields.get("csrf", ""), token):
        raise Refused(403, "the form's token is not this browser's: reload the page and "
                           "enter it again")
    return fields


Handler = Callable[[Request], Awaitable[Response]]

_HEADERS = [(b"x-frame-options", b"DENY"),          # no page of the table inside another site's
            (b"content-security-policy", b"frame-ancestors 'none'"),
            (b"referrer-policy", b"same-origin"),     # the code in an address stays here
            (b"x-content-type-options", b"nosniff"), (b"cache-control", b"no-store")]


class _Headers:
    """Every answer with the headers above (an ASGI middleware: it leaves streams streaming)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                known = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *((k, v) for k, v in _HEADERS if k not in known)]
            await send(message)

        await self.app(scope, receive, sending)


def _guard(handler: Handler) -> Handler:
    """A refusal or irata's own error becomes a clear message (JSON for a script, a page for a
    browser), with nothing changed."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except (Refused, IrataError) as exc:
            status = exc.status if isinstance(exc, Refused) else 400
            message = str(exc) or "refused"
            if "application/json" in request.headers.get("accept", "") or \
                    request.method == "POST" or request.url.path.startswith("/fragment"):
                return JSONResponse({"ok": False, "error": message}, status_code=status)
            return _page(request, "message.html", status=status, message=message)

    return run


def make_app(table: Table, hosts: list[str] | None = None) -> Starlette:
    """The table view of ``table``'s saved game; ``hosts``: the Host names it answers to."""

    async def home(request: Request) -> Response:
        return RedirectResponse("/board" if table.is_holder(request) else "/join", 303)

    async def board(request: Request) -> Response:
        key = request.query_params.get("key")
        if key is not None:
            if not _same(key, table.holder):
                raise Refused(403, "that is not the board's key: open the address "
                                   "'irata play serve' printed")
            response = RedirectResponse("/board", 303)  # the key leaves the address bar
            _cookie(response, HOLDER, table.holder)
            return response
        if not table.is_holder(request):
            raise Refused(403, "the board view is the table's screen: open the address "
                               "'irata play serve' printed (players: /join)")
        return await _view(request, "")

    async def seat(request: Request) -> Response:
        name = table.seat_of(request)
        if name is None:
            return RedirectResponse("/join", 303)
        return await _view(request, name)

    async def _view(request: Request, viewer: str) -> Response:
        context = await run_in_threadpool(_context, table, viewer)
        return _page(request, "board.html" if viewer == "" else "seat.html",
                     qr=Markup(_qr_svg(table.join_url)) if viewer == "" else "", **context)

    async def fragment(request: Request) -> Response:
        viewer = table.viewer(request)
        part = _PARTS.get(request.path_params["part"])
        if part is None:
            raise Refused(404, "no such part of the page (status, forms)")
        context = await run_in_threadpool(_context, table, viewer, part == _PARTS["forms"])
        return _page(request, part, **context)

    async def state(request: Request) -> Response:
        viewer = table.viewer(request)
        context = await run_in_threadpool(_context, table, viewer)
        return JSONResponse({"version": context["version"], "board": context["board"]})

    async def join(request: Request) -> Response:
        if request.method == "GET":
            code = request.query_params.get("code", "")
            names: tuple[str, ...] = ()
            if code:
                try:
                    table.check_code(code)
                    names = await run_in_threadpool(_names, table)
                except Refused as exc:
                    if exc.status != 403:
                        raise
            return _page(request, "join.html", code=code[:12], names=names,
                         wrong=bool(code) and not names)
        fields = await _form(request)
        table.check_code(fields.get("code", ""))
        names = await run_in_threadpool(_names, table)
        name = fields.get("name", "")
        if not fields.get("name"):
            return RedirectResponse(f"/join?code={table.code}", 303)
        found = next((n for n in names if n.lower() == name.strip().lower()), None)
        if found is None:
            raise Refused(400, f"'{name[:40]}' is not a player of this game (players: "
                               f"{', '.join(names)})")
        token = secrets.token_urlsafe(18)
        table.seats[token] = found
        response = RedirectResponse("/seat", 303)
        _cookie(response, SEAT, token)
        return response

    async def move(request: Request) -> Response:
        fields = await _form(request)
        holder = table.is_holder(request)
        seat = None if holder else table.seat_of(request)
        if not holder and seat is None:
            raise Refused(403, "join the table first (the table's code is on the board "
                               "view): this browser has no seat")
        if not holder:
            table.check_code(fields.get("code", ""))
        kind = fields.pop("kind", "")
        who = fields.pop("who", "").strip() or None
        typed = {k.removeprefix("p_"): v for k, v in fields.items() if k.startswith("p_")}
        done = await run_in_threadpool(table.write, kind, who, typed, seat)
        table.tell()        # at once: the other pages need not wait for the next look
        return JSONResponse(done)

    async def events(request: Request) -> Response:
        table.viewer(request)

        async def stream() -> AsyncIterator[str]:
            seen = -1
            while not table.closing and not await request.is_disconnected():
                if seen != table.version:
                    seen = table.version
                    yield f"data: {json.dumps({'version': seen})}\n\n"
                    continue
                before = seen
                await table.changed(seen, KEEP_ALIVE)
                if table.version == before:
                    yield ": still here\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    async def not_found(request: Request, exc: Exception) -> Response:
        return PlainTextResponse("not found: the table view has /board, /join and /seat",
                                 status_code=404)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        table.look()
        task = asyncio.create_task(table.watch())
        try:
            yield
        finally:
            task.cancel()

    routes = [Route("/", _guard(home)), Route("/board", _guard(board)),
              Route("/seat", _guard(seat)), Route("/join", _guard(join), methods=["GET", "POST"]),
              Route("/move", _guard(move), methods=["POST"]),
              Route("/fragment/{part:str}", _guard(fragment)),
              Route("/state.json", _guard(state)), Route("/events", _guard(events))]
    middleware = [Middleware(_Headers)]
    if hosts:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=hosts))
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                     exception_handlers={404: not_found, 405: _method_not_allowed})


async def _method_not_allowed(request: Request, exc: Exception) -> Response:
    return PlainTextResponse("method not allowed here", status_code=405)


def _names(table: Table) -> tuple[str, ...]:
    from companion import table as view

    saved, _, state = table.read()
    return view.players(saved.game, state)


def _context(table: Table, viewer: str, with_forms: bool = True) -> dict[str, Any]:
    """What a page shows: the board, the forms open to the viewer ("" the board holder),
    and the version it shows."""
    from companion import table as view

    version = table.version
    saved, decl, state = table.read()
    forms = view.forms(saved.game, decl, state, viewer or None) if with_forms else ()
    board = view.board_of(saved.game, decl, state)
    if viewer:       # a player's phone shows their own column first
        board["columns"].sort(key=lambda c: c["name"] != viewer)
    now = board["now"]
    key = json.dumps([now["turn"], now["step"], now["who"], now["text"]] if now else None)
    return {"board": board, "forms": forms, "viewer": viewer, "version": version,
            "code": table.code, "join_url": table.join_url, "now_key": key,
            "game_id": saved.id}


def _qr_svg(text: str) -> str:
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    svg: bytes = image.to_string()
    return svg.decode("utf-8")


def server(table: Table, config: Any) -> Any:
    """A uvicorn server of ``table``'s app that ends the open event streams as it stops."""
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            table.close()
            await super().shutdown(sockets)

    return Server(config)
