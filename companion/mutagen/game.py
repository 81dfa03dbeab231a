"""Mutagen, declared (:class:`companion.play.Declaration`): the saved game's score track through
the four rounds (Game Overview), its three moves (:data:`companion.mutagen.moves.MOVES`):

- ``round``: an End of Round, from a YAML file of players (``saved.round_event``);
- ``score``: End of Game Scoring after the fourth round, from a YAML file (``saved.score_event``),
  after which the game is over;
- ``points``: points gained or paid during a round (``saved.points_event``).

A file's move carries the file's name (``file``, naming its errors FILE:LINE:COL) and its text
(``text``, as :func:`companion.mutagen.files.file_text` reads it), so that applying it reads
nothing; a face that gives only the name has the file read for it. The events are exactly those
``irata play mutagen`` recorded before it was declared, so saved games and their fold are
unchanged. Nothing runs itself: every step is the table's (a round's points are the players'
to count, End of Game Scoring needs their Crew cards, storage and trees).
"""

from __future__ import annotations

import json
import re
from typing import Any

from companion.mutagen.moves import MOVES
from companion.mutagen.rules import FinalScore, RoundScore, end_of_game, end_of_round
from companion.mutagen.saved import (
    end_of_game_players,
    fold_step,
    next_step,
    points_event,
    round_event,
    score_event,
)
from companion.play import Move, Now, Outcome
from companion.session import Event
from components.errors import InputError, RuleError

__all__ = ["GAME", "MOVES", "MutagenGame"]

_WHOLE = re.compile(r"[+-]?[0-9]+")
_LIMIT = 10**9   # as the command line's BoundedInt takes a number


def _after(state: dict[str, Any], kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """The state after the event: the saved game's own fold step on a copy (as the log keeps
    it: JSON)."""
    copy: dict[str, Any] = json.loads(json.dumps(state))
    return fold_step(copy, Event(0, kind, json.loads(json.dumps(data)), ""))


def _file(move: Move) -> tuple[str, str]:
    """The file a move names and its text (read now when the face gave only the name)."""
    given = move.answers
    path = given.get("file", "").strip()
    if not path:
        raise InputError(f"'{move.kind}' needs the YAML FILE of players")
    text = given.get("text")
    if text is None:
        from companion.mutagen.files import file_text

        text = file_text(path)
    return path, text


def _points(text: str) -> int:
    """The points typed, as the command line reads a number."""
    typed = text.strip()
    if not _WHOLE.fullmatch(typed) or len(typed.lstrip("+-")) > 10:
        raise InputError(f"points are a whole number, not {typed[:40]!r}")
    number = int(typed)
    if not -_LIMIT <= number <= _LIMIT:
        raise InputError(f"{number} points is out of range ({-_LIMIT} to {_LIMIT})")
    return number


def _track(state: dict[str, Any]) -> str:
    return ", ".join(f"{n} {v}" for n, v in state["scores"].items())


class MutagenGame:
    """Mutagen's declaration: see the module's docstring."""

    name = "mutagen"
    moves = MOVES

    def now(self, state: dict[str, Any]) -> Now | None:
        text, command = next_step(state)
        if command is None:
            return None
        rnd, rounds = int(state["round"]), int(state.get("rounds", 4))
        if rnd > rounds:
            return Now(None, "score", None, text, command)
        return Now(rnd, "round", None, text, command)

    def apply(self, state: dict[str, Any], move: Move) -> Outcome:
        if move.kind == "round":
            return self._round(state, move)
        if move.kind == "score":
            return self._score(state, move)
        if move.kind == "points":
            return self._points(state, move)
        raise RuleError(f"Mutagen has no move '{move.kind}': "
                        + ", ".join(spec.kind for spec in MOVES))

    def _round(self, state: dict[str, Any], move: Move) -> Outcome:
        """End of Round: the file's points, checked against the saved game (its round, its
        players, its expansions, its Element trackers)."""
        from companion.mutagen.data import load_rules
        from companion.mutagen.files import read_end_of_round

        rules = load_rules()
        path, text = _file(move)
        players, exp = read_end_of_round(path, rules, text)
        scores: list[RoundScore] = [end_of_round(p, rules) for p in players]
        positions = {p.name: p.tracks.as_dict() for p in players}
        data = round_event(state, scores, exp, positions)
        after = _after(state, "round", data)
        lines = (f"End of Round {data['round']}: "
                 + ", ".join(f"{s.name} {s.total}" for s in scores),
                 f"Score track: {_track(after)}")
        return Outcome("round", data, lines, after, detail=(scores, exp))

    def _score(self, state: dict[str, Any], move: Move) -> Outcome:
        """End of Game Scoring of the saved game: after the fourth round, of every player, on
        the saved score track and Element trackers; once."""
        from companion.mutagen.data import load_rules
        from companion.mutagen.files import read_end_of_game

        rules = load_rules()
        path, text = _file(move)
        players, _ = read_end_of_game(path, rules, keep_missing_score=True, text=text)
        result: FinalScore = end_of_game(end_of_game_players(state, players), rules)
        data = score_event(state, result)
        after = _after(state, "score", data)
        best = max(b.total for b in result.players)
        lines = ("End of Game Scoring: " + ", ".join(f"{b.name} {b.total}"
                                                     for b in result.players),
                 f"Winner: {' and '.join(result.winners)} with {best} points")
        return Outcome("score", data, lines, after, detail=result)

    def _points(self, state: dict[str, Any], move: Move) -> Outcome:
        """Points gained or paid during a round by the player the move names."""
        given = move.answers
        player = move.who or ""
        data = points_event(state, player, _points(given.get("points", "")),
                            given.get("why", ""))
        after = _after(state, "points", data)
        return Outcome("points", data, (f"{player}: {after['scores'][player]} points",),
                       after)

    def auto(self, state: dict[str, Any]) -> Move | None:
        return None


GAME = MutagenGame()
