"""Every error an operation can answer, by status: its labels and when → the OpenAPI
responses of each operation and the README's error tables (``python -m inkcard.app.schema.readme``).

Written once here; the labels are those of ``app.errors`` (and the platform errors of
``app.articles``). A case's ``when`` is Markdown, as both readers show it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inkcard.app.prices import PRICES
from inkcard.app.schema.wire import MAX_MARKDOWN_CHARS
from inkcard.app.settings import MIB, Settings

_SET = Settings()  # the defaults the tables quote
BODY_LIMIT = f"{_SET.max_body_bytes // MIB} MiB"
_CHARS = f"{MAX_MARKDOWN_CHARS:,}"


@dataclass(frozen=True)
class ErrorCase:
    """One row of an error table: the statuses, the ``error`` labels and when they happen."""

    statuses: tuple[int, ...]
    labels: tuple[str, ...]
    when: str

    def example_message(self) -> str:
        """``when`` as plain text, the message an example body shows."""
        return re.sub(r"[`\\]", "", self.when)


_UNKNOWN_FIELD = (
    "`unknown_field`: a field this operation does not have (the message names it and the one it"
    " probably meant: `split_mode` → `splitMode`), or a front matter key that is a near miss of"
    " one it reads (`tittle`, `spilt`; other tools' keys, `date`, `tags`, …, are ignored)"
)
UNKNOWN_FIELD = ErrorCase(
    (400,),
    ("unknown_field",),
    "a field this operation does not have (the message names it and the one it probably meant)",
)
CARD_TEXT = ErrorCase(
    (400,),
    ("unknown_field", "empty_markdown", "invalid_front_matter"),
    f"{_UNKNOWN_FIELD}; `empty_markdown`: `markdown` sent empty, only whitespace or only a"
    " front matter (without `markdown`: the sample card); `invalid_front_matter`: over 8,192"
    " characters, not YAML, not a mapping (a list, a single value), an alias, or a list or"
    " mapping for a key it reads",
)

INVALID_BRAND = ErrorCase(
    (400,),
    ("invalid_brand",),
    "`brand` names no brand kit of this key (`GET /api/brands` lists them); nothing is charged",
)

GENERATE: tuple[ErrorCase, ...] = (
    ErrorCase(
        (400,),
        ("invalid_json",),
        "the body is not one JSON object in UTF-8 (also: nested too deeply, a lone `\\uD800` "
        "surrogate)",
    ),
    CARD_TEXT,
    ErrorCase(
        (400,),
        (
            "invalid_markdown",
            "invalid_width",
            "invalid_height",
            "invalid_scale",
            "invalid_split_mode",
            "invalid_mdx_mode",
            "invalid_over_hidden_mode",
        ),
        "the field has the wrong type or is out of range",
    ),
    ErrorCase((400,), ("invalid_format",), "`format` is not one of `png`, `jpeg`, `webp`, `pdf`"),
    ErrorCase((400,), ("invalid_quality",), "`quality` is not an integer 1..100"),
    ErrorCase((400,), ("invalid_fit",), "`fit` is not `none` or `auto`"),
    ErrorCase(
        (400,),
        ("invalid_theme", "invalid_brand"),
        "unknown theme (the message lists the valid IDs); `brand` names no brand kit of this key",
    ),
    ErrorCase(
        (400,),
        ("invalid_theme_mode",),
        "unknown mode of a theme with modes (the message lists them)",
    ),
    ErrorCase(
        (400,),
        ("invalid_mdx",),
        "with `mdxMode`, an expression `{…}`, an `import`/`export` line, an unknown component or "
        "components nested wrongly; the message names the line and the construct (see [MDX "
        "components](docs/markdown.md#inline-html-and-mdx-components))",
    ),
    ErrorCase((400,), ("too_many_pages",), "the Markdown would make more than 50 cards"),
    ErrorCase(
        (400,),
        ("card_too_large",),
        "a `noSplit`/`hrSplit` card would grow past 102,400,000 pixels (WebP: any card past "
        "25,600,000, 1600 × 4000 at scale 2) (use `autoSplit`, `overHiddenMode`, a smaller "
        "`scale` or a wider card), or longer on a side than its format holds (WebP 16,383 px, "
        "JPEG 65,535 px; PNG and PDF have no such limit); checked as the layout goes, before "
        "drawing",
    ),
    ErrorCase(
        (400,),
        ("too_many_pixels",),
        "the cards together would have more than `INKCARD_MAX_OUTPUT_PIXELS`"
        f" ({_SET.max_output_pixels:,}) "
        "pixels, width × height × scale² summed over the cards (use a smaller `scale`, smaller "
        "or fewer cards); checked as the layout goes, before drawing",
    ),
    ErrorCase(
        (400,),
        ("image_too_large",),
        "the distinct images would decode to more than `INKCARD_MAX_IMAGE_PIXELS`"
        f" ({_SET.max_image_pixels:,}) "
        "pixels, width × height read from each image's header, an image named several times "
        "counted once; beside the largest cards less (a card and its images share 900 MB: "
        "20,000,000 beside 1600 × 4000 at scale 4) (use fewer or smaller images)",
    ),
    ErrorCase((401,), ("missing_api_key",), "no `x-api-key` header"),
    ErrorCase((401,), ("invalid_api_key",), "unknown or revoked key"),
    ErrorCase(
        (402,),
        ("insufficient_credits",),
        "`INKCARD_GENERATE_COST` is above 0 and the balance is lower",
    ),
    ErrorCase((404,), ("not_found",), "no such route, or no stored file under that name"),
    ErrorCase(
        (405,),
        ("method_not_allowed",),
        "the route does not take this method (the message and `Allow` list those it does)",
    ),
    ErrorCase(
        (408,),
        ("request_timeout",),
        f"the body did not arrive within `INKCARD_BODY_TIMEOUT` ({_SET.body_timeout:g} s); the"
        " connection is closed",
    ),
    ErrorCase(
        (413,),
        ("payload_too_large",),
        f"body over {BODY_LIMIT}, or `markdown` over {_CHARS} characters",
    ),
    ErrorCase(
        (429,),
        ("rate_limited",),
        f"the key already has `INKCARD_RENDERS_PER_KEY` ({_SET.renders_per_key}) renders in"
        " flight in this worker, or started `INKCARD_REQUESTS_PER_MINUTE`"
        f" ({_SET.requests_per_minute}) paid calls this minute; retry after the "
        "`Retry-After` seconds (cards already stored are not held to the in-flight limit, but "
        "count as calls)",
    ),
    ErrorCase((500,), ("render_failed",), "the card engine failed"),
    ErrorCase((502,), ("storage_error",), "writing to or listing storage failed"),
    ErrorCase(
        (503,), ("overloaded",), "every render slot is busy; retry after the `Retry-After` seconds"
    ),
    ErrorCase(
        (503,),
        ("busy",),
        "the database stayed locked (or, PostgreSQL, had no free connection) for "
        "`INKCARD_DATABASE_BUSY_TIMEOUT`; nothing was charged; retry after the `Retry-After` "
        "seconds",
    ),
    ErrorCase(
        (504,),
        ("timeout",),
        f"rendering and storing took longer than `INKCARD_TIMEOUT` ({_SET.timeout:g} s)",
    ),
)

_PUBLISHING_FIELDS = ErrorCase(
    (400,),
    ("invalid_json", "invalid_<field>", "invalid_front_matter"),
    "body, a field or the front matter is malformed (`invalid_theme`, `invalid_author`, "
    "`invalid_cover_image_url`, …; a front matter over 8,192 characters, not a mapping, with "
    "aliases)",
)

ARTICLE_TEXT = ErrorCase(
    (400,),
    ("unknown_field", "empty_markdown"),
    f"{_UNKNOWN_FIELD}; `empty_markdown`: no `markdown`, or one empty, only whitespace or only"
    " a front matter (HTML, draft or dry run alike)",
)

ARTICLE: tuple[ErrorCase, ...] = (
    _PUBLISHING_FIELDS,
    ARTICLE_TEXT,
    ErrorCase(
        (400,),
        (
            "missing_platform_credentials",
            "conflicting_platform_credentials",
            "invalid_account",
            "account_key_missing",
        ),
        "only one of the two platform headers; `Platform-Account` sent with them, not a name, or"
        " with no `INKCARD_ACCOUNT_KEY` on the server",
    ),
    ErrorCase(
        (400,),
        ("invalid_image",),
        "an image or the cover is on a non-public address, not http(s) or `data:`, or not a "
        "usable image (named in the message); more than 20 images",
    ),
    ErrorCase(
        (400,),
        ("invalid_idempotency_key",),
        "`Idempotency-Key` empty, over 255 characters or not printable ASCII",
    ),
    ErrorCase((401,), ("missing_api_key", "invalid_api_key"), "as for generate"),
    ErrorCase((402,), ("insufficient_credits",), f"balance under {PRICES.publishing_minimum}"),
    ErrorCase(
        (404,),
        ("draft_not_found", "account_not_found"),
        "`draftMediaId` names no draft of the account (published, deleted) and `draftMissing`"
        " is fail; `Platform-Account` names no account of the key",
    ),
    ErrorCase((405, 408), ("method_not_allowed", "request_timeout"), "as for generate"),
    ErrorCase(
        (409,),
        ("idempotency_key_in_use",),
        "the first request with this key is still running (`Retry-After`)",
    ),
    ErrorCase(
        (413,),
        ("payload_too_large",),
        f"body over {BODY_LIMIT} or `markdown` over {_CHARS} characters",
    ),
    ErrorCase(
        (422,),
        ("idempotency_key_reused",),
        "this key was used for a different request (body, theme or account)",
    ),
    ErrorCase(
        (500,),
        ("render_failed", "internal_error", "account_unreadable"),
        "the conversion failed; a stored account's secret does not open with the server's key",
    ),
    ErrorCase(
        (429, 503),
        ("rate_limited", "overloaded", "busy"),
        "as for generate (the conversion runs in the render pool)",
    ),
    ErrorCase(
        (502,),
        ("ip_not_whitelisted",),
        "platform error 40164/61004; the message names the address the platform saw and where "
        "the whitelist is set",
    ),
    ErrorCase((502,), ("invalid_platform_credentials",), "wrong AppID or AppSecret, frozen secret"),
    ErrorCase(
        (502,), ("platform_rate_limited",), "the account's API quota is used up (45009, 45011)"
    ),
    ErrorCase(
        (502,),
        ("image_upload_failed",),
        "an image could not be downloaded, or the platform refused it (named in the message)",
    ),
    ErrorCase(
        (502,), ("platform_error",), "any other platform failure, with its errcode and errmsg"
    ),
    ErrorCase(
        (504,),
        ("platform_timeout",),
        "a platform call took longer than `INKCARD_WECHAT_TIMEOUT`, or the draft longer than "
        "`INKCARD_ARTICLE_TIMEOUT` (`timeout` for HTML only)",
    ),
)


ARTICLE_BODY = (_PUBLISHING_FIELDS, ARTICLE_TEXT)
"""The article body's cases; an image post's body is the cards' (no Markdown: the sample)."""


def cases_of(cases: tuple[ErrorCase, ...], *statuses: int) -> tuple[ErrorCase, ...]:
    return tuple(case for case in cases if set(case.statuses) & set(statuses))


COVER: tuple[ErrorCase, ...] = (
    ErrorCase(
        (400,),
        (
            "invalid_json",
            "invalid_text",
            "invalid_keywords",
            "invalid_count",
            "invalid_theme",
            "invalid_theme_mode",
            "invalid_width",
            "invalid_height",
        ),
        "the body is not one JSON object, or a field is missing (`text`, also when empty or"
        " only whitespace: a cover needs a title), of the wrong type or out of range",
    ),
    UNKNOWN_FIELD,
    INVALID_BRAND,
    *cases_of(GENERATE, 401, 402, 404, 405, 408, 413, 429, 500, 502, 503, 504),
)

_KEY = cases_of(GENERATE, 401)
_BUSY = tuple(case for case in cases_of(GENERATE, 503) if "busy" in case.labels)
BRAND_SAVE: tuple[ErrorCase, ...] = (
    ErrorCase(
        (400,),
        ("invalid_json", "invalid_fonts", "invalid_logo", "invalid_byline", "invalid_footer"),
        "the body is not one JSON object, or a field has the wrong type, is too long or names"
        " a nested field the kit does not have",
    ),
    ErrorCase(
        (400,),
        ("invalid_footer_image", "invalid_watermark", "invalid_page_number"),
        "as above; a watermark needs `text` or `image`",
    ),
    ErrorCase(
        (400,),
        ("invalid_background", "invalid_background_fit"),
        "as above; `backgroundFit` is not cover, contain or tile",
    ),
    UNKNOWN_FIELD,
    ErrorCase(
        (400,),
        ("invalid_font",),
        "a font that fontTools cannot read whole, not base64, without a Unicode cmap, or over"
        " 4 MiB once unpacked; a URL the fetcher refuses or cannot get",
    ),
    ErrorCase(
        (400,),
        ("invalid_image",),
        "an image that is not a `data:image/…;base64,` URI or http(s) URL of a PNG, JPEG, GIF or"
        " WebP, over 512 KiB or over 2,048 px a side; a URL the fetcher refuses or cannot get",
    ),
    ErrorCase(
        (400,),
        ("invalid_brand", "too_many_brands"),
        "the name is not 1..40 ASCII letters, digits, `-` and `_`; the key already holds 20 kits",
    ),
    *_KEY,
    ErrorCase((413,), ("payload_too_large",), "body over 12 MiB"),
    *_BUSY,
)
BRAND_READ: tuple[ErrorCase, ...] = (
    ErrorCase(
        (400,), ("invalid_brand",), "the name is not 1..40 ASCII letters, digits, `-` and `_`"
    ),
    *_KEY,
    ErrorCase((404,), ("not_found",), "the key has no brand kit of that name"),
    *_BUSY,
)
BRAND_LIST: tuple[ErrorCase, ...] = (*_KEY, *_BUSY)

NEWSPIC: tuple[ErrorCase, ...] = (
    _PUBLISHING_FIELDS,
    CARD_TEXT,
    INVALID_BRAND,
    *(case for case in cases_of(ARTICLE, 400) if case not in ARTICLE_BODY),
    ErrorCase(
        (400,),
        ("too_many_pages", "card_too_large", "too_many_pixels", "image_too_large", "invalid_mdx"),
        "the cards break a limit of generate (see its table)",
    ),
    ErrorCase((400,), ("too_many_cards",), "the Markdown makes more than 20 cards"),
    *cases_of(ARTICLE, 401, 402, 404),
    *cases_of(ARTICLE, 405, 408, 409, 413, 422, 429, 500, 502, 503, 504),
)

XHS_NOTE: tuple[ErrorCase, ...] = (
    *(case for case in cases_of(GENERATE, 400) if "invalid_format" not in case.labels),
    ErrorCase(
        (400,),
        ("invalid_format",),
        "`format` is not one of `png`, `jpeg`, `webp` (a note holds images: no `pdf`)",
    ),
    ErrorCase(
        (400,),
        ("invalid_title", "invalid_tags"),
        "`title` is not a string of at most 100 characters; `tags` is not a list of at most 30"
        " tags of at most 30 characters without spaces or # (also when read from the front matter)",
    ),
    *cases_of(GENERATE, 401, 402, 404, 405, 408, 413, 429, 500, 502, 503, 504),
)


def by_status(cases: tuple[ErrorCase, ...]) -> dict[int, list[ErrorCase]]:
    """``cases`` grouped by status, in status order."""
    grouped: dict[int, list[ErrorCase]] = {}
    for case in sorted(cases, key=lambda c: min(c.statuses)):
        for status in case.statuses:
            grouped.setdefault(status, []).append(case)
    return dict(sorted(grouped.items()))


def described(cases: list[ErrorCase]) -> str:
    """One status's cases as a Markdown list: the labels, then when."""
    return "\n".join(
        f"- {', '.join(f'`{label}`' for label in case.labels)}: {case.when}" for case in cases
    )


def examples(
    cases: list[ErrorCase], body: Callable[[str, str], dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """An example body of each label, ``body(label, message)``, by label."""
    return {label: body(label, case.example_message()) for case in cases for label in case.labels}


READY: tuple[ErrorCase, ...] = (
    ErrorCase(
        (503,),
        ("not_ready",),
        "fonts not loaded, a render process not warm yet, or the database or storage not"
        " writable (the message lists each)",
    ),
)

PREVIEW: tuple[ErrorCase, ...] = (
    ErrorCase((400,), ("bad_request",), "the request line or a header could not be read"),
    ErrorCase(
        (404,), ("not_found",), "no theme preview has this name; `GET /api/themes` lists them"
    ),
    *(case for case in cases_of(GENERATE, 503, 504) if "busy" not in case.labels),
)
