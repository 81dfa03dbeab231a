"""The table view's content, generic over the declared games: what the board shows and which
forms a player's phone offers now, from the game's declaration (:mod:`companion.play`) and a
small view module per game (``companion/<game>/view.py``).

A game's view module reads the state's JSON form and declares:

- ``board(state) -> Board``: a column per player, the shared stocks, notes and what comes
  after the step of now (the step of now itself comes from the declaration's ``now``);
- ``players(state) -> tuple[str, ...]``: the players' names, as a seat is chosen;
- ``choices(state, kind, who) -> dict[str, tuple[str, ...]]``: for a move of ``kind`` by
  ``who``, what may be typed into each of its fields now (a Colonist's own Lands), offered as
  choices beside the field (the field still takes any text: the game's check judges it).

A game without one gets its ``describe`` text on the board and no choices. Nothing here is a
rule: who may enter a move is the seat's (a player enters the moves naming them, and those of
a step that is theirs), what is accepted is the declaration's.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any

from companion.entry import form_moves, pair_list
from companion.play import now_of, over
from companion.record import NamedTuple
from components.errors import InputError

if TYPE_CHECKING:
    from companion.moves import MoveSpec
    from companion.play import Declaration, Move, Now

__all__ = ["FILE_LABEL", "Board", "Cell", "Column", "Field", "Form", "board_of", "forms",
           "open_kinds", "players", "read_form", "seat_refusal"]

FILE_LABEL = "text typed at the table"   # a file's move from a form: its text, never a path
MAX_FIELD = 20_000   # characters of one field (a Mutagen round's YAML is about 2,000)


class Cell(NamedTuple):
    """One figure on the board: ``Money`` ``$30``."""

    label: str
    value: str


class Column(NamedTuple):
    """A player's column: their name, a heading (``Rank 1``), their figures and their things
    (Lands with their M.U.L.E.s, planets)."""

    name: str
    heading: str
    cells: tuple[Cell, ...]
    items: tuple[str, ...] = ()


class Board(NamedTuple):
    """What the board view shows of a game, besides the step of now."""

    title: str
    columns: tuple[Column, ...]
    stocks: tuple[Cell, ...] = ()
    notes: tuple[str, ...] = ()
    upcoming: tuple[str, ...] = ()


class Field(NamedTuple):
    """One field of a form: a Param of the move, with the choices open now."""

    key: str
    title: str
    help: str
    option: str | None
    choices: tuple[str, ...] = ()
    long: bool = False      # a file's text: many lines


class Form(NamedTuple):
    """A move's form: its declaration, whom it is for (fixed for a player's seat; chosen from
    ``who_choices`` at the board) and its fields."""

    kind: str
    command: str
    summary: str
    help: str
    who_kind: str
    who: str | None
    who_choices: tuple[str, ...]
    fields: tuple[Field, ...]


def _view(game: str) -> ModuleType | None:
    from companion.games import entry

    try:
        return importlib.import_module(entry(game).package + ".view")
    except ModuleNotFoundError:
        return None


def players(game: str, state: dict[str, Any]) -> tuple[str, ...]:
    """The players of a saved game, as a seat is chosen."""
    view = _view(game)
    if view is not None:
        named: tuple[str, ...] = view.players(state)
        return named
    raw = state.get("players", ())
    return tuple(str(p) for p in raw)


def board_of(game: str, decl: Declaration[Any], state: dict[str, Any]) -> dict[str, Any]:
    """The board view's content, JSON-like: the game's board and the step of now."""
    from companion.games import entry

    view = _view(game)
    if view is not None:
        board: Board = view.board(state)
    else:
        lines = tuple(entry(game).describe(state).splitlines())
        board = Board(entry(game).title, (), notes=lines)
    now = now_of(decl, state)
    return {"title": board.title,
            "columns": [{"name": c.name, "heading": c.heading, "items": list(c.items),
                         "cells": [list(x) for x in c.cells], "now": bool(now and now.who
                                                                        == c.name)}
                        for c in board.columns],
            "stocks": [list(x) for x in board.stocks], "notes": list(board.notes),
            "upcoming": list(board.upcoming), "now": now.as_dict() if now else None}


def open_kinds(game: str, state: dict[str, Any], now: Now | None,
               declared: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The moves possible now: those ``now`` names (``Now.possible``; a kind written
    ``draw|build|sell`` is any of them); every one of ``declared`` when ``now`` names none of
    them (the game's own check then says which it takes)."""
    if now is None:
        return ()
    kinds: list[str] = []
    for step in now.possible:
        kinds.extend(k for k in re.split(r"[^\w-]+", step) if k and k not in kinds)
    if declared:
        named = tuple(k for k in kinds if k in declared)
        return named or declared     # a step named otherwise than its moves: offer them all
    return tuple(kinds)


def _mine(spec: MoveSpec, now: Now, seat: str) -> bool:
    """A player's seat enters a move naming a player (its own name), or one of a step that is
    theirs."""
    if spec.who in ("player", "seller"):
        return now.who is None or _same(now.who, seat)
    return spec.who == "" and now.who is not None and _same(now.who, seat)


def forms(game: str, decl: Declaration[Any], state: dict[str, Any], seat: str | None
          ) -> tuple[Form, ...]:
    """The forms open now: to a player's ``seat`` the moves that are theirs, to the board
    (``seat`` None) every move possible now."""
    now = now_of(decl, state)
    if now is None:
        return ()
    view = _view(game)
    names = players(game, state)
    out: list[Form] = []
    for kind in open_kinds(game, state, now, tuple(m.kind for m in decl.moves)):
        spec = next((m for m in decl.moves if m.kind == kind), None)
        if spec is None or (seat is not None and not _mine(spec, now, seat)):
            continue
        who = seat if seat is not None and spec.who in ("player", "seller") else None
        if who is None and spec.who in ("player", "seller", "good") and now.who:
            who = now.who if seat is None else None
        found: dict[str, tuple[str, ...]] = view.choices(state, kind, who or now.who) \
            if view is not None else {}
        choices = found.get("who", ()) or (names if spec.who in ("player", "seller") else ())
        fields = tuple(Field(p.key, p.title or p.key.replace("_", " ").capitalize(), p.help,
                             p.option, found.get(p.key, ()), p.key == "file")
                       for p in spec.params)
        out.append(Form(spec.kind, spec.command, spec.summary, spec.help, spec.who,
                        who, choices if seat is None else (), fields))
    return tuple(out)


def _shown(name: str) -> str:
    """A name as typed, said in one line (what cannot be printed shown as its escape)."""
    text = name if name.isprintable() else name.encode("unicode_escape").decode("ascii")
    return text[:40]


def _same(a: str, b: str) -> bool:
    return a.strip().lower() == b.strip().lower()


def read_form(decl: Declaration[Any], kind: str, who: str | None, fields: Mapping[str, str]
              ) -> list[Move]:
    """The moves a form entered, read as the command line reads the same entry typed. A
    field too long, or a move the game does not declare, is refused (InputError)."""
    spec = next((m for m in decl.moves if m.kind == kind), None)
    if spec is None:
        raise InputError(f"this game has no move '{kind[:40]}' (its moves: "
                         f"{', '.join(m.kind for m in decl.moves)})")
    for key, text in (("who", who or ""), *fields.items()):
        if len(text) > MAX_FIELD:
            raise InputError(f"{key[:40]}: too long ({len(text)} characters; at most "
                             f"{MAX_FIELD})")
    if spec.who == "player" and who and "=" in who:
        raise InputError(f"{spec.command}: name one player, not NAME=...")
    typed = {p.key: fields.get(p.key, "") for p in spec.params}
    moves = form_moves(spec, who, typed)
    if any(p.key == "file" for p in spec.params):   # a file's text, never a path to read
        moves = [m.of(m.kind, m.who, {**m.answers, "file": FILE_LABEL,
                                      "text": typed.get("file", "")}) for m in moves]
    return moves


def seat_refusal(decl: Declaration[Any], state: dict[str, Any], moves: list[Move], seat: str,
                 names: tuple[str, ...]) -> str | None:
    """Why a player's seat may not enter these moves (None when it may): each must be theirs
    (see :func:`forms`), and name no other player in its pairs (``--sell Bob=1``)."""
    now = now_of(decl, state)
    if now is None:
        return over(decl, decl.from_json(state))
    for move in moves:
        spec = next(m for m in decl.moves if m.kind == move.kind)
        if spec.who == "good" or (spec.who == "" and not now.who):
            return (f"'{spec.command}' is the table's entry, not one player's: the board "
                    "view enters it")
        if spec.who == "" and now.who and not _same(now.who, seat):
            return f"it is {now.who}'s step now ({now.text}), not {seat}'s"
        if spec.who in ("player", "seller") and not (move.who and _same(move.who, seat)):
            whom = f"not {_shown(move.who)}'s" if move.who else \
                "and this entry names nobody: are its fields filled in?"
            return f"your seat is {seat}'s: it enters {seat}'s moves, {whom}"
        others = _named(spec, move) - {seat.lower()}
        if others:
            return (f"your seat is {seat}'s: it enters {seat}'s moves, not "
                    f"{', '.join(_shown(n) for n in sorted(others))}'s")
    return None


def _named(spec: MoveSpec, move: Move) -> set[str]:
    """The players a move's pairs name (``--sell Ann=1,Bob=2``, ``--flip Ann=...``)."""
    out: set[str] = set()
    for key, text in move.given:
        base, _, name = key.partition(".")
        if name:
            out.add(name.lower())
            continue
        param = next((p for p in spec.params if p.key == base), None)
        if param is not None and param.pairs:
            out.update(n.lower() for n, _ in pair_list([text], param.option or base))
    return out
