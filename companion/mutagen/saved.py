"""A Mutagen game kept as a saved game: the score track through the four rounds, and each
player's Element tracker positions as the last End of Round found them.

The log holds a ``setup`` event (players, expansions, starting scores, every Element tracker on
'0'), one ``round`` event per End of Round (each player's points, their Element tracker
positions, and Shard Fragments from the Plight of the People card), and ``points`` events for
points gained or paid during a round (a Mutation's 2 points, the progress track, a People
card's ability), and once the fourth round is scored one ``score`` event, End of Game
Scoring's result (each player's breakdown, the winners), after which the game is over. The
state is the fold of that log; ``irata play undo`` drops the last event.

The Element tracks (Element Track Location, Mutations, the Clockwork City People card): every
rule that moves a tracker moves it *on* ("move your tracker token one space ... for each Element
spent", "move 2 spaces", "advance 1 space"), and none moves it back, so a round that puts a
tracker lower than the last End of Round left it is refused. A tracker sits on '0' (Player
Setup C) to 7 (the track's last space; the round file's reader refuses more). The rulebook sets
no limit on how far a tracker moves in one round: the Elements a player can spend are bounded
only by what their storage held through the round, which the saved game does not know, and one
round's Element Track Location visit alone may take a tracker from 0 to 7. So the companion
checks no per-round distance, only the bounds and the direction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion import session
from companion.mutagen.rules import (
    FinalScore,
    PlayerEnd,
    RoundScore,
    Rules,
    Tracks,
    check_expansions,
    starting_score,
)
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
            "scores": {n: start for n in names}, "history": [],
            # Player Setup C: each Resource tracker token on the '0' space of its Element track
            "tracks": {n: {e: 0 for e in rules.elements} for n in names}}


def check_tracks(state: Mapping[str, Any], tracks: Mapping[str, Mapping[str, int]]) -> None:
    """The Element tracker positions a round file gives, against those the saved game kept:
    a tracker only moves on (see the module's docstring), so none may be lower than the last
    End of Round (or the set-up) left it. A game saved before the positions were kept has
    none to compare with."""
    kept = state.get("tracks") or {}
    for name, now in tracks.items():
        before = kept.get(name)
        if not before:
            continue
        for element, pos in now.items():
            was = int(before.get(element, 0))
            if int(pos) < was:
                since = (f"the End of Round {state['round'] - 1}" if state["round"] > 1
                         else "the set-up")
                raise RuleError(f"{name}'s {element} tracker was on {was} at {since}, and "
                                f"an Element tracker only moves on (the Element Track "
                                f"Location, Mutations and People cards move it forward, "
                                f"nothing moves it back), so it cannot be on {pos}")


def round_event(state: Mapping[str, Any], scores: Sequence[RoundScore],
                expansions: Sequence[str] | None = None,
                tracks: Mapping[str, Mapping[str, int]] | None = None) -> dict[str, Any]:
    """The ``round`` event for the End of Round of the saved game's current round.

    ``expansions`` are the round file's: they must be the saved game's, or a People card's
    Shard Fragments would be counted in a game without The Plight of the People (or left out
    of one with it). ``tracks`` are the round file's Element tracker positions (player ->
    element -> space): none lower than the saved game kept (:func:`check_tracks`)."""
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
    event: dict[str, Any] = {"round": state["round"], "points": {s.name: s.total for s in scores},
                             "shards": {s.name: s.shards for s in scores if s.shards}}
    if tracks is not None:
        if sorted(tracks) != sorted(names):
            raise InputError("the round's Element tracks are not given for every player")
        check_tracks(state, tracks)
        event["tracks"] = {n: {e: int(v) for e, v in t.items()} for n, t in tracks.items()}
    return event


def check_end_of_game_tracks(state: Mapping[str, Any], name: str, tracks: Mapping[str, int]
                             ) -> None:
    """End of Game Scoring comes right after the fourth End of Round: nothing moves a tracker
    in between, so a player's Element trackers are where that End of Round found them (when the
    saved game kept them)."""
    kept = (state.get("tracks") or {}).get(name)
    if not kept:
        return
    differ = [e for e in kept if int(tracks.get(e, 0)) != int(kept[e])]
    if differ:
        shown = ", ".join(f"{e} {kept[e]}" for e in kept)
        given = ", ".join(f"{e} {tracks.get(e, 0)}" for e in differ)
        raise RuleError(f"{name}'s Element trackers are where the last End of Round left them "
                        f"({shown}), and nothing moves them before End of Game Scoring, but "
                        f"the file says {given}: leave 'tracks' out (correct the saved game "
                        "with 'irata play set')")


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


def end_of_game_players(state: Mapping[str, Any], players: Sequence[PlayerEnd]
                        ) -> list[PlayerEnd]:
    """The players of a score file as the saved game scores them: every player of the game,
    each one's score track from the saved game (a 'score' given must be that one), and the
    Element trackers the last End of Round kept for a player whose file leaves 'tracks' out
    (given, they must be those: :func:`check_end_of_game_tracks`)."""
    check_end_of_game(state, [p.name for p in players])
    out = []
    positions: Mapping[str, Mapping[str, int]] = state.get("tracks") or {}
    for p in players:
        kept = int(state["scores"][p.name])
        if p.score >= 0 and p.score != kept:
            raise InputError(f"{p.name}'s score is read from the saved game ({kept}), but "
                             f"the file says {p.score}: leave 'score' out (correct the "
                             "saved game with 'irata play set')")
        if p.tracks_given:
            check_end_of_game_tracks(state, p.name, p.tracks.as_dict())
        tracks = p.tracks
        if not p.tracks_given and p.name in positions:
            tracks = Tracks(**{e: int(v) for e, v in positions[p.name].items()})
        out.append(replace(p, score=kept, tracks=tracks,
                           tracks_given=p.tracks_given or p.name in positions))
    return out


def score_event(state: Mapping[str, Any], result: FinalScore) -> dict[str, Any]:
    """The ``score`` event: End of Game Scoring as the saved game's result (each player's
    breakdown and the winners), after which the game is over. Scored once: a second scoring
    of the same game is refused (``irata play undo`` takes the first back)."""
    final = state.get("final")
    if final:
        raise RuleError(f"End of Game Scoring is saved already ({_winners_line(final)}): "
                        "'irata play status' shows it; 'irata play undo' takes it back to "
                        "score again")
    return {"players": [{"name": b.name, "score": b.score, "crew": b.crew_total,
                         "storage": b.storage, "shards": b.shards, "trees": b.trees,
                         "total": b.total, "shards_remaining": b.shards_left}
                        for b in result.players],
            "winners": list(result.winners), "tie_broken": result.tie_broken}


def _winners_line(final: Mapping[str, Any]) -> str:
    winners = [str(w) for w in final.get("winners", [])]
    best = max((int(p["total"]) for p in final.get("players", [])), default=0)
    who = winners[0] if len(winners) == 1 else ", ".join(winners[:-1]) + " and " + winners[-1]
    return f"{who} {'wins' if len(winners) == 1 else 'share the win'} with {best} points"


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
        if data.get("tracks"):
            state["tracks"] = {**(state.get("tracks") or {}),
                               **{n: dict(t) for n, t in data["tracks"].items()}}
    elif event.kind == "points":
        name = data["player"]
        state["scores"][name] = state["scores"].get(name, 0) + int(data["points"])
    elif event.kind == "score":
        state["final"] = {"players": [dict(p) for p in data["players"]],
                          "winners": list(data["winners"])}
    return state


def fold_step(state: dict[str, Any], event: session.Event) -> dict[str, Any]:
    """One event of the log on the state before it (changed in place): the fold's own step,
    which the declared game (``companion.mutagen.game``) takes for the state after a move."""
    return _step(state, event)


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
    tracks = state.get("tracks")
    if tracks is not None:
        from companion.mutagen.data import load_rules

        rules = load_rules()
        if not isinstance(tracks, dict) or sorted(tracks) != sorted(state["players"]):
            raise RuleError(f"the Element tracks hold the players "
                            f"({', '.join(state['players'])}) and no one else")
        for name, own in tracks.items():
            if not isinstance(own, dict) or sorted(own) != sorted(rules.elements):
                raise RuleError(f"{name}'s Element trackers are {', '.join(rules.elements)}")
            for element, pos in own.items():
                if not isinstance(pos, int) or isinstance(pos, bool) or \
                        not 0 <= pos <= rules.track_length:
                    raise RuleError(f"an Element tracker sits on 0 to {rules.track_length}, "
                                    f"not {pos!r} ({name}'s {element})")


def describe(state: dict[str, Any]) -> str:
    scores = ", ".join(f"{n} {s}" for n, s in state.get("scores", {}).items())
    rnd = state.get("round", 1)
    where = ("all rounds scored: run 'irata play mutagen score FILE --game ID'"
             if rnd > state.get("rounds", 4) else f"round {rnd} of {state.get('rounds', 4)}")
    if state.get("final"):
        where = f"the game is over: {_winners_line(state['final'])}"
    tracks = "; ".join(f"{n} " + ", ".join(f"{e} {v}" for e, v in t.items())
                       for n, t in (state.get("tracks") or {}).items())
    return f"Mutagen, {where}. Score track: {scores}" + (
        f". Element trackers: {tracks}" if tracks else "")


def next_step(state: dict[str, Any]) -> tuple[str, str | None]:
    """What the table does now (Game Overview: four rounds, then End of Game Scoring), and
    the command that records it."""
    rounds = int(state.get("rounds", 4))
    rnd = int(state["round"])
    if state.get("final"):
        return (f"the game is over: End of Game Scoring is saved, "
                f"{_winners_line(state['final'])}", None)
    if rnd > rounds:
        return ("all four rounds are scored: End of Game Scoring (Crew cards, storage, Shard "
                "Fragments, Tree cards)", "irata play mutagen score FILE --save")
    return (f"round {rnd} of {rounds}: Select Mutations and Place Workers (points gained on "
            "the way: 'irata play mutagen points PLAYER N'), then its End of Round",
            "irata play mutagen round FILE --save")
