"""What ``inkcard serve`` writes on stderr while it serves: JSON lines and nothing else.

A real server process, since the test runner's own logging set-up would hide what a fresh
process does (it gives the root logger handlers of its own).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.app.apphelpers import free_port, wait_until_ok

MATH_ARTICLE = (
    "# Math\n\nEuler: $e^{i\\pi} + 1 = 0$ and\n\n$$\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}$$\n"
)


def test_every_log_line_is_json_after_an_article_with_math(tmp_path: Path) -> None:
    """The math typesetter's libraries log through the root logger's module functions, which
    once gave the root logger a plain handler of its own: every access line came twice."""
    port = free_port()
    env = {
        **os.environ,
        "INKCARD_DATABASE": str(tmp_path / "inkcard.db"),
        "INKCARD_STORAGE_DIR": str(tmp_path / "files"),
        "INKCARD_RENDER_PROCESSES": "1",
    }
    key = subprocess.run(
        [
            sys.executable,
            "-m",
            "inkcard.app.cli",
            "keys",
            "create",
            "--name",
            "log",
            "--credits",
            "9",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    log = tmp_path / "stderr.log"
    base = f"http://127.0.0.1:{port}"
    with log.open("wb") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "inkcard.app.cli", "serve", "--port", str(port)],
            env={**env, "INKCARD_BOOTSTRAP_KEY": "0"},
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
        try:
            wait_until_ok(f"{base}/readyz", 60)
            served_from = log.stat().st_size  # uvicorn's own start-up lines come before
            with httpx.Client(base_url=base, timeout=60, headers={"x-api-key": key}) as http:
                article = http.post(
                    "/api/platform/convert-and-draft", json={"markdown": MATH_ARTICLE}
                )
                assert article.status_code == 200, article.text
                assert "<svg" in article.json()["html"]  # the math was typeset
                for _ in range(3):
                    assert http.get("/healthz").status_code == 200
                    assert http.get("/api/themes").status_code == 200
                assert http.post("/api/generate", content=b"{").status_code == 400
            time.sleep(0.5)  # the last lines reach the file
            lines = log.read_bytes()[served_from:].decode().splitlines()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    assert lines
    not_json = [line for line in lines if not _is_json_object(line)]
    assert not_json == []
    paths = [json.loads(line).get("path") for line in lines]
    assert paths.count("/healthz") == 3  # each request logged once


def _is_json_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False
