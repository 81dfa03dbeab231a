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

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from companion import entry
from companion.record import NamedTuple
from components.errors import InputError
from irata.options import DB, GAME, JSON, emit, open_store, pick

if TYPE_CHECKING:
    from companion.moves import MoveSpec
    from companion.play import Declaration, Move, Now, Played

__all__ = ["DeclaredGroup", "Face", "add_moves", "add_turn", "pairs", "show_next",
           "show_status"]


class Face(NamedTuple):
    """What a game's own command line adds to a move's generated command (all optional):

    - ``show(played, state, game_id)``: the move's own JSON fields and lines, printed in
      place of the event's lines (the generic fields stay: ``id``, ``next``, ...);
    - ``refused(exc)``: a refusal the game prints as a result, exit 0 (Outer Earth's bidding
      that is not over yet), or None to refuse as usual;
    - ``calculator``: the game's calculator of the same name. The command runs it when no
      saved game is meant: one of the calculator's own options is given, or the move names a
      player and none is given; neither ``--save`` nor ``--game``."""

    show: Callable[[Played, dict[str, Any], int], tuple[dict[str, Any], list[str]]] | None \
        = None
    refused: Callable[[Exception], tuple[dict[str, Any], list[str]] | None] | None = None
    calculator: click.Command | None = None


# the reading of an entry lives in the companion, shared with the table view's forms
pair_list = entry.pair_list
pairs = entry.pairs
_option_answers = entry.option_answers
_moves = entry.moves_of
_words = entry.words_of


def _report(game: str, saved_id: int, played: list[Played], notes: list[str],
            state: dict[str, Any], decl: Declaration[Any], as_json: bool,
            face: Face | None = None) -> None:
    from companion.play import now_of

    typed = [p for p in played if not p.auto]
    last = typed[-1] if typed else None
    now = now_of(decl, state)
    nxt = now.as_dict() if now else None
    own: tuple[dict[str, Any], list[str]] | None = None
    if face is not None and face.show is not None and last is not None:
        own = face.show(last, state, saved_id)
    lines: list[str] = []
    for p in played:
        if p.auto:
            lines.append(f"(ran itself) {p.said or _said(p)}")
            lines.extend(f"  {line}" for line in p.lines)
        else:
            lines.extend(own[1] if own is not None and p is last else p.lines)
    lines.extend(notes)
    data = last.event.data if last else {}
    emit(as_json, {"id": saved_id, "event": last.event.seq if last else None,
                   "turn": data.get("turn"), "step": data.get("step", last.move.kind
                                                           if last else None),
                   "who": data.get("who"), "lines": [x for p in typed for x in p.lines],
                   "ran_itself": [{"event": p.event.seq, "step": p.move.kind, "who": p.move.who,
                                   "lines": list(p.lines)} for p in played if p.auto],
                   "notes": notes, "next": nxt, **(own[0] if own is not None else {})},
         [*lines, f"Saved. Now: {nxt['text']}\n  {nxt['command']}" if nxt
          else "Saved. The game is over."])


def _said(p: Played) -> str:
    who = f" {p.move.who}" if p.move.who else ""
    return f"{p.move.kind}{who}"


def _run(game: str, title: str, start: str, spec: MoveSpec, db: str | None,
         game_id: int | None, as_json: bool, kwargs: dict[str, Any],
         face: Face | None = None) -> None:
    from companion.play import declaration, play
    from components.errors import RuleError

    decl = declaration(game)
    assert decl is not None
    moves = _moves(spec, kwargs)
    with open_store(db) as store:
        saved = pick(store, game_id, game, title, start)
        try:
            played, state, notes = play(store, saved, decl, moves)
        except (InputError, RuleError) as exc:
            shown = face.refused(exc) if face is not None and face.refused else None
            if shown is None:
                raise
            emit(as_json, shown[0], shown[1])
            return
    _report(game, saved.id, played, notes, state, decl, as_json, face)


def _calculate(spec: MoveSpec, calc: click.Command, kwargs: dict[str, Any]) -> bool:
    """Run the calculator of a move's command when no saved game is meant (see
    :class:`Face`); False when the move is to be played. ``kwargs`` are the command's."""
    ctx = click.get_current_context()
    own = _own(spec, calc) - {"save"}
    typed = [p for p in calc.params if p.name in own
             and ctx.get_parameter_source(p.name or "") != click.core.ParameterSource.DEFAULT]
    saved = bool(kwargs.get("save")) or kwargs.get("game_id") is not None
    if saved or not (typed or (spec.who and kwargs.get("who") is None)):
        if typed:
            shown = ", ".join(p.opts[0] for p in typed if isinstance(p, click.Option))
            raise InputError(f"{shown} {'is' if len(typed) == 1 else 'are'} for the "
                             "calculator, without a saved game: leave out --save and --game")
        return False
    calc_opts = {o for p in calc.params for o in getattr(p, "opts", ())}
    moved = [p.option for p in spec.params if p.option and p.option not in calc_opts
             and kwargs.get(p.key) not in (None, (), False, "")]
    if moved:
        who = " NAME" if spec.who == "player" else ""
        raise InputError(f"{', '.join(map(str, moved))} belong{'s' if len(moved) == 1 else ''} "
                         f"to the saved game's move ({spec.command}{who} ...), not to the "
                         "calculator")
    given: dict[str, Any] = {}
    for p in calc.params:
        if p.name in kwargs and p.name in own | {"game_id", "db", "as_json", "save"}:
            given[p.name or ""] = kwargs[p.name or ""]
        else:
            given[p.name or ""] = p.process_value(ctx, _as_calculator(spec, p, kwargs))
    ctx.invoke(calc.callback or (lambda **_: None), **given)
    return True


def _own(spec: MoveSpec, calc: click.Command) -> set[str]:
    """The calculator's options the move lacks (the command takes them for the calculator)."""
    taken = {p.option for p in spec.params if p.option} | {"--game", "--db", "--json"}
    return {p.name or "" for p in calc.params
            if isinstance(p, click.Option) and not taken & set(p.opts)}


def _move_names(spec: MoveSpec) -> list[str]:
    return ["who", "words", "game_id", "db", "as_json",
            *(p.key for p in spec.params if p.option is not None)]


def _as_calculator(spec: MoveSpec, param: click.Parameter, kwargs: dict[str, Any]) -> Any:
    """The value a move's option gives the calculator's option of the same name."""
    if isinstance(param, click.Argument):
        return kwargs.get("words") or ()
    opts = set(getattr(param, "opts", ()))
    found = next((p for p in spec.params if p.option in opts), None)
    if found is None:
        return None
    value = kwargs.get(found.key)
    if isinstance(value, tuple) and not param.multiple:
        return value[-1] if value else None
    return value


def _command(group: click.Group, game: str, title: str, start: str, spec: MoveSpec,
             face: Face | None = None, signed: bool = False) -> click.Command:
    calc = face.calculator if face is not None else None

    def callback(game_id: int | None, db: str | None, as_json: bool, **kwargs: Any) -> None:
        if calc is not None:
            if _calculate(spec, calc, {"game_id": game_id, "db": db, "as_json": as_json,
                                       **kwargs}):
                return
            for name in _own(spec, calc):   # the calculator's own options, read by it alone
                kwargs.pop(name, None)
        _run(game, title, start, spec, db, game_id, as_json, kwargs, face)

    fn: Callable[..., None] = callback
    for param in reversed(spec.params):
        if param.option is not None and param.flag:
            fn = click.option(param.option, param.key, is_flag=True, help=param.help)(fn)
        elif param.option is not None:
            many = param.pairs or param.many or param.once
            fn = click.option(param.option, param.key, multiple=many, help=param.help)(fn)
    if any(p.option is None for p in spec.params):
        fn = click.argument("words", nargs=-1)(fn)
    if spec.who in ("player", "good"):
        fn = click.argument("who", metavar="NAME" if spec.who == "player" else "GOOD",
                            required=calc is None)(fn)
    for option in (JSON, DB, GAME):
        fn = option(fn)
    text = f"{spec.help}\n\nirata play {game} next says which step comes now."
    if calc is not None:
        text += f"\n\nWithout a saved game (no NAME, --save or --game): {calc.help or ''}"
    # a signed move's words may be negative numbers (points Bob -3), never taken for options
    settings = {"ignore_unknown_options": True} if signed else {}
    command = group.command(spec.command, help=text, short_help=spec.summary,
                            context_settings=settings)(fn)
    if calc is not None:
        own = _own(spec, calc)
        command.params.extend(p for p in calc.params if p.name in own)
    return command


def add_moves(group: click.Group, game: str, title: str, start: str,
              moves: tuple[MoveSpec, ...], faces: Mapping[str, Face] | None = None,
              signed: tuple[str, ...] = ()) -> None:
    """Add a command for each declared move, and ``next``, to a game's command group;
    ``faces`` (by move kind) say what a game's own command line adds to one (:class:`Face`),
    ``signed`` names the moves whose words may be negative numbers (``points Bob -3``)."""
    for spec in moves:
        _command(group, game, title, start, spec, (faces or {}).get(spec.kind),
                 spec.kind in signed)

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
    from companion.play import declaration, now_of

    decl = declaration(game)
    assert decl is not None
    with open_store(db) as store:
        saved = pick(store, game_id, game, title, start)
        state = session.state_of(store, saved)
        with session.readable(store.path, saved):
            now = now_of(decl, state)
    nxt = now.as_dict() if now else None
    auto = " (it runs itself with the next entry)" if now and now.auto else ""
    emit(as_json, {"id": saved.id, "next": nxt},
         [f"Game {saved.id}, Turn {now.turn}: {now.text}{auto}", f"  {now.command}"]
         if now else f"Game {saved.id} is over.")


def show_status(db: str | None, game_id: int | None, as_json: bool,
                game: str | None = None) -> None:
    """Print a saved game's state (the game's own summary, or its JSON) and, for every game
    alike, the steps that ran themselves after the last entry typed (``ran_itself``: each
    one's event, step, whom it was for and why there was nothing to decide)."""
    from companion import session
    from companion.games import entry as game_entry
    from companion.play import ran_themselves

    with open_store(db) as store:
        saved = pick(store, game_id, game)
        state = session.state_of(store, saved)
        ran = ran_themselves(store.events(saved.id))

    def text() -> list[str]:
        with session.readable(Path(db) if db else session.default_db_path(), saved):
            lines = [f"Game {saved.id}: {saved.name}", game_entry(saved.game).describe(state)]
        if ran:
            lines.append("Ran itself after the last entry (undo takes it back with that "
                         "entry):")
            lines.extend(f"  {r.text}" for r in ran)
        return lines

    emit(as_json, {"id": saved.id, "game": saved.game, "name": saved.name, "state": state,
                   "ran_itself": [r.as_dict() for r in ran]}, text)


class DeclaredGroup(click.Group):
    """A declared game's group: the commands its module writes (set-up, calculators), and the
    moves', ``next`` and ``turn``, generated from the declaration (:meth:`declare`) only when
    one of them, or the list of commands, is asked for, so that a command defines only what it
    runs (as M.U.L.E.'s and Mutagen's groups do). A move is never named as a command the module
    writes (the command line would have two meanings for one word)."""

    declared: tuple[str, str, str, tuple[MoveSpec, ...], Mapping[str, Face],
                    tuple[str, ...], tuple[str, ...]] | None = None

    def declare(self, game: str, title: str, start: str, moves: tuple[MoveSpec, ...],
                faces: Mapping[str, Face] | None = None, own: tuple[str, ...] = (),
                signed: tuple[str, ...] = ()) -> None:
        """The game's moves (and how its command line shows some, ``faces``, and which take
        negative numbers, ``signed``: see :func:`add_moves`), to be made commands on first
        use, with ``next`` and ``turn``; ``own``: the kinds of move whose command the module
        writes itself (a calculator that is a move too)."""
        self.declared = (game, title, start, moves, dict(faces or {}), own, signed)

    def _moves(self, name: str | None = None) -> None:
        """Generate the commands of the moves (with ``next``, and ``turn``): the one named,
        or all."""
        if self.declared is None:
            return
        game, title, start, moves, faces, own, signed = self.declared
        specs = tuple(m for m in moves if m.kind not in own and m.command not in self.commands
                      and (name is None or m.command == name))
        if specs or "next" not in self.commands:
            add_moves(self, game, title, start, specs, faces, signed)
        if "turn" not in self.commands and name in (None, "turn"):
            add_turn(self, game, title, start, moves)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            self._moves(cmd_name)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._moves()
        return super().list_commands(ctx)


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
    """The guided walk (see ``add_turn``): until the turn number of ``now`` changes. A game
    that is over says so (``companion.play.going_on``: the game's own reason)."""
    from companion import session
    from companion.play import declaration, going_on, now_of, play

    decl = declaration(game)
    assert decl is not None
    with open_store(db) as store:
        saved = pick(store, game_id, game, title, start)
        played, state, _ = play(store, saved, decl, [])   # what runs itself first
        _echo_played(played)
        with session.readable(store.path, saved):
            now: Now | None = going_on(decl, decl.from_json(state))
        assert now is not None
        first = now.turn
        click.echo(f"== Turn {first}, from {now.text}" if first is not None
                   else f"== from {now.text}")
        while now is not None and now.turn == first:
            state = _walk_step(store, saved, decl, moves, now)
            with session.readable(store.path, saved):
                now = now_of(decl, state)
    click.echo(f"The game is over (game {saved.id})." if now is None
               else f"Turn {first} saved in game {saved.id}. Next: {now.text}")


def _walk_step(store: Any, saved: Any, decl: Declaration[Any], moves: tuple[MoveSpec, ...],
               now: Any) -> dict[str, Any]:
    """Ask the move that comes now until it is accepted; save it; the state after it."""
    from companion.play import play
    from components.errors import InputError, RuleError

    specs = [m for kind in now.possible for m in moves if m.kind == kind]
    where = f"{now.text}: everything before it is saved; run turn again to resume here"
    refused: dict[tuple[str, tuple[tuple[str, str], ...]], int] = {}
    click.echo(f"-- {now.text}")
    while True:
        move = _ask(specs[0], now, where) if len(specs) == 1 else _ask_one_of(specs, now, where)
        try:
            played, state, notes = play(store, saved, decl, [move])
        except (InputError, RuleError) as exc:
            click.echo(f"  ! {exc}")
            key = (move.kind, move.given)
            refused[key] = refused.get(key, 0) + 1
            if refused[key] >= 3 or sum(refused.values()) >= 50:
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
                      *(f"[{p.option}]" if p.flag else f"[{p.option} ...]"
                        for p in spec.params if p.option)])
    question = f"{now.text}" + (f" ({shown}; blank: none of them)" if shown else "")
    while True:
        try:
            text = str(click.prompt(question, default="", show_default=False))
        except click.Abort as exc:
            stopped(exc, where)
        first, _, rest = text.strip().partition(" ")
        if first.lower() == spec.command:     # the move's name typed too, as on the line
            text = rest
        try:
            return _typed_move(spec, now, text)
        except InputError as exc:      # what cannot be read is asked again, as a refusal
            click.echo(f"  ! {exc}")


def _ask_one_of(specs: list[MoveSpec], now: Any, where: str) -> Move:
    """One of several moves possible now, asked in one prompt: the move's command name first,
    then whom it names when the step names nobody (``points Bob 3``), then what it takes, as
    on the command line (``build blue,red --planet Halcyon``)."""
    names = {spec.command: spec for spec in specs}
    question = f"  a move ({' | '.join(_shape(spec, now) for spec in specs)})"
    while True:
        try:
            text = str(click.prompt(question, default="", show_default=False))
        except click.Abort as exc:
            stopped(exc, where)
        first, _, rest = text.strip().partition(" ")
        spec = names.get(first.lower())
        if spec is None:
            click.echo(f"  ! type one of {', '.join(names)} first"
                       + (f", not '{first[:40]}'" if first else ""))
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


def _shape(spec: MoveSpec, now: Any) -> str:
    """How a move is typed at a prompt of several: ``crew PLAYER ...``, ``round [FILE]``."""
    who = " PLAYER" if spec.who and now.who is None else ""
    words = [p for p in spec.params if p.option is None]
    if len(words) == 1 and not who and len(spec.params) == 1:
        return f"{spec.command} [{words[0].key.upper()}]"
    return f"{spec.command}{who}{' ...' if spec.params else ''}"


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
        if name in options and options[name].flag:
            values[options[name].key] = ["yes"]
        elif name in options:
            if not eq and not tokens:
                raise InputError(f"{name} needs a value")
            values.setdefault(options[name].key, []).append(inline if eq else tokens.pop(0))
        elif token.startswith("--"):
            raise InputError(f"{name}: not an option of {spec.command} (its options: "
                             f"{', '.join(options) or 'none'})")
        else:
            words.append(token)
    given: dict[str, str] = _words(spec, words) if words and any(
        p.option is None for p in spec.params) else {}
    for param in spec.params:
        if param.option is None:
            continue
        if param.key in values:
            raw = values[param.key]
            given.update(_option_answers(param, tuple(raw) if (param.pairs or param.many or
                                                               param.once) else raw[-1]))
    if words and not any(p.option is None for p in spec.params):
        raise InputError(f"'{' '.join(words)[:40]}': {spec.command} takes only its options")
    return Move.of(spec.kind, now.who if spec.who else None, given)


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
