"""``POST /api/platform/convert-and-draft``: authenticate, decode, claim, reserve, run, settle.

Errors use this operation's own envelope ``{"success": false, "error", "message", "cost": 0}``
(route-level exception handlers). Credits: a balance under 3 is a 402 before any work; 3 are
reserved up front and 1 (HTML only) or 3 (draft) committed on success, with the answer kept
for an ``Idempotency-Key`` in the same transaction; any failure releases the hold.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

import msgspec
from litestar import MediaType, Request, Response, post
from litestar.datastructures import State
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.datastructures import ResponseSpec

from app import requestlog
from app.articles import DRAFT_COST, HTML_COST, MIN_BALANCE, ArticleService
from app.credits import Credits, KeyInfo
from app.errors import (
    DatabaseBusy,
    InsufficientCredits,
    InvalidField,
    MissingPlatformCredentials,
    RenderTimeout,
)
from app.idempotency import HEADER as IDEMPOTENCY_HEADER
from app.idempotency import IdempotencyStore, check_key, fingerprint
from app.metrics import Metrics
from app.models import (
    ARTICLE_THEMES,
    MAX_MARKDOWN_CHARS,
    ArticleErrorBody,
    ArticleRequest,
    DraftResponse,
    HtmlResponse,
    parse_article,
)
from app.ratelimit import RequestLimit
from app.responses import article_exception_handlers
from app.routes import API_KEY_SCHEME, JsonBodyOperation, _nullable, _schema_of, authenticate
from app.settings import Settings
from app.wechat import Credentials, PlatformError, PlatformTimeout

log = logging.getLogger("inkcard.routes")

PATH = "/api/platform/convert-and-draft"
APPID_HEADER = "platform-appid"
SECRET_HEADER = "platform-app-secret"
REPLAYED_HEADER = "Idempotent-Replayed"
OPERATION = "convert-and-draft"  # in the ledger and the metrics
DESCRIPTION = """\
Markdown to WeChat article HTML with inline CSS (1 credit) or, with the headers
`Platform-Appid` and `Platform-App-Secret` (both or neither), a draft in the account's draft
box (3 credits). A balance under 3 is refused (402) before any work; a failed call costs 0.
An optional `Idempotency-Key` header (1-255 printable ASCII characters, per API key) makes a
retry return the first answer (with `Idempotent-Replayed: true`) and charge once; the same
key with another request is 422 `idempotency_key_reused`, and while the first is still running
409 `idempotency_key_in_use`. Answers are kept for 24 hours (`INKCARD_IDEMPOTENCY_HOURS`)."""


def platform_credentials(request: Request[Any, Any, Any]) -> Credentials | None:
    """Both platform headers → credentials; neither → None (HTML only).

    Raises:
        MissingPlatformCredentials: Only one of them (the secret is never echoed).
    """
    return credentials_from(
        request.headers.get(APPID_HEADER, ""),
        request.headers.get(SECRET_HEADER, ""),
        ("Platform-Appid", "Platform-App-Secret"),
    )


def credentials_from(appid: str, secret: str, names: tuple[str, str]) -> Credentials | None:
    """Both given → credentials; neither → None (HTML only); ``names`` say where they go.

    Raises:
        MissingPlatformCredentials: Only one of them (the secret is never echoed).
    """
    appid, secret = appid.strip(), secret.strip()
    if not appid and not secret:
        return None
    if not appid or not secret:
        missing = names[0] if not appid else names[1]
        raise MissingPlatformCredentials(
            f"{missing} is missing: send both {names[0]} and {names[1]} to create"
            " a draft, or neither for HTML only"
        )
    return Credentials(appid, secret)


def request_fingerprint(body: ArticleRequest, creds: Credentials | None) -> str:
    """What decides the answer: the normalised body and the account (its secret hashed)."""
    account = b"" if creds is None else creds.appid.encode()
    secret = b"" if creds is None else hashlib.sha256(creds.secret.encode()).digest()
    return fingerprint(msgspec.json.encode(body), account, secret)


async def _reserve(credits: Credits, key: KeyInfo, request_id: str | None) -> int:
    """Hold the dearer variant's cost; a balance under 3 is refused whichever is asked."""
    try:
        hold = await asyncio.to_thread(credits.reserve, key.id, MIN_BALANCE, OPERATION, request_id)
    except InsufficientCredits:
        balance = (await asyncio.to_thread(credits.key_info, key.prefix)).balance
        raise InsufficientCredits(
            f"convert-and-draft needs a balance of at least {MIN_BALANCE} credits (HTML only"
            f" costs {HTML_COST}, a draft {DRAFT_COST}); the key's balance is {balance}"
        ) from None
    assert hold is not None  # the cost is above 0
    return hold


async def _release(credits: Credits, hold: int) -> bool:
    """Give the hold back (True); if the database is busy, the expiry sweep will."""
    try:
        return bool(await asyncio.shield(asyncio.to_thread(credits.release, hold)))
    except DatabaseBusy:
        log.warning("hold %s left to the expiry sweep: the database is busy", hold)
        return False


async def _forget(store: IdempotencyStore, key_id: int, idem_key: str) -> None:
    try:
        await asyncio.shield(asyncio.to_thread(store.forget, key_id, idem_key))
    except DatabaseBusy:
        log.warning("idempotency claim left to expire: the database is busy")


async def _run(
    service: ArticleService,
    body: ArticleRequest,
    creds: Credentials | None,
    key: object,
    seconds: float,
) -> HtmlResponse | DraftResponse:
    """The work under one deadline: 504 ``platform_timeout`` (draft) or ``timeout`` past it."""
    try:
        async with asyncio.timeout(seconds):
            if creds is None:
                return await service.html_only(body, key, seconds)
            return await service.draft(body, creds, key, seconds)
    except (TimeoutError, RenderTimeout):
        if creds is None:
            raise RenderTimeout(f"converting took longer than {seconds:g} s") from None
        raise PlatformTimeout(
            f"creating the draft took longer than {seconds:g} s; nothing was charged"
        ) from None


async def _run_counted(
    metrics: Metrics,
    service: ArticleService,
    body: ArticleRequest,
    creds: Credentials | None,
    key: object,
    seconds: float,
) -> HtmlResponse | DraftResponse:
    """``_run``, with a platform failure counted by its label."""
    try:
        return await _run(service, body, creds, key, seconds)
    except PlatformError as exc:
        metrics.platform_errors.labels(exc.label).inc()
        raise


async def convert_and_draft(
    request: Request[Any, Any, State], state: State
) -> Response[HtmlResponse | DraftResponse]:
    """Markdown → article HTML (1 credit), or with platform credentials → a draft (3)."""
    key = await authenticate(request, state.credits)
    body = parse_article(await request.body())
    creds = platform_credentials(request)
    answer = await convert_article(
        state,
        key,
        body,
        creds,
        request.headers.get(IDEMPOTENCY_HEADER),
        requestlog.current_id(),
    )
    headers = {REPLAYED_HEADER: "true"} if answer.replayed else None
    info = requestlog.current()
    if info is not None and not answer.replayed:
        info.extra["cost"] = answer.cost
    # The encoded bytes are what an Idempotency-Key replay sends too.
    return Response(
        answer.body,  # type: ignore[arg-type]  # JSON bytes are sent as they are
        status_code=answer.status,
        media_type=MediaType.JSON,
        headers=headers,
    )


class ArticleAnswer(NamedTuple):
    """A convert-and-draft answer: its JSON body and status, and what it cost.

    ``replayed``: the stored answer to an earlier request with the same Idempotency-Key,
    charged then, not now (``cost`` is 0).
    """

    body: bytes
    status: int = 200
    cost: int = 0
    replayed: bool = False


async def convert_article(
    state: State,
    key: KeyInfo,
    body: ArticleRequest,
    creds: Credentials | None,
    idem_key: str | None,
    request_id: str | None,
) -> ArticleAnswer:
    """The convert-and-draft operation for an authenticated key (HTTP and MCP alike).

    Claim the Idempotency-Key (a replay returns at once), hold 3 credits, convert or draft
    under the deadline, commit 1 or 3 with the answer recorded; any failure releases both.
    """
    settings: Settings = state.settings
    credits: Credits = state.credits
    service: ArticleService = state.articles
    store: IdempotencyStore = state.idempotency
    metrics: Metrics = state.metrics
    if creds is not None and not body.markdown.strip():
        raise InvalidField(
            "markdown must not be empty when creating a draft", label="invalid_markdown"
        )
    if idem_key is not None:
        idem_key = check_key(idem_key)
        replay = await asyncio.to_thread(
            store.claim, key.id, idem_key, request_fingerprint(body, creds)
        )
        if replay is not None:
            return ArticleAnswer(replay.body, replay.status, replayed=True)
    try:
        limits: RequestLimit = state.limits
        await asyncio.to_thread(limits.admit, key.id)  # after the claim: a replay is never limited
        hold = await _reserve(credits, key, request_id)
        try:
            answer = await _run_counted(
                metrics, service, body, creds, key.id, settings.article_timeout
            )
            encoded = msgspec.json.encode(answer)
            cost = HTML_COST if creds is None else DRAFT_COST
            also = None
            if idem_key is not None:
                also = functools.partial(_record, store, key.id, idem_key, encoded)
            committed = await asyncio.shield(
                asyncio.to_thread(credits.commit, hold, cost, also=also)
            )
            if committed:
                metrics.debited(OPERATION, cost)
            else:
                log.warning("hold %s expired before the call finished; it is not charged", hold)
        except BaseException:
            if await _release(credits, hold):
                metrics.refunded(OPERATION, MIN_BALANCE)
            raise
    except BaseException:
        if idem_key is not None:
            await _forget(store, key.id, idem_key)
        raise
    return ArticleAnswer(encoded, cost=cost)


def _record(store: IdempotencyStore, key_id: int, idem_key: str, body: bytes, conn: Any) -> None:
    store.record(conn, key_id, idem_key, 200, body)


# OpenAPI


def article_request_schema() -> dict[str, Any]:
    """JSON Schema of the body as ``parse_article`` decides it (null means the default)."""
    schema = _schema_of(ArticleRequest)
    fields = schema["properties"]
    fields["markdown"]["maxLength"] = MAX_MARKDOWN_CHARS
    fields["theme"]["enum"] = list(ARTICLE_THEMES)
    del fields["theme"]["type"]
    schema["properties"] = {name: _nullable(field) for name, field in fields.items()}
    schema["type"] = "object"
    return schema


@dataclass
class ArticleOperation(JsonBodyOperation):
    """OpenAPI entry of convert-and-draft: the body is decoded by ``parse_article``."""

    request_schema: ClassVar[dict[str, Any]] = article_request_schema()


def _errors(*statuses: int) -> dict[int, ResponseSpec]:
    return {
        s: ResponseSpec(
            data_container=ArticleErrorBody, description="Error", generate_examples=False
        )
        for s in statuses
    }


def convert_and_draft_route() -> HTTPRouteHandler:
    """The handler with its own error envelope and OpenAPI entry."""
    return post(
        PATH,
        status_code=200,
        operation_class=ArticleOperation,
        summary="Markdown to WeChat article HTML, or a draft in the account's draft box",
        description=DESCRIPTION,
        security=[{API_KEY_SCHEME: []}],
        exception_handlers=article_exception_handlers(),
        responses=_errors(400, 401, 402, 409, 413, 422, 429, 500, 502, 503, 504),
    )(convert_and_draft)
