"""Frames and notes on bands. A block's frame reaches just past the outermost lifelines
it holds: far enough for an autonumber disc and its own line, no farther (60 px a side
made a six-column sequence 775 px wide and its labels 6 px on a card); a note is opaque
over the bands under it."""

from __future__ import annotations

from inkcard import layout
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Mark, mark_bounds
from inkcard.layout.diagrams.sequences.sequence import DISC

MOST = 32.0  # px a frame may reach past its outermost lifeline

SOURCE = """sequenceDiagram
  autonumber
  participant A as Client
  participant B as Gateway
  participant C as Store
  loop every minute
    A->>B: poll
    loop retries
      B->>C: fetch
      C-->>A: rows
    end
  end
"""


def test_frames_hold_the_discs_and_reach_no_farther(fonts: layout.FontBook) -> None:
    drawing = draw_diagram(SOURCE, LabelSetter(fonts).measure)
    lifelines = [mark_bounds(i.ops)[0] for i in drawing.items if isinstance(i, Mark) and i.dash]
    first, last = min(lifelines), max(lifelines)
    frames = sorted(
        (mark_bounds(i.ops) for i in drawing.items if isinstance(i, Mark) and i.stroke == "accent"),
        key=lambda box: box[0],
    )
    outer, inner = frames[0], frames[1]
    assert first - inner[0] <= MOST and inner[2] - last <= MOST
    assert inner[0] > outer[0] and inner[2] < outer[2]  # nested, inside
    assert first - inner[0] > DISC + 1  # a disc on the first lifeline stays inside
    assert drawing.width < 2 * MOST + (last - first) + 60


NOTED = """sequenceDiagram
  box Back end
  participant A as Orders
  participant B as Payments
  end
  rect rgb(200, 220, 255)
    Note over A,B: Settled nightly
    A->>B: Reconcile
  end
"""


def test_a_note_is_opaque_over_the_bands_under_it(fonts: layout.FontBook) -> None:
    """A note laid over a `box` group's band and a `rect` band stacked their see-through
    tints under its text (dark grey on mid grey, lost by tesseract): the page is laid
    first under its panel."""
    drawing = draw_diagram(NOTED, LabelSetter(fonts).measure)
    items = list(drawing.items)
    panel = next(i for i in items if isinstance(i, Mark) and i.fill == "panel")
    below = items[items.index(panel) - 1]
    assert isinstance(below, Mark) and below.fill == "page" and below.ops == panel.ops
