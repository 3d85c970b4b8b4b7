"""An `avoid_text` ornament the theme set inside its text panel belongs to that panel: moved
off the text, it moves within the panel and what the move takes past the panel's border is
cut off there; it never hangs over the border onto the surround (pop-art's halftone did,
at every size). One set outside the panel moves on the card as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Group, Item, Layer, Rect, Shape
from inkcard.layout.draw.painter import build_path
from inkcard.layout.pages.cardface import panel_edges
from inkcard.layout.pages.decor.clearance import Panel, keep_off_text
from inkcard.layout.style.resolver import resolve

CARD = Rect(0.0, 0.0, 440.0, 586.0)
PANEL = Panel(Rect(20.0, 34.0, 392.0, 518.0), Rect(21.5, 35.5, 389.0, 515.0))
POSTS = Path(__file__).resolve().parents[1] / "cases" / "posts"
SIZES = [(440.0, 586.0), (1080.0, 1440.0), (500.0, 500.0), (1600.0, 900.0)]


def _dots(x: float, y: float, width: float, height: float) -> list[Item]:
    """A block of dots filling the box (a halftone's stand-in)."""
    ops = tuple(
        ("O", x + 4.0 + col * 9.0, y + 4.0 + row * 9.0, 3.0)
        for row in range(int(height // 9))
        for col in range(int(width // 9))
    )
    return [Shape(ops, None, 0xFFFF0000)]


def _seen(items: list[Item] | tuple[Item, ...], dx=0.0, dy=0.0, clip=None, scale=1.0) -> list[Rect]:
    """The boxes of what `items` draw on the card, each cut to the clips it is drawn in; a
    group's scale counts (a card set a type step smaller draws its page in one)."""
    found: list[Rect] = []
    for item in items:
        if isinstance(item, Group):
            inner = (dx + item.dx * scale, dy + item.dy * scale)
            inner_scale = scale * item.scale
            own = item.clip
            cut = (
                clip
                if own is None
                else _cut(
                    clip,
                    Rect(
                        own.x * inner_scale + inner[0],
                        own.y * inner_scale + inner[1],
                        own.width * inner_scale,
                        own.height * inner_scale,
                    ),
                )
            )
            found += _seen(item.items, *inner, cut, inner_scale)
        elif isinstance(item, Layer):
            found += _seen(item.items, dx, dy, clip, scale)
        elif isinstance(item, Shape):
            b = build_path(item.ops).computeTightBounds()
            drawn = Rect(
                b.left() * scale + dx, b.top() * scale + dy, b.width() * scale, b.height() * scale
            )
            box = _cut(clip, drawn)
            if box.width > 0 and box.height > 0:
                found.append(box)
    return found


def _cut(clip: Rect | None, box: Rect) -> Rect:
    if clip is None:
        return box
    x, y = max(clip.x, box.x), max(clip.y, box.y)
    return Rect(
        x, y, max(0.0, min(clip.right, box.right) - x), max(0.0, min(clip.bottom, box.bottom) - y)
    )


def _within(outer: Rect, inner: Rect, slack: float = 0.01) -> bool:
    return (
        inner.x >= outer.x - slack
        and inner.y >= outer.y - slack
        and inner.right <= outer.right + slack
        and inner.bottom <= outer.bottom + slack
    )


def test_an_ornament_in_the_panel_moved_off_text_stays_inside_its_border() -> None:
    ink = Rect(24.0, 470.0, 140.0, 78.0)  # the halftone's corner of the panel
    text = (Rect(40.0, 440.0, 360.0, 60.0),)  # a paragraph over its top
    items = keep_off_text(_dots(24.0, 470.0, 140.0, 78.0), "bottom-left", ink, text, CARD, PANEL)
    seen = _seen(items)
    assert seen, "moved down a little, part of it still shows"
    assert all(_within(PANEL.inside, box) for box in seen)
    assert all(box.y >= text[0].bottom for box in seen)  # off the text


def test_an_ornament_outside_the_panel_moves_on_the_card_uncut() -> None:
    ink = Rect(0.0, 540.0, 60.0, 40.0)  # on the surround, past the panel's corner
    text = (Rect(0.0, 520.0, 120.0, 30.0),)
    [moved] = keep_off_text(_dots(0.0, 540.0, 60.0, 40.0), "bottom-left", ink, text, CARD, PANEL)
    assert isinstance(moved, Group) and moved.clip is None and moved.dy > 0


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_pop_art_halftone_never_hangs_past_its_panel(fonts, width, height) -> None:
    post = (POSTS / "04-long-article-zh.md").read_text(encoding="utf-8")
    for mode in themes.modes("pop-art"):
        theme = themes.load("pop-art")
        options = layout.RenderOptions(width=width, height=height, split="autoSplit", mode=mode)
        shown = 0
        for page in layout.layout_pages(post, theme, fonts, options):
            # a card set a type step smaller (zoom under 1) is laid out on a larger virtual
            # card, panel and all, and drawn scaled
            zoom = page.fit.zoom if page.fit is not None and page.fit.zoom < 1 else 1.0
            panel = panel_edges(resolve(theme, mode), fonts, width / zoom, height / zoom)
            assert panel is not None
            inside = _scaled(panel.inside, zoom)
            dots = [i for i in page.items if _halftone(i)]
            for box in _seen(dots):
                assert _within(inside, box), (mode, width, height, box, inside)
            shown += bool(dots)
        assert shown, (mode, width, height)  # the ornament is kept where there is room


def _scaled(rect: Rect, zoom: float) -> Rect:
    return Rect(rect.x * zoom, rect.y * zoom, rect.width * zoom, rect.height * zoom)


def _halftone(item: Item) -> bool:
    """pop-art's halftone: a shape of many dots, wherever the clearance moved it."""
    if isinstance(item, Group):
        return any(_halftone(i) for i in item.items)
    return isinstance(item, Shape) and len(item.ops) > 20 and item.ops[0][0] == "O"
