"""The ``irata`` command: a root group with lazy sub-commands and one error policy."""

from __future__ import annotations

import gc
import re
import sys
import threading
from typing import TYPE_CHECKING

import click

from irata.errors import IrataError
from irata.lazy import LazyGroup

if TYPE_CHECKING:
    from signal import SIGTERM
    from signal import signal as set_handler
else:
    try:    # the C module alone: ``signal`` builds three enums of every signal (about 0.7 ms
        # of every command, which must start about as fast as Python imports click)
        from _signal import SIGTERM
        from _signal import signal as set_handler
    except ImportError:     # pragma: no cover - another Python
        from signal import SIGTERM
        from signal import signal as set_handler

COMMANDS: dict[str, tuple[str, str]] = {
    "print": ("irata.print_cmd:print_cmd", "Print games' components as PDF and SVG sheets."),
    "check": ("irata.print_cmd:check_cmd", "Validate games' definitions."),
    "inventory": ("irata.print_cmd:inventory_cmd",
                  "List a game's components, as the rulebook does."),
    "calibrate": ("irata.print_cmd:calibrate_cmd", "Print a duplex alignment sheet."),
    "preview": ("irata.export_cmd:preview_cmd", "Render one face of a component as a PNG."),
    "export": ("irata.export_cmd:export",
               "Export a game for Tabletop Simulator or a print-on-demand shop."),
    "errata": ("irata.errata_cmd:errata", "List, compare and check errata."),
    "play": ("irata.play:play", "The companion: the table's arithmetic and saved games."),
}


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show the full traceback on errors.")
@click.version_option(package_name="irata")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """irata: print-and-play components from YAML, and a companion for the table."""
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _did_you_mean(exc: click.UsageError, message: str) -> str:
    """An option's word that is not one of its choices, answered with the nearest one."""
    param = getattr(exc, "param", None)
    word = re.search(r"'([^']*)' is not one of", message)
    if param is None or word is None or not isinstance(param.type, click.Choice):
        return message
    from components.schema import suggest

    hint = suggest(word.group(1), [str(c) for c in param.type.choices], cutoff=0.5)
    return f"{message.rstrip('.')}{hint}" if hint else message


def _take_debug(args: list[str]) -> tuple[list[str], bool]:
    """``--debug`` wherever it is typed (``irata play mule turn --debug`` too), taken out so the
    root group gets it; after ``--`` it is an argument like any other."""
    end = args.index("--") if "--" in args else len(args)
    head = [a for a in args[:end] if a != "--debug"]
    return head + args[end:], len(head) != end


def _stop(signum: int, frame: object) -> None:
    """SIGTERM (kill, a closed session) stops a command as SystemExit does: its ``finally``
    blocks remove the staging folders and temporary files of a print cut short, and an open
    saved-game transaction rolls back, where the default would end the process on the spot."""
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> None:
    """Console entry point: runs the group, turns irata's errors into one line and exit 2.

    Without ``argv`` this is the process's own command (the console script, ``python -m
    irata.cli``), and the process ends with it: then what was imported before it (click and
    this module) and, at the end, everything still alive are set aside from the cyclic garbage
    collector (``gc.freeze``, as ``irata.watch`` does between rebuilds). Its passes over
    objects that live until the exit anyway were a sixth of a companion command's CPU time
    (issue 22; on a 2-core machine the pass at the exit alone was about 15 ms of 115). Nothing
    else changes: ``atexit``, the flush of the output and every ``finally`` run as before, and
    the objects are freed as the interpreter clears its modules; only the cycles among them
    are left to the end of the process. Called with ``argv`` (the tests, a script calling it
    again and again) nothing is frozen."""
    if argv is not None:
        _main(list(argv))
        return
    gc.freeze()
    try:
        _main(sys.argv[1:])
    finally:
        gc.freeze()


def _main(argv: list[str]) -> None:
    if threading.current_thread() is threading.main_thread():
        set_handler(SIGTERM, _stop)
    args, debug = _take_debug(argv)
    if debug:
        args = ["--debug", *args]
    try:
        cli.main(args=args, prog_name="irata", standalone_mode=False)
    except click.exceptions.Abort as exc:
        # click turns Ctrl-C and the end of the input (Ctrl-D, a script's answers running out)
        # into Abort; the first stops a command as the user asked, the second left a question
        # unanswered: bad input, so one line and exit 2 (a step is saved only once answered)
        origin = exc.__cause__ or exc.__context__
        if isinstance(origin, KeyboardInterrupt):
            click.echo("interrupted", err=True)
            sys.exit(130)
        click.echo("error: the input ended before a question was answered; the command "
                   "stopped there and saved nothing unanswered", err=True)
        sys.exit(2)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else exc.format_message())
        sys.exit(0)
    except click.UsageError as exc:
        # one line, as for every other bad input, with where to look for the right form
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
        message = _did_you_mean(exc, _one_line(exc.format_message()))
        click.echo(f"error: {message}{hint}", err=True)
        sys.exit(2)
    except click.ClickException as exc:
        click.echo(f"error: {_one_line(exc.format_message())}", err=True)
        sys.exit(2)
    except IrataError as exc:
        if debug:
            raise
        from components.errors import DefinitionErrors

        # several mistakes found in one run (irata check, print): one line each
        lines = exc.lines() if isinstance(exc, DefinitionErrors) else [str(exc)]
        for line in lines:
            click.echo(f"error: {_one_line(line)}", err=True)  # a value may hold a newline
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except OSError as exc:
        # a folder that cannot be made or written (--out under a file, a read-only disk, a
        # full one): the operating system's reason and the path, on one line
        if debug:
            raise
        import errno

        path = f" {exc.filename}" if exc.filename else ""
        hint = ""
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):  # files are renamed into place whole
            hint = ("; nothing half-written was left there: free some space, or write "
                    "elsewhere with --out")
        click.echo(f"error: cannot use{path}: {exc.strerror or exc}{hint}", err=True)
        sys.exit(2)
    sys.exit(0)


if __name__ == "__main__":
    main()
