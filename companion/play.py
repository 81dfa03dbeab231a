"""Playing a declared game: the moves a game declares, and one entry at the table played into
its saved game, generically.

A game declares (see :class:`Declaration`) its typed, frozen State and the pair that keeps it
as JSON in the saved game (:meth:`~Declaration.from_json`, :meth:`~Declaration.to_json`: a
game saved by an earlier version reads with the defaults of what it lacks), what comes now
(:meth:`~Declaration.now`), the moves its table types (:class:`MoveSpec`, from which the
command line builds its commands and the table view its forms), how a move becomes an event of
the log (:meth:`~Declaration.apply`, a pure function of the State that raises the rule's
refusal), which step has nothing to decide (:meth:`~Declaration.auto`) and the end
(:meth:`~Declaration.end`: why the game is over, which :func:`over` and :func:`going_on` say
for every face). The faces hold the JSON form (:func:`now_of` reads it); :func:`play` runs on
the State.

:func:`play` takes a table's entries (one or several :class:`Move` values) into a saved game in
one ``BEGIN IMMEDIATE`` transaction: the state is read, each move applied (a refusal rolls back
all of them: a refused entry changes nothing), each event appended, and after each the steps
that run themselves are taken and logged too (``"auto"`` in their data: the move, why), so the table
sees them in ``log`` and ``next`` and ``undo`` takes one back with the entry before it.

The values are named tuples: immutable, and far cheaper to define than dataclasses on every
command's start. Anchor: boardgame.io's game object (moves as pure functions of the state; the
log is the truth, undo drops its end).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from companion.moves import MoveSpec, Param
from companion.record import NamedTuple
from components.errors import InputError, RuleError

if TYPE_CHECKING:
    from companion.session import Event, SavedGame, Store

__all__ = ["MAX_AUTO", "auto_move", "Declaration", "Move", "MoveSpec", "Now", "Outcome", "Param",
           "Played", "RanItself", "declaration", "entry_events", "going_on", "now_of",
           "over", "play", "ran_themselves", "refusal"]

S = TypeVar("S")
"""A game's State (its declaration's)."""

MAX_AUTO = 400  # steps that run themselves after one entry: a whole Turn's are far fewer


class Move(NamedTuple):
    """One entry of the table, as a value: which move (``kind``, a MoveSpec's), by or for
    whom, and what was typed for it (``given``: answer key -> text)."""

    kind: str
    who: str | None = None
    given: tuple[tuple[str, str], ...] = ()
    why: str = ""   # a move that runs itself: why there is nothing to decide

    @staticmethod
    def of(kind: str, who: str | None = None, given: Mapping[str, str] | None = None,
           why: str = "") -> Move:
        return Move(kind, who, tuple(sorted((given or {}).items())), why)

    @property
    def answers(self) -> dict[str, str]:
        return dict(self.given)


class Now(NamedTuple):
    """What the table does now: the move expected (its kind), for whom, said as a person
    reads it, and the command that records it; ``auto`` when it runs itself.

    ``kinds`` names every move ``who`` may make now when there are several (a company's
    turn of Outer Earth: draw, build, sell, or done; a Mutagen round's gains and payments
    before its End of Round), ``kind`` first; empty when ``kind`` is the only one.
    :attr:`possible` gives them either way; a guided walk asks which one is typed."""

    turn: int | None
    kind: str
    who: str | None
    text: str
    command: str
    auto: bool = False
    kinds: tuple[str, ...] = ()

    @property
    def possible(self) -> tuple[str, ...]:
        """The kinds of move possible now (``kind`` first)."""
        return self.kinds or (self.kind,)

    def as_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "step": self.kind, "who": self.who, "text": self.text,
                "command": self.command, "auto": self.auto, "steps": list(self.possible)}


class Outcome(NamedTuple, Generic[S]):
    """A move applied: the event to append (its kind and data), the lines the table reads,
    and the State after it (the game's fold of the log with this event appended)."""

    kind: str
    data: dict[str, Any]
    lines: tuple[str, ...]
    state: S
    detail: Any = None   # the rule function's own result, for a face to show (not saved)


class Played(NamedTuple):
    """An event a move appended to the saved game, with its lines; ``auto`` when the step ran
    itself."""

    event: Event
    move: Move
    lines: tuple[str, ...]
    auto: bool = False
    said: str = ""   # the step as the table reads it (``Now.text``)
    detail: Any = None   # the Outcome's detail


class Declaration(Protocol[S]):
    """What a game declares so that any face (the command line, the guided ``turn``, the table
    view) plays it the same way, holding no rule of its own: see the module's docstring."""

    name: str
    moves: tuple[MoveSpec, ...]

    def from_json(self, data: Mapping[str, Any]) -> S:
        """The State a saved game's JSON form holds (what it lacks read with its default)."""

    def to_json(self, state: S) -> dict[str, Any]:
        """The State as the saved game keeps it (``from_json`` reads it back)."""

    def now(self, state: S) -> Now | None:
        """What the table does now; None once the game is over."""

    def apply(self, state: S, move: Move) -> Outcome[S]:
        """The move played on ``state`` (a frozen value): its event and the State after it.
        Raises the rule's ``RuleError`` (or ``InputError`` for what cannot be read) when the
        rules or the state forbid it."""

    def auto(self, state: S) -> Move | None:
        """The move of the step that comes now when it has nothing to decide (it runs
        itself); None when the table must answer."""

    def end(self, state: S) -> str | None:
        """Why the game is over, as the table reads it (the rule that ended it); None while
        it goes on."""


def auto_move(now: Now | None, why: Mapping[str, str]) -> Move | None:
    """The move of the step that comes now when it runs itself (``now.auto``), carrying why it
    has nothing to decide (``why``: step kind -> the reason); None when the table answers."""
    if now is None or not now.auto:
        return None
    return Move.of(now.kind, why=why[now.kind])


def refusal(game: Declaration[S], state: S, move: Move) -> str | None:
    """``check(state, move)``: the rule's reason a move is refused, or None when it is
    accepted. Pure: ``state`` is a frozen value."""
    try:
        game.apply(state, move)
    except (InputError, RuleError) as exc:
        return str(exc)
    return None


def over(game: Declaration[S], state: S) -> str:
    """The refusal of any move once the game is over: the game's own reason."""
    return f"{game.end(state) or 'this game is over'}: nothing more is played in it"


def going_on(game: Declaration[S], state: S) -> Now:
    """What the table does now; once the game is over, ``RuleError`` saying why."""
    now = game.now(state)
    if now is None:
        raise RuleError(over(game, state))
    return now


def now_of(game: Declaration[Any], data: Mapping[str, Any]) -> Now | None:
    """What comes now in a saved game's JSON form (as the faces hold it)."""
    return game.now(game.from_json(data))


def declaration(game: str) -> Declaration[Any] | None:
    """The declaration of a game of the registry (None for a game that has none)."""
    from companion.games import entry

    where = entry(game).declared
    if not where:
        return None
    module, attr = where.split(":")
    decl: Declaration[Any] = getattr(importlib.import_module(module), attr)
    return decl


class _Run(Generic[S]):
    """One call of :func:`play`: the State so far, what was appended, what ran itself since
    the last entry, and notes for the table."""

    def __init__(self, store: Store, saved: SavedGame, game: Declaration[S],
                 state: S, ran: list[Move]) -> None:
        self.store, self.saved, self.game, self.state = store, saved, game, state
        self.played: list[Played] = []
        self.ran = ran
        self.notes: list[str] = []
        self.part: list[int] | None = None  # [i, n]: the i-th move of an entry of n

    def append(self, move: Move, auto: bool) -> None:
        now = self.game.now(self.state)
        outcome = self.game.apply(self.state, move)   # the game's own refusal once it is over
        if now is None:
            raise RuleError(over(self.game, self.state))
        data = {**outcome.data, "auto": {"move": move.kind, "who": move.who,
                                         "given": move.answers, "why": move.why}} \
            if auto else outcome.data
        if not auto and self.part is not None:
            data = {**data, "entry": self.part}   # undo takes the whole entry back
        event = self.store.append(self.saved.id, outcome.kind, data)
        self.state = outcome.state
        self.played.append(Played(event, move, outcome.lines, auto, now.text,
                                  outcome.detail))
        self.ran = [*self.ran, move] if auto else []

    def typed(self, move: Move) -> None:
        """An entry typed at the table. One for a step that has just run itself (the table
        typing ``usage`` out of habit) changes nothing and says so."""
        over = self.game.now(self.state) is None
        try:
            self.append(move, auto=False)
        except RuleError:
            if over:
                raise
            if any(_same_move(done, move) for done in self.ran):
                self.notes.append(f"'{move.kind}' ran itself already: nothing more to record")
                return
            ran = next((done for done in self.ran if _same_step(done, move)), None)
            if ran is None:
                raise
            who = f" {ran.who}" if ran.who else ""
            raise RuleError(f"{ran.why or 'there was nothing to decide in it'}: so "
                            f"'{ran.kind}{who}' ran itself, and what was typed for it is not "
                            "taken") from None

    def autos(self, until: Move | None = None) -> None:
        """Take the steps that run themselves, up to the one ``until`` names (the entry
        typed for it is played as typed)."""
        for _ in range(MAX_AUTO):
            move = self.game.auto(self.state)
            if move is None or (until is not None and _same_step(move, until)):
                return
            self.append(move, auto=True)
        raise RuleError(f"more than {MAX_AUTO} steps ran themselves after one entry: the "
                        "game cannot go on by itself; nothing was saved")


def play(store: Store, saved: SavedGame, game: Declaration[S], moves: Sequence[Move]
         ) -> tuple[list[Played], dict[str, Any], list[str]]:
    """Play ``moves`` into the saved game, in order, in one transaction: before each move the
    steps that run themselves up to it (a game saved before they ran themselves, or a Colonist
    in between who must Pass), the move, and after the last the steps that run themselves
    after it, all on the game's State. Returns what was appended, the state after it (its
    JSON form, as the faces read it) and notes for the table (an entry for a step that had
    just run itself changes nothing and is noted). A move refused (any exception) rolls back
    every one of them: the saved game is as it was."""
    from companion.session import readable, state_of

    # a state its game cannot read (an event edited by hand) is one line, never a traceback
    with store.transaction(), readable(store.path, saved):
        events = store.events(saved.id)
        run = _Run(store, saved, game, game.from_json(state_of(store, saved)),
                   ran=_ran_itself(events))
        for i, move in enumerate(moves):
            run.part = [i + 1, len(moves)] if len(moves) > 1 else None
            try:
                run.autos(until=move)
                run.typed(move)
            except (InputError, RuleError) as exc:
                if len(moves) == 1:
                    raise
                who = f" {move.who}" if move.who else ""
                raise type(exc)(f"{move.kind}{who} (entry {i + 1} of {len(moves)}): {exc}; "
                                "nothing was saved") from None
        run.autos()
        return run.played, game.to_json(run.state), run.notes


class RanItself(NamedTuple):
    """A step that ran itself, as the saved game holds it: its event's place in the log and
    the move it made (with why there was nothing to decide)."""

    event: int
    move: Move

    def as_dict(self) -> dict[str, Any]:
        return {"event": self.event, "step": self.move.kind, "who": self.move.who,
                "why": self.move.why}

    @property
    def text(self) -> str:
        who = f" {self.move.who}" if self.move.who else ""
        return f"event {self.event}, {self.move.kind}{who}: {self.move.why or 'nothing to decide'}"


def ran_themselves(events: Sequence[Event]) -> list[RanItself]:
    """The steps that ran themselves after the last entry typed (``undo`` takes them back with
    it), oldest first; for every game alike (each such event is marked ``auto``)."""
    out: list[RanItself] = []
    for event in reversed(events):
        auto = event.data.get("auto")
        if event.kind == "setup" or not isinstance(auto, dict):
            break
        raw = auto.get("given")
        given: dict[Any, Any] = raw if isinstance(raw, dict) else {}
        who = auto.get("who")
        out.insert(0, RanItself(event.seq, Move.of(
            str(auto.get("move")), None if who is None else str(who),
            {str(k): str(v) for k, v in given.items()}, str(auto.get("why") or ""))))
    return out


def _ran_itself(events: Sequence[Event]) -> list[Move]:
    """The moves of the steps that ran themselves after the last entry typed, oldest first."""
    return [ran.move for ran in ran_themselves(events)]


def _same_step(auto: Move, typed: Move) -> bool:
    return auto.kind == typed.kind and (
        typed.who is None or str(auto.who).lower() == typed.who.strip().lower())


def _same_move(auto: Move, typed: Move) -> bool:
    """The entry typed says what the step that ran itself did (nothing more)."""
    done = auto.answers
    return _same_step(auto, typed) and all(
        not text.strip() or done.get(key, "").strip().lower() == text.strip().lower()
        for key, text in typed.given)


def entry_events(events: Sequence[Event]) -> int:
    """How many events at the end of the log ``undo`` takes back: the last entry the table
    typed (every move of it, when several were typed at once: ``shards Ann=1 Bob=-1``, its
    events marked ``entry: [i, n]``) and the steps that ran themselves after and between
    them (which would only run again). 0 when nothing but the set-up (and steps that ran
    themselves after it) is left."""
    count = 0
    for event in reversed(events):
        if event.kind == "setup":
            return 0
        count += 1
        if event.data.get("auto"):
            continue
        part = event.data.get("entry")
        later = (isinstance(part, list) and len(part) == 2 and isinstance(part[0], int)
                 and not isinstance(part[0], bool) and part[0] > 1)
        if not later:
            return count
    return 0
