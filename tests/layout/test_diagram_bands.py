"""A diagram too tall for a card at a legible size is cut into bands, a card each.

The long sequence case (30 messages) was shrunk to the card's height: its labels came to
3 px on a 360-px phone (quality score 36). Cut into bands at the width's scale, each card
shows a part that reads, no label is cut or lost, and the quality report says so.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np

from inkcard import layout, themes
from inkcard.layout.diagrams.bands import FRAME_HEAD, band_span, bands
from inkcard.layout.diagrams.fit import DiagramBudget, draw_to_fit
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Drawing, Label, Lines, Mark
from inkcard.layout.pages.quality import measure
from tests import pngcodec

CASES = Path(__file__).resolve().parents[1] / "cases" / "mermaid"


def _sequence(messages: int) -> str:
    lines = ["sequenceDiagram", "participant A as 客户端", "participant B as 服务"]
    lines += [f"A->>B: {_said(n)}" if n % 2 else f"B-->>A: {_said(n)}" for n in range(messages)]
    return "# 长时序\n\n```mermaid\n" + "\n".join(lines) + "\n```\n"


def _said(n: int) -> str:
    return f"第 {n} 次请求" if n % 2 else f"第 {n} 次回应"


def test_a_tall_sequence_is_cut_into_bands_that_read(fonts) -> None:
    options = layout.RenderOptions(width=440, height=586, split="autoSplit", mode="light-mode")
    post = _sequence(40)
    pages = layout.layout_pages(post, themes.load("apple-notes"), fonts, options)
    qualities = [measure(page) for page in pages]
    assert len(pages) >= 2
    assert min(q.smallest_text for q in qualities) >= 8.0, [q.smallest_text for q in qualities]
    assert any("cut into" in note for q in qualities for note in q.notes)
    shown = [t for page in pages for p in page.rows for t in p.row.text.splitlines()]
    for n in range(40):  # every message's label on exactly one card
        assert shown.count(_said(n)) == 1, _said(n)


def test_a_graph_is_cut_only_where_it_would_shrink_to_half(fonts) -> None:
    """A state chart that fits a card at 70 % of the width's scale stays whole: a cut
    parts a graph's edges, a price worth paying only against severe shrinking."""
    options = layout.RenderOptions(width=440, height=586, split="autoSplit", mode="light-mode")
    post = (CASES / "30-state-order-cjk.md").read_text("utf-8")
    assert len(layout.layout_pages(post, themes.load("apple-notes"), fonts, options)) == 1


def test_a_band_paints_nothing_outside_its_clip(fonts) -> None:
    """The band's group clips the lines that cross its cut: the card's margins under the
    diagram's last band row stay the page colour."""
    options = layout.RenderOptions(width=440, height=586, split="autoSplit", mode="light-mode")
    cards = layout.render(_sequence(60), themes.load("apple-notes"), fonts, options)
    first = pngcodec.decode(cards[0])
    footer = first[-70:-40, 10:-10, :3].reshape(-1, 3)  # over the page number's band
    page = np.median(footer, axis=0)
    lines = (np.abs(footer.astype(int) - page).max(axis=1) > 60).mean()
    assert lines < 0.02  # page-number glyphs, not lifelines running on


def _label(y: float, height: float = 10.0) -> Label:
    return Label(Lines((f"at {y}",), 30.0, height, 12.0), 50.0, y)


def test_a_cut_never_passes_through_a_label() -> None:
    items = tuple(_label(y) for y in range(0, 400, 13))
    drawing = Drawing(100.0, 400.0, items, "")
    parts = bands(drawing, 100.0, 100.0)
    assert len(parts) >= 4
    for part in parts:
        for item in part.items:
            assert isinstance(item, Label)
            assert part.top <= item.y and item.y + item.text.height <= part.bottom
    assert sum(len(part.items) for part in parts) == len(items)


def test_a_cut_goes_round_a_small_box_where_it_can() -> None:
    """A note box from 80 to 110 is not cut at 100: the band ends above it."""
    box = Mark((("M", 10.0, 80.0), ("L", 90.0, 80.0), ("L", 90.0, 110.0), ("Z",)), fill="fill")
    drawing = Drawing(100.0, 300.0, (box, _label(150.0)), "")
    cut = bands(drawing, 100.0, 100.0)[0].bottom
    assert cut <= 80.0 and cut >= 40.0


def test_bands_are_filled_evenly_not_a_stub_last() -> None:
    """Greedy cuts of 25 rows in bands of 100 px left a last band of three rows under
    three full ones (case 90's "warm"); the same count of bands, each as full as the next."""
    drawing = Drawing(100.0, 330.0, tuple(_label(y) for y in range(0, 325, 13)), "")
    heights = [part.bottom - part.top for part in bands(drawing, 100.0, 100.0)]
    assert len(heights) == 4
    assert min(heights) >= 0.75 * max(heights), heights


def test_a_kept_span_is_cut_only_where_nothing_else_is_clear() -> None:
    """A timeline's period (55 to 105) stays on one card when a cut above it is clear."""
    items = tuple(_label(y) for y in (0.0, 20.0, 40.0, 55.0, 75.0, 95.0, 150.0))
    drawing = Drawing(100.0, 170.0, items, "", keep=((55.0, 105.0),))
    cut = bands(drawing, 100.0, 100.0)[0].bottom
    assert 50.0 <= cut <= 55.0


def test_no_card_ends_on_a_frames_head() -> None:
    """An `alt` frame from 60 to 180: no cut falls in its top `FRAME_HEAD` (its tag and
    condition), where the even cut did (78), which case 96 left alone at a card's foot."""
    outline = (("M", 10.0, 60.0), ("L", 90.0, 60.0), ("L", 90.0, 180.0), ("L", 10.0, 180.0))
    frame = Mark((*outline, ("Z",)), stroke="accent")
    drawing = Drawing(100.0, 330.0, (frame, *(_label(y) for y in range(0, 325, 13))), "")
    cuts = [part.bottom for part in bands(drawing, 100.0, 100.0)[:-1]]
    assert cuts and not any(60.0 < cut < 60.0 + FRAME_HEAD for cut in cuts), cuts


def _branches(count: int) -> str:
    lines = ["sequenceDiagram", "participant A as Client", "participant B as Server"]
    for n in range(count):
        lines += [f"A->>B: request {n}", f"B-->>A: step {n}", f"alt cache hit {n}"]
        lines += [f"B->>A: cached {n}", f"else cache miss {n}", f"B->>A: fresh {n}", "end"]
    return "\n".join(lines)


def test_no_card_ends_on_an_else_and_its_condition(fonts) -> None:
    """A sequence records each divider with its condition and its first row as a kept span
    (`Drawing.keep`): no cut falls between a dashed `else` line and the message under it,
    where 88 of 276 cuts of these alt/else ladders did (a card ending on "cache miss")."""
    measure_label = LabelSetter(fonts).measure
    crossed = []
    for count, (first, rest) in itertools.product(range(3, 9), ((476, 420), (400, 380))):
        drawing = draw_to_fit(DiagramBudget(), _branches(count), measure_label, 392.0, 476.0)
        dividers = [band_span(i)[0] for i in drawing.items if _divider(i)]
        tops = sorted(band_span(i)[0] for i in drawing.items if isinstance(i, Label))
        for part in bands(drawing, first, rest)[:-1]:
            for y in dividers:
                row = [top for top in tops if top > y][1]  # under the condition: the message
                if y - 1 < part.bottom < row:
                    crossed.append((count, first, part.bottom))
    assert len(dividers) == 8 and not crossed, crossed


def _divider(item: Mark | Label) -> bool:
    return isinstance(item, Mark) and item.dash is not None and item.stroke == "accent"
