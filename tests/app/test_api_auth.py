"""API-key authentication, request ids and the access log."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from inkcard.app import logs
from inkcard.app.ledger.credits import hash_key
from inkcard.app.ledger.database import is_postgres
from tests.app.conftest import both_engines, shared_app
from tests.app.dbhelpers import table_rows

pytestmark = [both_engines, shared_app]

Client = TestClient[Litestar]


class Collect(logging.Handler):
    """Keeps every record it sees, formatted the way the service formats them."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def access_records() -> Iterator[list[logging.LogRecord]]:
    handler = Collect()
    logger = logging.getLogger("inkcard")
    logger.addHandler(handler)
    yield handler.records
    logger.removeHandler(handler)


def test_missing_key_is_401(client: Client) -> None:
    response = client.post("/api/generate", json={})
    assert response.status_code == 401
    assert response.json()["error"] == "missing_api_key"


@pytest.mark.parametrize("bad", ["nope", "ik_" + "a" * 32, "ik_" + "a" * 31 + "!", " "])
def test_unknown_key_is_401(client: Client, key: str, bad: str) -> None:
    response = client.post("/api/generate", json={}, headers={"x-api-key": bad})
    assert response.status_code == 401
    assert response.json()["error"] == ("missing_api_key" if not bad.strip() else "invalid_api_key")


def test_key_with_the_right_prefix_but_wrong_secret_is_401(client: Client, key: str) -> None:
    forged = key[:-1] + ("A" if key[-1] != "A" else "B")
    response = client.post("/api/generate", json={}, headers={"x-api-key": forged})
    assert response.json()["error"] == "invalid_api_key"


def test_revoked_key_is_401(client: Client, key: str) -> None:
    assert client.post("/api/generate", json={}, headers={"x-api-key": key}).status_code == 200
    client.app.state.services.credits.revoke(key[:8])
    response = client.post("/api/generate", json={}, headers={"x-api-key": key})
    assert response.status_code == 401
    assert response.json()["error"] == "invalid_api_key"


def test_auth_comes_before_body_validation(client: Client) -> None:
    response = client.post("/api/generate", json={"width": 1})
    assert response.json()["error"] == "missing_api_key"


def test_database_keeps_only_hash_and_prefix(client: Client, key: str, database: str) -> None:
    if is_postgres(database):  # every text column of every table, as one dump would show it
        rows = table_rows(database, "SELECT * FROM api_keys") + table_rows(
            database, "SELECT * FROM ledger"
        )
        raw = repr(rows).encode()
    else:
        raw = Path(database).read_bytes()
    assert key.encode() not in raw
    assert key[:8].encode() in raw
    assert hash_key(key).encode() in raw


def test_request_id_is_echoed_or_made(client: Client, key: str) -> None:
    echoed = client.post(
        "/api/generate", json={}, headers={"x-api-key": key, "x-request-id": "abc-123"}
    )
    assert echoed.headers["x-request-id"] == "abc-123"
    made = client.get("/healthz")
    assert len(made.headers["x-request-id"]) == 32
    assert client.get("/nowhere").headers["x-request-id"]
    assert client.post("/api/generate", json={}).headers["x-request-id"]
    hostile = client.get("/healthz", headers={"x-request-id": "bad id;x"})
    assert hostile.headers["x-request-id"] != "bad id;x"


def test_one_access_line_per_request_with_prefix_never_key(
    client: Client, key: str, access_records: list[logging.LogRecord]
) -> None:
    wrong = key[:-1] + ("0" if key[-1] != "0" else "1")  # never the key itself
    client.post("/api/generate", json={}, headers={"x-api-key": key, "x-request-id": "req-1"})
    client.post("/api/generate", json={}, headers={"x-api-key": wrong, "x-request-id": "req-2"})
    lines = [r for r in access_records if r.name == "inkcard.access"]
    assert [r.http["status"] for r in lines] == [200, 401]
    assert lines[0].http["key"] == key[:8]
    formatter = logs.JsonFormatter()  # the stderr handler's
    text = "\n".join(formatter.format(r) for r in access_records)
    assert '"request_id":"req-1"' in text and '"request_id":"req-2"' in text
    assert key not in text
    assert wrong not in text
