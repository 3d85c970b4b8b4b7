"""An account's draft box and its publishing → the platform's calls, answers in our records.

``draft/batchget`` (a page, newest first, without HTML), ``draft/get``, ``draft/delete``,
``freepublish/submit`` (publish a draft; the platform then takes it out of the draft box) and
``freepublish/get`` (where the publish job is). The platform answers 40007 for a draft the
account lacks, which becomes 404 ``draft_not_found``; 48001 means the account lacks the API:
publishing is open only to verified (认证) accounts, and the message says so and what to do.
"""

from __future__ import annotations

from typing import Any

from inkcard.app.articles.wechat.errors import INVALID_MEDIA_ID, DraftNotFound, PlatformError
from inkcard.app.articles.wechat.records import Credentials
from inkcard.app.articles.wechat.transport import PlatformConnection
from inkcard.app.schema.draftbox import (
    DraftArticle,
    DraftPage,
    DraftRead,
    DraftSummary,
    Published,
    PublishedArticle,
    PublishState,
)

UNAUTHORIZED = 48001
PUBLISH_STATUS = {
    0: ("published", "published: the post is live at the links below"),
    1: ("publishing", "still publishing: ask again in a few seconds"),
    2: ("original_check_failed", "not published: the originality (原创) check failed"),
    3: ("failed", "not published: the platform failed to publish it (a regular failure)"),
    4: ("rejected", "not published: the platform's review refused it"),
    5: ("deleted", "published, then every article was deleted by the account"),
    6: ("banned", "published, then every article was blocked by the platform"),
}
_PUBLISH_REFUSALS = {  # freepublish/submit's own codes (reported, not all documented)
    53503: "the draft did not pass the platform's publish check",
    53504: "the draft must be opened and used in the official editor at mp.weixin.qq.com first",
    53505: "the draft must be saved by hand in the official editor before it is published",
}


class PlatformApiUnauthorized(PlatformError):
    """48001: the account lacks this API; publishing needs a verified account (403)."""

    status = 403
    label = "platform_api_unauthorized"


class PublishNotFound(PlatformError):
    """``publishId`` names no publish job of the account (404)."""

    status = 404
    label = "publish_not_found"


_VERIFIED_ONLY = (
    "publishing through the API (freepublish) is open only to verified (认证) service and"
    " subscription accounts: personal and unverified ones lost it, while their draft box still"
    " works"
)
_WHY = {
    "publish": _VERIFIED_ONLY + ". The draft is still in the draft box: publish it by hand at"
    " mp.weixin.qq.com (内容与互动 → 草稿箱, Content → Drafts), or verify the account",
    "status": _VERIFIED_ONLY,
    "drafts": "the account lacks the draft box API; see mp.weixin.qq.com → 设置与开发 → 接口权限"
    " (Settings and development → API permissions)",
}


def _unauthorized(exc: PlatformError, appid: str, doing: str, kind: str) -> PlatformError:
    if exc.errcode != UNAUTHORIZED:
        return exc
    why = _WHY[kind]
    return PlatformApiUnauthorized(
        f"the WeChat platform refused {doing} for AppID {appid}: {why} (errcode 48001,"
        f" api unauthorized); nothing was charged",
        errcode=UNAUTHORIZED,
        errmsg=exc.errmsg,
    )


def _missing_draft(media_id: str) -> DraftNotFound:
    return DraftNotFound(
        f"the account has no draft {media_id} (published, deleted, or another account's);"
        " GET /api/platform/drafts lists the drafts it has; nothing was charged",
        errcode=INVALID_MEDIA_ID,
    )


async def _draft_call(
    conn: PlatformConnection,
    creds: Credentials,
    path: str,
    payload: dict[str, Any],
    doing: str,
    *,
    media_id: str = "",
    changes: bool = False,
    kind: str = "drafts",
) -> dict[str, Any]:
    try:
        return await conn.call_json(creds, path, payload, doing, changes=changes)
    except PlatformError as exc:
        if media_id and exc.errcode == INVALID_MEDIA_ID:
            raise _missing_draft(media_id) from None
        hint = _PUBLISH_REFUSALS.get(exc.errcode or 0) if kind == "publish" else None
        if hint is not None:
            raise PlatformError(
                f"the WeChat platform refused to publish draft {media_id}: {hint}"
                f" (errcode {exc.errcode}, {exc.errmsg}); nothing was charged",
                errcode=exc.errcode,
                errmsg=exc.errmsg,
            ) from None
        raise _unauthorized(exc, creds.appid, doing, kind) from None


def _article(item: Any, *, with_content: bool) -> DraftArticle:
    item = item if isinstance(item, dict) else {}
    return DraftArticle(
        title=str(item.get("title", "")),
        author=str(item.get("author", "")),
        digest=str(item.get("digest", "")),
        article_type=str(item.get("article_type", "news")) or "news",
        url=str(item.get("url", "")),
        thumb_media_id=str(item.get("thumb_media_id", "")),
        content_source_url=str(item.get("content_source_url", "")),
        content=str(item.get("content", "")) if with_content else None,
    )


def _articles(items: Any, *, with_content: bool) -> list[DraftArticle]:
    return [_article(item, with_content=with_content) for item in _list(items)]


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


async def list_drafts(
    conn: PlatformConnection, creds: Credentials, offset: int, count: int
) -> DraftPage:
    """A page of ``count`` (1..20) drafts from ``offset``, newest first, without HTML."""
    payload = {"offset": offset, "count": count, "no_content": 1}
    body = await _draft_call(conn, creds, "/cgi-bin/draft/batchget", payload, "the draft list")
    drafts = [
        DraftSummary(
            media_id=str(item.get("media_id", "")),
            update_time=_int(item.get("update_time")),
            articles=_articles((item.get("content") or {}).get("news_item"), with_content=False),
        )
        for item in _list(body.get("item"))
        if isinstance(item, dict)
    ]
    return DraftPage(total_count=_int(body.get("total_count")), offset=offset, drafts=drafts)


async def get_draft(conn: PlatformConnection, creds: Credentials, media_id: str) -> DraftRead:
    """Draft ``media_id`` with its HTML (404 ``draft_not_found`` when the account lacks it)."""
    body = await _draft_call(
        conn, creds, "/cgi-bin/draft/get", {"media_id": media_id}, "the draft lookup",
        media_id=media_id,
    )  # fmt: skip
    return DraftRead(
        media_id=media_id, articles=_articles(body.get("news_item"), with_content=True)
    )


async def delete_draft(conn: PlatformConnection, creds: Credentials, media_id: str) -> None:
    """Delete draft ``media_id`` (404 ``draft_not_found`` when the account lacks it)."""
    await _draft_call(
        conn, creds, "/cgi-bin/draft/delete", {"media_id": media_id}, "the draft deletion",
        media_id=media_id, changes=True,
    )  # fmt: skip


async def publish(conn: PlatformConnection, creds: Credentials, media_id: str) -> Published:
    """Submit draft ``media_id`` for publishing; the job's id (its state: ``publish_state``)."""
    body = await _draft_call(
        conn, creds, "/cgi-bin/freepublish/submit", {"media_id": media_id}, "publishing",
        media_id=media_id, changes=True, kind="publish",
    )  # fmt: skip
    publish_id = str(body.get("publish_id", ""))
    if not publish_id:
        raise PlatformError("the platform's publish answer held no publish_id")
    return Published(publish_id=publish_id, msg_data_id=_int(body.get("msg_data_id")))


def status_words(code: int) -> tuple[str, str]:
    """The platform's ``publish_status`` → our word for it and a sentence."""
    return PUBLISH_STATUS.get(code, (f"unknown_{code}", f"in a state the platform numbers {code}"))


async def publish_state(
    conn: PlatformConnection, creds: Credentials, publish_id: str
) -> PublishState:
    """Where publish job ``publish_id`` is (404 ``publish_not_found`` for none of the account)."""
    try:
        body = await _draft_call(
            conn, creds, "/cgi-bin/freepublish/get", {"publish_id": publish_id},
            "the publish status", kind="status",
        )  # fmt: skip
    except PlatformError as exc:
        if exc.errcode != INVALID_MEDIA_ID:
            raise
        raise PublishNotFound(
            f"the account has no publish job {publish_id} (the id POST /api/platform/publish"
            " answered, for this account)",
            errcode=exc.errcode,
            errmsg=exc.errmsg,
        ) from None
    code = _int(body.get("publish_status"))
    detail = body.get("article_detail") if isinstance(body.get("article_detail"), dict) else {}
    links = [
        PublishedArticle(index=_int(item.get("idx")), url=str(item.get("article_url", "")))
        for item in _list((detail or {}).get("item"))
        if isinstance(item, dict)
    ]
    return PublishState(
        publish_id=publish_id,
        status=status_words(code)[0],
        publish_status=code,
        article_id=str(body.get("article_id", "") or ""),
        articles=links,
        failed=[_int(index) for index in _list(body.get("fail_idx"))],
    )
