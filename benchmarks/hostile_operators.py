"""Operator-facing repros for bench_hostile_repros.py → one result dict each: bad settings at
start-up, a private S3 bucket, `inkcard render` (front matter, stale files, flag names, a FIFO)
and the URLs `inkcard mcp` hands out over stdio.

Each repro runs the `inkcard` of the interpreter running the benchmark (so an older checkout's
venv measures that checkout) in a subprocess with a deadline; nothing here needs the service
under test, only its data folder, its environment and its key. The S3 repros start moto's S3
server on 127.0.0.1 (moto is a test dependency of every checkout since the s3 engine came).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

INKCARD = Path(sys.executable).with_name("inkcard")
DEADLINE = 60.0  # seconds a start that should be refused may take before it counts as started
FIFO_DEADLINE = 15.0
Result = dict[str, Any]
FRONT = "---\ntitle: A title that is not drawn\ntheme: minimal\n---\n"
BODY = "# Body\n\ntext under the front matter\n"


class Service(Protocol):
    """What the repros need of the benchmark's running service."""

    data: str
    env: dict[str, str]
    key: str


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(command: list[str], env: dict[str, str], deadline: float = DEADLINE) -> Result:
    """Run a command that should refuse to start: exit code (-1: still running at the
    deadline, then killed), its stderr's first and last lines, whether stdout printed anything
    first (the playground's address, a key), a traceback, seconds."""
    started = time.perf_counter()
    try:
        done = subprocess.run(
            command,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=deadline,
        )
        status, out, err = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as expired:
        status = -1
        out = (expired.stdout or b"").decode(errors="replace") if expired.stdout else ""
        err = (expired.stderr or b"").decode(errors="replace") if expired.stderr else ""
    lines = [line for line in err.splitlines() if line.strip()]
    return {
        "status": status,
        "label": "traceback" if "Traceback" in err else "-",
        "message": (lines[-1] if lines else "")[:200],
        "stderr_lines": len(lines),
        "printed_before": bool(out.strip()),
        "seconds": round(time.perf_counter() - started, 2),
    }


def _serve_env(s: Service, **variables: str) -> dict[str, str]:
    env = {k: v for k, v in s.env.items() if not k.startswith("INKCARD_")}
    home = Path(s.data, f"ops-{time.time_ns()}")
    env.update(INKCARD_HOME=str(home), INKCARD_PORT=str(_free_port()))
    env.update(INKCARD_RENDER_PROCESSES="1", INKCARD_BOOTSTRAP_KEY="1")
    env.update(variables)
    return env


def bad_setting(s: Service, **variables: str) -> Callable[[], Result]:
    return lambda: _start([str(INKCARD), "serve"], _serve_env(s, **variables))


def missing_extra(s: Service) -> Result:
    script = (
        "import sys\nsys.modules['boto3'] = None\n"  # as if the s3 extra were not installed
        "from inkcard.app.cli import main\nsys.exit(main(['serve']))\n"
    )
    env = _serve_env(s, INKCARD_STORAGE="s3", INKCARD_S3_BUCKET="cards")
    return _start([sys.executable, "-c", script], env)


def gcs_without_credentials(s: Service) -> Result:
    env = _serve_env(s, INKCARD_STORAGE="gcs", INKCARD_GCS_BUCKET="cards")
    env.update(
        CLOUDSDK_CONFIG=str(Path(s.data, "no-gcloud")),
        NO_GCE_CHECK="True",  # no metadata server is asked
        GCE_METADATA_HOST=f"127.0.0.1:{_free_port()}",
        GCE_METADATA_IP=f"127.0.0.1:{_free_port()}",
    )
    for name in ("GOOGLE_APPLICATION_CREDENTIALS", "STORAGE_EMULATOR_HOST"):
        env.pop(name, None)
    return _start([str(INKCARD), "serve"], env)


@contextlib.contextmanager
def moto() -> Iterator[str]:
    """moto's S3 server on a free loopback port; yields its URL."""
    from moto.server import ThreadedMotoServer

    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()


AWS = {
    "AWS_ACCESS_KEY_ID": "bench",
    "AWS_SECRET_ACCESS_KEY": "bench-secret",
    "AWS_EC2_METADATA_DISABLED": "true",
}


def s3_unreachable(s: Service) -> Result:
    nowhere = f"http://127.0.0.1:{_free_port()}"
    env = _serve_env(s, INKCARD_STORAGE="s3", INKCARD_S3_BUCKET="cards", **AWS)
    env["INKCARD_S3_ENDPOINT"] = nowhere
    return _start([str(INKCARD), "serve"], env)


def private_bucket(s: Service) -> Result:
    """A bucket that stores objects but answers 403 to their URLs: the start-up warning and
    /readyz of a real `inkcard serve` on it."""
    import boto3
    import httpx

    with moto() as endpoint:
        client = boto3.client(
            "s3",
            endpoint_url=endpoint,
            region_name="us-east-1",
            aws_access_key_id=AWS["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=AWS["AWS_SECRET_ACCESS_KEY"],
        )
        client.create_bucket(Bucket="private")
        env = _serve_env(s, INKCARD_STORAGE="s3", INKCARD_S3_BUCKET="private", **AWS)
        env["INKCARD_S3_ENDPOINT"] = endpoint
        log = Path(s.data, f"private-{time.time_ns()}.log")
        started = time.perf_counter()
        with log.open("w") as sink:
            server = subprocess.Popen(
                [str(INKCARD), "serve"], env=env, stdout=sink, stderr=subprocess.STDOUT
            )
        base = f"http://127.0.0.1:{env['INKCARD_PORT']}"
        answer: Any = None
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and server.poll() is None:
                with contextlib.suppress(httpx.TransportError):
                    answer = httpx.get(f"{base}/readyz", timeout=10)
                    warming = "render processes" in answer.text or "warming" in answer.text
                    if answer.status_code == 200 or not warming:  # only the storage is left
                        break
                time.sleep(0.5)
        finally:
            server.terminate()
            server.wait(timeout=60)
        warned = [line for line in log.read_text().splitlines() if "403" in line]
        body = answer.json() if answer is not None else {}
        return {
            "status": answer.status_code if answer is not None else -1,
            "label": body.get("error", body.get("status", "-")),
            "message": str(body.get("message", ""))[:200],
            "startup_warning": bool(warned),
            "seconds": round(time.perf_counter() - started, 2),
        }


def _render(cwd: Path, *args: str, timeout: float = DEADLINE) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(INKCARD), "render", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _folder(s: Service, name: str) -> Path:
    folder = Path(s.data, f"{name}-{time.time_ns()}")
    folder.mkdir()
    return folder


def front_matter_drawn(s: Service) -> Result:
    """The same post with its theme in a front matter and by flag: are the cards the same?"""
    folder = _folder(s, "front")
    (folder / "with.md").write_text(FRONT + BODY)
    (folder / "without.md").write_text(BODY)
    started = time.perf_counter()
    first = _render(folder, "with.md", "--scale", "1", "-o", "a")
    second = _render(folder, "without.md", "--theme", "minimal", "--scale", "1", "-o", "b")
    cards = [sorted(p.name for p in (folder / d).glob("*.png")) for d in ("a", "b")]
    same = cards[0] == cards[1] and all(
        (folder / "a" / n).read_bytes() == (folder / "b" / n).read_bytes() for n in cards[0]
    )
    return {
        "status": first.returncode or second.returncode,
        "label": "front matter not drawn" if same else "front matter drawn",
        "cards": len(cards[0]),
        "seconds": round(time.perf_counter() - started, 2),
    }


def stale_files(s: Service) -> Result:
    """Three cards into a folder, then one: which card files are left?"""
    folder = _folder(s, "stale")
    three = "\n\n---\n\n".join(f"# part {n}" for n in range(3))
    (folder / "post.md").write_text(three)
    _render(folder, "post.md", "--split", "hrSplit", "--scale", "1", "-o", "out")
    (folder / "post.md").write_text("# one card")
    started = time.perf_counter()
    done = _render(folder, "post.md", "--scale", "1", "-o", "out")
    left = sorted(p.name for p in (folder / "out").glob("*.png"))
    return {
        "status": done.returncode,
        "label": "stale cards left" if left != ["1.png"] else "only the new set",
        "message": " ".join(left),
        "seconds": round(time.perf_counter() - started, 2),
    }


def flag_names(s: Service) -> Result:
    folder = _folder(s, "flags")
    (folder / "post.md").write_text("# hi")
    started = time.perf_counter()
    done = _render(folder, "post.md", "--theme", "apple-notes", "--mode", "neon", "-o", "out")
    return {
        "status": done.returncode,
        "label": "names the flag" if "--mode" in done.stderr else "names the API field",
        "message": done.stderr.strip()[:200],
        "seconds": round(time.perf_counter() - started, 2),
    }


def fifo(s: Service) -> Result:
    """A named pipe nobody writes to, as the input: an answer, or a hang killed at 15 s?"""
    folder = _folder(s, "fifo")
    os.mkfifo(folder / "pipe.md")
    started = time.perf_counter()
    try:
        done = _render(folder, "pipe.md", "-o", "out", timeout=FIFO_DEADLINE)
        status, message = done.returncode, done.stderr.strip()[:200]
    except subprocess.TimeoutExpired:
        status, message = -1, f"no answer in {FIFO_DEADLINE:g} s"
    return {
        "status": status,
        "label": "hang" if status == -1 else "-",
        "message": message,
        "seconds": round(time.perf_counter() - started, 2),
    }


def _send(stdin: Any, message: dict[str, Any]) -> None:
    stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
    stdin.flush()


def _reply(stdout: Any, request_id: int) -> dict[str, Any]:
    while line := stdout.readline():
        message = json.loads(line)
        if message.get("id") == request_id:
            return dict(message)
    raise RuntimeError("inkcard mcp ended without answering")


def stdio_urls(s: Service) -> Result:
    """One generate_cards call to `inkcard mcp` on the service's data (local storage, no
    public URL): the URL it hands out, whether anything answers it, and what the answer says."""
    import httpx

    env = {**s.env, "INKCARD_API_KEY": s.key}
    started = time.perf_counter()
    server = subprocess.Popen(
        [str(INKCARD), "mcp"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "b"}}
        _send(server.stdin, {"id": 1, "method": "initialize", "params": hello})
        _reply(server.stdout, 1)
        _send(server.stdin, {"method": "notifications/initialized"})
        call = {"name": "generate_cards", "arguments": {"markdown": f"# stdio {time.time()}"}}
        _send(server.stdin, {"id": 2, "method": "tools/call", "params": call})
        result = _reply(server.stdout, 2)["result"]
    finally:
        server.kill()
        server.wait()
    texts = [block["text"] for block in result["content"] if block["type"] == "text"]
    url = json.loads(texts[0])["images"][0]["url"]
    fetched = -1
    if url:
        with contextlib.suppress(httpx.HTTPError):
            fetched = httpx.get(url, timeout=10).status_code
    return {
        "status": fetched,
        "label": "url" if url else "no url",
        "message": (url or (texts[1] if len(texts) > 1 else ""))[:200],
        "seconds": round(time.perf_counter() - started, 2),
    }


def operator_repros(s: Service) -> Iterator[tuple[str, Callable[[], Result]]]:
    """The repros, named by the audit's items (7: settings, 8: the CLI, 9: MCP over stdio)."""
    yield "op7a serve with INKCARD_STORAGE=S3", bad_setting(s, INKCARD_STORAGE="S3")
    yield "op7b serve with INKCARD_PORT=eighty", bad_setting(s, INKCARD_PORT="eighty")
    yield "op7c serve with INKCARD_LOG_LEVEL=LOUD", bad_setting(s, INKCARD_LOG_LEVEL="LOUD")
    yield "op7d serve with INKCARD_PUBLIC_URL=notaurl", bad_setting(s, INKCARD_PUBLIC_URL="notaurl")
    yield "op7e serve with gcs, no credentials", lambda: gcs_without_credentials(s)
    yield "op7f serve with s3, the extra missing", lambda: missing_extra(s)
    yield "op7g serve with s3, the endpoint unreachable", lambda: s3_unreachable(s)
    yield "op7h serve on a private S3 bucket: /readyz", lambda: private_bucket(s)
    yield "op8a render: a front matter drawn?", lambda: front_matter_drawn(s)
    yield "op8b render -o: 3 cards then 1", lambda: stale_files(s)
    yield "op8c render --mode neon: the error's words", lambda: flag_names(s)
    yield "op8d render a FIFO with no writer", lambda: fifo(s)
    yield "op9 MCP stdio generate_cards: the URL", lambda: stdio_urls(s)
