"""M.U.L.E.'s Optional Rules (``mule-board-game.txt``, "Optional Rules"), chosen at ``new``.

Each is named as the rulebook names it; the table types its short name with ``--option`` (a
value after ``=`` where the rule offers a choice: ``--option more-game-turns=2``). The chosen
rules are saved with the game as ``options`` (short name -> value, ``""`` where the rule has
no choice) and read back with :func:`on` / :func:`value` by every check and step they change.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from companion.record import NamedTuple
from components.errors import InputError


class Option(NamedTuple):
    """One Optional Rule: its short name, the rulebook's name, what it changes (one line),
    the values it takes (empty: none) and the default value where one may be left out."""

    key: str
    name: str
    summary: str
    choices: tuple[str, ...] = ()
    default: str = ""
    tournament: bool = False          # the rule builds on the Tournament rules


OPTIONS: tuple[Option, ...] = (
    Option("colonist-cards", "Colonist Cards and Special Talents",
           "each Colonist's Player Species Card and its Special Talent (give --species)",
           tournament=True),
    Option("random-land-placement", "Random Land Placement",
           "the Lands laid at random, Rivers among them or not (=rivers or =no-rivers)",
           ("rivers", "no-rivers"), "no-rivers"),
    Option("variable-turns", "Variable Number of Game Turns",
           "The Ship is Back! shuffled with the last two Production Cards: 6 to 8 Turns"),
    Option("more-game-turns", "More Game Turns",
           "1 or 2 Production Cards more (=1 or =2): 8 or 9 Turns", ("1", "2"), "1"),
    Option("secret-bidding", "Secret Bidding in Land Auctions",
           "bids hidden and shown at once; a tie goes to the lowest ranking", tournament=True),
    Option("land-auctions-before-grant", "Land Auctions before Land Grant",
           "Land for Sale! played just before Land Grant, never on Turn 1", tournament=True),
    Option("more-predictability", "More Predictability",
           "Production Card drawn at Action Round 3; Turn 1 effects always; no Personal "
           "Events"),
    Option("more-land-auctions", "More Land Auctions",
           "one Land for Sale! card more for every Colonist", tournament=True),
    Option("single-action-round", "Single Action Round per Turn",
           "one Action Round in Development, up to 6 Food"),
    Option("declaring-buyers-and-sellers", "Declaring Buyers and Sellers",
           "each Colonist declared Buyer or Seller before each auction"),
    Option("colonists-preferred", "Colonists Preferred over The Store in Auctions",
           "an offer at least matching The Store's is taken before The Store"),
    Option("alternative-personal-events", "Alternative Personal Event System",
           "the Event card's diagram picks who gets it (as --alt-events)"),
    Option("inherent-value", "Inherent Land and M.U.L.E. Value in Ranking",
           "each Land $10 and each M.U.L.E. $5 in Ranking (=all) or at Game End only (=end)",
           ("all", "end"), "all"),
)

BY_KEY: Mapping[str, Option] = {o.key: o for o in OPTIONS}

# the Optional Rules the companion honours so far; the others are refused at ``new``
SUPPORTED: frozenset[str] = frozenset({
    "colonist-cards", "alternative-personal-events", "inherent-value", "more-game-turns",
    "variable-turns", "secret-bidding", "land-auctions-before-grant", "more-land-auctions",
    "declaring-buyers-and-sellers", "colonists-preferred", "random-land-placement",
    "single-action-round", "more-predictability"})


def epilog() -> str:
    """The Optional Rules as ``new --help`` lists them, one a line (click keeps a paragraph
    that starts with \\b as it is)."""
    rows = [f"  {o.key}{'=' + '|'.join(o.choices) if o.choices else ''}: {o.name}"
            + ("" if o.key in SUPPORTED else " (not yet kept)") + f"\n      {o.summary}"
            for o in OPTIONS]
    return "\b\nOptional Rules (--option NAME), as the rulebook names them:\n" + "\n".join(rows)


def parse(given: Iterable[str], mode: str) -> dict[str, str]:
    """The Optional Rules typed with ``--option`` (``NAME`` or ``NAME=VALUE``, also several
    joined by commas), checked: each known, given once, with a value it takes, and one the
    companion honours. Raises InputError naming the first one wrong."""
    chosen: dict[str, str] = {}
    for text in given:
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            key, _, val = part.partition("=")
            key, val = key.strip().lower(), val.strip().lower()
            option = BY_KEY.get(key)
            if option is None:
                raise InputError(f"--option {part}: no such Optional Rule; the rules are "
                                 + ", ".join(o.key for o in OPTIONS))
            if key in chosen:
                raise InputError(f"--option {key}: given twice")
            if option.choices:
                val = val or option.default
                if val not in option.choices:
                    raise InputError(f"--option {part}: {option.name} takes "
                                     + " or ".join(f"{key}={c}" for c in option.choices))
            elif val:
                raise InputError(f"--option {part}: {option.name} takes no value")
            if option.tournament and mode != "tournament":
                raise InputError(f"--option {key}: {option.name} is an Optional Rule of the "
                                 "Tournament Game (add --tournament)")
            if key not in SUPPORTED:
                raise InputError(f"--option {key}: {option.name} is not yet kept by the "
                                 "companion")
            chosen[key] = val
    return chosen


def on(options: Mapping[str, str] | None, key: str) -> bool:
    """Whether the Optional Rule ``key`` was chosen for this game."""
    assert key in BY_KEY, key
    return key in (options or {})


def value(options: Mapping[str, str] | None, key: str) -> str | None:
    """The value chosen for the Optional Rule ``key`` (None: not chosen)."""
    assert key in BY_KEY, key
    return (options or {}).get(key)


def describe(options: Mapping[str, str] | None) -> str | None:
    """One line naming the Optional Rules in play (None: none)."""
    if not options:
        return None
    return "Optional Rules: " + "; ".join(
        BY_KEY[k].name + (f" ({v})" if v else "") for k, v in options.items() if k in BY_KEY)
