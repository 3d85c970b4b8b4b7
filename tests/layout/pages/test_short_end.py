"""A set whose cards are full but its last ends short is set a step larger.

coil-notebook's reading notes at 440x586 and 1080x1440: 95 | 72 | 52 %, the lower half of
the last card blank (tenth look, rated 3). The set was neither spread thin (0.73 full on
average, `typesteps.THIN` 0.7) nor left a card open (`OPEN` 0.7), so its type stayed the
theme's; a last card under `SHORT_END` now tries the grown steps too, and keeps the first
whose last card is fuller, on as many cards, with no fault, no new hole and no lower score.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.pages.quality import measure
from inkcard.layout.pages.typesteps import SHORT_END

CASES = Path(__file__).resolve().parents[2] / "cases"


def fills(post: str, theme: str, mode: str | None, width: int, height: int) -> list[float]:
    text = (CASES / post).read_text("utf-8")
    options = layout.RenderOptions(width=width, height=height, split="autoSplit", mode=mode)
    pages = layout.layout_pages(text, themes.load(theme), layout.FontBook.load(), options)
    return [quality.fill for quality in map(measure, pages) if quality is not None]


@pytest.mark.parametrize(
    ("theme", "mode", "size"),
    [
        ("coil-notebook", "blue-mode", (440, 586)),
        ("coil-notebook", "yellow-mode", (1080, 1440)),
        ("cyberpunk", None, (440, 586)),
    ],
)
def test_the_reading_notes_fill_their_last_card(
    theme: str, mode: str | None, size: tuple[int, int]
) -> None:
    cards = fills("hard/13-reading-notes.md", theme, mode, *size)
    assert len(cards) == 3
    assert cards[-1] > SHORT_END + 0.2
    assert min(cards) > 0.75


def test_a_set_that_cannot_fill_its_last_card_keeps_its_type() -> None:
    """The home workout in warm at 1080x1440 (99 | 52 %): a step larger either takes a
    third card or moves its table to card 2 and leaves card 1 60 % full, a hole the
    grown set may not open: the type stays the theme's."""
    cards = fills("hard/17-home-workout.md", "warm", None, 1080, 1440)
    assert len(cards) == 2 and cards[0] > 0.95
