"""Checks before publishing: what convert-and-draft and newspic-draft changed on the way to
the platform, or what the platform (or Xiaohongshu, where the same cards often go) would
refuse, said in the answer's ``warnings`` rather than done silently.

One ``Warnings`` collector per call is passed down to the steps that cut, convert, skip or
draw; each step records what it did where it does it. ``WARNING_CODES`` is the one list of
codes and what each means (the README's table and the tests read it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from lxml import html as lxml_html

from inkcard.app.articles.convert.html import draft_content
from inkcard.app.articles.drafts.draftbody import Digest
from inkcard.app.articles.xhs.note import BODY_LIMIT as XHS_TEXT_LIMIT
from inkcard.app.articles.xhs.note import IMAGE_LIMIT as XHS_IMAGE_LIMIT
from inkcard.app.articles.xhs.note import TITLE_LIMIT as XHS_TITLE_LIMIT
from inkcard.app.fetch import describe
from inkcard.app.schema import DIGEST_LIMIT, ArticleRequest, DraftImage, PublishWarning
from inkcard.layout.draw import EncodedImage, probe_image

CONTENT_TEXT_LIMIT = 20_000  # characters of a draft's text (the platform answers 45002 above)
CONTENT_BYTES_LIMIT = 1024 * 1024  # bytes of a draft's HTML (45002 above)
_PLATFORM_FORMATS = {"png", "jpeg"}  # what uploadimg takes; anything else is converted
_DATA_SOURCE = re.compile(r"""\ssrc=(["'])data:[^"']*\1""")

WARNING_CODES: dict[str, str] = {
    "title_cut": "The title was longer than the platform's 32 characters and was cut (… marks"
    " the cut).",
    "digest_cut": "The summary drawn from the body (no digest given) began with a sentence"
    " longer than the platform's limit (128 characters for an article, 1,000 for an image"
    " post's text), which was cut.",
    "description_cut": "An image post's description was longer than the platform's 1,000"
    " characters and was cut.",
    "content_too_large": "The article's content is over the platform's limit (20,000"
    " characters of text or 1 MiB of HTML, images sent as data: URIs not counted): the platform"
    " refuses such a draft (45002).",
    "css_refused": "Part of the request's own css was not applied: an at-rule (@import,"
    " @media…), a pseudo-element or :hover selector, a property off the allowed list"
    " (position, behavior…) or a refused value (url(), expression(), javascript:); the"
    " message names it. The rest was applied.",
    "links_to_references": "Links outside mp.weixin.qq.com do not open in WeChat: their"
    " addresses were moved to a numbered reference list at the end.",
    "image_converted": "An image (or the cover) was not JPEG or PNG (WebP, GIF: first frame"
    " only, BMP) and was converted, or was over the platform's size limit and was shrunk.",
    "image_skipped": "An image was left out of the draft (imagePolicy skip): it had no usable"
    " source, could not be fetched or decoded, or the platform refused it.",
    "cover_generated": "No coverImageUrl was given and the article has no usable image: the"
    " cover is a 900×383 card drawn from the title.",
    "xiaohongshu_title_too_long": "Advisory: the title is longer than Xiaohongshu's 20"
    " characters (the WeChat image post keeps it).",
    "xiaohongshu_text_too_long": "Advisory: the post's text is longer than Xiaohongshu's 1,000"
    " characters.",
    "xiaohongshu_too_many_images": "Advisory: the post has more than Xiaohongshu's 18 images"
    " (a WeChat image post takes 20; an xhs-note counts its cover).",
    "xiaohongshu_too_many_tags": "Advisory: the xhs-note has more than Xiaohongshu's 10 tags.",
}


class Warnings:
    """The warnings of one call, in the order they arose."""

    def __init__(self) -> None:
        self.items: list[PublishWarning] = []

    def add(self, code: str, message: str) -> None:
        assert code in WARNING_CODES, f"undocumented warning code {code}"
        self.items.append(PublishWarning(code, message))


def one_line(text: str) -> str:
    return " ".join(text.split())


def check_title(title: str, limit: int, warnings: Warnings) -> None:
    """``title_cut`` when ``title`` (as given, on one line) is over ``limit`` characters."""
    line = one_line(title)
    if len(line) > limit:
        warnings.add(
            "title_cut", f"the title has {len(line)} characters; it was cut to {limit}: {line}"
        )


CSS_REFUSED_LISTED = 20  # refusals named one by one; the rest counted in one more warning


def check_css(refused: tuple[str, ...], warnings: Warnings) -> None:
    """``css_refused`` for each part of the writer's own CSS that was not applied."""
    for item in refused[:CSS_REFUSED_LISTED]:
        warnings.add("css_refused", f"css: {item}")
    if len(refused) > CSS_REFUSED_LISTED:
        more = len(refused) - CSS_REFUSED_LISTED
        warnings.add("css_refused", f"css: {more} more parts were not applied")


def check_links(count: int, warnings: Warnings) -> None:
    if count:
        warnings.add(
            "links_to_references",
            f"{count} link address{'' if count == 1 else 'es'} outside WeChat moved to the"
            " references at the end (they do not open in WeChat)",
        )


def check_content_size(content: str, warnings: Warnings) -> None:
    """``content_too_large`` for a draft's ``content`` (one HTML fragment) over the limits."""
    text = len(lxml_html.fragment_fromstring(content).text_content())
    size = len(_DATA_SOURCE.sub("", content).encode())
    over = []
    if text > CONTENT_TEXT_LIMIT:
        over.append(f"{text:,} characters of text (at most {CONTENT_TEXT_LIMIT:,})")
    if size > CONTENT_BYTES_LIMIT:
        over.append(f"{size:,} bytes of HTML (at most {CONTENT_BYTES_LIMIT:,})")
    if over:
        warnings.add(
            "content_too_large",
            f"the content has {' and '.join(over)}: the platform refuses such a draft; split"
            " the article",
        )


def converted_images(
    originals: Mapping[str, bytes],
    encoded: Mapping[str, EncodedImage],
    limit: int,
    what: str,
) -> list[tuple[str, str]]:
    """(``image_converted``, message) of each image in a format the platform does not take,
    or over its ``limit`` bytes (re-encoded, shrunk if need be); ``what`` names it. A JPEG or
    PNG within the limit is re-encoded too (metadata dropped), which is not worth a word."""
    found: list[tuple[str, str]] = []
    for source, image in encoded.items():
        original = originals[source]
        info = probe_image(original)
        name = f"{what} {describe(source)}"
        sent = f"{image.format.upper()}, {image.width}×{image.height}"
        if info.format not in _PLATFORM_FORMATS:
            found.append(("image_converted", f"{name} was {info.format.upper()}: sent as {sent}"))
        elif len(original) > limit:
            found.append(
                (
                    "image_converted",
                    f"{name} was {len(original):,} bytes ({info.width}×{info.height}), over the"
                    f" platform's {limit:,}: sent as {sent}",
                )
            )
    return found


def check_xiaohongshu(
    warnings: Warnings, *, title: str = "", text: str = "", images: int = 0
) -> None:
    """The advisory Xiaohongshu limits of an image post's title, full text and image count."""
    if len(title) > XHS_TITLE_LIMIT:
        warnings.add(
            "xiaohongshu_title_too_long",
            f"the title has {len(title)} characters; Xiaohongshu takes {XHS_TITLE_LIMIT}",
        )
    if len(text) > XHS_TEXT_LIMIT:
        warnings.add(
            "xiaohongshu_text_too_long",
            f"the text has {len(text):,} characters; Xiaohongshu takes {XHS_TEXT_LIMIT:,}",
        )
    if images > XHS_IMAGE_LIMIT:
        warnings.add(
            "xiaohongshu_too_many_images",
            f"the post has {images} images; Xiaohongshu takes {XHS_IMAGE_LIMIT}",
        )


def check_html(html: str, warnings: Warnings) -> None:
    """An HTML-only answer's content (a full document) checked as a draft's would be."""
    check_content_size(draft_content(html), warnings)


def check_digest(request: ArticleRequest, digest: Digest, warnings: Warnings) -> None:
    """``digest_cut`` when the digest drawn from the body (none given) had to be cut."""
    if digest.cut and not request.digest:
        warnings.add(
            "digest_cut",
            f"the body's first sentence is longer than the digest's {DIGEST_LIMIT} characters:"
            " it was cut; give a digest to choose the summary",
        )


def check_skipped(images: list[DraftImage], warnings: Warnings) -> None:
    """``image_skipped`` for each image the draft goes without, with the reason."""
    for image in images:
        if image.status == "skipped":
            warnings.add("image_skipped", f"image {image.source} left out: {image.reason}")
