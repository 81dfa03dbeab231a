"""Safe YAML loading that remembers where every value came from.

Mappings load as ``LocDict`` and sequences as ``LocList``: plain ``dict`` and ``list`` that also
carry the 1-based line and column of themselves and of each key or item, so that a schema
error names ``FILE:LINE:COL``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from components.errors import DefinitionError

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


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def load_text(text: str, source: str) -> Any:
    """Parse YAML text safely; a syntax error becomes a located ``DefinitionError``."""
    loader = _Loader(text)
    loader.source = source
    try:
        return loader.get_single_data()
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
    finally:
        loader.dispose()


def load_file(path: Path, shown_as: str | None = None) -> Any:
    """Read and parse one YAML file; ``shown_as`` is the name used in error messages."""
    source = shown_as or str(path)
    try:
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
