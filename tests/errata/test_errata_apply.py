"""Errata applied on load: fields, versions, editions, and a bad erratum located in its file."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

from components import load
from components.errata import changed_since, editions, version_key
from components.errors import DefinitionError, InputError
from irata.cli import main


def test_an_erratum_changes_the_fields_and_stamps_the_component(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace) -> None:
    before = load("mule", root)
    assert before.component(E.ACID).fields["modifiers"] == {"food": 2, "energy": -2}
    write_errata(E.ERRATA)
    game = load("mule", root)
    card = game.component(E.ACID)
    assert card.fields["modifiers"] == {"food": 2, "energy": -1}
    assert card.fields["text"] == E.NEW_TEXT
    assert card.version == "1.1"
    assert game.edition == "1.1" and game.base_edition == "1.0"
    assert [e.id for e in game.errata] == ["E1"]
    assert game.errata[0].date == "2026-11-29"
    # the rest of the game keeps game.yaml's edition, and the card keeps where it was defined
    assert game.component(E.PEST).version == "1.0"
    assert card.file.endswith("production.yaml")
    # the loader without errata still sees the game as game.yaml defines it
    plain = load("mule", root, errata=False)
    assert plain.component(E.ACID).fields["modifiers"] == {"food": 2, "energy": -2}
    assert plain.edition == "1.0" and plain.errata == []


def test_errata_apply_in_order_and_versions_compare_as_numbers(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace) -> None:
    write_errata(E.ERRATA + E.LATER)
    game = load("mule", root)
    assert game.edition == "1.10"  # 1.10 comes after 1.1 (and after 1.9)
    assert version_key("1.10") > version_key("1.9") > version_key("1.1")
    assert version_key("1.0") == version_key("1")
    assert game.component(E.PEST).version == "1.10"
    assert game.component(E.PEST).fields["crystite_price"] == 8
    assert game.component(E.ACID).version == "1.1"
    assert editions(game) == ["1.0", "1.1", "1.10"]
    assert changed_since(game, "1.0") == {E.ACID, E.PEST}
    assert changed_since(game, "1.1") == {E.PEST}
    assert changed_since(game, "1.10") == set()


def test_a_later_erratum_on_the_same_card_wins(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace) -> None:
    write_errata(E.ERRATA + f"""\
  - id: E2
    version: "1.2"
    summary: Acid Rain Storm! back to Energy -2
    changes:
      - component: {E.ACID}
        set: {{modifiers.energy: -2}}
""")
    card = load("mule", root).component(E.ACID)
    assert card.fields["modifiers"] == {"food": 2, "energy": -2}
    assert card.version == "1.2"
    assert card.fields["text"] == E.NEW_TEXT


def test_since_an_unknown_edition_names_the_known_ones(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace) -> None:
    write_errata(E.ERRATA)
    with pytest.raises(InputError, match=r"no edition '1\.5' \(its editions: 1\.0, 1\.1\)"):
        changed_since(load("mule", root), "1.5")


def test_rule_data_errata_change_the_data(root: Path, write_errata: Callable[[str], Path],
                                          E: SimpleNamespace) -> None:
    write_errata(E.ERRATA.replace("    changes:\n", """    changes:
      - data: spoilage
        set: {overstock_limit: 10}
"""))
    game = load("mule", root)
    assert game.data["spoilage"]["overstock_limit"] == 10
    assert load("mule", root, errata=False).data["spoilage"]["overstock_limit"] == 12


# each bad erratum: (E1's changes, the line blamed, what the message says)
BAD = [
    ("      - component: production/acid-rain-strom\n        set: {crystite_price: 8}\n",
     7, "no component 'production/acid-rain-strom' in mule; did you mean "
         "'production/acid-rain-storm'?"),
    ("      - component: production/acid-rain-storm\n        set: {crystite_prize: 8}\n",
     8, "component 'production/acid-rain-storm' has no field 'crystite_prize'; did you mean "
         "'crystite_price'?"),
    ("      - component: production/acid-rain-storm\n        set: {crystite_price: cheap}\n",
     8, "'crystite_price' holds a number ("),
    ("      - component: production/acid-rain-storm\n        set: {size: huge}\n",
     8, "unknown size 'huge'"),
    ("      - component: production/acid-rain-storm\n        set: {count: 2}\n",
     8, "inventory group 'Production Cards' in game.yaml lists "),
    ("      - component: production/acid-rain-storm\n        set: {id: production/acid}\n",
     8, "a component's 'id' cannot change"),
    ("      - data: spoilage\n        set: {overstock: 10}\n",
     8, "the rule data 'spoilage' has no 'overstock'; did you mean 'overstock_limit'?"),
    ("      - component: production/acid-rain-storm\n        sett: {count: 2}\n",
     8, "unknown key 'sett' in a change of erratum E1"),
]


def _errata_with(errata: str, changes: str) -> str:
    head = errata.split("    changes:\n")[0]
    return head + "    changes:\n" + changes


@pytest.mark.parametrize(("changes", "line", "message"), BAD)
def test_a_bad_erratum_is_rejected_with_file_and_line(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace, changes: str,
        line: int, message: str) -> None:
    path = write_errata(_errata_with(E.ERRATA, changes))
    blamed = path.read_text().splitlines()[line - 1].lstrip(" -")
    assert blamed.startswith(("component:", "set:", "sett:", "data:"))
    with pytest.raises(DefinitionError) as info:
        load("mule", root)
    assert info.value.file is not None and info.value.file.endswith("errata.yaml")
    assert info.value.line == line
    assert message in info.value.message


def test_an_erratum_no_later_than_game_yaml_is_rejected(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace) -> None:
    write_errata(E.ERRATA.replace('version: "1.1"', 'version: "1.0"'))
    with pytest.raises(DefinitionError, match=r"errata\.yaml:3:5: erratum E1: version 1\.0 "
                                              r"is not later than game\.yaml's edition 1\.0"):
        load("mule", root)


def test_errata_out_of_order_are_rejected(root: Path, write_errata: Callable[[str], Path],
                                          E: SimpleNamespace) -> None:
    write_errata(E.ERRATA.replace('"1.1"', '"1.3"') + E.LATER.replace('"1.10"', '"1.2"'))
    with pytest.raises(DefinitionError, match=r":12:5: erratum E2: version 1\.2 is earlier "
                                              r"than erratum E1's 1\.3"):
        load("mule", root)


def test_the_command_line_reports_a_bad_erratum_in_one_line(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace,
        capsys: pytest.CaptureFixture[str]) -> None:
    write_errata(_errata_with(E.ERRATA, BAD[1][0]))
    with pytest.raises(SystemExit) as info:
        main(["check", "mule", "--components", str(root)])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("error: ") and "errata.yaml:8:15: erratum E1: " in err
    assert "Traceback" not in err


def test_the_installed_command_exits_2_without_a_traceback(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace) -> None:
    write_errata(_errata_with(E.ERRATA, BAD[0][0]))
    irata = Path(sys.executable).parent / "irata"
    run = subprocess.run([str(irata), "errata", "list", "mule", "--components", str(root)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "errata.yaml:7:9: erratum E1: no component" in lines[0] and "Traceback" not in run.stderr
