"""The players' names as the table types them where a command asks for names.

A name that is a number (``--players 3``) is the table giving a count where the names are
asked: taken as a name it would start a one-player game of a player called "3". So it is
refused, naming the option, wherever names are asked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from components.errors import InputError

# digits of any script, with a sign or a decimal point or comma: "3", "-1", "2.5", "٣"
_NUMBER = r"[+-]?(\d+([.,]\d*)?|[.,]\d+)"  # compiled on first use by re's own cache


def is_number(name: str) -> bool:
    """Whether ``name`` is a number rather than a name."""
    return re.fullmatch(_NUMBER, name.strip()) is not None


def check_names(names: Iterable[str], option: str = "--players") -> list[str]:
    """``names`` (stripped, blanks dropped) as given, or an ``InputError`` on the first one that
    is a number: the option asks for the players' names, not how many there are."""
    found = [n.strip() for n in names if n.strip()]
    for name in found:
        if is_number(name):
            shown = name if len(name) <= 24 else name[:20] + "..."
            raise InputError(f"{option} takes the players' names, comma-separated (Ann,Bob,Cy), "
                             f"not a number: '{shown}' is not a name")
    return found
