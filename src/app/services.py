"""Settings → the typed ``Services`` record every operation runs on, built once per process.

``build_services`` wires the database (credits, idempotency, rate limits, stored platform
accounts), storage, the card render processes, the article threads and the one image fetcher;
``running`` opens and closes them around a process's life (the HTTP lifespan and ``inkcard
mcp`` both use it). The HTTP routes, the MCP tools and the CLI reach their services only
through this record.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from inkcard import layout, themes
from inkcard.app.articles.service import ArticleService
from inkcard.app.articles.threads import ArticleThreads
from inkcard.app.articles.warmup import WarmUp
from inkcard.app.brands.store import BrandStore
from inkcard.app.cards.images import RemoteImages
from inkcard.app.cards.service import Budget, CardService
from inkcard.app.errors import DatabaseBusy
from inkcard.app.fetch import FetchPolicy, ImageFetcher
from inkcard.app.ledger.accounts import AccountBook
from inkcard.app.ledger.credits import Credits
from inkcard.app.ledger.idempotency import IdempotencyStore
from inkcard.app.ledger.owners import Owner, owner_name, release_gone_owners
from inkcard.app.ledger.ratelimit import RequestLimit
from inkcard.app.ledger.sealing import Sealer
from inkcard.app.metrics import MeteredStorage, Metrics
from inkcard.app.render.inline import InlineRenderPool
from inkcard.app.render.messages import WorkerConfig
from inkcard.app.render.pool import ProcessRenderPool
from inkcard.app.schema import DEFAULT_THEME
from inkcard.app.settings import MIB, Settings, metrics_dir
from inkcard.app.storage import LocalStorage, Storage, make_storage

log = logging.getLogger("inkcard.services")

SWEEP_SECONDS = 30.0
"""Longest pause between two sweeps of expired credit holds."""


@dataclass(frozen=True, slots=True)
class Services:
    """Everything an operation needs, opened once per process.

    ``storage`` is the metered view of ``raw_storage`` (every call counted); ``/files`` serves
    ``raw_storage`` directly when it is the local disk.
    """

    settings: Settings
    catalogue: themes.Catalogue
    metrics: Metrics
    credits: Credits
    idempotency: IdempotencyStore
    limits: RequestLimit
    raw_storage: Storage
    storage: Storage
    fetcher: ImageFetcher
    render_pool: ProcessRenderPool
    threads: ArticleThreads
    cards: CardService
    articles: ArticleService
    accounts: AccountBook  # the WeChat accounts each key stored by name, secrets sealed
    owner: Owner  # this process on its holds and claims; its liveness lock is taken by `running`
    brands: BrandStore  # the brand kits of each key
    article_warm_up: WarmUp = field(default_factory=WarmUp)  # run by `running`; /readyz waits


def build_services(
    settings: Settings, *, in_process: bool = False, serves_files: bool = True
) -> Services:
    """Every service of one process, not yet opened (``running`` opens them). ``in_process``:
    cards are drawn in this process, one at a time (``inkcard mcp``), not in render processes.
    ``serves_files``: this process answers ``/files`` (without it, and without
    ``INKCARD_PUBLIC_URL``, local files have no URL: ``inkcard mcp`` on stdio)."""
    metrics = Metrics(metrics_dir())
    catalogue = themes.builtin()
    if settings.themes_dir:
        catalogue = catalogue.with_custom(settings.themes_dir)
    owner = owner_name()  # this process, on the holds and claims it writes
    credits = Credits(
        settings.database,
        busy_timeout=settings.database_busy_timeout,
        request_deadline=max(settings.timeout, settings.article_timeout),
        owner=owner,
    )
    raw_storage = make_storage(settings, served=serves_files)
    storage = MeteredStorage(raw_storage, settings.storage, metrics)
    # One fetcher, one policy: card images and article images go through the same guard.
    fetcher = ImageFetcher(FetchPolicy.from_settings(settings))
    render_pool = _render_pool(settings, catalogue, metrics, lambda: cards.fonts, in_process)
    budget = Budget(
        output_pixels=settings.max_output_pixels, image_pixels=settings.max_image_pixels
    )
    cards = CardService(
        storage, render_pool, budget, settings.fonts_dir, catalogue, RemoteImages(fetcher)
    )
    threads = ArticleThreads(
        settings.render_threads, settings.render_queue, settings.renders_per_key, metrics
    )
    return Services(
        settings=settings,
        catalogue=catalogue,
        metrics=metrics,
        credits=credits,
        idempotency=IdempotencyStore(
            settings.database,
            retention=settings.idempotency_hours * 3600,
            running=credits.hold_seconds,
            busy_timeout=settings.database_busy_timeout,
            owner=owner,
        ),
        limits=RequestLimit(
            settings.database,
            settings.requests_per_minute,
            busy_timeout=settings.database_busy_timeout,
        ),
        raw_storage=raw_storage,
        storage=storage,
        fetcher=fetcher,
        render_pool=render_pool,
        threads=threads,
        cards=cards,
        articles=ArticleService(
            settings, threads, lambda: cards.fonts, fetcher, workers=render_pool
        ),
        accounts=AccountBook(credits.store, Sealer(settings.account_key)),
        owner=Owner(credits, owner),
        brands=BrandStore(settings.database, settings.database_busy_timeout),
        # one agent, no /readyz: its first article pays the warm-up rather than every start
        article_warm_up=WarmUp(_nothing) if in_process else WarmUp(),
    )


def _nothing() -> None:
    """The article warm-up of ``inkcard mcp``: none."""


def _render_pool(
    settings: Settings,
    catalogue: themes.Catalogue,
    metrics: Metrics,
    fonts: Callable[[], layout.FontBook | None],
    in_process: bool,
) -> ProcessRenderPool:
    """The card render processes: started by ``running``, each warmed with one default card;
    or, ``in_process``, renders in this process with the card service's ``fonts()``."""
    config = WorkerConfig(
        fonts_dir=settings.fonts_dir or str(layout.DEFAULT_FONTS_DIR),
        warm_up_theme=catalogue.get(DEFAULT_THEME),
        stall_seconds=settings.render_stall_seconds,
        memory_limit=settings.render_memory_mb * MIB,
        small_pngs=settings.png_compression == "small",
    )
    if in_process:
        return InlineRenderPool(
            fonts, settings.render_queue, config, settings.renders_per_key, metrics=metrics
        )
    return ProcessRenderPool(
        settings.render_processes,
        settings.render_queue,
        config,
        settings.renders_per_key,
        metrics=metrics,
    )


@asynccontextmanager
async def running(services: Services) -> AsyncIterator[Services]:
    """Open every service (schema migrated, this process's liveness lock taken, fonts loaded,
    render processes started), release what dead processes left in flight at once, keep
    sweeping credit holds while the process runs, and close them all at the end."""
    await asyncio.to_thread(services.credits.ensure_schema)  # migrates every table
    await asyncio.to_thread(services.owner.start)
    try:
        async with _opened(services):
            yield services
    finally:
        await asyncio.to_thread(services.owner.close)


@asynccontextmanager
async def _opened(services: Services) -> AsyncIterator[None]:
    """Everything but the database's schema and this process's liveness lock."""
    await asyncio.to_thread(release_gone, services)
    await services.articles.open()
    await asyncio.to_thread(sweep_expired_holds, services.credits, services.metrics)
    if isinstance(services.raw_storage, LocalStorage):
        await asyncio.to_thread(services.raw_storage.sweep_temp_files)
    await asyncio.to_thread(services.cards.load_fonts)
    services.render_pool.start()  # warms up in the background; /readyz says when
    warming = asyncio.create_task(asyncio.to_thread(services.article_warm_up.run))  # likewise
    settings = services.settings
    files = settings.files_url_for("<each request's scheme://host>")
    log.info("started: storage=%s files=%s", settings.storage, files)
    sweeper = asyncio.create_task(_sweep_forever(services))
    try:
        yield
    finally:
        sweeper.cancel()
        await warming  # a thread cannot be stopped: a stop during warm-up waits for its end
        await services.articles.close()
        await services.fetcher.aclose()
        services.threads.shutdown()
        await services.render_pool.close()
        services.metrics.close()


def release_gone(services: Services) -> int:
    """Release the holds and running claims of processes that are provably gone (their
    liveness lock is free); return how many holds. A busy database leaves them to the next
    sweep."""
    try:
        settled = release_gone_owners(services.credits, services.idempotency, services.owner.name)
    except DatabaseBusy:
        log.warning("holds of dead processes left to the next sweep: the database is busy")
        return 0
    if settled.holds:
        services.metrics.holds_of_dead.inc(settled.holds)
    return settled.holds


def sweep_expired_holds(credits: Credits, metrics: Metrics | None = None) -> int:
    """Release holds whose request is past its deadline (it died with its process or hung)."""
    released = credits.release_expired()
    if released:
        log.warning("released %d credit holds of requests that never finished", released)
        if metrics is not None:
            metrics.holds_expired.inc(released)
    return released


async def _sweep_forever(services: Services) -> None:
    """Sweep every ``SWEEP_SECONDS`` (sooner when holds expire sooner): this process's
    liveness lock renewed, dead processes' holds released, expired holds released; a busy
    database waits."""
    credits = services.credits
    interval = min(SWEEP_SECONDS, credits.hold_seconds)
    while True:
        await asyncio.sleep(interval)
        try:
            await asyncio.to_thread(services.owner.renew)
            await asyncio.to_thread(release_gone, services)
            await asyncio.to_thread(sweep_expired_holds, credits, services.metrics)
        except DatabaseBusy:
            log.warning("hold sweep skipped: the database is busy")
        except Exception:  # keep sweeping: one failed pass must not end the task for good
            log.exception("hold sweep failed")
