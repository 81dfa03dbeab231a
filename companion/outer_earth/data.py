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
from components.errors import InputError

__all__ = ["bonus_revenue_cards", "find_planet", "load_rules", "long_bonus_ids",
           "planet_cards"]


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


def find_planet(name: str) -> Planet:
    """A printed planet by its name or id (``Halcyon``, ``planet/halcyon``), any case."""
    from components.schema import suggest

    cards = planet_cards()
    key = name.strip().lower()
    for pid, planet in cards.items():
        if key in (pid.lower(), pid.split("/")[-1].lower(), planet.name.lower()):
            return planet
    names = [p.name for p in cards.values()]
    raise InputError(f"no planet '{name}'{suggest(name, names) or ' (see the planet cards)'}")
