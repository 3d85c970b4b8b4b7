"""The credit ledger: reserve/commit/release, expiry sweeps, a busy database, and the invariant
balance == ledger sum under threads and processes."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from litestar import Litestar
from litestar.testing import TestClient

from app.credits import Credits, looks_like_key
from app.errors import DatabaseBusy, InsufficientCredits
from tests.app.apphelpers import new_key, stored_files


def _credits(path: Path, **options: float) -> Credits:
    credits = Credits(path / "db.sqlite", **options)
    credits.ensure_schema()
    return credits


def _age_every_hold(credits: Credits) -> None:
    """Move every hold's deadline into the past, as if its request had died long ago."""
    with sqlite3.connect(credits.path) as conn:
        conn.execute("UPDATE holds SET expires_at = 0")


@contextmanager
def _write_locked(path: Path) -> Iterator[None]:
    """Hold the database's write lock from another connection, as a stuck writer would."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        conn.execute("ROLLBACK")
        conn.close()


def _kinds(credits: Credits, prefix: str) -> list[str]:
    return [row.kind for row in credits.ledger(prefix, limit=10_000)]


def _storm(path: str, key_id: int, attempts: int, cost: int) -> tuple[int, int, int]:
    """Reserve ``attempts`` times; release every third hold and commit the others.

    Returns (committed, refused, released)."""
    credits = Credits(Path(path))
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


def test_balance_equals_ledger_sum_under_concurrent_processes(tmp_path: Path) -> None:
    credits = _credits(tmp_path)
    _, info = credits.create_key("storm", 300)
    workers, attempts, cost = 4, 150, 3
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        results = pool.starmap(_storm, [(str(credits.path), info.id, attempts, cost)] * workers)
    committed = sum(r[0] for r in results)
    released = sum(r[2] for r in results)
    assert sum(r[0] + r[1] + r[2] for r in results) == workers * attempts  # nothing "locked"
    final = credits.key_info(info.prefix)
    assert final.balance == credits.ledger_sum(info.id) == 300 - cost * committed
    assert 0 <= final.balance < cost  # the storm spent everything it could, and never more
    kinds = _kinds(credits, info.prefix)
    assert kinds.count("debit") == committed + released and kinds.count("refund") == released
    assert credits.open_holds() == 0


def test_threads_never_hold_the_same_credit_twice(tmp_path: Path) -> None:
    credits = _credits(tmp_path)
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


def test_reserve_holds_commit_charges_release_gives_back(tmp_path: Path) -> None:
    credits = _credits(tmp_path)
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


def test_a_hold_can_be_committed_for_less(tmp_path: Path) -> None:
    # The article operation holds 3 (its minimum balance) and charges 1 for HTML only.
    credits = _credits(tmp_path)
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


def test_the_sweep_releases_only_expired_holds(tmp_path: Path) -> None:
    credits = _credits(tmp_path)
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


def test_a_hold_expires_after_the_deadline_a_busy_wait_and_the_margin(tmp_path: Path) -> None:
    credits = _credits(tmp_path, busy_timeout=2.0, request_deadline=10.0)
    assert credits.hold_seconds == 10.0 + 2.0 + 5.0
    _, info = credits.create_key("k", 1)
    before = time.time()
    credits.reserve(info.id, 1, "generate", None)
    after = time.time()
    with sqlite3.connect(credits.path) as conn:
        (expires_at,) = conn.execute("SELECT expires_at FROM holds").fetchone()
    assert before + 17.0 <= expires_at <= after + 17.0


def test_start_up_releases_holds_of_a_dead_process(
    make_client: Callable[..., TestClient[Litestar]],
) -> None:
    credits: Credits = make_client(generate_cost=1).app.state.credits
    _, info = credits.create_key("k", 5)
    credits.reserve(info.id, 2, "generate", "died")
    _age_every_hold(credits)
    assert credits.open_holds() == 1
    make_client(generate_cost=1)  # a new worker's lifespan sweeps at start
    assert credits.open_holds() == 0
    assert credits.key_info(info.prefix).balance == 5 == credits.ledger_sum(info.id)


def test_zero_cost_writes_nothing(tmp_path: Path) -> None:
    credits = _credits(tmp_path)
    _, info = credits.create_key("k", 0)
    assert credits.reserve(info.id, 0, "generate", None) is None
    assert credits.ledger(info.prefix) == [] and credits.open_holds() == 0


def test_ledger_is_append_only(tmp_path: Path) -> None:
    credits = _credits(tmp_path)
    credits.create_key("k", 5)
    with sqlite3.connect(credits.path) as conn:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute("UPDATE ledger SET delta = 1000")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute("DELETE FROM ledger")


def test_keys_have_the_documented_shape(tmp_path: Path) -> None:
    credits = _credits(tmp_path)
    key, info = credits.create_key("k")
    assert looks_like_key(key) and len(key) == 35 and key.startswith("ik_")
    assert info.prefix == key[:8]
    assert credits.authenticate(key) == info


def test_a_locked_database_raises_busy_and_writes_nothing(tmp_path: Path) -> None:
    credits = _credits(tmp_path, busy_timeout=0.2)
    key, info = credits.create_key("k", 5)
    with _write_locked(credits.path):
        assert credits.authenticate(key) == info  # WAL readers are not blocked
        with pytest.raises(DatabaseBusy) as caught:
            credits.reserve(info.id, 1, "generate", None)
    assert caught.value.status == 503 and caught.value.label == "busy"
    assert caught.value.headers == {"Retry-After": "1"}
    assert credits.key_info(info.prefix).balance == 5 and _kinds(credits, info.prefix) == ["grant"]


def test_a_paid_request_on_a_locked_database_is_503_busy(
    make_client: Callable[..., TestClient[Litestar]], tmp_path: Path
) -> None:
    client = make_client(generate_cost=1, database_busy_timeout=0.5)
    credits: Credits = client.app.state.credits
    key = new_key(client, credits=5)
    with _write_locked(credits.path):
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


@settings(max_examples=60, deadline=None)
@given(ops=operations)
def test_ledger_matches_a_simple_model(
    tmp_path_factory: pytest.TempPathFactory, ops: list[tuple[str, int]]
) -> None:
    credits = _credits(tmp_path_factory.mktemp("model"))
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
