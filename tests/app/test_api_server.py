"""The service on a real uvicorn server on 127.0.0.1: round trips, backpressure, first start."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from tests.app.apphelpers import free_port, png_size, wait_until_ok

LONG = "\n\n".join(
    f"## Section {i}\n\n" + "Some words to lay out on many cards. " * 30 for i in range(18)
)


def test_generate_and_download_over_http(serve: Callable[..., tuple[str, Any]]) -> None:
    base, app = serve()
    key, _ = app.state.services.credits.create_key("http", 10)
    with httpx.Client(timeout=30) as http:
        response = http.post(
            f"{base}/api/generate", json={"markdown": "# Over HTTP", "width": 500, "height": 500}
        )
        assert response.status_code == 401
        response = http.post(
            f"{base}/api/generate",
            json={"markdown": "# Over HTTP", "width": 500, "height": 500, "unknown": True},
            headers={"x-api-key": key},
        )
        assert (response.status_code, response.json()["error"]) == (400, "unknown_field")
        response = http.post(
            f"{base}/api/generate",
            json={"markdown": "# Over HTTP", "width": 500, "height": 500},
            headers={"x-api-key": key, "x-request-id": "server-1"},
        )
        assert response.status_code == 200, response.text
        assert response.headers["x-request-id"] == "server-1"
        [image] = response.json()["images"]
        assert image["url"].startswith(base + "/files/screenshots/")
        png = http.get(image["url"])
        assert png.status_code == 200
        assert png.headers["content-type"] == "image/png"
        assert png_size(png.content) == (1000, 1000)


def test_concurrent_charges_never_overspend(serve: Callable[..., tuple[str, Any]]) -> None:
    base, app = serve(generate_cost=1, renders_per_key=40, render_queue=40)  # 402s only
    credits = app.state.services.credits
    key, info = credits.create_key("race", 20)
    with httpx.Client(timeout=60) as http:

        def call(n: int) -> int:
            if 0 <= n < 8:
                barrier.wait()
            body = {"markdown": f"# Card {n}"}  # an identical call would be a free replay
            return http.post(
                f"{base}/api/generate", json=body, headers={"x-api-key": key}
            ).status_code

        barrier = threading.Barrier(8)
        assert call(-1) == 200

        with ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(call, range(40)))
    assert statuses.count(200) == 19
    assert statuses.count(402) == 21
    final = credits.key_info(info.prefix)
    assert final.balance == 0 == credits.ledger_sum(info.id)


def _read_notice(proc: subprocess.Popen[str], limit: float) -> list[str]:
    lines: list[str] = []
    deadline = time.monotonic() + limit
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if "INKCARD_BOOTSTRAP_KEY=0" in line:
            return lines
    raise AssertionError(f"no first-start notice printed; got {lines}")


def _send_like_curl(command: str) -> httpx.Response:
    """Send the request a printed ``curl -s URL -H ... -d ...`` command describes."""
    words = shlex.split(command)
    assert words[:2] == ["curl", "-s"]
    url, headers, data = words[2], {}, None
    rest = iter(words[3:])
    for flag in rest:
        value = next(rest)
        if flag == "-H":
            name, _, header = value.partition(":")
            headers[name.strip()] = header.strip()
        elif flag == "-d":
            data = value
    assert url.startswith("http://127.0.0.1:")
    return httpx.post(url, headers=headers, content=data, timeout=60)


def test_first_start_prints_a_key_and_a_working_curl(tmp_path: Path) -> None:
    port = free_port()
    env = {
        **os.environ,
        "INKCARD_DATABASE": str(tmp_path / "inkcard.db"),
        "INKCARD_STORAGE_DIR": str(tmp_path / "files"),
    }
    env.pop("INKCARD_BOOTSTRAP_KEY", None)
    cmd = [
        sys.executable,
        "-m",
        "inkcard.app.cli",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]
    proc = subprocess.Popen(
        cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        lines = _read_notice(proc, 60)
        keys = [line.strip() for line in lines if line.strip().startswith("ik_")]
        assert len(keys) == 1 and len(keys[0]) == 35
        [curl] = [line.strip() for line in lines if line.strip().startswith("curl ")]
        assert keys[0] in curl
        wait_until_ok(f"http://127.0.0.1:{port}/readyz", 60)
        response = _send_like_curl(curl)
        assert response.status_code == 200, response.text
        [image] = response.json()["images"]
        assert png_size(httpx.get(image["url"], timeout=10).content) == (880, 1172)
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    again = subprocess.Popen(
        cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        wait_until_ok(f"http://127.0.0.1:{port}/healthz", 60)
    finally:
        again.terminate()
        out, _ = again.communicate(timeout=30)
    assert "ik_" not in out  # the key is printed on the first start only
