"""A render's files → written into its output folder, with the files the previous render into
that folder wrote and this one did not removed; no other file there is ever touched.

What a render wrote is listed in a dotfile beside its cards (``MANIFEST``), so a shorter post
rendered again leaves no stale ``2.png``, ``3.png`` from the longer one, and a folder that
also holds other files keeps them. A name read back from the list is removed only if it is
one this command writes (``3.png``, ``cards.pdf``) and still a regular file: a list edited by
hand cannot make it delete anything else.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path

MANIFEST = ".inkcard-render"
"""The dotfile listing the files the last render into a folder wrote, one name a line."""
CARD_SUFFIXES = (".png", ".jpg", ".webp")
PDF_NAME = "cards.pdf"
MANIFEST_BYTES = 4096  # far more than the names of the most cards one render makes


def card_name(number: int, extension: str) -> str:
    """The file name of card ``number`` (from 1) in ``extension`` (png, jpg, webp, pdf)."""
    return PDF_NAME if extension == "pdf" else f"{number}.{extension}"


def write_cards(out: Path, files: Iterable[tuple[str, bytes]]) -> list[Path]:
    """Write each (name, bytes) into ``out`` (made if missing), list them in ``MANIFEST``,
    remove what the previous list named and this render did not write; the paths written.

    Raises:
        OSError: A file could not be written (the caller says so in one line).
    """
    out.mkdir(parents=True, exist_ok=True)
    previous = _listed(out)
    names: list[str] = []
    for name, data in files:
        _replace(out / name, data)
        names.append(name)
    _replace(out / MANIFEST, "".join(f"{name}\n" for name in names).encode())
    for name in sorted(previous - set(names)):
        _remove_file(out / name)
    return [out / name for name in names]


def _is_card_file(name: str) -> bool:
    """Whether ``name`` is one this command writes: ``<n>.png|jpg|webp`` or ``cards.pdf``."""
    stem, dot, suffix = name.partition(".")
    return name == PDF_NAME or (
        stem.isascii() and stem.isdigit() and len(stem) <= 3 and f"{dot}{suffix}" in CARD_SUFFIXES
    )


def _listed(out: Path) -> set[str]:
    """The card files the previous render's list names (none when there is no list)."""
    try:
        with (out / MANIFEST).open("rb") as file:
            text = file.read(MANIFEST_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return set()
    return {name for name in text.splitlines() if _is_card_file(name)}


def _replace(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` by renaming a temporary file over it: a reader never sees
    half a card, and a symbolic link at ``path`` is replaced, never written through."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    # created as a plain open would (0666 less the umask), never through a link
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(tmp, flags, 0o666)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _remove_file(path: Path) -> None:
    """Remove ``path`` if it is still a regular file (not a link, not a folder)."""
    try:
        if stat.S_ISREG(path.lstat().st_mode):
            path.unlink()
    except FileNotFoundError:
        pass
