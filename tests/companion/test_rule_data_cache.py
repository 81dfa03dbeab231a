"""The companion's rule-data extracts kept between processes (``companion.data.cached_json``):
one per game folder and edit, and the cache does not grow without end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion import data


def test_old_extracts_are_removed_and_the_newest_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setattr(data, "definitions", lambda *_: None)
    folder = tmp_path / "game"
    folder.mkdir()
    (cache / "irata").mkdir(parents=True)
    other = cache / "irata" / "othergame-data-0123.json"
    other.write_text("{}")
    seen: list[int] = []
    for edit in range(data.KEPT + 4):
        (folder / "game.yaml").write_text(f"edit: {edit}\n")
        monkeypatch.setattr(data, "_JSON", {})

        def extract(_: Any, edit: int = edit) -> dict[str, Any]:
            return {"edit": edit}

        seen.append(data.cached_json("testgame", extract, 1, folder)["edit"])
    assert seen == list(range(data.KEPT + 4))
    kept = sorted((cache / "irata").glob("testgame-data-*.json"))
    assert len(kept) == data.KEPT
    assert other.exists()  # another game's extract is not this game's to remove
    # the newest is among those kept: the folder as it is now is read from the cache
    monkeypatch.setattr(data, "_JSON", {})
    monkeypatch.setattr(data, "definitions", lambda *_: pytest.fail("read the folder again"))
    assert data.cached_json("testgame", lambda _: {"edit": -1}, 1, folder)["edit"] == seen[-1]
