"""The soft shapes of dreamy, brandA, fairytale and watercolor (washes, blobs, clouds, the
rainbow, the star's halo, the splatter drops) never sit under a text row: each either keeps
to the margins at every size or is marked `avoid_text`, so the engine moves it off the
text. Checked on every card of the long article at the portrait and square sizes, against
the engine's own text-row boxes."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Rect
from inkcard.layout.pages.cardface import content_box
from inkcard.layout.pages.decor.clearance import TEXT_MARGIN, ink_box, text_boxes
from inkcard.layout.pages.decor.decorate import Context, build
from inkcard.layout.style.decorations import Circle, Icon
from inkcard.layout.style.resolver import resolve

POST = (Path(__file__).parents[1] / "cases" / "posts" / "04-long-article-zh.md").read_text()
SIZES = ((440, 586), (440, 782), (500, 500), (360, 640))


def _crosses(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.bottom and b.y < a.bottom


@pytest.mark.parametrize("name", ["dreamy", "brandA", "fairytale", "watercolor"])
def test_no_unmarked_shape_sits_under_text(name: str, fonts: layout.FontBook) -> None:
    theme = themes.load(name)
    styles = resolve(theme, None)
    shapes = [
        d
        for d in styles.decorations
        if isinstance(d, Circle | Icon) and d.frame == "card" and not d.avoid_text
    ]
    under: list[tuple[int, int, str, str]] = []
    for width, height in SIZES:
        options = layout.RenderOptions(width=width, height=height, split="autoSplit")
        for page in layout.layout_pages(POST, theme, fonts, options):
            # a set with a fault may take a smaller type step (typesteps.type_ladder): its rows and
            # decorations are then laid out together on a card 1/zoom as large, then scaled
            zoom = page.fit.zoom if page.fit is not None else 1.0
            card = Rect(0.0, 0.0, width / zoom, height / zoom)
            content = content_box(styles, width / zoom, height / zoom)
            rows = text_boxes(page.rows, content)
            for deco in shapes:
                items = build(deco, Context(card, styles.tokens, fonts))
                box = ink_box(items, card)
                m = TEXT_MARGIN
                grown = Rect(box.x - m, box.y - m, box.width + 2 * m, box.height + 2 * m)
                if any(_crosses(grown, row) for row in rows):
                    under.append((width, height, deco.anchor, f"{deco.x},{deco.y}"))
    assert under == []
