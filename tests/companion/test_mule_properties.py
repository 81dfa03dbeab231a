"""Hypothesis properties: stocks never negative, prices never leave their track, spoilage never
exceeds the stock, and The Store's M.U.L.E. production conserves Smithore."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.mule import pricing, rules
from companion.mule.data import GOODS, MuleData, PriceTrack

stock = st.integers(0, 60)
TRACKS = {"smithore": PriceTrack("smithore", 3, 14, 5),
          "crystite": PriceTrack("crystite", 4, 14, 6),
          "food": PriceTrack("food", 1, 7, 3), "energy": PriceTrack("energy", 1, 7, 3)}


def test_property_tracks_agree_with_rules_yaml(md: MuleData) -> None:
    assert {g: md.track(g) for g in GOODS} == TRACKS


@given(stock, stock, stock, stock, st.integers(0, 20), st.integers(0, 20))
def test_spoilage_never_negative_never_more_than_the_stock(s: int, c: int, f: int, e: int,
                                                           mules: int, energy_mules: int) -> None:
    energy_mules = min(energy_mules, mules)
    before = rules.Stocks(s, c, f, e)
    r = rules.spoilage(before, mules, energy_mules)
    for g in GOODS:
        assert 0 <= r.spoiled[g] <= getattr(before, g)
        assert 0 <= getattr(r.stocks, g) <= 12
    assert r.energy_used + r.spoiled["energy"] + r.stocks.energy == e
    assert r.energy_used + r.shortage == mules - energy_mules


@given(st.sampled_from(GOODS), st.integers(0, 20), st.integers(-40, 40))
def test_prices_never_leave_their_track(good: str, position: int, steps: int) -> None:
    track = TRACKS[good]
    buy = track.buy_at(min(position, track.steps - 1))
    change = pricing.move(track, buy, steps)
    assert track.buy_min <= change.buy <= track.buy_max
    assert change.sell - change.buy == track.sell_min - track.buy_min
    assert abs(change.moved) <= abs(steps)


@given(st.lists(st.integers(0, 30), min_size=1, max_size=4), st.integers(0, 30),
       st.integers(0, 6))
def test_food_pricing_stays_on_track(stocks: list[int], store: int, position: int) -> None:
    track = TRACKS["food"]
    change = pricing.move(track, track.buy_at(position), pricing.food_steps(stocks, store))
    assert track.buy_min <= change.buy <= track.buy_max


@given(st.integers(0, 12), st.integers(0, 40), st.integers(0, 60))
def test_store_mule_production_conserves_and_never_goes_negative(mules: int, smithore: int,
                                                                 sold: int) -> None:
    sold = min(sold, mules + smithore)
    r = rules.store_mule_production(mules, smithore, sold)
    assert r.mules >= 0 and r.smithore >= 0 and r.made >= 0
    assert r.mules <= 12
    assert r.mules + r.smithore == mules + smithore - sold


@given(st.lists(st.integers(0, 5), min_size=1, max_size=4), st.integers(0, 10))
def test_priority_to_buy_never_sells_more_than_the_store_has(wants: list[int],
                                                             store: int) -> None:
    names = [f"P{i}" for i in range(len(wants))]
    r = rules.priority_to_buy(names, dict(zip(names, wants, strict=True)), store, 4)
    assert sum(r.bought.values()) + r.store_left == store
    assert all(0 <= r.bought[n] <= w for n, w in zip(names, wants, strict=True))
