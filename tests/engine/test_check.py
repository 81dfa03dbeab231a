"""`irata check` misses nothing: each slip is one line on stderr, FILE:LINE:COL, a suggestion,
exit code 2; and what the format allows (fields from defaults, with:, repeat, rule data) passes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from components import load_path
from components.errors import DefinitionError
from components.facecheck import check_faces
from irata.cli import main


def check(deck_dir: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``irata check --components DECK`` in this process: exit code, stdout, stderr."""
    with pytest.raises(SystemExit) as done:
        main(["check", "--components", str(deck_dir)])
    out = capsys.readouterr()
    return int(done.value.code or 0), out.out, out.err


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def where(path: Path, needle: str) -> str:
    """``FILE:LINE:COL`` of the first occurrence of ``needle`` (the key it starts with)."""
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if needle in line:
            return f"{path.name}:{n}:{line.index(needle) + 1}"
    raise AssertionError(needle)


TITLE = '{type: text, text: "${title}", x: 5, y: 4,'
BODY = '{type: text, text: "${text}", x: 5, y: 20,'


@pytest.mark.parametrize(("old", "new", "at", "words"), [
    (TITLE, TITLE.replace("x: 5", "align: centre, x: 5"), "align: centre",
     "unknown align 'centre' in a text element (expected one of: left, center, right, start, "
     "end; "
     "did you mean 'center'?)"),
    (BODY, BODY.replace("x: 5", "valign: center, x: 5"), "valign: center",
     "unknown valign 'center' in a text element (expected one of: top, middle, bottom; "
     "did you mean 'middle'?)"),
    (TITLE, TITLE.replace("x: 5", "colour: white, x: 5"), "colour: white",
     "unknown key 'colour' in a text element (the key is spelt 'color'; did you mean 'color'?)"),
    ("${title}", "${titel}", 'text: "${titel}"',
     "component 'card/alpha' (front) has no field 'titel'; did you mean 'title'?"),
    ('text: "${title}"', 'text: "$title"', 'text: "$title"',
     "'$title' is not a field reference: fields are written ${name}, so write \"${title}\""),
    ('text: "${title}"', 'text: "$titel"', 'text: "$titel"',
     "'$titel' is not a field reference: fields are written ${name}, so write \"${titel}\"; "
     "and component 'card/alpha' (front) has no field 'titel'; did you mean 'title'?"),
    ('text: "${title}"', "field: title", "field: title",
     'a text element reads a field as text: "${title}"'),
    ("font: bold, color: white", "font: bld, color: white", "font: bld",
     "unknown font 'bld' (expected body, bold, italic, a name under fonts: in game.yaml, or a "
     "standard PDF font; did you mean 'bold'?)"),
    ("when: food}", "when: $food}", "when: $food", "when: names a field: write 'when: food'"),
])
def test_check_refuses_a_slip_with_where_and_a_suggestion(
        deck_dir: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, at: str,
        words: str) -> None:
    cards = deck_dir / "cards.yaml"
    edit(cards, old, new)
    code, out, err = check(deck_dir, capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"error: {cards}:{where(cards, at).split(':', 1)[1]}: ")
    assert words in lines[0]


def test_a_field_a_face_reads_may_come_from_defaults_with_or_the_rule_data(
        deck_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cards = deck_dir / "cards.yaml"
    edit(cards, "  back: card-back\n", "  back: card-back\n  corner: \"${data.costs.base}\"\n")
    edit(cards, "layouts:\n", "data:\n  costs: {base: 3}\nlayouts:\n  corner:\n"
         "    - {type: text, text: \"${mark} ${shown}\", x: 2, y: 80, w: 20, h: 5}\n")
    edit(cards, "when: food}", "when: food}\n    - {type: use, layout: corner, "
         "with: {mark: \"${corner}\", shown: \"${data.costs.base + 1}\"}}")
    code, out, err = check(deck_dir, capsys)
    assert code == 0, err
    edit(cards, "${data.costs.base + 1}", "${data.cost.base + 1}")
    code, out, err = check(deck_dir, capsys)
    assert code == 2
    assert f"{where(cards, 'with: {mark')}: component 'card/alpha' (front) has no field " \
           "'data.cost.base'; did you mean 'data.costs'?" in err


def test_a_field_only_some_components_have_prints_nothing_for_the_others(
        deck_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cards = deck_dir / "cards.yaml"
    edit(cards, '{type: icon, name: food, x: 5, y: 75, size: 6, when: food}',
         '{type: text, text: "${flavour}", x: 5, y: 75, w: 30, h: 5}')
    edit(cards, 'title: Beta,', 'title: Beta, flavour: "Quiet.",')
    code, _, err = check(deck_dir, capsys)
    assert code == 0, err
    game = load_path(deck_dir)
    assert game.component("card/beta").fields["flavour"] == "Quiet."


def test_a_reference_inside_a_fields_own_text_is_checked(deck_dir: Path) -> None:
    edit(deck_dir / "cards.yaml", 'text: "Sixth."', 'text: "Sixth: ${titl}."')
    with pytest.raises(DefinitionError) as exc:
        check_faces(load_path(deck_dir))
    assert "component 'card/zeta' (front) has no field 'titl' (in the text of a field it " \
           "prints); did you mean 'title'?" in str(exc.value)


def test_a_field_that_gives_an_enumerated_word_is_checked_too(deck_dir: Path) -> None:
    cards = deck_dir / "cards.yaml"
    edit(cards, TITLE, TITLE.replace("x: 5", 'align: "${side}", x: 5'))
    edit(cards, "  back: card-back\n", "  back: card-back\n  side: right\n")
    check_faces(load_path(deck_dir))
    edit(cards, "side: right", "side: rigth")
    with pytest.raises(DefinitionError) as exc:
        check_faces(load_path(deck_dir))
    assert "unknown align 'rigth' for component 'card/alpha' (front) (expected one of: left, " \
           "center, right, start, end; did you mean 'right'?)" in str(exc.value)
    assert exc.value.line is not None and exc.value.col is not None


def test_bundled_games_have_no_field_a_face_cannot_find() -> None:
    import components

    for name in components.list_games():
        check_faces(components.load(name))
        check_faces(components.load(name, errata=False))


def test_print_refuses_what_check_refuses(deck_dir: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    edit(deck_dir / "cards.yaml", "${title}", "${titel}")
    with pytest.raises(SystemExit) as done:
        main(["print", "--components", str(deck_dir), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert done.value.code == 2 and "has no field 'titel'; did you mean 'title'?" in err
    assert not list((tmp_path / "out").rglob("*.pdf"))


def test_any_angle_is_drawn_as_given_in_both_backends(deck_dir: Path, tmp_path: Path) -> None:
    from generator.build import BuildOptions, build
    from generator.layout import Settings

    edit(deck_dir / "cards.yaml", "size: 14, font: bold, color: white, align: center}",
         "size: 14, font: bold, color: white, align: center, rotate: 45}")
    build(load_path(deck_dir), BuildOptions(Settings(), ("svg", "pdf"), tmp_path, False))
    svgs = "".join(p.read_text() for p in tmp_path.rglob("*.svg"))
    assert re.search(r"rotate\(45(\.0+)?\)", svgs)
    import pymupdf

    doc = pymupdf.open(next(tmp_path.rglob("*.pdf")))
    turned = [line["dir"] for page in doc for block in page.get_text("dict")["blocks"]
              for line in block.get("lines", []) if "TEST" in "".join(
                  span["text"] for span in line["spans"])]
    assert turned and all(abs(abs(dx) - 0.7071) < 0.01 and abs(abs(dy) - 0.7071) < 0.01
                          for dx, dy in turned)


@pytest.mark.parametrize(("args", "words"), [
    (["print", "deck", "--duplex", "lon"], "not one of 'long', 'short', 'fold', 'none'; did you "
     "mean 'long'? (see 'irata print --help')"),
    (["print", "deck", "--paper", "leter"], "did you mean 'letter'?"),
])
def test_a_command_line_choice_is_answered_with_a_did_you_mean(
        capsys: pytest.CaptureFixture[str], args: list[str], words: str) -> None:
    with pytest.raises(SystemExit) as done:
        main(args)
    err = capsys.readouterr().err.strip()
    assert done.value.code == 2 and len(err.splitlines()) == 1
    assert err.startswith("error: ") and words in err


def test_text_repeats_an_icon_as_often_as_a_field_says(deck_dir: Path) -> None:
    from generator.draw import Options, draw_component
    from generator.drawing import Icon, walk

    edit(deck_dir / "cards.yaml", 'text: "Fifth."', 'text: "Fifth: {dot*${pips}}", pips: 3')
    game = load_path(deck_dir)
    face = draw_component(game, game.component("card/epsilon"), Options()).front
    assert [p.name for p in walk(face.items) if isinstance(p, Icon)] == ["dot"] * 3


@pytest.mark.parametrize(("layout", "words"), [
    ('[{type: repeat, over: 1500, as: a, layout: inner}]\n  inner:\n'
     '    - {type: repeat, over: 1500, as: b, layout: dot}\n  dot:\n'
     '    - {type: rect, x: 0, y: 0, w: 1, h: 1}', "repeats more than 2000 copies on one face"),
    ('[{type: text, text: "${1000000 * 1000000}", x: 0, y: 0, w: 10, h: 5}]',
     "comes to a number too large to draw"),
    ('[{type: text, text: "${title / 2}", x: 0, y: 0, w: 10, h: 5}]',
     "'title' is not a number, so it cannot be counted with"),
    ('[{type: repeat, over: "${title}", layout: card-back}]',
     "repeat needs a list, a mapping or a whole number to go over, not 'Alpha'"),
])
def test_a_face_that_would_not_end_or_not_add_up_is_refused(
        deck_dir: Path, capsys: pytest.CaptureFixture[str], layout: str, words: str) -> None:
    cards = deck_dir / "cards.yaml"
    edit(cards, "layouts:\n", f"layouts:\n  extra: {layout}\n")
    edit(cards, "when: food}", "when: food}\n    - {type: use, layout: extra}")
    code, _, err = check(deck_dir, capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert f"{cards}:" in err and words in err


def test_a_name_a_with_binds_is_read_strictly_only_where_it_is_bound(
        deck_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cards = deck_dir / "cards.yaml"
    # 'note' is a field only card/beta has: optional on the card itself...
    edit(cards, 'title: Beta,', 'title: Beta, note: "Quiet.",')
    edit(cards, "layouts:\n", "layouts:\n  badge:\n"
         "    - {type: text, text: \"${label} ${note}\", x: 2, y: 80, w: 30, h: 5}\n")
    edit(cards, "when: food}", "when: food}\n"
         "    - {type: use, layout: badge, with: {label: \"${title}\"}}\n"
         "    - {type: text, text: \"${note}\", x: 2, y: 70, w: 30, h: 5}")
    code, _, err = check(deck_dir, capsys)
    assert code == 0, err
    # ...but a name the with: sets must be given there
    edit(cards, 'with: {label: "${title}"}', 'with: {lable: "${title}"}')
    code, _, err = check(deck_dir, capsys)
    assert code == 2 and "has no field 'label'; did you mean 'lable'?" in err


def test_a_fields_own_words_may_hold_a_dollar_sign(deck_dir: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    cards = deck_dir / "cards.yaml"
    edit(cards, 'text: "Sixth."', 'text: "Pay $N, or $5."')
    assert check(deck_dir, capsys)[0] == 0
    edit(cards, 'text: "Pay $N, or $5."', 'text: "Pay $title."')   # but not name a field so
    code, _, err = check(deck_dir, capsys)
    assert code == 2 and "'$title' is not a field reference (in the text of a field it " \
                         "prints)" in err


def test_a_colour_is_checked_with_a_did_you_mean(deck_dir: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    cards = deck_dir / "cards.yaml"
    edit(cards, "fill: accent, radius: 2}", "fill: acent, radius: 2}")
    code, _, err = check(deck_dir, capsys)
    assert code == 2
    assert f"{where(cards, 'fill: acent')}: unknown colour 'acent' for component " \
           "'card/alpha' (front)" in err and "did you mean 'accent'?" in err
