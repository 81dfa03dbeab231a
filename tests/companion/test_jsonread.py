"""``companion.jsonread`` reads and copies as ``json`` does: the same values, the same errors."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.jsonread import copied, loads

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    max_leaves=30)


def same(a: Any, b: Any) -> bool:
    """Equal, with NaN equal to NaN and types kept (1 is not 1.0, True is not 1)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@settings(max_examples=300)
@given(value=JSON, indent=st.sampled_from([None, 2]), space=st.sampled_from(["", " \n\t\r"]))
def test_loads_reads_what_json_reads(value: Any, indent: int | None, space: str) -> None:
    text = space + json.dumps(value, indent=indent, sort_keys=True) + space
    assert same(loads(text), json.loads(text))


@given(text=st.text(max_size=40))
def test_loads_reads_or_refuses_any_text_as_json_does(text: str) -> None:
    try:
        expected: Any = json.loads(text)
    except (ValueError, RecursionError) as exc:
        with pytest.raises(type(exc)) as info:
            loads(text)
        assert str(info.value) == str(exc)
    else:
        assert same(loads(text), expected)


@pytest.mark.parametrize("text", ["", " ", "{", '{"a": 1} x', '{"a": 1}{}', "\ufeff{}", "nul",
                                  '"\x01"', '[1,]', "NaN", "-Infinity", "[Infinity]", "1e999",
                                  b'{"a": 1}', bytearray(b"[]"), "[" * 100_000])
def test_the_hard_cases_read_or_fail_as_json(text: Any) -> None:
    try:
        expected: Any = json.loads(text)
    except (ValueError, RecursionError) as exc:
        with pytest.raises(type(exc)) as info:
            loads(text)
        assert str(info.value) == str(exc)
    else:
        assert same(loads(text), expected)


@settings(max_examples=300)
@given(value=JSON)
def test_copied_is_a_json_round_trip(value: Any) -> None:
    copy = copied(value)
    assert same(copy, json.loads(json.dumps(value)))
    if isinstance(value, dict | list) and value:
        assert copy is not value


@pytest.mark.parametrize("value", [
    {"a": (1, 2)}, {1: "a"}, {"x": float("nan")}, [float("inf")], {"k": True, "n": None},
    [[{"deep": [1.5, -0.0, 10**30]}]], {"s": "\ud800"}])
def test_copied_values_json_would_change_go_through_json(value: Any) -> None:
    assert same(copied(value), json.loads(json.dumps(value)))


def test_a_copy_shares_nothing_with_the_value() -> None:
    value = {"players": {"Ann": {"lands": [{"tile": "P07"}]}}}
    copy = copied(value)
    copy["players"]["Ann"]["lands"][0]["tile"] = "R01"
    assert value["players"]["Ann"]["lands"][0]["tile"] == "P07"
