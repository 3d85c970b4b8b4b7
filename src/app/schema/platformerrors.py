"""The errors of the draft box, publishing and the accounts a key stores by name, by status
(``errors.ErrorCase`` rows, written once here): the OpenAPI responses of those routes and
the README's tables (``readme.OPERATIONS``). Out of ``errors`` for its length: these three
operations share their account and platform cases with each other, not with the others.
"""

from __future__ import annotations

from inkcard.app.schema.draftbox import OFFSET_LIMIT, PAGE_LIMIT
from inkcard.app.schema.errors import ARTICLE, BODY_LIMIT, ErrorCase, cases_of

_ACCOUNT_NAMED = (
    ErrorCase(
        (400,),
        ("missing_platform_credentials", "conflicting_platform_credentials"),
        "neither `Platform-Account` nor both platform headers (a draft box call needs the"
        " account); only one of the two headers; `Platform-Account` and a header both sent",
    ),
    ErrorCase(
        (400,),
        ("account_key_missing",),
        "a stored account is named but the server has no `INKCARD_ACCOUNT_KEY`",
    ),
    ErrorCase((404,), ("account_not_found",), "the key stored no account of that name"),
    ErrorCase(
        (500,),
        ("account_unreadable",),
        "the stored secret does not open with `INKCARD_ACCOUNT_KEY` (the key was changed)",
    ),
)
_PLATFORM_REFUSALS = (
    ErrorCase(
        (403,),
        ("platform_api_unauthorized",),
        "platform error 48001: the account lacks the API (publishing: verified accounts only;"
        " the message says what to do)",
    ),
    *(case for case in cases_of(ARTICLE, 502, 504) if "image_upload_failed" not in case.labels),
)


def _in_order(*cases: ErrorCase) -> tuple[ErrorCase, ...]:
    """``cases`` by their lowest status, as the tables read best (a stable sort)."""
    return tuple(sorted(cases, key=lambda case: min(case.statuses)))


DRAFT_BOX: tuple[ErrorCase, ...] = _in_order(
    ErrorCase(
        (400,),
        ("invalid_offset", "invalid_count", "invalid_mediaid", "invalid_publishid"),
        f"`offset` not 0..{OFFSET_LIMIT:,}, `count` not 1..{PAGE_LIMIT}, or an id not 1-128"
        " printable ASCII",
    ),
    ErrorCase((400,), ("invalid_account",), "`Platform-Account` is not an account name"),
    *_ACCOUNT_NAMED,
    *(case for case in cases_of(ARTICLE, 401) if "missing_api_key" in case.labels),
    ErrorCase(
        (404,),
        ("draft_not_found", "publish_not_found"),
        "the account has no such draft (published, deleted, another account's) or publish job",
    ),
    ErrorCase((405,), ("method_not_allowed",), "as for generate"),
    *_PLATFORM_REFUSALS,
)
"""The draft box's reads and deletes, and a publish job's status: free."""

PUBLISH: tuple[ErrorCase, ...] = _in_order(
    ErrorCase(
        (400,),
        ("invalid_json", "unknown_field", "invalid_draft_media_id"),
        "the body is not one JSON object, names another field, or `draftMediaId` is missing"
        " or not a media_id",
    ),
    *(case for case in cases_of(ARTICLE, 400) if "invalid_idempotency_key" in case.labels),
    ErrorCase((400,), ("invalid_account",), "`Platform-Account` is not an account name"),
    *_ACCOUNT_NAMED,
    *(case for case in cases_of(ARTICLE, 401, 402) if case.statuses != (400,)),
    ErrorCase(
        (404,), ("draft_not_found",), "the account has no such draft (published, deleted, …)"
    ),
    *(
        case
        for case in cases_of(ARTICLE, 405, 408, 409, 413, 422, 429, 503)
        if "payload_too_large" not in case.labels
    ),
    ErrorCase((413,), ("payload_too_large",), f"body over {BODY_LIMIT}"),
    *_PLATFORM_REFUSALS,
)

ACCOUNTS: tuple[ErrorCase, ...] = (
    ErrorCase(
        (400,),
        ("invalid_json", "unknown_field", "invalid_appid", "invalid_secret", "invalid_account"),
        "the body is not one JSON object, names another field, `appid` or `secret` is missing"
        " or not 1-64 / 1-128 printable ASCII characters; the name is not 1-64 letters, digits,"
        " `.`, `_`, `-`",
    ),
    ErrorCase(
        (400,),
        ("account_key_missing",),
        "the server has no `INKCARD_ACCOUNT_KEY` (the message names it): nothing is stored",
    ),
    *(case for case in cases_of(ARTICLE, 401) if "missing_api_key" in case.labels),
    ErrorCase((404,), ("account_not_found",), "DELETE: the key stored no account of that name"),
    ErrorCase((405,), ("method_not_allowed",), "as for generate"),
    ErrorCase((413,), ("payload_too_large",), f"body over {BODY_LIMIT}"),
    ErrorCase((503,), ("busy",), "the database stayed locked (`Retry-After`)"),
)
