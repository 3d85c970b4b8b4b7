"""A card its diagrams leave mostly empty draws them larger (pages/breaks/grow.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Row
from inkcard.layout.base.placing import place
from inkcard.layout.pages.breaks.grow import FULL, ROOMY, grown
from inkcard.layout.pages.quality import measure

MIXED = Path(__file__).resolve().parents[1] / "cases" / "hard" / "09-mixed-diagrams.md"


def _card(figure_height: float, max_scale: float = 1.5, scale: float = 1.0) -> list[Row]:
    heading = Row(30.0, (), text="h", keep_with_next=True)
    figure = Row(figure_height, (), text="[fig]", max_scale=max_scale, scale=scale)
    return [heading, figure]


def test_a_diagram_alone_on_a_roomy_card_grows_to_its_ceiling_or_the_card_s_fill() -> None:
    # 130 of 500: the figure may grow to 1.5 (its ceiling) before the card is FULL
    [_, figure] = grown(_card(100.0), 500.0)
    assert figure.scale == 1.5 and "150%" in figure.note
    # 230 of 400: it grows only until the card is FULL (320)
    page = grown(_card(200.0), 400.0)
    assert page[1].scale == pytest.approx(1 + (FULL * 400 - 230) / 200)
    assert place(page).height == pytest.approx(FULL * 400)


def test_a_full_card_a_picture_and_a_shrunk_figure_keep_their_size() -> None:
    full = _card(ROOMY * 500.0)  # with its heading, over ROOMY
    assert grown(full, 500.0) == full
    picture = _card(100.0, max_scale=1.0)  # a picture: no ceiling over 1
    assert grown(picture, 500.0) == picture
    shrunk = _card(100.0, scale=0.8)  # drawn smaller to end the card: not grown back
    assert grown(shrunk, 500.0) == shrunk


def test_the_mixed_diagram_post_s_lone_sequence_is_drawn_larger_and_stays_on_its_card(
    fonts,
) -> None:
    """The three-message sequence stood alone in the top third of the last card, smaller
    than the text, in 27 theme-modes at 440x586; grown only to body-size labels, it left
    its card 45-56 % full ("small, floating mid-card"): its labels now grow to
    `GROWN_LABEL` of the body's size, the card over 55 % full in every theme-mode."""
    larger = 0
    fills = []
    for name in themes.names():
        for mode in themes.modes(name) or [None]:
            options = layout.RenderOptions(split="autoSplit", mode=mode)
            pages = layout.layout_pages(MIXED.read_text("utf-8"), themes.load(name), fonts, options)
            for page in pages:
                assert measure(page).fill <= 1.0 + 1e-6, name
            last = pages[-1]
            larger += any(p.row.scale > 1.0 for p in last.rows)
            fills.append(measure(last).fill)
    assert larger >= 20
    assert min(fills) > 0.55


JAPANESE = MIXED.parent / "06-japanese-diagram.md"


def test_a_diagram_drawn_smaller_to_end_a_card_keeps_its_labels_9_px_on_a_phone(fonts) -> None:
    """The Japanese post's flowchart shrank to 74 % under its lead (labels 8.4 px on a
    phone) in 21 theme-modes at 440x586: to end a card a diagram keeps its smallest label
    `SHRUNK_LABEL` (11 px on the 440-px card), where it takes a card more at its size."""
    from inkcard.layout.diagrams.marks import SHRUNK_LABEL

    assert SHRUNK_LABEL * 360 / 440 >= 9.0
    shrunk = []
    for name in themes.names():
        for mode in themes.modes(name) or [None]:
            options = layout.RenderOptions(split="autoSplit", mode=mode)
            post = JAPANESE.read_text("utf-8")
            for page in layout.layout_pages(post, themes.load(name), fonts, options):
                shrunk += [  # the share of its own size: as set to fit, then to end the card
                    drawn
                    for p in page.rows
                    if "課題を作る" in p.row.text
                    and (drawn := p.scale * p.row.items[0].scale) < 0.78
                ]
    assert not shrunk


def test_on_a_square_card_a_diagram_shrunk_to_end_it_keeps_9_px_on_the_phone(fonts) -> None:
    """A 500x500 card is shown smaller on a phone than the default one (its virtual width
    490): at `SHRUNK_LABEL` virtual px the git cheat sheet's branch diagram, shrunk to end
    its card under a table, read 7.9 px (17 sets of the third look). The floor follows the
    card's virtual width: no card's shrunk diagram reads under 9 px, and the report says
    so (`LABEL_READABLE_PX`)."""
    from inkcard.layout.pages.quality import LABEL_READABLE_PX

    post = (MIXED.parent / "14-git-cheatsheet.md").read_text("utf-8")
    options = layout.RenderOptions(width=500, height=500, split="autoSplit")
    for name in ("minimal", "apple-notes", "watercolor", "coil-notebook"):
        for page in layout.layout_pages(post, themes.load(name), fonts, options):
            quality = measure(page)
            assert quality is not None
            assert quality.smallest_text >= LABEL_READABLE_PX - 0.05, (name, quality)


def test_a_slide_shrinks_its_diagram_to_the_legible_label_not_the_card_s(fonts) -> None:
    """At `SHRUNK_LABEL` pop-art's mixed post at 1600x900 left its title alone on a slide
    and the pie on the next (4 slides, a heading last on one): a slide's virtual px are
    drawn zoomed, and its diagrams shrink to `LEGIBLE_LABEL` as before (3 slides)."""
    options = layout.RenderOptions(width=1600, height=900, split="autoSplit")
    pages = layout.layout_pages(MIXED.read_text("utf-8"), themes.load("pop-art"), fonts, options)
    assert len(pages) == 3
    assert not any(measure(page).broken_rules for page in pages)


def test_a_later_card_of_figures_alone_is_set_at_its_optical_centre(fonts) -> None:
    """The sequence, grown, still hung in the top half of the mixed post's last card with
    the rest of the card empty under it (30 theme-modes): a later card of figures alone
    reads as a plate and is set at its optical centre; a card with text keeps its top."""
    from inkcard.layout.pages.setting.centring import OPTICAL

    for name in ("apple-notes", "darktech", "pop-art", "minimal"):
        options = layout.RenderOptions(split="autoSplit")
        pages = layout.layout_pages(MIXED.read_text("utf-8"), themes.load(name), fonts, options)
        second, last = pages[1], pages[-1]
        assert all(p.row.figure for p in last.rows), name
        assert second.fit is not None and second.fit.offset == 0.0, name  # heading, text
        assert last.fit is not None
        spare = last.fit.room - place([p.row for p in last.rows]).height
        share = OPTICAL if themes.load(name).roles["card"].content_align == "auto" else 0.5
        assert last.fit.offset == pytest.approx(spare * share, abs=1.0), name
