"""The service's operations as MCP tools for AI agents, over stdio (``inkcard mcp``) and, mounted
by ``app.server``, over HTTP at ``/mcp``.

``tools`` runs a call (``InkcardTools``: arguments read by the request parsers, errors as tool
errors with our labels), ``listing`` says what the tools are and cost, ``files`` reads a
``markdownFile`` over stdio, ``protocol`` builds the bare server and ``stdio`` serves one
desktop agent. It may import ``app.operations``, ``app.services`` and every row below them,
never ``app.server`` or ``app.cli``; the MCP SDK is imported only here and in the server's
``/mcp`` mount. This door imports nothing: ``inkcard mcp`` answers ``initialize`` before the
tools, the services and the engine are loaded.
"""
