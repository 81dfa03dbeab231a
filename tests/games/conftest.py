"""What the bundled games' print tests share: building a game's PDF sheets, and checking an
inventory against the rulebook's component list."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from components import Game


@pytest.fixture(scope="session")
def build_pdf() -> Callable[[Game, Path, str], Any]:
    """``build_pdf(game, out, paper)``: the game's PDF sheets on ``paper``, written to ``out``."""
    from generator.build import BuildOptions, build
    from generator.layout import Settings

    def run(game: Game, out: Path, paper: str = "a4") -> Any:
        return build(game, BuildOptions(Settings(paper=paper), ("pdf",), out))

    return run


@pytest.fixture(scope="session")
def follows_rulebook() -> Callable[[Game, dict[str, int]], None]:
    """``follows_rulebook(game, listed)``: the inventory opens with the rulebook's component
    list, in its order and with its counts."""

    def check(game: Game, rulebook: dict[str, int]) -> None:
        listed = {g.group: g.count for g in game.inventory}
        assert {k: listed.get(k) for k in rulebook} == rulebook
        assert [g.group for g in game.inventory][: len(rulebook)] == list(rulebook)

    return check
