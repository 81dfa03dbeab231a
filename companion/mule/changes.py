"""What a step changed in a saved game's state, as a small JSON value, and that change applied.

A ``step`` event of M.U.L.E. keeps the move (the step, who, the answers typed, the lines read)
and what it changed (``change``), not the whole state after it: a Turn of four Colonists is a
few kilobytes, where a snapshot a step was some 60-110. The fold applies the changes in order,
so it needs no rule data, and a rule-data change never rewrites a step taken before (the change
is what the rules of that day did). Games saved with snapshots (``after``) still fold: the
snapshot is the state.

A change is a list of operations, each ``[PATH]`` (the key is dropped) or ``[PATH, VALUE]``
(the value put there); PATH is a list of dict keys from the state's top. Lists are replaced
whole: the state's lists are short (a Colonist's Lands, the steps to come, a deck's draw pile).
The order of keys is not kept: a saved game's JSON is written with its keys sorted, and the
fold sorts the state after each step as a saved snapshot was.
"""

from __future__ import annotations

import copy
import json
from typing import Any

__all__ = ["change", "patch", "patch_in_place"]

MAX_DEPTH = 12   # the state is 5 levels deep; a deeper path was not written by a step


def change(before: dict[str, Any], after: dict[str, Any]) -> list[list[Any]]:
    """The operations that make ``before`` into ``after`` (both JSON-able dicts), as they are
    saved: compared in their JSON form (a tuple is a list there, a key a string)."""
    out: list[list[Any]] = []
    _diff(json.loads(json.dumps(before)), json.loads(json.dumps(after)), [], out)
    return out


def _diff(before: dict[str, Any], after: dict[str, Any], path: list[str],
          out: list[list[Any]]) -> None:
    for key in before:
        if key not in after:
            out.append([[*path, key]])
    for key, value in after.items():
        old = before.get(key, _MISSING)
        if isinstance(old, dict) and isinstance(value, dict):
            _diff(old, value, [*path, key], out)
        elif old is _MISSING or old != value or type(old) is not type(value):
            out.append([[*path, key], value])


_MISSING = object()


def patch(state: dict[str, Any], ops: list[list[Any]]) -> dict[str, Any]:
    """``state`` with the operations of :func:`change` applied (a new dict; ``state`` is not
    changed). An operation of another shape (a file edited by hand) is a ValueError, which the
    saved game's reader turns into one line naming the game."""
    return patch_in_place(copy.deepcopy(state), ops)


def patch_in_place(out: dict[str, Any], ops: list[list[Any]]) -> dict[str, Any]:
    """:func:`patch` applied to ``out`` itself (a fold's own copy), and returned."""
    if not isinstance(ops, list):
        raise ValueError("a step's change is a list of operations")
    for op in ops:
        if not isinstance(op, list) or len(op) not in (1, 2) or not isinstance(op[0], list) \
                or not op[0] or len(op[0]) > MAX_DEPTH \
                or not all(isinstance(k, str) for k in op[0]):
            raise ValueError(f"a step's change holds {str(op)[:40]}, not [PATH] or "
                             "[PATH, VALUE]")
        *parents, key = op[0]
        node = out
        for part in parents:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ValueError(f"a step's change goes into {part!r}, which holds no keys")
        if len(op) == 1:
            node.pop(key, None)
        else:
            node[key] = copy.deepcopy(op[1])
    return out
