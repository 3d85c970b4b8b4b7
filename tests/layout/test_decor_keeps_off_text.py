"""An ornament marked `avoid_text` never sits on a text row: it moves outward from its
anchor to the nearest clear spot, or is left off the card; every card is checked."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image as PILImage

from inkcard import layout, themes
from inkcard.layout.base.boxes import GlyphRun, Group, Item, Layer, Rect, Shape
from inkcard.layout.draw.painter import build_path
from inkcard.layout.pages.cardface import content_box
from inkcard.layout.pages.decor.clearance import TEXT_MARGIN
from inkcard.layout.pages.decor.decorate import Context, build, build_parts, parts_of
from inkcard.layout.style.resolver import resolve
from inkcard.layout.style.theme import decode_theme

CARD = Rect(0.0, 0.0, 440.0, 586.0)
HEART = (
    'kind = "circle"\nanchor = "top-right"\nx = 30\ny = 40\nradius = 30\nfill = "#ff0000"\n'
    "avoid_text = true\n"
)


def _built(toml: str, fonts, text: tuple[Rect, ...]) -> list[Item]:
    theme = decode_theme('name = "t"\n[colors.all]\nink = "#112233"\n[[decorations]]\n' + toml)
    return build(
        theme.decorations[0], Context(CARD, resolve(theme, None).tokens, fonts, (), text, CARD)
    )


def _bounds(items: list[Item] | tuple[Item, ...], dx: float = 0.0, dy: float = 0.0) -> Rect:
    """The drawn box of the shapes among `items`, on the card (groups' moves applied)."""
    found: list[Rect] = []
    for item in items:
        if isinstance(item, Group):
            found.append(_bounds(item.items, dx + item.dx, dy + item.dy))
        elif isinstance(item, Layer):
            found.append(_bounds(item.items, dx, dy))
        elif isinstance(item, Shape):
            b = build_path(item.ops).computeTightBounds()
            found.append(Rect(b.left() + dx, b.top() + dy, b.width(), b.height()))
    x, y = min(r.x for r in found), min(r.y for r in found)
    return Rect(x, y, max(r.right for r in found) - x, max(r.bottom for r in found) - y)


def _crosses(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.bottom and b.y < a.bottom


def test_an_ornament_on_a_text_row_moves_outward_off_it(fonts) -> None:
    title = Rect(30.0, 50.0, 380.0, 40.0)  # the disc would sit at y 40..100, on the title
    items = _built(HEART, fonts, (title,))
    disc = _bounds(items)
    assert not _crosses(disc, title)
    assert disc.bottom <= title.y - TEXT_MARGIN + 0.5 and disc.right >= 380.0  # up, not in
    assert disc.y + disc.height * 0.4 >= -0.5  # still mostly on the card


def test_an_ornament_clear_of_text_stays_where_the_theme_put_it(fonts) -> None:
    [disc] = _built(HEART, fonts, (Rect(30.0, 200.0, 380.0, 40.0),))
    assert disc == Shape((("O", 380.0, 70.0, 30.0),), None, 0xFFFF0000, 1.0)


def test_an_ornament_with_no_clear_spot_is_left_off_the_card(fonts) -> None:
    assert _built(HEART, fonts, (Rect(0.0, 0.0, 440.0, 586.0),)) == []


def test_no_card_of_a_long_post_has_the_ornament_on_its_text(fonts) -> None:
    theme = decode_theme(
        'name = "t"\n[colors.all]\nbackground = "#ffffff"\ntext = "#222222"\n'
        # the theme's own type: at 0.98 (`typesteps.fault_free`, its last card 47 % full) the
        # post takes a card fewer and the ornament is drawn zoomed, off the text as well
        '[roles.card]\npadding = [60, 24, 24, 24]\ntype_scale = "none"\n'
        "[[decorations]]\n" + HEART.replace("y = 40", "y = 20")
    )
    post = "# 更快的早晨和更从容的一天\n\n" + "正文的文字排满整行。" * 120
    options = layout.RenderOptions(split="autoSplit")
    pages = layout.layout_pages(post, theme, fonts, options)
    assert len(pages) > 2
    moved = 0
    for page in pages:
        rows = [_ink_row(p.row.items, 60.0 + p.y, p.row.height) for p in page.rows if p.row.text]
        discs = [
            i
            for i in page.items
            if isinstance(i, Group | Shape) and _reds(i)  # the ornament, wherever it went
        ]
        [disc] = discs  # a 60 px band above the text leaves room on every card
        box = _bounds([disc])
        assert not any(_crosses(box, row) for row in rows), (box, rows[:2])
        spot = Rect(350.0, 20.0, 60.0, 60.0)  # where the theme put it
        moved += any(_crosses(spot, row) for row in rows) and box != spot
    assert moved >= 2  # the body cards, whose first line runs under the corner


def _reds(item: Item) -> bool:
    if isinstance(item, Group):
        return any(_reds(i) for i in item.items)
    return isinstance(item, Shape) and item.fill == 0xFFFF0000


def _ink_row(items: tuple[Item, ...], y: float, height: float) -> Rect:
    """A row's box from its glyphs' pen positions, an em past the last."""
    runs = [i for i in items if isinstance(i, GlyphRun)]
    left = min(min(r.xs) for r in runs)
    return Rect(left, y, max(max(r.xs) + r.size for r in runs) - left, height)


def test_pop_arts_burst_keeps_off_a_cards_first_line(fonts) -> None:
    """pop-art's POP! burst (80 px, 2 px down) reached 23 px of its fill into the first
    line of every card whose line ran the full width (the book notes' 更 and 是, the
    440x586 rater); the brief's 70-px burst set 3 px higher keeps off it."""
    post = (
        Path(__file__).resolve().parents[1] / "cases" / "hard" / "11-quotes-lists.md"
    ).read_text()
    options = layout.RenderOptions(
        width=440, height=586, split="autoSplit", mode="default-mode", scale=1
    )
    theme = themes.load("pop-art")
    laid = layout.layout_cards(post, theme, fonts, options)
    files = layout.draw_cards(laid.pages, laid.images, fonts, options).files
    content = content_box(resolve(theme, "default-mode"), 440, 586)
    burst = (0x51, 0xBA, 0xFA)  # the default mode's secondary
    for page, png in zip(laid.pages, files, strict=True):
        image = PILImage.open(io.BytesIO(png)).convert("RGB")
        first = page.rows[0]
        top = int(content.y + first.y)
        box = (int(content.x), top, int(content.right), int(top + first.row.height))
        crop = image.crop(box)
        pixels = [crop.getpixel((x, y)) for x in range(crop.width) for y in range(crop.height)]
        assert not any(sum(abs(a - b) for a, b in zip(p, burst, strict=True)) < 40 for p in pixels)


RAINBOW = "\n".join(
    f'[[decorations]]\nkind = "icon"\navoid_text = true\npath = "{path}"\nviewbox = 80\n'
    f'anchor = "bottom-right"\nx = 26\ny = -2\nsize = 84\nstroke = "{colour}"\nstroke_width = 5'
    for path, colour in (
        ("M8 56 A32 32 0 0 1 72 56", "#ff9ab0"),
        ("M12 56 A28 28 0 0 1 68 56", "#ffd06a"),
        ("M20 56 A20 20 0 0 1 60 56", "#a8c8ff"),
    )
)


def test_an_arc_counts_by_its_bulge_not_its_ends(fonts) -> None:
    """A rainbow's arc rises from two feet on one line: read by its end points it drew
    nowhere above them, and fairytale's ran through a slide's last line (ninth look,
    rated 3). A text row over its bulge, clear of its feet, moves it."""
    theme = decode_theme('name = "t"\n' + RAINBOW)
    context = Context(CARD, resolve(theme, None).tokens, fonts, (), (), CARD)
    arc = _bounds(build(theme.decorations[0], context))
    row = Rect(30.0, arc.y + 2.0, 400.0, 12.0)  # across the arc's top, above its feet
    moved = _bounds(build(theme.decorations[0], replace(context, text=(row,))))
    assert not _crosses(moved, row)


def test_an_ornament_drawn_in_parts_moves_as_one(fonts) -> None:
    """fairytale's rainbow is three decorations, an arc a colour, at one anchor: moved off
    a line each by its own box, the arcs came apart. Decorations next to each other at the
    same place are one ornament (`decorate.parts_of`) and move by the box all draw in."""
    theme = decode_theme('name = "t"\n' + RAINBOW)
    context = Context(CARD, resolve(theme, None).tokens, fonts, (), (), CARD)
    [parts] = parts_of(list(theme.decorations))
    assert len(parts) == 3
    still = [_bounds(build(deco, context)) for deco in parts]
    outer = still[0]
    row = Rect(30.0, outer.y + 4.0, 400.0, 12.0)
    moved = build_parts(parts, replace(context, text=(row,)))
    groups = [item for item in moved if isinstance(item, Group)]
    assert len(groups) == 1  # one move for the three arcs
    shifted = _bounds(moved)
    assert not _crosses(shifted, row)
    dx, dy = groups[0].dx, groups[0].dy
    assert (dx, dy) != (0.0, 0.0)
    assert shifted.x == pytest.approx(min(b.x for b in still) + dx, abs=0.5)
