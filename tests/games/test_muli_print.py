"""Das Störrische Muli's printable copy: the rulebook's component list, pieces and dice that
match the race's rule data, and builds (A4 and Letter) whose text all fits."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import components
from companion.muli.data import load_rules
from companion.muli.rules import MULE, setup
from components import Game

RULEBOOK_LIST = {  # the rulebook's Game Components, in its order
    "Game Board": 1,
    "Mules": 5,
    "Human Runners": 3,
    "Mule blankets": 5,
    "Color dice": 2,
    "Plastic stands": 8,
}


@pytest.fixture(scope="module")
def game() -> Game:
    return components.load("muli")


def test_inventory_follows_the_rulebook(game: Game,
                                        follows_rulebook: Callable[..., None]) -> None:
    follows_rulebook(game, RULEBOOK_LIST)
    # the stands are not printed: each standee folds into its own base
    assert {g.group for g in game.inventory if not g.printed} == {"Plastic stands"}
    counts = game.counts()
    for g in game.inventory:
        if g.printed:
            assert counts[g.group] == g.count, g.group


def test_standees_and_blankets_come_in_the_race_colours(game: Game) -> None:
    rules = load_rules()
    assert [c.fields["colour"] for c in game.by_group("Mules")] == list(rules.mule_colours)
    assert [c.fields["colour"] for c in game.by_group("Human Runners")] == \
        list(rules.runner_colours)
    assert [c.fields["colour"] for c in game.by_group("Mule blankets")] == \
        list(rules.mule_colours)
    assert all(c.kind == "standee" for c in game.by_group("Mules") + game.by_group(
        "Human Runners"))
    for n in (3, 4, 5):  # every player count finds its six pieces among the printed ones
        race = setup(rules, [f"P{i}" for i in range(n)])
        printed = {(c.fields["colour"], "mule" if c.group == "Mules" else "runner")
                   for c in game.by_group("Mules") + game.by_group("Human Runners")}
        assert {(p.colour, p.kind) for p in race.pieces} <= printed
        assert sum(p.kind == MULE for p in race.pieces) == n


def test_the_colour_dice_show_the_six_colours(game: Game) -> None:
    die = game.component("colour-die")
    assert die.kind == "die" and die.count == 2
    assert [f["colour"] for f in die.faces] == list(load_rules().colours)
    assert all(f["colour"] in game.palette for f in die.faces)


def test_the_board_has_the_fields_up_to_the_turning_field(game: Game) -> None:
    from generator.draw import Options, draw_component
    from generator.drawing import Text, walk

    front = draw_component(game, game.component("board"), Options()).front
    texts = [p.text for p in walk(front.items) if isinstance(p, Text)]
    # the numbered fields come from the rule data the companion races on, nothing else
    numbers = [int(t) for t in texts if t.isdigit()]
    assert numbers == list(range(1, load_rules().turning_field))
    words = " ".join(texts)
    assert "START" in words and "FINISH" in words and "TURNING FIELD" in words
    assert "THE CITY" in words


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_builds_with_every_text_fitting(game: Game, tmp_path: Path, paper: str,
                                        build_pdf: Callable[..., Any]) -> None:
    from generator.build import fit_report

    result = build_pdf(game, tmp_path, paper)
    shrunk, overflow = fit_report(result.fits)
    assert overflow == []
    manifest = json.loads(result.manifest.read_text())
    placed = {p["component"] for s in manifest["sheets"] for p in s["placements"]}
    assert placed == {c.id for c in game.components if c.printed}
    # the board is split into two pages, side by side
    parts = [p["part"] for s in manifest["sheets"] for p in s["placements"]
             if p["component"] == "board"]
    assert parts == ["A1", "B1"]
