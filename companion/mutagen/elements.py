"""Mutagen's Elements during a round, as moves of the declaration (``companion.mutagen.game``):
taking an Element (``element``), installing one just spent (``install``), the Element
trackers (``track``), and placing a Worker (``place``) with the People cards' abilities a
visit calls (The Plight of the People). The Tree card's colours are checked here too
(:func:`tree_spend`), for ``tree``.

Each move is given the player it names, in a round under way (``saved.during_round``, which
the declaration calls), and checks against what the saved game kept (the Elements in each
player's storage, on the Airship and on the Hoarder's card; the Element trackers; the Workers
placed this round) and raises the rule's refusal, changing nothing. An Element is typed as
printed, colour and type (``blue ore``); a Supreme Element token is ``supreme`` (when spent
on a track, ``supreme ore``: it counts as any type).

The project's decisions where the rulebook is silent:
- The supply: the box's Element tiles (5 of each colour and type) and Supreme Element tokens;
  an Element spent goes back to it, so no more of one are held at once than the box has.
- The Hoarder's Elements stay on the card for the rest of the game (the rulebook gives no
  way off it): each End of Round counts them again; they are not in storage.
- "Spent at this location" (Install Elements, Move on an Element track) is the player's last
  spending move this round (``tree`` or ``track --spend``).
- A Worker is placed once each round (four Workers, one placement each); a Worker moved from
  the Palace to the Game board is the ``palace`` move, not a new placement. Once a round's
  Workers are typed (any ``place``), its End of Round waits for all of them, and the
  Informant's discard for the Spy.
- The Quartermaster's Storage tile drawn at random is placed as any Storage tile (``storage``,
  paying both squares), and the Smuggler's Thug takes its Element from any location: the
  companion does not keep which Elements and tiles lie at the locations, so it names them
  when the Worker is placed and counts nothing more.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.mutagen.state import ELEMENTS, PALACE, PLIGHT, Player, State
from components.errors import InputError, RuleError

if TYPE_CHECKING:
    from companion.mutagen.airship import Airship, Element
    from companion.mutagen.rules import Rules
    from companion.play import Move, Outcome

__all__ = ["check_all_placed", "check_round_file", "element_move", "from_supply", "in_play",
           "install_move", "kept_airship", "kept_round", "parse", "place_move",
           "spend_from_storage", "track_move", "tree_spend"]

SUPREME = "supreme"
WORKERS = ("robot", "thug", "spy", "engineer")
CARD = "card"
GUIDE = "people/guide-"
CLOCKMAKER, DIVER = "people/clockmaker", "people/diver"
QUARTERMASTER, SMUGGLER, HOARDER = ("people/quartermaster", "people/smuggler",
                                    "people/hoarder")


def _rules() -> Rules:
    from companion.mutagen.data import load_rules

    return load_rules()


def parse(text: str, rules: Rules) -> str:
    """An Element as typed (``blue ore``, ``Ore Blue``, ``supreme``), as the saved game keeps
    it: ``"blue ore"`` or ``"supreme"``."""
    from companion.mutagen.airship import parse_element

    element = parse_element(text.strip(), rules)
    return SUPREME if element.supreme else f"{element.colour} {element.type}"


def as_element(label: str) -> Element:
    from companion.mutagen.airship import Element

    if label == SUPREME:
        return Element(supreme=True)
    colour, kind = label.split()
    return Element(kind, colour)


def listed(text: str) -> list[str]:
    """The Elements of a ``--spend`` list: comma-separated."""
    return [" ".join(e.split()) for e in re.split(r"[,;]", text) if e.strip()]


def kept(p: Player) -> tuple[str, ...]:
    """The player's storage; refused when the saved game does not keep the Elements."""
    if p.storage is None:
        raise RuleError("the saved game does not keep the Elements: a game started with "
                        "'irata play mutagen new --elements' keeps them")
    return p.storage


def in_play(state: State, label: str) -> int:
    """How many of an Element the players hold (storage, Airship, the Hoarder's card)."""
    return sum((p.storage or ()).count(label) + p.card.count(label)
               + sum(1 for _, e in p.installed if e == label) for p in state.players)


def from_supply(state: State, label: str) -> None:
    from companion.mutagen.data import element_copies

    copies = element_copies().get(label, 0)
    if in_play(state, label) >= copies:
        raise RuleError(f"the box holds {copies} {label} Element{'s' if copies != 1 else ''}"
                        ", all held by the players now: none is in the supply")


def kept_airship(p: Player) -> Airship:
    """The player's Airship as the saved game kept it: each Storage tile with its squares'
    restrictions (from its id; a tile kept without one restricts nothing), and the Elements
    installed."""
    from companion.mutagen.airship import Airship, PlacedTile
    from companion.mutagen.data import cards

    printed = cards().tiles
    ids = p.tile_ids or ("",) * len(p.tiles)
    tiles = tuple(PlacedTile(cells, printed.get(i, ("any", "any")), i or None)
                  for cells, i in zip(p.tiles, ids, strict=True))
    return Airship(tiles, tuple((s, as_element(e)) for s, e in p.installed))


def _install(p: Player, label: str, space: str, rules: Rules) -> str:
    """Storing or Installing Elements: the space the Element may go on (refused otherwise)."""
    from companion.mutagen.airship import install_check, normalise_space

    where = normalise_space(space.strip(), rules)
    verdict = install_check(kept_airship(p), where, as_element(label), rules)
    if not verdict.allowed:
        raise RuleError(f"Storing or Installing Elements: the {label} cannot go on {where}: "
                        + "; ".join(verdict.reasons))
    return where


def _outcome(state: State, kind: str, data: dict[str, Any], lines: tuple[str, ...]
             ) -> Outcome[State]:
    from companion.mutagen.state import step
    from companion.play import Outcome

    return Outcome(kind, data, lines, step(state, kind, data))


def element_move(state: State, move: Move, p: Player) -> Outcome[State]:
    """Element Locations: "take one Element ... you may either place it into your storage or
    install it into your Airship"; with the Hoarder, "you may choose to put it on this
    card"."""
    rules = _rules()
    kept(p)
    label = parse(move.answers.get("element", ""), rules)
    if label == SUPREME:
        raise RuleError("a Supreme Element token is gained with a People card "
                        f"('irata play mutagen people {p.name} supreme')")
    from_supply(state, label)
    at = move.answers.get("at", "").strip()
    if at.lower() == CARD:
        if HOARDER not in p.people:
            raise RuleError(f"{p.name} has not taken the Hoarder's ability (a People card): "
                            "only it keeps Elements on the card")
        to, where = CARD, "on the Hoarder's card"
    elif at:
        to = _install(p, label, at, rules)
        where = f"installed on {to}"
    else:
        to, where = "storage", "into storage"
    data = {"player": p.name, "element": label, "to": to, "why": move.answers.get("why", "")}
    return _outcome(state, "element", data, (f"{p.name} takes a {label} {where}.",))


def _installs(p: Player, text: str, rules: Rules) -> list[tuple[str, str]]:
    """The (Element, space) pairs of an ``install`` ('blue gas H1, blue ore A2'): each one
    just spent, all of one colour (a Supreme Element is any), each on a space it may go on
    (checked in order, each beside those before it)."""
    left = list(p.spent)
    out: list[tuple[str, str]] = []
    for item in listed(text):
        words = item.split()
        if len(words) < 2:
            raise InputError("install names each Element spent and its space: "
                             "'blue gas H1, blue ore A2'")
        label = parse(" ".join(words[:-1]), rules)
        if label not in left:
            raise RuleError("Install Elements installs the Elements just spent at this "
                            f"location: {p.name}'s last spending returned "
                            f"{', '.join(p.spent) or 'nothing this round'}; no {label} left")
        left.remove(label)
        so_far = p._replace(installed=(*p.installed, *((s, e) for e, s in out)))
        out.append((label, _install(so_far, label, words[-1], rules)))
    colours = {e.split()[0] for e, _ in out if e != SUPREME}
    if len(colours) > 1:
        raise RuleError("Install Elements: \"choose one of the Element colours you have "
                        f"spent\": {' and '.join(sorted(colours))} are two")
    if not out:
        raise InputError("install names each Element spent and its space: 'blue gas H1'")
    return out


def install_move(state: State, move: Move, p: Player) -> Outcome[State]:
    """Install Elements (Worker Type Actions Reference): "choose one of the Element colours
    you have spent taking the main action at this location and instead of discarding them
    you may install all those Elements onto your Airship board": of the player's last
    spending, in one move; the rest of it has gone back to the supply."""
    rules = _rules()
    kept(p)
    installs = _installs(p, move.answers.get("element", ""), rules)
    data = {"player": p.name, "installs": [[s, e] for e, s in installs]}
    return _outcome(state, "install", data, (f"{p.name} installs the spent "
                                             + ", ".join(f"{e} on {s}" for e, s in installs)
                                             + ".",))


def spend_from_storage(p: Player, text: str, rules: Rules, what: str) -> list[str]:
    """The Elements of a ``--spend`` list (``"blue ore"``; a Supreme Element as ``"supreme"``
    or, counted as a type, ``"supreme ore"``), each held in storage when the saved game keeps
    it (refused otherwise)."""
    held = Counter(p.storage or ())
    out = []
    for item in listed(text):
        words = item.lower().split()
        if words[:1] == [SUPREME]:
            if len(words) > 2 or words[1:] and words[1] not in ELEMENTS:
                raise InputError(f"a Supreme Element spent is 'supreme' or 'supreme TYPE' "
                                 f"({', '.join(ELEMENTS)}), not {item[:30]!r}")
            label, shown = SUPREME, " ".join(words)
        else:
            label = shown = parse(item, rules)
        out.append(shown)
        held[label] -= 1
        if p.storage is not None and held[label] < 0:
            raise RuleError(f"{what}: {p.name}'s storage holds "
                            f"{p.storage.count(label)} {label}, and the list spends more")
    if not out:
        raise InputError(f"{what}: --spend names the Elements returned from storage")
    return out


def tree_spend(needs: Sequence[str], spent: Sequence[str], gardener: bool = False,
               fewer: bool = False) -> str | None:
    """Tree Location: do the Elements ``spent`` (``"blue ore"``, ``"supreme"``) complete a
    Tree card asking for the colours ``needs``? "Return Elements ... which match the same
    colours as shown on the Tree card ... the type of Element used does not matter"; a
    Supreme Element counts as any colour; the Gardener lets one Element on each card be of
    any colour; the Mutation spends one fewer. The reason it does not, or None."""
    want = len(needs) - (1 if fewer else 0)
    if len(spent) != want:
        return (f"the card asks for {len(needs)} Element{'s' if len(needs) != 1 else ''}"
                + (" (one fewer with the Mutation)" if fewer else "")
                + f", and {len(spent)} {'is' if len(spent) == 1 else 'are'} spent")
    colours = Counter(e.split()[0] for e in spent if not e.startswith(SUPREME))
    matched = sum(min(n, needs.count(c)) for c, n in colours.items())
    astray = sum(colours.values()) - matched
    if astray > (1 if gardener else 0):
        return (f"it shows {', '.join(needs)}, and {astray} of the Elements spent match no "
                "colour left on it" + (" (the Gardener lets one be any colour)"
                                       if gardener else ""))
    return None


def _track_moves(p: Player, move: Move, rules: Rules) -> tuple[dict[str, int], list[str]]:
    """The spaces each tracker moves, and the Elements spent (none for a free move)."""
    given = move.answers
    words = given.get("track", "").lower().split()
    if given.get("spend", "").strip():
        if words or given.get("spent"):
            raise InputError("track: --spend moves the tracks of the Elements spent; give "
                             "no TYPE with it")
        spend = spend_from_storage(p, given["spend"], rules, "Element Track Location")
        kinds = [e.split()[1] if len(e.split()) > 1 else "" for e in spend]
        if "" in kinds:
            raise InputError("a Supreme Element spent on a track names the type it counts "
                             "as: 'supreme ore'")
        return dict(Counter(kinds)), [SUPREME if e.startswith(SUPREME) else e for e in spend]
    if not words or words[0] not in ELEMENTS or len(words) > 2:
        raise InputError(f"track names an Element track ({', '.join(ELEMENTS)}) and, for a "
                         "free move, its spaces (1 or 2): 'ore 1'; or --spend")
    if given.get("spent"):
        if len(words) > 1:
            raise InputError("track TYPE --spent moves as many spaces as Elements of TYPE "
                             "were just spent: give no number with it")
        n = sum(1 for e in p.spent if e == SUPREME or e.endswith(f" {words[0]}"))
        if not n:
            raise RuleError(f"Move on an Element track: {p.name}'s last spending returned "
                            f"no {words[0]} Element ({', '.join(p.spent) or 'nothing'})")
        return {words[0]: n}, []
    n = int(words[1]) if len(words) > 1 and words[1] in ("1", "2") else 0 if len(words) > 1 \
        else 1
    if not n:
        raise InputError("a free move on an Element track is 1 space (a Mutation, a Bonus "
                         "token, the Clockmaker) or 2 (a Visitor card), not "
                         f"{words[1][:10]!r}")
    return {words[0]: n}, []


def moved_tracks(p: Player, moves: dict[str, int], rules: Rules) -> str:
    """The trackers after ``moves``, refused past the track's last space."""
    if p.tracks is None:
        raise RuleError(f"the saved game does not keep {p.name}'s Element trackers (it was "
                        "saved before they were kept): the End of Round FILE gives them")
    out = []
    for e, n in moves.items():
        now = p.track(e) + n
        if now > rules.track_length:
            raise RuleError(f"{p.name}'s {e} tracker is on {p.track(e)}: the track ends on "
                            f"{rules.track_length}, {n} space{'s' if n > 1 else ''} on is "
                            "past it")
        out.append(f"{e} {p.track(e)} -> {now}")
    return ", ".join(out)


def track_move(state: State, move: Move, p: Player) -> Outcome[State]:
    """Element Track Location: "Move your tracker token one space on the matching tracks for
    each Element spent"; the free moves of a Mutation, a Bonus token, the Clockmaker and the
    Visitor cards; and the Worker type action's move by the Elements of one type spent."""
    rules = _rules()
    moves, spend = _track_moves(p, move, rules)
    said = moved_tracks(p, moves, rules)
    data = {"player": p.name, "moves": moves, "spend": spend,
            "why": move.answers.get("why", "")}
    return _outcome(state, "track", data, (f"{p.name}'s Element trackers: {said}.",))


def _where(state: State, move: Move, rules: Rules) -> tuple[str, str]:
    """The Worker and the location a placement names, checked (Place Workers)."""
    words = move.answers.get("where", "").lower().split()
    places = [loc for loc, _ in rules.locations] + (["palace"] if PALACE in state.expansions
                                                    else [])
    if len(words) != 2 or words[0] not in WORKERS or words[1] not in places:
        raise InputError(f"place names a Worker ({', '.join(WORKERS)}) and a location "
                         f"({', '.join(places)}): 'spy sacred-tree'")
    return words[0], words[1]


def _open_spaces(state: State, rules: Rules) -> int:
    n = len(state.players)
    return sum(1 for pips in rules.worker_space_pips if n >= rules.pips_open[pips])


def _check_place(state: State, p: Player, worker: str, location: str, rules: Rules) -> None:
    if any(w == worker for w, _ in p.placed):
        raise RuleError(f"{p.name}'s {worker} has been placed this round already (each "
                        "Worker is placed once a round)")
    taken = sum(1 for o in state.players for _, loc in o.placed if loc == location)
    most = _open_spaces(state, rules) if location != "palace" else 4 * len(state.players)
    if taken >= most:
        raise RuleError(f"the {location} has {most} Worker space{'s' if most > 1 else ''} "
                        f"open with {len(state.players)} players, all taken this round")


def _abilities(state: State, p: Player, worker: str, location: str, move: Move,
               rules: Rules) -> tuple[dict[str, Any], list[str]]:
    """People Card Abilities a placement calls: what they give, and the lines saying so."""
    given = move.answers
    out: dict[str, Any] = {}
    lines = []
    guides = p.people.count(f"{GUIDE}{location}")
    if guides and location != "palace":
        out["shards"] = 2 * guides
        lines.append(f"  the Guide: +{2 * guides} Shard Fragments")
    track = given.get("track", "").strip().lower()
    if CLOCKMAKER in p.people and location == "clockwork-city":
        if track not in ELEMENTS:
            raise InputError("the Clockmaker moves 1 space on any Element track: --track "
                             f"TYPE ({', '.join(ELEMENTS)})")
        out["moves"] = {track: 1}
        lines.append(f"  the Clockmaker: {moved_tracks(p, {track: 1}, rules)}")
    elif track:
        raise RuleError(f"--track is the Clockmaker's, at the Clockwork City: {p.name} "
                        + ("is at the " + location if CLOCKMAKER in p.people
                           else "has not taken it"))
    drawn = given.get("drawn", "").strip()
    if DIVER in p.people and location == "nautical-city" and p.storage is not None:
        if not drawn:
            raise InputError("the Diver gains 1 Element at random from the supply: --drawn "
                             "'COLOUR TYPE' (the one drawn)")
        label = parse(drawn, rules)
        from_supply(state, label)
        out.update(element=label, to="storage")
        lines.append(f"  the Diver: a {label} into storage")
    elif drawn:
        raise RuleError(f"--drawn is the Diver's, at the Nautical City: {p.name} "
                        + ("is at the " + location if DIVER in p.people else "has not taken it"))
    if QUARTERMASTER in p.people and worker == "engineer":
        lines.append("  the Quartermaster: draw 1 Storage tile at random and place it "
                     f"('storage {p.name} SQ,SQ --tile ID', paying both squares)")
    if SMUGGLER in p.people and worker == "thug":
        lines.append("  the Smuggler: the Thug's Elements may come from any location")
    return out, lines


def place_move(state: State, move: Move, p: Player) -> Outcome[State]:
    """Place Workers: "take one of your Workers from your Airship board and place them on the
    highest available space at your chosen location"; with The Plight of the People, the
    People cards' abilities that a visit or a Worker calls."""
    rules = _rules()
    worker, location = _where(state, move, rules)
    _check_place(state, p, worker, location, rules)
    gained, lines = _abilities(state, p, worker, location, move, rules) \
        if PLIGHT in state.expansions else ({}, [])
    data = {"player": p.name, "worker": worker, "location": location, **gained}
    name = dict(rules.locations).get(location, "Palace")
    return _outcome(state, "place", data,
                    (f"{p.name} places the {worker.capitalize()} at the {name}.", *lines))


# -- End of Round from what the saved game kept -------------------------------------------------

def kept_round(state: State, rules: Rules) -> list[Any]:
    """End of Round's players as the saved game kept them (Installed Elements, Element
    Tracks; the Hoarder's card): nothing typed."""
    from companion.mutagen.airship import filled_columns
    from companion.mutagen.rules import PlayerRound, Tracks

    out = []
    for p in state.players:
        kept(p)
        if p.tracks is None:
            raise RuleError(f"the saved game does not keep {p.name}'s Element trackers: "
                            "give the End of Round a FILE")
        out.append(PlayerRound(p.name, len(p.installed),
                               filled_columns(kept_airship(p), rules), Tracks(*p.tracks),
                               len(p.card)))
    return out


def check_round_file(state: State, players: Sequence[Any], rules: Rules) -> None:
    """A round FILE in a game that keeps the Elements and the trackers must say what the
    saved game kept: a count that differs is an entry the table missed (or a wrong one)."""
    mine = {r.name: r for r in kept_round(state, rules)} \
        if all(p.storage is not None and p.tracks is not None for p in state.players) else {}
    for given in players:
        own = mine.get(given.name)
        if own is None:
            continue
        for what, a, b in (("Elements installed", own.installed, given.installed),
                           ("filled Storage columns", own.filled_columns,
                            given.filled_columns),
                           ("Element trackers", tuple(own.tracks), tuple(given.tracks)),
                           ("Elements on the Hoarder's card", own.card_elements,
                            given.card_elements)):
            if a != b:
                raise RuleError(f"the saved game keeps {given.name}'s {what} ({_shown(a)}), "
                                f"the file says {_shown(b)}: leave the FILE out ('irata play "
                                "mutagen round --save' scores what the saved game kept)")


def _shown(value: Any) -> str:
    if isinstance(value, tuple) and len(value) == len(ELEMENTS):
        return ", ".join(f"{e} {v}" for e, v in zip(ELEMENTS, value, strict=True))
    if isinstance(value, tuple):
        return ", ".join("left middle right".split()[c] for c in value) or "none"
    return str(value)


def check_all_placed(state: State) -> None:
    """Place Workers: "Once all players have placed all of their workers, proceed to end of
    round". Checked once the round's Workers are typed (any ``place`` this round): a Worker
    not typed is an entry the table missed."""
    if not any(p.placed for p in state.players):
        return
    for p in state.players:
        missing = [w for w in WORKERS if w not in {w for w, _ in p.placed}]
        if missing:
            raise RuleError(f"End of Round comes once all players have placed all of their "
                            f"Workers: {p.name}'s {', '.join(missing)} "
                            f"{'is' if len(missing) == 1 else 'are'} not placed this round")
