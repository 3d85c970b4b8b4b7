"""Hostile-input repros against a real `inkcard serve` on loopback, one JSON line each.

Usage: python benchmarks/bench_hostile_repros.py [--only 1,3,9c,op,h1] > hostile.json
(``--only h4,h5``: the requests that name an unknown field or ask for nothing, with the credits
each charged.)

The service is the `inkcard` of the interpreter that runs this script (so an older checkout's
.venv/bin/python measures that checkout). It is started with temporary data, loopback image
fetches allowed, a fake WeChat platform (tests/fakewechat.py) and an image server of its own on
127.0.0.1 (nested gzip, drip-fed and plain images).

Each line: the item, the HTTP status (or exit code), error label and message, wall seconds of
the hostile request, the CPU seconds of the server's process tree (the service, its forkserver
and render processes: utime + stime, children reaped included) from the start of the repro until
the tree is idle again (at most SETTLE_CAP seconds later), the peak RSS of the tree (sum over its
processes, sampled every 0.1 s), the slowest /healthz while it ran, and a victim: a distinct
default card from another key, sent 0.5 s into the attack and timed. Bounded: every request has
a client timeout; the server is killed at the end (and restarted if a repro killed it).
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import gzip
import itertools
import json
import os
import resource
import signal
import socket
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / ".dev"))  # `inkcard`: src/ through the .dev/inkcard symlink
from hostile_operators import operator_repros  # noqa: E402  (beside this script)
from hostile_patterns import pattern_repros  # noqa: E402  (beside this script)

from inkcard.app.prices import Prices  # noqa: E402  (after the path setup, as the others)
from tests.fakewechat import FakeWeChat  # noqa: E402  (the repository's test helper)

INKCARD = Path(sys.executable).with_name("inkcard")
POST = (ROOT / "tests" / "cases" / "posts" / "01-efficiency-zh.md").read_text()
APPID, SECRET = "wx0123456789abcdef", "s" * 32
SETTLE_CAP = 120.0  # seconds a repro's leftover work (threads, workers) is waited for
CLIENT_TIMEOUT = 90.0
GENERATE_COST = 1  # INKCARD_GENERATE_COST of the service under test
PRICES = Prices(generate=GENERATE_COST)  # what that service charges each call
NESTED_LATEX = "$" + "x^{" * 14 + "x" + "}" * 14 + "$"
BOMB_BYTES = 1 << 30  # what the nested-gzip image decodes to
CLK_TCK = os.sysconf("SC_CLK_TCK")
CLI_MEMORY = 4 << 30  # address space of one `inkcard render`
Result = dict[str, Any]


# -- images -------------------------------------------------------------------------------------


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def png_1bit(width: int, height: int) -> bytes:
    """A tiny file that decodes to width x height pixels (the image memory bomb)."""
    raw = b"".join(b"\0" * (1 + (width + 7) // 8) for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, 9))


def png_pixel(n: int) -> bytes:
    """A distinct 1x1 RGB PNG for each n < 2**24."""
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixel = b"\0" + n.to_bytes(3, "big")
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(pixel))
        + _chunk(b"IEND", b"")
    )


def data_uri(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


def nested_gzip(size: int) -> bytes:
    """``size`` zero bytes, gzipped twice (a couple of KB on the wire)."""
    inner = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b"\0" * (1 << 20)
    layer = b"".join(inner.compress(block) for _ in range(size // len(block))) + inner.flush()
    return gzip.compress(layer, 9)


class ImageServer:
    """127.0.0.1 images: /bomb (gzip, gzip), /drip/* (a byte every half second), /fast/*."""

    def __init__(self) -> None:
        self.bomb = nested_gzip(BOMB_BYTES)
        self.hits: list[str] = []
        self.stop = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_: Any) -> None:
                pass

            def do_GET(self) -> None:
                server.hits.append(self.path)
                body = png_pixel(7)
                with contextlib.suppress(OSError):
                    if self.path.startswith("/bomb"):
                        self.send_response(200)
                        self.send_header("Content-Type", "image/png")
                        self.send_header("Content-Encoding", "gzip, gzip")
                        self.send_header("Content-Length", str(len(server.bomb)))
                        self.end_headers()
                        self.wfile.write(server.bomb)
                    elif self.path.startswith("/drip"):
                        self.send_response(200)
                        self.send_header("Content-Type", "image/png")
                        self.send_header("Content-Length", str(len(body) + 100))
                        self.end_headers()
                        for byte in itertools.islice(itertools.cycle(body), 60):
                            if server.stop.wait(0.5):
                                return
                            self.wfile.write(bytes([byte]))
                            self.wfile.flush()
                    else:
                        self.send_response(200)
                        self.send_header("Content-Type", "image/png")
                        self.send_header("Content-Length", str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        threading.Thread(target=self.http.serve_forever, args=(0.05,), daemon=True).start()
        self.base = f"http://127.0.0.1:{self.http.server_address[1]}"

    def close(self) -> None:
        self.stop.set()
        self.http.shutdown()


# -- the process tree ---------------------------------------------------------------------------


def tree(pid: int) -> list[int]:
    """``pid`` and every process under it."""
    found = [pid]
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            for child in map(int, children.read_text().split()):
                found += tree(child)
    return found


def cpu_seconds(pids: list[int]) -> float:
    """utime + stime of each process and of its reaped children."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(value) for value in fields[11:15])
    return total / CLK_TCK


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError):
            status = Path(f"/proc/{pid}/status").read_text()
            total += int(status.split("VmRSS:")[1].split()[0])
    return total / 1024


class Watch:
    """While a repro runs: the tree's peak RSS and the slowest /healthz, sampled."""

    def __init__(self, pid: int, base: str) -> None:
        self.pid, self.base = pid, base
        self.peak_mb = 0.0
        self.healthz_max = 0.0
        self.done = threading.Event()
        self.threads = [threading.Thread(target=f, daemon=True) for f in (self._rss, self._hz)]
        for thread in self.threads:
            thread.start()

    def _rss(self) -> None:
        while not self.done.wait(0.1):
            self.peak_mb = max(self.peak_mb, rss_mb(tree(self.pid)))

    def _hz(self) -> None:
        with httpx.Client(timeout=CLIENT_TIMEOUT) as http:
            while not self.done.wait(0.2):
                start = time.perf_counter()
                with contextlib.suppress(httpx.HTTPError):
                    http.get(self.base + "/healthz")
                self.healthz_max = max(self.healthz_max, time.perf_counter() - start)

    def stop(self) -> None:
        self.done.set()
        for thread in self.threads:
            thread.join()


# -- the service --------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, data: str, platform: str) -> None:
        self.data = data
        self.env = {
            **os.environ,
            "INKCARD_DATABASE": f"{data}/db",
            "INKCARD_STORAGE_DIR": f"{data}/files",
            "INKCARD_GENERATE_COST": str(GENERATE_COST),
            "INKCARD_BOOTSTRAP_KEY": "1",
            "INKCARD_BOOTSTRAP_CREDITS": "100000",
            "INKCARD_LOG_LEVEL": "INFO",
            "INKCARD_REQUESTS_PER_MINUTE": "0",
            "INKCARD_ALLOW_PRIVATE_FETCH": "1",
            "INKCARD_WECHAT_API_BASE": platform,
        }
        self.log = Path(data, "server.log")
        self.key = ""
        self.start()
        printed = self.cli("keys", "create", "--name", "victim", "--credits", "100000")
        self.victim = next(word for word in printed.split() if word.startswith("ik_"))
        self.victims = itertools.count(1)

    def start(self) -> None:
        port = _free_port()
        self.base = f"http://127.0.0.1:{port}"
        env = {**self.env, "INKCARD_PORT": str(port)}
        with self.log.open("a") as log:
            self.process = subprocess.Popen(
                [str(INKCARD), "serve"], env=env, stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(self.base + "/readyz", timeout=5).status_code == 200:
                    break
            time.sleep(0.2)
        if not self.key:
            lines = self.log.read_text().split()
            self.key = next(word for word in lines if word.startswith("ik_"))

    def alive(self, timeout: float = 30) -> bool:
        with contextlib.suppress(httpx.HTTPError):
            return httpx.get(self.base + "/healthz", timeout=timeout).status_code == 200
        return False

    def kill(self) -> None:
        family = tree(self.process.pid)
        for pid in reversed(family):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.wait()

    def cli(self, *args: str) -> str:
        done = subprocess.run(
            [str(INKCARD), *args], env=self.env, capture_output=True, text=True, timeout=60
        )
        return done.stdout + done.stderr

    def balance(self, key: str) -> int:
        return int(self.cli("credits", "show", key[:8]).split()[1])

    def cards(self) -> int:
        return len(list(Path(self.data, "files").rglob("*.*")))

    def settle(self) -> float:
        """Seconds until the tree is idle (under 5 % of a core for 0.5 s), at most SETTLE_CAP."""
        start = time.monotonic()
        while time.monotonic() - start < SETTLE_CAP:
            before = cpu_seconds(tree(self.process.pid))
            time.sleep(0.5)
            if cpu_seconds(tree(self.process.pid)) - before < 0.025:
                break
        return round(time.monotonic() - start, 1)

    def call(
        self,
        method: str,
        path: str,
        key: str | None = None,
        timeout: float = CLIENT_TIMEOUT,
        **kw: Any,
    ) -> Result:
        """One request: status, label, message and seconds (status -1: no answer in time)."""
        headers = {"x-api-key": key or self.key, **kw.pop("headers", {})}
        start = time.perf_counter()
        try:
            response = httpx.request(
                method, self.base + path, headers=headers, timeout=timeout, **kw
            )
        except httpx.HTTPError as error:
            seconds = round(time.perf_counter() - start, 2)
            return {"status": -1, "label": type(error).__name__, "seconds": seconds}
        seconds = round(time.perf_counter() - start, 2)
        out: Result = {"status": response.status_code, "label": "-", "seconds": seconds}
        if response.headers.get("content-type", "").startswith("application/json"):
            body = response.json()
            if isinstance(body, dict) and "error" in body:
                out["label"], out["message"] = body["error"], str(body.get("message"))[:160]
            out["body"] = body
        return out

    def generate(self, body: Result, **kw: Any) -> Result:
        return self.call("POST", "/api/generate", json=body, **kw)

    def article(self, body: Result, draft: bool = False, **kw: Any) -> Result:
        headers = {"platform-appid": APPID, "platform-app-secret": SECRET} if draft else {}
        return self.call(
            "POST", "/api/platform/convert-and-draft", json=body, headers=headers, **kw
        )

    def newspic(self, body: Result, **kw: Any) -> Result:
        headers = {"platform-appid": APPID, "platform-app-secret": SECRET}
        return self.call("POST", "/api/platform/newspic-draft", json=body, headers=headers, **kw)

    def cover(self, body: Result, **kw: Any) -> Result:
        return self.call("POST", "/api/generate/cover", json=body, **kw)

    def victim_card(self, extra: str = "") -> Result:
        markdown = f"{POST}\n\nvictim {next(self.victims)} {time.time()}{extra}"
        return self.generate({"markdown": markdown}, key=self.victim, timeout=60)

    def repro(self, item: str, attack: Callable[[], Result], victim: bool = True) -> Result:
        """Run ``attack`` (the hostile request) with the victim, the watch and the CPU count."""
        if not self.alive():
            self.kill()
            self.start()
        pid = self.process.pid
        cpu_before = cpu_seconds(tree(pid))
        watch = Watch(pid, self.base)
        outcome: Result = {}
        thread = threading.Thread(target=lambda: outcome.update(attack()), daemon=True)
        thread.start()
        victim_answer: Result = {}
        if victim:
            time.sleep(0.5)
            victim_answer = self.victim_card()
        thread.join()
        # no answer and no /healthz: a frozen event loop, which ignores SIGTERM
        frozen = outcome.get("status") == -1 and not self.alive(timeout=5)
        cpu_used = cpu_seconds(tree(pid)) - cpu_before
        if frozen:
            self.kill()
        settle = 0.0 if frozen else self.settle()
        cpu_used = cpu_used if frozen else cpu_seconds(tree(pid)) - cpu_before
        watch.stop()
        outcome.pop("body", None)
        restarted = self.process.pid != pid  # the repro killed and restarted the service
        line = {
            "item": item,
            **outcome,
            "server_cpu_s": None if restarted else round(cpu_used, 1),
            "tree_peak_rss_mb": round(watch.peak_mb),
            "healthz_max_s": round(watch.healthz_max, 3),
            "settle_s": settle,
        }
        if victim:
            line["victim_status"] = victim_answer["status"]
            line["victim_s"] = victim_answer["seconds"]
        if frozen:
            line["frozen_killed"] = True
        elif not self.alive():
            line["server_died"] = True
        print(json.dumps(line, ensure_ascii=False), flush=True)
        return line


# -- the repros, numbered as the hardening list numbers them -------------------------------------


def formulas(count: int, length: int) -> str:
    """``count`` distinct display formulas of about ``length`` characters."""
    out = []
    for i in range(count):
        terms, text = itertools.count(), f"x_{{{i}}}"
        while len(text) < length - 20:
            text += f"+y_{{{i}}}^{{{next(terms)}}}"
        out.append(f"$${text}$$")
    return "\n\n".join(out)


def twice(send: Callable[[Result], Result], body: Result) -> Callable[[], Result]:
    """Two such requests at once (as many as the render processes; the second's text differs,
    or both would share one render); the first's answer."""

    def both() -> Result:
        other = {**body, "markdown": body["markdown"] + f"\n\nagain {time.time()}\n"}
        other_thread = threading.Thread(target=send, args=(other,))
        other_thread.start()
        first = send(body)
        other_thread.join()
        return first

    return both


def repros(s: Server, images: ImageServer, platform: FakeWeChat) -> Iterator[tuple[str, Any]]:
    math_card = {"markdown": f"# Math\n\n{NESTED_LATEX}\n"}
    yield "1a nested LaTeX 14 deep, card, two at once", twice(s.generate, math_card)
    yield "1b nested LaTeX 14 deep, article HTML, two at once", twice(s.article, math_card)
    many = {"markdown": formulas(95, 999)}
    yield "1c 95 distinct formulas of 999 characters, card", lambda: s.generate(many)
    inline = {"markdown": " ".join(f"$x_{{{i}}}$" for i in range(8000))}
    yield "1d 8,000 inline formulas, card", lambda: s.generate(inline)
    yield "1e 95 formulas of 999 characters, article HTML", lambda: s.article(many)
    bomb = {"markdown": f"# gzip\n\n![bomb]({images.base}/bomb.png)\n"}
    yield "2a image with Content-Encoding gzip, gzip (1 GiB), card", lambda: s.generate(bomb)
    yield "2b the same image in a draft", lambda: s.article(bomb, draft=True)
    parse = {"markdown": "![" * 50_000, "mdxMode": True}
    yield "3 100 KB of ![ with mdxMode", lambda: s.generate(parse)
    tall = "a\n\n" * 200
    yield "4a tall WebP card", lambda: s.generate({"markdown": tall, "format": "webp"})
    taller = "a\n\n" * 1000
    yield "4b tall JPEG card", lambda: s.generate({"markdown": taller, "format": "jpeg"})
    yield "5 drip-fed images (3 x 20) and a victim with one image", lambda: drip(s, images)
    table = "|a|b|\n|-|-|\n" + "|1|2|\n" * 16_000
    table_body = {"markdown": table, "splitMode": "autoSplit"}
    yield "6 16,000-row table, autoSplit, two at once", twice(s.generate, table_body)
    big = {"markdown": "# big\n\ntext", "width": 1600, "height": 4000, "scale": 4}
    yield (
        "7a 1600x4000 at scale 4, JPEG 100",
        lambda: s.generate({**big, "format": "jpeg", "quality": 100}),
    )
    yield "7b 1600x4000 at scale 4, WebP", lambda: s.generate({**big, "format": "webp"})
    yield "8a client gone before the answer", lambda: disconnect(s, images, retry=False)
    yield "8b client times out, then retries", lambda: disconnect(s, images, retry=True)
    yield "9a two x-api-key headers", lambda: duplicate_key(s)
    yield "9b GET a set's manifest", lambda: manifest(s)
    odd = "# t\n\n![a](file:///etc/passwd)\n\n![b](gopher://127.0.0.1/x)\n\n![c](/etc/hosts)\n"
    yield "9c non-http images in a draft", lambda: charged(s, s.article, {"markdown": odd})
    yield "9d 700 data: images in a draft", lambda: uploads(s, platform)
    yield "9e CLI: render /dev/zero", lambda: cli(s, ["/dev/zero"])
    yield "9e CLI: render a 10 MB file", lambda: cli(s, [ten_mb(s)])
    wide = ["--width", "1600", "--scale", "4", tall_file(s)]
    yield "9e CLI: width 1600, scale 4, tall", lambda: cli(s, wide)
    yield "9f plain log lines after an article with math", lambda: log_lines(s)
    yield "9g MCP stdio line nested 50,000 deep", lambda: mcp_nested(s)
    yield from money(s, images)
    yield from pattern_repros(s)


def drip(s: Server, images: ImageServer) -> Result:
    """Three requests of 20 drip-fed images from the attacker's key; the victim's card (another
    key) names one fast image: did it arrive, and how long did the card take?"""
    attackers = []
    for r in range(3):
        markdown = "\n\n".join(f"![d]({images.base}/drip/{r}-{i}.png)" for i in range(20))
        attackers.append(threading.Thread(target=s.generate, args=({"markdown": markdown},)))
    for thread in attackers:
        thread.start()
    time.sleep(1.0)
    tag = f"/fast/{time.time()}.png"
    answer = s.victim_card(f"\n\n![fast]({images.base}{tag})")
    for thread in attackers:
        thread.join()
    return {**answer, "victim_image_fetched": tag in images.hits}


def disconnect(s: Server, images: ImageServer, retry: bool) -> Result:
    """A distinct card naming a drip-fed image (so it takes the fetch time limit) whose client
    leaves after 0.5 s (then, with ``retry``, sends it again and waits): credits charged and
    files stored."""
    slow = f"{images.base}/drip/gone-{time.time()}.png"
    body = {"markdown": f"# slow {time.time()}\n\n![slow]({slow})\n"}
    balance, files = s.balance(s.key), s.cards()
    first = s.generate(body, timeout=0.5)
    if retry:
        first = s.generate(body)
    s.settle()
    return {**first, "charged": balance - s.balance(s.key), "files_stored": s.cards() - files}


def duplicate_key(s: Server) -> Result:
    headers = [("x-api-key", s.key), ("x-api-key", "ik_" + "x" * 32)]
    start = time.perf_counter()
    response = httpx.post(s.base + "/api/generate", headers=headers, json={"markdown": "# d"})
    return {"status": response.status_code, "seconds": round(time.perf_counter() - start, 2)}


def manifest(s: Server) -> Result:
    card = s.generate({"markdown": f"# manifest {time.time()}"})["body"]["images"][0]["fileName"]
    return s.call("GET", "/files/" + card.rsplit("-", 1)[0] + ".json")


def charged(s: Server, send: Callable[..., Result], body: Result) -> Result:
    balance = s.balance(s.key)
    answer = send(body, draft=True)
    return {**answer, "charged": balance - s.balance(s.key)}


def uploads(s: Server, platform: FakeWeChat) -> Result:
    before = platform.hits["/cgi-bin/media/uploadimg"]
    markdown = "# many\n\n" + "\n\n".join(f"![{n}]({data_uri(png_pixel(n))})" for n in range(700))
    answer = charged(s, s.article, {"markdown": markdown})
    return {**answer, "uploads": platform.hits["/cgi-bin/media/uploadimg"] - before}


def ten_mb(s: Server) -> str:
    path = Path(s.data, "ten.md")
    path.write_text(("word " * 20 + "\n\n") * 100_000)
    return str(path)


def tall_file(s: Server) -> str:
    path = Path(s.data, "tall.md")
    path.write_text("a\n\n" * 200)
    return str(path)


def limit_memory() -> None:
    """In the child: at most CLI_MEMORY bytes of address space (MemoryError past it)."""
    resource.setrlimit(resource.RLIMIT_AS, (CLI_MEMORY, CLI_MEMORY))


def cli(s: Server, args: list[str]) -> Result:
    """``inkcard render`` on its own: exit code, last line, seconds, its CPU and peak RSS."""
    out = Path(s.data, "cli-out")
    start = time.perf_counter()
    process = subprocess.Popen(
        [str(INKCARD), "render", "-o", str(out), *args],
        env=s.env,
        preexec_fn=limit_memory,  # unbounded, it took 21 GB of a 24 GB machine
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    killer = threading.Timer(CLIENT_TIMEOUT, process.kill)
    killer.start()
    assert process.stderr is not None
    err = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    killer.cancel()
    lines = err.strip().splitlines()
    return {
        "status": os.waitstatus_to_exitcode(status),
        "label": "traceback" if "Traceback" in err else "-",
        "message": (lines[-1] if lines else "")[:160],
        "seconds": round(time.perf_counter() - start, 2),
        "cli_cpu_s": round(usage.ru_utime + usage.ru_stime, 1),
        "cli_peak_rss_mb": usage.ru_maxrss // 1024,
    }


def log_lines(s: Server) -> Result:
    s.article({"markdown": "# m\n\n$x^2$ and $y^2$\n"})
    before = len(s.log.read_text().splitlines())
    answer = s.call("GET", "/healthz")
    for _ in range(3):
        s.call("GET", "/healthz")
    time.sleep(0.5)
    new = s.log.read_text().splitlines()[before:]
    plain = [line for line in new if not line.startswith("{")]
    return {**answer, "log_lines": len(new), "plain_log_lines": len(plain)}


def mcp_nested(s: Server) -> Result:
    """A JSON-RPC line nested 50,000 deep to ``inkcard mcp``: any answer within 15 s?"""
    line = b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":'
    line += b"[" * 50_000 + b"]" * 50_000 + b"}\n"
    start = time.perf_counter()
    process = subprocess.Popen(
        [str(INKCARD), "mcp"],
        env={**s.env, "INKCARD_API_KEY": s.key},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None
    with contextlib.suppress(OSError):
        process.stdin.write(line)
        process.stdin.flush()
    answered: list[bytes] = []
    reader = threading.Thread(target=lambda: answered.append(process.stdout.readline()))
    reader.daemon = True
    reader.start()
    reader.join(15)
    process.kill()
    process.wait()
    reply = answered[0].decode(errors="replace") if answered and answered[0] else ""
    return {
        "status": 0 if reply else -1,
        "label": "answered" if reply else "no answer in 15 s",
        "message": reply[:160],
        "seconds": round(time.perf_counter() - start, 2),
    }


# -- money at the edges, answers that stick to their request (h3, h6) ------------------------------

STORM_CLIENTS = 6  # one per paid operation below
STORM_KILL_AFTER = 24  # answers before the kill


def money(s: Server, images: ImageServer) -> Iterator[tuple[str, Any]]:
    yield "h3a MCP over HTTP: client gone before the answer", lambda: mcp_hang_up(s, images)
    yield "h3b kill -9 mid-storm of every paid operation, restart", lambda: storm_restart(s)
    yield "h6a a retry with another Host", lambda: replay_host(s)
    yield "h6b a retry after one of its cards was deleted", lambda: replay_deleted(s)


def ledger(s: Server, prefix: str) -> tuple[int, int]:
    """A key's balance and the open holds of the whole database, read directly."""
    with contextlib.closing(sqlite3.connect(f"{s.data}/db", timeout=10)) as db:
        (balance,) = db.execute(
            "SELECT balance FROM api_keys WHERE prefix = ?", [prefix]
        ).fetchone()
        (holds,) = db.execute("SELECT count(*) FROM holds").fetchone()
    return int(balance), int(holds)


def mcp_hang_up(s: Server, images: ImageServer) -> Result:
    """A generate_cards tool call naming a drip-fed image, sent on a raw socket to /mcp and
    closed after 1 s: what was the key charged once the call ended?"""
    markdown = f"# gone {time.time()}\n\n![slow]({images.base}/drip/mcp-{time.time()}.png)"
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "generate_cards", "arguments": {"markdown": markdown}},
    }
    body = json.dumps(call).encode()
    port = int(s.base.rsplit(":", 1)[1])
    head = (
        f"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\nx-api-key: {s.key}\r\n"
        "content-type: application/json\r\naccept: application/json, text/event-stream\r\n"
        f"content-length: {len(body)}\r\n\r\n"
    )
    balance = s.balance(s.key)
    start = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head.encode() + body)
        time.sleep(1.0)
    seconds = round(time.perf_counter() - start, 2)
    s.settle()
    time.sleep(12)  # past the image's fetch time limit: the call has ended either way
    return {
        "status": 0,
        "label": "hung up",
        "seconds": seconds,
        "charged": balance - s.balance(s.key),
    }


def storm_restart(s: Server) -> Result:
    """Six clients, one per paid operation (generate, cover, article HTML, draft, image post
    dry run, image post draft), each sending distinct calls back to back from one key; the
    service is killed with SIGKILL after STORM_KILL_AFTER answers and started again. Spent
    (the key's balance drop) against answered (the costs of the 200s), right after the
    restart, and the seconds until they agree."""
    printed = s.cli("keys", "create", "--name", "storm", "--credits", "10000")
    key = next(word for word in printed.split() if word.startswith("ik_"))
    account = {"platform-appid": APPID, "platform-app-secret": SECRET}
    ops: list[tuple[str, dict[str, str], int, Callable[[int], Result]]] = [
        (
            "/api/generate",
            {},
            PRICES.generate,
            lambda n: {"markdown": f"# storm card {n} {time.time()}"},
        ),
        ("/api/generate/cover", {}, PRICES.cover, lambda n: {"text": f"storm {n} {time.time()}"}),
        (
            "/api/platform/convert-and-draft",
            {},
            PRICES.html,
            lambda n: {"markdown": f"# html {n} {time.time()}"},
        ),
        (
            "/api/platform/convert-and-draft",
            account,
            PRICES.draft,
            lambda n: {"markdown": f"# draft {n} {time.time()}"},
        ),
        (
            "/api/platform/newspic-draft",
            {},
            PRICES.dry_run,
            lambda n: {"markdown": f"# dry {n} {time.time()}", "dryRun": True},
        ),
        (
            "/api/platform/newspic-draft",
            account,
            PRICES.newspic,
            lambda n: {"markdown": f"# post {n} {time.time()}"},
        ),
    ]
    answered: list[int] = []
    stop = threading.Event()
    base = s.base

    def client(
        path: str, headers: dict[str, str], cost: int, body: Callable[[int], Result]
    ) -> None:
        with httpx.Client(timeout=CLIENT_TIMEOUT) as http:
            for n in itertools.count():
                if stop.is_set():
                    return
                sent = {"x-api-key": key, **headers}
                with contextlib.suppress(httpx.HTTPError):
                    if http.post(base + path, json=body(n), headers=sent).status_code == 200:
                        answered.append(cost)

    threads = [threading.Thread(target=client, args=op, daemon=True) for op in ops]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if len(answered) >= STORM_KILL_AFTER and ledger(s, key[:8])[1] >= 2:
            break
        time.sleep(0.01)
    held_at_kill = ledger(s, key[:8])[1]
    stop.set()
    s.kill()
    for thread in threads:
        thread.join(timeout=CLIENT_TIMEOUT)
    s.start()
    balance, holds = ledger(s, key[:8])
    spent, paid_for = 10000 - balance, sum(answered)
    started = time.monotonic()
    while 10000 - ledger(s, key[:8])[0] != paid_for and time.monotonic() - started < 150:
        time.sleep(0.5)
    return {
        "status": 0,
        "label": "spent == answered" if spent == paid_for else "spent > answered",
        "seconds": 0,
        "answers": len(answered),
        "holds_at_kill": held_at_kill,
        "spent_at_restart": spent,
        "answered": paid_for,
        "holds_at_restart": holds,
        "agree_after_restart_s": round(time.monotonic() - started, 1),
    }


def replay_host(s: Server) -> Result:
    """The same card twice within the retry window, first with Host a.example, then b.example:
    whose host do the replay's URLs name?"""
    body = {"markdown": f"# host {time.time()}"}
    first = s.generate(body, headers={"host": "a.example"})
    again = s.generate(body, headers={"host": "b.example"})
    url = again.get("body", {}).get("images", [{}])[0].get("url", "")
    return {
        **again,
        "first_status": first["status"],
        "replay_url_host": url.split("/")[2] if url else "-",
    }


def replay_deleted(s: Server) -> Result:
    """Two cards, the second deleted from storage, then the same call again within the retry
    window: do the replay's URLs answer?"""
    body = {"markdown": f"# one {time.time()}\n\n---\n\n# two", "splitMode": "hrSplit"}
    balance = s.balance(s.key)
    first = s.generate(body)["body"]["images"]
    os.remove(f"{s.data}/files/{first[1]['fileName']}")
    again = s.generate(body)
    urls = [image["url"] for image in again.get("body", {}).get("images", [])]
    statuses = [
        httpx.get(s.base + url[url.index("/files/") :], timeout=10).status_code for url in urls
    ]
    return {**again, "replay_url_statuses": statuses, "charged": balance - s.balance(s.key)}


# -- a request we do not understand, or with nothing to do ---------------------------------------


def strict(s: Server) -> Iterator[tuple[str, Any]]:
    """Requests that say something the service does not read, or ask for nothing: each should
    be a 400 that charges nothing (``charged``: credits the key lost)."""
    yield "h4a {content} instead of markdown", lambda: paid(s, s.generate, {"content": "# Post"})
    split = {"markdown": "# A\n\n---\n\n# B", "split_mode": "hrSplit"}
    yield "h4b split_mode instead of splitMode", lambda: paid(s, s.generate, split)
    misspelt = {"markdown": "---\ntittle: My post\n---\n# Body"}
    yield "h4c front matter tittle, a draft", lambda: paid(s, s.article, misspelt, draft=True)
    for name, text in (("empty", ""), ("whitespace", " \n\t ")):
        body = {"markdown": text}
        yield f"h5a {name} markdown, generate", lambda b=body: paid(s, s.generate, b)
        yield f"h5b {name} markdown, article HTML", lambda b=body: paid(s, s.article, b)
        yield f"h5c {name} markdown, draft", lambda b=body: paid(s, s.article, b, draft=True)
        yield f"h5d {name} markdown, newspic", lambda b=body: paid(s, s.newspic, b)
        yield f"h5e {name} text, cover", lambda t=text: paid(s, s.cover, {"text": t})
    listed = {"markdown": "---\n- title\n- author\n---\n# The post\n\nIts text."}
    yield "h5f a list as front matter, article HTML", lambda: paid(s, s.article, listed)
    yield "h5g a list as front matter, generate", lambda: paid(s, s.generate, listed)


def paid(s: Server, send: Callable[..., Result], body: Result, **kw: Any) -> Result:
    """``send(body)``: its answer and what it charged the key."""
    balance = s.balance(s.key)
    answer = send(body, **kw)
    return {**answer, "charged": balance - s.balance(s.key)}


# -- the previous round's repros, still held ------------------------------------------------------


def previous(s: Server) -> Iterator[tuple[str, Any]]:
    """The earlier round's repros (the last two break the server's database and storage)."""
    yield (
        "JSON nested 10,000 deep",
        lambda: s.call("POST", "/api/generate", content=b"[" * 10000 + b"]" * 10000),
    )
    yield "invalid UTF-8", lambda: s.call("POST", "/api/generate", content=b'{"markdown":"\xff"}')
    yield "emphasis 500 deep", lambda: s.generate({"markdown": "*" * 500 + "x" + "*" * 500})
    yield "GET /files/%00", lambda: s.call("GET", "/files/%00")
    yield "GET /files/a/ x5000", lambda: s.call("GET", "/files/" + "a/" * 5000)
    uri = data_uri(png_1bit(6000, 6000))
    bomb = "# bomb\n\n" + "![][i]\n\n" * 120 + f"[i]: {uri}\n"
    yield "one 6000x6000 PNG used 120 times", lambda: s.generate({"markdown": bomb})
    parts = "\n\n---\n\n".join(f"# part {i}\n\ntext" for i in range(50))
    huge = {"markdown": parts, "splitMode": "hrSplit", "width": 1600, "height": 4000, "scale": 4}
    yield "50 hrSplit cards 1600x4000 at scale 4", lambda: s.generate(huge)
    yield "a 12-card set again after deleting card 12", lambda: twelve_cards(s)
    cells = "|" + "|".join(f"h{i}" for i in range(200)) + "|\n|" + "---|" * 200 + "\n|"
    table = cells + "|".join(f"c{i}" for i in range(200)) + "|"
    yield "200-column table", lambda: s.generate({"markdown": table})
    controls = {"markdown": "# a\x00b\x07\x1b[31m\x7f\n\nd\x0be"}
    yield "control characters", lambda: s.generate(controls)
    yield "null body", lambda: s.call("POST", "/api/generate", content=b"null")
    yield "HEAD /healthz", lambda: s.call("HEAD", "/healthz")
    yield "database write-locked for 8 s", lambda: write_locked(s)
    yield "/readyz with storage unwritable", lambda: storage_unwritable(s)


def twelve_cards(s: Server) -> Result:
    sets = {"markdown": "\n\n---\n\n".join(f"# {i}" for i in range(12)), "splitMode": "hrSplit"}
    last = s.generate(sets)["body"]["images"][-1]["fileName"]
    os.remove(f"{s.data}/files/{last}")
    again = s.generate(sets)
    return {**again, "cards": len(again.get("body", {}).get("images", []))}


def write_locked(s: Server) -> Result:
    """Another writer holds the database for 8 s while a card is asked for."""

    def hold() -> None:
        connection = sqlite3.connect(f"{s.data}/db", timeout=1)
        connection.execute("BEGIN IMMEDIATE")
        time.sleep(8)
        connection.rollback()
        connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    time.sleep(0.2)
    answer = s.generate({"markdown": f"# busy {time.time()}"})
    thread.join()
    return answer


def storage_unwritable(s: Server) -> Result:
    shots = Path(s.data, "files", "screenshots")
    shots.rename(shots.with_name("moved"))
    shots.write_text("")  # a file where the folder was: every write fails
    time.sleep(5.5)  # past /readyz's cached answer
    return s.call("GET", "/readyz")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="", help="item prefixes, e.g. 1,3,9c (default: all)")
    parser.add_argument("--previous", action="store_true", help="also the earlier repros")
    args = parser.parse_args()
    wanted = [p for p in args.only.split(",") if p]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # still stop the server
    data = tempfile.mkdtemp(prefix="inkcard-hostile-")
    images = ImageServer()
    with FakeWeChat({APPID: SECRET}) as platform:
        server = Server(data, platform.url)
        try:
            items = list(repros(server, images, platform)) + list(operator_repros(server))
            items += list(strict(server))
            if args.previous:
                items += list(previous(server))
            for item, attack in items:
                if not wanted or any(item.split()[0].startswith(p) for p in wanted):
                    server.repro(item, attack, victim=item[0] in "12345678h")
        finally:
            server.kill()
            images.close()


if __name__ == "__main__":
    main()
