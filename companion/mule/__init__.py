"""The M.U.L.E. companion: the rules as pure functions (``rules``, ``pricing``, ``production``,
``events``), the numbers they use (``data``, read from the game's definitions), the Player
Board's Lands (``board``) and the saved game (``game``).

Importing this package registers M.U.L.E.'s fold with ``companion.session``; the fold's module
is imported only when a saved game is read, so the calculators stay light.
"""

from __future__ import annotations

from typing import Any

from companion import session


def _fold(events: list[session.Event]) -> dict[str, Any]:
    from companion.mule.game import fold

    return fold(events)


def _describe(state: dict[str, Any]) -> str:
    from companion.mule.game import describe

    return describe(state)


session.register("mule", _fold, _describe)
