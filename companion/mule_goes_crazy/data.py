"""Mule Goes Crazy!'s rule data, read once from ``components/mule_goes_crazy``.

The cards are looked up by name in the definitions themselves (``rules.find_card``); the
Land Auction, spoilage and upkeep numbers come from its ``data:`` (``companion.data``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.data import definitions

if TYPE_CHECKING:
    from components.schema import Game

__all__ = ["game"]


def game() -> Game:
    """The bundled definitions (errata applied), loaded once per process."""
    return definitions("mule-goes-crazy")
