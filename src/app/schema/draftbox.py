"""The draft box, publishing and stored accounts → their request and answer records.

``GET /api/platform/drafts`` (a page of the account's drafts), ``GET``/``DELETE
/api/platform/drafts/{mediaId}``, ``POST /api/platform/publish`` (``PublishRequest``) and
``GET /api/platform/publish/{publishId}`` answer the records below, their fields named as the
platform's answers name them (``media_id``, ``update_time``, ``publish_id``), like the drafts'
``data``; ``PUT /api/platform/accounts/{name}`` takes an ``AccountRequest``. A secret is never
in an answer: ``AccountInfo`` has none. Their MCP tools' arguments (``DraftListArguments`` and
the others at the end) are the same requests, the path's id and the headers as arguments.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from inkcard.app.errors import InvalidField
from inkcard.app.schema.generate import Cost, Message, Success
from inkcard.app.schema.platform import (
    MEDIA_ID_LIMIT,
    DraftMediaId,
    IdempotencyKey,
    PlatformAccount,
    PlatformAppid,
    PlatformAppSecret,
)
from inkcard.app.schema.wire import convert_fields, decode_object

PAGE_LIMIT = 20  # draft/batchget's count is 1..20
OFFSET_LIMIT = 1_000_000  # far past any draft box; a larger offset is a caller's mistake
ACCOUNT_NAME_LIMIT = 64
APPID_LIMIT = 64
SECRET_LIMIT = 128
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]*$"  # one class then one: nothing to backtrack


class DraftArticle(msgspec.Struct, frozen=True, omit_defaults=True):
    """One article of a draft, as the platform keeps it."""

    title: Annotated[str, msgspec.Meta(description="The article's title.")]
    author: Annotated[str, msgspec.Meta(description="Its author (may be empty).")] = ""
    digest: Annotated[str, msgspec.Meta(description="Its summary (may be empty).")] = ""
    article_type: Annotated[
        str, msgspec.Meta(description="news (an article) or newspic (an image post).")
    ] = "news"
    url: Annotated[
        str, msgspec.Meta(description="The platform's preview link of the draft (may be empty).")
    ] = ""
    thumb_media_id: Annotated[
        str, msgspec.Meta(description="The cover's permanent media_id (news).")
    ] = ""
    content_source_url: Annotated[str, msgspec.Meta(description="The 'read more' link.")] = ""
    content: Annotated[
        str | None,
        msgspec.Meta(
            description="The HTML (an image post: its text); only when one draft is read."
        ),
    ] = None


Articles = Annotated[list[DraftArticle], msgspec.Meta(description="The draft's articles in order.")]
MediaId = Annotated[str, msgspec.Meta(description="The draft's media_id.")]


class DraftSummary(msgspec.Struct, frozen=True):
    """One draft of a page: its id, when it last changed, its articles (without HTML)."""

    media_id: MediaId
    update_time: Annotated[int, msgspec.Meta(description="Last change, Unix seconds.")]
    articles: Articles


class DraftPage(msgspec.Struct, frozen=True):
    """A page of the account's draft box, newest first."""

    total_count: Annotated[int, msgspec.Meta(description="Drafts in the box in all.")]
    offset: Annotated[int, msgspec.Meta(description="Where this page starts (0: the newest).")]
    drafts: Annotated[list[DraftSummary], msgspec.Meta(description="This page's drafts.")]
    cost: Cost = 0


class DraftListResponse(msgspec.Struct, frozen=True):
    """``GET /api/platform/drafts``: a page of the draft box."""

    success: Success
    message: Message
    data: Annotated[DraftPage, msgspec.Meta(description="The page.")]


class DraftRead(msgspec.Struct, frozen=True):
    """One draft with its articles' HTML."""

    media_id: MediaId
    articles: Articles
    cost: Cost = 0


class DraftGetResponse(msgspec.Struct, frozen=True):
    """``GET /api/platform/drafts/{mediaId}``: one draft."""

    success: Success
    message: Message
    data: Annotated[DraftRead, msgspec.Meta(description="The draft.")]


class DraftGone(msgspec.Struct, frozen=True):
    """What was deleted."""

    media_id: MediaId
    cost: Cost = 0


class DraftDeleteResponse(msgspec.Struct, frozen=True):
    """``DELETE /api/platform/drafts/{mediaId}``: the draft is gone from the box."""

    success: Success
    message: Message
    data: Annotated[DraftGone, msgspec.Meta(description="The deleted draft.")]


class PublishRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``POST /api/platform/publish``: which draft to publish."""

    draftMediaId: Annotated[
        DraftMediaId,
        msgspec.Meta(
            min_length=1,
            description="The media_id of the account's draft to publish (a draft answer's"
            " data.media_id, or one listed by GET /api/platform/drafts).",
        ),
    ]


PUBLISH_ACCEPTED = {
    "draftMediaId": f"a draft's media_id: 1 to {MEDIA_ID_LIMIT} printable ASCII characters"
}


def parse_publish(body: bytes) -> PublishRequest:
    """Decode and validate a publish body.

    Raises:
        InvalidJson: The body is not a JSON object.
        InvalidField: ``draftMediaId`` is missing or not a media_id (400).
    """
    fields: dict[str, Any] = decode_object(body, PUBLISH_ACCEPTED)
    if not fields.get("draftMediaId"):
        raise InvalidField(
            f"draftMediaId is required: {PUBLISH_ACCEPTED['draftMediaId']}",
            label="invalid_draft_media_id",
        )
    return convert_fields(fields, PublishRequest, PUBLISH_ACCEPTED)


class Published(msgspec.Struct, frozen=True):
    """The publish job the platform started."""

    publish_id: Annotated[
        str, msgspec.Meta(description="The job's id: GET /api/platform/publish/{publishId}.")
    ]
    msg_data_id: Annotated[int, msgspec.Meta(description="The platform's message id.")] = 0
    cost: Cost = 0


class PublishResponse(msgspec.Struct, frozen=True):
    """``POST /api/platform/publish``: the draft was submitted; publishing runs on."""

    success: Success
    message: Message
    data: Annotated[Published, msgspec.Meta(description="The job.")]


class PublishedArticle(msgspec.Struct, frozen=True):
    """One published article."""

    index: Annotated[int, msgspec.Meta(description="Its place in the post, from 1.")]
    url: Annotated[str, msgspec.Meta(description="Its public link.")]


class PublishState(msgspec.Struct, frozen=True):
    """Where a publish job is."""

    publish_id: Annotated[str, msgspec.Meta(description="The job's id.")]
    status: Annotated[
        str,
        msgspec.Meta(
            description="published, publishing, original_check_failed, failed, rejected,"
            " deleted or banned (the platform's publish_status 0-6; unknown_N for another)."
        ),
    ]
    publish_status: Annotated[int, msgspec.Meta(description="The platform's own number.")]
    article_id: Annotated[str, msgspec.Meta(description="The post's id once published.")] = ""
    articles: Annotated[
        list[PublishedArticle], msgspec.Meta(description="The public links once published.")
    ] = []
    failed: Annotated[
        list[int], msgspec.Meta(description="The articles (from 1) that failed, if any.")
    ] = []
    cost: Cost = 0


class PublishStatusResponse(msgspec.Struct, frozen=True):
    """``GET /api/platform/publish/{publishId}``: the job's state, in plain words too."""

    success: Success
    message: Message
    data: Annotated[PublishState, msgspec.Meta(description="The job's state.")]


class AccountRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``PUT /api/platform/accounts/{name}``: the account's AppID and AppSecret."""

    appid: Annotated[
        str,
        msgspec.Meta(
            max_length=APPID_LIMIT,
            pattern=r"^[!-~]+$",
            description="Required: the official account's AppID (wx…).",
        ),
    ] = ""
    secret: Annotated[
        str,
        msgspec.Meta(
            max_length=SECRET_LIMIT,
            pattern=r"^[!-~]+$",
            description="Required: its AppSecret, stored encrypted, never shown again.",
        ),
    ] = ""


ACCOUNT_ACCEPTED = {
    "appid": f"the AppID: 1 to {APPID_LIMIT} printable ASCII characters",
    "secret": f"the AppSecret: 1 to {SECRET_LIMIT} printable ASCII characters",
}


def parse_account(body: bytes) -> AccountRequest:
    """Decode and validate an account body; a refusal never repeats the secret.

    Raises:
        InvalidJson: The body is not a JSON object.
        InvalidField: ``appid`` or ``secret`` missing or malformed (400).
    """
    fields: dict[str, Any] = decode_object(body, ACCOUNT_ACCEPTED)
    for name in ACCOUNT_ACCEPTED:
        if not fields.get(name):
            raise InvalidField(
                f"{name} is required: {ACCOUNT_ACCEPTED[name]}", label=f"invalid_{name}"
            )
    return convert_fields(fields, AccountRequest, ACCOUNT_ACCEPTED)


AccountName = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=ACCOUNT_NAME_LIMIT,
        pattern=NAME_PATTERN,
        description="The name the key gives the account: letters, digits, '.', '_', '-'.",
    ),
]


def check_account_name(name: str) -> str:
    """``name`` when it is a valid account name.

    Raises:
        InvalidField: It is not (400 ``invalid_account``).
    """
    try:
        return msgspec.convert(name, AccountName)
    except msgspec.ValidationError:
        raise InvalidField(
            f"an account name is 1 to {ACCOUNT_NAME_LIMIT} letters, digits, '.', '_' or '-'"
            " (starting with a letter or digit)",
            label="invalid_account",
        ) from None


class AccountInfo(msgspec.Struct, frozen=True):
    """A stored account as it may be shown: never its secret."""

    name: Annotated[str, msgspec.Meta(description="The account's name.")]
    appid: Annotated[str, msgspec.Meta(description="Its AppID.")]
    updated_at: Annotated[str, msgspec.Meta(description="When it was stored, ISO 8601 UTC.")]


class AccountResponse(msgspec.Struct, frozen=True):
    """``PUT`` or ``DELETE /api/platform/accounts/{name}``: the account stored or forgotten."""

    success: Success
    message: Message
    data: Annotated[AccountInfo, msgspec.Meta(description="The account (no secret).")]


class AccountListResponse(msgspec.Struct, frozen=True):
    """``GET /api/platform/accounts``: the key's accounts by name."""

    success: Success
    message: Message
    data: Annotated[list[AccountInfo], msgspec.Meta(description="The accounts (no secrets).")]


# The MCP tools of the draft box, publishing and the stored accounts (app.mcp.boxlisting): what
# their HTTP routes take in the path, the query, the body and the headers, as arguments.

_TOOL_ID = {"min_length": 1, "max_length": MEDIA_ID_LIMIT, "pattern": r"^[!-~]+$"}


class DraftListArguments(msgspec.Struct, frozen=True, kw_only=True):
    """``list_drafts``: the page, and the account."""

    offset: Annotated[
        int,
        msgspec.Meta(
            ge=0, le=OFFSET_LIMIT, description="Where the page starts: 0 is the newest draft."
        ),
    ] = 0
    count: Annotated[
        int, msgspec.Meta(ge=1, le=PAGE_LIMIT, description="How many drafts (1-20).")
    ] = PAGE_LIMIT
    platformAppid: PlatformAppid = None
    platformAppSecret: PlatformAppSecret = None
    account: PlatformAccount = None


class DraftArguments(msgspec.Struct, frozen=True, kw_only=True):
    """``get_draft`` and ``delete_draft``: which draft, and the account."""

    mediaId: Annotated[
        str,
        msgspec.Meta(
            **_TOOL_ID,
            description="The draft's media_id (a draft answer's data.media_id, or one"
            " list_drafts shows).",
        ),
    ]
    platformAppid: PlatformAppid = None
    platformAppSecret: PlatformAppSecret = None
    account: PlatformAccount = None


class PublishArguments(PublishRequest, frozen=True, kw_only=True):
    """``publish_draft``: the publish body, the account, the retry key."""

    platformAppid: PlatformAppid = None
    platformAppSecret: PlatformAppSecret = None
    account: PlatformAccount = None
    idempotencyKey: IdempotencyKey = None


class PublishStatusArguments(msgspec.Struct, frozen=True, kw_only=True):
    """``get_publish_status``: which job, and the account."""

    publishId: Annotated[
        str,
        msgspec.Meta(**_TOOL_ID, description="The publish job's id (publish_draft's publish_id)."),
    ]
    platformAppid: PlatformAppid = None
    platformAppSecret: PlatformAppSecret = None
    account: PlatformAccount = None


class AccountStoreArguments(AccountRequest, frozen=True, kw_only=True):
    """``store_platform_account``: the name, and the account body."""

    name: AccountName


class AccountNameArguments(msgspec.Struct, frozen=True, kw_only=True):
    """``delete_platform_account``: which account."""

    name: AccountName
