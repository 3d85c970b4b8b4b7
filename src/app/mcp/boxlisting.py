"""The draft box's, publishing's and the stored accounts' MCP tools as agents see them: their
input schemas (derived from records, as the other tools' are) and their
descriptions with the prices in force (their arguments' records are ``app.schema.draftbox``'s).
What they do is ``app.mcp.boxtools``.

Each takes what its HTTP route takes: the path's id and the body as arguments, the headers'
account as ``platformAppid`` and ``platformAppSecret`` or ``account`` (else the connection's),
``Idempotency-Key`` as ``idempotencyKey``. A stored account's secret goes in once
(``store_platform_account``) and no tool answers it.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types

from inkcard.app.prices import Prices, credits
from inkcard.app.schema import tool_schema
from inkcard.app.schema.draftbox import (
    PAGE_LIMIT,
    AccountNameArguments,
    AccountStoreArguments,
    DraftArguments,
    DraftListArguments,
    PublishArguments,
    PublishStatusArguments,
)

_ACCOUNT = (
    " The account: platformAppid and platformAppSecret, or account naming one the key stored"
    " (store_platform_account), else the one configured on the connection."
)
_ERRORS = (
    " Platform error 48001 is platform_api_unauthorized (the account lacks the API; the"
    " message says what to do); a failed call costs nothing."
)


def box_tools(prices: Prices) -> list[types.Tool]:
    """The draft box's, publishing's and the stored accounts' tools, priced by ``prices``."""
    free = f" Free ({credits(prices.draft_box)})."
    reading = types.ToolAnnotations(read_only_hint=True, open_world_hint=True)
    deleting = types.ToolAnnotations(read_only_hint=False, destructive_hint=True)
    return [
        _tool(
            "list_drafts",
            "A page of the WeChat account's draft box",
            "List the account's drafts, newest first: each draft's media_id, last change and"
            " articles (title, author, digest, preview link; no HTML), with the box's"
            f" total_count; offset and count (1-{PAGE_LIMIT}) page through it." + free + _ACCOUNT,
            DraftListArguments,
            reading,
        ),
        _tool(
            "get_draft",
            "One draft of the WeChat account, with its HTML",
            "Read one draft of the account by media_id: its articles with their HTML. A"
            " media_id the box lacks is draft_not_found." + free + _ACCOUNT,
            DraftArguments,
            reading,
            ("mediaId",),
        ),
        _tool(
            "delete_draft",
            "Delete one draft of the WeChat account",
            "Delete one draft from the account's draft box, for good; draft_not_found when the"
            " box has none of that media_id." + free + _ACCOUNT,
            DraftArguments,
            deleting,
            ("mediaId",),
        ),
        _tool(
            "publish_draft",
            "Publish a draft of the WeChat account",
            "Submit a draft for publishing (the platform's freepublish/submit): it leaves the"
            " draft box and publishing runs on; get_publish_status says when it is live."
            " Verified (认证) accounts only: others get platform_api_unauthorized with what to do"
            " (publish by hand at mp.weixin.qq.com). Costs what a draft costs"
            f" ({credits(prices.publish)}, a balance of {credits(prices.publishing_minimum)}"
            " needed), only when the platform took the draft; a retry with the same"
            " idempotencyKey, or the same draft again within ten minutes, is answered again and"
            " never submitted twice." + _ACCOUNT + _ERRORS,
            PublishArguments,
            types.ToolAnnotations(read_only_hint=False, destructive_hint=False),
            ("draftMediaId",),
        ),
        _tool(
            "get_publish_status",
            "Where a publish job of the WeChat account is",
            "Where a publish job is, in plain words: status published, publishing (ask again"
            " in a few seconds), original_check_failed, failed, rejected, deleted or banned,"
            " and the public links once published." + free + _ACCOUNT,
            PublishStatusArguments,
            reading,
            ("publishId",),
        ),
        _tool(
            "store_platform_account",
            "Store a WeChat account under a name",
            "Store (or replace) a WeChat official account for this API key under a name"
            " (letters, digits, '.', '_', '-'): its appid and secret. The secret is encrypted"
            " with the server's INKCARD_ACCOUNT_KEY (without it: account_key_missing) and never"
            " shown again; then any platform tool takes account: <name> instead of"
            " platformAppid and platformAppSecret." + free,
            AccountStoreArguments,
            types.ToolAnnotations(read_only_hint=False, destructive_hint=False),
            ("name", "appid", "secret"),
        ),
        types.Tool(
            name="list_platform_accounts",
            title="The WeChat accounts this key stored",
            description="The key's stored accounts: names, AppIDs and when each was stored;"
            " never a secret." + free,
            input_schema={"type": "object", "properties": {}, "additionalProperties": False},
            annotations=types.ToolAnnotations(read_only_hint=True),
        ),
        _tool(
            "delete_platform_account",
            "Forget a stored WeChat account",
            "Forget the key's stored account of that name (account_not_found when it has"
            " none)." + free,
            AccountNameArguments,
            deleting,
            ("name",),
        ),
    ]


def _tool(
    name: str,
    title: str,
    description: str,
    arguments: type,
    annotations: types.ToolAnnotations,
    required: tuple[str, ...] = (),
) -> types.Tool:
    schema: dict[str, Any] = tool_schema(arguments, (), required)
    return types.Tool(
        name=name,
        title=title,
        description=description,
        input_schema=schema,
        annotations=annotations,
    )


BOX_TOOLS = (
    "list_drafts",
    "get_draft",
    "delete_draft",
    "publish_draft",
    "get_publish_status",
    "store_platform_account",
    "list_platform_accounts",
    "delete_platform_account",
)
"""The tools this module lists, in order."""
