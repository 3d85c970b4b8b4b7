"""``inkcard mcp`` footprint: time to the ``initialize`` and ``tools/list`` replies, and the
resident memory of the whole process tree after one ``generate_cards`` call, as JSON; with the
MCP SDK's own import time on this machine, so the account says what is the SDK's and what ours.

Run: `.venv/bin/python benchmarks/bench_mcp_stdio.py [--runs 3]`. Each run makes a fresh
database with one key in a temporary folder, starts `python -m inkcard.app.cli mcp` (as an agent
does), sends ``initialize`` and times the reply from the moment the process was started,
then ``tools/list`` (answered once the engine and the services are open), then one
``generate_cards`` call (one card, the default theme), waits for its answer and sums
``VmRSS`` (from /proc) over the server and every process below it. The split, each its own
child process: ``python_start_seconds`` (``python -c pass``, start to exit), ``sdk_import_seconds``
(``import mcp`` timed inside the child: the floor while we serve with the official SDK) and
``ours_import_seconds`` (what the command imports of ours before it answers ``initialize``,
timed inside a child that has imported the SDK). The figures are the median over the runs.
Target: under 0.5 s to the initialize reply and under 150 MB in all (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / ".dev"))  # `inkcard`: src/ through the .dev/inkcard symlink

from inkcard.app.ledger.credits import Credits  # noqa: E402  # after the path setup, as the others

INITIALIZE = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "bench", "version": "1"},
}
POST = "# Footprint\n\nOne card, measured: **bold**, `code` and 中文。"
OURS_BEFORE_INITIALIZE = """
import time
import mcp.server.stdio, mcp.server.lowlevel  # the SDK: not ours
started = time.perf_counter()
from inkcard.app.cli.commands import build_parser
build_parser().parse_args(["mcp"])
# what cmd_mcp imports
import anyio, inkcard.app.logs, inkcard.app.errors, inkcard.app.settings, inkcard.app.mcp.stdio
print(time.perf_counter() - started)
"""


def _send(stdin: IO[bytes], message: dict[str, Any]) -> None:
    stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
    stdin.flush()


def _reply(stdout: IO[bytes], request_id: int) -> dict[str, Any]:
    while line := stdout.readline():
        message = json.loads(line)
        if message.get("id") == request_id:
            return dict(message)
    raise RuntimeError("the server closed its output before it answered")


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(parent, []).append(int(entry.name))
    return tree


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_rss(root: int) -> tuple[int, int]:
    """(processes, resident kB summed) of ``root`` and everything below it."""
    tree = _children()
    pids, todo = [], [root]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        todo.extend(tree.get(pid, []))
    return len(pids), sum(_rss_kb(pid) for pid in pids)


def one_run() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        credits = Credits(Path(folder) / "inkcard.db")
        credits.ensure_schema()
        key, _ = credits.create_key("bench", 100)
        env = {
            **os.environ,
            "INKCARD_DATABASE": str(Path(folder) / "inkcard.db"),
            "INKCARD_STORAGE_DIR": str(Path(folder) / "files"),
            "INKCARD_HOME": folder,
            "INKCARD_API_KEY": key,
            "INKCARD_LOG_LEVEL": "WARNING",
        }
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "inkcard.app.cli", "mcp"],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert proc.stdin is not None and proc.stdout is not None
        try:
            _send(proc.stdin, {"id": 1, "method": "initialize", "params": INITIALIZE})
            _reply(proc.stdout, 1)
            init_seconds = time.perf_counter() - started
            _, init_rss_kb = tree_rss(proc.pid)
            _send(proc.stdin, {"method": "notifications/initialized"})
            _send(proc.stdin, {"id": 2, "method": "tools/list"})
            _reply(proc.stdout, 2)
            list_seconds = time.perf_counter() - started
            call = {"name": "generate_cards", "arguments": {"markdown": POST}}
            _send(proc.stdin, {"id": 3, "method": "tools/call", "params": call})
            answer = _reply(proc.stdout, 3)
            call_seconds = time.perf_counter() - started - list_seconds
            if answer.get("result", {}).get("isError") or "error" in answer:
                raise RuntimeError(f"generate_cards failed: {str(answer)[:300]}")
            processes, rss_kb = tree_rss(proc.pid)
        finally:
            proc.stdin.close()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    return {
        "init_seconds": init_seconds,
        "tools_list_seconds": list_seconds,
        "first_call_seconds": call_seconds,
        "processes": processes,
        "rss_mb": rss_kb / 1024,
        "rss_mb_at_initialize": init_rss_kb / 1024,
    }


SDK_IMPORT = """
import time
started = time.perf_counter()
import mcp
print(time.perf_counter() - started)
"""


def _child_seconds(code: str) -> float:
    """Wall time of a child ``python -c code``, start to exit."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    return time.perf_counter() - started


def _timed_in_child(code: str) -> float:
    """The seconds a child ``python -c code`` prints (timed inside it: no start, no exit)."""
    run = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT
    )
    return float(run.stdout.split()[-1])


def import_split() -> dict[str, float]:
    """The parts of the wait for ``initialize`` that are not the server's work: starting
    Python, importing the SDK, importing our own modules."""
    return {
        "python_start_seconds": _child_seconds("pass"),
        "sdk_import_seconds": _timed_in_child(SDK_IMPORT),
        "ours_import_seconds": _timed_in_child(OURS_BEFORE_INITIALIZE),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    count = parser.parse_args().runs
    runs = [{**one_run(), **import_split()} for _ in range(count)]
    summary = {
        name: round(statistics.median(run[name] for run in runs), 3)
        for name in (
            "init_seconds",
            "tools_list_seconds",
            "first_call_seconds",
            "processes",
            "rss_mb",
            "rss_mb_at_initialize",
            "python_start_seconds",
            "sdk_import_seconds",
            "ours_import_seconds",
        )
    }
    print(
        json.dumps({**summary, "runs": len(runs), "targets": {"init_seconds": 0.5, "rss_mb": 150}})
    )


if __name__ == "__main__":
    main()
