"""Mutagen's saved game as a typed, frozen value (:class:`State`), with its one pair of JSON
functions (:func:`from_json`, :func:`to_json`) and the fold of one event (:func:`step`).

The JSON is the layout saved games have always held (``players``, ``expansions``, ``round``,
``rounds``, ``scores``, ``history``, ``tracks``, ``final``), so ``irata play set scores.Ann 12``
names what it did before; the bookkeeping during a round adds ``shards`` (Shard Fragment
tokens held), ``progress`` (Progress tracker spaces), ``crew`` and ``trees`` (the cards held, by
id), ``tiles`` (the Storage tiles' squares), ``people`` (People cards taken for their
ability, with The Plight of the People), ``drafted`` (who took a People card this round),
``bonus`` (the Bonus token on each Bonus space of the progress track) and ``palace`` (the
Palace Workers moved this round). A game saved before they were kept has none of them: a
player whose Shard Fragments or Progress tracker the saved game does not know has ``None``
(JSON null) there, and a move that needs them says so (``irata play set shards.Ann 3`` starts
keeping them).

The Elements (kept from the set-up of a game started with them kept, ``new --elements``):
``storage`` (each
player's Elements in storage, as ``"blue ore"`` or ``"supreme"``), ``installed`` (the
Elements installed on the Airship, by space), ``card`` (the Elements kept on the Hoarder's
People card), ``spent`` (the Elements of the player's last spending this round, which the
Install Elements and Move on an Element track Worker type actions read) and ``placed`` (the
Workers placed this round, with their location). A Storage tile's id is kept as the third
item of its squares (``["A1", "A2", "storage/13-any-pink"]``). During a round the Element
trackers move with the moves that move them (``track``, ``place``), so ``tracks`` is where
they stand now.

Named tuples, not dataclasses: as immutable, and cheaper to define on each command's start.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.record import NamedTuple

__all__ = ["Final", "Player", "Scored", "State", "from_json", "step", "to_json"]

ELEMENTS = ("crystal", "gas", "liquid", "ore")
PLIGHT = "plight-of-the-people"
PALACE = "palace-visitors"
EXPANSIONS = (PLIGHT, PALACE)


class Player(NamedTuple):
    """One player as the saved game keeps them."""

    name: str
    score: int
    tracks: tuple[int, ...] | None = None   # crystal, gas, liquid, ore; None: not kept
    shards: int | None = None               # Shard Fragment tokens held; None: not kept
    progress: int | None = None             # the Progress tracker's space; None: not kept
    crew: tuple[str, ...] = ()              # Crew card ids, as taken
    trees: tuple[str, ...] = ()             # completed Tree card ids
    tiles: tuple[tuple[str, str], ...] = ()  # the squares each Storage tile covers
    people: tuple[str, ...] = ()            # People card ids taken (for their ability)
    storage: tuple[str, ...] | None = None  # Elements in storage; None: not kept
    installed: tuple[tuple[str, str], ...] = ()   # (space, Element) on the Airship
    card: tuple[str, ...] = ()              # Elements on the Hoarder's People card
    spent: tuple[str, ...] = ()             # the Elements of the last spending this round
    placed: tuple[tuple[str, str], ...] = ()  # (Worker, location) placed this round
    tile_ids: tuple[str, ...] = ()          # each Storage tile's id ("" unknown), as tiles

    def track(self, element: str) -> int:
        return self.tracks[ELEMENTS.index(element)] if self.tracks else 0


class Scored(NamedTuple):
    """One End of Round: each player's points, and Shard Fragments from a People card."""

    round: int
    points: tuple[tuple[str, int], ...]
    shards: tuple[tuple[str, int], ...] = ()


class Final(NamedTuple):
    """End of Game Scoring's result: each player's breakdown (as saved) and the winners."""

    players: tuple[tuple[tuple[str, Any], ...], ...]
    winners: tuple[str, ...]


class State(NamedTuple):
    """A saved Mutagen game: see the module's docstring."""

    players: tuple[Player, ...]
    expansions: tuple[str, ...] = ()
    round: int = 1
    rounds: int = 4
    history: tuple[Scored, ...] = ()
    bonus: tuple[tuple[int, str], ...] = ()   # progress track space -> Bonus token kind
    palace: tuple[int, ...] = ()              # Palace Workers moved this round, by order
    final: Final | None = None
    drafted: tuple[str, ...] = ()             # who took a People card this round
    people_kept: bool = False                 # the People cards taken are kept (from set-up)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def over(self) -> bool:
        return self.final is not None

    def player(self, name: str) -> Player:
        """The player named (exactly as the saved game spells them); KeyError if none."""
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def with_player(self, player: Player) -> State:
        return self._replace(players=tuple(player if p.name == player.name else p
                                           for p in self.players))


# -- JSON ----------------------------------------------------------------------------------------

def _ints(node: Any) -> dict[str, int | None]:
    if not isinstance(node, Mapping):
        return {}
    return {str(k): (None if v is None else int(v)) for k, v in node.items()}


def _lists(node: Any) -> dict[str, tuple[Any, ...]]:
    if not isinstance(node, Mapping):
        return {}
    return {str(k): tuple(v) for k, v in node.items()}


def _strs(node: Any, name: str) -> tuple[str, ...]:
    return tuple(str(c) for c in _lists(node).get(name, ()))


def _player(name: str, data: Mapping[str, Any]) -> Player:
    tracks = (data.get("tracks") or {}).get(name)
    tiles = _lists(data.get("tiles")).get(name, ())
    storage = data.get("storage")
    return Player(
        name, int(data["scores"][name]),
        tuple(int(tracks.get(e, 0)) for e in ELEMENTS) if isinstance(tracks, Mapping) else None,
        _ints(data.get("shards")).get(name), _ints(data.get("progress")).get(name),
        tuple(str(c) for c in _lists(data.get("crew")).get(name, ())),
        tuple(str(c) for c in _lists(data.get("trees")).get(name, ())),
        tuple((str(t[0]), str(t[1])) for t in tiles),
        _strs(data.get("people"), name),
        _strs(storage, name) if isinstance(storage, Mapping) else None,
        tuple((str(a), str(b)) for a, b in _lists(data.get("installed")).get(name, ())),
        _strs(data.get("card"), name), _strs(data.get("spent"), name),
        tuple((str(a), str(b)) for a, b in _lists(data.get("placed")).get(name, ())),
        _ids(tuple(str(t[2]) if len(t) > 2 else "" for t in tiles)))


def _ids(ids: tuple[str, ...]) -> tuple[str, ...]:
    """The Storage tiles' ids, or none when no tile's id is known."""
    return ids if any(ids) else ()


def from_json(data: Mapping[str, Any]) -> State:
    """The saved game's state from its JSON (as the fold and ``set`` leave it). A value of the
    wrong kind raises (KeyError, TypeError, ValueError), which ``session.readable`` turns
    into one line naming the game."""
    final = data.get("final")
    return State(
        tuple(_player(str(n), data) for n in data["players"]),
        tuple(str(e) for e in data.get("expansions", ())), int(data["round"]),
        int(data.get("rounds", 4)),
        tuple(Scored(int(h["round"]), tuple((str(k), int(v)) for k, v in h["points"].items()),
                     tuple((str(k), int(v)) for k, v in (h.get("shards") or {}).items()))
              for h in data.get("history", ())),
        tuple(sorted((int(k), str(v)) for k, v in (data.get("bonus") or {}).items())),
        tuple(int(o) for o in data.get("palace", ())),
        Final(tuple(tuple(dict(p).items()) for p in final["players"]),
              tuple(str(w) for w in final["winners"])) if final else None,
        tuple(str(n) for n in data.get("drafted", ())), "people" in data)


def to_json(state: State) -> dict[str, Any]:
    """The state as the saved game's JSON: the layout it has always had (see the module)."""
    ps = state.players
    out: dict[str, Any] = {
        "players": list(state.names), "expansions": list(state.expansions),
        "round": state.round, "rounds": state.rounds,
        "scores": {p.name: p.score for p in ps},
        "history": [{"round": h.round, "points": dict(h.points), "shards": dict(h.shards)}
                    for h in state.history]}
    if any(p.tracks is not None for p in ps):
        out["tracks"] = {p.name: dict(zip(ELEMENTS, p.tracks, strict=True))
                         for p in ps if p.tracks is not None}
    for field in ("shards", "progress"):   # null: not kept (``set`` can start keeping it)
        out[field] = {p.name: getattr(p, field) for p in ps}
    # the cards and tiles held: always there, so that ``set crew.Ann [...]`` finds them
    for field in ("crew", "trees"):
        out[field] = {p.name: list(getattr(p, field)) for p in ps}
    out["tiles"] = {p.name: [[*t, *([i] if i else [])] for t, i in
                             zip(p.tiles, p.tile_ids or ("",) * len(p.tiles), strict=True)]
                    for p in ps}
    if any(p.storage is not None for p in ps):      # the Elements are kept
        out["storage"] = {p.name: list(p.storage or ()) for p in ps}
        out["installed"] = {p.name: [list(i) for i in p.installed] for p in ps}
    for field in ("card", "spent", "placed"):     # only while someone has some
        if any(getattr(p, field) for p in ps):
            out[field] = {p.name: [list(v) if isinstance(v, tuple) else v
                                   for v in getattr(p, field)] for p in ps}
    if state.people_kept or any(p.people for p in ps):
        out["people"] = {p.name: list(p.people) for p in ps}
    if state.bonus:
        out["bonus"] = {str(k): v for k, v in state.bonus}
    if state.palace:
        out["palace"] = list(state.palace)
    if state.drafted:
        out["drafted"] = list(state.drafted)
    if state.final is not None:
        out["final"] = {"players": [dict(p) for p in state.final.players],
                        "winners": list(state.final.winners)}
    return out


# -- the fold of one event ----------------------------------------------------------------------

def _gain(p: Player, shards: int = 0, points: int = 0) -> Player:
    held = None if p.shards is None else p.shards + shards
    return p._replace(shards=held, score=p.score + points)


def _round(state: State, data: Mapping[str, Any]) -> State:
    """End of Round: its points, a People card's Shard Fragments, the trackers it found."""
    points = {str(k): int(v) for k, v in data["points"].items()}
    shards = {str(k): int(v) for k, v in (data.get("shards") or {}).items()}
    tracks = data.get("tracks") or {}
    players = []
    for p in state.players:
        p = _gain(p, shards.get(p.name, 0), points.get(p.name, 0))
        if p.name in tracks:
            p = p._replace(tracks=tuple(int(tracks[p.name].get(e, 0)) for e in ELEMENTS))
        players.append(p._replace(spent=(), placed=()))
    scored = Scored(int(data["round"]), tuple(points.items()), tuple(shards.items()))
    return state._replace(players=tuple(players), history=(*state.history, scored),
                          round=int(data["round"]) + 1, palace=(),
                          drafted=())


def _score(state: State, data: Mapping[str, Any]) -> State:
    """End of Game Scoring: the result, and each player's Shard Fragments discarded (3 a
    point): what is left is the tie-break's ``shards_remaining``."""
    left = {str(p["name"]): int(p.get("shards_remaining", 0)) for p in data["players"]}
    players = tuple(p._replace(shards=left.get(p.name, p.shards)) if p.shards is not None
                    else p for p in state.players)
    return state._replace(players=players, final=Final(
        tuple(tuple(dict(p).items()) for p in data["players"]),
        tuple(str(w) for w in data["winners"])))


def without(held: tuple[str, ...], gone: Any) -> tuple[str, ...]:
    """``held`` with each of ``gone`` taken out once (a multiset's difference)."""
    left = list(held)
    for g in gone:
        if str(g) in left:
            left.remove(str(g))
    return tuple(left)


def _elements(p: Player, kind: str, data: Mapping[str, Any]) -> Player:
    """The Elements a move took, spent, installed or kept on the Hoarder's card, and the
    Element trackers it moved (``moves``: Element -> spaces)."""
    spend = tuple(str(e) for e in data.get("spend", ()))
    if spend and p.storage is not None:
        p = p._replace(storage=without(p.storage, spend), spent=spend)
    moves = data.get("moves") or {}
    if moves and p.tracks is not None:
        p = p._replace(tracks=tuple(t + int(moves.get(e, 0))
                                    for e, t in zip(ELEMENTS, p.tracks, strict=True)))
    gained = data.get("element")
    if gained and p.storage is not None:
        to = str(data.get("to", "storage"))
        if to == "storage":
            p = p._replace(storage=(*p.storage, str(gained)))
        elif to == "card":
            p = p._replace(card=(*p.card, str(gained)))
        else:
            p = p._replace(installed=(*p.installed, (to, str(gained))))
    if kind == "install":       # Install Elements: what was just spent is used up
        p = p._replace(installed=(*p.installed, *((str(s), str(e))
                                                  for s, e in data["installs"])), spent=())
    if kind == "place":
        p = p._replace(placed=(*p.placed, (str(data["worker"]), str(data["location"]))))
    return p


def _held_cards(p: Player, kind: str, data: Mapping[str, Any]) -> Player:
    if kind == "progress" and p.progress is not None:
        p = p._replace(progress=int(data["end"]))
    elif kind == "crew":
        p = p._replace(crew=(*p.crew, str(data["card"])))
    elif kind == "tree":
        p = p._replace(trees=(*p.trees, str(data["card"])))
    elif kind == "storage":
        a, b = data["at"]
        ids = p.tile_ids or ("",) * len(p.tiles)
        p = p._replace(tiles=(*p.tiles, (str(a), str(b))),
                       tile_ids=_ids((*ids, str(data.get("tile") or ""))))
    elif kind == "discard":
        p = p._replace(crew=tuple(c for c in p.crew if c != str(data["card"])))
    elif kind == "people" and data.get("benefit") == "ability":
        p = p._replace(people=(*p.people, str(data["card"])))
    return p


def _during(state: State, kind: str, data: Mapping[str, Any]) -> State:
    """A move during a round: the event holds what it gained and paid (its ``shards``,
    ``points``, ``spaces``, Elements and tracker ``moves`` are worked out when it was
    checked)."""
    p = state.player(str(data["player"]))
    p = _gain(p, int(data.get("shards", 0)), int(data.get("points", 0)))
    p = _elements(_held_cards(p, kind, data), kind, data)
    state = state.with_player(p)
    if kind == "palace":
        state = state._replace(palace=(*state.palace, int(data["order"])))
    elif kind == "people":
        state = state._replace(drafted=(*state.drafted, p.name))
    return state


DURING = ("points", "shards", "progress", "crew", "tree", "storage", "people", "discard",
          "palace", "element", "install", "track", "place")


def step(state: State, kind: str, data: Mapping[str, Any]) -> State:
    """The state after one event of the log (``setup`` and ``set`` are the session's)."""
    if kind == "round":
        return _round(state, data)
    if kind == "score":
        return _score(state, data)
    if kind in DURING:
        return _during(state, kind, data)
    return state
