"""Outer Earth's Phase 2 turn order (Company Actions): clockwise from the starting player,
one turn of actions each; and the names of the company actions and development colours.
Light to import: ``next`` and the fold read it (``companion.outer_earth.rules`` re-exports
it with the other rules)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["ACTIONS", "COLOURS", "clockwise_from", "company_turn_refusal", "turns_now"]

COLOURS = ("blue", "yellow", "red")
ACTIONS = ("draw", "build", "sell")


def clockwise_from(seating: Sequence[str], start: str) -> list[str]:
    i = list(seating).index(start)
    return list(seating[i:]) + list(seating[:i])


def _turn_now(order: Sequence[str], acted: Sequence[str]) -> int:
    """Where in ``order`` the company taking its turn sits: the furthest round the table
    that has acted (-1: none has yet)."""
    done = [order.index(c) for c in acted if c in order]
    return max(done) if done else -1


def turns_now(seating: Sequence[str], starting_player: str, acted: Sequence[str]
              ) -> tuple[str | None, str | None]:
    """Phase 2's turns: the company taking its turn (None before the starting player has
    acted) and the next one clockwise that may begin its turn (None after the last)."""
    order = clockwise_from(seating, starting_player)
    now = _turn_now(order, acted)
    return (order[now] if now >= 0 else None,
            order[now + 1] if now + 1 < len(order) else None)


def company_turn_refusal(seating: Sequence[str], starting_player: str, acted: Sequence[str],
                         company: str) -> str | None:
    """Phase 2, Company Actions: "In clockwise order starting with the company that is the
    starting player, each company takes 3 consecutive actions points during their turn."

    ``acted`` are the companies that have drawn, built or sold this round. The company taking
    its turn is the one furthest round the table among them (none yet: the starting player); it
    may act on, or the next company clockwise may begin its turn (the companion does not know
    when a turn's three actions are spent). Any other company is refused: its turn is over, or
    comes later. Returns why, or None when ``company`` may act now."""
    order = clockwise_from(seating, starting_player)
    if company not in order:
        return None
    now = _turn_now(order, acted)
    at = order.index(company)
    seats = ", ".join(order)
    if now < 0 and at != 0:
        return (f"it is {order[0]}'s turn, the starting player's: in Phase 2 each company takes "
                f"its 3 actions in one turn, clockwise from the starting player ({seats}), "
                f"so {company} acts after {order[at - 1]}")
    if at < now:
        return (f"{company}'s turn this round is over: in Phase 2 each company takes its 3 "
                f"actions in one turn, clockwise from the starting player ({seats}), and "
                f"{order[now]} is taking its turn now")
    if at > now + 1:
        return (f"it is {order[now]}'s turn" + (f", then {order[now + 1]}'s" if now >= 0 else "")
                + f": in Phase 2 each company takes its 3 actions in one turn, clockwise from "
                f"the starting player ({seats}), so {company} acts after {order[at - 1]}")
    return None
