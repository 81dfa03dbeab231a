"""Saved games for every companion: an append-only event log in SQLite; the state is its fold.

``sqlite3`` is imported when a Store opens, so the stateless calculators start fast.
A saved game is a row in ``games`` and its events in ``events`` (``seq`` 1 is always the
``setup`` event). Every write is one SQLite transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``), so
a process killed at any moment leaves the game as it was before that command or after it.

Each game declares its fold (events -> JSON-able state dict) and its describe (state -> text)
once, in ``companion.games``; :func:`state_of` imports the game's saved-game module lazily and
folds.
The generic event kind ``set`` ({"path": "players.Ann.food", "value": 3}) corrects any number:
folds pass it to :func:`apply_set` in order (:func:`fold_with` does so for them).
"""

from __future__ import annotations

import importlib
import json
import math
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from companion.amount import MAX_AMOUNT, parse_amount
from companion.record import NamedTuple
from components.errors import InputError, IrataError

S = TypeVar("S")   # a game's typed State (fold_typed)

if TYPE_CHECKING:
    import sqlite3

__all__ = ["Event", "SavedGame", "Store", "apply_set", "check_set", "default_db_path",
           "describe_of", "fold_of", "fold_typed", "fold_with", "parse_amount", "readable",
           "state_of"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    game    TEXT NOT NULL,
    name    TEXT NOT NULL,
    created TEXT NOT NULL,
    touched TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    kind    TEXT NOT NULL,
    data    TEXT NOT NULL,
    at      TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


def default_db_path() -> Path:
    """``$IRATA_DB``, else ``$XDG_DATA_HOME`` (or ``~/.local/share``)/irata/games.sqlite3."""
    env = os.environ.get("IRATA_DB")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / "irata" / "games.sqlite3"


def _now() -> str:
    from datetime import UTC, datetime  # here: the calculators never need it

    return datetime.now(UTC).isoformat(timespec="microseconds")


class Event(NamedTuple):
    """One entry of a game's log: its place (``seq``), its kind, its data, and when."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: str


class SavedGame(NamedTuple):
    """A saved game: its number, which game it is (``mule``), its name, when it began."""

    id: int
    game: str
    name: str
    created: str


_COLUMNS = {"games": {"id", "game", "name", "created", "touched"},
            "events": {"game_id", "seq", "kind", "data", "at"}}
MAX_GAME_ID = 2**62  # SQLite's INTEGER holds 2**63 - 1; a number past it names no game
LOCK_TIMEOUT = 10.0  # seconds to wait for another command's write before giving up


class _Guarded:
    """The SQLite connection, whose every error becomes one InputError naming the file and
    what to do (read-only, locked too long, damaged, another program's tables). The Store's
    transactions roll back on it like on any error, so nothing saved is lost."""

    def __init__(self, db: sqlite3.Connection, store: Store) -> None:
        self._conn = db
        self._store = store

    @property
    def in_transaction(self) -> bool:
        return self._conn.in_transaction

    def execute(self, sql: str, args: Any = ()) -> _Rows:
        import sqlite3

        try:
            return _Rows(self._conn.execute(sql, args), self._store)
        except OverflowError:
            raise InputError(f"a number too large for {self._store.path}") from None
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise InputError(_fault(self._store, exc)) from exc

    def close(self) -> None:
        self._conn.close()


class _Rows:
    """A query's rows, read under the same guard: SQLite reads a damaged page only when the
    row on it is fetched, so fetching fails as executing does."""

    def __init__(self, cursor: sqlite3.Cursor, store: Store) -> None:
        self._cursor = cursor
        self._store = store

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    def fetchone(self) -> Any:
        import sqlite3

        try:
            return self._cursor.fetchone()
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise InputError(_fault(self._store, exc)) from exc

    def fetchall(self) -> list[Any]:
        import sqlite3

        try:
            return self._cursor.fetchall()
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise InputError(_fault(self._store, exc)) from exc

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


def _fault(store: Store, exc: Exception) -> str:
    """What went wrong with the games file, and what to do, in one line."""
    text = str(exc).lower()
    where = f"the games file {store.path}"
    if "readonly" in text or "read-only" in text:
        return (f"{where} is read-only, so nothing was saved: allow writing to it (and its "
                "folder), or pass --db with another file")
    if "locked" in text or "busy" in text:
        return (f"{where} is busy: another command held it for {store.timeout:g} s; nothing "
                "was changed, try again")
    if any(w in text for w in ("malformed", "not a database", "disk image", "corrupt")):
        return _damaged(store, str(exc))
    if "disk is full" in text or "disk full" in text:
        return (f"{where}: the disk is full, so nothing was changed: free some space there, "
                "or pass --db with a file on another disk")
    if "decode" in text:  # bytes overwritten inside a saved text
        return _damaged(store, "a text saved in it is not UTF-8")
    if any(w in text for w in ("no such", "has no column", "constraint", "mismatch")):
        return f"{where} is not an irata games file ({exc}); pass --db with another file"
    return f"{where}: {exc}; nothing was changed"


def _damaged(store: Store, why: str) -> str:
    return (f"the games file {store.path} is damaged ({why[:80]}); nothing was changed: "
            "restore it from a backup, or see what SQLite still reads with "
            f"\"sqlite3 '{store.path}' 'PRAGMA integrity_check'\", or pass --db with another "
            "file")


def _check_numbers(node: Any, key: str = "", depth: int = 0) -> None:
    """No number past MAX_AMOUNT (a seed: past 2**63) and no text past MAX_SAVED_TEXT
    characters is ever saved, however it was typed."""
    if depth > 50:
        raise InputError("an entry nested too deeply to save")
    if isinstance(node, dict):
        for k, v in node.items():
            _check_numbers(str(k), "a name", depth + 1)
            _check_numbers(v, str(k), depth + 1)
    elif isinstance(node, list | tuple):
        for v in node:
            _check_numbers(v, key, depth + 1)
    elif isinstance(node, str):
        if len(node) > MAX_SAVED_TEXT:
            raise InputError(f"{key or 'a text'}: '{node[:20]}...' is too long to save (at most "
                             f"{MAX_SAVED_TEXT} characters)")
    elif isinstance(node, int | float) and not isinstance(node, bool):
        top = 2**63 if key == "seed" else MAX_AMOUNT
        if not abs(node) <= top:  # NaN fails this too
            shown = str(node) if len(str(node)) < 24 else str(node)[:20] + "..."
            raise InputError(f"{key or 'a number'}: {shown} is out of range (at most {top})")


class Store:
    """The SQLite file holding every saved game (its tables made by the first write).

    Every fault of the file itself (read-only, locked too long, damaged, another program's
    tables, an event edited by hand) is an InputError: one line naming the file and what to
    do, with nothing changed."""

    def __init__(self, path: Path | None = None, timeout: float | None = None) -> None:
        import sqlite3  # here, not at the top: calculators never pay for it

        self.path = Path(path) if path is not None else default_db_path()
        self.timeout = LOCK_TIMEOUT if timeout is None else timeout
        self._depth = 0  # how many transaction() blocks are open
        self._ready = False  # the tables are there (made by the first write)
        self._db: _Guarded
        if len(self.path.name) > 255 or len(str(self.path)) > 4000:
            raise InputError(f"the games file's name is too long ({len(self.path.name)} "
                             "characters; at most 255)")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # autocommit mode: every transaction below is opened and closed explicitly
            conn = sqlite3.connect(str(self.path), isolation_level=None,
                                   timeout=self.timeout)
        except (OSError, sqlite3.Error) as exc:
            raise InputError(f"cannot open the games file {self.path}: {exc}") from exc
        self._db = _Guarded(conn, self)
        try:
            # a damaged page shows only when a command reads it, perhaps after it has written
            # elsewhere: the whole file is checked first (milliseconds for a games file)
            found = self._db.execute("PRAGMA integrity_check(1)").fetchone()
            if found is None or found[0] != "ok":
                raise InputError(_damaged(self, str(found[0] if found else "no answer")))
            self._db.execute("PRAGMA foreign_keys = ON")
            self._db.execute("PRAGMA synchronous = FULL")
            have = {r[0] for r in self._db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            for table, columns in _COLUMNS.items():  # checked before anything is added
                found = {r[1] for r in self._db.execute(f"PRAGMA table_info({table})")}
                if table in have and not columns <= found:
                    raise InputError(f"{self.path} is not an irata games file (its '{table}' "
                                     "table is another program's); pass --db with another "
                                     "file")
            # the tables are made by the first write, inside its transaction: a command that
            # only reads, or is refused, never changes the file (an empty one stays empty)
            self._ready = {"games", "events"} <= have
        except BaseException:
            self._db.close()
            raise

    def _load(self, game_id: int, seq: Any, data: Any) -> dict[str, Any]:
        """An event's data as saved; an event edited into something unreadable is named."""
        try:
            value = json.loads(data)
        except (TypeError, ValueError, RecursionError):
            value = None
        if not isinstance(value, dict):
            raise InputError(f"event {seq} of saved game {game_id} in {self.path} cannot be "
                             "read (was the file edited by hand?); 'irata play undo --game "
                             f"{game_id}' drops the last event")
        return value

    # -- plumbing -------------------------------------------------------------------------
    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _begin(self) -> None:
        # inside transaction() the outer BEGIN IMMEDIATE already holds the write lock
        if self._depth == 0:
            self._db.execute("BEGIN IMMEDIATE")
            self._make_tables()

    def _make_tables(self) -> None:
        """The tables, made in the write transaction just begun (rolled back with it)."""
        if not self._ready:
            for statement in filter(str.strip, _SCHEMA.split(";")):
                self._db.execute(statement)
            self._ready = True

    def _commit(self) -> None:
        if self._depth == 0:
            self._db.execute("COMMIT")

    def _rollback(self) -> None:
        if self._depth == 0 and self._db.in_transaction:
            self._db.execute("ROLLBACK")
            self._ready = self._has_tables()

    def _has_tables(self) -> bool:
        return {"games", "events"} <= {r[0] for r in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}

    @contextmanager
    def transaction(self) -> Iterator[Store]:
        """One write transaction around read, check and append.

        ``with store.transaction(): state = state_of(store, saved); check(state);
        store.append(...)`` takes the write lock (``BEGIN IMMEDIATE``) before the state is read,
        so two commands on one game serialise and no rule can be broken by a race; an exception
        anywhere inside rolls back everything, so a refused entry changes nothing. The
        ``create``/``append``/``undo`` calls inside join this transaction instead of opening
        their own. Nesting is allowed (the outermost one commits)."""
        if self._depth == 0:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._make_tables()
            except BaseException:
                self._rollback()
                raise
        self._depth += 1
        try:
            yield self
        except BaseException:
            self._depth -= 1
            if self._depth == 0 and self._db.in_transaction:
                self._db.execute("ROLLBACK")
                self._ready = self._has_tables()
            raise
        self._depth -= 1
        if self._depth == 0:
            self._db.execute("COMMIT")

    def _touch(self, game_id: int, at: str) -> None:
        self._db.execute("UPDATE games SET touched = ? WHERE id = ?", (at, game_id))

    @staticmethod
    def _dump(data: dict[str, Any]) -> str:
        if not isinstance(data, dict):
            raise TypeError("event data must be a dict")
        _check_numbers(data)
        try:
            return json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False)
        except ValueError:
            raise InputError("a number that is not finite (NaN or infinity) cannot be "
                             "saved") from None

    # -- the public face --------------------------------------------------------------------
    def create(self, game: str, setup: dict[str, Any], name: str | None = None) -> SavedGame:
        """A new saved game: its row and its first event (``setup``), in one transaction."""
        payload = self._dump(setup)
        at = _now()
        self._begin()
        try:
            cur = self._db.execute(
                "INSERT INTO games (game, name, created, touched) VALUES (?, ?, ?, ?)",
                (game, name or "", at, at))
            game_id = int(cur.lastrowid or 0)
            if not name:
                name = f"{game} #{game_id}"
                self._db.execute("UPDATE games SET name = ? WHERE id = ?", (name, game_id))
            self._db.execute(
                "INSERT INTO events (game_id, seq, kind, data, at) VALUES (?, 1, 'setup', ?, ?)",
                (game_id, payload, at))
            self._commit()
        except BaseException:
            self._rollback()
            raise
        return SavedGame(game_id, game, name, at)

    def append(self, game_id: int, kind: str, data: dict[str, Any]) -> Event:
        """Append one event to a game's log, in one transaction."""
        if kind == "setup":
            raise InputError("a game has one setup event, written when it is created")
        payload = self._dump(data)
        at = _now()
        self._begin()
        try:
            self._require(game_id)
            row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?",
                                   (game_id,)).fetchone()
            seq = int(row[0]) + 1
            self._db.execute(
                "INSERT INTO events (game_id, seq, kind, data, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, kind, payload, at))
            self._touch(game_id, at)
            self._commit()
        except BaseException:
            self._rollback()
            raise
        return Event(seq, kind, json.loads(payload), at)

    def events(self, game_id: int) -> list[Event]:
        """The game's log, oldest first."""
        self._require(game_id)
        rows = self._db.execute(
            "SELECT seq, kind, data, at FROM events WHERE game_id = ? ORDER BY seq",
            (game_id,)).fetchall()
        return [Event(int(s), str(k), self._load(game_id, s, d), str(a))
                for s, k, d, a in rows]

    def undo(self, game_id: int) -> Event | None:
        """Drop the game's last event and return it; None if only ``setup`` is left."""
        self._begin()
        try:
            self._require(game_id)
            row = self._db.execute(
                "SELECT seq, kind, data, at FROM events WHERE game_id = ? "
                "ORDER BY seq DESC LIMIT 1", (game_id,)).fetchone()
            if row is None or row[1] == "setup":
                self._rollback()
                return None
            self._db.execute("DELETE FROM events WHERE game_id = ? AND seq = ?",
                             (game_id, row[0]))
            self._touch(game_id, _now())
            self._commit()
        except BaseException:
            self._rollback()
            raise
        try:  # an unreadable event is just what undo is for: drop it all the same
            dropped = self._load(game_id, row[0], row[2])
        except InputError:
            dropped = {"unreadable": str(row[2])[:60]}
        return Event(int(row[0]), str(row[1]), dropped, str(row[3]))

    def latest(self, game: str | None = None) -> SavedGame | None:
        """The most recently touched saved game (of that game, if named)."""
        if not self._ready:
            return None
        sql = "SELECT id, game, name, created FROM games"
        args: tuple[Any, ...] = ()
        if game is not None:
            sql += " WHERE game = ?"
            args = (game,)
        row = self._db.execute(sql + " ORDER BY touched DESC, id DESC LIMIT 1", args).fetchone()
        return SavedGame(int(row[0]), row[1], row[2], row[3]) if row else None

    def get(self, game_id: int) -> SavedGame:
        """The saved game numbered ``game_id``; InputError if there is none."""
        if not 0 < game_id <= MAX_GAME_ID or not self._ready:
            raise InputError(f"there is no saved game {str(game_id)[:30]} in {self.path}")
        row = self._db.execute("SELECT id, game, name, created FROM games WHERE id = ?",
                               (game_id,)).fetchone()
        if row is None:
            raise InputError(f"there is no saved game {game_id} in {self.path}")
        return SavedGame(int(row[0]), row[1], row[2], row[3])

    def games(self) -> list[SavedGame]:
        """Every saved game, oldest first."""
        if not self._ready:
            return []
        rows = self._db.execute("SELECT id, game, name, created FROM games ORDER BY id").fetchall()
        return [SavedGame(int(i), g, n, c) for i, g, n, c in rows]

    def _require(self, game_id: int) -> None:
        if not 0 < game_id <= MAX_GAME_ID or not self._ready:
            raise InputError(f"there is no saved game {str(game_id)[:30]} in {self.path}")
        if self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise InputError(f"there is no saved game {game_id} in {self.path}")


# -- folds ------------------------------------------------------------------------------------

Fold = Callable[[list[Event]], dict[str, Any]]


# what a fold or a describe raises on a state it cannot read (an event edited by hand)
_UNREADABLE = (KeyError, IndexError, TypeError, ValueError, AttributeError, ArithmeticError,
               RecursionError)


def state_of(store: Store, game: SavedGame) -> dict[str, Any]:
    """The current state of a saved game: its companion's fold of its events.

    A log the fold cannot replay (an event edited by hand, from another version) is an
    InputError naming the game and the way back, never a traceback."""
    from companion.games import entry

    fold = entry(game.game).fold
    events = store.events(game.id)
    with readable(store.path, game):
        return fold(events)


@contextmanager
def readable(path: Path, game: SavedGame) -> Iterator[None]:
    """Around what reads a saved game's state (its fold, its next step, a step's check): a
    state its game cannot read, as an event edited by hand or a damaged file leaves, is one
    InputError naming the game, the file and the way back, never a traceback."""
    try:
        yield
    except _UNREADABLE as exc:
        raise InputError(f"saved game {game.id} in {path} cannot be replayed: an event "
                         f"holds what its game does not expect ({type(exc).__name__}: "
                         f"{str(exc)[:60]}); was the file edited by hand? 'irata play undo "
                         f"--game {game.id}' drops the last event") from None


def fold_of(game: str) -> Fold:
    """The game's fold (declared in ``companion.games``)."""
    from companion.games import entry

    return entry(game).fold


def describe_of(game: str, state: dict[str, Any]) -> str:
    """A person's summary of a state, by the game's own describe (a state it cannot read, as
    a hand-edited log leaves, is an InputError)."""
    from companion.games import entry

    describe = entry(game).describe
    try:
        return describe(state)
    except _UNREADABLE as exc:
        raise InputError(f"the saved {game} game holds what its game does not expect "
                         f"({type(exc).__name__}: {str(exc)[:60]}); 'irata play undo' drops "
                         "the last event") from None


def check_set(store: Store, game: SavedGame, data: dict[str, Any]) -> dict[str, Any]:
    """The state after a ``set`` of ``data`` ({"path": ..., "value": ...}), refused with an
    InputError unless the game can replay and describe it: ``set`` never saves a value that
    breaks the commands after it (a list of the wrong things, a square that is not on the
    track, a price off its Price Track)."""
    from companion.games import entry

    path = str(data.get("path", ""))
    shown = json.dumps(data.get("value"))[:40]
    events = store.events(game.id)
    trial = Event(len(events) + 1, "set", data, "")
    try:
        state = entry(game.game).fold([*events, trial])
        # the rules first: a value they forbid is refused with their reason, not as unreadable
        validate = getattr(importlib.import_module(entry(game.game).saved), "validate", None)
        if validate is not None:
            validate(state)
        entry(game.game).describe(state)
    except IrataError as exc:
        raise InputError(f"'{path}' cannot be {shown}: {exc}") from None
    except _UNREADABLE as exc:
        raise InputError(f"'{path}' cannot be {shown}: the game does not read such a value "
                         f"there ({type(exc).__name__})") from None
    return state


def fold_with(events: list[Event],
              step: Callable[[dict[str, Any], Event], dict[str, Any]]) -> dict[str, Any]:
    """Fold a log: the ``setup`` data is the first state, ``set`` events go to apply_set,
    every other event to ``step(state, event)`` (which returns the next state)."""
    state: dict[str, Any] = {}
    for event in events:
        if event.kind == "setup":
            state = json.loads(json.dumps(event.data))
        elif event.kind == "set":
            state = apply_set(state, event.data)
        else:
            state = step(state, event)
    return state


def fold_typed(events: list[Event], from_json: Callable[[dict[str, Any]], S],
               to_json: Callable[[S], dict[str, Any]],
               apply: Callable[[S, str, dict[str, Any]], S]) -> dict[str, Any]:
    """Fold a log on a game's typed State: the ``setup`` data read once (``from_json``), every
    other event to ``apply(state, kind, data)``, ``set`` events on the JSON form (apply_set,
    then read again), the JSON form written once at the end (``to_json``)."""
    s: S | None = None
    raw: dict[str, Any] = {}
    for event in events:
        if event.kind == "setup":
            s = from_json(event.data)
        elif event.kind == "set":
            raw = apply_set(to_json(s) if s is not None else raw, event.data)
            s = from_json(raw) if raw else None
        elif s is not None:
            s = apply(s, event.kind, event.data)
    return to_json(s) if s is not None else raw


NAMED_BY = ("tile", "code", "id", "name", "square")


def list_position(node: list[Any], part: str, path: str) -> int:
    """An item of a list named as the table names it: its position (0 first), or the tile,
    code, id, name or square it holds (``players.Bob.lands.P03``)."""
    try:
        return int(part)
    except ValueError:
        pass
    want = part.strip().lower()
    for i, item in enumerate(node):
        if isinstance(item, dict) and any(str(item.get(k) or "").lower() == want
                                          for k in NAMED_BY):
            return i
    names = [str(next((item[k] for k in NAMED_BY if isinstance(item, dict) and item.get(k)),
                      i)) for i, item in enumerate(node)]
    raise InputError(f"'{path}': nothing named '{part}' there (it holds: "
                     f"{', '.join(names) or 'nothing'})")


def _walk_key(node: Any, part: str, path: str) -> Any:
    if isinstance(node, list):
        return list_position(node, part, path)
    if isinstance(node, dict):
        return part
    raise InputError(f"'{path}': there is nothing to set inside a number or a text")


MAX_SET_TEXT = 200  # characters of a text set in a saved game
MAX_SAVED_TEXT = 10_000  # characters of any text in a saved event


def _settable(path: str, old: Any, value: Any) -> Any:
    """``value`` as the state can hold it where ``old`` is, or InputError: one plain value or
    a list of them where a list is kept (never a mapping), a finite number within MAX_AMOUNT,
    a whole number where one is kept."""
    if isinstance(value, dict) or isinstance(old, dict):
        raise InputError(f"'{path}': set corrects one value (or a list of them), never a "
                         f"whole group; set one of its values ('{path}.NAME')")
    if isinstance(value, list) or isinstance(old, list):
        if not (isinstance(value, list) and isinstance(old, list | None)):
            raise InputError(f"'{path}' holds a list, so it takes a list such as "
                             "'[\"a\", \"b\"]'" if isinstance(old, list) else
                             f"'{path}' holds one value, not a list")
        if len(value) > 1000:
            raise InputError(f"'{path}': a list of at most 1000 values")
        like = old[0] if old else None
        return [_item(path, like, v) for v in value]
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InputError(f"'{path}': {value} is not a number a game can hold")
        if isinstance(old, int) and not isinstance(old, bool):
            if not value.is_integer():
                raise InputError(f"'{path}' holds a whole number, not {value}")
            value = int(value)
    if isinstance(value, int | float) and not isinstance(value, bool) \
            and abs(value) > MAX_AMOUNT:
        raise InputError(f"'{path}': {str(value)[:20]} is out of range (at most {MAX_AMOUNT})")
    if isinstance(value, str) and len(value) > MAX_SET_TEXT:
        raise InputError(f"'{path}': a text of at most {MAX_SET_TEXT} characters")
    return value


def _item(path: str, like: Any, value: Any, depth: int = 0) -> Any:
    """One item of a list being set: shaped like the list's items now (``like``)."""
    if depth > 4:
        raise InputError(f"'{path}': values nested too deeply")
    if isinstance(like, dict) or isinstance(value, dict):
        if not (isinstance(like, dict | None) and isinstance(value, dict)) or (
                like is not None and set(value) != set(like)):
            keys = ", ".join(like) if isinstance(like, dict) else ""
            raise InputError(f"'{path}': each item must be like the others"
                             + (f" (with {keys})" if keys else ""))
        return {str(k)[:100]: _item(path, like.get(k) if like else None, v, depth + 1)
                for k, v in value.items()}
    if isinstance(value, list):
        if len(value) > 1000:
            raise InputError(f"'{path}': a list of at most 1000 values")
        inner = like[0] if isinstance(like, list) and like else None
        return [_item(path, inner, v, depth + 1) for v in value]
    return _settable(path, like if not isinstance(like, list) else None, value)


def value_at(state: dict[str, Any], path: str) -> Any:
    """The value at the dotted ``path`` of ``state`` as ``set`` names it (list items by
    position or by name), or None if there is none."""
    node: Any = state
    for part in (p for p in path.split(".") if p):
        try:
            key = _walk_key(node, part, path)
            node = node[key]
        except (InputError, LookupError, TypeError):
            return None
    return node


def apply_set(state: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """Set ``data["value"]`` at the dotted ``data["path"]`` ("players.Ann.food") in place and
    return the state. Missing dict levels are created; a list position must exist. A value the
    state could not hold (see ``_settable``) is refused with InputError."""
    path = str(data.get("path", ""))
    parts = [p for p in path.split(".") if p]
    if not parts:
        raise InputError("set needs a path such as players.Ann.food")
    if len(parts) > 20 or len(path) > 500:
        raise InputError("set: the path is too long")
    node: Any = state
    for i, part in enumerate(parts):
        key = _walk_key(node, part, path)
        last = i == len(parts) - 1
        if isinstance(node, list):
            if not -len(node) <= key < len(node):
                raise InputError(f"'{path}': position {key} is not in the list")
            if last:
                node[key] = _settable(path, node[key], data.get("value"))
            else:
                node = node[key]
        else:
            if last:
                node[key] = _settable(path, node.get(key), data.get("value"))
            else:
                if key not in node:
                    node[key] = {}
                elif not isinstance(node[key], dict | list):
                    raise InputError(f"'{path}': '{part}' holds a value, not a group of them")
                node = node[key]
    return state


# -- files named at the table -------------------------------------------------------------------

def export_paths(out: str) -> tuple[Path, Path]:
    """``export --out FILE``: the JSON's path and the CSV's beside it (FILE with .csv), or an
    InputError: no name, a folder that is not there, a name too long, or a FILE that the CSV
    would overwrite."""
    if not out.strip():
        raise InputError("--out needs a file name, such as game.json")
    target = Path(out)
    if len(target.name) > 250 or len(out) > 4000:
        raise InputError(f"--out: the file name is too long ({len(target.name)} characters; "
                         "at most 250)")
    if not target.parent.is_dir():
        raise InputError(f"--out {out}: there is no folder {target.parent}; create it first")
    if target.is_dir():
        raise InputError(f"--out {out} is a folder; name a file in it, such as "
                         f"{target / 'game.json'}")
    csv_path = target.with_suffix(".csv")
    if csv_path == target:
        raise InputError(f"--out {out}: that is where the CSV goes; name the JSON file, such as "
                         f"{target.with_suffix('.json')}")
    return target, csv_path
