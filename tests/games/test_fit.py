"""Pieces fit the printed spaces the rulebooks put them on.

Every piece a rulebook moves along a track or stands on a space declares that space
(``sits_on``), and each is measured from the definitions against it: 1 mm clear on every side
at least, the piece turned the better way. ``irata check`` refuses a piece that does not fit,
with both sizes, and a hostile ``sits_on`` is one located error line, never a traceback.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from components import bundled_root, load, load_path
from components.errors import DefinitionError
from components.fit import CLEARANCE, Footprint, Space, fit_table, fits
from irata.cli import main

# (game, inventory group): the space the rulebook puts every piece of the group on
RULEBOOK_SPACES: dict[tuple[str, str], set[str]] = {
    # Mutagen, Setup 10 and Element Track Location: trackers on the Element tracks
    ("mutagen", "Element tracker tokens"): {"board:element-track"},
    # Setup B and D: the score track and the progress track
    ("mutagen", "Score tracker tokens"): {"board:score-track"},
    ("mutagen", "Progress tracker tokens"): {"board:progress-track"},
    ("mutagen", "Round tracker token"): {"board:round-track"},
    # Setup 6: a Bonus token on each Bonus space of the progress track
    ("mutagen", "Bonus tokens"): {"board:bonus"},
    # Worker placement: one Worker a Worker space (the Palace Visitors' Palace has four);
    # the Airship holds them between rounds
    ("mutagen", "Workers"): {"board:worker", "airship/red:worker", "palace:worker"},
    # M.U.L.E., Set-up 5: a marker at the bottom of each lane of the Price Track
    ("mule", "Price markers"): {"board/game-board:price-step"},
    # Market: the Auction Tracker on the area below the Price Track
    ("mule", "Auction Tracker"): {"board/game-board:auction"},
    # M.U.L.E. Production in The Store: M.U.L.E.s wait in the Corral
    ("mule", "1-Smithore/M.U.L.E. Counters"): {"board/game-board:corral"},
    # Lands: set up on Planet Irata, claimed onto a square of a Player Board
    **{("mule", f"{t} Tiles"): {"board/game-board:planet", "board/player-1:square"}
       for t in ("River", "Plains", "Low Mountain", "High Mountain", "Meteor Crater")},
    # Das Störrische Muli: the Mules and the runners race along the track's fields
    ("muli", "Mules"): {"board:field"},
    ("muli", "Human Runners"): {"board:field"},
    # Outer Earth: whoever buys a planet moves the meeple to their tracker space
    ("outer-earth", "Starting Player Tracker and Meeple"): {"tracker/starting-player:company"},
}
# pieces of a group that go on no printed space (the tracker the meeple sits on)
PLACES = {"tracker/starting-player"}


def declared(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    assert isinstance(value, list)
    return {str(v) for v in value}


@pytest.mark.parametrize("case", sorted(RULEBOOK_SPACES), ids=lambda c: f"{c[0]}-{c[1]}")
def test_every_piece_declares_the_space_the_rulebook_puts_it_on(case: tuple[str, str]) -> None:
    game = load(case[0])
    pieces = [c for c in game.by_group(case[1]) if c.id not in PLACES]
    assert pieces, case
    for comp in pieces:
        assert declared(comp.raw.get("sits_on")) == RULEBOOK_SPACES[case], comp.id


@pytest.mark.parametrize("key", ["mutagen", "mule", "muli", "outer-earth"])
def test_every_piece_fits_its_space_with_a_finger_hold(key: str) -> None:
    rows = fit_table(load(key))
    groups = {comp.group for comp, _, _, _ in rows}
    assert groups == {g for k, g in RULEBOOK_SPACES if k == key}
    for comp, piece, space, clear in rows:
        assert clear >= CLEARANCE - 1e-9, (comp.id, piece, space)
        # and the piece does not reach a neighbouring space: it lies inside its own
        assert min(piece.w, piece.h) <= min(space.w, space.h) - 2 * CLEARANCE + 1e-9


def test_the_element_track_now_holds_a_tracker() -> None:
    rows = [r for r in fit_table(load("mutagen")) if r[0].id == "token/element-tracker-red"]
    assert {(s.w, s.h) for _, _, s, _ in rows} == {(11.0, 8.5)}
    assert {(p.w, p.h) for _, p, _, _ in rows} == {(9.0, 6.5)}


def test_fits_measures_round_and_square_both_ways() -> None:
    cell = Space("cell", 11, 6.5, False, "board")
    assert not fits(Footprint(16, 16, True), cell)
    assert fits(Footprint(4.5, 9, False), cell)  # turned a quarter
    assert not fits(Footprint(9.5, 4.5, False), cell)  # 0.75 mm at the ends
    ring = Space("bonus", 21, 21, True, "board")
    assert fits(Footprint(19, 19, True), ring)
    assert not fits(Footprint(14, 14, False), ring)  # its corners reach past the circle


WORKERS_SITS_ON = '  sits_on: ["board:worker", "airship/red:worker", "palace:worker"]'


def mutagen_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "mutagen"
    shutil.copytree(bundled_root() / "mutagen", dest)
    return dest


def run_check(folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with pytest.raises(SystemExit) as done:
        main(["check", "--components", str(folder)])
    return int(done.value.code or 0), capsys.readouterr().err


def test_check_refuses_a_16_mm_tracker_on_a_6_5_mm_track(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = mutagen_copy(tmp_path)
    board = folder / "boards" / "board.yaml"
    board.write_text(board.read_text().replace("cell_w: 11, cell_h: 8.5", "cell_w: 11, "
                                               "cell_h: 6.5"))
    tokens = folder / "tokens.yaml"
    text = tokens.read_text()
    old = ('{id: "token/element-tracker-red", group: "Element tracker tokens", size: [9, 6.5], '
           'shape: square,')
    assert old in text
    tokens.write_text(text.replace(old, '{id: "token/element-tracker-red", group: "Element '
                                        'tracker tokens", size: "token-16", shape: round,'))
    code, err = run_check(folder, capsys)
    assert code == 2
    line = next(n for n, t in enumerate(tokens.read_text().splitlines(), 1)
                if "element-tracker-red" in t)
    assert err.startswith(f"error: {tokens}:{line}:") or f"tokens.yaml:{line}:" in err
    assert "'token/element-tracker-red'" in err
    assert "16 x 16 mm" in err and "11 x 6.5 mm" in err and "element-track" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_check_passes_the_bundled_games_with_their_fits(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["check"])
    assert not done.value.code
    assert "mutagen: ok" in capsys.readouterr().out


@pytest.mark.parametrize(("value", "words"), [
    ('"board:nowhere"', "names space 'nowhere' of 'board'"),
    ('"bord:worker"', "names 'bord', which is not a component of the game; did you mean "
                      "'board'?"),
    ('"board"', 'sits_on must be "BOARD_ID:SPACE"'),
    ("[12]", "sits_on as a size must be [w, h]"),
    ("[0, 5]", "sits_on as a size must be [w, h]"),
    ("[]", "sits_on names no space"),
    ("[10, 10]", "does not fit the 10 x 10 mm space"),
])
def test_a_mistaken_sits_on_is_one_located_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, words: str) -> None:
    folder = mutagen_copy(tmp_path)
    workers = folder / "workers.yaml"
    text = workers.read_text()
    assert WORKERS_SITS_ON in text
    workers.write_text(text.replace(WORKERS_SITS_ON, f"  sits_on: {value}"))
    code, err = run_check(folder, capsys)
    assert code == 2, err
    assert words in err and "workers.yaml:" in err, err
    assert len(err.strip().splitlines()) == 1


SAFE = st.text(st.characters(min_codepoint=32, max_codepoint=126, exclude_characters='"\\'),
               max_size=30)
VALUES = st.one_of(
    SAFE.map(lambda s: f'"{s}"'),
    st.lists(st.floats(allow_nan=True, allow_infinity=True, width=32), max_size=3).map(
        lambda v: "[" + ", ".join(repr(x).replace("inf", ".inf").replace("nan", ".nan")
                                  for x in v) + "]"),
    st.lists(SAFE.map(lambda s: f'"{s}"'), max_size=3).map(lambda v: "[" + ", ".join(v) + "]"),
    st.sampled_from(["true", "null", "{a: 1}", "5", '"board:worker"', '"board:bonus"']),
)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=VALUES)
def test_any_sits_on_is_refused_or_passed_never_a_traceback(
        tmp_path_factory: pytest.TempPathFactory, value: str) -> None:
    folder = tmp_path_factory.mktemp("fuzz") / "mutagen"
    shutil.copytree(bundled_root() / "mutagen", folder)
    workers = folder / "workers.yaml"
    text = workers.read_text()
    assert WORKERS_SITS_ON in text
    workers.write_text(text.replace(WORKERS_SITS_ON, f"  sits_on: {value}"))
    try:
        load_path(folder)
    except DefinitionError as e:
        assert str(e) and "\n" not in str(e)
