"""A post's block tree (``layout.Doc``, the cards' own parse) → a Xiaohongshu note's plain
text, and the post's ``#话题`` hashtags.

The app takes plain text only: every Markdown mark goes, its words stay. A paragraph is its
text, blocks apart by a blank line; a heading is a line of its own; a list item is a line
after ``•`` (``◦`` nested) or a keycap numeral (1️⃣ … 🔟, then ``11.``), a task after ✅ or ⬜;
a quote is its text in 「」; code is its text as written; a table a line a row, cells apart by
`` · ``; a link is its text, an image is left out (the cards show it), emoji stay; footnotes
end the text as ``[1] …`` lines. Hashtags are found by scanning characters, never by a
pattern that could backtrack on what the writer sent.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator

import regex

from inkcard.layout import parse as d

GRAPHEME = regex.compile(r"\X")  # one user-perceived character: an emoji with its modifiers
KEYCAPS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟")
BULLETS = ("•", "◦")  # a list item's mark, top level and nested
TASK = {True: "✅", False: "⬜"}
CELL = " · "
NOT_AFTER = frozenset("&/=?")  # `#` after these is an entity, a URL's fragment or query
MAX_TAG_CHARS = 30


def length(text: str) -> int:
    """``text``'s length as Xiaohongshu counts it: one a grapheme (a CJK character, a Latin
    letter, a space, an emoji with its skin tone or joined family alike)."""
    return sum(1 for _ in GRAPHEME.finditer(text))


def inline_text(inlines: Iterable[d.Text]) -> str:
    """The words of inline text, its marks gone (a link its text, code and math as written)."""
    return "".join(run.text for run in inlines)


def hashtags(text: str) -> list[str]:
    """The ``#话题`` and ``#话题#`` hashtags of ``text`` in order, without their ``#``.

    A tag is ``#`` and the letters, digits, marks and ``_`` after it, up to anything else (a
    space, punctuation, an emoji, another ``#``: ``#话题#`` ends at its closing ``#``; in
    ``#话题#美食#`` that ``#`` also starts the next, closed tag, while in ``#话题#美食`` the
    words after it are prose). A ``#``
    right after an ASCII letter or digit (``C#``) or ``&/=?`` (an entity, a URL) starts none,
    nor do digits alone (``#1``) or more than ``MAX_TAG_CHARS`` characters."""
    return [word for _, _, word in _tags(text)]


def _tags(text: str) -> Iterator[tuple[int, int, str]]:
    """(where its ``#`` is, where it ends, the tag) of each hashtag of ``text``; one pass."""
    i, end = 0, len(text)
    chained = False  # this # ends the tag before it and starts the next (#话题#美食)
    while i < end:
        if text[i] != "#" or not (chained or i == 0 or _may_precede(text[i - 1])):
            i += 1
            continue
        j = i + 1
        while j < end and _tag_char(text[j]):
            j += 1
        word = text[i + 1 : j]
        chained = bool(word) and text[j : j + 1] == "#" and _closed_run(text, j + 1)
        if word and j < end and text[j] == "#" and not chained:
            j += 1  # the closing # of #话题#
        if word and not word.isdigit() and len(word) <= MAX_TAG_CHARS:
            yield i, j, word
        i = max(j, i + 1)


def only_hashtags(text: str) -> bool:
    """``text`` is nothing but hashtags and spaces (a post's tag line)."""
    words = text.split()
    return bool(words) and all(word.startswith("#") and _bare(word) for word in words)


def _bare(word: str) -> bool:
    """``word`` (no spaces) is hashtags back to back: ``#a``, ``#a#``, ``#a#b#``; nothing
    but ``#`` between them (one pass: each gap is looked at once)."""
    at = 0
    for start, end, _ in _tags(word):
        if word[at:start].strip("#"):
            return False
        at = end
    return at > 0 and not word[at:].strip("#")


def _closed_run(text: str, start: int) -> bool:
    """The tag characters from ``start`` are some, and a ``#`` closes them."""
    k = start
    while k < len(text) and _tag_char(text[k]):
        k += 1
    return k > start and text[k : k + 1] == "#"


def _may_precede(char: str) -> bool:
    """A ``#`` after ``char`` may start a tag: not after an ASCII letter or digit (``C#``),
    nor after ``&/=?`` (an entity, a URL's fragment or query)."""
    return not (char.isascii() and char.isalnum()) and char not in NOT_AFTER


def _tag_char(char: str) -> bool:
    return char.isalnum() or char == "_" or unicodedata.category(char).startswith("M")


def plain_text(blocks: Iterable[d.Block], *, drop: Iterable[d.Block] = ()) -> str:
    """``blocks`` as a note's plain text, without the blocks of ``drop`` (the heading that
    became the title, the tag line that became the tags)."""
    dropped = {id(block) for block in drop}
    parts = [part for part in _blocks(blocks, 0, dropped) if part.strip()]
    return "\n\n".join(_tidy(part) for part in parts).strip()


def text_runs(
    blocks: Iterable[d.Block | d.ListItem | d.Step],
) -> Iterator[tuple[d.Block, str]]:
    """(paragraph-like block, its text without code) in reading order: where hashtags are
    looked for. Code (a block, inline code) holds none; nor does a heading's title."""
    for block in blocks:
        if isinstance(block, d.Paragraph):
            yield (
                block,
                "".join(" " if "inline_code" in run.marks else run.text for run in block.inlines),
            )
        elif isinstance(block, (d.Quote, d.ListItem, d.Callout, d.Cited, d.Step)):
            yield from text_runs(block.blocks)
        elif isinstance(block, d.ListBlock):
            yield from text_runs(block.items)
        elif isinstance(block, d.Steps):
            yield from text_runs(block.steps)
        elif isinstance(block, d.Columns):
            for column in block.columns:
                yield from text_runs(column)


def _tidy(part: str) -> str:
    """One block's text: each line's end spaces gone, at most one blank line in a row."""
    lines = [line.rstrip() for line in part.strip("\n").split("\n")]
    kept: list[str] = []
    for line in lines:
        if line or (kept and kept[-1]):
            kept.append(line)
    return "\n".join(kept).strip("\n")


def _blocks(blocks: Iterable[d.Block | d.ListItem], depth: int, dropped: set[int]) -> Iterator[str]:
    """Each block's text, one string a block (the caller puts the blank lines between)."""
    previous: d.Block | d.ListItem | None = None
    pending: list[str] = []  # a paragraph an inline image cut in two, joined again
    for block in blocks:
        if id(block) in dropped:
            continue
        if isinstance(block, d.Image):
            previous = block if pending else None
            continue
        if isinstance(block, d.Paragraph) and pending and isinstance(previous, d.Image):
            pending = [_joined(pending[0], inline_text(block.inlines))]
            previous = block
            continue
        if pending:
            yield pending[0].strip()
            pending = []
        if isinstance(block, d.Paragraph):
            pending = [inline_text(block.inlines)]
        else:
            yield _block(block, depth, dropped)
        previous = block
    if pending:
        yield pending[0].strip()


def _joined(before: str, after: str) -> str:
    """The two halves of a paragraph an inline image cut, one space where the image was."""
    space = " " if before[-1:].isspace() or after[:1].isspace() else ""
    return before.rstrip() + space + after.lstrip()


def _block(block: d.Block | d.ListItem, depth: int, dropped: set[int]) -> str:
    """One block (not a paragraph or an image) as text."""
    if isinstance(block, d.Heading):
        return inline_text(block.inlines).strip()
    if isinstance(block, d.CodeBlock):
        return block.code
    if isinstance(block, d.ListBlock):
        return _list(block, depth, dropped)
    if isinstance(block, d.Quote):
        inner = plain_text(block.blocks)
        return f"「{inner}」" if inner else ""
    if isinstance(block, d.Table):
        rows = [block.header, *block.rows]
        return "\n".join(CELL.join(inline_text(cell).strip() for cell in row) for row in rows)
    if isinstance(block, d.Callout):
        return "\n".join(t for t in (block.title, plain_text(block.blocks)) if t)
    if isinstance(block, d.Cited):
        return plain_text(block.blocks) + (f"\n—— {block.author}" if block.author else "")
    if isinstance(block, d.Steps):
        return "\n\n".join(
            "\n".join(t for t in (f"{_numeral(n)} {step.title}", plain_text(step.blocks)) if t)
            for n, step in enumerate(block.steps, start=1)
        )
    if isinstance(block, d.Columns):
        return "\n\n".join(plain_text(column) for column in block.columns)
    if isinstance(block, d.Notes):
        return "\n".join(
            f"[{n}] {inline_text(note).strip()}" for n, note in enumerate(block.notes, start=1)
        )
    return ""  # a thematic break: the blank line between blocks says it


def _list(block: d.ListBlock, depth: int, dropped: set[int]) -> str:
    """A list a line an item (an item's further paragraphs and nested lists under it)."""
    lines: list[str] = []
    indent = "  " * depth
    for n, item in enumerate(block.items, start=block.start):
        mark = _numeral(n) if block.ordered else BULLETS[min(depth, 1)]
        if item.checked is not None:
            mark = TASK[item.checked]
        parts = list(_blocks(item.blocks, depth + 1, dropped))
        first, rest = (parts[0], parts[1:]) if parts else ("", [])
        lines.append(f"{indent}{mark} {first}".rstrip())
        lines.extend(rest)
        if not block.tight and n < block.start + len(block.items) - 1:
            lines.append("")
    return "\n".join(lines)


def _numeral(n: int) -> str:
    """An ordered item's number: a keycap emoji up to ten (how notes number), then ``11.``."""
    return KEYCAPS[n - 1] if 1 <= n <= len(KEYCAPS) else f"{n}."
