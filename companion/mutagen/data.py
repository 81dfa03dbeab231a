"""Mutagen's rule data, read once from ``components/mutagen`` (``companion.data``)."""

from __future__ import annotations

from typing import Any

from companion.data import rule_data
from companion.mutagen.rules import Crew, Rules, rules_from_data
from companion.record import NamedTuple

__all__ = ["Cards", "Catalogue", "cards", "catalogue", "element_tokens", "load_rules",
           "printed_copies"]


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


def _copies(game: Any) -> tuple[dict[tuple[str, str | None, str | None, str | None], int],
                                dict[str, int]]:
    crew: dict[tuple[str, str | None, str | None, str | None], int] = {}
    for c in game.by_group("Crew cards"):
        f = c.fields
        key = (str(f["crew"]), f.get("element"), f.get("left"), f.get("right"))
        crew[key] = crew.get(key, 0) + int(c.count)
    trees: dict[str, int] = {}
    for c in game.by_group("Tree cards"):
        colour = str(c.fields["tree"])
        trees[colour] = trees.get(colour, 0) + int(c.count)
    return crew, trees


def printed_copies() -> tuple[dict[tuple[str, str | None, str | None, str | None], int],
                              dict[str, int]]:
    """How many copies the printed game has of each Crew card (by kind and the Elements it
    shows) and of Tree cards of each colour."""
    return rule_data("mutagen", _copies)


def _elements(game: Any) -> tuple[int, int]:
    counts = {i.group: int(i.count) for i in game.inventory}
    return counts.get("Element tiles", 0), counts.get("Supreme Element tokens", 0)


def element_tokens(plight: bool = False) -> int:
    """The Element tiles in the box (and the Supreme Element tokens with The Plight of the
    People): no table holds more in storage."""
    regular, supreme = rule_data("mutagen", _elements)
    return regular + (supreme if plight else 0)


class Cards(NamedTuple):
    """What the moves during a round read from the printed cards and tokens: each Crew card's
    printed cost, each Tree card's colour and Shard Fragments, each People card's copies, each
    Storage tile's two squares, and each Bonus token kind's amount and copies."""

    crew_cost: dict[str, int]
    trees: dict[str, tuple[str, int]]
    people: dict[str, int]
    tiles: dict[str, tuple[str, str]]
    bonus: dict[str, tuple[int, int]]


def _cards(game: Any) -> Cards:
    crew = {c.id: int(c.fields["cost"]) for c in game.by_group("Crew cards")}
    trees = {c.id: (str(c.fields["tree"]), int(c.fields["shards"]))
             for c in game.by_group("Tree cards")}
    people = {c.id: int(c.count) for c in game.by_group("People cards")}
    tiles = {c.id: (str(c.fields["spaces"][0]), str(c.fields["spaces"][1]))
             for c in game.by_group("Storage tiles")}
    bonus: dict[str, tuple[int, int]] = {}
    for c in game.by_group("Bonus tokens"):
        kind = str(c.fields["bonus"])
        bonus[kind] = (int(c.fields["amount"]), bonus.get(kind, (0, 0))[1] + int(c.count))
    return Cards(crew, trees, people, tiles, bonus)


def cards() -> Cards:
    """The printed cards and tokens the moves during a round read (see :class:`Cards`)."""
    return rule_data("mutagen", _cards)


def _element_copies(game: Any) -> dict[str, int]:
    copies = {f"{c.fields['colour']} {c.fields['type']}": int(c.count)
              for c in game.by_group("Element tiles")}
    copies["supreme"] = _elements(game)[1]
    return copies


def element_copies() -> dict[str, int]:
    """How many of each Element the box holds, by ``"colour type"`` (``"blue ore"``), and of
    Supreme Element tokens (``"supreme"``, The Plight of the People)."""
    return rule_data("mutagen", _element_copies)


def _tree_needs(game: Any) -> dict[str, tuple[str, ...]]:
    return {c.id: tuple(str(n) for n in c.fields["needs"]) for c in game.by_group("Tree cards")}


def tree_needs() -> dict[str, tuple[str, ...]]:
    """The Element colours each Tree card shows (by id): "return Elements ... which match the
    same colours as shown on the Tree card"."""
    return rule_data("mutagen", _tree_needs)
