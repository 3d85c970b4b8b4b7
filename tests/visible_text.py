"""A Markdown post's visible text, from markdown-it's tokens, to check alt texts and PDFs.

Visible text is, in token order: the content of every `text` and `code_inline` token, every
image's alt text, and every fenced or indented code block; table cells of one row are
joined by `|` (the cards' own cell separator); a task item's leading `[ ]` / `[x]` is left
out (the card draws a checkbox). The parser is the card engine's: CommonMark with tables,
strikethrough, linkify and `breaks`. `squeeze` drops all whitespace, so comparisons say
nothing about where lines wrap or how CJK and Latin text are spaced, and everything about
which characters are shown, in which order, once.
"""

from __future__ import annotations

import re
import unicodedata

from markdown_it import MarkdownIt
from markdown_it.token import Token

_TASK = re.compile(r"^\[[ xX]\]\s")


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"breaks": True, "html": False, "linkify": True})
    return md.enable(["table", "strikethrough", "linkify"])


def visible_text(markdown: str, cells: str = "|") -> str:
    """The visible text of `markdown`, table cells apart by `cells`."""
    parts: list[str] = []
    first_in_item = False
    cells_in_row = 0
    for token in _parser().parse(markdown):
        if token.type == "list_item_open":
            first_in_item = True
        elif token.type == "tr_open":
            cells_in_row = 0
        elif token.type in ("fence", "code_block"):
            parts.append(token.content)
        elif token.type == "inline":
            text = _inline_text(token)
            if first_in_item:
                text = _TASK.sub("", text)
                first_in_item = False
            parts.append(text)
        elif token.type in ("th_open", "td_open"):
            if cells_in_row:
                parts.append(cells)
            cells_in_row += 1
    return "\n".join(parts)


def _inline_text(token: Token) -> str:
    out = []
    for child in token.children or []:
        if child.type in ("text", "code_inline") or child.type == "image":
            out.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            out.append("\n")
    return "".join(out)


# Cards set typed quotes curly ("wait" → “wait”, don't → don’t: layout/parse/quotes.py);
# a reader reads the same text, so comparisons take both as the straight marks.
_STRAIGHT = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2019": "'"})


def squeeze(text: str) -> str:
    """`text` without whitespace, NFKC-normalised (PDF text maps some CJK glyphs back to
    their compatibility twins, such as the Kangxi radical ⼩ for 小), curly quotes straight."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text)).translate(_STRAIGHT)
