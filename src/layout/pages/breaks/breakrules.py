"""What each break between rows falls inside, read off the rows once for the page breaker:
the paragraph, code block or list around it, a table's rows it would leave alone, a header
it would leave bare, whether the row after it opens a section; and the names of the rules
(`RULES`) a card's end breaks, which the quality report gives."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...base.boxes import PlacedRow, Row

# The names of the broken rules (`RULE`) the quality report gives for a card's end.
HEADING_AT_END = "heading_at_card_end"  # a heading (or a lead-in) ends the card
KEPT_LINES_PARTED = "kept_lines_parted"  # a paragraph's first or last two lines, a list's
HYPHEN_AT_END = "hyphen_at_card_end"  # the card's last line ends in a hyphen inside a word
CODE_THAT_FITS_SPLIT = "code_that_fits_split"
PARAGRAPH_THAT_FITS_SPLIT = "paragraph_that_fits_split"  # where it starts, or its first part next
LIST_THAT_FITS_SPLIT = "list_that_fits_split"  # a list split on a card that holds all of it
TABLE_ROW_ALONE = "table_row_alone"  # one body row of a table left on a card
TABLE_HEADER_ALONE = "table_header_alone"  # a table's header ends a card, its rows on the next
QUOTE_THAT_FITS_SPLIT = "quote_that_fits_split"  # a short quote split though a card holds it
TABLE_NOTE_PARTED = "table_note_parted"  # a table's short note opens the next card alone
CODE_NOTE_PARTED = "code_note_parted"  # a code block's short note (a warning) does
SHORT_LIST_SPLIT = "short_list_split"  # a list of a few lines split though a card more holds it
RULES = (
    HEADING_AT_END,
    KEPT_LINES_PARTED,
    HYPHEN_AT_END,
    CODE_THAT_FITS_SPLIT,
    PARAGRAPH_THAT_FITS_SPLIT,
    LIST_THAT_FITS_SPLIT,
    TABLE_ROW_ALONE,
    TABLE_HEADER_ALONE,
    QUOTE_THAT_FITS_SPLIT,
    TABLE_NOTE_PARTED,
    CODE_NOTE_PARTED,
    SHORT_LIST_SPLIT,
)
# A quote of at most this many rows is a pull quote, read as one: split 2 | 2 or 3 | 1 it
# reads as two. A longer quote splits as its paragraphs do.
PULL_QUOTE_ROWS = 6
# A list of at most this many lines (a checklist of four one-line items) reads as one: split
# 2 | 2 its second half opens a card with no heading (`breakprices.SHORT_LIST_PARTED`).
SHORT_LIST_LINES = 4
# ... and so does a list of at most `SHORT_LIST_LINES` items whose lines a narrow column
# wrapped to at most this many: coil-notebook's four morning steps at 500x500, the last
# wrapped to a second line, split 2 | 2 over two cards (eleventh look, rated 3 in the four
# modes) where the other themes' four one-line steps stayed whole.
SHORT_LIST_WRAPPED = 6
# Parallel items written as paragraphs with bold run-in heads (the exam plan's "**阅读（40
# 分）**：…", "**作文（30 分）**：…", "**新题型和翻译（20 分）**：…": three of two or three
# lines) read as one list up to this many lines: parted 1 | 2 or 2 | 1, both cards read
# unfinished (`breakprices.PARALLEL_PARTED`).
PARALLEL_LINES = 9


TITLE_ROOMY = 0.6  # a title card filling less than this is set in its optical centre
TAIL = 0.3  # a section's end carried to a card, this share of it or less, reads as left over
# On a slide, whose room holds seven or eight lines of body, a section's three-line
# paragraph (41 % of it) atop the next heading reads as left over as a tip does on a card.
TAIL_SLIDE = 0.5


def tail_share(deck: bool) -> float:
    """The share of a card under which a section's end carried to it reads as left over."""
    return TAIL_SLIDE if deck else TAIL


def opens_section(row: Row) -> bool:
    """Whether `row` is a heading's (or a rule's: an author's section break)."""
    return row.discardable or (bool(row.source) and row.source[0][0] == "Heading")


def opens_stranded(
    rows: Sequence[PlacedRow], room: float, before: Row | None, deck: bool = False
) -> bool:
    """Whether a card's rows open with the end of the section before it (not a heading or
    rule), whole blocks under `tail_share` of the card's `room` tall (their rows, not the
    gap before what follows; a `deck`'s slide: `TAIL_SLIDE`), above the next heading or
    rule on the card: a tip that ends its table's section read atop the next section's
    card. The rest of a block the card before ends in (`before`, its last row: a
    paragraph's last lines, a table's rows under its header again) is not stranded but
    read on, as a long article reads on from card to card."""
    if not rows or opens_section(rows[0].row) or reads_on(before, rows[0].row):
        return False
    at = next((i for i, placed in enumerate(rows) if opens_section(placed.row)), 0)
    if not at:
        return False
    end = rows[at - 1]  # the end's last row: the gap before the heading is not the end's
    padding = sum(frame.pad_bottom for frame in end.row.frames)
    return end.y + end.row.height * end.scale + padding - rows[0].y < tail_share(deck) * room


def reads_on(before: Row | None, first: Row) -> bool:
    """Whether a card whose first row is `first` goes on with the block the card before
    ends in (`before`, its last row): a paragraph's last lines, a list's next items, a
    table's rows under its header again."""
    return before is not None and bool(before.source[:1]) and before.source[:1] == first.source[:1]


def title_end(rows: Sequence[Row]) -> int | None:
    """Where a post's title card would end: the index of the first heading after the
    opening heading's lines and the paragraphs under them (its lead); None when the post
    does not open with a heading or something else comes before the next one."""
    end = lead_end(rows)
    if end is None or end == len(rows):
        return None
    following = rows[end].source
    return end if following and following[-1][0] == "Heading" else None


def lead_end(rows: Sequence[Row]) -> int | None:
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


def title_only(rows: Sequence[Row]) -> bool:
    """Whether `rows` are all one heading's, the first's (a post's title with no lead: a
    deck's title slide)."""
    return all(row.source == rows[0].source for row in rows)


def next_sections(rows: Sequence[Row]) -> list[int]:
    """For each row (and the post's end), the first row from it on that opens a section
    (`opens_section`); `len(rows)` where none does."""
    out = [len(rows)] * (len(rows) + 1)
    for index in range(len(rows) - 1, -1, -1):
        out[index] = index if opens_section(rows[index]) else out[index + 1]
    return out


def kept_rule(row: Row) -> str:
    """The rule a card ending on `row`, which keeps with the next, breaks."""
    return HEADING_AT_END if row.source and row.source[-1][0] == "Heading" else KEPT_LINES_PARTED


def bare_headers(rows: Sequence[Row]) -> set[int]:
    """The breaks right after a table's header row, before its first body row: a card
    ending on a header shows a table with nothing in it. (The header keeps with its first
    row, but a keep chain that fills a card is priced at half a rule, less than the lone
    row the other choice leaves.)"""
    return {
        index
        for index in range(1, len(rows))
        if rows[index].header is not None and rows[index].header is rows[index - 1]
    }


def lone_table_rows(rows: Sequence[Row]) -> set[int]:
    """The breaks inside a table that would leave one body row on either side: after a
    header's first body row, or before its last."""
    lone: set[int] = set()
    start = 0
    for index in range(1, len(rows) + 1):
        header = rows[index - 1].header
        if index < len(rows) and header is not None and rows[index].header is header:
            continue
        if header is not None and index - start >= 2:  # a run of body rows [start, index)
            lone.update((start + 1, index - 1))
        start = index
    return lone


def block_runs(rows: Sequence[Row], kind: str) -> dict[int, tuple[int, int]]:
    """Each break inside a block of `kind` (rows of one `source` ending in it) → the
    block's rows [first, end)."""
    return runs(rows, lambda row, following: _same_block(row, following, kind))


def notes_under(
    rows: Sequence[Row], sections: Sequence[int], kind: str
) -> dict[int, tuple[int, int]]:
    """Each break right after the last row of a table or a code block (`kind`; a diagram
    is a figure, not code) where one block follows it and ends its section (or the post)
    → the rows [first, end) of the block's keep chain (its heading and its rows) and its
    note: a recipe's tip under its ingredients, a warning under the git command it is
    about. Parted from its block the note opens the next card alone, above the next
    heading or as the last card; the page breaker prices that as a rule where the note is
    short and the chain and note fit one card (`breakprices.NOTE_PARTED`)."""
    notes: dict[int, tuple[int, int]] = {}
    first = 0  # the first row of the block the row before `end` is in
    for end in range(1, len(rows)):
        before, after = rows[end - 1], rows[end]
        if end == 1 or rows[end - 2].source != before.source:
            first = end - 1
        if not (before.source and after.source) or before.source[-1][0] != kind:
            continue
        if before.figure:
            continue
        head = sections[end]
        if head == end or after.source[0] == before.source[0]:
            continue  # a heading follows, or the table goes on (inside a quote, a list)
        if all(rows[at].source[:1] == after.source[:1] for at in range(end, head)):
            opening = first  # the heading or lead-in that keeps with the table comes too
            while opening and rows[opening - 1].keep_with_next:
                opening -= 1
            notes[end] = (opening, head)
    return notes


def pull_quotes(rows: Sequence[Row]) -> dict[int, tuple[int, int]]:
    """Each break inside a top-level quote of at most `PULL_QUOTE_ROWS` rows → its rows
    [first, end). traditional-chinese's four-line quote under a slide's title was split
    3 | 1: the title and the quote, kept together, were taller than the slide, and a keep
    chain longer than a card breaks anywhere at half a rule."""
    return {
        at: block
        for at, block in runs(rows, _same_quote).items()
        if block[1] - block[0] <= PULL_QUOTE_ROWS
    }


def short_lists(rows: Sequence[Row]) -> dict[int, tuple[int, int]]:
    """Each break inside an outermost list of at most `SHORT_LIST_LINES` lines of text (a
    line of tiles holds one per tile), or of as many items in at most `SHORT_LIST_WRAPPED`
    lines → its rows [first, end)."""
    return {
        at: (first, end)
        for at, (first, end) in list_runs(rows).items()
        if _is_short_list(rows[first:end])
    }


def _is_short_list(rows: Sequence[Row]) -> bool:
    """Whether a list's `rows` read as one short list (`short_lists`)."""
    lines = sum(row.text.count("\n") + 1 for row in rows)
    if lines <= SHORT_LIST_LINES:
        return True
    if any("\n" in row.text for row in rows):  # tiles: a line per tile, counted as items
        return False
    items = len({row.source[:2] for row in rows})  # an item's wrapped lines share its source
    return items <= SHORT_LIST_LINES and lines <= SHORT_LIST_WRAPPED


def parallel_items(rows: Sequence[Row]) -> dict[int, tuple[int, int]]:
    """Each break between two paragraphs of a run of at least two with run-in heads
    (`Row.run_in`), the run at most `PARALLEL_LINES` lines → the run's rows [first, end).
    A break inside one of its paragraphs is the paragraph's to price, not the run's."""
    return {
        at: (first, end)
        for at, (first, end) in runs(rows, _both_run_in).items()
        if rows[at - 1].source != rows[at].source and end - first <= PARALLEL_LINES
    }


def list_runs(rows: Sequence[Row]) -> dict[int, tuple[int, int]]:
    """Each break inside a list (the outermost) → its rows [first, end). A four-item
    ingredient list that fitted where it started was split 2 | 2, the card before left
    62 % full, because the next section then filled its card better."""
    return runs(rows, _same_list)


def runs(rows: Sequence[Row], together: Callable[[Row, Row], bool]) -> dict[int, tuple[int, int]]:
    """Each break between two rows that `together` holds in one block → the block's rows
    [first, end): one scan, whatever the block."""
    inside: dict[int, tuple[int, int]] = {}
    first = 0
    for index in range(1, len(rows) + 1):
        if index < len(rows) and together(rows[index - 1], rows[index]):
            continue
        for at in range(first + 1, index):
            inside[at] = (first, index)
        first = index
    return inside


def chain_ends(rows: Sequence[Row]) -> list[int]:
    """For each row, the end of the keep chain it opens (the rows up to the first that
    does not keep with the next, and that one)."""
    n = len(rows)
    ends = [n] * (n + 1)
    for index in range(n - 1, -1, -1):
        kept = rows[index].keep_with_next and index + 1 < n
        ends[index] = ends[index + 1] if kept else index + 1
    return ends


Whole = tuple[str, dict[int, tuple[int, int]], list[int], bool]


def whole_blocks(rows: Sequence[Row], paragraphs: dict[int, tuple[int, int]]) -> tuple[Whole, ...]:
    """The blocks a card should not split where it could hold them whole: each rule's
    name, its blocks by the breaks inside them (`runs`), the end of the block each break
    falls in (`ends_of`), and whether a card may not open inside one whose first part it
    could hold too. A paragraph may not; a list (a tile grid) may, or the card before is
    left half empty where the list could have begun."""
    return tuple(
        (rule, blocks, ends_of(blocks, len(rows)), opened)
        for rule, blocks, opened in (
            (PARAGRAPH_THAT_FITS_SPLIT, paragraphs, True),
            (LIST_THAT_FITS_SPLIT, list_runs(rows), False),
        )
    )


def ends_of(blocks: dict[int, tuple[int, int]], breaks: int) -> list[int]:
    """For each of `breaks` + 1 breaks, the end of the block it falls inside; `breaks` + 1
    for none (so `end <= reach` never holds): the page breaker's hot loop reads a list."""
    ends = [breaks + 1] * (breaks + 1)
    for inside, (_, end) in blocks.items():
        ends[inside] = end
    return ends


class Surroundings:
    """What each break of a post falls inside, read off its rows once here rather than for
    every card the page breaker prices."""

    def __init__(self, rows: Sequence[Row]) -> None:
        self.loose = [0]  # rows before each that allow a break after them
        for row in rows:
            self.loose.append(self.loose[-1] + (not row.keep_with_next))
        self.chain_ends = chain_ends(rows)  # the end of the keep chain each row opens
        self.paragraphs = block_runs(rows, "Paragraph")
        self.code = block_runs(rows, "CodeBlock")
        self.tables = block_runs(rows, "Table")
        self.quotes = pull_quotes(rows)
        self.short_lists = short_lists(rows)
        self.parallel = parallel_items(rows)
        self.lone_rows = lone_table_rows(rows)
        self.bare_headers = bare_headers(rows)
        # what the pricing asks of the row before each break: whether it is a rule,
        # whether it must keep with the next
        self.discardable = [row.discardable for row in rows]
        self.hard_keep = [row.keep_with_next and not row.keep_soft for row in rows]
        self.wholes = whole_blocks(rows, self.paragraphs)
        self.next_sections = next_sections(rows)
        # the notes under a block, by the rule parting one breaks
        self.notes = {
            TABLE_NOTE_PARTED: notes_under(rows, self.next_sections, "Table"),
            CODE_NOTE_PARTED: notes_under(rows, self.next_sections, "CodeBlock"),
        }


def _same_list(row: Row, following: Row) -> bool:
    """Both rows in one outermost list."""
    if not (row.source and following.source):
        return False
    return row.source[0] == following.source[0] and row.source[0][0] == "ListBlock"


def _both_run_in(row: Row, following: Row) -> bool:
    """Both rows lines of paragraphs with run-in heads (one, or two in a row)."""
    return row.run_in and following.run_in


def _same_quote(row: Row, following: Row) -> bool:
    """Both rows in one top-level quote."""
    if not (row.source and following.source):
        return False
    return row.source[0] == following.source[0] and row.source[0][0] == "Quote"


def _same_block(row: Row, following: Row, kind: str) -> bool:
    return bool(row.source) and row.source == following.source and row.source[-1][0] == kind
