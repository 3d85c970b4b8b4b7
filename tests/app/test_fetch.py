"""Safe image fetching against real HTTP servers on 127.0.0.1.

The image server is reachable only because each test's policy exempts exactly its address
and port; the "victim" server on another port stands for an internal service and must never
see a request. Refused hosts outside loopback are refused before any socket opens.
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import ipaddress
import re
import threading
from collections import Counter
from collections.abc import Awaitable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar
from urllib.parse import parse_qs, quote, urlsplit

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inkcard.app.fetch import (
    FETCHES_PER_KEY,
    FetchError,
    FetchPolicy,
    FetchRefused,
    ImageFetcher,
    embedded_ipv4,
    is_blocked,
)
from inkcard.app.fetch.sources import check_url
from inkcard.app.schema.article import IMAGE_URL_PATTERN
from inkcard.app.settings import load_settings

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
T = TypeVar("T")


class Server:
    """A small HTTP server in a thread, counting the paths it was asked for."""

    def __init__(self) -> None:
        self.hits: Counter[str] = Counter()
        self.slow_now = 0  # /slow answers being dripped right now
        self.slow_most = 0
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.httpd.daemon_threads = True
        self.httpd.handle_error = lambda request, address: None  # drips end in broken pipes
        self.port = int(self.httpd.server_address[1])
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()


def _handler(server: Server) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            split = urlsplit(self.path)
            server.hits[split.path] += 1
            query = {k: v[0] for k, v in parse_qs(split.query).items()}
            route = split.path.strip("/").split("/")
            getattr(self, "route_" + route[0].replace("-", "_"), self.route_missing)(route, query)

        def reply(self, status: int, body: bytes, **headers: str) -> None:
            self.send_response(status)
            headers.setdefault("Content-Length", str(len(body)))
            for name, value in headers.items():
                self.send_header(name.replace("_", "-"), value)
            self.end_headers()
            self.wfile.write(body)

        def route_img(self, route: list[str], query: dict[str, str]) -> None:
            self.reply(200, PNG, Content_Type="image/png")

        def route_redirect(self, route: list[str], query: dict[str, str]) -> None:
            self.reply(302, b"", Location=query["to"])

        def route_chain(self, route: list[str], query: dict[str, str]) -> None:
            left = int(route[1])
            self.reply(302, b"", Location=f"/chain/{left - 1}") if left else self.route_img(
                route, query
            )

        def route_big(self, route: list[str], query: dict[str, str]) -> None:
            self.reply(200, PNG * 100)

        def route_unannounced(self, route: list[str], query: dict[str, str]) -> None:
            self.send_response(200)
            self.send_header("Connection", "close")  # no length: the body ends with the socket
            self.end_headers()
            for _ in range(100):
                self.wfile.write(PNG)
            self.close_connection = True

        def route_gzip(self, route: list[str], query: dict[str, str]) -> None:
            self.reply(200, gzip.compress(PNG + bytes(5_000_000)), Content_Encoding="gzip")

        def route_gzip2(self, route: list[str], query: dict[str, str]) -> None:
            twice = gzip.compress(gzip.compress(PNG + bytes(50_000_000)))
            self.reply(200, twice, Content_Encoding="gzip, gzip")

        def route_slow(self, route: list[str], query: dict[str, str]) -> None:
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            with server.lock:
                server.slow_now += 1
                server.slow_most = max(server.slow_most, server.slow_now)
            try:
                while not server.stop.wait(0.1):  # one byte at a time: each read is quick
                    self.wfile.write(b"x")
                    self.wfile.flush()
            finally:
                with server.lock:
                    server.slow_now -= 1

        def route_missing(self, route: list[str], query: dict[str, str]) -> None:
            self.reply(404, b"no")

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@pytest.fixture
def images() -> Iterator[Server]:
    server = Server()
    yield server
    server.close()


@pytest.fixture
def victim() -> Iterator[Server]:
    server = Server()
    yield server
    server.close()


def policy_for(server: Server, **limits: Any) -> FetchPolicy:
    """A policy that exempts exactly ``server`` (127.0.0.1 and its port) from the checks."""
    return FetchPolicy(
        exempt=lambda address, port: str(address) == "127.0.0.1" and port == server.port,
        **limits,
    )


def run(coro: Awaitable[T]) -> T:
    async def main() -> T:
        return await coro

    return asyncio.run(main())


def fetch(source: str, policy: FetchPolicy | None = None) -> bytes:
    async def go() -> bytes:
        async with ImageFetcher(policy or FetchPolicy()) as fetcher:
            return await fetcher.fetch(source)

    return run(go())


# Addresses


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "127.9.9.9",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",  # cloud metadata
        "100.100.100.200",  # Alibaba metadata (CGNAT range; is_private says False on 3.11)
        "0.0.0.0",
        "255.255.255.255",
        "224.0.0.1",
        "::1",
        "::",
        "::ffff:127.0.0.1",  # mapped loopback (is_loopback says False)
        "::ffff:10.0.0.1",
        "::127.0.0.1",  # deprecated IPv4-compatible
        "64:ff9b::a9fe:a9fe",  # NAT64 form of 169.254.169.254
        "2002:7f00:1::",  # 6to4 form of 127.0.0.1
        "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
        "fd00:ec2::254",  # AWS IMDS over IPv6
        "fe80::1",
        "fec0::1",
        "ff02::1",
    ],
)
def test_non_public_addresses_are_blocked(address: str) -> None:
    assert is_blocked(address)


@pytest.mark.parametrize("address", ["8.8.8.8", "93.184.216.34", "2606:4700:4700::1111"])
def test_public_addresses_pass(address: str) -> None:
    assert not is_blocked(address)


def test_embedded_ipv4_is_unwrapped() -> None:
    assert str(embedded_ipv4(ipaddress.IPv6Address("64:ff9b::a9fe:a9fe"))) == "169.254.169.254"
    assert str(embedded_ipv4(ipaddress.IPv6Address("2002:7f00:1::"))) == "127.0.0.1"
    assert embedded_ipv4(ipaddress.IPv6Address("2606:4700:4700::1111")) is None


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "[::1]",
        "0.0.0.0",
        "[::ffff:127.0.0.1]",
        "2130706433",  # 127.0.0.1 as one number
        "10.0.0.1",
        "169.254.169.254",
    ],
)
def test_direct_urls_to_blocked_addresses_are_refused(victim: Server, host: str) -> None:
    with pytest.raises(FetchRefused) as refused:
        fetch(f"http://{host}:{victim.port}/latest/meta-data/")
    assert "non-public address" in str(refused.value)
    assert victim.hits.total() == 0


def test_a_name_resolving_to_a_blocked_address_is_refused(victim: Server) -> None:
    async def resolve(host: str, port: int) -> list[str]:
        return {"rebind.example": ["127.0.0.1"], "mixed.example": ["93.184.216.34", "10.0.0.7"]}[
            host
        ]

    for host in ("rebind.example", "mixed.example"):
        with pytest.raises(FetchRefused):
            fetch(f"http://{host}:{victim.port}/x.png", FetchPolicy(resolve=resolve))
    assert victim.hits.total() == 0


def test_only_ports_80_and_443(victim: Server) -> None:
    async def resolve(host: str, port: int) -> list[str]:
        return ["93.184.216.34"]

    with pytest.raises(FetchRefused) as refused:
        fetch("http://public.example:6379/", FetchPolicy(resolve=resolve))
    assert "port 6379" in str(refused.value)


@pytest.mark.parametrize(
    "source",
    [
        "file:///etc/passwd",
        "ftp://example.com/a.png",
        "gopher://example.com/",
        "javascript:alert(1)",
        "//example.com/a.png",
        "http://user:pw@example.com/a.png",
        "http://localhost/a.png",
        "http://cards.localhost/a.png",
        "http://metadata.google.internal/computeMetadata/v1/",
        "http://example.com/a\r\nHost: evil.png",
        "http://[::1/a.png",
        "http://example.com:99999/a.png",
        "http:///a.png",
    ],
)
def test_urls_refused_before_resolving(source: str) -> None:
    async def resolve(host: str, port: int) -> list[str]:
        raise AssertionError(f"resolved {host}")

    with pytest.raises(FetchRefused):
        fetch(source, FetchPolicy(resolve=resolve))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.from_regex(IMAGE_URL_PATTERN, fullmatch=True).filter(bool))
def test_an_image_url_the_document_accepts_parses(source: str) -> None:
    """What ``coverImageUrl``'s pattern lets in is refused later only for where it points
    (a local name, an address, a port), never for its form: a body the document calls valid
    is not a 400 for a URL the fetcher cannot read."""
    try:
        check_url(source)
    except FetchRefused as refused:
        assert "names a local host" in str(refused), refused
    httpx.URL(source)  # the client's own parser agrees


@pytest.mark.parametrize(
    "source", ["https://h10;|e0[y&", "http://[::1]/a.png", "https://u@h/a.png", "https://h:65536/"]
)
def test_the_image_url_pattern_refuses_what_would_not_parse(source: str) -> None:
    assert re.match(IMAGE_URL_PATTERN, source) is None


# Redirects


@pytest.mark.parametrize(
    "target",
    [
        "http://127.0.0.1:{victim}/secret",  # same address, another port
        "http://[::1]:{images}/img.png",  # same server, other spelling of loopback
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.1/",
        "file:///etc/passwd",
    ],
)
def test_redirects_to_blocked_places_are_refused(
    images: Server, victim: Server, target: str
) -> None:
    location = target.format(victim=victim.port, images=images.port)
    with pytest.raises(FetchRefused) as refused:
        fetch(f"{images.url}/redirect?to={quote(location)}", policy_for(images))
    assert images.hits["/redirect"] == 1
    assert victim.hits.total() == 0
    assert images.hits["/img.png"] == 0
    assert "non-public address" in str(refused.value) or "not an http" in str(refused.value)


def test_a_malformed_redirect_is_a_fetch_error(images: Server) -> None:
    with pytest.raises(FetchError) as failed:
        fetch(f"{images.url}/redirect?to={quote('http://[::1/x')}", policy_for(images))
    assert "could not be downloaded" in str(failed.value)


def test_a_redirect_to_an_allowed_place_is_followed(images: Server) -> None:
    assert fetch(f"{images.url}/redirect?to=/img", policy_for(images)) == PNG


def test_redirects_are_limited(images: Server) -> None:
    assert fetch(f"{images.url}/chain/3", policy_for(images, max_redirects=3)) == PNG
    with pytest.raises(FetchRefused) as refused:
        fetch(f"{images.url}/chain/4", policy_for(images, max_redirects=3))
    assert "redirects more than 3 times" in str(refused.value)


# Limits


@pytest.mark.parametrize("path", ["/big", "/unannounced"])
def test_the_size_limit_holds_announced_or_not(images: Server, path: str) -> None:
    with pytest.raises(FetchRefused) as refused:
        fetch(images.url + path, policy_for(images, max_bytes=len(PNG) * 10))
    assert f"larger than {len(PNG) * 10} bytes" in str(refused.value)


@pytest.mark.parametrize("path", ["/gzip", "/gzip2"])
def test_a_coded_body_is_refused_before_it_is_decoded(images: Server, path: str) -> None:
    """We ask for identity; gzip (and gzip, gzip: 1 GiB from a few KB) is refused at the
    headers, so no decoded byte is ever held."""
    with pytest.raises(FetchRefused) as refused:
        fetch(images.url + path, policy_for(images, max_bytes=len(PNG) * 10))
    assert "Content-Encoding" in str(refused.value)
    assert "only unencoded images" in str(refused.value)


def test_an_image_under_the_limit_arrives_whole(images: Server) -> None:
    assert fetch(images.url + "/img", policy_for(images, max_bytes=len(PNG))) == PNG


def test_a_slow_drip_hits_the_deadline(images: Server) -> None:
    with pytest.raises(FetchError) as failed:
        fetch(images.url + "/slow", policy_for(images, timeout=0.5))
    assert not isinstance(failed.value, FetchRefused)
    assert "took longer than 0.5 s" in str(failed.value)


def test_an_error_status_is_a_fetch_error(images: Server) -> None:
    with pytest.raises(FetchError) as failed:
        fetch(images.url + "/nothing-here", policy_for(images))
    assert "HTTP 404" in str(failed.value)
    assert images.url in str(failed.value)  # the message names the image


# data: URIs


def test_data_uris_are_decoded() -> None:
    encoded = base64.b64encode(PNG).decode()
    assert fetch(f"data:image/png;base64,{encoded}") == PNG
    assert fetch("data:image/svg+xml,%3Csvg%2F%3E") == b"<svg/>"


def test_data_uris_obey_the_size_limit_and_must_be_sound() -> None:
    encoded = base64.b64encode(PNG).decode()
    with pytest.raises(FetchRefused):
        fetch(f"data:image/png;base64,{encoded}", FetchPolicy(max_bytes=100))
    with pytest.raises(FetchError):
        fetch("data:image/png;base64,abc")  # base64 with a missing quantum
    with pytest.raises(FetchError):
        fetch("data:image/png;base64")


# Many at once, settings


def test_fetch_many_fetches_each_source_once(images: Server) -> None:
    async def go() -> dict[str, bytes | FetchError]:
        async with ImageFetcher(policy_for(images)) as fetcher:
            good, bad = images.url + "/img", images.url + "/missing"
            return await fetcher.fetch_many([good, bad, good, good], concurrency=2)

    results = run(go())
    assert results[images.url + "/img"] == PNG
    assert isinstance(results[images.url + "/missing"], FetchError)
    assert images.hits["/img"] == 1


def test_private_fetching_is_off_unless_the_setting_says_so(images: Server) -> None:
    assert FetchPolicy.from_settings(load_settings({})).exempt is None
    settings = load_settings({"INKCARD_ALLOW_PRIVATE_FETCH": "1", "INKCARD_FETCH_TIMEOUT": "4"})
    policy = FetchPolicy.from_settings(settings)
    assert policy.timeout == 4
    assert fetch(images.url + "/img", policy) == PNG


def test_one_key_holds_at_most_its_share_of_the_connections(images: Server) -> None:
    """Three requests of one key fetch twelve images that drip for ever; the key keeps only
    its share of the pool busy, so another key's image comes at once, and the hog's waiting
    images are not reported as slow downloads."""

    async def go() -> tuple[bytes, float, float, int, dict[str, bytes | FetchError]]:
        async with ImageFetcher(policy_for(images, timeout=1.5)) as fetcher:
            loop = asyncio.get_running_loop()
            started = loop.time()  # the same fetch before the hog: the machine's pace
            assert await fetcher.fetch(images.url + "/img?alone", key="other") == PNG
            alone = loop.time() - started
            slow = [[f"{images.url}/slow?{r}-{n}" for n in range(4)] for r in range(3)]
            hog = [asyncio.ensure_future(fetcher.fetch_many(s, key="hog")) for s in slow]
            while images.slow_now < FETCHES_PER_KEY:
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.3)  # the hog's other fetches queue up
            started = loop.time()
            other = await fetcher.fetch(images.url + "/img", key="other")
            elapsed = loop.time() - started
            held = images.slow_most  # before any times out (a server notices that late)
            first = await hog[0]
            for task in hog[1:]:
                task.cancel()
            await asyncio.gather(*hog[1:], return_exceptions=True)
            return other, elapsed, alone, held, first

    other, elapsed, alone, held, first = run(go())
    assert other == PNG
    # about 0.01 s: no wait for a connection (a hog's fetch frees one after 1.5 s). On a
    # machine so loaded that the fetch alone is slow, a generous multiple of it.
    assert elapsed < max(1.0, 20 * alone), f"{elapsed:.3f} s; alone {alone:.3f} s"
    assert held == FETCHES_PER_KEY
    for failure in first.values():  # each got its own 1.5 s once its turn came
        assert isinstance(failure, FetchError)
        assert "took longer than 1.5 s to download" in str(failure)


def test_a_key_share_must_leave_room_for_others() -> None:
    with pytest.raises(ValueError, match="smaller than the pool"):
        ImageFetcher(FetchPolicy(), connections=4, per_key=4)
