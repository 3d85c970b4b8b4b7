"""The Containerfile, built and started on this machine by scripts/container-check.sh: a
debootstrap stand-in for the FROM image, `podman build --isolation=chroot`, then the image's
CMD under chroot answering /healthz and drawing a card with the key it printed, the pruned
packages used inside the image, and one more start per storage and database engine (moto's
S3 API, a GCS emulator and a PostgreSQL on loopback). The check's report (the image's size,
its largest layers and packages, the time to /healthz) goes to tests/_output/, which
.ci/run prints after pytest."""

from __future__ import annotations

import json
import os
import re
import socket
import struct
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import httpx
import psycopg
import pytest
from gcp_storage_emulator.server import create_server

from tests.pgserver import PostgresServer

REPO = Path(__file__).resolve().parents[1]
REPORT = REPO / "tests" / "_output" / "container-report.txt"
# On the 130 MB stand-in base the image weighed 516 MB on 2026-11-23 and 565 MB on
# 2026-12-02 (boto3 and botocore 27 MB, psycopg 13 MB, rjieba, pyyaml, grandalf); with
# scripts/prune-venv.sh it weighs 499 MB. 510 MB leaves room for dependency updates, yet
# fails if the prune stops working (botocore's unused models alone are 22 MB) or if Mesa's
# drivers (~200 MB, behind Debian's libegl1/libgl1) or pip and apt caches come back.
# 2026-12-04: +10 MB for Pillow (22 MB installed, 12 after its prune), which packs PNG rows
# so that a render worker no longer imports numpy (its peak 142-146 -> 119-126 MB): the
# image measured 489-502 MB before it.
MAX_IMAGE_BYTES = 520_000_000
# A cold run (apt, debootstrap, every wheel downloaded) took 5 minutes here on a busy
# machine, a run after a change to our sources 1.5 minutes (four starts of the service); a
# stuck build or server must fail the test, not hang it.
CHECK_TIMEOUT_S = 1200
BUCKET = "inkcard-container-check"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def s3_endpoint() -> Iterator[str]:
    """moto's S3 API on loopback holding an empty BUCKET whose objects anyone may read, as a
    bucket serving cards is set up (the check fetches the card from its URL); yields its URL."""
    from moto.server import ThreadedMotoServer  # loaded by this test only

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    try:
        client = s3_client(endpoint)
        client.create_bucket(Bucket=BUCKET)
        public_read = {
            "Version": "2012-10-17",
            "Statement": [
                {
                    "Effect": "Allow",
                    "Principal": "*",
                    "Action": "s3:GetObject",
                    "Resource": f"arn:aws:s3:::{BUCKET}/*",
                }
            ],
        }
        client.put_bucket_policy(Bucket=BUCKET, Policy=json.dumps(public_read))
        yield endpoint
    finally:
        server.stop()


@pytest.fixture
def gcs_endpoint() -> Iterator[str]:
    """An in-memory GCS emulator on loopback holding an empty BUCKET; yields its URL."""
    port = free_port()
    server = create_server("127.0.0.1", port, in_memory=True, default_bucket=BUCKET)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """An empty database (no tables: the image migrates it) on a PostgreSQL on loopback."""
    server = PostgresServer()
    try:
        server.start()
        yield server.new_database(migrated=False)
    finally:
        server.stop()


def run_check(card: Path, environment: dict[str, str]) -> str:
    with subprocess.Popen(
        [str(REPO / "scripts" / "container-check.sh"), str(card)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=environment,
    ) as check:
        try:
            output, _ = check.communicate(timeout=CHECK_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            check.terminate()  # SIGTERM lets the script stop its server and unmount
            output, _ = check.communicate(timeout=120)
            pytest.fail(f"container-check.sh took over {CHECK_TIMEOUT_S} s:\n{explained(output)}")
    assert check.returncode == 0, explained(output)
    return output


def explained(output: str) -> str:
    """The check's own lines, then the end of what it printed (a server's log on failure)."""
    steps = [line for line in output.splitlines() if line.startswith("container-check:")]
    return "\n".join(steps) + "\n...\n" + output[-2000:]


def s3_client(endpoint: str) -> Any:
    """A client of moto's S3 API with throwaway keys (moto takes any)."""
    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="inkcard-check",
        aws_secret_access_key="inkcard-check-secret",
    )


def stored_in_s3(endpoint: str) -> list[str]:
    listed = s3_client(endpoint).list_objects_v2(Bucket=BUCKET)
    return [item["Key"] for item in listed.get("Contents", [])]


def stored_in_gcs(endpoint: str) -> list[str]:
    listed = httpx.get(f"{endpoint}/storage/v1/b/{BUCKET}/o").raise_for_status().json()
    return [item["name"] for item in listed.get("items", [])]


@pytest.mark.slow
def test_the_image_builds_starts_and_draws_a_card_on_every_engine(
    tmp_path: Path,
    s3_endpoint: str,
    gcs_endpoint: str,
    postgres_url: str,
) -> None:
    card = tmp_path / "card.png"
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.unlink(missing_ok=True)
    environment = {
        **os.environ,
        "INKCARD_CHECK_S3": f"{s3_endpoint}/{BUCKET}",
        "INKCARD_CHECK_GCS": f"{gcs_endpoint}/{BUCKET}",
        "INKCARD_CHECK_POSTGRES": postgres_url,
        "INKCARD_CHECK_REPORT": str(REPORT),
    }
    output = run_check(card, environment)

    assert "/healthz answered" in output
    runs_as = re.search(r"the server runs as uid (\d+)", output)
    assert runs_as and runs_as.group(1) != "0", explained(output)
    assert "/schema and its 3 files are served" in output
    # The default start (local files, SQLite) and one per engine each made a card.
    assert output.count("made with the printed key") == 4, explained(output)
    assert "sts/sso/sso-oidc/signin clients build" in output
    assert "polyfactory/faker examples, pyphen en_US, numpy work" in output

    png = card.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    # The default card: 440 × 586 at the default scale 2.
    assert struct.unpack(">II", png[16:24]) == (880, 1172)

    # The engine runs stored their cards where the engines say, and PostgreSQL got the keys.
    assert any(name.endswith(".png") for name in stored_in_s3(s3_endpoint))
    assert any(name.endswith(".png") for name in stored_in_gcs(gcs_endpoint))
    with psycopg.connect(postgres_url) as connection:
        (keys,) = connection.execute("SELECT count(*) FROM api_keys").fetchone() or (0,)
    assert keys == 1

    found = re.search(r"image size: (\d+) bytes", output)
    assert found, output
    assert int(found.group(1)) < MAX_IMAGE_BYTES
    report = REPORT.read_text()
    assert f"image size: {found.group(1)} bytes" in report
    assert re.search(r"largest layers:\n\s+[\d.]+ MB\s+COPY in /app/\.venv", report), report
    assert "/healthz answered" in report
