"""A Colonist's Player Board in a saved game: which Lands they own, where, and which Good the
M.U.L.E. on each produces.

Each Land is a small dict kept in the saved game (``players.NAME.lands``):

    {"land": "plains", "tile": "P07", "square": "B2", "mule": "energy", "secret": false}

``tile`` is the id printed on the Land tile (None when the table did not say which tile),
``square`` the square of the Player Board (None when not said), ``mule`` the Good its M.U.L.E.
produces (None: no M.U.L.E.), ``secret`` whether the Land now shows its Secret Side.

The squares are named as the printed Player Board shows them in their corners, read from the
board's definition (``data.player_board`` in ``components/mule/rules.yaml``, a
:class:`~companion.mule.data.PlayerBoard`): columns A to E (A the Red Zone, B to D the White
Zone, E the Blue Zone) and rows 1 to 3, top first; C2 is The Store and holds no Land; C1 and C3
are the river beds, the only squares a River may take.

With a tile for every Land with a M.U.L.E., Production needs no typing but the M.U.L.E.s
flipped; with a square for each, Economies of Scale are counted from the saved game too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.mule.data import PlayerBoard
from companion.mule.production import GOODS, Worked
from components.errors import InputError, RuleError

LAND_TYPES = ("river", "plains", "low-mountain", "high-mountain", "meteor-crater")
_TILE = re.compile(r"^[A-Za-z]\d\d$")
_LETTER = {"s": "smithore", "c": "crystite", "f": "food", "e": "energy"}

Land = dict[str, Any]
TileLookup = Callable[[str], Any]     # "P07" -> LandTile (InputError when there is none)


def new_land(land: str, tile: str | None = None, square: str | None = None,
             mule: str | None = None) -> Land:
    return {"land": land, "tile": tile, "square": square, "mule": mule, "secret": False}


def normalise(lands: Sequence[Any]) -> list[Land]:
    """Lands as dicts (a saved game from before they were kept as dicts holds plain names)."""
    out = []
    for land in lands:
        if isinstance(land, dict):
            out.append({**new_land(str(land.get("land", "land"))), **land})
        else:
            text = str(land)
            tile = text.upper() if _TILE.match(text) else None
            out.append(new_land("land" if tile else text, tile))
    return out


def label(lands: Sequence[Land], i: int) -> str:
    """How a Land is named at the table: its tile, else its place in the list (1 first)."""
    return str(lands[i].get("tile") or i + 1)


def mule_counts(lands: Sequence[Land]) -> dict[str, int]:
    counts = dict.fromkeys(GOODS, 0)
    for land in lands:
        if land.get("mule") in counts:
            counts[land["mule"]] += 1
    return counts


def check_mules(mules: int, pb: PlayerBoard) -> None:
    """M.U.L.E.s are installed one per Land, and a Player Board holds a Land on each of its
    squares but The Store's: no Colonist works more M.U.L.E.s than that."""
    most = len(pb.squares)
    if mules > most:
        raise RuleError(f"{mules} M.U.L.E.s: one per Land, and a Player Board has {most} squares "
                        f"for Lands, so at most {most}")


def good_of(text: str) -> str | None:
    """S, C, F, E or a Good's name; ``-`` (or ``none``) for no M.U.L.E."""
    word = text.strip().lower()
    if word in ("-", "none", "0", ""):
        return None
    good = _LETTER.get(word) or (word if word in GOODS else None)
    if good is None:
        raise InputError(f"'{text}' is not a Good (S, C, F, E, or - for none)")
    return good


def read_claim(text: str, tile_of: TileLookup, pb: PlayerBoard) -> tuple[Any, str | None] | None:
    """A Land as typed: ``P07``, ``P07@B2`` (with its square) -> its tile and the square as
    the Player Board prints it (None: not given); blank: None. A Land is named by its tile's
    code (:func:`tile_code`)."""
    words = text.replace("@", " ").split()
    if not words:
        if text.strip():
            raise InputError(f"'{text.strip()}': give a tile and a square, e.g. P07@B2")
        return None
    if len(words) > 2:
        raise InputError(f"'{text[:60]}': give a tile and a square, e.g. P07@B2")
    square = pb.square(words[1]) if len(words) == 2 else None
    return tile_of(tile_code(words[0])), square


def parse_claim(text: str, tile_of: TileLookup, owned: Mapping[str, str], craters: Sequence[str],
                board: Sequence[Land], pb: PlayerBoard) -> Land | None:
    """A Land Grant or Land Auction answer (:func:`read_claim`) as a Land, checked by
    :func:`claim_refused`; blank: None."""
    read = read_claim(text, tile_of, pb)
    if read is None:
        return None
    tile, square = read
    why = claim_refused(tile.land, tile.tile, square, owned, craters,
                        [land.get("square") for land in board], pb)
    if why:
        raise RuleError(why)
    return new_land(tile.land, tile.tile, square)


def tile_code(text: str) -> str:
    """A Land as typed: the code printed in its tile's corner (P07); a Land type (``plains``,
    ``River``) is refused, asking which tile."""
    first = text.strip()
    if _TILE.match(first):
        return first
    kind = first.lower().replace(" ", "-")
    if kind in (*LAND_TYPES, "land", "mountain", "crater"):
        # a Land is named by the code in its corner: the word printed large on it names
        # many tiles, and a Land without its tile produces nothing the companion can count
        raise InputError(f"'{first[:40]}': which tile? Name the Land by the code printed "
                         "in its corner (P07, R01, L03, H02, M01), e.g. P07@B2")
    raise InputError(f"'{first[:40]}': give the tile's code as printed in its corner (P07, "
                     "R01, L03, H02, M01) and its square, e.g. P07@B2")


def claim_refused(kind: str, tile: str, square: str | None, owned: Mapping[str, str],
                  craters: Sequence[str], taken: Sequence[str | None], pb: PlayerBoard
                  ) -> str | None:
    """Why the Land ``tile`` (of type ``kind``) cannot be claimed onto ``square`` (None: not
    said yet) of a Player Board whose Lands lie on ``taken`` (None: a refusal's text; None
    returned: it can): the square is one of the board's, not The Store's, and empty; a tile is
    owned once; a Meteor Crater only once it is on Planet Irata; a River only on a river bed."""
    if square is not None:
        why = square_refused(square, taken, pb)
        if why:
            return why
    if tile in owned:
        return f"{tile} is already on {owned[tile]}'s Player Board"
    if kind == "meteor-crater" and tile not in craters:
        return (f"{tile} is a Meteor Crater: it is on Planet Irata only after the Production "
                "Card that brings the Meteor Craters")
    if kind == "river" and square is not None and square not in pb.river_beds:
        return (f"Land Grant: a River goes only on a river bed ({' or '.join(pb.river_beds)}), "
                f"not {square}")
    return None


def square_refused(square: str, taken: Sequence[str | None], pb: PlayerBoard) -> str | None:
    """Why no Land can go on ``square`` (as :meth:`PlayerBoard.square` reads it) of a Player
    Board whose Lands lie on ``taken`` (None: it can): The Store's square is in no Zone, and a
    square holds one Land."""
    if square == pb.store:
        return f"Land Grant: {square} is The Store, which is in no Zone: no Land goes there"
    if square in taken:
        return f"{square} already holds a Land"
    return None


def check_square(text: str, board: Sequence[Land], pb: PlayerBoard) -> str:
    """A square of the Player Board as printed (A1 to E3, not The Store's), not yet holding a
    Land."""
    square = pb.square(text)
    why = square_refused(square, [land.get("square") for land in board], pb)
    if why:
        raise RuleError(why)
    return square


def find(lands: Sequence[Land], ref: str) -> int:
    """A Land by its tile (P07), its square (B2) or its number in the list (1 first)."""
    want = ref.strip().upper()
    if want.isascii() and want.isdigit() and len(want) < 10 and 1 <= int(want) <= len(lands):
        return int(want) - 1
    for i, land in enumerate(lands):
        if (land.get("tile") or "").upper() == want:
            return i
    for i, land in enumerate(lands):
        if (land.get("square") or "").upper() == want:
            return i
    names = ", ".join(label(lands, i) for i in range(len(lands))) or "none yet"
    raise InputError(f"'{ref}' is not one of this Colonist's Lands ({names})")


def check_producible(land: Land, good: str, tile_of: TileLookup) -> None:
    if land.get("tile"):
        production = tile_of(land["tile"]).production
        if good not in production:
            raise RuleError(f"{land['tile']} ({land['land']}) has no Production Value for "
                            f"{good}: no M.U.L.E. can be set to produce it there")
    elif land.get("land") == "river" and good in ("smithore", "crystite"):
        raise RuleError(f"a River has no Production Value for {good}")


def worked_from(lands: Sequence[Land], tile_of: TileLookup, pb: PlayerBoard
                ) -> list[Worked] | None:
    """The Lands with M.U.L.E.s as production cells, read from the tiles; None when a Land with
    a M.U.L.E. has no tile named (its Production Value is then typed at the table). Crystite on
    a Land still showing its Public Side is produced there for the first time."""
    out = []
    for land in lands:
        good = land.get("mule")
        if not good:
            continue
        if not land.get("tile"):
            return None
        tile = tile_of(land["tile"])
        at = pb.at(land["square"]) if land.get("square") else None
        first = good == "crystite" and tile.secret_side and not land.get("secret")
        out.append(Worked(good, int(tile.production.get(good, 0)), False, first, tile.tile, at))
    return out


def has_squares(worked: Sequence[Worked]) -> bool:
    return all(w.at is not None for w in worked)
