"""The ``inkcard`` command line: ``main(argv)`` parses the arguments and runs one command.

``commands`` parses the arguments and holds the service's commands; ``render`` the card
engine's (``cardfolder`` writes their files), ``database``, ``storage`` and ``themecheck`` the
operators' (``common`` is what they share, ``serving`` starts uvicorn). The top of ``app``, it
may import any room, and none imports it.
"""

from inkcard.app.cli.commands import main

__all__ = ["main"]
