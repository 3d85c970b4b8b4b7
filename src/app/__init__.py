"""Inkcard's HTTP service, MCP server and command line, built on the `layout` engine and `themes`.

Packages by product area: ``server`` (HTTP), ``cards``, ``articles``, ``ledger`` (keys,
credits and the database), ``mcp`` and ``cli``; ``docs/architecture.md`` is the map.
"""

VERSION = "0.1.0"
