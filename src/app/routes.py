"""HTTP requests → thin handlers: authenticate, decode, charge, call the card service, respond."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, ClassVar

import msgspec
from litestar import Request, get, post
from litestar.datastructures import State
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import (
    Components,
    OpenAPIMediaType,
    Operation,
    RequestBody,
    SecurityScheme,
)
from litestar.types import ControllerRouterHandler

import themes
from app import requestlog
from app.cards import CardService
from app.credits import Credits, KeyInfo
from app.errors import ApiError, DatabaseBusy, InvalidApiKey, MissingApiKey
from app.metrics import Metrics
from app.models import (
    DEFAULT_THEME,
    MAX_MARKDOWN_CHARS,
    ErrorBody,
    GenerateRequest,
    GenerateResponse,
    ImageRecord,
    parse_generate,
)
from app.ratelimit import RequestLimit
from app.routes_themes import theme_routes
from app.settings import Settings

log = logging.getLogger("inkcard.routes")


async def authenticate(request: Request[Any, Any, Any], credits: Credits) -> KeyInfo:
    """The live key named by ``x-api-key``; records its prefix for the access log.

    Raises:
        MissingApiKey: No header.
        InvalidApiKey: Unknown or revoked key.
    """
    key = request.headers.get("x-api-key", "")
    info = await key_info(credits, key, "send your API key in the x-api-key header")
    request_info = requestlog.current()
    if request_info is not None:
        request_info.key = info.prefix
    return info


async def key_info(credits: Credits, key: str, how_to_send: str) -> KeyInfo:
    """The live key ``key`` (HTTP header or MCP connection alike).

    Raises:
        MissingApiKey: ``key`` is empty (the message is ``how_to_send``).
        InvalidApiKey: Unknown or revoked key.
    """
    key = key.strip()
    if not key:
        raise MissingApiKey(how_to_send)
    info = await asyncio.to_thread(credits.authenticate, key)
    if info is None:
        request_info = requestlog.current()
        if request_info is not None:
            request_info.key = "invalid"
        raise InvalidApiKey("the API key is unknown or has been revoked")
    return info


def _schema_of(struct: type) -> dict[str, Any]:
    (_, components) = msgspec.json.schema_components(
        [struct], ref_template="#/components/schemas/{name}"
    )
    schema: dict[str, Any] = components[struct.__name__]
    return schema


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` or null, with its description and default kept outside the choice."""
    outer: dict[str, Any] = {k: schema.pop(k) for k in ("description", "default") if k in schema}
    if {"type": "null"} in schema.get("anyOf", []):
        return {**outer, **schema}
    return {**outer, "anyOf": [schema, {"type": "null"}]}


def generate_request_schema(catalogue: themes.Catalogue) -> dict[str, Any]:
    """JSON Schema of the generate body as ``parse_generate`` and ``prepare`` decide it.

    Every field may be null (the default); ``theme`` is one of the catalogue's
    themes and ``themeMode`` one of that theme's modes (anything for a theme without modes).
    """
    schema = _schema_of(GenerateRequest)
    fields = schema["properties"]
    fields["markdown"]["maxLength"] = MAX_MARKDOWN_CHARS
    fields["theme"]["enum"] = catalogue.names()
    del fields["theme"]["type"]
    schema["properties"] = {name: _nullable(field) for name, field in fields.items()}
    schema["type"] = "object"  # an empty body is all defaults; a null one is invalid_json
    schema["anyOf"] = [_theme_choice(catalogue, name) for name in catalogue.names()]
    return schema


def _theme_choice(catalogue: themes.Catalogue, name: str) -> dict[str, Any]:
    """One theme and the modes it accepts; the default theme also when ``theme`` is absent."""
    if name == DEFAULT_THEME:
        choice: dict[str, Any] = {"properties": {"theme": {"enum": [name, None]}}}
    else:
        choice = {"properties": {"theme": {"const": name}}, "required": ["theme"]}
    modes = catalogue.modes(name)
    if modes:
        choice["properties"]["themeMode"] = {"enum": [*modes, None]}
    return choice


@dataclass
class JsonBodyOperation(Operation):
    """An OpenAPI entry whose body our own parser decodes, so its schema is given here;
    a subclass sets ``request_schema``."""

    request_schema: ClassVar[dict[str, Any]] = {}

    def __post_init__(self) -> None:
        self.request_body = RequestBody(
            # Litestar writes a plain dict schema as given; it is not a litestar Schema object.
            content={"application/json": OpenAPIMediaType(schema=self.request_schema)},  # type: ignore[arg-type]
            description=(
                "Every field is optional; unknown fields are ignored; null means the default."
            ),
            required=False,
        )


@dataclass
class GenerateOperation(JsonBodyOperation):
    """OpenAPI entry of /api/generate: the body is decoded by ``parse_generate``.

    ``request_schema`` depends on the app's themes, so each app gets a subclass that sets it.
    """


API_KEY_SCHEME = "apiKey"


def openapi_components() -> Components:
    """What the OpenAPI document shares between operations besides the schemas: the key."""
    return Components(
        security_schemes={
            API_KEY_SCHEME: SecurityScheme(
                type="apiKey",
                name="x-api-key",
                security_scheme_in="header",
                description="An API key (``inkcard keys create``).",
            )
        }
    )


def _errors(*statuses: int) -> dict[int, ResponseSpec]:
    return {
        s: ResponseSpec(data_container=ErrorBody, description="Error", generate_examples=False)
        for s in statuses
    }


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
        responses=_errors(400, 401, 402, 413, 429, 500, 502, 503, 504),
    )(generate)


async def generate(request: Request[Any, Any, State], state: State) -> GenerateResponse:
    """Render Markdown into one or more card PNGs, store them, and return their URLs."""
    key = await authenticate(request, state.credits)
    images = await generate_images(
        state, key, parse_generate(await request.body()), requestlog.current_id()
    )
    info = requestlog.current()
    if info is not None:
        info.extra["images"] = len(images)
    return GenerateResponse(images=images)


async def generate_images(
    state: State, key: KeyInfo, body: GenerateRequest, request_id: str | None
) -> list[ImageRecord]:
    """The generate operation for an authenticated key (HTTP and MCP alike).

    Order: validate, count the call against the key's per-minute limit, reserve the cost, then
    find-or-render; success commits the hold, any
    failure releases it (a crash leaves it to the expiry sweep).
    """
    settings: Settings = state.settings
    credits: Credits = state.credits
    cards: CardService = state.cards
    metrics: Metrics = state.metrics
    job = cards.prepare(body)
    cost = settings.generate_cost
    limits: RequestLimit = state.limits
    await asyncio.to_thread(limits.admit, key.id)
    hold = await asyncio.to_thread(credits.reserve, key.id, cost, "generate", request_id)
    try:
        images = await cards.generate(job, timeout=settings.timeout, key=key.id)
        if hold is not None and await _commit(credits, hold):
            metrics.debited("generate", cost)
    except BaseException:
        if hold is not None and await _release(credits, hold):
            metrics.refunded("generate", cost)
        raise
    return images


async def _commit(credits: Credits, hold: int) -> bool:
    """Charge a successful call's hold (shielded: a cancelled request still settles it);
    False when the hold had expired, so nothing was charged."""
    if not await asyncio.shield(asyncio.to_thread(credits.commit, hold)):
        log.warning("hold %s expired before the call finished; it is not charged", hold)
        return False
    return True


async def _release(credits: Credits, hold: int) -> bool:
    """Give a failed call's hold back (True); if the database is busy, the expiry sweep will."""
    try:
        return bool(await asyncio.shield(asyncio.to_thread(credits.release, hold)))
    except DatabaseBusy:
        log.warning("hold %s left to the expiry sweep: the database is busy", hold)
        return False


@get("/healthz", summary="Liveness")
async def healthz() -> dict[str, str]:
    """The process is up and answering."""
    return {"status": "ok"}


class NotReady(ApiError):
    """A dependency the service needs is not usable (503)."""

    status = 503
    label = "not_ready"


@get("/readyz", summary="Readiness", responses=_errors(503))
async def readyz(state: State) -> dict[str, Any]:
    """Fonts loaded, every render process warm, database writable, storage writable (a probe
    object, cached for 5 s)."""
    cards: CardService = state.cards
    credits: Credits = state.credits
    problems: list[str] = []
    if cards.fonts is None:
        problems.append("fonts are not loaded")
    if not cards.pool.ready:
        problems.append(
            f"render processes are starting ({cards.pool.warm} of {cards.pool.size} warm)"
        )
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
        "database": "writable",
        "storage": "writable",
    }


def route_handlers(catalogue: themes.Catalogue) -> list[ControllerRouterHandler]:
    """Every route of the service; the OpenAPI document names the themes of ``catalogue``."""
    return [generate_route(catalogue), *theme_routes(catalogue), healthz, readyz]
