"""The brand-kit body of ``PUT /api/brands/{name}`` → ``BrandKitRequest``; its answers.

A kit is a creator's marks, saved once per API key and named on every card request
(``brand``): fonts for the body and the headings (base64 TTF, OTF, WOFF or WOFF2), a logo, a
byline, a footer line or footer image (a QR code), a watermark and the page-number style.
Every field is optional and a field we do not know is an error, nested ones included; the
bytes are checked after this (``app.brands.kit``), before anything is stored.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from inkcard.app.errors import InvalidField
from inkcard.app.schema.wire import decode_object, field_label

MAX_BYLINE = 60
MAX_FOOTER = 80
MAX_WATERMARK_TEXT = 24
MAX_NAME = 40

FontData = Annotated[
    str,
    msgspec.Meta(
        description="A font file as base64 (TTF, OTF, WOFF or WOFF2), a data: URI of one, or an"
        " http(s) URL fetched once under the image rules; checked whole by fontTools, at most"
        " 4 MiB once unpacked."
    ),
]
ImageData = Annotated[
    str,
    msgspec.Meta(
        description="An image as a data: URI (PNG, JPEG, GIF or WebP) or an http(s) URL fetched"
        " once under the image rules, at most 512 KiB and 2,048 px a side."
    ),
]


class _Strict(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pass


class BrandFonts(_Strict, frozen=True):
    """The kit's fonts: each takes its roles; characters it lacks fall back to the theme's."""

    body: Annotated[
        FontData | None, msgspec.Meta(description="For body text, lists, quotes, tables.")
    ] = None
    heading: Annotated[FontData | None, msgspec.Meta(description="For headings h1-h6.")] = None


class BrandWatermark(_Strict, frozen=True):
    """A faint mark under the text of every card: a word or an image."""

    text: Annotated[str, msgspec.Meta(max_length=MAX_WATERMARK_TEXT, description="The word.")] = ""
    image: ImageData = ""
    opacity: Annotated[
        float, msgspec.Meta(ge=0.02, le=0.5, description="0.02..0.5 (default 0.12).")
    ] = 0.12
    position: Annotated[
        Literal["center", "top-left", "top-right", "bottom-left", "bottom-right"],
        msgspec.Meta(description="Where in the text's box (center: on the slant)."),
    ] = "center"


class BrandKitRequest(_Strict, frozen=True):
    """Body of ``PUT /api/brands/{name}``. Every field is optional."""

    fonts: BrandFonts | None = None
    logo: Annotated[
        ImageData | None,
        msgspec.Meta(description="Drawn at the left of the footer band, before the byline."),
    ] = None
    byline: Annotated[
        str,
        msgspec.Meta(max_length=MAX_BYLINE, description="The author's line, in the footer band."),
    ] = ""
    footer: Annotated[
        str,
        msgspec.Meta(max_length=MAX_FOOTER, description="A line above the byline."),
    ] = ""
    footerImage: Annotated[
        ImageData | None,
        msgspec.Meta(description="An image such as a QR code, 44 px tall, before the footer."),
    ] = None
    watermark: BrandWatermark | None = None
    pageNumber: Annotated[
        Literal["n/N", "n", "none"] | None,
        msgspec.Meta(description="n/N (3/8), n (3) or none; absent: the theme's own."),
    ] = None
    background: Annotated[
        ImageData | None,
        msgspec.Meta(
            description="The card's background: over the theme's own fill, under its"
            " decorations, panels and text."
        ),
    ] = None
    backgroundFit: Annotated[
        Literal["cover", "contain", "tile"],
        msgspec.Meta(
            description="cover (fills the card, cropped; the default), contain (all of it,"
            " centred) or tile (repeated at its size)."
        ),
    ] = "cover"


BRAND_ACCEPTED = {
    "fonts": "an object with body and heading, each a base64 TTF, OTF, WOFF or WOFF2 font",
    "logo": "a data: URI of a PNG, JPEG, GIF or WebP image",
    "byline": f"a string of at most {MAX_BYLINE} characters",
    "footer": f"a string of at most {MAX_FOOTER} characters",
    "footerImage": "a data: URI of a PNG, JPEG, GIF or WebP image",
    "watermark": "an object with text (at most 24 characters) or image, opacity 0.02..0.5 and"
    " position center, top-left, top-right, bottom-left or bottom-right",
    "pageNumber": "one of n/N, n, none",
    "background": "a data: URI of a PNG, JPEG, GIF or WebP image",
    "backgroundFit": "one of cover, contain, tile",
}


def parse_brand_kit(body: bytes) -> BrandKitRequest:
    """Decode and check a brand-kit body (types, lengths, unknown fields at any depth).

    Raises:
        InvalidJson: The body is not a JSON object.
        UnknownField: A top-level field the kit does not have.
        InvalidField: A field of the wrong type or out of range, or an unknown nested field.
    """
    fields: dict[str, Any] = decode_object(body, BRAND_ACCEPTED)
    for name, value in fields.items():
        try:
            msgspec.convert({name: value}, BrandKitRequest)
        except msgspec.ValidationError as error:
            detail = str(error).replace("$.", "")
            raise InvalidField(
                f"{name} must be {BRAND_ACCEPTED[name]} ({detail})", label=field_label(name)
            ) from None
    return msgspec.convert(fields, BrandKitRequest)


def check_brand_name(name: str) -> str:
    """``name`` if it is 1..40 letters, digits, ``-`` and ``_`` (ASCII), else a 400.

    Raises:
        InvalidField: ``invalid_brand``.
    """
    ok = 0 < len(name) <= MAX_NAME and all(c.isascii() and (c.isalnum() or c in "-_") for c in name)
    if not ok:
        raise InvalidField(
            "a brand name must be 1 to 40 ASCII letters, digits, - and _", label="invalid_brand"
        )
    return name


def _said(description: str) -> msgspec.Meta:
    return msgspec.Meta(description=description)


class BrandFontInfo(msgspec.Struct, frozen=True):
    """A stored font: its family name, size, glyphs and coverage."""

    family: Annotated[str, _said("The family name the font's name table gives.")]
    bytes: Annotated[int, _said("Its size as stored (WOFF and WOFF2 unpacked to TTF or OTF).")]
    glyphs: Annotated[int, _said("How many glyphs it has.")]
    latin: Annotated[float, _said("Share (0-1) of printable ASCII it draws.")]
    cjk: Annotated[float, _said("Share (0-1) of 50 common Chinese characters it draws.")]
    sha256: Annotated[str, _said("SHA-256 of the stored bytes, hex.")]


class BrandImageInfo(msgspec.Struct, frozen=True):
    """A stored image: its size and digest."""

    width: Annotated[int, _said("Pixels wide.")]
    height: Annotated[int, _said("Pixels tall.")]
    bytes: Annotated[int, _said("Its size in bytes.")]
    sha256: Annotated[str, _said("SHA-256 of its bytes, hex.")]


class BrandKitInfo(msgspec.Struct, frozen=True, omit_defaults=True):
    """A stored kit as ``GET /api/brands/{name}`` shows it (files summarised, not echoed)."""

    name: Annotated[str, _said("The kit's name, what `brand` takes.")]
    updatedAt: Annotated[str, _said("When it was last saved, ISO 8601 UTC.")]
    fonts: Annotated[
        dict[str, BrandFontInfo], _said("The kit's fonts by role (body, heading).")
    ] = {}
    logo: Annotated[BrandImageInfo | None, _said("The logo, if any.")] = None
    byline: Annotated[str, _said("The byline, if any.")] = ""
    footer: Annotated[str, _said("The footer line, if any.")] = ""
    footerImage: Annotated[BrandImageInfo | None, _said("The footer image, if any.")] = None
    watermark: Annotated[
        dict[str, Any] | None, _said("The watermark: text or image, opacity, position.")
    ] = None
    pageNumber: Annotated[str | None, _said("n/N, n or none; absent: the theme's own.")] = None
    background: Annotated[BrandImageInfo | None, _said("The background image, if any.")] = None
    backgroundFit: Annotated[
        str | None, _said("cover, contain or tile; absent without a background.")
    ] = None
    warnings: Annotated[
        list[str],
        _said(
            "What falls back (characters of the kit's texts its font lacks) and the themes"
            " whose body text reads under 4.5:1 on the background."
        ),
    ] = []


class BrandList(msgspec.Struct, frozen=True):
    """Body of ``GET /api/brands``: the key's kits, by name."""

    brands: Annotated[list[BrandKitInfo], _said("The key's brand kits, by name.")]


__all__ = ["BrandKitRequest", "check_brand_name", "parse_brand_kit"]
