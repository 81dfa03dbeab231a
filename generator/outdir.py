"""Where a build may write and what it may delete: only inside the chosen output folder.

A game folder is untrusted, and the names it gives (its game name, its file stems) end up in
output paths. Every path a build writes goes through :func:`confine`, which resolves it
(symlinks included) and refuses it unless it lies inside the output folder. A build deletes only
files that the previous build wrote and listed in its manifest (``written``), so a person's own
file kept beside the sheets (``OUT/GAME/svg/MY-NOTES.txt``) survives every print. The
manifest found in the folder is untrusted too: read within bounds, and taken as irata's only
when it names nothing but files a build of that game writes (:func:`written_before`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from components.errors import InputError


def confine(out: Path, *parts: str) -> Path:
    """``out/parts...`` resolved; InputError unless it lies inside ``out`` (resolved too)."""
    root = out.resolve()
    path = root.joinpath(*parts).resolve()
    if path != root and root not in path.parents:
        shown = "/".join(parts)
        raise InputError(f"refusing to write '{shown}': it leads outside the output folder "
                         f"{out}")
    return path


def move_into(staging: Path, folder: Path, sub: str) -> Path:
    """Move every file of ``staging`` into ``folder/sub`` (made if need be), each replacing
    its namesake; a person's own files in ``folder/sub`` stay. Returns ``folder/sub``."""
    (folder / sub).mkdir(exist_ok=True)
    target = confine(folder, sub)
    for name in sorted(os.listdir(staging)):
        os.replace(staging / name, target / name)
    return target


MAX_MANIFEST_BYTES = 64 * 2**20  # a print of 20,000 pieces writes a manifest of about 12 MB
MAX_WRITTEN = 100_000  # files one build lists: its PDFs and a page's SVG and PNG each


def _open_regular(path: Path) -> tuple[int, os.stat_result] | None:
    """``path`` opened for reading, with its status, if it is a regular file: O_NOFOLLOW, a
    link is never read through; O_NONBLOCK, a pipe never blocks the open. The caller closes."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
    except OSError:
        os.close(fd)
        return None
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        return None
    return fd, info


def read_bounded(path: Path, limit: int) -> bytes | None:
    """A regular file's bytes, at most ``limit`` + 1 of them, or None for what is not a
    regular file (see ``_open_regular``) or is larger than ``limit``."""
    opened = _open_regular(path)
    if opened is None:
        return None
    fd, info = opened
    try:
        if info.st_size > limit:
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            # a read of ``limit`` + 1 sets that much memory aside whatever the file holds;
            # the file's size + 1 bytes show whether it grew past it since
            data = f.read(info.st_size + 1)
            if len(data) > info.st_size:
                data += f.read(limit + 1 - len(data))
            return data
    except OSError:
        return None
    finally:
        os.close(fd)


def read_slice(path: Path, offset: int, length: int) -> bytes | None:
    """``length`` bytes at ``offset`` of a regular file (see ``_open_regular``), or None where
    the file is not one or ends before them."""
    opened = _open_regular(path)
    if opened is None:
        return None
    fd, info = opened
    try:
        if offset < 0 or offset + length > info.st_size:
            return None
        return os.pread(fd, length, offset)
    except OSError:
        return None
    finally:
        os.close(fd)


def current_umask() -> int:
    """The process's umask (read by setting it and putting it back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _read_manifest(path: Path) -> Any:
    """The manifest's JSON, or None for one that is not a regular file of at most
    MAX_MANIFEST_BYTES (a link, a pipe, a folder) or that does not parse within Python's
    nesting limit."""
    raw = read_bounded(path, MAX_MANIFEST_BYTES)
    if raw is None or len(raw) > MAX_MANIFEST_BYTES:
        return None
    try:
        return json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None


def own_names(game: str, manifest: str) -> re.Pattern[str]:
    """The names of the files a build of ``game`` writes beside ``manifest``: its PDFs, and
    its sheets as SVG and PNG (``mule.pdf``, ``mule-errata-1.1-single-sided.pdf``,
    ``svg/sheet-001-front.svg``, ``png/sheet-012-back.png``)."""
    since = re.fullmatch(r"manifest(-errata-[A-Za-z0-9][A-Za-z0-9._-]{0,39})?\.json", manifest)
    errata = re.escape(since.group(1) or "") if since else "(?!)"
    return re.compile(rf"{re.escape(game)}{errata}(-single-sided)?\.pdf"
                      rf"|svg{errata}/sheet-[0-9]{{3,6}}-[a-z]{{1,10}}\.svg"
                      r"|png/sheet-[0-9]{3,6}-[a-z]{1,10}\.png")


def written_before(folder: Path, manifest: str = "manifest.json") -> list[str]:
    """The files (relative to ``folder``) that the last build there listed as its own.

    The manifest is read within bounds (MAX_MANIFEST_BYTES, Python's nesting limit,
    MAX_WRITTEN files), and one that irata did not write counts as absent, so nothing is
    deleted on its word: it must be a mapping whose ``game`` is this folder's game and whose
    every file is a name a build of that game writes (``own_names``)."""
    data = _read_manifest(folder / manifest)
    if not isinstance(data, dict) or data.get("game") != folder.name:
        return []
    written = data.get("written")
    if isinstance(written, list):
        named: list[Any] = written
    else:
        # manifests from before ``written`` was kept: the PDFs, SVGs and PNGs they name
        named = [data.get("pdf")]
        files, sheets = data.get("files") or [], data.get("sheets") or []
        if not isinstance(files, list) or not isinstance(sheets, list) \
                or len(files) + 2 * len(sheets) > MAX_WRITTEN:
            return []
        named += [f.get("file") for f in files if isinstance(f, dict)]
        for sheet in sheets:
            if isinstance(sheet, dict):
                named.extend(n for n in (sheet.get("svg"), sheet.get("png")) if n is not None)
        named = [n for n in named if n is not None]
    if len(named) > MAX_WRITTEN:
        return []
    own = own_names(folder.name, manifest)
    if not all(isinstance(f, str) and own.fullmatch(f) for f in named):
        return []
    return list(dict.fromkeys(named))


def remove_stale(folder: Path, before: Iterable[str], now: Iterable[str]) -> list[str]:
    """Delete the files the last build wrote (``before``) that this one did not (``now``):
    only regular files, only inside ``folder``, never a manifest. Returns them."""
    keep = set(now)
    removed = []
    for rel in before:
        if rel in keep or not rel or Path(rel).is_absolute() or ".." in Path(rel).parts \
                or Path(rel).name.startswith("manifest"):
            continue
        try:
            path = confine(folder, rel)
        except InputError:
            continue
        if path.is_file() and not (folder / rel).is_symlink():
            try:
                os.unlink(path)
            except OSError:
                continue
            removed.append(rel)
    return removed
