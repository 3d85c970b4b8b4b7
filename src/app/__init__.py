"""Inkcard's HTTP service, MCP server and command line, built on the `layout` engine and `themes`.

Packages by product area: ``server`` (HTTP), ``cards``, ``articles``, ``ledger`` (keys,
credits and the database), ``mcp`` and ``cli``; ``docs/architecture.md`` is the map. They are
layered, each importing only the rows below its own (``APP_LAYERS`` in
``tests/test_architecture.py``); this module holds ``VERSION`` and imports nothing.
"""

VERSION = "0.1.0"
