"""Fixtures for the HTTP service tests: apps on temporary directories and API keys.

An app start costs about half a second (migrations, fonts, a render process that draws its
warm-up cards, the article warm-up), most of it not the test's own. So a test that only
reads or validates shares its module's app (``shared_app``), and a test that draws nothing
may start an app without warm-ups (``make_client(warm=False)``); a test that changes
settings or state another test could see keeps an app of its own.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import pytest
from gcp_storage_emulator.server import create_server
from litestar import Litestar
from litestar.testing import TestClient

from inkcard.app.server.factory import create_app
from inkcard.app.services import build_services
from inkcard.app.settings import Settings, load_settings
from tests.app.apphelpers import free_port, new_key, running_server, wait_until_ok

ENGINES = ("sqlite", "postgresql")
GCS_BUCKET = "inkcard-test"  # the one bucket of the `emulator` fixture
both_engines = pytest.mark.both_engines
"""``pytestmark = both_engines``: every test of the suite that touches the database runs on
SQLite and on PostgreSQL (tests that never open it run once)."""
shared_app = pytest.mark.shared_app
"""``shared_app`` (on a test or a module): the test's ``client`` and ``database`` are its
module's app and database (one per engine), started once for every test so marked, each
with a fresh ``key``; ``shared_app(generate_cost=1)`` shares an app with those settings
(``warm=False`` too: ``make_client``). Only for tests that read or validate: a test that
changes settings, looks at the stored files or the whole database, or leaves state a later
test could see keeps its own app (``make_client`` always starts one, on a database of its
own)."""
_SHARED_DATABASES: set[str] = set()  # PostgreSQL URLs of the shared apps still running


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


@pytest.fixture(scope="module")
def engine(request: pytest.FixtureRequest) -> str:
    """The database engine of the test: SQLite unless the suite is ``both_engines``. Module
    scoped, so a module's tests run engine by engine and a shared app serves one engine."""
    return str(getattr(request, "param", "sqlite"))


def is_shared(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("shared_app") is not None


@contextmanager
def new_database(engine: str, folder: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A SQLite file in ``folder``, or a new PostgreSQL database dropped at the end."""
    if engine == "sqlite":
        yield str(folder / "inkcard.db")
        return
    server = request.getfixturevalue("postgres")
    url = server.new_database()
    try:
        yield url
    finally:
        server.drop_database(url)


@pytest.fixture
def own_database(engine: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """``INKCARD_DATABASE`` for one test: a SQLite file, or a new PostgreSQL database."""
    with new_database(engine, tmp_path, request) as url:
        yield url


@pytest.fixture
def database(engine: str, request: pytest.FixtureRequest) -> str:
    """The database of the test's ``client``: the module's shared one (``shared_app``) or
    the test's own (that ``make_client`` uses). (It names ``engine`` so that a
    ``both_engines`` test is run on each.)"""
    return str(request.getfixturevalue("shared_database" if is_shared(request) else "own_database"))


def settings_on(database: str, folder: Path, **overrides: Any) -> Settings:
    """Settings on ``folder`` (no environment), with overrides."""
    base: dict[str, Any] = {
        "database": database,
        "requests_per_minute": 0,  # suites that test the limit turn it on
        "storage_dir": str(folder / "files"),
        "bootstrap_key": False,
        "render_processes": 1,  # one warm render process per app keeps the suite quick
    }
    base.update(overrides)
    return load_settings({}, **base)


def new_app(settings: Settings, *, warm: bool = True) -> Litestar:
    """The app on ``settings``. ``warm=False``: for a test that draws nothing, no render
    process and no article warm-up (the services ``inkcard mcp`` runs: a card or a formula
    would be drawn in this process)."""
    return create_app(settings, build_services(settings, in_process=not warm))


def started(settings: Settings, *, warm: bool = True) -> TestClient[Litestar]:
    """An app on ``settings`` (``new_app``), its lifespan entered."""
    client = TestClient(new_app(settings, warm=warm))
    client.__enter__()
    return client


@pytest.fixture
def make_settings(tmp_path: Path, own_database: str) -> Callable[..., Settings]:
    """Settings on ``tmp_path`` and the test's own database (no environment), with overrides."""

    def make(**overrides: Any) -> Settings:
        return settings_on(own_database, tmp_path, **overrides)

    return make


@pytest.fixture
def make_client(
    make_settings: Callable[..., Settings],
) -> Iterator[Callable[..., TestClient[Litestar]]]:
    """Start apps (lifespan included) with setting overrides; all are closed after the test.
    ``warm=False``: an app for a test that draws nothing (``started``)."""
    clients: list[TestClient[Litestar]] = []

    def make(*, warm: bool = True, **overrides: Any) -> TestClient[Litestar]:
        client = started(make_settings(**overrides), warm=warm)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture(scope="module")
def shared_database(
    engine: str, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[str]:
    """The database of the module's shared app (``shared_app``)."""
    with new_database(engine, tmp_path_factory.mktemp("shared-db"), request) as url:
        _SHARED_DATABASES.add(url)
        try:
            yield url
        finally:
            _SHARED_DATABASES.discard(url)


@pytest.fixture(scope="module")
def shared_apps(
    shared_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[..., TestClient[Litestar]]]:
    """The module's shared apps (``shared_app``), one per set of setting overrides (and
    ``warm``), each started on first use and closed after the module's last test."""
    apps: dict[tuple[tuple[str, Any], ...], TestClient[Litestar]] = {}

    def get(*, warm: bool = True, **overrides: Any) -> TestClient[Litestar]:
        name = (("warm", warm), *sorted(overrides.items()))
        if name not in apps:
            folder = tmp_path_factory.mktemp("shared-app")
            apps[name] = started(settings_on(shared_database, folder, **overrides), warm=warm)
        return apps[name]

    yield get
    for app in apps.values():
        app.__exit__(None, None, None)


@pytest.fixture
def client(engine: str, request: pytest.FixtureRequest) -> TestClient[Litestar]:
    """An app with default settings on temporary directories: the module's shared app for a
    test marked ``shared_app``, else the test's own. (It names ``engine`` so that a
    ``both_engines`` test is run on each.)"""
    marker = request.node.get_closest_marker("shared_app")
    if marker is not None:
        return cast(TestClient[Litestar], request.getfixturevalue("shared_apps")(**marker.kwargs))
    return cast(TestClient[Litestar], request.getfixturevalue("make_client")())


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
    its test: hypothesis then fails a later test for using the global random module. (A
    shared app's pool lives as long as its module's tests.)"""
    yield
    store_pg = sys.modules.get("inkcard.app.ledger.postgres")
    if store_pg is not None:
        left = [url for _, url in store_pg._POOLS if url not in _SHARED_DATABASES]
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
