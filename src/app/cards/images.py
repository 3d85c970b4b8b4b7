"""The remote images of a card request, fetched before rendering (the engine does no I/O).

Every image source of the Markdown that is not a ``data:`` URI goes through the shared
``ImageFetcher`` (http/https only, public addresses checked at connect time, redirects,
bytes and time bounded; a request and its API key take a bounded share of the connections),
at most ``MAX_IMAGES`` per request, all within one phase deadline. The bytes must then
pass ``probe_image``: type from the magic bytes (SVG and anything else refused),
side, pixel and frame limits read from the header before anything is decoded. What fails
any step is simply left out: the card shows the placeholder with the alt text, and the
request goes on. In a call of ``inkcard mcp`` (stdio) the fetcher reads local paths from
disk instead (``app.localfiles``); those are never cached.

Accepted bytes are kept for ``ttl`` seconds by URL, in a cache bounded in bytes, so a
request repeated within minutes neither downloads nor probes its images again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field

from inkcard import layout
from inkcard.app import localfiles
from inkcard.app.cache import BoundedCache
from inkcard.app.fetch import FETCHES_PER_REQUEST, FetchBatch, FetchError, ImageFetcher, host_of
from inkcard.app.settings import MIB
from inkcard.layout.draw import probe_image

log = logging.getLogger("inkcard.card_images")

MAX_IMAGES = 20  # distinct remote sources fetched per request; the rest are placeholders
PHASE_TIMEOUT = 15.0  # seconds for all the fetches of one request
CACHE_SECONDS = 300.0
CACHE_BYTES = 64 * MIB


@dataclass(frozen=True, slots=True)
class Gathered:
    """The outcome of one request's fetch phase."""

    images: dict[str, bytes] = field(default_factory=dict)
    """Accepted bytes by source, in the order the Markdown names them."""
    refused: dict[str, str] = field(default_factory=dict)
    """Why each other remote source became a placeholder (safe to log)."""

    def hashes(self) -> tuple[tuple[str, str], ...]:
        """(source, sha256 of its bytes) of every accepted image, for the cache key."""
        return tuple((src, hashlib.sha256(data).hexdigest()) for src, data in self.images.items())


@dataclass(frozen=True, slots=True)
class _Accepted:
    data: bytes
    pixels: int

    def size(self) -> int:
        """What the image takes of the cache's bound: its bytes."""
        return len(self.data)


class RemoteImages:
    """Fetches and checks the remote images of card requests; one per process."""

    def __init__(
        self,
        fetcher: ImageFetcher,
        *,
        max_images: int = MAX_IMAGES,
        concurrency: int = FETCHES_PER_REQUEST,
        timeout: float = PHASE_TIMEOUT,
        cache_seconds: float = CACHE_SECONDS,
        cache_bytes: int = CACHE_BYTES,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.fetcher = fetcher
        self.max_images = max_images
        self.concurrency = concurrency
        self.timeout = timeout
        self.cache: BoundedCache[str, _Accepted] = BoundedCache(
            cache_seconds, cache_bytes, size=_Accepted.size, clock=clock
        )
        self.downloads = 0
        """Fetches that went to the network (cache misses), for tests and logs."""

    async def gather(
        self,
        sources: Iterable[str],
        max_pixels: int | None = None,
        timeout: float | None = None,
        key: Hashable = None,
    ) -> Gathered:
        """Accepted bytes of every remote source (``data:`` URIs are the engine's own).

        ``max_pixels`` bounds width × height summed over the accepted images, in source
        order; an image that would overrun it is left out like any refused one. Never
        raises for a bad image; the phase ends after ``timeout`` (default ``self.timeout``)
        and whatever has not arrived by then is a placeholder. ``key`` (the API key's id)
        decides whose share of the fetcher's connections the downloads take.
        """
        remote = [s for s in dict.fromkeys(sources) if s and s[:5].lower() != "data:"]
        wanted, extra = remote[: self.max_images], remote[self.max_images :]
        refused = dict.fromkeys(extra, f"is past the first {self.max_images} remote images")
        seconds = self.timeout if timeout is None else timeout
        batch = self.fetcher.batch(key, self.concurrency)
        results = await self._fetch_all(batch, wanted, seconds)
        images: dict[str, bytes] = {}
        pixels = 0
        for src in wanted:
            result = results.get(src)
            if result is None:
                refused[src] = _unfinished(src in batch.started, seconds)
            elif isinstance(result, str):
                refused[src] = result
            elif max_pixels is not None and pixels + result.pixels > max_pixels:
                refused[src] = f"would take the images over {max_pixels:,} pixels"
            else:
                pixels += result.pixels
                images[src] = result.data
        for src, reason in refused.items():
            # The host only: a URL's path and query may carry the caller's tokens.
            brief = reason.split(" (redirected to ", 1)[0]
            log.info("remote image on %s left as a placeholder: %s", host_of(src), brief)
        return Gathered(images, refused)

    async def _fetch_all(
        self, batch: FetchBatch, sources: list[str], timeout: float
    ) -> dict[str, _Accepted | str]:
        results: dict[str, _Accepted | str] = {}

        async def one(src: str) -> None:
            results[src] = await self._one(batch, src)

        tasks = [asyncio.ensure_future(one(src)) for src in sources]
        if not tasks:
            return results
        _, pending = await asyncio.wait(tasks, timeout=max(0.0, timeout))
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        return results

    async def _one(self, batch: FetchBatch, src: str) -> _Accepted | str:
        # a local file may change, and a relative path means another file in another folder
        cacheable = localfiles.current() is None or not localfiles.is_local(src)
        cached = self.cache.get(src) if cacheable else None
        if cached is not None:
            return cached
        self.downloads += 1
        try:
            data = await batch.fetch(src)
        except FetchError as exc:
            return exc.reason
        try:
            # Reads only the header (type from magic bytes, sides, pixels, frame count).
            info = await asyncio.to_thread(probe_image, data)
        except layout.ImageRejected as exc:
            return str(exc)
        accepted = _Accepted(data, info.width * info.height)
        if cacheable:
            self.cache.put(src, accepted)
        return accepted


def _unfinished(started: bool, seconds: float) -> str:
    """Why an image the phase deadline cut off is a placeholder: still downloading, or never
    begun because other images held every turn it could have had."""
    if started:
        return f"was still being fetched when the {seconds:.3g} s for fetching images ran out"
    return (
        f"was never fetched: the {seconds:.3g} s for fetching images ran out while it waited"
        " for its turn (a request and an API key fetch a few images at a time)"
    )
