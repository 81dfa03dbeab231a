"""``NamedTuple`` for the companion's typed records, built the cheap way.

A companion command must start about as fast as Python imports click (issue 22), and every
command defines some hundred ``typing.NamedTuple`` classes (the games' States, moves, rule
tables). ``typing.NamedTuple`` checks each field's annotation as it makes the class: under
``from __future__ import annotations`` every annotation is a string, so each one is compiled
as a ``ForwardRef`` first; with the first-use costs in ``typing``, a module of eight records
took 8-17 ms of a 110 ms command. Nothing in the companion reads those checked annotations.

Here the class is made by ``collections.namedtuple`` itself, from the fields' names and
defaults in the class body, with the methods and docstring of the body set on it, as
``typing.NamedTuple`` does, minus the annotation checks (the same module took about 2 ms).
The records are the same ``tuple`` subclasses, with ``_fields``, ``_field_defaults``,
``_replace``, ``_asdict`` and ``__annotations__`` (the strings as written).

For type checkers this *is* ``typing.NamedTuple``: modules write
``from companion.record import NamedTuple`` and mypy checks them as before; a record may be
generic (``class Outcome(NamedTuple, Generic[S])``), which only the type checker reads.
"""

from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING, Any, Generic

__all__ = ["NamedTuple"]

# as typing.NamedTuple: names a record may not define, and names that are not copied to it
_PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields",
                         "_field_defaults", "_make", "_replace", "_asdict", "_source"})
_SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})


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
        record = namedtuple(typename, fields, defaults=defaults,  # type: ignore[misc]
                            module=ns["__module__"])
        record.__annotations__ = annotations
        for key, value in ns.items():
            if key == "__orig_bases__":
                continue
            if key in _PROHIBITED:
                raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
            if key not in _SPECIAL and key not in fields:
                setattr(record, key, value)
        return record


_Record = type.__new__(_RecordMeta, "NamedTuple", (), {})

if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    NamedTuple = _Record
