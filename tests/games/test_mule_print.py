"""M.U.L.E. The Board Game's printable copy: the rulebook's component list, the Production,
Event and hand cards, the Land tiles' Crystite odds, printed numbers that agree with the rule
data the companion uses (rules.yaml), and builds whose text all fits."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import components
from components import Component, Game

RULEBOOK_LIST = {  # Component List, in the rulebook's order
    "Rulebook": 1,
    "Game Board": 1,
    "Player Boards": 4,
    "Lucky Event Cards": 12,
    "Unlucky Event Cards": 9,
    "Production Cards": 24,
    "Land for Sale Cards": 8,
    "Player Species Cards": 8,
    "Package From Home World cards": 6,
    "1-Food Counters": 40,
    "5-Food Counters": 4,
    "1-Energy Counters": 40,
    "5-Energy Counters": 8,
    "1-Smithore/M.U.L.E. Counters": 70,
    "5-Smithore Counters": 8,
    "1-Crystite Counters": 30,
    "5-Crystite Counters": 12,
    "Auction Tracker": 1,
    "$1 Counters": 32,
    "$5 Counters": 24,
    "$10 Counters": 24,
    "$50 Counters": 24,
    "$250 Counters": 2,
    "Sequence of Play Summaries": 4,
    "River Tiles": 4,
    "Plains Tiles": 24,
    "Low Mountain Tiles": 8,
    "High Mountain Tiles": 8,
    "Meteor Crater Tiles": 2,
    "Ranking Tokens": 8,
    "Buyer/Seller Tokens": 4,
    "Sheet of M.U.L.E. Stickers": 1,
}
GOODS = ("smithore", "crystite", "food", "energy")
EVENT_EFFECTS = {"money", "money_by_lands", "money_per_land", "money_per_mule", "goods",
                 "goods_by_lands", "lose_half"}


@pytest.fixture(scope="module")
def game() -> Game:
    return components.load("mule")


def copies(comps: list[Component]) -> int:
    return sum(c.count for c in comps)


# --- the component list ----------------------------------------------------------------------

def test_inventory_follows_the_rulebooks_component_list(
        game: Game, follows_rulebook: Callable[..., None]) -> None:
    follows_rulebook(game, RULEBOOK_LIST)
    assert {g.group for g in game.inventory if not g.printed} == {
        "Rulebook", "Sheet of M.U.L.E. Stickers"}


def test_every_group_holds_the_rulebooks_count(game: Game) -> None:
    counts = game.counts()
    for group, count in RULEBOOK_LIST.items():
        if group in ("Rulebook", "Sheet of M.U.L.E. Stickers"):
            continue
        assert counts.get(group) == count, group
    assert counts["Set-up Cards"] == 2
    assert counts["Colony Success Table"] == 1


# --- Production Cards ------------------------------------------------------------------------

def production(game: Game) -> list[Component]:
    return game.by_group("Production Cards")


def test_every_production_card_shows_a_crystite_price_on_the_crystite_lane(game: Game) -> None:
    buy_min, buy_max = game.data["price_track"]["crystite"]["buy"]
    for card in production(game):
        price = card.fields["crystite_price"]
        assert isinstance(price, int) and buy_min <= price <= buy_max, card.id
    assert all(c.id.startswith("production/") and c.count == 1 for c in production(game))


def test_four_ship_is_back_cards_and_twenty_others(game: Game) -> None:
    ships = [c for c in production(game) if c.fields.get("effect", {}).get("ship_is_back")]
    assert len(ships) == 4
    assert {c.fields["title"] for c in ships} == {"The Ship is Back!"}
    # one is picked unseen, so the four must differ only where it does not matter
    assert len({c.fields["crystite_price"] for c in ships}) == 4
    assert copies(production(game)) - len(ships) == 20


def test_the_named_production_cards(game: Game) -> None:
    acid = game.component("production/acid-rain-storm")
    assert acid.fields["modifiers"] == {"food": 2, "energy": -2}
    pirates = game.component("production/pirate-ship")
    assert pirates.fields["effect"]["pirates"] is True
    assert pirates.fields["effect"]["crystite_price_unchanged"] is True
    assert game.component("production/fire-in-the-store").fields["effect"]["fire_in_the_store"]
    craters = [c for c in production(game) if c.fields.get("effect", {}).get("meteor_craters")]
    assert [c.id for c in craters] == ["production/meteorite-strike"]
    for slug in ("radiation", "pest-attack"):
        turn_1 = game.component(f"production/{slug}").fields["game_turn_1"]
        assert turn_1["text"].startswith("Game Turn 1") and turn_1["effect"]


def test_production_modifiers_name_goods_and_never_zero(game: Game) -> None:
    for card in production(game):
        for good, change in card.fields.get("modifiers", {}).items():
            assert good in GOODS and isinstance(change, int) and change != 0, card.id


# --- Event cards -----------------------------------------------------------------------------

def test_four_of_the_twelve_lucky_events_show_the_wampus(game: Game) -> None:
    lucky = game.by_group("Lucky Event Cards")
    assert copies(lucky) == 12
    assert sum(c.count for c in lucky if c.fields.get("wampus") is True) == 4
    assert sum(c.count for c in lucky if c.fields.get("wampus") is False) == 8


def test_event_cards_carry_the_rank_diagram_and_structured_effects(game: Game) -> None:
    events = game.by_group("Lucky Event Cards") + game.by_group("Unlucky Event Cards")
    assert copies(game.by_group("Unlucky Event Cards")) == 9
    for card in events:
        alt = card.fields["alt_event"]
        assert 1 <= alt["three"] <= 3 and 1 <= alt["four"] <= 4, card.id
        assert card.fields["effect"] and set(card.fields["effect"]) <= EVENT_EFFECTS, card.id
    scaling = [c for c in events if {"money_by_lands", "goods_by_lands"} & set(c.fields["effect"])]
    assert scaling
    for card in scaling:
        assert "1-4 Lands" in card.fields["text"] and "5+ Lands" in card.fields["text"]
        effect = card.fields["effect"]
        rule = effect.get("money_by_lands") or effect["goods_by_lands"]
        assert set(rule) == {"lands_1_4", "lands_5_plus"}


def test_lucky_events_gain_and_unlucky_events_lose(game: Game) -> None:
    def sign(effect: dict[str, Any]) -> set[int]:
        out: set[int] = set()
        for key, value in effect.items():
            if key == "lose_half":
                out.add(-1)
            elif key in ("money", "money_per_mule"):
                out.add(1 if value > 0 else -1)
            elif key == "money_per_land":
                out.add(1 if value["amount"] > 0 else -1)
            elif key == "money_by_lands":
                out |= {1 if v > 0 else -1 for v in value.values()}
            elif key == "goods":
                out |= {1 if v > 0 else -1 for v in value.values()}
            elif key == "goods_by_lands":
                out |= {1 if v > 0 else -1 for d in value.values() for v in d.values()}
        return out

    assert all(sign(c.fields["effect"]) == {1} for c in game.by_group("Lucky Event Cards"))
    assert all(sign(c.fields["effect"]) == {-1} for c in game.by_group("Unlucky Event Cards"))


# --- Land tiles ------------------------------------------------------------------------------

LAND_GROUPS = {"river": ("River Tiles", "R", 4), "plains": ("Plains Tiles", "P", 24),
               "low-mountain": ("Low Mountain Tiles", "L", 8),
               "high-mountain": ("High Mountain Tiles", "H", 8),
               "meteor-crater": ("Meteor Crater Tiles", "M", 2)}


def lands(game: Game, *kinds: str) -> list[Component]:
    return [c for c in game.components if c.kind == "tile" and c.fields["land"] in kinds]


def test_land_tiles_have_ids_types_and_production_values(game: Game) -> None:
    for land, (group, letter, count) in LAND_GROUPS.items():
        tiles = lands(game, land)
        ids = [f"{letter}{i:02d}" for i in range(1, count + 1)]
        assert [c.fields["tile"] for c in tiles] == ids
        for tile in tiles:
            assert tile.id == f"land/{tile.fields['tile']}" and tile.group == group
            values = tile.fields["production"]
            expected = {"food", "energy"} if land == "river" else set(GOODS)
            assert set(values) == expected, tile.id
            assert all(0 <= v <= 3 for v in values.values()), tile.id
            # Plains and Mountains: Public Side front, Secret Side back; the others one side
            assert (tile.back is not None) == (land in ("plains", "low-mountain",
                                                        "high-mountain")), tile.id


def test_crystite_averages_exactly_one_and_a_quarter(game: Game) -> None:
    hidden = lands(game, "plains", "low-mountain", "high-mountain")
    values = [t.fields["production"]["crystite"] for t in hidden]
    assert Fraction(sum(values), len(values)) == Fraction(5, 4)
    for kinds in (("plains",), ("low-mountain", "high-mountain")):
        part = [t.fields["production"]["crystite"] for t in lands(game, *kinds)]
        assert Fraction(sum(part), len(part)) == Fraction(5, 4), kinds


def test_crystite_is_distributed_alike_on_plains_and_mountains(game: Game) -> None:
    def odds(kinds: tuple[str, ...]) -> dict[int, Fraction]:
        values = Counter(t.fields["production"]["crystite"] for t in lands(game, *kinds))
        total = sum(values.values())
        return {v: Fraction(n, total) for v, n in sorted(values.items())}

    plains = odds(("plains",))
    assert plains == odds(("low-mountain", "high-mountain"))
    assert plains == odds(("low-mountain",)) == odds(("high-mountain",))
    assert set(plains) == {0, 1, 2, 3}


def test_meteor_craters_are_rich_in_crystite_and_smithore(game: Game) -> None:
    others = lands(game, "plains", "low-mountain", "high-mountain")
    for crater in lands(game, "meteor-crater"):
        for good in ("smithore", "crystite"):
            assert crater.fields["production"][good] == max(
                t.fields["production"][good] for t in others)


def test_land_edges_print_the_production_values(game: Game) -> None:
    from generator.draw import Options, draw_component
    from generator.drawing import Icon, Text, walk

    def shown(items: Any) -> tuple[Counter[str], str]:
        prims = walk(items)
        return (Counter(p.name for p in prims if isinstance(p, Icon)),
                " ".join(p.text for p in prims if isinstance(p, Text)))

    for tile in lands(game, *LAND_GROUPS):
        faces = draw_component(game, tile, Options())
        production = tile.fields["production"]
        front_icons, front_text = shown(faces.front.items)
        secret = faces.back is not None
        assert secret == (tile.fields["land"] not in ("river", "meteor-crater")), tile.id
        for good, value in production.items():
            # the Public Side hides Crystite on a tile that has a Secret Side
            icons, text = shown(faces.back.items) if secret and good == "crystite" else (
                front_icons, front_text)
            assert icons[f"pip-{good}"] == value, (tile.id, good)
            assert icons[good] == 1, (tile.id, good)
        zeros = sum(1 for v in production.values() if v == 0)
        texts = front_text + (shown(faces.back.items)[1] if secret else "")
        assert texts.count("X") == zeros + sum(  # an X per zero, on each face it shows
            1 for g, v in production.items() if v == 0 and secret and g != "crystite"), tile.id
        if secret:
            assert "?" in front_text and front_icons["pip-crystite"] == 0
        if tile.fields["land"] == "river":   # no Smithore or Crystite value at all
            assert set(production) == {"food", "energy"}
            assert front_icons["smithore"] == front_icons["crystite"] == 0


# --- printed numbers that mirror rules.yaml --------------------------------------------------

def board_texts(game: Game) -> list[str]:
    from generator.draw import Options, draw_component
    from generator.drawing import Text, walk

    front = draw_component(game, game.component("board/game-board"), Options()).front
    return [p.text for p in walk(front.items) if isinstance(p, Text)]


def test_the_price_track_is_drawn_from_the_price_track_data(game: Game) -> None:
    # one lane per good, one square per step: no copy of the track on the board itself
    assert "price_track_labels" not in game.component("board/game-board").fields
    expected: Counter[str] = Counter()
    for good in game.data["goods"]:
        t = game.data["price_track"][good]
        for k in range((t["sell"][1] - t["sell"][0]) // t["step"] + 1):
            expected[f"${t['sell'][0] + k * t['step']}/{t['buy'][0] + k * t['step']}"] += 1
    printed = Counter(t for t in board_texts(game) if re.fullmatch(r"\$\d+/\d+", t))
    assert printed == expected
    assert sum(printed.values()) == 12 + 11 + 7 + 7


def test_planet_irata_has_squares_for_the_tournament_lands(game: Game) -> None:
    rows = game.data["planet_irata"]["rows"]
    assert len(rows) == 5 and all(len(r) == 7 for r in rows)
    assert rows[2][3] == "S"
    assert [r[3] for r in rows] == ["R", "R", "S", "R", "R"]
    letters = Counter("".join(rows))
    lands_4p = game.data["setup"]["tournament"]["players_4"]["lands"]
    assert letters["R"] == lands_4p["river"]
    assert letters["P"] == lands_4p["plains"]
    assert letters["L"] == lands_4p["low-mountain"]
    assert letters["H"] == lands_4p["high-mountain"]


def test_the_corral_is_drawn_from_the_corral_data(game: Game) -> None:
    corral = game.data["corral"]
    assert "corral_pens" not in game.component("board/game-board").fields
    texts = " ".join(" ".join(board_texts(game)).split())
    assert f"M.U.L.E. CORRAL ({corral['pens']} pens of {corral['mules_per_pen']})" in texts
    from generator.draw import Options, draw_component
    from generator.drawing import Icon, walk

    front = draw_component(game, game.component("board/game-board"), Options()).front
    mules = [p for p in walk(front.items) if isinstance(p, Icon) and p.name == "mule"]
    assert len(mules) == corral["pens"] * corral["mules_per_pen"]


def front_text(game: Game, cid: str) -> str:
    from generator.draw import Options, draw_component
    from generator.drawing import Text, walk

    faces = draw_component(game, game.component(cid), Options())
    runs = " ".join(p.text for p in walk(faces.front.items) if isinstance(p, Text))
    return " ".join(runs.split())


def test_set_up_cards_and_colony_table_print_rules_yaml(game: Game) -> None:
    from components.schema import data_refs

    # the sheets hold no copy of their numbers: they read rules.yaml's data
    for mode in ("beginner", "tournament"):
        card = game.component(f"sheet/setup-{mode}")
        assert "setup" not in card.fields and "production_deck" not in card.fields
        refs = data_refs(card, game.layouts)
        assert refs and all(r.startswith(f"setup.{mode}.") for r in refs)
        data = game.data["setup"][mode]
        text = front_text(game, card.id)
        assert f"deal {data['production_deck']} on top of it" in text
        assert f"${data['players_4']['colonist']['money']}" in text
    colony = game.component("sheet/colony-success")
    assert data_refs(colony, game.layouts) == {"colony_success.turns"} | {
        f"colony_success.rows.{i}.{k}" for i in range(7) for k in
        ("text", *(f"{n}.{j}" for n in ("four", "three") for j in (0, 1)))} - {
        "colony_success.rows.0.four.1", "colony_success.rows.0.three.1",
        "colony_success.rows.6.four.0", "colony_success.rows.6.three.0"}
    text = front_text(game, colony.id)
    table = game.data["colony_success"]
    assert f"at the end of a {table['turns']}-turn game" in text
    for row in table["rows"]:
        assert row["text"] in text
    assert f"${table['rows'][1]['four'][0]} - {table['rows'][1]['four'][1]}" in text


def test_land_for_sale_prints_the_land_auction_numbers(game: Game) -> None:
    auction = game.data["land_auction"]
    bid, step = re.findall(r"exactly \$(\d+)", front_text(game, "hand/land-for-sale"))
    assert (int(bid), int(step)) == (auction["opening_bid"], auction["raise"])


# --- species, Ranking Tokens, Player Boards --------------------------------------------------

def test_species_cards_tokens_and_boards_match(game: Game) -> None:
    cards = {c.fields["name"]: c for c in game.by_group("Player Species Cards")}
    tokens = {c.fields["name"]: c for c in game.by_group("Ranking Tokens")}
    assert len(cards) == 8 and set(tokens) == set(cards)
    assert {"Humanoid", "Flapper", "Packer", "Leggite", "Spheroid", "Mechtron",
            "Gollumer"} <= set(cards)
    for name, card in cards.items():
        assert card.fields["talent"] and card.back is not None
        assert tokens[name].fields["colours"] == card.fields["colours"]
    sides = [b.fields[s]["name"] for b in game.by_group("Player Boards")
             for s in ("side_a", "side_b")]
    assert sorted(sides) == sorted(cards)


def test_goods_counters_and_the_mule_side(game: Game) -> None:
    smithore = game.component("counter/smithore-1")
    assert smithore.front == "good-1" and smithore.back == "mule-side"
    for good in GOODS:
        assert game.component(f"counter/{good}-1").fields["good"] == good
        assert game.component(f"counter/{good}-5").fields["good"] == good
    assert {c.fields["value"] for c in game.components if c.id.startswith("money/")} == {
        1, 5, 10, 50, 250}


# --- the build -------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_whole_game_builds_and_its_text_fits(game: Game, paper: str, tmp_path: Path,
                                                 build_pdf: Callable[..., Any]) -> None:
    result = build_pdf(game, tmp_path, paper)
    assert result.pdf is not None and result.pdf.stat().st_size > 0
    assert [f"{r.component} {r.field}" for r in result.fits if not r.fits] == []
    assert [f"{r.component} {r.field}" for r in result.fits if r.size < r.wanted] == []


def test_set_up_cards_print_one_colonist_start_for_three_and_four(game: Game) -> None:
    # the set-up cards print each Colonist's start once, so it must not depend on the players
    for mode in ("beginner", "tournament"):
        setup = game.data["setup"][mode]
        assert setup["players_3"]["colonist"] == setup["players_4"]["colonist"], mode


# --- one language for the printed copy and the companion -------------------------------------

CARD_GROUPS = ("Production Cards", "Lucky Event Cards", "Unlucky Event Cards",
               "Land for Sale Cards", "Package From Home World cards", "Player Species Cards")


def test_every_card_prints_its_own_code_in_a_corner(game: Game) -> None:
    cards = [c for g in CARD_GROUPS for c in game.by_group(g)]
    codes = [c.fields.get("code") for c in cards]
    assert all(codes) and len(set(codes)) == len(codes)
    tiles = {c.fields["tile"] for c in game.components if "tile" in c.fields}
    assert not set(codes) & tiles                    # a card's code is never a Land's
    for card in cards:
        assert card.fields["code"] in front_text(game, card.id).split(), card.id


def test_cards_are_named_at_the_table_by_code_or_title() -> None:
    from companion.mule import data
    from components.errors import InputError

    md = data.load()
    assert md.card("PR05").title == md.card("Acid Rain Storm!").title == "Acid Rain Storm!"
    assert md.event("UE01").title == "Worn-out Mining M.U.L.E.s!"
    # four cards print "The Ship is Back!": the title alone is refused, with their codes
    with pytest.raises(InputError, match=r"PR01 \(\$5\), PR02 \(\$8\), PR03 \(\$11\), PR04"):
        md.card("The Ship is Back!")


def test_worn_out_miners_costs_five_dollars_a_mining_land(game: Game) -> None:
    # Personal Events Example: "cost $5 each to repair! ($5 per your Land in Smithore and
    # Crystite production)"
    card = game.component("unlucky/worn-out-miners")
    assert card.fields["effect"]["money_per_land"]["amount"] == -5
    assert "-$5" in front_text(game, card.id)


def test_the_player_board_prints_the_squares_the_companion_names(game: Game) -> None:
    from companion.mule import data

    pb = data.load().player_board
    assert pb.store == "C2" and pb.river_beds == ("C1", "C3")
    assert [pb.zone(f"{c}1") for c in pb.columns] == ["red", "white", "white", "white", "blue"]
    words = front_text(game, "board/player-1").split()
    assert [sq for sq in pb.squares if sq in words] == list(pb.squares)
    assert pb.store in words             # The Store's square is named too, though no Land's


def planet_squares(game: Game) -> dict[tuple[int, int], tuple[str | None, str | None, str]]:
    """Each square of Planet Irata as the Game Board draws it: (row, column) -> its fill, its
    border colour and its label (the words drawn after the square and before the next
    shape)."""
    from generator.draw import Options, draw_component
    from generator.drawing import Rect, Text, walk

    front = draw_component(game, game.component("board/game-board"), Options()).front
    squares: dict[tuple[int, int], tuple[str | None, str | None, str]] = {}
    at: tuple[int, int] | None = None
    for p in walk(front.items):
        if isinstance(p, Rect):
            at = None
            if abs(p.w - 33) < 1e-6 and abs(p.h - 33) < 1e-6:
                at = (round((p.y - 24) / 33), round((p.x - 10) / 33))
                assert at not in squares
                squares[at] = (p.style.fill, p.style.stroke, "")
        elif isinstance(p, Text) and at is not None:
            fill, stroke, label = squares[at]
            squares[at] = (fill, stroke, f"{label} {p.text}".strip())
    return squares


def test_planet_irata_is_drawn_from_the_planet_irata_data(game: Game) -> None:
    # the map lives once, in data.planet_irata: no copy of it on the board's component and no
    # list of fills or labels in its layout
    pi = game.data["planet_irata"]
    assert "planet_irata" not in game.component("board/game-board").fields
    assert not any("labels" in e or isinstance(e.get("fill"), list)
                   for e in game.layouts["game-board"] if e.get("type") == "grid")
    # the rulebook's Land types, and The Store's own square (its art is drawn over it)
    kinds = {"P": ("plains", "PLAINS"), "L": ("low-mountain", "LOW MOUNTAIN"),
             "H": ("high-mountain", "HIGH MOUNTAIN"), "R": ("river", "RIVER"),
             "S": ("gold-light", "")}
    palette = game.palette
    want = {(r, c): (palette[kinds[letter][0]], palette[f"zone-{pi['zones'][c]}"],
                     kinds[letter][1])
            for r, row in enumerate(pi["rows"]) for c, letter in enumerate(row)}
    assert planet_squares(game) == want
    assert len(want) == 5 * 7 and want[(2, 3)] == (palette["gold-light"], "#ffffff", "")
    assert want[(0, 0)] == (palette["high-mountain"], palette["zone-red"], "HIGH MOUNTAIN")
