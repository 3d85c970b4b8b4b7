"""An image's source and the caller's API key → its bytes, downloaded under the fetch policy.

A URL is checked (``app.fetch.sources``) before it waits for a turn (``app.fetch.turns``)
and again at each redirect hop, which is followed by hand; the connection itself goes
through the address guard (``app.fetch.guard``). Limits: redirects, bytes (counted while
streaming; coded bodies refused), one deadline for the whole download (a slow drip beats
per-read timeouts). In a call of ``inkcard mcp`` (stdio) a local path or ``file:`` URL is
read from disk by ``app.localfiles`` (allowed folders only), never otherwise.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable, Iterable
from contextlib import AbstractAsyncContextManager

import httpx

from inkcard.app import localfiles
from inkcard.app.fetch.guard import AddressRefused, GuardedTransport
from inkcard.app.fetch.policy import FetchPolicy
from inkcard.app.fetch.sources import (
    FetchError,
    FetchRefused,
    check_url,
    decode_data_uri,
    describe,
    host_of,
    is_data_uri,
)
from inkcard.app.fetch.turns import FETCHES_PER_KEY, FETCHES_PER_REQUEST, POOL_CONNECTIONS, Turns

log = logging.getLogger("inkcard.fetch")

REDIRECTS = frozenset({301, 302, 303, 307, 308})


class ImageFetcher:
    """Fetches image bytes under one ``FetchPolicy``. Share one per process; close it at the end.

    ``key`` (the API key's id; None for callers without one) decides whose share of the
    pool a fetch takes; see ``FETCHES_PER_KEY``.
    """

    def __init__(
        self,
        policy: FetchPolicy,
        *,
        connections: int = POOL_CONNECTIONS,
        per_key: int = FETCHES_PER_KEY,
    ):
        self.policy = policy
        self._turns = Turns(connections, per_key)
        self._http = httpx.AsyncClient(
            transport=GuardedTransport(policy, connections),
            # pool: a turn always finds a free connection, so a wait there is a bug, not a
            # slow server; it is reported as such (see _follow).
            timeout=httpx.Timeout(
                policy.read_timeout, connect=policy.connect_timeout, pool=policy.connect_timeout
            ),
            follow_redirects=False,  # followed by hand: each hop's URL is checked again
            trust_env=False,  # a proxy from the environment would connect in our place
            headers={"Accept-Encoding": "identity", "Accept": "image/*"},
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> ImageFetcher:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    def batch(self, key: Hashable = None, concurrency: int = FETCHES_PER_REQUEST) -> FetchBatch:
        """A request's fetches: at most ``concurrency`` at once, within ``key``'s share."""
        return FetchBatch(self, key, concurrency)

    async def fetch(self, source: str, key: Hashable = None) -> bytes:
        """The bytes behind ``source`` (an http(s) URL or a ``data:`` URI).

        Raises:
            FetchRefused: Scheme, address, port, redirect count or size not allowed.
            FetchError: The download failed, timed out or answered other than 200.
        """
        return await self.batch(key, 1).fetch(source)

    async def fetch_many(
        self, sources: Iterable[str], key: Hashable = None, concurrency: int = FETCHES_PER_REQUEST
    ) -> dict[str, bytes | FetchError]:
        """Each distinct source fetched once, at most ``concurrency`` at a time."""
        return await self.batch(key, concurrency).fetch_many(sources)

    def _turn(self, key: Hashable, source: str) -> AbstractAsyncContextManager[None]:
        return self._turns.turn(key, host_of(source))

    async def _download(self, source: str) -> bytes:
        """The bytes behind an http(s) URL, within the policy's deadline (the caller holds a
        turn, so none of the time is spent waiting for a connection)."""
        try:
            async with asyncio.timeout(self.policy.timeout):
                return await self._follow(source)
        except TimeoutError:
            raise FetchError(
                source, f"took longer than {self.policy.timeout:g} s to download"
            ) from None

    async def _follow(self, source: str) -> bytes:
        url = source
        for _ in range(self.policy.max_redirects + 1):
            check_url(url)
            try:
                async with self._http.stream("GET", url) as response:
                    if response.status_code in REDIRECTS and "location" in response.headers:
                        url = str(response.url.join(response.headers["location"]))
                        continue
                    if response.status_code != 200:
                        raise FetchError(source, f"answered HTTP {response.status_code}")
                    return await self._read(source, response)
            except AddressRefused as exc:
                hop = "" if url == source else f" (redirected to {describe(url)})"
                raise FetchRefused(source, f"{exc}{hop}") from None
            except httpx.PoolTimeout:  # not the server's fault: say so (see __init__)
                log.warning("image fetch found no free connection although it had its turn")
                raise FetchError(source, "was not started: no connection was free") from None
            except httpx.TimeoutException:
                raise TimeoutError from None
            except (httpx.InvalidURL, ValueError):  # a host or redirect httpx cannot parse
                raise FetchRefused(source, "has a malformed URL") from None
            except httpx.HTTPError as exc:
                log.info("image fetch failed: %s", type(exc).__name__)
                raise FetchError(
                    source, f"could not be downloaded ({type(exc).__name__})"
                ) from None
        raise FetchRefused(
            source,
            f"redirects more than {self.policy.max_redirects} times; the redirects were"
            " followed no further and no image was downloaded",
        )

    async def _read(self, source: str, response: httpx.Response) -> bytes:
        limit = self.policy.max_bytes
        # We ask for identity. A coded body is refused before one byte is decoded: decoding
        # checks the size only after each chunk is inflated, and nested codings (gzip, gzip)
        # turn kilobytes on the wire into gigabytes.
        coding = response.headers.get("content-encoding", "").strip().lower()
        if coding not in ("", "identity"):
            raise FetchRefused(
                source,
                f"was sent with Content-Encoding {coding[:40]!r}; only unencoded images are"
                f" accepted, so it was refused at its headers and its body never downloaded",
            )
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise FetchRefused(
                source,
                f"is larger than {limit} bytes (its Content-Length says {declared[:20]});"
                " it was refused at its headers and its body never downloaded",
            )
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_raw():  # the bytes as sent: nothing is decoded
            size += len(chunk)
            if size > limit:
                raise FetchRefused(
                    source, f"is larger than {limit} bytes; its download was stopped there"
                )
            chunks.append(chunk)
        if not size:
            raise FetchError(source, "is empty")
        return b"".join(chunks)


class FetchBatch:
    """The fetches of one request: at most ``concurrency`` at once, within its key's share.

    ``started`` holds the sources that got their turn, so a caller whose own deadline passes
    can tell an image that was still downloading from one that never began.
    """

    def __init__(self, fetcher: ImageFetcher, key: Hashable, concurrency: int):
        self._fetcher = fetcher
        self._key = key
        self._gate = asyncio.Semaphore(concurrency)
        self.started: set[str] = set()

    async def fetch(self, source: str) -> bytes:
        """As ``ImageFetcher.fetch``; a refused URL is refused before it waits for a turn."""
        if is_data_uri(source):
            return decode_data_uri(source, self._fetcher.policy.max_bytes)
        reader = localfiles.current()  # set only for a call of `inkcard mcp` (stdio)
        if reader is not None and localfiles.is_local(source):
            return await read_local(reader, source, self._fetcher.policy.max_bytes)
        check_url(source)
        async with self._gate, self._fetcher._turn(self._key, source):
            self.started.add(source)
            return await self._fetcher._download(source)

    async def fetch_many(self, sources: Iterable[str]) -> dict[str, bytes | FetchError]:
        """Each distinct source fetched once; a failure is its ``FetchError``, never raised."""

        async def one(source: str) -> bytes | FetchError:
            try:
                return await self.fetch(source)
            except FetchError as exc:
                return exc

        unique = list(dict.fromkeys(sources))
        results = await asyncio.gather(*(one(source) for source in unique))
        return dict(zip(unique, results, strict=True))


async def read_local(reader: localfiles.LocalReader, source: str, max_bytes: int) -> bytes:
    """The bytes of a local image, read as ``reader`` allows (same size limit as a download).

    Raises:
        FetchRefused: Outside the allowed folders, missing, empty or too big.
    """
    try:
        return await asyncio.to_thread(reader.read, source, max_bytes)
    except localfiles.LocalFileRefused as exc:
        raise FetchRefused(source, exc.reason) from None
