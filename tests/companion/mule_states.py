"""Typed M.U.L.E. States for the tests: a game set up (``saved.new_game``) read as the State,
then a few fields changed by hand (``State._replace``, or these helpers for a Colonist's
numbers, which sit a level down)."""

from __future__ import annotations

from typing import Any

from companion.mule.state import GOODS, Colonist, State

__all__ = ["colonist", "with_colonist", "with_colonists"]


def colonist(c: Colonist, **fields: Any) -> Colonist:
    """``c`` with ``fields`` changed: ``money``, ``lands``, ``mules``, ``extra``, or a Good's
    stock by its name (``food=3``)."""
    goods = {k: fields.pop(k) for k in GOODS if k in fields}
    return c._replace(stocks=c.stocks._replace(**goods), **fields)


def with_colonist(s: State, name: str, **fields: Any) -> State:
    """``s`` with the Colonist ``name`` changed (:func:`colonist`)."""
    if name not in {c.name for c in s.colonists}:
        raise KeyError(name)
    return s._replace(colonists=tuple(colonist(c, **fields) if c.name == name else c
                                      for c in s.colonists))


def with_colonists(s: State, **by_name: dict[str, Any]) -> State:
    """``s`` with each Colonist named changed: ``with_colonists(s, Ann={"food": 2})``."""
    for name, fields in by_name.items():
        s = with_colonist(s, name, **fields)
    return s
