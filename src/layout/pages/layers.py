"""What a card draws besides its rows: the content box the rows go in, the static layers
(background and decorations the same on every card of a theme, mode and size, built once) and
the decorations tied to one card's text or panels."""

from __future__ import annotations

import itertools
import threading
import weakref
from dataclasses import replace

from ..base.boxes import Cached, Fill, Item, Layer, Rect
from ..base.fonts import FontBook
from ..base.lru import Lru
from ..base.placing import Placement
from ..style.decorations import Decoration, is_static
from ..style.paint import base_color
from ..style.resolver import Styles
from .decorate import Context, build, text_boxes

MAX_MEASURE = 600.0  # the widest column of text, in virtual px (about 80 Latin characters)


def content_box(styles: Styles, width: float, height: float) -> Rect:
    """Where rows go on a card: inside the padding, between header and footer, and no
    wider than `MAX_MEASURE` (centred): on a wide card a line would hold 100 Latin
    characters, more than an eye follows back to the next line."""
    card = styles["card"]
    top, right, bottom, left = card.padding
    y = top + card.header_height
    measure = max(1.0, width - left - right)
    if measure > MAX_MEASURE:
        left, measure = left + (measure - MAX_MEASURE) / 2, MAX_MEASURE
    return Rect(left, y, measure, max(1.0, height - y - bottom - card.footer_height))


# Static layers: the same for every card of one theme, mode, font book and size, so they
# are laid out once here and recorded once by draw (both keyed by `Cached.key`).
_STATIC_LIMIT = 128
_STATIC: Lru[tuple[object, ...], tuple[list[Item], list[Item]]] = Lru(_STATIC_LIMIT)
_BOOK_LOCK = threading.Lock()
_BOOK_IDS: weakref.WeakKeyDictionary[FontBook, int] = weakref.WeakKeyDictionary()
_SERIALS = itertools.count()


def static_layers(
    styles: Styles, fonts: FontBook, width: float, height: float
) -> tuple[list[Item], list[Item]]:
    """The page background and the static decorations under and over the text, each as
    one `Cached` item (or none), built once per theme, mode, font book and card size."""
    with _BOOK_LOCK:
        book = _BOOK_IDS.setdefault(fonts, next(_SERIALS))
    key = (*styles.key, book, width, height)
    found = _STATIC.get(key)
    if found is not None:
        return found
    layers = _build_static(styles, fonts, width, height, key)
    _STATIC.put(key, layers)
    return layers


def clear_static_layers() -> None:
    """Forgets every laid-out static layer (benchmarks measure the uncached cost)."""
    _STATIC.clear()


def _build_static(
    styles: Styles, fonts: FontBook, width: float, height: float, key: tuple[object, ...]
) -> tuple[list[Item], list[Item]]:
    card = styles["card"]
    under: list[Item] = []
    paint = card.background if card.background is not None else 0xFFFFFFFF
    if card.effects or not isinstance(paint, int):  # a solid page is the canvas colour
        fill = Fill(Rect(0.0, 0.0, width, height), paint)
        under.append(Layer((fill,), card.effects) if card.effects else fill)
    over: list[Item] = []
    frames = {
        "card": Rect(0.0, 0.0, width, height),
        "content": content_box(styles, width, height),
    }
    for deco in styles.decorations:
        if is_static(deco):
            context = Context(frames[deco.frame], styles.tokens, fonts)
            (over if deco.layer == "over" else under).extend(build(deco, context))
    base = base_color(card.background)
    return (
        [Cached((*key, "under"), tuple(under), base, (width, height))] if under else [],
        [Cached((*key, "over"), tuple(over), None, (width, height))] if over else [],
    )


def live_decorations(
    styles: Styles, fonts: FontBook, placement: Placement, page: Rect, content: Rect, top: float
) -> dict[str, list[Item]]:
    """Decorations tied to this card's text (ruled lines on its baselines) or panels
    (one per quote or code panel), by where they go in paint order; the rows start at
    `top`."""
    out: dict[str, list[Item]] = {"under": [], "over": [], "panel-under": [], "panel-over": []}
    live = [d for d in styles.decorations if not is_static(d)]
    if not live:
        return out
    baselines = tuple(
        top + p.y + p.row.baseline * p.scale for p in placement.rows if p.row.baseline
    )
    text = text_boxes(placement.rows, replace(content, y=top))
    for deco in live:
        for frame in _frames_of(deco, placement, page, content, top):
            context = Context(frame, styles.tokens, fonts, baselines, text, page)
            slot = deco.layer if deco.frame in ("card", "content") else f"panel-{deco.layer}"
            out[slot].extend(build(deco, context))
    return out


def _frames_of(
    deco: Decoration, placement: Placement, page: Rect, content: Rect, rows_top: float
) -> list[Rect]:
    if deco.frame in ("card", "content"):
        return [page if deco.frame == "card" else content]
    return [
        Rect(frame.decor.x, rows_top + top, frame.decor.width, bottom - top)
        for frame, top, bottom in placement.frames
        if frame.decor.role == deco.frame
    ]
