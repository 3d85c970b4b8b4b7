"""The ``local`` engine: files under one directory, served by the service at ``/files``."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from inkcard.app.errors import StorageError
from inkcard.app.storage.base import StoredFile, check_name, probe_name

_TMP_PREFIX = ".tmp-"


class LocalStorage:
    """Files under one directory, written with temp file + fsync + rename."""

    def __init__(self, root: Path, base_url: str | Callable[[], str] | None):
        """``base_url``: the files' base URL, or a function that tells it for the current
        request (the files follow the host the client used), or None: nothing serves the
        files, which have no URL (``url`` answers an empty string)."""
        self.root = root.resolve()
        self._base_url = base_url

    def _path(self, name: str) -> Path:
        path = (self.root / check_name(name)).resolve()
        if not path.is_relative_to(self.root):
            raise ValueError(f"unsafe storage name: {name!r}")
        return path

    def put(self, name: str, data: bytes, content_type: str) -> None:
        path = self._path(name)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=_TMP_PREFIX)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            _fsync_dir(path.parent)
        except OSError as exc:
            raise StorageError(f"could not write {name} ({exc.strerror})") from None

    def read(self, name: str) -> bytes | None:
        try:
            return self._path(name).read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StorageError(f"could not read {name} ({exc.strerror})") from None

    def sizes(self, prefix: str) -> dict[str, int]:
        return {f.name: f.size for f in self.entries(prefix)}

    def entries(self, prefix: str) -> list[StoredFile]:
        """Stored files whose names start with ``prefix`` (``folder/`` or ``folder/start``)."""
        folder, _, start = prefix.rpartition("/")
        directory = self.root / folder
        if not directory.is_dir():
            return []
        found: list[StoredFile] = []
        for path in directory.iterdir():
            if path.name.startswith(start) and not path.name.startswith(_TMP_PREFIX):
                try:
                    stat = path.stat()
                except FileNotFoundError:  # deleted while listing
                    continue
                found.append(StoredFile(f"{folder}/{path.name}", stat.st_size, stat.st_mtime))
        return found

    def delete(self, name: str) -> None:
        try:
            self._path(name).unlink(missing_ok=True)
        except OSError as exc:
            raise StorageError(f"could not delete {name} ({exc.strerror})") from None

    def url(self, name: str) -> str:
        check_name(name)
        if self._base_url is None:
            return ""
        base = self._base_url if isinstance(self._base_url, str) else self._base_url()
        return f"{base.rstrip('/')}/{name}"

    def check(self, folder: str) -> None:
        name = probe_name(folder)
        self.put(name, b"{}", "application/json")
        self.delete(name)

    def sweep_temp_files(self, older_than: float = 3600.0) -> int:
        """Delete temp files a crashed writer left behind; return how many."""
        cutoff = time.time() - older_than
        removed = 0
        for tmp in self.root.rglob(_TMP_PREFIX + "*"):
            try:
                if tmp.stat().st_mtime < cutoff:
                    tmp.unlink()
                    removed += 1
            except OSError:
                continue
        return removed


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
