"""The digital Lucky and Unlucky Event decks (Set-up 3; 8. Personal Events; Hunt the Wampus)
and Event Cards' effects on the Colonist who receives them, from the cards' ``effect`` data."""

from __future__ import annotations

from collections import Counter
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.mule import data as mule_data
from companion.mule import events
from companion.mule import saved as game
from companion.mule.data import MuleData
from companion.mule.state import State, from_json
from components.errors import InputError, RuleError

NAMES = ["Ann", "Bob", "Cid", "Dee"]
IDS = [f"lucky/{n}" for n in "abcde"]


# -- the decks -------------------------------------------------------------------------------------

def test_a_seed_makes_the_same_deck() -> None:
    assert events.new_deck(IDS, 7, "lucky") == events.new_deck(IDS, 7, "lucky")
    decks = {tuple(events.new_deck(IDS, seed, "lucky")["draw"]) for seed in range(20)}
    assert len(decks) > 1
    assert sorted(events.new_deck(IDS, 7, "lucky")["draw"]) == IDS


def test_an_exhausted_deck_is_made_again_from_its_discard_pile() -> None:
    # "If either one of the Event Card decks becomes exhausted, shuffle the discard pile of the
    # exhausted deck to re-create it."
    deck = events.new_deck(IDS, 1, "lucky")
    first = [events.draw(deck, 1, "lucky") for _ in IDS]
    assert [again for _, again in first] == [False] * 5
    for card, _ in first:
        events.discard(deck, card)
    card, again = events.draw(deck, 1, "lucky")
    assert again and deck["shuffles"] == 1
    assert Counter([card, *deck["draw"]]) == Counter(IDS) and deck["discard"] == []
    # the same seed re-shuffles the same way
    twin = events.new_deck(IDS, 1, "lucky")
    for _ in IDS:
        events.discard(twin, events.draw(twin, 1, "lucky")[0])
    assert events.draw(twin, 1, "lucky")[0] == card


def test_no_cards_at_all_is_a_rule_error() -> None:
    deck = {"draw": [], "discard": [], "shuffles": 0}
    with pytest.raises(RuleError, match="empty"):
        events.draw(deck, 1, "unlucky")
    with pytest.raises(RuleError):
        events.new_deck([], 1, "lucky")


@given(st.lists(st.booleans(), max_size=40), st.integers(0, 10**6))
def test_property_draws_and_discards_keep_every_card(moves: list[bool], seed: int) -> None:
    deck = events.new_deck(IDS, seed, "lucky")
    hand: list[str] = []
    for draw in moves:
        if draw and (deck["draw"] or deck["discard"]):
            hand.append(events.draw(deck, seed, "lucky")[0])
        elif hand:
            events.discard(deck, hand.pop(0))
        assert Counter(deck["draw"] + deck["discard"] + hand) == Counter(IDS)


def test_new_game_keeps_repeatable_decks(md: MuleData) -> None:
    one = game.new_game(md, NAMES, seed=5, deck=True)
    two = game.new_game(md, NAMES, seed=5, deck=True)
    assert one["event_decks"] == two["event_decks"]
    assert one["production_deck"] == two["production_deck"]
    assert Counter(one["event_decks"]["lucky"]["draw"]) == Counter(
        c.id for c in md.deck("lucky"))
    assert game.new_game(md, NAMES, seed=5)["event_decks"] is None


def test_the_printed_decks_are_read_and_every_effect_is_understood() -> None:
    md = _bundled()
    lucky, unlucky = md.deck("lucky"), md.deck("unlucky")
    # Component List: 12 Lucky and 9 Unlucky Event Cards; "12 Lucky Event Cards, of which 4
    # show The Wampus"
    assert (len(lucky), len(unlucky)) == (12, 9)
    assert sum(c.wampus for c in lucky) == 4
    someone = events.Colonist(20, {"smithore": 3, "crystite": 3, "food": 3, "energy": 3}, 6,
                              {"smithore": 1, "crystite": 1, "food": 2, "energy": 2})
    for card in (*lucky, *unlucky):
        outcome = events.apply_event(card.effect, someone)
        assert outcome.money or outcome.goods, card.id
        assert set(card.alt_event) == {"three", "four"}


def _bundled() -> MuleData:
    import components

    return mule_data.load(components.bundled_root() / "mule")


# -- who receives the card -------------------------------------------------------------------------

def test_alternative_personal_event_system_reads_the_diagram() -> None:
    card = {"three": 2, "four": 3}
    assert events.alt_event_target(card, ["A", "B", "C", "D"]) == "C"
    assert events.alt_event_target(card, ["A", "B", "C"]) == "B"
    with pytest.raises(RuleError, match="3 or 4"):
        events.alt_event_target(card, ["A", "B"])


def test_an_event_card_must_go_to_another_colonist() -> None:
    with pytest.raises(RuleError, match="another Colonist"):
        events.check_target("Packer", "Packer")
    events.check_target("Packer", "Mechtron")


# -- what the card does ----------------------------------------------------------------------------

def colonist(money: int = 10, lands: int = 3, **kw: Any) -> events.Colonist:
    mules = {g: kw.pop(g + "_mules", 0) for g in events.GOODS}
    stocks = {g: kw.pop(g, 0) for g in events.GOODS}
    assert not kw
    return events.Colonist(money, stocks, lands, mules)


def test_personal_events_example_dance_night(md: MuleData) -> None:
    # Personal Events Example: Mechtron has fewer than 5 Lands and receives $5 (1-4 Lands: +$5;
    # 5+ Lands: +$10)
    effect = md.event("dance-night").effect
    assert events.apply_event(effect, colonist(money=30, lands=3)).money_after == 35
    assert events.apply_event(effect, colonist(money=30, lands=5)).money_after == 40
    # a Colonist with no Land takes the 1-4 value
    assert events.apply_event(effect, colonist(money=0, lands=0)).money == 5


def test_personal_events_example_mining_mules(md: MuleData) -> None:
    # the Unlucky Event in the example hurts only Colonists with mining M.U.L.E.s: so much per
    # Land producing Smithore or Crystite: "cost $5 each to repair!", Leggite with one mining
    # M.U.L.E. loses $5
    effect = md.event("worn-out-miners").effect
    leggite = colonist(money=20, lands=3, smithore_mules=1, food_mules=2)
    assert events.apply_event(effect, leggite).money_after == 15
    farmer = colonist(money=20, lands=3, food_mules=3)
    assert events.apply_event(effect, farmer).summary() == "no effect"


def test_glac_elves_round_down(md: MuleData) -> None:
    # Miscellaneous Rules: "Fractions are rounded down. Example: Mischievous Glac-Elves"
    outcome = events.apply_event(md.event("glac-elves").effect, colonist(crystite=7))
    assert outcome.goods == {"crystite": -3} and outcome.stocks_after["crystite"] == 4


def test_losses_are_carried_out_as_far_as_possible(md: MuleData) -> None:
    # "if a Colonist loses $10 and he only has $5, he loses the $5 he has"
    outcome = events.apply_event({"money": -10}, colonist(money=5))
    assert outcome.money_after == 0
    assert events.apply_event({"goods": {"energy": -2}}, colonist(energy=1)).stocks_after[
        "energy"] == 0


def test_effects_per_land_per_mule_and_by_lands(md: MuleData) -> None:
    who = colonist(money=50, lands=6, smithore_mules=1, crystite_mules=2, food_mules=1)
    assert events.event_change(md.event("land-tax").effect, who) == (-18, dict.fromkeys(
        events.GOODS, 0))
    assert events.event_change(md.event("oil-filters").effect, who)[0] == -8
    assert events.event_change(md.event("mining-bonus").effect, who)[0] == 12
    assert events.event_change(md.event("kitchen-garden").effect, who)[1]["food"] == 3
    assert events.event_change(md.event("seed-crate").effect, who)[1]["food"] == 2
    with pytest.raises(RuleError, match="does not know"):
        events.event_change({"teleport": 1}, who)


@given(st.integers(0, 60), st.integers(0, 12), st.integers(0, 8), st.integers(0, 8),
       st.sampled_from([{"money": -15}, {"lose_half": ["food", "crystite"]},
                        {"goods": {"energy": -2, "food": -1}}, {"money_per_mule": -2},
                        {"money_per_land": {"amount": -4, "producing": ["food"]}},
                        {"money_by_lands": {"lands_1_4": -5, "lands_5_plus": -15}}]))
def test_property_an_event_never_leaves_anything_negative(money: int, stock: int, lands: int,
                                                          mules: int, effect: Any) -> None:
    who = events.Colonist(money, dict.fromkeys(events.GOODS, stock), lands,
                          {"food": mules, "energy": 0})
    out = events.apply_event(effect, who)
    assert out.money_after >= 0 and min(out.stocks_after.values()) >= 0
    assert out.money_after <= money and all(v <= stock for v in out.stocks_after.values())


def test_a_negative_colonist_is_refused() -> None:
    with pytest.raises(InputError):
        events.Colonist(-1, {}, 0)


# -- in the guided turn ----------------------------------------------------------------------------

# Land Grant: a Colonist who can claim a Land has to (Questions and Answers), so each claims
# these in turn: the two Land Grants of Turn 1 in the Blue Zone (column E: 6 Plains, 2 Low
# Mountain and 2 High Mountain squares on Planet Irata), Turn 2's in the Red Zone (column A)
CLAIMS = {"Ann": ["P13@E1", "P14@E2", "P15@A1"],
          "Bob": ["P16@E1", "P17@E2", "P18@A1"],
          "Cid": ["P19@E1", "P20@E2", "P21@A1"],
          "Dee": ["L05@E1", "H05@E2", "H06@A1"]}


def ranked_without_steps(raw: dict[str, Any]) -> State:
    """A game set up (``raw``) as saved before the steps (no ``todo``), Ranked in the order of
    ``NAMES``: the Land Grant order follows this Ranking."""
    raw.pop("todo")
    return from_json(raw)._replace(ranking=tuple(NAMES))


def with_draw(s: State, deck: str, draw: list[str]) -> State:
    """``s`` with the draw pile of the Event deck ``deck`` (top first)."""
    decks = dict(s.event_decks or {})
    decks[deck] = decks[deck]._replace(draw=tuple(draw))
    return s._replace(event_decks=MappingProxyType(decks))


def quiet_turn(md: MuleData, state: State, answers: dict[str, list[str]]
               ) -> tuple[State, list[str], list[str]]:
    """Play a turn answering only the questions containing a key of ``answers`` (in order),
    and each Land Grant with the Colonist's next claim of ``CLAIMS``."""
    asked: list[str] = []
    said: list[str] = []
    claims = {n: c[len(state.colonist(n).lands) - 1:] for n, c in CLAIMS.items()}

    def ask(question: str, default: str) -> str:
        asked.append(question)
        assert len(asked) < 200, asked[-3:]
        for key, queue in answers.items():
            if key in question and queue:
                return queue.pop(0)
        if question.startswith("Land Grant: "):
            return claims[question.split()[2]].pop(0)
        if "Production Card drawn" in question:
            return "quiet-turn"
        if question.startswith("Development, Action Round"):
            return "pass"      # a Pass is typed, never taken from a blank
        return default

    after, _ = game.play_turn(state, md, ask, said.append)
    return after, asked, said


def test_typed_event_cards_apply_and_a_card_for_oneself_is_refused(md: MuleData) -> None:
    state = ranked_without_steps(game.new_game(md, NAMES, seed=3))
    after, _, said = quiet_turn(md, state, {
        "Lucky Event card drawn": ["Seeds from Home!"],
        "Ann gives it to": ["Ann", "Cid"],        # not to herself: asked again
        "Unlucky Event card drawn": ["seed-crate", "land-tax"],   # a Lucky card is refused
        "Cid gives it to": ["Bob"],
    })
    text = "\n".join(said)
    assert "  ! Ann drew the card and cannot receive it: give it to another Colonist" in text
    assert "  ! LE02 Seeds from Home! is a Lucky Event card" in text
    # Cid: 4 Food, 2 spoiled, 3 produced by his River (R03, dealt at the set-up), then +2
    assert "Cid: +2 food -> $30" in text and after.colonist("Cid").stock("food") == 7
    # Land Tax!, $3 a Land: Bob's River and the two Lands of his Land Grants
    assert "Bob: -$9 -> $21" in text


def test_wampus_hunts_stop_at_the_wampus(md: MuleData) -> None:
    state = with_draw(ranked_without_steps(game.new_game(md, NAMES, seed=7, deck=True)),
                      "lucky", ["lucky/seed-crate", "lucky/dance-night",
                                "lucky/kitchen-garden", "lucky/mining-bonus"])
    # Bob hunts twice in his first Action Round (1 Food each), then once more: refused, he
    # caught the Wampus this Turn. Bob's $10 makes him Rank 1: he gives the Lucky Event
    after, asked, said = quiet_turn(md, state, {"Bob's Actions": ["wampus, wampus", "wampus",
                                                                  "pass"],
                                                 "Bob gives it to": ["Dee"],
                                                 "Dee gives it to": ["Cid"]})
    text = "\n".join(said)
    assert "Bob draws Seeds from Home!: no Wampus" in text
    assert "Bob draws First Prize at the Dance Night!: the Wampus! +$10" in text
    assert "  ! Bob caught the Wampus this Turn: he cannot be hunted again" in text
    assert "Bob draws A Fine Kitchen Garden!" not in text      # he caught him: no third hunt
    assert after.event_decks is not None
    lucky = after.event_decks["lucky"]
    # then the Personal Events' Lucky card (Kitchen Garden) goes on the discard pile too
    assert lucky.discard == ("lucky/seed-crate", "lucky/dance-night", "lucky/kitchen-garden")
    assert lucky.draw == ("lucky/mining-bonus",)


def test_alt_events_give_the_cards_by_the_diagram(md: MuleData) -> None:
    state = ranked_without_steps(game.new_game(md, NAMES, seed=7, deck=True, alt_events=True))
    state = with_draw(state, "lucky", ["lucky/seed-crate"])              # four: Rank 3
    state = with_draw(state, "unlucky", ["unlucky/oil-filters"])         # four: Rank 2
    after, asked, said = quiet_turn(md, state, {})
    assert not any("gives it to" in q for q in asked)
    text = "\n".join(said)
    assert "the card's diagram gives it to Cid" in text
    assert "the card's diagram gives it to Bob" in text
    assert "Bob: -$2" in text              # New Oil Filters!: his one M.U.L.E.
    # the decks ran out: the next draw re-shuffles each discard pile into a new deck
    after2, _, said2 = quiet_turn(md, after, {})
    assert any("shuffled into a new deck" in line for line in said2)
    assert after2.event_decks is not None and after2.event_decks["lucky"].shuffles == 1
