"""The draft box and publishing end to end: GET /api/platform/drafts, GET and DELETE
/api/platform/drafts/{mediaId}, POST /api/platform/publish and GET
/api/platform/publish/{publishId}, on a real uvicorn against the fake WeChat platform
(tests/fakewechat.py, which speaks draft/batchget, draft/get, draft/delete, freepublish/submit
and freepublish/get), on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from inkcard.app.schema import readme as schema_docs
from tests.app.conftest import both_engines
from tests.app.test_convert_and_draft import APPID, SECRET, Service, start

__all__ = ["start"]  # the fixture shared with convert-and-draft's tests

pytestmark = both_engines

DRAFTS = "/api/platform/drafts"
PUBLISH = "/api/platform/publish"
ACCOUNT = {"Platform-Appid": APPID, "Platform-App-Secret": SECRET}


@pytest.fixture
def service(start: Callable[..., Service]) -> Service:
    """The service with no render process: nothing here draws a card."""
    return start(warm=False)


def article(title: str) -> dict[str, Any]:
    return {"title": title, "author": "Ink", "content": f"<p>{title} body</p>", "digest": title}


def call(
    service: Service, method: str, path: str, key: str, *, account: bool = True, **kwargs: Any
) -> httpx.Response:
    headers = {"x-api-key": key} | (ACCOUNT if account else {}) | kwargs.pop("headers", {})
    return httpx.request(method, service.base + path, headers=headers, timeout=30, **kwargs)


def debits(service: Service, prefix: str) -> list[tuple[str, int]]:
    rows = service.app.state.services.credits.ledger(prefix)
    return [(row.kind, row.delta) for row in rows]


def charged(service: Service, prefix: str) -> int:
    """Credits the key's ledger says were taken in all (a hold refunded: none)."""
    return -sum(delta for kind, delta in debits(service, prefix) if kind != "grant")


def test_the_draft_box_is_paged_newest_first_without_html_and_free(service: Service) -> None:
    key, prefix = service.key(10)
    made = [service.platform.store_draft(APPID, [article(f"Draft {n}")]) for n in range(3)]
    service.platform.store_draft("wxsomeoneelse00000", [article("Not ours")])
    first = call(service, "GET", DRAFTS + "?count=2", key)
    assert first.status_code == 200, first.text
    page = first.json()["data"]
    assert page["total_count"] == 3 and page["offset"] == 0 and page["cost"] == 0
    assert [d["media_id"] for d in page["drafts"]] == [made[2], made[1]]
    (shown,) = page["drafts"][0]["articles"]
    assert shown["title"] == "Draft 2" and shown["author"] == "Ink" and "content" not in shown
    assert shown["url"].startswith("http://mp.weixin.qq.com/s")
    rest = call(service, "GET", DRAFTS + "?offset=2&count=2", key).json()["data"]
    assert [d["media_id"] for d in rest["drafts"]] == [made[0]]
    assert service.balance(prefix) == 10 and debits(service, prefix) == [("grant", 10)]


def test_page_bounds_are_checked_before_the_platform(service: Service) -> None:
    key, _ = service.key(10)
    for query, label in (("?count=21", "invalid_count"), ("?offset=-1", "invalid_offset")):
        answer = call(service, "GET", DRAFTS + query, key)
        assert answer.status_code == 400 and answer.json()["error"] == label
    assert service.platform.hits["/cgi-bin/draft/batchget"] == 0


def test_one_draft_is_read_with_its_html(service: Service) -> None:
    key, _ = service.key(10)
    media_id = service.platform.store_draft(APPID, [article("Read me")])
    answer = call(service, "GET", f"{DRAFTS}/{media_id}", key)
    assert answer.status_code == 200, answer.text
    data = answer.json()["data"]
    assert data["media_id"] == media_id
    assert data["articles"][0]["content"] == "<p>Read me body</p>"
    missing = call(service, "GET", f"{DRAFTS}/nosuchdraft", key)
    assert missing.status_code == 404
    assert missing.json() | {"message": ""} == {
        "success": False, "error": "draft_not_found", "message": "", "cost": 0
    }  # fmt: skip


def test_a_draft_is_deleted_once(service: Service) -> None:
    key, prefix = service.key(10)
    media_id = service.platform.store_draft(APPID, [article("Delete me")])
    answer = call(service, "DELETE", f"{DRAFTS}/{media_id}", key)
    assert answer.status_code == 200, answer.text
    assert answer.json()["data"] == {"media_id": media_id, "cost": 0}
    assert media_id not in service.platform.drafts
    again = call(service, "DELETE", f"{DRAFTS}/{media_id}", key)
    assert again.status_code == 404 and again.json()["error"] == "draft_not_found"
    assert service.balance(prefix) == 10


def test_the_draft_box_needs_the_account(service: Service) -> None:
    key, _ = service.key(10)
    answer = call(service, "GET", DRAFTS, key, account=False)
    assert answer.status_code == 400
    assert answer.json()["error"] == "missing_platform_credentials"
    assert not service.platform.hits


def test_a_published_draft_costs_a_draft_and_its_status_is_told(service: Service) -> None:
    key, prefix = service.key(10)
    media_id = service.platform.store_draft(APPID, [article("Go live")])
    answer = call(service, "POST", PUBLISH, key, json={"draftMediaId": media_id})
    assert answer.status_code == 200, answer.text
    data = answer.json()["data"]
    assert data["cost"] == 3 and service.balance(prefix) == 7
    assert media_id not in service.platform.drafts  # published drafts leave the box
    status = call(service, "GET", f"{PUBLISH}/{data['publish_id']}", key)
    assert status.status_code == 200, status.text
    state = status.json()
    assert state["data"]["status"] == "published" and state["data"]["cost"] == 0
    assert state["data"]["articles"][0]["url"].startswith("https://mp.weixin.qq.com/s/")
    assert "live" in state["message"]
    assert service.balance(prefix) == 7
    again = call(service, "POST", PUBLISH, key, json={"draftMediaId": media_id})
    assert again.headers.get("Idempotent-Replayed") == "true"  # never submitted twice
    assert (
        service.platform.hits["/cgi-bin/freepublish/submit"] == 1 and service.balance(prefix) == 7
    )


@pytest.mark.parametrize(
    ("code", "word"), [(1, "publishing"), (4, "rejected"), (2, "original_check_failed")]
)
def test_a_publish_job_state_is_said_in_plain_words(service: Service, code: int, word: str) -> None:
    key, _ = service.key(10)
    service.platform.publish_status = code
    media_id = service.platform.store_draft(APPID, [article("Pending")])
    job = call(service, "POST", PUBLISH, key, json={"draftMediaId": media_id}).json()["data"]
    state = call(service, "GET", f"{PUBLISH}/{job['publish_id']}", key).json()
    assert state["data"]["status"] == word and state["data"]["publish_status"] == code
    assert state["data"]["articles"] == []
    assert ("ask again" in state["message"]) == (code == 1)
    missing = call(service, "GET", f"{PUBLISH}/999", key)
    assert missing.status_code == 404 and missing.json()["error"] == "publish_not_found"


def test_an_unverified_account_is_told_why_and_charged_nothing(service: Service) -> None:
    key, prefix = service.key(10)
    media_id = service.platform.store_draft(APPID, [article("Not allowed")])
    service.platform.force(48001, "/cgi-bin/freepublish/submit")
    answer = call(service, "POST", PUBLISH, key, json={"draftMediaId": media_id})
    assert answer.status_code == 403, answer.text
    body = answer.json()
    assert body["error"] == "platform_api_unauthorized" and body["cost"] == 0
    assert "verified" in body["message"] and "48001" in body["message"]
    assert "draft box" in body["message"]  # where the draft still is
    assert service.balance(prefix) == 10 and charged(service, prefix) == 0
    service.platform.clear()
    service.platform.force(48001, "/cgi-bin/draft/batchget")
    listed = call(service, "GET", DRAFTS, key)
    assert listed.status_code == 403 and listed.json()["error"] == "platform_api_unauthorized"


def test_publishing_a_missing_draft_or_failing_charges_nothing(service: Service) -> None:
    key, prefix = service.key(10)
    answer = call(service, "POST", PUBLISH, key, json={"draftMediaId": "gone"})
    assert answer.status_code == 404 and answer.json()["error"] == "draft_not_found"
    media_id = service.platform.store_draft(APPID, [article("Busy")])
    service.platform.force(-1, "/cgi-bin/freepublish/submit")
    failed = call(service, "POST", PUBLISH, key, json={"draftMediaId": media_id})
    assert failed.status_code == 502 and failed.json()["cost"] == 0
    assert service.balance(prefix) == 10 and charged(service, prefix) == 0
    assert media_id in service.platform.drafts


def test_a_publish_body_is_checked(service: Service) -> None:
    key, _ = service.key(10)
    for body, label in (({}, "invalid_draft_media_id"), ({"mediaId": "x"}, "unknown_field")):
        answer = call(service, "POST", PUBLISH, key, json=body)
        assert answer.status_code == 400 and answer.json()["error"] == label, answer.text
    assert not service.platform.hits


def test_the_platform_guide_tables_are_the_catalogue() -> None:
    text = (Path(__file__).parents[2] / "docs" / "platform.md").read_text("utf-8")
    named = {"drafts", "publish", "accounts", "PublishRequest", "AccountRequest"}
    assert named <= set(schema_docs.tables(text))
    assert schema_docs.render(text) == text, (
        "run `python -m inkcard.app.schema.readme docs/platform.md`"
    )


def test_a_shared_path_allows_each_of_its_methods(service: Service) -> None:
    for path, methods in (
        (f"{DRAFTS}/x", "DELETE, GET"),
        ("/api/platform/accounts/x", "DELETE, PUT"),
    ):
        answer = httpx.options(service.base + path)
        assert answer.status_code == 204 and answer.headers["allow"] == f"{methods}, OPTIONS"
