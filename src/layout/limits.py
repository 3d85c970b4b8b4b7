"""The numbers a caller of the engine sees → one place: card size defaults and bounds,
the most cards one render makes, and the largest card in pixels those bounds allow (and a
format whose encoder needs more memory allows).
"""

from __future__ import annotations

from typing import Final

DEFAULT_WIDTH: Final = 440  # CSS px: the 小红书 3:4 card
DEFAULT_HEIGHT: Final = 586
DEFAULT_CARD_SIZE: Final = (DEFAULT_WIDTH, DEFAULT_HEIGHT)
MAX_CARDS: Final = 50  # one request never makes more cards than this
# What a caller may ask for: card width and height in CSS px, output scale (an integer).
CARD_LIMITS: dict[str, tuple[int, int]] = {
    "width": (100, 1600),
    "height": (100, 4000),
    "scale": (1, 4),
}
# The pixels of the largest fixed-size card the limits allow: widest, tallest, at the
# largest scale (a card that grows with its content may be taller).
MAX_CARD_PIXELS: Final = (
    CARD_LIMITS["width"][1] * CARD_LIMITS["height"][1] * CARD_LIMITS["scale"][1] ** 2
)
# A format whose encoder needs more memory per pixel gets fewer pixels a card, so that the
# largest card of any format peaks near the same ~0.8 GB in a render process. WebP's encoder
# needs 17-28 bytes a pixel of its own (lossless at quality 100, noisy pixels) where PNG and
# JPEG need at most 8 in all: WebP gets the widest, tallest card at scale 2
# (docs/decisions/engine.md, "Memory per output pixel").
MAX_CARD_PIXELS_BY_FORMAT: Final[dict[str, int]] = {
    "webp": CARD_LIMITS["width"][1] * CARD_LIMITS["height"][1] * 2**2,
}
# What drawing one request may hold at once in a render process: its largest card at up to
# 8 bytes a pixel (the surface, a layer some themes draw through, the encoder's buffers) and
# its decoded images at 4. With the process's own ~0.1 GB, a request stays under 1 GB. Only
# the largest cards feel it: a 1600x4000 card at scale 4 leaves room for 20 million image
# pixels instead of the usual 50 (docs/decisions/engine.md, "Memory per output pixel").
DRAW_MEMORY_BYTES: Final = 900_000_000
CARD_BYTES_PER_PIXEL: Final = 8
IMAGE_BYTES_PER_PIXEL: Final = 4


def image_pixels_beside(card_pixels: int) -> int:
    """The decoded image pixels a request may draw beside its largest card of `card_pixels`."""
    room = DRAW_MEMORY_BYTES - CARD_BYTES_PER_PIXEL * card_pixels
    return max(0, room // IMAGE_BYTES_PER_PIXEL)
