"""What a dead process left in flight (credit holds, running retry claims) is released as soon
as another process can prove it dead, never while it lives: on one SQLite file and on one
PostgreSQL database.

Processes here are real: a child process that keeps its liveness lock and holds credits, then
is ``kill -9``ed; and a real ``inkcard serve`` killed with SIGKILL mid-request, a replica
started beside it while it lived, and its restart on the same database.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from inkcard.app.ledger.credits import Credits
from inkcard.app.ledger.idempotency import IdempotencyStore
from inkcard.app.ledger.owners import Owner, owner_name, release_gone_owners
from tests.app.conftest import both_engines
from tests.app.dbhelpers import table_rows
from tests.app.servehelpers import Serve, wait_for
from tests.fakewechat import FakeWeChat

pytestmark = both_engines

REPO = Path(__file__).resolve().parents[2]
APPID = "wx5f1d2c3b4a596870"
SECRET = "0123456789abcdef0123456789abcdef"
GENERATE = "/api/generate"
ARTICLE = "/api/platform/convert-and-draft"
COVER = "/cgi-bin/material/add_material"
TIMEOUT = 120  # INKCARD_TIMEOUT of the served test: its holds outlive the whole test

# A process that names itself, takes its liveness lock, holds 3 credits of key 1 and claims a
# retry key, says so, and waits to be killed.
HOLDER = """
import sys, time
from inkcard.app.ledger.credits import Credits
from inkcard.app.ledger.idempotency import IdempotencyStore
from inkcard.app.ledger.owners import Owner, owner_name

database, key_id = sys.argv[1], int(sys.argv[2])
name = owner_name()
credits = Credits(database, owner=name)
claims = IdempotencyStore(database, retention=60, running=600, busy_timeout=5, owner=name)
owner = Owner(credits, name)  # kept: its lock lives as long as it does
owner.start()
credits.reserve(key_id, 3, "test", "held-by-child")
claims.claim(key_id, "child-key", "print")
print(name, flush=True)
time.sleep(600)
"""


def _holder(database: str, key_id: int) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / ".dev"), str(REPO)])}
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER, database, str(key_id)],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    name = child.stdout.readline().strip()
    assert name, "the holder never started"
    return child, name


def test_a_live_process_keeps_its_holds_and_a_dead_ones_are_released_at_once(
    database: str,
) -> None:
    me = owner_name()
    credits = Credits(database, owner=me, request_deadline=600)
    credits.ensure_schema()
    claims = IdempotencyStore(database, retention=60, running=600, busy_timeout=5, owner=me)
    _, info = credits.create_key("shared", 10)
    mine = Owner(credits, me)
    mine.start()
    try:
        own_hold = credits.reserve(info.id, 2, "test", "held-by-me")
        child, child_name = _holder(database, info.id)
        try:
            assert credits.owners_holding() == sorted([me, child_name])
            # Both alive: neither may release the other's hold, however often it looks.
            for _ in range(3):
                assert release_gone_owners(credits, claims, me).holds == 0
            assert credits.open_holds() == 2 and credits.key_info(info.prefix).balance == 5
        finally:
            os.kill(child.pid, signal.SIGKILL)
            child.wait(timeout=30)
            assert child.stdout is not None
            child.stdout.close()
        settled = _once_the_server_sees_it_gone(credits, claims, me)
        assert settled == (1, 1, 1)  # one owner, its hold and its running claim
        assert credits.owners_holding() == [me] and credits.open_holds() == 1
        assert credits.key_info(info.prefix).balance == 8 == credits.ledger_sum(info.id)
        assert claims.claim(info.id, "child-key", "print") is None  # free again at once
        assert release_gone_owners(credits, claims, me) == (0, 0, 0)  # settled once
        assert credits.commit(own_hold)  # this process's own hold was never touched
    finally:
        mine.close()


def _once_the_server_sees_it_gone(credits: Credits, claims: IdempotencyStore, me: str):
    """`release_gone_owners` once the database has seen the killed holder go: PostgreSQL
    drops a backend's session lock when it reads the closed socket, a moment after the
    kill on a loaded machine (the sweep then found it still alive: (0, 0, 0))."""
    deadline = time.monotonic() + 20
    settled = release_gone_owners(credits, claims, me)
    while settled == (0, 0, 0) and time.monotonic() < deadline:
        time.sleep(0.05)
        settled = release_gone_owners(credits, claims, me)
    return settled


def test_holds_of_no_known_owner_wait_for_their_deadline(database: str) -> None:
    credits = Credits(database, request_deadline=600)  # names no owner (a hold of before)
    credits.ensure_schema()
    claims = IdempotencyStore(database, retention=60, running=600, busy_timeout=5)
    _, info = credits.create_key("old", 5)
    credits.reserve(info.id, 1, "test", None)
    assert release_gone_owners(credits, claims, None) == (0, 0, 0)
    assert credits.open_holds() == 1


@pytest.fixture
def platform() -> Iterator[FakeWeChat]:
    with FakeWeChat({APPID: SECRET}) as fake:
        yield fake


def _post(serve: Serve, key: str, path: str, body: dict[str, object]) -> httpx.Response:
    headers = {"x-api-key": key, "platform-appid": APPID, "platform-app-secret": SECRET}
    return httpx.post(f"{serve.base}{path}", json=body, headers=headers, timeout=60)


def _try_post(serve: Serve, key: str, path: str, body: dict[str, object]) -> int | None:
    try:
        return _post(serve, key, path, body).status_code
    except httpx.TransportError:
        return None


def test_a_restarted_serve_releases_what_its_killed_incarnation_left(
    database: str, tmp_path: Path, platform: FakeWeChat
) -> None:
    settings = {
        "INKCARD_GENERATE_COST": "1",
        "INKCARD_TIMEOUT": str(TIMEOUT),
        "INKCARD_ARTICLE_TIMEOUT": str(TIMEOUT),
        "INKCARD_WECHAT_TIMEOUT": str(TIMEOUT - 10),  # the held platform call holds that long
        "INKCARD_WECHAT_API_BASE": platform.url,
    }
    first = Serve(tmp_path / "a", database, **settings)
    key, prefix = first.key(10)
    spent_on_answers = 0
    first.start()
    replica: Serve | None = None
    again: Serve | None = None
    try:
        for n in range(2):
            card = _post(first, key, GENERATE, {"markdown": f"# Answered {n}", "scale": 1})
            assert card.status_code == 200, card.text
            spent_on_answers += 1
        platform.slow(COVER, TIMEOUT)  # the draft's cover upload: held until the kill
        draft = {"markdown": "# Cut short by a kill"}
        cut: list[int | None] = []
        thread = threading.Thread(target=lambda: cut.append(_try_post(first, key, ARTICLE, draft)))
        thread.start()
        wait_for(lambda: platform.hits[COVER] == 1 and first.credits.open_holds() == 1, "no hold")
        ((deadline,),) = table_rows(database, "SELECT expires_at FROM holds")
        assert float(deadline) > time.time() + TIMEOUT - 10  # type: ignore[arg-type]  # a REAL

        # A replica starting beside a live process leaves its hold alone.
        replica = Serve(tmp_path / "b", database, **settings).start()
        assert first.credits.open_holds() == 1
        replica.stop()

        first.kill()
        thread.join(timeout=30)
        assert cut == [None]  # the client never got an answer
        assert first.credits.open_holds() == 1  # left by the dead process

        again = Serve(tmp_path / "a", database, **settings).start()
        assert again.credits.open_holds() == 0  # released at start-up,
        assert time.time() < float(deadline)  # type: ignore[arg-type]  # long before its deadline
        assert 10 - again.balance(prefix) == spent_on_answers  # spent == answered
        metrics = httpx.get(f"{again.base}/metrics", timeout=10).text
        assert "inkcard_credit_holds_of_dead_processes_total 1.0" in metrics

        # Its retry claim was dropped too: the client's retry runs at once, charged once.
        platform.clear()
        retry = _post(again, key, ARTICLE, draft)
        assert retry.status_code == 200, retry.text
        assert "idempotent-replayed" not in retry.headers
        spent_on_answers += 3
        assert 10 - again.balance(prefix) == spent_on_answers
    finally:
        for serve in (first, replica, again):
            if serve is not None:
                serve.stop()
