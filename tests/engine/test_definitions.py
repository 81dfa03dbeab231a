"""The definition format: what loads, and the located errors a designer sees."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from components import load_path
from components.errors import DefinitionError

IRATA = [sys.executable, "-m", "irata.cli"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*IRATA, *args], capture_output=True, text=True, timeout=120)


def test_the_test_deck_loads(deck_dir: Path) -> None:
    game = load_path(deck_dir)
    assert game.key == "deck" and game.edition == "1.0"
    alpha = game.component("card/alpha")
    assert alpha.kind == "card" and alpha.count == 3 and alpha.size == (63.5, 88.9)
    assert alpha.group == "Cards" and alpha.front == "card-front"
    assert alpha.fields["title"] == "Alpha"
    assert game.counts()["Cards"] == 12
    assert game.component("die/colour").faces[2]["colour"] == "green"


def _break(deck_dir: Path, old: str, new: str, file: str = "cards.yaml") -> None:
    path = deck_dir / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def _line_of(deck_dir: Path, needle: str, file: str = "cards.yaml") -> int:
    for i, line in enumerate((deck_dir / file).read_text().splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(needle)


def test_misspelt_key_names_file_line_column_and_suggests(deck_dir: Path) -> None:
    _break(deck_dir, "food: true, count: 3}", "food: true, cuont: 3}")
    with pytest.raises(DefinitionError) as exc:
        load_path(deck_dir)
    msg = str(exc.value)
    line = _line_of(deck_dir, "cuont")
    assert msg.startswith(f"{deck_dir / 'cards.yaml'}:{line}:") or f"cards.yaml:{line}:" in msg
    assert "did you mean 'count'?" in msg


def test_malformed_yaml_is_located(deck_dir: Path) -> None:
    _break(deck_dir, "  - {id: card/beta, title: Beta,", "  - {id: card/beta, title: [Beta,")
    with pytest.raises(DefinitionError) as exc:
        load_path(deck_dir)
    assert exc.value.file and exc.value.file.endswith("cards.yaml")
    assert exc.value.line == _line_of(deck_dir, "card/beta") or exc.value.line is not None
    assert "malformed YAML" in str(exc.value)


@pytest.mark.parametrize(("old", "new", "words"), [
    ("kind: card", "kind: cardd", "unknown kind 'cardd'"),
    ("size: poker", "size: pokr", "did you mean 'poker'?"),
    ("{type: text, text: \"${text}\",", "{type: txt, text: \"${text}\",", "did you mean 'text'?"),
    ("front: card-front", "front: card-frnt", "did you mean 'card-front'?"),
    ("id: card/gamma", "id: card/beta", "used twice"),
    ("food: true, count: 3}", "food: true, count: -3}", "count must be a whole number"),
    ("{type: text, text: \"${text}\", x: 5", "{type: text, text: \"${text}\", colour: red, x: 5",
     "did you mean 'color'?"),
])
def test_mistakes_are_named(deck_dir: Path, old: str, new: str, words: str) -> None:
    _break(deck_dir, old, new)
    with pytest.raises(DefinitionError) as exc:
        load_path(deck_dir)
    assert words in str(exc.value)
    assert exc.value.line is not None and exc.value.col is not None


def test_inventory_count_mismatch_is_an_error(deck_dir: Path) -> None:
    _break(deck_dir, "{group: Cards, count: 12}", "{group: Cards, count: 13}", "game.yaml")
    with pytest.raises(DefinitionError) as exc:
        load_path(deck_dir)
    assert "lists 13 but the components in it make 12" in str(exc.value)
    assert exc.value.file and exc.value.file.endswith("game.yaml")


def test_an_image_outside_the_game_folder_is_refused(deck_dir: Path) -> None:
    _break(deck_dir, "{type: icon, name: food, x: 5, y: 75, size: 6, when: food}",
           "{type: image, path: ../../etc/passwd, x: 0, y: 0, w: 5, h: 5}")
    with pytest.raises(DefinitionError) as exc:
        load_path(deck_dir)
    assert "inside the game folder" in str(exc.value)


def test_yaml_is_loaded_safely(deck_dir: Path) -> None:
    (deck_dir / "evil.yaml").write_text("data:\n  x: !!python/object/apply:os.system ['true']\n")
    with pytest.raises(DefinitionError) as exc:
        load_path(deck_dir)
    assert "evil.yaml:2:" in str(exc.value)


def test_check_command_reports_one_line_and_exit_2(deck_dir: Path) -> None:
    _break(deck_dir, "food: true, count: 3}", "food: true, cuont: 3}")
    r = run("check", "--components", str(deck_dir))
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert f"cards.yaml:{_line_of(deck_dir, 'cuont')}:" in lines[0]
    assert "did you mean 'count'?" in lines[0]
    assert "Traceback" not in r.stderr


def test_check_command_passes_a_good_folder(deck_dir: Path) -> None:
    r = run("check", "--components", str(deck_dir))
    assert r.returncode == 0, r.stderr
    assert "deck: ok, 14 components, 23 pieces" in r.stdout


def test_unknown_game_is_one_line(deck_dir: Path) -> None:
    r = run("inventory", "dekc", "--components", str(deck_dir))
    assert r.returncode == 2
    assert r.stderr.strip() == (f"error: no game 'dekc' in {deck_dir} (games: deck; did you "
                                "mean 'deck'?)")


def test_inventory_lists_groups_as_json(deck_dir: Path) -> None:
    import json

    r = run("inventory", "deck", "--components", str(deck_dir), "--json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert rows[0] == {"group": "Cards", "count": 12}
    assert {"group": "Rulebook", "count": 1} in rows


def test_face_refs_follows_layouts_once_and_reads_sums_and_conditions() -> None:
    from components.schema import face_refs

    layouts = {
        "card": [{"use": "band"}, {"type": "text", "text": "${cost + bonus * 2}", "when": "gold"}],
        "band": [{"type": "text", "text": "${title} ${data.prices.food}", "unless": "hidden"},
                 {"use": "card"}],  # a cycle: each layout is read once
    }
    face = {"front": "card", "back": [{"type": "text", "text": "${bad ? 1} ${back.0}"}]}
    assert face_refs(face, layouts) == {"cost", "bonus", "title", "data.prices.food", "back.0"}
    assert face_refs(face, layouts, conditions=True) == {
        "cost", "bonus", "title", "data.prices.food", "back.0", "gold", "hidden"}
