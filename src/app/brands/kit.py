"""A brand-kit body → the engine's ``BrandKit`` and the summary ``GET`` shows.

Every file in a kit comes from outside, so each is checked here once, when the kit is
saved, and nothing is stored unless all pass: a font is read whole by fontTools (a real
font, at most ``MAX_FONT_BYTES`` once unpacked; its coverage is reported, and characters it
lacks fall back to the theme's font), an image is a data: URI whose header Skia reads, at
most ``MAX_IMAGE_BYTES`` and ``MAX_IMAGE_SIDE`` a side. A bad one is a 400 naming the field;
a background whose mean colour leaves some theme's body text under 4.5:1 is kept, with a
warning (``contrast``).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from datetime import UTC, datetime
from typing import Any

from inkcard import layout
from inkcard.app.brands.contrast import background_warnings
from inkcard.app.errors import InvalidField
from inkcard.app.schema.brand import (
    BrandFontInfo,
    BrandImageInfo,
    BrandKitInfo,
    BrandKitRequest,
)
from inkcard.layout.draw import image_mean_colour, probe_image
from inkcard.layout.style import BrandKit, Watermark
from inkcard.layout.text import CheckedFont, check_font

MAX_FONT_BYTES = 4 * 1024 * 1024
MAX_KIT_BODY_BYTES = 12 * 1024 * 1024  # two 4 MiB fonts in base64, and three images
MAX_IMAGE_BYTES = 512 * 1024
MAX_IMAGE_SIDE = 2048
LOW_COVERAGE = 0.9  # below this share of the byline's characters, a warning says so


def checked_kit(name: str, body: BrandKitRequest) -> tuple[BrandKit, BrandKitInfo]:
    """The engine's kit and its summary, every file checked.

    Raises:
        InvalidField: A font that is not one (``invalid_font``), an image that is not one or
            too large (``invalid_image``), a watermark with neither text nor image.
    """
    fonts = body.fonts
    body_font = _font("fonts.body", fonts.body) if fonts and fonts.body else None
    heading_font = _font("fonts.heading", fonts.heading) if fonts and fonts.heading else None
    logo = _image("logo", body.logo)
    footer_image = _image("footerImage", body.footerImage)
    background = _image("background", body.background)
    watermark = None
    mark_info: dict[str, Any] | None = None
    if body.watermark is not None:
        mark = body.watermark
        if not mark.text and not mark.image:
            raise InvalidField("watermark needs text or image", label="invalid_watermark")
        image = _image("watermark.image", mark.image or None)
        watermark = Watermark(
            text=mark.text or "", image=image, opacity=mark.opacity, position=mark.position
        )
        mark_info = {"opacity": mark.opacity, "position": mark.position}
        if mark.text:
            mark_info["text"] = mark.text
        if image:
            mark_info["image"] = _image_info(image)
    kit = BrandKit(
        body_font=body_font.data if body_font else b"",
        heading_font=heading_font.data if heading_font else b"",
        logo=logo,
        byline=body.byline or "",
        footer=body.footer or "",
        footer_image=footer_image,
        watermark=watermark,
        page_number=body.pageNumber,
        background=background,
        background_fit=body.backgroundFit,
    )
    font_infos = {
        role: _font_info(font)
        for role, font in (("body", body_font), ("heading", heading_font))
        if font is not None
    }
    info = BrandKitInfo(
        name=name,
        updatedAt=datetime.now(UTC).isoformat(timespec="seconds"),
        fonts=font_infos,
        logo=_image_info(logo) if logo else None,
        byline=kit.byline,
        footer=kit.footer,
        footerImage=_image_info(footer_image) if footer_image else None,
        watermark=mark_info,
        pageNumber=body.pageNumber,
        background=_image_info(background) if background else None,
        backgroundFit=body.backgroundFit if background else None,
        warnings=_warnings(kit, body_font)
        + (background_warnings(image_mean_colour(background)) if background else []),
    )
    return kit, info


def _font(field: str, text: str) -> CheckedFont:
    data = _base64(field, text.partition(",")[2] if text.startswith("data:") else text)
    try:
        return check_font(data, MAX_FONT_BYTES)
    except layout.FontError as error:
        raise InvalidField(f"{field}: {error}", label="invalid_font") from None


def _image(field: str, uri: str | None) -> bytes:
    """The bytes of a data: URI image, checked; b"" when none was sent."""
    if uri is None:
        return b""
    header, comma, payload = uri.partition(",")
    if not uri.startswith("data:image/") or not comma or not header.endswith(";base64"):
        raise InvalidField(
            f"{field} must be a data:image/…;base64, URI or an http(s) URL of an image",
            label="invalid_image",
        )
    data = _base64(field, payload, label="invalid_image")
    if len(data) > MAX_IMAGE_BYTES:
        raise InvalidField(
            f"{field} is {len(data):,} bytes; at most {MAX_IMAGE_BYTES:,} are accepted",
            label="invalid_image",
        )
    try:
        info = probe_image(data)
    except layout.ImageRejected as error:
        raise InvalidField(f"{field}: {error}", label="invalid_image") from None
    if max(info.width, info.height) > MAX_IMAGE_SIDE:
        raise InvalidField(
            f"{field} is {info.width} x {info.height} px; at most {MAX_IMAGE_SIDE} px a side",
            label="invalid_image",
        )
    return data


def _base64(field: str, text: str, label: str = "invalid_font") -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise InvalidField(f"{field} is not valid base64", label=label) from None


def _font_info(font: CheckedFont) -> BrandFontInfo:
    return BrandFontInfo(
        family=font.family,
        bytes=len(font.data),
        glyphs=font.glyphs,
        latin=font.latin,
        cjk=font.cjk,
        sha256=hashlib.sha256(font.data).hexdigest(),
    )


def _image_info(data: bytes) -> BrandImageInfo:
    info = probe_image(data)
    width, height = info.width, info.height
    return BrandImageInfo(width, height, len(data), hashlib.sha256(data).hexdigest())


def _warnings(kit: BrandKit, body: CheckedFont | None) -> list[str]:
    """Coverage of the kit's own texts by its body font: what falls back to the theme's."""
    if body is None:
        return []
    out = []
    for field, text in (("byline", kit.byline), ("footer", kit.footer)):
        if text and (share := body.covers(text)) < LOW_COVERAGE:
            out.append(
                f"fonts.body draws {share:.0%} of the {field}'s characters; the rest are drawn"
                " in the theme's font"
            )
    if body.cjk == 0:
        out.append("fonts.body has no Chinese characters: Chinese text uses the theme's font")
    return out
