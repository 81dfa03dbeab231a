"""Error families shared by every layer (components is the one package all others import).

- ``DefinitionError``: a mistake in a game's YAML, with file, line and column.
- ``RuleError``: the companion was asked for something the rules do not allow.
- ``InputError``: bad input from a person (a value, a name, a file that is not there).
The command line turns any ``IrataError`` into one ``error: ...`` line and exit code 2.
"""

from __future__ import annotations

from pathlib import Path


class IrataError(Exception):
    """Base of every error irata reports to a person as one line."""


class InputError(IrataError):
    """Bad input given by a person: a value, a name, a file."""


class RuleError(IrataError):
    """A request the game's rules make impossible."""


class DefinitionError(IrataError):
    """A mistake in a definition file, located as FILE:LINE:COL."""

    def __init__(self, message: str, file: str | Path | None = None, line: int | None = None,
                 col: int | None = None) -> None:
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.col = col
        super().__init__(self.__str__())

    def location(self) -> str:
        parts = [self.file or "<definitions>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col))
        return ":".join(parts)

    def __str__(self) -> str:
        return f"{self.location()}: {self.message}"
