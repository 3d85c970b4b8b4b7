"""The brand kit the brand tests share: two vendored fonts that no theme draws its body or
headings in by default (Courier Prime), a logo, a QR-like footer image and a watermark, as
the engine's `BrandKit` and as the body of `PUT /api/brands/{name}`."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import numpy as np

from inkcard.layout.style import BrandKit, Watermark
from tests import pngcodec

FONTS = Path(__file__).resolve().parents[1] / "fonts"
BODY_FONT = (FONTS / "CourierPrime-Regular.otf").read_bytes()
HEADING_FONT = (FONTS / "CourierPrime-Bold.otf").read_bytes()
BYLINE = "@墨卡工作室 · Ink Studio"
FOOTER = "关注公众号「墨卡」，回复 brand 领取模板"
POST = (
    "# 品牌卡片 Brand kit\n\n"
    "Body text in the brand's own font, with 中文 drawn by the theme's font.\n\n"
    "## A second heading\n\n"
    "- one item of a list\n- another item\n\n"
    "> A quote in the body font.\n\n"
    + ("More text that fills the card, so that it splits. " * 16 + "\n\n")
    * 3
)


def logo_png(size: int = 96) -> bytes:
    """An orange disc on transparent: a logo."""
    yy, xx = np.mgrid[0:size, 0:size]
    inside = (xx - size / 2 + 0.5) ** 2 + (yy - size / 2 + 0.5) ** 2 <= (size / 2 - 2) ** 2
    pixels = np.zeros((size, size, 4), np.uint8)
    pixels[inside] = (228, 87, 46, 255)
    return pngcodec.encode(pixels)


def qr_png(cells: int = 21, cell: int = 6) -> bytes:
    """A QR-like square of black and white cells (not a real code): a footer image."""
    rng = np.random.default_rng(7)
    grid = rng.integers(0, 2, (cells, cells), dtype=np.uint8)
    grid[:7, :7] = grid[:7, -7:] = grid[-7:, :7] = 1  # finder squares
    pixels = np.repeat(np.repeat(255 - grid * 255, cell, 0), cell, 1)
    rgb = np.stack([pixels] * 3 + [np.full_like(pixels, 255)], axis=-1)
    return pngcodec.encode(rgb)


def noise_png(width: int, height: int) -> bytes:
    """Random pixels: an image that does not compress (an oversized logo)."""
    rng = np.random.default_rng(3)
    return pngcodec.encode(rng.integers(0, 256, (height, width, 4), dtype=np.uint8))


def data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode()


def engine_kit() -> BrandKit:
    """The kit as the engine takes it."""
    return BrandKit(
        body_font=BODY_FONT,
        heading_font=HEADING_FONT,
        logo=logo_png(),
        byline=BYLINE,
        footer=FOOTER,
        footer_image=qr_png(),
        watermark=Watermark(text="INKCARD", opacity=0.1),
        page_number="n/N",
    )


def kit_body(**changes: Any) -> dict[str, Any]:
    """The same kit as a `PUT /api/brands/{name}` body, with `changes`."""
    body: dict[str, Any] = {
        "fonts": {
            "body": base64.b64encode(BODY_FONT).decode(),
            "heading": base64.b64encode(HEADING_FONT).decode(),
        },
        "logo": data_uri(logo_png()),
        "byline": BYLINE,
        "footer": FOOTER,
        "footerImage": data_uri(qr_png()),
        "watermark": {"text": "INKCARD", "opacity": 0.1},
        "pageNumber": "n/N",
    }
    body.update(changes)
    return body
