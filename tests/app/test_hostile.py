"""Hostile input, sent as an attacker would: every request is refused (or served) cleanly.

Each refused case asserts the status and label in the documented ``{"error", "message"}`` shape,
that no credit moved (generate costs 1 here; balance and ledger read through ``Credits``), that
no file was left in storage, and that the service is healthy afterwards: ``/healthz`` answers
200 and a normal generate succeeds. Raw-byte, path and slow-client cases go to a real uvicorn
on 127.0.0.1, since the test client would repair or refuse them before the service saw them.
"""

from __future__ import annotations

import contextlib
import re
import select
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from inkcard.app.ledger.credits import Credits
from inkcard.app.server.factory import create_app
from inkcard.app.settings import load_settings
from tests.app.apphelpers import files_path, free_port, png_size, running_server, stored_files

Client = TestClient[Litestar]
CREDITS = 5
MIB = 1024 * 1024
NORMAL = {"markdown": "# Still fine", "width": 200, "height": 200, "scale": 1}
GET_ROUTES = ["/api/themes", "/healthz", "/readyz", "/schema", "/schema/openapi.json"]


@dataclass
class Target:
    """A service with generate cost 1, one key, its storage folder, and what they held before."""

    http: httpx.Client
    credits: Credits
    key: str
    files: Path
    balance_before: int = 0
    files_before: list[str] = field(default_factory=list)
    normal_calls: int = 0

    def generate(self, **kwargs: Any) -> httpx.Response:
        headers = {"x-api-key": self.key, **kwargs.pop("headers", {})}
        return self.http.post("/api/generate", headers=headers, **kwargs)

    def balance(self) -> int:
        info = self.credits.authenticate(self.key)
        assert info is not None
        assert info.balance == self.credits.ledger_sum(info.id), "balance and ledger disagree"
        return int(info.balance)

    def mark(self) -> Target:
        """Remember the balance and the stored files, to compare with after a request."""
        self.balance_before = self.balance()
        self.files_before = stored_files(self.files)
        return self


@pytest.fixture
def target(shared_apps: Callable[..., Client]) -> Target:
    """The module's service (every test compares with what it held before) and a new key."""
    client = shared_apps(generate_cost=1)
    credits = client.app.state.services.credits
    key, _ = credits.create_key("hostile", CREDITS)
    files = Path(client.app.state.services.settings.storage_dir)
    return Target(client, credits, key, files).mark()


def assert_error(response: httpx.Response, status: int, label: str, *words: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "message"}, body
    assert body["error"] == label, body
    for word in words:
        assert word in body["message"], body
    assert "/tmp" not in body["message"] and str(Path.cwd()) not in body["message"]


def assert_unharmed(target: Target) -> None:
    """Nothing charged, nothing stored, and the service still does its work."""
    assert target.balance() == target.balance_before
    assert stored_files(target.files) == target.files_before
    assert target.http.get("/healthz").status_code == 200
    target.normal_calls += 1  # a new text each time, so the card is drawn, not found stored
    text = f"# Still fine {target.key[:8]} {target.normal_calls}"  # the key: one of the module's
    normal = target.generate(json={**NORMAL, "markdown": text})
    assert normal.status_code == 200, normal.text
    assert target.balance() == target.balance_before - 1
    target.mark()


def assert_charged_once(target: Target, response: httpx.Response) -> None:
    assert response.status_code == 200, response.text
    names = [image["fileName"] for image in response.json()["images"]]
    manifest = names[0].rsplit("-", 1)[0] + ".json"  # written after the cards, listing them
    assert target.balance() == target.balance_before - 1
    assert stored_files(target.files) == sorted({*target.files_before, *names, manifest})


def nested(depth: int, opening: str = "[", closing: str = "]", inner: str = "1") -> bytes:
    return (opening * depth + inner + closing * depth).encode()


def long_field(name: str, length: int = 500_000) -> bytes:
    return b'{"' + name.encode() + b'": "' + b"x" * length + b'"}'


# -- bodies ----------------------------------------------------------------------------------

BAD_BODIES: list[Any] = [
    # nesting
    pytest.param(nested(10_000), "invalid_json", "nested", id="json-array-10000-deep"),
    pytest.param(nested(10_000, '{"a":', "}"), "invalid_json", "nested", id="json-object-deep"),
    pytest.param(
        b'{"markdown": ' + nested(5_000) + b"}", "invalid_json", "nested", id="deep-field-value"
    ),
    # encodings
    pytest.param('{"markdown":"# \xff\xfe"}'.encode("latin-1"), "invalid_json", "UTF-8", id="utf8"),
    pytest.param(b'{"markdown":"\xc3"}', "invalid_json", "UTF-8", id="truncated-utf8"),
    pytest.param(b'{"markdown":"\xed\xa0\x80"}', "invalid_json", "UTF-8", id="utf8-surrogate"),
    pytest.param('{"markdown":"x"}'.encode("utf-16"), "invalid_json", "UTF-16", id="utf16-bom"),
    pytest.param('{"markdown":"x"}'.encode("utf-16-le"), "invalid_json", "UTF-16", id="utf16le"),
    pytest.param('{"markdown":"x"}'.encode("utf-32"), "invalid_json", "UTF-8", id="utf32"),
    pytest.param(rb'{"markdown":"a\ud800b"}', "invalid_json", "surrogate", id="lone-high"),
    pytest.param(rb'{"markdown":"a\udc00b"}', "invalid_json", "surrogate", id="lone-low"),
    pytest.param(rb'{"markdown":"\ud800"}', "invalid_json", "surrogate", id="lone-at-end"),
    # shapes
    pytest.param(b"null", "invalid_json", "null", id="null"),
    pytest.param(b"[]", "invalid_json", "array", id="array"),
    pytest.param(b"true", "invalid_json", "boolean", id="true"),
    pytest.param(b"-0", "invalid_json", "number", id="minus-zero-body"),
    pytest.param(b'{"markdown":', "invalid_json", "JSON", id="truncated"),
    pytest.param(b'{"markdown":"x"} {}', "invalid_json", "JSON", id="two-objects"),
    pytest.param(b"\x00" * 64, "invalid_json", "UTF-8", id="nul-bytes"),
    pytest.param(b"markdown=%23+hi", "invalid_json", "JSON", id="form-encoded"),
    # numbers
    pytest.param(b'{"width": 1e309}', "invalid_json", "range", id="1e309"),
    pytest.param(b'{"width": -1e309}', "invalid_json", "range", id="minus-1e309"),
    pytest.param(b'{"width": ' + b"9" * 5000 + b"}", "invalid_json", "range", id="5000-digits"),
    pytest.param(b'{"width": NaN}', "invalid_json", "JSON", id="NaN-literal"),
    pytest.param(b'{"width": Infinity}', "invalid_json", "JSON", id="Infinity-literal"),
    pytest.param(b'{"width": 0x10}', "invalid_json", "JSON", id="hex"),
    pytest.param(b'{"width": -0}', "invalid_width", "width", id="minus-zero"),
    pytest.param(b'{"width": -0.0}', "invalid_width", "width", id="minus-zero-float"),
    pytest.param(b'{"width": "NaN"}', "invalid_width", "number", id="NaN-string"),
    pytest.param(b'{"width": "Infinity"}', "invalid_width", "number", id="Infinity-string"),
    pytest.param(b'{"width": 1e308}', "invalid_width", "1600", id="1e308"),
    pytest.param(b'{"height": 5e-324}', "invalid_height", "4000", id="denormal"),
    pytest.param(b'{"scale": 1e300}', "invalid_scale", "integer", id="scale-1e300"),
    pytest.param(
        b'{"scale": ' + b"1" * 400 + b"}", "invalid_scale", "integer", id="scale-400-digits"
    ),
    pytest.param(b'{"scale": 2.0000000001}', "invalid_scale", "integer", id="scale-near-2"),
    # long strings and types
    pytest.param(long_field("theme"), "invalid_theme", "theme", id="long-theme"),
    pytest.param(long_field("themeMode"), "invalid_theme_mode", "mode", id="long-mode"),
    pytest.param(long_field("splitMode"), "invalid_split_mode", "noSplit", id="long-split"),
    pytest.param(b'{"markdown": {"a": 1}}', "invalid_markdown", "string", id="markdown-object"),
    pytest.param(b'{"mdxMode": "false"}', "invalid_mdx_mode", "true or false", id="bool-string"),
    # a field we do not read is refused by its name, whatever its value holds
    pytest.param(
        b'{"extra": ' + nested(200) + b"}", "unknown_field", "extra", id="unknown-200-deep"
    ),
]


@pytest.mark.parametrize(("body", "label", "word"), BAD_BODIES)
def test_bad_body_is_400_and_harmless(target: Target, body: bytes, label: str, word: str) -> None:
    response = target.generate(content=body, headers={"content-type": "application/json"})
    assert_error(response, 400, label, word)
    assert_unharmed(target)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        pytest.param(b'{"markdown": "' + b"a" * MIB + b'"}', ["1048576"], id="1MiB+15"),
        pytest.param(b" " * (MIB + 1), ["1048576"], id="1MiB+1-spaces"),
        pytest.param(
            b'{"markdown": "' + "中".encode() * 100_001 + b'"}', ["100,000"], id="markdown-100001"
        ),
    ],
)
def test_oversized_body_is_413_and_harmless(target: Target, body: bytes, words: list[str]) -> None:
    assert_error(target.generate(content=body), 413, "payload_too_large", *words)
    assert_unharmed(target)


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"\xef\xbb\xbf" + b'{"markdown": "# BOM"}', id="utf8-bom"),
        pytest.param(rb'{"markdown": "# pair \ud83d\ude00"}', id="surrogate-pair"),
        pytest.param(rb'{"markdown": "# a\u0000b\u0000"}', id="nul-in-markdown"),
        pytest.param(b'{"markdown": "# one", "markdown": "# two"}', id="duplicate-field"),
        pytest.param(b'{"width": 440.0000000000001, "height": 586e0}', id="float-forms"),
        pytest.param(b'{"width": null, "theme": null}', id="null-fields"),
        pytest.param(b"", id="empty-body"),
    ],
)
def test_odd_but_valid_body_is_served_and_charged_once(target: Target, body: bytes) -> None:
    assert_charged_once(target, target.generate(content=body))


@pytest.mark.parametrize(
    "markdown",
    [
        pytest.param("> " * 1000 + "quoted", id="quote-1000-deep"),
        pytest.param("".join("  " * i + "- item\n" for i in range(200)), id="list-200-deep"),
        pytest.param("[" * 5000 + "x" + "]" * 5000, id="brackets-5000"),
        pytest.param("`" * 10_000, id="backticks-10000"),
        pytest.param("#" * 10_000, id="hashes-10000"),
        pytest.param("x" * 10_000, id="one-word-10000"),
        # regression: emphasis 500 deep was a RecursionError (500 render_failed)
        pytest.param("*" * 500 + "x" + "*" * 500, id="emphasis-500-deep"),
        pytest.param("_" * 2000 + "x" + "_" * 2000, id="underscores-2000-deep"),
        pytest.param("~~" * 1000 + "x" + "~~" * 1000, id="strike-1000-deep"),
        pytest.param("![" * 2000 + "x" + "](a)" * 2000, id="images-in-alt-2000-deep"),
        pytest.param(">" * 5000 + " x", id="quote-markers-5000"),
        # regression: a 200-column table drew past the table and overlapped cells
        pytest.param(
            "|"
            + "|".join(f"h{i}" for i in range(200))
            + "|\n|"
            + "---|" * 200
            + "\n|"
            + "|".join(f"c{i}" for i in range(200))
            + "|",
            id="table-200-columns",
        ),
        # regression: control characters were drawn as boxes and U+FFFD
        pytest.param("# a\x00b\x01c\x07\x1b[31m\x7f\x85\ufffe\n\nd\x0be\x0cf", id="controls"),
    ],
)
def test_hostile_markdown_is_rendered_and_charged_once(target: Target, markdown: str) -> None:
    body = {"markdown": markdown, "scale": 1, "splitMode": "autoSplit"}
    assert_charged_once(target, target.generate(json=body))


@pytest.mark.parametrize(
    "markdown",
    [
        pytest.param("x" * 100_000, id="one-word-100000"),
        pytest.param("a\n" * 5_000, id="lines-5000"),
    ],
)
def test_markdown_past_fifty_cards_is_400_and_refunded(target: Target, markdown: str) -> None:
    response = target.generate(json={"markdown": markdown, "scale": 1, "splitMode": "autoSplit"})
    assert_error(response, 400, "too_many_pages", "50")
    assert_unharmed(target)


# -- headers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "label"),
    [
        pytest.param([("x-api-key", "")], "missing_api_key", id="empty-key"),
        pytest.param([("x-api-key", "   ")], "missing_api_key", id="blank-key"),
        pytest.param([("x-api-key", "k" * 100_000)], "invalid_api_key", id="huge-key"),
        pytest.param([(b"x-api-key", "ключ".encode())], "invalid_api_key", id="utf8-key"),
        pytest.param([(b"x-api-key", b"\xff\xfe")], "invalid_api_key", id="latin1-key"),
        pytest.param([("x-api-key", "ik_' OR 1=1 --")], "invalid_api_key", id="sql-key"),
    ],
)
def test_bad_key_header_is_401_and_harmless(
    target: Target, headers: list[tuple[Any, Any]], label: str
) -> None:
    response = target.http.post("/api/generate", headers=headers, json=NORMAL)
    assert_error(response, 401, label)
    assert_unharmed(target)


def test_duplicate_key_headers_are_refused_and_harmless(target: Target) -> None:
    for pair in ([target.key, "ik_other"], ["ik_other", target.key], [target.key, target.key]):
        headers = [("x-api-key", value) for value in pair]
        response = target.http.post("/api/generate", headers=headers, json=NORMAL)
        assert_error(response, 401, "invalid_api_key")
    assert_unharmed(target)


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "application/xml", "image/png", "garbage"],
)
def test_any_content_type_is_read_as_json(target: Target, content_type: str) -> None:
    headers = {"content-type": content_type}
    assert_charged_once(
        target, target.generate(content=b'{"markdown": "# typed"}', headers=headers)
    )


def test_huge_header_and_odd_request_ids_do_no_harm(target: Target) -> None:
    headers = {"x-filler": "f" * 200_000, "x-request-id": "x" * 5000}
    response = target.http.get("/healthz", headers=headers)
    assert response.status_code == 200
    assert len(response.headers["x-request-id"]) == 32  # replaced, not echoed
    for bad_id in ["a\tb", "../../etc", "<script>"]:
        response = target.http.get("/healthz", headers={"x-request-id": bad_id})
        assert response.headers["x-request-id"] != bad_id
    assert_unharmed(target)


# -- methods ---------------------------------------------------------------------------------

OTHER_METHODS = ["PUT", "DELETE", "PATCH", "TRACE", "PROPFIND"]


@pytest.mark.parametrize("method", OTHER_METHODS)
@pytest.mark.parametrize("path", ["/api/generate", *GET_ROUTES, "/files/screenshots/a-1.png"])
def test_unsupported_methods_are_405(target: Target, method: str, path: str) -> None:
    response = target.http.request(method, path, headers={"x-api-key": target.key})
    assert_error(response, 405, "method_not_allowed", method)
    assert "allow" in response.headers
    assert target.balance() == CREDITS


@pytest.mark.parametrize("path", ["/api/generate", *GET_ROUTES, "/files/screenshots/a-1.png"])
def test_options_lists_the_allowed_methods(target: Target, path: str) -> None:
    response = target.http.options(path)
    assert response.status_code == 204
    assert "OPTIONS" in response.headers["allow"]


def test_get_on_generate_is_405_and_head_too(target: Target) -> None:
    assert_error(target.http.get("/api/generate"), 405, "method_not_allowed", "POST")
    head = target.http.head("/api/generate", headers={"x-api-key": target.key})
    assert head.status_code == 405 and head.content == b""
    assert_unharmed(target)


@pytest.mark.parametrize("path", GET_ROUTES)
def test_head_answers_like_get_without_a_body(target: Target, path: str) -> None:
    deadline = time.monotonic() + 60
    while (get := target.http.get(path)).status_code == 503:  # render processes warming up
        assert path == "/readyz" and time.monotonic() < deadline, get.text
        time.sleep(0.05)
    head = target.http.head(path)
    assert get.status_code == head.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]
    assert head.headers["content-length"] == str(len(get.content))


def test_head_on_a_stored_card_gives_its_size(target: Target) -> None:
    [image] = target.generate(json=NORMAL).json()["images"]
    get = target.http.get(files_path(image["url"]))
    head = target.http.head(files_path(image["url"]))
    assert png_size(get.content) == (200, 200)
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == str(len(get.content))
    assert head.headers["content-type"] == "image/png"


# -- paths -----------------------------------------------------------------------------------

BAD_FILE_PATHS = [
    pytest.param("/files/%00", id="nul"),
    pytest.param("/files/screenshots/a%00.png", id="nul-in-name"),
    pytest.param("/files/" + "a/" * 5000, id="5000-segments"),
    pytest.param("/files/" + "a" * 10_000 + ".png", id="10000-char-name"),
    pytest.param("/files/%2e%2e/%2e%2e/etc/passwd", id="dot-dot-encoded"),
    pytest.param("/files/..%2finkcard.db", id="dot-dot-slash-encoded"),
    pytest.param("/files/screenshots/..%2f..%2finkcard.db", id="climb-to-db"),
    pytest.param("/files/%2fetc%2fpasswd", id="absolute"),
    pytest.param("/files/screenshots", id="folder"),
    pytest.param("/files/screenshots/", id="folder-slash"),
    pytest.param("/files/screenshots/.tmp-abc", id="temp-file"),
    pytest.param("/files/screenshots/%E4%B8%AD.png", id="non-ascii"),
    pytest.param("/files/screenshots/a-1.png%20", id="trailing-space"),
    pytest.param("/files/SCREENSHOTS/a-1.png", id="wrong-case"),
]


@pytest.mark.parametrize("path", BAD_FILE_PATHS)
def test_bad_file_path_is_404_without_server_paths(target: Target, path: str) -> None:
    (target.files / "screenshots").mkdir(parents=True, exist_ok=True)
    (target.files / "screenshots" / ".tmp-abc").write_bytes(b"half a card")
    response = target.http.get(path)
    assert_error(response, 404, "not_found")
    assert str(target.files) not in response.text
    (target.files / "screenshots" / ".tmp-abc").unlink()
    assert_unharmed(target)


@pytest.mark.parametrize(
    "path", ["/%00", "/api/%00", "/" + "x" * 10_000, "/api/generate/%2e%2e", "/schema/assets/x.js"]
)
def test_unknown_path_is_404_with_a_short_message(target: Target, path: str) -> None:
    response = target.http.get(path)
    assert_error(response, 404, "not_found")
    assert len(response.json()["message"]) < 200
    assert "\x00" not in response.json()["message"]


# -- the docs page ---------------------------------------------------------------------------


def test_docs_page_loads_nothing_from_other_hosts(target: Target) -> None:
    page = target.http.get("/schema")
    assert page.status_code == 200
    assets = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page.text)
    assert len(assets) >= 3
    for asset in assets:
        assert asset.startswith("/"), asset
        response = target.http.get(asset)
        assert response.status_code == 200, asset
        assert len(response.content) > 1000
    assert "SwaggerUIBundle(" in page.text


# -- a real server: raw bytes, raw paths, slow clients -----------------------------------------


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Target]]:
    """uvicorn on 127.0.0.1 with a 1 s body deadline, shared by the raw-bytes tests."""
    root = tmp_path_factory.mktemp("live")
    port = free_port()
    settings = load_settings(
        {},
        database=str(root / "inkcard.db"),
        storage_dir=str(root / "files"),
        bootstrap_key=False,
        port=port,
        generate_cost=1,
        body_timeout=1,
    )
    app = create_app(settings)
    with running_server(app, port) as base, httpx.Client(base_url=base, timeout=60) as http:
        credits = app.state.services.credits
        key, _ = credits.create_key("hostile", 1000)
        yield port, Target(http, credits, key, root / "files")


@pytest.fixture
def server(live_server: tuple[int, Target]) -> tuple[int, Target]:
    """The shared server, its balance and files remembered before the test."""
    port, target = live_server
    return port, target.mark()


def exchange(port: int, request: bytes, then: Callable[[socket.socket], None] | None = None) -> str:
    """Send raw bytes, run ``then``, and read until the server closes or goes quiet."""
    with socket.create_connection(("127.0.0.1", port), timeout=15) as sock:
        # The server may answer and close before taking it all: then read what it said.
        with contextlib.suppress(OSError):
            sock.sendall(request)
        if then is not None:
            then(sock)
        chunks = []
        while True:
            try:
                chunk = sock.recv(65536)
            except (TimeoutError, ConnectionResetError):
                break
            if not chunk:
                break
            chunks.append(chunk)
            if b"\r\n\r\n" in b"".join(chunks) and sock.gettimeout() != 1:
                sock.settimeout(1)  # the answer has started: wait only for the rest of it
    return b"".join(chunks).decode("utf-8", "replace")


def status_and_body(raw: str) -> tuple[int, dict[str, Any] | None, str]:
    head, _, body = raw.partition("\r\n\r\n")
    status = int(head.split(" ", 2)[1])
    try:
        return status, httpx.Response(200, content=body.encode()).json(), head.lower()
    except ValueError:
        return status, None, head.lower()


def post_bytes(key: str, body: bytes, length: int | None = None, close: bool = True) -> bytes:
    """A raw generate request; ``close`` asks the server to close after answering."""
    size = len(body) if length is None else length
    return (
        f"POST /api/generate HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: {key}\r\n"
        f"content-type: application/json\r\ncontent-length: {size}\r\n"
        + ("connection: close\r\n" if close else "")
        + "\r\n"
    ).encode() + body


@pytest.mark.parametrize(
    ("body", "label"),
    [
        pytest.param(b'{"markdown":"# \xff\xfe"}', "invalid_json", id="invalid-utf8"),
        pytest.param(nested(10_000), "invalid_json", id="deep-json"),
        pytest.param(b"null", "invalid_json", id="null"),
        pytest.param('{"markdown":"x"}'.encode("utf-16"), "invalid_json", id="utf16"),
    ],
)
def test_raw_bad_body_over_http_is_400(server: tuple[int, Target], body: bytes, label: str) -> None:
    port, target = server
    status, answer, _ = status_and_body(exchange(port, post_bytes(target.key, body)))
    assert status == 400 and answer is not None and answer["error"] == label
    assert_unharmed(target)


@pytest.mark.parametrize(
    "path",
    [
        b"/files/%00",
        b"/files/" + b"a/" * 5000,
        b"/files/../inkcard.db",
        b"/files/screenshots/../../inkcard.db",
        b"/files/%2e%2e/inkcard.db",
        b"/files/screenshots/%2e%2e/%2e%2e/inkcard.db",
        b"/files/screenshots\\..\\..\\inkcard.db",
    ],
)
def test_raw_bad_path_over_http_is_404_and_logged(
    server: tuple[int, Target], path: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    port, target = server
    with caplog.at_level("INFO", logger="inkcard.access"):
        raw = exchange(port, b"GET " + path + b" HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
    status, answer, _ = status_and_body(raw)
    assert status == 404 and answer is not None and answer["error"] == "not_found", raw[:300]
    assert str(target.files) not in answer["message"]
    logged = [r for r in caplog.records if getattr(r, "http", {}).get("status") == 404]
    assert logged, "no access log line for the refused path"
    assert_unharmed(target)


def test_header_over_uvicorn_limit_is_refused_and_harmless(
    server: tuple[int, Target],
) -> None:
    port, target = server
    filler = b"x-filler: " + b"f" * MIB  # more than one socket read: uvicorn/h11 caps at 16 KiB
    raw = exchange(port, b"GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n" + filler + b"\r\n\r\n")
    status, _, _ = status_and_body(raw)
    assert status == 400  # uvicorn's own answer: the request never reaches the app
    assert_unharmed(target)


def test_trickled_body_is_cut_off_with_408(server: tuple[int, Target]) -> None:
    port, target = server

    def trickle(sock: socket.socket) -> None:
        for _ in range(50):  # 50 × 0.1 s: far past the 1 s deadline unless it is cut off
            readable, _, _ = select.select([sock], [], [], 0.1)
            if readable:
                return  # the answer has arrived
            sock.sendall(b" ")

    raw = exchange(
        port, post_bytes(target.key, b'{"markdown":', length=1000, close=False), then=trickle
    )
    status, answer, head = status_and_body(raw)
    assert status == 408 and answer is not None, raw[:300]
    assert answer["error"] == "request_timeout" and "1 second" in answer["message"]
    assert "connection: close" in head
    assert_unharmed(target)


def test_silent_body_is_cut_off_with_408(server: tuple[int, Target]) -> None:
    port, target = server
    raw = exchange(port, post_bytes(target.key, b"", length=50, close=False))
    status, answer, head = status_and_body(raw)
    assert status == 408 and answer is not None and answer["error"] == "request_timeout"
    assert "connection: close" in head
    assert_unharmed(target)


def test_early_answer_to_an_unread_body_closes_the_connection(
    server: tuple[int, Target],
) -> None:
    port, target = server
    # Unknown key: the answer comes before the body is read, so the rest must not linger.
    request = post_bytes("ik_unknown", b'{"markdown": "', length=100_000, close=False)
    status, answer, head = status_and_body(exchange(port, request))
    assert status == 401 and answer is not None and answer["error"] == "invalid_api_key"
    assert "connection: close" in head
    assert_unharmed(target)


def test_head_over_http_has_headers_and_no_body(server: tuple[int, Target]) -> None:
    port, target = server
    raw = exchange(port, b"HEAD /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n")
    head, _, body = raw.partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 200") and body == ""
    assert "content-length: 15" in head.lower()
    assert_unharmed(target)


@pytest.mark.parametrize("path", ["/api/generate", "/api/platform/convert-and-draft", "/mcp"])
def test_two_api_key_headers_are_one_unknown_key(server: tuple[int, Target], path: str) -> None:
    """Two raw ``x-api-key`` lines are one comma-joined value, as HTTP reads repeated headers:
    the first key does not win (decided: 401), on every route that takes a key."""
    port, target = server
    other, _ = target.credits.create_key("other", CREDITS)
    body = b'{"markdown": "# two keys"}'
    request = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Accept: application/json, text/event-stream\r\n"
        f"x-api-key: {target.key}\r\nx-api-key: {other}\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body
    status, answer, _ = status_and_body(exchange(port, request))
    assert status == 401
    assert answer is not None and answer["error"] == "invalid_api_key"
    assert target.balance() == target.balance_before


def test_files_serves_cards_but_never_a_sets_manifest(target: Target) -> None:
    made = target.generate(json=NORMAL)
    assert made.status_code == 200, made.text
    card = files_path(made.json()["images"][0]["url"])
    assert target.http.get(card).status_code == 200
    manifest = re.sub(r"-\d+\.png$", ".json", card)
    assert manifest != card
    assert (target.files / manifest.removeprefix("/files/")).is_file()
    assert_error(target.http.get(manifest), 404, "not_found")
