"""A retry's answer (an identical call within the window, or an ``Idempotency-Key`` replay) is
the first one's files with URLs built from the request in hand, never the first request's
``Host``; and a replay whose files left storage is not handed out: they are drawn again, free.

A real ``inkcard serve`` (a subprocess) with local storage, so file URLs follow each request's
``Host``; the stored answers are read back from the database.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.app.dbhelpers import table_rows
from tests.app.servehelpers import Serve

GENERATE = "/api/generate"
NEWSPIC = "/api/platform/newspic-draft"
TWO_CARDS = {"markdown": "# One\n\nA card.\n\n---\n\n# Two\n\nAnother.", "splitMode": "hrSplit"}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Serve]:
    serve = Serve(tmp_path, INKCARD_GENERATE_COST="1")
    try:
        yield serve.start()
    finally:
        serve.stop()


def post(serve: Serve, path: str, key: str, body: dict[str, Any], **headers: str) -> Any:
    response = httpx.post(
        serve.base + path, json=body, headers={"x-api-key": key, **headers}, timeout=60
    )
    assert response.status_code == 200, response.text
    return response


def urls_of(images: list[dict[str, str]]) -> list[str]:
    return [image["url"] for image in images]


def kept_answers(serve: Serve) -> list[bytes]:
    """Every answer the retry claims keep, unpacked."""
    rows = table_rows(serve.database, "SELECT answer FROM idempotency WHERE state = 'done'")
    kept = [bytes(answer) for (answer,) in rows]  # type: ignore[arg-type]  # a BLOB
    return [zlib.decompress(a[6:]) if a.startswith(b"\x00zlib:") else a for a in kept]


def fetchable(serve: Serve, url: str, host: str) -> bool:
    """True when ``url`` (on ``host``) answers 200 from the service."""
    path = url.removeprefix(f"http://{host}")
    assert path.startswith("/files/"), url
    return httpx.get(serve.base + path, timeout=10).status_code == 200


def test_a_replay_gets_urls_of_its_own_host_and_keeps_none(served: Serve) -> None:
    key, prefix = served.key()
    first = post(served, GENERATE, key, TWO_CARDS, host="a.example:8000").json()["images"]
    assert all(url.startswith("http://a.example:8000/files/") for url in urls_of(first))
    again = post(served, GENERATE, key, TWO_CARDS, host="b.example").json()["images"]
    assert all(url.startswith("http://b.example/files/") for url in urls_of(again))
    assert [i["fileName"] for i in again] == [i["fileName"] for i in first]
    assert served.balance(prefix) == 29  # one charge: the second call was a replay
    # What the claim keeps is file names, no URL and no host.
    [kept] = kept_answers(served)
    assert b"a.example" not in kept and b"http" not in kept
    assert [i["fileName"] for i in json.loads(kept)] == [i["fileName"] for i in first]
    # The same call through MCP (the same key, the same body) replays with its own host too.
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "generate_cards", "arguments": {**TWO_CARDS, "includeImages": False}},
    }
    headers = {"accept": "application/json, text/event-stream", "host": "agents.example"}
    answer = post(served, "/mcp", key, call, **headers).json()
    tool = json.loads(answer["result"]["content"][0]["text"])["images"]
    assert all(url.startswith("http://agents.example/files/") for url in urls_of(tool))
    assert served.balance(prefix) == 29


def test_a_replay_whose_card_was_deleted_hands_out_no_dangling_url(served: Serve) -> None:
    key, prefix = served.key()
    first = post(served, GENERATE, key, TWO_CARDS).json()["images"]
    (served.data / "files" / first[1]["fileName"]).unlink()  # pruned within the window
    again = post(served, GENERATE, key, TWO_CARDS).json()["images"]
    assert [i["fileName"] for i in again] == [i["fileName"] for i in first]  # drawn again
    assert all(fetchable(served, url, f"127.0.0.1:{served.port}") for url in urls_of(again))
    assert served.balance(prefix) == 29  # still one charge for one answer


def test_an_idempotency_key_replay_of_a_newspic_follows_its_host_and_storage(
    served: Serve,
) -> None:
    key, prefix = served.key()
    body = {**TWO_CARDS, "dryRun": True}
    replay_key = {"idempotency-key": "post-1"}
    first = post(served, NEWSPIC, key, body, host="a.example", **replay_key)
    images = first.json()["data"]["images"]
    assert all(url.startswith("http://a.example/files/") for url in urls_of(images))
    again = post(served, NEWSPIC, key, body, host="b.example", **replay_key)
    assert again.headers["idempotent-replayed"] == "true"
    replayed = again.json()
    assert all(
        url.startswith("http://b.example/files/") for url in urls_of(replayed["data"]["images"])
    )
    assert {k: v for k, v in replayed.items() if k != "data"} == {
        k: v for k, v in first.json().items() if k != "data"
    }
    [kept] = kept_answers(served)
    assert b"a.example" not in kept
    (served.data / "files" / images[0]["fileName"]).unlink()
    third = post(served, NEWSPIC, key, body, host="b.example", **replay_key).json()
    assert all(fetchable(served, url, "b.example") for url in urls_of(third["data"]["images"]))
    assert served.balance(prefix) == 29  # a dry run costs 1, once
