"""An account's draft box and publishing, for an authenticated key → answers, priced.

Reading the draft box (a page, one draft), deleting a draft and a publish job's status are
free (``Prices.draft_box``): they call the platform and answer, nothing is held or charged.
Publishing a draft costs what a draft costs (``Prices.publish``) on the publishing calls' paid
path (``app.operations.publishing``): the balance minimum checked, the price held, charged
only when the platform took the draft, a retry (``Idempotency-Key``, or the same draft again
within ten minutes) answered again and never submitted twice.
"""

from __future__ import annotations

import asyncio
import functools

from inkcard.app.articles.wechat import Credentials, PlatformTimeout, WeChatClient, draftbox
from inkcard.app.errors import InvalidField
from inkcard.app.ledger.credits import KeyInfo
from inkcard.app.operations.publishing import (
    ArticleAnswer,
    PlatformCall,
    pay_platform,
    request_fingerprint,
    short_of_minimum,
)
from inkcard.app.schema import (
    DraftDeleteResponse,
    DraftGetResponse,
    DraftListResponse,
    PublishRequest,
    PublishResponse,
    PublishStatusResponse,
)
from inkcard.app.schema.draftbox import OFFSET_LIMIT, PAGE_LIMIT, DraftGone, Published
from inkcard.app.schema.platform import MEDIA_ID_LIMIT
from inkcard.app.services import Services

OPERATION = "publish"  # in the ledger and the metrics


def _connection(services: Services) -> WeChatClient:
    client = services.articles.wechat
    assert client is not None, "the services are not running"
    return client


def page_bounds(offset: str | None, count: str | None) -> tuple[int, int]:
    """The ``offset`` and ``count`` query values as numbers (0 and 20 when absent).

    Raises:
        InvalidField: Not whole numbers, or out of range (400).
    """
    numbers = []
    for name, text, low, high, default in (
        ("offset", offset, 0, OFFSET_LIMIT, 0),
        ("count", count, 1, PAGE_LIMIT, PAGE_LIMIT),
    ):
        try:
            value = default if text is None else int(text)
        except ValueError:
            value = -1
        if not low <= value <= high:
            raise InvalidField(
                f"{name} must be a whole number from {low} to {high}", label=f"invalid_{name}"
            )
        numbers.append(value)
    return numbers[0], numbers[1]


def check_id(value: str, name: str) -> str:
    """A media_id or publish_id from the path: 1 to 128 printable ASCII characters.

    Raises:
        InvalidField: It is not (400).
    """
    if not 0 < len(value) <= MEDIA_ID_LIMIT or not all("!" <= c <= "~" for c in value):
        raise InvalidField(
            f"{name} must be 1 to {MEDIA_ID_LIMIT} printable ASCII characters",
            label=f"invalid_{name.lower()}",
        )
    return value


async def list_drafts(
    services: Services, creds: Credentials, offset: int, count: int
) -> DraftListResponse:
    """A page of the account's drafts, newest first (free)."""
    page = await draftbox.list_drafts(_connection(services), creds, offset, count)
    shown = len(page.drafts)
    return DraftListResponse(
        success=True,
        message=f"{shown} of the account's {page.total_count} drafts, from {offset}",
        data=page,
    )


async def get_draft(services: Services, creds: Credentials, media_id: str) -> DraftGetResponse:
    """One draft of the account with its HTML (free)."""
    draft = await draftbox.get_draft(_connection(services), creds, check_id(media_id, "mediaId"))
    titles = ", ".join(f"“{article.title}”" for article in draft.articles)
    return DraftGetResponse(success=True, message=f"draft {media_id}: {titles}", data=draft)


async def delete_draft(
    services: Services, creds: Credentials, media_id: str
) -> DraftDeleteResponse:
    """Delete one draft of the account (free)."""
    await draftbox.delete_draft(_connection(services), creds, check_id(media_id, "mediaId"))
    return DraftDeleteResponse(
        success=True,
        message=f"draft {media_id} deleted from the account's draft box",
        data=DraftGone(media_id=media_id),
    )


async def publish_status(
    services: Services, creds: Credentials, publish_id: str
) -> PublishStatusResponse:
    """Where a publish job is, in plain words (free)."""
    state = await draftbox.publish_state(
        _connection(services), creds, check_id(publish_id, "publishId")
    )
    sentence = draftbox.status_words(state.publish_status)[1]
    if state.failed:
        sentence += " (articles " + ", ".join(map(str, state.failed)) + " failed)"
    return PublishStatusResponse(
        success=True, message=f"publish job {publish_id}: {sentence}", data=state
    )


async def publish_draft(
    services: Services,
    key: KeyInfo,
    body: PublishRequest,
    creds: Credentials,
    idem_key: str | None,
    request_id: str | None,
    gone: asyncio.Event | None = None,
) -> ArticleAnswer:
    """Submit the draft for publishing, at its price; any failure charges nothing."""
    prices = services.settings.prices
    call = PlatformCall(
        key,
        OPERATION,
        request_fingerprint(body, creds),
        idem_key,
        request_id,
        short_of_minimum("publish", f"publishing a draft costs {prices.publish}", prices),
    )
    work = functools.partial(_publish, services, body.draftMediaId, creds, prices.publish)
    return await pay_platform(services, call, work, prices.publish, gone)


async def _publish(
    services: Services, media_id: str, creds: Credentials, price: int
) -> PublishResponse:
    seconds = services.settings.article_timeout
    try:
        async with asyncio.timeout(seconds):
            job = await draftbox.publish(_connection(services), creds, media_id)
    except TimeoutError:
        raise PlatformTimeout(
            f"publishing took longer than {seconds:g} s; nothing was charged"
        ) from None
    return PublishResponse(
        success=True,
        message=f"draft {media_id} submitted for publishing (it leaves the draft box);"
        f" GET /api/platform/publish/{job.publish_id} tells when it is live",
        data=Published(publish_id=job.publish_id, msg_data_id=job.msg_data_id, cost=price),
    )
