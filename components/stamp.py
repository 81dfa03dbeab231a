"""What a game folder is read from, as one digest: the one fingerprint of a folder, used by the
loader to know when to read a folder again and by the companion to key its rule-data cache.

Kept apart from the loader so the companion can stamp a folder without importing PyYAML or the
schema (its commands must start about as fast as Python imports click).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

try:    # CPython's own BLAKE2, without hashlib's load of OpenSSL (a few ms of every command)
    from _blake2 import blake2b
except ImportError:     # pragma: no cover - another Python
    from hashlib import blake2b

__all__ = ["MAX_FILE_BYTES", "STAMPED", "blake2b", "stamp"]

MAX_FILE_BYTES = 4_000_000  # a definition file larger than this is not hand-written YAML

# what a game is read from: its YAML, the spreadsheets it takes components from, its fonts
STAMPED = (".yaml", ".csv", ".tsv", ".tab", ".xlsx", ".ttf", ".otf", ".ttc", ".otc")
_READ_WHOLE = (".yaml", ".csv", ".tsv", ".tab")
def _files(folder: Path) -> list[str]:
    """The stamped files under ``folder``, as sorted relative paths (links to folders are not
    followed, as ``Path.rglob`` does not: walked with ``os.walk``, a third of its time)."""
    found: list[str] = []
    for root, _dirs, files in os.walk(folder):
        base = os.path.relpath(root, folder)
        for name in files:
            if os.path.splitext(name)[1].lower() in STAMPED:
                found.append(name if base == "." else os.path.join(base, name))
    return sorted(found)


def stamp(folder: Path) -> str:
    """Every definition file's name and what it holds: a file added, changed or removed shows.
    The text files (YAML, CSV) by a digest of their bytes, since two writes within one clock
    tick leave the same time; spreadsheets and fonts, which are large, by size and time.

    (Not by times once a file has settled, as git's index does: the stamp is kept on disk, by
    the preview record and the rule-data cache, and must not change when nothing did.)"""
    folder = folder.resolve()
    inside = str(folder) + os.sep
    digest = blake2b(digest_size=16)
    for rel in _files(folder):
        p = folder / rel
        digest.update(rel.encode() + b"\0")
        try:
            st = p.stat()
            # read only a regular file inside the folder, of a size a definition can be: a
            # link elsewhere, to a device or a pipe is never read (reading refuses it by name)
            if (p.suffix.lower() in _READ_WHOLE and stat.S_ISREG(st.st_mode)
                    and st.st_size <= MAX_FILE_BYTES
                    and os.path.realpath(p).startswith(inside)):
                digest.update(p.read_bytes())
            else:
                digest.update(f"{st.st_size}|{st.st_mtime_ns}".encode())
        except (OSError, RuntimeError):
            digest.update(b"\1unreadable")
        digest.update(b"\0")
    return digest.hexdigest()
