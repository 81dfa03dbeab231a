"""The one gate for every file a game folder names: definitions, spreadsheets, fonts, images
and SVG art.

A game folder is shared like any file, so what it names is resolved here before a byte of it
is read: links are followed to their end (a link that loops or leads to no file is refused by
name), and the end must lie inside the game folder, or inside one of the ``roots`` the caller
trusts (the installed font packages irata itself picked a file from). ``open_inside`` then
opens the resolved path without following a link again, so a link swapped in between the
check and the read is refused by the system rather than followed.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

__all__ = ["ConfineError", "inside", "open_inside", "read_inside"]


class ConfineError(ValueError):
    """A path irata will not open; the message completes "'NAME' ..." (it is phrased to
    follow the name the game folder gave)."""


def inside(path: Path, folder: Path, roots: Iterable[Path] = ()) -> Path:
    """``path`` resolved, links followed, which must be an existing file or folder inside
    ``folder`` (or one of ``roots``); ``ConfineError`` saying why not."""
    try:
        real = path.resolve(strict=True)
    except FileNotFoundError:
        if os.path.lexists(path):
            raise ConfineError("is a link that points to no file (remove it or fix it)"
                               ) from None
        raise ConfineError("does not exist in the game folder") from None
    except RuntimeError:  # Python before 3.13 reports a loop so
        raise ConfineError("is a link that cannot be followed (it loops back on itself)"
                           ) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ConfineError("is a link that cannot be followed (it loops back on itself)"
                           ) from None
        raise ConfineError(f"cannot be reached ({exc.strerror or exc})") from None
    for root in (folder, *roots):
        base = root.resolve()
        if real == base or base in real.parents:
            return real
    raise ConfineError("leaves the game folder (a link to a file elsewhere, or a path that "
                       "climbs out): what a game names must lie inside the game folder, so "
                       "copy the file there instead")


def open_inside(path: Path, folder: Path, roots: Iterable[Path] = ()) -> BinaryIO:
    """``path`` opened for reading once ``inside`` allows it, refusing a link at its end."""
    real = inside(path, folder, roots)
    try:
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        fd = os.open(real, flags)
    except OSError as exc:
        raise ConfineError(f"cannot be read ({exc.strerror or exc})") from None
    return os.fdopen(fd, "rb")


def read_inside(path: Path, folder: Path, limit: int, roots: Iterable[Path] = ()) -> bytes:
    """The bytes of ``path`` (as ``open_inside``), refused when it holds more than ``limit``
    bytes or is not a plain file (a pipe or a device would be read for ever)."""
    import stat

    with open_inside(path, folder, roots) as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise ConfineError("is not a plain file (a pipe, a device or a folder)")
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise ConfineError(f"is larger than {limit // (1024 * 1024) or 1} MB")
    return data
