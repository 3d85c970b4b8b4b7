"""Request bytes → validated msgspec records; response records → JSON.

``parse_generate`` is strict about types (``"440"`` is not a number) but forgiving about shape:
unknown fields are ignored, a ``null`` field means "use the default", and an empty body is
``{}``. A body that is not one UTF-8 JSON object (``null`` included) is ``invalid_json``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any

import msgspec

import layout
from app.errors import InvalidField, InvalidJson, PayloadTooLarge

DEFAULT_MARKDOWN = "# Hello, Inkcard"
DEFAULT_THEME = "apple-notes"
MAX_MARKDOWN_CHARS = 100_000

_WIDTH, _HEIGHT, _SCALE = (layout.CARD_LIMITS[k] for k in ("width", "height", "scale"))
Width = Annotated[
    float,
    msgspec.Meta(
        ge=_WIDTH[0], le=_WIDTH[1], description="Card width in CSS pixels ({}..{}).".format(*_WIDTH)
    ),
]
Height = Annotated[
    float,
    msgspec.Meta(
        ge=_HEIGHT[0],
        le=_HEIGHT[1],
        description="Card height in CSS pixels ({}..{}).".format(*_HEIGHT),
    ),
]
Scale = Annotated[
    int,
    msgspec.Meta(
        ge=_SCALE[0],
        le=_SCALE[1],
        description="Pixels per CSS pixel in the PNG ({}..{}).".format(*_SCALE),
    ),
]

Quality = Annotated[
    int,
    msgspec.Meta(
        ge=1, le=100, description="JPEG and WebP quality (1..100); PNG and PDF ignore it."
    ),
]


class GenerateRequest(msgspec.Struct, frozen=True, kw_only=True):
    """Body of ``POST /api/generate``. Every field is optional."""

    markdown: Annotated[
        str, msgspec.Meta(description="Markdown text, at most 100,000 characters.")
    ] = DEFAULT_MARKDOWN
    theme: Annotated[str, msgspec.Meta(description="Card theme ID (see GET /api/themes).")] = (
        DEFAULT_THEME
    )
    themeMode: Annotated[
        str | None, msgspec.Meta(description="Mode of the theme; default: the theme's first mode.")
    ] = None
    width: Width = 440
    height: Height = 586
    splitMode: layout.SplitMode = "noSplit"
    mdxMode: bool = False
    overHiddenMode: bool = False
    scale: Scale = 2
    format: Annotated[
        layout.OutputFormat,
        msgspec.Meta(description="File format: one PNG, JPEG or WebP per card, or one PDF of all."),
    ] = "png"
    quality: Quality = layout.DEFAULT_QUALITY


class ImageRecord(msgspec.Struct, frozen=True):
    """One stored card (for ``format`` pdf: the one document of every card)."""

    url: str
    fileName: str
    altText: Annotated[
        str,
        msgspec.Meta(
            description="The text the card shows, in reading order, one laid-out line a line"
            " (headings, paragraphs, list items, code, table rows, image alt texts); for a PDF"
            " every card's, cards apart by a blank line."
        ),
    ]


class GenerateResponse(msgspec.Struct, frozen=True):
    """Success body of ``POST /api/generate``: one record per card, in reading order."""

    images: list[ImageRecord]


class CardTheme(msgspec.Struct, frozen=True):
    """A card theme: its modes (the first is the default) and a preview of each.

    ``preview`` is the sample card in the default mode; ``previews`` maps every mode to its
    sample card (empty for a theme without modes). Both are paths on this service.
    """

    id: str
    label: str
    description: str
    modes: list[str]
    preview: str
    previews: dict[str, str]


class ThemesResponse(msgspec.Struct, frozen=True):
    """Body of ``GET /api/themes``."""

    cards: list[CardTheme]
    articles: list[str]


class ErrorBody(msgspec.Struct, frozen=True):
    """Every error response."""

    error: str
    message: str


# What each field accepts, said the way an error message needs it.
_ACCEPTED = {
    "markdown": "a string",
    "theme": "a string naming a theme",
    "themeMode": "a string naming a mode of the theme",
    "width": "a number between {} and {}".format(*_WIDTH),
    "height": "a number between {} and {}".format(*_HEIGHT),
    "splitMode": "one of " + ", ".join(layout.SPLIT_MODES),
    "mdxMode": "true or false",
    "overHiddenMode": "true or false",
    "scale": "an integer between {} and {}".format(*_SCALE),
    "format": "one of " + ", ".join(layout.FORMATS),
    "quality": "an integer between 1 and 100",
}


def field_label(field: str) -> str:
    """The error label for a bad value of ``field``: ``splitMode`` → ``invalid_split_mode``."""
    snake = "".join("_" + c.lower() if c.isupper() else c for c in field)
    return "invalid_" + snake


def invalid(field: str, accepted: str | None = None) -> InvalidField:
    """A 400 error naming ``field`` and what it accepts."""
    what = accepted or _ACCEPTED[field]
    return InvalidField(f"{field} must be {what}", label=field_label(field))


_UTF8_BOM = b"\xef\xbb\xbf"
# A \uD800-\uDFFF escape that is not half of a pair: msgspec calls it "truncated input".
_LONE_SURROGATE = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])|(?<![0-9a-fA-F]{4})\\u[dD][c-fC-F]"
)
_JSON_KINDS = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}


def _not_utf8(body: bytes) -> str | None:
    """Why ``body`` is not UTF-8 text, if a cheap look says so (UTF-16/32 have BOMs or NULs)."""
    if body[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in body[:4]:
        return "it looks like UTF-16 or UTF-32"
    return None


def _bad_utf8(body: bytes) -> str:
    """Where ``body`` stops being UTF-8 (msgspec's own offset counts inside one string)."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"byte 0x{body[exc.start]:02x} at offset {exc.start} is not UTF-8"
    return "it is not UTF-8"


def _decode_json(body: bytes) -> Any:
    """``body`` decoded as JSON; every way it can fail becomes ``InvalidJson``."""
    why = _not_utf8(body)
    if why:
        raise InvalidJson(f"request body must be JSON encoded as UTF-8 ({why})")
    try:
        return msgspec.json.decode(body.removeprefix(_UTF8_BOM))
    except UnicodeDecodeError:
        raise InvalidJson(
            f"request body must be JSON encoded as UTF-8 ({_bad_utf8(body)})"
        ) from None
    except RecursionError:
        # msgspec recurses once per array/object level; a request never needs more than two.
        raise InvalidJson("request body is not valid JSON (nested too deeply)") from None
    except msgspec.DecodeError as exc:
        reason = str(exc)
        if _LONE_SURROGATE.search(body):
            reason = "a \\u escape names half of a surrogate pair"
        raise InvalidJson(f"request body is not valid JSON ({reason})") from None


def _decode_object(body: bytes, accepted: Mapping[str, str] = _ACCEPTED) -> dict[str, Any]:
    if not body:  # no body at all is all defaults; whitespace alone is not JSON
        return {}
    value = _decode_json(body)
    if not isinstance(value, dict):
        kind = _JSON_KINDS.get(type(value), "a number")
        raise InvalidJson(f"request body must be a JSON object, not {kind}")
    return {k: v for k, v in value.items() if k in accepted and v is not None}


def parse_generate(body: bytes) -> GenerateRequest:
    """Decode and validate a generate request body.

    Raises:
        InvalidJson: The body is not a JSON object.
        InvalidField: A field has the wrong type or is out of range (400).
        PayloadTooLarge: The Markdown is longer than 100,000 characters (413).
    """
    fields = _decode_object(body)
    for name in ("scale", "quality"):
        value = fields.get(name)
        if isinstance(value, float) and value.is_integer():
            fields[name] = int(value)  # JSON Schema, the OpenAPI document's language: 2.0 is 2
    for name, value in fields.items():
        try:
            msgspec.convert({name: value}, GenerateRequest)
        except msgspec.ValidationError:
            raise invalid(name) from None
    request = msgspec.convert(fields, GenerateRequest)
    if len(request.markdown) > MAX_MARKDOWN_CHARS:
        raise PayloadTooLarge(
            f"markdown must be at most {MAX_MARKDOWN_CHARS:,} characters"
            f" (got {len(request.markdown):,})"
        )
    return request


# POST /api/platform/convert-and-draft

ARTICLE_THEMES = ("brandA", "brandB", "notebook", "business", "japanese-magazine")
"""The interface's article themes, the default first."""
DEFAULT_ARTICLE_THEME = "brandA"
AUTHOR_LIMIT = 16  # the platform's limits (wechat-platform.md §1.5)
DIGEST_LIMIT = 128
URL_LIMIT = 1024
URL_PATTERN = r"^(https?://[!-~]+)?$"  # printable ASCII: the platform counts bytes

Url = Annotated[
    str,
    msgspec.Meta(
        max_length=URL_LIMIT,
        pattern=URL_PATTERN,
        description="An http(s) URL of printable ASCII, at most 1024 characters; empty: none.",
    ),
]


class ArticleRequest(msgspec.Struct, frozen=True, kw_only=True):
    """Body of ``POST /api/platform/convert-and-draft``. Every field is optional."""

    markdown: Annotated[
        str, msgspec.Meta(description="Markdown text, at most 100,000 characters.")
    ] = ""
    theme: Annotated[str, msgspec.Meta(description="Article theme ID.")] = DEFAULT_ARTICLE_THEME
    coverImageUrl: Url = ""
    title: Annotated[
        str, msgspec.Meta(description="Draft title; cut to 32 characters. Default: first heading.")
    ] = ""
    author: Annotated[str, msgspec.Meta(max_length=AUTHOR_LIMIT)] = ""
    digest: Annotated[
        str,
        msgspec.Meta(max_length=DIGEST_LIMIT, description="Summary; empty: the platform's own."),
    ] = ""
    content_source_url: Url = ""


_ARTICLE_ACCEPTED = {
    "markdown": "a string",
    "theme": "one of " + ", ".join(ARTICLE_THEMES),
    "coverImageUrl": f"an http or https URL of at most {URL_LIMIT} printable ASCII characters",
    "title": "a string",
    "author": f"a string of at most {AUTHOR_LIMIT} characters",
    "digest": f"a string of at most {DIGEST_LIMIT} characters",
    "content_source_url": (
        f"an http or https URL of at most {URL_LIMIT} printable ASCII characters"
    ),
}


def parse_article(body: bytes) -> ArticleRequest:
    """Decode and validate a convert-and-draft request body.

    Raises:
        InvalidJson: The body is not a JSON object.
        InvalidField: A field has the wrong type, length or form; an unknown theme (400).
        PayloadTooLarge: The Markdown is longer than 100,000 characters (413).
    """
    fields = _decode_object(body, _ARTICLE_ACCEPTED)
    for name, value in fields.items():
        try:
            msgspec.convert({name: value}, ArticleRequest)
        except msgspec.ValidationError:
            raise invalid(name, _ARTICLE_ACCEPTED[name]) from None
    request = msgspec.convert(fields, ArticleRequest)
    if len(request.markdown) > MAX_MARKDOWN_CHARS:
        raise PayloadTooLarge(
            f"markdown must be at most {MAX_MARKDOWN_CHARS:,} characters"
            f" (got {len(request.markdown):,})"
        )
    if request.theme not in ARTICLE_THEMES:
        raise invalid("theme", _ARTICLE_ACCEPTED["theme"])
    return request


class HtmlResponse(msgspec.Struct, frozen=True):
    """convert-and-draft without platform headers: the article as inline-styled HTML."""

    success: bool
    html: str
    cost: int


class DraftData(msgspec.Struct, frozen=True):
    """What a created draft is: its platform id, its word count, what it cost."""

    media_id: str
    wordCount: int
    cost: int


class DraftResponse(msgspec.Struct, frozen=True):
    """convert-and-draft with platform headers: the draft is in the account's draft box."""

    success: bool
    message: str
    data: DraftData


class ArticleErrorBody(msgspec.Struct, frozen=True):
    """Every error of convert-and-draft: ``success`` false and ``cost`` 0."""

    success: bool
    error: str
    message: str
    cost: int


def json_schema(struct: type) -> dict[str, Any]:
    """The JSON Schema msgspec writes for ``struct`` (its fields under ``properties``)."""
    (_, components) = msgspec.json.schema_components(
        [struct], ref_template="#/components/schemas/{name}"
    )
    schema: dict[str, Any] = components[struct.__name__]
    return schema
