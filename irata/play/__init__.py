"""``irata play``: each game's companion as a lazy sub-group, plus the saved-game commands.

The games come from the one registry, ``companion.games`` (each game's commands live in
``irata/play/<game>.py``); the saved-game commands that work for any game (status, log, undo,
export, set, games) live in ``irata/play/session.py``.
"""

from __future__ import annotations

import importlib

import click

from companion.games import GAMES as REGISTRY
from irata.lazy import LazyGroup

SESSION: dict[str, tuple[str, str]] = {
    "status": ("irata.play.session:status", "Show a saved game's state."),
    "log": ("irata.play.session:log", "Show a saved game's events."),
    "undo": ("irata.play.session:undo", "Drop a saved game's last event."),
    "export": ("irata.play.session:export", "Write a saved game's log as JSON (and CSV)."),
    "set": ("irata.play.session:set_cmd", "Correct any number in a saved game."),
    "games": ("irata.play.session:games", "List the saved games."),
    "serve": ("irata.table.cli:serve", "The table view: the saved game on a shared screen, "
              "each player's moves from a phone."),
}
GAMES: dict[str, tuple[str, str]] = {g.name: (g.commands, g.summary) for g in REGISTRY}


def _refuse_repeats(command: click.Command, ctx: click.Context, args: list[str]) -> None:
    """An option that takes one value, typed twice (``--keep red --keep blue``), is refused:
    click would keep the last one silently, and the table meant one of them; so are the two
    forms of an on/off flag together (``--short --normal``). Options that take a list
    (``multiple=True``) stay repeatable, and a flag typed twice means the same."""
    takes: dict[str, click.Option] = {}
    for param in command.params:
        if isinstance(param, click.Option) and not param.multiple and not param.count:
            for name in (*param.opts, *param.secondary_opts):
                takes[name] = param
    seen: dict[str, str] = {}
    i = 0
    while i < len(args):
        token = args[i]
        if token == "--":
            break
        name, _, inline = token.partition("=")
        option = takes.get(name)
        if option is None:
            i += 1
            continue
        key = option.name or name
        if option.is_flag:
            # a flag typed twice means the same; its two forms (--short / --normal) contradict
            if key in seen and seen[key] != name:
                raise click.UsageError(f"{seen[key]} and {name} contradict each other: give "
                                       "one of them", ctx)
            seen[key] = name
            i += 1
            continue
        value = inline if inline or "=" in token else (
            args[i + 1] if i + 1 < len(args) else "")
        step = 1 if inline or "=" in token else 2
        if key in seen:
            raise click.UsageError(f"{name} is given twice ({seen[key]!r}, then {value!r}): "
                                   "give it once", ctx)
        seen[key] = value
        i += step


def _guarded(command: click.Command) -> click.Command:
    """``command`` (and a group's sub-commands) with ``_refuse_repeats`` before parsing; a
    group's sub-commands made on first use (the moves of M.U.L.E., Mutagen, ...: see
    ``irata.play.declared.DeclaredGroup``) as the group gives them."""
    if getattr(command, "_repeats_refused", False):
        return command
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            _guarded(sub)
        own_get = command.get_command

        def get_command(ctx: click.Context, cmd_name: str) -> click.Command | None:
            sub = own_get(ctx, cmd_name)
            return None if sub is None else _guarded(sub)

        command.get_command = get_command  # type: ignore[method-assign]
    else:
        parse = command.parse_args

        def parse_args(ctx: click.Context, args: list[str]) -> list[str]:
            _refuse_repeats(command, ctx, args)
            return parse(ctx, args)

        command.parse_args = parse_args  # type: ignore[method-assign]
    command._repeats_refused = True  # type: ignore[attr-defined]
    return command


GAME_COMMANDS = ("status", "log", "undo", "set", "export")
"""The saved-game commands every game's group has too (``irata play mutagen log``): the same
command, for that game's saved games alone (``irata.play.session`` reads the game from the
group it was typed under)."""


def _with_saved_game_commands(group: click.Group) -> click.Group:
    """A game's group with the saved-game commands it lacks, imported only when one of them
    runs (or ``--help`` lists them): a game's own commands start as fast as before."""
    if getattr(group, "_saved_game_commands", False):
        return group
    own_get, own_list = group.get_command, group.list_commands

    def get_command(ctx: click.Context, name: str) -> click.Command | None:
        command = own_get(ctx, name)
        if command is None and name in GAME_COMMANDS:
            module, attr = SESSION[name][0].split(":")
            command = _guarded(getattr(importlib.import_module(module), attr))
        return command

    def list_commands(ctx: click.Context) -> list[str]:
        return sorted(set(own_list(ctx)) | set(GAME_COMMANDS))

    group.get_command = get_command  # type: ignore[method-assign,assignment]
    group.list_commands = list_commands  # type: ignore[method-assign]
    group._saved_game_commands = True  # type: ignore[attr-defined]
    return group


class PlayGroup(LazyGroup):
    """The games' and the saved games' commands, each refusing a single-valued option typed
    twice; every game's group has the saved-game commands too."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if isinstance(command, click.Group) and cmd_name in GAMES:
            command = _with_saved_game_commands(command)
        return None if command is None else _guarded(command)


@click.group(cls=PlayGroup, lazy={**GAMES, **SESSION})
def play() -> None:
    """The companion: does the table's arithmetic while you play the printed copy."""
