"""Two replicas, one ledger: two ``inkcard serve`` processes on one PostgreSQL database and the
GCS emulator take a storm of paid requests spread over both; one is ``kill -9``ed mid-way.

Every request carries its own ``X-Request-Id``, which the ledger keeps on its rows, so each
answer can be matched to what it cost: every 200 was charged exactly once, every other answer
nothing, a request cut short by the kill at most once (its work may have finished just before
the kill took its answer), balances equal their ledger sums, and the surviving replica's
``/metrics`` counts exactly the requests and credits it answered.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from typing import Any

import httpx
from google.cloud import storage as gcs
from prometheus_client.parser import text_string_to_metric_families

from inkcard.app.ledger.credits import Credits
from tests.app.apphelpers import free_port, wait_until_ok
from tests.app.conftest import GCS_BUCKET
from tests.app.dbhelpers import table_rows

CLIENTS = 8
REQUESTS_PER_CLIENT = 40  # 320 paid requests in all
INITIAL = (100, 100, 100, 25)  # the last key runs out: 402s mix into the storm
KILL_AFTER = 100  # answers seen before replica B dies
ANSWERED = {200, 402, 503, 504}  # a 500, or anything else, fails the test


class Replica:
    """One ``inkcard serve`` process on a loopback port."""

    def __init__(self, env: dict[str, str]):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        cmd = [sys.executable, "-m", "inkcard.app.cli", "serve", "--host", "127.0.0.1"]
        self.proc = subprocess.Popen(
            [*cmd, "--port", str(self.port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def wait_ready(self) -> None:
        wait_until_ok(f"{self.base}/readyz", 60)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        if self.alive():
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def scrape(self) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
        text = httpx.get(f"{self.base}/metrics", timeout=10).text
        return {
            (sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text)
            for sample in family.samples
        }


def _env(database: str, emulator: str) -> dict[str, str]:
    return {
        **os.environ,
        "INKCARD_DATABASE": database,
        "INKCARD_STORAGE": "gcs",
        "INKCARD_GCS_BUCKET": GCS_BUCKET,
        "INKCARD_GCS_PROJECT": "test",
        "STORAGE_EMULATOR_HOST": emulator,
        "INKCARD_BOOTSTRAP_KEY": "0",
        "INKCARD_GENERATE_COST": "1",
        "INKCARD_REQUESTS_PER_MINUTE": "0",  # the storm is many calls a minute per key
        "INKCARD_TIMEOUT": "8",  # holds of the killed replica expire 8 + 0.5 + 5 s after
        "INKCARD_ARTICLE_TIMEOUT": "8",  # (a hold lasts as long as the longest operation)
        "INKCARD_DATABASE_BUSY_TIMEOUT": "0.5",
        "INKCARD_RENDER_PROCESSES": "1",
        "INKCARD_RENDER_QUEUE": str(CLIENTS),
        "INKCARD_LOG_LEVEL": "WARNING",
    }


class Outcome:
    """What one client saw: (request id, replica index, status or None when cut off)."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, int, int | None]] = []
        self.lock = threading.Lock()

    def add(self, request_id: str, replica: int, status: int | None) -> None:
        with self.lock:
            self.rows.append((request_id, replica, status))

    def answered(self) -> int:
        with self.lock:
            return sum(1 for _, _, status in self.rows if status is not None)


def _client(n: int, key: str, replicas: list[Replica], outcome: Outcome) -> None:
    """Paid requests one after another, alternating replicas as a round-robin balancer
    would; a replica that stopped answering is left out from then on."""
    with httpx.Client(timeout=60) as http:
        for i in range(REQUESTS_PER_CLIENT):
            live = [r for r, replica in enumerate(replicas) if replica.alive()]
            r = live[(n + i) % len(live)]
            request_id = f"storm-{n}-{i}"
            body = {"markdown": f"# Client {n}, call {i}\n\nA card of its own, 第{i}张。"}
            headers = {"x-api-key": key, "x-request-id": request_id}
            try:
                response = http.post(f"{replicas[r].base}/api/generate", json=body, headers=headers)
            except httpx.TransportError:
                outcome.add(request_id, r, None)
                continue
            outcome.add(request_id, r, response.status_code)


def _kill_mid_storm(victim: Replica, credits: Credits, outcome: Outcome) -> None:
    """SIGKILL replica B once enough answers came back and calls are in flight."""
    deadline = time.monotonic() + 180
    while outcome.answered() < KILL_AFTER or credits.open_holds() < 1:
        assert time.monotonic() < deadline, "the storm never got under way"
        assert victim.alive(), "replica B stopped by itself"
        time.sleep(0.005)
    victim.kill()


def _net_charges(database: str) -> dict[str, int]:
    """Credits each request id was charged in the end: its debits less their refunds."""
    rows = table_rows(
        database,
        "SELECT d.request_id, -d.delta - COALESCE(SUM(r.delta), 0) FROM ledger d"
        " LEFT JOIN ledger r ON r.ref_debit_id = d.id"
        " WHERE d.kind = 'debit' GROUP BY d.id, d.request_id, d.delta",
    )
    charges: Counter[str] = Counter()
    for request_id, charged in rows:
        charges[str(request_id)] += int(charged)  # type: ignore[call-overload]  # a DB integer
    return dict(charges)


def _metric(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_two_replicas_one_killed_charge_every_answer_once(postgres: Any, emulator: str) -> None:
    database = postgres.new_database()
    try:
        _storm(database, emulator)
    finally:
        postgres.drop_database(database)  # and this process's pool with it: no thread lingers


def _storm(database: str, emulator: str) -> None:
    credits = Credits(database)
    keys = [credits.create_key(f"storm{n}", amount) for n, amount in enumerate(INITIAL)]
    env = _env(database, emulator)
    replicas = [Replica(env), Replica(env)]
    try:
        for replica in replicas:
            replica.wait_ready()
        same = {"markdown": "# 同一张卡\n\nThe same request, on either replica."}
        names = []
        for r, replica in enumerate(replicas):
            headers = {"x-api-key": keys[0][0], "x-request-id": f"same-{r}"}
            answer = httpx.post(
                f"{replica.base}/api/generate", json=same, headers=headers, timeout=60
            )
            assert answer.status_code == 200, answer.text
            names.append([image["fileName"] for image in answer.json()["images"]])
        assert names[0] == names[1] and names[0], names  # identical requests, identical files

        outcome = Outcome()
        threads = [
            threading.Thread(target=_client, args=(n, keys[n % len(keys)][0], replicas, outcome))
            for n in range(CLIENTS)
        ]
        for thread in threads:
            thread.start()
        try:
            before_kill = replicas[1].scrape()
            _kill_mid_storm(replicas[1], credits, outcome)
        finally:
            for thread in threads:
                thread.join(timeout=300)
        assert (
            _metric(before_kill, "inkcard_requests_total", route="/api/generate", status="200") >= 1
        )

        deadline = time.monotonic() + 60  # replica A's sweep frees the dead replica's holds
        while credits.open_holds():
            assert time.monotonic() < deadline, "the holds of the killed replica were never freed"
            time.sleep(0.2)
        survivor = replicas[0].scrape()
    finally:
        for replica in replicas:
            replica.kill()

    rows = outcome.rows
    assert len(rows) == CLIENTS * REQUESTS_PER_CLIENT
    statuses = Counter(status for _, _, status in rows)
    assert set(statuses) <= ANSWERED | {None}, statuses
    assert statuses[None] >= 1, "the kill cut no call short"
    assert statuses[402] >= 1 and statuses[200] >= 150, statuses

    charges = _net_charges(database)
    for request_id, _, status in rows:
        charged = charges.get(request_id, 0)
        if status == 200:
            assert charged == 1, (request_id, charged)
        elif status is None:
            assert charged in (0, 1), (request_id, charged)
        else:
            assert charged == 0, (request_id, status, charged)
    # The same call on the other replica is a retry: the shared database replays it, free.
    assert charges.pop("same-0") == 1 and charges.pop("same-1", 0) == 0
    assert set(charges) <= {request_id for request_id, _, _ in rows}
    for k, ((_, info), initial) in enumerate(zip(keys, INITIAL, strict=True)):
        clients = {f"storm-{n}-" for n in range(CLIENTS) if n % len(keys) == k}
        paid = sum(c for rid, c in charges.items() if rid[: rid.rindex("-") + 1] in clients)
        paid += 1 if k == 0 else 0  # the "same" call, charged once
        balance = credits.key_info(info.prefix).balance
        assert balance == initial - paid == credits.ledger_sum(info.id), (k, balance, paid)

    from_a = Counter(status for _, r, status in rows if r == 0 and status is not None)
    for status, count in from_a.items():
        seen = _metric(
            survivor, "inkcard_requests_total", route="/api/generate", status=str(status)
        )
        assert seen == count + (1 if status == 200 else 0), (status, seen, count)  # + "same"
    debited = _metric(survivor, "inkcard_credits_debited_total", operation="generate")
    assert debited == from_a[200] + 1

    bucket = gcs.Client(project="test").bucket(GCS_BUCKET)
    stored = {blob.name for blob in bucket.list_blobs()}
    assert set(names[0]) <= stored
    assert len([n for n in stored if n.endswith(".png")]) >= statuses[200]
