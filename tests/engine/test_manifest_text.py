"""The manifest's records are written by ``build.indented``, which must give the very text
``json.dumps(..., indent=1, allow_nan=False)`` gives (the manifest's bytes are its readers')."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.build import indented

PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text()
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(PLAIN, st.integers(0, 4))
def test_indented_is_json_dumps_with_indent_1(value: Any, level: int) -> None:
    expected = json.dumps(value, indent=1, allow_nan=False).replace("\n", "\n" + " " * level)
    assert indented(value, level) == expected


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_number_json_cannot_hold_is_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="not JSON compliant"):
        indented({"trim_mm": [1.0, bad]})


def test_a_value_json_cannot_hold_is_refused() -> None:
    with pytest.raises(TypeError, match="not JSON serializable"):
        indented({"sheet": object()})
