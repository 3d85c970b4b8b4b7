"""A card's options (its size, split mode, limits, type step, label, brand) → the virtual
card it is laid out as and the page drawn from it.

Type follows the card (compose.py): a card larger than the 3:4 default is laid out at a
smaller virtual size (`laid_out_at`) and drawn that many times larger (`zoomed`); the output
pixels, and so the pixel limits, stay the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal, get_args

from ..base.boxes import Group, Page, Rect
from ..base.placing import Placement
from ..flow.budget import OutputLimits
from ..style.brandkit import BrandKit

SplitMode = Literal["noSplit", "autoSplit", "hrSplit"]
SPLIT_MODES: tuple[SplitMode, ...] = get_args(SplitMode)


def hides_overflow(split: SplitMode, overflow_hidden: bool) -> bool:
    """Overflow hiding applies to fixed cards that do not flow; autoSplit flows instead."""
    return overflow_hidden and split != "autoSplit"


@dataclass(frozen=True, slots=True)
class Card:
    width: float
    height: float
    split: SplitMode = "noSplit"
    overflow_hidden: bool = False
    limits: OutputLimits = field(default_factory=OutputLimits)
    type_step: float = 1.0  # the theme's type scale times this (fit "auto" tries a few)
    label: str = ""  # an AI-content label on every card (aigclabel.py); empty: none
    brand: BrandKit | None = None  # marks in the footer band the branded theme keeps
    keep_ends: bool = False  # a card more before a section's end apart (`endskept.kept_ends`)


def laid_out_at(card: Card, zoom: float) -> Card:
    """The virtual card `card` drawn `zoom` times larger is (the same output pixels)."""
    if zoom == 1.0:
        return card
    limits = replace(card.limits, scale=card.limits.scale * zoom)
    return replace(card, width=card.width / zoom, height=card.height / zoom, limits=limits)


def zoomed(page: Page, zoom: float, card: Card, *, grown: bool) -> Page:
    """A virtual card drawn `zoom` times larger, at exactly the asked size unless it grew
    (so that no rounding adds a row of pixels)."""
    height = page.height * zoom if grown else card.height
    items = (Group(page.items, scale=zoom),)
    fit = replace(page.fit, zoom=zoom) if page.fit is not None else None
    return Page(card.width, height, page.background, items, page.rows, fit)


def card_size(card: Card) -> tuple[float, float]:
    return (card.width, card.height)


def grown_size(placement: Placement, box: Rect, card: Card) -> tuple[float, float]:
    """The size of a card that grows to fit its rows (noSplit, hrSplit)."""
    return (card.width, card.height + max(0.0, placement.height - box.height))
