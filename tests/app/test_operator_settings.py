"""Clear answers for operators, from the real `inkcard serve` and `inkcard mcp`: a setting the
service cannot use is one line on stderr naming the variable, the value given and what it
takes (or what to install or set), exit status 2, no traceback, and nothing printed before it;
storage that cannot be written stops the start the same way; a bucket whose file URLs answer
403 is reported at start-up and by ``/readyz``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.app.apphelpers import free_port
from tests.app.conftest import public_read_policy

START_TIMEOUT_S = 120  # a refusal comes in seconds; a server that starts instead fails here


def environment(tmp_path: Path, **variables: str) -> dict[str, str]:
    """This process's environment without its ``INKCARD_*``, on ``tmp_path``, plus ``variables``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("INKCARD_")}
    env.update(
        HOME=str(tmp_path),
        INKCARD_HOME=str(tmp_path / "home"),
        INKCARD_PORT=str(free_port()),
        INKCARD_RENDER_PROCESSES="1",
    )
    env.update(variables)
    return env


def run_cli(
    args: list[str], env: dict[str, str], *, hidden: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``inkcard ARGS`` to its end, stdin empty; ``hidden``: a module made unimportable (an
    extra that is not installed)."""
    command = [sys.executable, "-m", "inkcard.app.cli", *args]
    if hidden is not None:
        script = (
            f"import sys\nsys.modules[{hidden!r}] = None\n"
            f"from inkcard.app.cli import main\nsys.exit(main({args!r}))\n"
        )
        command = [sys.executable, "-c", script]
    return subprocess.run(
        command,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT_S,
    )


def assert_refused_in_one_line(result: subprocess.CompletedProcess[str], *said: str) -> str:
    """Exit 2, stdout empty (no playground, no key), stderr one ``inkcard:`` line holding
    every text of ``said``; returns that line."""
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith("inkcard: ") and result.stderr.count("\n") == 1, result.stderr
    for text in said:
        assert text in result.stderr, result.stderr
    return result.stderr


@pytest.mark.parametrize(
    ("variables", "said"),
    [
        ({"INKCARD_STORAGE": "S3"}, "INKCARD_STORAGE=S3 is not valid: use one of local, gcs, s3"),
        (
            {"INKCARD_PORT": "eighty"},
            "INKCARD_PORT=eighty is not valid: use a whole number from 1 to 65535",
        ),
        ({"INKCARD_WORKERS": "0"}, "INKCARD_WORKERS=0 is not valid: use a whole number of at"),
        ({"INKCARD_TIMEOUT": "-1"}, "INKCARD_TIMEOUT=-1 is not valid: use a number of seconds"),
        ({"INKCARD_METRICS": "maybe"}, "INKCARD_METRICS=maybe is not valid: use 1 or 0"),
        (
            {"INKCARD_PUBLIC_URL": "cards.example.com/files"},
            "INKCARD_PUBLIC_URL=cards.example.com/files is not valid: use an http(s) URL",
        ),
        (
            {"INKCARD_LOG_LEVEL": "LOUD"},
            "INKCARD_LOG_LEVEL=LOUD is not valid: use one of DEBUG, INFO, WARNING, ERROR",
        ),
        ({"INKCARD_S3_ADDRESSING": "sideways"}, "use one of auto, path, virtual"),
        ({"INKCARD_STORAGE": "s3"}, "INKCARD_STORAGE=s3 needs INKCARD_S3_BUCKET"),
    ],
)
def test_a_bad_setting_is_one_line_naming_variable_value_and_choices(
    tmp_path: Path, variables: dict[str, str], said: str
) -> None:
    env = environment(tmp_path, **variables)
    assert_refused_in_one_line(run_cli(["serve"], env), said)
    assert_refused_in_one_line(run_cli(["mcp", "--api-key", "ik_" + "x" * 32], env), said)


def test_a_url_setting_is_refused_without_showing_its_password(tmp_path: Path) -> None:
    env = environment(tmp_path, INKCARD_PUBLIC_URL="https://user:hunter2@cdn.example.com")
    line = assert_refused_in_one_line(run_cli(["serve"], env), "INKCARD_PUBLIC_URL=https://…")
    assert "hunter2" not in line


@pytest.mark.parametrize(
    ("hidden", "variables", "said"),
    [
        ("boto3", {"INKCARD_STORAGE": "s3", "INKCARD_S3_BUCKET": "b"}, "inkcard[s3]"),
        (
            "google.cloud.storage",
            {"INKCARD_STORAGE": "gcs", "INKCARD_GCS_BUCKET": "b"},
            "inkcard[gcs]",
        ),
    ],
)
def test_a_missing_extra_is_said_before_anything_else(
    tmp_path: Path, hidden: str, variables: dict[str, str], said: str
) -> None:
    result = run_cli(["serve"], environment(tmp_path, **variables), hidden=hidden)
    assert_refused_in_one_line(result, f"pip install '{said}'")


def test_gcs_without_credentials_is_one_line_saying_what_to_set(tmp_path: Path) -> None:
    env = environment(
        tmp_path,
        INKCARD_STORAGE="gcs",
        INKCARD_GCS_BUCKET="cards",
        CLOUDSDK_CONFIG=str(tmp_path / "no-gcloud"),
        NO_GCE_CHECK="True",  # never ask a metadata server
        GCE_METADATA_HOST=f"127.0.0.1:{free_port()}",
        GCE_METADATA_IP=f"127.0.0.1:{free_port()}",
    )
    for name in ("GOOGLE_APPLICATION_CREDENTIALS", "STORAGE_EMULATOR_HOST", "GOOGLE_CLOUD_PROJECT"):
        env.pop(name, None)
    said = ("INKCARD_STORAGE=gcs found no Google credentials", "GOOGLE_APPLICATION_CREDENTIALS")
    assert_refused_in_one_line(run_cli(["serve"], env), *said)
    assert_refused_in_one_line(run_cli(["mcp", "--api-key", "ik_" + "x" * 32], env), *said)


def test_a_storage_folder_that_cannot_be_written_stops_the_start(tmp_path: Path) -> None:
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("not a folder")
    env = environment(tmp_path, INKCARD_STORAGE_DIR=str(in_the_way))
    assert_refused_in_one_line(
        run_cli(["serve"], env), f"INKCARD_STORAGE_DIR={in_the_way} cannot store files"
    )


def test_an_s3_bucket_unreachable_or_refusing_stops_the_start(s3: str, tmp_path: Path) -> None:
    nowhere = environment(
        tmp_path,
        INKCARD_STORAGE="s3",
        INKCARD_S3_BUCKET="cards",
        INKCARD_S3_ENDPOINT=f"http://127.0.0.1:{free_port()}",
    )
    line = assert_refused_in_one_line(
        run_cli(["serve"], nowhere), "INKCARD_STORAGE=s3 cannot store files", "INKCARD_S3_ENDPOINT"
    )
    assert "inkcard-test-secret" not in line  # the fixture's secret key
    missing = {**nowhere, "INKCARD_S3_ENDPOINT": s3, "INKCARD_S3_BUCKET": "no-such-bucket"}
    assert_refused_in_one_line(run_cli(["serve"], missing), "(NoSuchBucket)")
    key = run_cli(["keys", "create", "--name", "agent"], missing).stdout.strip()
    assert key.startswith("ik_")  # the key is live: the bucket is what stops `mcp`
    assert_refused_in_one_line(run_cli(["mcp", "--api-key", key], missing), "(NoSuchBucket)")


# -- a private bucket ---------------------------------------------------------------------------

PRIVATE_BUCKET = "inkcard-private"


@contextmanager
def serving(env: dict[str, str]) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """A real `inkcard serve` with ``env``; yields its base URL and process once it answers
    /healthz."""
    base = f"http://127.0.0.1:{env['INKCARD_PORT']}"
    command = [sys.executable, "-m", "inkcard.app.cli", "serve"]
    with subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    ) as server:
        try:
            deadline = time.monotonic() + START_TIMEOUT_S
            while time.monotonic() < deadline and server.poll() is None:
                try:
                    if httpx.get(f"{base}/healthz", timeout=5).status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.2)
            assert server.poll() is None, "the server ended"
            yield base, server
        finally:
            server.terminate()
            server.wait(timeout=60)


def ready_answer(base: str, want: int, seconds: float = 90) -> dict[str, Any]:
    """/readyz's body once it answers ``want`` (its answers are cached for 5 s)."""
    deadline = time.monotonic() + seconds
    while True:
        answer = httpx.get(f"{base}/readyz", timeout=30)
        if answer.status_code == want or time.monotonic() > deadline:
            assert answer.status_code == want, answer.text
            return dict(answer.json())
        time.sleep(0.5)


def warnings_of(server: subprocess.Popen[str], until: str) -> list[str]:
    """The messages of the server's JSON warning lines, read up to a line holding ``until``."""
    assert server.stderr is not None
    found = []
    for line in server.stderr:
        if line.startswith("{"):
            record = json.loads(line)
            if record["level"] == "WARNING":
                found.append(record["msg"])
            if until in record["msg"]:
                return found
    raise AssertionError(f"the server ended before logging {until!r}")


def test_a_private_bucket_is_reported_at_start_and_by_readyz(s3: str, tmp_path: Path) -> None:
    """Objects are stored fine, but their URLs answer 403: the service starts with a warning
    and is not ready, saying what to set; once the bucket is readable, it is ready."""
    import boto3

    client = boto3.client("s3", endpoint_url=s3, region_name="us-east-1")
    client.create_bucket(Bucket=PRIVATE_BUCKET)
    env = environment(
        tmp_path,
        INKCARD_STORAGE="s3",
        INKCARD_S3_BUCKET=PRIVATE_BUCKET,
        INKCARD_S3_ENDPOINT=s3,
        INKCARD_BOOTSTRAP_KEY="0",
    )
    with serving(env) as (base, server):
        [warning] = warnings_of(server, until="started")
        assert "URLs answer 403" in warning and "not publicly readable" in warning
        assert "INKCARD_PUBLIC_URL" in warning
        body = ready_answer(base, 503)
        assert body["error"] == "not_ready"
        assert "not publicly readable" in body["message"]
        assert "s3:GetObject" in body["message"] and "INKCARD_PUBLIC_URL" in body["message"]
        client.put_bucket_policy(Bucket=PRIVATE_BUCKET, Policy=public_read_policy(PRIVATE_BUCKET))
        assert ready_answer(base, 200)["storage"] == "writable"
    assert client.list_objects_v2(Bucket=PRIVATE_BUCKET).get("Contents", []) == []  # probes gone


def test_a_readable_bucket_starts_without_a_warning(s3: str, tmp_path: Path) -> None:
    from tests.app.conftest import S3_BUCKET

    env = environment(
        tmp_path,
        INKCARD_STORAGE="s3",
        INKCARD_S3_BUCKET=S3_BUCKET,
        INKCARD_S3_ENDPOINT=s3,
        INKCARD_BOOTSTRAP_KEY="0",
    )
    with serving(env) as (base, server):
        assert warnings_of(server, until="started") == []
        assert ready_answer(base, 200)["status"] == "ready"
