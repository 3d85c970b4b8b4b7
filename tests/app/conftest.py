"""Fixtures for the HTTP service tests: apps on temporary directories and API keys."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from app.main import create_app
from app.settings import Settings, load_settings
from tests.app.apphelpers import new_key


@pytest.fixture
def make_settings(tmp_path: Path) -> Callable[..., Settings]:
    """Settings on ``tmp_path`` (no environment), with overrides."""

    def make(**overrides: Any) -> Settings:
        base: dict[str, Any] = {
            "database": str(tmp_path / "inkcard.db"),
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
