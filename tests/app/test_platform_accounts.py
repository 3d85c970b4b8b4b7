"""Stored WeChat accounts end to end: PUT, GET and DELETE /api/platform/accounts, and a
platform call that names an account (``Platform-Account``) instead of sending its AppID and
AppSecret, on a real uvicorn against the fake WeChat platform, on SQLite and PostgreSQL. The
secret is sealed with the server's key (Fernet): the database file, the logs and the answers
never hold it in clear."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.fernet import Fernet

from inkcard.app.ledger.sealing import AccountUnreadable, Sealer
from inkcard.app.settings import SettingsError, load_settings
from tests.app.conftest import both_engines
from tests.app.dbhelpers import table_rows
from tests.app.test_convert_and_draft import APPID, SECRET, Service, start

__all__ = ["start"]  # the fixture shared with convert-and-draft's tests

pytestmark = both_engines

ACCOUNTS = "/api/platform/accounts"
DRAFT = "/api/platform/convert-and-draft"
SERVER_KEY = Fernet.generate_key().decode()
NAMED = {"Platform-Account": "blog"}


@pytest.fixture
def service(start: Callable[..., Service]) -> Service:
    """The service with an account key and no render process."""
    return start(warm=False, account_key=SERVER_KEY, log_level="DEBUG")


def call(service: Service, method: str, path: str, key: str, **kwargs: Any) -> httpx.Response:
    headers = {"x-api-key": key} | kwargs.pop("headers", {})
    return httpx.request(method, service.base + path, headers=headers, timeout=60, **kwargs)


def store(service: Service, key: str, name: str = "blog") -> httpx.Response:
    return call(service, "PUT", f"{ACCOUNTS}/{name}", key, json={"appid": APPID, "secret": SECRET})


def draft_by_name(service: Service, key: str, **headers: str) -> httpx.Response:
    return call(service, "POST", DRAFT, key, json={"markdown": "# Named\n\nBody."}, headers=headers)


def test_an_account_is_stored_listed_and_forgotten_without_its_secret(service: Service) -> None:
    key, prefix = service.key(10)
    stored = store(service, key)
    assert stored.status_code == 200, stored.text
    assert stored.json()["data"]["name"] == "blog" and stored.json()["data"]["appid"] == APPID
    listed = call(service, "GET", ACCOUNTS, key)
    assert [(a["name"], a["appid"]) for a in listed.json()["data"]] == [("blog", APPID)]
    other, _ = service.key(10)
    assert call(service, "GET", ACCOUNTS, other).json()["data"] == []  # per API key
    for answer in (stored, listed):
        assert SECRET not in answer.text
    gone = call(service, "DELETE", f"{ACCOUNTS}/blog", key)
    assert gone.status_code == 200 and call(service, "GET", ACCOUNTS, key).json()["data"] == []
    again = call(service, "DELETE", f"{ACCOUNTS}/blog", key)
    assert again.status_code == 404 and again.json()["error"] == "account_not_found"
    assert service.balance(prefix) == 10


def test_a_draft_names_the_stored_account(service: Service) -> None:
    key, prefix = service.key(10)
    store(service, key)
    answer = draft_by_name(service, key, **{"Platform-Account": "blog"})
    assert answer.status_code == 200, answer.text
    (article,) = service.platform.draft(answer.json()["data"]["media_id"])
    assert article["title"] == "Named"
    assert service.balance(prefix) == 7
    listed = call(service, "GET", "/api/platform/drafts", key, headers={"Platform-Account": "blog"})
    assert listed.status_code == 200, listed.text
    assert listed.json()["data"]["total_count"] == 1


def test_an_unknown_account_is_404_and_costs_nothing(service: Service) -> None:
    key, prefix = service.key(10)
    store(service, key)
    other, _ = service.key(10)
    for who in (key, other):  # another key's account is unknown too
        answer = draft_by_name(
            service, who, **{"Platform-Account": "blog" if who == other else "x"}
        )
        assert answer.status_code == 404, answer.text
        body = answer.json()
        assert body["error"] == "account_not_found" and body["success"] is False
        assert body["cost"] == 0 and "PUT /api/platform/accounts" in body["message"]
    assert service.balance(prefix) == 10 and not service.platform.hits


def test_an_account_name_and_the_headers_together_are_refused(service: Service) -> None:
    key, prefix = service.key(10)
    store(service, key)
    both = {"Platform-Account": "blog", "Platform-Appid": APPID, "Platform-App-Secret": SECRET}
    answer = draft_by_name(service, key, **both)
    assert answer.status_code == 400
    assert answer.json()["error"] == "conflicting_platform_credentials"
    assert service.balance(prefix) == 10 and not service.platform.hits


def test_an_account_name_is_checked(service: Service) -> None:
    key, _ = service.key(10)
    answer = store(service, key, name="a%20b")
    assert answer.status_code == 400 and answer.json()["error"] == "invalid_account"
    bad = call(service, "PUT", f"{ACCOUNTS}/blog", key, json={"appid": APPID})
    assert bad.status_code == 400 and bad.json()["error"] == "invalid_secret"


def test_without_the_key_setting_storing_is_a_400_naming_it(
    start: Callable[..., Service],
) -> None:
    service = start(warm=False)
    key, _ = service.key(10)
    answer = store(service, key)
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert body["error"] == "account_key_missing" and "INKCARD_ACCOUNT_KEY" in body["message"]
    named = draft_by_name(service, key, **{"Platform-Account": "blog"})
    assert named.status_code == 400 and named.json()["error"] == "account_key_missing"


def test_the_secret_is_never_in_the_database_in_clear(service: Service, database: str) -> None:
    key, _ = service.key(10)
    store(service, key)
    assert draft_by_name(service, key, **{"Platform-Account": "blog"}).status_code == 200
    (row,) = table_rows(database, "SELECT appid, sealed_secret FROM platform_accounts")
    assert row[0] == APPID
    assert SECRET.encode() not in bytes(row[1])  # type: ignore[arg-type]
    assert Fernet(SERVER_KEY.encode()).decrypt(bytes(row[1])) == SECRET.encode()  # type: ignore[arg-type]
    if database.startswith("postgres"):
        return
    files = [Path(database), *Path(database).parent.glob(Path(database).name + "-*")]
    written = b"".join(path.read_bytes() for path in files if path.is_file())
    assert APPID.encode() in written  # the read sees the row
    assert SECRET.encode() not in written


def test_the_secret_is_never_logged_or_answered(
    service: Service, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    key, _ = service.key(10)
    answers = [
        store(service, key).text,
        call(service, "GET", ACCOUNTS, key).text,
        draft_by_name(service, key, **{"Platform-Account": "blog"}).text,
        call(
            service, "GET", "/api/platform/drafts", key, headers={"Platform-Account": "blog"}
        ).text,
        call(service, "DELETE", f"{ACCOUNTS}/blog", key).text,
    ]
    logged = caplog.text + "\n".join(r.getMessage() for r in caplog.records)
    assert "account blog stored" in logged  # the capture saw the accounts' lines
    for text in (logged, *answers):
        assert SECRET not in text and SERVER_KEY not in text


def test_a_malformed_server_key_is_refused_without_being_shown() -> None:
    with pytest.raises(SettingsError) as refused:
        load_settings({"INKCARD_ACCOUNT_KEY": "not-a-fernet-key-hunter2"})
    assert "INKCARD_ACCOUNT_KEY" in str(refused.value) and "hunter2" not in str(refused.value)
    both = f"{Fernet.generate_key().decode()},{SERVER_KEY}"
    assert load_settings({"INKCARD_ACCOUNT_KEY": both}).account_key == both


def test_a_rotated_key_still_opens_what_the_old_one_sealed() -> None:
    sealed = Sealer(SERVER_KEY).seal(SECRET)
    new = Fernet.generate_key().decode()
    assert Sealer(f"{new},{SERVER_KEY}").open(sealed, "blog") == SECRET
    with pytest.raises(AccountUnreadable) as refused:
        Sealer(new).open(sealed, "blog")
    assert SECRET not in refused.value.message and new not in refused.value.message
