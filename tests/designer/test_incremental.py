"""Incremental builds (``generator.incremental``): a rebuild after an edit writes what a fresh
full build writes, re-rendering only the chunk of pages that changed; any number of processes
writes the same bytes; a damaged or planted cache is ignored and never leads outside."""

from __future__ import annotations

import filecmp
import json
import os
from pathlib import Path
from typing import Any, cast

import pikepdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from components import load_path
from generator.build import BuildOptions, BuildResult, build
from generator.incremental import CACHE_DIR, CHUNK_PAGES, Cache
from generator.layout import Settings

GAME = "game: deck\nname: The Deck\nedition: '1.0'\n"
LAYOUTS = """\
layouts:
  front:
    - {type: rect, x: 1, y: 1, w: 61.5, h: 86.9, radius: 3, stroke: '${color}'}
    - {type: text, text: '${name}', x: 5, y: 6, w: 45, h: 7, size: 14, font: bold}
    - {type: text, text: '${body}', x: 5, y: 18, w: 53.5, h: 65, size: 9}
  back:
    - {type: rect, x: 0, y: 0, w: '100%', h: '100%', fill: '${color}', bleed: true}
defaults: {kind: card, size: poker, front: front, back: back}
components:
"""
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c"]


def deck(n: int, edit: int | None = None) -> dict[str, str]:
    lines = [LAYOUTS]
    for i in range(n):
        body = "Draw a card and then discard one." if i != edit else "Draw one card, then rest."
        lines.append(f'  - {{id: "card/{i}", name: "Card {i}", body: "{body}", '
                     f'color: "{COLOURS[i % 3]}"}}\n')
    return {"game.yaml": GAME, "cards.yaml": "".join(lines)}


def write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def full(folder: Path, out: Path, jobs: int = 1, cache: bool = False) -> BuildResult:
    return build(load_path(folder), BuildOptions(Settings(), ("pdf", "svg"), out, jobs=jobs,
                                                 cache=cache))


def same_files(a: Path, b: Path) -> None:
    """The same PDFs (bytes), SVG sheets (bytes) and manifest."""
    pdfs = sorted(p.name for p in a.glob("*.pdf"))
    assert pdfs and pdfs == sorted(p.name for p in b.glob("*.pdf"))
    for name in pdfs:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    cmp = filecmp.dircmp(a / "svg", b / "svg")
    assert not cmp.left_only and not cmp.right_only
    assert filecmp.cmpfiles(a / "svg", b / "svg", cmp.common_files, shallow=False)[0] == \
        sorted(cmp.common_files)
    assert (a / "manifest.json").read_text() == (b / "manifest.json").read_text()


@pytest.fixture(autouse=True)
def fixed_date(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # the same date in every build


def test_a_watch_rebuild_writes_what_a_fresh_full_build_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the print command's own watch printer and the Rebuilder, keeping what each
    build made as the watch does: one card's text changes, one chunk of pages is rendered
    again, the line names the page, and every file is byte for byte what a full build
    without any cache writes."""
    from components import yamlloc
    from generator import incremental
    from irata.print_cmd import watch_printer
    from irata.watch import Rebuilder

    monkeypatch.setattr(incremental, "KEEP", True)
    monkeypatch.setattr(yamlloc, "KEEP", True)  # the edited file: its changed card read again

    folder = write(tmp_path / "game", deck(120))
    out = tmp_path / "out"
    lines: list[str] = []
    opts = BuildOptions(Settings(), ("pdf", "svg"), out)
    printer = watch_printer(opts, False)
    import click

    r = Rebuilder({"deck": folder}, out, lambda name: printer(load_path(folder)),
                  lambda line, err: lines.append(line))
    echo = click.echo
    try:
        click.echo = lambda message=None, **kw: lines.append(str(message))
        r.start()
        write(folder, deck(120, edit=40))
        r.on_changes([(2, str(folder / "cards.yaml"))])
    finally:
        click.echo = echo
    assert not r.failures
    built = [ln for ln in lines if ln.startswith("deck: 120 components") and "built in" in ln]
    assert len(built) == 2
    # card 40 is the 5th card of the 5th front sheet: page 9 of the duplex file
    assert "changed: deck.pdf page 9 (" in built[1], built[1]
    assert f"({CHUNK_PAGES} pages rendered" in built[1], built[1]
    fresh = full(folder, tmp_path / "fresh")
    assert len(fresh.sheets) > CHUNK_PAGES  # several chunks, one of them rendered again
    same_files(out / "deck", fresh.folder)


def test_a_kept_imposition_follows_edits_and_is_imposed_anew_when_a_card_is_added(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A watch keeps its sheets while only faces change (a card's text, then a card that
    turns back into what it was); a card added, a count changed or a card resized imposes
    anew. After each rebuild every file is what a fresh full build writes."""
    from components import yamlloc
    from generator import build as build_mod
    from generator import incremental

    monkeypatch.setattr(incremental, "KEEP", True)
    monkeypatch.setattr(yamlloc, "KEEP", True)
    imposed: list[int] = []
    real = build_mod.impose_all

    def spy(*args: Any, **kw: Any) -> Any:
        imposed.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(build_mod, "impose_all", spy)
    folder = write(tmp_path / "game", deck(60))
    out = tmp_path / "out"
    full(folder, out, cache=True)
    added = deck(61)["cards.yaml"]
    counted = deck(61)["cards.yaml"].replace('"card/7", ', '"card/7", count: 3, ')
    resized = counted.replace('"card/59", ', '"card/59", size: mini-euro, ')
    steps = [(deck(60, edit=20)["cards.yaml"], False, ["deck.pdf page 5"]),
             (deck(60)["cards.yaml"], False, ["deck.pdf page 5"]),
             (added, True, None), (counted, True, None), (resized, True, None)]
    for n, (text, anew, pages) in enumerate(steps):
        imposed.clear()
        (folder / "cards.yaml").write_text(text, encoding="utf-8")
        again = full(folder, out, cache=True)
        assert bool(imposed) == anew, n
        if pages is not None:
            from irata.print_cmd import changed_pages

            assert changed_pages(again.changed) == "; ".join(pages), n
        # (a copy of the folder: a build there keeps nothing of the watched one's)
        monkeypatch.setattr(incremental, "KEEP", False)
        fresh = full(write(tmp_path / f"copy-{n}", {"game.yaml": GAME, "cards.yaml": text}),
                     tmp_path / f"fresh-{n}")
        monkeypatch.setattr(incremental, "KEEP", True)
        same_files(out / "deck", fresh.folder)


def test_a_rebuild_that_would_draw_too_much_is_refused_as_a_first_build_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A watch keeps each face's share of the print's work; a card whose count grows past
    the bound is refused at its line, as a build in a new process refuses it."""
    from components import yamlloc
    from components.errors import DefinitionError
    from components.schema import LIMITS
    from generator import incremental

    monkeypatch.setattr(incremental, "KEEP", True)
    monkeypatch.setattr(yamlloc, "KEEP", True)
    monkeypatch.setattr(LIMITS, "shapes", 10_000)
    folder = write(tmp_path / "game", deck(60))
    full(folder, tmp_path / "out", cache=True)
    many = deck(60)["cards.yaml"].replace('"card/7", ', '"card/7", count: 500, ')
    (folder / "cards.yaml").write_text(many, encoding="utf-8")
    said = []
    for keep in (True, False):
        monkeypatch.setattr(incremental, "KEEP", keep)
        with pytest.raises(DefinitionError) as exc:
            full(folder, tmp_path / "out", cache=True)
        said.append(str(exc.value))
    assert said[0] == said[1] and "'card/7' would draw more than 10000 shapes" in said[0]


def test_a_rebuild_in_a_new_process_uses_the_cache_on_disk(tmp_path: Path) -> None:
    folder = write(tmp_path / "game", deck(60))
    out = tmp_path / "out"
    first = full(folder, out, cache=True)
    assert first.rendered_pages == len(first.sheets)
    from generator import incremental

    incremental.FACES.games.clear()  # as a new process would start: nothing drawn yet
    again = full(folder, out, cache=True)
    assert again.rendered_pages == 0 and again.changed == {"deck.pdf": []}
    same_files(out / "deck", full(folder, tmp_path / "fresh").folder)


def test_any_number_of_jobs_writes_the_same_bytes(tmp_path: Path) -> None:
    folder = write(tmp_path / "game", deck(120))
    one = full(folder, tmp_path / "one", jobs=1)
    two = full(folder, tmp_path / "two", jobs=2)
    three = full(folder, tmp_path / "three", jobs=3)
    same_files(one.folder, two.folder)
    same_files(one.folder, three.folder)


def forks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The work each build sends to processes (the function ``incremental.fork_map`` or
    ``incremental.share_map`` is given), noted."""
    from generator import incremental

    sent: list[str] = []
    real_fork, real_share = incremental.fork_map, incremental.share_map

    def fork_spy(fn: Any, tasks: Any, jobs: int, done: Any, ordered: bool = True) -> None:
        sent.append(fn.__name__)
        real_fork(fn, tasks, jobs, done, ordered)

    def share_spy(fn: Any, tasks: Any, jobs: int, done: Any) -> None:
        sent.append(fn.__name__)
        real_share(fn, tasks, jobs, done)

    monkeypatch.setattr(incremental, "fork_map", fork_spy)
    monkeypatch.setattr(incremental, "share_map", share_spy)
    return sent


# ``share_map``'s functions: module-level, as a build's are (a forked worker runs them)
_PARENT = os.getpid()


def _square_with_pid(t: int) -> tuple[int, int, int]:
    import time

    time.sleep(0.002)  # (long enough that the worker takes its share)
    return t, t * t, os.getpid()


def _fails_in_a_worker(t: int) -> int:
    if os.getpid() != _PARENT and t >= 5:
        raise ValueError(f"task {t} went wrong")
    import time

    time.sleep(0.01)
    return t


def _dies_in_a_worker(t: int) -> int:
    import signal

    if os.getpid() != _PARENT:
        os.kill(os.getpid(), signal.SIGKILL)
    import time

    time.sleep(0.01)
    return t


def test_share_map_hands_on_every_result_in_order_worked_here_and_in_workers() -> None:
    from generator.incremental import share_map

    got: list[tuple[int, int, int]] = []
    share_map(_square_with_pid, list(range(200)), 3, got.append)
    assert [(t, sq) for t, sq, _ in got] == [(t, t * t) for t in range(200)]
    pids = {pid for _, _, pid in got}
    assert os.getpid() in pids and len(pids) >= 2  # (this process worked too)
    one: list[tuple[int, int, int]] = []
    share_map(_square_with_pid, list(range(20)), 1, one.append)  # one job: here alone
    assert {pid for _, _, pid in one} == {os.getpid()}


def test_share_map_raises_a_workers_error_and_leaves_no_worker() -> None:
    import multiprocessing as mp

    from generator.incremental import share_map

    with pytest.raises(ValueError, match=r"task \d+ went wrong"):
        share_map(_fails_in_a_worker, list(range(40)), 3, lambda r: None)
    assert mp.active_children() == []


def test_share_map_with_a_worker_killed_is_an_error_not_a_hang() -> None:
    import multiprocessing as mp

    from generator.incremental import share_map

    got: list[int] = []
    with pytest.raises(RuntimeError, match="stopped before its work was done"):
        share_map(_dies_in_a_worker, list(range(30)), 2, got.append)
    assert got == sorted(got) and len(got) < 30  # (in order, up to the task it lost)
    assert mp.active_children() == []


def test_share_map_stopped_here_stops_its_workers() -> None:
    """This process's own task failing (as Ctrl-C would stop it): the workers are stopped
    and waited for when the error comes out."""
    import multiprocessing as mp

    from generator.incremental import share_map

    def fails_here(t: int) -> int:
        if os.getpid() == _PARENT and t > 3:
            raise KeyboardInterrupt
        import time

        time.sleep(0.05)
        return t

    with pytest.raises(KeyboardInterrupt):
        share_map(fails_here, list(range(100)), 3, lambda r: None)
    assert mp.active_children() == []


def test_faces_drawn_in_processes_carry_the_digest_and_characters_found_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What the drawing processes send with each face (its content's digest and each font's
    characters, icons' too) is what the sheets' keys and fonts find of the face alone."""
    from components import load
    from generator import build as build_mod
    from generator.draw import Options
    from generator.incremental import content_digest, drawing_chars

    monkeypatch.setattr(build_mod, "DRAW_PARALLEL", 1)
    monkeypatch.setattr(build_mod, "DRAW_BATCH", 4)
    game = load("mule")
    opts = Options(bleed=3.0)
    icons = build_mod.icon_source(game)
    alone = build_mod.draw_all(game, game.components, opts, jobs=1)
    shared = build_mod.draw_all(game, game.components, opts, jobs=2)
    assert len(alone) == len(shared) > 20
    with_icons = 0
    for a, b in zip(alone, shared, strict=True):
        for fa, fb in ((a.front, b.front), (a.back, b.back)):
            if fa is None or fb is None:
                assert fa is fb is None
                continue
            assert fa._content_digest is None and fb._content_digest is not None
            assert fb._content_digest == content_digest(fa)
            assert fb._font_chars == drawing_chars(fa, icons)
            with_icons += "Icon(" in repr(fa.items)
    assert with_icons > 0  # (faces with icons: their characters are the icons' too)


@pytest.mark.parametrize("name", ["mule", "mutagen", "outer-earth"])
def test_a_footer_placed_by_the_parent_in_its_share_is_placed_as_alone(name: str) -> None:
    """``share_map`` runs some of the footers' batches in the print's own process: that
    batch leaves the sheets as they were, and what it hands on places each footer (crop
    marks cut short where it crosses them) as ``layout.footer`` does alone."""
    from components import load
    from generator import build as build_mod
    from generator.draw import Options
    from generator.layout import footer

    game = load(name)
    settings = Settings()
    faces = build_mod.draw_all(game, game.components, Options(bleed=settings.bleed))
    alone = build_mod.impose_all(game, faces, settings)
    shared = build_mod.impose_all(game, faces, settings)
    work = [(i, f"{game.name} · sheet {i + 1} · print at 100% (actual size)")
            for i in range(len(alone))]
    for i, text in work:
        footer(alone[i], text, settings)
    before = [list(s.marks) for s in shared]
    build_mod._FOOTING = (shared, settings)
    try:
        sent = build_mod._footer_batch(work)
    finally:
        build_mod._FOOTING = None
    assert [s.marks for s in shared] == before  # (as it was: nothing placed twice)
    cut = 0
    for i, marks in sent:
        old = shared[i].marks
        shared[i].marks[:] = [old[m] if isinstance(m, int) else m for m in marks]
        assert shared[i].marks == alone[i].marks, (name, i)
        cut += any(m is not b for m, b in zip(alone[i].marks, before[i], strict=False))
    assert cut > 0  # (some footer does cut a crop mark short: sent as a new mark)


def test_a_long_deck_drawn_placed_and_rendered_in_processes_is_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deck above every threshold of the processes (faces drawn, footers placed, pages
    rendered): 1, 2 and 3 processes write the same bytes, and 2 and 3 did use processes."""
    from generator.build import DRAW_PARALLEL, FOOTER_PARALLEL
    from generator.incremental import MIN_PARALLEL

    n = DRAW_PARALLEL + 50
    folder = write(tmp_path / "game", deck(n))
    sent = forks(monkeypatch)
    one = full(folder, tmp_path / "one", jobs=1)
    assert sent == []
    assert len(one.sheets) >= max(MIN_PARALLEL, FOOTER_PARALLEL) and one.copies == n
    for jobs in (2, 3):
        other = full(folder, tmp_path / f"jobs-{jobs}", jobs=jobs)
        assert sent == ["_draw_batch", "_footer_batch", "_batch"], sent
        sent.clear()
        same_files(one.folder, other.folder)


def test_a_print_too_large_is_refused_alike_when_its_faces_are_counted_in_processes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The drawing processes count each face's shapes (an icon by its weight) and send the
    count with it: the bound on a print's work refuses the same card, in the same words."""
    from components.errors import DefinitionError
    from components.schema import LIMITS
    from generator import build as build_mod

    monkeypatch.setattr(build_mod, "DRAW_PARALLEL", 1)
    monkeypatch.setattr(LIMITS, "shapes", 10_000)
    files = deck(60)
    files["game.yaml"] += "icons:\n  star: [{type: rect, w: 10, h: 10}, {type: rect, w: 5, h: 5}]\n"
    files["cards.yaml"] = files["cards.yaml"].replace(
        "font: bold}", "font: bold}\n    - {type: icon, name: star, x: 50, y: 5, size: 8}", 1)
    files["cards.yaml"] = files["cards.yaml"].replace('"card/7", ', '"card/7", count: 500, ')
    folder = write(tmp_path / "game", files)
    said = []
    for jobs in (1, 2):
        with pytest.raises(DefinitionError) as exc:
            full(folder, tmp_path / f"out-{jobs}", jobs=jobs)
        said.append(str(exc.value))
    # (7: the front's frame, name, two lines of body and the icon's 2 shapes, and the back)
    assert said[0] == said[1], said
    assert "up to 'card/7' would draw more than 10000 shapes (it draws 7 on its faces" in said[0]


def test_a_mistake_drawn_in_processes_is_refused_as_in_one(tmp_path: Path) -> None:
    """Two cards of a long deck with a wrong colour (one in the first batch a process
    draws, one in another): drawn in processes, the build is refused in the same words as
    in one process, at the first one's line, and writes nothing."""
    from components.errors import DefinitionErrors
    from generator.build import DRAW_PARALLEL

    files = deck(DRAW_PARALLEL + 50)
    lines = files["cards.yaml"].split("\n")
    for k in (30, DRAW_PARALLEL + 10):
        at = next(i for i, ln in enumerate(lines) if f'"card/{k}"' in ln)
        lines[at] = lines[at].replace(f'color: "{COLOURS[k % 3]}"', 'color: "notacolour"')
    files["cards.yaml"] = "\n".join(lines)
    folder = write(tmp_path / "game", files)
    said = []
    for jobs in (1, 2):
        with pytest.raises(DefinitionErrors) as exc:
            full(folder, tmp_path / f"out-{jobs}", jobs=jobs)
        said.append(exc.value.lines())
        assert not (tmp_path / f"out-{jobs}").exists()
    # (the same mistake in two components: one line, naming the first, counting the other)
    assert said[0] == said[1] and len(said[0]) == 1, said
    assert "cards.yaml:40:" in said[0][0] and "'notacolour'" in said[0][0], said
    assert "and in 1 more component" in said[0][0], said


def test_a_bundled_game_in_processes_is_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bundled game's boards, cards and tokens (art, icons, several sizes), every step
    sent to processes however little there is: 1, 2 and 3 write the same bytes."""
    from components import load
    from generator import build as build_mod
    from generator import incremental

    for name, value in (("DRAW_PARALLEL", 1), ("FOOTER_PARALLEL", 1)):
        monkeypatch.setattr(build_mod, name, value)
    monkeypatch.setattr(incremental, "MIN_PARALLEL", 1)
    monkeypatch.setattr(incremental, "KEYS_PARALLEL", 1)
    sent = forks(monkeypatch)
    folders = []
    for jobs in (1, 2, 3):
        res = build(load("muli"), BuildOptions(Settings(), ("pdf", "svg"), tmp_path / str(jobs),
                                               jobs=jobs, cache=False))
        folders.append(res.folder)
        # (the sheets keyed in processes found the characters of irata's own lettering
        # font, which the rendering processes, forked after, then embed)
        assert sent == ([] if jobs == 1 else
                        ["_draw_batch", "_footer_batch", "_key_batch", "_batch"])
        sent.clear()
    same_files(folders[0], folders[1])
    same_files(folders[0], folders[2])


def forked_pids(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The processes ``os.fork`` makes from now on in this test, noted."""
    forked: list[int] = []
    real_fork = os.fork

    def fork() -> int:
        pid = real_fork()
        if pid:
            forked.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", fork)
    return forked


def record_files(out: Path) -> dict[str, bytes]:
    """The preview record a print left in its output folder's cache, file by file."""
    cache = out / CACHE_DIR
    return {p.name: p.read_bytes() for p in sorted(cache.iterdir())
            if p.name.startswith(("preview", "font-"))}


def test_the_preview_record_written_in_a_process_of_its_own_is_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With processes the preview record is written in a forked process beside the manifest:
    the same files as a print in one process writes, and the parent did fork for it."""
    from generator import build as build_mod

    folder = write(tmp_path / "game", deck(30))
    one = full(folder, tmp_path / "one", jobs=1, cache=True)
    forked = forked_pids(monkeypatch)
    full(folder, tmp_path / "small", jobs=2, cache=True)
    assert forked == []  # (a few sheets: not worth a process)
    monkeypatch.setattr(build_mod, "RECORD_PARALLEL", 1)
    two = full(folder, tmp_path / "two", jobs=2, cache=True)
    assert len(forked) == 1  # (30 cards: nothing else is worth a process)
    got = record_files(one.folder)
    assert "preview.json" in got and any(n.startswith("preview-faces-") for n in got)
    assert got == record_files(two.folder)


def test_a_record_that_fails_in_its_process_fails_as_in_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The record's process failing (a full disk): the print writes it again itself and is
    refused in the same words as a print in one process; no scratch file is left behind."""
    from generator import build as build_mod
    from generator import preview_record

    monkeypatch.setattr(build_mod, "RECORD_PARALLEL", 1)
    folder = write(tmp_path / "game", deck(30))
    real = preview_record.write_record
    calls = tmp_path / "calls"
    calls.mkdir()

    def full_disk(out: Path, *args: Any) -> None:
        (calls / f"{os.getpid()}-{len(list(calls.iterdir()))}").touch()
        real(out, *args)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(preview_record, "write_record", full_disk)
    said = []
    for jobs in (1, 2):
        with pytest.raises(OSError) as exc:
            full(folder, tmp_path / f"out-{jobs}", jobs=jobs, cache=True)
        said.append(str(exc.value))
        left = [p.name for p in (tmp_path / f"out-{jobs}" / "deck").rglob(".*")]
        assert left == [], left
    assert said[0] == said[1] == "[Errno 28] No space left on device"
    # one process: written once; two: in the forked process, then again in the print's own
    pids = [int(p.name.split("-")[0]) for p in sorted(calls.iterdir(),
                                                       key=lambda p: int(p.name.split("-")[1]))]
    assert len(pids) == 3 and pids[0] == pids[2] == os.getpid() and pids[1] != os.getpid()


def test_a_print_that_fails_beside_its_record_stops_the_record_and_leaves_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The manifest failing while the record's process writes: the process is stopped at
    once (not waited for), and the scratch file it was writing is removed."""
    import time

    from generator import build as build_mod
    from generator import preview_record

    monkeypatch.setattr(build_mod, "RECORD_PARALLEL", 1)
    folder = write(tmp_path / "game", deck(30))
    def slow_record(out: Path, *args: Any) -> None:
        # a record half-written, under the scratch name a record is written under
        (out / CACHE_DIR / f"{build_mod.scratch_prefix('preview')}abcd1234.tmp").touch()
        time.sleep(60)

    def full_disk(*args: Any) -> None:
        time.sleep(0.5)  # (the record's process is under way)
        raise OSError(28, "No space left on device")

    forked = forked_pids(monkeypatch)
    monkeypatch.setattr(preview_record, "write_record", slow_record)
    monkeypatch.setattr(build_mod, "write_manifest", full_disk)
    started = time.monotonic()
    with pytest.raises(OSError, match="No space left"):
        full(folder, tmp_path / "out", jobs=2, cache=True)
    assert time.monotonic() - started < 30
    assert len(forked) == 1
    with pytest.raises(ProcessLookupError):
        os.kill(forked[0], 0)  # stopped and waited for
    left = [p.name for p in (tmp_path / "out" / "deck").rglob(".*")]
    assert left == [], left


def test_the_fonts_are_in_the_file_once_not_once_per_chunk(tmp_path: Path) -> None:
    """The joined file holds each font once, and is hardly larger than the same sheets
    written as one document."""
    from generator.backends.pdf import write_pdf
    from generator.build import icon_source

    folder = write(tmp_path / "game", deck(120))
    res = full(folder, tmp_path / "out")
    path = res.folder / "deck.pdf"
    with pikepdf.open(path) as pdf:
        descriptors = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary)
                       and o.get("/Type") == "/FontDescriptor"]
        names = [str(d.FontName) for d in descriptors]
        assert names and len(names) == len(set(names))
    whole = tmp_path / "whole.pdf"
    write_pdf(res.sheets, whole, icon_source(res.game), res.game.name)
    assert path.stat().st_size <= 1.25 * whole.stat().st_size


def cache_files(out: Path) -> list[Path]:
    return sorted((out / "deck" / CACHE_DIR).iterdir())


def test_a_damaged_cache_is_ignored(tmp_path: Path) -> None:
    folder = write(tmp_path / "game", deck(60))
    out = tmp_path / "out"
    full(folder, out, cache=True)
    fresh = full(folder, tmp_path / "fresh").folder
    for f in cache_files(out):  # every chunk cut short, every SVG overwritten, the index kept
        if f.name.startswith("chunk-"):
            f.write_bytes(f.read_bytes()[:100])
        elif f.suffix == ".svg":
            f.write_text("<svg/>")
    again = full(folder, out, cache=True)
    assert again.rendered_pages == len(again.sheets)
    same_files(out / "deck", fresh)
    # an index that is not JSON, of the wrong version, of the wrong shape
    for text in ("\x80garbage", json.dumps({"irata_cache": 999}),
                 json.dumps({"irata_cache": 1, "chunks": [1, 2], "svgs": {"x": 1}}),
                 "[" * 100_000):
        (out / "deck" / CACHE_DIR / "index.json").write_text(text)
        full(folder, out, cache=True)
        same_files(out / "deck", fresh)


def test_a_planted_cache_leads_nowhere_outside(tmp_path: Path) -> None:
    """A shared game folder may carry an output folder with a cache of its own making: links
    out of it are not followed, names in its index are not used as paths, and nothing
    outside the output folder is read, written or deleted."""
    folder = write(tmp_path / "game", deck(40))
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.pdf"
    secret.write_bytes(b"%PDF-1.4 mine")
    out = tmp_path / "out"
    full(folder, out, cache=True)
    fresh = full(folder, tmp_path / "fresh").folder
    cache = out / "deck" / CACHE_DIR
    index = json.loads((cache / "index.json").read_text())
    # every chunk a link to a file outside; the index names paths outside
    for f in cache_files(out):
        if f.name.startswith("chunk-"):
            f.unlink()
            f.symlink_to(secret)
    index["chunks"]["../../outside/secret"] = {"bytes": 13, "sha": "0" * 32, "pages": 1}
    (cache / "index.json").write_text(json.dumps(index))
    full(folder, out, cache=True)
    same_files(out / "deck", fresh)
    assert secret.read_bytes() == b"%PDF-1.4 mine"
    # folders planted where the cache's files go: the cache is not used, the print is whole
    for key in index["chunks"]:
        if key.startswith(".."):
            continue
        path = Cache(out / "deck").path("chunks", key)
        path.unlink(missing_ok=True)
        path.mkdir()
    incremental_build = full(folder, out, cache=True)
    assert incremental_build.rendered_pages == len(incremental_build.sheets)
    same_files(out / "deck", fresh)
    # the cache folder itself a link to a folder outside: not used, nothing written there
    import shutil

    shutil.rmtree(cache)
    cache.symlink_to(outside, target_is_directory=True)
    full(folder, out, cache=True)
    same_files(out / "deck", fresh)
    assert sorted(p.name for p in outside.iterdir()) == ["secret.pdf"]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.binary(max_size=200), st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=40),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=34), kids,
                                                               max_size=4), max_leaves=20)
    .map(lambda v: json.dumps({"irata_cache": 1, "chunks": v, "svgs": v, "pages": v})
         .encode())))
def test_any_index_reads_as_a_cache_or_as_none(tmp_path: Path, raw: Any) -> None:
    folder = tmp_path / "deck"
    folder.mkdir(exist_ok=True)
    (folder / CACHE_DIR).mkdir(exist_ok=True)
    (folder / CACHE_DIR / "index.json").write_bytes(raw)
    cache = Cache(folder)
    for kind in ("chunks", "svgs"):
        for key in cache.index.get(kind, {}):
            assert cache.lookup(kind, key) is None  # no such file: never a hit
    cache.save(set(), set(), {})
    assert os.listdir(folder / CACHE_DIR) == ["index.json"]


def test_a_cache_made_by_someone_else_is_not_used(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A shared folder's cache comes with digests made under its maker's key: none of its
    files is used (a PDF there could hold anything), every page is rendered here."""
    from generator import incremental

    folder = write(tmp_path / "game", deck(40))
    out = tmp_path / "out"
    monkeypatch.setattr(incremental, "_SECRET", b"k" * 32)  # the folder's maker
    full(folder, out, cache=True)
    for f in cache_files(out):  # what they put in the chunks: not what this deck prints
        if f.name.startswith("chunk-"):
            data = f.read_bytes().replace(b"/MediaBox", b"/Annots [] /MediaBox")
            f.write_bytes(data)
    index = json.loads((out / "deck" / CACHE_DIR / "index.json").read_text())
    for kind in ("chunks", "svgs"):
        for key, entry in index[kind].items():
            path = Cache(out / "deck").path(kind, key)
            data = path.read_bytes()
            entry["bytes"], entry["mac"] = len(data), incremental.mac(kind, key, data)
    (out / "deck" / CACHE_DIR / "index.json").write_text(json.dumps(index))
    monkeypatch.setattr(incremental, "_SECRET", b"u" * 32)  # the user who prints it
    incremental._PARTS.clear()
    again = full(folder, out, cache=True)
    assert again.rendered_pages == len(again.sheets)
    assert b"/Annots" not in (out / "deck" / "deck.pdf").read_bytes()
    same_files(out / "deck", full(folder, tmp_path / "fresh").folder)


def test_the_joined_pages_show_what_one_document_shows(tmp_path: Path) -> None:
    """Page by page, the file joined from chunks looks as the same sheets written as one
    document (a face drawn in place or as a form may differ by a level of grey on an edge
    pixel), and says the same text."""
    import pypdfium2 as pdfium
    from PIL import ImageChops

    from generator.backends.pdf import write_pdf
    from generator.build import icon_source

    folder = write(tmp_path / "game", deck(90))
    res = full(folder, tmp_path / "out")
    whole = tmp_path / "whole.pdf"
    sheets = [s for s in res.sheets if s.file == "deck.pdf"]
    write_pdf(sheets, whole, icon_source(res.game), res.game.name)
    a, b = pdfium.PdfDocument(str(res.folder / "deck.pdf")), pdfium.PdfDocument(str(whole))
    try:
        assert len(a) == len(b) == len(sheets) > CHUNK_PAGES
        for i in range(len(a)):
            pa = a[i].render(scale=40 / 72).to_pil().convert("RGB")
            pb = b[i].render(scale=40 / 72).to_pil().convert("RGB")
            assert pa.size == pb.size, i
            # (an RGB picture's extrema: a (low, high) pair per band)
            bands = cast("tuple[tuple[int, int], ...]", ImageChops.difference(pa, pb).getextrema())
            worst = max(hi for _, hi in bands)
            assert worst <= 8, (i, worst)
            assert a[i].get_textpage().get_text_range() == \
                b[i].get_textpage().get_text_range(), i
    finally:
        a.close()
        b.close()


@given(st.lists(st.sampled_from(["a.pdf", "b.pdf"]), min_size=1, max_size=80).map(sorted))
def test_the_chunk_of_a_sheet_is_the_chunk_it_is_rendered_in(files: list[str]) -> None:
    """``chunk_of`` (what the preview asks: which pages were rendered with this one) agrees
    with the chunks the build renders."""
    from generator.incremental import chunk_of, chunks_of
    from generator.layout import Sheet

    sheets = []
    for name in files:
        s = Sheet(210.0, 297.0, "front", "")
        s.file = name
        sheets.append(s)
    chunks = chunks_of(sheets, ["0" * 32] * len(sheets), "", [])
    for ch in chunks:
        assert ch.end - ch.start <= CHUNK_PAGES
        for i in range(ch.start, ch.end):
            assert chunk_of(sheets, i) == (ch.start, ch.end)


def test_an_erratum_that_moves_only_a_version_is_in_a_watch_rebuilds_manifest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An erratum changes a field no face shows: the card's version moves, its picture does
    not (card/10, alone on the second sheet, prints no version mark; card/2 prints one; no
    back shows one). Through the watch's own printer and Rebuilder, the rebuild's manifest
    gives every placement of both cards the new version and card/2's mark reads it, byte
    for byte as a fresh full build writes them."""
    from components import yamlloc
    from generator import incremental
    from irata.print_cmd import watch_printer
    from irata.watch import Rebuilder

    monkeypatch.setattr(incremental, "KEEP", True)
    monkeypatch.setattr(yamlloc, "KEEP", True)
    cards = deck(12)["cards.yaml"].replace('"card/10", ', '"card/10", version_mark: false, ')
    cards = cards.replace('color: ', 'points: 1, color: ')  # a field no layout shows
    errata = ('errata:\n  - id: E1\n    version: "1.1"\n    date: 2026-11-29\n'
              '    summary: Card 0 is worth two points\n    changes:\n'
              '      - component: card/0\n        set: {points: 2}\n')
    moved = errata + '      - component: card/10\n        set: {points: 2}\n' \
                     '      - component: card/2\n        set: {points: 2}\n'
    folder = write(tmp_path / "game", {"game.yaml": GAME, "cards.yaml": cards,
                                       "errata.yaml": errata})
    out = tmp_path / "out"
    printer = watch_printer(BuildOptions(Settings(), ("pdf", "svg"), out), False)
    lines: list[str] = []
    r = Rebuilder({"deck": folder}, out, lambda name: printer(load_path(folder)),
                  lambda line, err: lines.append(line))
    import click

    echo = click.echo
    try:
        click.echo = lambda message=None, **kw: lines.append(str(message))
        r.start()
        (folder / "errata.yaml").write_text(moved, encoding="utf-8")
        r.on_changes([(2, str(folder / "errata.yaml"))])
    finally:
        click.echo = echo
    assert not r.failures, lines
    assert len([ln for ln in lines if "built in" in ln]) == 2, lines
    # every placement, fronts and backs (a back shows no version)
    versions = {(pl["component"], pl["face"], pl["version"])
                for sheet in json.loads((out / "deck" / "manifest.json").read_text())["sheets"]
                for pl in sheet["placements"] if pl["component"] in ("card/10", "card/2")}
    assert versions == {(c, f, "1.1") for c in ("card/10", "card/2") for f in ("front", "back")}
    monkeypatch.setattr(incremental, "KEEP", False)
    fresh = full(write(tmp_path / "copy", {"game.yaml": GAME, "cards.yaml": cards,
                                           "errata.yaml": moved}), tmp_path / "fresh")
    same_files(out / "deck", fresh.folder)
