"""A brand-kit body's URLs → their bytes, fetched under the image rules, before the kit is
checked.

A logo, footer image, watermark image, background or font may be an http(s) URL instead of
inline data: it is downloaded once, when the kit is saved, by the service's one fetcher (its
address guard, size limit, redirects and deadline: the rules every card image keeps), and the
kit stores the bytes, so no card request fetches it again. A URL that cannot be had is a 400
naming the field.
"""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable

import msgspec

from inkcard.app.errors import InvalidField
from inkcard.app.fetch import FetchError
from inkcard.app.schema.brand import BrandKitRequest

Fetch = Callable[[str], Awaitable[bytes]]
URL_SCHEMES = ("http://", "https://")


async def with_fetched(body: BrandKitRequest, fetch: Fetch) -> BrandKitRequest:
    """``body`` with each URL replaced by the data it names (images as ``data:`` URIs, fonts
    as base64); the same body when it names none.

    Raises:
        InvalidField: ``invalid_image`` or ``invalid_font``: a URL the fetcher refused or
            could not download (the message says why).
    """
    logo = await _image("logo", body.logo, fetch)
    footer_image = await _image("footerImage", body.footerImage, fetch)
    background = await _image("background", body.background, fetch)
    fonts = body.fonts
    if fonts is not None:
        fonts = msgspec.structs.replace(
            fonts,
            body=await _font("fonts.body", fonts.body, fetch),
            heading=await _font("fonts.heading", fonts.heading, fetch),
        )
    watermark = body.watermark
    if watermark is not None and watermark.image:
        image = await _image("watermark.image", watermark.image, fetch)
        watermark = msgspec.structs.replace(watermark, image=image or "")
    return msgspec.structs.replace(
        body,
        logo=logo,
        footerImage=footer_image,
        fonts=fonts,
        watermark=watermark,
        background=background,
    )


async def _image(field: str, value: str | None, fetch: Fetch) -> str | None:
    data = await _fetched(field, value, fetch, "invalid_image")
    return value if data is None else "data:image/*;base64," + base64.b64encode(data).decode()


async def _font(field: str, value: str | None, fetch: Fetch) -> str | None:
    data = await _fetched(field, value, fetch, "invalid_font")
    return value if data is None else base64.b64encode(data).decode()


async def _fetched(field: str, value: str | None, fetch: Fetch, label: str) -> bytes | None:
    """The bytes behind ``value`` when it is a URL; None when it is not one."""
    if value is None or not value.startswith(URL_SCHEMES):
        return None
    try:
        return await fetch(value)
    except FetchError as error:
        raise InvalidField(f"{field}: {error}", label=label) from None
