"""Das Störrische Muli: the race's rules as pure functions, and its saved-game fold.

Sections named in the docstrings are the rulebook's (``das-stoerrische-muli.txt``): Game
Preparations, Game Play, The Turning Field, Finish, Game End and Winners. The colours, which
colours the Mules and Human Mule Runners come in, and the track's length are read from
``components/muli/game.yaml`` (``data.race``), the same file the printed board is drawn from.

Fields are numbered from the start (0, the signpost, which is also the finish line) to the
turning field. Before the turn "forward" means up the track; after it, down towards the finish.
A piece still standing on the start field when everyone turns around crosses the finish line
with its next move forward (the rulebook does not say; this is the project's reading, printed on
the rules sheet).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.suggest import did_you_mean
from components.errors import InputError, RuleError

MULE = "mule"
RUNNER = "runner"

# where a piece is
TRACK = "track"
CITY = "city"      # the first Mule home
OUT = "out"        # a later Mule home (back in the box), or a runner that left the track

# how a race ended (Game End and Winners)
LAST_MULE = "last-mule"    # a single Mule is left on the track: its owner wins
FIRST_MULE = "first-mule"  # only Human Mule Runners are left: the first Mule home wins


@dataclass(frozen=True)
class RaceRules:
    """The numbers of the printed copy: colours, which pieces exist, the turning field."""

    colours: tuple[str, ...]
    mule_colours: tuple[str, ...]
    runner_colours: tuple[str, ...]
    turning_field: int


@dataclass(frozen=True)
class Piece:
    """A Mule or a Human Mule Runner: its colour, owner (Mules only), field and whereabouts."""

    colour: str
    kind: str
    owner: str | None
    field: int = 0
    where: str = TRACK


@dataclass(frozen=True)
class Race:
    """The whole table: players in turn order, the six pieces, the dice lying on the table."""

    rules: RaceRules
    players: tuple[str, ...]
    pieces: tuple[Piece, ...]
    turned: bool = False
    finished: tuple[str, ...] = ()          # colours in the order they crossed the finish line
    active: str = ""                        # the player whose turn it is
    dice: tuple[str, str] | None = None     # what the dice show (the last roll)
    winner: str | None = None
    end: str | None = None
    rolls: int = 0

    def piece(self, colour: str) -> Piece:
        for p in self.pieces:
            if p.colour == colour:
                return p
        raise InputError(f"no piece of colour '{colour}' in this race "
                         f"(colours: {', '.join(p.colour for p in self.pieces)})")

    def on_track(self) -> list[Piece]:
        return [p for p in self.pieces if p.where == TRACK]

    @property
    def over(self) -> bool:
        return self.winner is not None


@dataclass(frozen=True)
class Step:
    """One piece's move in a roll, in words a player reads aloud."""

    colour: str
    kind: str
    before: int
    after: int
    note: str = ""


@dataclass(frozen=True)
class RollResult:
    race: Race
    dice: tuple[str, str]
    steps: tuple[Step, ...]
    turned: bool            # this roll turned everyone around
    ended: bool             # this roll ended the race


def rules_from_data(data: dict[str, Any]) -> RaceRules:
    """The race's numbers from a game's ``data.race`` mapping (game.yaml)."""
    race = data["race"]
    return RaceRules(colours=tuple(race["colours"]), mule_colours=tuple(race["mules"]),
                     runner_colours=tuple(race["runners"]),
                     turning_field=int(race["turning_field"]))


def _colour(rules: RaceRules, name: str) -> str:
    colour = name.strip().lower()
    if colour not in rules.colours:
        raise InputError(f"unknown colour '{name}' (the dice's colours: "
                         f"{', '.join(rules.colours)}){did_you_mean(name, rules.colours)}")
    return colour


def default_mules(rules: RaceRules, players: int) -> tuple[str, ...]:
    """Mule colours for ``players`` players that let the runners make up all six colours.

    Game Preparations: the Human Mule Runners in play must bring the colours the chosen Mules
    lack; the Mules are taken in their listed order, skipping those whose colour would
    otherwise be missing from the runners' colours.
    """
    mules = [c for c in rules.mule_colours if c not in rules.runner_colours]
    mules += [c for c in rules.mule_colours if c in rules.runner_colours]
    return tuple(mules[:players])


def setup(rules: RaceRules, players: Sequence[str], mules: Sequence[str] | None = None) -> Race:
    """Game Preparations: each player's Mule, then runners until six pieces show six colours.

    Every piece stands on the start field (the signpost). The first player named is the
    youngest and begins.
    """
    names = [p.strip() for p in players]
    if len(names) != len(set(names)) or any(not n for n in names):
        raise InputError("player names must be different and not empty")
    if not 3 <= len(names) <= len(rules.mule_colours):
        raise InputError(f"Das Störrische Muli is for 3 to {len(rules.mule_colours)} players, "
                         f"not {len(names)}")
    chosen = (tuple(_colour(rules, m) for m in mules) if mules
              else default_mules(rules, len(names)))
    if len(chosen) != len(names):
        raise InputError(f"{len(names)} players need {len(names)} Mule colours, "
                         f"not {len(chosen)}")
    if len(set(chosen)) != len(chosen):
        raise InputError("each player needs a Mule of a different colour")
    for c in chosen:
        if c not in rules.mule_colours:
            raise InputError(f"there is no {c} Mule (Mules: {', '.join(rules.mule_colours)})")
    missing = [c for c in rules.colours if c not in chosen]
    lacking = [c for c in missing if c not in rules.runner_colours]
    if lacking:
        only_mules = ", ".join(c for c in rules.mule_colours if c not in rules.runner_colours)
        raise RuleError(f"no Human Mule Runner is {', '.join(lacking)}, so these Mules cannot "
                        f"make all six colours; with {len(names)} players choose Mules from "
                        f"{only_mules} first")
    pieces = [Piece(c, MULE, owner) for c, owner in zip(chosen, names, strict=True)]
    pieces += [Piece(c, RUNNER, None) for c in missing]
    order = {c: i for i, c in enumerate(rules.colours)}
    pieces.sort(key=lambda p: order[p.colour])
    return Race(rules=rules, players=tuple(names), pieces=tuple(pieces), active=names[0])


def may_play(race: Race, player: str) -> bool:
    """Finish: who still takes turns.

    A player whose Mule is on the track plays. The owner of the first Mule home (in the city)
    plays on while at least one Human Mule Runner is still in the race; owners of later Mules
    home are out.
    """
    mule = next(p for p in race.pieces if p.owner == player)
    if mule.where == TRACK:
        return True
    if mule.where == CITY:
        return any(p.kind == RUNNER and p.where == TRACK for p in race.pieces)
    return False


def next_player(race: Race, after: str) -> str:
    """Game Play: the next player in clockwise order who still takes turns."""
    i = race.players.index(after)
    n = len(race.players)
    for k in range(1, n + 1):
        candidate = race.players[(i + k) % n]
        if may_play(race, candidate):
            return candidate
    return after


def check_keep(race: Race, colour: str) -> str:
    """Game Play: a player may leave one die as it lies and roll only the other.

    The kept die must be one of the two lying on the table, and may not show the colour of a
    piece that has already reached the finish line.
    """
    colour = _colour(race.rules, colour)
    if race.dice is None:
        raise RuleError("the dice have not been rolled yet: there is no die to keep")
    if colour not in race.dice:
        raise RuleError(f"the dice show {race.dice[0]} and {race.dice[1]}, not {colour}: "
                        "only a die lying on the table can be kept")
    if race.piece(colour).where != TRACK:
        raise RuleError(f"the {colour} piece has reached the finish line: its die cannot be "
                        "kept, roll both dice")
    return colour


def roll_dice(race: Race, rng: random.Random, keep: str | None = None) -> tuple[str, str]:
    """Game Play: roll both colour dice, or keep one (``check_keep``) and roll the other."""
    colours = race.rules.colours
    if keep is not None:
        kept = check_keep(race, keep)
        return (kept, rng.choice(colours))
    return (rng.choice(colours), rng.choice(colours))


def _forward(race: Race, piece: Piece) -> int:
    return piece.field - 1 if race.turned else piece.field + 1


def _backward(race: Race, piece: Piece) -> int:
    """A double moves a piece one field back: never behind the start, nor, once everyone has
    turned, behind the turning field."""
    if race.turned:
        return min(race.rules.turning_field, piece.field + 1)
    return max(0, piece.field - 1)


def _with_piece(race: Race, new: Piece) -> Race:
    return replace(race, pieces=tuple(new if p.colour == new.colour else p
                                      for p in race.pieces))


def game_end(race: Race) -> Race:
    """Game End and Winners.

    The race ends when a single piece is left on the track: if it is a Mule, its owner wins.
    It also ends as soon as only Human Mule Runners are left (no Mule on the track): then the
    owner of the Mule that crossed the finish line first wins.
    """
    left = race.on_track()
    mules = [p for p in left if p.kind == MULE]
    if len(left) == 1 and mules:
        return replace(race, winner=mules[0].owner, end=LAST_MULE)
    if not mules:
        first = next((race.piece(c) for c in race.finished if race.piece(c).kind == MULE), None)
        if first is not None:
            return replace(race, winner=first.owner, end=FIRST_MULE)
    return race


def _cross_finish(race: Race, piece: Piece) -> tuple[Race, str]:
    """Finish: the first Mule home goes to the city; later Mules and runners leave the race."""
    first_mule = not any(race.piece(c).kind == MULE for c in race.finished)
    if piece.kind == MULE and first_mule:
        where, note = CITY, "crosses the finish line first: it goes to the city"
    elif piece.kind == MULE:
        where, note = OUT, f"crosses the finish line: it and {piece.owner} are out of the game"
    else:
        where, note = OUT, "crosses the finish line and leaves the track"
    race = _with_piece(race, replace(piece, field=0, where=where))
    return replace(race, finished=race.finished + (piece.colour,)), note


def _double(race: Race, colour: str) -> tuple[Race, Step]:
    """Two of a colour: that piece moves one field back (a finished piece moves nothing)."""
    piece = race.piece(colour)
    if piece.where != TRACK:
        return race, Step(colour, piece.kind, piece.field, piece.field,
                          "a double of a piece that has finished: nothing moves")
    after = _backward(race, piece)
    note = "a double: one field back" if after != piece.field else \
        "a double, but it cannot go further back"
    race = _with_piece(race, replace(piece, field=after))
    return race, Step(colour, piece.kind, piece.field, after, note)


def _move_order(race: Race, a: str, b: str, first: str | None) -> list[str]:
    """Two colours move in the order the roller chooses (``first``; by default the first
    die's)."""
    if first is None:
        return [a, b]
    first = _colour(race.rules, first)
    if first not in (a, b):
        raise InputError(f"--first must be one of the dice's colours ({a}, {b})")
    return [first, a if first == b else b]


def _forward_move(race: Race, colour: str) -> tuple[Race, Step]:
    """One piece of two colours moves one field forward (a finished piece moves nothing)."""
    piece = race.piece(colour)
    if piece.where != TRACK:
        return race, Step(colour, piece.kind, piece.field, piece.field,
                          "has finished: nothing moves")
    after = _forward(race, piece)
    note = ""
    # a piece still on the start field when everyone turned is already at the finish
    # line: its next move forward takes it across (the project's reading)
    if race.turned and after <= 0:
        race, note = _cross_finish(race, piece)
        race = game_end(race)
    else:
        race = _with_piece(race, replace(piece, field=after))
        if not race.turned and after == race.rules.turning_field:
            note = "reaches the turning field"
    return race, Step(colour, piece.kind, piece.field, max(after, 0), note)


def play_roll(race: Race, dice: tuple[str, str], first: str | None = None) -> RollResult:
    """Game Play and The Turning Field: move the pieces two dice show.

    Two colours: both pieces move one field forward, in the order the roller chooses
    (``first``; by default the first die's). Two of a colour: that piece moves one field
    back. A die whose piece has left the track moves nothing. Once a piece reaches the
    turning field, after both moves, every piece turns around. The race ends the moment a
    move leaves it decided (``game_end``); any move after that is not made.
    """
    if race.over:
        raise RuleError(f"the race is over: {race.winner} has won")
    a, b = (_colour(race.rules, d) for d in dice)
    steps: list[Step] = []
    if a == b and first is not None:
        raise InputError(f"--first chooses between two moving pieces, but the dice show a "
                         f"double of {a}: only that piece moves (one field back)")
    if a == b:
        race, step = _double(race, a)
        steps.append(step)
    else:
        for colour in _move_order(race, a, b, first):
            if race.over:
                break
            race, step = _forward_move(race, colour)
            steps.append(step)
    turned_now = False
    if not race.turned and not race.over and any(
            p.field == race.rules.turning_field for p in race.on_track()):
        race = replace(race, turned=True)
        turned_now = True
    race = replace(race, dice=(a, b), rolls=race.rolls + 1)
    if not race.over:
        race = replace(race, active=next_player(race, race.active))
    return RollResult(race, (a, b), tuple(steps), turned_now, race.over)


def parse_dice(rules: RaceRules, text: str) -> tuple[str, str]:
    """``red,blue`` -> ("red", "blue"): the physical dice's result."""
    parts = [p for p in text.replace(" ", ",").split(",") if p]
    if len(parts) != 2:
        raise InputError(f"--dice takes two colours such as red,blue, not '{text}'")
    return (_colour(rules, parts[0]), _colour(rules, parts[1]))


def seeded_rng(seed: int, roll: int) -> random.Random:
    """The dice of roll number ``roll`` of a game started with ``seed``: repeatable."""
    return random.Random(f"muli:{seed}:{roll}")


# --- saved games -------------------------------------------------------------------------------
