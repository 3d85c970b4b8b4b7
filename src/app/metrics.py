"""What the service counts → ``GET /metrics`` in the Prometheus text format.

The one door to ``prometheus_client``. Everything is counted in the uvicorn worker processes
(render processes only render; their time is measured from the worker). One worker: the
values live in this process's registry. Several (``inkcard serve --workers N``): the CLI
points ``PROMETHEUS_MULTIPROC_DIR`` at a folder of its own before the workers start, each
worker writes its values there, and a scrape of any worker sums them all.

Labels are bounded: route templates (never raw paths), status codes, operation names, error
labels, storage back ends. Never a key, a key prefix, an AppID or a file name.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client import multiprocess as _multiprocess

from inkcard.app.errors import StorageError
from inkcard.app.storage import Storage

CONTENT_TYPE = "text/plain; version=0.0.4"  # the text format generate_latest writes
UNMATCHED = "unmatched"  # the route label of requests no route answered (404s of any path)
# Request latency up to the 55 s time limits and a little past.
LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60)
RENDER_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
_LIVE_GAUGE_FILE = re.compile(r"gauge_live\w+?_(\d+)\.db")

# No `_created` series: they double the text and no alert uses them.
disable_created_metrics()  # type: ignore[no-untyped-call]  # the library leaves it unannotated


class Metrics:
    """Every metric the service exposes, in a registry of its own (one per app).

    ``multiprocess_dir``: the folder of ``PROMETHEUS_MULTIPROC_DIR`` when several workers
    share the numbers; the exposition then sums every worker's files.
    """

    def __init__(self, multiprocess_dir: Path | None = None) -> None:
        self.multiprocess_dir = multiprocess_dir
        self.registry = CollectorRegistry()
        self._series: dict[str, tuple[str, ...]] = {}
        self.requests = self._counter(
            "inkcard_requests",
            "HTTP requests answered, by route template and status code.",
            ("route", "status"),
        )
        self.request_seconds = self._histogram(
            "inkcard_request_duration_seconds",
            "Time from a request's arrival to the last byte of its answer, by route template.",
            ("route",),
            buckets=LATENCY_BUCKETS,
        )
        self.render_seconds = self._histogram(
            "inkcard_render_duration_seconds",
            "Time a render process spent on one card job it answered (killed ones excluded).",
            buckets=RENDER_BUCKETS,
        )
        self.render_queue = self._gauge(
            "inkcard_render_queue",
            "Card jobs admitted to the render pool: rendering now, or waiting for a process.",
            ("state",),
            multiprocess_mode="livesum",
        )
        self.overloaded = self._counter(
            "inkcard_overloaded",
            "Requests refused with 503 overloaded (every slot and queue place taken), by pool.",
            ("pool",),
        )
        self.cards_spread = self._counter(
            "inkcard_render_spread",
            "Split requests whose last cards were handed, laid out, to an idle render process.",
        )
        self.worker_restarts = self._counter(
            "inkcard_render_worker_restarts",
            "Render processes replaced, by reason: timeout (killed past the time limit, a 504),"
            " died, abandoned (its request went away), out_of_memory (over its memory limit),"
            " start_failed.",
            ("reason",),
        )
        self.credits_debited = self._counter(
            "inkcard_credits_debited",
            "Credits charged by successful calls, by operation.",
            ("operation",),
        )
        self.credits_refunded = self._counter(
            "inkcard_credits_refunded",
            "Credits held for calls that failed and given back, by operation.",
            ("operation",),
        )
        self.holds_expired = self._counter(
            "inkcard_credit_holds_expired",
            "Credit holds released by the expiry sweep (their request died or hung).",
        )
        self.holds_of_dead = self._counter(
            "inkcard_credit_holds_of_dead_processes",
            "Credit holds of processes that died, released at once (at start or by a sweep).",
        )
        self.storage_errors = self._counter(
            "inkcard_storage_errors",
            "Storage calls that failed, by back end and action.",
            ("backend", "action"),
        )
        self.platform_errors = self._counter(
            "inkcard_platform_errors",
            "convert-and-draft calls that failed at the WeChat platform, by error label.",
            ("label",),
        )
        for state in ("rendering", "waiting"):
            self.render_queue.labels(state).set(0)

    def _counter(self, name: str, doc: str, labels: tuple[str, ...] = ()) -> Counter:
        self._series[f"{name}_total"] = labels
        return Counter(name, doc, labels, registry=self.registry)

    def _gauge(self, name: str, doc: str, labels: tuple[str, ...], **options: Any) -> Gauge:
        self._series[name] = labels
        return Gauge(name, doc, labels, registry=self.registry, **options)

    def _histogram(
        self, name: str, doc: str, labels: tuple[str, ...] = (), *, buckets: tuple[float, ...]
    ) -> Histogram:
        self._series.update(
            {f"{name}_bucket": (*labels, "le"), f"{name}_sum": labels, f"{name}_count": labels}
        )
        return Histogram(name, doc, labels, registry=self.registry, buckets=buckets)

    def series(self) -> dict[str, tuple[str, ...]]:
        """Every sample name the exposition may hold, with its label names (alert rules are
        checked against it)."""
        return dict(self._series)

    # Exposition

    def exposition(self) -> bytes:
        """The text a scrape gets: this process's values, or every worker's summed."""
        if self.multiprocess_dir is None:
            return bytes(generate_latest(self.registry))
        _forget_dead_workers(self.multiprocess_dir)
        registry = CollectorRegistry()
        # The multiprocess module has no annotations.
        _multiprocess.MultiProcessCollector(registry, path=str(self.multiprocess_dir))  # type: ignore[no-untyped-call]
        return bytes(generate_latest(registry))

    def close(self) -> None:
        """This worker is stopping: its live gauges (queue depth) stop counting."""
        if self.multiprocess_dir is not None:
            _mark_dead(os.getpid(), self.multiprocess_dir)

    # Counting helpers for the call sites

    def request(self, route: str, status: int, seconds: float) -> None:
        self.requests.labels(route, str(status)).inc()
        self.request_seconds.labels(route).observe(seconds)

    def debited(self, operation: str, credits: int) -> None:
        if credits > 0:
            self.credits_debited.labels(operation).inc(credits)

    def refunded(self, operation: str, credits: int) -> None:
        if credits > 0:
            self.credits_refunded.labels(operation).inc(credits)

    @contextlib.contextmanager
    def queued(self, state: str) -> Iterator[None]:
        """One job in ``state`` (``waiting`` or ``rendering``) while the block runs."""
        gauge = self.render_queue.labels(state)
        gauge.inc()
        try:
            yield
        finally:
            gauge.dec()


def _mark_dead(pid: int, folder: Path) -> None:
    """Delete the live-gauge files of worker ``pid``."""
    _multiprocess.mark_process_dead(pid, str(folder))  # type: ignore[no-untyped-call]  # no annotations


def _forget_dead_workers(folder: Path) -> None:
    """Drop the live gauges of workers that died without saying so (``kill -9``)."""
    for path in folder.glob("gauge_live*.db"):
        found = _LIVE_GAUGE_FILE.fullmatch(path.name)
        if found is None:
            continue
        pid = int(found.group(1))
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            _mark_dead(pid, folder)
        except PermissionError:  # alive, someone else's: not one of our workers
            continue


class MeteredStorage:
    """A storage back end whose failed calls are counted by back end and action."""

    def __init__(self, storage: Storage, backend: str, metrics: Metrics) -> None:
        self._storage = storage
        self._errors = {
            action: metrics.storage_errors.labels(backend, action)
            for action in ("put", "read", "sizes", "delete", "check")
        }

    def _counted(self, action: str, call: Callable[[], Any]) -> Any:
        try:
            return call()
        except StorageError:
            self._errors[action].inc()
            raise

    def put(self, name: str, data: bytes, content_type: str) -> None:
        self._counted("put", lambda: self._storage.put(name, data, content_type))

    def read(self, name: str) -> bytes | None:
        result: bytes | None = self._counted("read", lambda: self._storage.read(name))
        return result

    def sizes(self, prefix: str) -> dict[str, int]:
        result: dict[str, int] = self._counted("sizes", lambda: self._storage.sizes(prefix))
        return result

    def delete(self, name: str) -> None:
        self._counted("delete", lambda: self._storage.delete(name))

    def url(self, name: str) -> str:
        return self._storage.url(name)

    def check(self, folder: str) -> None:
        self._counted("check", lambda: self._storage.check(folder))


def route_label(scope: Any) -> str:
    """The matched route's template (a mount's path, as ``/mcp``), or ``unmatched``."""
    if scope.get("path_template"):
        return str(scope["path_template"])
    handler = scope.get("route_handler")
    paths = sorted(getattr(handler, "paths", ()))
    return str(paths[0]) if paths else UNMATCHED


class RequestMetrics:
    """ASGI middleware: every HTTP answer counted by route template and status, and timed.

    Counted just before the answer's last bytes are sent, so a client that has its answer
    finds it counted in the next scrape. It sits inside ``HeadAsGet``, which copies the scope:
    the router writes the matched route's template into the scope this middleware holds.
    """

    def __init__(self, app: Any, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # what the server answers when the app raises before answering
        counted = False

        def count() -> None:
            nonlocal counted
            if not counted:
                counted = True
                route = route_label(scope)
                self.metrics.request(route, status, time.perf_counter() - started)

        async def send_counting(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                count()
            await send(message)

        try:
            await self.app(scope, receive, send_counting)
        finally:
            count()
