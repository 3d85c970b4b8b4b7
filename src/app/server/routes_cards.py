"""``POST /api/generate``, ``/healthz`` and ``/readyz``: thin handlers over the operations.

A handler reads the request (the key header, the body), calls ``app.operations`` with the
app's ``Services`` (a typed dependency) and answers; errors become JSON bodies in
``app.server.responses``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from litestar import Request, get, post
from litestar.di import NamedDependency
from litestar.handlers import HTTPRouteHandler
from litestar.types import ControllerRouterHandler

from inkcard import themes
from inkcard.app import logs, operations
from inkcard.app.errors import ApiError, NotReady
from inkcard.app.ledger.credits import KeyInfo
from inkcard.app.schema import ErrorBody, GenerateResponse, errors, parse_generate
from inkcard.app.server.disconnect import watching_disconnect
from inkcard.app.server.openapi import (
    API_KEY_SCHEME,
    GenerateOperation,
    error_responses,
    generate_request_schema,
)
from inkcard.app.server.routes_themes import theme_routes
from inkcard.app.services import Services

HOW_TO_SEND_KEY = "send your API key in the x-api-key header"
T = TypeVar("T")


def api_key_of(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The ``x-api-key`` of raw ASGI headers. Repeated headers are one value joined by
    commas, as HTTP reads them, so two keys are one unknown key (401), never the first."""
    sent = [value.decode("latin-1") for name, value in headers if name.lower() == b"x-api-key"]
    return ", ".join(sent)


async def parsed_body(request: Request[Any, Any, Any], parse: Callable[[bytes], T]) -> T:
    """The request's body read by ``parse``, in a thread: decoding it, its front matter and
    the checks of its fields read what the client wrote, which never runs on the event loop
    (CONTRIBUTING.md, "Patterns"), so no body holds up every other request."""
    return await asyncio.to_thread(parse, await request.body())


async def authenticate(request: Request[Any, Any, Any], services: Services) -> KeyInfo:
    """The live key named by ``x-api-key``.

    Raises:
        MissingApiKey: No header.
        InvalidApiKey: Unknown or revoked key, or more than one key.
    """
    key = api_key_of(request.scope["headers"])
    return await operations.authenticate(services.credits, key, HOW_TO_SEND_KEY)


def generate_route(catalogue: themes.Catalogue) -> HTTPRouteHandler:
    """The generate handler, documented with the request schema of ``catalogue``."""
    operation = type(
        "GenerateOperation",
        (GenerateOperation,),
        {"request_schema": generate_request_schema(catalogue)},
    )
    return post(
        "/api/generate",
        status_code=200,
        operation_class=operation,
        summary="Markdown to card images",
        security=[{API_KEY_SCHEME: []}],
        responses=error_responses(ErrorBody, errors.GENERATE),
    )(generate)


async def generate(
    request: Request[Any, Any, Any], services: NamedDependency[Services]
) -> GenerateResponse:
    """Render Markdown into one or more card PNGs, store them, and return their URLs."""
    key = await authenticate(request, services)
    body = await parsed_body(request, parse_generate)
    async with watching_disconnect(request) as gone:
        images = await operations.generate_cards(services, key, body, logs.current_id(), gone)
    info = logs.current()
    if info is not None:
        info.extra["images"] = len(images)
    return GenerateResponse(images=images)


@get("/healthz", summary="Liveness")
async def healthz() -> dict[str, str]:
    """The process is up and answering."""
    return {"status": "ok"}


@get("/readyz", summary="Readiness", responses=error_responses(ErrorBody, errors.READY))
async def readyz(services: NamedDependency[Services]) -> dict[str, Any]:
    """Fonts loaded, every render process and the article path warm, database writable,
    storage writable (a probe object, cached for 5 s)."""
    cards = services.cards
    credits = services.credits
    problems: list[str] = []
    if cards.fonts is None:
        problems.append("fonts are not loaded")
    if not cards.pool.ready:
        problems.append(
            f"render processes are starting ({cards.pool.warm} of {cards.pool.size} warm)"
        )
    if not services.article_warm_up.done:
        problems.append("the article path is warming up")
    try:
        await asyncio.to_thread(credits.check_writable)
    except Exception as exc:
        problems.append(f"database is not writable ({type(exc).__name__})")
    try:
        await asyncio.to_thread(cards.storage_probe.check)
    except ApiError as exc:
        problems.append(exc.message)
    if problems:
        raise NotReady("; ".join(problems))
    return {
        "status": "ready",
        "fonts": "loaded",
        "renderers": "warm",
        "articles": "warm",
        "database": "writable",
        "storage": "writable",
    }


def route_handlers(catalogue: themes.Catalogue) -> list[ControllerRouterHandler]:
    """Every route of the service; the OpenAPI document names the themes of ``catalogue``."""
    return [generate_route(catalogue), *theme_routes(catalogue), healthz, readyz]
