"""The convert-and-draft operation: Markdown → article HTML, and with an account → a draft.

HTML only: ``article.to_article`` in the article threads, its math typeset first in a card
render worker (``ProcessRenderPool.typeset``), where a formula that runs long is killed with
its worker rather than holding a thread of the server. Draft: the article's images and cover
are made ready on our side first (``app.articles.drafts.plan``: more than
``MAX_DRAFT_IMAGES`` images, or with ``imagePolicy`` fail one without a usable source, is
refused before anything is fetched; every image is fetched through ``app.fetch``, public
addresses only, within the API key's share of the connections, or decoded from its ``data:``
URI, and converted by ``fit_image`` to a JPEG/PNG under the platform's limit); then
each is uploaded via ``uploadimg`` unless the account already has it
(``app.articles.wechat.placing``), the sources are rewritten to the platform's URLs, the
cover (``coverImageUrl``, else the first usable image, else a 900×383 card drawn by our card
engine from the title) goes up as permanent material, and ``draft/add`` (or ``draft/update``
of the draft ``draftMediaId`` names) is sent. Everything that can fail on our side (fetching,
decoding, drawing), and the look-up of that draft, happens before the first upload, so a bad
image or a draft that is gone creates no library item. With ``imagePolicy`` skip an image
that cannot be had, or that ``uploadimg`` refuses, is left out of the content instead
(``app.articles.drafts.draftbody``), and the answer lists what became of each image. A dry
run (``dry_run``) does all of this but the platform's calls and answers what the draft would
hold; every answer carries the warnings (``app.articles.drafts.checks``) the steps recorded.
CPU work runs in the render pool's threads, never on the event loop.
"""

from __future__ import annotations

import logging
from typing import Any

from inkcard.app.articles.convert import html as article
from inkcard.app.articles.convert.brand import Brand
from inkcard.app.articles.convert.formulas import math_size
from inkcard.app.articles.convert.signature import Signature
from inkcard.app.articles.convert.style import Styling, UnknownCodeTheme
from inkcard.app.articles.convert.themecss import UnknownArticleTheme
from inkcard.app.articles.drafts.checks import (
    Warnings,
    check_content_size,
    check_css,
    check_digest,
    check_html,
    check_links,
    check_skipped,
)
from inkcard.app.articles.drafts.draftbody import Digest, finish
from inkcard.app.articles.drafts.images import outcomes, upload_images
from inkcard.app.articles.drafts.plan import DraftPlan, DraftPlanner
from inkcard.app.articles.drafts.preview import draft_article, preview
from inkcard.app.articles.drafts.titles import drops_title_heading
from inkcard.app.articles.localimages import local_images
from inkcard.app.articles.threads import ArticleThreads
from inkcard.app.articles.wechat import Credentials, WeChatClient
from inkcard.app.articles.wechat.mediacache import MediaCache
from inkcard.app.articles.wechat.placing import Placed, Publisher, placed_message
from inkcard.app.errors import InvalidField, plural
from inkcard.app.fetch import FetchPolicy, ImageFetcher
from inkcard.app.render.messages import TypesetJob
from inkcard.app.render.pool import ProcessRenderPool
from inkcard.app.schema import (
    ArticleRequest,
    DraftData,
    DraftImage,
    DraftPreviewResponse,
    DraftResponse,
    HtmlResponse,
    field_label,
)
from inkcard.app.settings import Settings

log = logging.getLogger("inkcard.articles")


def draft_message(title: str, images: list[DraftImage], placed: Placed) -> str:
    """The answer's message: the images uploaded, reused (the account had them, nothing
    sent) and skipped counted apart, so a draft whose images were all reused says so."""
    counts = {status: sum(1 for i in images if i.status == status) for status in _COUNTED}
    parts = [f"{plural(counts['uploaded'], 'image')} uploaded"]
    parts += [f"{plural(counts[s], 'image')} {s}" for s in ("reused", "skipped") if counts[s]]
    return placed_message(placed, f"draft “{title}”", ", ".join(parts))


_COUNTED = ("uploaded", "reused", "skipped")
_UNSIGNED = Signature()  # no brand kit


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
        self,
        request: ArticleRequest,
        key: object,
        timeout: float,
        signature: Signature = _UNSIGNED,
    ) -> article.Article:
        """The article in its theme, converted in a pool thread, its math in a worker;
        ``signature``: the brand kit's sign-off at its end."""
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
                "" if request.keepTitleHeading else request.title,  # its repeating h1 goes
                Styling(request.css, request.codeTheme, request.indent, request.justify),
                request.aigc is not False,  # true or {producer, id}: the visible line
                signature,
                timeout=timeout,
                key=key,
            )
        except UnknownArticleTheme as exc:
            raise InvalidField(str(exc), label=field_label("theme")) from None
        except UnknownCodeTheme as exc:  # parse_article refuses it first
            raise InvalidField(str(exc), label=field_label("codeTheme")) from None

    async def html_only(
        self,
        request: ArticleRequest,
        key: object,
        timeout: float,
        signature: Signature = _UNSIGNED,
    ) -> HtmlResponse:
        converted = await self.convert(request, key, timeout, signature)
        warnings = Warnings()
        check_css(converted.refused_css, warnings)
        check_links(converted.linked, warnings)
        await self.pool.run(check_html, converted.html, warnings, timeout=timeout, key=key)
        return HtmlResponse(
            success=True,
            html=converted.html,
            cost=self.settings.prices.html,
            warnings=warnings.items,
        )

    async def draft(
        self,
        request: ArticleRequest,
        creds: Credentials,
        key: object,
        timeout: float,
        signature: Signature = _UNSIGNED,
    ) -> DraftResponse:
        """Create the draft; the caller bounds the whole call with its deadline."""
        assert self.wechat is not None, "open() first"
        warnings = Warnings()
        plan = await self._plan(request, key, timeout, warnings, signature)
        publisher = self.publisher(creds)
        target = await publisher.target(request.draftMediaId, request.draftMissing)
        urls = await upload_images(
            publisher, plan.usable, plan.encoded, request.imagePolicy, plan.skipped
        )
        thumb = await publisher.material(plan.cover, plan.cover_name, step="cover image the cover")
        content, digest = await self._finish(request, plan, urls, warnings, key, timeout)
        placed = await publisher.place(
            target, draft_article(request, plan.title, content, digest, thumb, plan.crops)
        )
        images = outcomes(plan.converted, urls, plan.skipped, reused=publisher.reused)
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
        self,
        request: ArticleRequest,
        key: object,
        timeout: float,
        signature: Signature = _UNSIGNED,
    ) -> DraftPreviewResponse:
        """Everything ``draft`` does but the platform's calls: what it would send."""
        warnings = Warnings()
        plan = await self._plan(request, key, timeout, warnings, signature)
        urls = {source: source for source in plan.usable}  # the images' own, not yet rehosted
        content, digest = await self._finish(request, plan, urls, warnings, key, timeout)
        images = outcomes(plan.converted, urls, plan.skipped, "ready")
        check_skipped(images, warnings)
        draft = draft_article(request, plan.title, content, digest, "", plan.crops)
        count = plan.converted.word_count
        cost = self.settings.prices.dry_run
        return preview(draft, plan.cover_source, plan.cover, count, images, warnings, cost)

    async def _plan(
        self,
        request: ArticleRequest,
        key: object,
        timeout: float,
        warnings: Warnings,
        signature: Signature = _UNSIGNED,
    ) -> DraftPlan:
        """A draft's work on our side: the article converted, then its images, its title
        and its cover (``DraftPlanner``); what can fail here fails before any upload."""
        assert self.fetcher is not None, "open() first"
        converted = await self.convert(request, key, timeout, signature)
        check_css(converted.refused_css, warnings)
        planner = DraftPlanner(self.pool, self.fetcher, self._fonts, key, timeout)
        return await planner.plan(request, converted, warnings)

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
