"""The draft box, publishing and stored accounts as MCP tools, driven by the ``mcp`` SDK's own
client over stdio (``inkcard mcp`` as a subprocess) and streamable HTTP (``/mcp`` under
uvicorn), against the fake WeChat platform (tests/fakewechat.py).

Each tool answers what its HTTP route answers (the same operations run), at the same price
(reads free, a publish a draft's price); ``account`` names a stored account wherever
``Platform-Account`` does, with the same refusals; a failed call charges nothing; and the
stored secret is never in an answer or a log line (the server's stderr over stdio, the
captured records over HTTP).
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.fernet import Fernet
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult

from inkcard.app.ledger.credits import Credits
from inkcard.app.mcp.boxlisting import BOX_TOOLS
from inkcard.app.mcp.tools import InkcardTools
from inkcard.app.schema import field_descriptions
from inkcard.app.schema.draftbox import (
    AccountStoreArguments,
    DraftArguments,
    DraftListArguments,
    PublishArguments,
    PublishStatusArguments,
)
from inkcard.app.server.factory import create_app
from inkcard.app.settings import Settings
from tests.app.apphelpers import free_port, running_server
from tests.app.test_mcp import (
    APPID,
    SECRET,
    Http,
    Stdio,
    assert_tool_error,
    ledger,
    run,
    text_of,
)
from tests.fakewechat import FakeWeChat

SERVER_KEY = Fernet.generate_key().decode()
BLOG = {"name": "blog", "appid": APPID, "secret": SECRET}


def article(title: str) -> dict[str, Any]:
    return {"title": title, "author": "Ink", "content": f"<p>{title} body</p>", "digest": title}


def answers_of(*results: CallToolResult) -> str:
    """Everything the tools answered, as text (each block's JSON or note)."""
    return "\n".join(block.model_dump_json() for result in results for block in result.content)


# ---------------------------------------------------------------------------------------------
# stdio


@asynccontextmanager
async def session(stdio: Stdio, stderr: Path, **env: str) -> AsyncIterator[ClientSession]:
    """A session with ``inkcard mcp``, its stderr (the server's log lines) into ``stderr``."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "inkcard.app.cli", "mcp"], env={**stdio.env, **env}
    )
    with stderr.open("a", encoding="utf-8") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as client,
        ):
            await client.initialize()
            yield client


@pytest.fixture
def stdio(tmp_path: Path) -> Iterator[Stdio]:
    """``inkcard mcp``'s environment with a 100-credit key, the account key set and the logs
    at DEBUG on stderr (read by ``logged``)."""
    credits = Credits(tmp_path / "inkcard.db")
    credits.ensure_schema()
    key, info = credits.create_key("agent", 100)
    with FakeWeChat({APPID: SECRET}) as platform:
        env = {
            "INKCARD_DATABASE": str(tmp_path / "inkcard.db"),
            "INKCARD_STORAGE_DIR": str(tmp_path / "files"),
            "INKCARD_WECHAT_API_BASE": platform.url,
            "INKCARD_WECHAT_TIMEOUT": "5",
            "INKCARD_API_KEY": key,
            "INKCARD_ACCOUNT_KEY": SERVER_KEY,
            "INKCARD_LOG_LEVEL": "DEBUG",
            **{k: v for k, v in os.environ.items() if k == "PYTHONPATH"},
        }
        yield Stdio(credits, key, info.prefix, env, platform)


def test_stdio_the_whole_draft_box_by_a_stored_account_name(stdio: Stdio, tmp_path: Path) -> None:
    """Store an account, draft with it by name, read, publish and ask; reads free, the draft
    and the publish paid; the secret never answered and never on the server's stderr."""
    platform = stdio.platform
    spare = platform.store_draft(APPID, [article("Spare")])
    results: list[CallToolResult] = []

    async def scenario() -> None:
        async with session(stdio, tmp_path / "stderr.txt") as client:

            async def call(name: str, arguments: dict[str, Any]) -> Any:
                result = await client.call_tool(name, arguments)
                results.append(result)
                assert not result.is_error, text_of(result)
                return text_of(result)

            stored = await call("store_platform_account", BLOG)
            assert stored["data"] == {
                "name": "blog", "appid": APPID, "updated_at": stored["data"]["updated_at"]
            }  # fmt: skip
            listed = await call("list_platform_accounts", {})
            assert [(a["name"], a["appid"]) for a in listed["data"]] == [("blog", APPID)]
            drafted = await call(
                "convert_article", {"markdown": "# 账号\n\n正文", "account": "blog"}
            )
            media_id = drafted["data"]["media_id"]
            assert platform.draft(media_id)[0]["title"] == "账号"
            page = await call("list_drafts", {"account": "blog", "count": 1})
            assert page["data"]["total_count"] == 2 and page["data"]["cost"] == 0
            assert [d["media_id"] for d in page["data"]["drafts"]] == [media_id]
            read = await call("get_draft", {"account": "blog", "mediaId": media_id})
            assert "正文" in read["data"]["articles"][0]["content"]
            gone = await call("delete_draft", {"account": "blog", "mediaId": spare})
            assert gone["data"] == {"media_id": spare, "cost": 0}
            published = await call("publish_draft", {"account": "blog", "draftMediaId": media_id})
            assert published["data"]["cost"] == 3
            status = await call(
                "get_publish_status",
                {"account": "blog", "publishId": published["data"]["publish_id"]},
            )
            assert status["data"]["status"] == "published" and "live" in status["message"]
            forgotten = await call("delete_platform_account", {"name": "blog"})
            assert forgotten["data"]["name"] == "blog"
            assert (await call("list_platform_accounts", {}))["data"] == []

    run(scenario)
    assert spare not in platform.drafts and not platform.drafts  # deleted, published
    assert stdio.balance() == 100 - 3 - 3
    assert [row[2] for row in ledger(stdio.credits, stdio.prefix)] == [
        "create", "convert-and-draft", "publish"
    ]  # fmt: skip
    stderr = (tmp_path / "stderr.txt").read_text("utf-8")
    assert "platform account blog stored" in stderr  # the server's DEBUG log was read
    for text in (stderr, answers_of(*results)):
        assert SECRET not in text and SERVER_KEY not in text


def test_stdio_refusals_are_the_routes_and_cost_nothing(stdio: Stdio, tmp_path: Path) -> None:
    platform = stdio.platform
    draft = platform.store_draft(APPID, [article("Not yet")])
    results: list[CallToolResult] = []

    async def scenario() -> None:
        async with session(stdio, tmp_path / "stderr.txt") as client:

            async def refused(name: str, arguments: dict[str, Any], label: str) -> str:
                result = await client.call_tool(name, arguments)
                results.append(result)
                return assert_tool_error(result, label)

            await refused(
                "store_platform_account",
                {**BLOG, "secret": "has space " + SECRET},
                "invalid_secret",
            )
            await refused("store_platform_account", {**BLOG, "name": "a b"}, "invalid_account")
            await refused(
                "store_platform_account", {"name": "blog", "appid": APPID}, "invalid_secret"
            )
            unknown = await refused(
                "convert_article", {"markdown": "# x", "account": "blog"}, "account_not_found"
            )
            assert "store_platform_account" in unknown
            await client.call_tool("store_platform_account", BLOG)
            both = await refused(
                "convert_article",
                {"markdown": "# x", "account": "blog", "platformAppid": APPID},
                "conflicting_platform_credentials",
            )
            assert "account" in both and "platformAppid" in both
            await refused(
                "create_newspic_draft", {"markdown": "# x", "account": "nope"}, "account_not_found"
            )
            await refused("list_drafts", {}, "missing_platform_credentials")
            await refused("list_drafts", {"account": "blog", "count": 21}, "invalid_count")
            await refused("list_drafts", {"account": "blog", "offset": "0"}, "invalid_offset")
            await refused("list_drafts", {"account": 7}, "invalid_account")
            await refused("get_draft", {"account": "blog"}, "invalid_mediaid")
            await refused("get_draft", {"account": "blog", "mediaId": "gone"}, "draft_not_found")
            await refused("delete_draft", {"account": "blog", "mediaID": draft}, "unknown_field")
            await refused(
                "get_publish_status", {"account": "blog", "publishId": "9"}, "publish_not_found"
            )
            await refused("publish_draft", {"account": "blog"}, "invalid_draft_media_id")
            await refused(
                "publish_draft", {"account": "blog", "draftMediaId": "gone"}, "draft_not_found"
            )
            platform.force(48001, "/cgi-bin/freepublish/submit")
            why = await refused(
                "publish_draft",
                {"account": "blog", "draftMediaId": draft},
                "platform_api_unauthorized",
            )
            assert "verified" in why and "48001" in why and "draft box" in why
            platform.clear()
            platform.force(-1, "/cgi-bin/freepublish/submit")
            await refused(
                "publish_draft",
                {"platformAppid": APPID, "platformAppSecret": SECRET, "draftMediaId": draft},
                "platform_error",
            )
            platform.clear()
            await refused("delete_platform_account", {"name": "other"}, "account_not_found")

    run(scenario)
    assert draft in platform.drafts  # never published
    assert stdio.balance() == 100
    assert ledger(stdio.credits, stdio.prefix)[0] == (100, "grant", "create")
    assert sum(delta for delta, _, _ in ledger(stdio.credits, stdio.prefix)) == 100
    stderr = (tmp_path / "stderr.txt").read_text("utf-8")
    for text in (stderr, answers_of(*results)):
        assert SECRET not in text


def test_stdio_without_the_account_key_naming_an_account_is_a_400_naming_the_setting(
    stdio: Stdio,
) -> None:
    async def scenario() -> None:
        async with stdio.session(INKCARD_ACCOUNT_KEY="") as session:
            store = await session.call_tool("store_platform_account", BLOG)
            named = await session.call_tool("list_drafts", {"account": "blog"})
        assert "INKCARD_ACCOUNT_KEY" in assert_tool_error(store, "account_key_missing")
        assert "INKCARD_ACCOUNT_KEY" in assert_tool_error(named, "account_key_missing")

    run(scenario)
    assert stdio.balance() == 100 and not stdio.platform.hits


def test_stdio_the_environment_may_name_a_stored_account(stdio: Stdio, tmp_path: Path) -> None:
    """``INKCARD_PLATFORM_ACCOUNT`` keeps the secret out of the agent's configuration: the
    account of every call without account arguments; with the AppID variables too, refused."""
    mine = stdio.platform.store_draft(APPID, [article("Configured")])
    stderr = tmp_path / "stderr.txt"

    async def scenario() -> None:
        async with session(stdio, stderr) as client:
            assert not (await client.call_tool("store_platform_account", BLOG)).is_error
        async with session(stdio, stderr, INKCARD_PLATFORM_ACCOUNT="blog") as client:
            page = await client.call_tool("list_drafts", {})
            drafted = await client.call_tool("convert_article", {"markdown": "# 环境\n\n正文"})
        assert [d["media_id"] for d in text_of(page)["data"]["drafts"]] == [mine]
        assert stdio.platform.draft(text_of(drafted)["data"]["media_id"])[0]["title"] == "环境"
        both = {"INKCARD_PLATFORM_ACCOUNT": "blog", "INKCARD_PLATFORM_APPID": APPID}
        async with session(stdio, stderr, **both) as client:
            refused = await client.call_tool("list_drafts", {})
        message = assert_tool_error(refused, "conflicting_platform_credentials")
        assert "INKCARD_PLATFORM_ACCOUNT" in message and "INKCARD_PLATFORM_APPID" in message

    run(scenario)
    assert stdio.balance() == 100 - 3
    assert SECRET not in stderr.read_text("utf-8")


# ---------------------------------------------------------------------------------------------
# streamable HTTP


@pytest.fixture
def http(make_settings: Callable[..., Settings]) -> Iterator[Http]:
    with FakeWeChat({APPID: SECRET}) as platform:
        port = free_port()
        settings = make_settings(
            port=port,
            wechat_api_base=platform.url,
            wechat_timeout=5,
            account_key=SERVER_KEY,
            log_level="DEBUG",
        )
        app = create_app(settings)
        with running_server(app, port) as base:
            yield Http(base, app, platform)


def server_lines(caplog: pytest.LogCaptureFixture) -> str:
    """What the service logged: every record but the test's own MCP client's (which logs each
    message it sends, the arguments included)."""
    return "\n".join(
        f"{record.getMessage()} {record.exc_text or ''}"
        for record in caplog.records
        if not record.name.startswith("mcp.client")
    )


def rest(http: Http, method: str, path: str, key: str, **kwargs: Any) -> httpx.Response:
    headers = {"x-api-key": key} | kwargs.pop("headers", {})
    return httpx.request(method, http.base + path, headers=headers, timeout=60, **kwargs)


def test_http_box_tools_answer_and_charge_what_the_routes_do(
    http: Http, caplog: pytest.LogCaptureFixture
) -> None:
    """One key works through /api/platform/*, another through /mcp: the same answers (but
    for ids the platform makes anew), the same ledger."""
    caplog.set_level(logging.DEBUG)
    rest_key, rest_prefix = http.new_key()
    mcp_key, mcp_prefix = http.new_key()
    named = {"Platform-Account": "blog"}
    platform = http.platform
    assert rest(http, "PUT", "/api/platform/accounts/blog", rest_key,
                json={"appid": APPID, "secret": SECRET}).status_code == 200  # fmt: skip
    kept = platform.store_draft(APPID, [article("Kept")])
    rest_draft = platform.store_draft(APPID, [article("By REST")])
    mcp_draft = platform.store_draft(APPID, [article("By MCP")])
    page = rest(http, "GET", "/api/platform/drafts?offset=1&count=2", rest_key, headers=named)
    read = rest(http, "GET", f"/api/platform/drafts/{kept}", rest_key, headers=named)
    missing = rest(http, "DELETE", "/api/platform/drafts/gone", rest_key, headers=named)
    results: list[CallToolResult] = []
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        async with http.session(mcp_key) as session:

            async def call(name: str, arguments: dict[str, Any]) -> CallToolResult:
                result = await session.call_tool(name, {"account": "blog", **arguments})
                results.append(result)
                return result

            stored = await session.call_tool("store_platform_account", BLOG)
            results.append(stored)
            assert not stored.is_error, text_of(stored)
            seen["page"] = text_of(await call("list_drafts", {"offset": 1, "count": 2}))
            seen["read"] = text_of(await call("get_draft", {"mediaId": kept}))
            seen["missing"] = await call("delete_draft", {"mediaId": "gone"})
            seen["done"] = text_of(await call("publish_draft", {"draftMediaId": mcp_draft}))
            job = seen["done"]["data"]["publish_id"]
            seen["state"] = text_of(await call("get_publish_status", {"publishId": job}))
            again = await call("publish_draft", {"draftMediaId": mcp_draft})
            seen["again"] = text_of(again)
            listed = await session.call_tool("list_platform_accounts", {})
            results.append(listed)
            seen["accounts"] = [a["name"] for a in text_of(listed)["data"]]

    run(scenario)
    assert seen["page"] == page.json() and seen["read"] == read.json()
    assert assert_tool_error(seen["missing"], "draft_not_found") == missing.json()["message"]
    published = rest(http, "POST", "/api/platform/publish", rest_key, headers=named,
                     json={"draftMediaId": rest_draft})  # fmt: skip
    assert published.status_code == 200, published.text
    job = published.json()["data"]["publish_id"]
    status = rest(http, "GET", f"/api/platform/publish/{job}", rest_key, headers=named)
    assert seen["done"]["data"]["cost"] == published.json()["data"]["cost"] == 3
    assert seen["state"]["data"]["status"] == status.json()["data"]["status"] == "published"
    assert seen["again"] == seen["done"]  # answered again, never submitted twice
    assert seen["accounts"] == ["blog"]
    assert platform.hits["/cgi-bin/freepublish/submit"] == 2  # one each way
    assert http.credits.key_info(mcp_prefix).balance == 100 - 3
    assert ledger(http.credits, mcp_prefix) == ledger(http.credits, rest_prefix)
    logged = server_lines(caplog)
    assert "platform account blog stored" in logged  # the capture saw the accounts' lines
    for text in (logged, answers_of(*results)):
        assert SECRET not in text and SERVER_KEY not in text


def test_http_the_connection_may_name_a_stored_account(http: Http) -> None:
    """``Platform-Account`` on the connection is the account of every call without account
    arguments; arguments replace it; it and the AppID headers together are refused."""
    key, prefix = http.new_key()
    assert rest(http, "PUT", "/api/platform/accounts/blog", key,
                json={"appid": APPID, "secret": SECRET}).status_code == 200  # fmt: skip
    mine = http.platform.store_draft(APPID, [article("Mine")])

    async def scenario() -> None:
        async with http.session(key, **{"Platform-Account": "blog"}) as session:
            drafted = await session.call_tool("convert_article", {"markdown": "# 连接\n\n正文"})
            page = await session.call_tool("list_drafts", {})
            other = await session.call_tool("list_drafts", {"account": "elsewhere"})
        assert not drafted.is_error, text_of(drafted)
        assert http.platform.draft(text_of(drafted)["data"]["media_id"])[0]["title"] == "连接"
        assert text_of(page)["data"]["total_count"] == 2
        assert_tool_error(other, "account_not_found")
        both = {"Platform-Account": "blog", "Platform-Appid": APPID, "Platform-App-Secret": SECRET}
        async with http.session(key, **both) as session:
            refused = await session.call_tool("get_draft", {"mediaId": mine})
        message = assert_tool_error(refused, "conflicting_platform_credentials")
        assert "Platform-Account" in message and SECRET not in message

    run(scenario)
    assert http.credits.key_info(prefix).balance == 100 - 3
    # the HTTP body has no account field: the refusal says where the name goes
    body = {"markdown": "# x", "account": "blog"}
    misplaced = rest(http, "POST", "/api/platform/convert-and-draft", key, json=body)
    assert misplaced.status_code == 400 and misplaced.json()["error"] == "unknown_field"
    assert "Platform-Account header" in misplaced.json()["message"]


def test_http_an_unverified_account_is_told_why_and_charged_nothing(http: Http) -> None:
    key, prefix = http.new_key()
    draft = http.platform.store_draft(APPID, [article("Unverified")])
    account = {"platformAppid": APPID, "platformAppSecret": SECRET}

    async def scenario() -> None:
        http.platform.force(48001)
        async with http.session(key) as session:
            listed = await session.call_tool("list_drafts", account)
            publish = await session.call_tool("publish_draft", {**account, "draftMediaId": draft})
        assert "48001" in assert_tool_error(listed, "platform_api_unauthorized")
        why = assert_tool_error(publish, "platform_api_unauthorized")
        assert "verified" in why and "mp.weixin.qq.com" in why
        assert SECRET not in why

    run(scenario)
    assert http.credits.key_info(prefix).balance == 100
    assert sum(delta for delta, _, _ in ledger(http.credits, prefix)) == 100
    assert draft in http.platform.drafts


# ---------------------------------------------------------------------------------------------
# the listing


def test_the_box_tools_are_listed_with_their_models_and_prices(http: Http) -> None:
    tools = {tool.name: tool for tool in InkcardTools(http.app.state.services).tools()}
    assert set(BOX_TOOLS) <= set(tools)
    for name, struct, required in (
        ("list_drafts", DraftListArguments, None),
        ("get_draft", DraftArguments, ["mediaId"]),
        ("delete_draft", DraftArguments, ["mediaId"]),
        ("publish_draft", PublishArguments, ["draftMediaId"]),
        ("get_publish_status", PublishStatusArguments, ["publishId"]),
        ("store_platform_account", AccountStoreArguments, ["name", "appid", "secret"]),
    ):
        schema = tools[name].input_schema
        described = {n: f.get("description", "") for n, f in schema["properties"].items()}
        assert described == field_descriptions(struct), name
        assert schema.get("required") == required, name
        assert schema["additionalProperties"] is False
        for field in schema["properties"].values():  # plain types, never null
            assert {"type": "null"} not in field.get("anyOf", []), name
    for name in ("list_drafts", "get_draft", "delete_draft", "get_publish_status"):
        assert "Free (0 credits)" in (tools[name].description or ""), name
        assert "account" in tools[name].input_schema["properties"]
    assert "3 credits" in (tools["publish_draft"].description or "")
    assert "never shown again" in (tools["store_platform_account"].description or "")
    assert tools["delete_draft"].annotations and tools["delete_draft"].annotations.destructive_hint
    assert "secret" not in tools["list_platform_accounts"].input_schema["properties"]
