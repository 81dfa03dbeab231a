"""``NamedTuple`` for the companion's typed records, built the cheap way.

A companion command must start about as fast as Python imports click (issue 22), and every
command defines some hundred ``typing.NamedTuple`` classes (the games' States, moves, rule
tables). ``typing.NamedTuple`` checks each field's annotation as it makes the class: under
``from __future__ import annotations`` every annotation is a string, so each one is compiled
as a ``ForwardRef`` first; with the first-use costs in ``typing``, a module of eight records
took 8-17 ms of a 110 ms command. Nothing in the companion reads those checked annotations.

Here the class is made as ``collections.namedtuple`` makes it, from the fields' names and
defaults in the class body, with the methods and docstring of the body set on it, as
``typing.NamedTuple`` does, minus the annotation checks. ``collections.namedtuple`` itself
still cost about 0.2-0.4 ms a class, half of it compiling each class's ``__new__`` from
source with ``eval``: here one ``__new__`` is compiled per number of fields and each class
gets a copy with its fields' names (``CodeType.replace``), and the other methods are shared by
every record. The records are the same ``tuple`` subclasses, with ``_fields``,
``_field_defaults``, ``_make``, ``_replace``, ``_asdict``, ``__match_args__``, the field
properties and ``__annotations__`` (the strings as written); about 0.07 ms a class.

For type checkers this *is* ``typing.NamedTuple``: modules write
``from companion.record import NamedTuple`` and mypy checks them as before; a record may be
generic (``class Outcome(NamedTuple, Generic[S])``), which only the type checker reads.
"""

from __future__ import annotations

import sys
from types import CodeType, FunctionType, GenericAlias
from typing import TYPE_CHECKING, Any, Generic

try:  # the C field property collections.namedtuple uses
    from _collections import _tuplegetter  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - another Python
    from operator import itemgetter

    def _tuplegetter(index: int, doc: str) -> Any:
        return property(itemgetter(index), doc=doc)

__all__ = ["NamedTuple"]

# as typing.NamedTuple: names a record may not define, and names that are not copied to it
_PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields",
                         "_field_defaults", "_make", "_replace", "_asdict", "_source"})
_SPECIAL = frozenset({"__module__", "__name__", "__annotations__", "__orig_bases__"})


_NEW_GLOBALS: dict[str, Any] = {"_tuple_new": tuple.__new__, "__builtins__": {}}
_NEW_CODE: dict[int, CodeType] = {}


def _new(typename: str, fields: tuple[str, ...], defaults: tuple[Any, ...]) -> FunctionType:
    """``__new__(_cls, <fields>)``: a copy of the one compiled for this many fields, with the
    fields' names as its parameters' names (so keywords and the errors name them)."""
    code = _NEW_CODE.get(len(fields))
    if code is None:
        args = "".join(f"_{i}, " for i in range(len(fields)))
        ns: dict[str, Any] = {}
        exec(f"def __new__(_cls, {args}): return _tuple_new(_cls, ({args}))", _NEW_GLOBALS, ns)
        code = _NEW_CODE[len(fields)] = ns["__new__"].__code__
    code = code.replace(co_varnames=("_cls", *fields), co_qualname=f"{typename}.__new__")
    new = FunctionType(code, _NEW_GLOBALS, "__new__", defaults or None)
    new.__doc__ = f"Create new instance of {typename}({', '.join(fields)})"
    return new


def _make(cls: type, iterable: Any) -> Any:
    """Make a new record from a sequence or iterable"""
    result: tuple[Any, ...] = tuple.__new__(cls, iterable)
    if len(result) != len(cls._fields):  # type: ignore[attr-defined]
        raise TypeError(f"Expected {len(cls._fields)} arguments, "  # type: ignore[attr-defined]
                        f"got {len(result)}")
    return result


def _replace(self: Any, /, **kwds: Any) -> Any:
    """Return a new record replacing specified fields with new values"""
    result = self._make(map(kwds.pop, self._fields, self))
    if kwds:
        raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
    return result


def _repr(self: Any) -> str:
    """Return a nicely formatted representation string"""
    inner = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self,
                                                                 strict=True))
    return f"{self.__class__.__name__}({inner})"


def _asdict(self: Any) -> dict[str, Any]:
    """Return a new dict which maps field names to their values."""
    return dict(zip(self._fields, self, strict=True))


def _getnewargs(self: Any) -> tuple[Any, ...]:
    """Return self as a plain tuple.  Used by copy and pickle."""
    return tuple(self)


def record(typename: str, fields: list[str], defaults: list[Any], module: str) -> type:
    """The class ``collections.namedtuple(typename, fields, defaults=defaults,
    module=module)`` makes, with the same attributes and methods."""
    names = tuple(sys.intern(f) for f in fields)
    for name in names:
        if not name.isidentifier() or name.startswith("_"):
            raise ValueError(f"Field names cannot start with an underscore or be other than "
                             f"identifiers: {name!r}")
    ns: dict[str, Any] = {
        "__doc__": f"{typename}({', '.join(names)})", "__slots__": (), "_fields": names,
        "_field_defaults": dict(zip(names[len(names) - len(defaults):], defaults,
                                    strict=True)),
        "__new__": _new(typename, names, tuple(defaults)), "_make": classmethod(_make),
        "_replace": _replace, "__repr__": _repr, "_asdict": _asdict,
        "__getnewargs__": _getnewargs, "__match_args__": names,
        "__class_getitem__": classmethod(GenericAlias), "__module__": module}
    for index, name in enumerate(names):
        ns[name] = _tuplegetter(index, f"Alias for field number {index}")
    return type(typename, (tuple,), ns)


class _RecordMeta(type):
    """Makes each ``class X(NamedTuple)`` a ``collections.namedtuple``."""

    def __new__(mcs, typename: str, bases: tuple[type, ...], ns: dict[str, Any]) -> Any:
        # ``Generic[T]`` beside it only tells the type checker what the record holds (at run
        # time ``Record[T]`` is the tuple's own alias)
        if bases not in ((_Record,), (_Record, Generic)):
            raise TypeError(f"{typename}: a record is made from NamedTuple alone (or with "
                            "Generic)")
        annotations: dict[str, Any] = dict(ns.get("__annotations__", {}))
        fields = list(annotations)
        defaults = []
        for name in fields:
            if name in ns:
                defaults.append(ns[name])
            elif defaults:
                raise TypeError(f"Non-default namedtuple field {name} cannot follow "
                                f"default field{'s' if len(defaults) > 1 else ''} "
                                + ", ".join(f for f in fields if f in ns))
        made = record(typename, fields, defaults, ns["__module__"])
        made.__annotations__ = annotations
        for key, value in ns.items():
            if key in _PROHIBITED:
                raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
            if key not in _SPECIAL and key not in fields:
                setattr(made, key, value)
        return made


_Record = type.__new__(_RecordMeta, "NamedTuple", (), {})

if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    NamedTuple = _Record
