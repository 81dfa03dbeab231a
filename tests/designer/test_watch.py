"""``irata print --watch``: the rebuild logic, fed change sets directly (no timing), and one
real run of the command that is edited, broken, fixed and stopped with Ctrl-C."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from components.errors import DefinitionError
from irata.watch import Rebuilder, relevant

GAME = "game: w\nname: Watched\n"
CARDS = """\
defaults: {kind: card, size: poker}
components:
  - id: c/one
    title: One
    front:
      - {type: text, text: "${title}", x: 3, y: 3, w: 50, h: 10}
"""


def test_relevant_files_are_the_games_own(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    out = folder / "output"  # an output folder inside the game folder is not watched
    changes = {(1, str(folder / "cards.yaml")), (2, str(folder / "art" / "sun.PNG")),
               (2, str(folder / "fonts" / "Body.otf")), (2, str(folder / "cards.csv")),
               (2, str(folder / "notes.txt")), (2, str(folder / ".cards.yaml.swp")),
               (2, str(folder / ".git" / "index.yaml")), (2, str(out / "w" / "w.svg")),
               (2, str(tmp_path / "other" / "cards.yaml"))}
    assert relevant(changes, folder, out) == sorted([
        folder / "art" / "sun.PNG", folder / "cards.csv", folder / "cards.yaml",
        folder / "fonts" / "Body.otf"])


def test_a_change_rebuilds_and_a_mistake_is_reported_not_fatal(tmp_path: Path) -> None:
    folders = {"a": tmp_path / "a", "b": tmp_path / "b"}
    built: list[str] = []
    lines: list[tuple[str, bool]] = []
    broken = {"b"}

    def build(name: str) -> None:
        if name in broken:
            raise DefinitionError("unknown kind 'crad'", f"{name}/cards.yaml", 3, 9)
        built.append(name)

    r = Rebuilder(folders, tmp_path / "out", build, lambda line, err: lines.append((line, err)))
    r.start()
    assert built == ["a"]
    assert ("error: b/cards.yaml:3:9: unknown kind 'crad'", True) in lines
    assert lines[-1][0].startswith("watching")
    # an edit in a: a alone is rebuilt
    assert r.on_changes([(2, str(folders["a"] / "cards.yaml"))]) == ["a"]
    assert built == ["a", "a"]
    # a file irata does not read changes nothing
    assert r.on_changes([(2, str(folders["a"] / "notes.txt"))]) == []
    # b is fixed: the next save builds it
    broken.clear()
    assert r.on_changes([(2, str(folders["b"] / "art" / "x.png")),
                         (2, str(folders["b"] / "cards.yaml"))]) == ["b"]
    assert built == ["a", "a", "b"] and r.builds == 3 and len(r.failures) == 1
    assert any("b: art/x.png, cards.yaml changed, rebuilding" == ln for ln, _ in lines)


def test_the_real_build_follows_edits(tmp_path: Path, game_dir: Any) -> None:
    """The print command's own build function, through the Rebuilder, on a real folder."""
    from components import load_path
    from generator.build import BuildOptions, build
    from generator.layout import Settings

    folder = game_dir({"game.yaml": GAME, "cards.yaml": CARDS})
    out = tmp_path / "out"
    errors: list[str] = []

    def build_it(name: str) -> None:
        build(load_path(folder), BuildOptions(Settings(), ("pdf",), out))

    r = Rebuilder({"w": folder}, out, build_it,
                  lambda line, err: errors.append(line) if err else None)
    r.start()
    pdf = out / "w" / "w-single-sided.pdf"  # one-sided cards
    first = pdf.read_bytes()
    (folder / "cards.yaml").write_text(CARDS.replace("title: One", "title: Two"))
    r.on_changes([(2, str(folder / "cards.yaml"))])
    import pymupdf

    assert "Two" in pymupdf.open(pdf)[0].get_text()
    good = pdf.read_bytes()
    assert good != first
    (folder / "cards.yaml").write_text(CARDS.replace("kind: card", "kind: crad"))
    r.on_changes([(2, str(folder / "cards.yaml"))])
    assert errors and "unknown kind 'crad'" in errors[-1] and "did you mean 'card'" in errors[-1]
    assert pdf.read_bytes() == good  # the last good PDF stays


def _reader(stream: Any, q: queue.Queue[tuple[str, str]], name: str) -> None:
    for line in iter(stream.readline, ""):
        q.put((name, line.rstrip("\n")))


def _wait_for(q: queue.Queue[tuple[str, str]], text: str, seen: list[str],
              timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            _, line = q.get(timeout=max(0.1, end - time.monotonic()))
        except queue.Empty:
            break
        seen.append(line)
        if text in line:
            return
    raise AssertionError(f"no line with {text!r} in {timeout} s; got: {seen}")


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")
def test_watch_command_rebuilds_reports_and_stops_on_ctrl_c(tmp_path: Path,
                                                            game_dir: Any) -> None:
    folder = game_dir({"game.yaml": GAME, "cards.yaml": CARDS})
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-c", "from irata.cli import main; main()", "print", "--components",
         str(folder), "--out", str(out), "--format", "pdf", "--watch"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        # SIGINT back to its default: tests run in the background inherit it ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    q: queue.Queue[tuple[str, str]] = queue.Queue()
    for stream, name in ((proc.stdout, "out"), (proc.stderr, "err")):
        threading.Thread(target=_reader, args=(stream, q, name), daemon=True).start()
    seen: list[str] = []
    try:
        _wait_for(q, "watching", seen)
        assert (out / "w" / "w-single-sided.pdf").is_file()  # one-sided cards
        time.sleep(1.0)  # let the watcher settle before the first edit
        (folder / "cards.yaml").write_text(CARDS.replace("kind: card", "kind: crad"))
        _wait_for(q, "unknown kind 'crad'", seen)
        (folder / "cards.yaml").write_text(CARDS.replace("title: One", "title: Fixed"))
        _wait_for(q, "w: 1 component, 1 piece", seen)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0
        _wait_for(q, "stopped watching", seen, timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert not any("Traceback" in line for line in seen)
    import pymupdf

    assert "Fixed" in pymupdf.open(out / "w" / "w-single-sided.pdf")[0].get_text()
