"""The ``inkcard`` command line: ``main(argv)`` parses the arguments and runs one command."""

from app.cli.commands import main

__all__ = ["main"]
