"""Das Störrische Muli's companion: the rules (``rules``) and the saved game (``saved``).

Importing this package registers the saved game with ``companion.session``; its module is
imported only when a saved game is read, so the calculators stay light.
"""

from __future__ import annotations

from typing import Any

from companion import session


def _fold(events: list[session.Event]) -> dict[str, Any]:
    from companion.muli.rules import fold

    return fold(events)


def _describe(state: dict[str, Any]) -> str:
    from companion.muli.rules import describe

    return describe(state)


session.register("muli", _fold, _describe)
