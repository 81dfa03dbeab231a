"""Errors of the command-line face; the families themselves live in ``components.errors``.

A missing or malformed value on the command line is an ``InputError``, as every other bad
input: one line on stderr, exit 2. :func:`writing_into` gives an operating system's error
that names no file (a full disk, a quota) the place being written."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from components.errors import DefinitionError, InputError, IrataError, RuleError

__all__ = ["DefinitionError", "InputError", "IrataError", "RuleError", "writing_into"]


@contextmanager
def writing_into(path: Path) -> Iterator[None]:
    """Around what writes into ``path`` (a folder or a file): an OSError without a file name,
    as ``write()`` raises on a full disk, is raised again naming ``path``."""
    try:
        yield
    except OSError as exc:
        if exc.filename is None and exc.errno is not None:
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from exc
        raise
