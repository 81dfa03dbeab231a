"""Shared fixtures for the print engine's tests: a small game folder and built outputs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from components import load_path
from generator.build import BuildOptions, build
from generator.layout import Settings

DECK = Path(__file__).parent / "fixtures" / "deck"


@pytest.fixture()
def deck_dir(tmp_path: Path) -> Path:
    """A writable copy of the test game folder."""
    dest = tmp_path / "deck"
    shutil.copytree(DECK, dest)
    return dest


def build_deck(out: Path, folder: Path = DECK, **settings: Any) -> dict[str, Any]:
    stamp = settings.pop("stamp_qr", False)
    formats = settings.pop("formats", ("pdf", "svg"))
    game = load_path(folder)
    result = build(game, BuildOptions(Settings(**settings), formats, out, stamp))
    return json.loads(result.manifest.read_text())


@pytest.fixture()
def builder() -> Any:
    """``build_deck(out, folder=DECK, **settings)``: build and return the manifest."""
    return build_deck


@pytest.fixture(scope="module")
def a4_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("a4")
    return out, build_deck(out, paper="a4")


@pytest.fixture(scope="module")
def letter_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("letter")
    return out, build_deck(out, paper="letter")
