"""Mutagen's rule data, read once from ``components/mutagen`` (``companion.data``)."""

from __future__ import annotations

from typing import Any

from companion.data import rule_data
from companion.mutagen.rules import Crew, Rules, rules_from_data

__all__ = ["Catalogue", "catalogue", "load_rules"]


def _rules(game: Any) -> Rules:
    return rules_from_data(game.data)


def load_rules() -> Rules:
    """The bundled game's rules (``components/mutagen``'s ``data:``)."""
    return rule_data("mutagen", _rules)


Catalogue = tuple[dict[str, Crew], dict[str, tuple[str, str]], dict[str, str]]


def _catalogue(game: Any) -> Catalogue:
    crew = {}
    titles = {}
    for c in game.by_group("Crew cards"):
        f = c.fields
        crew[c.id] = Crew(kind=str(f["crew"]), element=f.get("element"), left=f.get("left"),
                          right=f.get("right"), id=c.id)
        titles[c.id] = str(f.get("title", c.id))
    tiles = {c.id: (str(c.fields["spaces"][0]), str(c.fields["spaces"][1]))
             for c in game.by_group("Storage tiles")}
    return crew, tiles, titles


def catalogue() -> Catalogue:
    """Crew cards by id, Storage tiles by id, and each Crew card's printed title by id."""
    return rule_data("mutagen", _catalogue)
