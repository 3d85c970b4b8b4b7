"""``inkcard mcp``: the MCP tools served to one desktop agent over stdin/stdout.

The API key comes from ``--api-key`` or ``INKCARD_API_KEY``, platform credentials from
``INKCARD_PLATFORM_APPID`` and ``INKCARD_PLATFORM_APP_SECRET``.
"""

from __future__ import annotations

import asyncio

from mcp.server.stdio import stdio_server

from app import operations
from app.mcp.tools import API_KEY_ENV, APPID_ENV, SECRET_ENV, Caller, InkcardTools
from app.services import Services, running
from app.settings import Settings


async def run_stdio(services: Services, caller: Caller) -> None:
    """Serve one agent over stdin/stdout with ``services`` (opened here, closed at the end)."""
    credits = services.credits
    await asyncio.to_thread(credits.ensure_schema)
    # refuse before serving
    await operations.authenticate(credits, caller.api_key, caller.how_to_send_key)
    tools = InkcardTools(services)
    async with running(services):
        tools.opened = True
        server = tools.server(lambda _: caller)
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())


def stdio_caller(settings: Settings) -> Caller:
    """The one caller of a stdio server: the key and account of the settings."""
    return Caller(
        api_key=settings.api_key,
        how_to_send_key=f"set {API_KEY_ENV} (or pass --api-key) to your Inkcard API key",
        appid=settings.platform_appid,
        secret=settings.platform_app_secret,
        credential_names=(APPID_ENV, SECRET_ENV),
        base_url=settings.service_url,
    )
