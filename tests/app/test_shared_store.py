"""What several processes or replicas on one database share, on both engines: migrations
applied once, one platform-token fetch per deployment, per-key request limits."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from inkcard.app.ledger.database import open_store
from inkcard.app.ledger.migrations import MIGRATIONS
from inkcard.app.ledger.ratelimit import RequestLimit
from tests.app.apphelpers import new_key
from tests.app.conftest import both_engines
from tests.fakewechat import FakeWeChat

pytestmark = both_engines

REPO = Path(__file__).resolve().parents[2]
APPID = "wx5f1d2c3b4a596870"
SECRET = "0123456789abcdef0123456789abcdef"
TOKEN_PATH = "/cgi-bin/stable_token"
Client = TestClient[Litestar]


def spawn(code: str, *args: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO / ".dev")}
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def finish(*procs: subprocess.Popen[bytes]) -> list[str]:
    """Every process's output, once all have ended (one failing leaves none running on)."""
    # The timeout only keeps a hang from hanging CI.
    ended = [(proc, *proc.communicate(timeout=300)) for proc in procs]
    for proc, _, err in ended:
        assert proc.returncode == 0, err.decode()
    return [out.decode().strip() for _, out, _ in ended]


def wait_for(done: Callable[[], bool], what: str) -> None:
    for _ in range(30_000):  # bounded wait (about five minutes), not a timed assertion
        if done():
            return
        time.sleep(0.01)
    raise AssertionError(f"never saw {what}")


# Migrations

MIGRATE = """
import sys, time
from pathlib import Path
from inkcard.app.ledger.database import open_store
go = Path(sys.argv[2])
while not go.exists():
    time.sleep(0.001)
print(open_store(sys.argv[1], busy_timeout=60).migrate())
"""


@pytest.fixture
def empty_database(engine: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A database without any table yet (a first deployment)."""
    if engine == "sqlite":
        yield str(tmp_path / "fresh.db")
        return
    server = request.getfixturevalue("postgres")
    url = server.new_database(migrated=False)
    try:
        yield url
    finally:
        server.drop_database(url)


def test_replicas_starting_together_apply_each_migration_once(
    empty_database: str, tmp_path: Path
) -> None:
    go = tmp_path / "go"
    procs = [spawn(MIGRATE, empty_database, str(go)) for _ in range(4)]
    go.touch()
    applied = sorted(finish(*procs))
    every = str([m.version for m in MIGRATIONS])
    assert applied == sorted(
        ["[]", "[]", "[]", every]
    )  # one replica migrated, the others found it done
    store = open_store(empty_database)
    with store.read() as db:
        rows = db.execute("SELECT version FROM schema_migrations ORDER BY version").fetchall()
        (windows,) = db.execute("SELECT count(*) FROM rate_windows").fetchone()
    assert [v for (v,) in rows] == [m.version for m in MIGRATIONS] and windows == 0
    assert store.migrate() == []  # a later start finds nothing to do


# The platform token: one fetch per deployment

FETCH = """
import asyncio, sys
from pathlib import Path
from inkcard.app.articles.wechat.tokens import TokenCache
from inkcard.app.articles.wechat import Credentials, WeChatClient
database, url, go, ready = sys.argv[1], sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4])

async def main():
    async with WeChatClient(url, TokenCache(database), timeout=60) as client:
        ready.touch()
        while not go.exists():
            await asyncio.sleep(0.001)
        print(await client.stable_token(Credentials(sys.argv[5], sys.argv[6])))

asyncio.run(main())
"""


def test_processes_needing_a_token_at_once_fetch_it_once(database: str, tmp_path: Path) -> None:
    open_store(database).migrate()
    with FakeWeChat({APPID: SECRET}) as platform:
        platform.stall(TOKEN_PATH)  # the first fetch hangs while the others arrive
        go = tmp_path / "go"
        readies = [tmp_path / f"ready-{n}" for n in range(4)]
        procs = [
            spawn(FETCH, database, platform.url, str(go), str(ready), APPID, SECRET)
            for ready in readies
        ]
        wait_for(lambda: all(r.exists() for r in readies), "every process ready")
        go.touch()
        wait_for(lambda: platform.hits[TOKEN_PATH] >= 1, "the first token request")
        time.sleep(0.5)  # room for the others to reach the platform too, were they not waiting
        platform.clear()
        platform._release.set()  # let the stalled request answer
        tokens = set(finish(*procs))
    assert platform.hits[TOKEN_PATH] == 1
    assert len(tokens) == 1 and next(iter(tokens)).startswith("ACCESS_")


# Per-key request limits

MID_MINUTE = 1_800_000_030.0  # a clock half-way through a minute: 30 s before it turns


def clock_stopped_mid_minute(monkeypatch: pytest.MonkeyPatch, *clients: Client) -> None:
    """Every client's per-minute limit reads one fixed time, half-way through a minute: the
    test's calls fall in one window, wherever the real clock is in its minute."""
    for client in clients:
        monkeypatch.setattr(client.app.state.services.limits, "clock", lambda: MID_MINUTE)


def test_two_replicas_on_one_database_share_a_keys_minute(
    make_client: Callable[..., Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = make_client(requests_per_minute=3, generate_cost=1)
    second = make_client(requests_per_minute=3, generate_cost=1)
    key = new_key(first, credits=10)
    headers = {"x-api-key": key}
    clock_stopped_mid_minute(monkeypatch, first, second)
    answers = [  # four different cards: an identical call would be a replay, never limited
        replica.post("/api/generate", json={"markdown": f"# {n}"}, headers=headers)
        for n, replica in enumerate((first, second, first, second))
    ]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    limited = answers[-1]
    assert limited.json()["error"] == "rate_limited"
    assert int(limited.headers["retry-after"]) == 30  # the rest of the stopped clock's minute
    credits = first.app.state.services.credits
    assert credits.key_info(key[:8]).balance == 7  # the limited call charged nothing
    assert [row.kind for row in credits.ledger(key[:8])] == ["debit"] * 3 + ["grant"]
    other = new_key(second, credits=10)  # another key has its own minute
    assert first.post("/api/generate", json={}, headers={"x-api-key": other}).status_code == 200


def test_the_limit_covers_convert_and_draft_but_never_a_replay(
    make_client: Callable[..., Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    client = make_client(requests_per_minute=2, generate_cost=1)  # a free generate: not counted
    key = new_key(client, credits=10)
    body = {"markdown": "# Hello\n\ntext"}
    clock_stopped_mid_minute(monkeypatch, client)
    first = client.post(
        "/api/platform/convert-and-draft",
        json=body,
        headers={"x-api-key": key, "idempotency-key": "a"},
    )
    assert first.status_code == 200, first.text
    assert client.post("/api/generate", json={}, headers={"x-api-key": key}).status_code == 200
    replay = client.post(
        "/api/platform/convert-and-draft",
        json=body,
        headers={"x-api-key": key, "idempotency-key": "a"},
    )
    assert replay.status_code == 200 and replay.headers["idempotent-replayed"] == "true"
    fresh = client.post(
        "/api/platform/convert-and-draft",
        json=body,
        headers={"x-api-key": key, "idempotency-key": "b"},
    )
    assert fresh.status_code == 429 and fresh.json()["error"] == "rate_limited"
    assert "retry-after" in fresh.headers
    credits = client.app.state.services.credits
    assert credits.key_info(key[:8]).balance == 8  # the first conversion and the generate
    again = client.post(
        "/api/platform/convert-and-draft",
        json=body,
        headers={"x-api-key": key, "idempotency-key": "b"},
    )
    assert again.status_code == 429  # the limited call left no claim behind (not 409)


def test_a_new_minute_opens_a_new_window(database: str) -> None:
    open_store(database).migrate()
    now = [120.0 * 1000]
    limit = RequestLimit(database, 2, clock=lambda: now[0])
    limit.admit(7)
    now[0] += 59.0
    limit.admit(7)
    from inkcard.app.errors import RateLimited

    with pytest.raises(RateLimited) as caught:
        limit.admit(7)
    assert caught.value.headers == {"Retry-After": "1"}
    now[0] += 1.0  # the clock minute turns
    limit.admit(7)
    limit.admit(7)
    with open_store(database).read() as db:
        rows = db.execute("SELECT window_start, hits FROM rate_windows").fetchall()
    assert [tuple(row) for row in rows] == [(120_060, 2)]  # the past window's row is gone


def test_zero_means_no_limit(database: str) -> None:
    open_store(database).migrate()
    limit = RequestLimit(database, 0)
    for _ in range(100):
        limit.admit(1)
    with open_store(database).read() as db:
        assert db.execute("SELECT count(*) FROM rate_windows").fetchone()[0] == 0


def test_the_sqlite_path_never_loads_psycopg(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from inkcard.app.ledger.credits import Credits\n"
        "from inkcard.app.articles.wechat.tokens import TokenCache\n"
        f"credits = Credits({str(tmp_path / 'x.db')!r})\n"
        "credits.ensure_schema()\n"
        "credits.create_key('k', 1)\n"
        f"TokenCache({str(tmp_path / 'x.db')!r}).get('a', 'b')\n"
        "print(sorted(m for m in sys.modules if m.startswith('psycopg')))\n"
    )
    assert finish(spawn(code)) == ["[]"]
