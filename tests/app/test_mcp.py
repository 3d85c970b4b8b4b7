"""The MCP server, driven by the ``mcp`` SDK's own client: over stdio (``inkcard mcp`` as a
subprocess) and over streamable HTTP (``/mcp`` on the service under uvicorn on 127.0.0.1).

Each transport lists the tools, calls each one, decodes what comes back (PNG image content
included), and checks the errors (tool errors with our labels, no trace) and the credits: a
call costs what the same HTTP request costs, with the same ledger rows, and a failed call
costs nothing.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from litestar import Litestar
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, ImageContent, TextContent

from inkcard.app.ledger.credits import Credits
from inkcard.app.server.factory import create_app
from inkcard.app.settings import Settings
from tests.app.apphelpers import free_port, png_size, running_server
from tests.fakewechat import FakeWeChat

APPID = "wx5f1d2c3b4a596870"
SECRET = "0123456789abcdef0123456789abcdef"
GENERATE_COST = 2
TWO_PARTS = "# One\n\nThe first card.\n\n---\n\n# Two\n\nThe second card."
TOOLS = {
    "generate_cards",
    "generate_cover",
    "convert_article",
    "create_newspic_draft",
    "create_xhs_note",
    "list_themes",
    "list_drafts",
    "get_draft",
    "delete_draft",
    "publish_draft",
    "get_publish_status",
    "store_platform_account",
    "list_platform_accounts",
    "delete_platform_account",
}
INITIALIZE = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "test", "version": "1"},
}

Scenario = Callable[[ClientSession], Awaitable[None]]


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    anyio.run(scenario)


def text_of(result: CallToolResult) -> Any:
    """The JSON of the first content block (every answer and error starts with it)."""
    first = result.content[0]
    assert isinstance(first, TextContent)
    return json.loads(first.text)


def images_of(result: CallToolResult) -> list[bytes]:
    return [
        base64.b64decode(block.data)
        for block in result.content
        if isinstance(block, ImageContent) and block.mime_type == "image/png"
    ]


def assert_tool_error(result: CallToolResult, label: str) -> str:
    """``result`` is a tool error with our body and ``label``; returns its message."""
    assert result.is_error
    body = text_of(result)
    assert set(body) == {"error", "message"}
    assert body["error"] == label, body
    assert result.structured_content == body
    assert "Traceback" not in body["message"] and 'File "' not in body["message"]
    return str(body["message"])


def ledger(credits: Credits, prefix: str) -> list[tuple[int, str, str]]:
    """(delta, kind, operation) of a key's rows, oldest first."""
    return [(r.delta, r.kind, r.operation) for r in reversed(credits.ledger(prefix, 100))]


# ---------------------------------------------------------------------------------------------
# stdio


@dataclass
class Stdio:
    credits: Credits
    key: str
    prefix: str
    env: dict[str, str]
    platform: FakeWeChat

    @asynccontextmanager
    async def session(self, **env: str) -> AsyncIterator[ClientSession]:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "inkcard.app.cli", "mcp"], env={**self.env, **env}
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            yield session

    def balance(self) -> int:
        return self.credits.key_info(self.prefix).balance


@pytest.fixture
def stdio(tmp_path: Path) -> Iterator[Stdio]:
    """A database with a 100-credit key, and the environment ``inkcard mcp`` runs in."""
    credits = Credits(tmp_path / "inkcard.db")
    credits.ensure_schema()
    key, info = credits.create_key("agent", 100)
    with FakeWeChat({APPID: SECRET}) as platform:
        env = {
            "INKCARD_DATABASE": str(tmp_path / "inkcard.db"),
            "INKCARD_STORAGE_DIR": str(tmp_path / "files"),
            "INKCARD_GENERATE_COST": str(GENERATE_COST),
            "INKCARD_WECHAT_API_BASE": platform.url,
            "INKCARD_WECHAT_TIMEOUT": "5",
            "INKCARD_API_KEY": key,
            "INKCARD_LOG_LEVEL": "WARNING",
            # the SDK starts the server with a few variables only: the code under test, too
            **{k: v for k, v in os.environ.items() if k == "PYTHONPATH"},
        }
        yield Stdio(credits, key, info.prefix, env, platform)


def test_stdio_lists_the_tools_with_their_split_modes_explained(stdio: Stdio) -> None:
    async def scenario() -> None:
        async with stdio.session() as session:
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        assert set(tools) == TOOLS
        generate = tools["generate_cards"]
        for words in ("noSplit (the default): always ONE card", "autoSplit", "hrSplit"):
            assert words in (generate.description or "")
        assert f"costs {GENERATE_COST} credits" in (generate.description or "")
        fields = generate.input_schema["properties"]
        assert {"markdown", "theme", "themeMode", "width", "height", "splitMode", "mdxMode",
                "overHiddenMode", "scale"} <= set(fields)  # fmt: skip
        assert {"apple-notes", "苹果备忘录"} <= set(fields["theme"]["enum"])  # a label too
        assert fields["splitMode"]["enum"] == ["autoSplit", "hrSplit", "noSplit"]
        article = tools["convert_article"].input_schema["properties"]
        assert {"markdown", "theme", "title", "platformAppid", "platformAppSecret",
                "account"} <= set(article)  # fmt: skip

    run(scenario)


def notes_of(result: CallToolResult) -> list[str]:
    """The plain-text blocks after the answer's JSON."""
    return [b.text for b in result.content[1:] if isinstance(b, TextContent)]


def test_stdio_generate_returns_pngs_and_files_without_urls_and_charges_once(
    stdio: Stdio,
) -> None:
    """Nothing serves local files to a stdio server: no URL (not the guess of a service on
    127.0.0.1:8000), one sentence saying why and where the files are, the cards inline."""

    async def scenario() -> None:
        async with stdio.session() as session:
            result = await session.call_tool(
                "generate_cards", {"markdown": TWO_PARTS, "splitMode": "hrSplit", "width": 500}
            )
            files_only = await session.call_tool(
                "generate_cards", {"markdown": "# Only files", "includeImages": False}
            )
        assert not result.is_error
        records = text_of(result)["images"]
        assert [r["fileName"].endswith(f"-{n}.png") for n, r in enumerate(records, 1)] == [
            True,
            True,
        ]
        assert [r["url"] for r in records] == ["", ""]
        assert all(0 <= r["quality"]["score"] <= 100 for r in records)  # the engine's report
        stored = Path(stdio.env["INKCARD_STORAGE_DIR"])
        [why] = notes_of(result)
        assert "no URL" in why and "INKCARD_PUBLIC_URL" in why and str(stored) in why
        pngs = images_of(result)
        assert len(pngs) == 2
        assert all(png_size(png)[0] == 1000 for png in pngs)  # 500 CSS px at scale 2
        assert pngs == [(stored / r["fileName"]).read_bytes() for r in records]
        assert not files_only.is_error
        assert len(text_of(files_only)["images"]) == 1 and images_of(files_only) == []
        assert notes_of(files_only) == [why]

    run(scenario)
    assert stdio.balance() == 100 - 2 * GENERATE_COST
    assert [row[2] for row in ledger(stdio.credits, stdio.prefix)] == [
        "create",
        "generate",
        "generate",
    ]


def test_stdio_urls_are_under_the_public_url_when_one_is_set(stdio: Stdio) -> None:
    public = "https://cards.example.com/files"

    async def scenario() -> None:
        async with stdio.session(INKCARD_PUBLIC_URL=public) as session:
            result = await session.call_tool("generate_cards", {"markdown": "# Public"})
            cover = await session.call_tool("generate_cover", {"text": "Public covers"})
        [record] = text_of(result)["images"]
        assert record["url"] == f"{public}/{record['fileName']}"
        assert notes_of(result) == [] and len(images_of(result)) == 1
        [made] = text_of(cover)["images"]
        assert made["url"] == f"{public}/{made['fileName']}" and images_of(cover) == []

    run(scenario)


def test_stdio_covers_without_urls_come_inline(stdio: Stdio) -> None:
    async def scenario() -> None:
        async with stdio.session() as session:
            cover = await session.call_tool("generate_cover", {"text": "Inline", "count": 2})
        records = text_of(cover)["images"]
        assert [r["url"] for r in records] == ["", ""]
        assert len(notes_of(cover)) == 1 and "no URL" in notes_of(cover)[0]
        stored = Path(stdio.env["INKCARD_STORAGE_DIR"])
        assert images_of(cover) == [(stored / r["fileName"]).read_bytes() for r in records]

    run(scenario)


def test_stdio_errors_are_tool_errors_with_our_labels_and_cost_nothing(stdio: Stdio) -> None:
    async def scenario() -> None:
        async with stdio.session() as session:
            theme = await session.call_tool("generate_cards", {"theme": "no-such-theme"})
            width = await session.call_tool("generate_cards", {"width": "wide"})
            mode = await session.call_tool(
                "generate_cards", {"theme": "apple-notes", "themeMode": "neon"}
            )
            article = await session.call_tool("convert_article", {"theme": "brandZ"})
            half = await session.call_tool(
                "convert_article", {"markdown": "# x", "platformAppSecret": SECRET}
            )
            unknown = await session.call_tool("make_coffee", {})
            include = await session.call_tool("generate_cards", {"includeImages": "yes"})
        assert "apple-notes" in assert_tool_error(theme, "invalid_theme")
        assert assert_tool_error(width, "invalid_width") == (
            "width must be a number between 100 and 1600"
        )
        assert "dark-mode" in assert_tool_error(mode, "invalid_theme_mode")
        assert_tool_error(article, "invalid_theme")
        message = assert_tool_error(half, "missing_platform_credentials")
        assert "platformAppid is missing" in message and SECRET not in message
        assert_tool_error(unknown, "unknown_tool")
        assert_tool_error(include, "invalid_include_images")

    run(scenario)
    assert stdio.balance() == 100
    assert ledger(stdio.credits, stdio.prefix) == [(100, "grant", "create")]


def test_stdio_article_html_and_draft_from_arguments(stdio: Stdio) -> None:
    async def scenario() -> None:
        async with stdio.session() as session:
            html = await session.call_tool(
                "convert_article", {"markdown": "# 标题\n\n正文", "theme": "notebook"}
            )
            draft = await session.call_tool(
                "convert_article",
                {"markdown": "# 草稿\n\n正文", "platformAppid": APPID, "platformAppSecret": SECRET},
            )
            wrong = await session.call_tool(
                "convert_article",
                {"markdown": "# x", "platformAppid": APPID, "platformAppSecret": "f" * 32},
            )
        body = text_of(html)
        assert body["success"] is True and body["cost"] == 1
        assert body["html"].startswith("<!DOCTYPE html>") and "标题" in body["html"]
        drafted = text_of(draft)
        assert drafted["data"]["cost"] == 3
        [article] = stdio.platform.draft(drafted["data"]["media_id"])
        assert article["title"] == "草稿"
        assert "f" * 32 not in assert_tool_error(wrong, "invalid_platform_credentials")

    run(scenario)
    assert stdio.balance() == 100 - 1 - 3


def test_stdio_draft_account_from_the_environment(stdio: Stdio) -> None:
    async def scenario() -> None:
        configured = {"INKCARD_PLATFORM_APPID": APPID, "INKCARD_PLATFORM_APP_SECRET": SECRET}
        async with stdio.session(**configured) as session:
            draft = await session.call_tool("convert_article", {"markdown": "# 环境\n\n正文"})
        assert stdio.platform.draft(text_of(draft)["data"]["media_id"])[0]["title"] == "环境"

    run(scenario)
    assert stdio.balance() == 100 - 3


def test_stdio_list_themes_has_modes_and_descriptions_and_no_preview_guess(
    stdio: Stdio,
) -> None:
    async def scenario() -> None:
        async with stdio.session() as session:
            result = await session.call_tool("list_themes", {})
        themes = {card["id"]: card for card in text_of(result)["cards"]}
        apple = themes["apple-notes"]
        assert apple["modes"] == ["light-mode", "dark-mode"] and apple["description"]
        assert apple["preview"] == "" and apple["previews"]["dark-mode"] == ""
        [why] = notes_of(result)
        assert "inkcard serve" in why
        assert text_of(result)["articles"][0] == "brandA"

    run(scenario)
    assert stdio.balance() == 100


def test_stdio_refuses_to_start_without_a_live_key(stdio: Stdio) -> None:
    for key, said in (("", "INKCARD_API_KEY"), ("ik_" + "x" * 32, "invalid_api_key")):
        done = subprocess.run(
            [sys.executable, "-m", "inkcard.app.cli", "mcp"],
            env={**stdio.env, "INKCARD_API_KEY": key},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2
        assert said in done.stderr and "Traceback" not in done.stderr
        assert done.stdout == ""  # stdout is the protocol's: nothing else may be written there


def _jsonrpc(message: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n"


HUGE_LINE_BYTES = 100 * 2**20


def _huge_valid_line() -> Iterator[bytes]:
    """A 100 MiB JSON-RPC request (one string parameter), in 1 MiB pieces."""
    yield b'{"jsonrpc": "2.0", "id": 8, "method": "ping", "params": {"x": "'
    for _ in range(HUGE_LINE_BYTES // 2**20):
        yield b"x" * 2**20
    yield b'"}}\n'


def test_stdio_answers_lines_it_cannot_read_and_serves_the_next(stdio: Stdio) -> None:
    """Nested 50,000 deep, not JSON, JSON that is no JSON-RPC message, 100 MiB long: each
    line gets a JSON-RPC error (the SDK's transport answered none of them) and the server
    reads on; the long line is never held whole (the server's peak memory shows it)."""
    bad = [
        b"[" * 50_000 + b"]" * 50_000 + b"\n",
        b'{"a":' * 50_000 + b"1" + b"}" * 50_000 + b"\n",
        b"not json\n",
        b'{"jsonrpc": "2.0", "id": 7}\n',
        b'{"jsonrpc": "2.0", "id": NaN}\n',
    ]
    proc = subprocess.Popen(
        [sys.executable, "-m", "inkcard.app.cli", "mcp"],
        env=stdio.env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None

    def write() -> None:
        assert proc.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.write(
                _jsonrpc({"id": 1, "method": "initialize", "params": INITIALIZE})
                + _jsonrpc({"method": "notifications/initialized"})
            )
            proc.stdin.flush()
            for line in bad:
                proc.stdin.write(line)
            for piece in _huge_valid_line():
                proc.stdin.write(piece)
            proc.stdin.write(_jsonrpc({"id": 2, "method": "ping"}))
            proc.stdin.flush()

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    answers: list[dict[str, Any]] = []
    try:
        while not any(answer.get("id") == 2 for answer in answers):
            line = proc.stdout.readline()
            assert line, f"the server stopped answering; got {answers}"
            answers.append(json.loads(line))
        # The process's own peak since it started (not ru_maxrss, which a child inherits
        # from the test process that forked it).
        status = Path(f"/proc/{proc.pid}/status").read_text()
        peak_kib = int(status.split("VmHWM:")[1].split()[0])
    finally:
        proc.stdin.close()
        writer.join(timeout=60)
        proc.wait(timeout=60)
    proc.stdout.close()
    errors = [(a["id"], a["error"]["code"]) for a in answers if "error" in a]
    assert errors == [
        (None, -32700),
        (None, -32700),
        (None, -32700),
        (7, -32600),
        (None, -32600),
        (None, -32700),
    ]
    assert {"id": 2, "jsonrpc": "2.0", "result": {}} in answers
    # Peak resident set in KiB: about 230 MiB, and 600 MiB when the long line was read whole.
    assert peak_kib < 400 * 1024


# ---------------------------------------------------------------------------------------------
# streamable HTTP


@dataclass
class Http:
    base: str
    app: Litestar
    platform: FakeWeChat

    @property
    def credits(self) -> Credits:
        credits: Credits = self.app.state.services.credits
        return credits

    def new_key(self, credits: int = 100) -> tuple[str, str]:
        key, info = self.credits.create_key("agent", credits)
        return key, info.prefix

    @asynccontextmanager
    async def session(self, key: str, **headers: str) -> AsyncIterator[ClientSession]:
        client = httpx2.AsyncClient(headers={"x-api-key": key, **headers}, timeout=60)
        async with (
            client,
            streamable_http_client(f"{self.base}/mcp", http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


@pytest.fixture
def http(make_settings: Callable[..., Settings]) -> Iterator[Http]:
    with FakeWeChat({APPID: SECRET}) as platform:
        port = free_port()
        settings = make_settings(
            port=port,
            generate_cost=GENERATE_COST,
            wechat_api_base=platform.url,
            wechat_timeout=5,
        )
        app = create_app(settings)
        with running_server(app, port) as base:
            yield Http(base, app, platform)


def test_http_needs_the_api_key_like_every_paid_route(http: Http) -> None:
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    missing = httpx.post(f"{http.base}/mcp", json=initialize)
    assert missing.status_code == 401
    assert missing.json()["error"] == "missing_api_key"
    wrong = httpx.post(f"{http.base}/mcp", json=initialize, headers={"x-api-key": "ik_nope"})
    assert wrong.status_code == 401
    assert wrong.json()["error"] == "invalid_api_key"


def test_http_tools_charge_exactly_what_the_http_routes_charge(http: Http) -> None:
    """The same work through /api/* with one key and through /mcp with another: same answers,
    same balance, same ledger rows."""
    rest_key, rest_prefix = http.new_key()
    mcp_key, mcp_prefix = http.new_key()
    body = {"markdown": TWO_PARTS, "splitMode": "hrSplit", "theme": "pop-art"}
    headers = {"x-api-key": rest_key}
    rest = httpx.post(f"{http.base}/api/generate", json=body, headers=headers, timeout=60)
    assert rest.status_code == 200
    article = {"markdown": "# 标题\n\n正文"}
    rest_html = httpx.post(
        f"{http.base}/api/platform/convert-and-draft", json=article, headers=headers, timeout=60
    )
    assert rest_html.status_code == 200
    rest_bad = httpx.post(f"{http.base}/api/generate", json={"scale": 9}, headers=headers)
    assert rest_bad.status_code == 400

    async def scenario() -> None:
        async with http.session(mcp_key) as session:
            tools = {tool.name for tool in (await session.list_tools()).tools}
            assert tools == TOOLS
            cards = await session.call_tool("generate_cards", body)
            html = await session.call_tool("convert_article", article)
            bad = await session.call_tool("generate_cards", {"scale": 9})
            listed = await session.call_tool("list_themes", {})
        assert text_of(cards) == rest.json()  # the same stored cards, found again
        pngs = images_of(cards)
        assert all(png_size(png)[0] == 880 for png in pngs)  # 440 CSS px at scale 2
        assert len(pngs) == 2
        stored = [
            httpx.get(record["url"]).content for record in rest.json()["images"]
        ]  # served by the same service
        assert pngs == stored
        assert text_of(html) == rest_html.json()
        assert assert_tool_error(bad, "invalid_scale") == rest_bad.json()["message"]
        preview = text_of(listed)["cards"][0]["preview"]
        assert preview.startswith(f"{http.base}/api/previews/")
        assert png_size(httpx.get(preview, timeout=60).content) == (220, 293)

    run(scenario)
    balance = 100 - GENERATE_COST - 1
    assert http.credits.key_info(rest_prefix).balance == balance
    assert http.credits.key_info(mcp_prefix).balance == balance
    assert ledger(http.credits, mcp_prefix) == ledger(http.credits, rest_prefix)


def test_http_draft_with_the_connections_platform_headers(http: Http) -> None:
    key, prefix = http.new_key()
    account = {"Platform-Appid": APPID, "Platform-App-Secret": SECRET}

    async def scenario() -> None:
        async with http.session(key, **account) as session:
            draft = await session.call_tool(
                "convert_article", {"markdown": "# 连接\n\n正文", "author": "Ink"}
            )
            again = await session.call_tool(
                "convert_article", {"markdown": "# 连接\n\n正文", "idempotencyKey": "post-1"}
            )
            replay = await session.call_tool(
                "convert_article", {"markdown": "# 连接\n\n正文", "idempotencyKey": "post-1"}
            )
            empty = await session.call_tool("convert_article", {"markdown": "  "})
        data = text_of(draft)["data"]
        [article] = http.platform.draft(data["media_id"])
        assert (article["title"], article["author"]) == ("连接", "Ink")
        assert text_of(replay) == text_of(again)  # charged once
        assert_tool_error(empty, "empty_markdown")

    run(scenario)
    assert http.credits.key_info(prefix).balance == 100 - 3 - 3


def test_http_refusals_cost_nothing(http: Http) -> None:
    poor_key, poor_prefix = http.new_key(credits=1)

    async def scenario() -> None:
        async with http.session(poor_key) as session:
            article = await session.call_tool("convert_article", {"markdown": "# x"})
            cards = await session.call_tool("generate_cards", {"markdown": "# x"})
            themes = await session.call_tool("list_themes", {})
        assert "balance is 1" in assert_tool_error(article, "insufficient_credits")
        assert_tool_error(cards, "insufficient_credits")
        assert not themes.is_error  # free

    run(scenario)
    assert http.credits.key_info(poor_prefix).balance == 1
    assert ledger(http.credits, poor_prefix) == [(1, "grant", "create")]


def test_http_tool_call_authenticates_its_key_once(
    http: Http, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The /mcp mount checks the key before the MCP layer; the tool uses that check."""
    key, _ = http.new_key()
    checks: list[str] = []
    real = http.credits.authenticate

    def counted(sent: str) -> Any:
        checks.append(sent)
        return real(sent)

    monkeypatch.setattr(http.credits, "authenticate", counted)
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "convert_article", "arguments": {"markdown": "# once"}},
    }
    headers = {"x-api-key": key, "accept": "application/json, text/event-stream"}
    answer = httpx.post(f"{http.base}/mcp", json=call, headers=headers, timeout=60)
    assert answer.status_code == 200, answer.text
    assert not answer.json()["result"].get("isError")
    assert checks == [key]


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 50_000 + b"]" * 50_000,
        b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
        b"not json",
    ],
)
def test_http_answers_a_body_it_cannot_parse_with_a_parse_error(http: Http, body: bytes) -> None:
    key, prefix = http.new_key()
    headers = {
        "x-api-key": key,
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
    }
    response = httpx.post(f"{http.base}/mcp", content=body, headers=headers, timeout=30)
    assert response.status_code == 400
    answer = response.json()
    assert answer["id"] is None and answer["error"]["code"] == -32700
    assert ledger(http.credits, prefix) == [(100, "grant", "create")]


def test_http_tool_urls_follow_the_host_the_agent_used(http: Http) -> None:
    key, _ = http.new_key()
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "generate_cards",
            "arguments": {"markdown": "# Far away", "includeImages": False},
        },
    }
    headers = {
        "x-api-key": key,
        "accept": "application/json, text/event-stream",
        "host": "agents.example.org:9000",
    }
    answer = httpx.post(f"{http.base}/mcp", json=call, headers=headers, timeout=60)
    assert answer.status_code == 200, answer.text
    [content] = answer.json()["result"]["content"]
    [record] = json.loads(content["text"])["images"]
    assert record["url"].startswith("http://agents.example.org:9000/files/")


@pytest.mark.parametrize("path", ["/mcp", "/mcp/"])
def test_http_get_is_405_with_allow_not_a_silent_stream(http: Http, path: str) -> None:
    key, _ = http.new_key()
    headers = {"x-api-key": key, "accept": "text/event-stream"}
    response = httpx.get(f"{http.base}{path}", headers=headers, timeout=5)
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    assert response.json()["error"] == "method_not_allowed"
