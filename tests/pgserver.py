"""A throwaway PostgreSQL server for the tests: Debian's ``postgresql`` binaries, ``initdb`` in a
temporary folder, listening on a free loopback port (and a socket in that folder only).

Each test gets its own database, copied from a template that already holds the migrated schema
(``CREATE DATABASE … TEMPLATE`` copies files: far quicker than migrating again). As root, the
server runs as the ``postgres`` user the Debian package creates (initdb refuses root).
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg

from inkcard.app.ledger.postgres import PostgresStore, close_pools

TEMPLATE = "inkcard_template"
USER = "inkcard"


def _bin_dir() -> Path:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
    )
    assert found, "PostgreSQL is not installed: run scripts/install.sh --test"
    return Path(found[-1]).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """Start with ``start()``, stop with ``stop()``; ``new_database()`` makes a fresh one."""

    def __init__(self) -> None:
        self.bin = _bin_dir()
        self.root = Path(tempfile.mkdtemp(prefix="inkcard-pg-"))
        self.port = _free_port()
        self.as_user: list[str] = []
        self._names = itertools.count()
        if os.getuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]

    def url(self, database: str) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def _run(self, *argv: str) -> None:
        subprocess.run([*self.as_user, *argv], check=True, capture_output=True, cwd=self.root)

    def start(self) -> None:
        data = self.root / "data"
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(data),
            "-U",
            USER,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--no-instructions",
        )
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root}"
            " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            " -c max_connections=500"
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(self.root / "log"),
            "-o",
            options,
            "-w",
            "start",
        )
        self._admin(f"CREATE DATABASE {TEMPLATE}")
        PostgresStore(self.url(TEMPLATE)).migrate()
        close_pools(self.url(TEMPLATE))  # a template with open connections cannot be copied

    def _admin(self, sql: str) -> None:
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(sql)  # type: ignore[call-overload]  # test-made names, not user input

    def new_database(self, *, migrated: bool = True) -> str:
        """The URL of a new database holding the migrated, empty schema (or no tables at all)."""
        name = f"t{os.getpid()}_{next(self._names)}"
        self._admin(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE if migrated else 'template0'}")
        return self.url(name)

    def drop_database(self, url: str) -> None:
        close_pools(url)
        self._admin(f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)")

    def stop(self) -> None:
        close_pools()
        try:
            self._run(
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.root / "data"),
                "-m",
                "immediate",
                "-w",
                "stop",
            )
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
