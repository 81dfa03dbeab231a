"""The moves a game declares, as the table types them: :class:`MoveSpec` and its
:class:`Param` values. The command line builds one command per move from them (and the table
view one form), so they are read when a game's commands are listed: this module stays light,
apart from :mod:`companion.play`, which plays the moves. (Named tuples, not dataclasses: as
immutable, and several times cheaper to define on every command's start.)
"""

from __future__ import annotations

from companion.record import NamedTuple

__all__ = ["MoveSpec", "Param"]


class Param(NamedTuple):
    """One thing the table types for a move.

    ``key`` is the answer's name in the move (``claim``, ``actions``, ``sell``); ``option`` the
    command line's option for it (``--sell``), or None for the words after the move's name;
    ``pairs`` marks a value given as ``NAME=VALUE`` (repeatable, and comma-separated as well:
    ``--sell Ann=1,Bob=2`` is ``--sell Ann=1 --sell Bob=2``); ``per_name`` keeps each NAME's
    value as its own answer (``flip.Ann``) rather than the pairs together (``sell``); ``many``
    takes the option again and again (its values joined by commas); ``once`` refuses a
    second value; ``flag`` is an option typed alone, taking no value (``--unsold``: its answer
    is ``yes``); ``title`` is how a form labels it."""

    key: str
    help: str
    option: str | None = None
    pairs: bool = False
    per_name: bool = False
    many: bool = False
    once: bool = False
    title: str = ""
    flag: bool = False


class MoveSpec(NamedTuple):
    """A move a game declares: the step it records (``kind``), its command's name, help, whom
    it names first (``who``: ``"player"`` a player's name, ``"good"`` a Good, ``""`` nobody),
    what else is typed (``params``), and whether several players' moves may be typed in one
    entry (``batch``: ``grant Ann=P07@B1 Bob=none``)."""

    kind: str
    command: str
    summary: str
    help: str
    who: str = ""
    params: tuple[Param, ...] = ()
    batch: bool = False
