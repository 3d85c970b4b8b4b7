"""Remote images of cards: hostile URLs end as placeholders and never reach a refused address.

Everything runs on 127.0.0.1. The image server is reachable only because the fetch policy
exempts exactly its port (as ``INKCARD_ALLOW_PRIVATE_FETCH`` would, more narrowly); the
"victim" is a bare TCP listener on another loopback port that counts every connection it
accepts and must count none. A stub resolver maps public-looking names to private addresses
(DNS rebinding) and never lets a real name out. Every case is bounded by small fetch limits,
and each must end as a placeholder: the card's pixels equal those of the same card with no
image at all.
"""

from __future__ import annotations

import asyncio
import gzip
import socket
import struct
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import httpx
import numpy as np
import pytest

from inkcard import layout, themes
from inkcard.app.cards.images import Gathered, RemoteImages
from inkcard.app.fetch import FETCHES_PER_KEY, FetchPolicy, ImageFetcher, system_resolve
from inkcard.app.server.factory import create_app
from inkcard.app.settings import Settings
from inkcard.layout.parse import image_sources
from tests import pngcodec
from tests.app.apphelpers import free_port, running_server

RED = pngcodec.encode(np.full((48, 64, 3), (220, 20, 30), np.uint8))
MAX_BYTES = 200_000
DRIP_SECONDS = 20.0  # the slow drip gives up on its own long after the fetch deadline


def bomb_png(width: int = 20_000, height: int = 20_000) -> bytes:
    """A PNG header claiming ``width`` x ``height`` with a token of pixel data (a few hundred
    bytes on the wire; 1.6 GB if it were ever decoded)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = zlib.compress(bytes(width + 1) * 4)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")
    )


def gif(frames: list[int]) -> bytes:
    """A 1x1 GIF whose frames show the palette entries ``frames`` (0 red, 1 blue)."""
    palette = bytes((220, 20, 30, 20, 40, 220))
    # LZW with a 2-bit minimum code size: clear (4), the index, end (5), packed LSB first.
    pixels = {0: b"\x02\x02\x44\x01\x00", 1: b"\x02\x02\x4c\x01\x00"}
    out = b"GIF89a" + struct.pack("<HHBBB", 1, 1, 0x80, 0, 0) + palette
    for index in frames:
        out += b"\x21\xf9\x04\x00\x0a\x00\x00\x00"  # graphic control: 0.1 s per frame
        out += b"\x2c" + struct.pack("<HHHHB", 0, 0, 1, 1, 0) + pixels[index]
    return out + b"\x3b"


class Victim:
    """A TCP listener that only counts the connections it accepts (an internal service)."""

    def __init__(self) -> None:
        self.connections = 0
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.05)
        self.port = int(self.sock.getsockname()[1])
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.sock.close()


class ImageServer:
    """An HTTP server in a thread serving good and bad images; counts connections and paths."""

    def __init__(self) -> None:
        self.hits: dict[str, int] = {}
        self.connections = 0
        self.in_flight = 0
        self.most_in_flight = 0
        self.dripping = 0  # /drip responses being sent right now
        self.most_dripping = 0
        self.release = threading.Event()  # ends every /drip at once
        self.lock = threading.Lock()
        server = self

        class Httpd(ThreadingHTTPServer):
            daemon_threads = True

            def process_request(self, request: Any, client_address: Any) -> None:
                with server.lock:
                    server.connections += 1
                super().process_request(request, client_address)

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # the fetcher hangs up on drips and oversize bodies

        self.httpd = Httpd(("127.0.0.1", 0), _handler(self))
        self.port = int(self.httpd.server_address[1])
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def drips(self, change: int) -> None:
        with self.lock:
            self.dripping += change
            self.most_dripping = max(self.most_dripping, self.dripping)


def _handler(server: ImageServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            split = urlsplit(self.path)
            held = split.path == "/held"  # only these count as in flight (drips linger)
            with server.lock:
                server.hits[split.path] = server.hits.get(split.path, 0) + 1
                server.in_flight += held
                server.most_in_flight = max(server.most_in_flight, server.in_flight)
            try:
                query = {k: v[0] for k, v in parse_qs(split.query).items()}
                route = split.path.strip("/").split("/")
                name = "route_" + route[0].replace("-", "_").replace(".", "_")
                getattr(self, name, self.route_missing)(route, query)
            finally:
                with server.lock:
                    server.in_flight -= held

        def reply(self, status: int, body: bytes, **headers: str) -> None:
            self.send_response(status)
            headers.setdefault("Content-Length", str(len(body)))
            for name, value in headers.items():
                self.send_header(name.replace("_", "-"), value)
            self.end_headers()
            self.wfile.write(body)

        def route_red_png(self, route: list[str], query: dict[str, str]) -> None:
            self.reply(200, RED, Content_Type="image/png")

        def route_held(self, route: list[str], query: dict[str, str]) -> None:
            time.sleep(0.2)  # long enough for concurrent fetches to overlap
            self.route_red_png(route, query)

        def route_redirect(self, route: list[str], query: dict[str, str]) -> None:
            self.reply(302, b"", Location=query["to"])

        def route_chain(self, route: list[str], query: dict[str, str]) -> None:
            left = int(route[1])
            if left:
                self.reply(302, b"", Location=f"/chain/{left - 1}")
            else:
                self.route_red_png(route, query)

        def route_big(self, route: list[str], query: dict[str, str]) -> None:
            self.reply(200, RED + bytes(MAX_BYTES), Content_Type="image/png")

        def route_unannounced(self, route: list[str], query: dict[str, str]) -> None:
            self.send_response(200)
            self.send_header("Connection", "close")  # no length: the body ends with the socket
            self.end_headers()
            self.wfile.write(RED + bytes(MAX_BYTES))
            self.close_connection = True

        def route_gzip(self, route: list[str], query: dict[str, str]) -> None:
            body = gzip.compress(RED + bytes(5_000_000))
            self.reply(200, body, Content_Encoding="gzip", Content_Type="image/png")

        def route_slow(self, route: list[str], query: dict[str, str]) -> None:
            self.send_response(200)
            self.send_header("Content-Length", str(len(RED)))
            self.end_headers()
            deadline = time.monotonic() + DRIP_SECONDS
            for byte in RED:  # one byte every 0.1 s: every single read is quick
                if time.monotonic() > deadline:
                    return
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(0.1)

        def route_drip(self, route: list[str], query: dict[str, str]) -> None:
            if server.release.is_set():
                self.route_missing(route, query)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(RED)))
            self.end_headers()
            server.drips(+1)
            try:  # a byte every 0.1 s until the test lets go (a slow host's connection)
                while not server.release.wait(0.1):
                    self.wfile.write(b"\x89")
                    self.wfile.flush()
            finally:
                server.drips(-1)

        def route_stall(self, route: list[str], query: dict[str, str]) -> None:
            time.sleep(3)  # no headers for longer than the read timeout
            self.route_red_png(route, query)

        def route_bomb_png(self, route: list[str], query: dict[str, str]) -> None:
            self.reply(200, bomb_png(), Content_Type="image/png")

        def route_wide_png(self, route: list[str], query: dict[str, str]) -> None:
            self.reply(200, bomb_png(9000, 10), Content_Type="image/png")

        def route_huge_png(self, route: list[str], query: dict[str, str]) -> None:
            self.reply(200, bomb_png(7000, 7000), Content_Type="image/png")  # 49 MP, sides fine

        def route_anim_gif(self, route: list[str], query: dict[str, str]) -> None:
            self.reply(200, gif([0, 1]), Content_Type="image/gif")

        def route_image_svg(self, route: list[str], query: dict[str, str]) -> None:
            svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><image href="http://127.0.0.1/"/></svg>'
            self.reply(200, svg, Content_Type="image/svg+xml")

        def route_page_html(self, route: list[str], query: dict[str, str]) -> None:
            self.reply(200, b"<html><body>not an image</body></html>", Content_Type="image/png")

        def route_empty(self, route: list[str], query: dict[str, str]) -> None:
            self.reply(200, b"", Content_Type="image/png")

        def route_missing(self, route: list[str], query: dict[str, str]) -> None:
            self.reply(404, b"no")

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@pytest.fixture(scope="module")
def images() -> Iterator[ImageServer]:
    server = ImageServer()
    yield server
    server.close()


@pytest.fixture(scope="module")
def victim() -> Iterator[Victim]:
    listener = Victim()
    yield listener
    listener.close()


NAMES = {
    "rebind.example": ["127.0.0.1"],
    "mixed.example": ["93.184.216.34", "127.0.0.1"],  # one bad answer refuses the host
    "mapped.example": ["::ffff:127.0.0.1"],
    "nat64.example": ["64:ff9b::7f00:1"],
    "metadata.example": ["169.254.169.254"],
    "alibaba.example": ["100.100.100.200"],
    "ula.example": ["fd00:ec2::254"],
    "public.example": ["93.184.216.34"],  # only ever used on a refused port
}


async def stub_resolve(host: str, port: int) -> list[str]:
    """Public-looking test names resolve to what ``NAMES`` says; numeric hosts as the system
    resolves them (it normalises 0x7f.1, 2130706433, …); any other name is an error."""
    if host in NAMES:
        return NAMES[host]
    if not host or not (host[0].isdigit() or ":" in host):
        raise OSError(f"the stub resolver does not know {host}")
    return await system_resolve(host, port)


def policy(images: ImageServer, **limits: Any) -> FetchPolicy:
    """The production checks, except that the image server's own port on 127.0.0.1 is allowed."""
    values: dict[str, Any] = {"max_bytes": MAX_BYTES, "timeout": 1.5}
    values |= {"connect_timeout": 1.0, "read_timeout": 1.0}
    values.update(limits)
    return FetchPolicy(
        exempt=lambda address, port: str(address) == "127.0.0.1" and port == images.port,
        resolve=stub_resolve,
        **values,
    )


def gather(sources: list[str], fetch_policy: FetchPolicy, **kw: Any) -> Gathered:
    async def go() -> Gathered:
        async with ImageFetcher(fetch_policy) as fetcher:
            return await RemoteImages(fetcher, timeout=10.0).gather(sources, **kw)

    return asyncio.run(go())


@pytest.fixture(scope="module")
def fonts() -> layout.FontBook:
    return layout.FontBook.load(layout.DEFAULT_FONTS_DIR)


def card(fonts: layout.FontBook, markdown: str, images: dict[str, bytes]) -> bytes:
    # Tall enough for a picture and its alt-text caption at their natural size.
    options = layout.RenderOptions(width=200, height=240, scale=1)
    [png] = layout.render(markdown, themes.load("apple-notes"), fonts, options, images=images)
    return png


# The hostile table: (id, URL with {v} = victim port and {i} = image server, reason said)

REFUSED = "non-public address"
HOSTILE = [
    # loopback in every spelling, straight at the victim's port
    ("loopback", "http://127.0.0.1:{v}/", REFUSED),
    ("loopback-other", "http://127.9.9.9:{v}/", REFUSED),
    ("short-form", "http://127.1:{v}/", REFUSED),
    ("decimal", "http://2130706433:{v}/", REFUSED),
    ("hex", "http://0x7f000001:{v}/", REFUSED),
    ("hex-dotted", "http://0x7f.0.0.1:{v}/", REFUSED),
    ("hex-short", "http://0x7f.1:{v}/", REFUSED),
    ("octal-whole", "http://017700000001:{v}/", REFUSED),
    ("octal-dotted", "http://0177.0.0.1:{v}/", "malformed URL"),
    ("zeros", "http://0.0.0.0:{v}/", REFUSED),
    ("zero", "http://0:{v}/", REFUSED),
    ("https-loopback", "https://127.0.0.1:{v}/", REFUSED),
    ("ipv6-loopback", "http://[::1]:{v}/", REFUSED),
    ("ipv6-unspecified", "http://[::]:{v}/", REFUSED),
    ("mapped", "http://[::ffff:127.0.0.1]:{v}/", REFUSED),
    ("mapped-hex", "http://[::ffff:7f00:1]:{v}/", REFUSED),
    ("mapped-long", "http://[0:0:0:0:0:ffff:127.0.0.1]:{v}/", REFUSED),
    ("ipv4-compatible", "http://[::127.0.0.1]:{v}/", REFUSED),
    ("nat64", "http://[64:ff9b::7f00:1]:{v}/", REFUSED),
    ("6to4", "http://[2002:7f00:1::]:{v}/", REFUSED),
    # private, shared and metadata ranges (refused before any socket opens)
    ("aws-metadata", "http://169.254.169.254/latest/meta-data/", REFUSED),
    ("alibaba-metadata", "http://100.100.100.200/latest/meta-data/", REFUSED),
    ("cgnat", "http://100.64.0.1/", REFUSED),
    ("ten", "http://10.0.0.1/", REFUSED),
    ("one-seven-two", "http://172.16.0.1/", REFUSED),
    ("one-nine-two", "http://192.168.0.1/", REFUSED),
    ("multicast", "http://224.0.0.1/", REFUSED),
    ("broadcast", "http://255.255.255.255/", REFUSED),
    ("ula", "http://[fc00::1]/", REFUSED),
    ("aws-imds-v6", "http://[fd00:ec2::254]/", REFUSED),
    ("link-local-v6", "http://[fe80::1]/", REFUSED),
    ("nat64-metadata", "http://[64:ff9b::a9fe:a9fe]/", REFUSED),
    # names: local ones refused outright, public-looking ones by what they resolve to
    ("localhost", "http://localhost:{v}/", "names a local host"),
    ("localhost-upper", "http://LOCALHOST:{v}/", "names a local host"),
    ("localhost-dot", "http://localhost.:{v}/", "names a local host"),
    ("sub-localhost", "http://cards.localhost:{v}/", "names a local host"),
    ("gcp-metadata", "http://metadata.google.internal/computeMetadata/v1/", "local host"),
    ("rebinding", "http://rebind.example:{v}/x.png", REFUSED),
    ("mixed-answers", "http://mixed.example/x.png", REFUSED),
    ("rebinding-mapped", "http://mapped.example:{v}/x.png", REFUSED),
    ("rebinding-nat64", "http://nat64.example:{v}/x.png", REFUSED),
    ("rebinding-metadata", "http://metadata.example/latest/", REFUSED),
    ("rebinding-alibaba", "http://alibaba.example/latest/", REFUSED),
    ("rebinding-ula", "http://ula.example/x.png", REFUSED),
    ("public-other-port", "http://public.example:6379/", "port 6379"),
    # schemes and URL tricks
    ("file", "file:///etc/passwd", "not an http or https URL"),
    ("gopher", "gopher://127.0.0.1:{v}/_SET%20x", "not an http or https URL"),
    ("ftp", "ftp://127.0.0.1:{v}/a.png", "not an http or https URL"),
    ("dict", "dict://127.0.0.1:{v}/info", "not an http or https URL"),
    ("scheme-relative", "//127.0.0.1:{v}/a.png", "not an http or https URL"),
    ("relative", "a.png", "not an http or https URL"),
    ("credentials", "http://user:pw@127.0.0.1:{v}/", "credentials"),
    ("at-trick", "http://example.com@127.0.0.1:{v}/", "credentials"),
    ("crlf", "http://127.0.0.1:{v}/a\r\nHost: x", "control characters"),
    # redirects from the allowed image server
    ("redirect-loopback", "{i}/redirect?to=http://127.0.0.1:{v}/", REFUSED),
    ("redirect-mapped", "{i}/redirect?to=http://[::ffff:127.0.0.1]:{v}/", REFUSED),
    ("redirect-metadata", "{i}/redirect?to=http://169.254.169.254/latest/", REFUSED),
    ("redirect-rebinding", "{i}/redirect?to=http://rebind.example:{v}/", REFUSED),
    ("redirect-decimal", "{i}/redirect?to=http://2130706433:{v}/", REFUSED),
    ("redirect-file", "{i}/redirect?to=file:///etc/passwd", "not an http or https URL"),
    ("redirect-gopher", "{i}/redirect?to=gopher://127.0.0.1:{v}/_", "not an http or https"),
    ("redirect-chain-too-long", "{i}/chain/4", "redirects more than 3 times"),
    # bodies from the allowed image server
    ("oversize", "{i}/big", f"larger than {MAX_BYTES} bytes"),
    ("oversize-unannounced", "{i}/unannounced", f"larger than {MAX_BYTES} bytes"),
    ("gzip-bomb", "{i}/gzip", "only unencoded images"),
    ("slow-drip", "{i}/slow", "took longer than 1.5 s"),
    ("stalled-headers", "{i}/stall", "took longer than 1.5 s"),
    ("png-bomb", "{i}/bomb.png", "20000×20000 pixels"),
    ("too-wide", "{i}/wide.png", "9000×10 pixels"),
    ("too-many-pixels", "{i}/huge.png", "7000×7000 pixels"),
    ("svg", "{i}/image.svg", "not a PNG, JPEG, GIF, WebP or BMP"),
    ("html-as-png", "{i}/page.html", "not a PNG, JPEG, GIF, WebP or BMP"),
    ("empty", "{i}/empty", "is empty"),
    ("not-found", "{i}/missing.png", "HTTP 404"),
]


def test_the_hostile_table_is_big_enough() -> None:
    assert len(HOSTILE) >= 40
    assert len({case[0] for case in HOSTILE}) == len(HOSTILE)


@pytest.mark.parametrize(("url", "reason"), [c[1:] for c in HOSTILE], ids=[c[0] for c in HOSTILE])
def test_a_hostile_image_is_a_placeholder_and_reaches_nothing(
    images: ImageServer, victim: Victim, fonts: layout.FontBook, url: str, reason: str
) -> None:
    source = url.format(v=victim.port, i=images.url)
    if "redirect?to=" in source:
        head, _, target = source.partition("?to=")
        source = f"{head}?to={quote(target, safe='')}"
    gathered = gather([source], policy(images))
    assert gathered.images == {}
    assert reason in gathered.refused[source]
    assert victim.connections == 0
    # As a card: the service fetches what the parser calls image sources (markdown-it
    # normalises them, and refuses to make images of a few schemes such as file:).
    markdown = f"![hostile](<{source}>)"
    engine_sources = image_sources(markdown)
    if engine_sources not in ([], [source]):
        gathered = gather(engine_sources, policy(images))
        assert gathered.images == {}
        assert victim.connections == 0
    if engine_sources:
        assert card(fonts, markdown, gathered.images) == card(fonts, "![hostile](x)", {})
    else:
        assert "file" in source or "\n" in source  # shown as text, never an image


# What is accepted, and how


def test_an_allowed_image_is_fetched_checked_and_drawn(
    images: ImageServer, fonts: layout.FontBook
) -> None:
    source = f"{images.url}/red.png"
    gathered = gather([source], policy(images))
    assert gathered.images == {source: RED} and gathered.refused == {}
    pixels = pngcodec.decode(card(fonts, f"![red]({source})", gathered.images))
    red = (pixels[..., 0] > 180) & (pixels[..., 1] < 80) & (pixels[..., 2] < 80)
    assert red.sum() >= 64 * 48 * 0.9  # drawn at its natural 64 x 48
    assert card(fonts, f"![red]({source})", {}) != card(fonts, f"![red]({source})", gathered.images)


def test_three_redirects_are_followed(images: ImageServer) -> None:
    source = f"{images.url}/chain/3"
    assert gather([source], policy(images)).images == {source: RED}


def test_an_animation_shows_its_first_frame(images: ImageServer, fonts: layout.FontBook) -> None:
    source = f"{images.url}/anim.gif"
    gathered = gather([source], policy(images))
    assert list(gathered.images) == [source]
    pixels = pngcodec.decode(card(fonts, f"![anim|40x40]({source})", gathered.images))
    red = (pixels[..., 0] > 180) & (pixels[..., 2] < 80)
    blue = (pixels[..., 2] > 180) & (pixels[..., 0] < 80)
    assert red.sum() >= 40 * 40 * 0.9 and blue.sum() == 0


def test_a_refusal_is_logged_with_the_host_only(
    images: ImageServer, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "token=s3cr3t"
    sources = [f"http://rebind.example/a.png?{secret}", f"{images.url}/redirect?to=/x?{secret}"]
    with caplog.at_level("INFO", logger="inkcard.card_images"):
        gathered = gather(sources, policy(images))
    assert gathered.images == {}
    lines = [r.getMessage() for r in caplog.records if r.name == "inkcard.card_images"]
    assert len(lines) == 2 and "rebind.example" in lines[0] and "127.0.0.1" in lines[1]
    assert not any(secret in line for line in lines)


def test_data_uris_are_left_to_the_engine(images: ImageServer) -> None:
    gathered = gather(["data:image/png;base64,AAAA"], policy(images))
    assert gathered == Gathered()


def test_fetches_run_concurrently_but_bounded(images: ImageServer) -> None:
    sources = [f"{images.url}/held?n={n}" for n in range(10)]
    images.most_in_flight = 0

    async def go() -> Gathered:
        async with ImageFetcher(policy(images)) as fetcher:
            return await RemoteImages(fetcher, concurrency=3).gather(sources)

    gathered = asyncio.run(go())
    assert list(gathered.images) == sources  # source order, every one accepted
    assert 2 <= images.most_in_flight <= 3


def test_at_most_max_images_are_fetched(images: ImageServer) -> None:
    sources = [f"{images.url}/red.png?n={n}" for n in range(5)]
    before = images.hits.get("/red.png", 0)

    async def go() -> Gathered:
        async with ImageFetcher(policy(images)) as fetcher:
            return await RemoteImages(fetcher, max_images=3).gather(sources + sources[:1])

    gathered = asyncio.run(go())
    assert list(gathered.images) == sources[:3]
    assert set(gathered.refused) == set(sources[3:])
    assert "past the first 3 remote images" in gathered.refused[sources[4]]
    assert images.hits["/red.png"] - before == 3


def test_the_fetch_phase_has_one_deadline(images: ImageServer) -> None:
    good, slow = f"{images.url}/red.png", f"{images.url}/slow?phase"
    queued = f"{images.url}/red.png?queued"  # behind the slow one: never started

    async def go() -> Gathered:
        async with ImageFetcher(policy(images, timeout=30.0)) as fetcher:
            remote = RemoteImages(fetcher, timeout=0.5, concurrency=1)
            return await remote.gather([good, slow, queued])

    gathered = asyncio.run(go())
    assert gathered.images == {good: RED}
    assert "was still being fetched when the 0.5 s" in gathered.refused[slow]
    assert "was never fetched" in gathered.refused[queued]
    assert "waited for its turn" in gathered.refused[queued]


def test_the_images_share_one_pixel_budget(images: ImageServer) -> None:
    first, second = f"{images.url}/red.png?a", f"{images.url}/red.png?b"
    gathered = gather([first, second], policy(images), max_pixels=64 * 48 + 1)
    assert list(gathered.images) == [first]
    assert "over 3,073 pixels" in gathered.refused[second]


def test_accepted_images_are_cached_for_a_while_in_bounded_memory(images: ImageServer) -> None:
    now = [0.0]
    sources = [f"{images.url}/red.png?cache={n}" for n in range(3)]

    async def go() -> tuple[RemoteImages, list[Gathered]]:
        async with ImageFetcher(policy(images)) as fetcher:
            remote = RemoteImages(
                fetcher, cache_seconds=300, cache_bytes=2 * len(RED), clock=lambda: now[0]
            )
            runs = [await remote.gather(sources[:2])]
            now[0] = 299.0
            runs.append(await remote.gather(sources[:2]))  # both from the cache
            now[0] = 301.0
            runs.append(await remote.gather(sources[:1]))  # expired: fetched again
            runs.append(await remote.gather(sources[2:]))  # pushes the oldest out
            assert len(remote.cache) == 2
            return remote, runs

    remote, runs = asyncio.run(go())
    assert all(run.images == dict.fromkeys(run.images, RED) for run in runs)
    assert [len(run.images) for run in runs] == [2, 2, 1, 1]
    assert remote.downloads == 4


# Through the real API


def generate(base: str, key: str, markdown: str) -> bytes:
    body = {"markdown": markdown, "width": 300, "height": 240, "scale": 2}
    with httpx.Client(base_url=base, timeout=60) as http:
        response = http.post("/api/generate", json=body, headers={"x-api-key": key})
        assert response.status_code == 200, response.text
        [image] = response.json()["images"]
        stored = http.get(image["url"])
        assert stored.status_code == 200
        return stored.content


def red_pixels(png: bytes) -> int:
    pixels = pngcodec.decode(png)
    return int(((pixels[..., 0] > 180) & (pixels[..., 1] < 80) & (pixels[..., 2] < 80)).sum())


@pytest.mark.parametrize("allowed", [True, False])
def test_remote_images_through_the_api(
    make_settings: Callable[..., Settings], tmp_path: Path, allowed: bool
) -> None:
    server = ImageServer()
    try:
        port = free_port()
        settings = make_settings(port=port, log_level="WARNING", allow_private_fetch=allowed)
        app = create_app(settings)
        source = f"{server.url}/red.png"
        with running_server(app, port) as base:
            key, _ = app.state.services.credits.create_key("test", 100)
            png = generate(base, str(key), f"Remote\n\n![a red box|120x60]({source})")
            again = generate(base, str(key), f"Remote\n\n![a red box|120x60]({source})")
        assert again == png
        if allowed:
            assert red_pixels(png) >= 240 * 120 * 0.9  # 120 x 60 CSS px at scale 2
            assert server.hits == {"/red.png": 1}  # the repeat came from the cache
        else:
            assert red_pixels(png) == 0  # the placeholder
            assert server.connections == 0
    finally:
        server.close()


def test_one_key_cannot_keep_another_keys_images_waiting(
    make_settings: Callable[..., Settings],
) -> None:
    """Five requests of one key, each naming four images that drip for ever, hold no more
    than the key's share of the connections: another key's card gets its fast image, at
    once (all requests shared eight connections with a 5 s wait: a placeholder after 5 s)."""
    server = ImageServer()
    try:
        port = free_port()
        settings = make_settings(port=port, log_level="WARNING", allow_private_fetch=True)
        app = create_app(settings)
        with running_server(app, port) as base:
            credits = app.state.services.credits
            hog, _ = credits.create_key("hog", 100)
            victim, _ = credits.create_key("victim", 100)

            def hold(request: int) -> None:
                drips = "\n\n".join(f"![d]({server.url}/drip?r={request}&n={n})" for n in range(4))
                body = {"markdown": drips, "width": 300, "height": 240}
                httpx.post(
                    base + "/api/generate", json=body, headers={"x-api-key": hog}, timeout=60
                )

            started = time.monotonic()  # the same card before the hog: the machine's pace
            generate(base, victim, f"Remote\n\n![a red box|120x60]({server.url}/red.png?u)")
            unloaded = time.monotonic() - started
            hogs = [threading.Thread(target=hold, args=(n,)) for n in range(5)]
            for thread in hogs:
                thread.start()
            deadline = time.monotonic() + 20
            while server.dripping < FETCHES_PER_KEY:
                assert time.monotonic() < deadline, "the slow images were never asked for"
                time.sleep(0.05)
            time.sleep(0.5)  # the rest of the hog's fetches queue up
            started = time.monotonic()
            png = generate(base, victim, f"Remote\n\n![a red box|120x60]({server.url}/red.png?v)")
            elapsed = time.monotonic() - started
            held = server.most_dripping
            server.release.set()
            for thread in hogs:
                thread.join(60)
        assert red_pixels(png) >= 240 * 120 * 0.9  # the real image, not the placeholder
        # about 0.3 s; waiting for the pool would take 5 s and fail (a placeholder, above). On
        # a machine so loaded that the card alone is slow, a generous multiple of it.
        assert elapsed < max(4.0, 10 * unloaded), f"{elapsed:.2f} s; alone {unloaded:.2f} s"
        assert held == FETCHES_PER_KEY
    finally:
        server.close()
