"""Safe YAML loading that remembers where every value came from.

Mappings load as ``LocDict`` and sequences as ``LocList``: plain ``dict`` and ``list`` that also
carry the 1-based line and column of themselves and of each key or item, so that a schema
error names ``FILE:LINE:COL``.
"""

from __future__ import annotations

import math
import stat
from dataclasses import dataclass
from pathlib import Path
from sys import intern
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


class _Fallback(Exception):
    """What the event reader leaves to the composer: an anchor, an alias, a tag, a merge key,
    a second document, a bound passed or a mistake (the composer's path reports it)."""


# the scalars whose kind the event reader builds itself (anything else: the composer's path)
_STR = "tag:yaml.org,2002:str"
_BUILT = {_STR, "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
          "tag:yaml.org,2002:null", "tag:yaml.org,2002:timestamp"}
_PLAIN: dict[str, str] = {}  # a plain scalar's text -> its resolved tag (the same every time)


def _events(loader: _Loader, source: str, depth0: int = 0) -> tuple[Any, int]:
    """The document built straight from the parser's events, as ``construct_document`` would
    build it from the composed nodes, and its number of values.

    The composer holds every node of a file (each with two marks) until it is built: for a
    long deck that is many times what the values themselves take. Here each event is built
    into its value at once and let go. Only plain documents take this road: anything the
    composer's path treats specially or refuses raises ``_Fallback``, and that path then
    reads the file (and reports its mistake) exactly as before."""
    from yaml.events import (
        AliasEvent,
        DocumentEndEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
        StreamEndEvent,
    )

    get = loader.get_event
    resolve = loader.resolve
    build = loader.yaml_constructors
    try:
        get()  # the stream's start
        ev = get()
        if type(ev) is StreamEndEvent:
            return None, 0
        # each open collection: [value, key awaited (mappings) or None, key's mark]
        stack: list[list[Any]] = []
        root: Any = None
        nodes = 0
        while True:
            ev = get()
            kind = type(ev)
            if kind is MappingEndEvent or kind is SequenceEndEvent:
                done = stack.pop()[0]
                if not stack:
                    root = done
                    break
                continue
            if kind is DocumentEndEvent:
                break
            if kind is AliasEvent or ev.anchor is not None:
                raise _Fallback
            nodes += 1
            if len(stack) + depth0 > MAX_DEPTH or nodes > MAX_NODES:
                raise _Fallback
            mark = (ev.start_mark.line + 1, ev.start_mark.column + 1)
            value: Any
            if kind is ScalarEvent:
                tag = ev.tag
                text = ev.value
                if tag is None or tag == "!":
                    if ev.implicit[0]:
                        tag = _PLAIN.get(text)
                        if tag is None:
                            tag = _PLAIN[text] = resolve(yaml.ScalarNode, text, (True, False))
                    else:
                        tag = _STR
                if tag == _STR:
                    value = text
                elif tag in _BUILT:
                    value = build[tag](loader, yaml.ScalarNode(tag, text, ev.start_mark,
                                                               ev.end_mark, ev.style))
                else:
                    raise _Fallback
                container = None
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                if ev.tag is not None and ev.tag != "!":
                    raise _Fallback
                value = LocDict() if kind is MappingStartEvent else LocList()
                value.mark = mark
                value.marks = {} if kind is MappingStartEvent else []
                value.file = loader.source
                container = value
            else:
                raise _Fallback
            if stack:
                top = stack[-1]
                holder = top[0]
                if type(holder) is LocList:
                    holder.append(value)
                    holder.marks.append(mark)
                elif top[1] is None:  # a key
                    if container is not None or value is None or \
                            not isinstance(value, (str, int, float, bool)):
                        raise _Fallback
                    # (one string for each key however often it is written: a deck's
                    # cards share their keys)
                    key = intern(value if isinstance(value, str) else str(value))
                    if key in holder or key == "<<":
                        raise _Fallback
                    top[1] = key
                    top[2] = mark
                else:
                    holder[top[1]] = value
                    holder.marks[top[1]] = top[2]
                    top[1] = None
            if container is not None:
                stack.append([container, None, None])
            elif not stack:
                root = value
                break
    except _Fallback:
        raise
    except Exception:  # noqa: BLE001 (any mistake: the composer's path says which)
        raise _Fallback from None
    return root, nodes


def load_text(text: str, source: str) -> Any:
    """Parse YAML text safely; a syntax error becomes a located ``DefinitionError``."""
    return load_counted(text, source)[0]


def load_counted(text: str, source: str, depth0: int = 0) -> tuple[Any, int | None]:
    """``load_text``, and the number of values when the file was read from its events alone
    (None when it took the composer's path: it has anchors, aliases, tags or a mistake)."""
    loader = _Loader(text)
    loader.source = source
    try:
        value, nodes = _events(loader, source, depth0)
        if _rest_is_empty(loader):
            return value, nodes
    except _Fallback:
        pass
    finally:
        loader.dispose()
    if depth0:
        raise _Fallback
    return _composed(text, source), None


def _rest_is_empty(loader: _Loader) -> bool:
    """Whether the stream ends after the document read (a second one: the composer's path)."""
    from yaml.events import DocumentEndEvent, StreamEndEvent

    try:
        ev = loader.get_event()
        if type(ev) is DocumentEndEvent:
            ev = loader.get_event()
        return type(ev) is StreamEndEvent
    except Exception:  # noqa: BLE001
        return False


def _composed(text: str, source: str) -> Any:
    """The composer's path: every node composed, the shape checked, then built."""
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
    return _load_kept(text, source, str(path)) if KEEP else load_text(text, source)


# whether this process keeps each file's text and values for its next read (``irata print
# --watch`` sets it): a one-off read keeps nothing
KEEP = False


@dataclass
class _Read:
    """A file as last read: its text (and lines), its values and their number."""

    source: str
    text: str
    lines: list[str]
    doc: Any
    nodes: int


_READ: dict[str, _Read] = {}  # a file's path -> its last read, while KEEP
MAX_KEPT = 64  # files kept at once


def _load_kept(text: str, source: str, key: str) -> Any:
    """``load_text``, reusing what the last read of the same file made: the same values when
    the text is the same, and when one stretch of lines changed inside a top-level block list
    (``components:``), only those items read again (``_splice``)."""
    last = _READ.get(key)
    if last is not None and last.source == source:
        if last.text == text:
            return last.doc
        kept = _splice(last, text)
        if kept is not None:
            _READ[key] = kept
            return kept.doc
    _READ.pop(key, None)
    value, nodes = load_counted(text, source)
    if nodes is not None:  # (anchors, aliases or tags: read whole every time)
        _READ[key] = _Read(source, text, text.splitlines(keepends=True), value, nodes)
        while len(_READ) > MAX_KEPT:
            _READ.pop(next(iter(_READ)))
    return value


def _count(value: Any) -> int:
    """The values in ``value`` (itself included), as the reader counts them."""
    if isinstance(value, dict):
        return 1 + sum(1 + _count(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(_count(v) for v in value)
    return 1


def _item_line(line: str, col: int) -> bool:
    """Whether ``line`` starts a block list's item at column ``col`` (0-based): ``-``."""
    return len(line) > col and line[col] == "-" and not line[:col].strip(" ") and \
        (len(line) == col + 1 or line[col + 1] in " \r\n")


def _splice(last: _Read, text: str) -> _Read | None:
    """The file read again where its lines differ from the last read, when that is safe:
    the same number of lines, the changed ones inside the items of one top-level block list,
    the new lines starting with an item at the list's column and read alone as a list of
    items (which therefore ends where it ends in the file). Each item read again is located
    as read in the whole file: the lines before it are read as empty lines. None where any of
    that does not hold (the file is then read whole)."""
    from bisect import bisect_right

    doc = last.doc
    old = last.lines
    new = text.splitlines(keepends=True)
    if not isinstance(doc, LocDict) or len(new) != len(old):
        return None
    n = len(old)
    p = 0
    while p < n and old[p] == new[p]:
        p += 1
    q = n
    while q > p and old[q - 1] == new[q - 1]:
        q -= 1
    if p == q:
        return None
    keys = list(doc)
    for ki, key in enumerate(keys):
        seq = doc[key]
        if not isinstance(seq, LocList) or not seq or not getattr(seq, "marks", None):
            continue
        col = seq.mark[1] - 1
        end = doc.at(keys[ki + 1])[0] - 1 if ki + 1 < len(keys) else n
        starts = [m[0] - 1 for m in seq.marks]
        if not (starts[0] <= p and q <= end):
            continue
        a = bisect_right(starts, p) - 1
        b = bisect_right(starts, q - 1) - 1
        lo = starts[a]
        hi = starts[b + 1] if b + 1 < len(starts) else end
        if any(x >= y for x, y in zip(starts[a:b + 2], starts[a + 1:b + 2], strict=False)):
            return None
        if not all(_item_line(old[i], col) for i in starts[a:b + 2]):
            return None
        span = new[lo:hi]
        if not _item_line(span[0], col):
            return None
        for line in span:
            body = line.lstrip(" ")
            if body.strip() and not body.startswith("#") and len(line) - len(body) < col:
                return None
        try:
            part, count = load_counted("\n" * lo + "".join(span), last.source, 1)
        except _Fallback:
            return None
        if not isinstance(part, LocList) or part.mark != (lo + 1, col + 1) or \
                count is None:
            return None
        nodes = last.nodes - sum(_count(v) for v in seq[a:b + 1]) + count - 1
        if nodes > MAX_NODES:
            return None
        items = LocList([*seq[:a], *part, *seq[b + 1:]])
        items.mark, items.file = seq.mark, seq.file
        items.marks = [*seq.marks[:a], *part.marks, *seq.marks[b + 1:]]
        out = LocDict(doc)
        out.mark, out.marks, out.file = doc.mark, doc.marks, doc.file
        out[key] = items
        return _Read(last.source, text, new, out, nodes)
    return None


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
