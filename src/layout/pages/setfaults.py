"""A portrait or square set of cards → what a designer holds against it, for the type steps
(typesteps.py, growntype.py) and the card more a stranded end may take (endskept.py): its
faults (`card_faults`: a slide's faults and each section's end stranded atop a card), its
flaws (`flawed`: a short last card, a title card alone), its emptiest card before the last
(`least_before_last`) and the blocks it parts over cards (`blocks_parted`).
"""

from __future__ import annotations

from ..base.boxes import Page
from .quality import Quality, measure
from .zoom import SPARSE, measured, set_faults, split_heights, stranded_tails

# A card before the last filled under this (its next block, a table, 2 px too tall to join
# it) is a hole a step of the type ladder may close: the workout post's card 1 (title, lead
# and warm-up, 60-65 %) with its table on card 2 read a third empty in 23 theme-modes at
# 440x586 and 1080x1440 (seventh look: "move the table up onto card 1"). Where no step
# down closes it, a step up may fill it (`grown_type`, from `ROOMY` up).
OPEN = 0.7


def card_faults(pages: list[Page], measures: list[Quality | None] | None = None) -> tuple[int, int]:
    """What a designer holds against a set of portrait or square cards: a slide's faults
    (`set_faults`), and with the cards half empty, each card that opens with a section's
    stranded end (`stranded_tails`). `measures`: each page's `measure`, when the caller
    has them."""
    broken, sparse = set_faults(pages, measures)
    return broken, sparse + stranded_tails(pages)


def _title_apart(pages: list[Page], measures: list[Quality | None]) -> bool:
    """Whether the first of two or more cards holds the title and lead alone, under
    `SPARSE` full: the section under them could not join them (cyberpunk's recipe at
    440x586 keeps its table's tip on card 2 so, where 0.96 of the type holds the post on
    two full cards, every section whole)."""
    first = pages[0].fit if len(pages) > 1 else None
    quality = measures[0]
    return first is not None and first.title and quality is not None and quality.fill < SPARSE


def short_last(pages: list[Page], measures: list[Quality | None] | None = None) -> bool:
    """Whether the last card of a set of two or more is under `SPARSE` full: pop-art's
    book list at 440x586 left its table and closing question alone on a third card.
    `measures`: each page's `measure`, when the caller has them."""
    if len(pages) < 2:
        return False
    last = measures[-1] if measures is not None else measure(pages[-1])
    return last is not None and last.fill < SPARSE


def flawed(pages: list[Page], measures: list[Quality | None] | None = None) -> bool:
    """Whether the set has a short last card (`short_last`) or its title card alone
    (`_title_apart`); `measures`: each page's `measure`, when the caller has them."""
    measures = measured(pages, None) if measures is None else measures
    return short_last(pages, measures) or _title_apart(pages, measures)


def least_before_last(
    pages: list[Page], measures: list[Quality | None], *, titles: bool = True
) -> float:
    """How full the emptiest measured card before the last is (1 where there is none);
    without `titles`, of those that do not hold the title and lead alone (`Fit.title`)."""
    fills = [
        quality.fill
        for page, quality in zip(pages[:-1], measures[:-1], strict=True)
        if quality is not None and (titles or not (page.fit is not None and page.fit.title))
    ]
    return min(fills, default=1.0)


def blocks_parted(pages: list[Page]) -> int:
    """How many of the post's blocks the set parts over two or more cards: business's
    recipe at 1.1 filled its last card by parting the four steps 2 | 2, where the theme's
    own type holds them whole on card 1 and sets the closing section alone on card 2."""
    return len(split_heights(pages))


def titled(pages: list[Page]) -> bool:
    """Whether the first card holds the title and lead alone (`Fit.title`): a step that
    makes one holds its hole as a cover, not as a fuller card (the brand kit's post at
    0.98 set its title alone and parted each of its three paragraphs over two cards)."""
    return pages[0].fit is not None and pages[0].fit.title
