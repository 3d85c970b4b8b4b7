"""A sequence's `box` groups: two side by side never overlap, in the form as written or
in the compact one (heads 8 px apart), where their two tints drew a darker stripe through
the message labels between them; they meet halfway, each still behind all its heads."""

from __future__ import annotations

import itertools

import pytest

from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Label, Mark, mark_bounds, tint

SOURCE = """sequenceDiagram
  box Front end
    actor U as Shopper
    participant W as Web app
  end
  box Back end
    participant O as Orders
    participant P as Payments
  end
  U->>W: Place order
  W->>O: Apply coupon
  O->>P: Charge card
"""


def _bands(items: tuple[Mark | Label, ...]) -> list[tuple[float, float, float, float]]:
    return sorted(
        mark_bounds(item.ops)
        for item in items
        if isinstance(item, Mark) and item.fill == tint("muted")
    )


@pytest.mark.parametrize("compact", [False, True], ids=["as-written", "compact"])
def test_box_groups_side_by_side_never_overlap(fonts, compact: bool) -> None:
    drawing = draw_diagram(SOURCE, LabelSetter(fonts).measure, compact)
    heads = sorted(
        mark_bounds(item.ops)
        for item in drawing.items
        if isinstance(item, Mark) and item.fill == tint("accent")
    )
    assert len(heads) == 4
    # the bands, and their stubs atop a band: one tint everywhere (overlapping, the compact
    # form's two drew a stripe 12 px wide, the two tints over one another)
    for items in (drawing.items, drawing.heads):
        bands = _bands(items)
        assert all(a[2] <= b[0] + 1e-6 for a, b in itertools.pairwise(bands)), bands
        for head in heads:  # every head in a band
            assert any(band[0] < head[0] and head[2] < band[2] for band in bands)
    titles = sorted(i.x for i in drawing.items if isinstance(i, Label) and "end" in i.text.lines[0])
    assert len(titles) == 2 and titles[0] < heads[1][2] and titles[1] > heads[2][0]
