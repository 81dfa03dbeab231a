"""The output folder and the export options are untrusted too: a ``manifest.json`` irata did
not write (huge, nested deep, naming a person's files, a link, a pipe) is read within bounds
and counts as absent, so nothing is deleted on its word; a ``--url-base`` that is not a URL is
refused in one line; a full disk is one line naming the path, with nothing half-written left;
``--max-pieces N`` is answered with N."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from components.errors import InputError
from generator import outdir
from generator.export.tts import url_base_of

DECK = Path(__file__).parent / "engine" / "fixtures" / "deck"
sys.path.insert(0, str(Path(__file__).resolve().parent))
from clirun import one_line, run  # noqa: E402


def print_deck(out: Path) -> tuple[int, str]:
    return run(["print", "--components", str(DECK), "--out", str(out), "--format", "pdf,svg"])


# -- the output folder's own manifest ----------------------------------------------------------

@pytest.fixture()
def printed(tmp_path: Path) -> Path:
    """OUT/deck/ after one print, with a person's files beside irata's and a sheet SVG that no
    manifest of irata lists (as a print of a longer deck left it)."""
    out = tmp_path / "out"
    code, err = print_deck(out)
    assert code == 0, err
    folder = out / "deck"
    (folder / "cut-list.txt").write_text("mine")
    (folder / "svg" / "MY-NOTES.txt").write_text("mine too")
    (folder / "svg" / "sheet-050-front.svg").write_text("<svg/>")
    (folder / "other.pdf").write_bytes(b"%PDF-1.4 mine")
    return folder


KEPT = ("cut-list.txt", "svg/MY-NOTES.txt", "svg/sheet-050-front.svg", "other.pdf")


def hostile_manifests(folder: Path) -> dict[str, bytes]:
    own = ["svg/sheet-050-front.svg"]
    head = {"game": "deck", "name": "Test Deck", "edition": "1.0", "sheets": []}
    many = [f"svg/sheet-{i:06d}-front.svg" for i in range(200_000)] + own
    return {
        "listing 200,000 files": json.dumps({**head, "written": many}).encode(),
        "nested 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
        "nested 100,000 deep under written": json.dumps(head).encode()[:-1]
        + b', "written": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        "naming a person's files": json.dumps(
            {**head, "written": [*own, "cut-list.txt", "svg/MY-NOTES.txt", "other.pdf"]}
        ).encode(),
        "naming a path outside": json.dumps({**head, "written": [*own, "../../x.pdf"]}).encode(),
        "of another game": json.dumps({**head, "game": "other", "written": own}).encode(),
        "not a mapping": json.dumps(own).encode(),
        "written as a text": json.dumps({**head, "written": "svg/sheet-050-front.svg"}).encode(),
        "not UTF-8": b'{"game": "deck", "written": ["svg/sheet-050-front.svg"], "x": "\xff"}',
        "cut short": json.dumps({**head, "written": own}).encode()[:-5],
        "an old manifest of 200,000 sheets": json.dumps(
            {**head, "pdf": "deck.pdf", "sheets": [{"svg": own[0]}] * 200_000}).encode(),
    }


CASES = list(hostile_manifests(Path(".")))


@pytest.mark.parametrize("case", CASES)
def test_a_manifest_irata_did_not_write_counts_as_absent(printed: Path, case: str) -> None:
    (printed / "manifest.json").write_bytes(hostile_manifests(printed)[case])
    assert outdir.written_before(printed) == []
    code, err = print_deck(printed.parent)
    assert code == 0, err
    for rel in KEPT:
        assert (printed / rel).exists(), rel
    assert json.loads((printed / "manifest.json").read_text())["game"] == "deck"


def test_a_manifest_over_the_size_bound_counts_as_absent(
        printed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = printed / "manifest.json"
    text = json.loads(manifest.read_text())
    text["written"].append("svg/sheet-050-front.svg")
    manifest.write_text(json.dumps(text))
    assert "svg/sheet-050-front.svg" in outdir.written_before(printed)   # irata's own, in bounds
    monkeypatch.setattr(outdir, "MAX_MANIFEST_BYTES", manifest.stat().st_size - 1)
    assert outdir.written_before(printed) == []
    assert print_deck(printed.parent)[0] == 0
    assert (printed / "svg" / "sheet-050-front.svg").exists()


def test_irata_s_own_manifest_still_retires_its_stale_sheets(printed: Path) -> None:
    manifest = printed / "manifest.json"
    text = json.loads(manifest.read_text())
    text["written"].append("svg/sheet-050-front.svg")
    manifest.write_text(json.dumps(text))
    assert print_deck(printed.parent)[0] == 0
    assert not (printed / "svg" / "sheet-050-front.svg").exists()
    for rel in KEPT[:2] + KEPT[3:]:
        assert (printed / rel).exists(), rel


def test_a_manifest_linked_outside_is_not_read_through(printed: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.json"
    text = json.loads((printed / "manifest.json").read_text())
    text["written"].append("svg/sheet-050-front.svg")
    outside.write_text(json.dumps(text))
    (printed / "manifest.json").unlink()
    (printed / "manifest.json").symlink_to(outside)
    assert outdir.written_before(printed) == []
    code, err = print_deck(printed.parent)   # nor written through: refused as ever
    assert one_line(code, err) and "leads outside the output folder" in err, err
    assert (printed / "svg" / "sheet-050-front.svg").exists()
    assert json.loads(outside.read_text()) == text      # the file outside was left alone


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_a_manifest_that_is_a_pipe_never_blocks_a_print(printed: Path) -> None:
    (printed / "manifest.json").unlink()
    os.mkfifo(printed / "manifest.json")
    child = [sys.executable, "-m", "irata.cli", "print", "--components", str(DECK), "--out",
             str(printed.parent), "--format", "pdf"]
    done = subprocess.run(child, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (printed / "manifest.json").is_file()
    for rel in KEPT:
        assert (printed / rel).exists(), rel


# -- --url-base ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("base", "message"), [
    ("https://example.org/my mule/", "holds a space (write it as %20)"),
    ("https://example.org/mule/\nx", "holds '\\n'"),
    ("https://example.org/\tmule", "holds '\\t'"),
    ("https://example.org/\x00", "holds '\\x00'"),
    ("https://example.org/mule/?v=1", "no query or fragment"),
    ("https://example.org/mule#top", "no query or fragment"),
    ("https://example.org/100%", "'%' begins an escape"),
    ("https://", "with a host"),
    ("https://exa<mple>.org/", "with a host"),
    ("https://example.org:99999/", "is not a URL"),
    ("ftp://example.org/", "with a host, or a file:/// path"),
    ("javascript:alert(1)", "with a host, or a file:/// path"),
    ("example.org/mule", "with a host, or a file:/// path"),
    ("", "is not a URL"),
])
def test_a_url_base_that_is_not_a_url_is_refused(tmp_path: Path, base: str,
                                                 message: str) -> None:
    out = tmp_path / "out"
    code, err = run(["export", "tts", "deck", "--components", str(DECK), "--out", str(out),
                     "--url-base", base])
    assert one_line(code, err) and "--url-base" in err and message in err, err
    assert not out.exists()


@pytest.mark.parametrize(("base", "kept"), [
    ("https://example.org/mule/", "https://example.org/mule/"),
    ("http://[::1]:8080/tts", "http://[::1]:8080/tts"),
    ("https://example.org/a%20b/", "https://example.org/a%20b/"),
    ("https://example.org/spiele/müll/", "https://example.org/spiele/m%C3%BCll/"),
    ("file:///home/ann/tts/", "file:///home/ann/tts/"),
])
def test_a_url_base_is_kept_as_typed_or_encoded(base: str, kept: str) -> None:
    assert url_base_of(base) == kept


def test_every_image_url_of_a_tts_export_is_a_url(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, err = run(["export", "tts", "deck", "--components", str(DECK), "--out", str(out),
                     "--url-base", "https://example.org/spiele/müll"])
    assert code == 0, err
    text = (out / "deck" / "tts" / "deck.json").read_text()
    urls = [u for u in _strings(json.loads(text)) if u.startswith(("http", "file"))]
    assert urls and all(u.startswith("https://example.org/spiele/m%C3%BCll/") for u in urls)
    assert all(c.isascii() and not c.isspace() for u in urls for c in u)


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)
    elif isinstance(node, str):
        yield node


# -- --max-pieces -----------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["check", "print"])
def test_max_pieces_is_answered_with_the_number_given(tmp_path: Path, command: str) -> None:
    out = tmp_path / "out"
    extra = ["--out", str(out)] if command == "print" else []
    code, err = run([command, "--components", str(DECK), "--max-pieces", "9", *extra])
    assert one_line(code, err) and "more than 9 pieces (the --max-pieces given)" in err, err
    assert not out.exists()
    code, err = run([command, "--components", str(DECK), "--max-pieces", "23", *extra])
    assert code == 0, err      # the deck's 23 pieces are within 23
    code, err = run(["check", "--components", str(DECK)])
    assert code == 0, err      # the next command has the default bound again


# -- a full disk ----------------------------------------------------------------------------------

@pytest.fixture()
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A tmpfs of 256 KiB mounted for the test (root on Linux only; skipped elsewhere)."""
    mount = tmp_path / "small"
    mount.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root and mount(8)")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"this machine does not allow mounting a tmpfs: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path, leave: int) -> None:
    """Fill ``disk`` up to ``leave`` bytes free."""
    free = shutil.disk_usage(disk).free
    with (disk / "filler").open("ab") as f:
        f.write(b"\0" * max(0, free - leave))


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != "filler"}


# how much room each command is left: none to speak of, or enough for its first files
@pytest.mark.parametrize(("what", "leave"), [
    *((w, n) for w in ("print", "tts", "pod", "preview") for n in (2048, 12 * 1024)),
    ("calibrate", 2048),
])
def test_a_full_disk_is_one_line_naming_the_path_and_leaves_no_half_file(
        small_disk: Path, what: str, leave: int) -> None:
    out = small_disk / "out"
    args = {
        "print": ["print", "--components", str(DECK), "--out", str(out)],
        "tts": ["export", "tts", "deck", "--components", str(DECK), "--out", str(out)],
        "pod": ["export", "pod", "deck", "--vendor", "dtc", "--components", str(DECK),
                "--out", str(out)],
        "preview": ["preview", "deck", "alpha", "--components", str(DECK), "--dpi", "600",
                    "--out", str(small_disk / "alpha.png")],
        "calibrate": ["calibrate", "--out", str(small_disk / "cal")],
    }[what]
    fill(small_disk, leave)
    code, err = run(args)
    assert one_line(code, err), err
    assert "No space left on device" in err and str(small_disk) in err, err
    assert "free some space" in err, err
    # no temporary file stays, and every file written is whole (renamed into place)
    assert not [p for p in small_disk.rglob(".*")], list(small_disk.rglob(".*"))
    for name, data in files(small_disk).items():
        if name.endswith(".pdf"):
            assert data.startswith(b"%PDF") and b"%%EOF" in data[-64:], name
        if name.endswith(".png"):
            assert data.endswith(b"IEND\xaeB`\x82"), name


def test_a_full_disk_under_the_games_file_changes_nothing(small_disk: Path) -> None:
    db = small_disk / "games.sqlite3"
    for args in (["mutagen", "new", "--players", "Ann,Bob"], ["mutagen", "points", "Ann", "1"]):
        assert run(["play", *args, "--db", str(db)])[0] == 0
    fill(small_disk, 0)
    before = db.read_bytes()
    for args in (["mutagen", "points", "Ann", "1"], ["mutagen", "new", "--players", "Cy"],
                 ["set", "scores.Bob", "4"]):
        for _ in range(20):     # until SQLite's spare pages are used up
            code, err = run(["play", *args, "--db", str(db)])
            if code:
                break
            before = db.read_bytes()
        assert one_line(code, err) and str(db) in err and "the disk is full" in err, err
        assert db.read_bytes() == before
    code, err = run(["play", "export", "--out", str(small_disk / "game.json"), "--db", str(db)])
    assert one_line(code, err) and str(small_disk / "game.json") in err, err
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


# -- fuzzing both readers --------------------------------------------------------------------

FUZZ = settings(max_examples=int(os.environ.get("IRATA_FUZZ_EXAMPLES", "60")), deadline=None,
                suppress_health_check=list(HealthCheck))


@FUZZ
@given(st.one_of(st.text(max_size=80),
                 st.builds(lambda a, b: a + b, st.sampled_from(
                     ["https://", "http://", "file:///", "https://example.org/"]),
                     st.text(max_size=40))))
def test_a_url_base_is_a_url_or_one_error(text: str) -> None:
    try:
        url = url_base_of(text)
    except InputError as exc:
        assert "\n" not in str(exc).replace("\\n", "")
        return
    assert url.startswith(("http://", "https://", "file:///"))
    assert url.isascii() and not any(c.isspace() or not c.isprintable() for c in url)
    assert "?" not in url and "#" not in url


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=20),
              st.sampled_from(["deck.pdf", "svg/sheet-001-front.svg", "../x", "cut-list.txt"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(
                                ["game", "written", "pdf", "files", "sheets", "svg", "file"]),
                                inner, max_size=4)),
    max_leaves=20)


@FUZZ
@given(json_values)
def test_any_manifest_gives_only_names_irata_writes(data: Any) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "deck"
        folder.mkdir()
        if isinstance(data, dict) and "game" in data:
            data["game"] = "deck"
        (folder / "manifest.json").write_text(json.dumps(data))
        names = outdir.written_before(folder)
        own = outdir.own_names("deck", "manifest.json")
        assert all(own.fullmatch(n) for n in names), names
