"""A sequence's `box` groups: two side by side never overlap, in the form as written or
in the compact one (heads 8 px apart), where their two tints drew a darker stripe through
the message labels between them; they meet halfway, each still behind all its heads."""

from __future__ import annotations

import pytest

from inkcard.layout.diagrams.fit import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Mark, mark_bounds, tint

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


@pytest.mark.parametrize("compact", [False, True], ids=["as-written", "compact"])
def test_box_groups_side_by_side_never_overlap(fonts, compact: bool) -> None:
    drawing = draw_diagram(SOURCE, LabelSetter(fonts).measure, compact)
    heads = sorted(
        mark_bounds(item.ops)
        for item in drawing.items
        if isinstance(item, Mark) and item.fill == tint("accent")
    )
    for items in (drawing.items, drawing.heads):  # the bands, and their stubs atop a band
        bands = sorted(
            mark_bounds(item.ops)
            for item in items
            if isinstance(item, Mark) and item.fill == tint("muted")
        )
        assert len(bands) == 2 and len(heads) == 4
        assert bands[0][2] <= bands[1][0] + 1e-6  # the compact form overlapped them by 10 px
        for band, members in ((bands[0], heads[:2]), (bands[1], heads[2:])):
            assert all(band[0] < head[0] and head[2] < band[2] for head in members)
