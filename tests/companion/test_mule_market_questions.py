"""A Market Auction asks only what somebody at the table can still answer: a sale to The Store
needs a Colonist holding the Good, a purchase from it a Colonist who is not a Seller in the
Auction and can pay its Sell Price, a deal a Colonist to sell (holding the Good, not a Buyer)
and another to buy (not a Seller). An answer typed for a question nobody could answer is
refused with the reason, and changes nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner

from companion.mule import saved as game
from companion.mule import steps, turn
from companion.mule.data import MuleData
from companion.mule.state import State, from_json
from irata.cli import cli
from tests.clirun import one_line, run
from tests.companion.mule_states import colonist

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def at_food_auction(md: MuleData, food: dict[str, int], money: dict[str, int],
                    store_food: int = 4) -> State:
    s = from_json(game.new_game(md, NAMES, "tournament", seed=3))
    return s._replace(
        ranking=tuple(NAMES), store=s.store._replace(food=store_food),
        colonists=tuple(colonist(c, food=food.get(c.name, 0), money=money.get(c.name, 30))
                        for c in s.colonists),
        todo=(("trade", "food"),), phase="trade")


def asked(s: State, md: MuleData, answers: dict[str, str]) -> list[str]:
    """The questions the Food Auction asks, in order, answered from ``answers``."""
    keys: list[str] = []

    def ask(key: str, question: str, default: str, parse: Callable[[str], Any]) -> Any:
        keys.append(key)
        return parse(answers.get(key, ""))

    turn.run_step(s, md, ask, lambda _line: None)
    return keys


def test_three_questions_when_each_can_be_answered(md: MuleData) -> None:
    s = at_food_auction(md, food={"Ann": 3}, money={})
    assert asked(s, md, {"sell": "Ann=1"}) == ["sell", "buy", "deals"]


def test_no_purchase_asked_when_nobody_left_can_pay(md: MuleData) -> None:
    # Ann holds Food, and nobody else has the Sell Price of one
    s = at_food_auction(md, food={"Ann": 3}, money={"Ann": 30, "Bob": 0, "Cid": 0, "Dee": 0})
    assert asked(s, md, {"sell": "Ann=1"}) == ["sell", "deals"]   # Ann sold: she buys none


def test_one_question_when_everyone_sells_to_the_store(md: MuleData) -> None:
    s = at_food_auction(md, food={n: 2 for n in NAMES}, money={})
    sold = {"sell": "Ann=1,Bob=1,Cid=1,Dee=1"}
    # every Colonist is a Seller now: nobody may buy, from The Store or from another
    assert asked(s, md, sold) == ["sell"]
    # one Colonist not selling keeps both questions: she may buy, from The Store or Ann
    assert asked(s, md, {"sell": "Ann=1,Bob=1,Cid=1"}) == ["sell", "buy", "deals"]


def test_no_deal_asked_when_the_only_holder_bought(md: MuleData) -> None:
    s = at_food_auction(md, food={}, money={"Ann": 30, "Bob": 0, "Cid": 0, "Dee": 0})
    assert asked(s, md, {"buy": "Ann=1"}) == ["buy"]     # Ann holds Food now, as a Buyer


def test_every_question_asked_is_answerable() -> None:
    """Over many small Auctions: whenever a question is asked, some answer to it trades (a
    question asked that no answer could use is one the table need not answer)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from companion.mule import data as mule_data

    md = mule_data.load()
    amounts = st.fixed_dictionaries({n: st.integers(0, 2) for n in NAMES})
    purses = st.fixed_dictionaries({n: st.sampled_from([0, 1, 30]) for n in NAMES})

    @settings(max_examples=60, deadline=None)
    @given(amounts, purses, st.integers(0, 2), st.sampled_from(["", "Ann=1", "Ann=1,Bob=1"]))
    def check(food: dict[str, int], money: dict[str, int], store: int, sell: str) -> None:
        s = at_food_auction(md, food, money, store)
        try:
            keys = asked(s, md, {"sell": sell})
        except Exception:        # a sale the state refuses (Ann holds none): not this test's
            return
        after_sales = steps.sell_to_store(s, "food", sell if "sell" in keys else "", [])
        if "buy" in keys:
            price = md.track("food").sell_for(s.prices.food)
            roles = after_sales.roles.get("food", {})
            assert after_sales.store.stock("food") > 0
            assert any(c.money >= price for c in after_sales.colonists
                       if roles.get(c.name) != "seller")
        if "deals" in keys:
            roles = after_sales.roles.get("food", {})
            sellers = [c.name for c in after_sales.colonists if c.stock("food") > 0]
            assert any(b != h and roles.get(b) != "seller" for h in sellers for b in NAMES)

    check()


@pytest.fixture
def at_market(monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    from companion.mule import data as mule_data

    monkeypatch.setattr(mule_data, "FOLDER", None)

    def mule(*args: str, code: int = 0) -> str:
        if code:
            got, err = run(["play", "mule", *args])
            assert one_line(got, err), (args, got, err)
            return err
        result = CliRunner().invoke(cli, ["play", "mule", *args], catch_exceptions=False)
        assert result.exit_code == 0, (args, result.output)
        return result.output

    mule("new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3")
    import shlex
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "examples" / "mule" / "tournament-turn-1.txt"
    for line in script.read_text(encoding="utf-8").splitlines():
        if line.startswith("trade"):
            break
        if line.strip() and not line.startswith("#"):
            mule(*shlex.split(line))
    return mule


def test_an_answer_to_a_question_nobody_could_answer_is_refused(
        at_market: Callable[..., str]) -> None:
    """The Smithore Auction of the scripted Turn: nobody holds Smithore, so no sale and no
    deal; a sale typed is refused with the reason and nothing is saved."""
    mule = at_market
    status = CliRunner().invoke(cli, ["play", "status", "--json"]).output
    out = mule("trade", "smithore", "--buy", "Dee=1", "--deal", "Dee>Ann 1@1", code=2)
    assert "every Colonist holding Smithore bought it in this Auction" in out
    assert CliRunner().invoke(cli, ["play", "status", "--json"]).output == status
    out = mule("trade", "smithore", "--sell", "Dee=1", code=2)
    assert "no Colonist holds Smithore now" in out
    assert json.loads(CliRunner().invoke(cli, ["play", "status", "--json"]).output) == \
        json.loads(status)
