"""Outer Earth's printable copy: the counts of the rulebook's component list, the card mix,
printed numbers that agree with the rule data, and a build whose text all fits."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import components
from components import Game

RULEBOOK_LIST = {  # the rulebook's Components, as irata's inventory names them
    "Development Cards": 100,
    "Company Dashboards": 4,
    "Planet Cards": 20,
    "Bonus Revenue Cards": 30,
    "Bidding Paddles": 8,          # 4 sets of a green and a red paddle
    "Dice": 12,
    "Starting Player Tracker and Meeple": 2,
}


@pytest.fixture(scope="module")
def game() -> Game:
    return components.load("outer-earth")


@pytest.fixture(scope="module")
def manifest(tmp_path_factory: pytest.TempPathFactory, game: Game,
             build_pdf: Callable[..., Any]) -> dict[str, Any]:
    result = build_pdf(game, tmp_path_factory.mktemp("outer-earth-print"))
    overflow = [r for r in result.fits if not r.fits]
    assert not overflow, f"text that does not fit: {overflow}"
    return json.loads(result.manifest.read_text())  # type: ignore[no-any-return]


def test_inventory_follows_the_rulebook(game: Game,
                                        follows_rulebook: Callable[..., None]) -> None:
    follows_rulebook(game, RULEBOOK_LIST)
    not_printed = {g.group for g in game.inventory if not g.printed}
    assert not_printed == {"Dice", "Rulebook"}
    counts = game.counts()
    for g in game.inventory:
        if g.printed:
            assert counts[g.group] == g.count, g.group


def test_development_cards_by_colour(game: Game) -> None:
    colours: Counter[str] = Counter()
    for card in game.by_group("Development Cards"):
        colours[card.get("development")] += card.count
        exits = card.get("exits")
        assert set(exits) == {"blue", "yellow", "red"}
        assert any(exits.values()), f"{card.id} has no exit path"
        named = card.id.split("-to-")[1].split("-")
        assert named == [c for c in ("blue", "yellow", "red") if exits[c]], card.id
    assert colours == {"blue": 40, "yellow": 35, "red": 25}


def test_planets_and_the_long_game(game: Game) -> None:
    planets = game.by_group("Planet Cards")
    assert len(planets) == 20 and all(p.count == 1 for p in planets)
    assert sum(1 for p in planets if p.get("long")) == 8
    for p in planets:
        assert 3 <= p.get("requirement") <= 7
        assert any(p.get("start_paths").values()), p.id
        assert set(p.get("benefits")) == {"draw", "build", "sell"}
        assert 0 <= p.get("dice_increase") <= 2


def test_bonus_revenue_cards_print_the_cost_they_compute_with(game: Game) -> None:
    cards = game.by_group("Bonus Revenue Cards")
    assert sum(c.count for c in cards) == 30
    assert sum(1 for c in cards if c.get("long")) == 12
    for c in cards:
        printed = re.findall(r"\{dev-(\w+)\}", c.get("cost_icons"))
        assert printed == list(c.get("cost")), c.id
        assert ("{link}" in c.get("cost_icons")) == c.get("linked"), c.id
    # the rulebook's sell example card: red, yellow, yellow, linked, 8 VP
    example = game.component("br/14")
    assert (example.get("cost"), example.get("linked"), example.get("vp")) == (
        ["red", "yellow", "yellow"], True, 8)


def test_short_games_have_enough_bonus_revenue_cards(game: Game) -> None:
    short = sum(c.count for c in game.by_group("Bonus Revenue Cards") if not c.get("long"))
    for row in game.data["setup"]["table"]:
        piles = row["bonus_revenue"]
        assert piles["short"]["piles"] * piles["short"]["cards"] <= short
        assert piles["normal"]["piles"] * piles["normal"]["cards"] <= 30


def test_the_setup_card_prints_the_setup_table(game: Game) -> None:
    card = game.component("reference/setup")
    grids = [el for el in card.front if el.get("type") == "grid"]
    labels = grids[-1]["labels"]
    rows = [labels[i:i + 5] for i in range(0, len(labels), 5)]
    for printed, row in zip(rows, game.data["setup"]["table"], strict=True):
        br = row["bonus_revenue"]
        assert printed == [
            str(row["players"]),
            f"{row['galaxy_deck']['short']} / {row['galaxy_deck']['normal']}",
            str(row["planet_market"]),
            f"{br['short']['piles']} × {br['short']['cards']}",
            f"{br['normal']['piles']} × {br['normal']['cards']}",
        ]


def test_every_printed_piece_is_on_a_sheet(game: Game, manifest: dict[str, Any]) -> None:
    fronts: Counter[str] = Counter()
    backs: Counter[str] = Counter()
    for sheet in manifest["sheets"]:
        for p in sheet["placements"]:
            (fronts if sheet["side"] == "front" else backs)[p["component"]] += 1
    for comp in game.components:
        if comp.printed:
            assert fronts[comp.id] == comp.count, comp.id
            assert backs[comp.id] == (comp.count if comp.back is not None else 0), comp.id
    by_group: Counter[str] = Counter()
    for comp in game.components:
        by_group[comp.group] += fronts[comp.id]
    assert by_group["Development Cards"] == 100
    assert by_group["Planet Cards"] == 20
    assert by_group["Bonus Revenue Cards"] == 30


def _text_boxes(elements: Any, layouts: dict[str, Any], dx: float = 0.0,
                dy: float = 0.0) -> list[tuple[str, float, float, float, float]]:
    """Every text element's box (with numeric x, y, w, h), through ``use``."""
    if isinstance(elements, str):
        elements = layouts[elements]
    out = []
    for el in elements:
        if el.get("type") == "use":
            out += _text_boxes(layouts[el["layout"]], layouts, dx + float(el.get("x", 0)),
                               dy + float(el.get("y", 0)))
        elif el.get("type") == "text":
            vals = [el.get(k) for k in ("x", "y", "w", "h")]
            if all(isinstance(v, (int, float)) for v in vals):
                out.append((str(el.get("text", el.get("field")))[:30], dx + vals[0],
                            dy + vals[1], float(vals[2]), float(vals[3])))
    return out


def test_text_stays_3mm_inside_the_trim(game: Game) -> None:
    for comp in game.components:
        if not comp.printed or comp.kind == "token":
            continue
        w, h = comp.size
        for face in (comp.front, comp.back):
            if face is None:
                continue
            for text, x, y, bw, bh in _text_boxes(face, game.layouts):
                assert x >= 3 and y >= 3, (comp.id, text)
                assert x + bw <= w - 3 + 1e-6 and y + bh <= h - 3 + 1e-6, (comp.id, text)


def test_paper_letter_builds(tmp_path: Path, game: Game, build_pdf: Callable[..., Any]) -> None:
    result = build_pdf(game, tmp_path, "letter")
    assert result.pdf is not None and result.pdf.stat().st_size > 0
    assert not [r for r in result.fits if not r.fits]
