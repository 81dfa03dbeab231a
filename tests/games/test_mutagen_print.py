"""Mutagen's printable copy: the rulebook's component list, the card and tile mixes, printed
numbers that agree with the rule data the companion uses, and builds whose text all fits."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import components
from companion.mutagen.airship import check_restriction
from companion.mutagen.data import load_rules
from companion.mutagen.rules import Crew, check_crew
from components import Game

RULEBOOK_LIST = {  # the rulebook's Components and Player components, then the expansions'
    "Game board": 1,
    "First player marker": 1,
    "Round tracker token": 1,
    "Mutation cards": 20,
    "Crew cards": 27,
    "Tree cards": 30,
    "Storage tiles": 32,
    "Element tiles": 80,
    "Shard Fragment tokens": 40,
    "Bonus tokens": 8,
    "Mutation attachments": 20,
    "Airship boards": 4,
    "Element tracker tokens": 16,
    "Progress tracker tokens": 4,
    "Score tracker tokens": 4,
    "Workers": 16,
    "Supreme Element tokens": 16,
    "People cards": 20,
    "Visitor cards": 20,
    "Palace board": 1,
}


@pytest.fixture(scope="module")
def game() -> Game:
    return components.load("mutagen")


def test_inventory_follows_the_rulebook(game: Game,
                                        follows_rulebook: Callable[..., None]) -> None:
    follows_rulebook(game, RULEBOOK_LIST)
    assert {g.group for g in game.inventory if not g.printed} == {"Mutation attachments",
                                                                  "Rulebook"}
    counts = game.counts()
    for g in game.inventory:
        if g.printed:
            assert counts[g.group] == g.count, g.group


def test_eighty_element_tiles_in_four_types_and_four_colours(game: Game) -> None:
    rules = load_rules()
    by_type: Counter[str] = Counter()
    by_colour: Counter[str] = Counter()
    for tile in game.by_group("Element tiles"):
        by_type[tile.fields["type"]] += tile.count
        by_colour[tile.fields["colour"]] += tile.count
    assert by_type == {e: 20 for e in rules.elements}
    assert by_colour == {c: 20 for c in rules.colours}


def test_tree_cards_come_in_three_colours_and_ask_for_element_colours(game: Game) -> None:
    rules = load_rules()
    trees = game.by_group("Tree cards")
    assert Counter(t.fields["tree"] for t in trees) == {c: 10 for c in rules.tree_colours}
    for t in trees:
        needs = t.fields["needs"]
        assert 2 <= len(needs) <= 4 and set(needs) <= set(rules.colours), t.id
        assert [t.fields[f"need{i + 1}"] for i in range(len(needs))] == needs
        assert t.fields["shards"] > 0


def test_every_crew_card_is_one_the_companion_can_score(game: Game) -> None:
    rules = load_rules()
    kinds: Counter[str] = Counter()
    for c in game.by_group("Crew cards"):
        f = c.fields
        check_crew(Crew(f["crew"], f.get("element"), f.get("left"), f.get("right")), rules)
        kinds[f["crew"]] += c.count
    assert set(kinds) == set(rules.crew_kinds) and sum(kinds.values()) == 27


def test_storage_tiles_show_restrictions_the_airship_checker_knows(game: Game) -> None:
    rules = load_rules()
    tiles = game.by_group("Storage tiles")
    for t in tiles:
        assert len(t.fields["spaces"]) == 2
        for space in t.fields["spaces"]:
            assert check_restriction(space, rules) == space


def test_the_airship_board_prints_the_costs_the_companion_charges(game: Game) -> None:
    rules = load_rules()
    want = [f"{c} {{fragment}}" for row in rules.airship["costs"] for c in row]
    boards = game.by_group("Airship boards")
    assert len(boards) == 4
    for b in boards:
        assert b.fields["costs"] == want


def test_every_location_prints_the_worker_space_pips_of_the_rules(game: Game) -> None:
    pips = [el["n"] for el in game.layouts["location"] if el.get("type") == "pips"]
    assert pips == list(load_rules().worker_space_pips)


def test_mutation_cards_show_both_costs(game: Game) -> None:
    for m in game.by_group("Mutation cards"):
        assert isinstance(m.fields["activation"], int) and isinstance(m.fields["reaction"], int)
        assert m.fields["activation"] < m.fields["reaction"], m.id


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_whole_game_builds_and_its_text_fits(game: Game, paper: str, tmp_path: Path,
                                                 build_pdf: Callable[..., Any]) -> None:
    result = build_pdf(game, tmp_path, paper)
    assert [r for r in result.fits if not r.fits] == []
    assert [r for r in result.fits if r.size < r.wanted] == []    # nothing even shrank
    manifest = json.loads(result.manifest.read_text())
    placed: Counter[str] = Counter()
    for sheet in manifest["sheets"]:
        for p in sheet.get("placements", []):
            if p.get("face", "front") == "front":
                placed[p["component"]] += 1
    for comp in game.components:
        if comp.printed:
            assert placed[comp.id] >= comp.count, comp.id
