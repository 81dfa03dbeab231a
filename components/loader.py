"""The loader: a game folder of YAML -> a validated ``Game`` (errata applied)."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path
from typing import Any

from components.errors import (
    DefinitionError,
    InputError,
    attempt,
    found_so_far,
    stop_if_failed,
)
from components.fit import check_fits
from components.schema import (
    FILE_KEYS,
    GAME_KEY_RE,
    GAME_KEYS,
    LIMITS,
    Component,
    Game,
    InventoryGroup,
    check_colour_map,
    check_distinct,
    check_elements,
    check_fonts,
    check_ink_saver,
    check_inventory,
    check_keys,
    check_players,
    err,
    expect_mapping,
    quoted,
    suggest,
)
from components.stamp import stamp as folder_stamp
from components.yamlloc import LocDict, LocList, load_file

__all__ = ["Component", "Game", "InventoryGroup", "game_folder", "list_games", "load",
           "load_path"]

BUNDLED = Path(__file__).resolve().parent


def _folders(root: Path) -> dict[str, Path]:
    """Game name -> folder, for a root holding game folders (or being one)."""
    if (root / "game.yaml").is_file():
        return {_game_name(root): root}
    found: dict[str, Path] = {}
    if root.is_dir():
        for sub in sorted(root.iterdir()):
            if (sub / "game.yaml").is_file():
                found[_game_name(sub)] = sub
    return found


def _game_name(folder: Path) -> str:
    """A folder's game name (``game:`` in its game.yaml), read once per version of the file."""
    from components.confine import ConfineError, read_inside
    from components.stamp import MAX_FILE_BYTES

    path = folder / "game.yaml"
    try:
        # a game.yaml that is a link out of the folder is refused before a byte is read
        data = read_inside(path, folder, MAX_FILE_BYTES)
    except ConfineError:
        return folder.name.replace("_", "-")
    key = (str(path), hashlib.blake2b(data, digest_size=16).hexdigest())
    if key not in _NAMES:
        _NAMES[key] = _read_game_name(path, folder)
    return _NAMES[key]


def _read_game_name(path: Path, folder: Path) -> str:
    try:
        raw = load_file(path)
    except DefinitionError:
        return folder.name.replace("_", "-")
    if isinstance(raw, dict) and isinstance(raw.get("game"), str):
        return str(raw["game"])
    return folder.name.replace("_", "-")


def list_games(root: Path | None = None) -> list[str]:
    """The names of the games under ``root`` (default: the bundled games)."""
    return list(_folders(root or BUNDLED))


def game_folder(game: str, root: Path | None = None) -> Path:
    folders = _folders(root or BUNDLED)
    if game in folders:
        return folders[game]
    alt = game.replace("_", "-")
    if alt in folders:
        return folders[alt]
    where = str(root) if root else "the bundled games"
    raise InputError(f"no game '{game}' in {where} (games: {', '.join(folders) or 'none'}"
                     f"{suggest(game, list(folders))})")


# Parse once per process: a game folder is read again only when one of its YAML files is added,
# changed or removed (the stamp). Keyed by the folder and whether errata are applied.
_CACHE: dict[tuple[str, bool, int], tuple[str, Game]] = {}
_NAMES: dict[tuple[str, str], str] = {}


def load(game: str, root: Path | None = None, errata: bool = True,
         shared: bool = False) -> Game:
    """Load a game by its command-line name, from the bundled games or from ``root``."""
    return load_path(game_folder(game, root), errata=errata, shared=shared)


def _yaml_files(folder: Path) -> list[Path]:
    found = []
    for p in sorted(folder.rglob("*.yaml")):
        if p.name in ("game.yaml", "errata.yaml"):
            continue
        confined(p, folder)
        if p.is_file():
            found.append(p)
    return found


def confined(path: Path, folder: Path) -> Path:
    """``path`` resolved (symlinks followed), which must lie inside the game ``folder``.

    A game folder is shared like any file: a definition that is a symlink to a file elsewhere
    (or to nowhere, or to itself) is refused by name, and its target is never read."""
    from components.confine import ConfineError, inside

    try:
        return inside(path, folder)
    except ConfineError as exc:
        raise DefinitionError(str(exc).removeprefix("is "), _shown(path)) from None


def load_path(folder: Path | str, errata: bool = True, shared: bool = False) -> Game:
    """Load the game folder at ``folder`` (validated; errata applied unless ``errata=False``).

    ``shared``: the cached game itself, not a copy of its own (``_own``), for a caller that
    changes nothing of it (a watch's rebuild: copying 10,000 components takes 0.1 s)."""
    folder = Path(folder).resolve()
    if not (folder / "game.yaml").is_file():
        raise InputError(f"{folder}: no game.yaml here (a game folder holds game.yaml and its "
                         "component files)")
    if (folder / "errata.yaml").is_symlink():
        confined(folder / "errata.yaml", folder)
    errata = errata and (folder / "errata.yaml").is_file()
    # the piece bound is part of the key: a game read under --max-pieces 5000 is read again
    # under the default (or --max-pieces 9), so the bound in force is the one checked
    key, stamp = (str(folder), errata, LIMITS.pieces), folder_stamp(folder)
    hit = _CACHE.get(key)
    if hit is None or hit[0] != stamp:
        before = found_so_far()
        game = _read_checked(folder, errata)
        if found_so_far() > before or not _KEPT[0]:
            # read with its mistakes left out (irata check): never cached; nor while
            # ``read_once`` (then not copied either)
            return game
        hit = _CACHE[key] = (stamp, game)
    return hit[1] if shared else _own(hit[1])


def _read_checked(folder: Path, errata: bool) -> Game:
    """The game at ``folder`` read, its errata applied, its fits checked: what ``load_path``
    caches, for a process that reads it once."""
    before = found_so_far()
    if not errata:
        game = _read(folder)
    else:
        from components.errata import apply_errata

        base = load_path(folder, errata=False)
        # (errata naming a component left out for its mistake would only repeat it)
        game = base if found_so_far() > before else apply_errata(base, folder / "errata.yaml")
    with attempt():
        check_fits(game)
    return game


_KEPT = [True]  # whether games read are kept for the next read (``read_once``)


class read_once:  # noqa: N801 (used as a context manager)
    """While it lasts, a game read is not kept for a next read of this process, and not
    copied for its caller (``_own``): a one-off print reads each game once, and a 10,000-card
    deck's copy of every Component is 2 MiB it would hold for nothing."""

    def __enter__(self) -> None:
        self.was = _KEPT[0]
        _KEPT[0] = False

    def __exit__(self, *exc: object) -> None:
        _KEPT[0] = self.was


def _own(game: Game) -> Game:
    """The cached game with its own component list and Component values, so that a caller who
    sets ``comp.version`` or appends a component changes only its copy. The field values are
    shared: no caller changes them in place (errata build new ones), and a deep copy per load
    would cost what the cache saves."""
    return dataclasses.replace(game, components=[_copy(c) for c in game.components])


def _copy(comp: Component) -> Component:
    """``dataclasses.replace(comp)`` for a Component (plain fields, nothing computed at
    construction), at a fraction of its cost: a long deck is copied on every load."""
    new = object.__new__(Component)
    for name in _SLOTS:
        setattr(new, name, getattr(comp, name))
    return new


_SLOTS: tuple[str, ...] = Component.__slots__


# each component item of the last read (while yamlloc.KEEP: a watch) and what it parsed as,
# by the item's identity: an item a re-read kept (its file unchanged, or its lines outside the
# changed ones) is parsed again only when its defaults or the layouts changed
_PARSED: dict[int, tuple[Any, Any, Any, str, Component]] = {}


def _shown(path: Path) -> str:
    """A path as shown in messages: relative to the working directory where possible."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _read(folder: Path) -> Game:
    from components.textstyle import check_hyphenate, check_keywords

    game_file = folder / "game.yaml"
    # what is read is the file the check resolved, never the name again
    raw = load_file(confined(game_file, folder), _shown(game_file))
    g = expect_mapping(raw, "game.yaml", raw)
    check_keys(g, GAME_KEYS, "game.yaml")
    key = g.get("game") or folder.name.replace("_", "-")
    if not isinstance(key, str) or not GAME_KEY_RE.fullmatch(key):
        where = (g, "game") if "game" in g else (g, None)
        raise err(f"the game's name {quoted(key)} must be one word of letters, digits, - "
                  "and _ (at most 64), such as 'my-game': it names the output folder", *where)
    for req in ("name",):
        if req not in g:
            raise err(f"game.yaml needs '{req}'", g)
    edition = g.get("edition", "1.0")
    if not isinstance(edition, (str, int, float)):
        raise err("edition must be text such as \"1.0\"", g, "edition")
    author = g.get("author", "")
    if not isinstance(author, str) or len(author) > 200:
        raise err("author must be text such as \"Ann Example\" (at most 200 characters)", g,
                  "author")
    palette = check_colour_map(g.get("palette"), g, "palette")
    fonts, font_files = check_fonts(g.get("fonts"), g, folder)
    icons_raw = g.get("icons") or {}
    icons = dict(expect_mapping(icons_raw, "icons", g, "icons")) if icons_raw else {}
    data: dict[str, Any] = {}
    data_src: dict[str, str] = {}
    layouts: dict[str, Any] = {}
    layout_src: dict[str, str] = {}

    def merge(target: dict[str, Any], src: dict[str, str], node: LocDict, what: str,
              file: str) -> None:
        for name, value in node.items():
            if name in target:
                raise err(f"{what} '{name}' is defined twice (also in {src[name]})", node, name)
            target[name] = value
            src[name] = file

    if g.get("data") is not None:
        merge(data, data_src, expect_mapping(g["data"], "data", g, "data"), "data",
              _shown(game_file))
    if g.get("layouts") is not None:
        merge(layouts, layout_src, expect_mapping(g["layouts"], "layouts", g, "layouts"),
              "layout", _shown(game_file))

    files = []
    start = found_so_far()  # irata check and print report every mistake: components.errors
    for path in _yaml_files(folder):
        with attempt():  # each file alone
            shown = _shown(path)
            doc = load_file(confined(path, folder), shown)
            if doc is None:
                continue
            doc = expect_mapping(doc, f"{path.name}", doc)
            check_keys(doc, FILE_KEYS, "a component file")
            if doc.get("data") is not None:
                merge(data, data_src, expect_mapping(doc["data"], "data", doc, "data"), "data",
                      shown)
            if doc.get("layouts") is not None:
                merge(layouts, layout_src, expect_mapping(doc["layouts"], "layouts", doc,
                                                          "layouts"), "layout", shown)
            files.append((shown, doc, path))
    stop_if_failed(start)  # a file left out would make its layouts' users fail too

    broken: set[str] = set()  # layouts with a mistake: the components using them are left out
    for name, elements in layouts.items():
        before = found_so_far()
        with attempt():
            check_elements(elements, _holder_of(layouts, name), name, layouts,
                           f"layout '{name}'")
        if found_so_far() > before:
            broken.add(name)
    at_icons = found_so_far()
    for name, elements in icons.items():
        with attempt():
            check_elements(elements, icons_raw, name, layouts, f"icon '{name}'")
    # (an icon with a mistake is drawn by every face and sheet that sets its name: reported
    # here, with what was found so far, before anything draws it)
    stop_if_failed(at_icons)

    from components.schema import MAX_COUNT, check_reserved_typos, parse_component

    players = check_players(g.get("players"), g)
    components: list[Component] = []
    seen: dict[str, str] = {}
    pieces = 0
    dropped = False
    from components import yamlloc

    keep = yamlloc.KEEP
    parsed: dict[int, tuple[Any, Any, Any, str, Component]] = {}
    layout_items = tuple(layouts.items())
    for shown, doc, path in files:
        defaults = doc.get("defaults") or LocDict()
        defaults = expect_mapping(defaults, "defaults", doc, "defaults")
        check_reserved_typos(defaults, "defaults")
        comps = doc.get("components")
        if comps is not None and not isinstance(comps, LocList):
            raise err("components must be a list (each item starting with '- id: ...')",
                      doc, "components")
        sources = [(shown, comps)] if comps is not None else []
        if doc.get("components_from") is not None:
            sources.append(_table_items(doc, path, folder, defaults, layouts))
        for source, items in sources:
            for i, item in enumerate(items):
                before = found_so_far()
                with attempt():  # each component alone
                    item = expect_mapping(item, f"component {i + 1}", items, i)
                    hit = _PARSED.get(id(item)) if keep else None
                    if hit is not None and hit[0] is item and hit[1] is defaults and \
                            hit[3] == source and hit[2] == layout_items:
                        comp = hit[4]
                    else:
                        comp = parse_component(item, defaults, layouts, source)
                    if keep:
                        parsed[id(item)] = (item, defaults, layout_items, source, comp)
                    if comp.id in seen:
                        raise err(f"component id '{comp.id}' is used twice (also at "
                                  f"{seen[comp.id]})", item, "id")
                    seen[comp.id] = f"{source}:{comp.line}"
                    if comp.per_player:
                        comp.count = comp.per_player * players["max"]
                        if comp.count > MAX_COUNT:
                            raise err(f"count_per_player {comp.per_player} for "
                                      f"{players['max']} players makes {comp.count} copies, "
                                      f"more than {MAX_COUNT}", item, "count_per_player")
                if found_so_far() > before:
                    dropped = True
                    continue
                if broken and uses_layouts(comp, layouts) & broken:
                    dropped = True  # its layout's mistake is reported already
                    continue
                comp.version = str(edition)
                components.append(comp)
                pieces += comp.count
                if pieces > LIMITS.pieces:
                    raise err(f"the game's components make more than {LIMITS.pieces} pieces "
                              + ("(the --max-pieces given)" if LIMITS.given else
                                 "(irata print --max-pieces N allows more)"),
                              item, "count" if "count" in item else None)

    _PARSED.clear()
    if keep and not dropped:
        _PARSED.update(parsed)
    inventory: list[Any] = []
    players = {"min": 1, "max": 1}
    ink_saver: dict[str, str] = {}
    distinct: dict[str, list[str]] = {}
    with attempt():
        inventory = check_inventory(g.get("inventory"), g)
    with attempt():
        players = check_players(g.get("players"), g)
    with attempt():
        ink_saver = check_ink_saver(g.get("ink_saver"), g, palette)
    with attempt():
        distinct = check_distinct(g.get("distinct"), g, palette)
    keywords: dict[str, Any] = {}
    hyphenate = ""
    with attempt():
        keywords = check_keywords(g.get("keywords"), g, palette, fonts)
    with attempt():
        hyphenate = check_hyphenate(g.get("hyphenate"), g)
    game = Game(key=key, folder=folder,
                name=str(g["name"]), edition=str(edition),
                players=players, palette=palette, fonts=fonts,
                icons=icons, inventory=inventory, data=data, layouts=layouts,
                components=components, base_edition=str(edition), font_files=font_files,
                ink_saver=ink_saver, author=" ".join(author.split()), distinct=distinct,
                keywords=keywords, hyphenate=hyphenate)
    if not dropped:  # (a component left out would make its group's count differ)
        with attempt():
            _check_inventory_counts(game, g)
    return game


def uses_layouts(comp: Component, layouts: dict[str, Any]) -> set[str]:
    """The layouts a component's faces draw, through the layouts they use."""
    out: set[str] = set()
    todo: list[Any] = [comp.front, comp.back]
    while todo:
        node = todo.pop()
        if isinstance(node, str):
            if node in layouts and node not in out:
                out.add(node)
                todo.append(layouts[node])
        elif isinstance(node, dict):
            todo.extend(v for k, v in node.items() if k == "layout")
        elif isinstance(node, list):
            todo.extend(node)
    return out


def _table_items(doc: LocDict, path: Path, folder: Path, defaults: LocDict,
                 layouts: dict[str, Any]) -> tuple[str, LocList]:
    """The rows of the spreadsheet a component file's ``components_from:`` names."""
    from components.tables import read_table, rows_to_items, table_path

    table, sheet = table_path(doc["components_from"], doc, path.parent, folder)
    shown = _shown(table)
    rows = read_table(table, shown, sheet, doc["components_from"])
    return shown, rows_to_items(rows, shown, defaults, layouts)


def _holder_of(layouts: dict[str, Any], name: str) -> Any:
    value = layouts[name]
    return value if isinstance(value, (LocDict, LocList)) else None


def _check_inventory_counts(game: Game, g: LocDict) -> None:
    """Each inventory group's count must equal the components' copies in that group."""
    if not game.inventory:
        return
    counts = game.counts()
    names = [i.group for i in game.inventory]
    inv = g.get("inventory")
    # a group the inventory does not list first: a misspelt group is the cause of the count
    # that then falls short, and the place to fix it is the component's 'group:'
    for comp in game.components:
        if comp.group and comp.group not in names:
            file, line, col = comp.marks.get("group") or (comp.file, comp.line, None)
            raise DefinitionError(
                f"component '{comp.id}' is in group '{comp.group}', which the inventory in "
                f"game.yaml does not list{suggest(comp.group, names)}", file, line, col)
    for i, item in enumerate(game.inventory):
        have = counts.get(item.group, 0)
        if item.printed and have != item.count:
            raise err(f"inventory group '{item.group}' lists {item.count} but the components "
                      f"in it make {have}", inv, i)
