"""``inkcard mcp`` is one process: after a card is drawn it has started no other (no
forkserver, no render processes), and the whole of it stays far under the ~430 MB the
five processes of a render pool took. Times are the benchmark's (benchmarks/bench_mcp_stdio.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

from tests.app.test_mcp import INITIALIZE, Stdio, stdio  # noqa: F401  # the fixture

RSS_BOUND_MB = 300  # about twice what it takes; the render pool's processes took 430


def _send(stdin: IO[bytes], message: dict[str, Any]) -> None:
    stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
    stdin.flush()


def _answer(stdout: IO[bytes], request_id: int) -> dict[str, Any]:
    while line := stdout.readline():
        message = json.loads(line)
        if message.get("id") == request_id:
            return dict(message)
    raise AssertionError("the server ended without answering")


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text() if entry.name.isdigit() else ""
        except OSError:
            continue
        if stat and int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_stdio_draws_cards_in_its_own_process(stdio: Stdio) -> None:  # noqa: F811
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "mcp"],
        env=stdio.env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        _send(proc.stdin, {"id": 1, "method": "initialize", "params": INITIALIZE})
        assert "result" in _answer(proc.stdout, 1)
        _send(proc.stdin, {"method": "notifications/initialized"})
        call = {"name": "generate_cards", "arguments": {"markdown": "# One card\n\n中文"}}
        _send(proc.stdin, {"id": 2, "method": "tools/call", "params": call})
        answer = _answer(proc.stdout, 2)
        assert not answer["result"].get("isError"), answer
        assert _children(proc.pid) == []
        assert _rss_mb(proc.pid) < RSS_BOUND_MB
    finally:
        proc.stdin.close()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()
    assert proc.returncode == 0
