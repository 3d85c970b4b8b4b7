"""`inkcard serve` logs "ready" only once its port accepts connections, and never when the
port cannot be bound: supervisors and people read that line as "send traffic now"."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.app.apphelpers import free_port

# Start-up (schema, fonts, one render process) takes a few seconds; a hang fails the test.
START_TIMEOUT_S = 120


@contextmanager
def serving(tmp_path: Path, port: int) -> Iterator[subprocess.Popen[str]]:
    env = {
        **os.environ,
        "INKCARD_HOST": "127.0.0.1",
        "INKCARD_PORT": str(port),
        "INKCARD_DATABASE": str(tmp_path / "inkcard.db"),
        "INKCARD_STORAGE_DIR": str(tmp_path / "files"),
        "INKCARD_BOOTSTRAP_KEY": "0",
        "INKCARD_RENDER_PROCESSES": "1",
    }
    command = [sys.executable, "-m", "inkcard.app.cli", "serve"]
    with subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    ) as server:
        try:
            yield server
        finally:
            server.terminate()
            server.wait(timeout=60)


def log_lines(server: subprocess.Popen[str]) -> Iterator[dict[str, Any]]:
    """The server's JSON log lines as they come (other lines are skipped)."""
    assert server.stderr is not None
    for line in server.stderr:
        if line.startswith("{"):
            yield json.loads(line)


def test_ready_is_logged_after_the_port_accepts(tmp_path: Path) -> None:
    port = free_port()
    with serving(tmp_path, port) as server:
        for record in log_lines(server):
            if record["msg"].startswith("ready"):
                break
        else:
            raise AssertionError("the server ended without logging ready")
        # At the moment the line is read, a connection is already accepted.
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
        assert f"127.0.0.1:{port}" in record["msg"]


def test_no_ready_when_the_port_is_taken(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with serving(tmp_path, port) as server:
            assert server.stderr is not None
            output = server.stderr.read()  # to its end: the server gives up
            assert server.wait(timeout=START_TIMEOUT_S) != 0
    assert "address already in use" in output.lower(), output
    assert '"msg":"ready' not in output, output
