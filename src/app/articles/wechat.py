"""Client for the WeChat platform API: access tokens, image uploads, the cover, the draft.

The platform answers HTTP 200 even on failure, with ``{"errcode": N, "errmsg": "..."}``; a
present non-zero ``errcode`` is a failure, mapped here to typed ``PlatformError``s carrying
the labels of the original API (``ip_not_whitelisted``, ``invalid_platform_credentials``,
``platform_rate_limited``, ``image_upload_failed``, ``platform_error``,
``platform_timeout``). Tokens come from ``POST /cgi-bin/stable_token`` (the classic
``/cgi-bin/token`` would invalidate tokens other systems of the account hold) and are cached
in the database (``app.tokens``); a business call answered 40001/42001/40014 drops the
token, fetches another and retries once.

AppSecrets and tokens never reach a log line or an error: the secret travels only in the
token request's body, and httpx's request log lines (which print full URLs, the
``access_token`` query included) pass through a redacting filter.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

import httpx

from app.articles.tokens import TokenCache
from app.errors import ApiError
from app.ledger.engine import FetchLock
from app.schema import DIGEST_LIMIT  # the platform answers 45004 above it
from app.settings import Settings

log = logging.getLogger("inkcard.wechat")

TITLE_LIMIT = 32  # characters; the platform answers 45003 above

INVALID_MEDIA_ID = 40007  # a media_id (cover, image, or the draft itself) the account lacks
_STALE_TOKEN = {40001, 40014, 42001}
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


# Errors


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


# Data


class WireArticle(Protocol):
    def to_wire(self) -> dict[str, Any]: ...

    def with_media(self, new_ids: dict[str, str]) -> WireArticle:
        """The article with its permanent images' media_ids replaced as ``new_ids`` says."""
        ...


@dataclass(frozen=True, slots=True)
class Credentials:
    """One account's AppID and AppSecret; the secret is left out of ``repr``."""

    appid: str
    secret: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class DraftArticle:
    """One article of ``draft/add``. Empty optional fields are left out of the request."""

    title: str
    content: str
    thumb_media_id: str
    author: str = ""
    digest: str = ""
    content_source_url: str = ""
    need_open_comment: bool = False
    only_fans_can_comment: bool = False
    pic_crop_235_1: str = ""  # X1_Y1_X2_Y2 fractions of the cover: the feed's 2.35:1 crop
    pic_crop_1_1: str = ""  # ... and the square thumbnail's

    def to_wire(self) -> dict[str, Any]:
        """The article object of the request body; the comment flags always, as 0 or 1."""
        article: dict[str, Any] = {
            "article_type": "news",
            "title": self.title,
            "content": self.content,
            "thumb_media_id": self.thumb_media_id,
            "need_open_comment": int(self.need_open_comment),
            "only_fans_can_comment": int(self.only_fans_can_comment),
        }
        for name in ("author", "digest", "content_source_url", "pic_crop_235_1", "pic_crop_1_1"):
            if value := getattr(self, name):
                article[name] = value
        return article

    def with_media(self, new_ids: dict[str, str]) -> DraftArticle:
        thumb = new_ids.get(self.thumb_media_id, self.thumb_media_id)
        return dataclasses.replace(self, thumb_media_id=thumb)


@dataclass(frozen=True, slots=True)
class NewspicArticle:
    """The image post (``article_type`` newspic) of ``draft/add``: plain text and permanent
    images in order, the first the cover."""

    title: str
    content: str
    image_media_ids: tuple[str, ...]

    def to_wire(self) -> dict[str, Any]:
        images = [{"image_media_id": media_id} for media_id in self.image_media_ids]
        return {
            "article_type": "newspic",
            "title": self.title,
            "content": self.content,
            "image_info": {"image_list": images},
        }

    def with_media(self, new_ids: dict[str, str]) -> NewspicArticle:
        ids = tuple(new_ids.get(media_id, media_id) for media_id in self.image_media_ids)
        return dataclasses.replace(self, image_media_ids=ids)


@dataclass(frozen=True, slots=True)
class Material:
    """A permanent image of the account's library: its ``media_id`` and its URL."""

    media_id: str
    url: str


# Logging


class _RedactSecrets(logging.Filter):
    """Masks ``access_token=`` and ``secret=`` values in a record's final message."""

    _PATTERN = re.compile(r"(access_token|secret)=[^&\s\"']+")

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = self._PATTERN.sub(r"\1=[redacted]", message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


def _install_redaction() -> None:
    for name in ("httpx", "httpcore"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _RedactSecrets) for f in logger.filters):
            logger.addFilter(_RedactSecrets())


_install_redaction()


# The client


class WeChatClient:
    """Calls the platform at ``base_url``; one instance may serve many accounts at once."""

    def __init__(
        self,
        base_url: str,
        tokens: TokenCache,
        *,
        timeout: float = 20.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ):
        self.tokens = tokens
        self.timeout = timeout
        self._host = urlsplit(base_url).netloc
        self._http = httpx.AsyncClient(
            base_url=base_url.rstrip("/"),
            timeout=httpx.Timeout(timeout),
            trust_env=False,  # relays are configured as the base URL, not via proxy variables
            transport=transport,
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> WeChatClient:
        """A client for ``INKCARD_WECHAT_API_BASE`` caching tokens in the service database."""
        return cls(
            settings.wechat_api_base,
            TokenCache(settings.database),
            timeout=settings.wechat_timeout,
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> WeChatClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    # Tokens

    async def stable_token(self, creds: Credentials) -> str:
        """The account's access token: from the shared cache, else a fresh ``stable_token``.

        One process of the deployment fetches at a time (a lock in the shared database): the
        others wait for it and take the token it cached. A lock not won within the platform
        timeout (a stuck holder) does not stop this request; it fetches on its own.
        """
        cached = self.tokens.get(creds.appid, creds.secret)
        if cached is not None:
            return cached
        lock = self.tokens.fetch_lock(creds.appid, creds.secret)
        acquiring = asyncio.ensure_future(asyncio.to_thread(lock.acquire, self.timeout))
        try:
            held = await asyncio.shield(acquiring)
        except asyncio.CancelledError:
            # The thread still waits for the lock: whoever gets it must let it go again.
            acquiring.add_done_callback(lambda done: _release_if_held(lock, done))
            raise
        try:
            cached = await asyncio.to_thread(self.tokens.get, creds.appid, creds.secret)
            return cached if cached is not None else await self._fetch_token(creds)
        finally:
            if held:
                await asyncio.shield(asyncio.to_thread(lock.release))

    async def _fetch_token(self, creds: Credentials) -> str:
        payload = {
            "grant_type": "client_credential",
            "appid": creds.appid,
            "secret": creds.secret,
            "force_refresh": False,  # forced refreshes have a tiny daily quota
        }
        body = await self._send(
            lambda: self._http.post("/cgi-bin/stable_token", content=_json(payload), headers=_JSON)
        )
        self._raise_for(body, creds, "the access token request")
        token = body.get("access_token")
        if not isinstance(token, str) or not token:
            raise PlatformError("the platform's token answer held no access_token")
        self.tokens.put(creds.appid, creds.secret, token, float(body.get("expires_in", 7200)))
        log.debug("wechat token issued for appid %s", creds.appid)
        return token

    # Business calls

    async def upload_article_image(
        self, creds: Credentials, data: bytes, filename: str, *, source: str
    ) -> str:
        """Upload a JPEG/PNG under 1 MB for the article body (``media/uploadimg``).

        ``filename`` must carry the extension (``image.png``); ``source`` names the image in
        errors. Returns the platform's image URL, as https.
        """
        body = await self._call(
            creds,
            f"the upload of image {source}",
            lambda token: self._http.post(
                "/cgi-bin/media/uploadimg",
                params={"access_token": token},
                files={"media": (filename, data, _mime(filename))},
            ),
        )
        return _https(_string(body, "url"))

    async def add_cover(
        self, creds: Credentials, data: bytes, filename: str, *, source: str = "the cover"
    ) -> str:
        """Upload the cover as permanent image material; returns its ``media_id``."""
        material = await self.add_image(creds, data, filename, step=f"cover image {source}")
        return material.media_id

    async def add_image(
        self, creds: Credentials, data: bytes, filename: str, *, step: str
    ) -> Material:
        """Upload a permanent image (``material/add_material``, type image)."""
        body = await self._call(
            creds,
            f"the upload of {step}",
            lambda token: self._http.post(
                "/cgi-bin/material/add_material",
                params={"access_token": token, "type": "image"},
                files={"media": (filename, data, _mime(filename))},
            ),
        )
        return Material(_string(body, "media_id"), _https(str(body.get("url", ""))))

    async def update_draft(self, creds: Credentials, media_id: str, article: WireArticle) -> str:
        """Replace the first article of draft ``media_id`` (``draft/update``); returns the id.

        The platform answers 40007 both for a draft that is gone and for a media_id of the
        article it does not accept; ``draft/get`` tells the two apart.

        Raises:
            DraftNotFound: The account has no such draft.
            PlatformError: errcode 40007 for a media_id of the article, or another refusal.
        """
        payload = {"media_id": media_id, "index": 0, "articles": article.to_wire()}
        try:
            await self._to_its_answer("/cgi-bin/draft/update", payload, creds, "the draft update")
        except PlatformError as exc:
            if exc.errcode != INVALID_MEDIA_ID or await self.draft_exists(creds, media_id):
                raise
            raise draft_not_found(media_id) from None
        return media_id

    async def draft_exists(self, creds: Credentials, media_id: str) -> bool:
        """True when the account has draft ``media_id`` (``draft/get``; 40007: it has not)."""
        try:
            await self._call(
                creds,
                "the draft lookup",
                lambda token: self._http.post(
                    "/cgi-bin/draft/get",
                    params={"access_token": token},
                    content=_json({"media_id": media_id}),
                    headers=_JSON,
                ),
            )
        except PlatformError as exc:
            if exc.errcode == INVALID_MEDIA_ID:
                return False
            raise
        return True

    async def add_draft(self, creds: Credentials, article: WireArticle) -> str:
        """Create a draft holding ``article``; returns the draft's ``media_id``.

        Once sent, the call is awaited to its answer (its own timeout bounds it) even if the
        request is cancelled meanwhile (its client left, its deadline passed): the platform
        may make the draft whatever we do now, and a draft it made is answered and charged,
        so a retry replays it rather than making a second one.
        """
        payload = {"articles": [article.to_wire()]}
        answer = await self._to_its_answer("/cgi-bin/draft/add", payload, creds, "the draft")
        return _string(answer, "media_id")

    async def _to_its_answer(
        self, path: str, payload: dict[str, Any], creds: Credentials, step: str
    ) -> dict[str, Any]:
        """A JSON call that changes a draft, awaited to its answer even when cancelled."""
        call = asyncio.ensure_future(
            self._call(
                creds,
                step,
                lambda token: self._http.post(
                    path, params={"access_token": token}, content=_json(payload), headers=_JSON
                ),
            )
        )
        while not call.done():
            try:
                await asyncio.wait([call])
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None:
                    task.uncancel()  # the cancel is dropped: the draft's answer wins
        return call.result()

    async def _call(
        self,
        creds: Credentials,
        step: str,
        request: Callable[[str], Awaitable[httpx.Response]],
    ) -> dict[str, Any]:
        token = await self.stable_token(creds)
        body = await self._send(lambda: request(token))
        if _errcode(body) in _STALE_TOKEN:
            log.debug(
                "wechat token refused (%s) for appid %s; refreshing", _errcode(body), creds.appid
            )
            self.tokens.drop(creds.appid, creds.secret, token)
            token = await self.stable_token(creds)
            body = await self._send(lambda: request(token))
        self._raise_for(body, creds, step)
        return body

    async def _send(self, request: Callable[[], Awaitable[httpx.Response]]) -> dict[str, Any]:
        # Messages name only the host: httpx's own exception texts hold the token-bearing URL.
        try:
            async with asyncio.timeout(self.timeout):  # a slow drip beats per-read timeouts
                response = await request()
        except (TimeoutError, httpx.TimeoutException):
            raise PlatformTimeout(
                f"the WeChat platform at {self._host} did not answer within {self.timeout:g} s"
            ) from None
        except httpx.TransportError as exc:
            raise PlatformError(
                f"could not reach the WeChat platform at {self._host} ({type(exc).__name__})"
            ) from None
        return _parse(response)

    def _raise_for(self, body: dict[str, Any], creds: Credentials, step: str) -> None:
        code = _errcode(body)
        if code == 0:
            return
        errmsg = str(body.get("errmsg", ""))
        log.info("wechat refused %s: errcode %s", step, code)
        if code in _WHITELIST:
            raise _ip_error(code, errmsg, creds.appid)
        detail = f"errcode {code}, {errmsg}"
        if code in _CREDENTIALS:
            raise InvalidPlatformCredentials(
                f"the WeChat platform did not accept AppID {creds.appid} and its AppSecret"
                f" ({detail})",
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


# Wire helpers

_JSON = {"Content-Type": "application/json; charset=utf-8"}


def _json(payload: object) -> bytes:
    # Raw UTF-8, never \\uXXXX escapes: the platform stores escaped titles literally.
    return json.dumps(payload, ensure_ascii=False).encode("utf-8")


def _parse(response: httpx.Response) -> dict[str, Any]:
    # The platform's Content-Type is unreliable; the body is JSON whatever the header says.
    try:
        body = json.loads(response.content)
    except ValueError:
        body = None
    if response.status_code != 200 or not isinstance(body, dict):
        raise PlatformError(
            f"the WeChat platform answered HTTP {response.status_code} without a JSON object"
        )
    return body


def _errcode(body: dict[str, Any]) -> int:
    try:
        return int(body.get("errcode", 0))
    except (TypeError, ValueError):
        return -1


def _string(body: dict[str, Any], name: str) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not value:
        raise PlatformError(f"the platform's answer held no {name}")
    return value


def _https(url: str) -> str:
    return "https://" + url.removeprefix("http://") if url.startswith("http://") else url


def _mime(filename: str) -> str:
    extension = filename.rsplit(".", 1)[-1].lower()
    return {"png": "image/png", "gif": "image/gif", "bmp": "image/bmp"}.get(extension, "image/jpeg")


def _release_if_held(lock: FetchLock, acquired: asyncio.Future[bool]) -> None:
    if not acquired.cancelled() and acquired.exception() is None and acquired.result():
        lock.release()
