"""Fixtures for the errata tests: a writable copy of the bundled M.U.L.E. folder, with errata."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

import components

ACID = "production/acid-rain-storm"
PEST = "production/pest-attack"
NEW_TEXT = ("Acid rain soaks the fields and corrodes the power lines. This Turn every Land "
            "producing {food} makes **2 more**, and every Land producing {energy} makes "
            "**1 less** (Erratum E1).")

# E1 is the issue's own example: Acid Rain Storm! lowers Energy by 1, not 2
ERRATA = f"""\
errata:
  - id: E1
    version: "1.1"
    date: 2026-11-29
    summary: Acid Rain Storm! lowers Energy by 1, not 2
    changes:
      - component: {ACID}
        set:
          modifiers: {{food: 2, energy: -1}}
          text: "{NEW_TEXT}"
"""

LATER = """\
  - id: E2
    version: "1.10"
    date: 2026-12-24
    summary: Pest Attack! sets the Crystite price to $8
    changes:
      - component: production/pest-attack
        set: {crystite_price: 8}
"""


@pytest.fixture()
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding a copy of the bundled mule game (without the bundled errata)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("IRATA_DB", str(tmp_path / "games.sqlite3"))
    dest = tmp_path / "games" / "mule"
    shutil.copytree(components.bundled_root() / "mule", dest,
                    ignore=shutil.ignore_patterns("__pycache__", "errata.yaml"))
    return dest.parent


@pytest.fixture()
def write_errata(root: Path) -> Callable[[str], Path]:
    """Write ``text`` as the copy's errata.yaml and return its path."""

    def write(text: str) -> Path:
        path = root / "mule" / "errata.yaml"
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture()
def E() -> SimpleNamespace:
    """The texts the tests share: the component ids and errata.yaml texts above."""
    return SimpleNamespace(ACID=ACID, PEST=PEST, NEW_TEXT=NEW_TEXT, ERRATA=ERRATA, LATER=LATER)
