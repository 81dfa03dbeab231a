"""The one registry of the companion's games: each game declared once, here.

An entry names a game as the command line does (``mule-goes-crazy``), its title, and where its
parts live, as import paths, so that reading the registry imports nothing of any game:

- ``package``: ``companion/<game>/`` (``rules.py``, ``data.py``, ``saved.py``);
- ``data``: the rule-data loader (``companion.<game>.data:load_rules``), read through
  ``companion.data``'s one cached loader;
- ``saved``: the module holding the saved game's ``fold`` (events -> state) and ``describe``
  (state -> text);
- ``commands``: the click group of its ``irata play`` commands (``irata/play/<game>.py``);
  the companion never imports it, the command line does.

``companion.session`` finds a saved game's fold here; ``irata play`` lists its games from here.
Adding a game is adding an entry (see docs/ADDING_A_GAME.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.record import NamedTuple
from components.errors import InputError

if TYPE_CHECKING:
    from companion.session import Event

__all__ = ["GAMES", "Entry", "entry"]


class Entry(NamedTuple):
    """One game of the companion, and where each of its parts lives."""

    name: str       # as typed on the command line: mule-goes-crazy
    title: str      # as printed on the box: Mule Goes Crazy!
    summary: str    # one line for ``irata play --help``
    data: str       # "module:function" returning the rule data
    saved: str      # module with fold(events) -> state and describe(state) -> text
    commands: str   # "module:attribute" of the click group of its commands
    declared: str = ""  # "module:attribute" of its declaration (companion.play.Declaration)

    @property
    def package(self) -> str:
        """The game's companion package: ``companion.mule_goes_crazy``."""
        return "companion." + self.name.replace("-", "_")

    def load_data(self) -> Any:
        """The game's rule data (through its ``data`` loader)."""
        module, attr = self.data.split(":")
        return getattr(importlib.import_module(module), attr)()

    def fold(self, events: list[Event]) -> dict[str, Any]:
        """The saved game's state: the fold of its events."""
        fold: Callable[[list[Event]], dict[str, Any]] = importlib.import_module(self.saved).fold
        return fold(events)

    def describe(self, state: dict[str, Any]) -> str:
        """A person's summary of a saved game's state."""
        describe: Callable[[dict[str, Any]], str] = importlib.import_module(self.saved).describe
        return describe(state)


GAMES: tuple[Entry, ...] = (
    Entry("mule", "M.U.L.E. The Board Game",
          "M.U.L.E.: pricing, spoilage, production, ranking, games.",
          data="companion.mule.data:load", saved="companion.mule.saved",
          commands="irata.play.mule:mule", declared="companion.mule.game:GAME"),
    Entry("mule-goes-crazy", "Mule Goes Crazy!",
          "Mule Goes Crazy!: auctions, production dice, upkeep, games.",
          data="companion.mule_goes_crazy.data:game", saved="companion.mule_goes_crazy.saved",
          commands="irata.play.mule_goes_crazy:mule_goes_crazy",
          declared="companion.mule_goes_crazy.game:GAME"),
    Entry("muli", "Das Störrische Muli",
          "Das Störrische Muli: the race, its dice and moves.",
          data="companion.muli.data:load_rules", saved="companion.muli.saved",
          commands="irata.play.muli:muli", declared="companion.muli.game:GAME"),
    Entry("mutagen", "Mutagen",
          "Mutagen: scoring, airship checks, set-up, games.",
          data="companion.mutagen.data:load_rules", saved="companion.mutagen.saved",
          commands="irata.play.mutagen:mutagen", declared="companion.mutagen.game:GAME"),
    Entry("outer-earth", "Outer Earth",
          "Outer Earth: VP, bidding, upkeep, games.",
          data="companion.outer_earth.data:load_rules", saved="companion.outer_earth.saved",
          commands="irata.play.outer_earth:outer_earth",
          declared="companion.outer_earth.game:GAME"),
)

_BY_NAME = {g.name: g for g in GAMES}


def entry(name: str) -> Entry:
    """The registry's entry for ``name``; InputError naming the games if there is none."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise InputError(f"no companion knows the game '{name}' (games: "
                         f"{', '.join(_BY_NAME)})") from None
