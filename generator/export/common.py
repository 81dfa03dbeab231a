"""What every export shares: the faces of a game, file names that stay in the output folder,
the printed title of a face, and a manifest of what was written."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from components import Component, Game
from components.errors import InputError
from generator.draw import Faces, Options
from generator.draw.common import MARK_SIZE
from generator.drawing import PT, Drawing, Text, walk

Tick = Callable[[int], None]


def slug(text: str) -> str:
    """A file-name-safe stem: lower-case letters, digits and dashes only."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:80] or "x"


def inside(folder: Path, name: str) -> Path:
    """``folder/name``, refused unless it resolves inside ``folder`` (a game's ids and titles
    never choose where a file lands)."""
    root = folder.resolve()
    path = (root / name).resolve()
    if not path.is_relative_to(root) or path == root:
        raise InputError(f"refusing to write '{name}': it resolves outside {folder}")
    return path


def export_folder(out: Path, game_key: str, sub: str) -> Path:
    """``out/GAME/sub``, created, refused unless inside ``out`` (a game names its own key)."""
    out.mkdir(parents=True, exist_ok=True)
    folder = inside(out, f"{game_key}/{sub}")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def draw_faces(game: Game, comps: list[Component], bleed: float,
               tick: Callable[[], None] | None = None, safe: float = 0.0,
               cut_line: bool = True) -> list[Faces]:
    """Each component's faces, drawn as ``irata print`` draws them (and checked and bounded
    as it checks them), with ``bleed`` mm; irata's own marks ``safe`` mm inside the trim;
    without a round token's cut circle when not ``cut_line`` (a shop's die cuts it)."""
    from generator.build import draw_all

    return draw_all(game, comps, Options(bleed=bleed, safe_zone=safe, cut_line=cut_line), tick)


def printed_title(comp: Component, front: Drawing) -> str:
    """The name printed on a face: its ``title`` or ``name`` field, else the largest text: its
    first line and the lines wrapped under it (each within 1.6 line heights of the last);
    irata's own version mark is no name, and a face with no other text is named after its
    id (``token/supreme-element``: "Supreme element")."""
    for key in ("title", "name"):
        value = comp.fields.get(key)
        if isinstance(value, str) and value.strip():
            return " ".join(value.split())
    mark = f"v{comp.version}"
    texts = [t for t in walk(front.items) if isinstance(t, Text) and t.text.strip()
             and not (t.size == MARK_SIZE and t.text == mark)]
    if not texts:
        tail = comp.id.rsplit("/", 1)[-1].replace("-", " ").replace("_", " ").strip()
        return tail[:1].upper() + tail[1:] if tail else comp.id
    big = max(t.size for t in texts)
    first = next(t for t in texts if t.size == big)
    ys = sorted({round(t.y, 2) for t in texts if t.size == big and t.y >= first.y - 0.01})
    words: list[str] = []
    y = ys[0]
    for line_y in ys:
        if line_y - y > 1.6 * big * PT:
            break
        y = line_y
        words.extend(t.text.strip() for t in texts if t.size == big and abs(t.y - y) < 0.01)
    return " ".join(words)


def same_picture(a: Drawing | None, b: Drawing | None) -> bool:
    """True when two faces print the same picture (same size, same primitives)."""
    if a is None or b is None:
        return a is b
    return (a.w, a.h, a.bleed) == (b.w, b.h, b.bleed) and list(a.items) == list(b.items)


@dataclass
class Written:
    """What an export wrote (paths relative to its folder), and what it left out and why."""

    folder: Path
    files: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the shop's format changed (opacity)

    def add(self, path: Path, **info: Any) -> None:
        self.files.append({"file": path.relative_to(self.folder.resolve()).as_posix(), **info})


def write_manifest(w: Written, name: str, data: dict[str, Any]) -> Path:
    from generator.build import _atomic_write

    path = inside(w.folder, name)
    full = {**data, "files": w.files, "not_exported": w.skipped, "warnings": w.warnings,
            "notes": w.notes}
    text = json.dumps(full, indent=1, ensure_ascii=False)

    def write(tmp: Path) -> None:
        tmp.write_text(text, encoding="utf-8")

    _atomic_write(path, write)
    return path


def find_component(game: Game, ident: str) -> Component:
    """A component by id (or unique id suffix), with a did-you-mean when unknown."""
    import difflib

    ids = [c.id for c in game.components]
    if ident in ids:
        return game.components[ids.index(ident)]
    tail = [c for c in game.components if c.id.endswith("/" + ident)]
    if len(tail) == 1:
        return tail[0]
    near = difflib.get_close_matches(ident, ids, n=3)
    hint = f" (did you mean {', '.join(near)}?)" if near else ""
    if len(tail) > 1:
        hint = f" (several match: {', '.join(c.id for c in tail[:5])})"
    raise InputError(f"{game.key} has no component '{ident}'{hint}")
