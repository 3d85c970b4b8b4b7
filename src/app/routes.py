"""HTTP requests → thin handlers: authenticate, decode, charge, call the card service, respond."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Request, get, post
from litestar.datastructures import State
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import OpenAPIMediaType, Operation, RequestBody

from app import requestlog
from app.cards import CardService, themes_listing
from app.credits import Credits, KeyInfo
from app.errors import ApiError, DatabaseBusy, InvalidApiKey, MissingApiKey
from app.models import ErrorBody, GenerateRequest, GenerateResponse, ThemesResponse, parse_generate
from app.settings import Settings

log = logging.getLogger("inkcard.routes")


async def authenticate(request: Request[Any, Any, Any], credits: Credits) -> KeyInfo:
    """The live key named by ``x-api-key``; records its prefix for the access log.

    Raises:
        MissingApiKey: No header.
        InvalidApiKey: Unknown or revoked key.
    """
    key = request.headers.get("x-api-key", "").strip()
    if not key:
        raise MissingApiKey("send your API key in the x-api-key header")
    info = await asyncio.to_thread(credits.authenticate, key)
    request_info = requestlog.current()
    if request_info is not None:
        request_info.key = info.prefix if info else "invalid"
    if info is None:
        raise InvalidApiKey("the API key is unknown or has been revoked")
    return info


def _schema_of(struct: type) -> dict[str, Any]:
    (_, components) = msgspec.json.schema_components(
        [struct], ref_template="#/components/schemas/{name}"
    )
    schema: dict[str, Any] = components[struct.__name__]
    return schema


@dataclass
class GenerateOperation(Operation):
    """OpenAPI entry of /api/generate: the body is decoded by ``parse_generate``, so say so here."""

    def __post_init__(self) -> None:
        self.request_body = RequestBody(
            # Litestar writes a plain dict schema as given; msgspec made it from the model.
            content={"application/json": OpenAPIMediaType(schema=_schema_of(GenerateRequest))},  # type: ignore[arg-type]
            description=(
                "Every field is optional; unknown fields are ignored; null means the default."
            ),
            required=False,
        )


def _errors(*statuses: int) -> dict[int, ResponseSpec]:
    return {
        s: ResponseSpec(data_container=ErrorBody, description="Error", generate_examples=False)
        for s in statuses
    }


@post(
    "/api/generate",
    status_code=200,
    operation_class=GenerateOperation,
    summary="Markdown to card images",
    responses=_errors(400, 401, 402, 413, 500, 502, 503, 504),
)
async def generate(request: Request[Any, Any, State], state: State) -> GenerateResponse:
    """Render Markdown into one or more card PNGs, store them, and return their URLs.

    Order: authenticate, validate, reserve the cost, then find-or-render; success commits the
    hold, any failure releases it (a crash leaves it to the expiry sweep).
    """
    settings: Settings = state.settings
    credits: Credits = state.credits
    cards: CardService = state.cards
    key = await authenticate(request, credits)
    job = cards.prepare(parse_generate(await request.body()))
    request_id = requestlog.current_id()
    hold = await asyncio.to_thread(
        credits.reserve, key.id, settings.generate_cost, "generate", request_id
    )
    try:
        images = await cards.generate(job, timeout=settings.timeout)
        if hold is not None:
            await _commit(credits, hold)
    except BaseException:
        if hold is not None:
            await _release(credits, hold)
        raise
    info = requestlog.current()
    if info is not None:
        info.extra["images"] = len(images)
    return GenerateResponse(images=images)


async def _commit(credits: Credits, hold: int) -> None:
    """Charge a successful call's hold (shielded: a cancelled request still settles it)."""
    if not await asyncio.shield(asyncio.to_thread(credits.commit, hold)):
        log.warning("hold %s expired before the call finished; it is not charged", hold)


async def _release(credits: Credits, hold: int) -> None:
    """Give a failed call's hold back; if the database is busy, the expiry sweep will."""
    try:
        await asyncio.shield(asyncio.to_thread(credits.release, hold))
    except DatabaseBusy:
        log.warning("hold %s left to the expiry sweep: the database is busy", hold)


@get("/api/themes", summary="Card and article themes")
async def list_themes() -> ThemesResponse:
    """Card themes with their modes (the first mode is the default), and article themes."""
    return msgspec.convert(themes_listing(), ThemesResponse)


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
    """Fonts loaded, database writable, storage reachable."""
    cards: CardService = state.cards
    credits: Credits = state.credits
    problems: list[str] = []
    if cards.fonts is None:
        problems.append("fonts are not loaded")
    try:
        await asyncio.to_thread(credits.check_writable)
    except Exception as exc:
        problems.append(f"database is not writable ({type(exc).__name__})")
    try:
        await asyncio.to_thread(cards.storage.check)
    except ApiError as exc:
        problems.append(exc.message)
    if problems:
        raise NotReady("; ".join(problems))
    return {"status": "ready", "fonts": "loaded", "database": "writable", "storage": "reachable"}


ROUTES = [generate, list_themes, healthz, readyz]
