"""Mutagen's scoring rules as pure functions over small frozen values.

Every number (crew card points, track points, column points, costs) comes from the game's
definitions (``components/mutagen/game.yaml``, ``data:``), read once into a ``Rules`` value:
an erratum to the YAML changes the printed cards and this arithmetic together.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

# the expansions' names are the state's (light to import), given here too
from companion.mutagen.state import EXPANSIONS as EXPANSIONS
from companion.mutagen.state import PALACE as PALACE
from companion.mutagen.state import PLIGHT as PLIGHT
from companion.record import NamedTuple
from components.errors import InputError, RuleError


class CrewKind(NamedTuple):
    """One row of the rulebook's Crew Cards table: its cost and how it scores."""

    name: str
    cost: int
    points: tuple[int, ...] = ()   # by track position 0..7 (track, ladder, peak)
    flat: int = 0                  # a fixed award (higher, highest)
    per_step: int = 0              # per step of the lowest track counted (pair, all)


class Rules(NamedTuple):
    """The rule data of ``components/mutagen/game.yaml``, as plain immutable values."""

    elements: tuple[str, ...]
    colours: tuple[str, ...]
    tree_colours: tuple[str, ...]
    track_length: int
    track_round_points: tuple[int, ...]
    crew_kinds: Mapping[str, CrewKind]
    storage_point: int
    shards_per_point: int
    tree_pair: int
    tree_single: int
    installed_element: int
    column_points: tuple[int, ...]
    worker_space_pips: tuple[int, ...]
    pips_open: Mapping[int, int]
    starting_shards: int
    starting_score: int
    plight_starting_score: int
    supreme_cost_shards: tuple[int, ...]
    ability_cost_points: tuple[int, ...]
    card_shards_per_element: int
    palace_move_costs: tuple[int, ...]
    progress_spaces: int
    progress_moves: Mapping[int, int]
    progress_bonus_spaces: tuple[int, ...]
    progress_points_spaces: Mapping[int, int]
    locations: tuple[tuple[str, str], ...]        # (id, name), board order
    airship: Mapping[str, Any] = {}   # never changed: a shared empty default is safe
    rounds: int = 4
    progress_free: int = 2   # spaces of a Progress move that costs nothing


def rules_from_data(data: Mapping[str, Any]) -> Rules:
    """Build ``Rules`` from a game's ``data:`` mapping (as ``components.load`` returns it)."""
    from components.yamlloc import plain

    kinds: dict[str, CrewKind] = {}
    for name, row in data["crew_kinds"].items():
        pts = row.get("points", 0)
        kinds[name] = CrewKind(
            name=name, cost=int(row["cost"]),
            points=tuple(int(p) for p in pts) if isinstance(pts, list) else (),
            flat=int(pts) if not isinstance(pts, list) else 0,
            per_step=int(row.get("per_step", 0)))
    eog, eor = data["end_of_game"], data["end_of_round"]
    plight = data["expansions"][PLIGHT]
    palace = data["expansions"][PALACE]
    prog = data["progress_track"]
    return Rules(
        elements=tuple(data["elements"]), colours=tuple(data["colours"]),
        tree_colours=tuple(data["tree_colours"]),
        track_length=int(data["track"]["length"]),
        track_round_points=tuple(int(p) for p in data["track"]["round_points"]),
        crew_kinds=kinds,
        storage_point=int(eog["storage_point"]), shards_per_point=int(eog["shards_per_point"]),
        tree_pair=int(eog["tree_pair"]), tree_single=int(eog["tree_single"]),
        installed_element=int(eor["installed_element"]),
        column_points=tuple(int(p) for p in eor["column_points"]),
        worker_space_pips=tuple(int(p) for p in data["worker_space_pips"]),
        pips_open={int(k): int(v) for k, v in data["pips_open"].items()},
        starting_shards=int(data["setup"]["starting_shards"]),
        starting_score=int(data["setup"]["starting_score"]),
        plight_starting_score=int(plight["starting_score"]),
        supreme_cost_shards=tuple(int(c) for c in plight["supreme_cost_shards"]),
        ability_cost_points=tuple(int(c) for c in plight["ability_cost_points"]),
        card_shards_per_element=int(plight["card_shards_per_element"]),
        palace_move_costs=tuple(int(c) for c in palace["move_costs"]),
        progress_spaces=int(prog["spaces"]),
        progress_moves={int(k): int(v) for k, v in prog["moves"].items()},
        progress_bonus_spaces=tuple(int(s) for s in prog["bonus_spaces"]),
        progress_points_spaces={int(k): int(v) for k, v in prog["points_spaces"].items()},
        progress_free=int(prog.get("free_move", 2)),
        locations=tuple((str(loc["id"]), str(loc["name"])) for loc in data["locations"]),
        airship=plain(data["airship"]), rounds=int(data.get("rounds", 4)))


# --- values -----------------------------------------------------------------------------------

class Tracks(NamedTuple):
    """A player's four Element tracker positions (0 to 7)."""

    crystal: int = 0
    gas: int = 0
    liquid: int = 0
    ore: int = 0

    def of(self, element: str) -> int:
        if element not in ("crystal", "gas", "liquid", "ore"):
            raise InputError(f"no Element track '{element}' (crystal, gas, liquid or ore)")
        return int(getattr(self, element))

    def lowest(self) -> int:
        return min(self.crystal, self.gas, self.liquid, self.ore)

    def as_dict(self) -> dict[str, int]:
        return {"crystal": self.crystal, "gas": self.gas, "liquid": self.liquid, "ore": self.ore}


class Crew(NamedTuple):
    """A Crew card: its kind (a row of the Crew Cards table) and the Elements it shows."""

    kind: str
    element: str | None = None     # track, highest, ladder, peak
    left: str | None = None        # higher, pair
    right: str | None = None       # higher, pair
    id: str | None = None          # the card's id in the definitions, when known

    def label(self) -> str:
        if self.kind in ("higher", "pair"):
            return f"{self.kind} {self.left}/{self.right}"
        if self.element:
            return f"{self.kind} {self.element}"
        return self.kind


def check_crew(crew: Crew, rules: Rules) -> Crew:
    """A Crew card must name the Elements its kind shows, and only those."""
    if crew.kind not in rules.crew_kinds:
        raise InputError(f"unknown Crew card kind '{crew.kind}' "
                         f"(expected one of: {', '.join(rules.crew_kinds)})")
    need_one = crew.kind in ("track", "highest", "ladder", "peak")
    need_two = crew.kind in ("higher", "pair")
    for name in ("element", "left", "right"):
        value = getattr(crew, name)
        wanted = (name == "element" and need_one) or (name != "element" and need_two)
        if wanted and value is None:
            raise InputError(f"a '{crew.kind}' Crew card needs '{name}' (an Element type)")
        if not wanted and value is not None:
            raise InputError(f"a '{crew.kind}' Crew card takes no '{name}'")
        if value is not None and value not in rules.elements:
            raise InputError(f"no Element '{value}' (expected one of: "
                             f"{', '.join(rules.elements)})")
    if need_two and crew.left == crew.right:
        raise InputError(f"a '{crew.kind}' Crew card shows two different Elements")
    return crew


# --- End of Game Scoring ----------------------------------------------------------------------

def crew_points(crew: Crew, tracks: Tracks, rules: Rules,
                others: Sequence[Tracks] = ()) -> int:
    """Crew Cards (End of Game Scoring, Completing Crew Cards): one card's points.

    ``others`` are the other players' tracks, which the 'highest' card compares with; ties
    count as highest, so a lone player (or a tie at any position) scores it.
    """
    check_crew(crew, rules)
    kind = rules.crew_kinds[crew.kind]
    if crew.kind in ("track", "ladder", "peak"):
        assert crew.element is not None
        return kind.points[_position(tracks.of(crew.element), rules)]
    if crew.kind == "higher":
        assert crew.left is not None and crew.right is not None
        return kind.flat if tracks.of(crew.left) > tracks.of(crew.right) else 0
    if crew.kind == "highest":
        assert crew.element is not None
        mine = tracks.of(crew.element)
        return kind.flat if all(mine >= o.of(crew.element) for o in others) else 0
    if crew.kind == "pair":
        assert crew.left is not None and crew.right is not None
        return kind.per_step * min(tracks.of(crew.left), tracks.of(crew.right))
    return kind.per_step * tracks.lowest()   # all


def _position(pos: int, rules: Rules) -> int:
    if not 0 <= pos <= rules.track_length:
        raise RuleError(f"an Element tracker sits on 0 to {rules.track_length}, not {pos}")
    return pos


def storage_points(elements: int, rules: Rules) -> int:
    """Elements and Tokens: 1 point per Element left in storage."""
    if elements < 0:
        raise InputError("Elements in storage cannot be negative")
    return elements * rules.storage_point


def shard_points(shards: int, rules: Rules) -> tuple[int, int]:
    """Elements and Tokens: discard 3 Shard Fragments per point, as often as possible.

    Returns (points, Shard Fragment tokens remaining).
    """
    if shards < 0:
        raise InputError("Shard Fragment tokens cannot be negative")
    return divmod(shards, rules.shards_per_point)


def tree_points(trees: Sequence[str], rules: Rules) -> int:
    """Tree Cards: each matching coloured pair scores 3, each remaining card 1."""
    for colour in trees:
        if colour not in rules.tree_colours:
            raise InputError(f"no Tree card colour '{colour}' (expected one of: "
                             f"{', '.join(rules.tree_colours)})")
    counts = Counter(trees)
    return sum((n // 2) * rules.tree_pair + (n % 2) * rules.tree_single
               for n in counts.values())


class PlayerEnd(NamedTuple):
    """A player as End of Game Scoring finds them."""

    name: str
    score: int
    tracks: Tracks
    crew: tuple[Crew, ...] = ()
    storage: int = 0
    shards: int = 0
    trees: tuple[str, ...] = ()
    tracks_given: bool = True      # False: the file left 'tracks' out (a saved game fills them)


class CrewScore(NamedTuple):
    crew: Crew
    points: int


class Breakdown(NamedTuple):
    """One player's End of Game Scoring, part by part."""

    name: str
    score: int
    crew: tuple[CrewScore, ...]
    storage: int
    shards: int
    trees: int
    total: int
    shards_left: int

    @property
    def crew_total(self) -> int:
        return sum(c.points for c in self.crew)


class FinalScore(NamedTuple):
    players: tuple[Breakdown, ...]
    winners: tuple[str, ...]
    tie_broken: bool     # the most points were tied and remaining Shard Fragments decided


def score_player(player: PlayerEnd, rules: Rules, others: Sequence[Tracks] = ()) -> Breakdown:
    """End of Game Scoring for one player: Crew cards, storage, Shard Fragments, Tree cards."""
    crew = tuple(CrewScore(c, crew_points(c, player.tracks, rules, others)) for c in player.crew)
    storage = storage_points(player.storage, rules)
    shards, left = shard_points(player.shards, rules)
    trees = tree_points(player.trees, rules)
    total = player.score + sum(c.points for c in crew) + storage + shards + trees
    return Breakdown(player.name, player.score, crew, storage, shards, trees, total, left)


def _highest_of_others(players: Sequence[PlayerEnd]) -> Callable[[Tracks], list[Tracks]]:
    """For each player, the others' highest position on each track as one Tracks (none when
    playing solo). "highest" compares with it alone, so scoring is linear in the players."""
    tops: dict[str, tuple[int, int, int]] = {}
    for e in ("crystal", "gas", "liquid", "ore"):
        values = sorted((p.tracks.of(e) for p in players), reverse=True) + [0]
        tops[e] = (values[0], values.count(values[0]), values[1])

    def others(mine: Tracks) -> list[Tracks]:
        if len(players) < 2:
            return []
        return [Tracks(**{e: top if mine.of(e) < top or n_top > 1 else second
                          for e, (top, n_top, second) in tops.items()})]

    return others


def check_cards_held(players: Sequence[PlayerEnd],
                     crew_copies: Mapping[tuple[str, str | None, str | None, str | None], int],
                     tree_copies: Mapping[str, int],
                     label: Callable[[Crew], str] = Crew.label) -> None:
    """Completing Crew Cards and Tree Cards: the players together hold no more of a card than
    the game has printed (each Crew card is one of a kind; a Tree card colour has its ten).

    A card listed twice would be scored twice: the table's slip the companion refuses."""
    def key(c: Crew) -> tuple[str, str | None, str | None, str | None]:
        if c.kind == "pair":     # scored by the lower of the two tracks: either order
            return next((k for k in crew_copies if k[0] == "pair" and {k[2], k[3]}
                         == {c.left, c.right}), (c.kind, c.element, c.left, c.right))
        return (c.kind, c.element, c.left, c.right)

    crew_held: Counter[tuple[str, str | None, str | None, str | None]] = Counter()
    trees_held: Counter[str] = Counter()
    for p in players:
        crew_held.update(key(c) for c in p.crew)
        trees_held.update(p.trees)
    for k, n in crew_held.items():
        have = crew_copies.get(k, 0)
        if n > have:
            holders = [(p.name, c) for p in players for c in p.crew if key(c) == k]
            who = ", ".join(dict.fromkeys(name for name, _ in holders))
            if not have:
                raise RuleError(f"{who}: the game has no Crew card "
                                f"'{label(holders[0][1])}'")
            raise RuleError(f"the Crew card '{label(holders[0][1])}' is listed {n} times "
                            f"({who}), but the game has only {have}")
    for colour, n in trees_held.items():
        have = tree_copies.get(colour, 0)
        if n > have:
            raise RuleError(f"{n} {colour} Tree cards are listed, but the game has only "
                            f"{have}")


def end_of_game(players: Sequence[PlayerEnd], rules: Rules) -> FinalScore:
    """End of Game Scoring for everyone, and the winner.

    The tie-break, "the player with the most remaining Shard Fragment tokens wins", is read
    literally: the tokens remaining are those left after discarding 3 per point (0, 1 or 2).
    If that ties too, the rulebook breaks no further and the tied players share the win.
    """
    if not players:
        raise InputError("no players to score")
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise InputError("two players have the same name")
    others = _highest_of_others(players)
    out = [score_player(p, rules, others(p.tracks)) for p in players]
    best = max(b.total for b in out)
    top = [b for b in out if b.total == best]
    tie_broken = len(top) > 1
    if tie_broken:
        most = max(b.shards_left for b in top)
        top = [b for b in top if b.shards_left == most]
    return FinalScore(tuple(out), tuple(b.name for b in top), tie_broken)


# --- End of Round -----------------------------------------------------------------------------

def track_round_points(position: int, rules: Rules) -> int:
    """End of Round, Element Tracks: 0 at 0, 2 at 1, 3 at 2-3, 4 at 4-7."""
    return rules.track_round_points[_position(position, rules)]


class PlayerRound(NamedTuple):
    """A player at the End of Round: what their Airship holds and where their trackers are."""

    name: str
    installed: int
    filled_columns: tuple[int, ...]    # 0 left, 1 middle, 2 right
    tracks: Tracks
    card_elements: int = 0             # Plight of the People: Elements kept on that People card


class RoundScore(NamedTuple):
    name: str
    installed: int
    columns: int
    tracks: Mapping[str, int]
    total: int
    shards: int = 0                    # Shard Fragments gained (Plight of the People)


def _filled(cols: set[int] | Sequence[int]) -> str:
    n = len(set(cols))
    return "no filled Storage column" if n == 0 else \
        f"{n} filled Storage column{'s' if n > 1 else ''}"


def installation_capacity(filled: set[int] | Sequence[int], rules: Rules) -> int:
    """The most Elements an Airship can hold installed, given its filled Storage columns.

    Storing or Installing Elements: an Element is installed on a hull space (two from the
    start) or on a storage square a Storage tile covers. A filled column has all its squares
    covered; any other column lacks at least one. (The storage area's size is the project's
    reconstruction, ``data.airship``.)
    """
    rows = int(rules.airship["rows"])
    filled_set = set(filled)
    return len(rules.airship["hull"]) + sum(
        rows if c in filled_set else rows - 1 for c in range(len(rules.airship["columns"])))


def end_of_round(player: PlayerRound, rules: Rules) -> RoundScore:
    """End of Round: 2 per installed Element, 1/2/3 per filled Storage column, the tracks.

    With Plight of the People, the People card that keeps Elements gives 2 Shard Fragments
    for each Element on it.
    """
    if player.installed < 0 or player.card_elements < 0:
        raise InputError("counts of Elements cannot be negative")
    cols = set(player.filled_columns)
    for c in cols:
        if not 0 <= c < len(rules.column_points):
            raise InputError(f"no Storage column {c + 1} (the Airship has "
                             f"{len(rules.column_points)})")
    most = installation_capacity(cols, rules)
    if player.installed > most:
        raise RuleError(f"{player.name} cannot have {player.installed} Elements installed: "
                        f"an Airship with {_filled(cols)} has at most {most} installation "
                        "spaces (the two hull spaces and the storage squares Storage tiles "
                        "cover)")
    installed = player.installed * rules.installed_element
    columns = sum(rules.column_points[c] for c in cols)
    tracks = {e: track_round_points(player.tracks.of(e), rules) for e in rules.elements}
    return RoundScore(player.name, installed, columns, tracks,
                      installed + columns + sum(tracks.values()),
                      player.card_elements * rules.card_shards_per_element)


# --- Setup and the expansions -----------------------------------------------------------------

class WorkerSpace(NamedTuple):
    position: int        # 1 at the top
    pips: int
    open: bool


class Setup(NamedTuple):
    players: int
    spaces: tuple[WorkerSpace, ...]     # the same four at every location
    mutation_cards: int
    people_cards: int                   # 0 without Plight of the People
    starting_shards: int
    starting_score: int
    expansions: tuple[str, ...]


def check_expansions(expansions: Sequence[str]) -> tuple[str, ...]:
    for e in expansions:
        if e not in EXPANSIONS:
            raise InputError(f"unknown expansion '{e}' (expected: {', '.join(EXPANSIONS)})")
    return tuple(dict.fromkeys(expansions))


def starting_score(rules: Rules, expansions: Sequence[str] = ()) -> int:
    """Player Setup B: the score tracker starts on 0 (on 5 with Plight of the People)."""
    return rules.plight_starting_score if PLIGHT in expansions else rules.starting_score


def setup(players: int, rules: Rules, expansions: Sequence[str] = ()) -> Setup:
    """Game Setup and Available spaces: open Worker spaces and the cards to deal each round.

    A space with one pip is open at any count, two pips from three players, three pips with
    four. The display holds one Mutation card more than there are players (and as many People
    cards with Plight of the People).
    """
    if not 1 <= players <= 4:
        raise RuleError(f"Mutagen is played by 1 to 4 players, not {players}")
    exp = check_expansions(expansions)
    spaces = tuple(WorkerSpace(i + 1, pips, players >= rules.pips_open[pips])
                   for i, pips in enumerate(rules.worker_space_pips))
    return Setup(players, spaces, players + 1, players + 1 if PLIGHT in exp else 0,
                 rules.starting_shards, starting_score(rules, exp), exp)


def people_card_cost(round_no: int, benefit: str, rules: Rules) -> tuple[int, int]:
    """Plight of the People, Gameplay Changes: (Shard Fragments, points) a People card costs.

    ``benefit`` is ``supreme`` (a Supreme Element token, paid in Shard Fragments 0/1/2/3 by
    round) or ``ability`` (the card's ability, paid in points 3/2/1/0 by round).
    """
    if not 1 <= round_no <= rules.rounds:
        raise RuleError(f"Mutagen has rounds 1 to {rules.rounds}, not {round_no}")
    if benefit == "supreme":
        return rules.supreme_cost_shards[round_no - 1], 0
    if benefit == "ability":
        return 0, rules.ability_cost_points[round_no - 1]
    raise InputError(f"a People card gives 'supreme' or 'ability', not '{benefit}'")


def spy_discard_points(crew: Crew, rules: Rules) -> int:
    """Plight of the People, the Spy's People card: double the discarded Crew card's cost."""
    return 2 * rules.crew_kinds[check_crew(crew, rules).kind].cost


def palace_move_cost(order: int, rules: Rules) -> int:
    """The Palace Visitors: Shard Fragments to move the ``order``-th Worker placed there."""
    if order < 1:
        raise InputError("Workers at the Palace are counted from 1")
    costs = rules.palace_move_costs
    return costs[order - 1] if order <= len(costs) else 0


class ProgressMove(NamedTuple):
    start: int
    end: int
    bonuses: tuple[int, ...]     # the Bonus token spaces landed on or passed, in order
    points: int


def advance_progress(start: int, spaces: int, rules: Rules) -> ProgressMove:
    """Progress Track Location: move, resolving each Bonus space and points space reached.

    The tracker stops on the last space; spaces beyond it are lost.
    """
    if not 0 <= start <= rules.progress_spaces:
        raise RuleError(f"the progress track runs 0 to {rules.progress_spaces}, not {start}")
    if spaces < 0:
        raise InputError("the Progress tracker moves forward only")
    end = min(start + spaces, rules.progress_spaces)
    passed = range(start + 1, end + 1)
    bonuses = tuple(s for s in passed if s in rules.progress_bonus_spaces)
    points = sum(rules.progress_points_spaces.get(s, 0) for s in passed)
    return ProgressMove(start, end, bonuses, points)
