"""What each break between a post's rows costs whatever card it ends, for the page breaker
(`pagebreaks`): a code block, paragraph or table split there, a break a row discourages, a
break inside a section (the more where it strands the section's short end on the next
card), a rule the break itself breaks (a hyphen at a card's end, a table's lone row or
bare header, a pull quote split, a table's note parted from it, a short list split), a
deck's parallel items parted; and how many breaks of a set part what a card should hold
together. Computed once per squeeze a pass tries."""

from __future__ import annotations

from ...base.boxes import Row
from .breakrules import (
    CODE_THAT_FITS_SPLIT,
    HYPHEN_AT_END,
    QUOTE_THAT_FITS_SPLIT,
    SHORT_LIST_SPLIT,
    TABLE_HEADER_ALONE,
    TABLE_ROW_ALONE,
    Surroundings,
    opens_section,
    tail_share,
)
from .column import Column

RULE = 1e6  # a page-break rule broken (`breakrules.RULES`): dearer than any set of cards
SPLIT_PARAGRAPH = 0.03
SPLIT_CODE = 0.05
# A code block split other than after a blank line: inside a function, a loop, a `try`
# (the asyncio tutorial cut `fetch` after its first line or left its `return` atop the
# next card, where after `import httpx` each function stood whole at the same count), and
# the more the deeper the line it opens the next card with is indented (each
# `CODE_INDENT` spaces a level): a card that opens inside `try` reads with no context.
CODE_MID_CHUNK = 0.05
CODE_LEVEL = 0.02
CODE_INDENT = 4
SOFT = 0.04
# A break inside a section: of two sets alike, the cards that end where a heading starts
# (at 0.03 art-deco's Chengdu tip still opened its second card: its two sets 0.007 apart).
MID_SECTION = 0.05
# A break that opens the next card with a section's short end above its next heading
# (traditional-chinese's Chengdu tip over Day 2 at 500x500): what a card 40 % empty costs
# more than one 10 % empty, so a set that moves the lead-in along, or ends the card before
# the section's last block, wins where it costs no card and breaks no rule.
STRANDED = 0.15
# On a deck of slides a section's short end atop the next section costs more than a slide
# left under `LAST_FILL`: a deck gives each section its slide, and a slide of a heading and
# two lines reads as a slide (an essay's "Do the hard thing first": its quote on one slide,
# its closing paragraph atop "Move, even a little" on the next). Splitting a table that
# fits a slide whole costs more still: the ladder counts it a fault (`zoom.slide_faults`),
# and business's recipe split its table 3 | 2 to keep the tip after it.
STRANDED_SLIDE = 1.2
SPLIT_TABLE_SLIDE = 2.0
# A table's or a code block's short note parted from it (`breakrules.notes_under`): dearer
# than any number of cards a post could take, cheaper than a rule, so a table too tall to
# keep its heading and note on one card keeps its rows whole and lets the note go
# (minimal's recipe at 500x500 split its table 4 | 2 to keep the tip at the same price).
NOTE_PARTED = RULE / 4
CARD = 1e3  # a card more (`pagebreaks`): dearer than any hole and any discouraged break
# A deck that keeps its sections' ends (`keep_ends`: the zoom ladder's last resort,
# `slidetype.kept_ends`) pays for a short end atop the next section more than for a slide,
# less than for two: the English habits' quote closed "Measure, lightly" atop slide 4, above
# "Forgive the bad days", at every zoom of seven decks (tenth look, rated 4), where a fifth
# slide gives each section its own.
STRANDED_APART = 1.5 * CARD
# A short list (`breakrules.SHORT_LIST_LINES`) split: dearer than one card more, cheaper
# than two, a rule the report names. At 10 (cheaper than a card) the exam plan's four-item
# daily checklist still split 2 | 2 under its gantt in darktech, pop-art and
# traditional-chinese at 440x586 and 1080x1440 (eighth look, rated 3: "keep the list
# whole, move the heading and the whole list to card 3"); it now takes a fourth card.
SHORT_LIST_PARTED = 1.5 * CARD
# On a deck, a run of parallel items written as paragraphs (`breakrules.parallel_items`)
# parted: dearer than any hole a slide can leave, cheaper than a slide. The exam plan's three
# scoring items split 2 | 1 over two slides, each part-empty, in 23 theme-modes at 1600x900
# (eighth look: "put the heading and all three items on one card, the quote alone on a
# closing card"). Not on portrait cards, read on by scrolling: there the exam plan's list
# then stood alone on a card a third full, the set a type step smaller.
PARALLEL_PARTED = 10.0


class BreakPrices:
    """The price of each break of a post's column, and the rules it breaks, whatever card
    it ends; `deck`: the cards are slides (`STRANDED_SLIDE`, `SPLIT_TABLE_SLIDE`,
    `PARALLEL_PARTED`); `code`:
    the post holds a code block, whose deck keeps a card's short end as a card's
    (`breakrules.TAIL`), not a slide's; `keep_ends`: a short end stranded costs more than
    a card (`STRANDED_APART`)."""

    def __init__(
        self, column: Column, around: Surroundings, *, deck: bool, code: bool, keep_ends: bool
    ) -> None:
        self.column = column
        self.rows = column.rows
        self.n = column.n
        self.around = around
        self.deck = deck
        self.stranded = STRANDED_SLIDE if deck else STRANDED
        if keep_ends:
            self.stranded = STRANDED_APART
        # a deck's short end is its slide's (`TAIL_SLIDE`), but for a post with code (not a
        # diagram): the slides that kept its code whole at 10 px on a phone left sections'
        # ends for it
        self.tail = tail_share(deck and not code)
        self.parallel = around.parallel if deck else {}  # a deck's parallel items
        self._prices: dict[float, list[float]] = {}
        self._rules: dict[float, list[tuple[str, ...]]] = {}

    def of(self, squeeze: float) -> list[float]:
        """What each break costs whatever card it ends (the code block and paragraph
        splits, the discouraged breaks), computed once per pass."""
        if squeeze not in self._prices:
            around = self.around
            prices = [0.0] * (self.n + 1)
            rules: list[tuple[str, ...]] = [()] * (self.n + 1)
            for end in range(1, self.n):
                before = self.rows[end - 1]
                broken: list[str] = []
                if before.keep_with_next and before.keep_soft:  # inside a code block
                    block = around.code.get(end)
                    if block is not None and self.column.fits(block[0], block[1], squeeze):
                        broken.append(CODE_THAT_FITS_SPLIT)
                    else:
                        prices[end] += SPLIT_CODE + _mid_chunk(before, self.rows[end])
                elif before.keep_soft and not before.keep_with_next:
                    prices[end] += SOFT
                if self._splits_table(end, squeeze):
                    prices[end] += SPLIT_TABLE_SLIDE
                quote = around.quotes.get(end)
                if quote is not None and self.column.fits(quote[0], quote[1], squeeze):
                    broken.append(QUOTE_THAT_FITS_SPLIT)  # a pull quote reads as one
                if end in self.parallel:
                    prices[end] += PARALLEL_PARTED
                if end in around.paragraphs:
                    prices[end] += SPLIT_PARAGRAPH
                if not opens_section(self.rows[end]):
                    prices[end] += MID_SECTION + self.stranded * self._strands(end)
                if before.broken_word:  # "misun-" / next card "derstood"
                    broken.append(HYPHEN_AT_END)
                if end in around.lone_rows:  # a header repeated over one body row
                    broken.append(TABLE_ROW_ALONE)
                if end in around.bare_headers:  # priced over a keep: never cheaper than a lone row
                    broken.append(TABLE_HEADER_ALONE)
                prices[end] += RULE * len(broken)
                for rule, notes in around.notes.items():
                    if self._parts_note(notes, end, squeeze):  # a recipe's tip atop the method
                        broken.append(rule)
                        prices[end] += NOTE_PARTED
                if end in around.short_lists:  # a checklist 2 | 2
                    broken.append(SHORT_LIST_SPLIT)
                    prices[end] += SHORT_LIST_PARTED
                rules[end] = tuple(broken)
            self._prices[squeeze] = prices
            self._rules[squeeze] = rules
        return self._prices[squeeze]

    def rules(self, squeeze: float) -> list[tuple[str, ...]]:
        """The rules each break breaks whatever card it ends (`of`'s, named)."""
        self.of(squeeze)
        return self._rules[squeeze]

    def partings(self, ends: list[int], squeeze: float = 0.0) -> int:
        """How many breaks of the set `ends` part what a card should hold together: cards
        that open with a section's short end (`_strands`), a paragraph's last lines
        included: where squeezed gaps end the section on its card instead, every card of
        the long article opens with a heading. The report does not charge a paragraph
        that reads on (`breakrules.opens_stranded`): a type step taken to spare one left
        its first card three-quarters full. On a deck, a table split though it fits a
        slide with `squeeze` (its rows set tight) counts too: business's recipe kept its
        table whole on a slide only with tight rows; and so does a run of parallel items
        parted (`PARALLEL_PARTED`): coil-notebook's three scoring items fit one slide
        with its gaps 1 px tighter."""
        opened = sum(not opens_section(self.rows[end]) and self._strands(end) for end in ends[:-1])
        parallel = sum(end in self.parallel for end in ends[:-1])
        return opened + parallel + sum(self._splits_table(end, squeeze) for end in ends[:-1])

    def _splits_table(self, end: int, squeeze: float) -> bool:
        """On a deck, whether a break at `end` falls inside a table that fits one slide
        with `squeeze` (its gaps, and then its rows set tight)."""
        table = self.around.tables.get(end) if self.deck else None
        if table is None:
            return False
        return self.column.fits_tight(*table, squeeze)

    def _parts_note(self, notes: dict[int, tuple[int, int]], end: int, squeeze: float) -> bool:
        """Whether a break at `end` parts a table or a code block from its short note (one
        of `notes`, `breakrules.notes_under`), where the block's keep chain (its heading,
        its rows) and the note fit one card with `squeeze` (a table's rows set tight): a
        block too tall for that splits from its note, as it must, rather than across its
        rows (apple-notes' recipe slides; the git post's warning on a slide of its own)."""
        kept = notes.get(end)
        if kept is None:
            return False
        first, note_end = kept
        return self._short(end, note_end) and self.column.fits_tight(first, note_end, squeeze)

    def _strands(self, end: int) -> bool:
        """Whether a card opening at row `end` (inside a section) opens with that section's
        end, its rows under `TAIL` of the card tall, above the next heading or rule (the
        gap before that heading is not the end's: counted, a slide's two-line paragraph
        atop the next section read as 39 % of it and passed)."""
        head = self.around.next_sections[end]
        return head < self.n and self._short(end, head)

    def _short(self, start: int, stop: int) -> bool:
        """Whether rows[start:stop] (their rows, not the gap before `start`) are under
        `tail` of the card tall: a section's end that reads as left over on its own."""
        column = self.column
        return column.bottoms[stop - 1] - column.tops[start] < self.tail * column.height


def _mid_chunk(before: Row, after: Row) -> float:
    """What a code block's split between `before` and `after` costs over `SPLIT_CODE`:
    nothing after a blank line (between functions), else `CODE_MID_CHUNK` and a
    `CODE_LEVEL` for each level `after` is indented."""
    if not before.text.strip():
        return 0.0
    indent = len(after.text) - len(after.text.lstrip(" "))
    return CODE_MID_CHUNK + CODE_LEVEL * (indent // CODE_INDENT)
