"""Numbers as the table types them: a whole number, or a sum or difference (``3+6+2``).

Kept apart from ``companion.session`` (which re-exports it) so that a calculator, which reads
no saved game, parses its numbers without defining the saved games' Store (issue 22: a
command must start about as fast as Python imports click).
"""

from __future__ import annotations

import re

from components.errors import InputError

__all__ = ["MAX_AMOUNT", "parse_amount"]

MAX_AMOUNT = 10**9  # any number typed at the table or set in a saved game

# ASCII digits only: '²' or '٣' are not what a person means by a score
# compiled on first use by re's own cache, not at import
_SUM = r"[+-]?[0-9]+(?:[+-][0-9]+)*"
_TERM = r"[+-]?[0-9]+"


def parse_amount(text: str | int, what: str = "a number") -> int:
    """A whole number as a person types it; a sum or difference (``3+6+2``, ``30-8``) too,
    as good score pads allow. InputError, naming ``what``, for anything else."""
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    else:
        raw = str(text).replace(" ", "").removeprefix("$")
        if not re.fullmatch(_SUM, raw):
            raise InputError(f"{what}: '{str(text)[:40]}' is not a number (a sum such as "
                             "3+6+2 is fine)")
        terms = re.findall(_TERM, raw)
        if any(len(t.lstrip("+-")) > 10 for t in terms):
            raise InputError(f"{what}: '{str(text)[:40]}' is far too large a number")
        value = sum(int(term) for term in terms)
    if abs(value) > MAX_AMOUNT:
        raise InputError(f"{what}: {str(value)[:20]} is out of range (at most {MAX_AMOUNT})")
    return value
