"""Safe YAML loading that remembers where every value came from.

Mappings load as ``LocDict`` and sequences as ``LocList``: plain ``dict`` and ``list`` that also
carry the 1-based line and column of themselves and of each key or item, so that a schema
error names ``FILE:LINE:COL``.
"""

from __future__ import annotations

import math
import stat
from pathlib import Path
from typing import Any

import yaml

from components.errors import DefinitionError
from components.stamp import MAX_FILE_BYTES

Mark = tuple[int, int]


class LocDict(dict[str, Any]):
    """A mapping from YAML with the position of itself (``mark``) and of each key (``marks``)."""

    mark: Mark = (0, 0)
    marks: dict[str, Mark]
    file: str = ""

    def at(self, key: str) -> Mark:
        return self.marks.get(key, self.mark) if hasattr(self, "marks") else self.mark


class LocList(list[Any]):
    """A sequence from YAML with the position of itself and of each item."""

    mark: Mark = (0, 0)
    marks: list[Mark]
    file: str = ""

    def at(self, index: int) -> Mark:
        if hasattr(self, "marks") and 0 <= index < len(self.marks):
            return self.marks[index]
        return self.mark


# libyaml's parser when PyYAML has it (it parses several times faster); safe either way
_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_Base):  # type: ignore[valid-type,misc]
    """A safe loader whose mappings and sequences record their source positions."""

    source = ""


def _pos(node: yaml.Node) -> Mark:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> LocDict:
    loader.flatten_mapping(node)
    out = LocDict()
    out.mark = _pos(node)
    out.marks = {}
    out.file = loader.source
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, (str, int, float, bool)) or key is None:
            line, col = _pos(key_node)
            raise DefinitionError("a mapping key must be a plain word or number",
                                  loader.source, line, col)
        key = str(key) if not isinstance(key, str) else key
        if key in out:
            line, col = _pos(key_node)
            raise DefinitionError(f"the key '{key}' is given twice in this mapping",
                                  loader.source, line, col)
        out[key] = loader.construct_object(value_node, deep=True)
        out.marks[key] = _pos(key_node)
    return out


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> LocList:
    out = LocList(loader.construct_object(child, deep=True) for child in node.value)
    out.mark = _pos(node)
    out.marks = [_pos(child) for child in node.value]
    out.file = loader.source
    return out


# A game folder is untrusted: every file, value and structure is bounded before it is built.
MAX_DEPTH = 40  # mappings and lists nested deeper than this are refused
MAX_NODES = 200_000  # values in one file, counting every use of an alias (*name) in full
MAX_DIGITS = 30  # digits of a whole number; no board-game value needs more


def _construct_int(loader: _Loader, node: yaml.ScalarNode) -> int:
    digits = sum(ch.isdigit() for ch in str(node.value))
    if digits > MAX_DIGITS:
        line, col = _pos(node)
        raise DefinitionError(f"a number of {digits} digits is too large (at most "
                              f"{MAX_DIGITS})", loader.source, line, col)
    return int(yaml.constructor.SafeConstructor.construct_yaml_int(loader, node))


def _construct_float(loader: _Loader, node: yaml.ScalarNode) -> float:
    value = float(yaml.constructor.SafeConstructor.construct_yaml_float(loader, node))
    if not math.isfinite(value):
        line, col = _pos(node)
        raise DefinitionError(f"'{str(node.value)[:20]}' is not a finite number (write a "
                              "plain number such as 2.5)", loader.source, line, col)
    return value


def _construct_timestamp(loader: _Loader, node: yaml.ScalarNode) -> Any:
    try:
        return yaml.constructor.SafeConstructor.construct_yaml_timestamp(loader, node)
    except (ValueError, OverflowError) as exc:
        line, col = _pos(node)
        raise DefinitionError(f"'{str(node.value)[:20]}' is not a date ({exc}); write "
                              "YYYY-MM-DD, or quote it to mean text", loader.source, line,
                              col) from None


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)
_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)
_Loader.add_constructor("tag:yaml.org,2002:float", _construct_float)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)


def _check_shape(root: yaml.Node, source: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH, an alias that contains itself, and more than
    MAX_NODES values once every alias is expanded (the "billion laughs"), before anything is
    built. Sizes are memoised per node, so a shared node is measured once."""
    size: dict[int, int] = {}
    open_nodes: set[int] = set()

    def fail(msg: str, node: yaml.Node) -> DefinitionError:
        line, col = _pos(node)
        return DefinitionError(msg, source, line, col)

    def measure(node: yaml.Node, depth: int) -> int:
        key = id(node)
        if key in size:
            return size[key]
        if depth > MAX_DEPTH:
            raise fail(f"values nested more than {MAX_DEPTH} deep", node)
        if key in open_nodes:
            raise fail("an alias (*name) that contains itself", node)
        total = 1
        if isinstance(node, yaml.SequenceNode):
            children: list[yaml.Node] = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            children = [n for pair in node.value for n in pair]
        else:
            children = []
        open_nodes.add(key)
        for child in children:
            total += measure(child, depth + 1)
            if total > MAX_NODES:
                raise fail(f"more than {MAX_NODES} values once its aliases (*name) are "
                           "expanded", node)
        open_nodes.discard(key)
        size[key] = total
        return total

    measure(root, 0)


def load_text(text: str, source: str) -> Any:
    """Parse YAML text safely; a syntax error becomes a located ``DefinitionError``."""
    loader = _Loader(text)
    loader.source = source
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_shape(node, source)
        return loader.construct_document(node)
    except DefinitionError:
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        what = exc.problem or "malformed YAML"
        if exc.context:
            what = f"{what} ({exc.context})"
        line = mark.line + 1 if mark else None
        col = mark.column + 1 if mark else None
        raise DefinitionError(f"malformed YAML: {what}", source, line, col) from None
    except yaml.YAMLError as exc:
        raise DefinitionError(f"malformed YAML: {exc}", source) from None
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        raise DefinitionError(f"malformed YAML: {type(exc).__name__}", source) from None
    finally:
        loader.dispose()


def existing_file(path: Path, shown_as: str | None = None) -> Path:
    """``path`` if it is a file; else InputError (no such file, a name too long, ...)."""
    from components.errors import InputError

    shown = (shown_as or str(path))[:300]
    try:
        found = path.is_file()
    except (OSError, ValueError) as exc:
        raise InputError(f"{shown}: cannot read the file "
                         f"({getattr(exc, 'strerror', None) or exc})") from None
    if not found:
        raise InputError(f"{shown}: no such file")
    return path


def load_file(path: Path, shown_as: str | None = None) -> Any:
    """Read and parse one YAML file; ``shown_as`` is the name used in error messages."""
    source = shown_as or str(path)
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):  # a pipe or a device would be read for ever
            raise DefinitionError("not a plain file (a pipe, a device or a folder)", source)
        if st.st_size > MAX_FILE_BYTES:
            raise DefinitionError(f"larger than {MAX_FILE_BYTES // 1_000_000} MB; a definition "
                                  "file is hand-written YAML", source)
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DefinitionError(f"not UTF-8 text ({exc.reason})", source) from None
    except OSError as exc:
        raise DefinitionError(f"cannot read the file ({exc.strerror})", source) from None
    return load_text(text, source)


def kind_of(value: Any) -> str:
    """What a person calls a value's kind, for "'x' holds a number, so ..." messages."""
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "nothing"


def plain(value: Any) -> Any:
    """A deep copy as plain dicts and lists (for JSON, hashing and comparisons)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value
