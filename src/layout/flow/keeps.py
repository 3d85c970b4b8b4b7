"""Where a card may not break between two top-level blocks, read off the blocks (not
their rows): a lead-in and what it introduces, a table or figure and its short note, a
display formula and its legend, a section's one-line end and the block before it; and a
paragraph that opens with a bold run-in head, one of a set of parallel items. `Flow.stack`
asks here as it stacks the blocks."""

from __future__ import annotations

from dataclasses import replace

from ..base.boxes import Row
from ..base.records import replaced
from ..blocks.fences import is_diagram
from ..blocks.parts import Part
from ..parse.doc import Block, CodeBlock, Heading, Image, ListBlock, Paragraph, Rule, Table
from ..parse.markdown import MATH_DISPLAY


def keep_joined(
    rows: list[Row],
    previous: Block | None,
    first: int,
    block: Block | None,
    lines: int = 0,
    in_item: bool = False,
) -> None:
    """Keeps the break before `block` (None: the end of the document; `lines`: the rows it
    makes) where a designer would: a paragraph ending in a colon stays with the block it
    introduces, and so does a list item's text with the list nested under it (`in_item`:
    its sub-points opening the next card read as orphans, their parent out of sight); a
    table's note stays with the table; a formula stays with the paragraph that names its
    symbols; a one-line paragraph that ends a section (a heading or a rule follows) stays
    with the block before it."""
    nested = in_item and isinstance(previous, Paragraph) and isinstance(block, ListBlock)
    if block is not None and (
        nested
        or _is_lead_in(previous)
        or _notes_on(previous, block, lines)
        or _legend_of(previous, block)
    ):
        rows[-1] = replace(rows[-1], keep_with_next=True)
    ends_section = block is None or isinstance(block, Heading | Rule)
    if ends_section and isinstance(previous, Paragraph) and 0 < first == len(rows) - 1:
        rows[first - 1] = replace(rows[first - 1], keep_with_next=True)


# How a table's note or source line opens; or the whole line is in italics.
_NOTE_OPENINGS = ("注", "备注", "来源", "数据来源", "资料来源", "※", "*", "Note", "Source")
_NOTE_CHARS = 160  # longer, it is a paragraph of its own, not a note
# A paragraph of at most this many lines right under a table reads as its note, whatever it
# opens with ("以上价格会随季节变化。" opened the next slide alone in most probes at 1600x900).
_NOTE_LINES = 2


def _notes_on(previous: Block | None, block: Block, lines: int = 0) -> bool:
    """Whether `block` (laid out in `lines` rows) is a short note on the table before it
    ("注：…", "Source: …", an italic line, or any paragraph of one or two lines), or on the
    figure before it (a paragraph of one or two lines: "每一层大约流失 60%" under a funnel
    opened the next card, above a diagram it was not about); it stays on their card:
    parted from them, it reads as stray text."""
    if not isinstance(block, Paragraph):
        return False
    if is_figure(previous):
        return 0 < lines <= _NOTE_LINES
    if not isinstance(previous, Table):
        return False
    if 0 < lines <= _NOTE_LINES:
        return True
    text = _plain_text(block).strip()
    italic = bool(block.inlines) and all("em" in t.marks for t in block.inlines)
    return len(text) <= _NOTE_CHARS and (text.startswith(_NOTE_OPENINGS) or italic)


# How the paragraph that names a display formula's symbols opens ("其中 S_k 是第 k 期的净值").
_LEGEND_OPENINGS = ("其中", "式中", "这里", "此处", "where ", "Where ", "here ", "Here ")


def _legend_of(previous: Block | None, block: Block | None) -> bool:
    """Whether `block` is the legend of the display formula `previous`: parted from it, the
    formula ends one card and "其中 S_k 是…" opens the next, naming symbols out of sight."""
    if not isinstance(block, Paragraph) or not _is_display_math(previous):
        return False
    return _plain_text(block).lstrip().startswith(_LEGEND_OPENINGS)


def _is_display_math(block: Block | None) -> bool:
    """A paragraph of one display formula (`$$…$$`, how markdown.py parses a math block)."""
    if not isinstance(block, Paragraph) or len(block.inlines) != 1:
        return False
    return MATH_DISPLAY in block.inlines[0].marks


_COLONS = (":", "：")  # what a lead-in ends with, and a run-in head


def _is_lead_in(block: Block | None) -> bool:
    """A paragraph that introduces what follows: its text ends in a colon."""
    if not isinstance(block, Paragraph):
        return False
    return _plain_text(block).rstrip().endswith(_COLONS)


def opens_run_in(block: Block) -> bool:
    """A paragraph that opens with a bold head ending in a colon, inside the bold or
    right after it ("**阅读（40 分）**：错题比做题重要…", "**Tip:** …"): one of a set of
    parallel items written as paragraphs rather than as a list."""
    if not isinstance(block, Paragraph) or len(block.inlines) < 2:
        return False
    head, rest = block.inlines[0], block.inlines[1]
    if "strong" not in head.marks or not head.text.strip():
        return False
    return head.text.rstrip().endswith(_COLONS) or rest.text.startswith(_COLONS)


def _plain_text(paragraph: Paragraph) -> str:
    """A paragraph's text without its marks: what the keep rules read it by."""
    return "".join(t.text for t in paragraph.inlines)


def is_figure(block: Block | None) -> bool:
    """A picture or a Mermaid diagram (drawn, or shown as its source)."""
    return isinstance(block, Image) or (isinstance(block, CodeBlock) and is_diagram(block))


def run_in_marked(block: Block, part: Part) -> Part:
    """`part` (the rows of top-level `block`) with each row marked `run_in` where the block
    opens with a run-in head (`opens_run_in`); else `part` as it is."""
    if not opens_run_in(block):
        return part
    return Part(tuple(replaced(row, run_in=True) for row in part.rows), part.top, part.bottom)
