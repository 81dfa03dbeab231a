"""Line breaking in Chinese, Japanese and Korean text, as a reader of each expects on a
printed card: Japanese and Chinese break between characters but never put closing marks,
small kana, the prolonged sound mark or iteration marks at a line's start, nor an opening
bracket at its end (kinsoku shori); Latin words and numbers inside them stay whole; Korean
breaks at spaces; Latin text breaks at spaces only, as it always has.

Widths are counted in characters: the test font gives every glyph the same advance (0.6 em),
so a box N characters wide holds exactly N characters at 10 pt.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from components import load_path
from generator import text as t
from generator.drawing import PT, Text, walk

JAPANESE = [
    "「ミュール」を買って、土地に置きます。",
    "ちょっと待ってください。ショップでエネルギーを買いましょう！",
    "各々のプレイヤーは、食料・エネルギー・スミチオンを生産する。",
    "ゝゞヽヾの後、『ゲーム』は終わりです（次のラウンドへ）。",
    "ファッションショーでジャッキーがミュールを選んだ。",
]
CHINESE = [
    "中文（测试）：你好，世界！每个玩家购买一头骡子。",
    "在商店里购买能源；然后，把骡子放在你的土地上。",
    "「骡子」是一种動物，【重要】不要忘记！",
]
MIXED = [
    "今日はM.U.L.E.で遊ぶ。",
    "価格は100円です。エネルギーは3.5単位。",
    "プレイヤーはM.U.L.E.を2頭まで買えます（最大100）。",
]
KOREAN = ["한국어 문장은 띄어쓰기로 나눕니다", "각 플레이어는 뮬을 한 마리 삽니다."]
ALL = JAPANESE + CHINESE + MIXED + KOREAN

NO_START = set("）〕］｝〉》」』】〙〗〟’”｠»)]}"
               "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
               "ー々ゝゞヽヾ〻・･："
               "、。，．：；！？，．：；！？ﾟﾞ‼⁇⁈⁉゠–〜")
NO_END = set("「『（【〔［｛〈《〘〖〝‘“｟«([{")
LATIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,-/!?'"

FONT = "CJKTestMono"


@pytest.fixture
def font(font_maker: Callable[..., Path], tmp_path: Path) -> tuple[str, str]:
    path = font_maker(tmp_path / "mono.ttf",
                      "".join(ALL) + LATIN + "".join(NO_START | NO_END) + "太字", cff=False)
    pdfmetrics.registerFont(TTFont(FONT, str(path)))
    return (FONT, FONT)


def box(chars: float) -> float:
    """The width, in mm, of ``chars`` of the test font's glyphs at 10 pt."""
    return chars * 0.6 * 10 * PT + 1e-3


def lines_of(text: str, chars: float, fonts: tuple[str, str]) -> tuple[list[str], bool]:
    """The lines ``text`` wraps to in a box ``chars`` wide (10 pt, no shrinking)."""
    size, lines, fit = t.fit(text, fonts, frozenset(), box(chars), 1000, 10, 10, 1.2)
    for line in lines:
        assert t.line_width(line, fonts, size) <= box(chars) or len(line) == 1
    return ["".join(p.text for p in line) for line in lines], fit.fits


@pytest.mark.parametrize("text", ALL)
def test_no_line_starts_or_ends_with_a_forbidden_mark_at_any_width(
        font: tuple[str, str], text: str) -> None:
    for chars in range(4, 30):
        lines, fits = lines_of(text, chars, font)
        assert "".join(lines).replace(" ", "") == text.replace(" ", ""), lines  # none lost
        for k, line in enumerate(lines):
            assert line, lines
            if k:
                assert line[0] not in NO_START, (chars, lines)
            if k < len(lines) - 1:
                assert line[-1] not in NO_END, (chars, lines)
        if fits:  # a space is half a character wide
            assert all(len(line) - line.count(" ") / 2 <= chars for line in lines), lines


def test_japanese_breaks_between_characters_but_keeps_marks_with_their_word(
        font: tuple[str, str]) -> None:
    # five a line by characters would start the second line with 。 and the third with ー
    assert lines_of("あいうえお。かきく", 5, font)[0] == ["あいうえ", "お。かきく"]
    assert lines_of("ちょっと待ってください", 4, font)[0] == ["ちょっと", "待ってく", "ださい"]
    # the closing bracket stays with ル, the opening one with ミ
    assert lines_of("「ミュール」を買う。", 5, font)[0] == ["「ミュー", "ル」を買", "う。"]
    assert lines_of("ゲーム「ミュール」", 4, font)[0] == ["ゲーム", "「ミュー", "ル」"]
    assert lines_of("ゲームは「ミュール」", 5, font)[0] == ["ゲームは", "「ミュー", "ル」"]
    # iteration marks and middle dots never begin a line
    assert lines_of("各々の食料・エネルギー", 1, font)[0][:3] == ["各々", "の", "食"]
    assert lines_of("食料・エネ", 2, font)[0] == ["食", "料・", "エネ"]


def test_chinese_keeps_punctuation_off_the_line_start(font: tuple[str, str]) -> None:
    assert lines_of("中文（测试）：你好，世界！", 4, font)[0] == [
        "中文（测", "试）：你", "好，世", "界！"]
    assert lines_of("中文（测试）：你好，世界！", 3, font)[0] == [
        "中文", "（测", "试）：", "你好，", "世界！"]


def test_latin_words_and_numbers_inside_japanese_stay_whole(font: tuple[str, str]) -> None:
    # a break may fall between a CJK character and a Latin word, not inside the word
    assert lines_of("今日はM.U.L.E.で遊ぶ", 12, font)[0] == ["今日はM.U.L.E.で", "遊ぶ"]
    assert lines_of("今日はM.U.L.E.で遊ぶ", 10, font)[0] == ["今日は", "M.U.L.E.で遊", "ぶ"]
    assert lines_of("価格は100円です。", 5, font)[0] == ["価格は", "100円で", "す。"]
    assert lines_of("価格は100円です。", 4, font)[0] == ["価格は", "100円", "です。"]
    for chars in range(4, 30):
        for text in MIXED:
            lines, _ = lines_of(text, chars, font)
            joined = "|".join(lines)
            for word in ("M.U.L.E.", "100", "3.5"):
                assert word not in text or word in joined, (chars, lines)


def test_a_word_too_wide_for_the_box_is_reported_not_cut(font: tuple[str, str]) -> None:
    lines, fits = lines_of("今日はM.U.L.E.で遊ぶ", 6, font)
    assert not fits and "M.U.L.E." in lines


def test_korean_breaks_at_spaces_only(font: tuple[str, str]) -> None:
    text = "한국어 문장은 띄어쓰기로 나눕니다"
    assert lines_of(text, 5, font)[0] == ["한국어", "문장은", "띄어쓰기로", "나눕니다"]
    assert lines_of(text, 6, font)[0] == ["한국어", "문장은", "띄어쓰기로", "나눕니다"]
    assert lines_of(text, 7, font)[0] == ["한국어 문장은", "띄어쓰기로", "나눕니다"]
    assert lines_of(text, 11, font)[0] == ["한국어 문장은", "띄어쓰기로 나눕니다"]
    # a word wider than the box is not split between syllables: the box shrinks instead
    assert lines_of(text, 4, font) == (["한국어", "문장은", "띄어쓰기로", "나눕니다"], False)


def test_a_bold_switch_inside_japanese_is_a_place_to_break(font: tuple[str, str]) -> None:
    lines, fits = lines_of("これは**太字**です。", 4, font)
    assert fits and lines == ["これは太", "字です。"]
    pieces = t.tokenize("これは**太字**です。", frozenset())
    assert [p.text for p in pieces if p.bold and p.kind == "word"] == ["太", "字"]


@pytest.mark.parametrize("text", [
    "Each Land producing Food makes two more this turn.",
    "well-known M.U.L.E.-style 3/4 rounds (no-break) x100%",
    "A Mule-for-hire costs $100/turn; trade-in: 50%!",
])
def test_latin_text_breaks_at_spaces_only(font: tuple[str, str], text: str) -> None:
    """UAX #14 would break after a hyphen or a slash; Latin text on a card breaks at spaces
    only, as it always has."""
    pieces = t.tokenize(text, frozenset())
    assert all(p.text == " " for p in pieces if p.kind == "space")
    words = text.split(" ")
    for chars in range(4, 60):
        lines, _ = lines_of(text, chars, font)
        assert " ".join(lines).split(" ") == words
        for line in lines:
            assert line.startswith(tuple(words))


CJK_FONTS = [
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc"),
]


def test_a_card_in_japanese_chinese_and_korean_with_a_real_cjk_font(
        game_dir: Callable[..., Path], builder: Any, tmp_path: Path) -> None:
    """With Noto Sans CJK (which CI installs), long card texts in the three scripts fit their
    boxes, and every printed line obeys the rules above."""
    found = next((p for p in CJK_FONTS if p.is_file()), None)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install a CJK font (fonts-noto-cjk): see .ci/run")
        pytest.skip("no CJK font on this machine (apt-get install fonts-noto-cjk)")
    from generator.build import draw_all
    from generator.draw import Options

    texts = {"ja": "".join(JAPANESE[:3]) + MIXED[2], "zh": "".join(CHINESE),
             "ko": " ".join(KOREAN * 2)}
    cards = "\n".join(f'  - {{id: {k}, title: "{k}", text: "{v}"}}' for k, v in texts.items())
    folder = game_dir({
        "game.yaml": f"game: scripts\nname: Scripts\nfonts:\n  body: {{file: fonts/{found.name}}}\n"
                     f"  bold: {{file: fonts/{found.name}}}\n",
        "cards.yaml": "layouts:\n  face:\n"
                      '    - {type: text, text: "${title}", x: 3, y: 3, w: 57, h: 8, size: 9}\n'
                      '    - {type: text, text: "${text}", x: 3, y: 14, w: 57, h: 60, '
                      "size: 11, min_size: 6, color: '#123456'}\n"
                      "defaults: {kind: card, size: poker, front: face}\ncomponents:\n" + cards,
    })
    (folder / "fonts").mkdir()
    shutil.copy(found, folder / "fonts" / found.name)
    game = load_path(folder)
    faces = draw_all(game, game.components, Options())
    for face in faces:
        assert all(f.fits for f in face.fits)  # nothing overflows
        # the body's lines: the runs in its colour
        lines = [p.text for p in walk(face.front.items)
                 if isinstance(p, Text) and p.color.lower() == "#123456"]
        assert len(lines) >= 3
        for k, line in enumerate(lines):
            if k:
                assert line[0] not in NO_START, lines
            if k < len(lines) - 1:
                assert line.rstrip()[-1] not in NO_END, lines
        joined = "|".join(lines)
        assert "M.U.L.E." in joined or "M.U.L.E." not in "".join(lines)
        if face.comp.id == "ko":  # whole words only: every line is a run of them
            words = set(" ".join(KOREAN).split(" "))
            assert all(set(line.split(" ")) <= words for line in lines), lines
    out = tmp_path / "out"
    builder(folder, out)
    pdf = next((out / "scripts").glob("*.pdf"))
    with pymupdf.open(pdf) as doc:
        page = doc[0].get_text()
    for text in texts.values():
        assert text.replace(" ", "")[:6] in page.replace(" ", "").replace("\n", "")
