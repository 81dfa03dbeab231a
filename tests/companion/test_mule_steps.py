"""Each step of M.U.L.E.'s Game Turn alone, over a small state: the rulebook's rules each step
checks (2. Development's Food by Zone and per Action Round, Land Auctions' bids, Package From
Home World!'s condition checked once, the Market's buy-or-sell), and that the rule numbers come
from the rule data (an erratum changes the check)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pytest

from companion.mule import board, events, steps, turn
from companion.mule import saved as game
from companion.mule.data import MuleData
from companion.mule.state import Land, State, from_json, land_of, to_json
from components.errors import InputError, RuleError
from tests.companion.mule_states import with_colonist, with_colonists

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def tournament(md: MuleData) -> State:
    s = from_json(game.new_game(md, NAMES, "tournament", seed=3))
    return turn.begin_turn(s._replace(ranking=tuple(NAMES)), md)


def lands_of(*lands: Mapping[str, Any]) -> tuple[Land, ...]:
    """Lands as ``board.new_land`` makes them, as typed."""
    return tuple(land_of(x) for x in lands)


def at_development(md: MuleData, lands: list[Mapping[str, Any]], food: int = 6,
                   money: int = 30) -> State:
    s = with_colonist(tournament(md), "Ann", food=food, money=money, lands=lands_of(*lands))
    return developing(s, md)


def developing(s: State, md: MuleData) -> State:
    """2. Development begun on ``s``: the state after it, its first Action Round's steps to
    come."""
    t = steps.Turn(s, md, lambda *a: None, lambda line: None)
    todo = steps.begin_development(t)
    return t.state._replace(todo=tuple(todo))


def develop(s: State, md: MuleData, text: str, who: str = "Ann") -> State:
    before = to_json(s)
    out = steps.develop_actions(s, md, who, text, [])
    assert to_json(s) == before             # a value: the state is left alone
    return out


def test_land_grant_order_and_turn_one_twice(md: MuleData) -> None:
    s = tournament(md)
    now = turn.current(s, md)
    assert now is not None and (now.step, now.who) == ("grant", "Dee")
    assert [w for _, w in s.todo] == ["Dee", "Cid", "Bob", "Ann"] * 2
    # every Zone of Planet Irata has Lands left and Dee's Player Board is empty: she has to
    # claim one (Questions and Answers, Expansion)
    assert turn.command(now, s).startswith("irata play mule grant Dee TILE@SQUARE   (Dee has "
                                           "to claim one: Plains, Low Mountain or High "
                                           "Mountain from the Red Zone")


def test_play_turn_ends_when_the_asker_repeats_a_refused_answer(md: MuleData) -> None:
    """A table (or a script) that gives the same refused answer again and again: play_turn
    stops with the refusal instead of asking for ever, and the refused step changes
    nothing."""
    s = tournament(md)
    before = to_json(s)
    asked: list[str] = []
    said: list[str] = []

    def stubborn(question: str, default: str) -> str:
        asked.append(question)
        assert len(asked) < 100, "play_turn keeps asking"
        return "none"

    with pytest.raises(turn.Stuck) as info:
        turn.play_turn(s, md, stubborn, said.append)
    assert to_json(s) == before
    assert len(asked) == 4            # refused once, then given again three times
    assert "Dee cannot claim none" in str(info.value) and "refused 4 times" in str(info.value)
    assert isinstance(info.value.reason, RuleError)
    assert info.value.state is not None and to_json(info.value.state) == before
    assert info.value.answers == {}

    # the steps answered before are kept in what it stops with; the refused one is not taken
    answers = iter(["P07@B2", *["P99@B1", "P07@B1"] * 50])   # then two wrong answers in turn

    def cycling(question: str, default: str) -> str:
        asked.append(question)
        assert len(asked) < 200, "play_turn keeps asking"
        return next(answers)

    with pytest.raises(turn.Stuck) as info:
        turn.play_turn(s, md, cycling, said.append)
    assert to_json(s) == before
    assert info.value.state is not None
    kept = info.value.state
    assert kept and kept.todo[0] == ("grant", "Cid")
    assert [x.tile for x in kept.colonist("Dee").lands] == ["P07"]
    assert kept.colonist("Cid").lands == ()
    assert info.value.answers == {"grant.Dee.claim": "P07@B2"}
    assert any("P07 is already on Dee's Player Board" in line for line in said)


def test_a_step_refused_with_nothing_asked_is_not_retried(md: MuleData) -> None:
    """A refusal no answer can change (the step asked nothing) is raised at once, not tried
    again for ever."""
    s = tournament(md)._replace(todo=(("usage", None),))   # Usage and Spoilage asks nothing
    s = with_colonist(s, "Ann", food=-1)  # ... and a broken save's Stock is refused
    asked: list[str] = []

    def ask(question: str, default: str) -> str:
        asked.append(question)
        return default

    with pytest.raises(InputError, match="food stock must be a whole number 0 or more"):
        turn.play_turn(s, md, ask, lambda line: None)
    assert asked == []


def test_food_cost_by_zone_and_per_action_round(md: MuleData) -> None:
    lands = [board.new_land("plains", "P07", "A1"), board.new_land("plains", "P08", "B1"),
             board.new_land("river", "R01", "C1", "food"),
             board.new_land("high-mountain", "H01", "D1", "smithore"),
             board.new_land("low-mountain", "L01", "E3", "smithore")]
    s = at_development(md, lands)
    # the White Zone: 1 Food; a M.U.L.E. at Smithore's Sell Price, $5
    out = develop(s, md, "buy P08 E")
    ann = out.colonist("Ann")
    assert (ann.stock("food"), ann.money, ann.lands[1].mule) == (5, 25, "energy")
    assert out.dev is not None and out.dev.food_used["Ann"] == 1
    assert out.store.mules == 12             # The Store makes another from its Smithore
    assert out.store.stock("smithore") == s.store.stock("smithore") - 1
    # the Red Zone (column A): 2 Food, so nothing else in that Action Round
    assert develop(s, md, "buy P07 F").colonist("Ann").stock("food") == 4
    with pytest.raises(RuleError, match="no more than 2 Food in one Action Round"):
        develop(s, md, "buy P07 F, assay")
    # Refit two Adjacent Lands (C1 and D1): 2 Food; C1 and E3 are not Adjacent
    out = develop(s, md, "refit R01 E H01 C")
    assert [x.mule for x in out.colonist("Ann").lands][2:4] == ["energy", "crystite"]
    assert out.colonist("Ann").stock("food") == 4
    with pytest.raises(RuleError, match="not Adjacent"):
        develop(s, md, "refit R01 E L01 C")
    # Refit one in the Blue Zone (column E): 2 Food; Move: 1 Food, whatever the Zones
    assert develop(s, md, "refit L01 E").colonist("Ann").stock("food") == 4
    moved = develop(s, md, "move L01 P08").colonist("Ann")
    assert (moved.stock("food"), moved.lands[1].mule, moved.lands[4].mule) == \
        (5, "smithore", None)


def test_mules_installed_one_per_land_for_money_from_the_corral(md: MuleData) -> None:
    lands = [board.new_land("plains", "P08", "B1"), board.new_land("river", "R01", "C1", "food")]
    s = at_development(md, lands, money=7)
    with pytest.raises(RuleError, match="already has a M.U.L.E. .one per Land.: refit it"):
        develop(s, md, "buy R01 E")
    with pytest.raises(RuleError, match=r"costs \$5 .* has \$4"):
        develop(at_development(md, lands, money=4), md, "buy P08 E")
    empty = s._replace(store=s.store._replace(mules=0, smithore=0))
    with pytest.raises(RuleError, match="Corral holds no M.U.L.E."):
        develop(empty, md, "buy P08 E")
    with pytest.raises(RuleError, match="no Production Value for smithore"):
        develop(s, md, "refit R01 S")
    with pytest.raises(RuleError, match="Players without Food must Pass"):
        develop(at_development(md, lands, food=0), md, "assay")
    with pytest.raises(RuleError, match="has 0 Food left, 'assay' costs 1"):
        develop(at_development(md, lands, food=1), md, "buy P08 E, assay")
    with pytest.raises(RuleError, match="last Action"):
        develop(s, md, "pub, assay")


def test_an_action_round_at_a_time_until_all_pass(md: MuleData) -> None:
    s = at_development(md, [board.new_land("plains", "P08", "B1")])
    assert [w for _, w in s.todo] == NAMES                # 12 in the Corral: Rank order
    s = develop(s, md, "assay")
    for name in ("Bob", "Cid", "Dee"):
        s = develop(s, md, "", name)                      # blank: Pass
    t = steps.Turn(s, md, lambda *a: None, lambda line: None)
    assert steps.next_round(t) == [("develop", "Ann")]
    s = develop(t.state, md, "pub")
    assert s.colonist("Ann").money == 35
    t = steps.Turn(s, md, lambda *a: None, lambda line: None)
    assert steps.next_round(t) == []


def test_the_order_reverses_with_six_or_fewer_in_the_corral(md: MuleData) -> None:
    s = tournament(md)
    s = s._replace(store=s.store._replace(mules=6, smithore=0))
    t = steps.Turn(s, md, lambda *a: None, lambda line: None)
    assert [w for _, w in steps.begin_development(t)] == list(reversed(NAMES))


def test_land_auction_bids_and_cards(md: MuleData) -> None:
    s = with_colonist(tournament(md), "Bob", lands=())
    with pytest.raises(RuleError, match=r"opening bid is exactly \$8 and each raise exactly \$2"):
        steps._auction(s, md, "Ann Bob 9 P08@B1")
    out = steps._auction(s, md, "Ann Bob 12 P08@B1")
    assert isinstance(out, State) and out.colonist("Bob").money == 18
    assert out.held("Ann", "land_for_sale") == 0
    with pytest.raises(RuleError, match="holds no Land for Sale"):
        steps._auction(out, md, "Ann Cid 8 P07@B1", who="Ann")
    # the cards are played from Rank 1 down: after Ann (Rank 1), Bob plays his or not
    with pytest.raises(RuleError, match="from Rank 1 down, and now it is Bob's turn"):
        steps._auction(out, md, "Cid Ann 8 P07@B1")
    with pytest.raises(RuleError, match="from Rank 1 down, and now it is Ann's turn"):
        steps._auction(s, md, "Bob Ann 8 P07@B1", who="Ann")
    assert steps._auction(out, md, "Bob none") is None              # Bob keeps his card
    assert steps._auction(out, md, "Cid 8 P07@B1", who="Bob") is not None   # seller: Bob
    # an erratum to the rule data changes the check: bids open at $10 and rise by $5
    errata = md._replace(data={**md.data, "land_auction": {"opening_bid": 10, "raise": 5}})
    with pytest.raises(RuleError, match=r"exactly \$10 and each raise exactly \$5"):
        steps._auction(s, errata, "Ann Bob 12 P08@B1")
    assert steps._auction(s, errata, "Ann Bob 15 P08@B1") is not None


def test_package_from_home_world_is_checked_once_before_any(md: MuleData) -> None:
    s = with_colonists(tournament(md), Ann={"food": 2}, Bob={"food": 3})
    # Bob's condition is read before Ann's package lands: Ann's 2 Food is smaller than his 3
    with pytest.raises(RuleError, match=r"Ann has a smaller food Stock \(2\) than Bob \(3\)"):
        steps._package(s, md, "Ann=food, Bob=food")
    out = steps._package(s, md, "Ann=food")
    assert out is not None and out.colonist("Ann").stock("food") == 5
    assert out.held("Ann", "package") == 0
    with pytest.raises(RuleError, match="holds no such card"):
        steps._package(out, md, "Ann=energy")


def test_market_buy_or_sell_and_priority_to_buy(md: MuleData) -> None:
    s = tournament(md)
    s = with_colonist(s._replace(store=s.store._replace(food=2)), "Ann", food=5)
    lines: list[str] = []
    sold = steps.sell_to_store(s, "food", "Ann=1", lines)
    with pytest.raises(RuleError, match="either Buys or Sells"):
        steps._buy(sold, md, "food", "Ann=1", lines)
    # Dee (Rank 4) buys first, then Cid gets what is left
    out = steps._buy(sold, md, "food", "Cid=2,Dee=2", lines)
    assert (out.colonist("Dee").stock("food"), out.colonist("Cid").stock("food")) == (6, 5)
    assert out.store.food == 0
    assert "Cid goes without 1 food" in lines[-1]
    with pytest.raises(RuleError, match="cannot pay"):
        steps._buy(sold, md, "food", "Cid=20", lines)
    with pytest.raises(RuleError, match="has 4 food: cannot sell 5"):
        steps._deal(sold, "food", "Ann>Bob 5@1", lines)


def test_set_names_a_land_by_its_tile(md: MuleData) -> None:
    # set changes the saved game's JSON form
    s = to_json(with_colonist(tournament(md), "Bob",
                              lands=lands_of(board.new_land("plains", "P03", "B1"))))
    after = game.set_path(s, "players.Bob.lands.P03.mule", "food")
    assert after["players"]["Bob"]["lands"][0]["mule"] == "food"
    with pytest.raises(InputError, match="nothing named 'P04'"):
        game.set_path(s, "players.Bob.lands.P04.mule", "food")


def test_a_title_on_several_cards_is_asked_by_its_printed_price(md: MuleData) -> None:
    # Beginner: 5 Production Cards lie on The Ship is Back!, so it is drawn on Turn 6
    s = from_json(game.new_game(md, NAMES, seed=3))._replace(
        turn=6, todo=(("produce", None),), shortage=MappingProxyType({}))
    asked: list[str] = []
    answers = iter(["The Ship is Back!", "7", "8"])

    def ask(question: str, default: str) -> str:
        asked.append(question)
        return next(answers) if "Card drawn" in question or "which one" in question else "F3"

    said: list[str] = []
    after, done, _ = turn.run_step(s, md, turn.interactive(ask, said.append, {}), said.append)
    assert after.production_drawn[-1] == "production/the-ship-is-back-2"
    assert "which one? Its printed Crystite price ($5, $8)" in asked[1]
    assert any("no The Ship is Back! card prints $7" in line for line in said)
    assert after.final and after.todo == (("pricing", None),)
    # on the command line the title alone is refused, with the codes
    with pytest.raises(InputError, match=r"give its code \(PR01 \(\$5\), PR02 \(\$8\)\)"):
        turn.run_step(s, md, turn.scripted({"card": "The Ship is Back!"}, {}), said.append)


def test_a_game_saved_before_the_steps_starts_its_turn_afresh(md: MuleData) -> None:
    raw = game.new_game(md, NAMES, seed=3)
    for key in ("todo", "hands"):
        del raw[key]
    s = from_json(raw)
    now = turn.current(s, md)
    assert now is not None and now.step == "grant"
    assert s.hands is None and "hands" not in to_json(s)       # s is left alone
    begun = turn.begun(s, md)
    assert begun.hands is not None
    assert {n: dict(h) for n, h in begun.hands.items()} == {n: {} for n in NAMES}
    assert begun.todo[0] == ("grant", now.who)


def test_land_auction_steps_go_from_rank_one_down(md: MuleData) -> None:
    s = tournament(md)                      # Ranking Ann, Bob, Cid, Dee; one card each
    t = steps.Turn(s._replace(todo=(("grant", "Ann"),)), md, lambda *a: None,
                   lambda line: None)
    turn.advance(t, "grant")
    s = t.state
    assert s.todo == tuple(("auction", n) for n in NAMES)
    now = turn.current(s, md)
    assert now is not None and turn.command(now, s).startswith("irata play mule auction Ann ")
    # Ann declines (blank at the table): Bob is asked next; "none": nobody else this Turn
    after, _, lines = turn.run_step(s, md, turn.scripted({"auction": ""}, {}), lambda x: None)
    assert lines == ["Ann plays no Land for Sale! card"] and after.todo[0] == ("auction", "Bob")
    after, _, _ = turn.run_step(after, md, turn.scripted({"auction": "none"}, {}), lambda x: None)
    assert after.todo[0][0] == "package"
    assert all(after.held(n, "land_for_sale") == 1 for n in NAMES)


@pytest.mark.parametrize(("claim", "message"), [
    # the Blue Zone (column E) of Planet Irata has 2 High Mountain squares, both claimed
    ("H01@E2", r"Blue Zone of Planet Irata has 2 High Mountain square\(s\), all claimed "
               r"already \(Bob E1, Cid E3\)"),
    # another High Mountain tile: the same
    ("H02@E2", r"Blue Zone of Planet Irata has 2 High Mountain"),
])
def test_a_land_goes_in_the_zone_it_came_from(md: MuleData, claim: str, message: str) -> None:
    s = with_colonists(
        tournament(md), Bob={"lands": lands_of(board.new_land("high-mountain", "H05", "E1"))},
        Cid={"lands": lands_of(board.new_land("high-mountain", "H06", "E3"))})
    before = to_json(s)
    with pytest.raises(RuleError, match=message):
        steps.claim(s, md, "Ann", claim)
    assert to_json(s) == before
    # the White Zone has one High Mountain square: H01 may come from there, then no other
    h01 = steps.claim(s, md, "Ann", "H01@B2")
    assert h01 is not None
    s = with_colonist(s, "Ann", lands=(h01,))
    with pytest.raises(RuleError, match="White Zone of Planet Irata has 1 High Mountain"):
        steps.claim(s, md, "Dee", "H02@D1")
    # the Red Zone has 3: a fourth there is refused, a Low Mountain there is not
    red = lands_of(*(board.new_land("high-mountain", None, f"A{i}") for i in (1, 2, 3)))
    s = with_colonist(s, "Dee", lands=red)
    with pytest.raises(RuleError, match="Red Zone of Planet Irata has 3 High Mountain"):
        steps.claim(s, md, "Ann", "H02@A1")
    assert steps.claim(s, md, "Ann", "L01@A1") is not None


def test_no_land_of_a_type_the_set_up_left_off_planet_irata(md: MuleData) -> None:
    # the Beginner Game leaves the River squares empty (each Colonist starts with a River)
    # (three Colonists: the fourth River tile is not dealt to anyone)
    s = from_json(game.new_game(md, NAMES[:3], "beginner", seed=3))
    with pytest.raises(RuleError, match="Beginner set-up places no River on Planet Irata"):
        steps.claim(s, md, "Ann", "R04@C3")
    # the 3-player Tournament places 3 Rivers on the 4 River squares
    s = from_json(game.new_game(md, NAMES[:3], "tournament", seed=3))
    for n, sq in zip(NAMES[:3], ("C1", "C1", "C1"), strict=True):
        s = with_colonist(s, n, lands=lands_of(board.new_land("river", None, sq)))
    with pytest.raises(RuleError, match="placed 3 River on Planet Irata and all are claimed"):
        steps.claim(s, md, "Ann", "R04@C3")


# -- Colonist Cards and Special Talents (Optional Rule, Tournament) -------------------------------

@pytest.fixture(scope="module")
def real() -> MuleData:
    """The bundled game: its Player Species Cards print the Special Talents."""
    from companion.mule import data as mule_data

    return mule_data.from_game(__import__("components").load("mule"))


def with_species(md: MuleData, **picked: str) -> State:
    s = from_json(game.new_game(md, NAMES, "tournament", seed=3,
                                species={n: picked.get(n, "Mechtron") for n in NAMES}))
    return turn.begin_turn(s._replace(ranking=tuple(NAMES)), md)


def test_special_talents_change_the_food_cost_of_an_action(real: MuleData) -> None:
    lands = [board.new_land("plains", "P07", "A1"), board.new_land("plains", "P08", "E1", "food"),
             board.new_land("river", "R01", "C1", "food"), board.new_land("plains", "P01", "D1")]
    s = with_species(real, Ann="Spheroid", Bob="Flapper", Cid="Leggite", Dee="Mechtron")
    for n in NAMES:
        s = with_colonist(s, n, food=6, money=30, lands=lands_of(*lands))
    s = developing(s, real)

    def food_left(who: str, text: str) -> int:
        return develop(s, real, text, who).colonist(who).stock("food")

    # Spheroid (SP05, Rolls Anywhere): Buy or Refit in the Red/Blue Zone, 1 Food instead of 2,
    # so a second Action fits in the Round; without the talent the same is refused
    assert food_left("Ann", "buy P07 E") == 5
    assert food_left("Ann", "buy P07 E, refit P08 E") == 4
    with pytest.raises(RuleError, match="no more than 2 Food"):
        develop(s, real, "buy P07 E, refit P08 E", "Dee")
    # Flapper (SP06, Aerial Survey): Assay costs no Food; Leggite (SP07): Move costs none
    assert food_left("Bob", "assay") == 6 and food_left("Dee", "assay") == 5
    assert food_left("Cid", "move R01 P01") == 6 and food_left("Dee", "move R01 P01") == 5
    # ... but Players without Food must Pass, even for an Action that costs them none
    with pytest.raises(RuleError, match="Players without Food must Pass"):
        develop(with_colonist(s, "Cid", food=0), real, "move R01 P01", "Cid")
    # Mechtron (SP01, Tinkerer): Refit on two Adjacent Lands (C1 and D1) for 1 Food
    for n in ("Ann", "Dee"):
        s = with_colonist(s, n, lands=tuple(x._replace(mule="energy") if i == 3 else x
                                            for i, x in enumerate(s.colonist(n).lands)))
    assert food_left("Dee", "refit R01 E P01 F") == 5
    assert food_left("Ann", "refit R01 E P01 F") == 4
    # the talent is the printed card's: an erratum to the card changes the cost
    cards = tuple(c._replace(talent={"action_food_cost": {"assay": 2}})
                  if c.title == "Flapper" else c for c in real.species_cards)
    assert steps.develop_actions(s, real._replace(species_cards=cards), "Bob", "assay",
                                 []).colonist("Bob").stock("food") == 4


def test_other_special_talents(real: MuleData) -> None:
    s = developing(with_species(real, Ann="Bonzoid", Bob="Humanoid", Cid="Packer"), real)
    # Bonzoid (Pub Regular): the Pub gains $8; without the talent $5
    assert develop(s, real, "pub", "Ann").colonist("Ann").money == 38
    assert develop(s, real, "pub", "Dee").colonist("Dee").money == 35
    # Humanoid (Well Connected): a Package whatever the others' Stocks; Dee needs the smallest
    s = with_colonist(s, "Cid", food=1)
    out = steps._package(s, real, "Bob=food")
    assert out is not None
    assert out.colonist("Bob").stock("food") == s.colonist("Bob").stock("food") + 3
    with pytest.raises(RuleError, match="smaller food Stock"):
        steps._package(s, real, "Dee=food")
    # Packer (Packs It In): Overstock Spoilage only above 14
    for n in ("Cid", "Dee"):
        s = with_colonist(s, n, smithore=16, lands=())
    t = steps.Turn(s, real, lambda *a: None, lambda line: None)
    steps.usage(t, None)
    s = t.state
    assert (s.colonist("Cid").stock("smithore"), s.colonist("Dee").stock("smithore")) == (14, 12)


def test_species_at_the_set_up(real: MuleData) -> None:
    with pytest.raises(RuleError, match="Optional Rule of the Tournament set-up"):
        game.new_game(real, NAMES, "beginner", species=dict.fromkeys(NAMES, "Packer"))
    with pytest.raises(RuleError, match="two Colonists at most"):
        game.new_game(real, NAMES, "tournament", species=dict.fromkeys(NAMES, "SP03"))
    with pytest.raises(InputError, match="missing: Dee"):
        game.new_game(real, NAMES, "tournament", species=dict.fromkeys(NAMES[:3], "Packer"))
    with pytest.raises(InputError, match="no Player Species Card 'Wampus'"):
        game.new_game(real, NAMES, "tournament", species=dict.fromkeys(NAMES, "Wampus"))
    s = with_species(real, Ann="sp02", Bob="packer", Cid="Packer")   # two may play Packer
    assert s.species is not None
    assert dict(s.species) == {"Ann": "species/gollumer", "Bob": "species/packer",
                               "Cid": "species/packer", "Dee": "species/mechtron"}
    assert "Special Talents: Ann Gollumer (Wampus Tracker)" in game.describe(to_json(s))


def test_market_entries_a_slip_would_change(md: MuleData) -> None:
    s = with_colonist(tournament(md), "Ann", food=3)
    # a name given twice is refused, not summed (a sum is written 1+1)
    with pytest.raises(InputError, match="Ann is given twice"):
        steps.parse_named("Ann=1,ann=1", NAMES, "bought")
    assert steps.parse_named("Ann=1+1", NAMES, "bought") == {"Ann": 2}
    # selling nothing is no sale: no line and no Seller's role, so Ann may still buy
    lines: list[str] = []
    out = steps.sell_to_store(s, "food", "Ann=0", lines)
    assert lines == [] and dict(out.roles["food"]) == {}
    # a deal of 0 units is no deal
    with pytest.raises(InputError, match="a deal trades 1 unit or more"):
        steps._deal(s, "food", "Ann>Bob 0@5", [])


def test_an_unlucky_event_beyond_the_money_held_says_what_was_paid(md: MuleData) -> None:
    """Land Tax! ($3 a Land) on $6 and 5 Lands: the loss is carried out as far as possible,
    and the line says so instead of a bare -$15."""
    s = with_colonist(tournament(md), "Bob", money=6,
                      lands=lands_of(*(board.new_land("plains") for _ in range(5))))
    t = steps.Turn(s, md, turn.scripted({"card": "UE07", "to": "Bob"}, {}), lambda x: None)
    steps.personal_event(t, "Ann", "unlucky")
    assert t.state.colonist("Bob").money == 0
    assert t.lines[-1] == "Bob: -$15 (as far as possible: Bob pays the $6 held) -> $0"


def test_the_wampus_tracker_draws_two_cards(real: MuleData) -> None:
    """Gollumer (SP02, Wampus Tracker) draws 2 Lucky Event cards and catches the Wampus if
    either shows him; another Colonist draws 1."""
    s = from_json(game.new_game(real, NAMES, "tournament", seed=3, deck=True,
                                species={"Ann": "Gollumer", "Bob": "Packer", "Cid": "Packer",
                                         "Dee": "Flapper"}))
    s = developing(s, real)
    lucky = real.deck("lucky")
    miss = next(c.id for c in lucky if not c.wampus)
    hit = next(c.id for c in lucky if c.wampus)
    assert s.event_decks is not None
    deck = s.event_decks["lucky"]._replace(draw=(miss, hit, miss))
    s = s._replace(event_decks=MappingProxyType({**s.event_decks, "lucky": deck}))
    # events.draw works on a deck as the saved game keeps it (and changes it)
    top = events.draw({"draw": list(deck.draw), "discard": list(deck.discard),
                       "shuffles": deck.shuffles}, s.seed, "lucky")[0]
    assert top == miss          # whichever end is the top, a miss comes first
    for who, caught in (("Ann", True), ("Dee", False)):
        lines: list[str] = []
        out = steps.develop_actions(s, real, who, "wampus", lines)
        assert (out.colonist(who).money == 40) is caught
        assert len([x for x in lines if " draws " in x]) == (2 if who == "Ann" else 1)
