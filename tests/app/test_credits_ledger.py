"""The credit ledger: reserve/commit/release, expiry sweeps, a busy database, and the invariant
balance == ledger sum under threads and processes."""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar import Litestar
from litestar.testing import TestClient

from inkcard.app.errors import DatabaseBusy, InsufficientCredits
from inkcard.app.ledger.credits import Credits, looks_like_key
from inkcard.app.ledger.engine import StoreConflict
from tests.app.apphelpers import new_key, stored_files
from tests.app.conftest import both_engines
from tests.app.dbhelpers import age_every_hold as _age_every_hold
from tests.app.dbhelpers import write_locked as _write_locked

pytestmark = both_engines


def _credits(database: str, **options: float) -> Credits:
    credits = Credits(database, **options)
    credits.ensure_schema()
    return credits


def _kinds(credits: Credits, prefix: str) -> list[str]:
    return [row.kind for row in credits.ledger(prefix, limit=10_000)]


def _storm(path: str, key_id: int, attempts: int, cost: int) -> tuple[int, int, int]:
    """Reserve ``attempts`` times; release every third hold and commit the others.

    Returns (committed, refused, released)."""
    credits = Credits(path)
    committed = refused = released = 0
    for n in range(attempts):
        try:
            hold = credits.reserve(key_id, cost, "generate", None)
        except InsufficientCredits:
            refused += 1
            continue
        assert hold is not None
        if n % 3 == 0:
            assert credits.release(hold)
            released += 1
        else:
            assert credits.commit(hold)
            committed += 1
    return committed, refused, released


def test_balance_equals_ledger_sum_under_concurrent_processes(database: str) -> None:
    credits = _credits(database)
    _, info = credits.create_key("storm", 300)
    workers, attempts, cost = 4, 150, 3
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        results = pool.starmap(_storm, [(database, info.id, attempts, cost)] * workers)
    committed = sum(r[0] for r in results)
    released = sum(r[2] for r in results)
    assert sum(r[0] + r[1] + r[2] for r in results) == workers * attempts  # nothing "locked"
    final = credits.key_info(info.prefix)
    assert final.balance == credits.ledger_sum(info.id) == 300 - cost * committed
    assert 0 <= final.balance < cost  # the storm spent everything it could, and never more
    kinds = _kinds(credits, info.prefix)
    assert kinds.count("debit") == committed + released and kinds.count("refund") == released
    assert credits.open_holds() == 0


def test_threads_never_hold_the_same_credit_twice(database: str) -> None:
    credits = _credits(database)
    _, info = credits.create_key("race", 20)
    barrier = threading.Barrier(8)

    def reserve(n: int) -> int | None:
        if n < 8:
            barrier.wait()
        try:
            return credits.reserve(info.id, 1, "generate", f"r{n}")
        except InsufficientCredits:
            return None

    with ThreadPoolExecutor(8) as pool:
        holds = [hold for hold in pool.map(reserve, range(40)) if hold is not None]
    assert len(holds) == 20 == credits.open_holds()
    assert credits.key_info(info.prefix).balance == 0 == credits.ledger_sum(info.id)
    with ThreadPoolExecutor(8) as pool:  # settle each hold from two threads at once
        settled = list(pool.map(credits.release, holds + holds))
    assert settled.count(True) == 20  # each hold gives its credit back exactly once
    assert credits.key_info(info.prefix).balance == 20 == credits.ledger_sum(info.id)


def test_reserve_holds_commit_charges_release_gives_back(database: str) -> None:
    credits = _credits(database)
    _, info = credits.create_key("k", 5)
    hold = credits.reserve(info.id, 2, "generate", "r1")
    assert hold is not None
    assert credits.key_info(info.prefix).balance == 3 == credits.ledger_sum(info.id)
    assert _kinds(credits, info.prefix) == ["hold", "grant"]
    with pytest.raises(InsufficientCredits, match="costs 4 credits and the key's balance is 3"):
        credits.reserve(info.id, 4, "generate", "r2")
    assert credits.commit(hold)
    assert not credits.commit(hold) and not credits.release(hold)  # settled once only
    assert credits.key_info(info.prefix).balance == 3 == credits.ledger_sum(info.id)
    assert _kinds(credits, info.prefix) == ["debit", "grant"]
    second = credits.reserve(info.id, 1, "generate", "r3")
    assert second is not None
    assert credits.release(second)
    assert not credits.release(second) and not credits.commit(second)
    assert credits.key_info(info.prefix).balance == 3 == credits.ledger_sum(info.id)
    assert _kinds(credits, info.prefix) == ["refund", "debit", "debit", "grant"]
    assert credits.open_holds() == 0


def test_a_hold_can_be_committed_for_less(database: str) -> None:
    # Work that turns out cheaper than its hold is charged less; the rest is refunded.
    credits = _credits(database)
    _, info = credits.create_key("k", 3)
    hold = credits.reserve(info.id, 3, "convert", "r1")
    assert hold is not None
    with pytest.raises(ValueError, match="cannot commit 4"):
        credits.commit(hold, 4)
    assert credits.open_holds() == 1  # the refused commit changed nothing
    assert credits.commit(hold, 1)
    assert credits.key_info(info.prefix).balance == 2 == credits.ledger_sum(info.id)
    assert [(row.kind, row.delta) for row in credits.ledger(info.prefix)] == [
        ("refund", 2),
        ("debit", -3),
        ("grant", 3),
    ]
    with pytest.raises(InsufficientCredits, match="costs 3 credits and the key's balance is 2"):
        credits.reserve(info.id, 3, "convert", "r2")


def test_a_minimum_balance_is_checked_not_held(database: str) -> None:
    # An HTML-only article costs 1 and needs a balance of 3: one debit of 1, no refund.
    credits = _credits(database)
    _, info = credits.create_key("k", 4)
    hold = credits.reserve(info.id, 1, "convert", "r1", minimum=3)
    assert hold is not None
    assert credits.key_info(info.prefix).balance == 3 == credits.ledger_sum(info.id)
    assert credits.commit(hold)
    assert [(row.kind, row.delta) for row in credits.ledger(info.prefix)] == [
        ("debit", -1),
        ("grant", 4),
    ]
    with pytest.raises(InsufficientCredits, match="at least 4 credits; the key's balance is 3"):
        credits.reserve(info.id, 1, "convert", "r2", minimum=4)
    assert credits.reserve(info.id, 0, "convert", "r3", minimum=3) is None  # checked, free
    with pytest.raises(InsufficientCredits, match="balance is 3"):
        credits.reserve(info.id, 0, "convert", "r4", minimum=4)
    assert len(credits.ledger(info.prefix)) == 2 and credits.open_holds() == 0


def test_concurrent_calls_never_pass_the_minimum_on_held_credits(database: str) -> None:
    # Balance 5, each call costs 1 and needs 3: the holds of the others count, so exactly
    # three calls pass (5, 4, 3 before their debits) and the balance never goes under 2.
    credits = _credits(database)
    _, info = credits.create_key("race", 5)
    barrier = threading.Barrier(8)

    def reserve(n: int) -> int | None:
        barrier.wait()
        try:
            return credits.reserve(info.id, 1, "convert", f"r{n}", minimum=3)
        except InsufficientCredits:
            return None

    with ThreadPoolExecutor(8) as pool:
        holds = [hold for hold in pool.map(reserve, range(8)) if hold is not None]
    assert len(holds) == 3 == credits.open_holds()
    assert credits.key_info(info.prefix).balance == 2 == credits.ledger_sum(info.id)
    assert all(credits.commit(hold) for hold in holds)
    assert sorted(row.delta for row in credits.ledger(info.prefix)) == [-1, -1, -1, 5]


def test_the_sweep_releases_only_expired_holds(database: str) -> None:
    credits = _credits(database)
    _, info = credits.create_key("k", 10)
    dead = credits.reserve(info.id, 4, "generate", "died")
    assert dead is not None
    _age_every_hold(credits)
    alive = credits.reserve(info.id, 3, "generate", "running")
    assert alive is not None
    assert credits.key_info(info.prefix).balance == 3
    assert credits.release_expired() == 1
    assert credits.release_expired() == 0
    assert credits.key_info(info.prefix).balance == 7 == credits.ledger_sum(info.id)
    assert not credits.commit(dead)  # the dead request's late commit charges nothing
    assert credits.commit(alive)
    assert credits.key_info(info.prefix).balance == 7 == credits.ledger_sum(info.id)


def test_a_hold_expires_after_the_deadline_a_busy_wait_and_the_margin(database: str) -> None:
    credits = _credits(database, busy_timeout=2.0, request_deadline=10.0)
    assert credits.hold_seconds == 10.0 + 2.0 + 5.0
    _, info = credits.create_key("k", 1)
    before = time.time()
    credits.reserve(info.id, 1, "generate", None)
    after = time.time()
    with credits.store.read() as db:
        (expires_at,) = db.execute("SELECT expires_at FROM holds").fetchone()
    assert before + 17.0 <= expires_at <= after + 17.0


def test_start_up_releases_holds_of_a_dead_process(
    make_client: Callable[..., TestClient[Litestar]],
) -> None:
    credits: Credits = make_client(generate_cost=1).app.state.services.credits
    _, info = credits.create_key("k", 5)
    credits.reserve(info.id, 2, "generate", "died")
    _age_every_hold(credits)
    assert credits.open_holds() == 1
    make_client(generate_cost=1)  # a new worker's lifespan sweeps at start
    assert credits.open_holds() == 0
    assert credits.key_info(info.prefix).balance == 5 == credits.ledger_sum(info.id)


def test_zero_cost_writes_nothing(database: str) -> None:
    credits = _credits(database)
    _, info = credits.create_key("k", 0)
    assert credits.reserve(info.id, 0, "generate", None) is None
    assert credits.ledger(info.prefix) == [] and credits.open_holds() == 0


def test_ledger_is_append_only(database: str) -> None:
    credits = _credits(database)
    key, _ = credits.create_key("k", 5)
    for change in ("UPDATE ledger SET delta = 1000", "DELETE FROM ledger"):
        with pytest.raises(StoreConflict, match="append-only"), credits.store.write() as db:
            db.execute(change)
    assert [row.delta for row in credits.ledger(key[:8])] == [5]


def test_keys_have_the_documented_shape(database: str) -> None:
    credits = _credits(database)
    key, info = credits.create_key("k")
    assert looks_like_key(key) and len(key) == 35 and key.startswith("ik_")
    assert info.prefix == key[:8]
    assert credits.authenticate(key) == info


def test_a_locked_database_raises_busy_and_writes_nothing(database: str) -> None:
    credits = _credits(database, busy_timeout=0.2)
    key, info = credits.create_key("k", 5)
    with _write_locked(database):
        assert credits.authenticate(key) == info  # WAL readers are not blocked
        with pytest.raises(DatabaseBusy) as caught:
            credits.reserve(info.id, 1, "generate", None)
    assert caught.value.status == 503 and caught.value.label == "busy"
    assert caught.value.headers == {"Retry-After": "1"}
    assert credits.key_info(info.prefix).balance == 5 and _kinds(credits, info.prefix) == ["grant"]


def test_a_paid_request_on_a_locked_database_is_503_busy(
    make_client: Callable[..., TestClient[Litestar]], tmp_path: Path, database: str
) -> None:
    client = make_client(generate_cost=1, database_busy_timeout=0.5)
    credits: Credits = client.app.state.services.credits
    key = new_key(client, credits=5)
    with _write_locked(database):
        response = client.post("/api/generate", json={}, headers={"x-api-key": key})
    assert response.status_code == 503, response.text
    assert response.json()["error"] == "busy"
    assert response.headers["retry-after"] == "1"
    assert _kinds(credits, key[:8]) == ["grant"] and credits.open_holds() == 0
    assert stored_files(tmp_path / "files") == []
    after = client.post("/api/generate", json={}, headers={"x-api-key": key})
    assert after.status_code == 200  # the lock gone, the service works again
    assert credits.key_info(key[:8]).balance == 4


operations = st.lists(
    st.one_of(
        st.tuples(st.just("grant"), st.integers(1, 20)),
        st.tuples(st.just("reserve"), st.integers(0, 20)),
        st.tuples(st.just("commit"), st.integers(0, 50)),
        st.tuples(st.just("release"), st.integers(0, 50)),
        st.tuples(st.just("expire"), st.integers(0, 50)),
    ),
    max_size=40,
)


# One database serves every example (a fresh key each); each example starts with no open holds.
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=operations)
def test_ledger_matches_a_simple_model(database: str, ops: list[tuple[str, int]]) -> None:
    credits = _credits(database)
    _age_every_hold(credits)
    credits.release_expired()
    _, info = credits.create_key("m", 10)
    balance, holds = 10, {}  # open hold id -> amount
    settled: list[int] = []
    for op, n in ops:
        if op == "grant":
            credits.grant(info.prefix, n)
            balance += n
        elif op == "reserve":
            if n > balance:
                with pytest.raises(InsufficientCredits):
                    credits.reserve(info.id, n, "generate", None)
            else:
                hold = credits.reserve(info.id, n, "generate", None)
                balance -= n
                if hold is not None:
                    holds[hold] = n
        elif op == "expire":
            _age_every_hold(credits)
            assert credits.release_expired() == len(holds)
            balance += sum(holds.values())
            settled += holds
            holds = {}
        elif holds:
            hold = list(holds)[n % len(holds)]
            amount = holds.pop(hold)
            settled.append(hold)
            if op == "commit":
                assert credits.commit(hold)
            else:
                assert credits.release(hold)
                balance += amount
        elif settled:  # settling twice changes nothing
            assert not getattr(credits, op)(settled[n % len(settled)])
        assert credits.key_info(info.prefix).balance == balance == credits.ledger_sum(info.id)
        assert credits.open_holds() == len(holds)


def test_a_lost_wal_index_race_is_busy_not_a_server_error() -> None:
    """SQLite's "locking protocol" (SQLITE_PROTOCOL) comes from a WAL connection that lost
    the race for the shared index for seconds, as when a writer was stopped mid-commit: the
    store answers it as it answers a held lock (a 503 with Retry-After), never a 500."""
    import sqlite3

    from inkcard.app.ledger.sqlite import _is_busy

    error = sqlite3.OperationalError("locking protocol")
    error.sqlite_errorcode = sqlite3.SQLITE_PROTOCOL  # type: ignore[attr-defined]
    assert _is_busy(error)
    other = sqlite3.OperationalError("disk I/O error")
    other.sqlite_errorcode = sqlite3.SQLITE_IOERR  # type: ignore[attr-defined]
    assert not _is_busy(other)
