"""Settings → the Litestar application: routes, error mapping, OpenAPI, lifespan resources.

``create_app(settings)`` is the one factory; ``inkcard serve`` hands it to uvicorn. The lifespan
opens the credit database, storage, render pool and fonts once per worker process, releases
expired credit holds at start and keeps sweeping them while the worker runs.
"""

from __future__ import annotations

import asyncio
import logging
import stat
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import swagger_ui_bundle
from litestar import Litestar, get
from litestar.datastructures import CacheControlHeader, State
from litestar.handlers import HTTPRouteHandler
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, SwaggerRenderPlugin
from litestar.params import FromPath
from litestar.response import File, Response
from litestar.types import ControllerRouterHandler

import layout
import themes
from app import guards, requestlog
from app.articles import ArticleService
from app.card_images import RemoteImages
from app.cards import Budget, CardService, RenderPool
from app.credits import Credits
from app.errors import DatabaseBusy, NotFound
from app.fetch import FetchPolicy, ImageFetcher
from app.idempotency import IdempotencyStore
from app.mcp_server import HttpMcp
from app.metrics import CONTENT_TYPE, MeteredStorage, Metrics, RequestMetrics
from app.models import DEFAULT_THEME
from app.ratelimit import RequestLimit
from app.render_pool import ProcessRenderPool
from app.render_worker import WorkerConfig
from app.responses import exception_handlers
from app.routes import openapi_components, route_handlers
from app.routes_article import convert_and_draft_route
from app.routes_playground import playground_routes
from app.settings import Settings, load_settings, metrics_dir
from app.storage import LocalStorage, check_name, make_storage

log = logging.getLogger("inkcard.main")
VERSION = "0.1.0"
SWEEP_SECONDS = 30.0
"""Longest pause between two sweeps of expired credit holds."""


FOREVER = CacheControlHeader(public=True, max_age=31_536_000, immutable=True)
SWAGGER_ASSETS = "/schema/assets"
_SWAGGER_FILES = ("swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-ui.css")


async def _file_response(path: Path) -> File:
    """``path`` as an inline file, or 404 if it is not a regular file right now."""
    try:
        info = await asyncio.to_thread(path.stat)
    except OSError:
        info = None
    if info is None or not stat.S_ISREG(info.st_mode):
        raise NotFound("nothing is stored under this name")
    return File(path, filename=path.name, content_disposition_type="inline")


def _files_route(storage: LocalStorage) -> HTTPRouteHandler:
    """``GET /files/<name>``: only names the service could have made reach the disk."""
    storage.root.mkdir(parents=True, exist_ok=True)

    @get("/files/{name:path}", name="files", include_in_schema=False, cache_control=FOREVER)
    async def stored_file(name: FromPath[str]) -> File:
        try:
            safe = check_name(name.removeprefix("/"))
        except ValueError:
            raise NotFound("nothing is stored under this name") from None
        return await _file_response(storage.root / safe)

    return stored_file


@get(f"{SWAGGER_ASSETS}/{{name:str}}", include_in_schema=False, cache_control=FOREVER)
async def swagger_asset(name: FromPath[str]) -> File:
    """Swagger UI's scripts and styles from the ``swagger-ui-bundle-v2`` package: no CDN."""
    if name not in _SWAGGER_FILES:
        raise NotFound("nothing is stored under this name")
    return await _file_response(Path(str(swagger_ui_bundle.swagger_ui_path)) / name)


def _docs_page() -> SwaggerRenderPlugin:
    """The Swagger page at /schema, its assets served by this app so it works offline."""
    return SwaggerRenderPlugin(
        path="/",
        js_url=f"{SWAGGER_ASSETS}/swagger-ui-bundle.js",
        css_url=f"{SWAGGER_ASSETS}/swagger-ui.css",
        standalone_preset_js_url=f"{SWAGGER_ASSETS}/swagger-ui-standalone-preset.js",
        favicon="",
    )


def _asgi_stack(app: Litestar, settings: Settings, metrics: Metrics) -> None:
    """Wrap the whole ASGI handler (not one route) so 404s and errors pass the guards too."""
    handler = guards.BodyDeadline(app.asgi_handler, settings.body_timeout)
    counted = RequestMetrics(handler, metrics)  # inside HeadAsGet: it sees the routed scope
    app.asgi_handler = requestlog.RequestLogMiddleware(guards.HeadAsGet(counted))


def _metrics_route(metrics: Metrics) -> HTTPRouteHandler:
    """``GET /metrics``: Prometheus text, no API key (``INKCARD_METRICS=0`` removes it)."""

    @get("/metrics", include_in_schema=False, cache_control=CacheControlHeader(no_store=True))
    async def scrape() -> Response[bytes]:
        text = await asyncio.to_thread(metrics.exposition)  # several workers: reads files
        return Response(text, media_type=CONTENT_TYPE)

    return scrape


def sweep_expired_holds(credits: Credits, metrics: Metrics | None = None) -> int:
    """Release holds whose request is past its deadline (it died with its process or hung)."""
    released = credits.release_expired()
    if released:
        log.warning("released %d credit holds of requests that never finished", released)
        if metrics is not None:
            metrics.holds_expired.inc(released)
    return released


async def _sweep_forever(credits: Credits, metrics: Metrics) -> None:
    """Sweep every ``SWEEP_SECONDS`` (sooner when holds expire sooner); a busy database waits."""
    interval = min(SWEEP_SECONDS, credits.hold_seconds)
    while True:
        await asyncio.sleep(interval)
        try:
            await asyncio.to_thread(sweep_expired_holds, credits, metrics)
        except DatabaseBusy:
            log.warning("hold sweep skipped: the database is busy")
        except Exception:  # keep sweeping: one failed pass must not end the task for good
            log.exception("hold sweep failed")


def _render_pool(
    settings: Settings, catalogue: themes.Catalogue, metrics: Metrics
) -> ProcessRenderPool:
    """The card render processes: started by the lifespan, each warmed with one default card."""
    config = WorkerConfig(
        fonts_dir=settings.fonts_dir or str(layout.DEFAULT_FONTS_DIR),
        warm_up_theme=catalogue.get(DEFAULT_THEME),
        stall_seconds=settings.render_stall_seconds,
    )
    return ProcessRenderPool(
        settings.render_processes,
        settings.render_queue,
        config,
        settings.renders_per_key,
        metrics=metrics,
    )


def create_app(settings: Settings | None = None) -> Litestar:
    """Build the Inkcard application.

    Args:
        settings: Configuration; read from ``INKCARD_*`` environment variables when omitted.
    """
    settings = settings or load_settings()
    requestlog.configure_logging(settings.log_level)
    metrics = Metrics(metrics_dir())
    credits = Credits(
        settings.database,
        busy_timeout=settings.database_busy_timeout,
        request_deadline=max(settings.timeout, settings.article_timeout),
    )
    storage = make_storage(settings)
    pool = RenderPool(
        settings.render_threads, settings.render_queue, settings.renders_per_key, metrics
    )
    budget = Budget(
        output_pixels=settings.max_output_pixels, image_pixels=settings.max_image_pixels
    )
    catalogue = themes.builtin()
    if settings.themes_dir:
        catalogue = catalogue.with_custom(settings.themes_dir)
    # One fetcher, one policy: card images and article images go through the same guard.
    fetcher = ImageFetcher(FetchPolicy.from_settings(settings))
    remote = RemoteImages(fetcher)
    render_pool = _render_pool(settings, catalogue, metrics)
    metered = MeteredStorage(storage, settings.storage, metrics)
    cards = CardService(metered, render_pool, budget, settings.fonts_dir, catalogue, remote)
    articles = ArticleService(settings, pool, lambda: cards.fonts, fetcher)
    idempotency = IdempotencyStore(
        settings.database,
        retention=settings.idempotency_hours * 3600,
        running=credits.hold_seconds,
        busy_timeout=settings.database_busy_timeout,
    )
    limits = RequestLimit(
        settings.database,
        settings.requests_per_minute,
        busy_timeout=settings.database_busy_timeout,
    )

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        await asyncio.to_thread(credits.ensure_schema)  # migrates every table of the database
        await articles.open()
        await asyncio.to_thread(sweep_expired_holds, credits, metrics)
        if isinstance(storage, LocalStorage):
            await asyncio.to_thread(storage.sweep_temp_files)
        await asyncio.to_thread(cards.load_fonts)
        render_pool.start()  # warms up in the background; /readyz says when
        log.info("ready: storage=%s files=%s", settings.storage, settings.files_url)
        sweeper = asyncio.create_task(_sweep_forever(credits, metrics))
        try:
            yield
        finally:
            sweeper.cancel()
            await articles.close()
            await fetcher.aclose()
            pool.shutdown()
            await render_pool.close()
            metrics.close()

    mcp = HttpMcp(settings, cards)  # the MCP server at /mcp; `inkcard mcp` serves it on stdio
    handlers: list[ControllerRouterHandler] = [
        *route_handlers(catalogue),
        convert_and_draft_route(),
        swagger_asset,
        *playground_routes(),
        mcp.route,
    ]
    if isinstance(storage, LocalStorage):
        handlers.append(_files_route(storage))
    if settings.metrics:
        handlers.append(_metrics_route(metrics))
    app = Litestar(
        route_handlers=handlers,
        lifespan=[lifespan, mcp.lifespan],
        exception_handlers=exception_handlers(),
        request_max_body_size=settings.max_body_bytes,
        state=State(
            {
                "settings": settings,
                "credits": credits,
                "cards": cards,
                "storage": metered,
                "metrics": metrics,
                "articles": articles,
                "idempotency": idempotency,
                "limits": limits,
                "mcp": mcp,
            }
        ),
        openapi_config=OpenAPIConfig(
            title="Inkcard",
            version=VERSION,
            description=(
                "Markdown to card images and WeChat articles."
                " Authenticate with the x-api-key header."
            ),
            path="/schema",
            components=openapi_components(),
            render_plugins=[_docs_page(), JsonRenderPlugin()],
        ),
        logging_config=None,
        debug=False,
    )
    _asgi_stack(app, settings, metrics)
    return app


def app_from_env() -> Litestar:
    """uvicorn factory for multi-worker serving: settings come from the environment."""
    return create_app(load_settings())
