"""The credit ledger: atomic debits, refunds at most once, append-only, balance == ledger sum."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.credits import Credits, looks_like_key
from app.errors import InsufficientCredits


def _storm(path: str, key_id: int, attempts: int, cost: int) -> tuple[int, int, int]:
    """Debit ``attempts`` times; refund every third success.

    Returns (debited, refused, refunded)."""
    credits = Credits(Path(path))
    debited = refused = refunded = 0
    for _ in range(attempts):
        try:
            debit = credits.charge(key_id, cost, "generate", None)
        except InsufficientCredits:
            refused += 1
            continue
        debited += 1
        if debited % 3 == 0 and debit is not None:
            credits.refund(debit, None)
            refunded += 1
    return debited, refused, refunded


def test_balance_equals_ledger_sum_under_concurrent_processes(tmp_path: Path) -> None:
    credits = Credits(tmp_path / "db.sqlite")
    credits.ensure_schema()
    _, info = credits.create_key("storm", 300)
    workers, attempts, cost = 4, 150, 3
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        results = pool.starmap(_storm, [(str(credits.path), info.id, attempts, cost)] * workers)
    debited = sum(r[0] for r in results)
    refunded = sum(r[2] for r in results)
    assert (
        sum(r[0] + r[1] for r in results) == workers * attempts
    )  # no "database is locked" escaped
    final = credits.key_info(info.prefix)
    assert final.balance == credits.ledger_sum(info.id)
    assert final.balance == 300 - cost * (debited - refunded)
    assert 0 <= final.balance < cost  # the storm spent everything it could, and never more
    kinds = [row.kind for row in credits.ledger(info.prefix, limit=10_000)]
    assert kinds.count("debit") == debited and kinds.count("refund") == refunded


def test_ledger_is_append_only(tmp_path: Path) -> None:
    credits = Credits(tmp_path / "db.sqlite")
    credits.ensure_schema()
    credits.create_key("k", 5)
    with sqlite3.connect(credits.path) as conn:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute("UPDATE ledger SET delta = 1000")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute("DELETE FROM ledger")


def test_a_debit_is_refunded_at_most_once(tmp_path: Path) -> None:
    credits = Credits(tmp_path / "db.sqlite")
    credits.ensure_schema()
    _, info = credits.create_key("k", 5)
    debit = credits.charge(info.id, 2, "generate", "r1")
    assert debit is not None
    credits.refund(debit, "r1")
    with pytest.raises(sqlite3.IntegrityError):
        credits.refund(debit, "r1")
    assert credits.key_info(info.prefix).balance == 5 == credits.ledger_sum(info.id)


def test_zero_cost_writes_nothing(tmp_path: Path) -> None:
    credits = Credits(tmp_path / "db.sqlite")
    credits.ensure_schema()
    _, info = credits.create_key("k", 0)
    assert credits.charge(info.id, 0, "generate", None) is None
    assert credits.ledger(info.prefix) == []


def test_keys_have_the_documented_shape(tmp_path: Path) -> None:
    credits = Credits(tmp_path / "db.sqlite")
    credits.ensure_schema()
    key, info = credits.create_key("k")
    assert looks_like_key(key) and len(key) == 35 and key.startswith("ik_")
    assert info.prefix == key[:8]
    assert credits.authenticate(key) == info


operations = st.lists(
    st.one_of(
        st.tuples(st.just("grant"), st.integers(1, 20)),
        st.tuples(st.just("charge"), st.integers(0, 20)),
        st.tuples(st.just("refund"), st.integers(0, 50)),
    ),
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(ops=operations)
def test_ledger_matches_a_simple_model(
    tmp_path_factory: pytest.TempPathFactory, ops: list[tuple[str, int]]
) -> None:
    credits = Credits(tmp_path_factory.mktemp("model") / "db.sqlite")
    credits.ensure_schema()
    _, info = credits.create_key("m", 10)
    balance, debits, refunded = 10, [], set()
    for op, n in ops:
        if op == "grant":
            credits.grant(info.prefix, n)
            balance += n
        elif op == "charge":
            if n > balance:
                with pytest.raises(InsufficientCredits):
                    credits.charge(info.id, n, "generate", None)
            else:
                debit = credits.charge(info.id, n, "generate", None)
                balance -= n
                if debit is not None:
                    debits.append((debit, n))
        elif debits:
            debit, amount = debits[n % len(debits)]
            if debit in refunded:
                with pytest.raises(sqlite3.IntegrityError):
                    credits.refund(debit, None)
            else:
                credits.refund(debit, None)
                refunded.add(debit)
                balance += amount
        assert credits.key_info(info.prefix).balance == balance == credits.ledger_sum(info.id)
