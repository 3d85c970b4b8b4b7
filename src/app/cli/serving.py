"""One uvicorn process that logs "ready" only once its socket accepts connections.

uvicorn runs the application's start-up (database, fonts, render processes) before it binds
the port, so a "ready" logged at start-up would be read by supervisors and people while
connections are still refused, and even when the bind then fails. The line is logged here,
after the listening sockets exist.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import sys
from typing import Any

import uvicorn

log = logging.getLogger("inkcard.server")


class ReadyServer(uvicorn.Server):
    """A uvicorn server that logs ``ready: listening on ...`` once it is bound."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)  # exits the process if the bind fails
        bound = [s.getsockname() for server in self.servers for s in server.sockets]
        log.info("ready: listening on %s", ", ".join(_address(name) for name in bound))


def _address(name: Any) -> str:
    host, port = name[0], name[1]
    return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"


def run_one_process(app: Any, **options: Any) -> None:
    """``uvicorn.run(app, **options)`` for one process, with the ready line after the bind."""
    server = ReadyServer(uvicorn.Config(app, **options))
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C stops it quietly, as uvicorn.run does
        server.run()
    if not server.started:
        sys.exit(3)  # uvicorn's start-up failure code
