"""Mutagen's table view (see :mod:`companion.table`): the score track in columns, each
player's Element trackers, the round; a player's points gained during a round are theirs to
enter at any time of it, and their choices (the Elements held, the Workers not yet placed)
come from what the saved game kept. Reads the state's JSON form."""

from __future__ import annotations

from typing import Any

from companion.table import Board, Cell, Column

__all__ = ["board", "choices", "players"]


def players(state: dict[str, Any]) -> tuple[str, ...]:
    return tuple(str(n) for n in state.get("players", ()))


def board(state: dict[str, Any]) -> Board:
    scores: dict[str, Any] = state.get("scores") or {}
    tracks: dict[str, dict[str, Any]] = state.get("tracks") or {}
    ranked = sorted(players(state), key=lambda n: -int(scores.get(n, 0) or 0))
    columns = tuple(
        Column(name, f"{i + 1}.", (Cell("Points", str(scores.get(name, 0))),
                                   *(Cell(element.capitalize(), str(value)) for element, value
                                     in sorted((tracks.get(name) or {}).items())),
                                   *_held(state, name)))
        for i, name in enumerate(ranked))
    rnd, rounds = int(state.get("round") or 1), int(state.get("rounds") or 4)
    title = ("Mutagen, End of Game Scoring" if rnd > rounds
             else f"Mutagen, round {rnd} of {rounds}")
    expansions = tuple(str(x) for x in state.get("expansions") or ())
    notes: tuple[str, ...] = (f"Expansions: {', '.join(expansions)}",) if expansions else ()
    final = state.get("final")
    if isinstance(final, dict) and final.get("winners"):
        notes += (f"Winner: {' and '.join(str(w) for w in final['winners'])}",)
    return Board(title, columns, (), notes)


_TRACKS = ("crystal", "gas", "liquid", "ore")
_WORKERS = ("robot", "thug", "spy", "engineer")
_LOCATIONS = ("clockwork-city", "nautical-city", "sunken-mines", "sacred-tree",
              "floating-city", "coastal-oasis")


def _own(state: dict[str, Any], field: str, who: str | None) -> list[Any]:
    held = (state.get(field) or {}).get(who or "")
    return list(held) if isinstance(held, list) else []


def _held(state: dict[str, Any], name: str) -> tuple[Cell, ...]:
    """What the player holds, where the saved game keeps it: Shard Fragments, and the
    Elements in storage and installed."""
    cells = []
    shards = (state.get("shards") or {}).get(name)
    if shards is not None:
        cells.append(Cell("Shard Fragments", str(shards)))
    if isinstance(state.get("storage"), dict):
        cells.append(Cell("In storage", ", ".join(map(str, _own(state, "storage", name)))
                          or "nothing"))
        cells.append(Cell("Installed", str(len(_own(state, "installed", name)))))
    return tuple(cells)


def choices(state: dict[str, Any], kind: str, who: str | None) -> dict[str, tuple[str, ...]]:
    """The player's choices now: the Elements in their storage to spend, the Elements just
    spent to install, the Workers not placed this round."""
    stored = tuple(dict.fromkeys(str(e) for e in _own(state, "storage", who)))
    if kind == "points":
        return {"points": ("2", "1", "-1")}
    if kind == "track":
        return {"track": tuple(f"{t} 1" for t in _TRACKS), "spend": stored}
    if kind == "tree":
        return {"spend": stored}
    if kind == "install":
        return {"element": tuple(f"{e} H1" for e in dict.fromkeys(
            str(e) for e in _own(state, "spent", who)))}
    if kind == "place":
        placed = {str(w[0]) for w in _own(state, "placed", who) if w}
        where = _LOCATIONS + (("palace",) if "palace-visitors" in
                              (state.get("expansions") or ()) else ())
        return {"where": tuple(f"{w} {loc}" for w in _WORKERS if w not in placed
                               for loc in where), "track": _TRACKS}
    return {}
