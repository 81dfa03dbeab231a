"""Outer Earth's rule data, read once from ``components/outer_earth`` (``companion.data``)."""

from __future__ import annotations

from companion.data import rule_data
from companion.outer_earth.rules import (
    BonusRevenue,
    Planet,
    Rules,
    bonus_revenue_from_game,
    long_bonus_ids_from_game,
    planets_from_game,
    rules_from_game,
)

__all__ = ["bonus_revenue_cards", "load_rules", "long_bonus_ids", "planet_cards"]


def load_rules() -> Rules:
    """The rules as the bundled Outer Earth definitions hold them."""
    return rule_data("outer-earth", rules_from_game)


def planet_cards() -> dict[str, Planet]:
    """The printed planet cards, by id."""
    return rule_data("outer-earth", planets_from_game)


def bonus_revenue_cards() -> dict[str, BonusRevenue]:
    """The printed Bonus Revenue cards, by id."""
    return rule_data("outer-earth", bonus_revenue_from_game)


def long_bonus_ids() -> frozenset[str]:
    """The Bonus Revenue cards only the long game uses."""
    return rule_data("outer-earth", long_bonus_ids_from_game)
