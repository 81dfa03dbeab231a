"""The companion's code stays in small functions: none in ``companion/`` or ``irata/play/`` is
over 60 lines (from its ``def`` to its last line; decorators not counted).

The functions still longer are listed below with their length today. The list only shrinks:
a listed function may not grow, and one that is split (or gone) must leave the list.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("companion", "irata/play")
LIMIT = 60

# (file, function) -> its length in lines today: none left over 60 (add none)
ALLOWED: dict[tuple[str, str], int] = {}


def functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, int]]:
    """Every function and method of ``tree``, nested ones too: (qualified name, lines)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = prefix + node.name
            yield name, (node.end_lineno or node.lineno) - node.lineno + 1
            yield from functions(node, name + ".")
        elif isinstance(node, ast.ClassDef):
            yield from functions(node, prefix + node.name + ".")
        else:
            yield from functions(node, prefix)


def lengths() -> dict[tuple[str, str], int]:
    found: dict[tuple[str, str], int] = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for name, lines in functions(ast.parse(path.read_text(encoding="utf-8"))):
                found[(rel, name)] = lines
    return found


def test_no_function_is_over_60_lines() -> None:
    long = {key: n for key, n in lengths().items() if n > LIMIT and key not in ALLOWED}
    assert not long, "split these functions (at most 60 lines each): " + ", ".join(
        f"{f} {name} ({n} lines)" for (f, name), n in sorted(long.items()))


def test_the_functions_allowed_to_be_long_only_shrink() -> None:
    found = lengths()
    grown = {key: found[key] for key, n in ALLOWED.items() if found.get(key, 0) > n}
    assert not grown, "a listed function grew: " + ", ".join(
        f"{f} {name} ({n} lines, listed at {ALLOWED[(f, name)]})"
        for (f, name), n in sorted(grown.items()))
    done = [key for key in ALLOWED if found.get(key, 0) <= LIMIT]
    assert not done, "now at most 60 lines (or gone): take off ALLOWED: " + ", ".join(
        f"{f} {name}" for f, name in done)


def test_the_walk_measures_what_it_should() -> None:
    """The measure itself: a 61-line function is over the limit, nested and method names
    are qualified, and decorators are not counted."""
    body = "\n".join(f"    x{i} = {i}" for i in range(60))
    source = (f"@decorator\ndef long():\n{body}\n\n"
              "class Shop:\n    def buy(self):\n        def inner():\n            pass\n")
    got = dict(functions(ast.parse(source)))
    assert got == {"long": 61, "Shop.buy": 3, "Shop.buy.inner": 2}
