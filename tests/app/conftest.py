"""Fixtures for the HTTP service tests: apps on temporary directories and API keys."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from gcp_storage_emulator.server import create_server
from litestar import Litestar
from litestar.testing import TestClient

from app.server.factory import create_app
from app.settings import Settings, load_settings
from tests.app.apphelpers import free_port, new_key, running_server, wait_until_ok

ENGINES = ("sqlite", "postgresql")
GCS_BUCKET = "inkcard-test"  # the one bucket of the `emulator` fixture
both_engines = pytest.mark.both_engines
"""``pytestmark = both_engines``: every test of the suite that touches the database runs on
SQLite and on PostgreSQL (tests that never open it run once)."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.definition.get_closest_marker("both_engines") and (
        "engine" in metafunc.fixturenames
    ):
        metafunc.parametrize("engine", ENGINES, indirect=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """One PostgreSQL server for the whole session (started only if a test asks for it)."""
    from tests.pgserver import PostgresServer

    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def engine(request: pytest.FixtureRequest) -> str:
    """The database engine of the test: SQLite unless the suite is ``both_engines``."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
def database(engine: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """``INKCARD_DATABASE`` for one test: a SQLite file, or a new PostgreSQL database."""
    if engine == "sqlite":
        yield str(tmp_path / "inkcard.db")
        return
    server = request.getfixturevalue("postgres")
    url = server.new_database()
    try:
        yield url
    finally:
        server.drop_database(url)


@pytest.fixture
def make_settings(tmp_path: Path, database: str) -> Callable[..., Settings]:
    """Settings on ``tmp_path`` (no environment), with overrides."""

    def make(**overrides: Any) -> Settings:
        base: dict[str, Any] = {
            "database": database,
            "requests_per_minute": 0,  # suites that test the limit turn it on
            "storage_dir": str(tmp_path / "files"),
            "bootstrap_key": False,
            "render_processes": 1,  # one warm render process per app keeps the suite quick
        }
        base.update(overrides)
        return load_settings({}, **base)

    return make


@pytest.fixture
def make_client(
    make_settings: Callable[..., Settings],
) -> Iterator[Callable[..., TestClient[Litestar]]]:
    """Start apps (lifespan included) with setting overrides; all are closed after the test."""
    clients: list[TestClient[Litestar]] = []

    def make(**overrides: Any) -> TestClient[Litestar]:
        client = TestClient(create_app(make_settings(**overrides)))
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient[Litestar]]) -> TestClient[Litestar]:
    """An app with default settings on temporary directories."""
    return make_client()


@pytest.fixture
def key(client: TestClient[Litestar]) -> str:
    """A live key with 100 credits for ``client``."""
    return new_key(client)


@pytest.fixture
def serve(make_settings: Callable[..., Settings]) -> Iterator[Callable[..., tuple[str, Any]]]:
    """Start the app on a free loopback port with setting overrides and wait until it is
    ready (render processes warm); yields (base URL, app). Servers stop after the test."""
    stack: list[Any] = []

    def start(**overrides: Any) -> tuple[str, Any]:
        port = free_port()
        app = create_app(make_settings(port=port, **overrides))
        server = running_server(app, port)
        base = server.__enter__()
        stack.append(server)
        wait_until_ok(f"{base}/readyz", 60)
        return base, app

    yield start
    for server in reversed(stack):
        server.__exit__(None, None, None)


@pytest.fixture(autouse=True)
def no_pool_outlives_its_test() -> Iterator[None]:
    """A PostgreSQL pool left open keeps threads that reconnect (with random jitter) long after
    its test: hypothesis then fails a later test for using the global random module."""
    yield
    store_pg = sys.modules.get("app.ledger.postgres")
    if store_pg is not None:
        left = [url for _, url in store_pg._POOLS]
        assert not left, f"PostgreSQL pools left open: {left}"


@pytest.fixture
def emulator(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """An in-memory GCS emulator on a free 127.0.0.1 port with the bucket ``GCS_BUCKET``;
    yields its URL (also set as ``STORAGE_EMULATOR_HOST`` for the test's own clients)."""
    port = free_port()
    server = create_server("127.0.0.1", port, in_memory=True, default_bucket=GCS_BUCKET)
    server.start()
    host = f"http://127.0.0.1:{port}"
    monkeypatch.setenv("STORAGE_EMULATOR_HOST", host)
    try:
        yield host
    finally:
        server.stop()


S3_BUCKET = "inkcard-s3-test"  # the one bucket of the `s3` fixture


@pytest.fixture(scope="session")
def moto_server() -> Iterator[str]:
    """moto's S3-API server (its server mode, real HTTP) on a free 127.0.0.1 port, for the
    session; yields its URL. Buckets are made and emptied by the `s3` fixture."""
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()


def public_read_policy(bucket: str) -> str:
    """A bucket policy that lets everyone read the bucket's objects, as a bucket whose URLs
    the service hands out needs (moto answers 403 to anonymous reads without one)."""
    import json

    statement = {
        "Effect": "Allow",
        "Principal": "*",
        "Action": "s3:GetObject",
        "Resource": f"arn:aws:s3:::{bucket}/*",
    }
    return json.dumps({"Version": "2012-10-17", "Statement": [statement]})


@pytest.fixture
def s3(moto_server: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[str]:
    """The empty, publicly readable bucket ``S3_BUCKET`` on `moto_server`, with throwaway
    credentials in the standard variables (and no config file, no instance metadata); yields
    the endpoint."""
    import boto3
    import httpx

    for name, value in {
        "AWS_ACCESS_KEY_ID": "inkcard-test",
        "AWS_SECRET_ACCESS_KEY": "inkcard-test-secret",
        "AWS_CONFIG_FILE": str(tmp_path / "no-aws-config"),
        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "no-aws-credentials"),
        "AWS_EC2_METADATA_DISABLED": "true",
    }.items():
        monkeypatch.setenv(name, value)
    for name in ("AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL"):
        monkeypatch.delenv(name, raising=False)
    client = boto3.client("s3", endpoint_url=moto_server, region_name="us-east-1")
    client.create_bucket(Bucket=S3_BUCKET)
    client.put_bucket_policy(Bucket=S3_BUCKET, Policy=public_read_policy(S3_BUCKET))
    try:
        yield moto_server
    finally:
        httpx.post(f"{moto_server}/moto-api/reset")
