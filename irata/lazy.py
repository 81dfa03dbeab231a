"""A click group whose sub-commands are imported only when they are run.

The companion must answer in about the time Python takes to import click, so the root group
never imports the generator (reportlab, svgwrite, qrcode) unless a print command runs.
"""

from __future__ import annotations

import importlib
from typing import Any

import click


class LazyGroup(click.Group):
    """Sub-commands named as ``"module:attribute"`` and imported on first use."""

    def __init__(self, *args: Any, lazy: dict[str, tuple[str, str]] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # name -> (import path "pkg.mod:attr", one-line help shown by --help)
        self.lazy: dict[str, tuple[str, str]] = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            target = self.lazy[cmd_name][0]
            module_name, attr = target.split(":")
            command = getattr(importlib.import_module(module_name), attr)
            if not isinstance(command, click.Command):
                raise TypeError(f"{target} is not a click command")
            return command
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Help lists the lazy commands from their one-line summaries, without importing them.
        rows = [(name, self.lazy[name][1]) for name in sorted(self.lazy)]
        for name in super().list_commands(ctx):
            cmd = super().get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(60)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(sorted(rows))
