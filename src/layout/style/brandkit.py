"""A creator's brand kit → the theme it is drawn in, with room kept for its marks.

The theme stays the design; a `BrandKit` only adds marks in the theme's own places and
swaps fonts. `branded_theme` returns the theme as data with three changes: the card's
footer band (`card.footer_height`) grows to hold the kit's sign line (logo and byline) and
its footer line (text or an image such as a QR code), so the layout keeps that room free of
text; the page number takes the kit's style ("n/N", "n", "none"); and the kit's fonts take
the body roles or the headings (families `brand-body/<family>` and `brand-heading/<family>`,
whose fallback is the theme's own family: `base.brandfonts` builds them). The marks
themselves are laid out by `pages.marks.brandmarks` in that band, in the page number's style.
"""

from __future__ import annotations

import hashlib
from typing import Literal

import msgspec

from .resolver import resolve
from .schema import BASE_ROLES, INLINE_ROLES, Role, Theme

BODY_PREFIX = "brand-body/"  # the families of a kit's body font: brand-body/<theme family>
HEADING_PREFIX = "brand-heading/"
WatermarkPosition = Literal["center", "top-left", "top-right", "bottom-left", "bottom-right"]
PageNumberStyle = Literal["n/N", "n", "none"]
BackgroundFit = Literal["cover", "contain", "tile"]
PAGE_FORMATS: dict[str, str] = {"n/N": "{n}/{total}", "n": "{n}", "none": ""}
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
KEEPS_OWN_FONT = frozenset({"inline_code", "code_block", "page_number"})  # code stays mono
# The band's measures, in the theme's CSS px (they zoom with the card like its footer).
LOGO_LINES = 1.5  # the logo is this many page-number lines tall
FOOTER_IMAGE = 44.0  # a footer image's height (a QR code reads at 88 device px)
LINE_GAP = 6.0  # between the band's lines
BAND_GAP = 10.0  # between the text above and the band


class Watermark(msgspec.Struct, frozen=True, kw_only=True):
    """A faint mark under the text: a word or an image, at a place on the card."""

    text: str = ""
    image: bytes = b""  # an encoded image, checked by the caller
    opacity: float = 0.12
    position: WatermarkPosition = "center"


class BrandKit(msgspec.Struct, frozen=True, kw_only=True):
    """What a creator's marks are, as plain data: font files as checked sfnt bytes (TTF or
    OTF), images as their encoded bytes, texts as they are shown."""

    body_font: bytes = b""
    heading_font: bytes = b""
    logo: bytes = b""
    byline: str = ""
    footer: str = ""
    footer_image: bytes = b""
    watermark: Watermark | None = None
    page_number: PageNumberStyle | None = None  # None: the theme's own
    background: bytes = b""  # an encoded image: the card's face, under the theme's decorations
    background_fit: BackgroundFit = "cover"
    # the background's colours at 16 x 16 (`draw.image_tones`), filled in by `render` from
    # `background`: what sets the wash that keeps text legible over it
    background_tones: tuple[int, ...] = ()

    def digest(self) -> str:
        """24 hex characters naming the kit's content: the cache key of what it changes."""
        content = msgspec.structs.replace(self, background_tones=())  # derived: not content
        return hashlib.blake2b(msgspec.msgpack.encode(content), digest_size=12).hexdigest()

    def font_families(self) -> dict[str, bytes]:
        """The kit's fonts by the prefix of the families they draw (`base.brandfonts`)."""
        return {BODY_PREFIX: self.body_font, HEADING_PREFIX: self.heading_font}

    @property
    def has_sign(self) -> bool:
        """Whether the band has a sign line (a logo or a byline)."""
        return bool(self.logo or self.byline)

    @property
    def has_footer(self) -> bool:
        """Whether the band has a footer line (text or an image)."""
        return bool(self.footer or self.footer_image)


def line_height(size: float) -> float:
    """The height of one line of the band's text (the page number's 1.25 line box)."""
    return size * 1.25


def band_height(kit: BrandKit, size: float) -> float:
    """The height the kit's marks take in the footer band, text at `size` px; 0: none."""
    line = line_height(size)
    lines: list[float] = []
    if kit.has_footer:
        lines.append(max(line, FOOTER_IMAGE if kit.footer_image else 0.0))
    if kit.has_sign:
        lines.append(max(line, line * LOGO_LINES if kit.logo else 0.0))
    if not lines:
        return 0.0
    return BAND_GAP + sum(lines) + LINE_GAP * (len(lines) - 1)


def own_number_line(align: str, position: str, style: PageNumberStyle | None) -> bool:
    """Whether a page number keeps the band's last line to itself: one centred at the
    bottom would sit in the middle of the sign line."""
    return align == "center" and position == "bottom" and style != "none"


def branded_theme(theme: Theme, kit: BrandKit, mode: str | None) -> Theme:
    """`theme` with the kit's room, page-number style and font families (see the module)."""
    styles = resolve(theme, mode)
    roles = dict(theme.roles)
    number = styles["page_number"]
    band = band_height(kit, number.size)
    if kit.has_sign and own_number_line(number.align, number.position, kit.page_number):
        band += line_height(number.size) + LINE_GAP  # the byline cannot share a centred number
    card = styles["card"]
    if band > card.footer_height:
        roles["card"] = _set(roles.get("card"), footer_height=band)
    if kit.page_number is not None:
        roles["page_number"] = _set(roles.get("page_number"), format=PAGE_FORMATS[kit.page_number])
    for name in BASE_ROLES:
        if name in INLINE_ROLES or name in KEEPS_OWN_FONT:
            continue
        font = kit.heading_font if name in HEADINGS else kit.body_font
        if not font or styles[name].family == "mono":
            continue
        prefix = HEADING_PREFIX if name in HEADINGS else BODY_PREFIX
        roles[name] = _set(roles.get(name), family=prefix + styles[name].family)
    slide = dict(theme.slide)  # a slide's own foot band (schema.Theme.slide) takes it too
    own = slide.get("card")
    height = getattr(own, "footer_height", None)  # Role is built from Style at import
    if own is not None and height is not None and band > height:
        slide["card"] = _set(own, footer_height=band)
    name = f"{theme.name}+brand-{kit.digest()[:8]}"
    return msgspec.structs.replace(theme, name=name, roles=roles, slide=slide)


def _set(role: Role | None, **knobs: object) -> Role:
    """`role` (or an empty one) with `knobs` set."""
    base = role if role is not None else Role()
    return msgspec.structs.replace(base, **knobs)
