"""Errata: a game folder's ``errata.yaml`` applied to its definitions, and the versions it yields.

```yaml
errata:
  - id: E1
    version: "1.1"                  # the edition this erratum belongs to
    date: 2026-11-29
    summary: Acid Rain Storm! lowers Energy by 1, not 2
    note: optional longer text (the slip, and the reading adopted)
    changes:
      - component: production/acid-rain-storm
        set: {modifiers: {food: 2, energy: -1}, text: "..."}
      - data: last_round                # a mapping of the game's rule data (dotted path)
        set: {bonus_revenue_piles_empty: 2}
```

Errata apply in file order; their versions never go down and each is later than
``game.yaml``'s edition. A change replaces whole fields (``modifiers.energy`` reaches inside a
mapping). A component or field the definitions do not have, a value of another kind than the one
it replaces, or a value the format refuses is a ``DefinitionError`` at the erratum's own
FILE:LINE:COL. Each changed component takes the version of the last erratum that changed it; the
game's edition is that of its latest erratum. Versions compare as numbers ("1.10" > "1.9").

This module knows nothing of printing: the errata notice sheet lives in the generator.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from components.errors import InputError
from components.schema import (
    RESERVED,
    Component,
    Game,
    check_keys,
    data_refs,
    err,
    expect_mapping,
    parse_component,
    reads,
    suggest,
)
from components.yamlloc import LocDict, LocList, kind_of, load_file, plain

ERRATUM_KEYS = ("id", "version", "date", "summary", "note", "changes")
CHANGE_KEYS = ("component", "data", "set")
FROZEN = ("id", "kind")  # keys an erratum may not change: they name the component
# a version is a few short numbers ("1.10"): bounded by length before any is converted, so a
# version of thousands of digits is refused as a version rather than overflowing int()
VERSION_RE = re.compile(r"[0-9]{1,9}(\.[0-9]{1,9}){0,7}")


@dataclass(frozen=True)
class Change:
    """One change of an erratum: fields of a component (or of the rule data) set anew."""

    component: str | None
    data: str | None
    set: dict[str, Any]
    file: str = ""
    line: int = 0

    @property
    def target(self) -> str:
        return self.component if self.component is not None else f"data:{self.data}"


@dataclass(frozen=True)
class Erratum:
    """One published erratum: its id, the edition it belongs to, and its changes."""

    id: str
    version: str
    date: str
    summary: str
    changes: tuple[Change, ...] = ()
    note: str = ""
    readers: tuple[str, ...] = ()   # set on apply: components whose faces show changed data

    @property
    def components(self) -> list[str]:
        """The ids of the components this erratum changes, in order, once each: those it names,
        then those whose faces print the rule data it changes."""
        out: list[str] = []
        for cid in [ch.component for ch in self.changes] + list(self.readers):
            if cid is not None and cid not in out:
                out.append(cid)
        return out

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "version": self.version, "date": self.date,
                "summary": self.summary, "note": self.note,
                "changes": [{"component": c.component, "data": c.data, "set": plain(c.set)}
                            for c in self.changes],
                "readers": list(self.readers)}


def version_key(version: str) -> tuple[int, ...]:
    """``"1.10"`` -> ``(1, 10)``: editions compare as numbers, part by part. ``ValueError``
    for what is not a version (``is_version``)."""
    if not is_version(version):
        raise ValueError(f"'{str(version)[:40]}' is not a version such as 1.1")
    parts = [int(p) for p in str(version).strip().split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()  # "1.0" == "1"
    return tuple(parts)


def is_version(text: str) -> bool:
    return bool(VERSION_RE.fullmatch(str(text).strip()))


# --- reading errata.yaml ---------------------------------------------------------------------

def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def read_errata(path: Path, base: str | None = None) -> tuple[list[Erratum], list[LocDict]]:
    """Parse ``errata.yaml``: the errata, and each change's YAML node (for located errors).

    With ``base`` (game.yaml's edition), every erratum must be later than it, and no erratum
    earlier than the one before it."""
    shown = _shown(path)
    doc = load_file(path, shown)
    if doc is None:
        return [], []
    doc = expect_mapping(doc, "errata.yaml", doc)
    for key in doc:
        if key != "errata":
            raise err(f"unknown key '{key}' in errata.yaml (expected: errata)", doc, key)
    items = doc.get("errata")
    if items is None:
        return [], []
    if not isinstance(items, LocList):
        raise err("errata must be a list (each item starting with '- id: E1')", doc, "errata")
    out: list[Erratum] = []
    nodes: list[LocDict] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(items):
        item = expect_mapping(item, f"erratum {i + 1}", items, i)
        check_keys(item, ERRATUM_KEYS, "an erratum")
        for req in ("id", "version", "summary"):
            if req not in item:
                raise err(f"an erratum needs '{req}'", item)
        eid = item["id"]
        if not isinstance(eid, (str, int)) or isinstance(eid, bool) or not str(eid).strip():
            raise err("an erratum's id must be a short name such as E1", item, "id")
        eid = str(eid)
        if eid in seen:
            raise err(f"erratum id '{eid}' is used twice (also on line {seen[eid]})",
                      item, "id")
        seen[eid] = item.at("id")[0]
        version = item["version"]
        if isinstance(version, float):
            raise err(f"write the version in quotes (\"{version}\"): as a bare number 1.10 "
                      "would read as 1.1", item, "version")
        if not isinstance(version, (str, int)) or isinstance(version, bool) \
                or not is_version(str(version)):
            shown = repr(version) if len(str(version)) <= 40 else (
                f"{str(version)[:20]}... ({len(str(version))} characters)")
            raise err(f"an erratum's version must be numbers and dots in quotes, such as "
                      f"\"1.1\" (each number at most 9 digits), not {shown}", item, "version")
        if base is not None and not is_version(base):
            raise err(f"erratum {eid}: game.yaml's edition '{str(base)[:40]}' is not a version "
                      "of numbers and dots (such as \"1.0\"), so no erratum can follow it",
                      item, "version")
        if base is not None and version_key(str(version)) <= version_key(base):
            raise err(f"erratum {eid}: version {version} is not later than game.yaml's "
                      f"edition {base}", item, "version")
        if out and version_key(str(version)) < version_key(out[-1].version):
            raise err(f"erratum {eid}: version {version} is earlier than erratum "
                      f"{out[-1].id}'s {out[-1].version} (list errata oldest first)",
                      item, "version")
        date = item.get("date", "")
        if isinstance(date, (datetime.date, datetime.datetime)):
            date = date.isoformat()[:10]
        elif not isinstance(date, str):
            raise err("date must be written as YYYY-MM-DD", item, "date")
        summary = item["summary"]
        if not isinstance(summary, str) or not summary.strip():
            raise err("an erratum's summary must be a line of text", item, "summary")
        note = item.get("note", "")
        if not isinstance(note, str):
            raise err("note must be text", item, "note")
        raw_changes = item.get("changes")
        changes: list[Change] = []
        if raw_changes is not None:
            if not isinstance(raw_changes, LocList):
                raise err("changes must be a list (each item '- component: ID' with 'set:')",
                          item, "changes")
            for j, ch in enumerate(raw_changes):
                ch = expect_mapping(ch, f"change {j + 1} of erratum {eid}", raw_changes, j)
                changes.append(_read_change(ch, eid))
                nodes.append(ch)
        out.append(Erratum(eid, str(version), date, summary.strip(), tuple(changes),
                           note.strip()))
    return out, nodes


def _read_change(ch: LocDict, eid: str) -> Change:
    check_keys(ch, CHANGE_KEYS, f"a change of erratum {eid}")
    if ("component" in ch) == ("data" in ch):
        raise err(f"a change of erratum {eid} names either 'component: ID' or 'data: KEY', "
                  "one of them", ch)
    if "set" not in ch:
        raise err(f"a change of erratum {eid} needs 'set:' (the fields and their new values)",
                  ch)
    sets = expect_mapping(ch["set"], "set", ch, "set")
    if not sets:
        raise err("set: names no field", ch, "set")
    target_key = "component" if "component" in ch else "data"
    target = ch[target_key]
    if not isinstance(target, str) or not target:
        raise err(f"{target_key} must be a component id or a data key, not {target!r}",
                  ch, target_key)
    return Change(component=target if target_key == "component" else None,
                  data=target if target_key == "data" else None, set=sets, file=ch.file,
                  line=ch.mark[0])


# --- applying ----------------------------------------------------------------------------------

_MISSING = object()


def _lookup(root: dict[str, Any], dotted: str) -> Any:
    node: Any = root
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return _MISSING
        node = node[part]
    return node


def _put(root: dict[str, Any], dotted: str, value: Any) -> None:
    """Set ``root[a][b]... = value`` for ``a.b...``; the mappings on the way are copied."""
    parts = dotted.split(".")
    if len(parts) == 1:
        root[parts[0]] = value
        return
    head = copy.copy(root[parts[0]])
    root[parts[0]] = head
    _put(head, ".".join(parts[1:]), value)


def _check_value(old: Any, new: Any, sets: LocDict, key: str, where: str) -> None:
    if old is None or new is None:
        return
    if kind_of(old) != kind_of(new):
        raise err(f"{where}: '{key}' holds {kind_of(old)} ({_short(old)}), so its new value "
                  f"must be {kind_of(old)} too, not {kind_of(new)} ({_short(new)})",
                  sets, key)


def _short(value: Any) -> str:
    text = repr(plain(value))
    return text if len(text) <= 40 else text[:37] + "..."


def _apply_component(game: Game, comps: list[Component], index: dict[str, int], ch: Change,
                     node: LocDict, erratum: Erratum) -> None:
    cid = ch.component or ""
    if cid not in index:
        raise err(f"erratum {erratum.id}: no component '{cid}' in {game.key}"
                  f"{suggest(cid, list(index))}", node, "component")
    comp = comps[index[cid]]
    sets: LocDict = ch.set  # type: ignore[assignment]
    raw = dict(comp.raw)
    for key, value in sets.items():
        top = key.split(".")[0]
        if top in FROZEN:
            raise err(f"erratum {erratum.id}: a component's '{top}' cannot change; retire it "
                      "with count: 0 and add a new component instead",
                      sets, key)
        old = _lookup(raw, key)
        if old is _MISSING and key in RESERVED:
            old = None  # print settings always exist (count, back, ...), given or not
        if old is _MISSING:
            have = sorted(k for k in raw if k not in FROZEN)
            if "." in key and _lookup(raw, top) is not _MISSING:
                hint = f" (set the whole '{top}' mapping instead)"
            else:
                hint = suggest(key, have) or f" (its fields: {', '.join(have)})"
            raise err(f"erratum {erratum.id}: component '{cid}' has no field '{key}'{hint}",
                      sets, key)
        _check_value(old, value, sets, key, f"erratum {erratum.id}")
        _put(raw, key, value)
    # re-validate as the loader does: the new values go through the format's own checks,
    # located in errata.yaml
    checked = LocDict(raw)
    checked.mark = node.mark
    checked.marks = {k: sets.at(k) if k in sets else node.mark for k in raw}
    for key in sets:
        checked.marks[key.split(".")[0]] = sets.at(key)
    checked.file = node.file
    new = parse_component(checked, {}, game.layouts, node.file)
    comps[index[cid]] = dataclasses.replace(new, file=comp.file, line=comp.line,
                                            version=erratum.version)


def _apply_data(data: dict[str, Any], ch: Change, node: LocDict, erratum: Erratum) -> None:
    where = ch.data or ""
    target = _lookup(data, where)
    if target is _MISSING or not isinstance(target, dict):
        what = "no mapping" if target is not _MISSING else "nothing"
        raise err(f"erratum {erratum.id}: the rule data holds {what} at '{where}'"
                  f"{suggest(where.split('.')[0], list(data))}", node, "data")
    sets: LocDict = ch.set  # type: ignore[assignment]
    for key, value in sets.items():
        old = _lookup(target, key)
        if old is _MISSING:
            raise err(f"erratum {erratum.id}: the rule data '{where}' has no '{key}'"
                      f"{suggest(key, list(target))}", sets, key)
        _check_value(old, value, sets, key, f"erratum {erratum.id}")
        _put(data, f"{where}.{key}", value)


def _check_counts(game: Game, comps: list[Component], sets: Any, key: str,
                  erratum: Erratum) -> None:
    counts: dict[str, int] = {}
    for comp in comps:
        counts[comp.group] = counts.get(comp.group, 0) + comp.count
    for item in game.inventory:
        if item.printed and counts.get(item.group, 0) != item.count:
            raise err(f"erratum {erratum.id}: inventory group '{item.group}' in game.yaml lists "
                      f"{item.count} but the components in it now make "
                      f"{counts.get(item.group, 0)}", sets, key)


def apply(game: Game, errata: list[Erratum], nodes: list[LocDict] | None = None) -> Game:
    """A new ``Game``: ``errata`` applied in order to ``game`` (left unchanged)."""
    comps = list(game.components)
    index = {c.id: i for i, c in enumerate(comps)}
    data = copy.copy(game.data)
    flat = iter(nodes or [])
    applied: list[Erratum] = []
    for erratum in errata:
        readers: list[str] = []
        for ch in erratum.changes:
            node = next(flat, None) or _node_for(ch)
            if ch.component is not None:
                _apply_component(game, comps, index, ch, node, erratum)
                for key in ("count", "group"):
                    if key in ch.set:
                        _check_counts(game, comps, ch.set, key, erratum)
            else:
                _apply_data(data, ch, node, erratum)
                readers += _stamp_readers(game, comps, ch, erratum, readers)
        applied.append(dataclasses.replace(erratum, readers=tuple(readers)))
    base = game.base_edition or game.edition
    edition = errata[-1].version if errata else base
    return dataclasses.replace(game, components=comps, data=data, edition=edition,
                               base_edition=base, errata=applied)


def _stamp_readers(game: Game, comps: list[Component], ch: Change, erratum: Erratum,
                   known: list[str]) -> list[str]:
    """A change of the rule data changes every component whose faces print it: each takes the
    erratum's version, as if named. Returns the ids not in ``known`` yet."""
    where = ch.data or ""
    changed = [f"{where}.{key}" if where else key for key in ch.set]
    out: list[str] = []
    for i, comp in enumerate(comps):
        refs = data_refs(comp, game.layouts)
        if refs and any(reads(refs, c) for c in changed):
            comps[i] = dataclasses.replace(comp, version=erratum.version)
            if comp.id not in known:
                out.append(comp.id)
    return out


def _node_for(ch: Change) -> LocDict:
    node = LocDict({"component": ch.component} if ch.component else {"data": ch.data})
    node["set"] = ch.set
    node.mark = (ch.line, 1)
    node.marks = {}
    node.file = ch.file
    return node


def apply_errata(game: Game, path: Path) -> Game:
    """Read ``path`` (a game's ``errata.yaml``) and apply it: the loader's hook."""
    errata, nodes = read_errata(path, game.base_edition or game.edition)
    return apply(game, errata, nodes)


# --- questions about a loaded game -------------------------------------------------------------

def editions(game: Game) -> list[str]:
    """Every edition the game has had: game.yaml's, then each erratum's (once each)."""
    out = [game.base_edition or game.edition]
    for e in game.errata:
        if version_key(e.version) not in {version_key(v) for v in out if is_version(v)}:
            out.append(e.version)
    return out


def known_edition(game: Game, version: str, what: str = "edition") -> str:
    """``version`` as the game names it; ``InputError`` naming the known ones otherwise."""
    known = editions(game)
    if is_version(version):
        for v in known:
            if is_version(v) and version_key(v) == version_key(version):
                return v
    shown = version if len(version) <= 40 else f"{version[:20]}... ({len(version)} characters)"
    raise InputError(f"{game.key} has no {what} '{shown}' (its editions: {', '.join(known)})")


def changed_since(game: Game, since: str) -> set[str]:
    """The ids of the components changed by errata later than edition ``since``."""
    known_edition(game, since)
    after = version_key(since)
    return {cid for e in game.errata if version_key(e.version) > after for cid in e.components}


def errata_between(game: Game, old: str, new: str) -> list[Erratum]:
    lo, hi = version_key(old), version_key(new)
    return [e for e in game.errata if lo < version_key(e.version) <= hi]


def state_at(game: Game, version: str, base: Game) -> Game:
    """The game as it stood at edition ``version``: ``base`` (no errata) with the errata up to
    and including that edition."""
    upto = version_key(version)
    return apply(base, [e for e in game.errata if version_key(e.version) <= upto])


def field_diff(before: Component | None, after: Component | None) -> list[dict[str, Any]]:
    """Field by field: every key whose value differs between two states of a component."""
    a = before.raw if before else {}
    b = after.raw if after else {}
    out = []
    for key in list(a) + [k for k in b if k not in a]:
        if key == "id":
            continue
        va, vb = a.get(key, None), b.get(key, None)
        if plain(va) != plain(vb):
            out.append({"field": key, "before": plain(va), "after": plain(vb)})
    return out


def diff(game: Game, base: Game, old: str, new: str) -> dict[str, Any]:
    """What the errata after edition ``old`` up to ``new`` changed: per component, field by
    field, the value at ``old`` and at ``new``; and the rule data likewise."""
    old = known_edition(game, old, "edition (--from)")
    new = known_edition(game, new, "edition (--to)")
    if version_key(old) > version_key(new):
        raise InputError(f"--from {old} is later than --to {new}: give the older edition first")
    at_old, at_new = state_at(game, old, base), state_at(game, new, base)
    between = errata_between(game, old, new)
    comps: list[dict[str, Any]] = []
    data: list[dict[str, Any]] = []
    seen: list[str] = []
    refs: dict[str, set[str]] | None = None
    for e in between:
        for ch in e.changes:
            if ch.target in seen:
                continue
            seen.append(ch.target)
            by = [x.id for x in between if any(c.target == ch.target for c in x.changes)]
            if ch.component is not None:
                fields = field_diff(at_old.find(ch.component), at_new.find(ch.component))
                comps.append({"component": ch.component, "errata": by,
                              "version": at_new.component(ch.component).version,
                              "fields": fields})
            else:
                where = ch.data or ""
                va, vb = _lookup(at_old.data, where), _lookup(at_new.data, where)
                keys = list(va) + [k for k in vb if k not in va]
                fields = [{"field": f"{where}.{k}", "before": plain(va.get(k)),
                           "after": plain(vb.get(k))} for k in keys
                          if plain(va.get(k)) != plain(vb.get(k))]
                set_keys = [f"{where}.{k}" if where else k for x in between
                            for c in x.changes if c.target == ch.target for k in c.set]
                if refs is None:   # what each component's faces print of the data, once
                    refs = {c.id: data_refs(c, at_new.layouts) for c in at_new.components}
                printed_on = [cid for cid, r in refs.items()
                              if any(reads(r, k) for k in set_keys)]
                data.append({"data": where, "errata": by, "fields": fields,
                             "printed_on": printed_on})
                for cid in printed_on:
                    shown = [{**f, "field": f"data.{f['field']}"} for f in fields
                             if reads(refs[cid], f["field"])]
                    entry = next((c for c in comps if c["component"] == cid), None)
                    if entry is None:
                        comps.append({"component": cid, "errata": by,
                                      "version": at_new.component(cid).version,
                                      "fields": shown})
                    else:
                        entry["fields"] += [f for f in shown if f not in entry["fields"]]
    return {"game": game.key, "from": old, "to": new,
            "errata": [e.as_dict() for e in between], "components": comps, "data": data}


PAYLOAD_RE = re.compile(r"^irata:(?P<game>[A-Za-z0-9_\-]+)/(?P<id>[^@\s]+)@(?P<version>[^@\s]+)$")


def parse_payload(text: str) -> tuple[str, str, str]:
    """``irata:GAME/COMPONENT-ID@VERSION`` -> (game, id, version); InputError otherwise."""
    m = PAYLOAD_RE.match(text.strip())
    if not m or not is_version(m["version"]):
        shown = text if len(text) <= 80 else f"{text[:60]}... ({len(text)} characters)"
        raise InputError(f"'{shown}' is not an irata stamp (expected irata:GAME/COMPONENT-ID@"
                         "VERSION, for example irata:mule/production/acid-rain-storm@1.1)")
    return m["game"], m["id"], m["version"]


def check(game: Game, base: Game, component_id: str, version: str) -> dict[str, Any]:
    """Is the copy of ``component_id`` stamped ``version`` current; if not, what changed."""
    comp = game.find(component_id)
    if comp is None:
        raise InputError(f"{game.key} has no component '{component_id}'"
                         f"{suggest(component_id, [c.id for c in game.components])}")
    stamped = known_edition(game, version, "edition")
    current = version_key(stamped) >= version_key(comp.version)
    out: dict[str, Any] = {"game": game.key, "component": component_id, "stamped": stamped,
                           "version": comp.version, "edition": game.edition,
                           "current": current, "errata": [], "fields": []}
    if not current:
        out["errata"] = [{"id": e.id, "version": e.version, "date": e.date,
                          "summary": e.summary}
                         for e in errata_between(game, stamped, game.edition)
                         if component_id in e.components]
        out["fields"] = field_diff(state_at(game, stamped, base).find(component_id), comp)
    return out
