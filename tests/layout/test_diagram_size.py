"""How large a diagram is set on a card: its labels at the body's size where the card has
room (blocks/diagram.py), and a form that draws one under the floor larger kept
(diagrams/fit.py `_worth`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import GlyphRun, Group, PlacedRow
from inkcard.layout.diagrams.fit import COMPACT_BELOW, TURN_GAIN, DiagramBudget, draw_to_fit
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import LABEL_SIZE
from inkcard.layout.diagrams.mermaidkinds import parse_diagram
from inkcard.layout.diagrams.snake import chain, wrapped
from inkcard.layout.pages.growntype import SMALLEST_KEPT
from inkcard.layout.style.resolver import resolve

HARD = Path(__file__).resolve().parents[1] / "cases" / "hard"
MIXED = HARD / "09-mixed-diagrams.md"
JAPANESE = HARD / "06-japanese-diagram.md"


def _theme_modes() -> list[tuple[str, str | None]]:
    return [(name, mode) for name in themes.names() for mode in themes.modes(name) or [None]]


def _diagram_row(pages: list[layout.Page], label: str) -> PlacedRow:
    [row] = [
        placed
        for page in pages
        for placed in page.rows
        if label in placed.row.text and isinstance(placed.row.items[0], Group)
    ]
    return row


def _body_px(pages: list[layout.Page]) -> float:
    """The size a paragraph's text is set at on the cards."""
    return max(
        item.size
        for page in pages
        for placed in page.rows
        if placed.row.source and placed.row.source[-1][0] == "Paragraph"
        for item in placed.row.items
        if isinstance(item, GlyphRun)
    )


@pytest.mark.parametrize(("name", "mode"), _theme_modes())
def test_a_diagram_s_labels_are_set_at_the_body_size_where_the_card_has_room(
    fonts: layout.FontBook, name: str, mode: str | None
) -> None:
    """The mixed post's top-down funnel stood at its own 14-px labels beside 16-17 px text
    in every theme-mode at 440x586, a column of small print: its labels are the body's
    size, as mermaid-js sets them (the page breaker may still draw it smaller to end a
    card, the figures' floor kept). Before: 14 px beside 16, 0.875 of the body."""
    options = layout.RenderOptions(split="autoSplit", mode=mode)
    pages = layout.layout_pages(MIXED.read_text("utf-8"), themes.load(name), fonts, options)
    funnel = _diagram_row(pages, "看到笔记")
    group = funnel.row.items[0]
    assert isinstance(group, Group)
    own = resolve(themes.load(name), mode)["body"].size
    # a short post spread thin is set larger (growntype.grown_type): its body as set
    body = max(own, _body_px(pages))
    # at the body's size, or less where the card's height holds no more (a framed
    # theme's shorter card: art-deco 15.6 px, traditional-chinese 16.1 beside 17; pop-art
    # in larger type 15.39 beside 19.2, its labels' cap 15.4); a grown set may draw them
    # down to `SMALLEST_KEPT` of that (art-deco at 1.1: 15.0 px)
    kept = SMALLEST_KEPT if body > own else 0.995
    low = kept * min(body, 1.1 * LABEL_SIZE)
    assert low <= group.scale * LABEL_SIZE <= body + 1e-6
    assert group.scale * funnel.scale >= 0.7 - 1e-6  # the floor, where it ends a card


@pytest.mark.parametrize(("name", "mode"), _theme_modes())
def test_a_chain_under_the_floor_on_a_slide_is_wrapped_where_its_rows_read_larger(
    fonts: layout.FontBook, name: str, mode: str | None
) -> None:
    """The Japanese post's review flow on a 1600x900 slide, under its title and lead, stood
    as one strip at 61-64 % of its size (labels 9 px) in eight theme-modes, its two rows
    drawing it at 69-79 % refused for being less than `TURN_GAIN` times larger: a form
    that draws a diagram under the floor larger is kept."""
    options = layout.RenderOptions(width=1600, height=900, split="autoSplit", mode=mode)
    pages = layout.layout_pages(JAPANESE.read_text("utf-8"), themes.load(name), fonts, options)
    flow = _diagram_row(pages, "課題を作る")
    assert "wrapped into 2 rows" in flow.row.note


def test_a_form_only_a_little_larger_is_kept_only_under_the_floor(
    fonts: layout.FontBook,
) -> None:
    """Over the floor the author's form stands unless another is `TURN_GAIN` times
    larger; under it, any larger form is kept. The Japanese review flow in two boxes where
    its two rows draw it 1.08 and 1.15 times larger than its strip: at 0.64 they are
    kept, at 0.8 the strip stands."""
    source = JAPANESE.read_text("utf-8").split("```mermaid\n")[1].split("```")[0]
    measure = LabelSetter(fonts).measure
    budget = DiagramBudget()
    strip = budget.draw(source, measure)
    found = chain(parse_diagram(source), measure)
    assert found is not None
    rows = wrapped(found, 2, lambda part: budget.draw_row(source, part, measure), across=True)
    assert rows is not None and rows.width < strip.width
    for scale, gain, kept in ((0.64, 1.08, True), (0.8, 1.15, False)):
        assert (scale < COMPACT_BELOW) == kept and gain < TURN_GAIN
        box = (scale * strip.width, gain * scale * rows.height)  # the rows bound by height
        drawn = draw_to_fit(DiagramBudget(), source, measure, *box)
        assert ("wrapped into 2 rows" in drawn.note) == kept, scale
        assert (drawn.width < strip.width) == kept


SEVEN = "pie title 一周的时间\n" + "".join(
    f'  "{name}" : {value}\n' for name, value in zip("一二三四五六七", range(7, 0, -1), strict=True)
)


def test_a_pie_its_slots_height_binds_sets_its_legend_larger() -> None:
    """On a 1600x900 slide under its title the mixed post's pie stood height-bound in the
    middle third of the slide, its legend about 5 px on a 360-px phone in all 30
    theme-modes: its wide form sets the legend (and its title) 1.6 times larger beside it,
    where that sets its smallest label `TURN_GAIN` times larger. A portrait card, whose
    width binds the pie, keeps mermaid-js's legend."""
    setter = LabelSetter(layout.FontBook.load(), "sans")
    source = MIXED.read_text("utf-8").split("```mermaid\n")[1].split("```")[0]
    slide = draw_to_fit(DiagramBudget(), source, setter.measure, 1450.0, 330.0)
    assert "legend set larger" in slide.note
    card = draw_to_fit(DiagramBudget(), source, setter.measure, 400.0, 470.0)
    assert not card.note and card.legend
    # seven entries stand taller than the pie: kept only where the labels still gain
    seven = draw_to_fit(DiagramBudget(), SEVEN, setter.measure, 1450.0, 330.0)
    if seven.note:
        gain = float(seven.note.rsplit(" ", 2)[-2].rstrip("x"))
        assert gain >= TURN_GAIN


def test_the_mixed_posts_pie_slide_reads_on_a_phone() -> None:
    from inkcard.layout.pages.quality import SLIDE_READABLE_PX, measure

    fonts = layout.FontBook.load()
    smallest = []
    for name, mode in _theme_modes():
        options = layout.RenderOptions(width=1600, height=900, split="autoSplit", mode=mode)
        pages = layout.layout_pages(MIXED.read_text("utf-8"), themes.load(name), fonts, options)
        smallest.append(measure(pages[0]).smallest_text)
    assert min(smallest) >= 7.0  # 4.8-6.9 px before
    assert sum(px >= SLIDE_READABLE_PX for px in smallest) >= 10
