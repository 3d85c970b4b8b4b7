"""The render worker answers the engine's early refusals (tests/layout/test_hostile_layout.py)
with the documented 4xx labels, after bounded work: the worker's own mapping, real engine.
The work is counted (the table rows and code lines laid out), not timed."""

from __future__ import annotations

import pytest

from inkcard import layout
from inkcard.app.errors import ApiError
from inkcard.app.render import jobs, refusals
from inkcard.app.settings import Settings
from inkcard.layout.blocks import panels
from inkcard.layout.blocks.tables import rows as tables
from tests.cpu import counted

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
def test_an_oversized_post_is_its_label_in_bounded_time(
    fonts, apple_notes, md, options, label, monkeypatch
):
    """The service's budgets (app.cards.service): 50 cards, 102,400,000 pixels a card, the
    default output budget for all of them. Refused after laying out an eighth of the post's
    lines at most (today 576 table rows of 16,001; 2,806 and 805 code lines of 49,000),
    not all of them (the table alone took 18 s)."""
    limits = {
        "max_pages": layout.MAX_CARDS,
        "max_pixels": refusals.MAX_CARD_PIXELS,
        "max_total_pixels": Settings().max_output_pixels,
    }
    rows = counted(monkeypatch, tables, "_row")
    lines = counted(monkeypatch, panels, "layout_text")
    with pytest.raises(ApiError) as refused:
        jobs.render_cards(md, apple_notes, fonts, layout.RenderOptions(**limits, **options))
    assert refused.value.label == label
    assert refused.value.status == 400
    assert 0 < rows.count + lines.count < md.count("\n") / 8
