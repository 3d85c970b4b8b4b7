"""The render worker answers the engine's early refusals (tests/layout/test_hostile_layout.py)
with the documented 4xx labels, in bounded time: the worker's own mapping, real engine."""

from __future__ import annotations

import time

import pytest

from inkcard import layout
from inkcard.app.errors import ApiError
from inkcard.app.render import jobs, refusals
from inkcard.app.settings import Settings

TABLE = "|a|b|\n|-|-|\n" + "|1|2|\n" * 16_000  # 96 KB: the attacker's 16,000-row table
CODE = "```\n" + "x\n" * 49_000 + "```\n"  # 98 KB


@pytest.mark.parametrize(
    ("md", "options", "label"),
    [
        (TABLE, {"split": "autoSplit"}, "too_many_pages"),
        (CODE, {}, "card_too_large"),  # noSplit: one card that grows
        (CODE, {"format": "webp"}, "card_too_large"),  # longer than WebP holds
        (
            TABLE,
            {"split": "autoSplit", "width": 1600, "height": 4000, "scale": 4},
            "too_many_pixels",
        ),
    ],
    ids=["pages", "pixels-of-a-card", "webp-side", "pixels-of-all"],
)
def test_an_oversized_post_is_its_label_in_bounded_time(fonts, apple_notes, md, options, label):
    """The service's budgets (app.cards.service): 50 cards, 102,400,000 pixels a card, the
    default output budget for all of them."""
    limits = {
        "max_pages": layout.MAX_CARDS,
        "max_pixels": refusals.MAX_CARD_PIXELS,
        "max_total_pixels": Settings().max_output_pixels,
    }
    start = time.process_time()
    with pytest.raises(ApiError) as refused:
        jobs.render_cards(md, apple_notes, fonts, layout.RenderOptions(**limits, **options))
    assert refused.value.label == label
    assert refused.value.status == 400
    assert time.process_time() - start < 5.0  # the table alone took 18 s
