"""The definitions: bundled game folders of YAML, and the loader that reads any such folder.

``load("mule")`` reads a bundled game; ``load("mule", root=DIR)`` or ``load_path(DIR)`` reads a
designer's own folder. Errata (``errata.yaml``) are applied on load, so every user of a
``Game`` (the printer and the companion alike) sees the current edition.

This package's top level stays light (the loader, the schema and PyYAML load on first use), so
that importing ``components.errors`` costs the companion's quick commands nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from components.loader import (
        game_folder,
        list_games,
        load,
        load_path,
    )
    from components.schema import Component, Game, InventoryGroup

__all__ = ["Component", "Game", "InventoryGroup", "bundled_root", "game_folder", "list_games",
           "load", "load_path"]

_FROM = {
    "Component": "components.schema",
    "Game": "components.schema",
    "InventoryGroup": "components.schema",
    "game_folder": "components.loader",
    "list_games": "components.loader",
    "load": "components.loader",
    "load_path": "components.loader",
}


def bundled_root() -> Path:
    """The folder that holds the bundled game folders (this package's own)."""
    return Path(__file__).resolve().parent


def __getattr__(name: str) -> Any:
    if name in _FROM:
        import importlib

        value = getattr(importlib.import_module(_FROM[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'components' has no attribute {name!r}")
