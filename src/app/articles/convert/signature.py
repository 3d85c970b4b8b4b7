"""A brand kit's marks in an article: a signature block at its end (``brand`` on
convert-and-draft), in the article theme's own look.

The cards draw a kit in their footer band; an article has no page, so its marks go where a
WeChat writer signs off: after the text and its references, before the AI label (that line
stays last, as GB 45438-2025's label closes the whole content). The block holds the logo,
the byline, the footer line and the footer image (a QR code, shown large enough to scan),
each only when the kit has it; ``themes/shared/article-common.css`` styles its classes in
every theme, in the theme's primary colour. The images are ``data:`` URIs like a writer's
own inline images, so a draft uploads them as it uploads those (once each: one source, one
upload) and HTML only carries them as they are. The kit's fonts are not used: the platform
shows no web font, so the article keeps the reader's system fonts.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from lxml import html as lxml_html

from inkcard.layout.style import BrandKit

_FORMATS = ((b"\x89PNG", "png"), (b"\xff\xd8", "jpeg"), (b"GIF8", "gif"))


@dataclass(frozen=True, slots=True)
class Signature:
    """What a kit shows at an article's end: texts as they are shown, images as data URIs."""

    logo: str = ""
    byline: str = ""
    footer: str = ""
    footer_image: str = ""

    @property
    def images(self) -> tuple[str, ...]:
        """The block's image sources, each once (a draft must not take one as the cover)."""
        return tuple(dict.fromkeys(s for s in (self.logo, self.footer_image) if s))

    def __bool__(self) -> bool:
        return bool(self.logo or self.byline or self.footer or self.footer_image)


def signature_of(kit: BrandKit | None) -> Signature:
    """The article signature of ``kit`` (an empty one for no kit, or a kit of fonts only)."""
    if kit is None:
        return Signature()
    return Signature(_data_uri(kit.logo), kit.byline, kit.footer, _data_uri(kit.footer_image))


def append_signature(article: lxml_html.HtmlElement, signature: Signature) -> None:
    """A last ``section.brand-signature`` in the article: logo, byline, footer line, footer
    image, in that order (a sign-off, then the prompt and the code it points at)."""
    if not signature:
        return
    block = lxml_html.Element("section", {"class": "brand-signature"})
    parts = (
        ("img", "brand-logo", signature.logo),
        ("section", "brand-byline", signature.byline),
        ("section", "brand-footer", signature.footer),
        ("img", "brand-footer-image", signature.footer_image),
    )
    for tag, name, value in parts:
        if not value:
            continue
        if tag == "img":
            block.append(lxml_html.Element("img", {"class": name, "src": value, "alt": ""}))
        else:
            line = lxml_html.Element(tag, {"class": name})
            line.text = value
            block.append(line)
    article.append(block)


def _data_uri(data: bytes) -> str:
    """``data`` (a PNG, JPEG, GIF or WebP the kit checked when saved) as a base64 data URI."""
    if not data:
        return ""
    kind = next((name for magic, name in _FORMATS if data.startswith(magic)), "webp")
    return f"data:image/{kind};base64,{base64.b64encode(data).decode()}"
