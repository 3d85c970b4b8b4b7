"""The fields every publishing call shares → one declaration each, with one description.

convert-and-draft (``app.schema.article``) and newspic-draft (``app.schema.publish``) both take
a draft to update (``draftMediaId``, ``draftMissing``); their MCP tools (and the draft box's)
also take the account and the retry key as arguments (``platformAppid`` and
``platformAppSecret``, or ``account``; ``idempotencyKey``), which the HTTP routes take as
headers. Each is declared here once, so the OpenAPI document, the MCP tool schemas and the
README say the same of it for every call.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

MEDIA_ID_LIMIT = 128  # the platform's draft media_id is at most 128 characters
DraftMissing = Literal["fail", "create"]
DRAFT_MISSING: tuple[DraftMissing, ...] = ("fail", "create")
DraftMediaId = Annotated[
    str,
    msgspec.Meta(
        max_length=MEDIA_ID_LIMIT,
        pattern=r"^[!-~]*$",
        description="Drafts: the media_id of a draft of the account (a former answer's"
        " data.media_id), updated in place instead of a new one made. Empty: a new draft.",
    ),
]
DraftMissingField = Annotated[
    DraftMissing,
    msgspec.Meta(
        description="Drafts: when draftMediaId names no draft of the account (published or"
        " deleted): 404 draft_not_found, nothing uploaded or charged (fail), or a new draft"
        " (create)."
    ),
]
DRAFT_FIELDS_ACCEPTED = {
    "draftMediaId": f"a draft's media_id: at most {MEDIA_ID_LIMIT} printable ASCII characters",
    "draftMissing": "one of " + ", ".join(DRAFT_MISSING),
}

# The MCP tools' arguments for what the HTTP routes take as headers.
PlatformAppid = Annotated[
    str | None,
    msgspec.Meta(
        description="AppID of the WeChat official account whose draft box gets the draft (with"
        " platformAppSecret: both or neither). Neither (and no account): the account"
        " configured on the connection, if any."
    ),
]
PlatformAppSecret = Annotated[
    str | None,
    msgspec.Meta(description="AppSecret of that account (better configured on the connection)."),
]
PlatformAccount = Annotated[
    str | None,
    msgspec.Meta(
        description="The name of a WeChat account this API key stored (PUT"
        " /api/platform/accounts/{name}, or the tool store_platform_account), instead of"
        " platformAppid and platformAppSecret (not with them); the HTTP routes'"
        " Platform-Account header. Unknown: account_not_found, nothing charged."
    ),
]
IdempotencyKey = Annotated[
    str | None,
    msgspec.Meta(
        description="1-255 printable ASCII characters: a retry with the same key (within"
        " INKCARD_IDEMPOTENCY_HOURS, 24 by default) gets the first answer again and is"
        " charged once; the HTTP route's Idempotency-Key header."
    ),
]

_ACCOUNT_HINT = "the draft account is sent as the Platform-Appid and Platform-App-Secret headers"
HEADER_HINTS = {
    "platformAppid": _ACCOUNT_HINT,
    "platformAppSecret": _ACCOUNT_HINT,
    "account": "a stored account is named in the Platform-Account header",
    "idempotencyKey": "it is sent as the Idempotency-Key header",
}
"""The publishing bodies' unknown fields that the MCP tools take as arguments: where they go."""
