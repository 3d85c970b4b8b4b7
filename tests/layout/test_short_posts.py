"""A post that fits one card with room to spare is composed for its length (pages/short.py):
set larger, and at the card's optical centre, where it used to sit at the top, small, over
an empty half card."""

from __future__ import annotations

import numpy as np
import pytest

from inkcard import layout, themes
from tests import pngcodec

POEM = "# 静夜思\n\n床前明月光，\n疑是地上霜。\n举头望明月，\n低头思故乡。\n"
THEME_MODES = [(name, mode) for name in themes.names() for mode in themes.modes(name) or [""]]


def ink_rows(png: bytes) -> np.ndarray:
    """The pixel rows of a card of the plain theme (white) with anything drawn on them."""
    pixels = pngcodec.decode(png)[:, :, :3].astype(int)
    return np.flatnonzero((np.abs(pixels - 255).max(axis=2) > 60).any(axis=1))


def plain(align: str) -> layout.Theme:
    roles = f'[roles.card]\ncontent_align = "{align}"\nfooter_height = 0\n'
    return layout.decode_theme(f'name = "t"\n{roles}')


def test_a_short_post_is_set_larger_at_the_optical_centre(fonts: layout.FontBook) -> None:
    options = layout.RenderOptions(scale=1)
    [top] = layout.render(POEM, plain("top"), fonts, options)
    [auto] = layout.render(POEM, plain("auto"), fonts, options)
    at_top, composed = ink_rows(top), ink_rows(auto)
    height = pngcodec.decode(auto).shape[0]
    # larger: the text block grows by the zoom (1.25), and it is one card still
    assert composed[-1] - composed[0] == pytest.approx(1.25 * (at_top[-1] - at_top[0]), rel=0.05)
    above, below = composed[0], height - composed[-1]
    assert 0.3 < above / (above + below) < 0.5  # a little above the middle


def test_a_long_post_and_a_table_keep_their_size(fonts: layout.FontBook) -> None:
    options = layout.RenderOptions(scale=1)
    long = "\n\n".join("床前明月光，疑是地上霜。" * 6 for _ in range(5))
    table = "| a | b |\n|---|---|\n| 1 | 2 |\n"
    for post in (long, table):
        [top] = layout.render(post, plain("top"), fonts, options)
        [auto] = layout.render(post, plain("auto"), fonts, options)
        assert np.ptp(ink_rows(top)) == np.ptp(ink_rows(auto)), post[:20]


@pytest.mark.parametrize(("theme", "mode"), THEME_MODES)
def test_every_built_in_theme_composes_the_poem(fonts, theme: str, mode: str) -> None:
    """The poem is drawn zoomed (the virtual card a step smaller) in every theme but
    minimal, which centres it at its own size."""
    options = layout.RenderOptions(mode=mode)
    [page] = layout.layout_pages(POEM, themes.load(theme), fonts, options)
    zoomed = bool(page.items) and getattr(page.items[0], "scale", 1.0) > 1.0
    assert zoomed == (theme != "minimal"), theme


def _xs(items: tuple, dx: float = 0.0) -> list[float]:
    from inkcard.layout.base.boxes import GlyphRun

    out: list[float] = []
    for item in items:
        if isinstance(item, GlyphRun):
            out.extend(dx + x for x in item.xs)
        elif isinstance(inner := getattr(item, "items", None), tuple):
            out.extend(_xs(inner, dx + getattr(item, "dx", 0.0)))
    return out


@pytest.mark.parametrize(
    ("theme", "centred"), [("traditional-chinese", True), ("apple-notes", False)]
)
def test_a_poem_follows_its_title_s_alignment(fonts, theme: str, centred: bool) -> None:
    """Under a centred title the poem's lines are centred too (a centred title over a
    flush-left poem read as a mistake); under a flush-left title they stay flush left."""
    [page] = layout.layout_pages(POEM, themes.load(theme), fonts, layout.RenderOptions())
    rows = [placed.row for placed in page.rows if placed.row.text.strip()]
    title, lines = rows[0], rows[1:]
    starts = [min(_xs(row.items)) for row in lines]
    title_mid = (min(_xs(title.items)) + max(_xs(title.items))) / 2
    mids = [(min(_xs(row.items)) + max(_xs(row.items))) / 2 for row in lines]
    if centred:
        assert all(abs(mid - title_mid) < 12 for mid in mids), (mids, title_mid)
    else:
        assert max(starts) - min(starts) < 1 and abs(min(starts) - min(_xs(title.items))) < 2
