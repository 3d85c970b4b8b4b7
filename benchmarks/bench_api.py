"""HTTP benchmark of POST /api/generate on loopback → JSON on stdout.

Starts ``inkcard serve`` on a free 127.0.0.1 port with temporary data (or uses ``--url`` and
``--key`` of a running service), then runs two bounded scenarios with concurrent clients:

* ``cached``: the default card again and again (after the first call it is served from storage);
* ``render``: a different small card every call, so each one is rendered and stored.

Usage: python benchmarks/bench_api.py [--seconds 10] [--concurrency 4] [--url URL --key KEY]
Not collected by pytest. Only loopback addresses are accepted.
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
    }
    cmd = [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
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
    statuses: Counter[int] = Counter()
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
                body = {"markdown": f"# Card {n}\n\nRendered for the benchmark."} if vary else {}
                t0 = time.perf_counter()
                response = await http.post("/api/generate", json=body, headers=headers)
                latencies.append(time.perf_counter() - t0)
                statuses[response.status_code] += 1

        await asyncio.gather(*(client() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    quantiles = (
        statistics.quantiles(latencies, n=100, method="inclusive")
        if len(latencies) >= 2
        else latencies * 99
    )
    return {
        "requests": len(latencies),
        "seconds": round(elapsed, 2),
        "requests_per_second": round(len(latencies) / elapsed, 1),
        "p50_ms": round(quantiles[49] * 1000, 1),
        "p99_ms": round(quantiles[98] * 1000, 1),
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="duration of each scenario (max 120)"
    )
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--url", help="base URL of a running service on loopback")
    parser.add_argument("--key", help="API key for --url")
    args = parser.parse_args()
    seconds = min(max(args.seconds, 0.5), 120.0)
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
            results = {
                "cached": asyncio.run(scenario(base, key, seconds, args.concurrency, vary=False)),
                "render": asyncio.run(scenario(base, key, seconds, args.concurrency, vary=True)),
            }
        finally:
            if proc is not None:
                proc.terminate()
                proc.communicate(timeout=30)
    report = {"benchmark": "api_generate_default_card", "concurrency": args.concurrency, **results}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
