"""``irata play status | log | undo | export | set | games``: saved games of any companion.

Each works through ``companion.session``: the game's own companion folds the log into its
state. ``--db PATH`` (or ``$IRATA_DB``) chooses the games file; ``--game ID`` the saved game
(default: the one touched last).
"""

from __future__ import annotations

import csv
import io
import json
import os
from typing import Any

import click

from companion import session
from companion.play import entry_events
from components.errors import InputError
from irata.options import DB, GAME, JSON, emit, open_store, pick


def _game() -> str | None:
    """The game whose group the command was typed under (``irata play muli undo``), or None
    (``irata play undo``: any game)."""
    from companion.games import GAMES

    ctx = click.get_current_context(silent=True)
    parent = ctx.parent.info_name if ctx is not None and ctx.parent is not None else None
    return parent if parent in {g.name for g in GAMES} else None


def _event_dict(e: session.Event) -> dict[str, Any]:
    return {"seq": e.seq, "kind": e.kind, "at": e.at, "data": e.data}


@click.command()
@GAME
@DB
@JSON
def status(game_id: int | None, db: str | None, as_json: bool) -> None:
    """Show a saved game's state, and the steps that ran themselves after the last entry."""
    from irata.play.declared import show_status

    show_status(db, game_id, as_json, _game())


def _summary(e: session.Event) -> str:
    if e.kind == "set":
        return f"set {e.data.get('path')} = {json.dumps(e.data.get('value'))}"
    if e.kind == "turn" and "turn" in e.data:
        return f"turn {e.data['turn']}"
    if e.kind == "step" and "step" in e.data:
        who = f" {e.data['who']}" if e.data.get("who") else ""
        typed = "; ".join(f"{k}: {v}" for k, v in sorted((e.data.get("answers") or {}).items())
                          if str(v).strip())
        ran = " (ran itself)" if e.data.get("auto") else ""
        return f"turn {e.data.get('turn')}: {e.data['step']}{who}" + (
            f" \"{typed[:60]}\"" if typed and not ran else "") + ran
    if isinstance(e.data.get("auto"), dict):     # a step with nothing to decide
        return f"{e.kind} (ran itself)"
    keys = ", ".join(sorted(e.data)[:6])
    return f"{e.kind} ({keys})" if keys else e.kind


@click.command()
@GAME
@DB
@JSON
def log(game_id: int | None, db: str | None, as_json: bool) -> None:
    """Show a saved game's events, oldest first."""
    with open_store(db) as store:
        saved = pick(store, game_id, _game())
        events = store.events(saved.id)
    emit(as_json, [_event_dict(e) for e in events],
         lambda: [f"Game {saved.id}: {saved.name}",
                  *(f"{e.seq:4d}  {e.at[:19]}  {_summary(e)}" for e in events)])


def _turn_events(events: list[session.Event]) -> int:
    """How many events at the end of the log belong to the last turn played: the events that
    carry that ``turn`` and the corrections (``set``) made among them."""
    turn = next((e.data.get("turn") for e in reversed(events)
                 if e.kind not in ("setup", "set") and "turn" in e.data), None)
    if turn is None:
        return 0
    first = 0
    for i, e in enumerate(reversed(events), 1):
        if e.kind == "setup" or (e.kind != "set" and e.data.get("turn") != turn):
            break
        if e.kind != "set":
            first = i
    return first


@click.command()
@GAME
@DB
@JSON
@click.option("--turn", "whole_turn", is_flag=True,
              help="Drop every event of the last turn played (its steps and the corrections "
                   "made among them), not just the last event.")
def undo(game_id: int | None, db: str | None, as_json: bool, whole_turn: bool) -> None:
    """Drop a saved game's last event (a step of a turn), or with --turn the whole last turn;
    never its set-up."""
    dropped: list[session.Event] = []
    with open_store(db) as store:
        saved = pick(store, game_id, _game())
        with store.transaction():
            try:
                events = store.events(saved.id)
            except InputError:          # an event edited past reading: undo drops it alone
                events = []
            # the last entry typed, with the steps that ran themselves after it (they would
            # only run again)
            count = _turn_events(events) if whole_turn else (entry_events(events) or 1)
            if whole_turn and not count:
                raise InputError(f"game {saved.id} has no turn to take back")
            for _ in range(count):
                event = store.undo(saved.id)
                if event is None:
                    break
                dropped.append(event)
    ran = [e for e in dropped if e.data.get("auto")]
    typed = [e for e in dropped if not e.data.get("auto")]
    if not dropped:
        text = f"Game {saved.id}: nothing to undo (only the set-up is left)"
    elif len(dropped) == 1:
        text = f"Game {saved.id}: dropped event {dropped[0].seq} ({_summary(dropped[0])})"
    elif not whole_turn and len(typed) > 1:
        text = (f"Game {saved.id}: dropped the last entry, {len(typed)} moves typed together "
                f"(events {dropped[-1].seq} to {dropped[0].seq}: " + ", ".join(
                    _summary(e) for e in reversed(typed)) + ")")
    elif not whole_turn and typed:
        text = (f"Game {saved.id}: dropped event {typed[0].seq} ({_summary(typed[0])}) and "
                f"what ran itself after it: " + ", ".join(
                    f"{e.seq} ({_summary(e)})" for e in reversed(ran)))
    else:
        text = (f"Game {saved.id}: dropped events {dropped[-1].seq} to {dropped[0].seq} "
                f"(turn {dropped[-1].data.get('turn')})")
    emit(as_json, {"id": saved.id, "dropped": [_event_dict(e) for e in dropped]}, text)


def _value(text: str) -> Any:
    """A typed value: a number or sum, true/false/null, JSON, else the text itself."""
    try:
        return session.parse_amount(text)
    except InputError:
        pass
    try:
        return json.loads(text)
    except ValueError:
        return text


@click.command("set", context_settings={"ignore_unknown_options": True})
@click.argument("path")
@click.argument("value")
@GAME
@DB
@JSON
def set_cmd(path: str, value: str, game_id: int | None, db: str | None, as_json: bool) -> None:
    """Correct any number at any time: PATH such as players.Ann.food, VALUE such as 3+2.

    The table is the truth: the correction is an event of the log, so undo takes it back.
    """
    parsed = _value(value)
    # read, check and append in one transaction, as options.record does (the event is shown)
    with open_store(db) as store, store.transaction():
        saved = pick(store, game_id, _game())
        state = session.state_of(store, saved)
        _check_path(state, path, parsed)
        after = session.check_set(store, saved, {"path": path, "value": parsed})
        event = store.append(saved.id, "set", {"path": path, "value": parsed})
    held = session.value_at(after, path)  # as the game keeps it: 1e9 is 1000000000
    emit(as_json, {"id": saved.id, "event": _event_dict(event), "value": held},
         f"Game {saved.id}: {path} = {json.dumps(held if held is not None else parsed)}")


def _check_path(state: dict[str, Any], path: str, value: Any) -> None:
    """Refuse a path that names nothing there (a typo), and a negative number of things."""
    node: Any = state
    parts = path.split(".")
    for i, part in enumerate(parts):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list):
            index = session.list_position(node, part, path)
            if not -len(node) <= index < len(node):
                where = ".".join(parts[:i]) or "the game"
                raise InputError(f"'{path}': {where} has no position {part} "
                                 f"(it has {len(node)})")
            node = node[index]
        else:
            where = ".".join(parts[:i]) or "the game"
            choices = ", ".join(map(str, node)) if isinstance(node, dict) else ""
            raise InputError(f"'{path}': {where} has no '{part}'"
                             + (f" (it has: {choices})" if choices else ""))
    from components.yamlloc import kind_of

    kind, given = kind_of(node), kind_of(value)
    if node is not None and kind != given:
        raise InputError(f"'{path}' holds {kind} ({json.dumps(node)}), so {json.dumps(value)} "
                         f"cannot go there")
    if kind == "a number" and value < 0:
        raise InputError(f"'{path}' cannot be negative")


def _numbers(values: dict[str, Any], prefix: str = "") -> dict[str, int | float]:
    """A player's numbers, nested groups flattened with dots (dice.sell, mules.food)."""
    out: dict[str, int | float] = {}
    for key, value in values.items():
        if isinstance(value, dict):
            out.update(_numbers(value, f"{prefix}{key}."))
        elif isinstance(value, int | float) and not isinstance(value, bool):
            out[f"{prefix}{key}"] = value
    return out


def _stock_rows(events: list[session.Event], game: str) -> tuple[list[str], list[list[Any]]]:
    """Each player's numbers after each event that changed them: for the CSV."""
    fold = session.fold_of(game)
    columns: list[str] = []
    rows: list[list[Any]] = []
    for i in range(1, len(events) + 1):
        state = fold(events[:i])
        players = state.get("players")
        if not isinstance(players, dict):
            continue
        for name, p in players.items():
            if not isinstance(p, dict):
                continue
            numbers = _numbers(p)
            for k in numbers:
                if k not in columns:
                    columns.append(k)
            rows.append([events[i - 1].seq, state.get("turn", ""), name, numbers])
    out = [[seq, turn, name, *(nums.get(c, "") for c in columns)]
           for seq, turn, name, nums in rows]
    return ["event", "turn", "player", *columns], out


@click.command()
@GAME
@DB
@click.option("--out", "out", type=click.Path(dir_okay=False),
              help="Write the log to this JSON file (and the stocks to FILE.csv).")
def export(game_id: int | None, db: str | None, out: str | None) -> None:
    """Write a saved game's log as JSON, and every player's numbers per turn as CSV."""
    with open_store(db) as store:
        saved = pick(store, game_id, _game())
        events = store.events(saved.id)
        state = session.state_of(store, saved)
    doc = {"id": saved.id, "game": saved.game, "name": saved.name, "created": saved.created,
           "events": [_event_dict(e) for e in events], "state": state}
    text = json.dumps(doc, indent=2)
    if out is None:
        click.echo(text)
        return
    header, rows = _stock_rows(events, saved.game)
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(header)
    writer.writerows(rows)
    target, csv_path = session.export_paths(out)
    for path, content in ((target, text), (csv_path, buf.getvalue())):
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_text(content, encoding="utf-8")
            os.replace(tmp, path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise InputError(f"--out {out}: cannot write {path} ({exc.strerror})") from None
    click.echo(f"Wrote {target} and {csv_path}")


@click.command()
@DB
@JSON
def games(db: str | None, as_json: bool) -> None:
    """List the saved games."""
    with open_store(db) as store:
        found = store.games()
        latest = store.latest()
    emit(as_json, [{"id": g.id, "game": g.game, "name": g.name, "created": g.created}
                   for g in found],
         [f"{'*' if latest and g.id == latest.id else ' '}{g.id:4d}  {g.game:16s} {g.name}  "
          f"({g.created[:16]})" for g in found] or [f"No saved games in {store.path}"])
