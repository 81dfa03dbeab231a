"""A saved game of M.U.L.E.: its set-up, its fold, and the guided Game Turn of eight Phases.

The state (a JSON-able dict) keeps The Store (M.U.L.E.s and Goods), the Price Track (The
Store's Buy Prices), the Ranking, each Colonist's Money, Stocks and Lands (each with its tile,
square and the Good its M.U.L.E. produces: ``companion.mule.board``), the M.U.L.E. counts, the
turn and phase, the Meteor Craters on Planet Irata, and optionally the digital Production,
Lucky Event and Unlucky Event decks (``companion.mule.events``). A ``turn`` event carries
the state after the turn (``after``) beside the answers typed and the lines shown, so the fold
is a plain replay and a rule-data change never rewrites a finished turn.

:func:`play_turn` walks the Turn Sequence with an ``ask(question, default) -> str`` and a
``say(line)`` it is given, so the same code serves the terminal, a script on stdin and tests.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from companion.mule import board, events, pricing, production, rules
from companion.mule.data import GOODS, EventCard, MuleData, ProductionCard, check_good, plain
from companion.session import Event, apply_set, fold_with, parse_amount
from components.errors import InputError, RuleError

PHASES = ("expansion", "development", "usage and spoilage", "production", "pricing", "market",
          "ranking", "personal events")
Ask = Callable[[str, str], str]
Say = Callable[[str], None]


# -- set-up -----------------------------------------------------------------------------------

def new_game(md: MuleData, players: list[str], mode: str = "beginner", seed: int | None = None,
             deck: bool = False, alt_events: bool = False,
             rivers: dict[str, str] | None = None) -> dict[str, Any]:
    """Set-up (Beginner Game or Tournament Game): The Store, the Price Track at its minimum
    values, a random initial Ranking, each Colonist's starting Money, Goods and Lands; with
    ``deck``, the Production deck (Set-up 4) and the Lucky and Unlucky Event decks (Set-up 3)
    kept here. ``rivers`` names the River tile each Colonist starts with (Beginner)."""
    if len(set(players)) != len(players):
        raise InputError("a name is given twice in --players")
    if any(not p or "." in p or "=" in p or "," in p for p in players):
        raise InputError("player names cannot be empty or hold '.', '=' or ','")
    setup = md.setup(mode, len(players))
    seed = random.SystemRandom().randrange(1, 10**6) if seed is None else seed
    rng = random.Random(seed)
    ranking = list(players)
    rng.shuffle(ranking)
    state: dict[str, Any] = {
        "game": "mule", "mode": mode, "seed": seed, "order": list(players),
        "ranking": ranking, "turn": 1, "phase": PHASES[0], "over": False,
        "store": dict(setup["store"]),
        "prices": {g: md.track(g).buy_min for g in GOODS},
        "players": {},
        "production_deck": production_deck(md, mode, rng, len(players)) if deck else None,
        "production_drawn": [],
        "event_decks": {name: events.new_deck([c.id for c in md.deck(name)], seed, name)
                        for name in ("lucky", "unlucky")} if deck else None,
        "alt_events": alt_events,
        "craters": [],
    }
    rivers = {_player(n, players): t for n, t in (rivers or {}).items()}
    used: dict[str, str] = {}
    for name in players:
        colonist = {g: int(setup["colonist"].get(g, 0)) for g in ("money", *GOODS)}
        lands = []
        for land in setup.get("colonist_lands", []):
            good = check_good(land["good"]) if land.get("good") else None
            entry = board.new_land(str(land["land"]), mule=good)
            if entry["land"] == "river" and name in rivers:
                tile = md.land(rivers[name])
                if tile.land != "river":
                    raise InputError(f"--rivers: {tile.tile} is {tile.land}, not a River")
                if tile.tile in used:
                    raise InputError(f"--rivers: {tile.tile} is given to {used[tile.tile]} "
                                     f"and {name}")
                used[tile.tile] = name
                entry["tile"] = tile.tile
            lands.append(entry)
        state["players"][name] = {**colonist, "lands": lands, "mules": board.mule_counts(lands)}
    extra = set(rivers) - {n for n in players if any(
        land["land"] == "river" for land in state["players"][n]["lands"])}
    if extra:
        raise InputError(f"--rivers: {', '.join(sorted(extra))} starts with no River "
                         f"in the {mode} set-up")
    return state


def production_deck(md: MuleData, mode: str, rng: random.Random, players: int = 4
                    ) -> list[str]:
    """Set-up 4. Production Cards: one random The Ship is Back! at the bottom, the set-up's
    number of other cards dealt on top of it (top of the deck first)."""
    ships = [c.id for c in md.cards if c.ship_is_back]
    others = [c.id for c in md.cards if not c.ship_is_back]
    if not ships:
        raise RuleError("the Production Cards hold no The Ship is Back! card")
    count = int(md.setup(mode, players).get("production_deck", 0))
    rng.shuffle(others)
    return others[:count] + [rng.choice(ships)]


# -- the fold ---------------------------------------------------------------------------------

def _step(state: dict[str, Any], event: Event) -> dict[str, Any]:
    if event.kind == "turn":
        state = copy.deepcopy(state)
        state.update(copy.deepcopy(event.data["after"]))
    return state


def fold(events: list[Event]) -> dict[str, Any]:
    """The state of a saved game: the set-up, each turn's outcome, each ``set`` correction."""
    return fold_with(events, _step)


def mule_count(player: dict[str, Any]) -> int:
    return sum(int(v) for v in player["mules"].values())


def describe(state: dict[str, Any]) -> str:
    """A few lines a person reads at the table."""
    if not state:
        return "(empty)"
    lines = [f"M.U.L.E. ({state.get('mode')}), turn {state.get('turn')}, "
             f"{'game over' if state.get('over') else 'next: ' + str(state.get('phase'))}"]
    store = state["store"]
    lines.append(f"The Store: {store['mules']} M.U.L.E.s, " + ", ".join(
        f"{g} {store.get(g, 0)}" for g in ("smithore", "food", "energy")))
    lines.append("Buy Prices: " + ", ".join(f"{g} ${state['prices'][g]}" for g in GOODS))
    lines.append("Ranking: " + ", ".join(state["ranking"]))
    decks = state.get("event_decks")
    if state.get("production_deck") is not None:
        lines.append(f"Production deck: {len(state['production_deck'])} cards left"
                     + (f"; Event decks: Lucky {len(decks['lucky']['draw'])}, Unlucky "
                        f"{len(decks['unlucky']['draw'])} to draw" if decks else ""))
    if state.get("craters"):
        lines.append("Meteor Craters on Planet Irata: " + ", ".join(state["craters"]))
    for name in state["ranking"]:
        p = state["players"][name]
        lands = board.normalise(p["lands"])
        shown = ", ".join(
            (land.get("tile") or land["land"]) + (f"@{land['square']}" if land.get("square")
                                                  else "")
            + (f" {land['mule']}" if land.get("mule") else "") for land in lands) or "none"
        lines.append(f"  {name}: ${p['money']}; " + ", ".join(f"{g} {p[g]}" for g in GOODS)
                     + f"; {len(lands)} Lands: {shown}")
    return "\n".join(lines)


# -- answers typed at the table -------------------------------------------------------------------

def parse_named(text: str, names: list[str], what: str, signed: bool = False
                ) -> dict[str, int]:
    """``Ann=3,Bob=1+1``; every name must be a Colonist of the game."""
    out: dict[str, int] = {}
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        if "=" not in part:
            raise InputError(f"{what}: '{part.strip()}' should be NAME=N")
        name, value = (s.strip() for s in part.split("=", 1))
        name = _player(name, names)
        n = parse_amount(value, f"{what} {name}")
        if n < 0 and not signed:
            raise InputError(f"{what} {name} must be 0 or more")
        out[name] = out.get(name, 0) + n
    return out


def _player(name: str, names: list[str]) -> str:
    for n in names:
        if n.lower() == name.strip().lower():
            return n
    raise InputError(f"'{name}' is not a player in this game ({', '.join(names)})")


def _ask(ask: Ask, say: Say, question: str, default: str, parse: Callable[[str], Any]) -> Any:
    """Ask until the answer parses; a bad answer gets its one-line reason."""
    while True:
        answer = ask(question, default)
        try:
            return parse(answer)
        except (InputError, RuleError) as exc:
            say(f"  ! {exc}")


# -- the Game Turn ------------------------------------------------------------------------------

def play_turn(state: dict[str, Any], md: MuleData, ask: Ask, say: Say
              ) -> tuple[dict[str, Any], dict[str, Any]]:
    """One Game Turn, Phase by Phase; returns the state after it and the answers typed."""
    if state.get("over"):
        raise RuleError("this game is over: The Ship is Back! was drawn")
    s = copy.deepcopy(state)
    names: list[str] = list(s["ranking"])
    players = s["players"]
    s.setdefault("craters", [])
    for name, p in players.items():
        p["lands"] = board.normalise(p["lands"])
        derived = board.mule_counts(p["lands"])
        if derived != {g: int(p["mules"].get(g, 0)) for g in GOODS}:
            say(f"  ! {name}: the M.U.L.E.s are counted from the Lands they are on; change "
                "them at the Development question (LAND=GOOD)")
        p["mules"] = derived
    answers: dict[str, Any] = {}
    tile_of = md.land

    def asked(key: str, question: str, default: str, parse: Callable[[str], Any]) -> Any:
        typed: list[str] = []

        def keep(answer: str) -> Any:
            typed.append(answer)
            return parse(answer)

        value = _ask(ask, say, question, default, keep)
        answers[key] = typed[-1]      # the words typed, kept in the log
        return value

    def owned() -> dict[str, str]:
        return {land["tile"]: n for n in names for land in players[n]["lands"]
                if land.get("tile")}

    # 1. Expansion: Land Grant, low to high Rank (twice on Turn 1), then Land Auctions
    say(f"== Turn {s['turn']}: 1. Expansion")
    grants = int(md.setup(s["mode"], len(names)).get("land_grants_turn_1", 2)) \
        if s["turn"] == 1 else 1
    for round_ in range(grants):
        for name in reversed(names):
            land = asked(f"grant.{round_}.{name}",
                         f"Land Grant: {name} claims (tile such as P07, with its square: "
                         "P07@B2; or a land type; blank: none)", "",
                         lambda a, n=name: board.parse_claim(  # type: ignore[misc]
                             a, tile_of, owned(), s["craters"], players[n]["lands"]))
            if land:
                players[name]["lands"].append(land)
    if s["mode"] == "tournament":
        held = 0  # Land Auctions held this turn: each answer's key in the log
        while True:
            auction = asked(f"auction.{held}", "Land Auction: WINNER PRICE [TILE[@SQUARE]] "
                            "(blank: none)", "", lambda a: _auction(a, names))
            if auction is None:
                break
            winner, paid, text = auction
            if players[winner]["money"] < paid:
                say(f"  ! {winner} has only ${players[winner]['money']}")
                continue
            try:
                land = board.parse_claim(text, tile_of, owned(), s["craters"],
                                         players[winner]["lands"]) if text else None
            except (InputError, RuleError) as exc:
                say(f"  ! {exc}")
                continue
            players[winner]["money"] -= paid
            players[winner]["lands"].append(land or board.new_land("land"))
            held += 1

    # 2. Development
    say("== 2. Development")
    mule_price = md.track("smithore").sell_for(s["prices"]["smithore"])
    store = s["store"]
    decks = s.get("event_decks")
    made = rules.store_mule_production(store["mules"], store["smithore"], pens=md.pens,
                                       mules_per_pen=md.mules_per_pen)
    if made.made:
        say(f"The Store makes {made.made} M.U.L.E.(s) from Smithore")
    store["mules"], store["smithore"] = made.mules, made.smithore
    order = names if store["mules"] > int(md.data.get("corral", {}).get("reverse_order_at", 6)) \
        else list(reversed(names))
    for name in order:
        p = players[name]
        bought = asked(f"bought.{name}", f"{name}: M.U.L.E.s bought at ${mule_price}", "0",
                       lambda a: _nonneg(a, "M.U.L.E.s bought"))
        if bought:
            after = rules.store_mule_production(store["mules"], store["smithore"], bought,
                                                pens=md.pens, mules_per_pen=md.mules_per_pen)
            store["mules"], store["smithore"] = after.mules, after.smithore
            p["money"] = max(0, p["money"] - bought * mule_price)
        food = asked(f"food.{name}", f"{name}: Food used", "0",
                     lambda a, p=p: _at_most(a, p["food"], "Food used"))  # type: ignore[misc]
        p["food"] -= food
        if decks:
            hunts = asked(f"wampus.{name}", f"{name}: Hunt the Wampus, how many times "
                          "(each draws a Lucky Event card)", "0",
                          lambda a: _nonneg(a, "Wampus hunts"))
            _hunt(s, md, name, hunts, say)
            won = asked(f"won.{name}", f"{name}: $ from the Pub", "0",
                        lambda a: _nonneg(a, "$ won"))
        else:
            won = asked(f"won.{name}", f"{name}: $ from the Wampus or the Pub", "0",
                        lambda a: _nonneg(a, "$ won"))
        p["money"] += won
        p["lands"] = asked(f"mules.{name}",
                           f"{name}: M.U.L.E.s on Lands, LAND=GOOD (LAND: tile or number "
                           "1..; GOOD: S C F E)", board.mules_text(p["lands"]),
                           lambda a, p=p: board.parse_mules(  # type: ignore[misc]
                               a, p["lands"], tile_of))
        p["mules"] = board.mule_counts(p["lands"])

    # 3. Usage and Spoilage
    say("== 3. Usage and Spoilage")
    shortage: dict[str, int] = {}
    for name in names:
        p = players[name]
        r = rules.spoilage(rules.Stocks(**{g: p[g] for g in GOODS}), mule_count(p),
                           p["mules"]["energy"], food_divisor=md.food_divisor,
                           energy_divisor=md.energy_divisor, overstock_limit=md.overstock_limit)
        p.update(r.stocks.as_dict())
        shortage[name] = r.shortage
        spoiled = ", ".join(f"{g} {n}" for g, n in r.spoiled.items() if n) or "nothing"
        flip = f"; flip {r.shortage} M.U.L.E.(s)" if r.shortage else ""
        say(f"{name}: Energy used {r.energy_used}, spoiled {spoiled}{flip}")

    # 4. Production
    say("== 4. Production")
    deck = s.get("production_deck")
    if deck:
        card = md.card(deck.pop(0))
        say(f"Production Card drawn: {card.title}")
    else:
        card = asked("card", "Production Card drawn (name or id)", "",
                     lambda a: md.card(a) if a.strip() else _missing("a Production Card"))
    s["production_drawn"].append(card.id)
    text, effect = card.on_turn(s["turn"])
    if text:
        say(f"  {plain(text)}")
    _card_on_colony(s, md, card, effect, names, say)
    tournament = s["mode"] == "tournament"
    worked = {n: _worked_lands(n, players[n], shortage[n], tournament, md, asked, say)
              for n in names}
    every = s["turn"] == 1 and isinstance(card.fields.get("game_turn_1"), dict)
    _card_on_lands(effect, names, players, worked, every, asked, say)
    for name in names:
        p = players[name]
        result = production.produce(worked[name], card.modifiers, tournament=tournament)
        for g in GOODS:
            p[g] += result.total[g]
        for land in p["lands"]:
            if land.get("tile") in result.turn_over:
                land["secret"] = True
        extra = f"; turn to the Secret Side: {', '.join(result.turn_over)}" \
            if result.turn_over else ""
        eos = " (Economies of Scale " + ", ".join(
            f"{g} +{n}" for g, n in result.economies_of_scale.items() if n) + ")" \
            if any(result.economies_of_scale.values()) else ""
        say(f"{name} produces " + ", ".join(f"{g} {result.total[g]}" for g in GOODS)
            + eos + extra)
    final = card.ship_is_back

    # 5. Pricing
    say("== 5. Pricing")
    asks = {
        "smithore": pricing.smithore_steps(store["mules"], store["smithore"], pens=md.pens,
                                           mules_per_pen=md.mules_per_pen),
        "crystite": pricing.crystite_steps(md.track("crystite"), s["prices"]["crystite"],
                                           card.crystite_price, card.pirates),
        "food": pricing.food_steps([players[n]["food"] for n in names], store["food"],
                                   per_colonist=md.food_per_colonist),
        "energy": pricing.energy_steps([players[n]["energy"] for n in names],
                                       [mule_count(players[n]) for n in names],
                                       store["energy"]),
    }
    for g in GOODS:
        change = pricing.move(md.track(g), s["prices"][g], asks[g])
        s["prices"][g] = change.buy
        say(f"{g.capitalize()}: {change.steps:+d} steps, moved {change.moved:+d} -> "
            f"${change.sell}/{change.buy}")

    # 6. Market
    say("== 6. Market")
    if final:
        sell = rules.final_sell_out({n: players[n]["money"] for n in names},
                                    {n: rules.Stocks(**{g: players[n][g] for g in GOODS})
                                     for n in names}, s["prices"])
        for n in names:
            players[n]["money"] = sell.money[n]
            for g in GOODS:
                players[n][g] = 0
            say(f"{n} sells everything to The Store: +${sell.revenue[n]}")
    else:
        for g in GOODS:
            _auction_of(g, s, md, names, asked, say)

    # 7. Ranking
    say("== 7. Ranking")
    s["ranking"] = rules.rank({n: players[n]["money"] for n in names}, names)
    for i, n in enumerate(s["ranking"], 1):
        say(f"Rank {i}: {n} (${players[n]['money']})")
    if final:
        s["over"] = True
        s["phase"] = "game over"
        say(f"{s['ranking'][0]} is the First Founder!")
        total = sum(players[n]["money"] for n in names)
        if tournament and len(names) in (3, 4):
            cs = rules.colony_success(total, len(names), md.colony_rows())
            say(f"Colony total ${total}: {cs.text}")
        return s, answers

    # 8. Personal Events
    say("== 8. Personal Events")
    _personal_events(s, md, asked, say)
    changes = asked("events", "Other changes: NAME money=+5 food=-2; ... (blank: none)", "",
                    lambda a: _events(a, list(players)))
    for name, delta in changes:
        for key, n in delta.items():
            players[name][key] = max(0, players[name][key] + n)   # carried out as far as possible
    s["turn"] += 1
    s["phase"] = PHASES[0]
    return s, answers


# -- the Phases' parts ----------------------------------------------------------------------------

def _hunt(s: dict[str, Any], md: MuleData, name: str, hunts: int, say: Say) -> None:
    """Hunt the Wampus with the digital Lucky Event deck: each hunt draws a card; the Wampus in
    its corner pays $10 (and ends the hunting for this Turn). The card is discarded."""
    deck = s["event_decks"]["lucky"]
    prize = int(md.data.get("development", {}).get("wampus", 10))
    for _ in range(hunts):
        card_id, reshuffled = events.draw(deck, s["seed"], "lucky")
        events.discard(deck, card_id)
        card = md.event(card_id)
        if reshuffled:
            say("  (the Lucky Event discard pile is shuffled into a new deck)")
        if card.wampus:
            s["players"][name]["money"] += prize
            say(f"{name} draws {card.title}: the Wampus! +${prize}")
            return
        say(f"{name} draws {card.title}: no Wampus")


def _card_on_colony(s: dict[str, Any], md: MuleData, card: ProductionCard,
                    effect: dict[str, Any], names: list[str], say: Say) -> None:
    """The Production Card's effects on the whole Colony: Pirate Ship! (every Colonist loses
    all their Crystite), Fire in The Store! (The Store's Goods burn) and the Meteor Craters."""
    lose = effect.get("lose_all")
    if lose in GOODS:
        for name in names:
            s["players"][name][lose] = 0
        say(f"Every Colonist loses all their {lose}")
    if effect.get("store_loses_all"):
        s["store"].update(production.store_after_card(s["store"], effect))
        say("The Store loses all its " + ", ".join(effect["store_loses_all"]))
    if effect.get("meteor_craters"):
        craters = [t.tile for t in md.craters() if t.tile not in s["craters"]]
        craters = craters[:int(effect.get("craters", len(craters)))]
        s["craters"] = [*s["craters"], *craters]
        placer = names[-1] if effect.get("placed_by", "lowest_rank") == "lowest_rank" \
            else names[0]
        if craters:
            say(f"{placer} places {', '.join(craters)} on empty squares of Planet Irata: they "
                "can be claimed from now on")


def _worked_lands(name: str, p: dict[str, Any], short: int, tournament: bool, md: MuleData,
                  asked: Callable[..., Any], say: Say) -> list[production.Worked]:
    """A Colonist's Lands with M.U.L.E.s for Production: read from the saved game's Lands when
    each has its tile (only the M.U.L.E.s flipped for an Energy Shortage are asked), typed
    otherwise."""
    known = board.worked_from(p["lands"], md.land)
    if known is not None and (not tournament or board.has_squares(known)):
        if short:
            choices = [w for w in known if w.good != "energy"]
            flipped = asked(f"flipped.{name}", f"{name}: {short} M.U.L.E.(s) flipped for the "
                            "Energy Shortage (tiles, e.g. P07,R01)", "",
                            lambda a: _flipped(a, choices, min(short, len(choices))))
            known = [replace(w, flipped=True, first_crystite=False) if w.tile in flipped else w
                     for w in known]
        return known
    hint = f" ({short} flipped: mark them !)" if short else ""
    shape = "the board: rows split by /" if tournament else "e.g. F3,C1,E2!"
    working = [f"{land['land']} {land['mule']}" for land in p["lands"] if land.get("mule")]
    if working:
        hint += f"; M.U.L.E.s on: {', '.join(working)}"

    worked = asked(f"lands.{name}", f"{name}: working Lands ({shape}){hint}", "",
                   lambda a: _worked(a, production.tile_value_from(md.lands), tournament))
    if working and not worked:
        say(f"  ! {name}: no Production typed for {len(working)} M.U.L.E.(s) at work, counted "
            "as nothing (give the Lands their tiles, e.g. with set, and it is counted for you)")
    return worked


def _flipped(text: str, choices: list[production.Worked], count: int) -> set[str]:
    tiles = {t.strip().upper() for t in text.replace(" ", ",").split(",") if t.strip()}
    allowed = {w.tile for w in choices if w.tile}
    wrong = sorted(tiles - allowed)
    if wrong:
        raise InputError(f"{', '.join(wrong)}: not a Land with a M.U.L.E. that uses Energy "
                         f"({', '.join(sorted(allowed))})")
    if len(tiles) != count:
        raise RuleError(f"flip exactly {count} M.U.L.E.(s) not producing Energy")
    return tiles


def _card_on_lands(effect: dict[str, Any], names: list[str], players: dict[str, Any],
                   worked: dict[str, list[production.Worked]], every: bool,
                   asked: Callable[..., Any], say: Say) -> None:
    """Radiation! (a M.U.L.E. lost, or on Game Turn 1 flipped, by their choice) and Pest
    Attack! (the production of one Food Land lost) on the Colonists they hit; ``every``: the
    card's Game Turn 1 version, which hits every Colonist it names."""
    rad = effect.get("radiation") or {}
    for rank in production.radiation_ranks(effect, len(names)):
        name = names[rank - 1]
        lands = worked[name]
        if not lands:
            say(f"Radiation!: {name} has no M.U.L.E. to lose")
            continue
        lost = bool(rad.get("mules_lost"))
        verb = "loses" if lost else "flips"
        i = _choose(asked, f"radiation.{name}", f"Radiation!: {name} {verb} which M.U.L.E. "
                    "(tile, cell as typed, or number)", lands, None)
        worked[name] = production.strike(lands, i)
        if i is not None:
            say(f"{name} {verb} the M.U.L.E. on {lands[i].label}")
            if lost:
                _lose_mule(players[name], lands[i])
    pest = effect.get("pest_attack") or {}
    if pest:
        good = str(pest.get("good", "food"))

        def produces(n: str) -> bool:
            return any(w.good == good and not w.flipped for w in worked[n])

        hit = production.pest_attack_targets(effect, names, produces, every)
        if not hit:
            say("Pest Attack!: no Colonist it can hit produces " + good)
        for name in hit:
            lands = [w for w in worked[name]]
            i = _choose(asked, f"pests.{name}", f"Pest Attack!: which of {name}'s {good} "
                        "Lands loses its production", lands, good)
            worked[name] = production.strike(lands, i)
            if i is not None:
                say(f"{name} loses the {good} of {lands[i].label}")


def _choose(asked: Callable[..., Any], key: str, question: str,
            lands: list[production.Worked], good: str | None) -> int | None:
    try:        # the only candidate needs no question
        return production.land_index(lands, None, good)
    except InputError:
        return asked(key, question, "", lambda a: production.land_index(lands, a, good))


def _lose_mule(p: dict[str, Any], w: production.Worked) -> None:
    """Radiation!: the M.U.L.E. goes to the neutral stacks; its Land keeps no M.U.L.E."""
    for land in p["lands"]:
        if land.get("mule") == w.good and (w.tile is None or land.get("tile") == w.tile):
            land["mule"] = None
            p["mules"] = board.mule_counts(p["lands"])
            return
    p["mules"][w.good] = max(0, p["mules"][w.good] - 1)


def _personal_events(s: dict[str, Any], md: MuleData, asked: Callable[..., Any],
                     say: Say) -> None:
    """8. Personal Events: Rank 1 draws a Lucky Event and gives it to another Colonist, who
    then draws an Unlucky Event and gives it to another; the target follows the card. Under
    the Alternative Personal Event System the card's diagram names the Rank who receives it.
    With the digital decks the cards are drawn here; otherwise the card drawn is typed."""
    names: list[str] = s["ranking"]
    decks = s.get("event_decks")
    giver = names[0]
    for deck_name in ("lucky", "unlucky"):
        title = deck_name.capitalize()
        if decks:
            card_id, reshuffled = events.draw(decks[deck_name], s["seed"], deck_name)
            if reshuffled:
                say(f"  (the {title} Event discard pile is shuffled into a new deck)")
            card: EventCard | None = md.event(card_id)
        else:
            card = asked(f"{deck_name}.card", f"{title} Event card drawn by {giver} (name or "
                         "id; blank: none)", "",
                         lambda a, d=deck_name: _event_card(md, a, d))
        if card is None:
            continue
        say(f"{title} Event drawn by {giver}: {card.title}")
        if card.text:
            say(f"  {plain(card.text)}")
        if s.get("alt_events"):
            target = events.alt_event_target(card.alt_event, names)
            say(f"  the card's diagram gives it to {target}")
        else:
            target = asked(f"{deck_name}.to", f"{giver} gives it to", "",
                           lambda a, g=giver: _target(a, g, names))
        p = s["players"][target]
        outcome = events.apply_event(card.effect, events.Colonist(
            p["money"], {g: p[g] for g in GOODS}, len(p["lands"]), dict(p["mules"])))
        p["money"] = outcome.money_after
        for g in GOODS:
            p[g] = outcome.stocks_after[g]
        say(f"{target}: {outcome.summary()} -> ${p['money']}")
        if decks:
            events.discard(decks[deck_name], card.id)
        giver = target


def _event_card(md: MuleData, text: str, deck: str) -> EventCard | None:
    if not text.strip():
        return None
    card = md.event(text)
    if card.deck != deck:
        raise InputError(f"{card.title} is a{'n' if card.deck == 'unlucky' else ''} "
                         f"{card.deck.capitalize()} Event card")
    return card


def _target(text: str, giver: str, names: list[str]) -> str:
    if not text.strip():
        raise InputError("name the Colonist who receives the card")
    target = _player(text, names)
    events.check_target(giver, target)
    return target


def _auction_of(good: str, s: dict[str, Any], md: MuleData, names: list[str],
                asked: Callable[..., Any], say: Say) -> None:
    """6. Market, one Auction: sales to The Store at its Buy Price, purchases from it at its
    Sell Price in Priority to Buy order, then deals between Colonists at any price."""
    players, store = s["players"], s["store"]
    buy = s["prices"][good]
    sell_price = md.track(good).sell_for(buy)
    sold = asked(f"sold.{good}", f"{good.capitalize()} Auction: sold to The Store at ${buy} "
                 "(NAME=N,...)", "", lambda a: parse_named(a, names, "sold"))
    for name, n in sold.items():
        if n > players[name][good]:
            raise_later = f"{name} has only {players[name][good]} {good}; sells that"
            say(f"  ! {raise_later}")
            n = players[name][good]
        players[name][good] -= n
        players[name]["money"] += n * buy
        if good != "crystite":     # Crystite sold to The Store is shipped off-planet
            store[good] = store.get(good, 0) + n
    if good == "crystite" or not store.get(good):
        wants: dict[str, int] = {}
    else:
        wants = asked(f"bought.{good}", f"{good.capitalize()}: bought from The Store at "
                      f"${sell_price} (NAME=N,...)", "", lambda a: parse_named(a, names, "bought"))
    if wants:
        # what each can afford, then Priority to Buy, lowest Rank first
        affordable = {n: min(q, players[n]["money"] // sell_price) for n, q in wants.items()}
        alloc = rules.priority_to_buy(names, affordable, store[good], sell_price)
        for name, q in alloc.bought.items():
            players[name][good] += q
            players[name]["money"] -= alloc.cost[name]
            say(f"{name} buys {q} {good} for ${alloc.cost[name]}")
        store[good] = alloc.store_left
    deals = asked(f"deals.{good}", f"{good.capitalize()}: deals between Colonists "
                  "(SELLER>BUYER N@PRICE, ...)", "", lambda a: _deals(a, names))
    for seller, buyer, n, each in deals:
        n = min(n, players[seller][good])
        n = min(n, players[buyer]["money"] // each) if each else n
        players[seller][good] -= n
        players[buyer][good] += n
        players[seller]["money"] += n * each
        players[buyer]["money"] -= n * each
        say(f"{seller} sells {n} {good} to {buyer} for ${n * each}")


def _missing(what: str) -> Any:
    raise InputError(f"{what} is needed here")


def _nonneg(text: str, what: str) -> int:
    n = parse_amount(text, what)
    if n < 0:
        raise InputError(f"{what} must be 0 or more")
    return n


def _at_most(text: str, most: int, what: str) -> int:
    n = _nonneg(text, what)
    if n > most:
        raise InputError(f"{what}: only {most} in the Stock")
    return n


def _mules(text: str, lands: int) -> dict[str, int]:
    parts = [p for p in text.replace(" ", "").split(",")]
    if len(parts) != 4:
        raise InputError("give four numbers: smithore,crystite,food,energy")
    counts = {g: _nonneg(p, g) for g, p in zip(GOODS, parts, strict=True)}
    if sum(counts.values()) > lands:
        raise RuleError(f"{sum(counts.values())} M.U.L.E.s but only {lands} Lands "
                        "(one M.U.L.E. per Land)")
    return counts


def _worked(text: str, tile: Callable[[str, str], int], tournament: bool
            ) -> list[production.Worked]:
    if tournament:
        return production.parse_board(text, tile)
    return production.parse_lands(text, tile)


def _auction(text: str, names: list[str]) -> tuple[str, int, str] | None:
    parts = text.split()
    if not parts:
        return None
    if len(parts) < 2:
        raise InputError("Land Auction: give WINNER PRICE [LAND], e.g. Ann 22 H03")
    return _player(parts[0], names), _nonneg(parts[1], "price"), " ".join(parts[2:])


def _deals(text: str, names: list[str]) -> list[tuple[str, str, int, int]]:
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            who, what = part.split(None, 1) if " " in part else (part, "")
            seller, buyer = who.split(">")
            n, each = what.replace(" ", "").split("@")
        except ValueError:
            raise InputError(f"'{part}': a deal is SELLER>BUYER N@PRICE, e.g. Ann>Bob 2@4") \
                from None
        out.append((_player(seller, names), _player(buyer, names), _nonneg(n, "units"),
                    _nonneg(each, "price")))
    return out


def _events(text: str, names: list[str]) -> list[tuple[str, dict[str, int]]]:
    out = []
    for part in text.split(";"):
        words = part.split()
        if not words:
            continue
        name = _player(words[0], names)
        delta: dict[str, int] = {}
        for w in words[1:]:
            if "=" not in w:
                raise InputError(f"'{w}': write money=+5 or food=-2")
            key, value = w.split("=", 1)
            key = key.lower()
            if key != "money":
                key = check_good(key)
            delta[key] = parse_amount(value, key)
        out.append((name, delta))
    return out


def set_path(state: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A ``set`` correction applied to a copy (as the fold will apply it)."""
    return apply_set(copy.deepcopy(state), {"path": path, "value": value})
