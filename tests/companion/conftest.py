"""Fixtures for the companion's tests: the M.U.L.E. rule data, and a games file per test."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.mule import data as mule_data

ROOT = Path(__file__).resolve().parents[2]

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "mule"


@pytest.fixture(scope="session")
def mule_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture game (a few cards and tiles) with the real rules.yaml beside it."""
    folder = tmp_path_factory.mktemp("mule-game") / "mule"
    shutil.copytree(FIXTURE, folder)
    shutil.copy(ROOT / "components" / "mule" / "rules.yaml", folder / "rules.yaml")
    return folder


@pytest.fixture(scope="session")
def md(mule_folder: Path) -> mule_data.MuleData:
    return mule_data.load(mule_folder)


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test has its own games file and cache directory."""
    monkeypatch.setenv("IRATA_DB", str(tmp_path / "games.sqlite3"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
