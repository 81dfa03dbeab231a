"""JSON read on a companion command's quick path without importing ``json``.

``import json`` compiles six regular expressions, about 2 ms of a command that must start about
as fast as Python imports click (issue 22); reading a saved game's events, copying its set-up
and reading the rule-data cache need none of them (as ``companion.record`` makes records
without ``typing.NamedTuple``'s checks, and ``components.stamp`` hashes without ``hashlib``).

- :func:`loads` is ``json.loads`` of a ``str``: the same C scanner, set as ``json`` sets it
  (strict, no hooks, ``NaN`` and ``Infinity`` read as floats), and around it the same
  whitespace; what it does not read the plain way (bytes, text that is not one JSON value)
  goes to ``json.loads`` itself, so every value and every error is json's own.
- :func:`copied` is ``json.loads(json.dumps(value))`` of a JSON value (dicts with string keys,
  lists, strings, numbers, true/false/null): a fresh copy; a value of any other shape (a tuple
  in it, an integer key, NaN) goes through ``json`` itself.

Writing (``json.dumps``) still imports ``json``: a command that writes pays for it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

__all__ = ["copied", "loads"]

_SPACE = " \t\n\r"   # what json's decoder skips around a value (its WHITESPACE)


class _AsJsonDecoder:
    """The settings ``json.JSONDecoder()`` gives its scanner."""

    strict = True
    object_hook = None
    array_hook = None   # read from Python 3.15 on
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"),
                      "NaN": float("nan")}.__getitem__


_scan: Callable[[str, int], tuple[Any, int]] | None
try:    # the C scanner json.decoder uses
    from _json import make_scanner as _make_scanner

    # typeshed types the settings as a scanner itself (a to-do there: any object with them)
    _scan = _make_scanner(_AsJsonDecoder())  # type: ignore[arg-type]
except (ImportError, AttributeError, TypeError):     # pragma: no cover - another Python
    _scan = None


def _json_loads(text: Any) -> Any:
    import json

    return json.loads(text)


def loads(text: str) -> Any:
    """``json.loads(text)``: the same value, or the same error."""
    if _scan is None or type(text) is not str:
        return _json_loads(text)
    start = len(text) - len(text.lstrip(_SPACE))
    try:
        value, end = _scan(text, start)
    except StopIteration:   # no value where one starts: json says where and why
        return _json_loads(text)
    if end != len(text) and text[end:].strip(_SPACE):
        return _json_loads(text)    # more after the value: json's "Extra data"
    return value


class _NotPlain(Exception):
    """A value json would change on the way (or refuse): it goes through json."""


def _copy(node: Any) -> Any:
    kind = type(node)
    if kind is dict:
        out = {}
        for key, value in node.items():
            if type(key) is not str:
                raise _NotPlain
            out[key] = _copy(value)
        return out
    if kind is list:
        return [_copy(value) for value in node]
    if kind is str or kind is bool or node is None:
        return node
    if kind is int and node.bit_length() < 14_000:    # json writes at most 4,300 digits
        return node
    if kind is float and math.isfinite(node):
        return node
    raise _NotPlain


def copied(value: Any) -> Any:
    """``json.loads(json.dumps(value))``: a fresh copy of a JSON value."""
    try:
        return _copy(value)
    except _NotPlain:
        import json

        return json.loads(json.dumps(value))
