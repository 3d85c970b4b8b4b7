"""A call of the WeChat platform API → its JSON answer, sent with the account's access token.

Tokens come from ``POST /cgi-bin/stable_token`` (the classic ``/cgi-bin/token`` would
invalidate tokens other systems of the account hold) and are cached in the database
(``app.articles.wechat.tokens``); a business call answered 40001/42001/40014 drops the
token, fetches another and retries once. A refusal becomes its typed error
(``app.articles.wechat.errors``); a platform that does not answer in time, ``PlatformTimeout``.

AppSecrets and tokens never reach a log line or an error: the secret travels only in the
token request's body, and httpx's request log lines (which print full URLs, the
``access_token`` query included) pass through a redacting filter.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, Self
from urllib.parse import urlsplit

import httpx

from inkcard.app.articles.wechat.errors import STALE_TOKEN, PlatformError, PlatformTimeout, errcode
from inkcard.app.articles.wechat.errors import raise_for as raise_for_refusal
from inkcard.app.articles.wechat.records import Credentials
from inkcard.app.articles.wechat.tokens import TokenCache
from inkcard.app.ledger.engine import FetchLock

log = logging.getLogger("inkcard.wechat")

JSON_HEADERS = {"Content-Type": "application/json; charset=utf-8"}


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


class PlatformConnection:
    """Sends calls to the platform at ``base_url``; one instance may serve many accounts at
    once. ``WeChatClient`` adds the calls themselves."""

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

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
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
            lambda: self._http.post(
                "/cgi-bin/stable_token", content=json_body(payload), headers=JSON_HEADERS
            )
        )
        raise_for_refusal(body, creds.appid, "the access token request")
        token = body.get("access_token")
        if not isinstance(token, str) or not token:
            raise PlatformError("the platform's token answer held no access_token")
        self.tokens.put(creds.appid, creds.secret, token, float(body.get("expires_in", 7200)))
        log.debug("wechat token issued for appid %s", creds.appid)
        return token

    # Calls

    async def call_json(
        self,
        creds: Credentials,
        path: str,
        payload: dict[str, Any],
        step: str,
        *,
        changes: bool = False,
    ) -> dict[str, Any]:
        """A JSON business call at ``path`` → its answer; a refusal raised as its typed error.
        ``changes``: it changes the account (a delete, a publish), so once sent it is awaited
        to its answer even if the request is cancelled meanwhile."""
        if changes:
            return await self._to_its_answer(path, payload, creds, step)
        return await self._call(creds, step, self._json_post(path, payload))

    def _json_post(
        self, path: str, payload: dict[str, Any]
    ) -> Callable[[str], Awaitable[httpx.Response]]:
        """How a JSON business call at ``path`` is sent, given the access token."""
        return lambda token: self._http.post(
            path,
            params={"access_token": token},
            content=json_body(payload),
            headers=JSON_HEADERS,
        )

    async def _to_its_answer(
        self, path: str, payload: dict[str, Any], creds: Credentials, step: str
    ) -> dict[str, Any]:
        """A JSON call that changes a draft, awaited to its answer even when cancelled."""
        call = asyncio.ensure_future(self._call(creds, step, self._json_post(path, payload)))
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
        if errcode(body) in STALE_TOKEN:
            log.debug(
                "wechat token refused (%s) for appid %s; refreshing", errcode(body), creds.appid
            )
            self.tokens.drop(creds.appid, creds.secret, token)
            token = await self.stable_token(creds)
            body = await self._send(lambda: request(token))
        raise_for_refusal(body, creds.appid, step)
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


def json_body(payload: object) -> bytes:
    """A request body in raw UTF-8, never ``\\uXXXX`` escapes: the platform stores escaped
    titles literally."""
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


def _release_if_held(lock: FetchLock, acquired: asyncio.Future[bool]) -> None:
    if not acquired.cancelled() and acquired.exception() is None and acquired.result():
        lock.release()
