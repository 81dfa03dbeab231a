"""The table view in a real browser (Playwright driving Debian's chromium, headless; never a
downloaded browser): a whole M.U.L.E. Turn played from four player pages plus the board view
equals the same Turn typed at the command line, and the board updates itself after every
entry from a phone (the figures: benchmarks/table_latency.py)."""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from tablerun import NEW_MULE, Served, form_entry, irata, one_per_step, turn_1  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip("no chromium installed (Debian: apt-get install chromium)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

ORDER = ("Dee", "Ann", "Cid", "Bob")


def last_state(db: Path) -> Any:
    """The saved game's state now, folded from its events as ``status`` folds it."""
    from companion.session import Store, state_of

    with Store(db) as store:
        return state_of(store, store.get(1))


def version(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def scanned(page: Any) -> list[str]:
    """The QR codes a phone's camera reads off the board view."""
    import io

    import zxingcpp
    from PIL import Image

    shot = Image.open(io.BytesIO(page.screenshot(full_page=True)))
    return [code.text for code in zxingcpp.read_barcodes(shot)]


def fill(page: Any, kind: str, who: str, fields: dict[str, str], holder: bool) -> None:
    form = page.locator(f"form[data-kind='{kind}']")
    form.wait_for(state="visible", timeout=10_000)
    if holder and page.locator(f"#{kind}-who").count():
        who_field = page.locator(f"#{kind}-who")
        if who_field.evaluate("e => e.tagName") == "SELECT":
            who_field.select_option(value=who)
        else:
            who_field.fill(who)
    for key, value in fields.items():
        page.fill(f"#{kind}-{key}", value)


def test_a_whole_turn_from_four_phones_and_the_board(served: Served, mule_db: Path,
                                                     tmp_path: Path) -> None:
    took: list[float] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        try:
            board = browser.new_page(viewport={"width": 1280, "height": 900})
            board.goto(f"{served.url}/board?key={served.table.holder}")
            assert board.inner_text("#code") == served.table.code
            assert "key=" not in board.url       # the key leaves the address bar
            assert scanned(board) == [served.table.join_url]
            phones = {}
            for name in ORDER:
                phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
                phone.goto(served.table.join_url)
                phone.click(f"button[name=name][value={name}]")
                assert phone.inner_text("#seat") == name
                phones[name] = phone
            for args in one_per_step(turn_1()):
                entry = form_entry(args)
                page = phones[entry.seat] if entry.seat else board
                fill(page, entry.kind, entry.who, entry.fields, holder=entry.seat is None)
                seen = version(board)
                said = page.locator("#said")
                start = time.monotonic()
                page.click(f"form[data-kind='{entry.kind}'] button.enter")
                page.wait_for_function("s => s.classList.contains('ok') || "
                                       "s.classList.contains('refused')",
                                       arg=said.element_handle(), timeout=10_000)
                assert "ok" in (said.get_attribute("class") or ""), (args, said.inner_text())
                if entry.seat:        # the board, told by the server, not by its own entry
                    board.wait_for_function(f"Number(document.body.dataset.version) > {seen}",
                                            timeout=10_000)
                    took.append(time.monotonic() - start)
                    page.locator("#said").evaluate("s => s.className = 'said'")
                else:
                    said.evaluate("s => s.className = 'said'")
            board.wait_for_function("document.querySelector('#now').innerText.includes("
                                    "'Turn 2') || document.querySelector('h1').innerText"
                                    ".includes('Turn 2')", timeout=10_000)
            shown = board.inner_text("#status")
        finally:
            browser.close()
    os.environ["IRATA_DB"] = str(tmp_path / "typed.sqlite3")
    irata("play", "mule", *NEW_MULE)
    for args in turn_1():
        irata("play", "mule", *args)
    assert last_state(mule_db) == last_state(tmp_path / "typed.sqlite3")
    assert "Turn 2" in shown
    print(f"board updated after a phone's entry: median {statistics.median(took) * 1000:.0f} "
          f"ms, slowest {max(took) * 1000:.0f} ms ({len(took)} entries)")
