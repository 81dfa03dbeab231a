"""What the table typed for a declared move, read into :class:`~companion.play.Move` values, one
way for every face: the command line's generated commands (``irata/play/declared.py``) and the
table view's forms (``irata/table``) both call :func:`moves_of`, so the same entry gives the
same Moves and so the same refusals.

What is typed, the same way for every move:

- the move's name, then whom it is for (a player's name, or a Good), then its words;
- a move that takes several players at once (``batch``): ``NAME=WORDS`` for each
  (``grant Ann=P07@B2 Bob=none``);
- an option of ``NAME=VALUE`` pairs, repeatable and comma-separated alike:
  ``--sell Ann=1,Bob=2`` is ``--sell Ann=1 --sell Bob=2``; a value that is itself a list keeps
  its commas (``--flip Ann=P07,R01,Bob=P08``).

``kwargs`` are the values as click hands them over: ``who`` (the first argument), ``words``
(the arguments after it), and one value per option, by the Param's key (a tuple for an option
that may be repeated).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from components.errors import InputError

if TYPE_CHECKING:
    from companion.moves import MoveSpec, Param
    from companion.play import Move

__all__ = ["form_kwargs", "form_moves", "moves_of", "option_answers", "pair_list", "pairs",
           "repeated", "words_of"]


def pair_list(values: Sequence[str], what: str) -> list[tuple[str, str]]:
    """``NAME=VALUE`` pairs as typed, repeatable and comma-separated, in order: a part
    without ``=`` continues the value before it (``Ann=P07,R01``)."""
    out: list[tuple[str, str]] = []
    for value in values:
        for part in value.split(","):
            text = part.strip()
            if not text:
                continue
            if "=" not in text:
                if not out:
                    raise InputError(f"{what}: '{text[:40]}' should be NAME=..., e.g. Ann=1")
                out[-1] = (out[-1][0], f"{out[-1][1]},{text}")
                continue
            name, body = (x.strip() for x in text.split("=", 1))
            if not name:
                raise InputError(f"{what}: '{text[:40]}' names nobody (NAME=...)")
            out.append((name, body))
    return out


def pairs(values: Sequence[str], what: str) -> dict[str, str]:
    """:func:`pair_list` as a mapping: a name given twice (in any case) is refused."""
    out: dict[str, str] = {}
    for name, body in pair_list(values, what):
        if any(k.lower() == name.lower() for k in out):
            raise InputError(f"{what}: {name[:40]} is given twice (one {what} NAME=... each)")
        out[name] = body
    return out


def repeated(param: Param) -> bool:
    """The option may be typed more than once (click's ``multiple``)."""
    return param.pairs or param.many or param.once


def option_answers(param: Param, values: Any) -> dict[str, str]:
    """What an option typed gives the move: its answer(s) by key."""
    option = param.option or param.key
    if param.flag:
        return {param.key: "yes"} if values else {}
    if param.pairs and param.per_name:
        found = pairs(tuple(values or ()), option)
        return {f"{param.key}.{name}": text for name, text in found.items()}
    if param.pairs:      # the pairs together, as the move reads them (a name twice: its own)
        listed = pair_list(tuple(values or ()), option)
        return {param.key: ",".join(f"{n}={v}" for n, v in listed)} if listed else {}
    if param.many:
        joined = ",".join(v for v in (values or ()) if v.strip())
        return {param.key: joined} if joined else {}
    if param.once:
        given = tuple(values or ())
        if len(given) > 1:
            raise InputError(f"{option} is given {len(given)} times: give it once")
        return {param.key: given[0]} if given else {}
    return {param.key: str(values)} if values is not None else {}


def moves_of(spec: MoveSpec, kwargs: dict[str, Any]) -> list[Move]:
    """The moves one entry typed: one, or one per ``NAME=WORDS`` of a batch. ``kwargs`` is
    consumed (see the module's docstring)."""
    from companion.play import Move

    words_param = next((p for p in spec.params if p.option is None), None)
    words = list(kwargs.pop("words", ()) or ())
    given: dict[str, str] = {}
    for param in spec.params:
        if param.option is not None:
            given.update(option_answers(param, kwargs.pop(param.key, None)))
    who: str | None = None
    if spec.who in ("player", "good"):
        who = str(kwargs.pop("who"))
        if spec.batch and "=" in who:
            if given:
                raise InputError(f"{spec.command}: options go with one NAME, not with "
                                 "NAME=... entries")
            key = words_param.key if words_param else "words"
            # in the order typed; a name may come again (two Land Grants each on Turn 1)
            return [Move.of(spec.kind, name, {key: text})
                    for name, text in pair_list([who, *words], spec.command)]
    elif spec.who == "seller" and len(words) > 1:
        who = words[0]        # checked by the game: is it this Colonist's turn?
    if words_param is not None and words:
        given.update(words_of(spec, words))
    elif words_param is not None and spec.who == "seller":
        given[words_param.key] = ""
    return [Move.of(spec.kind, who, given)]


def words_of(spec: MoveSpec, words: list[str]) -> dict[str, str]:
    """The words typed after a move's name (and whom it is for), as its answers: all of them
    for its one word parameter; with several (``move NAME MULE LAND``), one word each in
    order, the last taking the rest."""
    keys = [p.key for p in spec.params if p.option is None]
    if len(keys) == 1:
        return {keys[0]: " ".join(words)}
    out = {key: word for key, word in zip(keys[:-1], words, strict=False)}
    if len(words) >= len(keys):
        out[keys[-1]] = " ".join(words[len(keys) - 1:])
    return out



def form_kwargs(spec: MoveSpec, who: str | None, fields: Mapping[str, str]) -> dict[str, Any]:
    """A form's fields (one text per Param, by key) as the command line's ``kwargs`` for
    :func:`moves_of`: the text of each field as if typed quoted after the command's name
    (``develop Ann "buy P07 F, assay"``), ``who`` as its first argument. A move for a
    ``seller`` names the seller as its first word, as typed (``auction Dee Ann 10 P13@B3``).
    Only the fields the move declares are read."""
    kwargs: dict[str, Any] = {}
    words: list[str] = []
    if spec.who in ("player", "good"):
        kwargs["who"] = (who or "").strip()
    elif spec.who == "seller" and who:
        words.append(who.strip())
    for param in spec.params:
        text = fields.get(param.key, "").strip()
        if param.option is None:
            if text:
                words.append(text)
        elif repeated(param):
            kwargs[param.key] = (text,) if text else ()
        else:
            kwargs[param.key] = text or None
    kwargs["words"] = tuple(words)
    return kwargs


def form_moves(spec: MoveSpec, who: str | None, fields: Mapping[str, str]) -> list[Move]:
    """The move a form gives: the command line's reading (:func:`moves_of`) of its fields as
    typed, or, for a move of several words (``move MULE LAND``, given one field each by its
    hand-written command), each field as its own answer."""
    from companion.play import Move

    words = [p for p in spec.params if p.option is None]
    if len(words) <= 1:
        return moves_of(spec, form_kwargs(spec, who, fields))
    given: dict[str, str] = {}
    for param in spec.params:
        text = fields.get(param.key, "").strip()
        if param.option is None:
            if text:
                given[param.key] = text
        else:
            given.update(option_answers(param, ((text,) if text else ()) if repeated(param)
                                        else (text or None)))
    return [Move.of(spec.kind, (who or "").strip() or None if spec.who else None, given)]
