"""The commands of a declared game (``companion.play.Declaration``), generated from its moves:
one command per move, with the same options everywhere (``--game``, ``--db``, ``--json``), and
``next``. A command parses what was typed into :class:`~companion.play.Move` values and hands
them to :func:`companion.play.play`; it holds no rule.

What is typed, the same way for every move:

- the move's name, then whom it is for (a player's name, or a Good), then its words;
- a move that takes several players at once (``batch``): ``NAME=WORDS`` for each
  (``grant Ann=P07@B2 Bob=none``; quote words with spaces: ``develop Ann="buy P07 F, assay"``);
- an option of ``NAME=VALUE`` pairs, repeatable and comma-separated alike:
  ``--sell Ann=1,Bob=2`` is ``--sell Ann=1 --sell Bob=2``; a value that is itself a list keeps
  its commas (``--flip Ann=P07,R01,Bob=P08``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

import click

from companion import entry
from components.errors import InputError
from irata.options import DB, GAME, JSON, emit, open_store, pick

if TYPE_CHECKING:
    from companion.moves import MoveSpec
    from companion.play import Declaration, Move, Played

__all__ = ["add_moves", "pairs", "show_next"]


# the reading of an entry lives in the companion, shared with the table view's forms
pair_list = entry.pair_list
pairs = entry.pairs
_option_answers = entry.option_answers
_moves = entry.moves_of


def _report(game: str, saved_id: int, played: list[Played], notes: list[str],
            state: dict[str, Any], decl: Declaration, as_json: bool) -> None:
    typed = [p for p in played if not p.auto]
    last = typed[-1] if typed else None
    now = decl.now(state)
    nxt = now.as_dict() if now else None
    lines: list[str] = []
    for p in played:
        if p.auto:
            lines.append(f"(ran itself) {p.said or _said(p)}")
            lines.extend(f"  {line}" for line in p.lines)
        else:
            lines.extend(p.lines)
    lines.extend(notes)
    data = last.event.data if last else {}
    emit(as_json, {"id": saved_id, "event": last.event.seq if last else None,
                   "turn": data.get("turn"), "step": data.get("step", last.move.kind
                                                           if last else None),
                   "who": data.get("who"), "lines": [x for p in typed for x in p.lines],
                   "ran_itself": [{"event": p.event.seq, "step": p.move.kind, "who": p.move.who,
                                   "lines": list(p.lines)} for p in played if p.auto],
                   "notes": notes, "next": nxt},
         [*lines, f"Saved. Now: {nxt['text']}\n  {nxt['command']}" if nxt
          else "Saved. The game is over."])


def _said(p: Played) -> str:
    who = f" {p.move.who}" if p.move.who else ""
    return f"{p.move.kind}{who}"


def _run(game: str, title: str, start: str, spec: MoveSpec, db: str | None,
         game_id: int | None, as_json: bool, kwargs: dict[str, Any]) -> None:
    from companion.play import declaration, play

    decl = declaration(game)
    assert decl is not None
    moves = _moves(spec, kwargs)
    with open_store(db) as store:
        saved = pick(store, game_id, game, title, start)
        played, state, notes = play(store, saved, decl, moves)
    _report(game, saved.id, played, notes, state, decl, as_json)


def _command(group: click.Group, game: str, title: str, start: str, spec: MoveSpec,
             signed: bool = False) -> click.Command:
    def callback(game_id: int | None, db: str | None, as_json: bool, **kwargs: Any) -> None:
        _run(game, title, start, spec, db, game_id, as_json, kwargs)

    fn: Callable[..., None] = callback
    for param in reversed(spec.params):
        if param.option is not None:
            many = param.pairs or param.many or param.once
            fn = click.option(param.option, param.key, multiple=many, help=param.help)(fn)
    if any(p.option is None for p in spec.params):
        fn = click.argument("words", nargs=-1)(fn)
    if spec.who in ("player", "good"):
        fn = click.argument("who", metavar="NAME" if spec.who == "player" else "GOOD")(fn)
    for option in (JSON, DB, GAME):
        fn = option(fn)
    text = f"{spec.help}\n\nirata play {game} next says which step comes now."
    # a signed move's words may be negative numbers (points Bob -3), never taken for options
    settings = {"ignore_unknown_options": True} if signed else {}
    return group.command(spec.command, help=text, short_help=spec.summary,
                         context_settings=settings)(fn)


def add_moves(group: click.Group, game: str, title: str, start: str,
              moves: tuple[MoveSpec, ...], signed: tuple[str, ...] = ()) -> None:
    """Add a command for each declared move, and ``next``, to a game's command group.
    ``signed`` names the moves whose words may be negative numbers (``points Bob -3``)."""
    for spec in moves:
        _command(group, game, title, start, spec, spec.kind in signed)

    @group.command("next")
    @GAME
    @DB
    @JSON
    def next_cmd(game_id: int | None, db: str | None, as_json: bool) -> None:
        """Which step comes now, for whom, and the command that records it."""
        show_next(game, title, start, db, game_id, as_json)


def show_next(game: str, title: str, start: str, db: str | None, game_id: int | None,
              as_json: bool) -> None:
    """What the table does now in a saved declared game, and the command that records it."""
    from companion import session
    from companion.play import declaration

    decl = declaration(game)
    assert decl is not None
    with open_store(db) as store:
        saved = pick(store, game_id, game, title, start)
        state = session.state_of(store, saved)
        with session.readable(store.path, saved):
            now = decl.now(state)
    nxt = now.as_dict() if now else None
    auto = " (it runs itself with the next entry)" if now and now.auto else ""
    emit(as_json, {"id": saved.id, "next": nxt},
         [f"Game {saved.id}, Turn {now.turn}: {now.text}{auto}", f"  {now.command}"]
         if now else f"Game {saved.id} is over.")


# -- the guided walk ---------------------------------------------------------------------------

def add_turn(group: click.Group, game: str, title: str, start: str,
             moves: tuple[MoveSpec, ...]) -> None:
    """Add ``turn`` to a declared game's group: the guided walk over the moves possible now."""

    @group.command("turn")
    @GAME
    @DB
    def turn_cmd(game_id: int | None, db: str | None) -> None:
        """The guided walk over one turn: each move that comes now is asked, what it takes
        typed at its prompt (blank: not given), and saved as soon as it is answered; steps with
        nothing to decide run themselves. A refused entry says why and is asked again (the
        same refused answers three times end it, exit 2, the moves before it kept); Ctrl-C
        (exit 130) or the end of the input (exit 2) loses only the move in progress."""
        walk(game, title, start, moves, db, game_id)


def walk(game: str, title: str, start: str, moves: tuple[MoveSpec, ...], db: str | None,
         game_id: int | None) -> None:
    """The guided walk (see ``add_turn``): until the turn number of ``now`` changes."""
    from companion import session
    from companion.play import declaration, play
    from components.errors import RuleError

    decl = declaration(game)
    assert decl is not None
    with open_store(db) as store:
        saved = pick(store, game_id, game, title, start)
        played, state, _ = play(store, saved, decl, [])   # what runs itself first
        _echo_played(played)
        with session.readable(store.path, saved):
            now = decl.now(state)
        if now is None:
            raise RuleError(f"this {title} game is over")
        first = now.turn
        click.echo(f"== Turn {first}, from {now.text}" if first is not None
                   else f"== from {now.text}")
        while now is not None and now.turn == first:
            state = _walk_step(store, saved, decl, moves, now)
            with session.readable(store.path, saved):
                now = decl.now(state)
    click.echo(f"The game is over (game {saved.id})." if now is None
               else f"Turn {first} saved in game {saved.id}. Next: {now.text}")


def _walk_step(store: Any, saved: Any, decl: Declaration, moves: tuple[MoveSpec, ...],
               now: Any) -> dict[str, Any]:
    """Ask the move that comes now until it is accepted; save it; the state after it."""
    from companion.play import play
    from components.errors import InputError, RuleError

    spec = next(m for m in moves if m.kind == now.kind)
    where = f"{now.text}: everything before it is saved; run turn again to resume here"
    refused: dict[tuple[tuple[str, str], ...], int] = {}
    click.echo(f"-- {now.text}")
    while True:
        move = _ask_any(moves, now, where) if now.also else _ask(spec, now, where)
        try:
            played, state, notes = play(store, saved, decl, [move])
        except (InputError, RuleError) as exc:
            click.echo(f"  ! {exc}")
            refused[move.given] = refused.get(move.given, 0) + 1
            if refused[move.given] >= 3 or sum(refused.values()) >= 50:
                raise RuleError(f"{exc} (refused {sum(refused.values())} times); stopped at "
                                f"{where}") from None
            continue
        _echo_played(played)
        for note in notes:
            click.echo(note)
        return state


def _ask(spec: MoveSpec, now: Any, where: str) -> Move:
    """The move asked at the table in one prompt, typed as after its command's name on the
    command line (``--dice red,blue``; the words first); blank when it takes nothing."""
    shown = " ".join([*(f"[{p.key.upper()}]" for p in spec.params if p.option is None),
                      *(f"[{p.option} ...]" for p in spec.params if p.option)])
    question = f"{now.text}" + (f" ({shown}; blank: none of them)" if shown else "")
    while True:
        try:
            text = str(click.prompt(question, default="", show_default=False))
        except click.Abort as exc:
            stopped(exc, where)
        try:
            return _typed_move(spec, now, text)
        except InputError as exc:      # what cannot be read is asked again, as a refusal
            click.echo(f"  ! {exc}")


def _typed_move(spec: MoveSpec, now: Any, text: str) -> Move:
    """A move from what was typed at its prompt: words, then ``--option value`` pairs."""
    import shlex

    from companion.play import Move

    try:
        tokens = shlex.split(text)
    except ValueError as exc:
        raise InputError(f"'{text[:40]}': {exc}") from None
    options = {p.option: p for p in spec.params if p.option}
    values: dict[str, list[str]] = {}
    words: list[str] = []
    while tokens:
        token = tokens.pop(0)
        name, eq, inline = token.partition("=")
        if name in options:
            if not eq and not tokens:
                raise InputError(f"{name} needs a value")
            values.setdefault(options[name].key, []).append(inline if eq else tokens.pop(0))
        elif token.startswith("--"):
            raise InputError(f"{name}: not an option of {spec.command} (its options: "
                             f"{', '.join(options) or 'none'})")
        else:
            words.append(token)
    given: dict[str, str] = {}
    for param in spec.params:
        if param.option is None:
            if words:
                given[param.key] = " ".join(words)
        elif param.key in values:
            raw = values[param.key]
            given.update(_option_answers(param, tuple(raw) if (param.pairs or param.many or
                                                               param.once) else raw[-1]))
    if words and not any(p.option is None for p in spec.params):
        raise InputError(f"'{' '.join(words)[:40]}': {spec.command} takes only its options")
    return Move.of(spec.kind, now.who if spec.who else None, given)


def _ask_any(moves: tuple[MoveSpec, ...], now: Any, where: str) -> Move:
    """One of the moves possible now (``Now.also``, then the step ``Now.kind``), asked in one
    prompt: the move's command first, then whom it names, then as on the command line."""
    by_command = {m.command: m for m in moves if m.kind in (*now.also, now.kind)}
    step = next(m for m in moves if m.kind == now.kind)
    ends = " ".join(f"[{p.key.upper()}]" for p in step.params if p.option is None)
    question = (f"  a move ({', '.join(c for c in by_command if c != step.command)} "
                f"PLAYER ...; or {step.command} {ends or '...'})")
    while True:
        try:
            text = str(click.prompt(question, default="", show_default=False))
        except click.Abort as exc:
            stopped(exc, where)
        word, _, rest = text.strip().partition(" ")
        spec = by_command.get(word.lower())
        if spec is None:
            click.echo(f"  ! type one of: {', '.join(by_command)}")
            continue
        try:
            if spec.who and now.who is None:
                who, _, rest = rest.strip().partition(" ")
                if not who:
                    raise InputError(f"{spec.command} names the player first")
                return _typed_move(spec, now._replace(who=who), rest)
            return _typed_move(spec, now, rest)
        except InputError as exc:
            click.echo(f"  ! {exc}")


def stopped(exc: click.Abort, where: str) -> NoReturn:
    """A prompt of a guided walk that got no answer: Ctrl-C exits 130, the end of the input
    (bad input, as everywhere) exits 2; both say where the walk resumes."""
    if isinstance(exc.__cause__ or exc.__context__, KeyboardInterrupt):
        click.echo(f"\nStopped at {where}.", err=True)
        raise SystemExit(130) from None
    click.echo(f"\nerror: the input ended at {where}", err=True)
    raise SystemExit(2) from None


def _echo_played(played: list[Played]) -> None:
    for p in played:
        if p.auto:
            click.echo(f"-- (ran itself) {p.said}")
        for line in p.lines:
            click.echo(line)
