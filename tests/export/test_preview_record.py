"""irata preview --printed OUT: one face drawn from the record irata print leaves, the printed
PDF's pixels within the trim; a stale, damaged or hostile record is ignored (the face is drawn
the whole way), never shown, and never makes irata read outside the game and output folders."""

from __future__ import annotations

import json
import shutil
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from generator import preview_record, raster
from irata.cli import main

ROOT = Path(__file__).resolve().parents[2]
DECK = ROOT / "tests" / "engine" / "fixtures" / "deck"
HEXES = ROOT / "examples" / "hexes"


def _run(args: list[str]) -> int:
    with pytest.raises(SystemExit) as exc:
        main(args)
    return int(exc.value.code or 0)


def _png(path: Path) -> Image.Image:
    with Image.open(path) as im:
        return im.convert("RGB")


@pytest.fixture
def whole_way(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Counts the previews drawn the whole way (the game loaded, drawn and imposed)."""
    import generator.preview as gp

    calls: list[str] = []
    real = gp.preview

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[1].id)
        return real(*args, **kwargs)

    monkeypatch.setattr(gp, "preview", counted)
    yield calls


def _printed(tmp_path: Path, folder: Path, name: str, *extra: str) -> tuple[Path, Path]:
    """A copy of the game folder ``folder``, printed (PDF only) into ``tmp/out``."""
    game = tmp_path / "games" / name
    shutil.copytree(folder, game)
    out = tmp_path / "out"
    assert _run(["print", "--components", str(game), "--format", "pdf", "--out", str(out),
                 *extra]) == 0
    return game, out


def test_a_printed_face_is_the_printed_pdf_pixel_for_pixel(tmp_path: Path,
                                                           whole_way: list[str]) -> None:
    """At 508 dpi every 0.05 mm is a whole pixel: within the trim the preview drawn from the
    record is the printed page's raster, every pixel, for a front and for a back."""
    game, out = _printed(tmp_path, DECK, "deck")
    manifest = json.loads((out / "deck" / "manifest.json").read_text(encoding="utf-8"))
    compared = 0
    for sheet in manifest["sheets"][:2]:
        pl = next(p for p in sheet["placements"] if p["copy"] == 1)
        trim = tuple(pl["trim_mm"])
        assert raster.on_whole_pixels(trim, 508, 1e-3)
        page = raster.render_page(out / "deck" / sheet["file"], sheet["page"] - 1, 508)
        png = tmp_path / f"{compared}.png"
        assert _run(["preview", "--components", str(game), "deck", pl["component"],
                     "--face", pl["face"], "--printed", str(out), "--dpi", "508", "--trim",
                     "--out", str(png)]) == 0
        assert ImageChops.difference(_png(png), page.crop(raster.box_px(trim, 508))
                                     ).getbbox() is None, pl["component"]
        compared += 1
    assert compared == 2
    assert whole_way == []  # both drawn from the record


def test_a_hex_piece_from_the_record_is_the_whole_way_preview(tmp_path: Path,
                                                              whole_way: list[str]) -> None:
    """A shaped piece (cut to its hexagon: an outline on the page) from the record is the very
    image the whole way draws, outline and all."""
    game, out = _printed(tmp_path, HEXES, "hexes")
    fast, slow = tmp_path / "fast.png", tmp_path / "slow.png"
    args = ["preview", "--components", str(game), "hex-frontier", "terrain/desert",
            "--dpi", "100"]
    assert _run([*args, "--printed", str(out), "--out", str(fast)]) == 0
    assert whole_way == []
    assert _run([*args, "--out", str(slow)]) == 0
    assert whole_way == ["terrain/desert"]
    assert ImageChops.difference(_png(fast), _png(slow)).getbbox() is None
    assert _png(fast).getpixel((1, 1)) == (255, 255, 255)  # outside the hexagon


def test_a_definition_edited_after_the_print_is_never_shown_stale(
        tmp_path: Path, whole_way: list[str]) -> None:
    game, out = _printed(tmp_path, DECK, "deck")
    before, after, fresh = (tmp_path / f"{n}.png" for n in ("before", "after", "fresh"))
    args = ["preview", "--components", str(game), "deck", "beta", "--dpi", "60"]
    assert _run([*args, "--printed", str(out), "--out", str(before)]) == 0
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text().replace("Nothing special happens here.",
                                               "Everything changes now."))
    assert _run([*args, "--printed", str(out), "--out", str(after)]) == 0
    assert whole_way == ["card/beta"]  # the record is stale: drawn the whole way
    assert _run([*args, "--out", str(fresh)]) == 0
    assert ImageChops.difference(_png(after), _png(fresh)).getbbox() is None
    assert ImageChops.difference(_png(after), _png(before)).getbbox() is not None


@pytest.mark.parametrize("damage", ["truncated", "garbage faces", "other version",
                                    "a link", "font changed"])
def test_a_damaged_record_is_ignored_in_silence(tmp_path: Path, whole_way: list[str],
                                                capsys: pytest.CaptureFixture[str],
                                                damage: str) -> None:
    game, out = _printed(tmp_path, DECK, "deck")
    cache = out / "deck" / "irata-cache"
    index = cache / "preview.json"
    faces = next(cache.glob("preview-faces-*.txt"))
    if damage == "truncated":
        index.write_bytes(index.read_bytes()[:200])
    elif damage == "garbage faces":
        faces.write_bytes(b"[" * 5000 + b"\n" + faces.read_bytes()[5002:])
    elif damage == "other version":
        raw = json.loads(index.read_text())
        raw["irata_preview"] = 99
        index.write_text(json.dumps(raw))
    elif damage == "a link":
        real = tmp_path / "elsewhere.json"
        index.rename(real)
        index.symlink_to(real)
    else:
        for font in cache.glob("font-*.ttf"):
            data = font.read_bytes()
            font.write_bytes(data[:100] + bytes([data[100] ^ 0xFF]) + data[101:])
    capsys.readouterr()
    png = tmp_path / "x.png"
    assert _run(["preview", "--components", str(game), "deck", "alpha", "--printed", str(out),
                 "--dpi", "40", "--out", str(png)]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert captured.out.startswith(f"wrote {png}: card/alpha front as printed")
    assert whole_way == ["card/alpha"]


def test_settings_given_with_printed_must_be_the_prints(tmp_path: Path,
                                                        whole_way: list[str]) -> None:
    """--printed takes the print's paper (letter here); a --paper that differs from it
    draws the face the whole way with the paper given."""
    game, out = _printed(tmp_path, DECK, "deck", "--paper", "letter")
    args = ["preview", "--components", str(game), "deck", "alpha", "--printed", str(out),
            "--dpi", "40"]
    assert _run([*args, "--out", str(tmp_path / "a.png")]) == 0
    assert whole_way == []
    assert _run([*args, "--paper", "letter", "--out", str(tmp_path / "b.png")]) == 0
    assert whole_way == []
    assert _run([*args, "--paper", "a4", "--out", str(tmp_path / "c.png")]) == 0
    assert whole_way == ["card/alpha"]


def test_an_error_with_printed_is_one_line(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    game, out = _printed(tmp_path, DECK, "deck")
    capsys.readouterr()
    code = _run(["preview", "--components", str(game), "deck", "alpah", "--printed", str(out),
                 "--out", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1
    assert "no component 'alpah'" in err


# --- the reader, fuzzed ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, Any], bytes]:
    tmp = tmp_path_factory.mktemp("record")
    game = tmp / "games" / "deck"
    shutil.copytree(DECK, game)
    out = tmp / "out"
    assert _run(["print", "--components", str(game), "--format", "pdf", "--out",
                 str(out)]) == 0
    cache = out / "deck" / "irata-cache"
    index = json.loads((cache / "preview.json").read_text())
    faces = next(cache.glob("preview-faces-*.txt")).read_bytes()
    return game, out, index, faces


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=30) | st.sampled_from(["../../etc/passwd", "/etc/passwd", "T", "M", "I",
                                               "G", "Helvetica", "#000000"]),
    lambda kids: st.lists(kids, max_size=8) | st.dictionaries(st.text(max_size=8), kids,
                                                               max_size=5),
    max_leaves=40)


def _mutate(value: Any, path: list[int], new: Any) -> Any:
    """``value`` with the element ``path`` leads to (through lists and dicts) replaced."""
    if not path or not isinstance(value, (list, dict)) or not value:
        return new
    keys = list(value) if isinstance(value, dict) else list(range(len(value)))
    k = keys[path[0] % len(keys)]
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[k] = _mutate(value[k], path[1:], new)  # type: ignore[index]
    return copy


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.lists(st.integers(0, 50), max_size=8), new=json_values,
       where=st.sampled_from(["index", "faces"]))
def test_a_hostile_record_never_crashes_and_never_reads_outside(
        record: tuple[Path, Path, dict[str, Any], bytes], tmp_path_factory: pytest.TempPathFactory,
        path: list[int], new: Any, where: str) -> None:
    game, out, index, faces = record
    tmp = tmp_path_factory.mktemp("hostile")
    hostile = tmp / "out"
    shutil.copytree(out / "deck" / "irata-cache", hostile / "deck" / "irata-cache")
    cache = hostile / "deck" / "irata-cache"
    if where == "index":
        (cache / "preview.json").write_text(json.dumps(_mutate(index, path, new)))
    else:
        lines = faces.decode().splitlines()
        line = json.loads(lines[0])
        lines[0] = json.dumps(_mutate(line, path, new))
        name = next(cache.glob("preview-faces-*.txt"))
        text = "\n".join(lines) + "\n"
        name.write_text(text)
        # the index's offsets still point where they pointed
    _arm()
    OPENED.clear()
    ARMED.append(threading.get_ident())
    try:
        got = preview_record.recorded(hostile, "deck", game, "alpha", "front", {})
    finally:
        ARMED.clear()
    assert got is None or isinstance(got[1], preview_record.Face)
    allowed = (str(game.resolve()), str(hostile.resolve()), str(ROOT), sys.prefix,
               sys.base_prefix)
    outside = [p for p in OPENED if not p.startswith(allowed)]
    assert outside == [], outside


ARMED: list[int] = []  # the thread the preview is read in (another test's thread is not it)
OPENED: list[str] = []
HOOKED: list[bool] = []


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if ARMED and event == "open" and isinstance(args[0], (str, bytes, Path)) \
            and threading.get_ident() == ARMED[0]:
        OPENED.append(str(args[0]))


def _arm() -> None:
    """One audit hook for the module (hooks cannot be removed): it records while armed."""
    if not HOOKED:
        sys.addaudithook(_hook)
        HOOKED.append(True)


@pytest.mark.parametrize("art", ["/etc/hostname", "../../secret.png", "{game}/../secret.png",
                                 "{game}/cards.yaml"])
def test_an_image_the_record_names_outside_the_game_or_unlisted_is_refused(
        record: tuple[Path, Path, dict[str, Any], bytes], tmp_path: Path, art: str) -> None:
    """A record whose face draws a file that is not an art file the print listed inside the
    game folder (the preview would embed its bytes in a PDF) is not used."""
    game, out, index, faces = record
    (game.parent / "secret.png").write_bytes(b"not yours")
    cache = tmp_path / "out" / "deck" / "irata-cache"
    shutil.copytree(out / "deck" / "irata-cache", cache)
    line = json.loads(faces.decode().splitlines()[0])
    line[3] = [["M", art.format(game=game), 0, 0, 10, 10, 1]]
    data = json.dumps(line).encode() + b"\n"
    key = preview_record.digest(data)
    for old in cache.glob("preview-faces-*.txt"):
        old.unlink()
    (cache / f"preview-faces-{key}.txt").write_bytes(data)
    hostile = json.loads(json.dumps(index))
    hostile["faces_file"] = key
    for fs in hostile["faces"].values():
        for entry in fs.values():
            entry[-2:] = [0, len(data)]
    (cache / "preview.json").write_text(json.dumps(hostile))
    assert preview_record.recorded(tmp_path / "out", "deck", game, "alpha", "front", {}) is None
    # the same record drawing nothing outside is used (the test would pass for any record)
    line[3] = []
    data = json.dumps(line).encode() + b"\n"
    hostile["faces_file"] = key = preview_record.digest(data)
    (cache / f"preview-faces-{key}.txt").write_bytes(data)
    for fs in hostile["faces"].values():
        for entry in fs.values():
            entry[-2:] = [0, len(data)]
    (cache / "preview.json").write_text(json.dumps(hostile))
    assert preview_record.recorded(tmp_path / "out", "deck", game, "alpha", "front", {})


def test_each_sheets_chunk_is_the_one_the_pdf_renders_it_in() -> None:
    from generator.incremental import CHUNK_PAGES, chunk_of

    class S:
        def __init__(self, file: str) -> None:
            self.file = file

    sheets: list[Any] = [S("a.pdf")] * (2 * CHUNK_PAGES + 3) + [S("b.pdf")] * (CHUNK_PAGES + 1)
    assert preview_record._chunks(sheets) == [chunk_of(sheets, i) for i in range(len(sheets))]


@pytest.mark.parametrize("faces", [None, [], "x", {"card/alpha": None},
                                   {"card/alpha": ["front"]}, {"card/alpha": {"front": None}}])
def test_an_index_whose_faces_are_not_a_components_faces_is_not_used(
        record: tuple[Path, Path, dict[str, Any], bytes], tmp_path: Path, faces: Any) -> None:
    """A hostile index's ``faces`` of any other shape (found by the fuzz test: a component's
    entry that is no table of faces crashed the reader) is a record not used, never a crash."""
    game, out, index, _ = record
    cache = tmp_path / "out" / "deck" / "irata-cache"
    shutil.copytree(out / "deck" / "irata-cache", cache)
    (cache / "preview.json").write_text(json.dumps({**index, "faces": faces}))
    assert preview_record.recorded(tmp_path / "out", "deck", game, "alpha", "front", {}) is None


def test_a_print_killed_while_writing_the_record_leaves_scratch_the_next_print_clears(
        record: tuple[Path, Path, dict[str, Any], bytes], tmp_path: Path) -> None:
    """The record's files are written under the print's scratch names, so what a killed
    print left in the cache is cleared by the next print (``build.clear_scratch``)."""
    from generator.build import clear_scratch, scratch_prefix

    game, out, _, _ = record
    folder = tmp_path / "out" / "deck"
    shutil.copytree(out / "deck", folder)
    dead = folder / "irata-cache" / (scratch_prefix("preview").replace(
        f".{__import__('os').getpid()}.", ".999999999.") + "abcd1234.tmp")
    dead.write_bytes(b"half a record")
    assert "irata-cache/" + dead.name in clear_scratch(folder)
    assert not dead.exists()
