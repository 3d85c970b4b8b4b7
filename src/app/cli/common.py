"""What every `inkcard` command shares: its one-line error, argument types with bounds, and
reading a file that must be a regular one."""

from __future__ import annotations

import argparse
import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn


class CommandError(Exception):
    """A command cannot do what was asked; the message is the whole story."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


class OneLineParser(argparse.ArgumentParser):
    """A parser whose refusal is one line: the error and where the help is, not the usage.

    ``fill(parser)``, when given, adds the arguments when this parser is first used (its
    command was chosen, or its help asked for): a command whose arguments need the engine
    (their bounds, choices and defaults) costs the other commands nothing.
    """

    def __init__(
        self, *args: Any, fill: Callable[[argparse.ArgumentParser], None] | None = None, **kw: Any
    ) -> None:
        super().__init__(*args, **kw)
        self._fill = fill

    def filled(self) -> OneLineParser:
        """This parser with all its arguments added."""
        if self._fill is not None:
            fill, self._fill = self._fill, None
            fill(self)
        return self

    def parse_known_args(  # type: ignore[override]  # the same call, the arguments added first
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        return super(OneLineParser, self.filled()).parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}; see {self.prog} --help\n")


def integer_type(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high` (no upper bound: None)."""
    said = f"an integer between {low} and {high}" if high is not None else f"an integer >= {low}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {said}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{text} is not {said}")
        return value

    return parse


def number_type(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a finite number from `low` to `high`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not low <= value <= high:  # NaN fails too
            raise argparse.ArgumentTypeError(f"{text!r} is not a number between {low} and {high}")
        return value

    return parse


_KINDS = {
    stat.S_IFIFO: "a named pipe",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
    stat.S_IFDIR: "a folder",
    stat.S_IFSOCK: "a socket",
}


def read_regular_file(path: Path, limit: int) -> bytes:
    """At most ``limit`` bytes of ``path``, which must be a regular file.

    The file is opened without blocking and checked on the open descriptor: a named pipe with
    no writer, a device or a folder is refused at once, and a file swapped for one between a
    check and the read cannot slip through.

    Raises:
        CommandError: It cannot be opened or read, or it is not a regular file.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from error
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = _KINDS.get(stat.S_IFMT(mode), "a special file")
        raise CommandError(f"cannot read {path}: it is {kind}, not a file (- reads stdin)")
    with os.fdopen(fd, "rb") as file:
        try:
            return file.read(limit)
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror or error}") from error
