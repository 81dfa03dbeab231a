"""Mule Goes Crazy!'s economy in the saved game: the event builders of the steps the economy
added (``done``, ``event``, ``interrupt``, ``upgrade``, ``facility``, ``trade``,
``reshuffle``); :mod:`companion.mule_goes_crazy.fold` folds them. Each builder reads
the typed state (:mod:`companion.mule_goes_crazy.state`), checks the step against the rules
(raising the rule's refusal) and returns the event's data, which carries every number it
computed, so the fold only adds and subtracts.

Sections named are the draft rulebook's (``mule-goes-crazy.txt``); what it leaves open is the
project's, in ``components/mule_goes_crazy/data.yaml`` and on the cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.mule_goes_crazy.state import STORE, State
from components.errors import InputError, RuleError

if TYPE_CHECKING:
    from companion.mule_goes_crazy import economy as eco

__all__ = ["done_event", "event_event", "facility_event", "interrupt_event",
           "player_turn", "reshuffle_event", "trade_event", "upgrade_event"]


def _title(key: str | None) -> str:
    return (key or "").replace("-", " ").title()


def _name(s: State, name: str) -> str:
    from companion.suggest import did_you_mean

    if name not in s.seating:
        raise InputError(f"no player '{name}' in this game ({', '.join(s.seating)})"
                         + did_you_mean(name, s.seating))
    return name


def _before_production(s: State, what: str) -> None:
    t = s.this_turn
    if s.over:
        raise RuleError("the game is over: 'irata play status' shows the final score")
    if t.produced or t.spoilage or t.upkeep:
        raise RuleError(f"the Production Phase of turn {s.turn} has begun: {what} comes in "
                        "the Player Turns, before it")


def player_turn(s: State, name: str, what: str) -> None:
    """Player Turns: ``name`` may take (part of) their turn now (see
    ``economy.turn_refusal``), before the Production Phase."""
    from companion.mule_goes_crazy import economy as eco

    _name(s, name)
    _before_production(s, what)
    why = eco.turn_refusal(eco.turn_order(s.seating, s.favored), s.this_turn.acted,
                           s.this_turn.done, name)
    if why:
        raise RuleError(why)


def _pay(s: State, name: str, cost: Mapping[str, int], what: str) -> dict[str, int]:
    """A card's cost, paid from ``name``'s sheet (Credits and resources): the changes."""
    sheet = s.sheet(name)
    for resource, n in cost.items():
        if sheet.amount(resource) < int(n):
            raise RuleError(f"{what} costs {n} {resource.capitalize()}; {name} has "
                            f"{sheet.amount(resource)}")
    return {r: -int(n) for r, n in cost.items() if int(n)}


# --- 2. Play out cards: the end of a player's turn ------------------------------------------

def done_event(s: State, name: str) -> dict[str, Any]:
    """Player Turns, "When finished, play passes to the next person": ``name``'s turn is
    over (Draw, Play out cards, Discard, Move Mules)."""
    player_turn(s, name, "the end of a player's turn")
    return {"turn": s.turn, "player": name}


# --- Interrupts, Events ---------------------------------------------------------------------

def _card(game: Any, key: str, prefix: str) -> Any:
    from companion.mule_goes_crazy.rules import find_card

    return find_card(game, key, prefix)


def _effect_data(s: State, name: str, card: Any, target: str | None, mule_land: str | None
                 ) -> dict[str, Any]:
    from companion.mule_goes_crazy import economy as eco

    if target is not None:
        _name(s, target)
    index = None
    if mule_land is not None and target is not None:
        sheet = s.sheet(target)
        index = next((i for i, m in enumerate(sheet.mules) if m.land == mule_land), None)
        if index is None:
            raise RuleError(f"no Mule of {target}'s tends {_title(mule_land)}")
    sheets = {n: {**sh._asdict(), "lands": sh.lands} for n, sh in s.players}
    effect = eco.card_effect(card.fields["effect"], name, target, sheets, dict(s.store), index)
    cost = _pay(s, name, {r: int(n) for r, n in card.fields.get("cost", {}).items()},
                f"the {card.fields['title']} card")
    changes = {who: dict(c) for who, c in effect.players.items()}
    if cost:
        mine = changes.setdefault(name, {})
        for r, n in cost.items():
            mine[r] = mine.get(r, 0) + n
    return {"turn": s.turn, "player": name, "card": card.id.split("/", 1)[1],
            "title": str(card.fields["title"]), "target": target, "changes": changes,
            "store": dict(effect.store),
            "runaway": list(effect.runaway) if effect.runaway else None,
            "dice": dict(effect.dice), "blocked": effect.blocked}


def event_event(s: State, game: Any, name: str, key: str,
                target: str | None = None, mule_land: str | None = None,
                kick: str | None = None) -> dict[str, Any]:
    """Events: "Event cards may only be played during your turn ... Only one Event card may
    be played per player per turn." ``kick``: the player who stops it with a Mule Kick
    Interrupt as it is played (the Event has no effect; the kicker pays the Mule Kick)."""
    player_turn(s, name, "an Event card")
    if name in s.this_turn.events:
        raise RuleError(f"{name} has played an Event card this turn already: one Event card a "
                        "player a turn")
    card = _card(game, key, "event")
    data = _effect_data(s, name, card, target, mule_land)
    if kick is not None:
        _name(s, kick)
        if kick == name:
            raise RuleError("a Mule Kick stops another player's Event card")
        stopper = _card(game, "mule-kick", "interrupt")
        cost = _pay(s, kick, {r: int(n) for r, n in stopper.fields["cost"].items()},
                    "the Mule Kick card")
        own = _pay(s, name, {r: int(n) for r, n in card.fields.get("cost", {}).items()},
                   f"the {card.fields['title']} card")
        changes: dict[str, dict[str, int]] = {kick: cost}
        if own:
            changes.setdefault(name, {}).update(own)
        data.update({"kicked_by": kick, "changes": changes, "store": {}, "runaway": None,
                     "dice": {}, "blocked": None})
    return data


def interrupt_event(s: State, game: Any, name: str, key: str,
                    target: str | None = None) -> dict[str, Any]:
    """Interrupts: "Interrupt cards may be played at any time, even during another player's
    turn." (A Mule Kick is played with the Event it stops: ``event ... --kick NAME``.)"""
    _name(s, name)
    if s.over:
        raise RuleError("the game is over: 'irata play status' shows the final score")
    card = _card(game, key, "interrupt")
    if "cancels_event" in card.fields["effect"]:
        raise RuleError("a Mule Kick is played as another player plays an Event card: record "
                        "it with that Event, 'event NAME CARD --kick YOUR-NAME'")
    return _effect_data(s, name, card, target, None)


# --- Upgrades -------------------------------------------------------------------------------

def upgrade_event(s: State, game: Any, name: str, key: str, land: str,
                  printed: int) -> dict[str, Any]:
    """Upgrades: "Upgrades may be played to a Land card or a Mule card ... Spend the resources
    or Credits necessary ... Each Land and Mule may only have one upgrade." A Mule Upgrade
    goes on the Mule tending ``land`` (the project's: a Mule is named by its Land); the cost
    comes off the player's own sheet (the project's)."""
    player_turn(s, name, "an Upgrade")
    card = _card(game, key, "upgrade")
    short = card.id.split("/", 1)[1]
    held = sum(1 for _, sh in s.players for u in (*sh.land_upgrades,
                                                  *(m.upgrade for m in sh.mules)) if u == short)
    if held >= printed:
        raise RuleError(f"the deck has {printed} {card.fields['title']} card"
                        f"{'s' if printed != 1 else ''} and {held} in play already")
    sheet = s.sheet(name)
    if land not in sheet.lands:
        raise RuleError(f"{name} holds no {_title(land)} Land")
    on = card.fields["attaches"]
    if on == "land":
        at = next((i for i, x in enumerate(sheet.lands) if x == land
                   and sheet.land_upgrade(i) is None), None)
        if at is None:
            raise RuleError(f"{name}'s {_title(land)} has an Upgrade already: one a Land")
    else:
        at = next((i for i, m in enumerate(sheet.mules) if m.land == land), None)
        if at is None:
            raise RuleError(f"no Mule of {name}'s tends {_title(land)}: a Mule Upgrade goes on "
                            "a Mule, named by the Land it tends")
        if sheet.mules[at].upgrade is not None:
            raise RuleError(f"the Mule on {_title(land)} has an Upgrade already: one a Mule")
    cost = _pay(s, name, {r: int(n) for r, n in card.fields["cost"].items()},
                f"the {card.fields['title']} Upgrade")
    return {"turn": s.turn, "player": name, "upgrade": short, "on": on, "index": at,
            "land": land, "changes": {name: cost}}


# --- Facilities -----------------------------------------------------------------------------

def facility_event(s: State, game: Any, name: str, key: str,
                   printed: int) -> dict[str, Any]:
    """Population and Facilities: "When a Facility card is played, it has a per-turn cost for
    a set number of turns, after which a Population card becomes assigned to it." A Facility
    is an Event card (one a player a turn, in their own turn). The player who plays it pays
    its Build cost at the upkeep of each turn, this one first, from their own sheet (the
    project's)."""
    player_turn(s, name, "a Facility card")
    if name in s.this_turn.events:
        raise RuleError(f"{name} has played an Event card this turn already (a Facility is "
                        "one): one Event card a player a turn")
    card = _card(game, key, "facility")
    short = card.id.split("/", 1)[1]
    held = sum(1 for f in s.facilities if f.card == short) + sum(
        1 for _, fac in s.populations if fac == short and all(f.card != short
                                                              for f in s.facilities))
    if held >= printed:
        raise RuleError(f"the deck has {printed} {card.fields['title']} card and it is in play "
                        "already")
    build = card.fields["build"]
    return {"turn": s.turn, "player": name, "facility": short, "turns": int(build["turns"])}


def build_payments(s: State, game: Any) -> tuple[list[dict[str, Any]], list[str]]:
    """The Build costs paid at this turn's upkeep: (payments, Facilities discarded because
    their owner could not pay them; the project's)."""
    paid: list[dict[str, Any]] = []
    ruined: list[str] = []
    spent: dict[str, dict[str, int]] = {}
    for f in s.facilities:
        if f.built:
            continue
        build = _card(game, f.card, "facility").fields["build"]
        cost = {r: int(n) for r, n in build.items() if r != "turns" and int(n)}
        sheet = s.sheet(f.owner)
        mine = spent.setdefault(f.owner, {})
        if any(sheet.amount(r) + mine.get(r, 0) < n for r, n in cost.items()):
            ruined.append(f.card)
            continue
        for r, n in cost.items():
            mine[r] = mine.get(r, 0) - n
        paid.append({"facility": f.card, "player": f.owner, "cost": cost,
                     "built": f.paid + 1 >= int(build["turns"])})
    return paid, ruined


# --- Resource Auctions ----------------------------------------------------------------------

def amount(text: str, what: str) -> int:
    """A number typed at the table (a sum too), 0 or more."""
    from companion.session import parse_amount

    n = parse_amount(text, what)
    if n < 0:
        raise InputError(f"{what} must be 0 or more, not {n}")
    return n


def _amounts(text: str, what: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in (p for p in text.split(",") if p.strip()):
        who, sep, n = part.partition("=")
        if not sep or not who.strip():
            raise InputError(f"{what} takes NAME=UNITS, such as Ann=3, not '{part[:40]}'")
        if who.strip() in out:
            raise InputError(f"{what}: {who.strip()} is given twice")
        out[who.strip()] = amount(n, f"{what} {who.strip()}")
    return {k: v for k, v in out.items() if v}


def deals(text: str) -> list[eco.Deal]:
    """``--deal SELLER>BUYER UNITS@PRICE`` values, comma-separated."""
    from companion.mule_goes_crazy import economy as eco

    out = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        who, _, what = part.partition(" ")
        seller, arrow, buyer = who.partition(">")
        units, at, price = what.strip().partition("@")
        if not (arrow and at and seller and buyer):
            raise InputError(f"--deal takes SELLER>BUYER UNITS@PRICE, such as 'Ann>Bob 3@40', "
                             f"not '{part[:40]}'")
        out.append(eco.Deal(seller.strip(), buyer.strip(), amount(units, "--deal units"),
                            amount(price, "--deal price")))
    return out


def trade_event(s: State, data: Mapping[str, Any], resource: str,
                given: Mapping[str, str]) -> dict[str, Any]:
    """Resource Auctions (the project's, after the Production Phase): one resource, in the
    order of ``resource_auction.order``; a resource nobody trades may be passed over (its
    price stays)."""
    from companion.mule_goes_crazy import economy as eco

    rules = eco.trade_rules(data)
    res = resource.strip().lower()
    if res not in rules.order:
        raise InputError(f"the Resource Auctions trade {', '.join(rules.order)}, not "
                         f"'{resource[:40]}'")
    t = s.this_turn
    if s.over:
        raise RuleError("the game is over: 'irata play status' shows the final score")
    waiting = [n for n in s.seating if n not in t.produced]
    if waiting or not t.spoilage or (needs_upkeep(s) and not t.upkeep):
        raise RuleError(f"the Resource Auctions come after the Production Phase (production, "
                        f"spoilage, upkeep) of turn {s.turn}")
    done = [r for r in rules.order if r in t.traded]
    if res in t.traded or rules.order.index(res) < max(
            (rules.order.index(r) for r in done), default=-1):
        raise RuleError(f"{_title(res)} has had its Resource Auction this turn (the order: "
                        f"{', '.join(rules.order)})")
    trade = eco.resource_auction(
        res, s.price(res), s.stock(res), {n: sh.amount(res) for n, sh in s.players},
        {n: sh.credits for n, sh in s.players}, _amounts(given.get("sell", ""), "--sell"),
        _amounts(given.get("buy", ""), "--buy"), deals(given.get("deal", "")), rules)
    return {"turn": s.turn, "resource": res, "price": trade.price,
            "sell_price": trade.sell_price, "units": {k: v for k, v in trade.units.items() if v},
            "credits": {k: v for k, v in trade.credits.items() if v}, "store": trade.store,
            "next_price": trade.next_price}


def needs_upkeep(s: State) -> bool:
    return bool(s.populations) or any(not f.built for f in s.facilities)


# --- the Draw pile --------------------------------------------------------------------------

def reshuffle_event(s: State, end: Mapping[str, Any]) -> dict[str, Any]:
    """The Draw pile ran out: the Discard pile is shuffled into a new one. The game ends
    after the turn in which it runs out for the ``draw_pile_exhausted``-th time (the
    project's)."""
    if s.over:
        raise RuleError("the game is over: 'irata play status' shows the final score")
    times = s.reshuffles + 1
    return {"turn": s.turn, "times": times,
            "last_turn": times >= int(end["draw_pile_exhausted"])}


__all__ += ["STORE", "build_payments", "deals", "needs_upkeep"]
