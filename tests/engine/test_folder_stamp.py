"""The folder stamp (``components.stamp``): the one key by which the loader and the companion
know a game folder changed. Whatever the clock did, an edited definition must give a new stamp;
an untouched folder must keep its stamp."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from components.stamp import stamp


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "game"
    (folder / "cards").mkdir(parents=True)
    (folder / "game.yaml").write_text("name: Test\n", encoding="utf-8")
    (folder / "cards" / "deck.csv").write_text("id,title\na,Alpha\n", encoding="utf-8")
    (folder / "notes.txt").write_text("not a definition", encoding="utf-8")
    return folder


def _rewrite_same_size_same_times(path: Path, text: str) -> None:
    """Change a file's bytes, keep its size and put its access and modification times back, as
    two saves within one clock tick would leave them."""
    st = path.stat()
    assert len(text.encode()) == st.st_size
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_an_untouched_folder_keeps_its_stamp(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    assert stamp(folder) == stamp(folder)


def test_a_recent_edit_that_leaves_size_and_times_shows(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    before = stamp(folder)
    _rewrite_same_size_same_times(folder / "cards" / "deck.csv", "id,title\na,Alpho\n")
    assert stamp(folder) != before


def test_a_file_left_alone_keeps_its_stamp_as_time_passes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The stamp is kept on disk (the preview record, the rule-data cache): a folder nobody
    touched has the same stamp minutes later, whatever the clock says."""
    import time

    folder = _folder(tmp_path)
    before = stamp(folder)
    later = time.time_ns() + 600 * 10**9
    monkeypatch.setattr(time, "time_ns", lambda: later)
    monkeypatch.setattr(time, "time", lambda: later / 1e9)
    assert stamp(folder) == before


def test_files_added_removed_or_renamed_show_and_others_do_not(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    before = stamp(folder)
    (folder / "more.txt").write_text("still not a definition", encoding="utf-8")
    assert stamp(folder) == before
    (folder / "cards" / "extra.yaml").write_text("a: 1\n", encoding="utf-8")
    added = stamp(folder)
    assert added != before
    (folder / "cards" / "extra.yaml").rename(folder / "cards" / "other.yaml")
    assert stamp(folder) not in (before, added)
    (folder / "cards" / "other.yaml").unlink()
    assert stamp(folder) == before
