"""The MCP server: ``generate_cards``, ``generate_cover``, ``convert_article``,
``create_newspic_draft``, ``create_xhs_note`` and ``list_themes`` for AI agents, and the
draft box's, publishing's and stored accounts' tools (``app.mcp.boxtools``).

One tool set, two transports, built on the official ``mcp`` SDK's low-level ``Server`` (the
tool list, its input schemas derived from the models, is ``app.mcp.listing``; we write the
results ourselves):

- stdio, ``inkcard mcp``: one desktop agent; the API key comes from ``--api-key`` or
  ``INKCARD_API_KEY``, platform credentials from ``INKCARD_PLATFORM_APPID`` and
  ``INKCARD_PLATFORM_APP_SECRET`` (or ``INKCARD_PLATFORM_ACCOUNT``, a stored account's name);
  the Markdown tools also take ``markdownFile`` and read local images (``app.mcp.files``,
  ``app.localfiles``), under ``INKCARD_LOCAL_ROOTS``.
- streamable HTTP at ``/mcp`` on the service (stateless, JSON answers: any worker answers
  any call): every HTTP request needs ``x-api-key``; ``Platform-Appid`` and
  ``Platform-App-Secret`` (or ``Platform-Account``) on the connection configure the account.

A platform tool's own arguments (``platformAppid`` and ``platformAppSecret``, or ``account``)
replace the connection's account (``app.mcp.account``). The tools call the operations the HTTP
routes call (``generate_images``, ``convert_article``, ``app.operations.draftbox``), with the
arguments decoded by the same parsers, so a call is validated, charged and labelled exactly as
the HTTP request with the same body would be. An ``ApiError`` becomes a tool error whose text
is our ``{"error": LABEL, "message": TEXT}``; anything else is logged and answered
``internal_error``, never with a trace.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import uuid
from collections.abc import Awaitable, Callable
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, TypeVar

import mcp_types as types
import msgspec
from mcp.server.lowlevel import Server

from inkcard.app import localfiles, operations
from inkcard.app.cards import gallery
from inkcard.app.cards.service import themes_listing
from inkcard.app.errors import (
    ApiError,
    InternalError,
    MissingPlatformCredentials,
    NotStarted,
    UnknownField,
)
from inkcard.app.ledger.credits import KeyInfo
from inkcard.app.localfiles import LocalReader
from inkcard.app.mcp import account, boxtools
from inkcard.app.mcp.account import SentAccount, idempotency_key_of, pop_account
from inkcard.app.mcp.files import MARKDOWN_FILE, MARKDOWN_TOOLS, read_markdown_file
from inkcard.app.mcp.listing import tool_list
from inkcard.app.mcp.protocol import mcp_server
from inkcard.app.schema import (
    INLINE_BYTES,
    INLINE_CARDS,
    SYNONYMS,
    CoverResponse,
    GenerateResponse,
    ImageRecord,
    invalid,
    parse_article,
    parse_cover,
    parse_generate,
    parse_newspic,
    parse_xhs_note,
)
from inkcard.app.services import Services

log = logging.getLogger("inkcard.mcp")
T = TypeVar("T")

API_KEY_ENV = "INKCARD_API_KEY"
APPID_ENV = "INKCARD_PLATFORM_APPID"
SECRET_ENV = "INKCARD_PLATFORM_APP_SECRET"
ACCOUNT_ENV = "INKCARD_PLATFORM_ACCOUNT"
NO_FILE_URLS = (
    "The files have no URL: nothing serves {folder} over HTTP to this stdio server (set"
    " INKCARD_PUBLIC_URL to an address that serves that folder, or use gcs or s3 storage);"
    " each fileName is a file in that folder."
)
"""Why a stdio answer's records have no URL: one sentence, with the storage folder."""
NO_PREVIEW_URLS = (
    "Preview images have no URL here: `inkcard serve` serves them (GET /api/previews/...),"
    " this stdio server does not."
)


@dataclass(frozen=True)
class Caller:
    """Who calls, as the connection says: API key, draft account, where the service is."""

    api_key: str
    how_to_send_key: str
    appid: str = ""
    secret: str = ""
    credential_names: tuple[str, str] = ("Platform-Appid", "Platform-App-Secret")
    account: str = ""
    """A stored account's name the connection configured (HTTP: ``Platform-Account``)."""
    account_name: str = "Platform-Account"
    base_url: str = ""
    request_id: str | None = None
    key: KeyInfo | None = None
    """The live key when the transport has already authenticated this call (HTTP)."""
    local: LocalReader | None = None
    """Reads ``markdownFile`` and local images (stdio only; None: no local file is read)."""
    gone: asyncio.Event | None = None
    """Set when the client hangs up before the answer (HTTP): the paid work stops, uncharged."""


def _text(value: Any) -> types.TextContent:
    return types.TextContent(text=msgspec.json.encode(value).decode())


def tool_error(label: str, message: str) -> types.CallToolResult:
    """Our error body as a tool error the model reads (``isError``)."""
    body = {"error": label, "message": message}
    return types.CallToolResult(content=[_text(body)], structured_content=body, is_error=True)


def _answer(body: Any, *extra: types.ContentBlock) -> types.CallToolResult:
    plain = msgspec.to_builtins(body)
    return types.CallToolResult(content=[_text(plain), *extra], structured_content=plain)


class InkcardTools:
    """The three tools over the service's ``Services`` (opened by whoever runs the tools)."""

    def __init__(self, services: Services, *, local_files: bool = False, file_urls: bool = True):
        self.services = services
        self.local_files = local_files  # stdio: the Markdown tools take markdownFile
        self.file_urls = file_urls  # False: stored files have no URL (stdio, local, no public)
        self.settings = services.settings
        self.catalogue = services.catalogue
        self.previews = gallery.Previews(self.catalogue)
        self.opened = False  # set once the services are open (the lifespan has run)
        self.argument_names = {
            tool.name: [*tool.input_schema["properties"]] for tool in self.tools()
        }

    def tools(self) -> list[types.Tool]:
        """The tool list: names, plain-words descriptions, input schemas."""
        return tool_list(
            self.settings, self.catalogue, local_files=self.local_files, file_urls=self.file_urls
        )

    # calls

    async def call(
        self, caller: Caller, name: str, arguments: dict[str, Any]
    ) -> types.CallToolResult:
        """Run one tool; every failure is a tool error with our label, never a trace."""
        run = {
            "generate_cards": self._generate,
            "generate_cover": self._cover,
            "convert_article": self._convert,
            "create_newspic_draft": self._newspic,
            "create_xhs_note": self._xhs_note,
            "list_themes": self._list_themes,
        }.get(name) or self._box_tool(name)
        if run is None:
            return tool_error("unknown_tool", f"no tool is named {name!r}")
        try:
            refuse_unknown_arguments(name, arguments, self.argument_names[name])
            arguments, reader = await asyncio.to_thread(
                read_markdown_file, name, arguments, caller.local
            )
            with localfiles.reading(reader) if reader is not None else nullcontext():
                return await run(caller, arguments)
        except ApiError as exc:
            return tool_error(exc.label, exc.message)
        except Exception:
            log.exception("MCP tool %s failed", name)
            return tool_error(InternalError.label, "the server failed to handle this call")

    def services_now(self) -> Services:
        """The services, once they are open."""
        if not self.opened:
            raise NotStarted("the service is still starting")
        return self.services

    async def _key(self, caller: Caller) -> KeyInfo:
        if caller.key is not None:
            return caller.key
        credits = self.services_now().credits
        return await operations.authenticate(credits, caller.api_key, caller.how_to_send_key)

    async def _generate(self, caller: Caller, arguments: dict[str, Any]) -> types.CallToolResult:
        arguments = dict(arguments)
        include = arguments.pop("includeImages", True)
        if not isinstance(include, bool):
            raise invalid("includeImages", "true or false")
        key = await self._key(caller)
        body = await _parsed(parse_generate, arguments)
        services = self.services_now()
        images = await operations.generate_cards(
            services, key, body, caller.request_id or _call_id(), caller.gone
        )
        extra = await self._inline_images(images) if include else []
        return _answer(GenerateResponse(images=images), *self._why_no_urls(), *extra)

    async def _cover(self, caller: Caller, arguments: dict[str, Any]) -> types.CallToolResult:
        key = await self._key(caller)
        body = await _parsed(parse_cover, arguments)
        images, cost = await operations.generate_cover(
            self.services_now(), key, body, caller.request_id or _call_id(), caller.gone
        )
        # without URLs the covers themselves are the answer
        extra = [] if self.file_urls else await self._inline_images(images)
        return _answer(
            CoverResponse(success=True, images=images, cost=cost), *self._why_no_urls(), *extra
        )

    async def _xhs_note(self, caller: Caller, arguments: dict[str, Any]) -> types.CallToolResult:
        key = await self._key(caller)
        body = await _parsed(parse_xhs_note, arguments)
        answer = await operations.create_xhs_note(
            self.services_now(), key, body, caller.request_id or _call_id(), caller.gone
        )
        # without URLs the images themselves are the answer, the cover first
        images = [answer.cover, *answer.images]
        extra = [] if self.file_urls else await self._inline_images(images)
        return _answer(answer, *self._why_no_urls(), *extra)

    def _box_tool(
        self, name: str
    ) -> Callable[[Caller, dict[str, Any]], Awaitable[types.CallToolResult]] | None:
        """The draft box's, publishing's or the stored accounts' tool ``name`` (None: none)."""
        run = boxtools.RUNS.get(name)
        if run is None:
            return None

        async def tool(caller: Caller, arguments: dict[str, Any]) -> types.CallToolResult:
            key = await self._key(caller)
            call_id = caller.request_id or _call_id()
            return _answer(await run(self.services_now(), key, caller, arguments, call_id))

        return tool

    def _why_no_urls(self) -> list[types.ContentBlock]:
        """The sentence saying why the records have no URL, when they have none."""
        if self.file_urls:
            return []
        return [_note(NO_FILE_URLS.format(folder=self.settings.storage_dir))]

    async def _inline_images(self, images: list[ImageRecord]) -> list[types.ContentBlock]:
        """The PNGs as image content when the result is small; else a note saying why not."""
        instead = "use the URLs" if self.file_urls else "read the files"
        if len(images) > INLINE_CARDS:
            return [_note(f"{len(images)} cards are more than {INLINE_CARDS}: {instead}")]
        storage = self.services_now().storage
        blocks: list[types.ContentBlock] = []
        total = 0
        for image in images:
            png = await asyncio.to_thread(storage.read, image.fileName)
            if png is None:
                return [_note(f"the stored cards could not be read back: {instead}")]
            total += len(png)
            if total > INLINE_BYTES:
                return [
                    _note(f"the cards are more than {INLINE_BYTES // 2**20} MiB of PNG: {instead}")
                ]
            data = base64.b64encode(png).decode("ascii")
            blocks.append(types.ImageContent(data=data, mime_type="image/png"))
        return blocks

    async def _convert(self, caller: Caller, arguments: dict[str, Any]) -> types.CallToolResult:
        arguments, sent, idem_key = _account_of(arguments)
        key = await self._key(caller)
        body = await _parsed(parse_article, arguments)
        creds = await account.credentials(self.services_now(), key, caller, sent)
        answer = await operations.convert_article(
            self.services_now(),
            key,
            body,
            creds,
            idem_key,
            caller.request_id or _call_id(),
            caller.gone,
        )
        return _answer(msgspec.json.decode(answer.body))

    async def _newspic(self, caller: Caller, arguments: dict[str, Any]) -> types.CallToolResult:
        arguments, sent, idem_key = _account_of(arguments)
        key = await self._key(caller)
        body = await _parsed(parse_newspic, arguments)
        creds = await account.credentials(self.services_now(), key, caller, sent)
        if creds is None and not body.dryRun:
            raise MissingPlatformCredentials(
                "an image post needs the account: send platformAppid and platformAppSecret,"
                " or account naming a stored account, or configure one on the connection"
            )
        answer = await operations.create_newspic(
            self.services_now(),
            key,
            body,
            creds,
            idem_key,
            caller.request_id or _call_id(),
            caller.gone,
        )
        why = self._why_no_urls() if body.dryRun else []  # a dry run's cards are stored files
        return _answer(msgspec.json.decode(answer.body), *why)

    async def _list_themes(self, caller: Caller, _: dict[str, Any]) -> types.CallToolResult:
        def preview_url(theme: str, mode: str | None) -> str:
            if not caller.base_url:
                return ""
            return f"{caller.base_url}{gallery.PREVIEWS_PATH}/{self.previews.name(theme, mode)}"

        why = [] if caller.base_url else [_note(NO_PREVIEW_URLS)]
        return _answer(themes_listing(self.catalogue, preview_url), *why)

    def server(self, caller_of: Callable[[Any], Caller]) -> Server[Any]:
        """A low-level MCP server of these tools; ``caller_of(request context)`` says who calls."""

        async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
            return types.ListToolsResult(tools=self.tools())

        async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
            return await self.call(caller_of(ctx), params.name, params.arguments or {})

        return mcp_server(list_tools, call_tool)


def refuse_unknown_arguments(tool: str, arguments: dict[str, Any], known: list[str]) -> None:
    """Refuse the first argument that ``tool``'s input schema (its ``known`` names) does not
    have, as the HTTP routes refuse an unknown field. ``markdownFile`` is always a Markdown
    tool's own: over HTTP ``read_markdown_file`` refuses it with its reason.

    Raises:
        UnknownField: Naming the argument and the one it probably meant.
    """
    if tool in MARKDOWN_TOOLS and MARKDOWN_FILE not in known:
        known = [*known, MARKDOWN_FILE]
    for name in arguments:
        if name not in known:
            raise UnknownField.naming(name, known, what="argument", meant=SYNONYMS.get(name))


async def _parsed(parse: Callable[[bytes], T], arguments: dict[str, Any]) -> T:
    """A tool's arguments read by the request parser ``parse`` as a body, in a thread: the
    front matter and the field checks read what the client wrote, which never runs on the
    event loop (CONTRIBUTING.md, "Patterns")."""
    return await asyncio.to_thread(lambda: parse(msgspec.json.encode(arguments)))


def _note(text: str) -> types.TextContent:
    return types.TextContent(text=text)


def _account_of(arguments: dict[str, Any]) -> tuple[dict[str, Any], SentAccount, str | None]:
    """The body's own arguments, the account arguments (``app.mcp.account`` reads them once
    the body is parsed, as the HTTP routes read the headers) and the idempotency key, taken
    out of a platform tool's arguments."""
    arguments, sent = pop_account(arguments)
    return arguments, sent, idempotency_key_of(arguments)


def _call_id() -> str:
    """A ledger request id for a call that came without one (stdio)."""
    return "mcp-" + uuid.uuid4().hex[:16]
