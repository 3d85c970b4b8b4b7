"""Figures drawn smaller to end a card: a picture or a diagram (a row with `min_scale`) too
tall for the room a card has left may shrink, down to its floor, so that it and the heading
that keeps with it end that card instead of leaving it half empty; its caption keeps its
size. Rows are built by hand for the page breaker, then whole posts are laid out."""

from __future__ import annotations

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import GlyphRun, Row
from inkcard.layout.base.placing import place
from inkcard.layout.blocks.figures import FIGURE_FLOOR
from inkcard.layout.pages.breaks.pagebreaks import paginate
from tests import pngcodec
from tests.layout.test_image_layout import BLUE, RED, banded_png, data_uri, leaves, placed_pictures

EPS = 1e-6


def text(n: int, name: str) -> list[Row]:
    """`n` lines of 10 of one paragraph (its first and second-to-last lines keep on)."""
    return [
        Row(10.0, (), text=f"{name}{i}", keep_with_next=i in (0, n - 2), source=(("P", 0),))
        for i in range(n)
    ]


def section(figure_height: float, min_scale: float) -> list[Row]:
    """Half a card of text, then a heading and a figure that do not fit under it at their
    size, then a paragraph."""
    heading = Row(10.0, (), text="heading", keep_with_next=True)
    figure = Row(figure_height, (), gap=0.0, text="figure", min_scale=min_scale)
    return [*text(5, "a"), heading, figure, *text(6, "b")]


def names(page: list[Row]) -> list[str]:
    return [row.text for row in page]


@pytest.mark.parametrize("min_scale", [FIGURE_FLOOR, 1.0])
def test_a_figure_shrinks_to_end_a_card_it_would_leave_half_empty(min_scale: float) -> None:
    """50 of text, a heading of 10 and a figure of 50 on a card of 100: at 0.8 the figure
    ends the first card; a row that may not shrink opens the next and leaves 50 % empty."""
    pages = paginate(section(50.0, min_scale), 100.0)
    if min_scale == 1.0:
        assert names(pages[0]) == ["a0", "a1", "a2", "a3", "a4"]
        return
    assert names(pages[0])[-2:] == ["heading", "figure"]
    figure = pages[0][-1]
    assert figure.scale == pytest.approx(0.8)
    assert figure.note == "figure drawn at 80% of its size to end the card"
    assert place(pages[0]).height == pytest.approx(100.0)
    assert all(row.scale == 1.0 for page in pages for row in page if row is not figure)


def test_a_figure_is_never_drawn_under_its_floor() -> None:
    """At the floor (0.7) the figure of 70 still takes 49 of the 40 left: it moves on whole."""
    pages = paginate(section(70.0, FIGURE_FLOOR), 100.0)
    assert "figure" not in names(pages[0])
    assert all(row.scale == 1.0 for page in pages for row in page)


def test_a_figure_that_fits_is_drawn_at_its_size() -> None:
    pages = paginate(section(30.0, FIGURE_FLOOR), 100.0)
    assert all(row.scale == 1.0 for page in pages for row in page)


def test_a_shrunk_row_is_placed_at_its_scale() -> None:
    rows = [Row(10.0, ()), Row(50.0, (), scale=0.8), Row(10.0, ())]
    placement = place(rows)
    assert [p.y for p in placement.rows] == [0.0, 10.0, 50.0]
    assert placement.rows[1].scale == 0.8
    assert placement.height == 60.0


def _filler(lines: int) -> str:
    return "\n\n".join(f"Line {n} of the text above." for n in range(lines))


OPTIONS = layout.RenderOptions(split="autoSplit", width=440, height=586, scale=1)


def test_a_picture_shrinks_to_end_a_card_and_its_caption_keeps_its_size(
    box_fonts: layout.FontBook, plain_theme: layout.Theme
) -> None:
    """A 400 × 300 picture with its caption after a heading and five lines of text (39 % of
    the card): drawn at 0.7–1 of its size, its aspect kept, from the source (its top red
    and its bottom blue where the card shows it), its caption at the caption size under it;
    two cards, where the picture at its size left the first 39 % full and made three."""
    picture = f"![A swatch]({data_uri(banded_png(400, 300))})"
    post = f"{_filler(5)}\n\n## Heading\n\n{picture}\n\n{_filler(8)}\n"
    laid = layout.layout_cards(post, plain_theme, box_fonts, OPTIONS)
    pages = laid.pages
    assert len(pages) == 2
    [(_, rect)] = placed_pictures(pages[0])
    assert FIGURE_FLOOR * 300 <= rect.height < 300
    assert rect.width / rect.height == pytest.approx(400 / 300)
    caption = [
        (run, dy)
        for run, (_, dy, scale) in leaves(pages[0].items)
        if isinstance(run, GlyphRun) and scale == 1.0 and run.size == 12.8
    ]
    assert caption, "the caption is on the picture's card, unscaled"
    assert min(dy + run.ys[0] for run, dy in caption) > rect.y + rect.height
    pixels = pngcodec.decode(layout.draw_cards(pages, laid.images, box_fonts, OPTIONS).files[0])
    x = int(rect.x + rect.width / 2)
    assert tuple(pixels[int(rect.y + 2), x]) == RED
    assert tuple(pixels[int(rect.y + rect.height - 3), x]) == BLUE


def test_a_diagram_and_its_heading_join_the_card_before(fonts: layout.FontBook) -> None:
    """apple-notes, 440 × 586: six lines of text (52 % of the card), then a heading and a
    flowchart too tall for the rest of the card at its size: drawn smaller, not under the
    floor, both end the first card, and the post takes two cards instead of three."""
    chart = "```mermaid\ngraph TD\nA[Write] --> B[Review] --> C[Merge]\n```"
    post = f"{_filler(6)}\n\n## The flow\n\n{chart}\n\n{_filler(12)}\n"
    pages = layout.layout_pages(post, themes.load("apple-notes"), fonts, OPTIONS)
    assert len(pages) == 2
    [diagram] = [p for p in pages[0].rows if p.row.text.startswith("Write")]
    assert "The flow" in pages[0].alt_text()
    drawn = diagram.scale * diagram.row.items[0].scale  # the share of its own size
    assert FIGURE_FLOOR - EPS <= drawn < 1.0


def test_a_card_may_end_under_a_figure_after_a_heading(fonts: layout.FontBook) -> None:
    """A heading keeps with its figure, but a figure is a whole, not a first line: it does
    not also hold the first line of a paragraph of three lines or more on its card (which
    made a figure shrink only to pull a line up under it). One of one or two lines is the
    figure's note and keeps with it (test_figure_notes.py)."""
    chart = "```mermaid\ngraph TD\nA[Write] --> B[Review]\n```"
    long = " ".join(["After the chart, the text goes on about the flow."] * 5)
    post = f"## The flow\n\n{chart}\n\n{long}\n\nAnd a second paragraph.\n"
    pages = layout.layout_pages(post, themes.load("apple-notes"), fonts, OPTIONS)
    rows = [p.row for page in pages for p in page.rows]
    [chart_row] = [row for row in rows if row.text.startswith("Write")]
    assert rows[rows.index(chart_row) - 1].keep_with_next  # the heading's last line
    assert not chart_row.keep_with_next
