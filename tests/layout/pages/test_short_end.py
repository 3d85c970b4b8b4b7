"""A set whose cards are full but its last ends short is set a step larger.

coil-notebook's reading notes at 440x586 and 1080x1440: 95 | 72 | 52 %, the lower half of
the last card blank (tenth look, rated 3). The set was neither spread thin (0.73 full on
average, `growntype.THIN` 0.7) nor left a card open (`OPEN` 0.7), so its type stayed the
theme's; a last card under `SHORT_END` now tries the grown steps too, and keeps the first
whose last card is fuller, on as many cards, with no fault, no new hole and no lower score.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.pages.growntype import SHORT_END
from inkcard.layout.pages.quality import measure

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


@pytest.mark.parametrize("theme", ["warm", "dreamy", "minimalist"])
@pytest.mark.parametrize("size", [(440, 586), (1080, 1440)])
def test_the_workout_sets_its_masthead_over_a_card_of_its_own(
    theme: str, size: tuple[int, int]
) -> None:
    """The home workout (99 | 52 %, tenth look, rated 3 at 1080x1440): a step larger moves
    its table to card 2 and leaves card 1's title, lead and warm-up 60 % full, a hole the
    grown set could not open; their masthead sets it 74 % full, as apple-notes' (75 | 100
    %, rated 5), so the step is taken (`growntype._least_hole`)."""
    cards = fills("hard/17-home-workout.md", theme, None, *size)
    assert len(cards) == 2
    assert cards[0] > 0.7 and cards[1] > 0.95
