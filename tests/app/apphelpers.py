"""Helpers for the HTTP service tests: PNG sizes, ports, stored files, a uvicorn server."""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import uvicorn
from litestar import Litestar
from litestar.testing import TestClient


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk; fails unless ``data`` starts like a PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stored_files(root: Path) -> list[str]:
    """Every file under ``root`` (relative names), temp files included."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def new_key(client: TestClient[Litestar], credits: int = 100) -> str:
    """Create an API key in the client's database."""
    key, _ = client.app.state.services.credits.create_key("test", credits)
    return str(key)


def files_path(url: str) -> str:
    """The path part of a local-storage URL, for fetching it through a TestClient."""
    return url[url.index("/files/") :]


@contextmanager
def running_server(app: Litestar, port: int) -> Iterator[str]:
    """Serve ``app`` with uvicorn on 127.0.0.1:``port`` in a thread; yield its base URL."""
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        proxy_headers=False,  # as `inkcard serve`: INKCARD_TRUSTED_PROXIES decides
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive(), "uvicorn stopped while starting"
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def wait_until_ok(url: str, seconds: float) -> None:
    """Polls ``url`` until it answers 200; fails the test after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, f"{url} never answered 200"
        time.sleep(0.1)


def wait_warm(client: TestClient[Litestar], seconds: float = 60, articles: bool = True) -> None:
    """Waits until the app's render processes and its article path are warm (/readyz
    answers 503 before that: the article warm-up converts a post in each of the twelve
    article themes, ~0.7 s, no longer always done by the time the processes are);
    `articles=False`: the render processes only (a test that holds the article warm-up)."""
    services = client.app.state.services
    deadline = time.monotonic() + seconds
    while not (services.cards.pool.ready and (services.article_warm_up.done or not articles)):
        assert time.monotonic() < deadline, "the render processes never became warm"
        time.sleep(0.02)


class QuietHandler(BaseHTTPRequestHandler):
    """A request handler that logs nothing (the test's output stays readable)."""

    def log_message(self, format: str, *args: object) -> None:
        pass


class LoopbackHttp:
    """A threaded HTTP server for ``handler`` on a free port of 127.0.0.1, serving in the
    background until ``close``."""

    def __init__(self, handler: type[BaseHTTPRequestHandler]):
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True).start()

    def url(self, path: str) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}{path}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
