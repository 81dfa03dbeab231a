"""Where a build may write and what it may delete: only inside the chosen output folder.

A game folder is untrusted, and the names it gives (its game name, its file stems) end up in
output paths. Every path a build writes goes through :func:`confine`, which resolves it
(symlinks included) and refuses it unless it lies inside the output folder. A build deletes only
files that the previous build wrote and listed in its manifest (``written``), so a person's own
file kept beside the sheets (``OUT/GAME/svg/MY-NOTES.txt``) survives every print.
"""

from __future__ import annotations

import json
import os
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


def written_before(folder: Path, manifest: str = "manifest.json") -> list[str]:
    """The files (relative to ``folder``) that the last build there listed as its own."""
    try:
        data = json.loads((folder / manifest).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(data, dict):
        return []
    written = data.get("written")
    if isinstance(written, list):
        return [f for f in written if isinstance(f, str)]
    # manifests from before ``written`` was kept: the PDFs, SVGs and PNGs they name
    named: list[Any] = [data.get("pdf")]
    for f in data.get("files") or []:
        if isinstance(f, dict):
            named.append(f.get("file"))
    for sheet in data.get("sheets") or []:
        if isinstance(sheet, dict):
            named.extend((sheet.get("svg"), sheet.get("png")))
    return [f for f in named if isinstance(f, str)]


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
