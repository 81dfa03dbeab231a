"""Reading the companion's YAML input files into rule values, with FILE:LINE:COL errors.

Files are read with ``components.yamlloc`` (safe loading that keeps every value's position),
so a wrong value is reported where it stands in the file.
"""

from __future__ import annotations

import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.mutagen.airship import (
    Airship,
    Element,
    PlacedTile,
    build,
    check_restriction,
    parse_element,
)
from companion.mutagen.rules import (
    PLIGHT,
    Crew,
    PlayerEnd,
    PlayerRound,
    Rules,
    Tracks,
    check_cards_held,
    check_crew,
    check_expansions,
    starting_score,
)
from components.errors import DefinitionError, InputError, IrataError, RuleError
from components.stamp import MAX_FILE_BYTES
from components.yamlloc import LocDict, LocList, existing_file, load_file, load_text

if TYPE_CHECKING:
    from companion.mutagen.data import Catalogue

COLUMN_NAMES = {"left": 0, "middle": 1, "right": 2, "a": 0, "b": 1, "c": 2, "1": 0, "2": 1,
                "3": 2}


def located(msg: str, node: Any, key: str | int | None = None) -> InputError:
    """An InputError naming FILE:LINE:COL of ``node`` (or of one of its keys or items)."""
    from components.schema import mark_of

    file, line, col = mark_of(node, key)
    file = file or "<input>"
    return InputError(f"{file}:{line}:{col}: {msg}" if line else f"{file}: {msg}")


def file_text(path: str | Path) -> str:
    """The text of an input file, read as ``load_file`` reads it (a plain file, not too
    large, UTF-8), so that a saved game's move carries the file's text and plays it purely."""
    source = str(path)
    p = existing_file(Path(path))
    try:
        st = p.stat()
        if not stat.S_ISREG(st.st_mode):  # a pipe or a device would be read for ever
            raise DefinitionError("not a plain file (a pipe, a device or a folder)", source)
        if st.st_size > MAX_FILE_BYTES:
            raise DefinitionError(f"larger than {MAX_FILE_BYTES // 1_000_000} MB; a definition "
                                  "file is hand-written YAML", source)
        return p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DefinitionError(f"not UTF-8 text ({exc.reason})", source) from None
    except OSError as exc:
        raise DefinitionError(f"cannot read the file ({exc.strerror})", source) from None


def read(path: str | Path, text: str | None = None) -> LocDict:
    """The file at ``path`` as YAML; with ``text``, that text (the file's, read already by
    :func:`file_text`), its errors named by ``path``."""
    if text is None:
        doc = load_file(existing_file(Path(path)), str(path))
    else:
        doc = load_text(text, str(path))
    if not isinstance(doc, LocDict):
        raise InputError(f"{path}:1:1: expected a mapping with 'players:' (see --help)")
    return doc


def _mapping(node: Any, parent: Any, key: str | int, what: str) -> LocDict:
    if not isinstance(node, LocDict):
        raise located(f"{what} must be a mapping ('key: value')", parent, key)
    return node


def _list(node: Any, parent: Any, key: str | int, what: str) -> LocList:
    if not isinstance(node, LocList):
        raise located(f"{what} must be a list", parent, key)
    return node


def _keys(node: LocDict, allowed: tuple[str, ...], what: str) -> None:
    for k in node:
        if k not in allowed:
            raise located(f"unknown key '{k}' in {what} (expected one of: {', '.join(allowed)})",
                          node, k)


MAX_PLAYERS = 100  # in a score file: Mutagen seats 1 to 4, a league's sheet a few more
MAX_NUMBER = 1_000_000  # any count in a score file


def _count(node: LocDict, key: str, default: int | None = None, top: int | None = None) -> int:
    if key not in node:
        if default is None:
            raise located(f"'{key}' is missing", node)
        return default
    value = node[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise located(f"'{key}' must be a whole number 0 or more, not {value!r}", node, key)
    top = MAX_NUMBER if top is None else top
    if value > top:
        raise located(f"'{key}' must be at most {top}, not {value}", node, key)
    return value


def _expansions(doc: LocDict) -> tuple[str, ...]:
    raw = doc.get("expansions", [])
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list):
        raise located("'expansions' must be a list", doc, "expansions")
    try:
        return check_expansions([str(e) for e in raw])
    except InputError as exc:
        raise located(str(exc), doc, "expansions") from None


def _players(doc: LocDict) -> LocList:
    if "players" not in doc:
        raise located("'players:' is missing (a list of players)", doc)
    players = _list(doc["players"], doc, "players", "'players'")
    if not players:
        raise located("'players' lists nobody", doc, "players")
    if len(players) > MAX_PLAYERS:
        raise located(f"'players' lists {len(players)} players (at most {MAX_PLAYERS})", doc,
                      "players")
    return players


def _name(p: LocDict) -> str:
    name = p.get("name")
    if not isinstance(name, str) or not name.strip():
        raise located("each player needs a 'name'", p, "name" if "name" in p else None)
    return name


def _tracks(p: LocDict, rules: Rules) -> Tracks:
    raw = _mapping(p.get("tracks", LocDict()), p, "tracks", "'tracks'")
    _keys(raw, rules.elements, "'tracks'")
    return Tracks(**{e: _count(raw, e, 0, rules.track_length) for e in rules.elements})


def _catalogue() -> Catalogue:
    """Crew cards and Storage tiles by id (and the Crew cards' titles), from the definitions."""
    from companion.mutagen.data import catalogue

    return catalogue()


def crew_card(name: str, element: str | None = None, left: str | None = None,
              right: str | None = None) -> Crew:
    """A Crew card of the definitions, as the table names it: by its id (``crew/ladder-ore``,
    ``ladder-ore``) or by its printed title (``Climber``), with the Element(s) it shows when
    several cards share the title (``Climber ore``; ``Rival crystal gas``, left then right)."""
    cards, _, titles = _catalogue()
    text = " ".join(name.split())
    key = text if text in cards else f"crew/{text}"
    if key in cards and element is left is right is None:
        return cards[key]
    title, shown = _split_title(text, set(titles.values()))
    if title is None:
        from components.schema import suggest

        known = sorted(set(titles.values()))
        raise InputError(f"no Crew card '{name}'{suggest(text, known)} (the cards' titles: "
                         f"{', '.join(known)}; or an id such as {next(iter(cards))})")
    given = [e for e in (element, left, right) if e is not None] or shown
    matching = [cards[i] for i, t in titles.items() if t == title]
    found = [c for c in matching if _shows(c, given)]
    if len(found) == 1:
        return found[0]
    ways = ", ".join(f"'{_label(title, c)}'" for c in matching)
    if not found:
        raise InputError(f"no Crew card '{title}' shows {' and '.join(given)} "
                         f"(the {title} cards: {ways})")
    raise InputError(f"{len(found)} Crew cards are titled '{title}': say which by the "
                     f"Element(s) it shows: {ways}")


def printed_name(crew: Crew) -> str:
    """A Crew card as it is printed (``Climber ore``), as ``crew_card`` reads it back; a card
    given by its kind alone that no printed card matches keeps its kind (``ladder ore``)."""
    cards, _, titles = _catalogue()
    card_id = crew.id if crew.id in titles else next(
        (i for i, c in cards.items() if (c.kind, c.element, c.left, c.right)
         == (crew.kind, crew.element, crew.left, crew.right)), None)
    if card_id is None:
        return crew.label()
    title = titles[card_id]
    alike = [i for i, t in titles.items() if t == title]
    return title if len(alike) == 1 else _label(title, cards[card_id])


def _split_title(text: str, titles: set[str]) -> tuple[str | None, list[str]]:
    """A printed title at the start of ``text`` (any case), and the words after it."""
    low = text.lower()
    for title in sorted(titles, key=len, reverse=True):
        t = title.lower()
        if low == t or low.startswith(t + " "):
            return title, [w.lower() for w in text[len(t):].split()]
    return None, []


def _shows(crew: Crew, given: list[str]) -> bool:
    if not given:
        return True
    if crew.element is not None:
        return given == [crew.element]
    if crew.left is not None:
        return given == [crew.left, crew.right]
    return False


def _label(title: str, crew: Crew) -> str:
    shown = [e for e in (crew.element, crew.left, crew.right) if e]
    return " ".join([title, *shown])


def _crew(items: Any, p: LocDict, rules: Rules) -> tuple[Crew, ...]:
    items = _list(items, p, "crew", "'crew'")
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, str):
            item = _mapping(item, items, i, "a Crew card")
            _keys(item, ("id",) if "id" in item else ("title", "element", "left", "right")
                  if "title" in item else ("kind", "element", "left", "right"), "a Crew card")
            if "id" not in item and "kind" not in item and "title" not in item:
                raise located("a Crew card needs its 'title' (or 'kind', or 'id')", items, i)
        try:
            if isinstance(item, str):
                out.append(crew_card(item))
            elif "id" in item:
                out.append(crew_card(str(item["id"])))
            elif "title" in item:
                out.append(crew_card(str(item["title"]), item.get("element"), item.get("left"),
                                     item.get("right")))
            else:
                out.append(check_crew(Crew(kind=str(item["kind"]), element=item.get("element"),
                                           left=item.get("left"), right=item.get("right")),
                                      rules))
        except InputError as exc:
            raise located(str(exc), items, i) from None
    return tuple(out)


def _trees(p: LocDict, rules: Rules) -> tuple[str, ...]:
    raw = _list(p.get("trees", LocList()), p, "trees", "'trees'")
    for i, colour in enumerate(raw):
        if colour not in rules.tree_colours:
            raise located(f"no Tree card colour '{colour}' (expected one of: "
                          f"{', '.join(rules.tree_colours)})", raw, i)
    return tuple(str(c) for c in raw)


def _unique(players: list[Any], doc: LocDict) -> None:
    seen: set[str] = set()
    for i, p in enumerate(players):
        if p.name in seen:
            raise located(f"the name '{p.name}' is given twice", doc["players"], i)
        seen.add(p.name)


def read_end_of_game(path: str | Path, rules: Rules, keep_missing_score: bool = False,
                     text: str | None = None) -> tuple[list[PlayerEnd], tuple[str, ...]]:
    """The ``score`` command's file: each player as End of Game Scoring finds them.

    A player without ``score`` starts from the game's starting score, or, with
    ``keep_missing_score``, gets -1 for the caller to fill in (from a saved game). With
    ``text``, the file's text read already (:func:`file_text`).
    """
    doc = read(path, text)
    _keys(doc, ("players", "expansions"), "the file")
    exp = _expansions(doc)
    items = _players(doc)
    out = []
    for i, raw in enumerate(items):
        p = _mapping(raw, items, i, "a player")
        _keys(p, ("name", "score", "tracks", "crew", "storage", "shards", "trees"), "a player")
        out.append(PlayerEnd(
            name=_name(p),
            score=_count(p, "score", -1 if keep_missing_score else starting_score(rules, exp)),
            tracks=_tracks(p, rules), crew=_crew(p.get("crew", LocList()), p, rules),
            storage=_count(p, "storage", 0), shards=_count(p, "shards", 0),
            trees=_trees(p, rules), tracks_given="tracks" in p))
    _unique(out, doc)
    from companion.mutagen.data import element_tokens, printed_copies

    box = element_tokens(PLIGHT in exp)
    stored = sum(p.storage for p in out)
    if stored > box:
        raise located(f"the players' storage holds {stored} Elements, but the game has only "
                      f"{box}", doc, "players")
    crew_copies, tree_copies = printed_copies()
    try:
        check_cards_held(out, crew_copies, tree_copies, printed_name)
    except RuleError as exc:
        raise located(str(exc), doc, "players") from None
    return out, exp


def _columns(p: LocDict) -> tuple[int, ...]:
    raw = _list(p.get("columns", LocList()), p, "columns", "'columns'")
    out = []
    for i, c in enumerate(raw):
        key = str(c).lower()
        if key not in COLUMN_NAMES:
            raise located(f"a filled Storage column is left, middle or right, not {c!r}", raw, i)
        out.append(COLUMN_NAMES[key])
    return tuple(sorted(set(out)))


def read_end_of_round(path: str | Path, rules: Rules, text: str | None = None
                      ) -> tuple[list[PlayerRound], tuple[str, ...]]:
    """The ``round`` command's file: installed Elements, filled columns, tracks per player.

    A player gives ``installed`` and ``columns``, or an ``airship`` (as the airship file
    describes one) from which both are counted. With ``text``, the file's text read already
    (:func:`file_text`).
    """
    from companion.mutagen.airship import filled_columns

    doc = read(path, text)
    _keys(doc, ("players", "expansions", "round"), "the file")
    exp = _expansions(doc)
    items = _players(doc)
    out = []
    for i, raw in enumerate(items):
        p = _mapping(raw, items, i, "a player")
        _keys(p, ("name", "tracks", "installed", "columns", "airship", "card_elements"),
              "a player")
        if "card_elements" in p and PLIGHT not in exp:
            raise located("'card_elements' belongs to the Plight of the People expansion "
                          f"(add 'expansions: [{PLIGHT}]')", p, "card_elements")
        if "airship" in p:
            if "installed" in p or "columns" in p:
                raise located("give either 'airship' or 'installed' and 'columns'", p, "airship")
            ship = airship_from(_mapping(p["airship"], p, "airship", "'airship'"), rules)
            installed, cols = len(ship.installed), filled_columns(ship, rules)
        else:
            installed, cols = _count(p, "installed", 0), _columns(p)
        out.append(PlayerRound(_name(p), installed, cols, _tracks(p, rules),
                               _count(p, "card_elements", 0)))
    _unique(out, doc)
    return out, exp


def airship_from(doc: LocDict, rules: Rules) -> Airship:
    """An Airship from a mapping of ``storage_tiles`` and ``installed`` Elements, checked."""
    _keys(doc, ("storage_tiles", "installed"), "an airship")
    tiles = []
    raw_tiles = _list(doc.get("storage_tiles", LocList()), doc, "storage_tiles",
                      "'storage_tiles'")
    for i, raw in enumerate(raw_tiles):
        t = _mapping(raw, raw_tiles, i, "a Storage tile")
        _keys(t, ("at", "tile", "spaces"), "a Storage tile")
        at = _list(t.get("at"), t, "at", "'at' (two squares such as [A1, A2])")
        if len(at) != 2:
            raise located("'at' names the two squares the tile covers, such as [A1, A2]", t, "at")
        if ("tile" in t) == ("spaces" in t):
            raise located("a Storage tile gives either 'tile' (its id) or 'spaces' "
                          "(its two squares' restrictions)", t)
        try:
            if "tile" in t:
                tile_id = str(t["tile"])
                known = _catalogue()[1]
                key = tile_id if tile_id in known else f"storage/{tile_id}"
                if key not in known:
                    raise InputError(f"no Storage tile '{tile_id}' in the definitions")
                spaces, tid = known[key], key
            else:
                sp = _list(t["spaces"], t, "spaces", "'spaces'")
                if len(sp) != 2:
                    raise InputError("'spaces' lists the tile's two squares, such as [any, ore]")
                spaces, tid = (check_restriction(sp[0], rules),
                               check_restriction(sp[1], rules)), None
            tiles.append(PlacedTile((str(at[0]).upper(), str(at[1]).upper()), spaces, tid))
        except InputError as exc:
            raise located(str(exc), raw_tiles, i) from None
    installed: list[tuple[str, Element]] = []
    raw_el = _list(doc.get("installed", LocList()), doc, "installed", "'installed'")
    for i, raw in enumerate(raw_el):
        e = _mapping(raw, raw_el, i, "an installed Element")
        _keys(e, ("at", "element"), "an installed Element")
        if "at" not in e or "element" not in e:
            raise located("an installed Element gives 'at' (a space) and 'element'", e)
        try:
            installed.append((str(e["at"]).upper(), parse_element(str(e["element"]), rules)))
        except InputError as exc:
            raise located(str(exc), raw_el, i) from None
    # checked one by one, in the file's order, so that an error names its own line
    ship = Airship()
    for i, placed in enumerate(tiles):
        try:
            ship = build(ship.tiles + (placed,), (), rules)
        except (RuleError, InputError) as exc:
            raise located(str(exc), raw_tiles, i) from None
    for i, (space, element) in enumerate(installed):
        try:
            ship = build(ship.tiles, ship.installed + ((space, element),), rules)
        except (RuleError, InputError) as exc:
            raise located(str(exc), raw_el, i) from None
    return ship


def read_airship(path: str | Path, rules: Rules) -> Airship:
    """The ``airship`` command's file."""
    return airship_from(read(path), rules)


__all__ = ["IrataError", "airship_from", "crew_card", "file_text", "located", "read_airship",
           "read_end_of_game", "read_end_of_round"]
