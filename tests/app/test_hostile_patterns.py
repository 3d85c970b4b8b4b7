"""Bodies that once froze a real ``inkcard serve`` → quick answers, with other clients served
meanwhile; and a body that is slow to read is read off the event loop.

The 232-byte body is a front matter of 40 ``#\\r\\n`` lines: the pattern that looked for its
first key could split each line two ways, so the service's one event loop stopped for days
(``/healthz`` too; SIGTERM did nothing). A Windows post with 24 comment lines before a list
cost seconds the same way. Here they come from a key with no credits (a 402 once read), while
another key asks for ``/healthz`` and a card. Client timeouts bound every call, and the
server is killed with SIGKILL at the end, so a server that freezes fails the test instead of
hanging it.

The last test reads the event loop's work off the server's threads: the loop runs in the
main thread, so the CPU time of a request's parse shows in the main thread when it is read on
the loop, and in a worker thread when it is not (CONTRIBUTING.md, "Patterns").
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.app.apphelpers import free_port, wait_until_ok
from tests.app.test_event_loop import descendants

# the body as the report sent it (json.dumps: a space after the colon)
FREEZE = json.dumps({"markdown": "---\n" + "#\r\n" * 40 + "!\n---\n# x"}).encode()
CRLF_NOTES = "---\r\n" + "".join(f"# draft note {i}\r\n" for i in range(24))
CRLF_BODY = "---\r\n# A post\r\n\r\nWritten on Windows.\r\n"
CRLF_POST = CRLF_NOTES + "tags: [windows, notes]\r\n" + CRLF_BODY  # a mapping: read
CRLF_LIST = CRLF_NOTES + "- windows\r\n- tags\r\n" + CRLF_BODY  # a list: refused
SLOW_FRONT_MATTER = "---\ntitle: tags\ntags: [" + "a," * 3_900 + "a]\n---\n# x\n"  # < 8 KB
PATHS = ("/api/generate", "/api/platform/convert-and-draft")
CLIENT_TIMEOUT = 20.0  # a frozen server fails here rather than hang the test
QUICK = 3.0  # seconds: generous (an answer takes milliseconds); the old service froze
UNLOADED_TIMES = 20  # on a machine so loaded that a plain body is slow too, the bound is
# this many times the slowest of them (`Service.quick`), never less than QUICK
CLK_TCK = os.sysconf("SC_CLK_TCK")


class Service:
    """``inkcard serve`` on a free loopback port; its first key has no credits, and generate
    costs 1, so an attacker's body is read and then refused (402) before any work."""

    def __init__(self, data: Path) -> None:
        self.env = {
            **os.environ,
            "INKCARD_DATABASE": str(data / "inkcard.db"),
            "INKCARD_STORAGE_DIR": str(data / "files"),
            "INKCARD_LOG_LEVEL": "WARNING",
            "INKCARD_BOOTSTRAP_KEY": "1",
            "INKCARD_BOOTSTRAP_CREDITS": "0",
            "INKCARD_GENERATE_COST": "1",
            "INKCARD_REQUESTS_PER_MINUTE": "0",
        }
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        command = [sys.executable, "-m", "inkcard.app.cli", "serve", "--host", "127.0.0.1"]
        self.process = subprocess.Popen(
            [*command, "--port", str(port)],
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.process.stdout is not None
        printed = (word for line in self.process.stdout for word in line.split())
        self.broke = next(word for word in printed if word.startswith("ik_"))
        threading.Thread(target=self.process.stdout.read, daemon=True).start()
        wait_until_ok(self.base + "/readyz", 60)
        self.victim = self._new_key("victim", 1_000)

    def _new_key(self, name: str, credits: int) -> str:
        command = [sys.executable, "-m", "inkcard.app.cli", "keys", "create", "--name", name]
        printed = subprocess.run(
            [*command, "--credits", str(credits)],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        ).stdout
        return next(word for word in printed.split() if word.startswith("ik_"))

    def post(self, path: str, key: str, **kw: Any) -> tuple[int, str, float]:
        """(status, error label, seconds); status -1 when no answer came in time."""
        start = time.perf_counter()
        try:
            response = httpx.post(
                self.base + path, headers={"x-api-key": key}, timeout=CLIENT_TIMEOUT, **kw
            )
        except httpx.TimeoutException:
            return -1, "timeout", time.perf_counter() - start
        body = response.json()
        label = body.get("error", "") if isinstance(body, dict) else ""
        return response.status_code, label, time.perf_counter() - start

    def quick(self) -> float:
        """The bound on an answer: QUICK, or on a loaded machine UNLOADED_TIMES the slowest
        answer to a plain body (each path, /healthz) measured now, before any attack."""
        plain = [self.post(path, self.broke, json={"markdown": "# x"})[2] for path in PATHS]
        return max(QUICK, UNLOADED_TIMES * max(plain + self.healthz_seconds(3)))

    def mcp(self, tool: str, arguments: dict[str, Any]) -> str:
        """The text of a tool's answer over ``/mcp`` (an error's label is in it)."""
        call = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        }
        headers = {"x-api-key": self.broke, "accept": "application/json, text/event-stream"}
        answer = httpx.post(f"{self.base}/mcp", json=call, headers=headers, timeout=CLIENT_TIMEOUT)
        assert answer.status_code == 200, answer.text
        return str(answer.json()["result"]["content"][0]["text"])

    def healthz_seconds(self, calls: int) -> list[float]:
        seconds = []
        with httpx.Client(base_url=self.base, timeout=CLIENT_TIMEOUT) as http:
            for _ in range(calls):
                start = time.perf_counter()
                with contextlib.suppress(httpx.TimeoutException):
                    assert http.get("/healthz").status_code == 200
                seconds.append(time.perf_counter() - start)
                time.sleep(0.05)
        return seconds

    def thread_cpu(self) -> tuple[float, float]:
        """(CPU seconds of the main thread, where the event loop runs; of the whole process)."""
        main = total = 0.0
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            with contextlib.suppress(OSError):
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                seconds = (int(fields[11]) + int(fields[12])) / CLK_TCK
                total += seconds
                main += seconds if task.name == str(self.process.pid) else 0.0
        return main, total

    def stop(self) -> None:
        """SIGKILL for the service and every process under it: a frozen loop ignores SIGTERM."""
        for pid in [self.process.pid, *descendants(self.process.pid)]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, 9)
        self.process.wait(timeout=30)
        assert self.process.stdout is not None
        self.process.stdout.close()


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    started = Service(tmp_path)
    try:
        yield started
    finally:
        started.stop()


def test_the_232_byte_front_matter_answers_at_once_and_others_are_served(
    service: Service,
) -> None:
    assert len(FREEZE) == 232
    quick = service.quick()
    answers: list[tuple[int, str, float]] = []
    done = threading.Event()

    def attack() -> None:
        for path in PATHS * 10:  # one after another, for the victim's calls to meet
            answers.append(service.post(path, service.broke, content=FREEZE))
            if answers[-1][0] == -1:
                break
        done.set()

    attacker = threading.Thread(target=attack, daemon=True)
    attacker.start()
    time.sleep(0.2)
    healthz = service.healthz_seconds(10)
    card = service.post("/api/generate", service.victim, json={"markdown": "# victim\n\ncard"})
    attacker.join(CLIENT_TIMEOUT * 2)
    assert done.is_set()
    assert {(status, label) for status, label, _ in answers} == {(402, "insufficient_credits")}
    assert max(seconds for *_, seconds in answers) < quick
    assert max(healthz) < quick, healthz
    assert card[0] == 200 and card[2] < CLIENT_TIMEOUT


def test_a_windows_post_with_comment_lines_answers_at_once(service: Service) -> None:
    """24 CRLF comment lines before a tag list: before, finding where the front matter's first
    line was took seconds of backtracking. A mapping is read (then the empty balance answers);
    a list is refused as front matter that is not a mapping; both at once, charging nothing."""
    quick = service.quick()
    for path in PATHS:
        for markdown, expected in (
            (CRLF_POST, (402, "insufficient_credits")),
            (CRLF_LIST, (400, "invalid_front_matter")),
        ):
            status, label, seconds = service.post(path, service.broke, json={"markdown": markdown})
            assert (status, label) == expected
            assert seconds < quick


def test_a_body_slow_to_read_is_read_off_the_event_loop(service: Service) -> None:
    """A legal front matter whose YAML takes tens of ms to read (a list of 3,900 tags), sent
    to each endpoint that reads a body and to the MCP tools over HTTP: the reading shows in a
    worker thread's CPU time, not in the event loop's (main) thread, and /healthz is answered
    meanwhile."""
    quick = service.quick()
    healthz: list[float] = []
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            healthz.extend(service.healthz_seconds(1))

    watcher = threading.Thread(target=watch, daemon=True)
    main_before, total_before = service.thread_cpu()
    watcher.start()
    try:
        for i in range(5):
            markdown = SLOW_FRONT_MATTER + f"{i}"
            for path in PATHS:
                answer = service.post(path, service.broke, json={"markdown": markdown})
                assert answer[:2] == (402, "insufficient_credits")
            assert "insufficient_credits" in service.mcp("convert_article", {"markdown": markdown})
    finally:
        done.set()
        watcher.join()
    main_after, total_after = service.thread_cpu()
    loop, process = main_after - main_before, total_after - total_before
    assert process > 0.2, "the bodies were too quick to read to show anything"
    assert loop < 0.3 * process, f"the event loop's thread did {loop:.2f} of {process:.2f} s"
    assert healthz and max(healthz) < quick, healthz
