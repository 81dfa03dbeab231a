"""Das Störrische Muli's rule data, read once from ``components/muli`` (``companion.data``)."""

from __future__ import annotations

from typing import Any

from companion.data import rule_data
from companion.muli.rules import RaceRules, rules_from_data

__all__ = ["load_rules"]


def _rules(game: Any) -> RaceRules:
    return rules_from_data(game.data)


def load_rules() -> RaceRules:
    """The race's numbers from the bundled definitions (``components/muli``)."""
    return rule_data("muli", _rules)
