"""A refused entry changes nothing: for every command of Mutagen, Outer Earth, Das Störrische
Muli, Mule Goes Crazy! and M.U.L.E. that records an event, an entry the companion refuses
leaves the games file byte for byte as it was, with one ``error:`` line and exit code 2.

Each game is played to a few states worth refusing entries in (a game under way, a game at its
end); hypothesis then types entries of every move kind into a copy of each, from the names,
numbers and words of the printed copy mixed with ones that are not. Every refused entry is
checked against the file's bytes; the examples below each kind's property are entries the
rules refuse, so every kind is seen refused by a rule, not only by the option parser.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from irata.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "mutagen"
FILE = "@file:"
"""An argument ``@file:TEXT`` is a file holding TEXT, written beside the games file."""
_work: list[Path] = []
LAST = [""]
"""The last entry's standard error (the statistics show which refusals were seen)."""


@pytest.fixture(scope="module", autouse=True)
def _folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """One folder for the module's games files (the states are played once)."""
    _work.append(tmp_path_factory.mktemp("refused"))
    yield
    _work.pop()
    _cache.clear()


def work() -> Path:
    return _work[-1]


def play(db: Path, *args: str) -> tuple[int, str]:
    """``irata play ARGS --db DB`` in this process: the exit code and standard error."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(["play", *args, "--db", str(db)])
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, err.getvalue()


def _files(folder: Path, args: list[str] | tuple[str, ...]) -> list[str]:
    """``args`` with each ``@file:TEXT`` written to a file in ``folder`` and named by it."""
    out = []
    for i, a in enumerate(args):
        if a.startswith(FILE):
            path = folder / f"entry-{i}.yaml"
            path.write_text(a[len(FILE):])
            a = str(path)
        out.append(a)
    return out


def played(name: str, *steps: tuple[str, ...]) -> bytes:
    """The games file after ``steps`` (each one accepted), as bytes."""
    db = work() / f"{name}.sqlite3"
    db.unlink(missing_ok=True)
    for step in steps:
        code, err = play(db, *_files(work(), step))
        assert code == 0, (step, err)
    return db.read_bytes()


def check_refusal(state: bytes, args: list[str]) -> str | None:
    """Type ``args`` into a copy of the games file ``state``; a refused entry must leave the
    file's bytes as they were. Returns the refusal (None: the entry was accepted)."""
    with tempfile.TemporaryDirectory(dir=work()) as folder:
        db = Path(folder) / "games.sqlite3"
        db.write_bytes(state)
        typed = _files(Path(folder), args)
        code, err = play(db, *typed)
        LAST[:] = [err]
        if code == 0:
            return None
        assert code == 2, (args, err)
        assert err.startswith("error: ") and err.count("\n") == 1, (args, err)
        assert "Traceback" not in err
        assert db.read_bytes() == state, (args, err)
        left = sorted(f for f in os.listdir(folder) if not f.startswith("entry-"))
        assert left == ["games.sqlite3"], args                 # no journal left behind
        return err


PROPERTY = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])

# -- words the table might type -------------------------------------------------------------

NUMBERS = st.one_of(st.integers(-3, 12).map(str), st.sampled_from(["1+1", "1e3", "", "x"]))


def words(*printed: str) -> st.SearchStrategy[str]:
    """One of the printed words, or a word that is not printed (a slip, a blank, nonsense)."""
    return st.one_of(st.sampled_from(printed),
                     st.sampled_from(["", " ", "Zed", "ann", "9", "-1", "a.b", "..", "/etc"]),
                     st.text(max_size=6))


def options(**choices: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    """Some of the options ``--NAME VALUE`` (each at most once), in any order."""
    # a trailing _ stands for a Python keyword: raise_ is --raise
    pairs = [st.tuples(st.just("--" + n.rstrip("_").replace("_", "-")), v)
             for n, v in choices.items()]
    return st.lists(st.one_of(*pairs), max_size=len(pairs), unique_by=lambda p: p[0]).map(
        lambda ps: [x for p in ps for x in p])


def command(*fixed: str | st.SearchStrategy[str] | st.SearchStrategy[list[str]],
            opts: st.SearchStrategy[list[str]] | None = None,
            flags: tuple[str, ...] = ()) -> st.SearchStrategy[list[str]]:
    """A command line: fixed words and typed arguments (a list: several), then options and
    flags."""
    parts = [st.just(f) if isinstance(f, str) else f for f in fixed]
    flag_lists = st.lists(st.sampled_from(flags), unique=True) if flags else st.just([])

    def line(t: tuple[tuple[str | list[str], ...], list[str], list[str]]) -> list[str]:
        words = [w for part in t[0] for w in ([part] if isinstance(part, str) else part)]
        return [*words, *t[1], *t[2]]

    return st.tuples(st.tuples(*parts), st.just([]) if opts is None else opts, flag_lists).map(line)


def refused_everywhere(states: Callable[[], list[bytes]],
                       moves: st.SearchStrategy[list[str]], data: st.DataObject) -> None:
    state = data.draw(st.sampled_from(states()), label="state")
    args = data.draw(moves, label="entry")
    event("accepted" if check_refusal(state, args) is None else "refused")
    event(LAST[0].strip()[:90])


# -- Mutagen --------------------------------------------------------------------------------

_cache: dict[str, list[bytes]] = {}


def mutagen_states() -> list[bytes]:
    if "mutagen" not in _cache:
        start = ("mutagen", "new", "--players", "Ann,Bob")
        rnd = ("mutagen", "round", str(FIXTURES / "round.yaml"), "--save")
        _cache["mutagen"] = [
            played("mutagen-1", start, ("mutagen", "points", "Ann", "2")),
            played("mutagen-4", start, rnd, rnd, rnd, rnd),
            played("mutagen-over", start, rnd, rnd, rnd, rnd,
                   ("mutagen", "score", END_FILE, "--save")),
            # both mini expansions, a round under way: Shard Fragments, cards and tiles held
            played("mutagen-held", ("mutagen", "new", "--players", "Ann,Bob", "--expansion",
                                    "plight-of-the-people", "--expansion", "palace-visitors",
                                    "--seed", "3"),
                   ("mutagen", "shards", "Ann", "3"), ("mutagen", "crew", "Bob", "Surveyor ore"),
                   ("mutagen", "storage", "Ann", "A1,A2"), ("mutagen", "tree", "Ann", "jade-01"),
                   ("mutagen", "people", "Bob", "supreme"), ("mutagen", "palace", "Ann", "1")),
            # the Elements kept: Ann holds a blue ore and a green gas, and installed a pink ore
            played("mutagen-elements", ("mutagen", "new", "--players", "Ann,Bob", "--expansion",
                                        "plight-of-the-people", "--expansion",
                                        "palace-visitors", "--seed", "3", "--elements"),
                   ("mutagen", "storage", "Ann", "A1,A2", "--tile", "storage/09-any-blue"),
                   ("mutagen", "crew", "Bob", "Surveyor ore"),
                   ("mutagen", "element", "Ann", "blue ore"),
                   ("mutagen", "element", "Ann", "green gas"),
                   ("mutagen", "element", "Ann", "pink ore", "--at", "A1")),
        ]
    return _cache["mutagen"]


END_FILE = FILE + "players:\n  - {name: Ann, storage: 3}\n  - {name: Bob}\n"


def _mutagen_file(kind: str) -> st.SearchStrategy[str]:
    """A round or score file: a fixture, or one written from typed players."""
    # mostly the saved game's players and Elements, on spaces of the track: entries that
    # reach the saved game's checks, not only the file's reader
    player = st.fixed_dictionaries({
        "name": st.one_of(st.sampled_from(["Ann", "Bob"]), words("Ann", "Bob")),
        "installed": st.integers(-1, 9), "storage": st.integers(-1, 40),
        "tracks": st.dictionaries(st.sampled_from(["ore", "gas", "crystal", "liquid", "fire"]),
                                  st.integers(0, 8), max_size=3)})

    def written(players: list[dict[str, object]]) -> str:
        rows = [f"  - {{name: {p['name']!r}, tracks: {p['tracks']}, "
                + (f"installed: {p['installed']}}}" if kind == "round"
                   else f"storage: {p['storage']}}}") for p in players]
        return FILE + "players:\n" + "\n".join(rows) + "\n"

    fixtures = [str(FIXTURES / f) for f in sorted(os.listdir(FIXTURES))]
    return st.one_of(st.sampled_from(fixtures),
                     st.lists(player, max_size=3, unique_by=lambda p: p["name"]).map(written))


MUTAGEN = {
    "points": command("mutagen", "points", words("Ann", "Bob"), NUMBERS,
                      opts=options(why=st.text(max_size=5))),
    "round": command("mutagen", "round", _mutagen_file("round"), "--save"),
    "score": command("mutagen", "score", _mutagen_file("score"), "--save"),
    "score-kept": command("mutagen", "score", "--save",
                          opts=options(storage=st.sampled_from(["Ann=1,Bob=0", "Ann=1", "Zed=2",
                                                                "Ann=-1,Bob=0", "Ann=x"]))),
    "shards": command("mutagen", "shards", words("Ann", "Bob"), NUMBERS,
                      opts=options(why=st.text(max_size=5))),
    "progress": command("mutagen", "progress", words("Ann", "Bob"),
                        st.sampled_from(["2", "4", "6", "free", "3", "0", "-2", "", "8"])),
    "crew": command("mutagen", "crew", words("Ann", "Bob"),
                    st.sampled_from(["Surveyor ore", "crew/all", "track-ore", "Rival", "nope",
                                     "crew/pair-crystal-gas", "Champion gas", ""])),
    "tree": command("mutagen", "tree", words("Ann", "Bob"),
                    st.sampled_from(["jade-01", "tree/violet-10", "tree/amber-03", "oak", ""])),
    "storage": command("mutagen", "storage", words("Ann", "Bob"),
                       st.sampled_from(["A1,A2", "A2,A3", "C3,C4", "A1,B2", "A1", "Z9,Z8",
                                        "A1,A2,A3", ""]),
                       opts=options(tile=st.sampled_from(["storage/01-any-crystal", "x"]))),
    "people": command("mutagen", "people", words("Ann", "Bob"),
                      st.sampled_from(["supreme", "ability people/gardener", "ability",
                                       "supreme people/diver", "x", "ability hoarder"])),
    "discard": command("mutagen", "discard", words("Ann", "Bob"),
                       st.sampled_from(["Surveyor ore", "crew/all", "x", ""])),
    "palace": command("mutagen", "palace", words("Ann", "Bob"),
                      st.sampled_from(["1", "2", "3", "0", "99", "x", ""])),
    "element": command("mutagen", "element", words("Ann", "Bob"),
                       st.sampled_from(["blue ore", "pink ore", "green gas", "supreme", "ore",
                                        "x", ""]),
                       opts=options(at=words("A1", "A2", "H1", "H2", "Z9"))),
    "install": command("mutagen", "install", words("Ann", "Bob"),
                       st.sampled_from(["blue ore H1", "green gas H1, blue ore H2",
                                        "blue gas A2", "blue ore", "x", ""])),
    "track": command("mutagen", "track", words("Ann", "Bob"),
                     st.sampled_from(["ore", "gas", "ore 2", "gas 9", "x", ""]),
                     opts=options(spend=st.sampled_from(["blue ore", "blue ore,green gas",
                                                         "supreme ore", "pink ore", "x"]),
                                  spent=st.sampled_from(["1", "0", "-1", "x"]))),
    "place": command("mutagen", "place", words("Ann", "Bob"),
                     st.sampled_from(["spy sacred-tree", "thug palace", "robot moon", "x", ""]),
                     opts=options(track=words("ore", "gas"),
                                  drawn=words("people/gardener", "x"))),
}


@pytest.mark.parametrize("kind", sorted(MUTAGEN))
@PROPERTY
@given(data=st.data())
def test_a_refused_mutagen_entry_changes_nothing(kind: str, data: st.DataObject) -> None:
    refused_everywhere(mutagen_states, MUTAGEN[kind], data)


@pytest.mark.parametrize("state, args, why", [
    (0, ["mutagen", "points", "Bob", "-1"], "Bob has 0 points and cannot pay 1"),
    (1, ["mutagen", "points", "Ann", "2"], "all 4 rounds have been scored"),
    (0, ["mutagen", "round", str(FIXTURES / "round_plight.yaml"), "--save"],
     "are not the saved game's"),
    (0, ["mutagen", "score", str(FIXTURES / "score.yaml"), "--save"], "in round 1 of 4"),
    (2, ["mutagen", "score", END_FILE, "--save"], "End of Game Scoring is saved already"),
    (3, ["mutagen", "shards", "Bob", "-4"], "Bob holds 3 Shard Fragment tokens and cannot pay"),
    (3, ["mutagen", "progress", "Bob", "6"], "Bob holds 3 Shard Fragment tokens and cannot pay 6"),
    (3, ["mutagen", "crew", "Ann", "Surveyor ore"], "Bob has taken the Crew card"),
    (3, ["mutagen", "crew", "Bob", "crew/all"], "cannot pay 5 for the Crew card"),
    (3, ["mutagen", "tree", "Bob", "tree/jade-01"], "Ann has completed the Tree card"),
    (3, ["mutagen", "storage", "Ann", "A2,A3"], "A2 is already covered by a Storage tile"),
    (3, ["mutagen", "storage", "Bob", "C3,C4"], "cannot pay 6 for a Storage tile on C3+C4"),
    (3, ["mutagen", "people", "Bob", "ability", "people/gardener"],
     "Bob has taken a People card this round already"),
    (3, ["mutagen", "palace", "Bob", "1"], "has moved this round already"),
    (0, ["mutagen", "palace", "Bob", "1"], "which this game is not played with"),
    (1, ["mutagen", "shards", "Ann", "2"], "all 4 rounds have been scored"),
    (1, ["mutagen", "score", "--save", "--storage", "Ann=1"], "Bob's is missing"),
], ids=["points", "points-over", "round", "score-early", "score-twice", "shards", "progress",
        "crew-taken", "crew-cost", "tree-taken", "storage-covered", "storage-cost",
        "people-twice", "palace-twice", "palace-no-expansion", "shards-over", "score-storage"])
def test_mutagen_entries_the_rules_refuse_change_nothing(state: int, args: list[str],
                                                         why: str) -> None:
    assert why in str(check_refusal(mutagen_states()[state], args))


# -- Outer Earth ----------------------------------------------------------------------------

def outer_earth_states() -> list[bytes]:
    if "outer-earth" not in _cache:
        oe = "outer-earth"
        start = (oe, "new", "--players", "Ann,Bob,Cid", "--starting-player", "Ann",
                 "--seed", "1")
        # the market's 4 planets put up for sale one after the other (nobody bids on the
        # last two: a card goes under each), then Phase 2 from Ann, the starting player
        bids = [(oe, "bid", "--save", "--planet", "Ferrox", "--green", "Bob"),
                (oe, "bid", "--save", "--planet", "Halcyon", "--green", "Ann"),
                (oe, "bid", "--save", "--planet", "Meridian"),
                (oe, "bid", "--save", "--planet", "Solace")]
        phase2 = [(oe, "draw", "Ann"),
                  (oe, "build", "Ann", "blue,red", "--planet", "Halcyon")]
        turns_over = [(oe, "done", "Bob"), (oe, "done", "Cid")]
        _cache["outer-earth"] = [
            played("oe-phase1", start, bids[0]),
            played("oe-phase2", start, *bids, *phase2),
            # the upkeep (nobody taxed) and the round's end run themselves after Cid's turn
            played("oe-upkeep", start, *bids, *phase2, *turns_over),
        ]
    return _cache["outer-earth"]


COMPANIES = words("Ann", "Bob", "Cid")
PLANETS = words("Halcyon", "Ferrox", "Tidewell", "Obelisk", "planet/obelisk", "Vesper Deep")
COLOUR_LISTS = st.lists(st.sampled_from(["blue", "red", "yellow", "green", ""]),
                        max_size=5).map(",".join)

OUTER_EARTH = {
    "bid": command("outer-earth", "bid", "--save",
                   st.lists(st.sampled_from(["accept", "raise", "bow", "pass"]), max_size=3),
                   opts=options(planet=PLANETS,
                                green=st.lists(COMPANIES, max_size=3).map(",".join))),
    "draw": command("outer-earth", "draw", COMPANIES, NUMBERS),
    "build": command("outer-earth", "build", COMPANIES, COLOUR_LISTS, "--planet", PLANETS),
    "done": command("outer-earth", "done", COMPANIES),
    "sell": command("outer-earth", "sell", COMPANIES, "--planet", PLANETS,
                    opts=options(built=COLOUR_LISTS, bonus=words("br/01", "br/14", "br/30"),
                                 pile=NUMBERS, raise_=words("draw", "build", "sell"))),
    "upkeep": command("outer-earth", "upkeep", "--save",
                      opts=options(discard=st.tuples(COMPANIES, PLANETS).map("=".join))),
    "round": command("outer-earth", "round"),
}


@pytest.mark.parametrize("kind", sorted(OUTER_EARTH))
@PROPERTY
@given(data=st.data())
def test_a_refused_outer_earth_entry_changes_nothing(kind: str, data: st.DataObject) -> None:
    refused_everywhere(outer_earth_states, OUTER_EARTH[kind], data)


@pytest.mark.parametrize("state, args, why", [
    (1, ["outer-earth", "bid", "--save", "--planet", "Tidewell", "--green", "Bob"],
     "every planet of the market has been put up for sale this round"),
    (0, ["outer-earth", "upkeep", "--save"], "round 1 is in Phase 1, 3 planet(s) of the "
     "market not yet put up for sale (offered: Ferrox): the upkeep comes once Phase 1 is over"),
    (0, ["outer-earth", "draw", "Ann"], "round 1 is in Phase 1"),
    (0, ["outer-earth", "done", "Ann"], "round 1 is in Phase 1"),
    (1, ["outer-earth", "upkeep", "--save"], "Bob has not taken its turn yet"),
    (1, ["outer-earth", "draw", "Cid"], "it is Ann's turn, then Bob's"),
    (1, ["outer-earth", "build", "Ann", "blue,blue,blue,blue,blue", "--planet",
         "Halcyon"], "Ann holds 4 development cards and cannot build 5"),
    (1, ["outer-earth", "sell", "Ann", "--save", "--planet", "Halcyon"],
     "Halcyon needs 4 developments to be sold"),
    (1, ["outer-earth", "round"], "round 1 has had no upkeep yet"),
    # after the upkeep and the end of the round, which ran themselves: round 2's Phase 1
    (2, ["outer-earth", "upkeep", "--save", "--discard", "Ann=Halcyon"],
     "no company holds more planets in its construction area than its sell value, so no "
     "planet tax is chosen: so 'upkeep' ran itself"),
], ids=["bid", "upkeep-in-phase-1", "draw-in-phase-1", "done-in-phase-1",
        "upkeep-in-phase-2", "draw", "build", "sell", "round", "upkeep"])
def test_outer_earth_entries_the_rules_refuse_change_nothing(state: int, args: list[str],
                                                             why: str) -> None:
    assert why in str(check_refusal(outer_earth_states()[state], args))


def test_the_properties_type_every_move_kind_of_every_game() -> None:
    """A move a game declares is typed into its game's property above (a new move kind
    without one fails here): Outer Earth, Mule Goes Crazy!, Mutagen, Das Störrische Muli and
    M.U.L.E."""
    from companion.play import declaration

    for game, typed in (("outer-earth", OUTER_EARTH), ("mule-goes-crazy", MGC),
                        ("mutagen", MUTAGEN), ("muli", MULI), ("mule", MULE)):
        decl = declaration(game)
        assert decl is not None
        assert {m.kind for m in decl.moves} <= set(typed), game


# -- Das Störrische Muli --------------------------------------------------------------------

def muli_states() -> list[bytes]:
    if "muli" not in _cache:
        start = ("muli", "new", "--players", "Ann,Bob,Cy", "--seed", "3")
        won = ["muli", "roll"]
        db = work() / "muli-race.sqlite3"
        db.unlink(missing_ok=True)
        play(db, *start)
        for _ in range(400):            # the seeded race, rolled to its end
            code, err = play(db, *won)
            if code:
                assert "the race is over" in err
                break
        _cache["muli"] = [played("muli-1", start, ("muli", "roll")), db.read_bytes()]
    return _cache["muli"]


COLOURS = words("red", "blue", "yellow", "green", "purple", "orange", "pink")
MULI = {
    "roll": command("muli", "roll", opts=options(
        dice=st.lists(COLOURS, max_size=3).map(",".join), keep=COLOURS, first=COLOURS)),
}


@PROPERTY
@given(data=st.data())
def test_a_refused_muli_roll_changes_nothing(data: st.DataObject) -> None:
    refused_everywhere(muli_states, MULI["roll"], data)


@pytest.mark.parametrize("state, args, why", [
    (0, ["muli", "roll", "--dice", "red,pink"], "unknown colour 'pink'"),
    (0, ["muli", "roll", "--keep", "red"], "only a die lying on the table can be kept"),
    (1, ["muli", "roll"], "the race is over"),
], ids=["colour", "keep", "over"])
def test_muli_rolls_the_rules_refuse_change_nothing(state: int, args: list[str], why: str
                                                    ) -> None:
    assert why in str(check_refusal(muli_states()[state], args))


# -- Mule Goes Crazy! -----------------------------------------------------------------------

def mgc_states() -> list[bytes]:
    if "mgc" not in _cache:
        m = "mule-goes-crazy"
        start = (m, "new", "--players", "Ann,Bob,Cid", "--seed", "7")
        grants = [(m, "grant", "Ann", "Sunny Flats"), (m, "grant", "Bob", "river-bottom"),
                  (m, "grant", "Cid", "foothills")]
        # Ann is favored: the Player Turns go Bob, Cid, Ann
        market = [(m, "favored", "--save"), (m, "auction", "high-mountains", "--unsold"),
                  (m, "buy", "Bob", "food"), (m, "done", "Bob"),
                  (m, "event", "Cid", "sunspots"), (m, "done", "Cid"),
                  (m, "buy", "Ann", "energy"), (m, "move", "Ann", "energy", "sunny-flats"),
                  (m, "facility", "Ann", "solar-farm")]
        _cache["mgc"] = [
            played("mgc-grant", start, grants[0]),
            played("mgc-market", start, *grants, *market),
            played("mgc-production", start, *grants, *market, (m, "produce", "--save"),
                   (m, "spoilage", "--save")),
            # Spoilage and the upkeep ran themselves after the production; a trade since
            played("mgc-upkeep", start, *grants, *market, (m, "produce", "--save"),
                   (m, "spoilage", "--save"), (m, "upkeep", "--save"),
                   (m, "trade", "smithore")),
            played("mgc-traded", start, *grants, *market, (m, "produce", "--save"),
                   (m, "spoilage", "--save"), (m, "upkeep", "--save"),
                   (m, "trade", "food", "--sell", "Bob=1"), (m, "reshuffle"),
                   (m, "reshuffle"), (m, "end-turn")),      # the game is over
        ]
    return _cache["mgc"]


PLAYERS = words("Ann", "Bob", "Cid")
LANDS = words("Sunny Flats", "sunny-flats", "river-bottom", "foothills", "grassy-plains",
              "high-mountains", "land/foothills")
MULES = words("energy", "food", "smithore", "crystite", "Food Mule")
RESOURCES = ("smithore", "crystite", "food", "energy")
MGC = {
    "favored": command("mule-goes-crazy", "favored", "--save",
                       opts=options(previous=PLAYERS)),
    "auction": command("mule-goes-crazy", "auction", LANDS,
                       opts=options(winner=PLAYERS, price=NUMBERS), flags=("--unsold",)),
    "grant": command("mule-goes-crazy", "grant", PLAYERS, LANDS),
    "buy": command("mule-goes-crazy", "buy", PLAYERS, MULES),
    "move": command("mule-goes-crazy", "move", PLAYERS, MULES, LANDS,
                    opts=options(from_=LANDS)),
    "population": command("mule-goes-crazy", "population",
                          words("colonists", "miners", "population/colonists"),
                          opts=options(facility=words("energy", "food"), player=PLAYERS)),
    "produce": command("mule-goes-crazy", "produce", "--save",
                       opts=options(player=PLAYERS,
                                    rolls=st.lists(NUMBERS, max_size=4).map(",".join))),
    "spoilage": command("mule-goes-crazy", "spoilage", "--save"),
    "upkeep": command("mule-goes-crazy", "upkeep", "--save"),
    "end-turn": command("mule-goes-crazy", "end-turn"),
    "done": command("mule-goes-crazy", "done", PLAYERS),
    "event": command("mule-goes-crazy", "event", PLAYERS,
                     words("sunspots", "pests", "radiation-storm", "Acid Rain", "supply-ship"),
                     opts=options(target=PLAYERS, mule=LANDS, kick=PLAYERS)),
    "interrupt": command("mule-goes-crazy", "interrupt", PLAYERS,
                         words("lose-money-gambling", "mule-kick", "pirate-raid",
                               "lucky-strike", "paperwork"), opts=options(target=PLAYERS)),
    "upgrade": command("mule-goes-crazy", "upgrade", PLAYERS,
                       words("irrigation", "solar-panels", "deep-drill", "photosynthesis"),
                       opts=options(on=LANDS)),
    "facility": command("mule-goes-crazy", "facility", PLAYERS,
                        words("solar-farm", "mining-outpost", "hydroponic-gardens")),
    "trade": command("mule-goes-crazy", "trade", words(*RESOURCES),
                     opts=options(sell=st.tuples(PLAYERS, NUMBERS).map("=".join),
                                  buy=st.tuples(PLAYERS, NUMBERS).map("=".join),
                                  deal=st.tuples(PLAYERS, PLAYERS, NUMBERS, NUMBERS).map(
                                      lambda t: f"{t[0]}>{t[1]} {t[2]}@{t[3]}"))),
    "reshuffle": command("mule-goes-crazy", "reshuffle"),
    "discard-upgrade": command("mule-goes-crazy", "discard-upgrade", PLAYERS,
                               opts=options(on=LANDS), flags=("--mule",)),
    "move-population": command("mule-goes-crazy", "move-population",
                               words("colonists", "miners"),
                               opts=options(to=words("solar-farm", "mining-outpost", "none"),
                                            for_=st.lists(PLAYERS, max_size=3).map(
                                                ",".join))),
    "auction-bids": command("mule-goes-crazy", "auction", LANDS,
                            opts=options(bid=st.tuples(PLAYERS, words("200", "250", "pass",
                                                                      "9999", "x")).map(
                                "=".join))),
}


@pytest.mark.parametrize("kind", sorted(MGC))
@PROPERTY
@given(data=st.data())
def test_a_refused_mule_goes_crazy_entry_changes_nothing(kind: str, data: st.DataObject
                                                         ) -> None:
    refused_everywhere(mgc_states, MGC[kind], data)


@pytest.mark.parametrize("state, args, why", [
    (0, ["mule-goes-crazy", "favored", "--save", "--previous", "Zed"],
     "--previous is for the calculator"),
    (1, ["mule-goes-crazy", "favored", "--save"], "the favored player of turn 1 is"),
    (1, ["mule-goes-crazy", "auction", "high-mountains", "--unsold"],
     "the Player Turns of turn 1 have begun"),
    (0, ["mule-goes-crazy", "grant", "Ann", "foothills"], "Ann has laid down a Land Grant"),
    (0, ["mule-goes-crazy", "buy", "Zed", "energy"], "no player 'Zed'"),
    (1, ["mule-goes-crazy", "move", "Ann", "energy", "river-bottom"],
     "Ann holds no River Bottom"),
    (0, ["mule-goes-crazy", "population", "dragons"], "no population card 'dragons'"),
    (2, ["mule-goes-crazy", "produce", "--save"], "every player has produced this turn"),
    (3, ["mule-goes-crazy", "spoilage", "--save"], "spoilage has been counted in turn 1"),
    (3, ["mule-goes-crazy", "upkeep", "--save"], "the upkeep of turn 1 has been paid already"),
    (0, ["mule-goes-crazy", "end-turn"], "turn 1 has not had its production"),
    (1, ["mule-goes-crazy", "done", "Bob"], "Bob's turn is over"),
    (1, ["mule-goes-crazy", "event", "Cid", "pests", "--target", "Ann"], "Cid's turn is over"),
    (1, ["mule-goes-crazy", "interrupt", "Bob", "mule-kick"], "record it with that Event"),
    (1, ["mule-goes-crazy", "upgrade", "Ann", "deep-drill", "--on", "sunny-flats"],
     "costs 5 Smithore"),
    (1, ["mule-goes-crazy", "facility", "Ann", "mining-outpost"],
     "Ann has played an Event card this turn already"),
    (3, ["mule-goes-crazy", "trade", "food", "--buy", "Ann=99"], "cannot sell 99"),
    (4, ["mule-goes-crazy", "reshuffle"], "the game is over"),
    (1, ["mule-goes-crazy", "discard-upgrade", "Ann", "--on", "sunny-flats"],
     "Ann's Sunny Flats holds no Upgrade"),
    (1, ["mule-goes-crazy", "move-population", "colonists", "--to", "none", "--for", "Ann"],
     "no Colonists Population card is in play to move"),
    (0, ["mule-goes-crazy", "auction", "foothills", "--bid", "Ann=200", "--bid", "Bob=pass"],
     "the favored player bids first: record the Favored Player first"),
], ids=["favored", "favored-twice", "auction", "grant", "buy", "move", "population", "produce",
        "spoilage",
        "upkeep", "end-turn", "done", "event", "interrupt", "upgrade", "facility", "trade",
        "reshuffle", "discard-upgrade", "move-population", "auction-bids"])
def test_mule_goes_crazy_entries_the_rules_refuse_change_nothing(state: int, args: list[str],
                                                                 why: str) -> None:
    assert why in str(check_refusal(mgc_states()[state], args))


# -- M.U.L.E. -------------------------------------------------------------------------------

MULE_SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "mule" / "tournament-turn-1.txt"


def mule_states() -> list[bytes]:
    """A 4-player Tournament game (seed 3) at each step of its Turn 1 worth refusing entries
    in: Land Grant, the Land Auctions, Development, Production and the Market."""
    if "mule" not in _cache:
        import shlex

        turn = [("mule", *shlex.split(line)) for line in
                MULE_SCRIPT.read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.startswith("#")]
        start = ("mule", "new", "--players", "Ann,Bob,Cid,Dee", "--tournament", "--seed", "3")
        # the script's lines: grant, auction x2, package, develop x3, produce, trade x3, ...
        _cache["mule"] = [played("mule-grant", start),
                          played("mule-auction", start, *turn[:1]),
                          played("mule-development", start, *turn[:4]),
                          played("mule-production", start, *turn[:7]),
                          played("mule-market", start, *turn[:8])]
    return _cache["mule"]


COLONISTS = words("Ann", "Bob", "Cid", "Dee")
TILES = words("P07", "P13", "R01", "R04", "H03", "P99", "F", "E")
SQUARES = words("A1", "B2", "B3", "C1", "E3", "E9", "Z1")
CLAIMS = st.one_of(st.tuples(TILES, SQUARES).map("@".join), words("none", "P13@B3"))
GOODS = words("smithore", "crystite", "food", "energy", "gold")
CARDS = words("Acid Rain Storm!", "PR01", "PR24", "PR99", "The Ship is Back!", "LE09",
              "Land Tax!", "HC03", "x")
MULE_PAIRS = st.tuples(COLONISTS, NUMBERS).map("=".join)
MULE = {
    "grant": command("mule", "grant", st.one_of(
        st.tuples(COLONISTS, CLAIMS).map(list),
        st.lists(st.tuples(COLONISTS, CLAIMS).map("=".join), min_size=1, max_size=3))),
    "auction": command("mule", "auction", words("Dee", "Ann", "none", "Zed"), st.one_of(
        st.tuples(TILES).map(list), st.tuples(TILES, st.just("secret")).map(list),
        st.tuples(COLONISTS, NUMBERS, CLAIMS).map(list), st.just(["none"]), st.just([])),
        opts=options(bids=st.one_of(st.lists(words("raise", "out"), max_size=4).map(" ".join),
                                    st.lists(MULE_PAIRS, max_size=3).map(",".join)),
                     square=SQUARES)),
    "package": command("mule", "package", st.one_of(
        st.lists(st.tuples(COLONISTS, words("food", "energy", "HC03", "HC99")).map("=".join),
                 max_size=3).map(",".join), st.just("none"))),
    "develop": command("mule", "develop", COLONISTS, st.lists(
        st.sampled_from(["buy R04 F", "buy P07 E", "assay", "pub", "wampus yes", "pass",
                         "move R04 P04", "refit R04 E P04 F", "buy Z9 F", "fly"]),
        min_size=1, max_size=3).map(", ".join)),
    "reveal": command("mule", "reveal", CARDS, opts=options(price=NUMBERS)),
    "usage": command("mule", "usage"),
    "produce": command("mule", "produce", CARDS, opts=options(
        price=NUMBERS, flip=st.tuples(COLONISTS, TILES).map("=".join),
        hit=st.tuples(COLONISTS, TILES).map("=".join),
        lands=st.tuples(COLONISTS, SQUARES).map("=".join),
        craters=words("red,blue", "white", "beside", "green"))),
    "pricing": command("mule", "pricing"),
    "trade": command("mule", "trade", GOODS, opts=options(
        sell=MULE_PAIRS, buy=MULE_PAIRS,
        deal=st.tuples(COLONISTS, COLONISTS, NUMBERS, NUMBERS).map(
            lambda t: f"{t[0]}>{t[1]} {t[2]}@{t[3]}"),
        declare=st.tuples(COLONISTS, words("B", "S", "X")).map("=".join),
        offer=st.tuples(COLONISTS, words("buys", "sells"), NUMBERS, NUMBERS).map(
            lambda t: f"{t[0]} {t[1]} {t[2]}@{t[3]}"))),
    "sellout": command("mule", "final-market"),
    "ranking": command("mule", "ranking"),
    "lucky": command("mule", "lucky", COLONISTS, CARDS, opts=options(to=COLONISTS)),
    "unlucky": command("mule", "unlucky", COLONISTS, CARDS, opts=options(to=COLONISTS)),
    "end": command("mule", "end"),
}
MULE_PROPERTY = settings(PROPERTY, max_examples=10)
"""Fewer examples than the other games': a M.U.L.E. entry reads more rule data."""


MULE_AT = {"grant": 0, "auction": 1, "package": 2, "develop": 2, "reveal": 2, "usage": 2,
           "produce": 3, "pricing": 3, "trade": 4, "sellout": 4}
"""The position (of :func:`mule_states`) where a kind's step is near: most of its entries are
typed there, so the rules of the step itself refuse them, not only its turn."""


@pytest.mark.parametrize("kind", sorted(MULE))
@MULE_PROPERTY
@given(data=st.data())
def test_a_refused_mule_entry_changes_nothing(kind: str, data: st.DataObject) -> None:
    states = mule_states()
    near = MULE_AT.get(kind)
    at = st.sampled_from(range(len(states))) if near is None else \
        st.one_of(st.just(near), st.just(near), st.sampled_from(range(len(states))))
    args = data.draw(MULE[kind], label="entry")
    state = states[data.draw(at, label="state")]
    event("accepted" if check_refusal(state, args) is None else "refused")
    event(LAST[0].strip()[:90])


@pytest.mark.parametrize("state, args, why", [
    (0, ["mule", "grant", "Bob", "P99@B1"], "no Land tile 'P99'"),
    (0, ["mule", "grant", "Bob", "R01@E9"], "a square is A1 to E3"),
    (0, ["mule", "grant", "Zed", "R01@C1"], "'Zed' is not a player in this game"),
    (0, ["mule", "grant", "Bob=R01@C1", "Cid=R01@C3"], "already on Bob's Player Board"),
    (0, ["mule", "auction", "Dee", "Ann", "10", "P13@B3"], "it is not the time for 'auction'"),
    (1, ["mule", "auction", "Dee", "Ann", "5", "P13@B3"], "the opening bid is exactly $8"),
    (1, ["mule", "auction", "Dee", "P13", "--bids", "raise out", "--square", "B3"],
     "the Auction of P13 is not over"),
    (1, ["mule", "auction", "Zed", "none"], "'Zed' is not a player in this game"),
    (2, ["mule", "package", "Bob=food"], "it is not the time for 'package'"),
    (2, ["mule", "develop", "Dee", "buy P07 F"], "'P07' is not one of this Colonist's Lands"),
    (2, ["mule", "reveal", "Acid Rain Storm!"], "it is not the time for 'reveal'"),
    (2, ["mule", "usage"], "it is not the time for 'usage'"),
    (3, ["mule", "produce", "No Such Card"], "no Production Card 'No Such Card'"),
    (3, ["mule", "pricing"], "it is not the time for 'pricing'"),
    (4, ["mule", "trade", "crystite", "--buy", "Dee=1"], "it is not crystite's turn"),
    (4, ["mule", "trade", "smithore", "--sell", "Ann=9"], "no Colonist holds Smithore"),
    (4, ["mule", "trade", "gold"], "unknown good 'gold'"),
    (4, ["mule", "final-market"], "it is not the time for 'final-market'"),
    (4, ["mule", "ranking"], "it is not the time for 'ranking'"),
    (4, ["mule", "lucky", "Cid", "LE09", "--to", "Dee"], "it is not the time for 'lucky'"),
    (4, ["mule", "unlucky", "Dee", "Land Tax!", "--to", "Ann"],
     "it is not the time for 'unlucky'"),
    (4, ["mule", "end"], "it is not the time for 'end'"),
], ids=["grant-tile", "grant-square", "grant-player", "grant-twice", "auction-early",
        "auction-bid", "auction-open", "auction-player", "package", "develop", "reveal",
        "usage", "produce", "pricing", "trade-turn", "trade-nobody", "trade-good",
        "final-market", "ranking", "lucky", "unlucky", "end"])
def test_mule_entries_the_rules_refuse_change_nothing(state: int, args: list[str], why: str
                                                      ) -> None:
    assert why in str(check_refusal(mule_states()[state], args))
