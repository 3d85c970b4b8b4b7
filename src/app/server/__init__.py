"""HTTP requests → the service's answers: the Litestar app (``factory``: ``create_app``).

Its routes (``routes_*``) are thin adapters over ``app.operations``: they read headers and
bodies, call an operation with the ``Services`` record and shape its answer; around them sit
the OpenAPI document (``openapi``), the error bodies (``responses``), the guards and the
access log (``guards``, ``requestlog``, ``origin``, ``disconnect``), the ``/mcp`` mount of the
MCP tools (``mcp_http``) and the playground's files (``static``). It may import every row
below it, ``app.mcp`` included, never ``app.cli``; Litestar is imported only here.
"""
