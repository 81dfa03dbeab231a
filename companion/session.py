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

import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from components.errors import InputError

if TYPE_CHECKING:
    import sqlite3

__all__ = ["Event", "SavedGame", "Store", "apply_set", "default_db_path", "describe_of",
           "fold_of", "fold_with", "parse_amount", "state_of"]

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


@dataclass(frozen=True)
class Event:
    """One entry of a game's log: its place (``seq``), its kind, its data, and when."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: str


@dataclass(frozen=True)
class SavedGame:
    """A saved game: its number, which game it is (``mule``), its name, when it began."""

    id: int
    game: str
    name: str
    created: str


class Store:
    """The SQLite file holding every saved game (created with its tables on first use)."""

    def __init__(self, path: Path | None = None) -> None:
        import sqlite3  # here, not at the top: calculators never pay for it

        self.path = Path(path) if path is not None else default_db_path()
        self._depth = 0  # how many transaction() blocks are open
        self._db: sqlite3.Connection
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # autocommit mode: every transaction below is opened and closed explicitly
            self._db = sqlite3.connect(str(self.path), isolation_level=None, timeout=30)
        except (OSError, sqlite3.Error) as exc:
            raise InputError(f"cannot open the games file {self.path}: {exc}") from exc
        try:
            self._db.execute("PRAGMA foreign_keys = ON")
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise InputError(f"{self.path} is not an irata games file: {exc}") from exc

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

    def _commit(self) -> None:
        if self._depth == 0:
            self._db.execute("COMMIT")

    def _rollback(self) -> None:
        if self._depth == 0 and self._db.in_transaction:
            self._db.execute("ROLLBACK")

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
        self._depth += 1
        try:
            yield self
        except BaseException:
            self._depth -= 1
            if self._depth == 0 and self._db.in_transaction:
                self._db.execute("ROLLBACK")
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
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

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
        return [Event(int(s), str(k), json.loads(d), str(a)) for s, k, d, a in rows]

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
        return Event(int(row[0]), str(row[1]), json.loads(row[2]), str(row[3]))

    def latest(self, game: str | None = None) -> SavedGame | None:
        """The most recently touched saved game (of that game, if named)."""
        sql = "SELECT id, game, name, created FROM games"
        args: tuple[Any, ...] = ()
        if game is not None:
            sql += " WHERE game = ?"
            args = (game,)
        row = self._db.execute(sql + " ORDER BY touched DESC, id DESC LIMIT 1", args).fetchone()
        return SavedGame(int(row[0]), row[1], row[2], row[3]) if row else None

    def get(self, game_id: int) -> SavedGame:
        """The saved game numbered ``game_id``; InputError if there is none."""
        row = self._db.execute("SELECT id, game, name, created FROM games WHERE id = ?",
                               (game_id,)).fetchone()
        if row is None:
            raise InputError(f"there is no saved game {game_id} in {self.path}")
        return SavedGame(int(row[0]), row[1], row[2], row[3])

    def games(self) -> list[SavedGame]:
        """Every saved game, oldest first."""
        rows = self._db.execute("SELECT id, game, name, created FROM games ORDER BY id").fetchall()
        return [SavedGame(int(i), g, n, c) for i, g, n, c in rows]

    def _require(self, game_id: int) -> None:
        if self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise InputError(f"there is no saved game {game_id} in {self.path}")


# -- folds ------------------------------------------------------------------------------------

Fold = Callable[[list[Event]], dict[str, Any]]


def state_of(store: Store, game: SavedGame) -> dict[str, Any]:
    """The current state of a saved game: its companion's fold of its events."""
    from companion.games import entry

    return entry(game.game).fold(store.events(game.id))


def fold_of(game: str) -> Fold:
    """The game's fold (declared in ``companion.games``)."""
    from companion.games import entry

    return entry(game).fold


def describe_of(game: str, state: dict[str, Any]) -> str:
    """A person's summary of a state, by the game's own describe."""
    from companion.games import entry

    return entry(game).describe(state)


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


def apply_set(state: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """Set ``data["value"]`` at the dotted ``data["path"]`` ("players.Ann.food") in place and
    return the state. Missing dict levels are created; a list position must exist."""
    path = str(data.get("path", ""))
    parts = [p for p in path.split(".") if p]
    if not parts:
        raise InputError("set needs a path such as players.Ann.food")
    node: Any = state
    for i, part in enumerate(parts):
        key = _walk_key(node, part, path)
        last = i == len(parts) - 1
        if isinstance(node, list):
            if not -len(node) <= key < len(node):
                raise InputError(f"'{path}': position {key} is not in the list")
            if last:
                node[key] = data.get("value")
            else:
                node = node[key]
        else:
            if last:
                node[key] = data.get("value")
            else:
                if key not in node:
                    node[key] = {}
                elif not isinstance(node[key], dict | list):
                    raise InputError(f"'{path}': '{part}' holds a value, not a group of them")
                node = node[key]
    return state


# -- numbers typed at the table -----------------------------------------------------------------

def parse_amount(text: str | int, what: str = "a number") -> int:
    """A whole number as a person types it; a sum or difference (``3+6+2``, ``30-8``) too,
    as good score pads allow. InputError, naming ``what``, for anything else."""
    if isinstance(text, int):
        return text
    raw = str(text).replace(" ", "").removeprefix("$")
    if not _SUM.fullmatch(raw):
        raise InputError(f"{what}: '{text}' is not a number (a sum such as 3+6+2 is fine)")
    return sum(int(term) for term in _TERM.findall(raw))


_SUM = re.compile(r"[+-]?\d+(?:[+-]\d+)*")
_TERM = re.compile(r"[+-]?\d+")
