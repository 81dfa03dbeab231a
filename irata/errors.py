"""Errors of the command-line face; the families themselves live in ``components.errors``."""

from __future__ import annotations

from components.errors import DefinitionError, InputError, IrataError, RuleError

UsageError = InputError

__all__ = ["DefinitionError", "InputError", "IrataError", "RuleError", "UsageError"]
