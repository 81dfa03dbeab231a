"""Field references in layouts: ``${name}``, ``${a.b.0}``, ``${data.KEY}``, ``${a + b * 2}``.

One way to reach a field: ``${...}``. Inside the braces goes a field's dotted path (a list item
by its number: ``${rows.0.text}``) or a little arithmetic over paths and numbers (``+ - * /
// %`` and parentheses, an operator with a space either side, since a name may hold ``-``:
``${low-mountain}`` is a name, ``${sell - 2}`` a sum). The printer (``generator``) and the
definition check (``components.facecheck``) both read references through this module, so they
agree on what a reference means.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable, Iterator
from typing import Any

# ``${...}``: a reference; the text inside is a path or an expression
REF_RE = re.compile(r"\$\{([^{}$]*)\}")
# ``$name`` without braces: not a reference; the check answers it with the way to write it
BARE_RE = re.compile(r"\$(?!\{)([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)*)")
PATH_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*")
_TOKEN_RE = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*)"
                       r"|(//|[-+*/%()]))")
MAX_EXPR = 200  # characters: an expression is a short sum, never a program
MAX_NUMBER = 1e9  # what a sum may come to (a length in mm, a count): far past any real board


class Missing:
    """What a path that leads nowhere looks up to (``None`` is a field's legitimate value)."""

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = Missing()


def lookup(fields: Any, path: str) -> Any:
    """The value at a dotted ``path`` in ``fields`` (mappings by key, lists by number), or
    ``MISSING``."""
    value = fields
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isascii() and part.isdigit() \
                and len(part) < 10 and int(part) < len(value):
            value = value[int(part)]
        else:
            return MISSING
    return value


def is_path(inner: str) -> bool:
    return PATH_RE.fullmatch(inner.strip()) is not None


def paths_in(inner: str) -> list[str]:
    """The field paths a reference's inside reads (one for a path, any number for a sum)."""
    if is_path(inner):
        return [inner.strip()]
    try:
        return [m.group(2) for m in _tokens(inner) if m.group(2)]
    except ValueError:
        return []  # not a reference irata can read: ``evaluate`` says why, where it is used


def refs_in(text: str) -> Iterator[tuple[str, list[str]]]:
    """Each ``${...}`` in ``text``: its inside and the paths it reads."""
    for m in REF_RE.finditer(text):
        yield m.group(1), paths_in(m.group(1))


def _tokens(inner: str) -> list[re.Match[str]]:
    out = []
    pos = 0
    stripped = inner.rstrip()
    while pos < len(stripped):
        m = _TOKEN_RE.match(stripped, pos)
        if not m or m.end() == pos:
            raise ValueError(f"cannot read '${{{inner}}}' from '{stripped[pos:].strip()}' on "
                             "(expected a field's name, a number or one of + - * / // % ( ))")
        out.append(m)
        pos = m.end()
    return out


_OPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
}


def evaluate(inner: str, fields: Any) -> Any:
    """The value of a reference's inside: a path's value (``MISSING`` if it leads nowhere), or
    an expression's number. ``ValueError`` says what is wrong with an expression."""
    inner = inner.strip()
    if is_path(inner):
        return lookup(fields, inner)
    if len(inner) > MAX_EXPR:
        raise ValueError(f"a reference holds at most {MAX_EXPR} characters")
    names: dict[str, Any] = {}
    parts: list[str] = []
    for m in _tokens(inner):
        if m.group(2):
            key = f"_v{len(names)}"
            names[key] = m.group(2)
            parts.append(f" {key} ")
        else:
            parts.append(m.group(0))
    try:
        tree = ast.parse("".join(parts).strip(), mode="eval")
    except SyntaxError:
        raise ValueError(f"cannot read '${{{inner}}}' (expected a field's name, or a sum of "
                         "names and numbers such as ${a + b * 2})") from None

    def value(node: ast.AST) -> float:
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float) \
                and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.Name) and node.id in names:
            v = lookup(fields, names[node.id])
            if v is MISSING:
                raise ValueError(f"'{names[node.id]}' is not a field here")
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise ValueError(f"'{names[node.id]}' is not a number, so it cannot be "
                                 "counted with")
            return v
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            left, right = value(node.left), value(node.right)
            try:
                out: float = _OPS[type(node.op)](left, right)
            except ZeroDivisionError:
                raise ValueError(f"'${{{inner}}}' divides by zero") from None
            except OverflowError:
                out = math.inf
            if not math.isfinite(out) or abs(out) > MAX_NUMBER:
                raise ValueError(f"'${{{inner}}}' comes to a number too large to draw")
            return out
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            v = value(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        raise ValueError(f"cannot read '${{{inner}}}' (expected a field's name, or a sum of "
                         "names and numbers such as ${a + b * 2})")

    try:
        return value(tree.body)
    except RecursionError:
        raise ValueError(f"'${{{inner}}}' is nested too deeply") from None


def number_text(value: Any) -> str:
    """A value as printed in text: ``7.0`` as ``7``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
