"""Hostile-input repros against a real `inkcard serve` on loopback, one JSON line each.

Usage: .venv/bin/python benchmarks/bench_hostile_repros.py

Prints status, error label, seconds and the server's peak memory (VmHWM) after each request.
Bounded: one request per repro, the server is started with temporary data and killed at the end.
"""

from __future__ import annotations

import base64
import json
import os
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
INKCARD = Path(sys.executable).with_name("inkcard")


def png_1bit(width: int, height: int) -> bytes:
    """A tiny file that decodes to width x height pixels (the image memory bomb)."""
    raw = b"".join(b"\0" * (1 + (width + 7) // 8) for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


class Server:
    def __init__(self, data: str, port: int) -> None:
        env = {
            **os.environ,
            "INKCARD_PORT": str(port),
            "INKCARD_DATABASE": f"{data}/db",
            "INKCARD_STORAGE_DIR": f"{data}/files",
            "INKCARD_GENERATE_COST": "1",
            "INKCARD_BOOTSTRAP_CREDITS": "1000",
            "INKCARD_LOG_LEVEL": "WARNING",
            "INKCARD_REQUESTS_PER_MINUTE": "0",
        }
        self.data = data
        self.base = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            [str(INKCARD), "serve"], env=env, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        assert self.process.stdout is not None
        self.key = next(line.strip() for line in self.process.stdout if "ik_" in line)
        for _ in range(100):
            try:
                if httpx.get(self.base + "/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)

    def peak_mb(self) -> int:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(status.split("VmHWM:")[1].split()[0]) // 1024

    def send(self, item: str, method: str = "POST", path: str = "/api/generate", **kw: Any) -> Any:
        headers = {"x-api-key": self.key, "content-type": "application/json"}
        start = time.perf_counter()
        response = httpx.request(method, self.base + path, headers=headers, timeout=120, **kw)
        seconds = time.perf_counter() - start
        is_json = response.headers.get("content-type", "").startswith("application/json")
        label = response.json().get("error", "-") if is_json and response.content else "-"
        line = {"item": item, "status": response.status_code, "label": label,
                "seconds": round(seconds, 2), "server_peak_mb": self.peak_mb()}  # fmt: skip
        print(json.dumps(line), flush=True)
        return response


def hold_write_lock(database: str, seconds: float) -> threading.Thread:
    """Another writer holding the database for `seconds` (the busy-database repro), in its own thread."""

    def hold() -> None:
        connection = sqlite3.connect(database, timeout=1)
        connection.execute("BEGIN IMMEDIATE")
        time.sleep(seconds)
        connection.rollback()
        connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    time.sleep(0.2)
    return thread


def main() -> None:
    data = tempfile.mkdtemp()
    server = Server(data, 18000 + os.getpid() % 1000)
    try:
        run(server)
    finally:
        server.process.kill()


def run(server: Server) -> None:
    server.send("JSON nested 10,000 deep", content=b"[" * 10000 + b"]" * 10000)
    server.send("invalid UTF-8", content=b'{"markdown":"# \xff\xfe"}')
    server.send("emphasis 500 deep", json={"markdown": "*" * 500 + "x" + "*" * 500})
    server.send("GET /files/%00", method="GET", path="/files/%00")
    server.send("GET /files/a/ x5000", method="GET", path="/files/" + "a/" * 5000)
    uri = "data:image/png;base64," + base64.b64encode(png_1bit(6000, 6000)).decode()
    bomb = "# bomb\n\n" + "![][i]\n\n" * 120 + f"[i]: {uri}\n"
    server.send("one 6000x6000 PNG used 120 times", json={"markdown": bomb})
    parts = "\n\n---\n\n".join(f"# part {i}\n\ntext" for i in range(50))
    huge = {"markdown": parts, "splitMode": "hrSplit", "width": 1600, "height": 4000, "scale": 4}
    server.send("50 hrSplit cards 1600x4000 at scale 4", json=huge)
    sets = {"markdown": "\n\n---\n\n".join(f"# {i}" for i in range(12)), "splitMode": "hrSplit"}
    last = server.send("a 12-card set", json=sets).json()["images"][-1]["fileName"]
    os.remove(f"{server.data}/files/{last}")
    again = server.send("the same after deleting card 12", json=sets)
    print(json.dumps({"item": "cards in the answer", "count": len(again.json()["images"])}))
    cells = "|" + "|".join(f"h{i}" for i in range(200)) + "|\n|" + "---|" * 200 + "\n|"
    table = cells + "|".join(f"c{i}" for i in range(200)) + "|"
    server.send("200-column table", json={"markdown": table})
    server.send("control characters", json={"markdown": "# a\x00b\x07\x1b[31m\x7f\n\nd\x0be"})
    server.send("null body", content=b"null")
    server.send("HEAD /healthz", method="HEAD", path="/healthz")
    lock = hold_write_lock(f"{server.data}/db", 8)
    server.send("database write-locked for 8 s", json={"markdown": "# busy"})
    lock.join()
    shots = Path(server.data, "files", "screenshots")
    shots.rename(shots.with_name("moved"))
    shots.write_text("")  # a file where the folder was: every write fails
    time.sleep(5.5)  # past /readyz's cached answer
    server.send("/readyz with storage unwritable", method="GET", path="/readyz")


if __name__ == "__main__":
    main()
