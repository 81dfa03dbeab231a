"""8. Personal Events as pure functions over the typed :class:`~companion.mule.state.State`
(``mule-board-game.txt``, "8. Personal Events": "Lucky Event", "Unlucky Event"; Optional Rules
"Alternative Personal Event System" and "More Predictability"): each returns a new State (and
the lines the table reads) and leaves the one given as it was.

The Rank 1 Colonist draws a Lucky Event card and gives it to another Colonist, who follows it;
the Colonist who received it then draws an Unlucky Event card and gives it to another. Under
the Alternative Personal Event System the card's diagram names the Rank who receives it. Under
More Predictability the Phase is skipped ("Lucky Event cards are only used for Hunting the
Wampus"): :func:`phase_steps` lists no step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.mule import events, options, phases
from companion.mule.data import plain
from companion.mule.state import State

if TYPE_CHECKING:
    from companion.mule.data import EventCard, MuleData

__all__ = ["card_given", "card_lines", "check_receiver", "diagram_receiver", "draw",
           "phase_steps", "skipped", "unlucky_next"]

Lines = tuple[str, ...]


def skipped(s: State) -> bool:
    """More Predictability: "Skip the Personal Events phase." """
    return options.on(s.options, "more-predictability")


def phase_steps(s: State) -> tuple[tuple[str, str | None], ...]:
    """The Phase's first step: the Rank 1 Colonist draws the Lucky Event; none when skipped."""
    return () if skipped(s) else (("lucky", s.ranking[0]),)


def diagram_receiver(s: State, card: EventCard) -> str | None:
    """Alternative Personal Event System: the Colonist of the Rank the card's diagram
    highlights; None without the rule (the drawer chooses)."""
    return events.alt_event_target(card.alt_event, s.ranking) if s.alt_events else None


def check_receiver(s: State, card: EventCard, giver: str, target: str) -> str | None:
    """Why ``target`` cannot receive the card ``giver`` drew (None: they can): Event Cards
    must always be given to another Colonist; under the Alternative Personal Event System the
    diagram's Rank receives it."""
    if target not in s.ranking:
        return f"'{target}' is not a Colonist of this game ({', '.join(s.ranking)})"
    shown = diagram_receiver(s, card)
    if shown is not None and target != shown:
        return f"the card's diagram gives it to {shown}, not {target}"
    if shown is None and giver == target:
        return f"{giver} drew the card and cannot receive it: give it to another Colonist"
    return None


def card_given(s: State, deck: str, card: EventCard, target: str) -> tuple[State, Lines]:
    """``target`` follows the card's instructions (Money and Goods from or to the neutral
    stacks); with the companion's decks the card goes face up onto its discard pile."""
    s, line = phases.follow_event(s, card.effect, target)
    if s.event_decks:
        s = phases.discard_event(s, deck, card.id)
    return s, (line,)


def unlucky_next(s: State, target: str) -> State:
    """The Colonist who received the Lucky Event draws the Unlucky Event next."""
    return s._replace(todo=(*s.todo[:1], ("unlucky", target), *s.todo[1:]))


def card_lines(card: EventCard, giver: str) -> Lines:
    """The card as the table reads it when it is drawn."""
    title = card.deck.capitalize()
    return (f"{title} Event drawn by {giver}: {card.code} {card.title}",
            *((f"  {plain(card.text)}",) if card.text else ()))


def draw(s: State, md: MuleData, deck: str) -> tuple[State, EventCard, Lines]:
    """The top card of the companion's ``deck`` (the discard pile shuffled in when it has run
    out), off the deck until it is given."""
    s, card_id, reshuffled = phases.draw_event(s, deck)
    said = (f"  (the {deck.capitalize()} Event discard pile is shuffled into a new deck)",) \
        if reshuffled else ()
    return s, md.event(card_id), said
