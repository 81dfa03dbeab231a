"""``; did you mean 'Ann'?`` for a name typed at the table that is not in the game."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["did_you_mean"]


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """The closest of ``choices`` to ``word`` as ``"; did you mean 'x'?"`` (a different case
    counts as closest), or ``""`` when none is close."""
    names = [str(c) for c in choices]
    folded = [c for c in names if c.casefold() == word.strip().casefold()]
    if folded:
        return f"; did you mean '{folded[0]}'?"
    by_fold = {c.casefold(): c for c in names}
    close = difflib.get_close_matches(word.strip().casefold(), list(by_fold), n=1, cutoff=0.6)
    return f"; did you mean '{by_fold[close[0]]}'?" if close else ""
