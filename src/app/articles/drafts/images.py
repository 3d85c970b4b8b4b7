"""A draft's images → fetched, re-encoded under the platform's limit, uploaded, and what became
of each.

Everything here runs before the first upload or is the upload itself: more than
``MAX_DRAFT_IMAGES`` images, or (``imagePolicy`` fail) one without a usable source, is
refused before anything is fetched; an image that cannot be had, is not an image, or that
``uploadimg`` refuses fails the draft (policy fail, the first in the article's order) or is
left out with its reason (policy skip).
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from typing import Literal

from inkcard import layout
from inkcard.app.articles.convert import html as article
from inkcard.app.articles.wechat import ImageUploadFailed
from inkcard.app.articles.wechat.placing import Publisher
from inkcard.app.errors import ApiError, InvalidImage
from inkcard.app.fetch import FetchError, FetchRefused, ImageFetcher, describe
from inkcard.app.schema import DraftImage, ImagePolicy
from inkcard.layout.draw import EncodedImage, fit_image

# Distinct images (remote or data:) of one draft: each is held in memory (up to the fetch
# limit, 10 MiB), re-encoded and uploaded, so the count bounds a draft's memory, CPU and
# platform calls. As many as a card request fetches: an article rarely has more.
MAX_DRAFT_IMAGES = 20
UNUSABLE_SOURCE = (
    "has no source a draft can use: only http(s) URLs and base64 data: PNG, JPEG, GIF or"
    " WebP images can be uploaded"
)


def check_draft_images(converted: article.Article, policy: ImagePolicy) -> None:
    """Refuses, before anything is fetched, an article a draft cannot carry whole.

    Raises:
        InvalidImage: An image has no usable source (policy fail), or there are too many.
    """
    if converted.unusable_images and policy == "fail":
        raise InvalidImage(
            f"{converted.unusable_images[0]} {UNUSABLE_SOURCE}; nothing was fetched or uploaded"
        )
    if len(converted.images) > MAX_DRAFT_IMAGES:
        raise InvalidImage(
            f"the article has {len(converted.images)} distinct images; a draft takes at most"
            f" {MAX_DRAFT_IMAGES}; nothing was fetched or uploaded"
        )


def fit_each(
    images: dict[str, bytes], limit: int
) -> tuple[dict[str, EncodedImage], dict[str, InvalidImage]]:
    """Every image re-encoded under ``limit`` bytes, and those that are not an image we
    accept with their error (the message names the image)."""
    out: dict[str, EncodedImage] = {}
    refused: dict[str, InvalidImage] = {}
    for source, data in images.items():
        try:
            out[source] = fit_image(data, limit)
        except layout.ImageRejected as exc:
            refused[source] = InvalidImage(f"image {describe(source)} cannot be used: {exc}")
    return out, refused


def fit_all(images: dict[str, bytes], limit: int) -> dict[str, EncodedImage]:
    """Every image re-encoded under ``limit`` bytes.

    Raises:
        InvalidImage: One is not an image we accept (the message names it).
    """
    out, refused = fit_each(images, limit)
    for error in refused.values():
        raise error
    return out


def fetch_failure(exc: FetchError) -> ApiError:
    """The draft's error for an image that could not be had (the fetch's message says how
    far it got: refused before connecting, at its headers, or while downloading)."""
    kind = InvalidImage if isinstance(exc, FetchRefused) else ImageUploadFailed
    return kind(f"{exc}; nothing was uploaded to the platform")


async def fetch_images(
    fetcher: ImageFetcher, sources: list[str], key: Hashable
) -> tuple[dict[str, bytes], dict[str, ApiError]]:
    """The images' bytes, and the error of each that could not be had."""
    results = await fetcher.fetch_many(sources, key=key)
    out: dict[str, bytes] = {}
    failed: dict[str, ApiError] = {}
    for source in sources:
        result = results[source]
        if isinstance(result, FetchError):
            failed[source] = fetch_failure(result)
        else:
            out[source] = result
    return out, failed


def fail_on_first(
    sources: Sequence[str], failures: Mapping[str, ApiError], policy: ImagePolicy
) -> None:
    """Raises the first of ``failures`` in the article's order when the policy is fail."""
    if policy == "fail":
        for source in sources:
            if source in failures:
                raise failures[source]


async def upload_images(
    publisher: Publisher,
    sources: list[str],
    encoded: dict[str, EncodedImage],
    policy: ImagePolicy,
    skipped: dict[str, str],
) -> dict[str, str]:
    """source → the platform's URL; an image the platform refuses is added to
    ``skipped`` (policy skip) or fails the draft (policy fail)."""
    urls: dict[str, str] = {}
    for number, source in enumerate(sources, 1):
        image = encoded[source]
        try:
            urls[source] = await publisher.article_image(
                image.data, f"image-{number}.{image.extension}", source=describe(source)
            )
        except ImageUploadFailed as exc:
            if policy == "fail":
                raise
            skipped[source] = exc.message
    return urls


def outcomes(
    converted: article.Article,
    urls: dict[str, str],
    skipped: dict[str, str],
    sent: Literal["uploaded", "ready"] = "uploaded",
    reused: Collection[str] = (),
) -> list[DraftImage]:
    """Each image, the article's sources in order, then those without a usable source;
    one whose described source is in ``reused`` (the account had it: not sent again) is
    reused rather than ``sent``."""
    return [
        DraftImage(describe(source), "reused" if describe(source) in reused else sent)
        if source in urls
        else DraftImage(describe(source), "skipped", skipped[source])
        for source in [*converted.images, *converted.unusable_images]
    ]
