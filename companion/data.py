"""The one way every companion reads its rule data from the game's own definitions.

Each game's ``companion/<game>/data.py`` builds its rule values through these helpers, so an
erratum to a card changes the printed card and the arithmetic together, and a game folder is
read once per process however many commands ask:

- :func:`definitions` is the game's ``components.Game`` (bundled, or a designer's folder),
  loaded once per process and read afresh when a file it is read from changes.
- :func:`rule_data` is a value built from those definitions by a game's pure builder
  (``rules_from_game``), kept beside them, so it is built once as well.
- :func:`cached_json` keeps a small JSON extract in the user's cache directory between
  processes, for companions whose quick commands must not pay for reading a whole folder
  (M.U.L.E.'s calculators). The key is the folder's stamp (``components.stamp``, the one the
  loader uses): the name and contents of every YAML and CSV file, the name, size and time of
  every spreadsheet and font, so an edited definition is read afresh on the next command.

``components`` (and with it PyYAML and the schema) is imported only when definitions are read.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from components.schema import Game

T = TypeVar("T")

__all__ = ["cached_json", "definitions", "folder_of", "rule_data"]

# (folder, fingerprint) -> the loaded game, and the values built from it
_GAMES: dict[tuple[str, str], Game] = {}
_BUILT: dict[tuple[str, str, Callable[..., Any]], Any] = {}
_JSON: dict[tuple[str, str], dict[str, Any]] = {}


def folder_of(game: str, folder: Path | None = None) -> Path:
    """The game's folder: the one named, else the bundled ``components/<game>``."""
    if folder is not None:
        return Path(folder)
    import components

    return components.bundled_root() / game.replace("-", "_")


def _fingerprint(folder: Path) -> str:
    """The folder's place and the loader's stamp of what it is read from (YAML, spreadsheets,
    fonts): one fingerprint for the loader's cache and the companion's."""
    from components.stamp import blake2b, stamp

    where = str(folder.resolve())
    return blake2b(f"{where}\0{stamp(folder)}".encode(), digest_size=8).hexdigest()


def _key(game: str, folder: Path | None) -> tuple[Path, tuple[str, str]]:
    where = folder_of(game, folder)
    return where, (str(where.resolve()), _fingerprint(where) if where.is_dir() else "")


def definitions(game: str, folder: Path | None = None) -> Game:
    """The game's definitions (errata applied), loaded once per process."""
    where, key = _key(game, folder)
    if key not in _GAMES:
        import components

        _GAMES[key] = (components.load_path(where) if folder is not None
                       else components.load(game))
    return _GAMES[key]


def rule_data(game: str, build: Callable[[Game], T], folder: Path | None = None) -> T:
    """``build(definitions(game))``, built once per process (and per edit of the folder)."""
    _, key = _key(game, folder)
    memo = (*key, build)
    if memo not in _BUILT:
        _BUILT[memo] = build(definitions(game, folder))
    built: T = _BUILT[memo]
    return built


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "irata"


def cached_json(game: str, extract: Callable[[Game], dict[str, Any]], version: int,
                folder: Path | None = None) -> dict[str, Any]:
    """``extract(definitions(game))``, a JSON-able dict, kept on disk between processes.

    ``version`` names the extract's layout: a cache written by another layout is ignored."""
    where, key = _key(game, folder)
    if key in _JSON:
        return _JSON[key]
    fingerprint = key[1]
    cache = _cache_dir() / f"{game}-data-{fingerprint}.json"
    raw: dict[str, Any] | None = None
    if fingerprint:
        try:
            raw = json.loads(cache.read_text(encoding="utf-8"))
            if not isinstance(raw, dict) or raw.get("version") != version:
                raw = None
        except (OSError, ValueError):
            raw = None
    if raw is None:
        raw = {**extract(definitions(game, folder if where.is_dir() else None)),
               "version": version}
        if fingerprint:
            _write(cache, raw)
            _prune(_cache_dir(), f"{game}-data-")
    _JSON[key] = raw
    return raw


KEPT = 8  # extracts kept per game: one per folder and edit, the newest ones


def _prune(folder: Path, prefix: str) -> None:
    """Remove all but the ``KEPT`` newest extracts named ``prefix*.json``: every edit of a game
    folder writes a new one, and nothing reads an old one again once its folder changed."""
    try:
        found = [(entry.stat().st_mtime_ns, entry.path) for entry in os.scandir(folder)
                 if entry.name.startswith(prefix) and entry.name.endswith(".json")
                 and entry.is_file(follow_symlinks=False)]
        for _, path in sorted(found, reverse=True)[KEPT:]:
            os.unlink(path)
    except OSError:
        pass  # another process pruned first, or the cache is not ours to tidy: only space


def _write(cache: Path, raw: dict[str, Any]) -> None:
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(raw), encoding="utf-8")
        os.replace(tmp, cache)
    except OSError:
        pass  # a cache that cannot be written only costs time
