"""Mule Goes Crazy!'s rule data, read once from ``components/mule_goes_crazy``.

The cards are looked up by name in the definitions themselves (``rules.find_card``); the
Land Auction, spoilage and upkeep numbers come from its ``data:`` (``companion.data``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.data import definitions

if TYPE_CHECKING:
    from components.schema import Game

__all__ = ["game", "turn_data"]


def game() -> Game:
    """The bundled definitions (errata applied), loaded once per process."""
    return definitions("mule-goes-crazy")


def _turn_data(g: Game) -> dict[str, Any]:
    return {"resource_auction": {"order": list(g.data["resource_auction"]["order"])},
            "game_end": {"draw_pile_exhausted":
                         int(g.data["game_end"]["draw_pile_exhausted"])}}


def turn_data() -> dict[str, Any]:
    """What ``next`` reads of the game's data (the Resource Auctions' order, when the game
    ends), kept in the user's cache between commands (``companion.data.cached_json``): a
    step's prompt need not read the whole deck."""
    from companion.data import cached_json

    return cached_json("mule-goes-crazy", _turn_data, 1)
