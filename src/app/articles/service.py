"""The convert-and-draft operation: Markdown → article HTML, and with an account → a draft.

HTML only: ``article.to_article`` in the article threads, its math typeset first in a card
render worker (``ProcessRenderPool.typeset``), where a formula that runs long is killed with
its worker rather than holding a thread of the server. Draft: more than ``MAX_DRAFT_IMAGES``
images, or (``imagePolicy`` fail) one without a usable source, is refused first; then every
image of the article is fetched (``app.fetch``: public addresses only, within the API key's
share of the connections) or decoded from its ``data:`` URI, converted by
``layout.fit_image`` to a JPEG/PNG under the platform's limit, and uploaded via
``uploadimg`` unless the account already has it (``app.articles.placing``); the sources are
rewritten to the platform's URLs; the cover (``coverImageUrl``, else the first usable image,
else a 900×383 card drawn by our card engine from the title) goes up as permanent material;
then ``draft/add``, or ``draft/update`` of the draft ``draftMediaId`` names. Everything that
can fail on our side (fetching, decoding, drawing), and the look-up of that draft, happens
before the first upload, so a bad image or a draft that is gone creates no library item.
With ``imagePolicy`` skip an image that cannot be had, or that ``uploadimg`` refuses, is left
out of the content instead (``draftbody``), and the answer lists what became of each image.
A dry run (``dry_run``) does all of this but the platform's calls and answers what the draft
would hold; every answer carries the warnings (``checks``) the steps recorded.
CPU work runs in the render pool's threads, never on the event loop.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import layout
import themes
from app.articles import html as article
from app.articles.brand import Brand
from app.articles.checks import (
    Warnings,
    check_content_size,
    check_digest,
    check_html,
    check_links,
    check_skipped,
    check_title,
    converted_images,
)
from app.articles.draftbody import Digest, finish
from app.articles.formulas import math_size
from app.articles.localimages import local_images
from app.articles.mediacache import MediaCache
from app.articles.placing import Placed, Publisher, placed_message
from app.articles.preview import draft_article, preview
from app.articles.threads import ArticleThreads
from app.articles.wechat import (
    TITLE_LIMIT,
    Credentials,
    ImageUploadFailed,
    WeChatClient,
)
from app.cards.pool import ProcessRenderPool
from app.cards.worker import TypesetJob
from app.errors import ApiError, InvalidField, InvalidImage, RenderFailed
from app.fetch import FetchError, FetchPolicy, FetchRefused, ImageFetcher, describe
from app.schema import (
    ArticleRequest,
    DraftData,
    DraftImage,
    DraftPreviewResponse,
    DraftResponse,
    HtmlResponse,
    ImagePolicy,
    field_label,
)
from app.settings import Settings

log = logging.getLogger("inkcard.articles")

COVER_WIDTH, COVER_HEIGHT = layout.WECHAT_COVER_SIZE
# Distinct images (remote or data:) of one draft: each is held in memory (up to the fetch
# limit, 10 MiB), re-encoded and uploaded, so the count bounds a draft's memory, CPU and
# platform calls. As many as a card request fetches: an article rarely has more.
MAX_DRAFT_IMAGES = 20
UNTITLED = "Untitled"


def cut_title(title: str) -> str:
    """One line of at most ``TITLE_LIMIT`` characters (``…`` marks a cut)."""
    line = " ".join(title.split())
    return line if len(line) <= TITLE_LIMIT else line[: TITLE_LIMIT - 1] + "…"


def draft_title(request: ArticleRequest, converted: article.Article) -> str:
    """The given title, else the article's first heading or first line, cut to the limit."""
    return cut_title(request.title) or cut_title(converted.title) or UNTITLED


def cover_card(title: str, theme: str, fonts: layout.FontBook) -> tuple[bytes, layout.CoverCrops]:
    """A 900×383 PNG drawn by the cover designer from the title, in the card theme of the
    article theme's name, the title inside the centred square; and its crops."""
    return layout.render_wechat_cover(title, (), themes.load(theme), fonts)


def fit_each(
    images: dict[str, bytes], limit: int
) -> tuple[dict[str, layout.EncodedImage], dict[str, InvalidImage]]:
    """Every image re-encoded under ``limit`` bytes, and those that are not an image we
    accept with their error (the message names the image)."""
    out: dict[str, layout.EncodedImage] = {}
    refused: dict[str, InvalidImage] = {}
    for source, data in images.items():
        try:
            out[source] = layout.fit_image(data, limit)
        except layout.ImageRejected as exc:
            refused[source] = InvalidImage(f"image {describe(source)} cannot be used: {exc}")
    return out, refused


def fit_all(images: dict[str, bytes], limit: int) -> dict[str, layout.EncodedImage]:
    """Every image re-encoded under ``limit`` bytes.

    Raises:
        InvalidImage: One is not an image we accept (the message names it).
    """
    out, refused = fit_each(images, limit)
    for error in refused.values():
        raise error
    return out


def _fetch_failure(exc: FetchError) -> ApiError:
    """The draft's error for an image that could not be had (the fetch's message says how
    far it got: refused before connecting, at its headers, or while downloading)."""
    kind = InvalidImage if isinstance(exc, FetchRefused) else ImageUploadFailed
    return kind(f"{exc}; nothing was uploaded to the platform")


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


def plural(count: int, noun: str) -> str:
    """``1 image``, ``2 images``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def draft_message(title: str, images: list[DraftImage], placed: Placed) -> str:
    uploaded = sum(1 for image in images if image.status == "uploaded")
    skipped = len(images) - uploaded
    also = f", {plural(skipped, 'image')} skipped" if skipped else ""
    return placed_message(placed, f"draft “{title}”", f"{plural(uploaded, 'image')} uploaded{also}")


def drops_title_heading(request: ArticleRequest, converted: article.Article) -> bool:
    """The leading h1 goes when it became the title whole (not given, not cut, not kept)."""
    whole = " ".join(converted.title.split())
    return not (request.keepTitleHeading or request.title) and cut_title(whole) == whole


@dataclass(frozen=True, slots=True)
class DraftPlan:
    """What a draft is made of before the platform is called (``ArticleService._plan``)."""

    converted: article.Article
    skipped: dict[str, str]  # source → why it is left out (imagePolicy skip)
    encoded: dict[str, layout.EncodedImage]
    usable: list[str]  # the sources to upload, in the article's order
    title: str
    cover_name: str
    cover: bytes
    cover_source: str  # coverImageUrl or the first image; empty: drawn from the title
    crops: layout.CoverCrops  # the cover's centred 2.35:1 and 1:1 crops


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
        self.media: MediaCache | None = None
        self.fetcher = fetcher  # shared with the cards; its owner closes it
        self._owns_fetcher = fetcher is None

    async def open(self) -> None:
        self.wechat = WeChatClient.from_settings(self.settings)
        self.media = MediaCache(self.settings.database)
        if self.fetcher is None:
            self.fetcher = ImageFetcher(FetchPolicy.from_settings(self.settings))

    async def close(self) -> None:
        clients = (self.wechat, self.fetcher if self._owns_fetcher else None)
        for client in clients:
            if client is not None:
                await client.aclose()

    def publisher(self, creds: Credentials) -> Publisher:
        """This call's uploads and draft for the account ``creds`` names."""
        assert self.wechat is not None and self.media is not None, "open() first"
        return Publisher(self.wechat, self.media, creds)

    async def convert(
        self, request: ArticleRequest, key: object, timeout: float
    ) -> article.Article:
        """The article in its theme, converted in a pool thread, its math in a worker."""
        assert self.fetcher is not None, "open() first"
        inline = await local_images(self.fetcher, request.markdown, key)
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
                inline,
                timeout=timeout,
                key=key,
            )
        except article.UnknownArticleTheme as exc:
            raise InvalidField(str(exc), label=field_label("theme")) from None

    async def html_only(self, request: ArticleRequest, key: object, timeout: float) -> HtmlResponse:
        converted = await self.convert(request, key, timeout)
        warnings = Warnings()
        check_links(converted.linked, warnings)
        await self.pool.run(check_html, converted.html, warnings, timeout=timeout, key=key)
        return HtmlResponse(
            success=True,
            html=converted.html,
            cost=self.settings.prices.html,
            warnings=warnings.items,
        )

    async def draft(
        self, request: ArticleRequest, creds: Credentials, key: object, timeout: float
    ) -> DraftResponse:
        """Create the draft; the caller bounds the whole call with its deadline."""
        assert self.wechat is not None, "open() first"
        warnings = Warnings()
        plan = await self._plan(request, key, timeout, warnings)
        publisher = self.publisher(creds)
        target = await publisher.target(request.draftMediaId, request.draftMissing)
        urls = await self._upload(
            publisher, plan.usable, plan.encoded, request.imagePolicy, plan.skipped
        )
        thumb = await publisher.material(plan.cover, plan.cover_name, step="cover image the cover")
        content, digest = await self._finish(request, plan, urls, warnings, key, timeout)
        placed = await publisher.place(
            target, draft_article(request, plan.title, content, digest, thumb, plan.crops)
        )
        images = _outcomes(plan.converted, urls, plan.skipped)
        check_skipped(images, warnings)
        done = "updated" if placed.updated else "created"
        log.info("draft %s for appid %s with %s", done, creds.appid, plural(len(urls), "image"))
        return DraftResponse(
            success=True,
            message=draft_message(plan.title, images, placed),
            data=DraftData(
                media_id=placed.media_id,
                wordCount=plan.converted.word_count,
                cost=self.settings.prices.draft,
                images=images,
            ),
            warnings=warnings.items,
        )

    async def dry_run(
        self, request: ArticleRequest, key: object, timeout: float
    ) -> DraftPreviewResponse:
        """Everything ``draft`` does but the platform's calls: what it would send."""
        warnings = Warnings()
        plan = await self._plan(request, key, timeout, warnings)
        urls = {source: source for source in plan.usable}  # the images' own, not yet rehosted
        content, digest = await self._finish(request, plan, urls, warnings, key, timeout)
        images = _outcomes(plan.converted, urls, plan.skipped, "ready")
        check_skipped(images, warnings)
        draft = draft_article(request, plan.title, content, digest, "", plan.crops)
        count = plan.converted.word_count
        return preview(
            draft, plan.cover_source, count, images, warnings, self.settings.prices.dry_run
        )

    async def _plan(
        self, request: ArticleRequest, key: object, timeout: float, warnings: Warnings
    ) -> DraftPlan:
        """A draft's work on our side: the article converted, its images fetched and
        converted, its title and its cover; what can fail here fails before any upload."""
        assert self.fetcher is not None, "open() first"
        converted = await self.convert(request, key, timeout)
        check_draft_images(converted, request.imagePolicy)
        check_links(converted.linked, warnings)
        skipped = dict.fromkeys(converted.unusable_images, f"it {UNUSABLE_SOURCE}")
        fetched, encoded = await self._usable_images(
            converted, request.imagePolicy, skipped, key, timeout, warnings
        )
        usable = [source for source in converted.images if source in encoded]
        title = draft_title(request, converted)
        check_title(
            request.title if request.title.strip() else converted.title, TITLE_LIMIT, warnings
        )
        cover_name, cover, crops = await self._cover(
            request, usable, fetched, title, key, timeout, warnings
        )
        cover_source = request.coverImageUrl or (usable[0] if usable else "")
        return DraftPlan(
            converted, skipped, encoded, usable, title, cover_name, cover, cover_source, crops
        )

    async def _finish(
        self,
        request: ArticleRequest,
        plan: DraftPlan,
        urls: dict[str, str],
        warnings: Warnings,
        key: object,
        timeout: float,
    ) -> tuple[str, Digest]:
        content, digest = await self.pool.run(
            _content,
            plan.converted,
            urls,
            plan.title,
            drops_title_heading(request, plan.converted),
            warnings,
            timeout=timeout,
            key=key,
        )
        check_digest(request, digest, warnings)
        return content, digest

    async def _usable_images(
        self,
        converted: article.Article,
        policy: ImagePolicy,
        skipped: dict[str, str],
        key: Hashable,
        timeout: float,
        warnings: Warnings,
    ) -> tuple[dict[str, bytes], dict[str, layout.EncodedImage]]:
        """The article's images fetched and re-encoded for ``uploadimg``. One that cannot
        be had or is not an image fails the draft (policy fail: the first in the article's
        order, fetching before decoding) or is added to ``skipped`` (policy skip); those
        converted are noted in ``warnings``."""
        sources = converted.images
        fetched, failed = await self._fetch(list(sources), key)
        _fail_on_first(sources, failed, policy)
        encoded, refused = await self.pool.run(
            fit_each, fetched, layout.ARTICLE_IMAGE_BYTES, timeout=timeout, key=key
        )
        _fail_on_first(sources, refused, policy)
        skipped |= {source: error.message for source, error in {**failed, **refused}.items()}
        await self._note_converted(
            fetched, encoded, layout.ARTICLE_IMAGE_BYTES, "image", warnings, key, timeout
        )
        return fetched, encoded

    async def _note_converted(
        self,
        originals: dict[str, bytes],
        encoded: dict[str, layout.EncodedImage],
        limit: int,
        what: str,
        warnings: Warnings,
        key: object,
        timeout: float,
    ) -> None:
        found = await self.pool.run(
            converted_images, originals, encoded, limit, what, timeout=timeout, key=key
        )
        for code, message in found:
            warnings.add(code, message)

    async def _upload(
        self,
        publisher: Publisher,
        sources: list[str],
        encoded: dict[str, layout.EncodedImage],
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

    async def _fetch(
        self, sources: list[str], key: Hashable
    ) -> tuple[dict[str, bytes], dict[str, ApiError]]:
        """The images' bytes, and the error of each that could not be had."""
        assert self.fetcher is not None
        results = await self.fetcher.fetch_many(sources, key=key)
        out: dict[str, bytes] = {}
        failed: dict[str, ApiError] = {}
        for source in sources:
            result = results[source]
            if isinstance(result, FetchError):
                failed[source] = _fetch_failure(result)
            else:
                out[source] = result
        return out, failed

    async def _cover(
        self,
        request: ArticleRequest,
        sources: list[str],
        fetched: dict[str, bytes],
        title: str,
        key: object,
        timeout: float,
        warnings: Warnings,
    ) -> tuple[str, bytes, layout.CoverCrops]:
        """(file name, bytes, centred crops) of the cover: coverImageUrl, the first image,
        or a card drawn from the title."""
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
            fitted = await self.pool.run(
                fit_all, original, layout.COVER_IMAGE_BYTES, timeout=timeout, key=key
            )
            if request.coverImageUrl:  # the first image's conversion is noted already
                await self._note_converted(
                    original, fitted, layout.COVER_IMAGE_BYTES, "cover", warnings, key, timeout
                )
            (image,) = fitted.values()
            crops = layout.centred_crops(image.width, image.height)
            return f"cover.{image.extension}", image.data, crops
        fonts = self._fonts()
        if fonts is None:
            raise RenderFailed("the fonts are not loaded; the cover card cannot be drawn")
        png, crops = await self.pool.run(
            cover_card, title, request.theme, fonts, timeout=timeout, key=key
        )
        warnings.add(
            "cover_generated",
            f"no coverImageUrl and no usable image: the cover is a {COVER_WIDTH}×{COVER_HEIGHT}"
            " card drawn from the title",
        )
        return "cover.png", png, crops


def _fail_on_first(
    sources: Sequence[str], failures: Mapping[str, ApiError], policy: ImagePolicy
) -> None:
    """Raises the first of ``failures`` in the article's order when the policy is fail."""
    if policy == "fail":
        for source in sources:
            if source in failures:
                raise failures[source]


def _content(
    converted: article.Article,
    urls: dict[str, str],
    title: str,
    drop_heading: bool,
    warnings: Warnings,
) -> tuple[str, Digest]:
    """The draft's content (images rehosted, those not uploaded taken out, the title's h1
    too when ``drop_heading``) and the digest drawn from it; its size checked."""
    rehosted = article.draft_content(article.rewrite_images(converted.html, urls))
    skipped = {source for source in converted.images if source not in urls}
    content, digest = finish(rehosted, title, drop_heading=drop_heading, skipped=skipped)
    check_content_size(content, warnings)
    return content, digest


def _outcomes(
    converted: article.Article,
    urls: dict[str, str],
    skipped: dict[str, str],
    sent: Literal["uploaded", "ready"] = "uploaded",
) -> list[DraftImage]:
    """Each image, the article's sources in order, then those without a usable source."""
    return [
        DraftImage(describe(source), sent)
        if source in urls
        else DraftImage(describe(source), "skipped", skipped[source])
        for source in [*converted.images, *converted.unusable_images]
    ]
