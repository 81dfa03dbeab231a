"""Properties of applying errata: the last erratum wins, versions follow, the base stays."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components import Game, load
from components.errata import Change, Erratum, apply, changed_since, version_key
from components.yamlloc import LocDict

CARDS = ["production/acid-rain-storm", "production/pest-attack", "production/radiation"]


@pytest.fixture(scope="module")
def base() -> Game:
    return load("mule", errata=False)


def _erratum(i: int, card: str, price: int) -> Erratum:
    sets = LocDict({"crystite_price": price})
    sets.mark, sets.marks, sets.file = (i + 1, 1), {}, "errata.yaml"
    return Erratum(f"E{i + 1}", f"1.{i + 1}", "", f"price {price}",
                   (Change(card, None, sets, "errata.yaml", i + 1),))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(CARDS), st.integers(4, 14)), max_size=12))
def test_the_last_erratum_on_a_card_sets_its_value_and_version(
        base: Game, steps: list[tuple[str, int]]) -> None:
    errata = [_erratum(i, card, price) for i, (card, price) in enumerate(steps)]
    game = apply(base, errata)
    assert game.edition == (errata[-1].version if errata else base.edition)
    for card in CARDS:
        mine = [(e, price) for e, (c, price) in zip(errata, steps, strict=True) if c == card]
        comp = game.component(card)
        if mine:
            assert comp.fields["crystite_price"] == mine[-1][1]
            assert comp.version == mine[-1][0].version
        else:
            assert comp.fields == base.component(card).fields
            assert comp.version == base.edition
    # changed since edition 1.k: exactly the cards some later erratum touched
    for k in range(len(errata) + 1):
        since = base.edition if k == 0 else errata[k - 1].version
        assert changed_since(game, since) == {c for c, _ in steps[k:]}
    # the game the errata were applied to is left as it was
    assert base.errata == [] and base.edition == "1.0"
    assert all(base.component(c).version == "1.0" for c in CARDS)


@given(st.lists(st.integers(0, 30), min_size=1, max_size=4),
       st.lists(st.integers(0, 30), min_size=1, max_size=4))
def test_versions_order_as_tuples_of_numbers(a: list[int], b: list[int]) -> None:
    va, vb = ".".join(map(str, a)), ".".join(map(str, b))

    def strip(x: list[int]) -> list[int]:
        while len(x) > 1 and x[-1] == 0:
            x = x[:-1]
        return x

    assert (version_key(va) < version_key(vb)) == (strip(a) < strip(b))
