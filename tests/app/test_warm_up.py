"""Warm-up before ready: render workers draw a card before they say ready,
and ``/readyz`` answers 503 until the article path has run once in the server process."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable

import pytest
from litestar.testing import TestClient

from inkcard import layout, themes
from inkcard.app.articles.warmup import WarmUp, warm_article_path
from inkcard.app.render.messages import WorkerConfig
from inkcard.app.render.process import Worker, forkserver_context
from inkcard.app.render.worker import WARM_UPS
from inkcard.app.server.factory import create_app
from inkcard.app.services import build_services
from inkcard.app.settings import Settings
from tests.app.apphelpers import wait_warm


def test_a_worker_says_ready_only_after_drawing_a_card() -> None:
    config = WorkerConfig(
        fonts_dir=str(layout.DEFAULT_FONTS_DIR), warm_up_theme=themes.load("apple-notes")
    )
    worker = Worker(forkserver_context(), config)
    try:
        ready = worker.wait_ready(60)
    finally:
        worker.stop()
    assert ready.warmed == WARM_UPS == ("card",)  # it did not fail
    assert ready.warm_up_ms > 0


def test_readyz_is_503_until_the_article_path_is_warm(
    make_settings: Callable[..., Settings],
) -> None:
    gate = threading.Event()

    def held_warm_up() -> None:  # the real warm-up, held until the test lets it run
        assert gate.wait(60), "the test never opened the gate"
        warm_article_path()

    settings = make_settings()
    services = dataclasses.replace(build_services(settings), article_warm_up=WarmUp(held_warm_up))
    with TestClient(create_app(settings, services)) as client:
        wait_warm(client, articles=False)  # the render processes are warm: not the articles
        waiting = client.get("/readyz")
        assert waiting.status_code == 503, waiting.text
        assert waiting.json()["error"] == "not_ready"
        assert waiting.json()["message"] == "the article path is warming up"
        gate.set()
        deadline = time.monotonic() + 60
        while not services.article_warm_up.done:
            assert time.monotonic() < deadline, "the article warm-up never ended"
            time.sleep(0.02)
        ready = client.get("/readyz")
        assert ready.status_code == 200, ready.text
        assert ready.json()["articles"] == "warm"


def test_a_failed_article_warm_up_still_lets_the_service_become_ready(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken() -> None:
        raise RuntimeError("no theme CSS")

    warm_up = WarmUp(broken)
    assert not warm_up.done
    warm_up.run()
    assert warm_up.done
    assert "article warm-up failed" in caplog.text
