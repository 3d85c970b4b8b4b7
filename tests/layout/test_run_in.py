"""Paragraphs with bold run-in heads read as parallel items (`flow.keeps.opens_run_in`)."""

from __future__ import annotations

import pytest

from inkcard.layout.flow.keeps import opens_run_in
from inkcard.layout.parse.markdown import parse


def first_block(md: str):
    return parse(md).blocks[0]


@pytest.mark.parametrize(
    "md",
    [
        "**阅读（40 分）**：错题比做题重要。",
        "**Tip:** keep the list short.",
        "**Reading (40 points)**: read the wrong answers twice.",
    ],
)
def test_a_bold_head_ending_in_a_colon_opens_a_run_in(md: str) -> None:
    assert opens_run_in(first_block(md))


@pytest.mark.parametrize(
    "md",
    [
        "错题比**做题**重要：两周后再做一遍。",  # bold inside, not a head
        "**整段加粗的提醒。**",  # bold alone: no text runs in after it
        "**注意** 不要熬夜。",  # no colon: emphasis, not a head
        "# **阅读**：标题",  # a heading, not a paragraph
    ],
)
def test_other_paragraphs_do_not(md: str) -> None:
    assert not opens_run_in(first_block(md))
