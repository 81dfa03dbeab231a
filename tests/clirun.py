"""irata run in-process for the hostile-input tests: its exit code and what it wrote on stderr,
and whether that is the one error line bad input gets."""

from __future__ import annotations

import contextlib
import io
from typing import Any

from irata.cli import main


def run(args: list[str]) -> tuple[int, str]:
    """``irata ARGS`` in this process: its exit code and stderr (stdout is dropped). A
    traceback fails the test calling it."""
    err = io.StringIO()
    code: Any = 0
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            main(args)
        except SystemExit as exc:
            code = exc.code
    return int(code or 0), err.getvalue()


def one_line(code: int, err: str) -> bool:
    """Exit 2 and one ``error:`` line: what every refused input gets."""
    return code == 2 and err.startswith("error: ") and err.count("\n") == 1
