"""``irata print GAME --watch``: rebuild a game whenever one of its files changes.

A designer edits a card, an image or a font and saves; the PDF and SVG are rebuilt, and
only what changed is read, drawn and rendered again (``components.yamlloc``: the file that
changed, and of a long list of components only the items whose lines changed;
``generator.incremental``: the faces of the components whose definition changed, the pages
that hold them); the line says which pages. A mistake
prints its one ``error: FILE:LINE:COL: ...`` line and the watch goes on (the last good files
stay in place, since every output file is written whole and renamed). Ctrl-C ends it.

The watching is ``watchfiles`` (a maintained watcher on the system's file events, polling
where there are none). What it reports is decided here, in plain functions that the tests call
with made-up change sets: ``relevant`` picks the files that are a game's definitions, art or
fonts, inside its folder and outside the output folder; ``Rebuilder.on_changes`` rebuilds each
game touched and reports.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from components.errors import DefinitionErrors, IrataError

# definitions, spreadsheets, art and fonts: what a game's print is made of
WATCHED = (".yaml", ".yml", ".csv", ".tsv", ".tab", ".xlsx", ".png", ".jpg", ".jpeg", ".svg",
           ".ttf", ".otf", ".ttc", ".otc")


def relevant(changes: Iterable[tuple[Any, str]], folder: Path, out: Path) -> list[Path]:
    """The changed files (sorted) that belong to the game in ``folder``: its own kinds of
    file, inside it, not in the output folder and not hidden (editors' swap files)."""
    folder = folder.resolve()
    out = out.resolve()
    found: set[Path] = set()
    for _change, name in changes:
        p = Path(name).resolve()
        if p.suffix.lower() not in WATCHED or folder not in p.parents:
            continue
        if p == out or out in p.parents:
            continue
        if any(part.startswith(".") for part in p.relative_to(folder).parts):
            continue
        found.add(p)
    return sorted(found)


@dataclass
class Rebuilder:
    """Rebuild each watched game when its files change; report, never stop on a mistake.

    ``games`` maps a game's name to its folder; ``build(name)`` builds it (raising
    ``IrataError`` on a mistake); ``echo(line, err)`` shows a line.
    """

    games: dict[str, Path]
    out: Path
    build: Callable[[str], None]
    echo: Callable[[str, bool], None]
    builds: int = 0
    failures: list[str] = field(default_factory=list)

    def build_one(self, name: str, why: str = "") -> bool:
        if why:
            self.echo(f"{name}: {why} changed, rebuilding", False)
        try:
            self.build(name)
        except IrataError as exc:
            self.failures.append(str(exc))
            lines = exc.lines() if isinstance(exc, DefinitionErrors) else [str(exc)]
            for line in lines:  # several mistakes: one line each
                self.echo(f"error: {' '.join(line.split())}", True)
            self.echo(f"{name}: not rebuilt; the last good files stay. Waiting for a fix...",
                      False)
            return False
        self.builds += 1
        return True

    def start(self, then: Callable[[], None] | None = None) -> None:
        for name in self.games:
            self.build_one(name)
        if then is not None:
            then()
        self.echo(f"watching {', '.join(str(f) for f in self.games.values())} "
                  "(Ctrl-C to stop)", False)

    def on_changes(self, changes: Iterable[tuple[Any, str]]) -> list[str]:
        """Rebuild every game a change set touches; the names of those rebuilt (or tried)."""
        changes = list(changes)
        touched = []
        for name, folder in self.games.items():
            files = relevant(changes, folder, self.out)
            if not files:
                continue
            shown = ", ".join(str(f.relative_to(folder.resolve())) for f in files[:3])
            if len(files) > 3:
                shown += f" and {len(files) - 3} more"
            self.build_one(name, shown)
            touched.append(name)
        return touched


_SETTLED = [0]


def settle() -> None:
    """After a build: collect the cycles it left among the objects it made (the young
    generations: a pass over what the build made, not over the heap), then set everything
    that survived aside from the collector (``gc.freeze``), so that the next rebuild's
    reading and drawing never has the collector rescan the whole kept game. Every 16th time
    the whole heap is collected."""
    import gc

    _SETTLED[0] += 1
    if _SETTLED[0] % 16 == 0:
        gc.unfreeze()
        gc.collect()
    else:
        gc.collect(1)
    gc.freeze()


def run(rebuilder: Rebuilder, stop_event: Any = None) -> None:
    """Build once, then rebuild on every change until Ctrl-C (or ``stop_event``)."""
    import watchfiles

    from components import yamlloc
    from generator import incremental

    incremental.KEEP = True  # every rebuild reuses what the one before drew and rendered
    yamlloc.KEEP = True  # and what it read: only a file's changed items are read again
    rebuilder.start(settle)
    folders = sorted({str(f) for f in rebuilder.games.values()})
    try:
        # a save is answered once the folder has been quiet for 20 ms (an editor's write,
        # rename and touch arrive together), at most 400 ms after the first change
        for changes in watchfiles.watch(*folders, stop_event=stop_event, debounce=400,
                                        step=20, raise_interrupt=True):
            if rebuilder.on_changes(changes):
                settle()
    except KeyboardInterrupt:
        pass
    rebuilder.echo("stopped watching", False)
