"""`Doc` + styles + card options → `Page`s, per split mode.

- noSplit: one card, as tall as its content if that exceeds the card height.
- hrSplit: one card per part between top-level thematic breaks (empty parts skipped).
- autoSplit: fixed-size cards, content flowing from card to card.
- overflow hidden (not with autoSplit): fixed-size cards cut after the last whole line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, get_args

from .boxes import Group, Item, Page, Rect, Row
from .chrome import decoration_items, page_number_items
from .flow import Flow
from .fonts import FontBook
from .markdown import Doc, split_at_rules
from .paginate import cut, frame_items, paginate, place
from .style import Styles

SplitMode = Literal["noSplit", "autoSplit", "hrSplit"]
SPLIT_MODES: tuple[SplitMode, ...] = get_args(SplitMode)
MAX_CARDS = 50  # one request never makes more cards than this
# What a caller may ask for: card width and height in CSS px, output scale (an integer).
CARD_LIMITS: dict[str, tuple[int, int]] = {
    "width": (100, 1600),
    "height": (100, 4000),
    "scale": (1, 4),
}


def hides_overflow(split: SplitMode, overflow_hidden: bool) -> bool:
    """Overflow hiding applies to fixed cards that do not flow; autoSplit flows instead."""
    return overflow_hidden and split != "autoSplit"


class RenderError(Exception):
    """The input cannot be rendered as asked (as opposed to a bug)."""


class TooManyPages(RenderError):
    """The content would make more cards than allowed."""

    def __init__(self, count: int, limit: int) -> None:
        super().__init__(f"the content makes {count} cards; at most {limit} are allowed")
        self.count = count
        self.limit = limit


class CardTooLarge(RenderError):
    """A card would have more pixels than the caller's budget."""

    def __init__(self, width: int, height: int, limit: int) -> None:
        super().__init__(f"a card would be {width}x{height} pixels, more than {limit:,}")
        self.width = width
        self.height = height
        self.limit = limit


@dataclass(frozen=True, slots=True)
class Card:
    width: float
    height: float
    split: SplitMode = "noSplit"
    overflow_hidden: bool = False
    max_pages: int = MAX_CARDS


def content_box(styles: Styles, width: float, height: float) -> Rect:
    """Where rows go on a card: inside the padding, between header and footer."""
    card = styles["card"]
    top, right, bottom, left = card.padding
    y = top + card.header_height
    return Rect(
        left, y, max(1.0, width - left - right), max(1.0, height - y - bottom - card.footer_height)
    )


def compose(
    doc: Doc, styles: Styles, fonts: FontBook, images: Mapping[str, bytes], card: Card
) -> list[Page]:
    box = content_box(styles, card.width, card.height)
    fixed = card.split == "autoSplit"
    flow = Flow(styles, fonts, images, max_row_height=box.height if fixed else None)
    if fixed:
        pages = paginate(flow.doc(doc, x=box.x, width=box.width), box.height) or [[]]
    else:
        parts = split_at_rules(doc) if card.split == "hrSplit" else [doc]
        pages = [flow.doc(part, x=box.x, width=box.width) for part in parts or [Doc()]]
        if card.overflow_hidden:
            # A first row taller than the card is kept and scaled, not hidden whole.
            pages = [cut(rows, box.height) or rows[:1] for rows in pages]
    if len(pages) > card.max_pages:
        raise TooManyPages(len(pages), card.max_pages)
    grow = not fixed and not card.overflow_hidden
    return [
        _page(rows, n, len(pages), styles, fonts, box, card, grow=grow)
        for n, rows in enumerate(pages, start=1)
    ]


def _page(
    rows: list[Row],
    number: int,
    total: int,
    styles: Styles,
    fonts: FontBook,
    box: Rect,
    card: Card,
    *,
    grow: bool,
) -> Page:
    placement = place(rows, limit=box.height)
    height = card.height
    if grow and placement.height > box.height:
        height = card.height + placement.height - box.height
    items: list[Item] = decoration_items(styles, fonts, card.width, height)
    items.extend(frame_items(placement, 0.0, box.y))
    for placed in placement.rows:
        items.append(_row_group(placed.row.items, placed.y + box.y, placed.scale, box))
    if total > 1:
        style = styles["page_number"]
        footer = styles["card"]
        items.extend(
            page_number_items(
                style,
                fonts,
                number=number,
                total=total,
                right=box.right,
                bottom=height - footer.padding[2],
                width=box.width,
            )
        )
    return Page(
        card.width, height, styles["card"].background or 0xFFFFFFFF, tuple(items), placement.rows
    )


def _row_group(items: tuple[Item, ...], y: float, scale: float, box: Rect) -> Item:
    if scale == 1.0:
        return Group(items, dy=y)
    # Scale about the content box's left edge, then centre what remains.
    dx = box.x * (1 - scale) + box.width * (1 - scale) / 2
    return Group(items, dx=dx, dy=y, scale=scale)
