"""Mule Goes Crazy!'s printable copy: the deck's card types and counts, printed numbers that
agree with the card data the companion computes with, the sheets, and builds whose text fits."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import components
from companion.mule_goes_crazy import rules as mgc
from components import Game

DECK = {
    "Land cards": 14,
    "Mule cards": 12,
    "Interrupt cards": 8,
    "Event cards": 7,
    "Population cards": 6,
    "Facility cards": 3,
    "Upgrade cards": 4,
}


@pytest.fixture(scope="module")
def game() -> Game:
    return components.load("mule-goes-crazy")


def test_the_deck_holds_every_card_type_of_the_draft(game: Game) -> None:
    counts = game.counts()
    assert {g: counts[g] for g in DECK} == DECK
    cards = [c for c in game.components if c.kind == "card"]
    assert sum(c.count for c in cards) == 54  # six sheets of nine
    assert all(c.back == "deck-back" and c.size == (63.5, 88.9) for c in cards)
    # what the draft lists besides the cards: a die and pencils, not printed
    assert {g.group for g in game.inventory if not g.printed} == {"Six-sided dice", "Pencils"}


def test_the_drafts_sample_cards_are_in_the_deck(game: Game) -> None:
    energy = game.component("mule/energy").fields
    assert energy["cost_line"] == "**Cost:** 5 {smithore} Smithore, 100 (200) Credits"
    assert energy["energy_use"] == 5 and energy["move_cost"] == {"food": 5}
    assert game.component("interrupt/lose-money-gambling").fields["cost_line"] == "**Cost:** 0"
    assert "Mule goes crazy!" in game.component("event/radiation-storm").fields["text"]
    pop = game.component("population/colonists").fields
    assert pop["people"] == 100 and pop["upkeep"] == {"food": 20, "energy": 10}
    assert "20 {food} Food and 10 {energy} Energy per Turn from the Store" in pop["cost_line"]
    assert game.component("facility/hydroponic-gardens").fields["effect"]["store_food"] == 10
    assert game.component("upgrade/photosynthesis").fields["cost"] == {"credits": 400}


def test_every_land_names_dice_for_the_four_resources(game: Game) -> None:
    for land in game.by_group("Land cards"):
        dice = land.fields["dice"]
        assert set(dice) == set(mgc.RESOURCES) and all(0 <= n <= 3 for n in dice.values())
    produced = Counter(c.fields["produces"] for c in game.by_group("Mule cards")
                       for _ in range(c.count))
    assert produced == {r: 3 for r in mgc.RESOURCES}


def test_printed_costs_agree_with_the_numbers(game: Game) -> None:
    for c in game.by_group("Mule cards"):
        assert c.fields["cost_line"] == mgc.cost_line(c.fields["cost"],
                                                      c.fields["short_credits"])
    for c in game.by_group("Population cards"):
        up = c.fields["upkeep"]
        assert f"{up['food']} {{food}} Food and {up['energy']} {{energy}} Energy" in \
            c.fields["cost_line"]


def test_the_sheets_start_from_the_drafts_setup(game: Game) -> None:
    setup = game.data["setup"]
    player = json.dumps(game.component("sheet/player").front)
    assert all(json.dumps(str(setup["player"][k])) in player
               for k in ("credits", "energy", "food"))
    store = json.dumps(game.component("sheet/store").front)
    assert '"Start", "50", "50", "0", "0"' in store
    prices = game.data["resource_auction"]["starting_prices"]
    assert f'"Start", "{prices["smithore"]}", "{prices["crystite"]}"' in store


def test_the_rules_sheet_marks_the_chosen_rules(game: Game) -> None:
    sheet = game.component("sheet/rules")
    assert sheet.two_sided
    text = json.dumps([sheet.front, sheet.back])
    for chosen in ("Resource Auctions*", "The end of the game*", "rounding down.*"):
        assert chosen in text
    assert "Starred rules are chosen for this copy" in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_builds_with_every_text_fitting(game: Game, tmp_path: Path, paper: str,
                                        build_pdf: Callable[..., Any]) -> None:
    from generator.build import fit_report

    result = build_pdf(game, tmp_path, paper)
    _, overflow = fit_report(result.fits)
    assert overflow == []
    manifest = json.loads(result.manifest.read_text())
    placed = Counter(p["component"] for s in manifest["sheets"] for p in s["placements"]
                     if p["face"] == "front")
    assert placed == {c.id: c.count for c in game.components if c.printed}


def test_every_player_gets_a_resource_sheet(game: Game, tmp_path: Path,
                                            build_pdf: Callable[..., Any]) -> None:
    """Each player keeps their resources on a sheet of their own: the print holds one for
    each seat the game allows, every one on its own page."""
    assert game.component("sheet/player").count == game.players["max"] == 5
    manifest = json.loads(build_pdf(game, tmp_path, "letter").manifest.read_text())
    pages = [(s["file"], s["page"]) for s in manifest["sheets"]
             for p in s["placements"] if p["component"] == "sheet/player" and p["face"] == "front"]
    assert len(set(pages)) == 5
