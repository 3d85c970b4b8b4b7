"""A real ``inkcard serve`` for the tests that are about the service: a subprocess on a loopback
port with its own environment, its log in a file, its credits read from the same database, and
``kill -9`` when a test wants it dead."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from inkcard.app.ledger.credits import Credits
from tests.app.apphelpers import free_port, wait_until_ok

SETTLED = 30.0  # generous bound for a request to end after its client left


def wait_for(condition: Callable[[], bool], failure: str, seconds: float = SETTLED) -> None:
    """Polls ``condition`` until it is true; fails the test after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, failure
        time.sleep(0.02)


class Serve:
    """``inkcard serve`` (this checkout's: ``python -m inkcard.app.cli``) on a free loopback port.

    Args:
        data: A folder for the database, the stored files and the log.
        database: ``INKCARD_DATABASE`` (default: a SQLite file in ``data``).
        env: More ``INKCARD_*`` settings.
    """

    def __init__(self, data: Path, database: str | None = None, **env: str):
        data.mkdir(parents=True, exist_ok=True)
        self.data = data
        self.database = database or str(data / "inkcard.db")
        self.env = {
            **os.environ,
            "INKCARD_DATABASE": self.database,
            "INKCARD_STORAGE_DIR": str(data / "files"),
            "INKCARD_BOOTSTRAP_KEY": "0",
            "INKCARD_REQUESTS_PER_MINUTE": "0",
            "INKCARD_RENDER_PROCESSES": "1",
            "INKCARD_LOG_LEVEL": "INFO",
            **env,
        }
        self.log = data / "serve.log"
        self.credits = Credits(self.database)
        self.credits.ensure_schema()
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Serve:
        """Start it and wait until ``/readyz`` answers 200."""
        self.port = free_port()
        cmd = [sys.executable, "-m", "inkcard.app.cli", "serve", "--host", "127.0.0.1"]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [*cmd, "--port", str(self.port)], env=self.env, stdout=log, stderr=log
            )
        try:
            wait_until_ok(f"{self.base}/readyz", 90)
        except BaseException:
            self.stop()
            raise
        return self

    def kill(self) -> None:
        """``kill -9`` the server process (its render processes see it gone and end)."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        """End it, however it is doing."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()

    def key(self, credits: int = 30) -> tuple[str, str]:
        key, info = self.credits.create_key("test", credits)
        return key, info.prefix

    def balance(self, prefix: str) -> int:
        """The key's balance, checked against the sum of its ledger rows."""
        info = self.credits.key_info(prefix)
        assert info.balance == self.credits.ledger_sum(info.id), "balance and ledger disagree"
        return int(info.balance)

    def access_lines(self, path: str) -> list[dict[str, Any]]:
        """The access log lines of requests to ``path`` so far."""
        lines = []
        for line in self.log.read_text(errors="replace").splitlines():
            if line.startswith("{") and '"path"' in line:
                record = json.loads(line)
                if record.get("logger") == "inkcard.access" and record.get("path") == path:
                    lines.append(record)
        return lines
