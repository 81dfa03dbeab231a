"""Mule Goes Crazy!: the card game's arithmetic as pure functions.

Sections named in the docstrings are the draft rulebook's (``mule-goes-crazy.txt``): Favored
Player, Land Auctions / Bidding, Mules, Consumption of Energy / Under-powering Mules,
Production, Spoilage, Population and Facilities. Where the draft is silent the numbers come
from ``components/mule_goes_crazy/data.yaml`` and are marked there as the project's
reconstruction; the cards' own numbers (Land dice, Mule costs, upkeep) come from the card
definitions, the same ones the deck is printed from.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.record import NamedTuple
from components.errors import InputError, RuleError

RESOURCES = ("food", "energy", "smithore", "crystite")


# --- Favored Player ---------------------------------------------------------------------------

def favored_player(credits: Mapping[str, int], previous: str | None = None) -> str:
    """Favored Player: the player with the least Credits.

    ``credits`` lists the players in seating order (clockwise). A tie goes to the tied player
    sitting first clockwise after ``previous`` (the last favored player), or first in seating
    order when there is none (the project's reconstruction: the draft does not say).
    """
    if not credits:
        raise InputError("favored player: no players given")
    players = list(credits)
    least = min(credits.values())
    tied = [p for p in players if credits[p] == least]
    if previous is None or previous not in players or len(tied) == 1:
        return tied[0]
    start = players.index(previous)
    for k in range(1, len(players) + 1):
        p = players[(start + k) % len(players)]
        if p in tied:
            return p
    return tied[0]  # pragma: no cover


def favored_after(credits: Mapping[str, int], last_favored: str | None) -> str:
    """Favored Player: "In subsequent turns, the player with the least amount of Credits is
    selected" (a tie goes clockwise from the last favored player, as :func:`favored_player`).
    The last favored player is one of the players: a name that is not is refused
    (RuleError), never taken as no favored player at all."""
    if last_favored is not None and last_favored not in credits:
        raise RuleError(f"the last favored player, {last_favored}, is not among the players "
                        f"({', '.join(credits)}): the favored player is one of them")
    return favored_player(credits, last_favored)


# --- Land Auctions ----------------------------------------------------------------------------

class Auction(NamedTuple):
    """One Land Auction's result: its opening bid, and its closing bid if the Land was sold."""

    opening: int
    closing: int | None = None

    @property
    def sold(self) -> bool:
        return self.closing is not None


class AuctionRules(NamedTuple):
    first_opening_bid: int = 200
    after_sale: int = -50
    after_no_sale: int = -200
    minimum: int = 0


AUCTION_RULES = AuctionRules()   # the draft's numbers (the game's data gives the same)


def previous_auction(opening: int, closing: int | None) -> Auction:
    """Land Auctions, Bidding: the previous Land Auction as the table tells it. The favored
    player "may bid any amount starting at the opening bid", and each later bid is "higher
    than the current high bid": a closing bid below its opening bid is refused (RuleError)."""
    if closing is not None and closing < opening:
        raise RuleError(f"the closing bid {closing} is below the opening bid {opening}: a Land "
                        "Auction's bids start at its opening bid")
    return Auction(opening, closing)


def opening_bid(previous: Auction | None, rules: AuctionRules = AUCTION_RULES) -> int:
    """Land Auctions, Bidding: the opening bid.

    200 Credits for the first Land Auction; after a successful one, its closing bid minus 50;
    after one without a sale, its opening bid minus 200; never below 0.
    """
    if previous is None:
        bid = rules.first_opening_bid
    elif previous.sold:
        assert previous.closing is not None
        bid = previous.closing + rules.after_sale
    else:
        bid = previous.opening + rules.after_no_sale
    return max(rules.minimum, bid)


def opening_bid_reason(previous: Auction | None, rules: AuctionRules = AUCTION_RULES) -> str:
    """Why the opening bid is what :func:`opening_bid` says, in the rule's own numbers."""
    def step(n: int) -> str:
        return f"- {-n}" if n < 0 else f"+ {n}"

    if previous is None:
        why = "the first Land Auction"
    elif previous.sold:
        why = f"last closing bid {previous.closing} {step(rules.after_sale)}"
    else:
        why = f"last opening bid {previous.opening} {step(rules.after_no_sale)}"
    return f"{why}, never below {rules.minimum}"


def check_bid(opening: int, high: int | None, bid: int) -> int:
    """Bidding: the first bid is the opening bid or more; every later bid beats the last."""
    if high is None and bid < opening:
        raise RuleError(f"the first bid must be at least the opening bid of {opening}")
    if high is not None and bid <= high:
        raise RuleError(f"a bid must be higher than the current high bid of {high}")
    return bid


# --- Mules ------------------------------------------------------------------------------------

class MuleCard(NamedTuple):
    """A Mule card: what it produces, its Energy Use, Move Cost and cost (normal and short)."""

    id: str
    name: str
    produces: str
    energy_use: int
    move_cost: Mapping[str, int]
    cost: Mapping[str, int]          # resources from the Store, and "credits"
    short_credits: int               # the price in brackets


def mule_price(mule: MuleCard, store_at_turn_start: Mapping[str, int]) -> int:
    """Mules: the Credits a Mule costs.

    The price in brackets applies when the Store began the turn with none of a resource the
    Mule's cost names (Smithore; Crystite for a Crystite Mule). A shortage caused during this
    turn raises the price only from the next turn on.
    """
    short = any(store_at_turn_start.get(r, 0) <= 0 for r in mule.cost if r != "credits")
    return mule.short_credits if short else mule.cost.get("credits", 0)


class MulePurchase(NamedTuple):
    price: int
    credits_after: int
    store_after: dict[str, int]


def buy_mule(mule: MuleCard, credits: int, store_at_turn_start: Mapping[str, int],
             store_now: Mapping[str, int]) -> MulePurchase:
    """Mules: pay the Credits; the Store loses the cost's resources, but never below 0."""
    price = mule_price(mule, store_at_turn_start)
    if credits < price:
        raise RuleError(f"the {mule.name} costs {price} Credits; you have {credits}")
    store = dict(store_now)
    for r, n in mule.cost.items():
        if r != "credits":
            store[r] = max(0, store.get(r, 0) - n)
    return MulePurchase(price, credits - price, store)


# --- Consumption of Energy --------------------------------------------------------------------

class WorkingMule(NamedTuple):
    """A Mule tending a Land: its name (for the table), Energy Use and production dice."""

    name: str
    energy_use: int
    resource: str = "food"
    dice: int = 0


class EnergyResult(NamedTuple):
    powered: tuple[WorkingMule, ...]
    underpowered: tuple[WorkingMule, ...]
    energy_used: int
    energy_after: int


def consume_energy(energy: int, mules: Sequence[WorkingMule]) -> EnergyResult:
    """Consumption of Energy, Under-powering Mules.

    While the Energy needed by the powered Mules is more than the player has, under-power the
    Mule with the highest Energy Use (among equals the one listed first: the player's choice).
    The powered Mules' Energy is spent.
    """
    if energy < 0:
        raise InputError("Energy cannot be negative")
    powered = list(mules)
    under: list[WorkingMule] = []
    while powered and sum(m.energy_use for m in powered) > energy:
        top = max(m.energy_use for m in powered)
        victim = next(m for m in powered if m.energy_use == top)
        powered.remove(victim)
        under.append(victim)
    used = sum(m.energy_use for m in powered)
    return EnergyResult(tuple(powered), tuple(under), used, energy - used)


# --- Production -------------------------------------------------------------------------------

class PlotOutput(NamedTuple):
    mule: WorkingMule
    underpowered: bool
    rolls: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.rolls)


class ProductionResult(NamedTuple):
    plots: tuple[PlotOutput, ...]
    totals: dict[str, int]


def production(mules: Sequence[WorkingMule], underpowered: Sequence[WorkingMule] = (),
               roll: Callable[[], int] | None = None,
               results: Sequence[int] | None = None) -> ProductionResult:
    """Production: each tended Land rolls its dice for its Mule's resource.

    An under-powered Mule's dice are all 1s (a 3-dice Land makes exactly 3). Dice come from
    ``results`` (the table's own dice, in order) or from ``roll``.
    """
    queue = list(results) if results is not None else None
    if queue is not None and any(not 1 <= r <= 6 for r in queue):
        raise InputError("die results must be 1 to 6")
    plots: list[PlotOutput] = []
    totals = {r: 0 for r in RESOURCES}
    work = [(m, False) for m in mules] + [(m, True) for m in underpowered]
    for m, is_under in work:
        if m.dice < 0:
            raise InputError(f"{m.name}: dice cannot be negative")
        if is_under:
            rolls = tuple(1 for _ in range(m.dice))
        else:
            rolls_list: list[int] = []
            for _ in range(m.dice):
                if queue is not None:
                    if not queue:
                        need = sum(x.dice for x in mules)
                        raise InputError(f"not enough die results: the powered Mules roll "
                                         f"{need} dice")
                    rolls_list.append(queue.pop(0))
                elif roll is not None:
                    rolls_list.append(roll())
                else:
                    raise InputError("production needs die results or a seed")
            rolls = tuple(rolls_list)
        plots.append(PlotOutput(m, is_under, rolls))
        totals[m.resource] = totals.get(m.resource, 0) + sum(rolls)
    if queue:
        raise InputError(f"{len(queue)} die result(s) left over: the powered Mules roll "
                         f"{sum(m.dice for m in mules)} dice")
    return ProductionResult(tuple(plots), totals)


def seeded_roller(seed: int) -> Callable[[], int]:
    import random  # only a roll needs it: next and the fold never roll

    rng = random.Random(f"mule-goes-crazy:{seed}")
    return lambda: rng.randint(1, 6)


# --- Spoilage ---------------------------------------------------------------------------------

class SpoilageRules(NamedTuple):
    food_over: int = 10
    food_loss: int = 5
    energy_over: int = 20
    energy_divisor: int = 2


class SpoilageResult(NamedTuple):
    food: int
    energy: int
    food_lost: int
    energy_lost: int


SPOILAGE_RULES = SpoilageRules()


def spoilage(food: int, energy: int, rules: SpoilageRules = SPOILAGE_RULES) -> SpoilageResult:
    """Spoilage: Food above 10 loses 5; Energy above 20 is halved (rounding down)."""
    if food < 0 or energy < 0:
        raise InputError("Food and Energy cannot be negative")
    new_food = food - rules.food_loss if food > rules.food_over else food
    new_energy = energy // rules.energy_divisor if energy > rules.energy_over else energy
    return SpoilageResult(new_food, new_energy, food - new_food, energy - new_energy)


# --- Population and Facilities ----------------------------------------------------------------

class Facility(NamedTuple):
    """A Facility's effect on the Population assigned to it, per turn."""

    name: str
    food_upkeep: int | None = None      # replaces the Population's Food upkeep
    energy_upkeep: int | None = None    # replaces the Population's Energy upkeep
    extra_food: int = 0
    extra_energy: int = 0
    store_food: int = 0                 # what it makes for the Store
    store_energy: int = 0
    store_smithore: int = 0


class PopulationCard(NamedTuple):
    name: str
    people: int
    food: int
    energy: int
    facility: Facility | None = None

    def upkeep(self) -> tuple[int, int]:
        """(Food, Energy) this card costs the Store per turn, its Facility included."""
        f, e = self.food, self.energy
        if self.facility is not None:
            fac = self.facility
            f = fac.food_upkeep if fac.food_upkeep is not None else f
            e = fac.energy_upkeep if fac.energy_upkeep is not None else e
            f, e = f + fac.extra_food, e + fac.extra_energy
        return f, e


class UpkeepResult(NamedTuple):
    store: dict[str, int]
    kept: tuple[PopulationCard, ...]
    discarded: tuple[PopulationCard, ...]
    facilities_discarded: tuple[str, ...]

    @property
    def population(self) -> int:
        return sum(p.people for p in self.kept)


def population_upkeep(store: Mapping[str, int],
                      populations: Sequence[PopulationCard]) -> UpkeepResult:
    """Population and Facilities: each Population card's upkeep comes from the Store's stock.

    Cards are paid in the order they were played (the project's reconstruction). A Facility's
    output goes to the Store before its Population's upkeep is paid. A card the Store cannot
    pay in full is removed from play (Discard pile); a Facility that so loses its Population
    falls into disrepair and is discarded too.
    """
    stock = {r: int(store.get(r, 0)) for r in RESOURCES}
    if any(v < 0 for v in stock.values()):
        raise InputError("the Store's stock cannot be negative")
    assigned = [c.facility.name for c in populations if c.facility is not None]
    twice = sorted({f for f in assigned if assigned.count(f) > 1})
    if twice:
        # Population and Facilities: "a Population card becomes assigned to it" (one card)
        raise RuleError(f"{twice[0]} holds one Population card, not {assigned.count(twice[0])}")
    kept: list[PopulationCard] = []
    gone: list[PopulationCard] = []
    ruined: list[str] = []
    for card in populations:
        if card.facility is not None:
            stock["food"] += card.facility.store_food
            stock["energy"] += card.facility.store_energy
            stock["smithore"] += card.facility.store_smithore
        food, energy = card.upkeep()
        if stock["food"] >= food and stock["energy"] >= energy:
            stock["food"] -= food
            stock["energy"] -= energy
            kept.append(card)
        else:
            gone.append(card)
            if card.facility is not None:
                ruined.append(card.facility.name)
    return UpkeepResult(stock, tuple(kept), tuple(gone), tuple(ruined))


# --- the cards, from the definitions ----------------------------------------------------------

def find_card(game: Any, name: str, prefix: str) -> Any:
    """A card by id (``mule/energy``) or by its short name (``energy``) within ``prefix``/."""
    key = name if name.startswith(prefix + "/") else f"{prefix}/{name}"
    comp = game.find(key)
    if comp is None:
        names = [c.id.split("/", 1)[1] for c in game.components if c.id.startswith(prefix + "/")]
        from companion.suggest import did_you_mean

        raise InputError(f"no {prefix} card '{name}' (cards: {', '.join(names)})"
                         + did_you_mean(name.split("/", 1)[-1], names))
    return comp


def mule_card(game: Any, name: str) -> MuleCard:
    c = find_card(game, name, "mule")
    return MuleCard(id=c.id, name=c.fields["title"], produces=c.fields["produces"],
                    energy_use=int(c.fields["energy_use"]),
                    move_cost=dict(c.fields["move_cost"]), cost=dict(c.fields["cost"]),
                    short_credits=int(c.fields["short_credits"]))


def land_dice(game: Any, name: str) -> dict[str, int]:
    c = find_card(game, name, "land")
    return {r: int(n) for r, n in c.fields["dice"].items()}


def population_card(game: Any, name: str, facility: str | None = None) -> PopulationCard:
    c = find_card(game, name, "population")
    fac = None
    if facility:
        f = find_card(game, facility, "facility")
        eff = f.fields.get("effect", {})
        fac = Facility(name=f.fields["title"], food_upkeep=eff.get("food_upkeep"),
                       energy_upkeep=eff.get("energy_upkeep"),
                       extra_food=int(eff.get("extra_food", 0)),
                       extra_energy=int(eff.get("extra_energy", 0)),
                       store_food=int(eff.get("store_food", 0)),
                       store_energy=int(eff.get("store_energy", 0)),
                       store_smithore=int(eff.get("store_smithore", 0)))
    up = c.fields["upkeep"]
    return PopulationCard(c.fields["title"], int(c.fields["people"]), int(up.get("food", 0)),
                          int(up.get("energy", 0)), fac)


def auction_rules(data: Mapping[str, Any]) -> AuctionRules:
    a = data["land_auction"]
    return AuctionRules(int(a["first_opening_bid"]), int(a["after_sale"]),
                        int(a["after_no_sale"]), int(a["minimum"]))


def spoilage_rules(data: Mapping[str, Any]) -> SpoilageRules:
    s = data["spoilage"]
    return SpoilageRules(int(s["food_over"]), int(s["food_loss"]), int(s["energy_over"]),
                         int(s["energy_divisor"]))


_NAMES = {"food": "Food", "energy": "Energy", "smithore": "Smithore", "crystite": "Crystite"}


def cost_line(cost: Mapping[str, int], short_credits: int | None = None) -> str:
    """A cost as the draft prints it: ``5 Smithore, 100 (200) Credits`` (icons included)."""
    parts = [f"{n} {{{r}}} {_NAMES[r]}" for r, n in cost.items() if r != "credits"]
    credits = cost.get("credits", 0)
    if short_credits is not None:
        parts.append(f"{credits} ({short_credits}) Credits")
    elif credits:
        parts.append(f"{credits} Credits")
    return "**Cost:** " + (", ".join(parts) if parts else "0")
