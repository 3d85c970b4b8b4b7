"""``inkcard mcp`` is one process: after a card is drawn it has started no other (no
forkserver, no render processes), and the whole of it stays far under the ~430 MB the
five processes of a render pool took. Before ``initialize`` is answered it has imported the
MCP SDK and little else of ours (no engine, no database), and a card call imports nothing
only articles use. Times are the benchmark's (benchmarks/bench_mcp_stdio.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

from tests.app.test_mcp import INITIALIZE, Stdio, stdio  # noqa: F401  # the fixture

RSS_BOUND_MB = 300  # about twice what it takes; the render pool's processes took 430

NOT_BEFORE_INITIALIZE = (
    "inkcard.layout",  # the engine (~0.25 s): imported behind initialize
    "skia",
    "inkcard.themes",
    "inkcard.app.schema",
    "inkcard.app.ledger.credits",  # the database (sqlite-utils)
    "sqlite_utils",
    "inkcard.app.services",
    "inkcard.app.operations",
)
NOT_FOR_A_CARD = (
    "premailer",  # articles' CSS inliner, with requests and cssutils: ~13 MB
    "requests",
    "cssutils",
    "numpy",  # imported by sqlite-utils when it can: ~12 MB the card path does not use
)

WATCH_IMPORTS = f"""
import atexit, sys
seen = {{}}

def watch(event, args):
    # the tools are imported once initialize is answered: what is loaded by then is what
    # the server took to answer it
    if event == "import" and args[0] == "inkcard.app.mcp.tools" and "before" not in seen:
        seen["before"] = [m for m in {NOT_BEFORE_INITIALIZE!r} if m in sys.modules]

def report():
    after = [m for m in {NOT_FOR_A_CARD!r} if m in sys.modules]
    try:
        import numpy  # hidden from sqlite-utils only: a flowchart's layout imports it
        numpy_importable = True
    except ImportError:
        numpy_importable = False
    print("IMPORTS", seen.get("before"), after, "inkcard.layout" in sys.modules, numpy_importable,
          file=sys.stderr)

sys.addaudithook(watch)
atexit.register(report)
from inkcard.app.cli import main
sys.exit(main(["mcp"]))
"""


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


def _one_card(command: list[str], env: dict[str, str]) -> tuple[int, list[int], float, str]:
    """Start ``command`` (an ``inkcard mcp``), initialize, draw one card, close stdin:
    (exit code, its child processes and its RSS in MB after the card, its stderr)."""
    proc = subprocess.Popen(
        command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
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
        children, rss_mb = _children(proc.pid), _rss_mb(proc.pid)
    finally:
        try:
            _, err = proc.communicate(timeout=30)  # closes stdin: the server ends
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
    return proc.returncode, children, rss_mb, err.decode(errors="replace")


def test_stdio_draws_cards_in_its_own_process(stdio: Stdio) -> None:  # noqa: F811
    code, children, rss_mb, _ = _one_card(
        [sys.executable, "-m", "inkcard.app.cli", "mcp"], stdio.env
    )
    assert children == []
    assert rss_mb < RSS_BOUND_MB
    assert code == 0


def test_stdio_answers_initialize_before_the_engine_and_draws_without_article_modules(
    stdio: Stdio,  # noqa: F811
) -> None:
    code, _, _, err = _one_card([sys.executable, "-c", WATCH_IMPORTS], stdio.env)
    report = next(line for line in err.splitlines() if line.startswith("IMPORTS "))
    # before initialize: none; after the card: none, and the check sees the engine loaded;
    # numpy can still be imported
    assert report == "IMPORTS [] [] True True"
    assert code == 0
