"""A converted article and its request → a ``DraftPlan``: everything a draft needs from our
side before the platform is called.

The article's images fetched and re-encoded (``images``), its title, and its cover:
``coverImageUrl``, else the first usable image, else a 900×383 card drawn by our card engine
from the title. Everything that can fail on our side (fetching, decoding, drawing) fails
here, before the first upload, so a bad image creates no library item. CPU work runs in the
article threads, never on the event loop.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from inkcard import layout, themes
from inkcard.app.articles.convert import html as article
from inkcard.app.articles.drafts.checks import Warnings, check_links, check_title, converted_images
from inkcard.app.articles.drafts.images import (
    UNUSABLE_SOURCE,
    check_draft_images,
    fail_on_first,
    fetch_failure,
    fetch_images,
    fit_all,
    fit_each,
)
from inkcard.app.articles.drafts.titles import draft_title
from inkcard.app.articles.threads import ArticleThreads
from inkcard.app.articles.wechat import TITLE_LIMIT
from inkcard.app.errors import RenderFailed
from inkcard.app.fetch import FetchError, ImageFetcher
from inkcard.app.schema import ArticleRequest, ImagePolicy
from inkcard.app.schema.aigc import engine_label
from inkcard.layout.covers import WECHAT_COVER_SIZE, CoverCrops, centred_crops
from inkcard.layout.draw import ARTICLE_IMAGE_BYTES, COVER_IMAGE_BYTES, Aigc, EncodedImage

COVER_WIDTH, COVER_HEIGHT = WECHAT_COVER_SIZE


@dataclass(frozen=True, slots=True)
class DraftPlan:
    """What a draft is made of before the platform is called (``DraftPlanner.plan``)."""

    converted: article.Article
    skipped: dict[str, str]  # source → why it is left out (imagePolicy skip)
    encoded: dict[str, EncodedImage]
    usable: list[str]  # the sources to upload, in the article's order
    title: str
    cover_name: str
    cover: bytes
    cover_source: str  # coverImageUrl or the first image; empty: drawn from the title
    crops: CoverCrops  # the cover's centred 2.35:1 and 1:1 crops


def cover_card(
    title: str, theme: str, fonts: layout.FontBook, aigc: Aigc | None = None
) -> tuple[bytes, CoverCrops]:
    """A 900×383 PNG drawn by the cover designer from the title, in the card theme of the
    article theme's name, the title inside the centred square; and its crops. `aigc`: an
    AI-generated article's cover is labelled as its cards would be."""
    return layout.render_wechat_cover(title, (), themes.load(theme), fonts, aigc=aigc)


class DraftPlanner:
    """Plans one call's draft: images fetched through ``fetcher``, CPU work in ``pool``'s
    threads, a drawn cover with the fonts ``fonts()`` gives (None: not loaded yet)."""

    def __init__(
        self,
        pool: ArticleThreads,
        fetcher: ImageFetcher,
        fonts: Callable[[], layout.FontBook | None],
        key: Hashable,
        timeout: float,
    ):
        self.pool = pool
        self.fetcher = fetcher
        self.fonts = fonts
        self.key = key
        self.timeout = timeout

    async def plan(
        self, request: ArticleRequest, converted: article.Article, warnings: Warnings
    ) -> DraftPlan:
        """A draft's work on our side: the article's images fetched and converted, its
        title and its cover; what can fail here fails before any upload."""
        check_draft_images(converted, request.imagePolicy)
        check_links(converted.linked, warnings)
        skipped = dict.fromkeys(converted.unusable_images, f"it {UNUSABLE_SOURCE}")
        fetched, encoded = await self._usable_images(
            converted, request.imagePolicy, skipped, warnings
        )
        usable = [source for source in converted.images if source in encoded]
        title = draft_title(request, converted)
        check_title(
            request.title if request.title.strip() else converted.title, TITLE_LIMIT, warnings
        )
        own = [source for source in usable if source not in converted.brand_images]  # no logo
        cover_name, cover, crops = await self._cover(request, own, fetched, title, warnings)
        cover_source = request.coverImageUrl or (own[0] if own else "")
        return DraftPlan(
            converted, skipped, encoded, usable, title, cover_name, cover, cover_source, crops
        )

    async def _usable_images(
        self,
        converted: article.Article,
        policy: ImagePolicy,
        skipped: dict[str, str],
        warnings: Warnings,
    ) -> tuple[dict[str, bytes], dict[str, EncodedImage]]:
        """The article's images fetched and re-encoded for ``uploadimg``. One that cannot
        be had or is not an image fails the draft (policy fail: the first in the article's
        order, fetching before decoding) or is added to ``skipped`` (policy skip); those
        converted are noted in ``warnings``."""
        sources = converted.images
        fetched, failed = await fetch_images(self.fetcher, list(sources), self.key)
        fail_on_first(sources, failed, policy)
        encoded, refused = await self.pool.run(
            fit_each, fetched, ARTICLE_IMAGE_BYTES, timeout=self.timeout, key=self.key
        )
        fail_on_first(sources, refused, policy)
        skipped |= {source: error.message for source, error in {**failed, **refused}.items()}
        await self._note_converted(fetched, encoded, ARTICLE_IMAGE_BYTES, "image", warnings)
        return fetched, encoded

    async def _note_converted(
        self,
        originals: dict[str, bytes],
        encoded: dict[str, EncodedImage],
        limit: int,
        what: str,
        warnings: Warnings,
    ) -> None:
        found = await self.pool.run(
            converted_images,
            originals,
            encoded,
            limit,
            what,
            timeout=self.timeout,
            key=self.key,
        )
        for code, message in found:
            warnings.add(code, message)

    async def _cover(
        self,
        request: ArticleRequest,
        sources: list[str],
        fetched: dict[str, bytes],
        title: str,
        warnings: Warnings,
    ) -> tuple[str, bytes, CoverCrops]:
        """(file name, bytes, centred crops) of the cover: coverImageUrl, the first image,
        or a card drawn from the title."""
        if request.coverImageUrl or sources:
            if request.coverImageUrl:
                try:
                    cover = await self.fetcher.fetch(request.coverImageUrl, key=self.key)
                    original = {request.coverImageUrl: cover}
                except FetchError as exc:
                    raise fetch_failure(exc) from None
            else:
                original = {sources[0]: fetched[sources[0]]}
            fitted = await self.pool.run(
                fit_all, original, COVER_IMAGE_BYTES, timeout=self.timeout, key=self.key
            )
            if request.coverImageUrl:  # the first image's conversion is noted already
                await self._note_converted(original, fitted, COVER_IMAGE_BYTES, "cover", warnings)
            (image,) = fitted.values()
            crops = centred_crops(image.width, image.height)
            return f"cover.{image.extension}", image.data, crops
        label = engine_label(request.aigc)
        return await self._drawn_cover(request.theme, title, warnings, label)

    async def _drawn_cover(
        self, theme: str, title: str, warnings: Warnings, aigc: Aigc | None = None
    ) -> tuple[str, bytes, CoverCrops]:
        """A card drawn from the title, since there is no image to make the cover of."""
        fonts = self.fonts()
        if fonts is None:
            raise RenderFailed("the fonts are not loaded; the cover card cannot be drawn")
        png, crops = await self.pool.run(
            cover_card, title, theme, fonts, aigc, timeout=self.timeout, key=self.key
        )
        warnings.add(
            "cover_generated",
            f"no coverImageUrl and no usable image: the cover is a {COVER_WIDTH}×{COVER_HEIGHT}"
            " card drawn from the title",
        )
        return "cover.png", png, crops
