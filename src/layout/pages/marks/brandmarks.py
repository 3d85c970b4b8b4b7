"""A brand kit + a laid-out card → the kit's marks: its sign and footer lines in the card's
footer band, its watermark under the text, and its background image on the card's face.

The band is the room `style.brandkit.branded_theme` kept under the content box (the card's
`footer_height`), so no mark covers text: the sign line (logo, then byline) sits on the
band's last line beside the page number, in the page number's own look; the footer line
(an image such as a QR code, then its text) above it. The watermark is drawn under the
rows, faint, so text always reads over it. The background is the card's face: drawn over the
theme's own fill and under its decorations (`cardface.static_layers` takes it as the
backdrop). Layout measures here; draw only draws.
"""

from __future__ import annotations

import math

from ...base.boxes import Group, Item, Layer, Picture, Rect
from ...base.fonts import FontBook
from ...base.images import image_ref
from ...style.brandkit import (
    FOOTER_IMAGE,
    LINE_GAP,
    LOGO_LINES,
    BrandKit,
    line_height,
    own_number_line,
)
from ...style.looks import text_look
from ...style.resolver import Styles
from ...style.spanstyle import SpanStyle
from .brandwash import wash_items
from .chrome import chrome_look, one_line

GAP = 6.0  # between a logo or footer image and its text
NUMBER_ROOM = 4.0  # page-number sizes kept free beside the byline ("10/12")
WATERMARK_SIZE = 2.2  # a text watermark's size, in body sizes
WATERMARK_WIDTH = 0.3  # an image watermark's width, a share of the content's
WATERMARK_TILT = -24.0  # degrees: a centred word is set on the slant, as a stamp is
MAX_TILES = 16  # a tiled background's tiles across (or down) at most: a 1-px image grows


def brand_images(kit: BrandKit | None) -> dict[str, bytes]:
    """The kit's image bytes by `ImageRef.key`, for the painter (none when it has none)."""
    if kit is None:
        return {}
    watermark = kit.watermark.image if kit.watermark is not None else b""
    out: dict[str, bytes] = {}
    for data in (kit.logo, kit.footer_image, watermark, kit.background):
        ref = image_ref(data) if data else None
        if ref is not None:
            out[ref.key] = data
    return out


def backdrop_items(
    kit: BrandKit | None, face: Rect, styles: Styles, fonts: FontBook
) -> tuple[Item, ...]:
    """The kit's background on the card's face (`face`), fitted as the kit says and clipped
    to it: `cover` fills it (cropped), `contain` shows all of it (centred, the theme's fill
    around it), `tile` repeats it at its own size (larger when it would take more than
    `MAX_TILES` across or down); then its wash, when text needs one (`brandwash`). None
    without a background."""
    ref = image_ref(kit.background) if kit is not None and kit.background else None
    if kit is None or ref is None:
        return ()
    width, height = float(ref.width), float(ref.height)
    if kit.background_fit == "tile":
        scale = max(1.0, face.width / (MAX_TILES * width), face.height / (MAX_TILES * height))
        w, h = width * scale, height * scale
        columns, rows = math.ceil(face.width / w), math.ceil(face.height / h)
        tiles = tuple(
            Picture(ref, Rect(face.x + i * w, face.y + j * h, w, h))
            for j in range(rows)
            for i in range(columns)
        )
        return (Group(tiles, clip=face), *wash_items(kit, face, styles, fonts))
    pick = max if kit.background_fit == "cover" else min
    scale = pick(face.width / width, face.height / height)
    w, h = width * scale, height * scale
    rect = Rect(face.x + (face.width - w) / 2, face.y + (face.height - h) / 2, w, h)
    return (Group((Picture(ref, rect),), clip=face), *wash_items(kit, face, styles, fonts))


def band_items(
    kit: BrandKit,
    styles: Styles,
    fonts: FontBook,
    box: Rect,
    bottom: float,
    numbered: bool,
    keep_clear: tuple[Rect, ...] = (),
) -> list[Item]:
    """The sign and footer lines, the band's last line ending at `bottom`, across the text's
    width (`box`); `numbered`: the page number shares the sign line. The band keeps clear
    of `keep_clear` (the theme's ornaments over the text) as one block: both lines start
    (or end) where the first ornament they would meet leaves room, so they stay aligned."""
    number = styles["page_number"]
    look = _look(styles)
    line = line_height(number.size)
    own_line = kit.has_sign and own_number_line(number.align, number.position, kit.page_number)
    sign = max(line, line * LOGO_LINES if kit.logo else 0.0) if kit.has_sign else 0.0
    footer = max(line, FOOTER_IMAGE if kit.footer_image else 0.0) if kit.has_footer else 0.0
    top = bottom - (line + LINE_GAP if own_line else 0.0) - sign - LINE_GAP - footer
    box = _clear(box, top, bottom, keep_clear)
    items: list[Item] = []
    if kit.has_sign:
        room = number.size * NUMBER_ROOM if numbered and number.position == "bottom" else 0.0
        if own_line:
            bottom -= line + LINE_GAP  # kept free for the number, when there is one
            room = 0.0
        align = "right" if numbered and number.align == "left" else "left"
        items.extend(_sign(kit, look, fonts, box, bottom, line, room, align))
        bottom -= sign + LINE_GAP
    if kit.has_footer:
        items.extend(_footer(kit, look, fonts, box, bottom, line))
    return items


def _clear(box: Rect, top: float, bottom: float, keep_clear: tuple[Rect, ...]) -> Rect:
    """`box` across, narrowed so that a band from `top` to `bottom` keeps `GAP` from each
    of `keep_clear` it would meet: one in the left half pushes its start right, one in the
    right half its end left (pop-art's star at the bottom left)."""
    left, right = box.x, box.right
    middle = box.x + box.width / 2
    for rect in keep_clear:
        if rect.bottom <= top or rect.y >= bottom or rect.right <= left or rect.x >= right:
            continue
        if rect.x + rect.width / 2 < middle:
            left = max(left, rect.right + GAP)
        else:
            right = min(right, rect.x - GAP)
    if right - left < box.width / 2:  # nothing sensible is left: keep the text's width
        return box
    return Rect(left, box.y, right - left, box.height)


def _look(styles: Styles) -> SpanStyle:
    """The marks' type: the page number's, in its colour where the number sits in the same
    footer band; a number at the top is on another ground (brandC's white number on its
    purple header), so the marks take the body's colour, which reads on the card's panel."""
    style = styles["page_number"]
    colour = styles["body"].color if style.position == "top" else style.color
    return chrome_look(style, colour, transform=False)


def _sign(
    kit: BrandKit,
    look: SpanStyle,
    fonts: FontBook,
    box: Rect,
    bottom: float,
    line: float,
    room: float,
    align: str,
) -> list[Item]:
    """Logo then byline, on the text's baseline of the band's last line."""
    items: list[Item] = []
    logo = image_ref(kit.logo) if kit.logo else None
    width = box.width - room
    x = box.x + room if align == "right" else box.x
    logo_width = 0.0
    if logo is not None:
        height = line * LOGO_LINES
        logo_width = min(height * logo.width / logo.height, width / 3)
        height = logo_width * logo.height / logo.width
        left = x + width - logo_width if align == "right" and not kit.byline else x
        items.append(Picture(logo, Rect(left, bottom - height, logo_width, height)))
    if kit.byline:
        shift = logo_width + GAP if logo is not None else 0.0
        text = one_line(kit.byline, look, fonts, x=x + shift, width=width - shift, align=align)
        if text is not None:
            items.append(Group(text.items, dy=bottom - text.height))
    return items


def _footer(
    kit: BrandKit, look: SpanStyle, fonts: FontBook, box: Rect, bottom: float, line: float
) -> list[Item]:
    """The footer image (its height `FOOTER_IMAGE`), then the footer text beside it, the
    line ending at `bottom`."""
    items: list[Item] = []
    picture = image_ref(kit.footer_image) if kit.footer_image else None
    height = line
    shift = 0.0
    if picture is not None:
        height = FOOTER_IMAGE
        width = min(height * picture.width / picture.height, box.width / 2)
        height = width * picture.height / picture.width
        items.append(Picture(picture, Rect(box.x, bottom - height, width, height)))
        shift = width + GAP
    if kit.footer:
        text = one_line(
            kit.footer, look, fonts, x=box.x + shift, width=box.width - shift, align="left"
        )
        if text is not None:
            top = bottom - height + (height - text.height) / 2
            items.append(Group(text.items, dy=top))
    return items


def watermark_items(kit: BrandKit, styles: Styles, fonts: FontBook, content: Rect) -> list[Item]:
    """The kit's watermark in the content box, one faint layer (drawn under the rows)."""
    mark = kit.watermark
    if mark is None or not (mark.text or mark.image):
        return []
    ref = image_ref(mark.image) if mark.image else None
    items: list[Item]
    if ref is not None:
        width = min(content.width * WATERMARK_WIDTH, float(ref.width))
        height = width * ref.height / ref.width
        x, y = _placed(mark.position, content, width, height)
        items = [Picture(ref, Rect(x, y, width, height))]
    elif mark.text:
        body = styles["body"]
        look = text_look(body.family, body.size * WATERMARK_SIZE, body.color, weight=700)
        text = one_line(mark.text, look, fonts, x=0.0, width=content.width, align="left")
        if text is None:
            return []
        width = min(text.width, content.width)
        x, y = _placed(mark.position, content, width, text.height)
        items = [Group(text.items, dx=x - text.left, dy=y)]
    else:
        return []
    tilt = WATERMARK_TILT if mark.position == "center" and ref is None else 0.0
    pivot = (content.x + content.width / 2, content.y + content.height / 2)
    return [Layer(tuple(items), opacity=mark.opacity, rotate=tilt, pivot=pivot)]


def _placed(position: str, content: Rect, width: float, height: float) -> tuple[float, float]:
    """Where a mark `width` x `height` goes in `content` at `position`."""
    if position == "center":
        return content.x + (content.width - width) / 2, content.y + (content.height - height) / 2
    x = content.x if position.endswith("left") else content.right - width
    y = content.y if position.startswith("top") else content.y + content.height - height
    return x, y
