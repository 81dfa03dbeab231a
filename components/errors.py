"""Error families shared by every layer (components is the one package all others import).

- ``DefinitionError``: a mistake in a game's YAML, with file, line and column.
- ``RuleError``: the companion was asked for something the rules do not allow.
- ``InputError``: bad input from a person (a value, a name, a file that is not there).
The command line turns any ``IrataError`` into one ``error: ...`` line and exit code 2.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any


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
        # the layout element a mistake found in a component's own field came from: the same
        # slip met by many components is listed once (``unique``)
        self.cause: tuple[str, int, int] | None = None
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


# --- every mistake of a run at once ------------------------------------------------------------
# ``irata check`` and ``irata print`` run inside ``collecting()``: each independent unit of the
# work (a file, a layout, an element, a component, a face) runs inside ``attempt()``, which
# records its DefinitionError and lets the run go on to the next unit; a unit that failed is
# left out of what follows, so one slip is reported once, not again by every later stage.
# Outside ``collecting()`` (the companion, the library) ``attempt()`` lets the first error
# through, as before.

MAX_REPORTED = 50  # mistakes listed in one run; the last line says how many more there were

_FOUND: ContextVar[list[DefinitionError] | None] = ContextVar("irata_found", default=None)


class DefinitionErrors(DefinitionError):
    """Several mistakes found in one run: each one line (FILE:LINE:COL: ...), sorted by place,
    at most MAX_REPORTED of them, and then a line saying how many more were found."""

    def __init__(self, errors: list[DefinitionError]) -> None:
        self.errors = unique(errors)
        first = self.errors[0]
        super().__init__(first.message, first.file, first.line, first.col)

    def lines(self) -> list[str]:
        shown = [DefinitionError.__str__(e) for e in self.errors[:MAX_REPORTED]]
        more = len(self.errors) - MAX_REPORTED
        if more > 0:
            shown.append(f"... and {more} more mistake{'s' if more > 1 else ''} not listed "
                         f"(the first {MAX_REPORTED} of {len(self.errors)} are above)")
        return shown

    def __str__(self) -> str:
        return "\n".join(self.lines())


def unique(errors: list[DefinitionError]) -> list[DefinitionError]:
    """One mistake per place (nested ones unpacked), sorted by file, line, column: a slip in
    a layout that many components share is one line, saying how many more it is found in."""
    at: dict[tuple[str, int, int], list[DefinitionError]] = {}
    for e in errors:
        for one in e.errors if isinstance(e, DefinitionErrors) else [e]:
            place = one.cause or (one.file or "", one.line or 0, one.col or 0)
            at.setdefault(place, []).append(one)
    out = []
    for same in at.values():
        same = sorted(same, key=_place)
        first = same[0]
        others = len({str(e) for e in same}) - 1
        if others:
            first = DefinitionError(f"{first.message} (and in {others} more "
                                    f"component{'s' if others > 1 else ''})", first.file,
                                    first.line, first.col)
        out.append(first)
    return sorted(out, key=_place)


def _place(e: DefinitionError) -> tuple[str, int, int, str]:
    return (e.file or "", e.line or 0, e.col or 0, e.message)


def combined(errors: list[DefinitionError]) -> DefinitionError:
    """One mistake as itself, several as a DefinitionErrors."""
    errs = unique(errors)
    return errs[0] if len(errs) == 1 else DefinitionErrors(errs)


def collecting_now() -> bool:
    return _FOUND.get() is not None


def found_so_far() -> int:
    """How many mistakes the run has recorded (0 when not collecting): a unit compares the
    count before and after to learn whether it failed."""
    found = _FOUND.get()
    return len(found) if found is not None else 0


@contextmanager
def collecting() -> Iterator[list[DefinitionError]]:
    """Record the mistakes of the ``attempt()`` blocks within; on leaving, raise those
    recorded within (with one that ended the block) together. Nested inside another, it
    raises only its own, which the outer one's ``attempt()`` records again once."""
    outer = _FOUND.get()
    found: list[DefinitionError] = outer if outer is not None else []
    start = len(found)
    token = _FOUND.set(found) if outer is None else None
    try:
        yield found
    except DefinitionError as exc:
        found.append(exc)
    finally:
        if token is not None:
            _FOUND.reset(token)
    if len(found) > start:
        mine = found[start:]
        if outer is not None:
            del found[start:]  # the outer attempt() records them again, once
        raise combined(mine)


class attempt:  # noqa: N801 (used as a context manager, as it was as a function)
    """One unit of the work: while collecting, its DefinitionError is recorded and the run
    goes on after the block; otherwise it is raised as usual. (A class, not a generator: a
    long deck enters one per component, twice a build.)"""

    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: Any) -> bool:
        if kind is None or not issubclass(kind, DefinitionError):
            return False
        found = _FOUND.get()
        if found is None:
            return False
        found.append(exc)  # type: ignore[arg-type]
        return True


def stop_if_failed(start: int) -> None:
    """End the work here when mistakes were recorded since ``found_so_far()`` was ``start``
    (what follows would only repeat them: components naming a layout a broken file held)."""
    found = _FOUND.get()
    if found is not None and len(found) > start:
        raise combined(found[start:])
