"""M.U.L.E.'s Optional Rules at ``new``: listed by --help with the rulebook's names, saved with
the game, shown in status, and refused with a reason when mistyped."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from companion.mule import options
from irata.cli import cli
from tests import clirun

# the rulebook's "Optional Rules" section, in its order (the Sequence of Play Summary after it
# is a reference card, not a rule)
RULEBOOK = ["Colonist Cards and Special Talents", "Random Land Placement",
            "Variable Number of Game Turns", "More Game Turns",
            "Secret Bidding in Land Auctions", "Land Auctions before Land Grant",
            "More Predictability", "More Land Auctions", "Single Action Round per Turn",
            "Declaring Buyers and Sellers", "Colonists Preferred over The Store in Auctions",
            "Alternative Personal Event System", "Inherent Land and M.U.L.E. Value in Ranking"]


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_help_lists_the_thirteen_optional_rules() -> None:
    code, out, _ = run("play", "mule", "new", "--help")
    assert code == 0
    flat = " ".join(out.split())
    assert [o.name for o in options.OPTIONS] == RULEBOOK
    for name in RULEBOOK:
        assert name in flat, name


def test_an_option_is_saved_and_shown(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    code, _, err = run("play", "mule", "new", "--players", "Ann,Bob,Cid", "--tournament",
                       "--option", "alternative-personal-events", "--db", db, "--seed", "3")
    assert code == 0, err
    code, out, _ = run("play", "mule", "status", "--db", db)
    assert "Optional Rules: Alternative Personal Event System" in out
    code, out, _ = run("play", "mule", "status", "--db", db, "--json")
    assert json.loads(out)["options"] == {"alternative-personal-events": ""}


def test_bad_options_are_refused(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    base = ["play", "mule", "new", "--players", "Ann,Bob", "--db", db]
    for opt, says in [("bogus", "no such Optional Rule"),
                      ("more-game-turns=5", "More Game Turns takes"),
                      ("single-action-round=2", "takes no value"),
                      ("secret-bidding", "Tournament Game"),
                      ("colonist-cards", "Tournament Game")]:
        code, err = clirun.run([*base, "--option", opt])
        assert clirun.one_line(code, err), (opt, err)
        assert says in err, (opt, err)
    code, err = clirun.run(["play", "mule", "status", "--db", db])
    assert code == 2, err      # nothing was saved
