"""A centred heading sits further from the block above than from its own text, in every
theme and mode (the law of proximity: a heading introduces what follows it).

A centred heading has no left edge to tie it to its section, so only the space says which
block it belongs to. fairytale's h2 (14 px above, 16 under its 6-px bar) read as a caption
of the table over it ("centred h2s sit closer to the block above than to their own text",
the FAQ in fairytale, brandA and brandB, thirteenth look). Measured on the theme's styles
as the flow collapses margins: above, the larger of the heading's top margin and a
paragraph's bottom margin, and its box's top padding; under, the larger of its bottom
margin and a paragraph's top margin, its box's bottom padding and the bar drawn under it.
A left-aligned heading keeps the theme's rhythm: its edge ties it to the text under it.
"""

from __future__ import annotations

import pytest

from inkcard import themes
from inkcard.layout.style.resolver import resolve

# the space above a centred heading, as a share of the space under it, at least
PROXIMITY = 1.1

THEME_MODES = [(name, mode) for name in themes.names() for mode in themes.modes(name) or [None]]


@pytest.mark.parametrize(("name", "mode"), THEME_MODES)
def test_a_centred_heading_sits_nearer_its_own_text(name: str, mode: str | None) -> None:
    styles = resolve(themes.load(name), mode)
    body = styles["body"]
    for role in ("h2", "h3", "h4"):
        heading = styles[role]
        if heading.align != "center":
            continue
        top, _, bottom, _ = heading.padding
        bar = heading.bar_gap + heading.bar_width if heading.bar_side == "bottom" else 0.0
        above = max(heading.margin_top, body.margin_bottom) + top
        under = max(heading.margin_bottom, body.margin_top) + bottom + bar
        assert above >= PROXIMITY * under, f"{name}/{mode} {role}: {above} over, {under} under"
