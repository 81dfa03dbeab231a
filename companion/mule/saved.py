"""A saved game of M.U.L.E.: its set-up, its fold, and what the table reads of it.

The state (a JSON-able dict) keeps The Store (M.U.L.E.s and Goods), the Price Track (The
Store's Buy Prices), the Ranking, each Colonist's Money, Stocks and Lands (each with its tile,
square and the Good its M.U.L.E. produces: ``companion.mule.board``), the M.U.L.E. counts, the
turn and phase, the Meteor Craters on Planet Irata, and optionally the digital Production,
Lucky Event and Unlucky Event decks (``companion.mule.events``).

Each step of a Game Turn (``companion.mule.steps``, walked by ``companion.mule.turn``) is an
event of its own (``step``: the step, who, the answers typed, the lines shown and what it
changed, ``companion.mule.changes``), so undo takes back one step, the fold is a plain replay
and a rule-data change never rewrites a step taken. Games saved before kept the whole state
after each step (``after``), or after a whole turn (a ``turn`` event); they fold as they are.
:func:`play_turn` (the guided walk over one turn's steps) is ``companion.mule.turn.play_turn``.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from companion.mule import turn
from companion.session import Event, apply_set, fold_with
from components.errors import InputError, RuleError

if TYPE_CHECKING:          # the rule data is read when needed: the fold and next stay light
    import random

    from companion.mule.data import MuleData
    from companion.mule.state import State

GOODS = turn.GOODS

play_turn = turn.play_turn


# -- set-up -----------------------------------------------------------------------------------

def new_game(md: MuleData, players: list[str], mode: str = "beginner", seed: int | None = None,
             deck: bool = False, alt_events: bool = False,
             rivers: dict[str, str] | None = None, species: dict[str, str] | None = None,
             options: dict[str, str] | None = None, planet: str | None = None
             ) -> dict[str, Any]:
    """Set-up (Beginner Game or Tournament Game): The Store, the Price Track at its minimum
    values, a random initial Ranking, each Colonist's starting Money, Goods and Lands; with
    ``deck``, the Production deck (Set-up 4) and the Lucky and Unlucky Event decks (Set-up 3)
    kept here. ``rivers`` names the River tile each Colonist starts with (Beginner);
    ``species`` the Player Species Card each Colonist picks (Tournament, Optional Rule:
    Colonist Cards and Special Talents), whose Special Talent then changes a rule for them;
    ``options`` the other Optional Rules chosen (``companion.mule.options``), saved with the
    game for every step they change; ``planet`` the placement of Planet Irata the table laid
    with Random Land Placement (drawn from the seed when not given:
    :mod:`companion.mule.planet`)."""
    from companion.mule import events
    from companion.mule.game import starting_rivers

    if len(set(players)) != len(players):
        raise InputError("a name is given twice in --players")
    if any(not p or "." in p or "=" in p or "," in p for p in players):
        raise InputError("player names cannot be empty or hold '.', '=' or ','")
    setup = md.setup(mode, len(players))
    import random  # the set-up's alone: the fold and next never shuffle

    seed = random.SystemRandom().randrange(1, 10**6) if seed is None else seed
    rng = random.Random(seed)
    chosen = _options(options or {}, alt_events, species)
    ranking = list(players)
    rng.shuffle(ranking)
    state: dict[str, Any] = {
        "game": "mule", "mode": mode, "seed": seed, "order": list(players),
        "ranking": ranking, "turn": 1, "phase": "grant", "over": False,
        "store": dict(setup["store"]),
        "prices": {g: md.track(g).buy_min for g in GOODS},
        "players": {},
        "production_deck": production_deck(md, mode, rng, len(players), chosen) if deck
        else None,
        "production_drawn": [],
        "event_decks": {name: events.new_deck([c.id for c in md.deck(name)], seed, name)
                        for name in ("lucky", "unlucky")} if deck else None,
        "alt_events": alt_events,
        "craters": [],
        "crater_zones": {},       # Meteor Crater -> the Zone of Planet Irata it was placed in
        "hands": {name: _hand(md, mode, chosen) for name in players},
    }
    state["species"] = _species(md, mode, players, species) if species else None
    if chosen:
        state["options"] = chosen
        state["alt_events"] = "alternative-personal-events" in chosen
    laid = _planet(md, mode, len(players), seed, chosen, planet)
    if laid:
        state["planet"] = [list(row) for row in laid]
    # each River known by its tile: those named, the rest dealt
    state["players"] = _colonists(md, setup, mode, players,
                                  starting_rivers(md, players, mode, rivers or {}))
    from companion.mule.state import from_json, to_json

    return to_json(turn.begin_turn(from_json(state), md))


def _options(options: dict[str, str], alt_events: bool, species: dict[str, str] | None
             ) -> dict[str, str]:
    """The Optional Rules chosen, with those the flags --alt-events and --species choose;
    Colonist Cards and Special Talents needs the Species Cards picked."""
    chosen = dict(options)
    if alt_events:
        chosen["alternative-personal-events"] = ""
    if species:
        chosen["colonist-cards"] = ""
    elif "colonist-cards" in chosen:
        raise InputError("--option colonist-cards: give each Colonist's Player Species Card "
                         "with --species, e.g. Ann=Mechtron")
    return chosen


def _planet(md: MuleData, mode: str, players: int, seed: int | str, chosen: dict[str, str],
            typed: str | None) -> tuple[tuple[str, ...], ...]:
    """Random Land Placement: the placement typed (``--planet``), else drawn from the seed
    (its own stream, so the Ranking and the decks of a seed stay as they were)."""
    import random

    from companion.mule import options, planet

    variant = options.value(chosen, "random-land-placement")
    if variant is None:
        if typed:
            raise InputError("--planet: the placement of Random Land Placement; choose the "
                             "rule with --option random-land-placement=rivers (or =no-rivers)")
        return ()
    rivers = variant == "rivers"
    if typed:
        return planet.parse(typed, md, mode, players, rivers)
    return planet.draw(md, mode, players, rivers, random.Random(f"{seed}:planet"))


def _hand(md: MuleData, mode: str, chosen: dict[str, str]) -> dict[str, int]:
    """The Hand Cards a Colonist is dealt; More Land Auctions: "give one more Land for Sale!
    card to every player"."""
    from companion.mule import options

    hand = md.hand_dealt(mode)
    if options.on(chosen, "more-land-auctions"):
        hand["land_for_sale"] = hand.get("land_for_sale", 0) + 1
    return hand


def _colonists(md: MuleData, setup: dict[str, Any], mode: str, players: list[str],
               rivers: dict[str, str]) -> dict[str, Any]:
    """Each Colonist's starting Money, Goods and Lands; ``rivers`` (Colonist -> River tile)
    names the tile of each one's starting River."""
    from companion.mule import board

    used: dict[str, str] = {}
    out: dict[str, Any] = {}
    for name in players:
        colonist = {g: int(setup["colonist"].get(g, 0)) for g in ("money", *GOODS)}
        lands = [_starting_land(md, land, name, rivers, used)
                 for land in setup.get("colonist_lands", [])]
        out[name] = {**colonist, "lands": lands, "mules": board.mule_counts(lands)}
    extra = set(rivers) - {n for n in players if any(
        land["land"] == "river" for land in out[n]["lands"])}
    if extra:
        raise InputError(f"--rivers: {', '.join(sorted(extra))} starts with no River "
                         f"in the {mode} set-up")
    return out


def _starting_land(md: MuleData, land: dict[str, Any], name: str, rivers: dict[str, str],
                   used: dict[str, str]) -> dict[str, Any]:
    """One Land of a Colonist's set-up; a River on the tile ``rivers`` gives the Colonist,
    each tile to one Colonist (``used``: tile -> Colonist so far)."""
    from companion.mule import board
    from companion.mule.data import check_good

    good = check_good(land["good"]) if land.get("good") else None
    entry: dict[str, Any] = board.new_land(str(land["land"]), mule=good)
    if entry["land"] == "river" and name in rivers:
        tile = md.land(rivers[name])
        if tile.land != "river":
            raise InputError(f"--rivers: {tile.tile} is {tile.land}, not a River")
        if tile.tile in used:
            raise InputError(f"--rivers: {tile.tile} is given to {used[tile.tile]} "
                             f"and {name}")
        used[tile.tile] = name
        entry["tile"] = tile.tile
    return entry


def _species(md: MuleData, mode: str, players: list[str], chosen: dict[str, str]
             ) -> dict[str, str]:
    """Colonist Cards and Special Talents (an Optional Rule of the Tournament set-up): each
    Colonist picks one Player Species Card; a species has two colour schemes, so two Colonists
    at most play it."""
    from companion.mule.steps import player_name as _player

    if mode != "tournament":
        raise RuleError("Colonist Cards and Special Talents is an Optional Rule of the "
                        "Tournament set-up (--tournament)")
    out: dict[str, str] = {}
    for name, ref in chosen.items():
        who = _player(name, players)
        if who in out:
            raise InputError(f"--species: {who} is given twice")
        out[who] = md.species(ref).id
    missing = [n for n in players if n not in out]
    if missing:
        raise InputError(f"--species: every Colonist picks a Colonist Card; missing: "
                         f"{', '.join(missing)}")
    for card_id in set(out.values()):
        playing = [n for n, c in out.items() if c == card_id]
        if len(playing) > 2:
            raise RuleError(f"--species: {md.species(card_id).title} has two colour schemes, so "
                            f"two Colonists at most play it, not {len(playing)} "
                            f"({', '.join(playing)})")
    return out


def production_deck(md: MuleData, mode: str, rng: random.Random, players: int = 4,
                    chosen: dict[str, str] | None = None) -> list[str]:
    """Set-up 4. Production Cards: one random The Ship is Back! at the bottom, the set-up's
    number of other cards dealt on top of it (top of the deck first); More Game Turns and
    Variable Number of Game Turns change the deck (:mod:`companion.mule.length`)."""
    from companion.mule import length

    return length.production_deck(md, mode, rng, players, chosen)


# -- the fold ---------------------------------------------------------------------------------

def _step(state: dict[str, Any], event: Event) -> dict[str, Any]:
    """The state after ``event``; ``state`` is the fold's own, changed in place."""
    from companion.mule.changes import patch_in_place

    if event.kind == "step":
        if "change" in event.data:     # what the step changed, its keys sorted as saved
            after: dict[str, Any] = _sorted(patch_in_place(state, event.data["change"]))
            return after
        # a game saved before: the whole state after the step (keys it dropped stay out)
        return copy.deepcopy(event.data["after"])
    if event.kind == "turn":     # a whole turn saved at once (games saved before the steps)
        state = copy.deepcopy(state)
        state.update(copy.deepcopy(event.data["after"]))
    return state


def _sorted(node: Any) -> Any:
    """The state with its keys in the order the games file holds them (sorted), as the fold of
    a snapshot gave it: ``status --json`` and ``export`` read the same either way."""
    if isinstance(node, dict):
        return {k: _sorted(node[k]) for k in sorted(node)}
    if isinstance(node, list):
        return [_sorted(x) for x in node]
    return node


def fold(events: list[Event]) -> dict[str, Any]:
    """The state of a saved game: the set-up, each step's change (or, in a game saved before,
    its whole state after it, from which the fold starts), each ``set`` correction."""
    last = max((i for i, e in enumerate(events) if e.kind == "step" and "after" in e.data),
               default=None)
    if last is not None:
        start = events[last]
        events = [Event(start.seq, "setup", start.data["after"], start.at), *events[last + 1:]]
    state: dict[str, Any] = {}
    for event in events:
        if event.kind == "set":
            state = apply_set(state, event.data)
            _recount(state, str(event.data.get("path", "")))
        else:
            state = fold_with([event], _step) if event.kind == "setup" else _step(state, event)
    return state


def _recount(state: dict[str, Any], path: str) -> None:
    """A ``set`` of a Colonist's Lands (a Land's M.U.L.E., a Land taken off) moves the
    M.U.L.E.s with them: M.U.L.E.s are installed on Lands, one per tile, so the counts are
    the Lands'. A game saved before Lands were kept as dicts keeps its counts."""
    from companion.mule import board

    parts = path.split(".")
    if len(parts) < 3 or parts[0] != "players" or parts[2] != "lands":
        return
    for name, p in state.get("players", {}).items():
        if name.lower() == parts[1].lower() and isinstance(p, dict) \
                and isinstance(p.get("lands"), list) \
                and all(isinstance(land, dict) for land in p["lands"]):
            p["mules"] = board.mule_counts(p["lands"])


def mule_count(player: dict[str, Any]) -> int:
    return sum(int(v) for v in player["mules"].values())


def glance(state: dict[str, Any], md: MuleData | None = None) -> dict[str, Any]:
    """What the table reads at a glance: the Ranking with each Colonist's Money, Goods and
    Lands (with their M.U.L.E.s), The Store's stocks and prices, and the step that comes now
    (whose, and the command that records it)."""
    from companion.mule import data
    from companion.mule.state import from_json

    md = md or data.load()
    s = from_json(state)
    prices = {g: {"buy": s.prices.of(g), "sell": md.track(g).sell_for(s.prices.of(g))}
              for g in GOODS}
    colonists = []
    for rank, name in enumerate(s.ranking, 1):
        c = s.colonist(name)
        colonists.append({
            "rank": rank, "name": name, "money": c.money, **c.stocks._asdict(),
            "lands": [{"land": land.tile or land.land, "square": land.square,
                       "mule": land.mule} for land in c.lands],
            "hand": dict((s.hands or {}).get(name) or {}),
            "species": _talent_of(s.talent_card(name), md)})
    now = turn.current(s, md)
    return {"mode": s.mode, "turn": s.turn, "over": s.over, "colonists": colonists,
            "store": dict(state["store"]), "prices": prices,
            "next": now.as_dict(s) if now else None,
            "colony": s.colony._asdict() if s.colony else None, "options": dict(s.options)}


def _talent_of(ref: str | None, md: MuleData) -> dict[str, Any] | None:
    if not ref:
        return None
    card = md.species(ref)
    return {"card": card.code or card.id, "species": card.title, "talent": card.talent_name}


def describe(state: dict[str, Any]) -> str:
    """One screen the table reads at a glance."""
    if not state:
        return "(empty)"
    from companion.mule import data
    from companion.mule.state import from_json

    md, s = data.load(), from_json(state)
    lines = [f"M.U.L.E. ({s.mode}), Turn {s.turn}" + (", game over" if s.over else "")]
    lines.append(f"{'Rank':<5}{'Colonist':<10}{'$':>5}{'Smi':>5}{'Cry':>5}{'Food':>5}"
                 f"{'Ene':>5}  Lands (M.U.L.E.s)")
    for rank, name in enumerate(s.ranking, 1):
        c = s.colonist(name)
        lands = " ".join((x.tile or x.land) + (f"@{x.square}" if x.square else "")
                         + (f":{x.mule[0].upper()}" if x.mule else "") for x in c.lands) or "-"
        lines.append(f"{rank:<5}{name[:9]:<10}{c.money:>5}" + "".join(
            f"{c.stock(g):>5}" for g in GOODS) + f"  {lands}")
    sell = {g: md.track(g).sell_for(s.prices.of(g)) for g in GOODS}
    lines.append(f"The Store: {s.store.mules} M.U.L.E.s (${sell['smithore']} each), "
                 + ", ".join(f"{x.capitalize()} {s.store.stock(x)}" for x in GOODS
                             if x != "crystite"))
    lines.append("Prices, The Store sells/buys: " + ", ".join(
        f"{x.capitalize()} ${sell[x]}/{s.prices.of(x)}" for x in GOODS))
    lines += _decks_and_craters(s) + _turn_lines(s)
    from companion.mule import options

    chosen = options.describe(s.options)
    if chosen:
        lines.append(chosen)
    from companion.mule.development import status_lines

    lines += status_lines(s, md)
    talents = [(n, _talent_of(s.talent_card(n), md)) for n in s.ranking]
    if s.species:
        lines.append("Special Talents: " + ", ".join(
            f"{n} {t['species']} ({t['talent']})" for n, t in talents if t))
    lines += _length_lines(s, md) + _planet_lines(s)
    if s.colony:
        lines.append(f"First Founder: {s.ranking[0]}. Colony total ${s.colony.total}: row "
                     f"{s.colony.rating} of 7. {s.colony.text}")
    now = turn.current(s, md)
    if now:
        lines.append(f"Now: {turn.say_step(now, s)}")
        lines.append(f"  {turn.command(now, s)}")
    return "\n".join(lines)


def _planet_lines(s: State) -> list[str]:
    """Random Land Placement: Planet Irata as laid, row by row (a Land claimed since: dots)."""
    from companion.mule import planet

    if not planet.laid(s):
        return []
    claimed = [x.tile for c in s.colonists for x in c.lands if x.tile]
    return ["Planet Irata as laid (Random Land Placement), top row first:",
            *(f"  {row}" for row in planet.rows_text(s, claimed))]


def _length_lines(s: State, md: MuleData) -> list[str]:
    """How long the game lasts, and the Colony Success Table read at its end, where an
    Optional Rule (More Game Turns, Variable Number of Game Turns) changes them."""
    from companion.mule import length, options

    if not (options.on(s.options, "more-game-turns") or options.on(s.options, "variable-turns")):
        return []
    deck = length.length(md, s.mode, len(s.ranking), s.options)
    lines = [deck.describe()]
    if s.mode == "tournament":
        turns = s.turn if s.over else deck.last
        note = length.colony_note(md, turns, len(s.ranking))
        lines.append("Colony Success: " + (note or f"the printed table, for {turns} Turns")
                     + ("" if s.over or deck.first == deck.last else
                        f" (if the game lasts {turns} Turns)"))
    return lines


def _decks_and_craters(s: State) -> list[str]:
    lines = []
    decks = s.event_decks
    if s.production_deck is not None:
        lines.append(f"Production deck: {len(s.production_deck)} cards left"
                     + (f"; Event decks: Lucky {len(decks['lucky'].draw)}, Unlucky "
                        f"{len(decks['unlucky'].draw)} to draw" if decks else ""))
    if s.craters:
        lines.append("Meteor Craters on Planet Irata: " + ", ".join(
            c + (f" ({s.crater_zones[c]})" if s.crater_zones.get(c) else "") for c in s.craters))
    return lines


def _turn_lines(s: State) -> list[str]:
    lines = []
    dev = s.dev
    if dev and s.phase == "develop":
        done = [n for n in dev.order if n in dev.done]
        rnd = "the single Action Round" if "single-action-round" in s.options else \
            f"Action Round {dev.round}"
        lines.append(f"Development, {rnd}"
                     + (f"; done: {', '.join(done)}" if done else "")
                     + "; Food Usage: " + ", ".join(f"{n} {dev.food_used.get(n, 0)}"
                                                   for n in dev.order))
    hands = s.hands or {}
    if any(any(h.values()) for h in hands.values()):
        lines.append("Hand Cards, Land for Sale! / Package From Home World!: " + ", ".join(
            f"{n} {h.get('land_for_sale', 0)}/{h.get('package', 0)}" for n, h in hands.items()))
    return lines


def set_path(state: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A ``set`` correction applied to a copy (as the fold will apply it)."""
    return apply_set(copy.deepcopy(state), {"path": path, "value": value})


def validate(state: dict[str, Any]) -> None:
    """What ``irata play set`` may save: a corrected state the rules allow
    (``companion.mule.guard``); a RuleError or InputError names the rule it breaks."""
    from companion.mule import data, guard

    guard.check_state(state, data.load())
