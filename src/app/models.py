"""Request bytes → validated msgspec records; response records → JSON.

``parse_generate`` is strict about types (``"440"`` is not a number) but forgiving about shape:
unknown fields are ignored, a ``null`` field means "use the default", and an empty body is
``{}``. A body that is not one UTF-8 JSON object (``null`` included) is ``invalid_json``.

The request records are also the one place each field is described and constrained (the MCP
tools' own arguments included): ``app.schema`` derives the OpenAPI and MCP schemas from
them, ``app.schema.readme`` the README's field tables.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypeVar

import msgspec

import layout
from app import frontmatter
from app.errors import InvalidField, InvalidJson, PayloadTooLarge

DEFAULT_MARKDOWN = "# Hello, Inkcard"
DEFAULT_THEME = "apple-notes"
_FIRST_MODE = "the theme's first mode"  # themeMode's default, which null stands for
MAX_MARKDOWN_CHARS = 100_000
DEFAULT_IN_WORDS = "default_in_words"
"""Key of ``msgspec.Meta.extra``: a field's default said in words, where ``None`` stands for it."""

_WIDTH, _HEIGHT, _SCALE = (layout.CARD_LIMITS[k] for k in ("width", "height", "scale"))

# Descriptions are plain text (no Markdown markup): agents read them as they are.

Markdown = Annotated[str, msgspec.Meta(max_length=MAX_MARKDOWN_CHARS)]
_MARKDOWN_LIMIT = f"at most {MAX_MARKDOWN_CHARS:,} characters (longer: 413 payload_too_large)"
Width = Annotated[
    float,
    msgspec.Meta(
        ge=_WIDTH[0],
        le=_WIDTH[1],
        description="Card width in CSS pixels ({}..{}), rounded to a whole pixel.".format(*_WIDTH),
    ),
]
Height = Annotated[
    float,
    msgspec.Meta(
        ge=_HEIGHT[0],
        le=_HEIGHT[1],
        description="Card height in CSS pixels ({}..{}), rounded to a whole pixel; noSplit and"
        " hrSplit cards grow taller than this when their text needs it.".format(*_HEIGHT),
    ),
]
Scale = Annotated[
    int,
    msgspec.Meta(
        ge=_SCALE[0],
        le=_SCALE[1],
        description="Image pixels per CSS pixel, an integer {}..{} (2.0 counts as 2): a card"
        " is width × scale by height × scale pixels.".format(*_SCALE),
    ),
]
Quality = Annotated[
    int,
    msgspec.Meta(
        ge=1, le=100, description="JPEG and WebP quality (1..100); png and pdf ignore it."
    ),
]
SplitMode = Annotated[
    layout.SplitMode,
    msgspec.Meta(
        description="How the Markdown becomes cards. noSplit (the default): always ONE card;"
        " when the text is longer than the card, the card grows taller until everything fits"
        " (a long post gives one very tall image). autoSplit: as many cards as the text needs,"
        " each exactly width × height; the text flows from one card to the next (paragraphs,"
        " lists and code break between lines, tables between rows); use it for long posts and"
        " carousels. hrSplit: one card per part between thematic breaks (a line of just ---,"
        " *** or ___; empty parts are skipped); each card grows taller to fit its part."
        " Several cards show n/N page numbers."
    ),
]
OverHiddenMode = Annotated[
    bool,
    msgspec.Meta(
        description="true: every card is exactly width × height and text that does not fit"
        " is cut off after the last whole line (nothing flows to another card). For noSplit"
        " and hrSplit; autoSplit cards are that size already."
    ),
]
MdxMode = Annotated[
    bool,
    msgspec.Meta(
        description="true: the Markdown may use MDX components: Columns (with Left, optional"
        " Center, Right), Callout (type info, tip, warning or danger; title), Quote (author),"
        " Steps (with Step title) and the inline Badge. They are parsed from JSX syntax, never"
        " evaluated; an expression in braces, an import or export line, an unknown component"
        " or one out of place is a 400 invalid_mdx naming the line. false: such tags are"
        " plain text."
    ),
]
OutputFormat = Annotated[
    layout.OutputFormat,
    msgspec.Meta(
        description="png, jpeg or webp: one image per card; pdf: one PDF of every card, a page"
        " per card at its CSS size in points (¾ pt a px), with real text (select, search,"
        " copy)."
    ),
]


class GenerateRequest(msgspec.Struct, frozen=True, kw_only=True):
    """Body of ``POST /api/generate``. Every field is optional."""

    markdown: Annotated[
        Markdown,
        msgspec.Meta(
            description=f"The cards' Markdown text, {_MARKDOWN_LIMIT}. A YAML front matter"
            " (--- fenced, at the very start) is read, never drawn: its theme, mode and split"
            " fill the fields the request leaves out."
        ),
    ] = DEFAULT_MARKDOWN
    theme: Annotated[
        str,
        msgspec.Meta(
            description="A card theme ID or a custom theme's class name (GET /api/themes and"
            " the list_themes tool list them), with or without md2card's `card-` prefix, or a"
            " built-in theme's Chinese label (苹果备忘录 is apple-notes)."
        ),
    ] = DEFAULT_THEME
    themeMode: Annotated[
        str | None,
        msgspec.Meta(
            description="A mode of the theme (GET /api/themes and the list_themes tool list"
            f" each theme's modes); default: {_FIRST_MODE}; ignored for a theme without modes.",
            extra={DEFAULT_IN_WORDS: _FIRST_MODE},
        ),
    ] = None
    width: Width = layout.DEFAULT_WIDTH
    height: Height = layout.DEFAULT_HEIGHT
    splitMode: SplitMode = "noSplit"
    mdxMode: MdxMode = False
    overHiddenMode: OverHiddenMode = False
    scale: Scale = 2
    format: OutputFormat = "png"
    quality: Quality = layout.DEFAULT_QUALITY


INLINE_CARDS = 8
"""A ``generate_cards`` result of at most this many cards ..."""
INLINE_BYTES = 4 * 1024 * 1024
"""... and at most this many PNG bytes in all comes back as image content too."""


class GenerateToolArguments(GenerateRequest, frozen=True, kw_only=True):
    """Arguments of the MCP tool ``generate_cards``: the generate body and how to answer."""

    includeImages: Annotated[
        bool,
        msgspec.Meta(
            description=f"Also return a small result (at most {INLINE_CARDS} cards and"
            f" {INLINE_BYTES // 2**20} MiB of PNG) as images, besides the URLs; false: URLs only."
        ),
    ] = True


class ImageRecord(msgspec.Struct, frozen=True):
    """One stored card (for ``format`` pdf: the one document of every card)."""

    url: Annotated[
        str,
        msgspec.Meta(
            description="Where the file can be fetched: under INKCARD_PUBLIC_URL when set,"
            " else on the host the request reached (local storage) or the bucket. Empty from"
            " `inkcard mcp` (stdio) with local storage and no INKCARD_PUBLIC_URL: nothing"
            " serves the files there (the answer says so)."
        ),
    ]
    fileName: Annotated[
        str,
        msgspec.Meta(
            description="The stored file's name, e.g. screenshots/<digest>-1.png: the same"
            " request (and engine version) always names the same file."
        ),
    ]
    altText: Annotated[
        str,
        msgspec.Meta(
            description="The text the card shows, in reading order, one laid-out line a line"
            " (headings, paragraphs, list items, code, table rows, image alt texts); for a PDF"
            " every card's, cards apart by a blank line."
        ),
    ]


Images = Annotated[
    list[ImageRecord],
    msgspec.Meta(description="One record per card, in reading order."),
]
Success = Annotated[
    bool, msgspec.Meta(description="true: the call did what it asked; an error says false.")
]
Cost = Annotated[
    int,
    msgspec.Meta(description="Credits this call took from the key (0: free, or a retry's replay)."),
]
Message = Annotated[str, msgspec.Meta(description="What happened, in plain words.")]
ErrorLabel = Annotated[
    str,
    msgspec.Meta(
        description="What went wrong, as a stable label (e.g. invalid_width); each operation"
        " lists its labels under each status."
    ),
]


class GenerateResponse(msgspec.Struct, frozen=True):
    """Success body of ``POST /api/generate``: one record per card, in reading order."""

    images: Images


class ErrorBody(msgspec.Struct, frozen=True):
    """Every error response."""

    error: ErrorLabel
    message: Annotated[
        str,
        msgspec.Meta(description="What went wrong and what is accepted, in plain words."),
    ]


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


S = TypeVar("S", bound=msgspec.Struct)
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


def _convert_fields(fields: dict[str, Any], struct: type[S], accepted: Mapping[str, str]) -> S:
    """``fields`` as a ``struct``: the first bad field is ``InvalidField``, then a Markdown
    over ``MAX_MARKDOWN_CHARS`` is ``PayloadTooLarge`` (413, not 400: the body is too big)."""
    too_long = None
    for name, value in fields.items():
        try:
            msgspec.convert({name: value}, struct)
        except msgspec.ValidationError:
            if name == "markdown" and isinstance(value, str):
                too_long = value  # a string fails only its length
                continue
            raise invalid(name, accepted[name]) from None
    if too_long is not None:
        raise PayloadTooLarge(
            f"markdown must be at most {MAX_MARKDOWN_CHARS:,} characters (got {len(too_long):,})"
        )
    return msgspec.convert(fields, struct)


def _with_front_matter(
    fields: dict[str, Any], struct: type[msgspec.Struct], accepted: Mapping[str, str]
) -> dict[str, Any]:
    """``fields`` with the Markdown's front matter taken off and its values filling the
    fields the request left out (a request field wins; a request's theme, the front matter's
    mode too); each value checked as the field."""
    markdown = fields.get("markdown")
    if not isinstance(markdown, str):
        return fields
    found, body = frontmatter.split(markdown)
    merged = {**fields, "markdown": body}
    for name, value in found.items():
        if name not in accepted or name in fields:
            continue
        if name == "themeMode" and "theme" in fields:
            continue  # a mode is one of its theme's: the request's theme brings its own
        try:
            msgspec.convert({name: value}, struct)
        except msgspec.ValidationError:
            raise InvalidField(
                f"{name} from the front matter must be {accepted[name]}",
                label=field_label(name),
            ) from None
        merged[name] = value
    return merged


def parse_generate(body: bytes) -> GenerateRequest:
    """Decode and validate a generate request body.

    Raises:
        InvalidJson: The body is not a JSON object.
        InvalidField: A field has the wrong type or is out of range (400).
        PayloadTooLarge: The Markdown is longer than ``MAX_MARKDOWN_CHARS`` (413).
    """
    fields = _with_front_matter(_decode_object(body), GenerateRequest, _ACCEPTED)
    for name in ("scale", "quality"):
        value = fields.get(name)
        if isinstance(value, float) and value.is_integer():
            fields[name] = int(value)  # JSON Schema, the OpenAPI document's language: 2.0 is 2
    return _convert_fields(fields, GenerateRequest, _ACCEPTED)


# POST /api/platform/convert-and-draft

ARTICLE_THEMES = ("brandA", "brandB", "notebook", "business", "japanese-magazine")
"""The interface's article themes, the default first."""
DEFAULT_ARTICLE_THEME = "brandA"
ARTICLE_FONT_SIZES = (14, 18)  # px, the base sizes an article may ask for (doocs/md's range)
COLOR_LIMIT = 100  # characters of a CSS colour
AUTHOR_LIMIT = 16  # the platform's draft field limits (docs/decisions/articles.md)
DIGEST_LIMIT = 128
URL_LIMIT = 1024
URL_PATTERN = r"^(https?://[!-~]+)?$"  # printable ASCII: the platform counts bytes

Url = Annotated[str, msgspec.Meta(max_length=URL_LIMIT, pattern=URL_PATTERN)]
ImagePolicy = Literal["fail", "skip"]
IMAGE_POLICIES: tuple[ImagePolicy, ...] = ("fail", "skip")
_URL_FORM = f"an http(s) URL of printable ASCII, at most {URL_LIMIT} characters"
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


class ArticleRequest(msgspec.Struct, frozen=True, kw_only=True):
    """Body of ``POST /api/platform/convert-and-draft``. Every field is optional."""

    markdown: Annotated[
        Markdown,
        msgspec.Meta(
            description=f"The article's Markdown text, {_MARKDOWN_LIMIT}; a draft needs some."
            " A YAML front matter (--- fenced, at the very start) is read, never shown: its"
            " title, author, digest, cover, source_url and theme fill the fields the request"
            " leaves out."
        ),
    ] = ""
    theme: Annotated[
        str,
        msgspec.Meta(
            description=f"Article theme: {', '.join(ARTICLE_THEMES)}"
            " (GET /api/themes and the list_themes tool list them)."
        ),
    ] = DEFAULT_ARTICLE_THEME
    primaryColor: Annotated[
        str,
        msgspec.Meta(
            max_length=COLOR_LIMIT,
            description="The theme's brand colour for headings, quotes, links, list markers"
            " and borders: any CSS colour (#07c160, rgb(7 193 96), hsl(145 93% 39%), seagreen);"
            " one too light to read on white is darkened, same hue, to 4.5:1. Empty: the"
            " theme's own colours.",
        ),
    ] = ""
    fontSize: Annotated[
        Annotated[float, msgspec.Meta(ge=ARTICLE_FONT_SIZES[0], le=ARTICLE_FONT_SIZES[1])] | None,
        msgspec.Meta(
            description=f"Base font size in px, {ARTICLE_FONT_SIZES[0]} to"
            f" {ARTICLE_FONT_SIZES[1]}; headings, code and notes scale with it. Null: the"
            " theme's 16."
        ),
    ] = None
    coverImageUrl: Annotated[
        Url,
        msgspec.Meta(
            description=f"Drafts: the cover image, {_URL_FORM}; empty: the article's first"
            " image, else a 900 × 383 card drawn from the title."
        ),
    ] = ""
    title: Annotated[
        str,
        msgspec.Meta(
            description="Drafts: the title; empty: the first heading, else the first line."
            " Cut to 32 characters (an ellipsis, …, marks a cut)."
        ),
    ] = ""
    author: Annotated[
        str,
        msgspec.Meta(
            max_length=AUTHOR_LIMIT,
            description=f"Drafts: the author, at most {AUTHOR_LIMIT} characters.",
        ),
    ] = ""
    digest: Annotated[
        str,
        msgspec.Meta(
            max_length=DIGEST_LIMIT,
            description=f"Drafts: the summary, at most {DIGEST_LIMIT} characters; empty: the"
            " first whole sentences of the body's paragraphs that fit, without quote marks,"
            " emoji or symbols.",
        ),
    ] = ""
    keepTitleHeading: Annotated[
        bool,
        msgspec.Meta(
            description="Drafts: true keeps a leading h1 that became the title in the content"
            " (the platform shows the title above it)."
        ),
    ] = False
    needOpenComment: Annotated[bool, msgspec.Meta(description="Drafts: open comments.")] = False
    onlyFansCanComment: Annotated[
        bool, msgspec.Meta(description="Drafts: open comments to followers only.")
    ] = False
    imagePolicy: Annotated[
        ImagePolicy,
        msgspec.Meta(
            description="Drafts: an image that cannot be had or is refused (not coverImageUrl)"
            " fails the draft, nothing charged (fail), or is left out (skip); the answer"
            " lists each image's outcome."
        ),
    ] = "fail"
    content_source_url: Annotated[
        Url,
        msgspec.Meta(
            description=f"Drafts: the article's source link (read the original), {_URL_FORM};"
            " empty: none."
        ),
    ] = ""
    dryRun: Annotated[
        bool,
        msgspec.Meta(
            description="true: run the draft's whole conversion and checks, call no platform"
            " (no credentials needed) and answer what would be sent; 1 credit."
        ),
    ] = False
    draftMediaId: DraftMediaId = ""
    draftMissing: DraftMissingField = "fail"


class ArticleToolArguments(ArticleRequest, frozen=True, kw_only=True):
    """Arguments of the MCP tool ``convert_article``: the convert-and-draft body, and what
    the HTTP route takes as headers (the draft account, the idempotency key)."""

    platformAppid: Annotated[
        str | None,
        msgspec.Meta(
            description="AppID of the WeChat official account: with platformAppSecret, create"
            " a draft instead of returning HTML. Both or neither; neither: the account"
            " configured on the connection, if any."
        ),
    ] = None
    platformAppSecret: Annotated[
        str | None,
        msgspec.Meta(
            description="AppSecret of that account (better configured on the connection)."
        ),
    ] = None
    idempotencyKey: Annotated[
        str | None,
        msgspec.Meta(
            description="1-255 printable ASCII characters: a retry with the same key (within"
            " INKCARD_IDEMPOTENCY_HOURS, 24 by default) gets the first answer again and is"
            " charged once; the HTTP route's Idempotency-Key header."
        ),
    ] = None


_ARTICLE_ACCEPTED = {
    "markdown": "a string",
    "theme": "one of " + ", ".join(ARTICLE_THEMES),
    "primaryColor": f"a CSS colour of at most {COLOR_LIMIT} characters (#07c160, hsl(…), a name)",
    "fontSize": f"a number from {ARTICLE_FONT_SIZES[0]} to {ARTICLE_FONT_SIZES[1]} (px)",
    "coverImageUrl": f"an http or https URL of at most {URL_LIMIT} printable ASCII characters",
    "title": "a string",
    "author": f"a string of at most {AUTHOR_LIMIT} characters",
    "digest": f"a string of at most {DIGEST_LIMIT} characters",
    "content_source_url": (
        f"an http or https URL of at most {URL_LIMIT} printable ASCII characters"
    ),
    "keepTitleHeading": "true or false",
    "needOpenComment": "true or false",
    "onlyFansCanComment": "true or false",
    "imagePolicy": "one of " + ", ".join(IMAGE_POLICIES),
    "dryRun": "true or false",
    **DRAFT_FIELDS_ACCEPTED,
}


def parse_article(body: bytes) -> ArticleRequest:
    """Decode and validate a convert-and-draft request body.

    Raises:
        InvalidJson: The body is not a JSON object.
        InvalidField: A field has the wrong type, length or form; an unknown theme (400).
        PayloadTooLarge: The Markdown is longer than ``MAX_MARKDOWN_CHARS`` (413).
    """
    sent = _decode_object(body, _ARTICLE_ACCEPTED)
    fields = _with_front_matter(sent, ArticleRequest, _ARTICLE_ACCEPTED)
    request = _convert_fields(fields, ArticleRequest, _ARTICLE_ACCEPTED)
    if request.theme not in ARTICLE_THEMES:
        where = " from the front matter" if "theme" in fields.keys() - sent.keys() else ""
        raise InvalidField(
            f"theme{where} must be {_ARTICLE_ACCEPTED['theme']}", label=field_label("theme")
        )
    if request.primaryColor and layout.css_color(request.primaryColor) is None:
        raise invalid("primaryColor", _ARTICLE_ACCEPTED["primaryColor"])
    return request
