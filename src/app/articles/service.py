"""The convert-and-draft operation: Markdown → article HTML, and with an account → a draft.

HTML only: ``article.to_article`` in the article threads, its math typeset first in a card
render worker (``ProcessRenderPool.typeset``), where a formula that runs long is killed with
its worker rather than holding a thread of the server. Draft: an image without a usable
source, or more than ``MAX_DRAFT_IMAGES``, is refused first; then every image of the article
is fetched (``app.fetch``: public addresses only, within the API key's share of the
connections) or decoded from its ``data:`` URI, converted by ``layout.fit_image`` to a
JPEG/PNG under the platform's limit, and uploaded once via ``uploadimg``; the sources are
rewritten to the platform's URLs; the cover (``coverImageUrl``, else the first image, else a
900×383 card drawn by our card engine from the title) goes up as permanent material; then
``draft/add``. Everything that can fail on our side (fetching, decoding, drawing) happens
before the first upload, so a bad image creates no library item.
CPU work runs in the render pool's threads, never on the event loop.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import layout
from app.articles import html as article
from app.articles.brand import Brand
from app.articles.formulas import math_size
from app.articles.threads import ArticleThreads
from app.articles.wechat import (
    TITLE_LIMIT,
    Credentials,
    DraftArticle,
    ImageUploadFailed,
    WeChatClient,
)
from app.cards.pool import ProcessRenderPool
from app.cards.worker import TypesetJob
from app.errors import InvalidField, InvalidImage, RenderFailed
from app.fetch import FetchError, FetchPolicy, FetchRefused, ImageFetcher, describe
from app.models import ArticleRequest, DraftData, DraftResponse, HtmlResponse, field_label
from app.settings import Settings

log = logging.getLogger("inkcard.articles")

HTML_COST = 1
DRAFT_COST = 3
MIN_BALANCE = 3  # the original API's minimum balance to call, whichever variant
COVER_WIDTH, COVER_HEIGHT = 900, 383
# Distinct images (remote or data:) of one draft: each is held in memory (up to the fetch
# limit, 10 MiB), re-encoded and uploaded, so the count bounds a draft's memory, CPU and
# platform calls. As many as a card request fetches: an article rarely has more.
MAX_DRAFT_IMAGES = 20
UNTITLED = "Untitled"


@dataclass(frozen=True, slots=True)
class CoverColours:
    """The article theme's colours a generated cover is drawn in."""

    background: str
    title: str
    accent: str


# Taken from each theme's article.css: page background, h1 colour, the theme's accent.
COVER_COLOURS = {
    "brandA": CoverColours("#ffffff", "#1c1f23", "#1677ff"),
    "brandB": CoverColours("#ffffff", "#111111", "#ff6a00"),
    "notebook": CoverColours("#fffefa", "#2c3e50", "#e74c3c"),
    "business": CoverColours("#f8fafc", "#1e3a8a", "#3b82f6"),
    "japanese-magazine": CoverColours("#ffffff", "#000000", "#ff0033"),
}
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_\[\]{}()#+\-.!|~<>&$])")


def cut_title(title: str) -> str:
    """One line of at most ``TITLE_LIMIT`` characters (``…`` marks a cut)."""
    line = " ".join(title.split())
    return line if len(line) <= TITLE_LIMIT else line[: TITLE_LIMIT - 1] + "…"


def draft_title(request: ArticleRequest, converted: article.Article) -> str:
    """The given title, else the article's first heading or first line, cut to the limit."""
    return cut_title(request.title) or cut_title(converted.title) or UNTITLED


def _cover_theme(colours: CoverColours, top: float) -> layout.Theme:
    return layout.decode_theme(
        f"""
name = "cover"
[colors.all]
background = "{colours.background}"
title = "{colours.title}"
accent = "{colours.accent}"
[roles.card]
background = "background"
padding = [{top:.1f}, 60, 0, 60]
header_height = 0
footer_height = 0
[roles.h1]
size = 44
weight = 700
line_height = 1.35
align = "center"
color = "title"
margin_top = 0
[[decorations]]
kind = "rect"
anchor = "bottom-left"
width = {COVER_WIDTH}
height = 14
fill = "accent"
[[decorations]]
kind = "rect"
anchor = "top-left"
x = 410
y = 40
width = 80
height = 6
fill = "accent"
"""
    )


def cover_card(title: str, theme: str, fonts: layout.FontBook) -> bytes:
    """A 900×383 PNG: the title centred in the article theme's colours (card engine)."""
    colours = COVER_COLOURS.get(theme, COVER_COLOURS[article.DEFAULT_THEME])
    markdown = "# " + _MARKDOWN_PUNCTUATION.sub(r"\\\1", title)
    measure = layout.RenderOptions(width=COVER_WIDTH, height=1, scale=1)
    pages = layout.layout_pages(markdown, _cover_theme(colours, 0), fonts, measure)
    top = max(24.0, (COVER_HEIGHT - pages[0].height) / 2)
    options = layout.RenderOptions(
        width=COVER_WIDTH, height=COVER_HEIGHT, scale=1, overflow_hidden=True
    )
    return layout.render(markdown, _cover_theme(colours, top), fonts, options)[0]


def fit_all(images: dict[str, bytes], limit: int) -> dict[str, layout.EncodedImage]:
    """Every image re-encoded under ``limit`` bytes.

    Raises:
        InvalidImage: One is not an image we accept (the message names it).
    """
    out: dict[str, layout.EncodedImage] = {}
    for source, data in images.items():
        try:
            out[source] = layout.fit_image(data, limit)
        except layout.ImageRejected as exc:
            raise InvalidImage(f"image {describe(source)} cannot be used: {exc}") from None
    return out


def _fetch_failure(exc: FetchError) -> Exception:
    """The draft's error for an image that could not be had (the fetch's message says how
    far it got: refused before connecting, at its headers, or while downloading)."""
    kind = InvalidImage if isinstance(exc, FetchRefused) else ImageUploadFailed
    return kind(f"{exc}; nothing was uploaded to the platform")


def check_draft_images(converted: article.Article) -> None:
    """Refuses, before anything is fetched, an article a draft cannot carry whole.

    Raises:
        InvalidImage: An image has no usable source, or there are too many.
    """
    if converted.unusable_images:
        raise InvalidImage(
            f"{converted.unusable_images[0]} has no source a draft can use: only http(s) URLs"
            " and base64 data: PNG, JPEG, GIF or WebP images can be uploaded; nothing was"
            " fetched or uploaded"
        )
    if len(converted.images) > MAX_DRAFT_IMAGES:
        raise InvalidImage(
            f"the article has {len(converted.images)} distinct images; a draft takes at most"
            f" {MAX_DRAFT_IMAGES}; nothing was fetched or uploaded"
        )


class ArticleService:
    """Runs convert-and-draft; ``open`` and ``close`` its HTTP clients in the app's lifespan."""

    def __init__(
        self,
        settings: Settings,
        pool: ArticleThreads,
        fonts: Any,
        fetcher: ImageFetcher | None = None,
        workers: ProcessRenderPool | None = None,
    ):
        self.settings = settings
        self.pool = pool
        self.workers = workers  # typesets the math; None: in the threads (tests)
        self._fonts = fonts  # () -> FontBook | None, loaded by the card service at start-up
        self.wechat: WeChatClient | None = None
        self.fetcher = fetcher  # shared with the cards; its owner closes it
        self._owns_fetcher = fetcher is None

    async def open(self) -> None:
        self.wechat = WeChatClient.from_settings(self.settings)
        if self.fetcher is None:
            self.fetcher = ImageFetcher(FetchPolicy.from_settings(self.settings))

    async def close(self) -> None:
        clients = (self.wechat, self.fetcher if self._owns_fetcher else None)
        for client in clients:
            if client is not None:
                await client.aclose()

    async def convert(
        self, request: ArticleRequest, key: object, timeout: float
    ) -> article.Article:
        """The article in its theme, converted in a pool thread, its math in a worker."""
        formulas = None
        if self.workers is not None and "$" in request.markdown:
            wanted = await self.pool.run(
                article.math_of, request.markdown, timeout=timeout, key=key
            )
            job = TypesetJob(formulas=wanted, size=math_size(request.fontSize))
            typeset = await self.workers.typeset(job, timeout, key) if wanted else []
            formulas = dict(zip(wanted, typeset, strict=True))
        try:
            return await self.pool.run(
                article.to_article,
                request.markdown,
                request.theme,
                formulas,
                Brand(request.primaryColor, request.fontSize),
                timeout=timeout,
                key=key,
            )
        except article.UnknownArticleTheme as exc:
            raise InvalidField(str(exc), label=field_label("theme")) from None

    async def html_only(self, request: ArticleRequest, key: object, timeout: float) -> HtmlResponse:
        converted = await self.convert(request, key, timeout)
        return HtmlResponse(success=True, html=converted.html, cost=HTML_COST)

    async def draft(
        self, request: ArticleRequest, creds: Credentials, key: object, timeout: float
    ) -> DraftResponse:
        """Create the draft; the caller bounds the whole call with its deadline."""
        assert self.wechat is not None and self.fetcher is not None, "open() first"
        converted = await self.convert(request, key, timeout)
        check_draft_images(converted)
        sources = list(converted.images)
        fetched = await self._fetch(sources, key)
        encoded = await self.pool.run(
            fit_all, fetched, layout.ARTICLE_IMAGE_BYTES, timeout=timeout, key=key
        )
        title = draft_title(request, converted)
        cover_name, cover = await self._cover(request, sources, fetched, title, key, timeout)
        urls: dict[str, str] = {}
        for number, source in enumerate(sources, 1):
            image = encoded[source]
            urls[source] = await self.wechat.upload_article_image(
                creds, image.data, f"image-{number}.{image.extension}", source=describe(source)
            )
        thumb = await self.wechat.add_cover(creds, cover, cover_name)
        content = await self.pool.run(_content, converted.html, urls, timeout=timeout, key=key)
        media_id = await self.wechat.add_draft(
            creds,
            DraftArticle(
                title=title,
                content=content,
                thumb_media_id=thumb,
                author=request.author,
                digest=request.digest,
                content_source_url=request.content_source_url,
            ),
        )
        log.info("draft created for appid %s with %d images", creds.appid, len(urls))
        return DraftResponse(
            success=True,
            message=f"draft “{title}” created in the account's draft box"
            f" ({len(urls)} images uploaded)",
            data=DraftData(media_id=media_id, wordCount=converted.word_count, cost=DRAFT_COST),
        )

    async def _fetch(self, sources: list[str], key: Hashable) -> dict[str, bytes]:
        assert self.fetcher is not None
        results = await self.fetcher.fetch_many(sources, key=key)
        out: dict[str, bytes] = {}
        for source in sources:
            result = results[source]
            if isinstance(result, FetchError):
                raise _fetch_failure(result)
            out[source] = result
        return out

    async def _cover(
        self,
        request: ArticleRequest,
        sources: list[str],
        fetched: dict[str, bytes],
        title: str,
        key: object,
        timeout: float,
    ) -> tuple[str, bytes]:
        """(file name, bytes) of the cover: coverImageUrl, the first image, or a drawn card."""
        if request.coverImageUrl or sources:
            if request.coverImageUrl:
                assert self.fetcher is not None
                try:
                    cover = await self.fetcher.fetch(request.coverImageUrl, key=key)
                    original = {request.coverImageUrl: cover}
                except FetchError as exc:
                    raise _fetch_failure(exc) from None
            else:
                original = {sources[0]: fetched[sources[0]]}
            (image,) = (
                await self.pool.run(
                    fit_all, original, layout.COVER_IMAGE_BYTES, timeout=timeout, key=key
                )
            ).values()
            return f"cover.{image.extension}", image.data
        fonts = self._fonts()
        if fonts is None:
            raise RenderFailed("the fonts are not loaded; the cover card cannot be drawn")
        png = await self.pool.run(cover_card, title, request.theme, fonts, timeout=timeout, key=key)
        return "cover.png", png


def _content(html: str, urls: dict[str, str]) -> str:
    return article.draft_content(article.rewrite_images(html, urls))
