"""``irata play mutagen``: Mutagen's scoring, End of Round points, Airship checks and set-up.

A thin shell over ``companion.mutagen``: read the file, call the rule, print a table or JSON.
The moves of a round (``points``, ``shards``, ``progress``, ``crew``, ``tree``, ``storage``,
``people``, ``palace``, ``element``, ``install``, ``track``, ``place``), ``next`` and the guided
``turn`` are generated from the declaration (``irata.play.declared``) when asked for;
``round`` and ``score`` are written here because they are calculators too (a file alone, no
saved game: its table), and record through the declaration with ``--save`` or ``--game``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from companion.mutagen.moves import MOVES
from companion.record import NamedTuple
from irata.options import (
    DB,
    GAME,
    JSON,
    NAME,
    SAVE,
    SEED,
    create,
    emit,
    names,
    open_store,
    pick,
)
from irata.play.declared import DeclaredGroup, pairs

if TYPE_CHECKING:
    from companion.mutagen.airship import Airship
    from companion.mutagen.rules import FinalScore, RoundScore, Rules
    from companion.session import SavedGame

EXPANSION_CHOICES = ("plight-of-the-people", "palace-visitors")


def _table(rows: list[list[str]], right_from: int = 1) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [c.ljust(w) if i < right_from else c.rjust(w)
                 for i, (c, w) in enumerate(zip(r, widths, strict=True))]
        out.append("  ".join(cells).rstrip())
    return "\n".join(out)


def _names(names: tuple[str, ...] | list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class _Done(NamedTuple):
    """A move played into the saved game: its rule's result and the state after it."""

    detail: Any
    state: dict[str, Any]


def _play(db: str | None, game_id: int | None, kind: str, file: str | None,
          who: str | None = None, given: dict[str, str] | None = None
          ) -> tuple[SavedGame, _Done]:
    """Play one move of the declared game into the saved game (``companion.play.play``: one
    transaction; a refusal changes nothing). A file's move carries the file's text, read
    before the saved game is opened."""
    from companion.mutagen.game import GAME as DECLARED
    from companion.play import Move, play

    answers = dict(given or {})
    if file is not None:
        from companion.mutagen.files import file_text

        answers.update(file=file, text=file_text(file))
    with open_store(db) as store:
        saved = pick(store, game_id, "mutagen")
        played, state, _ = play(store, saved, DECLARED, [Move.of(kind, who, answers)])
    return saved, _Done(played[-1].detail, state)


@click.group(cls=DeclaredGroup)
def mutagen() -> None:
    """Mutagen: end of game scoring, end of round points, Airship checks and set-up."""


@mutagen.command("score")
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--storage", "storage", multiple=True, metavar="NAME=N",
              help="With the saved game and no FILE: each player's Elements left in storage "
                   "(repeatable, or comma-separated: Ann=2,Bob=0).")
@SAVE
@GAME
@DB
@JSON
def score_cmd(file: str | None, storage: tuple[str, ...], save: bool, game_id: int | None,
              db: str | None, as_json: bool) -> None:
    """End of game scoring: of the saved game (--save, no FILE: what it kept, with each
    player's Elements left in storage given as --storage NAME=N), or from a YAML FILE.

    \b
    players:
      - name: Ann
        score: 41                  # the score track before end of game scoring
                                   # (default 0; 5 with Plight of the People)
        tracks: {crystal: 5, gas: 2, liquid: 0, ore: 7}
        crew:                      # card ids (crew/track-ore) or kinds:
          - {kind: track, element: ore}
          - {kind: higher, left: crystal, right: gas}
          - {kind: pair, left: ore, right: crystal}
          - {kind: all}
        storage: 3                 # Elements left in storage
        shards: 7                  # Shard Fragment tokens
        trees: [jade, jade, amber] # completed Tree cards by colour
    expansions: [plight-of-the-people]   # optional

    With --save (or --game ID) and a FILE, a player without 'score' takes the score track of
    the saved game, and one without 'tracks' the Element tracker positions of its last End of
    Round (given, they must be those); without a FILE, the Crew cards, Shard Fragments and
    Tree cards are those the saved game kept. The result is saved in the game, which is then
    over. Ties go to the most Shard Fragment tokens remaining after 3 are discarded per point;
    a tie on those too is a shared win.
    """
    from companion.mutagen.data import load_rules
    from companion.mutagen.files import read_end_of_game
    from companion.mutagen.rules import end_of_game
    from components.errors import InputError

    saved = save or game_id is not None
    if not saved:
        if file is None or storage:
            raise InputError("score reads a FILE of players, or the saved game (--save) with "
                             "--storage NAME=N for each player")
        rules = load_rules()
        players, _ = read_end_of_game(file, rules)
        payload, lines = _score_report(end_of_game(players, rules))
        emit(as_json, payload, lines)
        return
    if file is not None and storage:
        raise InputError("--storage goes with the saved game's own count, not with a FILE "
                         "(the FILE gives each player's 'storage')")
    given = {f"storage.{n}": v for n, v in pairs(storage, "--storage").items()}
    game, done = _play(db, game_id, "score", file, given=given)
    payload, lines = _score_report(done.detail)
    lines.append(f"Saved in game {game.id}: End of Game Scoring, the game is over.")
    emit(as_json, {**payload, "game": game.id, "saved": True}, lines)


def _tie_break(result: FinalScore) -> str | None:
    """The sentence saying how a tie on the most points was decided, if there was one."""
    best = max(b.total for b in result.players)
    tied = [b for b in result.players if b.total == best]
    if not result.tie_broken:
        return None
    if len(result.winners) == 1:
        return (f"{_names([b.name for b in tied])} tie on {best} points; "
                f"{result.winners[0]} has the most Shard Fragment tokens remaining after "
                "conversion")
    return (f"{_names(list(result.winners))} tie on {best} points and on Shard "
            "Fragment tokens remaining; the rulebook breaks the tie no further, so "
            "they share the win")


def _score_report(result: FinalScore) -> tuple[dict[str, Any], list[str]]:
    """End of Game Scoring as JSON and as the lines of its table."""
    from companion.mutagen.files import printed_name

    best = max(b.total for b in result.players)
    tie_break = _tie_break(result)
    payload = {
        "players": [{
            "name": b.name, "score": b.score, "crew": b.crew_total,
            "crew_cards": [{"card": printed_name(c.crew), "id": c.crew.id, "points": c.points}
                           for c in b.crew],
            "storage": b.storage, "shards": b.shards, "trees": b.trees, "total": b.total,
            "shards_remaining": b.shards_left} for b in result.players],
        "winner": result.winners[0] if len(result.winners) == 1 else None,
        "winners": list(result.winners),
        "tie_break": tie_break,
    }
    rows = [["Player", "Before", "Crew", "Storage", "Shards", "Trees", "Total"]]
    rows += [[b.name, str(b.score), str(b.crew_total), str(b.storage), str(b.shards),
              str(b.trees), str(b.total)] for b in result.players]
    lines = ["Mutagen: end of game scoring", _table(rows)]
    for b in result.players:
        if b.crew:
            detail = ", ".join(f"{printed_name(c.crew)} {c.points}" for c in b.crew)
            lines.append(f"{b.name}'s Crew cards: {detail}")
    if tie_break:
        lines.append(f"Tie: {tie_break}.")
    lines.append(f"Winner: {_names(list(result.winners))} with {best} points")
    return payload, lines


@mutagen.command("round")
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@SAVE
@GAME
@DB
@JSON
def round_cmd(file: str | None, save: bool, game_id: int | None, db: str | None,
              as_json: bool) -> None:
    """End of round points: of the saved game (--save, no FILE: the Elements installed, the
    Storage columns filled and the Element trackers it kept), or from a YAML FILE of players.

    \b
    players:
      - name: Ann
        installed: 3               # Elements installed on the Airship (2 points each)
        columns: [left, right]     # Storage columns filled (1, 2, 3 points)
        tracks: {crystal: 1, gas: 3, liquid: 0, ore: 6}
      - name: Bob
        airship: {...}             # or the Airship itself, as for `airship`
        tracks: {ore: 2}
        card_elements: 2           # Plight of the People: Elements on that People card
    expansions: [plight-of-the-people]

    Tracks score 2 on space 1, 3 on spaces 2-3 and 4 on spaces 4-7. With --save and a FILE,
    in a game that keeps the Elements, the FILE must say what the saved game kept.
    """
    from companion.mutagen.data import load_rules
    from companion.mutagen.files import read_end_of_round
    from companion.mutagen.rules import end_of_round
    from components.errors import InputError

    rules = load_rules()
    saved_scores: dict[str, int] | None = None
    scores: list[RoundScore]
    if save or game_id is not None:
        _, done = _play(db, game_id, "round", file)
        scores, exp = done.detail
        saved_scores = done.state["scores"]
    else:
        if file is None:
            raise InputError("round reads a FILE of players, or the saved game (--save)")
        players, exp = read_end_of_round(file, rules)
        scores = [end_of_round(p, rules) for p in players]
    plight = "plight-of-the-people" in exp
    payload = {"players": [{
        "name": s.name, "installed": s.installed, "columns": s.columns,
        "tracks": dict(s.tracks), "total": s.total,
        **({"shards": s.shards} if plight else {})} for s in scores],
        **({"score_track": saved_scores} if saved_scores is not None else {})}
    lines = ["Mutagen: end of round points", _round_table(scores, rules, plight)]
    if saved_scores is not None:
        lines.append("Saved. Score track: "
                     + ", ".join(f"{n} {v}" for n, v in saved_scores.items()))
    emit(as_json, payload, lines)


def _round_table(scores: list[RoundScore], rules: Rules, plight: bool) -> str:
    head = ["Player", "Installed", "Columns", *[e.capitalize() for e in rules.elements], "Total"]
    if plight:
        head.append("Shards")
    rows = [head]
    for s in scores:
        row = [s.name, str(s.installed), str(s.columns),
               *[str(s.tracks[e]) for e in rules.elements], str(s.total)]
        if plight:
            row.append(f"+{s.shards}")
        rows.append(row)
    return _table(rows)


@mutagen.command("airship")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--element", "element", metavar="'COLOUR TYPE'",
              help="The Element to install, such as 'blue ore', or 'supreme'.")
@click.option("--at", "space", metavar="SPACE",
              help="The space to install it on (H1, H2, A1 ... C4); omit to try every space.")
@click.option("--tile", "tile", metavar="SQ,SQ",
              help="Check a Storage tile covering two squares instead, such as A3,A4.")
@JSON
def airship_cmd(file: str, element: str | None, space: str | None, tile: str | None,
                as_json: bool) -> None:
    """Check an Airship: may an Element go on a space, or a Storage tile on two squares?

    \b
    storage_tiles:                 # in the order they were placed
      - {at: [A1, A2], spaces: [any, ore]}          # the tile's two squares
      - {at: [B1, B2], tile: storage/13-any-pink}   # or a tile of the definitions
    installed:
      - {at: H1, element: blue ore}
      - {at: A2, element: supreme}

    The hull spaces H1 and H2 are open from the start; storage squares A1 ... C4 (columns
    left to right, rows top to bottom) once a Storage tile covers them.
    """
    from companion.mutagen.data import load_rules
    from companion.mutagen.files import read_airship
    from components.errors import InputError

    rules = load_rules()
    ship = read_airship(file, rules)
    if tile is not None:
        if element or space:
            raise InputError("give --tile alone, or --element (with or without --at)")
        _tile_check(ship, tile, rules, as_json)
    elif element is None:
        if space is not None:
            raise InputError("--at needs --element (the Element to install)")
        _spaces_report(ship, rules, as_json)
    else:
        _install_report(ship, element, space, rules, as_json)


def _tile_check(ship: Airship, tile: str, rules: Rules, as_json: bool) -> None:
    """May a Storage tile cover the two squares of ``tile`` (A3,A4), and for how much?"""
    from companion.mutagen.airship import place_tile_check

    cells = [c.strip().upper() for c in tile.split(",") if c.strip()]
    v = place_tile_check(ship, cells, rules)
    payload = {"tile": cells, "allowed": v.allowed, "reasons": list(v.reasons),
               "cost": v.cost if v.allowed else None}
    emit(as_json, payload,
         f"A Storage tile fits on {'+'.join(cells)}: pay {v.cost} Shard Fragment tokens."
         if v.allowed else f"No Storage tile on {'+'.join(cells)}: {'; '.join(v.reasons)}.")


def _spaces_report(ship: Airship, rules: Rules, as_json: bool) -> None:
    """The Airship's installation spaces, what each shows and holds, its filled Storage
    columns and the End of Round points it makes."""
    from companion.mutagen.airship import filled_columns, installation_spaces

    spaces = installation_spaces(ship, rules)
    placed = dict(ship.installed)
    cols = filled_columns(ship, rules)
    col_names = [str(c) for c in rules.airship["columns"]]
    pts = len(placed) * rules.installed_element + sum(rules.column_points[c] for c in cols)
    payload = {"spaces": {s: {"shows": r, "holds": placed[s].label() if s in placed
                              else None} for s, r in spaces.items()},
               "filled_columns": [col_names[c] for c in cols],
               "end_of_round": pts}
    lines = ["Installation spaces:"]
    for s, r in spaces.items():
        held = placed[s].label() if s in placed else "empty"
        lines.append(f"  {s}  shows {r:<8} {held}")
    lines.append("Filled Storage columns: "
                 + (", ".join(col_names[c] for c in cols) if cols else "none"))
    lines.append(f"End of round, from the Airship: {pts} points")
    emit(as_json, payload, lines)


def _install_report(ship: Airship, element: str, space: str | None, rules: Rules,
                    as_json: bool) -> None:
    """May ``element`` be installed on ``space`` (or, without one, on each space)?"""
    from companion.mutagen.airship import install_check, installation_spaces, parse_element

    el = parse_element(element, rules)
    targets = [space] if space else list(installation_spaces(ship, rules))
    verdicts = {t.upper(): install_check(ship, t, el, rules) for t in targets}
    payload = {"element": el.label(), "spaces": {
        s: {"allowed": v.allowed, "reasons": list(v.reasons)} for s, v in verdicts.items()}}
    lines = []
    for s, v in verdicts.items():
        if v.allowed:
            lines.append(f"{s}: yes, the {el.label()} may be installed here")
        else:
            lines.append(f"{s}: no: {'; '.join(v.reasons)}")
    emit(as_json, payload, lines)


@mutagen.command("setup")
@click.option("--players", "players_text", required=True,
              help="The players' names, comma-separated: Ann,Bob,Cy (1 to 4).")
@click.option("--expansion", "expansions", multiple=True, type=click.Choice(EXPANSION_CHOICES),
              help="A mini expansion in play (repeatable).")
@JSON
def setup_cmd(players_text: str, expansions: tuple[str, ...], as_json: bool) -> None:
    """Set-up help for the players (1 to 4): open Worker spaces and the cards to deal."""
    from companion.mutagen.data import load_rules
    from companion.mutagen.rules import setup

    rules = load_rules()
    from companion.names import check_names

    players = len(check_names(names(players_text)))
    s = setup(players, rules, expansions)
    open_spaces = [sp.position for sp in s.spaces if sp.open]
    payload = {"players": s.players, "expansions": list(s.expansions),
               "worker_spaces": [{"position": sp.position, "pips": sp.pips, "open": sp.open}
                                 for sp in s.spaces],
               "open_spaces_per_location": len(open_spaces),
               "locations": [name for _, name in rules.locations],
               "mutation_cards": s.mutation_cards, "people_cards": s.people_cards,
               "starting_shards": s.starting_shards, "starting_score": s.starting_score,
               "bonus_tokens": len(rules.progress_bonus_spaces)}
    lines: list[str] = []
    lines.append(f"Mutagen set-up for {players} player{'s' if players > 1 else ''}"
                 + (f" with {', '.join(s.expansions)}" if s.expansions else ""))
    lines.append(f"Worker spaces: at each of the {len(rules.locations)} locations, "
                 f"{len(open_spaces)} of 4 are open:")
    for sp in s.spaces:
        state = "open" if sp.open else "closed"
        lines.append(f"  space {sp.position} ({sp.pips} pip{'s' if sp.pips > 1 else ''}): {state}")
    if players == 1:
        lines.append("  (the rulebook's solo section is empty; these are the pips' rule)")
    lines.append(f"Each round, deal {s.mutation_cards} Mutation cards face up"
                 + (f" and {s.people_cards} People cards" if s.people_cards else "") + ".")
    lines.append(f"Each player: {s.starting_shards} Shard Fragment tokens, score tracker on "
                 f"{s.starting_score}, Element trackers on 0, Progress tracker on the first space.")
    lines.append(f"Board: 9 Element tiles, 3 Storage tiles, 3 Crew cards, 3 Tree cards; "
                 f"{len(rules.progress_bonus_spaces)} Bonus tokens on the progress track "
                 "(the rest back in the box).")
    if "palace-visitors" in s.expansions:
        lines.append("Palace: the Palace board beside the Game board, Visitor cards shuffled "
                     "face down beside it.")
    emit(as_json, payload, lines)


@mutagen.command("new")
@click.option("--players", "players_text", required=True,
              help="The players' names, comma-separated: Ann,Bob,Cy (1 to 4).")
@click.option("--expansion", "expansions", multiple=True, type=click.Choice(EXPANSION_CHOICES),
              help="A mini expansion in play (repeatable).")
@click.option("--bonus", "bonus", multiple=True, metavar="SPACE=KIND",
              help="The Bonus token laid on each Bonus space of the progress track: "
                   "3=shards,6=points,... (kinds: shards, element, track, points); "
                   "default: drawn by the companion.")
@click.option("--seed", type=SEED, help="Makes the drawn Bonus tokens repeatable.")
@click.option("--elements", is_flag=True,
              help="Keep the Elements too: each one taken is typed ('element'), Tree cards "
                   "and Element tracks name the Elements spent, Storage tiles their id; the "
                   "End of Round and End of Game Scoring then need no file.")
@NAME
@DB
@JSON
def new_cmd(players_text: str, expansions: tuple[str, ...], bonus: tuple[str, ...],
            seed: int | None, elements: bool, game_name: str | None, db: str | None,
            as_json: bool) -> None:
    """Start a saved game for the players (1 to 4 names): the score track, Element and
    Progress trackers, Shard Fragments and the Bonus tokens on the progress track (and with
    --elements each player's storage and Airship)."""
    from companion.mutagen.data import cards, load_rules
    from companion.mutagen.saved import describe, lay_bonus, new_setup

    rules = load_rules()
    copies = {k: n for k, (_, n) in cards().bonus.items()}
    laid = lay_bonus(rules, copies, pairs(bonus, "--bonus"), seed)
    from companion.names import check_names

    setup_data = new_setup(check_names(names(players_text)), rules, expansions, laid,
                           elements)
    game, state = create(db, "mutagen", setup_data, game_name)
    tokens = ", ".join(f"{k} {v}" for k, v in laid.items())
    emit(as_json, {"game": game.id, "name": game.name, "state": state},
         [f"Saved game {game.id} ({game.name}). {describe(state)}",
          f"Bonus tokens on the progress track: {tokens}" + ("" if bonus else
                                                              " (drawn: lay them so)")])


START = "irata play mutagen new --players A,B,C"
_OWN = ("round", "score")   # calculators as well as moves: written above
# the moves, next and turn: commands made on first use (irata.play.declared.DeclaredGroup)
mutagen.declare("mutagen", "Mutagen", START, MOVES, own=_OWN, signed=("points", "shards"))
