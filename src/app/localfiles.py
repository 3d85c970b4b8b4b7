"""Files on this machine that ``inkcard mcp`` (stdio, one desktop agent) may read: the
``markdownFile`` argument and the local images its Markdown names.

Only under the allowed roots (``INKCARD_LOCAL_ROOTS``, default the user's home): a path is
resolved first, every symlink followed and every ``..`` applied, and only then checked, so
neither a ``..`` nor a symlink leads out of a root. Files are read up to a byte limit (the
fetched images' for images), and a refusal names the path and why, never what it holds.

Who may read is set per call: the stdio tools run each call inside ``reading(LocalReader)``,
and the image fetcher asks ``current()``. Nothing else ever sets it, so over HTTP a local path
is refused as before (the fetcher says local files are for ``inkcard mcp``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from inkcard.app.settings import Settings

ONLY_OVER_STDIO = (
    "is a local file; local files are read only by `inkcard mcp` over stdio, from the"
    " folders in INKCARD_LOCAL_ROOTS"
)


class LocalFileRefused(Exception):
    """A local file may not be read, or could not be; ``reason`` is safe to show."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def roots_of(settings: Settings) -> tuple[Path, ...]:
    """The allowed roots, resolved (``INKCARD_LOCAL_ROOTS``, else the user's home)."""
    named = [part for part in settings.local_roots.split(os.pathsep) if part.strip()]
    return tuple(Path(part).expanduser().resolve() for part in named or ["~"])


def is_local(source: str) -> bool:
    """Whether an image source names a file here: a ``file:`` URL, or a path (absolute,
    or relative to the Markdown file's folder), not a URL of another scheme."""
    if source[:5].lower() == "file:":
        return True
    if source.startswith("//"):  # a scheme-relative URL: a host, not a path
        return False
    scheme = urlsplit(source).scheme
    return not scheme or len(scheme) == 1  # "C:" is a Windows drive, not a scheme


@dataclass(frozen=True, slots=True)
class LocalReader:
    """Reads files under ``roots``; relative paths are taken from ``base`` (None: refused)."""

    roots: tuple[Path, ...]
    base: Path | None = None

    def with_base(self, base: Path | None) -> LocalReader:
        return LocalReader(self.roots, base)

    def read(self, name: str, max_bytes: int) -> bytes:
        """The bytes of the file ``name`` names (a path or a ``file:`` URL).

        Raises:
            LocalFileRefused: Outside the roots, missing, not a file, empty or too big.
        """
        path = self.checked(self.path_of(name))
        try:
            size = path.stat().st_size
            if size > max_bytes:
                raise LocalFileRefused(f"is larger than {max_bytes} bytes ({size} bytes)")
            with path.open("rb") as file:
                data = file.read(max_bytes + 1)
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise LocalFileRefused(f"could not be read ({reason})") from None
        if len(data) > max_bytes:  # grew since the stat
            raise LocalFileRefused(f"is larger than {max_bytes} bytes")
        if not data:
            raise LocalFileRefused("is an empty file")
        return data

    def path_of(self, name: str) -> Path:
        """The path ``name`` stands for, not yet resolved or checked."""
        if name[:5].lower() == "file:":
            parts = urlsplit(name)
            if parts.netloc not in ("", "localhost"):
                raise LocalFileRefused("is a file: URL on another host")
            return Path(unquote(parts.path))
        # Markdown parsers percent-encode spaces and non-ASCII letters in a link
        texts = [name, unquote(name)] if "%" in name else [name]
        paths = [self._joined(text) for text in texts]
        return next((path for path in paths if path.exists()), paths[0])

    def _joined(self, text: str) -> Path:
        path = Path(text).expanduser()
        if path.is_absolute():
            return path
        if self.base is None:
            raise LocalFileRefused(
                "is a relative path; relative paths are read from the folder of markdownFile,"
                " so send the Markdown as markdownFile or use an absolute path"
            )
        return self.base / path

    def checked(self, path: Path) -> Path:
        """``path`` with every symlink and ``..`` resolved, once it is a file in a root."""
        try:
            resolved = path.resolve(strict=True)
        except FileNotFoundError:
            raise LocalFileRefused("does not exist") from None
        except (OSError, RuntimeError) as exc:  # a symlink loop, a permission denied
            raise LocalFileRefused(f"could not be resolved ({type(exc).__name__})") from None
        if not any(resolved.is_relative_to(root) for root in self.roots):
            folders = ", ".join(str(root) for root in self.roots)
            raise LocalFileRefused(
                f"is outside the folders local files may be read from ({folders}; set"
                " INKCARD_LOCAL_ROOTS to allow others)"
            )
        if not resolved.is_file():
            raise LocalFileRefused("is not a file")
        return resolved


_current: ContextVar[LocalReader | None] = ContextVar("inkcard_local_reader", default=None)


def current() -> LocalReader | None:
    """Who may read local files in this call (None: nobody, the HTTP service)."""
    return _current.get()


@contextmanager
def reading(reader: LocalReader) -> Iterator[LocalReader]:
    """Let the code of this call (and the tasks it starts) read local files with ``reader``."""
    token = _current.set(reader)
    try:
        yield reader
    finally:
        _current.reset(token)
