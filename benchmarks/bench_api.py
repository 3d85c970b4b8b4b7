"""HTTP benchmark of POST /api/generate on loopback → JSON on stdout.

Starts ``inkcard serve`` on a free 127.0.0.1 port with temporary data (or uses ``--url`` and
``--key`` of a running service), then runs bounded closed-loop scenarios:

* ``cached``: the default card again and again (after the first call it is served from storage);
* ``render_c1``, ``render_c4``, ``render_c16`` and ``render_c64``: a distinct default card
  every call (tests/cases/posts/01-efficiency-zh.md with a numbered tag), so each one is
  rendered and stored, by 1, 4, 16 and 64 clients. 64 is past saturation (render threads plus
  the render queue): it reports the share of 503s, how fast they come back and the slowest
  request of all (none may pass 60 s).

The started service lifts the per-key limits (``INKCARD_RENDERS_PER_KEY``,
``INKCARD_REQUESTS_PER_MINUTE``) so that one key can
load the render pool. Usage: python benchmarks/bench_api.py [--seconds 10]
[--levels 1,4,16,64] [--url URL --key KEY]. Not collected by pytest. Only loopback addresses
are accepted.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlparse

import httpx

MAX_REQUESTS = 100_000  # per scenario, on top of the time bound
LIMIT_S = 60.0  # no request may take longer, even past saturation
POST = Path(__file__).resolve().parents[1] / "tests" / "cases" / "posts" / "01-efficiency-zh.md"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_service(data: Path) -> tuple[subprocess.Popen[str], str, str]:
    """Run ``inkcard serve`` on loopback; return the process, base URL and the printed key."""
    port = _free_port()
    env = {
        **os.environ,
        "INKCARD_DATABASE": str(data / "inkcard.db"),
        "INKCARD_STORAGE_DIR": str(data / "files"),
        "INKCARD_LOG_LEVEL": "WARNING",
        "INKCARD_BOOTSTRAP_KEY": "1",
        "INKCARD_RENDERS_PER_KEY": "1000",
        "INKCARD_REQUESTS_PER_MINUTE": "0",
    }
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
    assert proc.stdout is not None
    key = ""
    deadline = time.monotonic() + 60
    while not key and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if line.strip().startswith("ik_"):
            key = line.strip()
    if not key:
        proc.terminate()
        raise SystemExit("the service did not print a key")
    base = f"http://127.0.0.1:{port}"
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/readyz", timeout=2).status_code == 200:
                return proc, base, key
        except httpx.TransportError:
            time.sleep(0.1)
    proc.terminate()
    raise SystemExit("the service did not become ready")


async def scenario(
    base: str, key: str, seconds: float, concurrency: int, vary: bool
) -> dict[str, object]:
    """Closed-loop load: ``concurrency`` clients send requests until ``seconds`` have passed."""
    latencies: list[float] = []
    by_status: dict[int, list[float]] = {}
    statuses: Counter[int] = Counter()
    post = POST.read_text("utf-8")
    counter = itertools.count()
    headers = {"x-api-key": key}
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=70, limits=limits) as http:
        started = time.perf_counter()
        deadline = started + seconds

        async def client() -> None:
            while time.perf_counter() < deadline:
                n = next(counter)
                if n >= MAX_REQUESTS:
                    return
                body = {"markdown": f"{post.rstrip()} #{n}"} if vary else {}
                t0 = time.perf_counter()
                try:
                    response = await http.post("/api/generate", json=body, headers=headers)
                    status = response.status_code
                except httpx.TimeoutException:  # past the 60 s bound: counted as status 0
                    status = 0
                except httpx.TransportError:  # the connection dropped: counted as status -1
                    status = -1
                latencies.append(time.perf_counter() - t0)
                by_status.setdefault(status, []).append(latencies[-1])
                statuses[status] += 1

        await asyncio.gather(*(client() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    ok = by_status.get(200, [])
    overloaded = by_status.get(503, [])
    return {
        "concurrency": concurrency,
        "requests": len(latencies),
        "seconds": round(elapsed, 2),
        "requests_per_second": round(len(latencies) / elapsed, 1),
        "cards_per_second": round(len(ok) / elapsed, 1),
        **_percentiles("", latencies),
        **_percentiles("ok_", ok),
        "share_503": round(len(overloaded) / max(len(latencies), 1), 3),
        **_percentiles("503_", overloaded),
        "max_ms": round(max(latencies, default=0.0) * 1000, 1),
        f"none_past_{LIMIT_S:.0f}s": max(latencies, default=0.0) < LIMIT_S,
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
    }


def _percentiles(prefix: str, seconds: list[float]) -> dict[str, float | None]:
    """p50 and p99 in ms (None when there is no sample)."""
    if not seconds:
        return {f"{prefix}p50_ms": None, f"{prefix}p99_ms": None}
    cuts = statistics.quantiles(seconds, n=100, method="inclusive") if len(seconds) > 1 else []
    p50, p99 = (cuts[49], cuts[98]) if cuts else (seconds[0], seconds[0])
    return {f"{prefix}p50_ms": round(p50 * 1000, 1), f"{prefix}p99_ms": round(p99 * 1000, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="duration of each scenario (max 120)"
    )
    parser.add_argument(
        "--levels", default="1,4,16,64", help="client counts of the render scenarios (max 256)"
    )
    parser.add_argument("--url", help="base URL of a running service on loopback")
    parser.add_argument("--key", help="API key for --url")
    args = parser.parse_args()
    seconds = min(max(args.seconds, 0.5), 120.0)
    levels = [min(max(int(n), 1), 256) for n in args.levels.split(",")]
    if args.url and urlparse(args.url).hostname not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit("only loopback services may be benchmarked")
    with tempfile.TemporaryDirectory(prefix="inkcard-bench-") as tmp:
        proc = None
        if args.url:
            base, key = args.url.rstrip("/"), args.key or ""
        else:
            proc, base, key = start_service(Path(tmp))
        try:
            warm = httpx.post(
                base + "/api/generate", json={}, headers={"x-api-key": key}, timeout=70
            )
            warm.raise_for_status()
            results = {"cached": asyncio.run(scenario(base, key, seconds, 4, vary=False))}
            for n in levels:
                results[f"render_c{n}"] = asyncio.run(scenario(base, key, seconds, n, vary=True))
        finally:
            if proc is not None:
                proc.terminate()
                proc.communicate(timeout=30)
    report = {"benchmark": "api_generate_default_card", "seconds_per_scenario": seconds, **results}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
