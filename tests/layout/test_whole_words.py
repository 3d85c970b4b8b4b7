"""Ragged CJK prose ends a line between words, not inside one, where moving the word down
costs a character or two and no line (`text.wholewords`): "先写下自己的估 / 计" in a
highlight, "讲逻 / 辑", "推上 / 去", "入 / れます" (eleventh look, 14 of 30 theme-modes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.text.linebreak import NO_EDGES, break_lines
from inkcard.layout.text.lines.wholewords import PHRASE_MOVE, WORD_MOVE, whole_words
from inkcard.layout.text.opportunities import opportunities
from tests.layout.test_punctuation import lay

HARD = Path(__file__).resolve().parents[1] / "cases" / "hard"


def unit_lines(text: str, max_width: float) -> list[str]:
    """`text` broken greedily then kept in whole words, every character one unit wide."""
    texts = list(text)
    widths = [1.0] * len(texts)
    allowed = opportunities(texts, [False] * len(texts))
    edges = [NO_EDGES] * len(texts)
    lines = break_lines(texts, widths, allowed, max_width, edges)
    lines = whole_words(texts, widths, allowed, lines, max_width, edges)
    return ["".join(texts[r.start : r.end]) for r in lines]


def test_a_word_broken_at_a_line_end_goes_down_whole() -> None:
    """Greedy ends the first line on 估 (对策：先写下自己的估 / 计，…): it ends before 估计."""
    assert unit_lines("对策：先写下自己的估计，再去看别人的数字。", 10) == [
        "对策：先写下自己的",
        "估计，再去看别人的",
        "数字。",
    ]


def test_no_line_is_added_to_keep_a_word() -> None:
    """Where the word's first character would push the lines after over, the break stays."""
    assert unit_lines("我们先写下自己的估计再去看别人的数字", 9) == [
        "我们先写下自己的估",
        "计再去看别人的数字",
    ]


def test_a_long_word_broken_far_in_stays_broken() -> None:
    """A break more than `WORD_MOVE` characters into a word stays where greedy put it:
    中华人民共和国 broken five characters in."""
    assert WORD_MOVE < 5
    assert unit_lines("他说中华人民共和国成立了很多年了", 7)[0] == "他说中华人民共"


def _first_lines(post: str, theme: str, size: tuple[int, int] = (440, 586)) -> list[str]:
    options = layout.RenderOptions(width=size[0], height=size[1], split="autoSplit")
    text = (HARD / post).read_text("utf-8")
    pages = layout.layout_pages(text, themes.load(theme), layout.FontBook.load(), options)
    return [line for page in pages for line in page.alt_text().splitlines()]


@pytest.mark.parametrize("theme", ["warm", "notebook", "pop-art"])
def test_the_reading_notes_keep_their_estimate_whole(theme: str) -> None:
    """ "先写下自己的估计" (a highlight) broke 估 / 计 in warm, notebook and pop-art."""
    lines = _first_lines("13-reading-notes.md", theme)
    assert not any(line.endswith("估") for line in lines)
    assert any("估计" in line for line in lines)


def test_a_japanese_verb_stays_with_its_ending() -> None:
    """minimalist's Kyoto post broke "入 / れます。"."""
    lines = _first_lines("18-cafe-kyoto.md", "minimalist")
    assert not any(line.startswith("れます") for line in lines)


@pytest.mark.parametrize("theme", ["japanese-magazine", "fairytale", "nature", "coil-notebook"])
@pytest.mark.parametrize("size", [(440, 586), (500, 500)])
def test_no_japanese_line_opens_on_a_words_last_kana_and_its_mark(
    theme: str, size: tuple[int, int]
) -> None:
    """ "…静かに本を読んでいま / す。パンの…" (11 Kyoto sets at 500x500), "…場合があるの / で、
    小銭を…": a Japanese phrase is longer than `WORD_MOVE`, and its last kana and mark
    opened the next line. Such a break takes the phrase down whole from up to
    `TAIL_MOVE` characters back, where the lines after it take no more lines (in
    cyberpunk, art-deco and pop-art at 440 px "…8 時台な / ら、…" stays: the line under it
    is full)."""
    lines = _first_lines("18-cafe-kyoto.md", theme, size)
    tails = [line for line in lines if line[:1] in "すでら" and line[1:2] in "、。"]
    assert not tails, lines


def test_a_japanese_phrase_goes_down_whole_from_further_back() -> None:
    """ "教室の雰囲気 / がそのまま…": greedy broke the phrase 雰囲気が three characters in,
    more than a Chinese word's `WORD_MOVE`; a Japanese line gives its last phrase to the
    next from up to `PHRASE_MOVE` characters back."""
    assert WORD_MOVE < 3 <= PHRASE_MOVE
    text = "元小学校の建物を使ったカフェ。教室の雰囲気がそのまま残っています。"
    assert unit_lines(text, 21) == [
        "元小学校の建物を使ったカフェ。教室の",
        "雰囲気がそのまま残っています。",
    ]


def test_a_japanese_line_keeps_two_thirds_of_itself() -> None:
    """In a narrow measure a phrase three characters in (テーブ / ルで、 in eight) stays
    broken: moving it would end the line at five of eight, which reads as ended early."""
    lines = unit_lines("大きな木のテーブルで、学生や先生が静かに本を読んでいます。", 8)
    assert lines[0] == "大きな木のテーブ"


@pytest.mark.parametrize(
    ("theme", "size"),
    [
        ("dreamy", (440, 586)),
        ("notebook", (440, 586)),
        ("darktech", (440, 586)),
        ("art-deco", (500, 500)),
    ],
)
def test_no_japanese_line_breaks_inside_a_phrase_it_could_take_down(
    theme: str, size: tuple[int, int]
) -> None:
    """ "二階のランチ / は 11 時から。", "教室の雰囲気 / がそのまま残っています。", "…そのま /
    ま残っています。" (twelfth look: breaks inside words in the Kyoto post in 12 of 30
    theme-modes): each line ends between phrases where the paragraph keeps its lines."""
    lines = _first_lines("18-cafe-kyoto.md", theme, size)
    cut = [
        line for line in lines if line.rstrip().endswith(("ランチ", "雰囲気", "そのま", "読んで"))
    ]
    assert not cut, lines
    assert any(line.startswith(("雰囲気が", "がそのまま", "そのまま")) for line in lines), lines


@pytest.mark.parametrize("theme", ["apple-notes", "brandA", "nature"])
def test_a_runt_is_mended_without_parting_a_word(theme: str) -> None:
    """The Kyoto post's …学生や先生が静かに本を読んでいます。パンのセットは 600 円か / ら。 ended
    on a runt; the widest set that mended it broke …先生が静か / に本を…, where a set a little
    narrower parts no phrase (`pretty._Parted`: 静か/に in six theme-modes, eleventh look)."""
    lines = _first_lines("18-cafe-kyoto.md", theme)
    assert not any(line.startswith("に本を") for line in lines), lines
    assert any("静かに" in line for line in lines), lines


def test_justified_text_keeps_its_breaks(fonts: layout.FontBook) -> None:
    """A justified paragraph's lines end where its justification weighs them
    (`pretty.even_lines`: a line ended early would be spread); ragged, 对策 goes down whole."""
    text = "砍价时先报价的一方往往占优势。对策：先写下自己的估计，再去看别人的数字。"
    ragged = [line.text for line in lay(text, fonts, 16)]
    justified = [line.text for line in lay(text, fonts, 16, align="justify")]
    assert ragged[0].endswith("优势。") and ragged[1].startswith("对策")
    assert justified[0].endswith("对")
