"""Retention: remove stored card sets older than a cutoff, on any storage engine.

A set is what one request stored under one digest: its cards (``<digest>-<n>.png`` …) and, for
generate calls, its manifest (``<digest>.json``). A set goes whole or not at all, judged by
its newest file, and its manifest goes first: a request running meanwhile then renders the
set again instead of trusting a manifest whose cards are gone. A URL handed out before the
cutoff stops working once its set is pruned.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from inkcard.app.storage.base import StoredFile

DAY_SECONDS = 86_400.0
_CARD_NUMBER = re.compile(r"-\d+$")


class Listable(Protocol):
    """What pruning needs of an engine (every engine of ``app.storage`` has it)."""

    def entries(self, prefix: str) -> list[StoredFile]: ...

    def delete(self, name: str) -> None: ...


@dataclass
class PruneReport:
    """What a prune removed (or, on a dry run, would remove)."""

    names: list[str] = field(default_factory=list)
    bytes: int = 0

    @property
    def count(self) -> int:
        return len(self.names)


def set_of(name: str) -> str:
    """The set a stored name belongs to: ``screenshots/ab12-3.png`` → ``screenshots/ab12``."""
    stem = name.rsplit(".", 1)[0]
    return _CARD_NUMBER.sub("", stem)


def prune(
    storage: Listable,
    folders: Iterable[str],
    older_than_days: float,
    dry_run: bool = False,
    now: float | None = None,
) -> PruneReport:
    """Delete every set in ``folders`` whose newest file is older than ``older_than_days``."""
    cutoff = (time.time() if now is None else now) - older_than_days * DAY_SECONDS
    report = PruneReport()
    for folder in folders:
        sets: dict[str, list[StoredFile]] = {}
        for stored in storage.entries(f"{folder}/"):
            sets.setdefault(set_of(stored.name), []).append(stored)
        for files in sets.values():
            if max(f.modified for f in files) >= cutoff:
                continue
            # The manifest first: False (a .json) sorts before True.
            for stored in sorted(files, key=lambda f: not f.name.endswith(".json")):
                if not dry_run:
                    storage.delete(stored.name)
                report.names.append(stored.name)
                report.bytes += stored.size
    return report
