"""``inkcard mcp``: the MCP tools served to one desktop agent over stdin/stdout.

The API key comes from ``--api-key`` or ``INKCARD_API_KEY``, platform credentials from
``INKCARD_PLATFORM_APPID`` and ``INKCARD_PLATFORM_APP_SECRET``, or ``INKCARD_PLATFORM_ACCOUNT``
naming an account the key stored.

``initialize`` is answered before the engine and the services are imported: they open behind
it (``_Backend``), cards are drawn in this process (``InlineRenderPool``), and a tool call
waits until they are open. A key that is not live still ends the server with its error.

The SDK's stdio transport reads stdin a whole line at a time, however long, and drops a line
it cannot parse without an answer. So stdin reaches it through ``CheckedLines``: a line is
read up to ``max_body_bytes`` (the limit of a ``/mcp`` request body), must be JSON and a
JSON-RPC message, and anything else is answered here with a JSON-RPC error and skipped.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple

import anyio
import anyio.to_thread
import mcp_types as types
import msgspec
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import (
    INVALID_REQUEST,
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    RequestId,
    jsonrpc_message_adapter,
)
from pydantic import ValidationError  # the SDK's messages are pydantic models

from inkcard.app.mcp.protocol import mcp_server
from inkcard.app.settings import Settings

if TYPE_CHECKING:  # the engine and the services are imported once initialize is answered
    from inkcard.app.mcp.tools import Caller, InkcardTools
    from inkcard.app.services import Services

log = logging.getLogger("inkcard.mcp")
_DISCARD_CHUNK = 1024 * 1024  # how much of an over-long line is read at a time to skip it


class _TooLong:
    """What ``CheckedLines`` reads in place of a line over its limit."""


class _Checked(NamedTuple):
    """A line read, with the JSON-RPC error answering it (None: a message) and its method."""

    line: bytes
    refusal: JSONRPCError | None
    method: str | None


class CheckedLines:
    """stdin for the SDK's stdio transport: lines of at most ``limit`` bytes, each a
    JSON-RPC message; every other line is answered with a JSON-RPC error on ``answer_on``'s
    stream and never reaches the SDK."""

    def __init__(self, stdin: BinaryIO, limit: int) -> None:
        self._stdin = stdin
        self._limit = limit
        self._answers: Any = None  # the transport's write stream, once it exists
        self._ready = anyio.Event()
        self.past_initialize = anyio.Event()
        """Set by the first message after ``initialize`` (the client has its answer), or at
        the end of stdin."""

    def answer_on(self, write_stream: Any) -> None:
        """Send the errors on ``write_stream`` (the transport's); reading starts now."""
        self._answers = write_stream
        self._ready.set()

    def __aiter__(self) -> CheckedLines:
        return self

    async def __anext__(self) -> str:
        await self._ready.wait()
        while True:
            # abandoned on cancel: a read blocked on stdin must not hold up the shutdown
            read = await anyio.to_thread.run_sync(self._read_checked, abandon_on_cancel=True)
            if read is None:
                self.past_initialize.set()
                raise StopAsyncIteration
            refusal: JSONRPCError | None
            if isinstance(read, _TooLong):
                limit = f"a line may be at most {self._limit:,} bytes"
                refusal = _error(PARSE_ERROR, f"Parse error: {limit}")
            elif not read.line.strip():
                continue  # a blank line is no message, and no answer is due
            elif read.refusal is None:
                if read.method != "initialize":
                    self.past_initialize.set()
                return read.line.decode("utf-8", errors="replace")  # as the SDK decodes stdin
            else:
                refusal = read.refusal
            await self._answers.send(SessionMessage(refusal))

    def _read_checked(self) -> _Checked | _TooLong | None:
        """The next line (None at the end of input) with its refusal and method, both found
        here in the reading thread: the JSON of a line of up to ``limit`` bytes is read off
        the event loop (CONTRIBUTING.md, "Patterns")."""
        line = self._read_line()
        if not isinstance(line, bytes):
            return line
        if not line.strip():
            return _Checked(line, None, None)
        refusal = _refusal(line)
        return _Checked(line, refusal, _method_of(line) if refusal is None else None)

    def _read_line(self) -> bytes | _TooLong | None:
        """The next line (None at the end of input); a longer one is read and dropped in
        pieces, never held whole."""
        line = self._stdin.readline(self._limit + 1)
        if not line:
            return None
        if len(line) <= self._limit or line.endswith(b"\n"):
            return line
        while (rest := self._stdin.readline(_DISCARD_CHUNK)) and not rest.endswith(b"\n"):
            pass
        return _TooLong()


def _refusal(line: bytes) -> JSONRPCError | None:
    """The error answering ``line``, None when it is a JSON-RPC message (checked as the SDK
    checks it, so a line that passes here passes there)."""
    try:
        jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValidationError as error:
        unparsed = [e["msg"] for e in error.errors() if e["type"] == "json_invalid"]
        if unparsed:  # not JSON, or nested past the parser's limit
            return _error(PARSE_ERROR, f"Parse error: {unparsed[0]}")
        return _error(
            INVALID_REQUEST,
            "Invalid Request: the line is JSON but not a JSON-RPC 2.0 message",
            _id_of(line),
        )
    return None


def _error(code: int, message: str, request_id: RequestId | None = None) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message))


def _method_of(line: bytes) -> str | None:
    """The method of a JSON-RPC line that passed ``_refusal`` (None for a response)."""
    try:
        value = msgspec.json.decode(line)
    except msgspec.DecodeError:
        return None
    method = value.get("method") if isinstance(value, dict) else None
    return method if isinstance(method, str) else None


def _id_of(line: bytes) -> RequestId | None:
    """The id of a JSON line that is not a valid request, when it has a usable one."""
    try:
        value = msgspec.json.decode(line)  # nested no deeper than the SDK's parser allows
    except msgspec.DecodeError:  # JSON to the SDK's parser, not to ours (NaN, say)
        return None
    found = value.get("id") if isinstance(value, dict) else None
    return found if isinstance(found, str | int) and not isinstance(found, bool) else None


class _Backend:
    """The tools behind the stdio server, opened once ``initialize`` is answered: the imports
    of the engine and the services (in a thread, so the event loop goes on answering), the
    key checked, the services built and opened. A tool call waits until they are open; a key
    that is not live ends the server."""

    def __init__(self, settings: Settings, lines: CheckedLines) -> None:
        self.settings = settings
        self.lines = lines
        self.checked = anyio.Event()  # the key was checked, live or not
        self.opened = anyio.Event()
        self.stop = anyio.Event()  # stdin ended: close what is open and return
        self._tools: InkcardTools | None = None
        self._caller: Caller | None = None

    async def run(self) -> None:
        """Open everything, serve until cancelled, close everything. Waits for the client to
        have its ``initialize`` answer: the imports would slow that answer down."""
        await self.lines.past_initialize.wait()
        await anyio.to_thread.run_sync(_import_the_tools)
        from inkcard.app import operations
        from inkcard.app.mcp.tools import InkcardTools
        from inkcard.app.services import build_services, running
        from inkcard.app.storage import has_file_urls

        services = build_services(self.settings, in_process=True, serves_files=False)
        caller = stdio_caller(self.settings)
        try:
            await asyncio.to_thread(services.credits.ensure_schema)
            await operations.authenticate(services.credits, caller.api_key, caller.how_to_send_key)
        finally:
            self.checked.set()
        await self._prove_storage(services)
        if self.stop.is_set():
            return
        tools = InkcardTools(
            services, local_files=True, file_urls=has_file_urls(self.settings, served=False)
        )
        async with running(services):
            tools.opened = True
            self._tools, self._caller = tools, caller
            self.opened.set()
            await self.stop.wait()  # not a cancellation: closing the services awaits too

    async def _prove_storage(self, services: Services) -> None:
        """The storage written once before the tools open: one that cannot be written ends
        the server (``SettingsError``, one line); URLs that do not answer are a warning."""
        from inkcard.app.cards.service import FOLDER
        from inkcard.app.storage.startup import prove_storage

        warning = await asyncio.to_thread(
            prove_storage, self.settings, services.raw_storage, FOLDER
        )
        if warning:
            log.warning("%s", warning)

    async def list_tools(self, ctx: Any, params: Any) -> types.ListToolsResult:
        tools, _ = await self._open()
        return types.ListToolsResult(tools=tools.tools())

    async def call_tool(
        self, ctx: Any, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        tools, caller = await self._open()
        return await tools.call(caller, params.name, params.arguments or {})

    async def _open(self) -> tuple[InkcardTools, Caller]:
        await self.opened.wait()
        assert self._tools is not None and self._caller is not None
        return self._tools, self._caller


def _import_the_tools() -> None:
    """Import what the tools run on (most of the start-up time), off the event loop.

    sqlite-utils (the database's door) imports numpy whenever it can, only to map numpy
    column types for inserts we never make: 12-15 MB and ~60 ms this process would carry for
    nothing (the engine draws one card at a time without numpy). So numpy is hidden while
    they are imported, and importable again after (the engine never imports it: grandalf's
    fallback, `layout.diagrams.layered`). For the same reason the cards' PNG rows are packed
    without it (layout.draw).
    """
    hidden = "numpy" not in sys.modules
    if hidden:
        sys.modules["numpy"] = None  # type: ignore[assignment]  # "import numpy" fails here
    try:
        import inkcard.app.mcp.tools
        import inkcard.app.services  # noqa: F401
        from inkcard.layout import draw

        draw.pack_rows_in_python()
    finally:
        if hidden:
            del sys.modules["numpy"]


async def run_stdio(settings: Settings) -> None:
    """Serve one agent over stdin/stdout until stdin ends.

    ``initialize`` is answered at once; the tools open behind it (``_Backend``).

    Raises:
        ApiError: The API key is missing or not live (the server ends; nothing is served).
    """
    lines = CheckedLines(sys.stdin.buffer, settings.max_body_bytes)
    backend = _Backend(settings, lines)
    server = mcp_server(backend.list_tools, backend.call_tool)
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(backend.run)
            async with stdio_server(stdin=lines) as (read, write):  # type: ignore[arg-type]  # an async iterable of lines is all the transport reads
                lines.answer_on(write)
                await server.run(read, write, server.create_initialization_options())
            await backend.checked.wait()  # stdin ended: still say whether the key was live
            backend.stop.set()
    except BaseExceptionGroup as group:
        raise _first_error(group) from None


def _first_error(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The error that ended the server (the key's refusal), out of anyio's group."""
    first = group.exceptions[0]
    return _first_error(first) if isinstance(first, BaseExceptionGroup) else first


def stdio_caller(settings: Settings) -> Caller:
    """The one caller of a stdio server: the key and account of the settings, and the
    reader of local files under the allowed roots."""
    from inkcard.app.localfiles import LocalReader, roots_of
    from inkcard.app.mcp.tools import ACCOUNT_ENV, API_KEY_ENV, APPID_ENV, SECRET_ENV, Caller

    return Caller(
        api_key=settings.api_key,
        how_to_send_key=f"set {API_KEY_ENV} (or pass --api-key) to your Inkcard API key",
        appid=settings.platform_appid,
        secret=settings.platform_app_secret,
        credential_names=(APPID_ENV, SECRET_ENV),
        account=settings.platform_account,
        account_name=ACCOUNT_ENV,
        base_url="",  # no address serves this process's previews: list_themes names none
        local=LocalReader(roots_of(settings)),
    )
