"""Parts of M.U.L.E.'s Game Turn as pure functions over the typed
:class:`~companion.mule.state.State`: each returns a new State (and what the table reads), and
leaves the one given as it was: the Phases that ask the table
nothing, and 8. Personal Events. Named as the rulebook names them: 3. Usage and
Spoilage, 5. Pricing, the Final Turn's Market, 7. Ranking, and Game End and Winning; and the
parts of 8. Personal Events that ask nothing (a card drawn from the companion's deck, followed
by the Colonist who receives it, discarded).

``companion.mule.steps`` takes them as steps of the Game Turn (a step over the saved game's
JSON form reads it into a State and writes the State returned back).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from companion.mule import options, rules
from companion.mule import pricing as price_track
from companion.mule.state import GOODS, Colonist, Colony, Deck, Goods, State

if TYPE_CHECKING:
    from companion.mule.data import MuleData

__all__ = ["discard_event", "draw_event", "final_market", "follow_event", "game_end",
           "pricing", "ranking", "usage_and_spoilage"]

Lines = tuple[str, ...]


def _mules_of(c: Colonist) -> Goods:
    """The M.U.L.E.s installed on ``c``'s Lands, by the Good they produce."""
    return Goods(*(sum(1 for land in c.lands if land.mule == g) for g in GOODS))


def _overstock_limit(s: State, md: MuleData, name: str) -> int:
    card = s.talent_card(name)
    talent = md.species(card).talent if card else {}
    return int(talent.get("overstock_limit", md.overstock_limit))


def usage_and_spoilage(s: State, md: MuleData) -> tuple[State, Lines]:
    """3. Usage and Spoilage: the Food Usage box emptied, Energy for the M.U.L.E.s, then
    Spoilage (a Special Talent may change a Colonist's overstock limit); an Energy Shortage
    is kept for Production, where that many M.U.L.E.s are flipped."""
    after: dict[str, Colonist] = {}
    shortage: dict[str, int] = {}
    lines: list[str] = []
    for name in s.ranking:
        c = s.colonist(name)
        mules = _mules_of(c)
        r = rules.spoilage(rules.Stocks(*c.stocks), sum(mules), mules.energy,
                           food_divisor=md.food_divisor, energy_divisor=md.energy_divisor,
                           overstock_limit=_overstock_limit(s, md, name))
        after[name] = c._replace(stocks=Goods(*r.stocks), mules=mules)
        shortage[name] = r.shortage
        spoiled = ", ".join(f"{g} {n}" for g, n in r.spoiled.items() if n) or "nothing"
        flip = f"; flip {r.shortage} M.U.L.E.(s)" if r.shortage else ""
        lines.append(f"{name}: Energy used {r.energy_used}, spoiled {spoiled}{flip}")
    dev = s.dev._replace(food_used=MappingProxyType({})) if s.dev else None
    return s._replace(colonists=tuple(after.get(c.name, c) for c in s.colonists),
                      shortage=MappingProxyType(shortage), dev=dev), tuple(lines)


def pricing(s: State, md: MuleData) -> tuple[State, Lines]:
    """5. Pricing: each Good's price counter moves on the Price Track: Smithore by the
    M.U.L.E.s and Smithore in The Store, Crystite by the Production Card's price (unless
    Pirates), Food and Energy by what the Colonists and The Store hold against what is
    needed."""
    if s.card is None:
        raise ValueError("Pricing comes after Production: no Production Card is kept")
    card = md.card(s.card)
    names = s.ranking
    by = [s.colonist(n) for n in names]
    asks = {
        "smithore": price_track.smithore_steps(s.store.mules, s.store.stock("smithore"),
                                               pens=md.pens, mules_per_pen=md.mules_per_pen),
        "crystite": price_track.crystite_steps(md.track("crystite"), s.prices.crystite,
                                               card.crystite_price, card.pirates),
        "food": price_track.food_steps([c.stock("food") for c in by], s.store.stock("food"),
                                       per_colonist=md.food_per_colonist),
        "energy": price_track.energy_steps([c.stock("energy") for c in by],
                                           [c.working for c in by], s.store.stock("energy")),
    }
    prices: list[int] = []
    lines: list[str] = []
    for g in GOODS:
        change = price_track.move(md.track(g), s.prices.of(g), asks[g])
        prices.append(change.buy)
        lines.append(f"{g.capitalize()}: {change.steps:+d} steps, moved {change.moved:+d} -> "
                     f"${change.sell}/{change.buy}")
    return s._replace(prices=Goods(*prices)), tuple(lines)


def final_market(s: State, md: MuleData) -> tuple[State, Lines]:
    """The Final Turn's Market: every Colonist sells all their Goods to The Store at its Buy
    Prices (Crystite sold to The Store is shipped off-planet)."""
    names = s.ranking
    sell = rules.final_sell_out({n: s.colonist(n).money for n in names},
                                {n: rules.Stocks(*s.colonist(n).stocks) for n in names},
                                s.prices._asdict())
    store = s.store
    for g in GOODS:
        if g != "crystite":
            store = store._replace(**{g: store.stock(g) + sum(sell.sold[n][g] for n in names)})
    colonists = tuple(c._replace(money=sell.money[c.name], stocks=Goods())
                      if c.name in sell.money else c for c in s.colonists)
    lines = tuple(f"{n} sells everything to The Store: +${sell.revenue[n]} -> ${sell.money[n]}"
                  for n in names)
    return s._replace(colonists=colonists, store=store), lines


def inherent_value(s: State) -> bool:
    """Whether this Ranking counts each Land and M.U.L.E. (Optional Rule: Inherent Land and
    M.U.L.E. Value in Ranking): in every Ranking with ``=all``, in the last one (the Final
    Turn's, which decides the game) with ``=end``."""
    chosen = options.value(s.options, "inherent-value")
    return chosen == "all" or (chosen == "end" and s.final)


def wealth(s: State, md: MuleData) -> dict[str, int]:
    """Each Colonist's wealth in this Ranking: Money, plus (Inherent Land and M.U.L.E. Value in
    Ranking, when it counts now) each Land on their Player Board and each M.U.L.E. installed
    at the rule data's values ($10 and $5)."""
    money = {c.name: c.money for c in s.colonists}
    if not inherent_value(s):
        return money
    return rules.ranking_wealth(money, {c.name: len(c.lands) for c in s.colonists},
                                {c.name: c.working for c in s.colonists},
                                land_value=md.land_value, mule_value=md.mule_value)


def _worth(s: State, md: MuleData, name: str) -> str:
    c = s.colonist(name)
    if not inherent_value(s):
        return f"${c.money}"
    total = c.money + md.land_value * len(c.lands) + md.mule_value * c.working
    return (f"${total}: ${c.money} + {len(c.lands)} Land(s) x ${md.land_value} + "
            f"{c.working} M.U.L.E.(s) x ${md.mule_value}")


def ranking(s: State, md: MuleData) -> tuple[State, Lines]:
    """7. Ranking: wealthiest first; ties keep the previous order. Wealth is Money, and with
    Inherent Land and M.U.L.E. Value in Ranking the Lands and M.U.L.E.s too (:func:`wealth`)."""
    order = rules.rank(wealth(s, md), list(s.ranking))
    lines = tuple(f"Rank {i}: {n} ({_worth(s, md, n)})" for i, n in enumerate(order, 1))
    return s._replace(ranking=tuple(order)), lines


def game_end(s: State, md: MuleData) -> tuple[State, Lines]:
    """Game End and Winning: the wealthiest Colonist in the last Ranking is the First Founder;
    in the Tournament Game (3 or 4 Colonists) the Colony's total wealth gives its row of the
    Colony Success Table. The total is the wealth the last Ranking counted (the project's
    reading of "the total wealth of all Colonists": with Inherent Land and M.U.L.E. Value in
    Ranking, Lands and M.U.L.E.s too); the table is scaled for a game of other than 7 Turns
    (:mod:`companion.mule.length`)."""
    from companion.mule import length

    names = s.ranking
    lines = [f"{names[0]} is the First Founder!"]
    total = sum(wealth(s._replace(final=True), md).values())
    colony = s.colony
    if s.mode == "tournament" and len(names) in (3, 4):
        cs = rules.colony_success(total, len(names), length.colony_rows(md, s.turn))
        colony = Colony(total, cs.rating, cs.text)
        lines.append(f"Colony total ${total}: row {cs.rating} of 7. {cs.text}")
        note = length.colony_note(md, s.turn, len(names))
        if note:
            lines.append(f"  ({note})")
    return s._replace(colony=colony, over=True), tuple(lines)


# -- 8. Personal Events: the card's part that asks nothing ---------------------------------------

def draw_event(s: State, deck: str) -> tuple[State, str, bool]:
    """8. Personal Events with the companion's decks: the top card of the ``deck`` Event deck
    (lucky or unlucky), the discard pile shuffled into a new deck first when it has run out.
    Returns the State with the card off the deck (not discarded yet), the card, and whether
    the deck was shuffled again."""
    from companion.mule import events

    decks = dict(s.event_decks or {})
    pile = decks[deck]
    raw: dict[str, Any] = {"draw": list(pile.draw), "discard": list(pile.discard),
                           "shuffles": pile.shuffles}
    card, reshuffled = events.draw(raw, s.seed, deck)
    decks[deck] = Deck(tuple(raw["draw"]), tuple(raw["discard"]), int(raw["shuffles"]))
    return s._replace(event_decks=MappingProxyType(decks)), card, reshuffled


def discard_event(s: State, deck: str, card: str) -> State:
    """After the card is played it goes face up onto its deck's discard pile."""
    decks = dict(s.event_decks or {})
    pile = decks[deck]
    decks[deck] = pile._replace(discard=(*pile.discard, card))
    return s._replace(event_decks=MappingProxyType(decks))


def follow_event(s: State, effect: Mapping[str, Any], target: str) -> tuple[State, str]:
    """8. Personal Events: ``target`` follows the card's instructions (Money and Goods from or
    to the neutral stacks; a loss carried out as far as possible). Returns the State and the
    line the table reads."""
    from companion.mule import events

    c = s.colonist(target)
    outcome = events.apply_event(effect, events.Colonist(
        c.money, c.stocks._asdict(), len(c.lands), c.mules._asdict()))
    after = c._replace(money=outcome.money_after,
                       stocks=Goods(*(outcome.stocks_after[g] for g in GOODS)))
    short = f" (as far as possible: {target} pays the ${c.money} held)" \
        if c.money + outcome.money < 0 else ""
    line = f"{target}: {outcome.summary()}{short} -> ${after.money}"
    return s._replace(colonists=tuple(after if x.name == target else x
                                      for x in s.colonists)), line
