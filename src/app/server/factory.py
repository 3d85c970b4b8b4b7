"""Settings → the Litestar application: routes, error mapping, OpenAPI, lifespan resources.

``create_app(settings)`` is the one factory; ``inkcard serve`` hands it to uvicorn. The lifespan
opens the credit database, storage, render pool and fonts once per worker process, releases
expired credit holds at start and keeps sweeping them while the worker runs.
"""

from __future__ import annotations

import asyncio
import stat
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import swagger_ui_bundle
from litestar import Litestar, get
from litestar.datastructures import CacheControlHeader, State
from litestar.di import Provide
from litestar.handlers import HTTPRouteHandler
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, SwaggerRenderPlugin
from litestar.params import FromPath
from litestar.response import File, Response
from litestar.types import ControllerRouterHandler

from inkcard import layout
from inkcard.app import VERSION, logs
from inkcard.app.errors import NotFound
from inkcard.app.metrics import CONTENT_TYPE, Metrics, RequestMetrics
from inkcard.app.server import guards, requestlog
from inkcard.app.server.mcp_http import HttpMcp
from inkcard.app.server.openapi import openapi_components
from inkcard.app.server.platform import platform_routes
from inkcard.app.server.platform.xhsnote import xhs_note_route
from inkcard.app.server.responses import exception_handlers
from inkcard.app.server.routes_article import convert_and_draft_route
from inkcard.app.server.routes_brands import brand_routes
from inkcard.app.server.routes_cards import route_handlers
from inkcard.app.server.routes_cover import cover_route
from inkcard.app.server.routes_newspic import newspic_draft_route
from inkcard.app.server.routes_playground import playground_routes, theme_labels
from inkcard.app.services import Services, build_services, running
from inkcard.app.settings import Settings, load_settings
from inkcard.app.storage import LocalStorage, check_name

CARD_FILE_ENDINGS = tuple(f".{extension}" for extension in layout.EXTENSIONS.values())
"""What ``GET /files`` serves: card images and PDFs, never a set's manifest."""
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
        if not safe.endswith(CARD_FILE_ENDINGS):  # the manifests stay the service's own
            raise NotFound("nothing is stored under this name")
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
    app.asgi_handler = requestlog.RequestLogMiddleware(
        guards.HeadAsGet(counted), settings.proxy_networks
    )


def _metrics_route(metrics: Metrics) -> HTTPRouteHandler:
    """``GET /metrics``: Prometheus text, no API key (``INKCARD_METRICS=0`` removes it)."""

    @get("/metrics", include_in_schema=False, cache_control=CacheControlHeader(no_store=True))
    async def scrape() -> Response[bytes]:
        text = await asyncio.to_thread(metrics.exposition)  # several workers: reads files
        return Response(text, media_type=CONTENT_TYPE)

    return scrape


def create_app(settings: Settings | None = None, services: Services | None = None) -> Litestar:
    """Build the Inkcard application.

    Args:
        settings: Configuration; read from ``INKCARD_*`` environment variables when omitted.
        services: The services to serve (built from ``settings`` when omitted).
    """
    settings = settings or load_settings()
    logs.configure_logging(settings.log_level)
    services = services or build_services(settings)

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        async with running(services):
            yield

    mcp = HttpMcp(services)  # the MCP tools at /mcp; `inkcard mcp` serves them on stdio
    handlers: list[ControllerRouterHandler] = [
        *route_handlers(services.catalogue),
        convert_and_draft_route(services.settings.prices),
        newspic_draft_route(services.catalogue, services.settings.prices),
        *platform_routes(services.settings.prices),
        cover_route(services.catalogue),
        xhs_note_route(services.catalogue, services.settings.prices),
        *brand_routes(settings.max_body_bytes),
        swagger_asset,
        *playground_routes(
            settings.fonts_dir, theme_labels(services.catalogue), services.settings.prices
        ),
        mcp.route,
    ]
    if isinstance(services.raw_storage, LocalStorage):
        handlers.append(_files_route(services.raw_storage))
    if settings.metrics:
        handlers.append(_metrics_route(services.metrics))
    app = Litestar(
        route_handlers=handlers,
        lifespan=[lifespan, mcp.lifespan],
        exception_handlers=exception_handlers(),
        request_max_body_size=settings.max_body_bytes,
        dependencies={"services": Provide(lambda: services, use_cache=True, sync_to_thread=False)},
        state=State({"services": services}),
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
    _asgi_stack(app, settings, services.metrics)
    return app


def app_from_env() -> Litestar:
    """uvicorn factory for multi-worker serving: settings come from the environment."""
    return create_app(load_settings())
