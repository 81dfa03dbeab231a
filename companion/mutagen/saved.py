"""A Mutagen game kept as a saved game: the score track through the four rounds.

The log holds a ``setup`` event (players, expansions, starting scores), one ``round`` event per
End of Round (each player's points, and Shard Fragments from the Plight of the People card),
and ``points`` events for points gained or paid during a round (a Mutation's 2 points, the
progress track, a People card's ability). The state is the fold of that log; ``irata play
undo`` drops the last event.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion import session
from companion.mutagen.rules import RoundScore, Rules, check_expansions, starting_score
from companion.suggest import did_you_mean
from components.errors import InputError, RuleError

GAME = "mutagen"


def new_setup(players: Sequence[str], rules: Rules, expansions: Sequence[str] = ()
              ) -> dict[str, Any]:
    """The ``setup`` event of a new game (Game Setup, Player Setup B)."""
    names = [p.strip() for p in players if p.strip()]
    if not 1 <= len(names) <= 4:
        raise RuleError(f"Mutagen is played by 1 to 4 players, not {len(names)}")
    if len(set(names)) != len(names):
        raise InputError("two players have the same name")
    exp = check_expansions(expansions)
    start = starting_score(rules, exp)
    return {"players": names, "expansions": list(exp), "round": 1, "rounds": rules.rounds,
            "scores": {n: start for n in names}, "history": []}


def round_event(state: Mapping[str, Any], scores: Sequence[RoundScore],
                expansions: Sequence[str] | None = None) -> dict[str, Any]:
    """The ``round`` event for the End of Round of the saved game's current round.

    ``expansions`` are the round file's: they must be the saved game's, or a People card's
    Shard Fragments would be counted in a game without The Plight of the People (or left out
    of one with it)."""
    if state["round"] > state["rounds"]:
        raise RuleError(f"all {state['rounds']} rounds have been scored; the game is over")
    names = [s.name for s in scores]
    if sorted(names) != sorted(state["players"]):
        raise InputError(f"the round's players ({', '.join(names)}) are not the saved game's "
                         f"({', '.join(state['players'])})")
    if expansions is not None and sorted(expansions) != sorted(state.get("expansions", [])):
        def shown(e: Sequence[str]) -> str:
            return ", ".join(e) if e else "no expansion"

        raise InputError(f"the round file is played with {shown(expansions)}, the saved game "
                         f"with {shown(state.get('expansions', []))}: give the file "
                         "'expansions:' as the game has them")
    return {"round": state["round"], "points": {s.name: s.total for s in scores},
            "shards": {s.name: s.shards for s in scores if s.shards}}


def check_end_of_game(state: Mapping[str, Any], names: Sequence[str]) -> None:
    """End of Game Scoring of the saved game: only after the fourth round, and of everyone.

    "After four rounds, the game ends": before the last End of Round is saved there is no
    end of game to score, and a player of the game left out of the file would let the others
    win without them."""
    if state["round"] <= state["rounds"]:
        raise RuleError(f"the saved game is in round {state['round']} of {state['rounds']}: "
                        "End of Game Scoring comes after the fourth round's End of Round "
                        "('irata play mutagen round FILE --save')")
    missing = [n for n in state["players"] if n not in names]
    extra = [n for n in names if n not in state["players"]]
    if extra:
        raise InputError(f"no player '{extra[0]}' in the saved game "
                         f"({', '.join(state['players'])})"
                         + did_you_mean(extra[0], state["players"]))
    if missing:
        raise InputError(f"the file leaves out {', '.join(missing)}: End of Game Scoring "
                         "scores every player of the saved game")


def points_event(state: Mapping[str, Any], player: str, points: int, why: str = ""
                 ) -> dict[str, Any]:
    """A ``points`` event: points gained (or paid, negative) during a round."""
    if player not in state["players"]:
        raise InputError(f"no player '{player}' in this game ({', '.join(state['players'])})"
                         + did_you_mean(player, state["players"]))
    if points == 0:
        raise InputError("0 points moves no score tracker: nothing to record")
    if state["round"] > state["rounds"]:
        raise RuleError(f"all {state['rounds']} rounds have been scored: points are gained "
                        "during a round; score the end of the game with "
                        "'irata play mutagen score FILE --save'")
    if state["scores"][player] + points < 0:
        raise RuleError(f"{player} has {state['scores'][player]} points and cannot pay "
                        f"{-points}")
    return {"player": player, "points": points, "why": why}


def _step(state: dict[str, Any], event: session.Event) -> dict[str, Any]:
    data = event.data
    if event.kind == "round":
        for name, pts in data["points"].items():
            state["scores"][name] = state["scores"].get(name, 0) + int(pts)
        state["history"].append({"round": data["round"], "points": data["points"],
                                 "shards": data.get("shards", {})})
        state["round"] = int(data["round"]) + 1
    elif event.kind == "points":
        name = data["player"]
        state["scores"][name] = state["scores"].get(name, 0) + int(data["points"])
    return state


def fold(events: list[session.Event]) -> dict[str, Any]:
    """The saved game's state: the fold of its log."""
    return session.fold_with(events, _step)


def validate(state: dict[str, Any]) -> None:
    """What a corrected game may hold (``irata play set``): rounds 1 to 4 (5 once the fourth
    is scored), a score for each player and no one else."""
    rounds = int(state.get("rounds", 4))
    if not 1 <= int(state["round"]) <= rounds + 1:
        raise RuleError(f"Mutagen has rounds 1 to {rounds} ({rounds + 1} once all are scored), "
                        f"not {state['round']}")
    if sorted(state["scores"]) != sorted(state["players"]):
        raise RuleError(f"the score track holds the players ({', '.join(state['players'])}) "
                        "and no one else")


def describe(state: dict[str, Any]) -> str:
    scores = ", ".join(f"{n} {s}" for n, s in state.get("scores", {}).items())
    rnd = state.get("round", 1)
    where = ("all rounds scored: run 'irata play mutagen score FILE --game ID'"
             if rnd > state.get("rounds", 4) else f"round {rnd} of {state.get('rounds', 4)}")
    return f"Mutagen, {where}. Score track: {scores}"


def next_step(state: dict[str, Any]) -> tuple[str, str | None]:
    """What the table does now (Game Overview: four rounds, then End of Game Scoring), and
    the command that records it."""
    rounds = int(state.get("rounds", 4))
    rnd = int(state["round"])
    if rnd > rounds:
        return ("all four rounds are scored: End of Game Scoring (Crew cards, storage, Shard "
                "Fragments, Tree cards)", "irata play mutagen score FILE --save")
    return (f"round {rnd} of {rounds}: Select Mutations and Place Workers (points gained on "
            "the way: 'irata play mutagen points PLAYER N'), then its End of Round",
            "irata play mutagen round FILE --save")
