"""The MCP server as agents see it before any tool runs: its name, version and instructions,
and the two handlers (list the tools, call one). Light on purpose: ``inkcard mcp`` builds it,
and answers ``initialize``, before the engine and the services are imported."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server

from inkcard.app import VERSION

ListTools = Callable[[Any, Any], Awaitable[types.ListToolsResult]]
CallTool = Callable[[Any, types.CallToolRequestParams], Awaitable[types.CallToolResult]]


def mcp_server(list_tools: ListTools, call_tool: CallTool) -> Server[Any]:
    """A low-level MCP server of Inkcard's tools, served by the two handlers."""
    return Server(
        "inkcard",
        version=VERSION,
        title="Inkcard",
        instructions=(
            "Inkcard turns Markdown into themed card images (generate_cards) and WeChat"
            " articles (convert_article); list_themes shows the themes and their modes."
            " A WeChat account's draft box: list_drafts, get_draft, delete_draft,"
            " publish_draft, get_publish_status; store_platform_account lets any platform"
            " tool name the account (account) instead of sending its secret."
        ),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )
