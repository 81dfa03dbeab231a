"""``irata errata list`` and ``diff``, and the bundled games' own errata."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from components import load
from components.errata import changed_since, version_key
from irata.cli import cli, main


def test_errata_list(root: Path, write_errata: Callable[[str], Path],
                     E: SimpleNamespace) -> None:
    write_errata(E.ERRATA + E.LATER)
    runner = CliRunner()
    text = runner.invoke(cli, ["errata", "list", "mule", "--components", str(root)]).output
    assert text.splitlines()[0] == ("M.U.L.E. The Board Game: edition 1.10 (game.yaml: 1.0), "
                                    "2 errata")
    assert "E1  v1.1, 2026-11-29: Acid Rain Storm! lowers Energy by 1, not 2" in text
    assert f"changes: {E.PEST}" in text
    data = json.loads(runner.invoke(cli, ["errata", "list", "mule", "--components", str(root),
                                          "--json"]).output)
    assert data["edition"] == "1.10" and data["base_edition"] == "1.0"
    assert [(e["id"], e["version"], e["components"]) for e in data["errata"]] == [
        ("E1", "1.1", [E.ACID]), ("E2", "1.10", [E.PEST])]


def test_errata_diff_shows_each_field_before_and_after(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace) -> None:
    write_errata(E.ERRATA + E.LATER)
    runner = CliRunner()
    out = json.loads(runner.invoke(cli, ["errata", "diff", "mule", "--from", "1.0", "--to",
                                         "1.10", "--components", str(root), "--json"]).output)
    assert [e["id"] for e in out["errata"]] == ["E1", "E2"]
    by_id = {c["component"]: c for c in out["components"]}
    assert set(by_id) == {E.ACID, E.PEST}
    acid = {f["field"]: (f["before"], f["after"]) for f in by_id[E.ACID]["fields"]}
    assert acid["modifiers"] == ({"food": 2, "energy": -2}, {"food": 2, "energy": -1})
    assert acid["text"][1] == E.NEW_TEXT and "2 less" in acid["text"][0]
    assert set(acid) == {"modifiers", "text"}  # nothing else differs
    was = load("mule", root, errata=False).component(E.PEST).fields["crystite_price"]
    assert by_id[E.PEST]["fields"] == [{"field": "crystite_price", "before": was, "after": 8}]
    # a narrower window: only E2
    out = json.loads(runner.invoke(cli, ["errata", "diff", "mule", "--from", "1.1",
                                         "--components", str(root), "--json"]).output)
    assert out["to"] == "1.10" and [c["component"] for c in out["components"]] == [E.PEST]
    text = runner.invoke(cli, ["errata", "diff", "mule", "--from", "1.0", "--to", "1.1",
                               "--components", str(root)]).output
    assert f"{E.ACID} (now v1.1; E1)" in text
    assert "    modifiers:\n      before: {\"food\": 2, \"energy\": -2}\n" \
           "      after:  {\"food\": 2, \"energy\": -1}" in text
    assert E.PEST not in text


@pytest.mark.parametrize(("args", "message"), [
    (["--from", "1.1", "--to", "1.0"], "--from 1.1 is later than --to 1.0"),
    (["--from", "0.9"], "mule has no edition (--from) '0.9' (its editions: 1.0, 1.1)"),
    (["--from", "1.0", "--to", "3"], "mule has no edition (--to) '3'"),
])
def test_errata_diff_refuses_unknown_editions(
        root: Path, write_errata: Callable[[str], Path], E: SimpleNamespace,
        capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    write_errata(E.ERRATA)
    with pytest.raises(SystemExit) as info:
        main(["errata", "diff", "mule", *args, "--components", str(root)])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_a_game_without_errata_lists_none(root: Path) -> None:
    out = CliRunner().invoke(cli, ["errata", "list", "mule", "--components", str(root),
                                   "--json"])
    data = json.loads(out.output)
    assert data["errata"] == [] and data["edition"] == data["base_edition"] == "1.0"


# -- the bundled games' errata: the rulebooks' own slips ------------------------------------

@pytest.mark.parametrize("name", ["mule", "mutagen", "outer-earth"])
def test_bundled_errata_publish_edition_1_1(name: str) -> None:
    game = load(name)
    assert game.errata, f"{name} has no errata"
    assert game.edition == "1.1" and version_key(game.base_edition) < version_key("1.1")
    for e in game.errata:
        assert e.summary and e.note and e.date


def test_outer_earth_erratum_fixes_the_last_round_at_two_bonus_revenue_piles() -> None:
    from companion.outer_earth import rules as outer_earth

    game = load("outer-earth")
    assert "TWO of the bonus revenue piles" in game.errata[0].summary
    assert game.data["last_round"]["bonus_revenue_piles_empty"] == 2
    rules = outer_earth.rules_from_game(game)
    assert rules.bonus_revenue_piles_empty == 2
    # one empty bonus revenue pile is not enough; two are
    assert not outer_earth.last_round(10, [0, 3, 4], rules)
    assert outer_earth.last_round(10, [0, 0, 4], rules)


def test_mutagen_errata_give_the_crew_card_its_cost() -> None:
    game = load("mutagen")
    crew = game.component("crew/all")
    assert crew.fields["cost"] == 5 and crew.version == "1.1"
    assert game.data["crew_kinds"]["all"]["cost"] == 5
    assert changed_since(game, "1.0") == {"crew/all"}
    assert [e.id for e in game.errata] == ["E1", "E2"]
    assert "Visitor card" in game.errata[1].summary


def test_mule_erratum_names_the_market_example_seller() -> None:
    game = load("mule")
    (e,) = game.errata
    assert "Spheroid" in e.summary and "Packer" in e.summary
    assert e.changes == () and changed_since(game, "1.0") == set()


def test_a_re_issued_card_whose_fields_did_not_change_reads_as_current_in_content() -> None:
    runner = CliRunner()
    old = runner.invoke(cli, ["errata", "check", "irata:mutagen/crew/all@1.0", "--json"])
    answer = json.loads(old.output)
    assert answer["current"] is False and answer["version"] == "1.1"
    assert [e["id"] for e in answer["errata"]] == ["E1"] and answer["fields"] == []
    text = runner.invoke(cli, ["errata", "check", "irata:mutagen/crew/all@1.0"]).output
    assert text.startswith("re-issued: crew/all v1.0; the current version is v1.1")
    now = runner.invoke(cli, ["errata", "check", "irata:mutagen/crew/all@1.1"]).output
    assert now.startswith("current: crew/all v1.1")
