"""Development, Production and Personal Events as pure functions over the typed State
(``companion.mule.development``, ``producing``, ``personal``): the rulebook's Development
Example 1 played Action Round by Action Round, each check naming the rule it refuses by, and
the Optional Rules they honour."""

from __future__ import annotations

import re
from types import MappingProxyType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.mule import development as dev
from companion.mule import personal, producing
from companion.mule.data import MuleData
from companion.mule.saved import new_game
from companion.mule.state import Goods, Land, State, from_json
from components.errors import InputError, RuleError

G, M, P = "Gollumer", "Mechtron", "Packer"


def example_1(md: MuleData, **options: str) -> State:
    """Development Example 1's start: three Colonists, Gollumer Rank 1; "There are 10
    M.U.L.E.s in The Store" and "5 units of Smithore"; a M.U.L.E. costs $7 (the Smithore
    price the example pays). Gollumer has an empty White Zone Land and two Adjacent Lands with
    M.U.L.E.s producing Energy; Packer an empty Land in the Blue Zone and 2 Food."""
    s = from_json(new_game(md, [G, M, P], "tournament", seed=1))
    track = md.track("smithore")
    buy = next(track.buy_at(k) for k in range(track.steps) if track.sell_at(k) == 7)
    lands = {G: (Land("plains", None, "B1"), Land("plains", None, "B2", "energy"),
                 Land("plains", None, "B3", "energy")),
             M: (Land("plains", None, "D1"),), P: (Land("plains", None, "E1"),)}
    food = {G: 6, M: 6, P: 2}
    colonists = tuple(c._replace(money=30, lands=lands[c.name], stocks=Goods(food=food[c.name]))
                      for c in s.colonists)
    return s._replace(ranking=(G, M, P), colonists=colonists,
                      store=s.store._replace(mules=10, smithore=5),
                      prices=s.prices._replace(smithore=buy),
                      options=MappingProxyType(dict(options)))


def act(s: State, md: MuleData, who: str, text: str) -> State:
    actions = dev.parse_actions(text)
    assert dev.check_action_round(s, md, who, actions) is None
    after, _ = dev.action_round(s, md, who, actions)
    return after


def test_development_example_1(md: MuleData) -> None:
    s, lines = dev.development_begins(example_1(md), md)
    # "A. Before any Actions were taken, The Store immediately used two Smithore to manufacture
    # two M.U.L.E.s": 10 + 2 = 12 M.U.L.E.s, 5 - 2 = 3 Smithore; 12 > 6: Rank 1 acts first
    assert (s.store.mules, s.store.smithore) == (12, 3)
    assert s.dev is not None and s.dev.order == (G, M, P)
    assert lines == ("The Store makes 2 M.U.L.E.(s) from Smithore",)
    # Action Round 1: Gollumer Assays (1 Food) and Buys in the White Zone (1 Food, $7)
    s = act(s, md, G, "assay, buy B1 F")
    g = s.colonist(G)
    assert (g.money, g.stock("food"), g.lands[0].mule, g.mules.food) == (23, 4, "food", 1)
    # Mechtron Hunts the Wampus (1 Food), sees the Wampus and collects $10
    s = act(s, md, M, "wampus yes")
    assert (s.colonist(M).money, s.colonist(M).stock("food")) == (40, 5)
    # Packer Buys in the Blue Zone: 2 Food and $7
    s = act(s, md, P, "buy E1 S")
    assert (s.colonist(P).money, s.colonist(P).stock("food")) == (23, 0)
    # "B. During the Action Rounds, The Store made two new M.U.L.E.s to replace the ones it sold"
    # and "C. ... the remaining one Smithore was left in The Store": 12 M.U.L.E.s, 3 - 2 = 1
    assert (s.store.mules, s.store.smithore) == (12, 1)
    s2 = dev.next_action_round(s, md)
    assert s2 is not None and s2.dev is not None and s2.dev.round == 2
    # Action Round 2: Gollumer Refits M.U.L.E.s on Two Adjacent Lands (2 Food), one to Food
    # and one to Crystite; Mechtron Passes; "Packer does not have any Food left in her Stock,
    # so she must also Pass"
    s2 = act(s2, md, G, "refit B2 F B3 C")
    assert [x.mule for x in s2.colonist(G).lands] == ["food", "food", "crystite"]
    s2 = act(s2, md, M, "pass")
    assert dev.check_action_round(s2, md, P, dev.parse_actions("assay")) == \
        "Development: Players without Food must Pass (Packer has 0 Food)"
    s2 = act(s2, md, P, "pass")
    s3 = dev.next_action_round(s2, md)
    assert s3 is not None and dev.round_steps(s3, md) == (("develop", G),)
    # Action Round 3: Gollumer Gambles at the Pub and takes $5; the Phase is over
    s3 = act(s3, md, G, "pub")
    assert s3.colonist(G).money == 28
    assert dev.next_action_round(s3, md) is None
    # Gollumer's Food Usage box: 1 + 1, then 2, then the Pub's 1 (the rule data's cost) = 5
    assert s3.dev is not None and s3.dev.food_used[G] == 5


def test_checks_name_the_rule(md: MuleData) -> None:
    s, _ = dev.development_begins(example_1(md), md)
    for text, says in [
        ("buy B2 F", "B2 already has a M.U.L.E. (one per Land)"),
        ("buy B1 F, buy B1 E", "B1 already has a M.U.L.E."),
        ("refit B1 F", "B1 has no M.U.L.E. to refit"),
        ("refit B2 F B1 C", "B1 has no M.U.L.E. to refit"),
        ("move B1 B2", "B1 has no M.U.L.E. to move"),
        ("pub, assay", "Gamble at the Pub is the Colonist's last Action"),
        ("assay, pass", "Pass is an Action Round of its own"),
        ("assay, assay, assay", "up to 2 Actions in one Action Round, not 3"),
    ]:
        assert says in str(dev.check_action_round(s, md, G, dev.parse_actions(text))), text
        with pytest.raises(RuleError, match="."):
            dev.action_round(s, md, G, dev.parse_actions(text))
    caught = act(s, md, G, "wampus yes")
    assert "caught the Wampus this Turn" in str(
        dev.check_action_round(caught, md, G, dev.parse_actions("wampus no")))


def test_single_action_round_limits(md: MuleData) -> None:
    # "Maximum six (6) Food can be used by each Colonist's single Action Round."
    s, _ = dev.development_begins(example_1(md, **{"single-action-round": ""}), md)
    assert dev.limits(s, md) == dev.Limits(1, 6, 6)
    # Gollumer: Assay 1 + Buy (White) 1 + Refit Two Adjacent 2 + Pub 1 = 5 Food, four Actions
    s = act(s, md, G, "assay, buy B1 F, refit B2 F B3 C, pub")
    assert s.colonist(G).stock("food") == 6 - 5
    assert dev.next_action_round(s, md) is None          # no Action Round 2


def test_more_predictability_reveal_and_turn_one_effects(md: MuleData) -> None:
    s0, _ = dev.development_begins(example_1(md, **{"more-predictability": ""}), md)
    s1 = dev.next_action_round(s0, md)
    assert s1 is not None and dev.round_steps(s1, md)[0] == ("develop", G)
    s = dev.next_action_round(s1, md)
    # "at the beginning of Action Round 3"
    assert s is not None and dev.round_steps(s, md)[0] == ("reveal", None)
    card = md.cards[0]
    shown, _ = producing.reveal(s, md, card.id)
    assert producing.revealed(shown) == card.id and shown.production_drawn == (card.id,)
    assert dev.round_steps(shown, md)[0] == ("develop", G)   # revealed once
    # Pest Attack! and Radiation! with their Game Turn 1 effect on Turn 5 too
    altered = [c for c in md.cards if isinstance(c.fields.get("game_turn_1"), dict)]
    assert len(altered) == 2
    for c in altered:
        effect = producing.card_effect(shown._replace(turn=5), c)
        assert (effect.text, effect.every) == (c.on_turn(1)[0], True)
        plain = producing.card_effect(shown._replace(turn=5, options=MappingProxyType({})), c)
        assert (plain.text, plain.every) == (c.on_turn(5)[0], False)
    # Personal Events skipped
    assert personal.phase_steps(shown) == ()
    assert personal.phase_steps(s._replace(options=MappingProxyType({}))) == (("lucky", G),)


def test_an_event_card_goes_to_another_colonist(md: MuleData) -> None:
    s = example_1(md)
    card = next(c for c in md.event_cards if c.lucky)
    assert "cannot receive it" in str(personal.check_receiver(s, card, G, G))
    assert personal.check_receiver(s, card, G, M) is None
    after, (line,) = personal.card_given(s, "lucky", card, M)
    assert line.startswith(f"{M}: ")
    assert after.colonist(G) == s.colonist(G)


ACTION_WORDS = ["buy B1 F", "buy E1 S", "buy B2 E", "refit B2 C", "refit B2 F B3 C",
                "refit B1 E B2 F", "move B2 B1", "move B3 B1 F", "assay", "wampus yes",
                "wampus no", "pub", "pass"]


@given(rounds=st.lists(st.tuples(st.sampled_from([G, M, P]),
                                 st.lists(st.sampled_from(ACTION_WORDS), min_size=1,
                                          max_size=7)), max_size=6),
       single=st.booleans())
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_an_action_round_is_refused_or_keeps_the_counts(
        md: MuleData, rounds: list[tuple[str, list[str]]], single: bool) -> None:
    """Whatever the table types, an Action Round is refused with a reason (and nothing
    changes: the State is frozen and the one given comes back untouched) or taken: Money and
    Stocks never below 0, the Food paid is the Food put in the Food Usage box, at most the
    Round's limit, a M.U.L.E. bought is one the Corral gave and one per Land."""
    s, _ = dev.development_begins(example_1(md, **({"single-action-round": ""} if single
                                                   else {})), md)
    most = dev.limits(s, md)
    for who, words in rounds:
        actions = dev.parse_actions(", ".join(words))
        try:
            why = dev.check_action_round(s, md, who, actions)
        except InputError:          # a Land the Colonist does not own: not understood
            with pytest.raises(InputError):
                dev.action_round(s, md, who, actions)
            continue
        if why is not None:
            with pytest.raises(RuleError, match=re.escape(why)):
                dev.action_round(s, md, who, actions)
            continue
        after, _ = dev.action_round(s, md, who, actions)
        before_c, after_c = s.colonist(who), after.colonist(who)
        assert after.dev is not None and s.dev is not None
        paid = before_c.stock("food") - after_c.stock("food")
        assert paid == after.dev.food_used.get(who, 0) - s.dev.food_used.get(who, 0)
        assert 0 <= paid <= most.food and after_c.money >= 0 and min(after_c.stocks) >= 0
        bought = sum(1 for x in after_c.lands if x.mule) - \
            sum(1 for x in before_c.lands if x.mule)
        assert bought == s.store.mules + s.store.stock("smithore") - after.store.mules \
            - after.store.stock("smithore")
        assert all(x.mule is None or x.mule in ("smithore", "crystite", "food", "energy")
                   for x in after_c.lands)
        s = after
