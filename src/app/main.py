"""Settings → the Litestar application: routes, error mapping, OpenAPI, lifespan resources.

``create_app(settings)`` is the one factory; ``inkcard serve`` hands it to uvicorn. The lifespan
opens the credit database, storage, render pool and fonts once per worker process, releases
expired credit holds at start and keeps sweeping them while the worker runs.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar import Litestar, Router
from litestar.datastructures import CacheControlHeader, State
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, SwaggerRenderPlugin
from litestar.static_files import create_static_files_router
from litestar.types import ControllerRouterHandler

from app import requestlog
from app.cards import CardService, RenderPool
from app.credits import Credits
from app.errors import DatabaseBusy, exception_handlers
from app.routes import ROUTES
from app.settings import Settings, load_settings
from app.storage import LocalStorage, make_storage

log = logging.getLogger("inkcard.main")
VERSION = "0.1.0"
SWEEP_SECONDS = 30.0
"""Longest pause between two sweeps of expired credit holds."""


def _files_router(storage: LocalStorage) -> Router:
    storage.root.mkdir(parents=True, exist_ok=True)
    return create_static_files_router(
        path="/files",
        directories=[storage.root],
        name="files",
        cache_control=CacheControlHeader(public=True, max_age=31_536_000, immutable=True),
    )


def sweep_expired_holds(credits: Credits) -> int:
    """Release holds whose request is past its deadline (it died with its process or hung)."""
    released = credits.release_expired()
    if released:
        log.warning("released %d credit holds of requests that never finished", released)
    return released


async def _sweep_forever(credits: Credits) -> None:
    """Sweep every ``SWEEP_SECONDS`` (sooner when holds expire sooner); a busy database waits."""
    interval = min(SWEEP_SECONDS, credits.hold_seconds)
    while True:
        await asyncio.sleep(interval)
        try:
            await asyncio.to_thread(sweep_expired_holds, credits)
        except DatabaseBusy:
            log.warning("hold sweep skipped: the database is busy")
        except Exception:  # keep sweeping: one failed pass must not end the task for good
            log.exception("hold sweep failed")


def create_app(settings: Settings | None = None) -> Litestar:
    """Build the Inkcard application.

    Args:
        settings: Configuration; read from ``INKCARD_*`` environment variables when omitted.
    """
    settings = settings or load_settings()
    requestlog.configure_logging(settings.log_level)
    credits = Credits(
        settings.database_path,
        busy_timeout=settings.database_busy_timeout,
        request_deadline=settings.timeout,
    )
    storage = make_storage(settings)
    pool = RenderPool(settings.render_threads, settings.render_queue)
    cards = CardService(storage, pool, settings.fonts_dir)

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        await asyncio.to_thread(credits.ensure_schema)
        await asyncio.to_thread(sweep_expired_holds, credits)
        if isinstance(storage, LocalStorage):
            await asyncio.to_thread(storage.sweep_temp_files)
        await asyncio.to_thread(cards.load_fonts)
        log.info("ready: storage=%s files=%s", settings.storage, settings.files_url)
        sweeper = asyncio.create_task(_sweep_forever(credits))
        try:
            yield
        finally:
            sweeper.cancel()
            pool.shutdown()

    handlers: list[ControllerRouterHandler] = list(ROUTES)
    if isinstance(storage, LocalStorage):
        handlers.append(_files_router(storage))
    app = Litestar(
        route_handlers=handlers,
        lifespan=[lifespan],
        exception_handlers=exception_handlers(),
        request_max_body_size=settings.max_body_bytes,
        state=State({"settings": settings, "credits": credits, "cards": cards, "storage": storage}),
        openapi_config=OpenAPIConfig(
            title="Inkcard",
            version=VERSION,
            description="Markdown to card images. Authenticate with the x-api-key header.",
            path="/schema",
            render_plugins=[SwaggerRenderPlugin(path="/"), JsonRenderPlugin()],
        ),
        logging_config=None,
        debug=False,
    )
    # Wrap the whole ASGI handler (not one route) so 404s and errors get a request id too.
    app.asgi_handler = requestlog.RequestLogMiddleware(app.asgi_handler)
    return app


def app_from_env() -> Litestar:
    """uvicorn factory for multi-worker serving: settings come from the environment."""
    return create_app(load_settings())
