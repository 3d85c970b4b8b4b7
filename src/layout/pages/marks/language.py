"""A post + its theme's styles → the styles with the chrome in the post's language: the
Latin forms a theme gives its labels and page number (`style.locale`) on a post that is
not Chinese, told from its first words.
"""

from __future__ import annotations

from ...parse.doc import Doc, Text, nodes
from ...style.locale import for_post, has_latin
from ...style.resolver import Styles
from ...text.words import has_han, is_japanese

# How much of a post is read to tell its language: its first words say it
LANGUAGE_SAMPLE = 2000


def chrome_for(doc: Doc, styles: Styles) -> Styles:
    """`styles` with the theme's Latin chrome where `doc` is not Chinese; unchanged (and
    the post not read) where the theme gives its chrome one form only."""
    return for_post(styles, is_chinese(doc)) if has_latin(styles) else styles


def is_chinese(doc: Doc) -> bool:
    """Whether the post is written in Chinese: Han characters in its first
    `LANGUAGE_SAMPLE` characters of text, and not Japanese."""
    parts: list[str] = []
    size = 0
    for node in nodes(doc):
        if isinstance(node, Text):
            parts.append(node.text)
            size += len(node.text)
            if size >= LANGUAGE_SAMPLE:
                break
    text = "".join(parts)[:LANGUAGE_SAMPLE]
    return has_han(text) and not is_japanese(text)
