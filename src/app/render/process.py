"""A ``WorkerConfig`` → one started worker process and the parent's end of its pipe.

Workers are forked by a forkserver that has already imported ``app.render.worker`` (and so the
engine): as fast as ``fork`` after the first, without copying the service's threads, locks or
sockets. The calls here block: the pool runs them in threads.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.util
import shutil
import tempfile
import threading
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess

from inkcard.app.render.messages import (
    Offer,
    Ready,
    Rendered,
    Share,
    WantShare,
    WorkerConfig,
    WorkerJob,
)
from inkcard.app.render.spread import HandOver
from inkcard.app.render.worker import serve

WORKER_MODULE = serve.__module__  # inkcard.app.render.worker: named by what it runs, never stale
"""What the forkserver imports once, before it forks any worker."""


# The forkserver listens on a Unix socket in multiprocessing's own folder under TMPDIR
# (``<TMPDIR>/pymp-XXXXXXXX/listener-XXXXXXXX``); Linux binds no socket path over 107 bytes.
_SOCKET_PATH_MAX = 107
_SOCKET_TAIL = len("/pymp-XXXXXXXX/listener-XXXXXXXX")
_SHORT_TEMP_ROOTS = ("/tmp", "/var/tmp", "/dev/shm")


def _keep_socket_path_short() -> None:
    """Under a TMPDIR too long for the socket, give multiprocessing a folder of its own in a
    short root, as Python 3.13 does (on 3.11 the workers would never start and /readyz would
    answer 503 for good, with nothing said).

    Raises:
        OSError: No short root can hold the folder; the message names the setting to change.
    """
    if len(tempfile.gettempdir()) + _SOCKET_TAIL <= _SOCKET_PATH_MAX:
        return
    if multiprocessing.process.current_process()._config.get("tempdir"):  # type: ignore[attr-defined]  # multiprocessing's own record
        return  # already chosen (by an earlier call)
    for root in _SHORT_TEMP_ROOTS:
        try:
            folder = tempfile.mkdtemp(prefix="pymp-", dir=root)
        except OSError:
            continue
        multiprocessing.util.Finalize(None, shutil.rmtree, args=(folder, True), exitpriority=-100)
        multiprocessing.process.current_process()._config["tempdir"] = folder  # type: ignore[attr-defined]
        return
    raise OSError(
        f"TMPDIR ({tempfile.gettempdir()}) is too long for the render processes' socket"
        f" (at most {_SOCKET_PATH_MAX - _SOCKET_TAIL} characters) and none of"
        f" {', '.join(_SHORT_TEMP_ROOTS)} is writable: set TMPDIR to a shorter folder"
    )


def forkserver_context() -> BaseContext:
    """Workers are forked from a single-threaded server that imported the engine once: as fast
    as ``fork`` after the first, without copying the service's threads, locks or sockets."""
    _keep_socket_path_short()
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([WORKER_MODULE])
    return context


class Worker:
    """One worker process and the parent's end of its pipe (blocking calls: run in a thread)."""

    def __init__(self, context: BaseContext, config: WorkerConfig):
        self.conn, child = context.Pipe()
        self.process: BaseProcess = context.Process(  # type: ignore[attr-defined]  # contexts have Process
            target=serve, args=(child, config), name="inkcard-render", daemon=True
        )
        self.process.start()
        child.close()  # so the parent sees EOF when the worker dies
        self.ready: Ready | None = None
        self._kill_lock = threading.Lock()
        self._killed = False

    def wait_ready(self, seconds: float) -> Ready:
        """Block until the worker is warm.

        Raises:
            TimeoutError: Not warm within ``seconds``.
            EOFError: The worker died while starting.
        """
        if not self.conn.poll(seconds):
            raise TimeoutError("the render worker did not start in time")
        ready = self.conn.recv()
        assert isinstance(ready, Ready), ready
        self.ready = ready
        return ready

    def call(self, job: WorkerJob, hand_over: HandOver[Worker] | None = None) -> Rendered:
        """Send ``job`` and block until its answer (EOFError or OSError if the worker dies);
        a render's offer of its cards is answered by ``hand_over`` (all kept without one)."""
        self.conn.send(job)
        while True:
            answer = self.conn.recv()
            if isinstance(answer, Offer):
                self.conn.send(answer.cards if hand_over is None else hand_over.offer(answer))
            elif isinstance(answer, WantShare):
                self.conn.send(b"" if hand_over is None else hand_over.share_parts())
            elif isinstance(answer, Share):
                if hand_over is not None:
                    hand_over.share(answer)
            else:
                assert isinstance(answer, Rendered), answer
                return answer

    def kill(self) -> None:
        """End the process now and reap it; its answer, if any, is dropped. Safe to call
        again and from several threads (a replacement and the shutdown may race)."""
        with self._kill_lock:
            if self._killed:
                return
            self._killed = True
            self.process.kill()
            self.process.join()
            self.conn.close()

    def stop(self, seconds: float = 1.0) -> None:
        """Ask the worker to finish, then kill it if it does not within ``seconds``."""
        with self._kill_lock:
            if self._killed:
                return
            with contextlib.suppress(OSError):  # already gone
                self.conn.send(None)
            self.process.join(seconds)
        self.kill()
