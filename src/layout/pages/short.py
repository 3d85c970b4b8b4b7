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
empty; in the optical centre, as its cover.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..base.boxes import GlyphRun, Item, Page, Row

ROOMY = 0.5  # a one-card post filling less of its content box than this is composed
FULL = 0.8  # the most a composed post may fill: it stays a card with air around it
STEPS = (1.25, 1.15, 1.08)  # zooms tried, largest first
LARGEST = STEPS[0]
TITLE_ROOMY = 0.6  # a title card filling less than this is set in its optical centre
OPTICAL = 0.42  # share of the spare room above the rows: the eye's centre is above the middle
VERSE = 0.75  # paragraph lines all ending before this share of the measure read as verse


def filled(page: Page, box_height: float) -> float:
    """How much of the content box the page's rows fill (virtual px)."""
    if not page.rows:
        return 0.0
    bottom = max(placed.y + placed.row.height * placed.scale for placed in page.rows)
    return bottom / box_height


def composed(
    pages: list[Page], fill: float, lay_out: Callable[[float], tuple[list[Page], float]]
) -> tuple[list[Page], float]:
    """`pages` and the zoom they are drawn at (1.0: as laid out), or, for a roomy one-card
    post, the largest of `STEPS` at which `lay_out(step)` (its pages and their fill) is
    still one card, not grown, filled at most `FULL`."""
    if len(pages) != 1 or fill >= ROOMY or not _text_only(pages[0]):
        return pages, 1.0
    for step in STEPS:
        trial, trial_fill = lay_out(step)
        if len(trial) == 1 and trial_fill <= FULL:
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
    `TITLE_ROOMY` full, holding the post's title and its lead and nothing else, the next
    card opening its first section (`title_end`) or a block other than a paragraph that
    could not start under the lead (a figure too tall for the room left, a pull quote that
    is not split): either way the
    card reads as the post's cover when set in its optical centre, and as a card left
    half empty at the top."""
    if len(pages) < 2 or fill >= TITLE_ROOMY or not pages[0]:
        return False
    first, after = pages[0], pages[1][0]
    if title_end([*first, after]) == len(first):
        return True
    opens_block = bool(after.source) and after.source[:1] != first[-1].source[:1]
    whole = after.source[-1][0] != "Paragraph" or after.source[0][0] == "Quote"
    return _lead_end(first) == len(first) and opens_block and whole


def title_end(rows: Sequence[Row]) -> int | None:
    """Where a post's title card would end: the index of the first heading after the
    opening heading's lines and the paragraphs under them (its lead); None when the post
    does not open with a heading or something else comes before the next one."""
    end = _lead_end(rows)
    if end is None or end == len(rows):
        return None
    following = rows[end].source
    return end if following and following[-1][0] == "Heading" else None


def _lead_end(rows: Sequence[Row]) -> int | None:
    """The index of the first row after a post's opening heading and the paragraphs under
    it (`len(rows)` if there is none); None when the post does not open with a heading."""
    title = rows[0].source if rows else ()
    if not title or title[-1][0] != "Heading":
        return None
    for index, row in enumerate(rows):
        if row.source == title:
            continue
        if not row.source or len(row.source) != 1 or row.source[0][0] != "Paragraph":
            return index
    return len(rows)


def _text_only(page: Page) -> bool:
    return all(
        placed.row.source and all(tag in _TEXT for tag, _ in placed.row.source)
        for placed in page.rows
    )


def optical_top(top: float, room: float, height: float) -> float:
    """Where the rows of a composed one-card post start: `OPTICAL` of the room their
    `height` leaves in a content box at `top`, `room` tall."""
    return top + round(max(0.0, room - height) * OPTICAL)  # whole px: crisp edges


def is_verse(page: Page, left: float, measure: float) -> bool:
    """Whether the page's paragraphs are set lines (a poem, lines of a note): at least two
    rows, each ending before `VERSE` of the measure that starts at `left`. Under a centred
    title such lines are centred too; flush left they read as a layout fault."""
    lines = [placed.row for placed in page.rows if _in_paragraph(placed.row)]
    return len(lines) >= 2 and all(_right(row.items) - left <= VERSE * measure for row in lines)


def _in_paragraph(row: Row) -> bool:
    return bool(row.text.strip()) and bool(row.source) and row.source[-1][0] == "Paragraph"


def _right(items: tuple[Item, ...], dx: float = 0.0) -> float:
    """Where the row's last glyph ends (its pen origin and one em), in the row's frame."""
    right = 0.0
    for item in items:
        if isinstance(item, GlyphRun) and item.xs:
            right = max(right, dx + max(item.xs) + item.size)
        elif isinstance(inner := getattr(item, "items", None), tuple):
            right = max(right, _right(inner, dx + getattr(item, "dx", 0.0)))
    return right
