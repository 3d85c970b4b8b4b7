"""``GET /metrics`` scraped from a real server on 127.0.0.1: after generate calls, a 401, a 402,
a 503 and a 504 kill, article calls and platform and storage failures, every counter moved by
exactly what happened; the text never holds a key or a secret; ``inkcard serve --workers 2``
sums both workers and removes its metrics folder when it stops.

The exposition is read with prometheus_client's own parser.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

from inkcard.app.render.jobs import STALL_MARKER
from tests.app.apphelpers import free_port, wait_until_ok
from tests.fakewechat import FakeWeChat

APPID, SECRET = "wx0123456789abcdef", "s3cr3t-app-secret-0123456789abcdef"
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(base: str) -> Samples:
    """Every sample of one scrape: (name, labels) → value."""
    response = httpx.get(f"{base}/metrics", timeout=30)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    samples: Samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    """A sample's value; a series not created yet counts 0."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


def generate(http: httpx.Client, base: str, key: str | None, markdown: str) -> httpx.Response:
    headers = {"x-api-key": key} if key else {}
    return http.post(f"{base}/api/generate", json={"markdown": markdown}, headers=headers)


def test_generate_calls_move_each_counter_by_exactly_what_happened(
    serve: Callable[..., tuple[str, Any]],
) -> None:
    base, app = serve(
        generate_cost=2, render_processes=1, render_queue=0, timeout=4, render_stall_seconds=300
    )
    rich, _ = app.state.services.credits.create_key("rich", 100)
    poor, _ = app.state.services.credits.create_key("poor", 1)
    renders = app.state.services.cards.render_count
    before = scrape(base)
    with httpx.Client(timeout=60) as http, ThreadPoolExecutor(1) as background:
        assert generate(http, base, rich, "# one").status_code == 200
        assert generate(http, base, rich, "# two").status_code == 200
        assert generate(http, base, rich, "# two").status_code == 200  # a replay: free
        assert generate(http, base, None, "# no key").status_code == 401
        assert generate(http, base, poor, "# too poor").status_code == 402
        stalled = background.submit(generate, http, base, rich, f"# hangs\n\n{STALL_MARKER}")
        during = _wait_for_rendering(base)
        refused = generate(http, base, rich, "# no room")
        assert refused.status_code == 503 and refused.json()["error"] == "overloaded"
        assert stalled.result().status_code == 504
    after = scrape(base)

    route = "/api/generate"
    for status, count in (("200", 3), ("401", 1), ("402", 1), ("503", 1), ("504", 1)):
        assert moved(before, after, "inkcard_requests_total", route=route, status=status) == count
    assert moved(before, after, "inkcard_request_duration_seconds_count", route=route) == 7
    # The scrapes before and during the stall were counted too; this one is counted after.
    assert moved(before, after, "inkcard_requests_total", route="/metrics", status="200") >= 2
    assert app.state.services.cards.render_count - renders == 2
    assert moved(before, after, "inkcard_render_duration_seconds_count") == 2
    assert value(during, "inkcard_render_queue", state="rendering") == 1
    assert value(after, "inkcard_render_queue", state="rendering") == 0
    assert value(after, "inkcard_render_queue", state="waiting") == 0
    assert moved(before, after, "inkcard_overloaded_total", pool="cards") == 1
    assert moved(before, after, "inkcard_render_worker_restarts_total", reason="timeout") == 1
    # Two answers charged 2 each (the third replayed one of them); the 503 and the 504 had
    # their holds given back.
    assert moved(before, after, "inkcard_credits_debited_total", operation="generate") == 4
    assert moved(before, after, "inkcard_credits_refunded_total", operation="generate") == 4
    assert app.state.services.credits.authenticate(rich).balance == 100 - 4


def _wait_for_rendering(base: str) -> Samples:
    """Scrape until one job is in a render process (the stalled one); that scrape."""
    for _ in range(500):
        samples = scrape(base)
        if value(samples, "inkcard_render_queue", state="rendering") == 1:
            return samples
    raise AssertionError("the stalled render never showed in the queue gauge")


def test_article_credits_and_platform_errors_are_counted_by_label(
    serve: Callable[..., tuple[str, Any]],
) -> None:
    with FakeWeChat({APPID: SECRET}) as platform:
        base, app = serve(wechat_api_base=platform.url, wechat_timeout=5)
        key, _ = app.state.services.credits.create_key("articles", 20)
        path = f"{base}/api/platform/convert-and-draft"
        body = {"markdown": "# Title\n\nSome text.", "title": "Title"}
        before = scrape(base)
        with httpx.Client(timeout=60, headers={"x-api-key": key}) as http:
            assert http.post(path, json=body).status_code == 200  # HTML only: 1 credit
            draft = {"platform-appid": APPID, "platform-app-secret": SECRET}
            assert http.post(path, json=body, headers=draft).status_code == 200  # 3 credits
            wrong = {"platform-appid": APPID, "platform-app-secret": "not-the-secret"}
            refused = http.post(path, json=body, headers=wrong)
            assert refused.json()["error"] == "invalid_platform_credentials"
        after = scrape(base)
    operation = "convert-and-draft"
    assert moved(before, after, "inkcard_credits_debited_total", operation=operation) == 4
    assert moved(before, after, "inkcard_credits_refunded_total", operation=operation) == 3
    label = "invalid_platform_credentials"
    assert moved(before, after, "inkcard_platform_errors_total", label=label) == 1
    assert sum(v for (n, _), v in after.items() if n == "inkcard_platform_errors_total") == 1
    route = "/api/platform/convert-and-draft"
    assert moved(before, after, "inkcard_requests_total", route=route, status="200") == 2
    assert app.state.services.credits.authenticate(key).balance == 20 - 4


def test_storage_failures_are_counted_by_backend_and_action(
    serve: Callable[..., tuple[str, Any]], tmp_path: Path
) -> None:
    base, app = serve(generate_cost=1)
    key, _ = app.state.services.credits.create_key("storage", 10)
    before = scrape(base)
    folder = tmp_path / "files" / "screenshots"
    folder.rmdir()  # empty: the readiness probe's object is gone
    folder.write_text("a file where the folder should be")
    with httpx.Client(timeout=60) as http:
        response = generate(http, base, key, "# nowhere to go")
    assert response.status_code == 502 and response.json()["error"] == "storage_error"
    after = scrape(base)
    assert moved(before, after, "inkcard_storage_errors_total", backend="local", action="read") == 1
    assert moved(before, after, "inkcard_credits_refunded_total", operation="generate") == 1
    assert moved(before, after, "inkcard_requests_total", route="/api/generate", status="502") == 1


def test_routes_are_templates_and_no_key_or_secret_reaches_the_text(
    serve: Callable[..., tuple[str, Any]],
) -> None:
    with FakeWeChat({APPID: SECRET}) as platform:
        base, app = serve(wechat_api_base=platform.url, wechat_timeout=5)
        key, info = app.state.services.credits.create_key("secretive", 10)
        headers = {
            "x-api-key": key,
            "platform-appid": APPID,
            "platform-app-secret": SECRET,
            "idempotency-key": "my-idempotency-key-42",
        }
        with httpx.Client(timeout=60, headers=headers) as http:
            path = f"{base}/api/platform/convert-and-draft"
            assert http.post(path, json={"markdown": "# hi"}).status_code == 200
            assert http.post(f"{base}/api/generate", json={"markdown": "# hi"}).status_code == 200
            http.get(f"{base}/files/screenshots/0123abcd-1.png")
            http.get(f"{base}/api/previews/apple-notes-dark-mode.png")
            http.get(f"{base}/no/such/path/{key}")
            http.get(f"{base}/metrics?key={key}")
        text = httpx.get(f"{base}/metrics").text
    for secret in (key, info.prefix, APPID, SECRET, "my-idempotency-key-42", "0123abcd"):
        assert secret not in text
    samples = scrape(base)
    series = app.state.services.metrics.series()
    for name, labels in samples:  # what the alert rules are checked against is what is sent
        assert sorted(dict(labels)) == sorted(series[name]), name
    routes = {dict(labels)["route"] for (name, labels) in samples if "route" in dict(labels)}
    assert routes == {
        "/api/platform/convert-and-draft",
        "/api/generate",
        "/files/{name}",
        "/api/previews/{name}",
        "unmatched",
        "/metrics",
        "/readyz",  # the fixture's wait for readiness
    }


def test_metrics_off_removes_the_route(serve: Callable[..., tuple[str, Any]]) -> None:
    base, _ = serve(metrics=False)
    assert httpx.get(f"{base}/metrics").status_code == 404


def test_two_workers_are_summed_and_their_folder_removed(tmp_path: Path) -> None:
    port = free_port()
    temp = tmp_path / "temp"  # under xdist, too long for a socket: the service copes
    temp.mkdir()
    env = {
        **os.environ,
        "TMPDIR": str(temp),
        "INKCARD_DATABASE": str(tmp_path / "inkcard.db"),
        "INKCARD_STORAGE_DIR": str(tmp_path / "files"),
        "INKCARD_BOOTSTRAP_KEY": "0",
        "INKCARD_RENDER_PROCESSES": "1",
        "INKCARD_GENERATE_COST": "1",
        "INKCARD_TIMEOUT": "20",
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    cli = [sys.executable, "-m", "inkcard.app.cli"]
    key = subprocess.run(
        [*cli, "keys", "create", "--name", "w", "--credits", "50"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    serve = [*cli, "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"]
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(serve, env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        # two workers, each with its render process, start side by side: on a loaded 2-core
        # machine (a full run's other test process) that took over 60 s once
        ready = _ready_within(f"{base}/readyz", 180)
        assert ready, (
            f"not ready in 180 s: {_body(f'{base}/readyz')}; the server said:\n"
            f"{log.read_text()[-3000:]}"
        )
        [folder] = temp.glob("inkcard-metrics-*")
        before = scrape(base)
        with httpx.Client(timeout=60, headers={"x-api-key": key}) as http:
            for n in range(4):
                assert generate(http, base, key, f"# card {n}").status_code == 200
        for _ in range(20):
            with httpx.Client(timeout=30) as fresh:  # a new connection: any worker may answer
                assert fresh.get(f"{base}/healthz").status_code == 200
        pids = {p.stem.rsplit("_", 1)[1] for p in folder.glob("*.db")}
        assert len(pids) >= 2  # both workers keep their values in the shared folder
        for _ in range(6):  # whichever worker answers the scrape, it sums them all
            after = scrape(base)
            healthz = moved(before, after, "inkcard_requests_total", route="/healthz", status="200")
            assert healthz == 20
            generated = moved(
                before, after, "inkcard_requests_total", route="/api/generate", status="200"
            )
            assert generated == 4
            charged = moved(before, after, "inkcard_credits_debited_total", operation="generate")
            assert charged == 4
            assert value(after, "inkcard_render_queue", state="rendering") == 0
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    assert list(temp.glob("inkcard-metrics-*")) == []


def _ready_within(url: str, seconds: float) -> bool:
    """Whether ``url`` answered 200 within ``seconds``."""
    try:
        wait_until_ok(url, seconds)
    except AssertionError:
        return False
    return True


def _body(url: str) -> str:
    """What ``url`` answers now, or why it does not."""
    try:
        return httpx.get(url, timeout=5).text
    except httpx.HTTPError as exc:
        return repr(exc)
