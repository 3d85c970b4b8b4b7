"""The platform's answer → nothing when it succeeded, else the typed ``PlatformError`` it means.

The platform answers HTTP 200 even on failure, with ``{"errcode": N, "errmsg": "..."}``; a
present non-zero ``errcode`` is a failure, mapped here to the labels of the original API
(``ip_not_whitelisted``, ``invalid_platform_credentials``, ``platform_rate_limited``,
``image_upload_failed``, ``platform_error``, ``platform_timeout``, ``draft_not_found``),
each with a message that says what the caller can do about it.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from inkcard.app.articles.wechat.records import TITLE_LIMIT
from inkcard.app.errors import ApiError
from inkcard.app.schema import DIGEST_LIMIT  # the platform answers 45004 above it

log = logging.getLogger("inkcard.wechat")

INVALID_MEDIA_ID = 40007  # a media_id (cover, image, or the draft itself) the account lacks
STALE_TOKEN = {40001, 40014, 42001}
_WHITELIST = {40164, 61004}
_CREDENTIALS = {40001, 40013, 40014, 40125, 40243, 41002, 41004, 42001}
_RATE_LIMITS = {45009, 45011}
_UPLOAD_REFUSALS = {40004, 40005, 40006, 40009, 41005, 44001, 45001}
_HINTS = {
    -1: "the platform is busy; try again in a moment",
    INVALID_MEDIA_ID: "a cover's or image's media_id was not accepted",
    45002: "the article is too long",
    45003: f"the title (at most {TITLE_LIMIT} characters) or author is too long",
    45004: f"the digest is longer than {DIGEST_LIMIT} characters",
    45005: "content_source_url is too long",
    45166: "the platform rejected the article's HTML",
    48001: "the account is not authorised for this API (unverified or personal accounts lack some)",
}
_WHITELIST_PLACE = (
    "mp.weixin.qq.com → 设置与开发 → 开发接口管理 → 基本配置 → IP白名单"
    " (Settings and development → Development interface management → Basic configuration"
    " → IP whitelist)"
)
_IP_IN_ERRMSG = re.compile(r"invalid ip ([0-9A-Fa-f:.]+)|\b(\d{1,3}(?:\.\d{1,3}){3})\b")


class PlatformError(ApiError):
    """The platform refused a call or could not be used (502); ``errcode`` when it said one."""

    status = 502
    label = "platform_error"

    def __init__(self, message: str, *, errcode: int | None = None, errmsg: str = ""):
        super().__init__(message)
        self.errcode = errcode
        self.errmsg = errmsg


class IpNotWhitelisted(PlatformError):
    """40164/61004: the server's address is not on the account's IP whitelist."""

    label = "ip_not_whitelisted"

    def __init__(self, message: str, *, ip: str | None, errcode: int, errmsg: str):
        super().__init__(message, errcode=errcode, errmsg=errmsg)
        self.ip = ip


class InvalidPlatformCredentials(PlatformError):
    """Wrong AppID or AppSecret, frozen secret, or a token refused even after a refresh."""

    label = "invalid_platform_credentials"


class PlatformRateLimited(PlatformError):
    """The account's daily or per-minute API quota is used up (45009, 45011)."""

    label = "platform_rate_limited"


class ImageUploadFailed(PlatformError):
    """The platform refused an image (format, size, missing data); the message names it."""

    label = "image_upload_failed"


class PlatformTimeout(PlatformError):
    """The platform did not answer in time (504)."""

    status = 504
    label = "platform_timeout"


class DraftNotFound(PlatformError):
    """``draftMediaId`` names no draft of the account (published, deleted, or another's)."""

    status = 404
    label = "draft_not_found"


def draft_not_found(media_id: str) -> DraftNotFound:
    return DraftNotFound(
        f"the account has no draft {media_id} (published, deleted, or another account's);"
        ' send draftMissing "create" to make a new one; nothing was uploaded or charged',
        errcode=INVALID_MEDIA_ID,
    )


def errcode(body: dict[str, Any]) -> int:
    """The answer's ``errcode`` (0: none, so success; -1: one that is not a number)."""
    try:
        return int(body.get("errcode", 0))
    except (TypeError, ValueError):
        return -1


def raise_for(body: dict[str, Any], appid: str, step: str) -> None:
    """Nothing when the answer to ``step`` for account ``appid`` is a success.

    Raises:
        PlatformError: The refusal the answer's ``errcode`` means, as its subclass.
    """
    code = errcode(body)
    if code == 0:
        return
    errmsg = str(body.get("errmsg", ""))
    log.info("wechat refused %s: errcode %s", step, code)
    if code in _WHITELIST:
        raise _ip_error(code, errmsg, appid)
    detail = f"errcode {code}, {errmsg}"
    if code in _CREDENTIALS:
        raise InvalidPlatformCredentials(
            f"the WeChat platform did not accept AppID {appid} and its AppSecret ({detail})",
            errcode=code,
            errmsg=errmsg,
        )
    if code in _RATE_LIMITS:
        raise PlatformRateLimited(
            f"the account's WeChat API quota is used up ({detail})", errcode=code, errmsg=errmsg
        )
    if code in _UPLOAD_REFUSALS:
        raise ImageUploadFailed(
            f"the WeChat platform refused {step} ({detail})", errcode=code, errmsg=errmsg
        )
    hint = f": {_HINTS[code]}" if code in _HINTS else ""
    raise PlatformError(
        f"the WeChat platform refused {step}{hint} ({detail})", errcode=code, errmsg=errmsg
    )


def _ip_error(code: int, errmsg: str, appid: str) -> IpNotWhitelisted:
    found = _IP_IN_ERRMSG.search(errmsg)
    ip = (found.group(1) or found.group(2)) if found else None
    seen = f"this server's address {ip}" if ip else "this server's address"
    message = (
        f"the WeChat platform refused {seen} for AppID {appid}: it is not on the account's API"
        f" IP whitelist. An administrator adds it at {_WHITELIST_PLACE}; the change takes a few"
        f" minutes (errcode {code})"
    )
    return IpNotWhitelisted(message, ip=ip, errcode=code, errmsg=errmsg)
