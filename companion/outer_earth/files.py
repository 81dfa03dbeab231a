"""Outer Earth's score files: the YAML a table writes at the end, read with located errors.

A score file is untrusted input: every value is checked, and a mistake is one line naming
FILE:LINE:COL.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.outer_earth.rules import Profits
from components.errors import DefinitionError, InputError

__all__ = ["SCORE_KEYS", "read_score_file"]

SCORE_KEYS = ("name", "profits", "bonus_revenue", "portfolio", "discarded_planets",
              "in_development")


def _at(node: Any, key: str | int | None, file: str) -> str:
    from components.schema import mark_of

    _, line, col = mark_of(node, key)
    return f"{file}:{line}:{col}" if line else file


def read_score_file(path: Path, face_values: frozenset[int] = frozenset()) -> list[Profits]:
    """The companies of a score file, as ``Profits``; mistakes are reported as FILE:LINE:COL.
    ``face_values``, when given, are the values the Bonus Revenue cards show."""
    from components.yamlloc import existing_file, load_file

    shown = str(path)
    existing_file(path, shown)
    try:
        doc = load_file(path, shown)
    except DefinitionError as exc:
        raise InputError(str(exc)) from None
    if not isinstance(doc, dict) or "players" not in doc:
        raise InputError(f"{_at(doc, None, shown)}: expected 'players:' followed by a list of "
                         "companies (- name: Ann, profits: 9, ...)")
    players = doc["players"]
    if not isinstance(players, list) or not players:
        raise InputError(f"{_at(doc, 'players', shown)}: 'players' must be a list of at least "
                         "one company")
    out = []
    seen: set[str] = set()
    for i, item in enumerate(players):
        out.append(_company(players, i, item, seen, shown, face_values))
    return out


def _company(players: list[Any], i: int, item: Any, seen: set[str], shown: str,
             face_values: frozenset[int]) -> Profits:
    """The ``i``-th company of the file's ``players`` (``seen``: the names so far)."""
    from components.schema import suggest

    where = _at(players, i, shown)
    if not isinstance(item, dict):
        raise InputError(f"{where}: each player is a mapping (name: ..., profits: ...)")
    for key in item:
        if key not in SCORE_KEYS:
            raise InputError(f"{_at(item, key, shown)}: unknown key '{key}' (expected one "
                             f"of: {', '.join(SCORE_KEYS)}{suggest(str(key), SCORE_KEYS)})")
    name = item.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"{_at(item, 'name' if 'name' in item else None, shown)}: each "
                         "player needs a name")
    if name in seen:
        raise InputError(f"{_at(item, 'name', shown)}: the name '{name}' is given twice")
    seen.add(name)
    values: dict[str, Any] = {}
    for key in SCORE_KEYS[1:]:
        if key not in item:
            continue
        value = item[key]
        if key == "bonus_revenue":
            values[key] = _bonus_revenue(item, value, shown, face_values)
        else:
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InputError(f"{_at(item, key, shown)}: {key} must be a whole number "
                                 f"0 or more, not {value!r}")
            values[key] = value
    return Profits(name=name, **values)


def _bonus_revenue(item: Any, value: Any, shown: str, face_values: frozenset[int]
                   ) -> tuple[int, ...]:
    """A company's ``bonus_revenue``: the face values of its Bonus Revenue cards."""
    if not isinstance(value, list):
        raise InputError(f"{_at(item, 'bonus_revenue', shown)}: bonus_revenue is a list of "
                         "the cards' face values, such as [8, 5]")
    for j, v in enumerate(value):
        if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
            raise InputError(f"{_at(value, j, shown)}: a Bonus Revenue card's "
                             f"face value is a whole number above 0, not {v!r}")
        if face_values and v not in face_values:
            shows = ", ".join(str(x) for x in sorted(face_values))
            raise InputError(f"{_at(value, j, shown)}: no Bonus Revenue card is "
                             f"worth {v} VP (the cards show {shows})")
    return tuple(value)
