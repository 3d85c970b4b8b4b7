"""A cover's design + a box → its title set as large as its balanced lines fit; small lines.

`Design` is what every cover layout draws with (the resolved theme, the page, the title and
keywords, the accent and the inks on it). `fit_title` tries sizes from the box's height
down until the title's balanced lines fit it without a cut word or a stub line, breaking
between phrases where a size a little smaller lets them;
`title_spans` marks the keywords in the title; `small_line` sets a kicker, a tag or a pill.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import regex

from ..base.boxes import Group, Item, Rect
from ..base.fonts import FontBook
from ..style.looks import text_look
from ..style.resolver import Styles
from ..style.spanstyle import Span, SpanStyle
from ..text.heading import phrase_ends
from ..text.inline import layout_text
from ..text.linebox import TextLine, line_metrics

TITLE_LINE_HEIGHT = 1.18  # display type: tighter than body text, loose enough for CJK
MAX_TITLE_LINES = 4  # more lines than this read as a paragraph, not a cover
MIN_LINE_SHARE = 0.6  # no title line but the last is shorter than this share of the widest
MIN_TITLE_SIZE = 14.0  # virtual px: the last size tried, used even if the title overflows
SIZE_STEP = 0.95  # each size tried is this share of the one before
# a cover title takes type up to this much smaller to break between phrases, not inside one
PHRASE_SHRINK = 0.8
MAX_PILLS = 6  # keywords shown as pills (the rest are only highlighted in the title)
MARKER_HEIGHT = 0.42  # the marker covers this lower share of the keywords' text
_WORD_CHAR = regex.compile(r"[\p{Latin}\p{N}]")


@dataclass(frozen=True, slots=True)
class Design:
    """What every layout draws with: the resolved theme, the page and its content box (in
    virtual px), and the theme's title and accent looks."""

    styles: Styles
    fonts: FontBook
    page: Rect
    content: Rect
    title: str
    keywords: tuple[str, ...]
    accent: int
    on_accent: int
    marker: int | None  # drawn behind the keywords in the title
    tag_ink: int  # small keywords on the page: the accent where it reads as small text

    @property
    def margin(self) -> float:
        return max(self.content.x, self.page.width * 0.08)

    def title_look(self, size: float, color: int | None = None) -> SpanStyle:
        style = self.styles["h1"]
        return text_look(
            style.family,
            size,
            style.color if color is None else color,
            weight=max(style.weight, 700),
            letter_spacing=style.letter_spacing * size / max(style.size, 1.0),
            text_transform=style.text_transform,
        )

    def small_look(self, size: float, color: int, weight: int = 600) -> SpanStyle:
        return text_look(self.styles["body"].family, size, color, weight=weight)


def title_spans(design: Design, size: float, color: int | None, emphasis: int) -> list[Span]:
    """The title as runs: the keywords found in it (longest first, any case) in `emphasis`,
    the rest in `color` (the heading's colour when None)."""
    plain, marked = design.title_look(size, color), design.title_look(size, emphasis)
    if color is None:  # on the page, as the theme's heading: with its outline or glow too
        effects = design.styles["h1"].text_effects
        plain, marked = replace(plain, effects=effects), replace(marked, effects=effects)
    if design.marker is not None and emphasis != color:
        marked = replace(marked, highlight=design.marker, highlight_height=MARKER_HEIGHT)
    text = design.title
    flags = [False] * len(text)
    folded = text.casefold()
    for word in sorted(design.keywords, key=len, reverse=True):
        needle, start = word.casefold(), 0
        while needle and len(folded) == len(text) and (at := folded.find(needle, start)) >= 0:
            flags[at : at + len(needle)] = [True] * len(needle)
            start = at + len(needle)
    spans: list[Span] = []
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or flags[i] != flags[start]:
            spans.append(Span(text[start:i], marked if flags[start] else plain))
            start = i
    return spans


def fit_title(
    design: Design,
    spans_at: Callable[[float], list[Span]],
    box: Rect,
    align: str,
    max_lines: int = MAX_TITLE_LINES,
) -> list[TextLine]:
    """The title's lines at the largest size whose balanced lines fit `box`: no more than
    `max_lines`, none wider, all together no taller, no word cut and no line of one
    character. Sizes are tried from the box's height down; the smallest is kept if none
    fits. A size whose lines break inside a phrase gives way to one up to `PHRASE_SHRINK`
    smaller whose lines break between phrases, as a designer sets a cover."""
    style = design.styles["h1"]
    size = min(box.height / TITLE_LINE_HEIGHT, box.width / 1.2)
    ends = phrase_ends(design.title)
    fallback: list[TextLine] | None = None
    floor = MIN_TITLE_SIZE
    while True:
        metrics = line_metrics(design.fonts, style.family, True, size, TITLE_LINE_HEIGHT)
        lines = layout_text(
            spans_at(size),
            design.fonts,
            x=box.x,
            width=box.width,
            metrics=metrics,
            align=align,
            heading=True,
        )
        if _fits(lines, box, max_lines, design.title):
            if _between_phrases(lines, design.title, ends):
                return lines
            if fallback is None:
                fallback, floor = lines, max(MIN_TITLE_SIZE, size * PHRASE_SHRINK)
        if size <= floor:
            return fallback or lines
        size = max(floor, size * SIZE_STEP)


def _fits(lines: list[TextLine], box: Rect, max_lines: int, title: str) -> bool:
    if len(lines) > max_lines or sum(line.height for line in lines) > box.height:
        return False
    if any(line.width > box.width + 0.5 for line in lines):
        return False
    widest = max((line.width for line in lines), default=0.0)
    if any(line.width < widest * MIN_LINE_SHARE for line in lines[:-1]):
        return False  # a short line amid long ones reads as a break fault
    texts = [line.text.strip() for line in lines]
    if len(lines) > 1 and any(len(text) <= 1 for text in texts):
        return False
    return not _cuts_word(texts, title)


def _between_phrases(lines: list[TextLine], title: str, ends: frozenset[int]) -> bool:
    """Whether every line but the last ends, past the spaces it hangs, where the title's
    phrases let it (`text.heading.phrase_ends`); lines transformed beyond recognition pass."""
    found = list(_line_ends([line.text.strip() for line in lines], title))
    if None in found:
        return True
    return all(_past_spaces(title, at) in ends for at in found if at is not None)


def _past_spaces(title: str, at: int) -> int:
    while at < len(title) and title[at].isspace():
        at += 1
    return at


def _cuts_word(texts: list[str], title: str) -> bool:
    """Whether a line ends inside a Latin word or number of `title` (only a word wider than
    the line is cut so: the title is then too large)."""
    for at in _line_ends(texts, title):
        if at is None:
            return False  # transformed beyond recognition: trust the line breaker
        if 0 < at < len(title) and _WORD_CHAR.match(title[at - 1]) and _WORD_CHAR.match(title[at]):
            return True
    return False


def _line_ends(texts: list[str], title: str) -> Iterator[int | None]:
    """The offset in `title` after each line's text but the last's; a None, and no more,
    where a line is transformed beyond recognition (found case-blind, in order)."""
    folded, at = title.casefold(), 0
    for text in texts[:-1]:
        found = folded.find(text.casefold(), at)
        if found < 0:
            yield None
            return
        at = found + len(text)
        yield at


def stack(lines: list[TextLine], top: float) -> tuple[list[Item], float]:
    """The lines one under another from `top`; and where the last ends."""
    items: list[Item] = []
    for line in lines:
        items.append(Group(line.items, dy=top))
        top += line.height
    return items, top


def lines_height(lines: list[TextLine]) -> float:
    return sum(line.height for line in lines)


def ink_left(lines: list[TextLine]) -> float:
    return min((line.left for line in lines), default=0.0)


def small_line(
    design: Design, text: str, look: SpanStyle, x: float, width: float, align: str
) -> TextLine | None:
    metrics = line_metrics(design.fonts, look.family, look.bold, look.size, 1.3)
    lines = layout_text(
        [Span(text, look)], design.fonts, x=x, width=width, metrics=metrics, align=align
    )
    return lines[0] if lines else None


def kicker_text(design: Design) -> str:
    words = design.keywords[:MAX_PILLS] or ()
    return "  ·  ".join(words)
