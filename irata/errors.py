"""Errors of the command-line face; the families themselves live in ``components.errors``.

A missing or malformed value on the command line is an ``InputError``, as every other bad
input: one line on stderr, exit 2."""

from __future__ import annotations

from components.errors import DefinitionError, InputError, IrataError, RuleError

__all__ = ["DefinitionError", "InputError", "IrataError", "RuleError"]
