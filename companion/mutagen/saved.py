"""A Mutagen game kept as a saved game: the score track through the four rounds, and each
player's Element tracker positions as the last End of Round found them.

The log holds a ``setup`` event (players, expansions, starting scores, every Element tracker on
'0', 3 Shard Fragments each, every Progress tracker on its first space, the Bonus tokens laid
on the progress track), one ``round`` event per End of Round (each player's points, their
Element tracker positions, and Shard Fragments from the Plight of the People card), an event
for each move during a round that gains or pays (``points``, ``shards``, ``progress``,
``crew``, ``tree``, ``storage``, ``people``, ``palace``, ``element``, ``install``, ``track``,
``place``: ``companion.mutagen.game``), and once
the fourth round is scored one ``score`` event, End of Game Scoring's result (each player's
breakdown, the winners), after which the game is over. The state is the fold of that log, a
typed :class:`~companion.mutagen.state.State` kept as JSON (``state.from_json``/``to_json``);
``irata play undo`` drops the last event.

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
from typing import TYPE_CHECKING, Any

from companion import session
from companion.mutagen.state import ELEMENTS, PLIGHT, Player, State, from_json, step, to_json
from components.errors import InputError, RuleError

if TYPE_CHECKING:   # the rules are imported where they are used: 'next' needs none of them
    from companion.mutagen.rules import FinalScore, PlayerEnd, RoundScore, Rules
    from companion.play import Move


def did_you_mean(word: str, choices: Sequence[str]) -> str:
    from companion.suggest import did_you_mean as suggest

    return suggest(word, choices)

GAME = "mutagen"


def new_setup(players: Sequence[str], rules: Rules, expansions: Sequence[str] = (),
              bonus: Mapping[int, str] | None = None, elements: bool = False
              ) -> dict[str, Any]:
    """The ``setup`` event of a new game (Game Setup 6, Player Setup 11 and B to D): the
    score tracker on 0 (5 with the Plight of the People), the Element trackers on '0', 3
    Shard Fragment tokens, the Progress tracker on the first space, and the Bonus tokens on
    the progress track's Bonus spaces (``bonus``: space -> kind). With ``elements`` the
    Elements are kept too (each storage empty, nothing installed): every Element taken is
    then typed, and the End of Round and End of Game Scoring need no file."""
    from companion.mutagen.rules import check_expansions, starting_score

    names = [p.strip() for p in players if p.strip()]
    if not 1 <= len(names) <= 4:
        raise RuleError(f"Mutagen is played by 1 to 4 players, not {len(names)}")
    if len(set(names)) != len(names):
        raise InputError("two players have the same name")
    exp = check_expansions(expansions)
    start = starting_score(rules, exp)
    return {"players": names, "expansions": list(exp), "round": 1, "rounds": rules.rounds,
            "scores": {n: start for n in names}, "history": [],
            "tracks": {n: {e: 0 for e in rules.elements} for n in names},
            "shards": {n: rules.starting_shards for n in names},
            "progress": {n: 0 for n in names},
            **({"storage": {n: [] for n in names}} if elements else {}),
            **({"people": {n: [] for n in names}} if PLIGHT in exp else {}),
            **({"bonus": {str(k): v for k, v in sorted(bonus.items())}} if bonus else {})}


def lay_bonus(rules: Rules, copies: Mapping[str, int], given: Mapping[str, str] | None = None,
              seed: int | None = None) -> dict[int, str]:
    """Game Setup 6: "Shuffle the Bonus tokens and place one face up on each corresponding
    space of the Progress track": the tokens the table laid (``given``: space -> kind, every
    Bonus space once, no kind more often than the game has it), or drawn from ``copies``
    (kind -> tokens) with ``seed``."""
    spaces = list(rules.progress_bonus_spaces)
    if not given:
        import random

        tokens = sorted(k for k, n in copies.items() for _ in range(n))
        return dict(zip(spaces, random.Random(seed).sample(tokens, len(spaces)), strict=True))
    laid: dict[int, str] = {}
    for where, kind in given.items():
        space = int(where) if where.strip().isdigit() and len(where.strip()) < 4 else -1
        if space not in spaces:
            raise InputError(f"--bonus: '{where[:20]}' is not a Bonus space of the progress "
                             f"track ({', '.join(map(str, spaces))})")
        if kind.strip().lower() not in copies:
            raise InputError(f"--bonus {where}: a Bonus token is {', '.join(copies)}, not "
                             f"'{kind[:20]}'")
        laid[space] = kind.strip().lower()
    missing = [s for s in spaces if s not in laid]
    if missing:
        raise InputError(f"--bonus names the token on every Bonus space: "
                         f"{', '.join(map(str, missing))} missing")
    for kind, n in copies.items():
        if list(laid.values()).count(kind) > n:
            raise RuleError(f"the game has {n} '{kind}' Bonus tokens, and --bonus lays more")
    return dict(sorted(laid.items()))


def check_tracks(state: State, tracks: Mapping[str, Mapping[str, int]]) -> None:
    """The Element tracker positions a round file gives, against those the saved game kept:
    a tracker only moves on (see the module's docstring), so none may be lower than the last
    End of Round (or the set-up) left it. A game saved before the positions were kept has
    none to compare with."""
    for name, now in tracks.items():
        before = state.player(name).tracks if name in state.names else None
        if not before:
            continue
        for element, pos in now.items():
            was = before[ELEMENTS.index(element)] if element in ELEMENTS else 0
            if int(pos) < was:
                since = (f"the End of Round {state.round - 1}" if state.round > 1
                         else "the set-up")
                raise RuleError(f"{name}'s {element} tracker was on {was} at {since}, and "
                                f"an Element tracker only moves on (the Element Track "
                                f"Location, Mutations and People cards move it forward, "
                                f"nothing moves it back), so it cannot be on {pos}")


def round_event(state: State, scores: Sequence[RoundScore],
                expansions: Sequence[str] | None = None,
                tracks: Mapping[str, Mapping[str, int]] | None = None) -> dict[str, Any]:
    """The ``round`` event for the End of Round of the saved game's current round.

    ``expansions`` are the round file's: they must be the saved game's, or a People card's
    Shard Fragments would be counted in a game without The Plight of the People (or left out
    of one with it). ``tracks`` are the round file's Element tracker positions (player ->
    element -> space): none lower than the saved game kept (:func:`check_tracks`)."""
    if state.round > state.rounds:
        raise RuleError(f"all {state.rounds} rounds have been scored; the game is over")
    names = [s.name for s in scores]
    if sorted(names) != sorted(state.names):
        raise InputError(f"the round's players ({', '.join(names)}) are not the saved game's "
                         f"({', '.join(state.names)})")
    if expansions is not None and sorted(expansions) != sorted(state.expansions):
        def shown(e: Sequence[str]) -> str:
            return ", ".join(e) if e else "no expansion"

        raise InputError(f"the round file is played with {shown(expansions)}, the saved game "
                         f"with {shown(state.expansions)}: give the file "
                         "'expansions:' as the game has them")
    event: dict[str, Any] = {"round": state.round, "points": {s.name: s.total for s in scores},
                             "shards": {s.name: s.shards for s in scores if s.shards}}
    if tracks is not None:
        if sorted(tracks) != sorted(names):
            raise InputError("the round's Element tracks are not given for every player")
        check_tracks(state, tracks)
        event["tracks"] = {n: {e: int(v) for e, v in t.items()} for n, t in tracks.items()}
    return event


def check_end_of_game_tracks(state: State, name: str, tracks: Mapping[str, int]) -> None:
    """End of Game Scoring comes right after the fourth End of Round: nothing moves a tracker
    in between, so a player's Element trackers are where that End of Round found them (when the
    saved game kept them)."""
    kept = state.player(name).tracks
    if not kept:
        return
    differ = [e for i, e in enumerate(ELEMENTS) if int(tracks.get(e, 0)) != kept[i]]
    if differ:
        shown = ", ".join(f"{e} {kept[i]}" for i, e in enumerate(ELEMENTS))
        given = ", ".join(f"{e} {tracks.get(e, 0)}" for e in differ)
        raise RuleError(f"{name}'s Element trackers are where the last End of Round left them "
                        f"({shown}), and nothing moves them before End of Game Scoring, but "
                        f"the file says {given}: leave 'tracks' out (correct the saved game "
                        "with 'irata play set')")


def check_end_of_game(state: State, names: Sequence[str]) -> None:
    """End of Game Scoring of the saved game: only after the fourth round, and of everyone.

    "After four rounds, the game ends": before the last End of Round is saved there is no
    end of game to score, and a player of the game left out of the file would let the others
    win without them."""
    if state.round <= state.rounds:
        raise RuleError(f"the saved game is in round {state.round} of {state.rounds}: "
                        "End of Game Scoring comes after the fourth round's End of Round "
                        "('irata play mutagen round FILE --save')")
    missing = [n for n in state.names if n not in names]
    extra = [n for n in names if n not in state.names]
    if extra:
        raise InputError(f"no player '{extra[0]}' in the saved game "
                         f"({', '.join(state.names)})" + did_you_mean(extra[0], state.names))
    if missing:
        raise InputError(f"the file leaves out {', '.join(missing)}: End of Game Scoring "
                         "scores every player of the saved game")


def end_of_game_players(state: State, players: Sequence[PlayerEnd]) -> list[PlayerEnd]:
    """The players of a score file as the saved game scores them: every player of the game,
    each one's score track from the saved game (a 'score' given must be that one), and the
    Element trackers the last End of Round kept for a player whose file leaves 'tracks' out
    (given, they must be those: :func:`check_end_of_game_tracks`)."""
    from companion.mutagen.rules import Tracks

    check_end_of_game(state, [p.name for p in players])
    out = []
    for p in players:
        own = state.player(p.name)
        if p.score >= 0 and p.score != own.score:
            raise InputError(f"{p.name}'s score is read from the saved game ({own.score}), but "
                             f"the file says {p.score}: leave 'score' out (correct the "
                             "saved game with 'irata play set')")
        if p.tracks_given:
            check_end_of_game_tracks(state, p.name, p.tracks.as_dict())
        tracks = p.tracks
        if not p.tracks_given and own.tracks is not None:
            tracks = Tracks(*own.tracks)
        out.append(p._replace(score=own.score, tracks=tracks,
                           tracks_given=p.tracks_given or own.tracks is not None))
    return out


def score_event(state: State, result: FinalScore) -> dict[str, Any]:
    """The ``score`` event: End of Game Scoring as the saved game's result (each player's
    breakdown and the winners), after which the game is over. Scored once: a second scoring
    of the same game is refused (``irata play undo`` takes the first back)."""
    if state.final is not None:
        raise RuleError(f"End of Game Scoring is saved already ({_winners_line(state)}): "
                        "'irata play status' shows it; 'irata play undo' takes it back to "
                        "score again")
    return {"players": [{"name": b.name, "score": b.score, "crew": b.crew_total,
                         "storage": b.storage, "shards": b.shards, "trees": b.trees,
                         "total": b.total, "shards_remaining": b.shards_left}
                        for b in result.players],
            "winners": list(result.winners), "tie_broken": result.tie_broken}


def _winners_line(state: State) -> str:
    assert state.final is not None
    winners = list(state.final.winners)
    best = max((int(dict(p)["total"]) for p in state.final.players), default=0)
    who = winners[0] if len(winners) == 1 else ", ".join(winners[:-1]) + " and " + winners[-1]
    return f"{who} {'wins' if len(winners) == 1 else 'share the win'} with {best} points"


def points_event(state: State, player: str, points: int, why: str = "") -> dict[str, Any]:
    """A ``points`` event: points gained (or paid, negative) during a round."""
    if player not in state.names:
        raise InputError(f"no player '{player}' in this game ({', '.join(state.names)})"
                         + did_you_mean(player, state.names))
    if points == 0:
        raise InputError("0 points moves no score tracker: nothing to record")
    if state.round > state.rounds:
        raise RuleError(f"all {state.rounds} rounds have been scored: points are gained "
                        "during a round; score the end of the game with "
                        "'irata play mutagen score --save'")
    score = state.player(player).score
    if score + points < 0:
        raise RuleError(f"{player} has {score} points and cannot pay {-points}")
    return {"player": player, "points": points, "why": why}


def during_round(state: State, move: Move) -> Player:
    """The player a move during a round names: one of the saved game's, in a round not yet
    scored ("points are gained during a round")."""
    name = (move.who or "").strip()
    if name not in state.names:
        raise InputError(f"no player '{name[:40]}' in this game ({', '.join(state.names)})"
                         + did_you_mean(name, state.names))
    if state.round > state.rounds:
        raise RuleError(f"all {state.rounds} rounds have been scored: '{move.kind}' is "
                        "played during a round; End of Game Scoring comes now")
    return state.player(name)


def _step(state: dict[str, Any], event: session.Event) -> dict[str, Any]:
    return to_json(step(from_json(state), event.kind, event.data))


def fold_step(state: dict[str, Any], event: session.Event) -> dict[str, Any]:
    """One event of the log on the state before it (the typed step, as JSON): the fold's own
    step, which the declared game (``companion.mutagen.game``) takes for the state after a
    move."""
    return _step(state, event)


def fold(events: list[session.Event]) -> dict[str, Any]:
    """The saved game's state: the fold of its log."""
    return session.fold_with(events, _step)


def validate(state: dict[str, Any]) -> None:
    """What a corrected game may hold (``irata play set``): rounds 1 to 4 (5 once the fourth
    is scored), a score for each player and no one else, Element trackers on 0 to 7, Shard
    Fragments never negative and Progress trackers on the track."""
    rounds = int(state.get("rounds", 4))
    if not 1 <= int(state["round"]) <= rounds + 1:
        raise RuleError(f"Mutagen has rounds 1 to {rounds} ({rounds + 1} once all are scored), "
                        f"not {state['round']}")
    if sorted(state["scores"]) != sorted(state["players"]):
        raise RuleError(f"the score track holds the players ({', '.join(state['players'])}) "
                        "and no one else")
    from companion.mutagen.data import load_rules

    rules = load_rules()
    _validate_tracks(state, rules)
    for field, top, what in (("shards", 10**6, "Shard Fragment tokens held"),
                             ("progress", rules.progress_spaces, "a Progress tracker's space")):
        kept = state.get(field)
        if kept is None:
            continue
        if not isinstance(kept, dict) or not set(kept) <= set(state["players"]):
            raise RuleError(f"'{field}' holds the players ({', '.join(state['players'])})")
        for name, value in kept.items():
            if value is None:          # not kept
                continue
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
                raise RuleError(f"{what} is a whole number from 0 to {top}, not {value!r} "
                                f"({name}'s)")
    _validate_held(from_json(state))


def _validate_held(state: State) -> None:
    """The cards and tiles a corrected game holds are printed ones, each held once."""
    from companion.mutagen.airship import grid_cells
    from companion.mutagen.data import cards, load_rules

    printed = cards()
    squares = set(grid_cells(load_rules()))
    for what, known, held in (("Crew card", printed.crew_cost, [c for p in state.players
                                                                for c in p.crew]),
                              ("Tree card", printed.trees, [t for p in state.players
                                                            for t in p.trees]),
                              ("People card", printed.people, [c for p in state.players
                                                               for c in p.people])):
        for card in held:
            if card not in known:
                raise RuleError(f"no {what} '{card[:40]}' in the game")
        if what != "People card" and len(set(held)) != len(held):
            raise RuleError(f"a {what} is held twice (the game has one of each)")
    for p in state.players:
        covered = [c for tile in p.tiles for c in tile]
        if not set(covered) <= squares or len(set(covered)) != len(covered):
            raise RuleError(f"{p.name}'s Storage tiles cover squares of the Airship "
                            "(A1 ... C4), each once")
    _validate_elements(state)
    for _space, kind in state.bonus:
        if kind not in printed.bonus:
            raise RuleError(f"a Bonus token is {', '.join(printed.bonus)}, not '{kind[:20]}'")


def _validate_elements(state: State) -> None:
    """The Elements a corrected game holds are the box's (``"blue ore"``, ``"supreme"``), no
    more of one than the box has; each installed on a space of the Airship, once; each
    Storage tile a printed one, placed once."""
    from companion.mutagen.airship import grid_cells, hull_spaces
    from companion.mutagen.data import cards, element_copies, load_rules

    copies = element_copies()
    rules = load_rules()
    spaces = set(grid_cells(rules)) | set(hull_spaces(rules))
    held: dict[str, int] = {}
    for p in state.players:
        on_ship = [s for s, _ in p.installed]
        if not set(on_ship) <= spaces or len(set(on_ship)) != len(on_ship):
            raise RuleError(f"{p.name}'s installed Elements lie on Airship spaces (H1, H2, "
                            "A1 ... C4), one on each")
        for e in (*(p.storage or ()), *p.card, *(e for _, e in p.installed)):
            if e not in copies:
                raise RuleError(f"an Element is 'colour type' (blue ore) or 'supreme', not "
                                f"'{e[:30]}' ({p.name}'s)")
            held[e] = held.get(e, 0) + 1
    over = [e for e, n in held.items() if n > copies[e]]
    if over:
        raise RuleError(f"the box holds {copies[over[0]]} {over[0]}, and the players more")
    ids = [i for p in state.players for i in p.tile_ids if i]
    if any(i not in cards().tiles for i in ids) or len(set(ids)) != len(ids):
        raise RuleError("each Storage tile kept is a printed one (storage/01-any-crystal ...), "
                        "placed once")


def _validate_tracks(state: dict[str, Any], rules: Rules) -> None:
    tracks = state.get("tracks")
    if tracks is None:
        return
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
    typed = from_json(state)
    scores = ", ".join(f"{p.name} {p.score}" for p in typed.players)
    if typed.final is not None:
        where = f"the game is over: {_winners_line(typed)}"
    elif typed.round > typed.rounds:
        where = "all rounds scored: End of Game Scoring comes now"
    else:
        where = f"round {typed.round} of {typed.rounds}"
    tracks = "; ".join(f"{p.name} " + ", ".join(f"{e} {v}" for e, v in
                                                 zip(ELEMENTS, p.tracks, strict=True))
                       for p in typed.players if p.tracks is not None)
    held = "; ".join(_held(p) for p in typed.players if p.shards is not None)
    return (f"Mutagen, {where}. Score track: {scores}"
            + (f". Element trackers: {tracks}" if tracks else "")
            + (f". Held: {held}" if held else ""))


def _held(p: Any) -> str:
    parts = [f"{p.shards} Shard Fragments"]
    if p.progress is not None:
        parts.append(f"Progress {p.progress}")
    for what, cards in (("Crew", p.crew), ("Tree", p.trees), ("People", p.people)):
        if cards:
            parts.append(f"{what} {', '.join(c.split('/')[-1] for c in cards)}")
    if p.tiles:
        parts.append("Storage tiles " + " ".join("+".join(t) for t in p.tiles))
    if p.storage is not None:
        parts.append("in storage " + (", ".join(p.storage) or "nothing"))
    if p.installed:
        parts.append("installed " + ", ".join(f"{e} on {s}" for s, e in p.installed))
    if p.card:
        parts.append("on the Hoarder's card " + ", ".join(p.card))
    return f"{p.name} " + ", ".join(parts)


def score_command(state: State) -> str:
    """The command that scores the end of the game: from the saved game when it kept every
    player's Shard Fragments (only the Elements left in storage are typed, unless it kept
    those too), else from a file."""
    if all(p.shards is not None and p.storage is not None for p in state.players):
        return "irata play mutagen score --save"
    if all(p.shards is not None for p in state.players):
        return ("irata play mutagen score --save --storage "
                + ",".join(f"{n}=N" for n in state.names))
    return "irata play mutagen score FILE --save"


def next_step(state: dict[str, Any]) -> tuple[str, str | None]:
    """What the table does now in a saved game's JSON form (see :func:`step_now`)."""
    return step_now(from_json(state))


def step_now(typed: State) -> tuple[str, str | None]:
    """What the table does now (Game Overview: four rounds, then End of Game Scoring), and
    the command that records it (None once the game is over)."""
    if typed.final is not None:
        return (f"the game is over: End of Game Scoring is saved, {_winners_line(typed)}",
                None)
    if typed.round > typed.rounds:
        return ("all four rounds are scored: End of Game Scoring (Crew cards, storage, Shard "
                "Fragments, Tree cards)", score_command(typed))
    kept = all(p.storage is not None and p.tracks is not None for p in typed.players)
    return (f"round {typed.round} of {typed.rounds}: Select Mutations and Place Workers "
            "(each gain and payment as it happens), then its End of Round",
            "irata play mutagen round --save" if kept else "irata play mutagen round FILE --save")
