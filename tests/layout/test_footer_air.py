"""A full card's text keeps air over a footer band whose edge is a drawn line (issue 41:
minimal's quote box sat on its folio rule, business's and japanese-magazine's last line
4 px over the hairline, brandA's descenders on its band's rule)."""

from __future__ import annotations

import pytest

from inkcard import themes
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
