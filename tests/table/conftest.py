"""Fixtures for the table view's tests: a games file per test with a saved game, and the table
view served (see tablerun.py)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the table view's extra is not installed")

sys.path.insert(0, str(Path(__file__).parent))
from tablerun import NEW_MULE, Served, irata, serve  # noqa: E402


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IRATA_DB", str(tmp_path / "games.sqlite3"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.fixture
def mule_db(tmp_path: Path) -> Path:
    """A games file holding a new 4-player Tournament game of M.U.L.E. (game 1)."""
    irata("play", "mule", *NEW_MULE)
    return tmp_path / "games.sqlite3"


@pytest.fixture
def served(mule_db: Path) -> Iterator[Served]:
    yield from serve(mule_db)
