"""The local images of an article, read in a call of ``inkcard mcp`` (stdio) and carried in
the article as ``data:`` URIs: the HTML pasted into the editor has no other way to hold a
file of the writer's machine, and a draft uploads them as it uploads any ``data:`` image.

Anywhere else (the HTTP service) no local file is read: the article goes without the image,
and a draft refuses it, as before.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Hashable

from inkcard import layout
from inkcard.app import localfiles
from inkcard.app.articles.convert import html as article
from inkcard.app.errors import ApiError, InvalidImage
from inkcard.app.fetch import FetchError, ImageFetcher
from inkcard.layout.draw import probe_image

ARTICLE_FORMATS = frozenset({"png", "jpeg", "gif", "webp"})  # what the editor and a draft take


async def local_images(fetcher: ImageFetcher, markdown: str, key: Hashable) -> dict[str, str]:
    """Each local image source of ``markdown`` → its ``data:`` URI (none outside stdio).

    Raises:
        InvalidImage: One cannot be read (outside the allowed folders, missing, too big) or
            is not a PNG, JPEG, GIF or WebP image; the message names it and says why.
    """
    if localfiles.current() is None:
        return {}
    named = await asyncio.to_thread(article.image_sources, markdown)  # a parse: off the loop
    sources = [s for s in named if localfiles.is_local(s)]
    if not sources:
        return {}
    results = await fetcher.fetch_many(sources, key=key)
    inline: dict[str, str] = {}
    for source, result in results.items():
        if isinstance(result, FetchError):
            raise InvalidImage(f"local {result}")
        inline[source] = await asyncio.to_thread(_data_uri, source, result)
    return inline


def _data_uri(source: str, data: bytes) -> str:
    try:
        info = probe_image(data)
    except layout.ImageRejected as exc:
        raise _not_usable(source, str(exc)) from None
    if info.format not in ARTICLE_FORMATS:
        raise _not_usable(source, f"is a {info.format.upper()} image, not PNG, JPEG, GIF or WebP")
    return f"data:image/{info.format};base64,{base64.b64encode(data).decode('ascii')}"


def _not_usable(source: str, reason: str) -> ApiError:
    return InvalidImage(f"local image {source[:200]} {reason}")
