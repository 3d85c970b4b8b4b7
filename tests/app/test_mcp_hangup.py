"""An agent that hangs up on ``/mcp`` before its tool's answer is ready is charged nothing, as a
REST client is; a draft the platform was already making is charged, as on REST. Over stdio,
an agent that closes stdin mid-call is not charged either.

A real ``inkcard serve`` (a subprocess), a raw socket for the agent that hangs up, a loopback
image server slowed so the tool call is mid-work when the agent leaves, and the fake WeChat
platform (tests/fakewechat.py) slowed on ``draft/add``; ``inkcard mcp`` as a subprocess.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import skia

from tests.app.apphelpers import LoopbackHttp, QuietHandler
from tests.app.servehelpers import Serve, wait_for
from tests.fakewechat import FakeWeChat
from tests.layout.test_imagecodec import drawing, encoded

APPID = "wx5f1d2c3b4a596870"
SECRET = "0123456789abcdef0123456789abcdef"
PNG = encoded(drawing(120, 80), skia.EncodedImageFormat.kPNG)
DELAY = 2.0  # seconds a slowed step takes: the agent hangs up during it
COST = 2  # of a generate call


class SlowImages(LoopbackHttp):
    """Serves one PNG at any path on 127.0.0.1 after ``delay`` seconds; counts requests."""

    def __init__(self, delay: float):
        self.hits = 0
        owner = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server names the method
                owner.hits += 1
                time.sleep(delay)
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(PNG)))
                self.end_headers()
                self.wfile.write(PNG)

        super().__init__(Handler)


@pytest.fixture
def platform() -> Iterator[FakeWeChat]:
    with FakeWeChat({APPID: SECRET}) as fake:
        yield fake


@pytest.fixture
def images() -> Iterator[SlowImages]:
    server = SlowImages(DELAY)
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def served(tmp_path: Path, platform: FakeWeChat) -> Iterator[Serve]:
    serve = Serve(
        tmp_path,
        INKCARD_GENERATE_COST=str(COST),
        INKCARD_WECHAT_API_BASE=platform.url,
        INKCARD_ALLOW_PRIVATE_FETCH="1",  # the image server is on loopback
    )
    try:
        yield serve.start()
    finally:
        serve.stop()


def tool_call(name: str, arguments: dict[str, Any]) -> bytes:
    return json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments},
        }
    ).encode()


def hang_up_during(serve: Serve, key: str, body: bytes, started: Any, **headers: str) -> None:
    """POST ``body`` to /mcp on a raw socket, close it once ``started()`` says the work is under
    way, and wait until the request has ended (its access log line)."""
    before = len(serve.access_lines("/mcp"))
    head = (
        f"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{serve.port}\r\nx-api-key: {key}\r\n"
        "content-type: application/json\r\naccept: application/json, text/event-stream\r\n"
        f"content-length: {len(body)}\r\n"
    )
    head += "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    with socket.create_connection(("127.0.0.1", serve.port), timeout=10) as sock:
        sock.sendall(head.encode() + b"\r\n" + body)
        wait_for(started, "the work never started")
    wait_for(lambda: len(serve.access_lines("/mcp")) > before, "the request never ended")


def test_an_mcp_generate_whose_agent_hangs_up_is_not_charged(
    served: Serve, images: SlowImages
) -> None:
    key, prefix = served.key()
    markdown = f"# Gone\n\n![a]({images.url('/gone.png')})"
    call = tool_call("generate_cards", {"markdown": markdown, "scale": 1})
    hang_up_during(served, key, call, lambda: images.hits > 0)
    assert served.credits.open_holds() == 0
    assert served.balance(prefix) == 30
    kinds = [row.kind for row in served.credits.ledger(prefix)]
    assert kinds == ["refund", "debit", "grant"]  # held, then given back: never charged


def test_an_mcp_draft_whose_agent_hangs_up_before_the_platform_made_it_is_not_charged(
    served: Serve, platform: FakeWeChat
) -> None:
    key, prefix = served.key()
    platform.slow("/cgi-bin/material/add_material", DELAY)  # the cover, before the draft
    call = tool_call("convert_article", {"markdown": "# Gone before the draft"})
    account = {"platform-appid": APPID, "platform-app-secret": SECRET}
    started = lambda: platform.hits["/cgi-bin/material/add_material"] > 0  # noqa: E731
    hang_up_during(served, key, call, started, **account)
    assert served.credits.open_holds() == 0 and served.balance(prefix) == 30
    time.sleep(DELAY + 0.5)  # past the platform's slow answer: no draft follows it
    assert platform.hits["/cgi-bin/draft/add"] == 0 and not platform.drafts
    assert served.balance(prefix) == 30


def test_an_mcp_draft_the_platform_was_making_is_charged(
    served: Serve, platform: FakeWeChat
) -> None:
    key, prefix = served.key()
    platform.slow("/cgi-bin/draft/add", DELAY)
    call = tool_call("convert_article", {"markdown": "# Made while the agent left"})
    account = {"platform-appid": APPID, "platform-app-secret": SECRET}
    started = lambda: platform.hits["/cgi-bin/draft/add"] > 0  # noqa: E731
    hang_up_during(served, key, call, started, **account)
    # The platform said yes: the draft is real, so the call is charged (its answer kept).
    assert served.credits.open_holds() == 0
    assert served.balance(prefix) == 27 and len(platform.drafts) == 1


def test_an_stdio_agent_that_closes_stdin_mid_call_is_not_charged(
    tmp_path: Path, images: SlowImages
) -> None:
    serve = Serve(tmp_path)  # only for its database and key helpers: never started
    key, prefix = serve.key()
    env = {
        **serve.env,
        "INKCARD_API_KEY": key,
        "INKCARD_GENERATE_COST": str(COST),
        "INKCARD_ALLOW_PRIVATE_FETCH": "1",
    }
    agent = subprocess.Popen(
        [sys.executable, "-m", "inkcard.app.cli", "mcp"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert agent.stdin is not None and agent.stdout is not None
    initialize = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    }
    markdown = f"# Gone\n\n![a]({images.url('/stdio.png')})"
    arguments = {"markdown": markdown, "scale": 1, "includeImages": False}
    try:
        for message in (
            {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": initialize},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            json.loads(tool_call("generate_cards", arguments)),
        ):
            agent.stdin.write(json.dumps(message).encode() + b"\n")
            agent.stdin.flush()
        wait_for(lambda: images.hits > 0, "the work never started", seconds=60)
        agent.stdin.close()  # the agent goes away mid-call
        assert agent.wait(timeout=60) == 0
    finally:
        if agent.poll() is None:
            os.kill(agent.pid, signal.SIGKILL)
            agent.wait(timeout=30)
        agent.stdout.close()
    assert serve.credits.open_holds() == 0
    assert serve.balance(prefix) == 30
    assert [row.kind for row in serve.credits.ledger(prefix)] == ["refund", "debit", "grant"]
