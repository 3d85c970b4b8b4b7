"""A brand kit's background + the theme's text colours → the wash that keeps the text legible.

A kit's background is drawn on the card's face, where a theme sets some of its text (the
page number, and every line in a theme without a panel); a mid-tone or busy image leaves it
unreadable. So the theme's own face colour is laid over the image, as little of it as
brings each text colour that reads on the theme's ground back to what it needs there (WCAG:
4.5:1, 3:1 for text of 24 px and more) on every one of the image's colours (its 16 x 16
`BrandKit.background_tones`): the whole face as much as the reading text needs, and the page
number's band (where the kit's marks sit too) what more the number needs. A pale paper gets
little or none; a sunset photo under dark text is faded nearly to the paper. A theme that sets
its text on a panel (`cardface.text_panel`) is measured through it: an opaque one needs no
wash, cyberpunk's 78 % glass a little. Colours that do not read on the ground itself sit on
something else (a code block, a header band) and set nothing.
"""

from __future__ import annotations

import functools

from ...base.boxes import Fill, Item, Rect
from ...base.fonts import FontBook
from ...style.brandkit import BrandKit
from ...style.paint import base_color
from ...style.resolver import WHITE, Styles, contrast
from ..cardface import text_panel
from ..decor.clearance import holds

MIN_CONTRAST = 4.5  # WCAG AA for text
MIN_LARGE_CONTRAST = 3.0  # WCAG AA for large text
LARGE_TEXT = 24.0  # px: text this size and more is large
WASH_STEP = 0.05  # the wash's opacity is a multiple of this
CHROME_ROLES = frozenset({"page_number"})  # drawn in the band, not over the whole face


def wash_items(kit: BrandKit, face: Rect, styles: Styles, fonts: FontBook) -> tuple[Item, ...]:
    """The wash over `kit`'s background on `face`: a fill of the face colour over it all,
    and one over the page number's band when the number needs more; none when the text
    reads on the image as it is, or sits on the theme's own opaque panel (`text_panel`)."""
    card = styles["card"]
    ground = base_color(card.background, WHITE) | 0xFF000000
    tones = kit.background_tones
    top, _, bottom, _ = card.padding
    if styles["page_number"].position == "top":
        band = Rect(face.x, face.y, face.width, top + card.header_height)
    else:
        height = bottom + card.footer_height
        band = Rect(face.x, face.bottom - height, face.width, height)
    panel = text_panel(styles, fonts, face.right + face.x, face.bottom + face.y)
    over = panel[1] if panel else 0  # the panel's colour over the washed image, if any
    marks = Rect(face.x + card.padding[3], band.y, face.width - card.padding[3] - card.padding[1],
                 band.height - (bottom if band.y > face.y else top))  # fmt: skip
    chrome_over = over if panel and holds(panel[0], marks) else 0
    text = _alpha_for(tones, ground, over, styles, chrome=False)
    chrome = _alpha_for(tones, ground, chrome_over, styles, chrome=True)
    items: list[Item] = []
    if text > 0.0:
        items.append(Fill(face, _argb(ground, text), card.radius))
    if chrome > text:  # the two layers together come to `chrome`
        more = 1.0 - (1.0 - chrome) / (1.0 - text)
        items.append(Fill(band, _argb(ground, more)))
    return tuple(items)


def _alpha_for(
    tones: tuple[int, ...], ground: int, over: int, styles: Styles, *, chrome: bool
) -> float:
    """`wash_alpha` for the text (or with `chrome` the page number and marks) of `styles`,
    under a panel of colour `over` (0: none)."""
    seen = _blend(over | 0xFF000000, ground, (over >> 24) / 255) if over else ground
    return wash_alpha(tones, ground, _needs(styles, seen, chrome=chrome), over)


def _needs(styles: Styles, ground: int, *, chrome: bool) -> tuple[tuple[int, float], ...]:
    """(colour, contrast it needs) of each text role that reads on the face `ground`: the
    reading text's, or with `chrome` the page number's and the kit's marks'."""
    if chrome:
        number = styles["page_number"]
        marks = styles["body"].color if number.position == "top" else number.color
        looks = [(number.color, number.size), (marks, number.size)]  # as `brandmarks._look`
    else:
        looks = [
            (style.color, style.size)
            for role, style in styles.roles.items()
            if role not in CHROME_ROLES and role != "card" and style.color is not None
        ]
    needs = set()
    for colour, size in looks:
        needed = MIN_LARGE_CONTRAST if size >= LARGE_TEXT else MIN_CONTRAST
        if colour >> 24 == 0xFF and contrast(colour, ground) >= needed:
            needs.add((colour, needed))
    return tuple(sorted(needs))


@functools.lru_cache(maxsize=256)
def wash_alpha(
    tones: tuple[int, ...], ground: int, needs: tuple[tuple[int, float], ...], over: int = 0
) -> float:
    """How much of `ground` (the face colour) to lay over a background whose colours are
    `tones` so that each text colour of `needs` reads at the contrast it needs on every one
    of them (seen through a panel of colour `over`, when there is one): the least in steps
    of `WASH_STEP`; 0 when the image does as it is, or an opaque panel hides it."""
    if not tones or not needs or over >> 24 == 0xFF:
        return 0.0
    steps = round(1.0 / WASH_STEP)
    for step in range(steps + 1):
        alpha = step / steps
        grounds = {_blend(ground, tone, alpha) for tone in tones}
        if over:
            grounds = {_blend(over | 0xFF000000, g, (over >> 24) / 255) for g in grounds}
        if all(contrast(colour, g) >= needed for colour, needed in needs for g in grounds):
            return alpha
    return 1.0


def _blend(top: int, under: int, alpha: float) -> int:
    """`top` at `alpha` over opaque `under`, per sRGB channel (as the painter composites)."""
    out = 0xFF000000
    for shift in (16, 8, 0):
        a, b = (top >> shift) & 0xFF, (under >> shift) & 0xFF
        out |= round(a * alpha + b * (1.0 - alpha)) << shift
    return out


def _argb(colour: int, opacity: float) -> int:
    return round(min(1.0, opacity) * 255) << 24 | (colour & 0xFFFFFF)
