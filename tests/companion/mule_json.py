"""M.U.L.E.'s steps called over a saved game's JSON form, for the tests that build their states
as the saved game holds them (``saved.new_game``, then a few keys changed by hand) and read the
result the same way.

The steps and the guided walk take and return the typed :class:`companion.mule.state.State`
(the JSON form is read and written by the declaration alone); ``on_json(module)`` calls a
module's functions with every JSON form given read into a State (:func:`from_json`) and every
State returned, alone or in a tuple, written back (:func:`to_json`), so a test reads as it did.
Nothing is changed in place: a test keeps what a call returns.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from companion.mule.state import Land, State, from_json, to_json

__all__ = ["from_json", "json_land", "on_json", "plain", "to_json", "typed"]


def typed(x: Any) -> Any:
    """A saved game's JSON form as the typed State; anything else as it is."""
    return from_json(x) if isinstance(x, dict) and "players" in x and "ranking" in x else x


def json_land(land: Land) -> dict[str, Any]:
    """A Land as the saved game keeps it."""
    return {"land": land.land, "tile": land.tile, "square": land.square, "mule": land.mule,
            "secret": land.secret, **land.extra}


def plain(x: Any) -> Any:
    """A State (a Land) returned, alone or in a plain tuple, as its JSON form."""
    if isinstance(x, State):
        return to_json(x)
    if isinstance(x, Land):
        return json_land(x)
    if type(x) is tuple:
        return tuple(plain(v) for v in x)
    return x


class on_json:  # noqa: N801 - read as a function: on_json(steps).claim(...)
    """``module``'s functions over JSON forms (see the module's docstring)."""

    def __init__(self, module: ModuleType) -> None:
        self._module = module

    def __getattr__(self, name: str) -> Any:
        f = getattr(self._module, name)
        if not callable(f) or isinstance(f, type):
            return f

        def call(*args: Any, **kwargs: Any) -> Any:
            return plain(f(*(typed(a) for a in args),
                           **{k: typed(v) for k, v in kwargs.items()}))

        called: Callable[..., Any] = call
        return called
