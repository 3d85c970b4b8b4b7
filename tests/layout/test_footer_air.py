"""A full card's text keeps air over a footer band whose edge is a drawn line (issue 41:
minimal's quote box sat on its folio rule, business's and japanese-magazine's last line
4 px over the hairline, brandA's descenders on its band's rule)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.placing import drawn
from inkcard.layout.pages.breaks.squeeze import FOOT_AIR
from inkcard.layout.pages.cardface import content_box
from inkcard.layout.style.decorations import Rule
from inkcard.layout.style.resolver import resolve

AIR = 6.0  # px between the content box's foot and the drawn edge under it, at least
WIDTH, HEIGHT = 440, 586


def _drawn_edge(name: str) -> float:
    """How far over the card's foot the footer's drawn line lies: the highest rule
    anchored at the bottom, or the folio's rule (`page_number` `border_width`)."""
    theme = themes.load(name)
    styles = resolve(theme, None)
    number = styles["page_number"]
    if number.border_width:
        _, _, bottom, _ = styles["card"].padding
        return bottom + styles["card"].footer_height - number.margin_top
    rules = [d for d in theme.decorations if isinstance(d, Rule) and "bottom" in d.anchor]
    return max(float(d.y) for d in rules)


@pytest.mark.parametrize("name", ["minimal", "business", "japanese-magazine", "brandA"])
def test_the_content_box_ends_clear_of_the_footer_line(name: str) -> None:
    box = content_box(resolve(themes.load(name), None), WIDTH, HEIGHT)
    assert HEIGHT - _drawn_edge(name) - box.bottom >= AIR, name


HARD = Path(__file__).parents[1] / "cases" / "hard"


def _air_under_last_box(post: str, name: str) -> list[float]:
    """For each card of `post` whose last row sits in a drawn box (a quote's panel, a
    list's box), the room left between the box's edge and the content box's foot."""
    options = layout.RenderOptions(width=WIDTH, height=HEIGHT, split="autoSplit")
    md = (HARD / f"{post}.md").read_text(encoding="utf-8")
    pages = layout.layout_pages(md, themes.load(name), layout.FontBook.load(), options)
    airs = []
    for page in pages:
        last = page.rows[-1]
        assert page.fit is not None
        if any(drawn(frame.decor) for frame in last.row.frames):
            padding = sum(frame.pad_bottom for frame in last.row.frames)
            bottom = page.fit.offset + last.y + last.row.height * last.scale + padding
            airs.append(page.fit.room - bottom)
    return airs


@pytest.mark.parametrize(
    ("post", "name"),
    [
        ("16-exam-plan", "brandA"),
        ("16-exam-plan", "brandB"),
        ("16-exam-plan", "meadow-dawn"),
        ("19-faq-subscription", "brandA"),
        ("19-faq-subscription", "meadow-dawn"),
    ],
)
def test_a_full_card_ending_on_a_box_keeps_air_under_it(post: str, name: str) -> None:
    """A text line carries its half-leading under its glyphs, a box's edge none: the
    closing quote box of the exam plan sat 1-2 px over the content box's foot, on brandA's
    footer band (thirteenth look), until the card's gaps gave it `FOOT_AIR`."""
    airs = _air_under_last_box(post, name)
    assert airs, "a card of the post ends on a box"
    assert min(airs) >= FOOT_AIR - 1e-6, airs
