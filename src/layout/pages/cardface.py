"""The card role's style + the image size → where the card lies on the image, where its
rows go, and its static layers (background and static decorations), built once.

A card with an `inset` is drawn that far inside the image, on its `outer_background`, with
its `radius` and its `effects`: a shadow needs room around the card to fall on, as a web
page shows a card with `box-shadow`. Everything that belongs to the card (the content box,
the page number, decorations framed on the card) stays inside it. Without an inset the
card is the whole image.
"""

from __future__ import annotations

import itertools
import threading
import weakref

from ..base.boxes import Cached, Fill, Item, Layer, Rect
from ..base.fonts import FontBook
from ..base.lru import Lru
from ..style.decorations import Box, is_static
from ..style.paint import base_color, resolve_paint
from ..style.resolver import WHITE, Styles
from ..style.schema import Style
from .decor.clearance import Panel, holds, shrink
from .decor.decorate import Context, build, footprint
from .marks.chrome import CHROME_LINE

MAX_MEASURE = 600.0  # the widest column of text, in virtual px (about 80 Latin characters)
# Around an inset card that names no `outer_background`: a light neutral grey, the page a
# card sits on in a browser's preview, light enough for a dark card's shadow to show too.
SURROUND = 0xFFF3F4F6


def card_rect(card: Style, width: float, height: float) -> Rect:
    """The card on an image of `width` x `height`: the whole image less its inset."""
    inset = card.inset
    return Rect(inset, inset, max(1.0, width - 2 * inset), max(1.0, height - 2 * inset))


def edges(card: Style) -> tuple[float, float, float, float]:
    """How far the card's content keeps from the image's edges (top, right, bottom, left):
    its padding, inside its inset."""
    top, right, bottom, left = card.padding
    return (top + card.inset, right + card.inset, bottom + card.inset, left + card.inset)


def framed(card: Style) -> bool:
    """Whether the image shows the surround: around an inset card, or at rounded corners."""
    return bool(card.inset or card.radius)


def canvas_colour(card: Style) -> int:
    """The colour the image is cleared with: the card's own, or around an inset or rounded
    card the surround's."""
    if framed(card):
        return base_color(card.outer_background, SURROUND)
    return base_color(card.background)


def content_box(styles: Styles, width: float, height: float) -> Rect:
    """Where rows go on a card: inside the padding, between header and footer, and no
    wider than `MAX_MEASURE` (centred): on a wide card a line would hold 100 Latin
    characters, more than an eye follows back to the next line."""
    card = styles["card"]
    top, right, bottom, left = edges(card)
    y = top + card.header_height
    measure = max(1.0, width - left - right)
    if measure > MAX_MEASURE:
        left, measure = left + (measure - MAX_MEASURE) / 2, MAX_MEASURE
    return Rect(left, y, measure, max(1.0, height - y - bottom - card.footer_height))


# The air between the text's last line box and a page number at the foot, in body line
# pitches: half a line, so the number reads as the margin's, not as a last line of text
# (notebook, nature, art-deco and pop-art set it 4-6 px under a full card's last line).
FOLIO_AIR = 0.5


def folio_air(styles: Styles) -> float:
    """How far above its content box's foot the text of a card stops, unless that costs a
    card (pages/breaks/pagebreaks.py): what the footer band (`footer_height`) leaves short
    of the page number's line and `FOLIO_AIR` above it; 0 where the band holds both or the
    number stands at the top."""
    number, body = styles["page_number"], styles["body"]
    if number.position != "bottom":
        return 0.0
    need = CHROME_LINE * number.size + FOLIO_AIR * body.size * body.line_height
    return max(0.0, need - styles["card"].footer_height)


# Static layers: the same for every card of one theme, mode, font book and size, so they
# are laid out once here and recorded once by draw (both keyed by `Cached.key`).
_STATIC_LIMIT = 128
_STATIC: Lru[tuple[object, ...], tuple[list[Item], list[Item]]] = Lru(_STATIC_LIMIT)
_BOOK_LOCK = threading.Lock()
_BOOK_IDS: weakref.WeakKeyDictionary[FontBook, int] = weakref.WeakKeyDictionary()
_SERIALS = itertools.count()


def static_layers(
    styles: Styles,
    fonts: FontBook,
    width: float,
    height: float,
    backdrop: tuple[Item, ...] = (),
) -> tuple[list[Item], list[Item]]:
    """The page background and the static decorations under and over the text, each as
    one `Cached` item (or none), built once per theme, mode, font book and card size;
    `backdrop` (a brand kit's background image) goes on the card's face, under the
    decorations."""
    with _BOOK_LOCK:
        book = _BOOK_IDS.setdefault(fonts, next(_SERIALS))
    key = (*styles.key, book, width, height, backdrop)
    found = _STATIC.get(key)
    if found is not None:
        return found
    layers = _build_static(styles, fonts, width, height, key, backdrop)
    _STATIC.put(key, layers)
    return layers


def ornament_boxes(
    styles: Styles, fonts: FontBook, width: float, height: float
) -> tuple[Rect, ...]:
    """Where the static decorations drawn over the text lie (pop-art's star and burst,
    notebook's sticker): the theme means them to stay on top, so a brand kit's marks keep
    clear of them rather than cover them or hide under them. Those under the text are
    its ground, and the marks sit on them as text does."""
    frames = {
        "card": card_rect(styles["card"], width, height),
        "content": content_box(styles, width, height),
    }
    boxes: list[Rect] = []
    for deco in styles.decorations:
        if is_static(deco) and deco.layer == "over":
            box = footprint(deco, Context(frames[deco.frame], styles.tokens, fonts))
            if box is not None:
                boxes.append(box)
    return tuple(boxes)


def text_panel(
    styles: Styles, fonts: FontBook, width: float, height: float
) -> tuple[Rect, int] | None:
    """The panel the theme sets its text on, and its colour (ARGB, translucent or not):
    a static rectangle under the text around the whole content box, filled with one colour
    (pop-art's white sheet, cyberpunk's 78 % night glass); None when the text sits on the
    card's face. What lies under an opaque one never shows."""
    found = _text_panel(styles, fonts, width, height)
    return None if found is None else (found[1], found[2])


def panel_edges(styles: Styles, fonts: FontBook, width: float, height: float) -> Panel | None:
    """The text panel (`text_panel`) as an `avoid_text` ornament the theme set inside it
    sees it: its box, border and all, and the inside of its border, which the ornament
    keeps within when moved off the text."""
    found = _text_panel(styles, fonts, width, height)
    if found is None:
        return None
    deco, box, _ = found
    return Panel(box, shrink(box, deco.stroke_width / 2 if deco.stroke is not None else 0.0))


def _text_panel(
    styles: Styles, fonts: FontBook, width: float, height: float
) -> tuple[Box, Rect, int] | None:
    card = card_rect(styles["card"], width, height)
    content = content_box(styles, width, height)
    frames = {"card": card, "content": content}
    found = None
    for deco in styles.decorations:
        if not (is_static(deco) and deco.layer != "over" and isinstance(deco, Box)):
            continue
        paint = resolve_paint(deco.fill, styles.tokens) if deco.fill is not None else None
        if not isinstance(paint, int) or paint >> 24 == 0 or deco.opacity != 1.0:
            continue
        box = footprint(deco, Context(frames[deco.frame], styles.tokens, fonts))
        if box is not None and holds(box, content):
            found = (deco, box, paint)
    return found


def clear_static_layers() -> None:
    """Forgets every laid-out static layer (benchmarks measure the uncached cost)."""
    _STATIC.clear()


def _build_static(
    styles: Styles,
    fonts: FontBook,
    width: float,
    height: float,
    key: tuple[object, ...],
    backdrop: tuple[Item, ...],
) -> tuple[list[Item], list[Item]]:
    card = styles["card"]
    under = [*_background(card, width, height), *backdrop]
    over: list[Item] = []
    frames = {"card": card_rect(card, width, height), "content": content_box(styles, width, height)}
    for deco in styles.decorations:
        if is_static(deco):
            context = Context(frames[deco.frame], styles.tokens, fonts)
            (over if deco.layer == "over" else under).extend(build(deco, context))
    base = canvas_colour(card)
    return (
        [Cached((*key, "under"), tuple(under), base, (width, height))] if under else [],
        [Cached((*key, "over"), tuple(over), None, (width, height))] if over else [],
    )


def _background(card: Style, width: float, height: float) -> list[Item]:
    """The surround of a framed card (unless the canvas colour is all of it), then the
    card's face with its radius and effects (unless the canvas colour is all of it)."""
    items: list[Item] = []
    outer = card.outer_background
    if framed(card) and outer is not None and not isinstance(outer, int):
        items.append(Fill(Rect(0.0, 0.0, width, height), outer))
    paint = card.background if card.background is not None else WHITE
    face = card_rect(card, width, height)
    if card.effects or framed(card) or not isinstance(paint, int):
        fill = Fill(face, paint, card.radius)
        items.append(Layer((fill,), card.effects) if card.effects else fill)
    return items
