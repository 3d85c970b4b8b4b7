"""No request holds the event loop: ``/healthz`` stays fast while the worst inputs are worked on.

A real ``inkcard serve`` (its own process, so the test's threads share no interpreter lock
with it) gets the costliest requests an attacker can send at once: 100 KB of ``![`` with
mdxMode (a Markdown parse), LaTeX nested 14 deep (typesetting), a 16,000-row table with
autoSplit (layout), a tiny PNG that decodes to 36 million pixels (image decoding), and
articles whose math fills its budget (typesetting on the article path). Each try differs
from the last, so no answer is replayed from the cache or the retry window. While they are
in flight, ``/healthz`` is timed again and again: nine answers in ten must come back within
``HEALTHZ_LIMIT`` and every one within ``HEALTHZ_CEILING`` (on a loaded 2-core machine the
scheduler alone delays the odd call by most of a second). A server whose loop did any of that work
itself makes ``/healthz`` wait for seconds (main before this test: 9–47 s). On a machine so
loaded that the idle server is slow too, both bounds grow with the idle answers (``IDLE_TIMES``
their median, their slowest), never past ``FROZEN``.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import statistics
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
from tests.layout.test_image_budget import data_uri, png_1bit

HEALTHZ_LIMIT = 0.5  # seconds, for nine calls in ten; an idle server answers in about 2 ms
# seconds, for every call: a loop doing the work itself held a call for 9-47 s, while a full
# test run on a loaded 2-core machine delayed one call by 0.86 s with the loop free
HEALTHZ_CEILING = 2.5
HEALTHZ_CALLS = 30
IDLE_TIMES = 10  # the bounds on a loaded machine: this many times what the idle server took
FROZEN = 5.0  # seconds: no call ever waits this long, however loaded the machine
ATTACK_SECONDS = 20.0  # each attacking request is dropped by its client after this

NESTED_LATEX = "$" + "x^{" * 14 + "x" + "}" * 14 + "$"
WORST_CARDS: dict[str, dict[str, Any]] = {
    "parse: 100 KB of ![ with mdxMode": {"markdown": "![" * 50_000, "mdxMode": True},
    "typesetting: LaTeX nested 14 deep": {"markdown": f"# Math\n\n{NESTED_LATEX}\n"},
    "layout: a 16,000-row table, autoSplit": {
        "markdown": "|a|b|\n|-|-|\n" + "|1|2|\n" * 16_000,
        "splitMode": "autoSplit",
    },
    "decoding: a 1-bit PNG of 6000 x 6000 px": {
        "markdown": f"# Image\n\n![bomb]({data_uri(png_1bit(6000, 6000))})\n"
    },
}

# Distinct formulas each as deep as the budget allows (~0.1 s each): an article's 2 s of math.
HEAVY_MATH = " ".join("$" + "\\left(" * 6 + f"x_{{{i}}}" + "\\right)" * 6 + "$" for i in range(60))
WORST_ARTICLES: dict[str, dict[str, Any]] = {
    "typesetting in an article: a full math budget": {"markdown": HEAVY_MATH},
    "parsing in an article: 8,000 inline formulas": {
        "markdown": " ".join(f"$x_{{{i}}}$" for i in range(8_000))
    },
}


class Server:
    """``inkcard serve`` on a free loopback port with temporary data and a key of its own."""

    def __init__(self, data: Path) -> None:
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        env = {
            **os.environ,
            "INKCARD_DATABASE": str(data / "inkcard.db"),
            "INKCARD_STORAGE_DIR": str(data / "files"),
            "INKCARD_LOG_LEVEL": "WARNING",
            "INKCARD_BOOTSTRAP_KEY": "1",
            "INKCARD_BOOTSTRAP_CREDITS": "1000",
            "INKCARD_RENDERS_PER_KEY": "100",
            "INKCARD_REQUESTS_PER_MINUTE": "0",
            "INKCARD_RENDER_QUEUE": "16",
        }
        command = [sys.executable, "-m", "inkcard.app.cli", "serve", "--host", "127.0.0.1"]
        self.process = subprocess.Popen(
            [*command, "--port", str(port)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.process.stdout is not None
        self.key = ""
        for line in self.process.stdout:
            if line.strip().startswith("ik_"):
                self.key = line.strip()
                break
        assert self.key, "the service printed no key"
        # Keep reading what it prints, so a full pipe never stalls it.
        threading.Thread(target=self.process.stdout.read, daemon=True).start()
        wait_until_ok(self.base + "/readyz", 60)

    def stop(self) -> None:
        """End the service and every process under it (the render processes are the
        children of a forkserver it started), all at once so that none outlives it."""
        for pid in [self.process.pid, *descendants(self.process.pid)]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        assert self.process.stdout is not None
        self.process.stdout.close()  # its reader has seen the end: every writer is gone


def descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (Linux: read from /proc)."""
    found: list[int] = []
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            for child in map(int, children.read_text().split()):
                found += [child, *descendants(child)]
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    started = Server(tmp_path_factory.mktemp("loop"))
    try:
        yield started
    finally:
        started.stop()


def attack(server: Server, path: str, body: dict[str, Any], stop: threading.Event) -> None:
    """Send ``body`` again and again until ``stop``; each try is dropped after ATTACK_SECONDS."""
    headers = {"x-api-key": server.key}
    with httpx.Client(base_url=server.base, timeout=ATTACK_SECONDS) as http:
        for attempt in itertools.count():
            if stop.is_set():
                return
            fresh = {**body, "markdown": f"{body['markdown']}\n\n{attempt}"}
            with contextlib.suppress(httpx.TransportError):
                http.post(path, json=fresh, headers=headers)


def healthz_seconds(server: Server) -> list[float]:
    """``HEALTHZ_CALLS`` answers of /healthz, timed one by one, a little apart."""
    seconds = []
    with httpx.Client(base_url=server.base, timeout=60) as http:
        for _ in range(HEALTHZ_CALLS):
            start = time.perf_counter()
            assert http.get("/healthz").status_code == 200
            seconds.append(time.perf_counter() - start)
            time.sleep(0.1)
    return seconds


def test_healthz_answers_fast_while_the_worst_inputs_are_worked_on(server: Server) -> None:
    idle = healthz_seconds(server)
    stop = threading.Event()
    bodies = [("/api/generate", body) for body in WORST_CARDS.values()]
    bodies.append(("/api/generate", WORST_CARDS["parse: 100 KB of ![ with mdxMode"]))
    bodies += [("/api/platform/convert-and-draft", body) for body in WORST_ARTICLES.values()]
    attackers = [
        threading.Thread(target=attack, args=(server, path, body, stop), daemon=True)
        for path, body in bodies
    ]
    for thread in attackers:
        thread.start()
    try:
        time.sleep(1.0)  # every attack has reached the server and is being worked on
        busy = healthz_seconds(server)
    finally:
        stop.set()
    busy.sort()
    typical, slowest = busy[len(busy) * 9 // 10 - 1], busy[-1]
    limit = max(HEALTHZ_LIMIT, IDLE_TIMES * statistics.median(idle))
    ceiling = min(FROZEN, max(HEALTHZ_CEILING, IDLE_TIMES * max(idle)))
    seen = f"(idle: up to {max(idle):.3f} s; busy: {[round(s, 3) for s in busy]})"
    assert typical < limit, f"/healthz was slow while the worst inputs ran {seen}"
    assert slowest < ceiling, f"a /healthz call waited for the event loop {seen}"
