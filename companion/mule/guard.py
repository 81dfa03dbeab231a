"""What a corrected M.U.L.E. state may hold: ``irata play set`` changes any value of a saved
game, and :func:`check_state` refuses a state the rules do not allow, naming the rule.

The table is the truth, so only what a rule constrains is checked: the Colonists are the game's
(the Ranking, the turn order, the Hand Cards and Special Talents name no one else, each once);
Money, Stocks, The Store's stocks and Hand Cards are never below 0; each Buy Price is on its
Price Track; a Land is a Land type, its tile exists, is of that type and is owned once; it sits
on a square of the Player Board (not The Store's, a River on a river bed only), one Land a
square; a M.U.L.E. works a Land its Colonist owns, one a Land, producing a Good the Land has a
Production Value for, and the M.U.L.E. counts are those of the Lands; a Meteor Crater is one of
the game's Meteor Crater tiles, in a Zone of Planet Irata; the turn, the phase and the steps
to come are ones the Game Turn has; the decks hold the game's own cards, each once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from companion.mule import board
from companion.mule.data import GOODS, MuleData
from components.errors import InputError, RuleError


def _names(what: str, names: Iterable[Any], players: list[str]) -> None:
    for name in names:
        if name not in players:
            raise RuleError(f"{what}: '{name}' is not a Colonist of this game "
                            f"({', '.join(players)})")


def _count(what: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} is a whole number, not {value!r}")
    if value < 0:
        raise RuleError(f"{what} cannot be below 0 (counters and Money are only ever taken "
                        f"from what there is), not {value}")
    return value


def _colonists(state: Mapping[str, Any]) -> list[str]:
    players = list(state["players"])
    ranking = list(state["ranking"])
    _names("the Ranking", ranking, players)
    if sorted(ranking) != sorted(players):
        missing = [n for n in players if n not in ranking]
        twice = [n for n, k in Counter(ranking).items() if k > 1]
        raise RuleError("Ranking: every Colonist holds exactly one Rank, 1 to "
                        f"{len(players)}" + (f"; {', '.join(twice)} is ranked twice" if twice
                                             else "")
                        + (f"; {', '.join(missing)} has no Rank" if missing else ""))
    order = state.get("order")
    if order is not None and sorted(order) != sorted(players):
        raise RuleError(f"the Colonists of the game are {', '.join(players)}, each once; the "
                        f"order cannot be {', '.join(map(str, order))}")
    for key in ("hands", "species"):
        _names(f"'{key}'", state.get(key) or {}, players)
    return players


def _store_and_prices(state: Mapping[str, Any], md: MuleData) -> None:
    store = state["store"]
    for key in ("mules", "smithore", "food", "energy", "crystite"):
        if key in store:
            _count(f"The Store's {'M.U.L.E.s' if key == 'mules' else key.capitalize()}",
                   store[key])
    corral = md.pens * md.mules_per_pen
    if store.get("mules", 0) > corral:
        raise RuleError(f"the M.U.L.E. Corral of The Store has {md.pens} pens of "
                        f"{md.mules_per_pen}: at most {corral} M.U.L.E.s, not {store['mules']}")
    unknown = sorted(set(store) - {"mules", *GOODS})
    if unknown:
        raise InputError(f"The Store keeps M.U.L.E.s and Goods ({', '.join(GOODS)}), not "
                         f"'{unknown[0]}'")
    for good in GOODS:
        price = state["prices"][good]
        if isinstance(price, bool) or not isinstance(price, int):
            raise InputError(f"The Store's Buy Price of {good} is a whole number, not {price!r}")
        md.track(good).position(price)        # 5. Pricing: a Buy Price on its Price Track


def _lands(state: Mapping[str, Any], md: MuleData, players: list[str]) -> None:
    owner: dict[str, str] = {}          # Land tile -> the Colonist whose Player Board has it
    craters = list(state.get("craters") or [])
    for name in players:
        p = state["players"][name]
        _count(f"{name}'s Money", p["money"])
        for good in GOODS:
            _count(f"{name}'s {good.capitalize()}", p[good])
        lands = board.normalise(p["lands"])
        squares: dict[str, str] = {}    # square of the Player Board -> the Land on it
        for i, land in enumerate(lands):
            at = f"{name}'s Land {board.label(lands, i)}"
            kind = land.get("land")
            if kind not in (*board.LAND_TYPES, "land"):
                raise InputError(f"{at}: '{kind}' is not a Land type "
                                 f"({', '.join(board.LAND_TYPES)})")
            if land.get("tile"):
                _land_tile(md, at, land, name, owner, craters)
            if land.get("square") is not None:
                _land_square(md, at, land, name, squares, board.label(lands, i))
            _land_mule_and_side(md, at, land)
        _colonist_mules(md, name, p, lands)


def _land_tile(md: MuleData, at: str, land: board.Land, name: str,
               owner: dict[str, str], craters: list[str]) -> None:
    """A Land's tile: printed so, of the Land's type, on one Player Board, and a Meteor
    Crater only once it is on Planet Irata."""
    kind = land.get("land")
    tile = md.land(str(land["tile"]))
    if tile.tile != land["tile"]:
        raise InputError(f"{at}: the tile is printed {tile.tile}")
    if kind != "land" and tile.land != kind:
        raise RuleError(f"{at}: tile {tile.tile} is {tile.land}, not {kind}")
    if tile.tile in owner:
        raise RuleError(f"{tile.tile} is one Land tile: it cannot be on both "
                        f"{owner[tile.tile]}'s and {name}'s Player Board")
    owner[tile.tile] = name
    if tile.land == "meteor-crater" and tile.tile not in craters:
        raise RuleError(f"{at}: {tile.tile} is a Meteor Crater, on Planet Irata "
                        "(and so claimable) only once it is in 'craters'")


def _land_square(md: MuleData, at: str, land: board.Land, name: str,
                 squares: dict[str, str], label: str) -> None:
    """A Land's square of the Player Board: printed so, not The Store, one Land a square, a
    River on a river bed."""
    pb = md.player_board
    square = land["square"]
    if pb.square(str(square)) != square:
        raise InputError(f"{at}: the square is printed {pb.square(str(square))}")
    if square == pb.store:
        raise RuleError(f"{at}: {square} is The Store, which is in no Zone: no "
                        "Land goes there")
    if square in squares:
        raise RuleError(f"{name}'s Player Board: {square} holds one Land, not "
                        f"both {squares[square]} and {label}")
    squares[square] = label
    if land.get("land") == "river" and square not in pb.river_beds:
        raise RuleError(f"{at}: a River goes only on a river bed "
                        f"({' or '.join(pb.river_beds)}), not {square}")


def _land_mule_and_side(md: MuleData, at: str, land: board.Land) -> None:
    """A Land's M.U.L.E. produces a Good the Land can produce; only Plains and Mountains
    have a Secret Side."""
    mule = land.get("mule")
    if mule is not None:
        if mule not in GOODS:
            raise InputError(f"{at}: a M.U.L.E. produces a Good ({', '.join(GOODS)}), "
                             f"not '{mule}'")
        board.check_producible(land, str(mule), md.land)
    if not isinstance(land.get("secret", False), bool):
        raise InputError(f"{at}: 'secret' is true or false (the Land shows its Secret "
                         "Side or not)")
    if land.get("secret") and land.get("land") not in ("plains", "low-mountain",
                                                       "high-mountain", "land"):
        raise RuleError(f"{at}: Rivers and Meteor Craters only have a Public Side")


def _colonist_mules(md: MuleData, name: str, p: Mapping[str, Any], lands: list[board.Land]
                    ) -> None:
    """A Colonist's M.U.L.E. counts: those installed on their Lands, one a Land."""
    mules = p.get("mules", {})
    unknown = sorted(set(mules) - set(GOODS))
    if unknown:
        raise InputError(f"{name}'s M.U.L.E.s produce Goods ({', '.join(GOODS)}), not "
                         f"'{unknown[0]}'")
    counts = board.mule_counts(lands)
    kept = all(isinstance(land, dict) for land in p["lands"])   # else: saved before
    for good in GOODS:
        n = _count(f"{name}'s M.U.L.E.s producing {good}", mules.get(good, 0))
        if kept and n != counts[good]:
            raise RuleError(f"M.U.L.E.s are installed on Lands, one M.U.L.E. per tile: "
                            f"{name}'s Lands have {counts[good]} M.U.L.E.(s) producing "
                            f"{good}, not {n} (set the Land's 'mule' instead)")
    working = sum(int(v) for v in mules.values())
    if working > len(lands):
        raise RuleError(f"M.U.L.E.s are installed on Lands, one M.U.L.E. per tile: "
                        f"{name} has {len(lands)} Land(s), so not {working} M.U.L.E.s")
    board.check_mules(working, md.player_board)


def _craters(state: Mapping[str, Any], md: MuleData) -> None:
    known = [t.tile for t in md.craters()]
    craters = list(state.get("craters") or [])
    for crater in craters:
        if crater not in known:
            raise RuleError(f"'{crater}' is not a Meteor Crater tile of the game "
                            f"({', '.join(known)})")
    twice = [c for c, k in Counter(craters).items() if k > 1]
    if twice:
        raise RuleError(f"{twice[0]} is one Meteor Crater tile: it is on Planet Irata once")
    zones = list(dict.fromkeys(md.planet_irata.zones))
    for crater, zone in (state.get("crater_zones") or {}).items():
        if crater not in craters:
            raise RuleError(f"{crater} is not on Planet Irata ('craters'), so it is in no Zone")
        if zone not in zones:
            raise RuleError(f"{crater}: '{zone}' is not a Zone of Planet Irata "
                            f"({', '.join(zones)})")


def _hands(state: Mapping[str, Any], md: MuleData) -> None:
    kinds = ("land_for_sale", "package")
    for name, hand in (state.get("hands") or {}).items():
        for kind, n in hand.items():
            if kind not in kinds:
                raise InputError(f"{name}'s Hand Cards are {' and '.join(kinds)}, not '{kind}'")
            _count(f"{name}'s Hand Cards ({kind})", n)
    chosen = state.get("species") or {}
    for card, k in Counter(md.species(str(r)).id for r in chosen.values()).items():
        if k > 2:
            raise RuleError(f"{md.species(card).title} has two colour schemes, so two "
                            f"Colonists at most play it, not {k}")


def _turn(state: Mapping[str, Any], md: MuleData, players: list[str]) -> None:
    from companion.mule.turn import STEPS

    turn = state.get("turn", 1)
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 1:
        raise RuleError(f"Game Turns are counted from 1, not {turn!r}")
    phase = state.get("phase")
    if phase is not None and phase not in (*STEPS, "over"):
        raise RuleError(f"'{phase}' is not a step of the Game Turn ({', '.join(STEPS)})")
    for item in state.get("todo") or []:
        if not isinstance(item, list) or len(item) != 2 or item[0] not in STEPS:
            raise RuleError(f"'todo': {item!r} is not a step of the Game Turn "
                            f"([step, who], a step of {', '.join(STEPS)})")
        step, who = item
        if step == "trade":
            if who not in GOODS:
                raise RuleError(f"'todo': the Market's Auctions are of a Good "
                                f"({', '.join(GOODS)}), not {who!r}")
        elif who is not None:
            _names("'todo'", [who], players)
    dev = state.get("dev")
    if dev:
        _names("the Development order", dev.get("order", []), players)
        _names("the Development order", dev.get("done", []), players)
        _names("Hunt the Wampus", dev.get("caught", []), players)
        for name, used in (dev.get("food_used") or {}).items():
            _names("Food Usage", [name], players)
            _count(f"{name}'s Food used in Development", used)
        rnd, most = dev.get("round", 1), int(md.development["action_rounds"])
        if isinstance(rnd, bool) or not isinstance(rnd, int) or not 1 <= rnd <= most:
            raise RuleError(f"Development: up to {most} Action Rounds, not {rnd!r}")


def _decks(state: Mapping[str, Any], md: MuleData) -> None:
    cards = {c.id for c in md.cards}
    for key in ("production_deck", "production_drawn"):
        for card in state.get(key) or []:
            if card not in cards:
                raise RuleError(f"'{key}': '{card}' is not a Production Card of the game")
    deck = state.get("production_deck") or []
    twice = [c for c, k in Counter(deck).items() if k > 1]
    if twice:
        raise RuleError(f"'production_deck': {twice[0]} is one card, in the deck once")
    for name, piles in (state.get("event_decks") or {}).items():
        if name not in ("lucky", "unlucky"):
            raise InputError(f"the Event decks are lucky and unlucky, not '{name}'")
        ids = {c.id for c in md.deck(name)}
        held = [*piles.get("draw", []), *piles.get("discard", [])]
        for card in held:
            if card not in ids:
                raise RuleError(f"the {name.capitalize()} Event deck: '{card}' is not one of "
                                f"its cards")
        twice = [c for c, k in Counter(held).items() if k > 1]
        if twice:
            raise RuleError(f"the {name.capitalize()} Event deck: {twice[0]} is one card, in "
                            "the deck or its discard pile once")


def check_state(state: Mapping[str, Any], md: MuleData) -> None:
    """Refuse (RuleError or InputError, naming the rule) a state the rules do not allow."""
    if state.get("mode") not in md.data.get("setup", {}):
        raise RuleError(f"the game is a {' or '.join(md.data.get('setup', {}))} game, not "
                        f"{state.get('mode')!r}")
    players = _colonists(state)
    md.setup(str(state["mode"]), len(players))       # the set-up is for so many Colonists
    _store_and_prices(state, md)
    _lands(state, md, players)
    _craters(state, md)
    _hands(state, md)
    _turn(state, md, players)
    _decks(state, md)
    _options_and_planet(state, md, players)


def _options_and_planet(state: Mapping[str, Any], md: MuleData, players: list[str]) -> None:
    """The Optional Rules are the rulebook's, with a value each takes; Planet Irata as laid
    (Random Land Placement) is a placement the set-up can lay, kept only with that rule."""
    from companion.mule import options, planet

    chosen = state.get("options") or {}
    if not isinstance(chosen, Mapping):
        raise InputError("'options' maps each Optional Rule's short name to its value")
    for key, value in chosen.items():
        rule = options.BY_KEY.get(str(key))
        if rule is None:
            raise RuleError(f"'options': no such Optional Rule '{key}' (the rules are "
                            f"{', '.join(options.BY_KEY)})")
        if (value or "") not in (rule.choices or ("",)):
            raise RuleError(f"'options': {rule.name} takes "
                            + (" or ".join(rule.choices) if rule.choices else "no value"))
    rows = state.get("planet")
    if rows:
        variant = chosen.get("random-land-placement")
        if variant is None:
            raise RuleError("'planet': Planet Irata as laid is kept with Random Land "
                            "Placement alone")
        laid = tuple(tuple(str(e).upper() for e in row) for row in rows)
        planet.check(laid, md, str(state["mode"]), len(players), variant == "rivers")
