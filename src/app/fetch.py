"""Fetching images named by untrusted Markdown without letting it reach inside the network.

Only http and https on ports 80/443 are fetched. The address check happens where the
socket is opened: every TCP connect (the first request and each redirect hop) resolves the
host, refuses it if *any* resolved address is on the block list, and connects to the very
address it checked, so DNS rebinding has no second lookup to exploit. IPv4 addresses
embedded in IPv6 ones (mapped, NAT64, 6to4, Teredo) are unwrapped and checked too; Python
3.11's ``is_private``/``is_global`` tables are not trusted on their own.

Limits: redirects, bytes (counted while streaming; coded bodies refused), one deadline for
the whole download (a slow drip beats per-read timeouts). ``data:`` URIs are decoded, not
fetched. In a call of ``inkcard mcp`` (stdio) a local path or ``file:`` URL is read from disk
by ``app.localfiles`` (allowed folders only), never otherwise. ``FetchPolicy.exempt`` lets
tests (``INKCARD_ALLOW_PRIVATE_FETCH=1``) reach loopback.

Sharing: every fetch of a process goes through one pool of ``POOL_CONNECTIONS``. A fetch
gets a turn before it may use a connection: at most ``FETCHES_PER_REQUEST`` of one request
and ``FETCHES_PER_KEY`` of one API key (across its requests) at once, so one key's slow
images keep a quarter of the pool busy at most and another key's image starts at once. The
download deadline starts with the turn: waiting is never reported as a slow download.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import ipaddress
import logging
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote_to_bytes, urlsplit

import httpcore
import httpx

from app import localfiles
from app.settings import FETCH_MAX_BYTES, Settings

log = logging.getLogger("inkcard.fetch")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Exempt = Callable[[IPAddress, int], bool]
Resolver = Callable[[str, int], Awaitable[list[str]]]

POOL_CONNECTIONS = 16  # one per fetch in flight, shared by every request of the process
FETCHES_PER_KEY = 4  # in flight for one API key across its requests: a quarter of the pool
FETCHES_PER_REQUEST = 4  # in flight for one request
SLOW_TURN_SECONDS = 1.0  # a wait for a connection longer than this is logged

ALLOWED_PORTS = frozenset({80, 443})
REFUSED_NAMES = ("localhost", "metadata.google.internal", "metadata.tencentyun.com")
REDIRECTS = frozenset({301, 302, 303, 307, 308})

BLOCKED_NETWORKS = tuple(
    ipaddress.ip_network(cidr)
    for cidr in (
        # IPv4: this host, private, shared (CGNAT, Alibaba metadata), loopback, link-local
        # (cloud metadata), protocol assignments, documentation, benchmarking, multicast, reserved
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
        "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16",
        "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
        # IPv6: unspecified, loopback, IPv4-compatible, mapped, translated, NAT64, discard,
        # Teredo and other IETF ranges, documentation, 6to4, unique-local (AWS IMDS),
        # link-local, site-local, multicast
        "::/128", "::1/128", "::/96", "::ffff:0:0/96", "::ffff:0:0:0/96", "64:ff9b::/96",
        "64:ff9b:1::/48", "100::/64", "2001::/23", "2001:db8::/32", "2002::/16", "fc00::/7",
        "fe80::/10", "fec0::/10", "ff00::/8",
    )
)  # fmt: skip


class FetchError(Exception):
    """An image could not be fetched; ``str()`` is safe to show the caller."""

    def __init__(self, source: str, reason: str):
        super().__init__(f"image {describe(source)} {reason}")
        self.source = source
        self.reason = reason


class FetchRefused(FetchError):
    """The image's address, scheme, port, coding or size is not allowed; the message says
    how far the fetch got (most are refused before a connection or at the headers)."""


class _AddressRefused(Exception):
    """Raised inside the connection pool; turned into ``FetchRefused`` by the fetcher."""


@dataclass(frozen=True, slots=True)
class FetchPolicy:
    """Limits of one fetcher. ``exempt(address, port)`` True skips the address and port checks."""

    max_bytes: int = FETCH_MAX_BYTES
    timeout: float = 10.0  # the whole fetch, redirects included
    connect_timeout: float = 3.0
    read_timeout: float = 5.0
    max_redirects: int = 3
    exempt: Exempt | None = None
    resolve: Resolver | None = None  # None: the system resolver

    @classmethod
    def from_settings(cls, settings: Settings) -> FetchPolicy:
        return cls(
            max_bytes=settings.fetch_max_bytes,
            timeout=settings.fetch_timeout,
            max_redirects=settings.fetch_max_redirects,
            exempt=_everything if settings.allow_private_fetch else None,
        )


def _everything(address: IPAddress, port: int) -> bool:
    return True


def describe(source: str) -> str:
    """The image's source, cut short enough for a message (data: URIs can be megabytes)."""
    return source if len(source) <= 100 else source[:97] + "..."


# Addresses


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address inside a mapped, compatible, NAT64, 6to4 or Teredo IPv6 address."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    packed = address.packed
    if packed[:12] == bytes(12) or packed[:12] == bytes.fromhex("0064ff9b0000000000000000"):
        return ipaddress.IPv4Address(packed[12:])
    return None


def is_blocked(address: IPAddress | str) -> bool:
    """True unless ``address`` is a public unicast address (its embedded IPv4 included)."""
    ip = ipaddress.ip_address(address) if isinstance(address, str) else address
    if any(ip in network for network in BLOCKED_NETWORKS if network.version == ip.version):
        return True
    if ip.is_multicast or ip.is_reserved or ip.is_loopback or ip.is_link_local:
        return True
    if isinstance(ip, ipaddress.IPv6Address):
        inner = embedded_ipv4(ip)
        return inner is not None and is_blocked(inner)
    return False


async def system_resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (numeric hosts come back normalised)."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]).split("%")[0] for info in infos]


class _GuardedBackend(httpcore.AsyncNetworkBackend):
    """Resolves, checks every address, then connects to the checked one."""

    def __init__(self, policy: FetchPolicy):
        self._inner = httpcore.AnyIOBackend()
        self._policy = policy

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        address = await self._checked_address(host, port)
        return await self._inner.connect_tcp(
            address, port, timeout=timeout, local_address=local_address,
            socket_options=socket_options,
        )  # fmt: skip

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.AsyncNetworkStream:
        raise _AddressRefused("unix sockets are never fetched")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)

    async def _checked_address(self, host: str, port: int) -> str:
        resolve = self._policy.resolve or system_resolve
        try:
            addresses = [ipaddress.ip_address(a) for a in await resolve(host, port)]
        except (OSError, ValueError):
            raise httpcore.ConnectError(f"cannot resolve {host}") from None
        if not addresses:
            raise httpcore.ConnectError(f"cannot resolve {host}")
        exempt = self._policy.exempt
        for address in addresses:  # one bad address refuses the host: no mixed answers
            if exempt is not None and exempt(address, port):
                continue
            if is_blocked(address):
                raise _AddressRefused(f"is on a non-public address ({address})")
            if port not in ALLOWED_PORTS:
                raise _AddressRefused(f"is on port {port}; only 80 and 443 are fetched")
        return str(addresses[0])


class _GuardedTransport(httpx.AsyncHTTPTransport):
    def __init__(self, policy: FetchPolicy, connections: int):
        super().__init__()
        # httpx takes no network backend, so its pool is replaced by one whose every TCP
        # connect goes through the guard; httpx still maps httpcore's errors to its own.
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=httpx.create_ssl_context(),
            max_connections=connections,
            network_backend=_GuardedBackend(policy),
        )


# Turns


@dataclass(slots=True)
class _KeyShare:
    gate: asyncio.Semaphore
    users: int = 0  # fetches of the key holding or waiting for a turn


class _Turns:
    """Who may use a connection now: at most ``per_key`` fetches of one key, ``total`` in all.

    A fetch first waits behind its own key's other fetches, then in one first-come queue for
    the pool; so that queue never holds more than ``per_key`` fetches of any key, however
    many requests the key sends. ``total`` is the pool's size: no fetch ever waits inside
    the pool, where the wait would count against its download.
    """

    def __init__(self, total: int, per_key: int):
        if not 0 < per_key < total:
            raise ValueError("a key's share must be smaller than the pool")
        self.total = total
        self.per_key = per_key
        self._pool = asyncio.Semaphore(total)
        self._keys: dict[Hashable, _KeyShare] = {}

    @asynccontextmanager
    async def turn(self, key: Hashable, host: str) -> AsyncIterator[None]:
        share = self._keys.get(key)
        if share is None:
            share = self._keys[key] = _KeyShare(asyncio.Semaphore(self.per_key))
        share.users += 1
        try:
            async with share.gate:
                loop = asyncio.get_running_loop()
                asked = loop.time()
                async with self._pool:
                    waited = loop.time() - asked
                    if waited > SLOW_TURN_SECONDS:
                        log.info(
                            "image fetch from %s waited %.1f s for one of the %d connections",
                            host, waited, self.total,
                        )  # fmt: skip
                    yield
        finally:
            share.users -= 1
            if not share.users:
                del self._keys[key]


# Fetching


def check_url(source: str) -> None:
    """Refuse what can be refused from the URL alone (scheme, credentials, local names).

    Raises:
        FetchRefused: The URL may not be fetched.
    """
    if any(c in source for c in "\x00\r\n\t "):
        raise FetchRefused(source, "has control characters or spaces in its URL")
    try:
        parts = urlsplit(source)
        parts.port  # noqa: B018 -- parsing the port raises on out-of-range values
    except ValueError:
        raise FetchRefused(source, "has a malformed URL") from None
    if parts.scheme not in ("http", "https"):
        raise FetchRefused(source, "is not an http or https URL")
    if parts.username is not None or parts.password is not None:
        raise FetchRefused(source, "has credentials in its URL")
    host = (parts.hostname or "").rstrip(".").lower()
    if not host:
        raise FetchRefused(source, "has no host in its URL")
    if host in REFUSED_NAMES or host.endswith(".localhost"):
        raise FetchRefused(source, "names a local host")


def is_data_uri(source: str) -> bool:
    return source[:5].lower() == "data:"


def decode_data_uri(source: str, max_bytes: int) -> bytes:
    """The bytes of a ``data:`` URI (base64 or percent-encoded).

    Raises:
        FetchRefused: The decoded bytes would exceed ``max_bytes``.
        FetchError: The URI is malformed.
    """
    header, comma, payload = source.partition(",")
    if not comma:
        raise FetchError(source, "is a data: URI without a comma")
    is_base64 = header.lower().endswith(";base64")
    estimate = len(payload) * 3 // 4 if is_base64 else len(payload) // 3
    if estimate > max_bytes:
        raise FetchRefused(source, f"is larger than {max_bytes} bytes")
    try:
        data = (
            base64.b64decode(unquote_to_bytes(payload), validate=False)
            if is_base64
            else (unquote_to_bytes(payload))
        )
    except (binascii.Error, ValueError):
        raise FetchError(source, "is a data: URI whose base64 is damaged") from None
    if len(data) > max_bytes:
        raise FetchRefused(source, f"is larger than {max_bytes} bytes")
    if not data:
        raise FetchError(source, "is an empty data: URI")
    return data


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
        self._turns = _Turns(connections, per_key)
        self._http = httpx.AsyncClient(
            transport=_GuardedTransport(policy, connections),
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
            except _AddressRefused as exc:
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


def host_of(source: str) -> str:
    """The host of a URL, for logs (its path and query may carry the caller's tokens)."""
    try:
        return urlsplit(source).hostname or "(no host)"
    except ValueError:
        return "(malformed URL)"
