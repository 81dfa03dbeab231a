"""Mutagen, declared (:class:`companion.play.Declaration`) over its typed, frozen
:class:`~companion.mutagen.state.State`: the four rounds (Game Overview) and their moves
(:data:`companion.mutagen.moves.MOVES`).

- ``round``: an End of Round, from a YAML file of players (``saved.round_event``);
- ``score``: End of Game Scoring after the fourth round, from the saved game (the Elements left
  in storage typed) or from a YAML file (``saved.score_event``); the game is then over;
- during a round, in the table's order: ``points``, ``shards``, ``progress``, ``crew``,
  ``tree``, ``storage``, ``people`` (The Plight of the People) and ``palace`` (The Palace
  Visitors), and ``element``, ``install``, ``track`` and ``place`` (``companion.mutagen.elements``:
  the Elements, the Element trackers, the Workers placed and the People cards' abilities).
  Each checks what it pays against what the player holds: a payment the player cannot make
  is refused with the rule's reason, and nothing changes.

A file's move carries the file's name (``file``, naming its errors FILE:LINE:COL) and its text
(``text``), so that applying it reads nothing; a face that gives only the name has it read.
Every number comes from ``components/mutagen`` (``rules``, ``data.cards``). Nothing runs
itself: every step is the table's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.mutagen.moves import DURING, MOVES
from companion.mutagen.saved import (
    did_you_mean,
    during_round,
    end_of_game_players,
    points_event,
    round_event,
    score_event,
    step_now,
)
from companion.mutagen.state import PALACE, PLIGHT, Player, State, from_json, step, to_json
from companion.play import Move, Now, Outcome
from components.errors import InputError, RuleError

if TYPE_CHECKING:   # the rules are imported by the moves that use them
    from companion.mutagen.rules import FinalScore, RoundScore, Rules

__all__ = ["GAME", "MOVES", "MutagenGame"]

_WHOLE = re.compile(r"[+-]?[0-9]+")
_LIMIT = 10**9   # as the command line's BoundedInt takes a number


def _rules() -> Rules:
    from companion.mutagen.data import load_rules

    return load_rules()


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


def whole(text: str, what: str = "points") -> int:
    """A whole number typed at the table, as the command line reads one."""
    typed = text.strip()
    if not _WHOLE.fullmatch(typed):
        raise InputError(f"{what} are a whole number, not {typed[:40]!r}")
    if len(typed.lstrip("+-")) > 10:
        raise InputError(f"{what}: {typed[:20]!r}... is far too large a number")
    number = int(typed)
    if not -_LIMIT <= number <= _LIMIT:
        raise InputError(f"{number} {what} is out of range ({-_LIMIT} to {_LIMIT})")
    return number


def _track(state: State) -> str:
    return ", ".join(f"{p.name} {p.score}" for p in state.players)


def _outcome(state: State, kind: str, data: dict[str, Any], lines: tuple[str, ...],
             detail: Any = None) -> Outcome[State]:
    return Outcome(kind, data, lines, step(state, kind, data), detail)


# -- who plays, and what they pay ---------------------------------------------------------------

def pay(p: Player, shards: int, what: str) -> int:
    """Pay ``shards`` Shard Fragment tokens for ``what``: refused when the player holds fewer
    (or the saved game does not know what they hold). Returns what they hold after it."""
    if p.shards is None:
        raise RuleError(f"the saved game does not keep {p.name}'s Shard Fragments (it was "
                        f"saved before they were kept): 'irata play set shards.{p.name} N' "
                        "starts keeping them")
    if shards > p.shards:
        raise RuleError(f"{p.name} holds {p.shards} Shard Fragment token"
                        f"{'' if p.shards == 1 else 's'} and cannot pay {shards}"
                        + (f" for {what}" if what else ""))
    return p.shards - shards


def _held(p: Player, after: int) -> str:
    return f"{p.name} holds {after} Shard Fragment token{'' if after == 1 else 's'}"


def _needs(state: State, expansion: str, kind: str) -> None:
    if expansion not in state.expansions:
        title = "The Plight of the People" if expansion == PLIGHT else "The Palace Visitors"
        raise RuleError(f"'{kind}' belongs to {title}, which this game is not played with")


# -- the moves during a round -------------------------------------------------------------------

def points_move(state: State, move: Move) -> Outcome[State]:
    """Points gained or paid during a round: the Mutation Actions Reference's "Gain 2
    points", or a correction the table makes (a paid cost is the move that pays it:
    ``people``, ``discard``)."""
    given = move.answers
    data = points_event(state, (move.who or "").strip(), whole(given.get("points", "")),
                        given.get("why", ""))
    after = _outcome(state, "points", data, ()).state
    return _outcome(state, "points", data,
                    (f"{data['player']}: {after.player(data['player']).score} points",))


def shards_move(state: State, move: Move) -> Outcome[State]:
    """Passing an Action (1 Shard Fragment for each action not taken), "Gain 2 Shard Fragment
    tokens", the Mutation "Gain 3 Shard Fragment tokens", a Guide's 2; negative: a Mutation's
    activation or reaction cost, paid from what the player holds."""
    p = during_round(state, move)
    n = whole(move.answers.get("shards", ""), "Shard Fragments")
    if n == 0:
        raise InputError("0 Shard Fragments changes nothing: nothing to record")
    why = move.answers.get("why", "")
    after = pay(p, -n, why) if n < 0 else pay(p, 0, "") + n
    data = {"player": p.name, "shards": n, "why": why}
    return _outcome(state, "shards", data, (_held(p, after) + ".",))


def progress_move(state: State, move: Move) -> Outcome[State]:
    """Progress Track Location: spend 2, 4 or 6 Shard Fragments to move 2, 5 or 8 spaces
    ("free": the 2 spaces of a Worker type action, a Mutation or a Visitor card, unpaid).
    Every Bonus token space landed on or passed is resolved in order, and every points space
    landed on or passed scores."""
    from companion.mutagen.rules import advance_progress

    rules = _rules()
    p = during_round(state, move)
    typed = move.answers.get("paid", "").strip().lower()
    paid = 0 if typed == "free" else whole(typed, "Shard Fragments") if typed else -1
    spaces = rules.progress_free if typed == "free" else rules.progress_moves.get(paid, 0)
    if not spaces:
        raise InputError(f"the Progress Track Location takes 2, 4 or 6 Shard Fragments (for "
                         f"{', '.join(str(v) for v in rules.progress_moves.values())} spaces), "
                         f"or 'free' for {rules.progress_free} spaces; not {typed[:20]!r}")
    if p.progress is None:
        raise RuleError(f"the saved game does not keep {p.name}'s Progress tracker: "
                        f"'irata play set progress.{p.name} SPACE' starts keeping it")
    if p.progress >= rules.progress_spaces:
        raise RuleError(f"{p.name}'s Progress tracker is on the track's last space "
                        f"({rules.progress_spaces}): it moves no further")
    held = pay(p, paid, f"{spaces} spaces on the progress track")
    moved = advance_progress(p.progress, spaces, rules)
    shards, points, lines = _bonuses(state, moved.bonuses, moved.points)
    data = {"player": p.name, "paid": paid, "spaces": spaces, "start": moved.start,
            "end": moved.end, "bonuses": [[s, dict(state.bonus).get(s, "")]
                                          for s in moved.bonuses],
            "shards": shards - paid, "points": points, "why": move.answers.get("why", "")}
    head = f"{p.name}'s Progress tracker: {moved.start} -> {moved.end}"
    return _outcome(state, "progress", data,
                    (head, *lines, _held(p, held + shards) + f", {p.score + points} points."))


def _bonuses(state: State, spaces: tuple[int, ...], points: int
             ) -> tuple[int, int, list[str]]:
    """The Bonus tokens on the spaces passed, resolved in order: Shard Fragments and points
    counted here; an Element or an Element track space is the table's to take (the next End of
    Round file shows the tracker). Returns (shards, points, lines)."""
    from companion.mutagen.data import cards

    kinds = dict(state.bonus)
    amounts = cards().bonus
    shards, lines = 0, []
    for s in spaces:
        kind = kinds.get(s)
        if kind is None:
            lines.append(f"  Bonus space {s}: the saved game does not know its Bonus token; "
                         "resolve it at the table ('shards' or 'points')")
            continue
        amount = amounts[kind][0]
        if kind == "shards":
            shards += amount
        elif kind == "points":
            points += amount
        lines.append(f"  Bonus space {s}: " + {
            "shards": f"+{amount} Shard Fragments", "points": f"+{amount} points",
            "element": f"take {amount} Element from any Element location",
            "track": f"move {amount} space on any Element track"}.get(kind, kind))
    return shards, points, lines


def crew_move(state: State, move: Move) -> Outcome[State]:
    """Take a Crew card (Worker Type Actions Reference): "You must pay the cost in Shard
    Fragment tokens, shown in the top left of the Crew card"; each card is taken once."""
    from companion.mutagen.data import cards
    from companion.mutagen.files import crew_card, printed_name

    p = during_round(state, move)
    card = crew_card(move.answers.get("card", ""))
    assert card.id is not None
    holder = next((o.name for o in state.players if card.id in o.crew), None)
    if holder is not None:
        raise RuleError(f"{holder} has taken the Crew card '{printed_name(card)}' already "
                        "(the game has one)")
    cost = cards().crew_cost[card.id]
    held = pay(p, cost, f"the Crew card '{printed_name(card)}'")
    data = {"player": p.name, "card": card.id, "shards": -cost}
    return _outcome(state, "crew", data, (f"{p.name} takes the Crew card "
                                          f"'{printed_name(card)}' for {cost}; "
                                          + _held(p, held)[len(p.name) + 1:] + ".",))


def _card_id(text: str, known: dict[str, Any], prefix: str, what: str) -> str:
    typed = " ".join(text.split()).lower()
    key = typed if typed in known else f"{prefix}/{typed}"
    if key not in known:
        raise InputError(f"no {what} '{text[:40]}'{did_you_mean(key, list(known))} (ids such "
                         f"as {next(iter(known))})")
    return key


def tree_move(state: State, move: Move) -> Outcome[State]:
    """Tree Location: "You immediately gain the number of Shard Fragment tokens shown on the
    Tree card. Take the completed Tree card and place it by your Airship board"; it scores at
    the end of the game (Tree Cards)."""
    from companion.mutagen.data import cards

    p = during_round(state, move)
    trees = cards().trees
    card = _card_id(move.answers.get("card", ""), trees, "tree", "Tree card")
    holder = next((o.name for o in state.players if card in o.trees), None)
    if holder is not None:
        raise RuleError(f"{holder} has completed the Tree card {card} already")
    colour, shards = trees[card]
    held = pay(p, 0, "") + shards      # refused when the saved game does not keep them
    spend = _tree_elements(p, card, move)
    data = {"player": p.name, "card": card, "colour": colour, "shards": shards,
            **({"spend": spend} if spend else {})}
    return _outcome(state, "tree", data, (f"{p.name} completes {card} ({colour}): +{shards} "
                                          "Shard Fragments; "
                                          + _held(p, held)[len(p.name) + 1:] + ".",))


def _tree_elements(p: Player, card: str, move: Move) -> list[str]:
    """The Elements a Tree card takes from storage (``--spend``), checked against its colours
    (``elements.tree_spend``); none in a game that does not keep the Elements."""
    from companion.mutagen.data import tree_needs
    from companion.mutagen.elements import SUPREME, spend_from_storage, tree_spend

    typed = move.answers.get("spend", "").strip()
    fewer = bool(move.answers.get("fewer"))
    if p.storage is None and not typed:
        if fewer:
            raise InputError("--fewer goes with the Elements spent (--spend)")
        return []     # a game that keeps no Elements: the colours are the table's
    needs = tree_needs()[card]
    if not typed:
        raise InputError(f"Tree Location: {card} asks for Elements of the colours "
                         f"{', '.join(needs)}: name those returned from storage with --spend")
    spend = [SUPREME if e.startswith(SUPREME) else e
             for e in spend_from_storage(p, typed, _rules(), "Tree Location")]
    why = tree_spend(needs, spend, "people/gardener" in p.people, fewer)
    if why:
        raise RuleError(f"Tree Location: {card} is not completed: {why}")
    return spend


def storage_move(state: State, move: Move) -> Outcome[State]:
    """Storage Tiles: "place it face up into your Airship covering two of the square spaces.
    Pay the cost in Shard Fragment tokens for both of the squares you cover up"."""
    from companion.mutagen.airship import Airship, PlacedTile, place_tile_check
    from companion.mutagen.data import cards

    rules = _rules()
    p = during_round(state, move)
    cells = [c for c in re.split(r"[\s,+]+", move.answers.get("at", "").upper()) if c]
    tile = _tile(state, p, move.answers.get("tile", "").strip(), cards().tiles)
    ship = Airship(tuple(PlacedTile(t, ("any", "any")) for t in p.tiles))
    verdict = place_tile_check(ship, cells, rules)
    if not verdict.allowed:
        raise RuleError(f"no Storage tile on {'+'.join(cells) or 'nothing'}: "
                        + "; ".join(verdict.reasons))
    held = pay(p, verdict.cost, f"a Storage tile on {'+'.join(cells)}")
    data = {"player": p.name, "at": cells, "tile": tile, "shards": -verdict.cost}
    return _outcome(state, "storage", data, (f"{p.name} covers {'+'.join(cells)} with a "
                                             f"Storage tile for {verdict.cost}; "
                                             + _held(p, held)[len(p.name) + 1:] + ".",))


def _tile(state: State, p: Player, typed: str, printed: dict[str, Any]) -> str:
    """The Storage tile's id, checked: a printed tile, not placed already (the game has one
    of each); needed in a game that keeps the Elements (its squares' restrictions are what an
    Element installed on it must meet)."""
    if not typed:
        if p.storage is not None:
            raise InputError("Storage Tiles: name the tile placed with --tile (its id, such as "
                             f"{next(iter(printed))}): the Elements installed on it meet its "
                             "squares' restrictions")
        return ""
    tile = _card_id(typed, printed, "storage", "Storage tile")
    holder = next((o.name for o in state.players if tile in o.tile_ids), None)
    if holder is not None:
        raise RuleError(f"{holder} has placed the Storage tile {tile} already (the game has "
                        "one of each)")
    return tile


def people_move(state: State, move: Move) -> Outcome[State]:
    """The Plight of the People, Gameplay Changes: a People card each round; for its Supreme
    Element token pay 0/1/2/3 Shard Fragments in rounds 1/2/3/4, for its ability pay 3/2/1/0
    points (the Score tracker moves back)."""
    from companion.mutagen.data import cards
    from companion.mutagen.rules import people_card_cost

    _needs(state, PLIGHT, "people")
    p = during_round(state, move)
    words = move.answers.get("take", "").split()
    benefit = words[0].lower() if words else ""
    if p.name in state.drafted:
        raise RuleError(f"{p.name} has taken a People card this round already (one each "
                        "round, in Select Mutations)")
    shards, points = people_card_cost(state.round, benefit, _rules())
    known = cards().people
    card = _card_id(" ".join(words[1:]), known, "people", "People card") \
        if len(words) > 1 or benefit == "ability" else ""
    if card and benefit == "ability" and \
            sum(o.people.count(card) for o in state.players) >= known[card]:
        raise RuleError(f"the game has {known[card]} {card} card(s), all taken")
    held = pay(p, shards, "a Supreme Element token")
    if benefit == "supreme" and p.storage is not None:
        from companion.mutagen.elements import from_supply

        from_supply(state, "supreme")
    if points > p.score:
        raise RuleError(f"{p.name} has {p.score} points and cannot pay {points} for the "
                        "card's ability")
    data = {"player": p.name, "benefit": benefit, "card": card, "round": state.round,
            "shards": -shards, "points": -points,
            # Supreme Element Tokens: "these can be placed into your storage"
            **({"element": "supreme", "to": "storage"}
               if benefit == "supreme" and p.storage is not None else {})}
    what = "a Supreme Element token" if benefit == "supreme" else f"the ability of {card}"
    return _outcome(state, "people", data, (f"{p.name} takes {what} for "
                                            + (f"{shards} Shard Fragments" if benefit ==
                                               "supreme" else f"{points} points")
                                            + f"; {_held(p, held)[len(p.name) + 1:]}, "
                                            f"{p.score - points} points.",))


INFORMANT = "people/informant"
HOARDER = "people/hoarder"


def discard_move(state: State, move: Move) -> Outcome[State]:
    """People Card Abilities, the Informant: "When you place your Spy, you may discard 1 Crew
    card from your hand to gain points equal to double the Shard Fragment tokens cost of that
    Crew card"."""
    from companion.mutagen.data import cards
    from companion.mutagen.files import crew_card, printed_name

    _needs(state, PLIGHT, "discard")
    p = during_round(state, move)
    if INFORMANT not in p.people:
        raise RuleError(f"{p.name} has not taken the Informant's ability (a People card): "
                        "only it discards a Crew card for points")
    if any(o.placed for o in state.players) and all(w != "spy" for w, _ in p.placed):
        raise RuleError(f"the Informant discards \"when you place your Spy\": {p.name}'s "
                        "Spy has not been placed this round")
    card = crew_card(move.answers.get("card", ""))
    if card.id not in p.crew:
        raise RuleError(f"{p.name} holds no Crew card '{printed_name(card)}'")
    assert card.id is not None
    points = 2 * cards().crew_cost[card.id]
    data = {"player": p.name, "card": card.id, "points": points}
    return _outcome(state, "discard", data, (f"{p.name} discards '{printed_name(card)}': "
                                             f"+{points} points, {p.score + points}.",))


def palace_move(state: State, move: Move) -> Outcome[State]:
    """The Palace Visitors, Gameplay Changes: once all Workers are placed, the Palace's
    Workers move to the Game board in order from top to bottom; the first placed there costs
    2 Shard Fragments, the second 1, the others nothing."""
    from companion.mutagen.rules import palace_move_cost

    _needs(state, PALACE, "palace")
    p = during_round(state, move)
    order = whole(move.answers.get("order", ""), "the Worker's order")
    most = 4 * len(state.players)
    if not 1 <= order <= most:
        raise InputError(f"the Worker's order at the Palace is 1 to {most}, not {order}")
    if order in state.palace:
        raise RuleError(f"the Worker placed {order}. at the Palace has moved this round "
                        "already")
    if state.palace and order < max(state.palace):
        raise RuleError(f"the Palace's Workers move in order from top to bottom: the "
                        f"{max(state.palace)}. has moved, so the {order}. cannot now")
    cost = palace_move_cost(order, _rules())
    held = pay(p, cost, f"moving the Worker placed {order}. at the Palace")
    data = {"player": p.name, "order": order, "shards": -cost}
    return _outcome(state, "palace", data, (f"{p.name} moves the Palace's {order}. Worker "
                                            f"for {cost}; "
                                            + _held(p, held)[len(p.name) + 1:] + ".",))


# -- End of Round and End of Game Scoring -------------------------------------------------------

def round_move(state: State, move: Move) -> Outcome[State]:
    """End of Round: from what the saved game kept (no file: the Elements installed, the
    Storage columns filled, the Element trackers, the Hoarder's card), or the file's points,
    checked against the saved game (its round, its players, its expansions, its Element
    trackers, and what it kept of the Airships)."""
    from companion.mutagen.elements import check_round_file, kept_round
    from companion.mutagen.rules import end_of_round

    rules = _rules()
    if move.answers.get("file", "").strip():
        from companion.mutagen.files import read_end_of_round

        path, text = _file(move)
        players, exp = read_end_of_round(path, rules, text)
    else:
        players, exp = kept_round(state, rules), state.expansions
    scores: list[RoundScore] = [end_of_round(p, rules) for p in players]
    positions = {p.name: p.tracks.as_dict() for p in players}
    data = round_event(state, scores, exp, positions)
    check_round_file(state, players, rules)
    from companion.mutagen.elements import check_all_placed

    check_all_placed(state)
    for p in players:
        own = state.player(p.name) if p.name in state.names else None
        # a game that keeps the People cards taken knows who holds the Hoarder
        if p.card_elements and own is not None and state.people_kept \
                and HOARDER not in own.people:
            raise RuleError(f"{p.name} has not taken the Hoarder's ability (a People card), "
                            "so no Elements lie on it: leave 'card_elements' out")
    out = _outcome(state, "round", data, ())
    lines = (f"End of Round {data['round']}: "
             + ", ".join(f"{s.name} {s.total}" for s in scores),
             f"Score track: {_track(out.state)}")
    return out._replace(lines=lines, detail=(scores, exp))


def score_move(state: State, move: Move) -> Outcome[State]:
    """End of Game Scoring of the saved game: after the fourth round, of every player, on
    the saved score track and Element trackers; once. From a file, or (no file) from what
    the saved game kept: Crew cards, Shard Fragments, Tree cards, with each player's Elements
    left in storage typed (``storage.NAME``)."""
    from companion.mutagen.rules import end_of_game

    rules = _rules()
    if move.answers.get("file", "").strip():
        from companion.mutagen.files import read_end_of_game

        path, text = _file(move)
        players, _ = read_end_of_game(path, rules, keep_missing_score=True, text=text)
    else:
        players = kept_players(state, move, rules)
    result: FinalScore = end_of_game(end_of_game_players(state, players), rules)
    data = score_event(state, result)
    best = max(b.total for b in result.players)
    lines = ("End of Game Scoring: " + ", ".join(f"{b.name} {b.total}"
                                                 for b in result.players),
             f"Winner: {' and '.join(result.winners)} with {best} points")
    return _outcome(state, "score", data, lines, detail=result)


def kept_players(state: State, move: Move, rules: Rules) -> list[Any]:
    """End of Game Scoring's players as the saved game kept them (Completing Crew Cards,
    Elements and Tokens, Tree Cards): only the Elements left in each storage are typed."""
    from companion.mutagen.data import cards, catalogue, element_tokens
    from companion.mutagen.rules import PlayerEnd, Tracks

    crew, trees = catalogue()[0], cards().trees
    given = {k.split(".", 1)[1].lower(): v for k, v in move.answers.items()
             if k.startswith("storage.")}
    unknown = [k for k in given if k not in {n.lower() for n in state.names}]
    if unknown:
        raise InputError(f"--storage: no player '{unknown[0][:40]}' in this game")
    top = element_tokens(PLIGHT in state.expansions)
    out = []
    for p in state.players:
        if p.shards is None:
            raise RuleError(f"the saved game does not keep {p.name}'s Shard Fragments: score "
                            "it from a FILE ('irata play mutagen score FILE --save')")
        n = _left_in_storage(p, given.get(p.name.lower()), top)
        out.append(PlayerEnd(p.name, p.score, Tracks(*(p.tracks or (0, 0, 0, 0))),
                             tuple(crew[c] for c in p.crew), n, p.shards,
                             tuple(trees[t][0] for t in p.trees),
                             tracks_given=p.tracks is not None))
    return out


def _left_in_storage(p: Player, typed: str | None, top: int) -> int:
    """Elements and Tokens: the Elements left in a player's storage, as the saved game kept
    them (a count typed must be that one), or as typed (``--storage NAME=N``)."""
    if typed is None:
        if p.storage is not None:
            return len(p.storage)
        raise InputError(f"--storage gives each player's Elements left in storage "
                         f"(NAME=N): {p.name}'s is missing")
    n = whole(typed, "Elements in storage")
    if not 0 <= n <= top:
        raise InputError(f"{p.name}'s storage holds 0 to {top} Elements, not {n}")
    if p.storage is not None and n != len(p.storage):
        raise RuleError(f"the saved game keeps {p.name}'s storage: {len(p.storage)} Elements "
                        f"({', '.join(p.storage) or 'none'}), not {n}: leave --storage out")
    return n


_MOVES = {"round": round_move, "score": score_move, "points": points_move,
          "shards": shards_move, "progress": progress_move, "crew": crew_move,
          "tree": tree_move, "storage": storage_move, "people": people_move,
          "discard": discard_move, "palace": palace_move}
_ELEMENT_MOVES = ("element", "install", "track", "place")   # companion.mutagen.elements


def _rule(kind: str) -> Any:
    """The move's rule function (the Elements' moves are imported when played)."""
    if kind in _ELEMENT_MOVES:
        def rule(state: State, move: Move) -> Outcome[State]:
            from companion.mutagen import elements

            played: Outcome[State] = getattr(elements, f"{kind}_move")(state, move,
                                                                during_round(state, move))
            return played

        return rule
    return _MOVES.get(kind)


class MutagenGame:
    """Mutagen's declaration: see the module's docstring."""

    name = "mutagen"
    moves = MOVES

    def from_json(self, data: Mapping[str, Any]) -> State:
        return from_json(data)

    def to_json(self, state: State) -> dict[str, Any]:
        return to_json(state)

    def now(self, state: State) -> Now | None:
        text, command = step_now(state)
        if command is None:
            return None
        if state.round > state.rounds:
            return Now(None, "score", None, text, command)
        elements = all(p.storage is not None for p in state.players)
        also = tuple(k for k in DURING
                     if (k not in ("people", "discard") or PLIGHT in state.expansions)
                     and (k != "palace" or PALACE in state.expansions)
                     and (k not in ("element", "install") or elements))
        return Now(state.round, "round", None, text, command, kinds=("round", *also))

    def apply(self, state: State, move: Move) -> Outcome[State]:
        rule = _rule(move.kind)
        if rule is None:
            raise RuleError(f"Mutagen has no move '{move.kind}': "
                            + ", ".join(spec.kind for spec in MOVES))
        played: Outcome[State] = rule(state, move)
        return played

    def auto(self, state: State) -> Move | None:
        return None

    def end(self, state: State) -> str | None:
        """Game Overview: the game ends with End of Game Scoring, once saved."""
        return step_now(state)[0] if state.over else None


GAME = MutagenGame()
