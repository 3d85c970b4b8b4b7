"""The MCP tools mounted on the service as streamable HTTP at ``/mcp`` (stateless, JSON).

Any worker answers any call: every HTTP request needs ``x-api-key`` (refused with our 401
body before the MCP layer); ``Platform-Appid`` and ``Platform-App-Secret``, or
``Platform-Account`` naming a stored account, on the connection configure the draft account.
A client that hangs up before its tool's answer is ready is charged nothing, as on the REST
routes: the SDK reads the body through a ``DisconnectWatch`` whose event the tool call races
its work against.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Litestar
from litestar.exceptions import MethodNotAllowedException
from litestar.handlers import ASGIRouteHandler, asgi
from litestar.types import Receive, Scope, Send
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

from inkcard.app import logs, operations
from inkcard.app.mcp.tools import Caller, InkcardTools
from inkcard.app.server.disconnect import DisconnectWatch
from inkcard.app.server.routes_article import ACCOUNT_HEADER, APPID_HEADER, SECRET_HEADER
from inkcard.app.server.routes_cards import HOW_TO_SEND_KEY, api_key_of
from inkcard.app.services import Services

MCP_PATH = "/mcp"


class HttpMcp:
    """The MCP server mounted on the service: a route and a lifespan for ``create_app``."""

    def __init__(self, services: Services):
        self.tools = InkcardTools(services)
        settings = services.settings
        server = self.tools.server(self._caller)
        self.sessions = StreamableHTTPSessionManager(
            app=server,
            json_response=True,
            stateless=True,
            max_request_body_size=settings.max_body_bytes,
        )
        self.route: ASGIRouteHandler = asgi(MCP_PATH, is_mount=True, copy_scope=True)(self._serve)

    @asynccontextmanager
    async def lifespan(self, app: Litestar) -> AsyncIterator[None]:
        """Runs after the service's own lifespan has opened credits, storage and fonts."""
        self.tools.opened = True
        async with self.sessions.run():
            yield

    async def _serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse anything but POST (405, our body: stateless JSON answers never stream, so a
        GET would open an SSE stream that never sends) and a request without a live key (401)
        before the MCP layer."""
        if scope.get("method") != "POST":
            raise MethodNotAllowedException(headers={"Allow": "POST"})
        key = api_key_of(scope["headers"])
        credits = self.tools.services_now().credits
        # The tool call of this request uses this key: one authentication per call.
        scope["inkcard.key"] = await operations.authenticate(credits, key, HOW_TO_SEND_KEY)  # type: ignore[typeddict-unknown-key]  # our note for the tool
        scope["inkcard.request_id"] = logs.current_id()  # type: ignore[typeddict-unknown-key]  # our note for the tool
        watch = DisconnectWatch(receive)
        scope["inkcard.gone"] = watch.gone  # type: ignore[typeddict-unknown-key]  # our note for the tool
        try:
            await self.sessions.asgi_app(scope, watch.receive, send)  # type: ignore[arg-type]  # the same ASGI scope, starlette's type
        finally:
            watch.close()

    def _caller(self, ctx: Any) -> Caller:
        request = ctx.request
        headers = request.headers
        return Caller(
            api_key=headers.get("x-api-key", ""),
            how_to_send_key=HOW_TO_SEND_KEY,
            appid=headers.get(APPID_HEADER, ""),
            secret=headers.get(SECRET_HEADER, ""),
            account=headers.get(ACCOUNT_HEADER, ""),
            base_url=logs.current_origin() or self.tools.services_now().settings.service_url,
            request_id=request.scope.get("inkcard.request_id"),
            key=request.scope.get("inkcard.key"),
            gone=request.scope.get("inkcard.gone"),
        )
