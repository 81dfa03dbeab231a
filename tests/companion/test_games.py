"""The registry: every game declared once, in the same shape, and listed from there alone."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import click
import pytest

from companion import games
from companion.session import Event
from irata.cli import cli

ROOT = Path(__file__).resolve().parents[2]
NAMES = [g.name for g in games.GAMES]
SHAPE = ("rules.py", "data.py", "saved.py")


def test_the_registry_holds_the_five_bundled_games() -> None:
    assert sorted(NAMES) == ["mule", "mule-goes-crazy", "muli", "mutagen", "outer-earth"]
    for name in NAMES:
        assert games.entry(name).name == name
    with pytest.raises(Exception, match="no companion knows the game 'chess'"):
        games.entry("chess")


@pytest.mark.parametrize("name", NAMES)
def test_every_game_has_every_part_in_the_same_place(name: str) -> None:
    g = games.entry(name)
    folder = name.replace("-", "_")
    assert g.title and g.summary
    # the same three places, the same file names
    assert (ROOT / "components" / folder / "game.yaml").is_file()
    for part in SHAPE:
        assert (ROOT / "companion" / folder / part).is_file(), part
    assert (ROOT / "irata" / "play" / f"{folder}.py").is_file()
    assert g.package == f"companion.{folder}"
    assert g.saved == f"companion.{folder}.saved"
    assert g.data.startswith(f"companion.{folder}.data:")
    assert g.commands.startswith(f"irata.play.{folder}:")
    # each part is there and does its job
    assert g.load_data() is not None
    saved = importlib.import_module(g.saved)
    assert callable(saved.fold) and callable(saved.describe)
    module, attr = g.commands.split(":")
    group = getattr(importlib.import_module(module), attr)
    assert isinstance(group, click.Group) and group.name == name
    assert group.commands  # it has commands of its own


def test_a_saved_game_folds_through_its_registry_entry() -> None:
    setup = {"players": ["Ann", "Bob", "Cy"], "expansions": [], "round": 1, "rounds": 4,
             "scores": {"Ann": 3, "Bob": 3, "Cy": 3}, "history": []}
    events = [Event(1, "setup", setup, ""),
              Event(2, "points", {"player": "Bob", "points": 2, "why": ""}, "")]
    state = games.entry("mutagen").fold(events)
    assert state["scores"] == {"Ann": 3, "Bob": 5, "Cy": 3}
    assert "Bob 5" in games.entry("mutagen").describe(state)


def test_the_play_group_lists_exactly_the_registry_games() -> None:
    from irata.play import SESSION, play

    ctx = click.Context(cli)
    listed = set(play.list_commands(ctx)) - set(SESSION)
    assert listed == set(NAMES)
    assert set(SESSION).isdisjoint(NAMES)
    help_text = play.get_help(click.Context(play, info_name="play"))
    for g in games.GAMES:
        assert g.name in help_text


def _imports(path: Path) -> set[str]:
    """The modules a file imports at run time (anywhere in it; not under TYPE_CHECKING)."""
    found: set[str] = set()
    todo: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        todo.extend(ast.iter_child_nodes(node))
    return found


def _module_graph() -> dict[str, set[str]]:
    """companion's modules and the companion modules each imports (anywhere in it)."""
    modules = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
               for p in (ROOT / "companion").rglob("*.py")}
    return {name: {m for m in _imports(path) if m in modules and m != name}
            for name, path in modules.items()}


def test_the_companion_has_no_import_cycle() -> None:
    graph = _module_graph()
    done: set[str] = set()

    def visit(node: str, path: tuple[str, ...]) -> None:
        if node in path:
            raise AssertionError("import cycle: " + " -> ".join((*path, node)))
        if node in done:
            return
        for nxt in graph[node]:
            visit(nxt, (*path, node))
        done.add(node)

    for node in graph:
        visit(node, ())


@pytest.mark.parametrize("name", NAMES)
def test_only_the_saved_game_reads_the_saved_game(name: str) -> None:
    """game -> saved -> data -> rules: no rule module leans on the saved game (only the
    declaration above it does) or the command line."""
    graph = _module_graph()
    module = "companion." + name.replace("-", "_")
    for mod, imported in graph.items():
        if mod.startswith(module + ".") and mod not in (f"{module}.saved", f"{module}.game"):
            assert f"{module}.saved" not in imported, mod
    for path in (ROOT / "companion").rglob("*.py"):
        assert not {m for m in _imports(path) if m.split(".")[0] in ("irata", "generator")}, path


def test_listing_the_games_imports_no_game() -> None:
    code = ("import sys, irata.play; "
            "print(sorted(m for m in sys.modules if m.startswith('companion.')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    # the list of games, and the records it is made of (companion.record: no game's module)
    assert out.strip() == "['companion.games', 'companion.record']"


@pytest.mark.parametrize("name", NAMES)
def test_every_game_is_declared(name: str) -> None:
    """Each game is one declaration that the faces play: its moves, what comes now, apply."""
    from companion.play import declaration

    decl = declaration(name)
    assert decl is not None and decl.name == name
    kinds = [m.kind for m in decl.moves]
    assert kinds and len(set(kinds)) == len(kinds)
    assert all(m.command and m.summary and m.help for m in decl.moves)
