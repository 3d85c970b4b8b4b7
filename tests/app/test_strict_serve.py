"""What a caller meets when a request names a field we do not read or has nothing to do: a
real `inkcard serve` (its own process, paying keys, the fake WeChat platform), the
`inkcard mcp` stdio server and `inkcard render`. Every refusal is a 400 with its label, and
the key's balance is read before and after: nothing is charged, nothing reaches the platform.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent

from inkcard.app.ledger.credits import Credits
from tests.app.apphelpers import free_port, wait_until_ok
from tests.fakewechat import FakeWeChat

APPID, SECRET = "wx0123456789abcdef", "0123456789abcdef0123456789abcdef"
ACCOUNT = {"Platform-Appid": APPID, "Platform-App-Secret": SECRET}
GENERATE = "/api/generate"
COVER = "/api/generate/cover"
ARTICLE = "/api/platform/convert-and-draft"
NEWSPIC = "/api/platform/newspic-draft"
CREDITS = 100
LIST_FRONT_MATTER = "---\n- title\n- author\n---\n# The post\n\nIts text."


@dataclass
class Service:
    """``inkcard serve`` on a free loopback port, a paying key and the fake platform."""

    base: str
    key: str
    prefix: str
    credits: Credits
    platform: FakeWeChat
    process: subprocess.Popen[bytes]

    def post(self, path: str, body: Any, headers: dict[str, str] | None = None) -> httpx.Response:
        sent = {"x-api-key": self.key, **(headers or {})}
        return httpx.post(self.base + path, json=body, headers=sent, timeout=120)

    def balance(self) -> int:
        return self.credits.key_info(self.prefix).balance


def descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (the render processes sit under a forkserver)."""
    found: list[int] = []
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            for child in map(int, children.read_text().split()):
                found += [child, *descendants(child)]
    return found


def environment(data: Path, platform: FakeWeChat) -> dict[str, str]:
    return {
        **os.environ,
        "INKCARD_DATABASE": str(data / "inkcard.db"),
        "INKCARD_STORAGE_DIR": str(data / "files"),
        "INKCARD_GENERATE_COST": "1",
        "INKCARD_BOOTSTRAP_KEY": "0",
        "INKCARD_REQUESTS_PER_MINUTE": "0",
        "INKCARD_RENDER_PROCESSES": "1",
        "INKCARD_WECHAT_API_BASE": platform.url,
        "INKCARD_WECHAT_TIMEOUT": "5",
        "INKCARD_LOG_LEVEL": "WARNING",
    }


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    data = tmp_path_factory.mktemp("strict")
    credits = Credits(data / "inkcard.db")
    credits.ensure_schema()
    key, info = credits.create_key("strict", CREDITS)
    port = free_port()
    with FakeWeChat({APPID: SECRET}) as platform:
        command = [sys.executable, "-m", "inkcard.app.cli", "serve", "--host", "127.0.0.1"]
        process = subprocess.Popen(
            [*command, "--port", str(port)],
            env=environment(data, platform),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_until_ok(f"http://127.0.0.1:{port}/readyz", 90)
            yield Service(f"http://127.0.0.1:{port}", key, info.prefix, credits, platform, process)
        finally:
            for pid in [process.pid, *descendants(process.pid)]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            process.wait(timeout=30)


def refused(service: Service, path: str, body: Any, label: str, **headers: str) -> str:
    """``body`` sent to ``path`` is a 400 ``label`` that cost nothing and reached no
    platform; the error's message."""
    before, platform_calls = service.balance(), sum(service.platform.hits.values())
    response = service.post(path, body, headers)
    assert response.status_code == 400, response.text
    answer = response.json()
    assert answer["error"] == label, answer
    if path in (ARTICLE, NEWSPIC):
        assert (answer["success"], answer["cost"]) == (False, 0)
    assert service.balance() == before, "a refused request was charged"
    assert sum(service.platform.hits.values()) == platform_calls
    return str(answer["message"])


def test_content_is_not_a_hello_card_but_unknown_field(service: Service) -> None:
    said = refused(service, GENERATE, {"content": "# My post"}, "unknown_field")
    assert said == "unknown field `content`: did you mean `markdown`?"


def test_split_mode_names_split_mode(service: Service) -> None:
    body = {"markdown": "# A\n\n---\n\n# B", "split_mode": "hrSplit"}
    said = refused(service, GENERATE, body, "unknown_field")
    assert said == "unknown field `split_mode`: did you mean `splitMode`?"


def test_every_endpoint_refuses_an_unknown_field(service: Service) -> None:
    assert "`text`" in refused(service, COVER, {"text": "T", "txet": "x"}, "unknown_field")
    said = refused(service, ARTICLE, {"markdown": "# A", "primary_colour": "red"}, "unknown_field")
    assert said == "unknown field `primary_colour`: did you mean `primaryColor`?"
    body = {"markdown": "# A", "titel": "T", "dryRun": True}
    assert "did you mean `title`?" in refused(service, NEWSPIC, body, "unknown_field")


@pytest.mark.parametrize("markdown", ["", " \n\t "])
def test_empty_markdown_is_refused_by_each_endpoint_and_costs_nothing(
    service: Service, markdown: str
) -> None:
    body = {"markdown": markdown}
    refused(service, GENERATE, body, "empty_markdown")
    refused(service, ARTICLE, body, "empty_markdown")  # HTML: it cost 1 credit before
    refused(service, ARTICLE, body, "empty_markdown", **ACCOUNT)
    refused(service, NEWSPIC, body, "empty_markdown", **ACCOUNT)  # 3 credits before
    refused(service, NEWSPIC, {**body, "dryRun": True}, "empty_markdown")
    assert "text" in refused(service, COVER, {"text": markdown}, "invalid_text")


def test_a_front_matter_alone_is_empty_and_an_article_needs_markdown(service: Service) -> None:
    alone = {"markdown": "---\ntitle: Nothing after it\n---\n"}
    said = refused(service, GENERATE, alone, "empty_markdown")
    assert said == "markdown holds only its front matter: there is nothing to draw"
    said = refused(service, ARTICLE, {"theme": "brandB"}, "empty_markdown")
    assert said == "markdown is missing: there is nothing to convert"


def test_a_list_front_matter_is_invalid_front_matter_and_costs_nothing(service: Service) -> None:
    body = {"markdown": LIST_FRONT_MATTER}
    said = refused(service, GENERATE, body, "invalid_front_matter")
    assert said.startswith("the front matter must be a mapping") and said.endswith("not a list")
    refused(service, ARTICLE, body, "invalid_front_matter")
    refused(service, NEWSPIC, body, "invalid_front_matter", **ACCOUNT)


def test_a_misspelt_front_matter_key_is_named(service: Service) -> None:
    body = {"markdown": "---\ntittle: My post\n---\n# Body"}
    said = refused(service, ARTICLE, body, "unknown_field", **ACCOUNT)
    assert said == "unknown front matter key `tittle`: did you mean `title`?"


def test_a_good_request_is_still_charged(service: Service) -> None:
    """The balance the refusals leave alone is the one a good call moves."""
    before = service.balance()
    body = {"markdown": "---\ntitle: T\ndate: 2026-12-02\ntags: [a]\n---\n# Kept", "theme": None}
    response = service.post(GENERATE, body)
    assert response.status_code == 200, response.text
    assert response.json()["images"][0]["altText"] == "Kept"
    assert service.balance() == before - 1
    document = httpx.get(service.base + "/schema/openapi.json", timeout=30).json()
    for path in (GENERATE, COVER, ARTICLE, NEWSPIC):
        operation = document["paths"][path]["post"]
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        assert schema["additionalProperties"] is False, path
        assert "unknown_field" in operation["responses"]["400"]["description"], path


# ---- `inkcard mcp` over stdio -----------------------------------------------------------------


def text_of(result: CallToolResult) -> dict[str, Any]:
    first = result.content[0]
    assert isinstance(first, TextContent)
    assert result.is_error
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def test_an_mcp_tool_called_with_an_unknown_argument_names_it(tmp_path: Path) -> None:
    credits = Credits(tmp_path / "inkcard.db")
    credits.ensure_schema()
    key, info = credits.create_key("agent", CREDITS)
    answers: dict[str, CallToolResult] = {}
    with FakeWeChat({APPID: SECRET}) as platform:
        env = {**environment(tmp_path, platform), "INKCARD_API_KEY": key}
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "inkcard.app.cli", "mcp"], env=env
        )

        async def scenario() -> None:
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                calls = {
                    "split": ("generate_cards", {"markdown": "# A", "split_mode": "autoSplit"}),
                    "images": ("generate_cards", {"markdown": "# A", "include_images": False}),
                    "content": ("convert_article", {"content": "# A"}),
                    "empty": ("convert_article", {"markdown": "  "}),
                    "themes": ("list_themes", {"verbose": True}),
                }
                for name, (tool, arguments) in calls.items():
                    answers[name] = await session.call_tool(tool, arguments)

        anyio.run(scenario)
    assert text_of(answers["split"]) == {
        "error": "unknown_field",
        "message": "unknown argument `split_mode`: did you mean `splitMode`?",
    }
    assert text_of(answers["images"])["message"].endswith("did you mean `includeImages`?")
    assert text_of(answers["content"])["message"].endswith("did you mean `markdown`?")
    assert text_of(answers["empty"])["error"] == "empty_markdown"
    assert text_of(answers["themes"])["message"].startswith("unknown argument `verbose`")
    assert credits.key_info(info.prefix).balance == CREDITS


# ---- `inkcard render` -------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "\n   \n", "---\ntitle: Only\n---\n"])
def test_render_of_an_empty_file_is_a_clear_error(tmp_path: Path, text: str) -> None:
    post = tmp_path / "empty.md"
    post.write_text(text, "utf-8")
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "inkcard.app.cli", "render", str(post), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("inkcard: markdown ")
    assert "there is nothing to draw" in done.stderr and "Traceback" not in done.stderr
    assert not out.exists() or not any(out.iterdir())
