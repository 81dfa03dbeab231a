"""How soon the table view's board shows an entry (the issue: under 1 s), measured in a real
browser: Debian's chromium driven by Playwright (headless), the table view served by uvicorn on
127.0.0.1 over a fresh games file holding the scripted 4-player Tournament game of M.U.L.E.

- From the command line: each Land Grant of Turn 1 typed as ``irata play mule grant NAME
  TILE@SQUARE`` (run in this process); the time from its return (the entry saved) to the
  board showing it (the watcher's look at the games file, the server-sent event, the page's
  fetch and redraw).
- From a phone: each Action Round of Development entered on that player's page; the time from
  the moment the server committed it to the board showing it, and from the Enter click (the
  write itself included: the phone's own answer is printed beside it, for scale). The server
  runs in this process, so both ends are read on one clock.

Prints the median, the 90th percentile and the slowest of each. No asserts on time.

    .venv/bin/python benchmarks/table_latency.py [--screenshot docs/table-board.png]
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

NEW = ["new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3"]
GRANTS = [("Bob", "R01@C1"), ("Cid", "R02@C1"), ("Ann", "R03@C3"), ("Dee", "R04@C1"),
          ("Bob", "P03@B1"), ("Cid", "P09@B1"), ("Ann", "P07@D3"), ("Dee", "P04@A1")]
BEFORE_DEVELOPMENT = [["auction", "Dee", "Ann", "10", "P13@B3"], ["auction", "none"],
                      ["package", "Bob=food,Ann=HC03"]]
ROUNDS = [("Dee", "buy R04 F, assay"), ("Ann", "buy R03 F, buy P07 E"),
          ("Cid", "buy R02 F, wampus yes"), ("Bob", "buy R01 F, buy P03 E"),
          ("Dee", "pass"), ("Ann", "pub"), ("Cid", "buy P09 E"), ("Bob", "pass")]


def irata(*args: str) -> None:
    """``irata play mule ARGS``, in this process: it returns as its entry is committed (a
    process of its own would end tens of milliseconds after, hiding part of the wait)."""
    from click.testing import CliRunner

    from irata.cli import cli

    done = CliRunner().invoke(cli, ["play", "mule", *args])
    if done.exit_code:
        raise SystemExit(f"irata play mule {' '.join(args)}: {done.output.strip()}")


def serve(db: Path) -> tuple[Any, Any, str]:
    import uvicorn

    from irata.table.app import Table, make_app, server

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    table = Table(db, 1, join_url="")
    table.join_url = f"{url}/join?code={table.code}"
    served = server(table, uvicorn.Config(make_app(table, ["127.0.0.1"]), log_level="warning",
                                          timeout_graceful_shutdown=1))
    threading.Thread(target=served.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not served.started:
        time.sleep(0.02)
    return served, table, url


def version(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def shown(board: Any, seen: int) -> float:
    board.wait_for_function(f"Number(document.body.dataset.version) > {seen}", timeout=10_000)
    return time.monotonic()


def figures(name: str, took: list[float]) -> str:
    ms = sorted(t * 1000 for t in took)
    p90 = ms[max(0, round(0.9 * len(ms)) - 1)]
    return (f"{name:<38} median {statistics.median(ms):5.0f} ms   90%: {p90:5.0f} ms   "
            f"slowest {ms[-1]:5.0f} ms   ({len(ms)} entries)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshot", type=Path, help="save the board view here (PNG)")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        raise SystemExit("no chromium installed (Debian: apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["IRATA_DB"] = str(Path(tmp) / "games.sqlite3")
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        irata(*NEW)
        server, table, url = serve(Path(os.environ["IRATA_DB"]))
        typed: list[float] = []
        phoned: list[float] = []
        answered: list[float] = []
        after_saved: list[float] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium)
            board = browser.new_page(viewport={"width": 1280, "height": 820})
            board.goto(f"{url}/board?key={table.holder}")
            for name, claim in GRANTS:
                seen = version(board)
                irata("grant", name, claim)
                saved = time.monotonic()
                typed.append(shown(board, seen) - saved)
            for entry in BEFORE_DEVELOPMENT:
                irata(*entry)
            phones = {}
            for name in ("Dee", "Ann", "Cid", "Bob"):
                phones[name] = browser.new_context().new_page()
                phones[name].goto(table.join_url)
                phones[name].click(f"button[name=name][value={name}]")
            for name, actions in ROUNDS:
                phone = phones[name]
                phone.locator("form[data-kind='develop']").wait_for(state="visible")
                phone.fill("#develop-actions", actions)
                board.wait_for_function("Number(document.body.dataset.version) > 0")
                seen = version(board)
                start = time.monotonic()
                phone.click("form[data-kind='develop'] button.enter")
                done = shown(board, seen)
                phoned.append(done - start)
                phone.wait_for_selector("#said.ok", timeout=10_000)
                after_saved.append(done - table.saved_at)
                answered.append(time.monotonic() - start)
                phone.locator("#said").evaluate("s => s.className = 'said'")
            if args.screenshot:
                board.locator("details#entries").evaluate("d => d.open = false")
                board.screenshot(path=str(args.screenshot), full_page=True)
            browser.close()
        server.should_exit = True
    print("The board view's update after an entry (target: under 1 s):")
    print(figures("typed at the command line", typed))
    print(figures("entered on a phone, after it is saved", after_saved))
    print(figures("entered on a phone, from its Enter", phoned))
    print(figures("  (the phone's own answer, for scale)", answered))


if __name__ == "__main__":
    main()
