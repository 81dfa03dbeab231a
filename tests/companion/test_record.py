"""companion.record.NamedTuple makes the same records typing.NamedTuple does, cheaper."""

from __future__ import annotations

import pickle
import subprocess
import sys
import typing

import pytest

from companion.record import NamedTuple


class Point(NamedTuple):
    """A point."""

    x: int
    y: int = 0
    tags: tuple[str, ...] = ()

    def moved(self, dx: int) -> Point:
        return self._replace(x=self.x + dx)


class TypedPoint(typing.NamedTuple):
    """A point."""

    x: int
    y: int = 0
    tags: tuple[str, ...] = ()

    def moved(self, dx: int) -> TypedPoint:
        return self._replace(x=self.x + dx)


def test_same_record_as_typing() -> None:
    p, t = Point(1), TypedPoint(1)
    assert p == t == (1, 0, ())
    assert Point._fields == TypedPoint._fields
    assert Point._field_defaults == TypedPoint._field_defaults
    # the annotations as written (typing.NamedTuple turns each string into a ForwardRef)
    assert Point.__annotations__ == {"x": "int", "y": "int", "tags": "tuple[str, ...]"}
    assert list(Point.__annotations__) == list(TypedPoint.__annotations__)
    assert Point.__doc__ == TypedPoint.__doc__ == "A point."
    assert Point.__qualname__ == "Point" and Point.__module__ == __name__
    assert p.moved(2) == Point(3) and isinstance(p.moved(2), Point)
    assert p._asdict() == t._asdict() and Point._make([4, 5, ("a",)]) == (4, 5, ("a",))
    assert repr(Point(1, 2)) == "Point(x=1, y=2, tags=())"
    assert pickle.loads(pickle.dumps(Point(1, 2))) == Point(1, 2)
    with pytest.raises(AttributeError):
        p.x = 3  # type: ignore[misc]


def test_refuses_what_typing_refuses() -> None:
    with pytest.raises(TypeError, match="Non-default namedtuple field b"):
        class Bad(NamedTuple):
            a: int = 0
            b: int  # type: ignore[misc]
    with pytest.raises(AttributeError, match="_replace"):
        class Worse(NamedTuple):
            a: int

            def _replace(self) -> None:  # type: ignore[misc, override]
                pass


def test_the_companion_does_not_make_records_with_typing() -> None:
    """Every record of the companion's modules comes from companion.record: a record made by
    typing.NamedTuple (its annotations compiled one by one) is what cost start-up before."""
    code = ("import typing, collections\n"
            "made = []\n"
            "orig = typing.NamedTupleMeta.__new__\n"
            "def spy(cls, name, bases, ns):\n"
            "    made.append(ns['__module__'] + '.' + name)\n"
            "    return orig(cls, name, bases, ns)\n"
            "typing.NamedTupleMeta.__new__ = spy\n"
            "import importlib, pkgutil, companion, irata.play\n"
            "for pkg in (companion, irata.play):\n"
            "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
            "        importlib.import_module(m.name)\n"
            "print([m for m in made if m.startswith(('companion', 'irata'))])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


def test_behaves_as_collections_namedtuple() -> None:
    """The record factory makes what collections.namedtuple makes: construction by position
    and keyword, defaults, the errors that name the fields, _make/_replace/_asdict, copy and
    pickle, pattern matching."""
    import collections
    import copy

    from companion.record import record

    ours = record("Land", ["tile", "square", "good"], [None], __name__)
    theirs = collections.namedtuple("Land", ["tile", "square", "good"], defaults=[None])
    for cls in (ours, theirs):
        land = cls("P07", square="B2")
        assert land == ("P07", "B2", None) and land.square == "B2"
        assert repr(land) == "Land(tile='P07', square='B2', good=None)"
        assert land._replace(good="F") == ("P07", "B2", "F")
        assert cls._make(["a", "b", "c"]) == ("a", "b", "c")
        assert land._asdict() == {"tile": "P07", "square": "B2", "good": None}
        assert copy.deepcopy(land) == land and type(copy.copy(land)) is cls
        match land:
            case cls(tile, square, good):  # type: ignore[misc]
                assert (tile, square, good) == ("P07", "B2", None)
        assert cls._fields == ("tile", "square", "good")
        assert cls._field_defaults == {"good": None}
        assert cls.__doc__ == "Land(tile, square, good)"
        assert cls.square.__doc__ == "Alias for field number 1"
    for make in (lambda c: c("P07"), lambda c: c("a", "b", "c", "d"),
                 lambda c: c("a", sqare="b"), lambda c: c._make(["a"]),
                 lambda c: c("a", "b")._replace(goods="F")):
        errors = []
        for cls in (ours, theirs):
            with pytest.raises((TypeError, ValueError)) as caught:
                make(cls)
            errors.append((type(caught.value), str(caught.value)))
        assert errors[0] == errors[1]
    assert pickle.loads(pickle.dumps(Point(3, tags=("x",)))) == Point(3, 0, ("x",))


def test_a_record_of_one_field_and_of_none() -> None:
    from companion.record import record

    one = record("One", ["a"], [], __name__)
    assert one(5) == (5,) and one(a=6).a == 6
    none = record("Empty", [], [], __name__)
    assert none() == () and repr(none()) == "Empty()"
    with pytest.raises(ValueError, match="underscore"):
        record("Bad", ["_a"], [], __name__)


def test_a_generic_record() -> None:
    """``Generic[T]`` beside NamedTuple is for the type checker; the record is a plain one."""
    from typing import Generic, TypeVar

    T = TypeVar("T")

    class Boxed(NamedTuple, Generic[T]):
        value: T
        note: str = ""

    assert Boxed(3) == (3, "") and Boxed[int](4).value == 4
    assert Boxed._fields == ("value", "note") and not hasattr(Boxed, "__orig_bases__")
    with pytest.raises(TypeError, match="alone"):
        class Mixed(NamedTuple, int):  # type: ignore[misc]
            a: int
