"""Card renders in worker processes, over a real uvicorn server on 127.0.0.1: a render past
its time is killed and the pool recovers, a full queue is refused at once, identical requests
render once, and none of the failures costs credits.

A render "hangs" through the test-only ``render_stall_seconds`` setting: a card whose Markdown
holds ``STALL_MARKER`` sleeps that long in its render process before drawing.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from inkcard.app.render.jobs import STALL_MARKER
from tests.app.apphelpers import stored_files, wait_until_ok

STALLED = {"markdown": f"# This one hangs\n\n{STALL_MARKER}"}


@pytest.fixture
def serve(serve: Callable[..., tuple[str, Any]]) -> Callable[..., tuple[str, Any]]:
    """The shared ``serve``, with generate calls costing 1 credit unless overridden."""
    return functools.partial(serve, generate_cost=1)


def balance(app: Any, key: str) -> int:
    return int(app.state.services.credits.authenticate(key).balance)


def process_exists(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists() and "zombie" not in _state(pid)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().lower()
    except OSError:
        return "gone"


def wait_until(condition: Callable[[], bool], what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def test_a_render_past_its_time_is_killed_and_the_next_request_succeeds(
    serve: Callable[..., tuple[str, Any]], tmp_path: Path
) -> None:
    base, app = serve(render_processes=1, timeout=4, render_stall_seconds=300)
    pool = app.state.services.cards.pool
    key, _ = app.state.services.credits.create_key("slow", 5)
    [stalled_pid] = pool.pids()
    with httpx.Client(timeout=60, headers={"x-api-key": key}) as http:
        response = http.post(f"{base}/api/generate", json=STALLED)
        assert response.status_code == 504
        assert response.json()["error"] == "timeout"
        assert balance(app, key) == 5  # a 504 charges nothing
        assert stored_files(tmp_path / "files") == []
        assert pool.killed == 1
        wait_until(lambda: not process_exists(stalled_pid), "the stalled worker was not killed")
        wait_until_ok(f"{base}/readyz", 60)  # a new worker took its place and is warm
        assert len(pool.pids()) == pool.size == 1
        assert pool.pids() != [stalled_pid]
        response = http.post(f"{base}/api/generate", json={"markdown": "# after the kill"})
        assert response.status_code == 200, response.text
        assert balance(app, key) == 4


def test_a_full_queue_answers_503_with_retry_after(
    serve: Callable[..., tuple[str, Any]], tmp_path: Path
) -> None:
    base, app = serve(render_processes=1, render_queue=0, timeout=6, render_stall_seconds=300)
    pool = app.state.services.cards.pool
    key, _ = app.state.services.credits.create_key("busy", 5)
    with (
        httpx.Client(timeout=60, headers={"x-api-key": key}) as http,
        ThreadPoolExecutor(1) as background,
    ):
        stalled = background.submit(http.post, f"{base}/api/generate", json=STALLED)
        wait_until(lambda: pool.busy == 1, "the stalled render never reached its worker")
        refused = http.post(f"{base}/api/generate", json={"markdown": "# second"})
        assert refused.status_code == 503
        assert refused.json()["error"] == "overloaded"
        assert refused.headers["retry-after"] == "5"
        assert not stalled.done()
        assert stalled.result().status_code == 504
        assert balance(app, key) == 5  # neither the 503 nor the 504 charged
        wait_until_ok(f"{base}/readyz", 60)
        assert http.post(f"{base}/api/generate", json={"markdown": "# second"}).status_code == 200
        assert balance(app, key) == 4


def test_concurrent_identical_requests_render_once(
    serve: Callable[..., tuple[str, Any]], tmp_path: Path
) -> None:
    # Each render sleeps 3 s in its worker, so the four requests surely overlap it.
    base, app = serve(render_processes=2, render_stall_seconds=3)
    pool = app.state.services.cards.pool
    key, _ = app.state.services.credits.create_key("same", 10)
    barrier = threading.Barrier(4)
    body = {"markdown": f"# The same card four times\n\n{STALL_MARKER}"}

    with httpx.Client(timeout=60, headers={"x-api-key": key}) as http:

        def call(_: int) -> httpx.Response:
            barrier.wait()
            return http.post(f"{base}/api/generate", json=body)

        with ThreadPoolExecutor(4) as callers:
            responses = list(callers.map(call, range(4)))
    assert [r.status_code for r in responses] == [200] * 4
    assert len({r.text for r in responses}) == 1  # the same stored cards for everyone
    assert pool.renders == 1
    assert balance(app, key) == 9  # charged once: the others waited for it, then replayed it
    assert len([n for n in stored_files(tmp_path / "files") if n.endswith(".png")]) == 1
