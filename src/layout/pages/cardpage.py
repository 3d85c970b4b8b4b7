"""One laid-out card → its `Page`: the card's static layers, the decorations tied to its
text, its rows in their frames, and the chrome over them (page number, AI label, a brand
kit's marks). compose.py decides what each card holds; this module only assembles it.
"""

from __future__ import annotations

from ..base.boxes import Fill, Group, Item, Page, Rect
from ..base.fonts import FontBook
from ..base.placing import Placement, frame_items
from ..style.brandkit import BrandKit
from ..style.resolver import Styles
from .cardface import (
    canvas_colour,
    card_rect,
    content_box,
    edges,
    ornament_boxes,
    panel_edges,
    static_layers,
)
from .layers import chrome_boxes, live_decorations
from .marks.aigclabel import label_items
from .marks.brandmarks import backdrop_items, band_items, watermark_items
from .marks.chrome import page_number_items


def card_page(
    placement: Placement,
    place_in_set: tuple[int, int],
    styles: Styles,
    fonts: FontBook,
    box: Rect,
    width: float,
    height: float,
    *,
    brand: BrandKit | None,
    label: str,
    cues: list[Item],
    top: float,
) -> Page:
    """One card (`place_in_set`: its number and the set's count) in paint order: background
    and static decorations under the text, the decorations tied to its text or panels,
    panels, rows, then what sits over the text. The rows start at `top` (the content box's,
    or lower when centred); the decorations tied to them move with them, the static ones
    stay with the card."""
    page = card_rect(styles["card"], width, height)
    backdrop = backdrop_items(brand, page, styles, fonts)
    under, over = static_layers(styles, fonts, width, height, backdrop)
    content = content_box(styles, width, height)
    chrome = _chrome(styles, fonts, box, width, height, place_in_set, brand, label)
    panel = panel_edges(styles, fonts, width, height)
    live = live_decorations(
        styles, fonts, placement, page, content, top, chrome_boxes(chrome), panel
    )
    items: list[Item] = [*under, *live["under"]]
    if brand is not None:
        items.extend(watermark_items(brand, styles, fonts, content))
    items.extend(frame_items(placement, 0.0, top))
    items.extend(live["panel-under"])
    items.extend(cues)
    for placed in placement.rows:
        items.append(_row_group(placed.row.items, placed.y + top, placed.scale, box))
    items.extend(live["panel-over"])
    items.extend(live["over"])
    items.extend(over)
    items.extend(chrome)
    background = canvas_colour(styles["card"])
    return Page(width, height, background, tuple(items), placement.rows)


def _chrome(
    styles: Styles,
    fonts: FontBook,
    box: Rect,
    width: float,
    height: float,
    place_in_set: tuple[int, int],
    brand: BrandKit | None,
    label: str,
) -> list[Item]:
    """What a card sets over everything outside its rows: its page number, its AI label
    and a brand kit's sign and footer lines (the text ornaments keep off, `chrome_boxes`)."""
    items: list[Item] = []
    number, total = place_in_set
    numbered = total > 1 and bool(styles["page_number"].format)
    if numbered:
        items.extend(_page_number(styles, fonts, number, total, box, height))
    if label:
        stacked = brand is not None
        items.extend(label_items(styles, fonts, label, box, height, width, stacked=stacked))
    if brand is not None:
        bottom = height - edges(styles["card"])[2]
        clear = ornament_boxes(styles, fonts, width, height)
        items.extend(band_items(brand, styles, fonts, box, bottom, numbered, clear))
    return items


def _page_number(
    styles: Styles, fonts: FontBook, number: int, total: int, box: Rect, height: float
) -> list[Item]:
    """The page label, and the `page_number` role's rule (`border_width`, `border_color`)
    across the text's width, in its band `margin_top` (at the foot; `margin_bottom` at the
    top) from the band's inner edge, the text's: drawn with the number only, so a one-card
    post has neither. The margin keeps the text off the rule (minimal's quote box sat on
    it when its card was full)."""
    card, style = styles["card"], styles["page_number"]
    top, _, bottom, _ = edges(card)
    items: list[Item] = []
    if style.border_width and style.border_color is not None:
        if style.position == "top":
            y = top + card.header_height - style.border_width - style.margin_bottom
        else:
            y = height - bottom - card.footer_height + style.margin_top
        items.append(Fill(Rect(box.x, y, box.width, style.border_width), style.border_color))
    return items + page_number_items(
        style,
        fonts,
        number=number,
        total=total,
        right=box.right,
        bottom=height - bottom,
        top=top,
        width=box.width,
    )


def _row_group(items: tuple[Item, ...], y: float, scale: float, box: Rect) -> Item:
    if scale == 1.0:
        return Group(items, dy=y)
    # Scale about the content box's left edge, then centre what remains.
    dx = box.x * (1 - scale) + box.width * (1 - scale) / 2
    return Group(items, dx=dx, dy=y, scale=scale)
