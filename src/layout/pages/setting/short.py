"""A post that fits one card with room to spare → composed for its length.

A four-line poem or a short note set at the theme's body size sits at the top of the card
with half of it empty, which reads as the top of a page rather than as a card. With the
card role's `content_align = "auto"` (every built-in theme's but minimal's, which centres),
such a post of text (no table, code, image or columns, whose layout depends on the
measure) is laid out again a little larger: a zoom of up to `LARGEST`, so type stays within
the theme's range and a decorated frame keeps its proportions, at the largest step that
still leaves it roomy. Its rows are set at the card's optical centre, a little above the
middle; and under a centred title, paragraphs of set lines (`is_verse`: a poem) are
centred too.

A longer post's first card that holds only its title and lead (its next card opens the
first section, or a figure too tall for the room under the lead) and leaves most of the
card empty is set the same way, as a title card: at the top, it read as a card left half
empty; in the optical centre, as its cover. Filled less than `COVER_ROOMY`, its title and
lead are set larger too (`larger_type`, the largest of `COVER_STEPS` that fills at most
`FULL`): a cover in the theme's type, not the theme's body left floating in a half-empty
frame (pop-art's skincare post: 57 % full, rated 4/5). Only the type grows, not the card:
the frame, its ornaments and the page number stay those of the set's other cards.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

from ...base.boxes import GlyphRun, Item, Page, Rect, Row
from ...base.placing import Placement
from ...style.brandkit import HEADINGS
from ...style.resolver import Styles
from ...style.schema import Style
from ...text.heading.balance import PAUSE_SHARE
from ...text.inline import SEPARATORS
from ...text.linebreak import PAUSES
from ..breaks.breakrules import TITLE_ROOMY, lead_end, title_end
from ..quality import FULL_ENOUGH

# A one-card post filling less of its content box than this is composed: at 0.5 the poem
# at 500x500 (50-62 % full) stayed at body size, lines 11 px on a phone, in 23 theme-modes.
ROOMY = 0.65
FULL = 0.8  # the most a composed post may fill: it stays a card with air around it
STEPS = (1.25, 1.15, 1.08)  # zooms tried, largest first
LARGEST = STEPS[0]
VERSE = 0.75  # paragraph lines all ending before this share of the measure read as verse
# A title card filling less than a card before the last should (the quality report's level)
# is set as the post's cover: its title and lead larger, at the largest of `COVER_STEPS`
# that fills at most `FULL`.
COVER_ROOMY = FULL_ENOUGH
# A cover's steps, finer than a short post's: its title's lines rewrap as it grows, and a
# step too far leaves the card over `FULL` or its title a line longer where the one between
# fills it.
COVER_STEPS = (1.25, 1.2, 1.15, 1.1, 1.05)
# A deck's title slide, its measure twice a card's, holds its title larger still: at 1.25 the
# recipe's one-line title spanned 64 % of the slide, 38 % of its height, a heading on an
# empty slide rather than a title slide.
SLIDE_COVER_STEPS = (1.6, 1.5, 1.4, 1.3, *COVER_STEPS)  # its title's; its lead's stays a card's
# A cover's title may break into more lines as it grows, but none shorter than this share of
# the measure (unless one was at the theme's size): whole phrases, not a word left alone.
COVER_LINE = 0.5
# The px knobs of the text's roles a cover sets larger (type and the spacing that goes with
# it); strokes (borders, bars) keep the theme's weight, and the card's own roles (its frame,
# the page number) are not the text's: they stay as on the set's other cards.
_TYPE_KNOBS = ("size", "letter_spacing", "margin_top", "margin_bottom", "bar_gap", "indent")
_INLINE_KNOBS = ("size", "letter_spacing")
_CARD_ROLES = frozenset({"card", "page_number"})


def filled(page: Page, box_height: float) -> float:
    """How much of the content box the page's rows fill (virtual px)."""
    if not page.rows:
        return 0.0
    bottom = max(placed.y + placed.row.height * placed.scale for placed in page.rows)
    return bottom / box_height


def composed(
    pages: list[Page],
    fill: float,
    lay_out: Callable[[float], tuple[list[Page], float]],
    *,
    parts: bool = False,
) -> tuple[list[Page], float]:
    """`pages` and the zoom they are drawn at (1.0: as laid out), or, for a roomy one-card
    post, the largest of `STEPS` at which `lay_out(step)` (its pages and their fill) is
    still one card, not grown, filled at most `FULL`. With `parts` (hrSplit: each card a
    whole part) every card is such a post: all roomy (`fill`, the fullest's), all text,
    they take the largest step at which each stays one card, filled at most `FULL` (three
    haiku a card each sat at the top of three cards four-fifths empty)."""
    if (len(pages) != 1 and not parts) or fill >= ROOMY:
        return pages, 1.0
    if not all(_text_only(page) for page in pages):
        return pages, 1.0
    for step in STEPS:
        trial, trial_fill = lay_out(step)
        if len(trial) == len(pages) and trial_fill <= FULL:
            return trial, step
    return pages, 1.0


# The blocks of text, whose look does not hang on the measure: a table (column groups), code
# (wraps), an image or a diagram laid out on a narrower virtual card would change, so a post
# with any other row (or a row of no known block) keeps its size.
_TEXT = frozenset(
    {"Heading", "Paragraph", "ListBlock", "ListItem", "Quote", "Callout", "Notes", "Cited"}
    | {"Steps", "Step", "Rule"}
)


def is_title_card(pages: list[list[Row]], fill: float) -> bool:
    """Whether the first of `pages` (the rows of each card) is a title card: under
    `TITLE_ROOMY` full and `holds_title` (the card reads as the post's cover when set in
    its optical centre, and as a card left half empty at the top)."""
    return fill < TITLE_ROOMY and holds_title(pages)


def holds_title(pages: list[list[Row]]) -> bool:
    """Whether the first of `pages` (the rows of each card) holds the post's title and its
    lead and nothing else, a later card following: the next card opens its first section
    (`title_end`) or a block other than a paragraph that could not start under the lead (a
    figure too tall for the room left, a pull quote that is not split)."""
    if len(pages) < 2 or not pages[0] or not pages[1]:
        return False
    first, after = pages[0], pages[1][0]
    if title_end([*first, after]) == len(first):
        return True
    if not after.source or after.source[:1] == first[-1].source[:1]:
        return False  # the card's own block goes on, or a row of no block (an ornament)
    whole = after.source[-1][0] != "Paragraph" or after.source[0][0] == "Quote"
    return lead_end(first) == len(first) and whole


def title_blocks(first: Sequence[Row]) -> int:
    """How many of the post's top-level blocks the rows of a card that `holds_title` come
    from: its heading and each paragraph of its lead."""
    return 1 + len({tag for row in first for tag in row.source if tag[0] == "Paragraph"})


def shortest_title_line(rows: Sequence[Row], measure: float) -> float:
    """The share of `measure` the shortest line of the heading among `rows` (a cover's
    title) spans: a title grown until a line holds only "清单：" reads worse than a smaller
    one whose lines are whole phrases."""
    return min(title_lines(rows, measure), default=1.0)


def title_lines(rows: Sequence[Row], measure: float) -> list[float]:
    """The share of `measure` each line of the heading among `rows` spans."""
    spans = [_edges(row.items) for row in _heading_rows(rows)]
    return [max(0.0, right - left) / measure for left, right in spans]


def _heading_rows(rows: Sequence[Row]) -> list[Row]:
    return [row for row in rows if row.source and row.source[-1][0] == "Heading"]


def even_title(rows: Sequence[Row], measure: float, shortest: float, slide: bool) -> bool:
    """Whether a cover's title (in `rows`) keeps whole phrases: no line under `shortest` of
    the measure, or on a slide, whose measure is twice a card's, none under `COVER_LINE`
    of its longest line (p30's "学生党买平板还是笔记本？ / 一张表说清楚 💻", 0.55 and 0.44
    of a slide's measure, two even phrases, was refused and its title slide left at 29 %).
    A line but the last that ends at a pause or a separator (its bar unseen), `PAUSE_SHARE`
    of the longest or more, is a whole phrase whatever its length: p26's "打工人必备：" over
    "5 个让效率翻倍的小习惯 ⚡️", the reading notes' "读书笔记｜" over its book
    (the last line ends the title whatever it ends with: short, it is a stub), and so is a
    last line that is a bracketed aside whole: "考研英语 60 天冲刺计划" over "（附时间表）" (0.45
    of the measure: the exam plan's apple-notes cover was refused and left at body size)."""
    lines = title_lines(rows, measure)
    if not lines:
        return True
    heads = _heading_rows(rows)
    ends = [row.text.rstrip()[-1:] in PAUSES | SEPARATORS for row in heads[:-1]]
    ends += [_aside(heads[-1].text)]
    phrases = [
        line >= PAUSE_SHARE * max(lines) and end for line, end in zip(lines, ends, strict=True)
    ]
    rest = [line for line, phrase in zip(lines, phrases, strict=True) if not phrase]
    if not rest or min(rest) >= shortest:
        return True
    return slide and min(rest) >= COVER_LINE * max(lines)


_ASIDES = {"（": "）", "(": ")", "【": "】", "「": "」", "『": "』", "[": "]"}


def _aside(text: str) -> bool:
    """Whether `text` (a title's line) is one bracketed aside: （附时间表）."""
    line = text.strip()
    return len(line) > 2 and _ASIDES.get(line[0]) == line[-1] and line[0] not in line[1:-1]


def larger_type(
    styles: Styles, step: float, title: float | None = None, code: float | None = None
) -> Styles:
    """`styles` with the text of every role but the card's own set `step` times larger
    (`_TYPE_KNOBS`; inline roles' sizes too): a cover's title and lead; with `title`, the
    headings that many times instead (a title slide's title over a lead at a card's step);
    with `code`, code blocks that many times (a step that would wrap their lines)."""
    steps = {name: title for name in HEADINGS if title} | {"code_block": code or step}
    roles = {
        name: style if name in _CARD_ROLES else _larger(style, steps.get(name, step))
        for name, style in styles.roles.items()
    }
    inline = {name: _larger_inline(knobs, step) for name, knobs in styles.inline.items()}
    return replace(styles, roles=roles, inline=inline)


def lead_aligned(styles: Styles, title: str) -> Styles:
    """`styles` with the body (a cover's lead) centred under a title whose role (`title`:
    "h1") is centred: brandC's and fairytale's covers set a ragged-left lead under a
    centred title (fourth look at 440x586), which reads as two compositions on one cover."""
    if styles[title].align != "center" or styles["body"].align == "center":
        return styles
    roles = dict(styles.roles)
    roles["body"] = replace(roles["body"], align="center")
    return replace(styles, roles=roles)


def _larger_inline(knobs: dict[str, object], step: float) -> dict[str, object]:
    return {
        knob: value * step if knob in _INLINE_KNOBS and isinstance(value, int | float) else value
        for knob, value in knobs.items()
    }


def _larger(style: Style, step: float) -> Style:
    knobs = {knob: getattr(style, knob) * step for knob in _TYPE_KNOBS}
    top, right, bottom, left = style.padding
    return replace(style, **knobs, padding=(top * step, right, bottom * step, left))


def _text_only(page: Page) -> bool:
    return all(
        placed.row.source and all(tag in _TEXT for tag, _ in placed.row.source)
        for placed in page.rows
    )


def is_verse(page: Page, left: float, measure: float) -> bool:
    """Whether the page's paragraphs are set lines (a poem, lines of a note): at least two
    rows, each ending before `VERSE` of the measure that starts at `left`. Under a centred
    title such lines are centred too; flush left they read as a layout fault."""
    lines = [placed.row for placed in page.rows if _in_paragraph(placed.row)]
    return len(lines) >= 2 and all(_right(row.items) - left <= VERSE * measure for row in lines)


def rows_right(page: Page) -> float:
    """Where the widest of the page's rows ends (its last glyph's pen origin and one em)."""
    return max((_right(placed.row.items) for placed in page.rows), default=0.0)


def _in_paragraph(row: Row) -> bool:
    return bool(row.text.strip()) and bool(row.source) and row.source[-1][0] == "Paragraph"


def _right(items: tuple[Item, ...]) -> float:
    """Where the row's last glyph ends (its pen origin and one em), in the row's frame."""
    return _edges(items)[1]


def _edges(items: tuple[Item, ...], dx: float = 0.0) -> tuple[float, float]:
    """Where the row's first glyph starts and its last ends (its pen origin and one em), in
    the row's frame; (inf, 0) for a row of no glyph."""
    left, right = math.inf, 0.0
    for item in items:
        if isinstance(item, GlyphRun) and item.xs:
            left, right = min(left, dx + min(item.xs)), max(right, dx + max(item.xs) + item.size)
        elif isinstance(inner := getattr(item, "items", None), tuple):
            start, end = _edges(inner, dx + getattr(item, "dx", 0.0))
            left, right = min(left, start), max(right, end)
    return left, right


def part_heights(placements: list[Placement], box: Rect) -> list[float]:
    """The height each card of hrSplit is set as (`centring.rows_top`): a part of its own is
    composed as a short post, and the roomy parts alike, as tall as the tallest of them,
    so each starts where the next does (a heading that jumped from card to card read as
    a fault when swiped); a part too full to compose keeps its own."""
    roomy = [p.height for p in placements if p.height <= FULL * box.height]
    tallest = max(roomy, default=0.0)
    return [tallest if p.height <= FULL * box.height else p.height for p in placements]
