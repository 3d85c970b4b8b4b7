"""Prose an editor wrapped at 80-100 columns is read as paragraphs (`parse/hardwraps.py`);
lines a writer broke on purpose stay lines. Found on an English post of hard-wrapped
paragraphs: every soft break was a line break, so its paragraphs broke mid-sentence
("…already spent on other" / "people's priorities.") in 29 of 30 theme-modes."""

from __future__ import annotations

import pytest

from inkcard import layout, themes
from inkcard.layout.parse.doc import Paragraph
from inkcard.layout.parse.hardwraps import is_hard_wrapped
from inkcard.layout.parse.markdown import parse

WRAPPED = (
    "For two years I started every day by checking email in bed. By 9 a.m. my attention\n"
    "was already spent on other people's priorities. Here is what finally changed that:\n"
    "not willpower, but a few small, boring systems."
)
WRAPPED_CJK = (
    "这是一段用编辑器按八十列折行写成的中文，中间没有句号，所以折行落在句子的\n"
    "中间，再接着写下去，直到这一段结束为止。"
)


@pytest.mark.parametrize(
    "source",
    [
        WRAPPED,
        WRAPPED_CJK,
        # an editor's fill leaves lines a word or two short of its column
        "Deep work comes in blocks. I work for ninety uninterrupted minutes, then walk\n"
        "for ten, no podcasts, no calls. Most of my best ideas show up on those walks,\n"
        "and the rest come in the shower.",
    ],
)
def test_an_editors_fill_is_hard_wrapped(source: str) -> None:
    assert is_hard_wrapped(source)


@pytest.mark.parametrize(
    "source",
    [
        "床前明月光\n疑是地上霜\n举头望明月\n低头思故乡",  # a poem, line by line
        "今天去了太古里，人很多\n然后去了春熙路，吃了火锅",  # short lines, on purpose
        # long lines, each ending its sentence: the writer's own lines
        "For two years I started every day by checking email in bed, which was a mistake.\n"
        "By 9 a.m. my attention was already spent on other people's priorities, every day.",
        # a long line and a short one: no fill (the short one is not the last)
        "For two years I started every day by checking email in bed, which was a\nmistake\n"
        "and I knew it.",
        '"You do not rise to the level of your goals. You fall to the level of your systems."'
        "\n— James Clear",  # a quote and its source
        "One line only, however long it is, and however it ends, has no soft break in it",
    ],
)
def test_lines_written_as_lines_are_kept(source: str) -> None:
    assert not is_hard_wrapped(source)


def _texts(markdown: str) -> list[str]:
    return [
        "".join(run.text for run in block.inlines)
        for block in parse(markdown).blocks
        if isinstance(block, Paragraph)
    ]


def test_a_wrapped_paragraph_joins_its_lines_and_a_poem_keeps_them() -> None:
    (english,) = _texts(WRAPPED)
    assert "\n" not in english
    assert "my attention was already" in english  # a space where the lines met
    (chinese,) = _texts(WRAPPED_CJK)
    assert "句子的中间" in chinese  # nothing between two CJK characters
    (poem,) = _texts("床前明月光\n疑是地上霜")
    assert poem == "床前明月光\n疑是地上霜"
    (hard,) = _texts(WRAPPED.replace("attention\n", "attention\\\n"))
    assert hard.count("\n") == 1  # the writer's hard break stays


def test_marks_across_a_wrap_keep_their_text_apart() -> None:
    (text,) = _texts(WRAPPED.replace("attention\nwas", "**attention**\n*was*"))
    assert "attention was already" in text


def test_cards_set_a_wrapped_paragraph_as_one_flowing_paragraph(fonts) -> None:
    """On a card the paragraph fills each line to the measure but its last: at the lines'
    breaks before, the first line ended at "attention" with room for more words."""
    options = layout.RenderOptions(width=440, height=586, split="autoSplit")
    (page,) = layout.layout_pages(WRAPPED, themes.load("apple-notes"), fonts, options)
    lines = [placed.row.text for placed in page.rows]
    assert len(lines) >= 4
    assert not any(line.endswith("attention") for line in lines[:-1])
    assert "was already" in " ".join(lines)
