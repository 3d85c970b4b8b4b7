"""The convert-and-draft body's fields → ``ArticleRequest`` (and the MCP tool's arguments)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from inkcard.app.errors import InvalidField
from inkcard.app.prices import PRICES, credits
from inkcard.app.schema.aigc import ACCEPTED as AIGC_ACCEPTED
from inkcard.app.schema.aigc import Aigc as AigcField
from inkcard.app.schema.generate import DEFAULT_IN_WORDS, invalid
from inkcard.app.schema.platform import (
    DRAFT_FIELDS_ACCEPTED,
    HEADER_HINTS,
    DraftMediaId,
    DraftMissingField,
    IdempotencyKey,
    PlatformAccount,
    PlatformAppid,
    PlatformAppSecret,
)
from inkcard.app.schema.wire import (
    MARKDOWN_LIMIT,
    Markdown,
    convert_fields,
    decode_object,
    field_label,
    require_markdown,
    with_front_matter,
)
from inkcard.layout.parse import css_color
from inkcard.themes.codethemes import code_theme_names

ARTICLE_REQUIRED = ("markdown",)
"""The fields a convert-and-draft body must send (an article of nothing is empty_markdown)."""
ARTICLE_THEMES = (
    "brandA",
    "brandB",
    "notebook",
    "business",
    "japanese-magazine",
    # one per card family that had none, so a writer's cards and article match
    "apple-notes",
    "art-deco",
    "cyberpunk",
    "darktech",
    "minimalist",
    "traditional-chinese",
    "warm",
)
"""The interface's article themes, the default first."""
DEFAULT_ARTICLE_THEME = "brandA"
ARTICLE_FONT_SIZES = (14, 18)  # px, the base sizes an article may ask for (doocs/md's range)
COLOR_LIMIT = 100  # characters of a CSS colour
AUTHOR_LIMIT = 16  # the platform's draft field limits (docs/decisions/articles.md)
DIGEST_LIMIT = 128
URL_LIMIT = 1024
CSS_LIMIT = 20_000  # characters of a writer's own CSS (doocs/md's whole default sheet: ~6,000)
CSS_RULE_LIMIT = 200  # its blocks, counted by their `{`: each rule is one pass over the article
CODE_THEMES = tuple(code_theme_names())
"""The code themes an article may ask for (``codeTheme``), as ``GET /api/themes`` lists them."""
URL_PATTERN = r"^(https?://[!-~]+)?$"  # printable ASCII: the platform counts bytes
# An image we fetch must also parse: a named host (no user, no [IPv6] literal, not only dots)
# and a port of at most 65535; else the fetch would refuse it after the body was accepted.
# The host's classes are disjoint from the quantifiers beside them, so nothing backtracks.
_HOST_CHAR = r"A-Za-z0-9\-_~!$&'()*+,;=%"
_PORT = r"6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}"
IMAGE_URL_PATTERN = rf"^(https?://\.*[{_HOST_CHAR}][.{_HOST_CHAR}]*(:({_PORT}))?([/?#][!-~]*)?)?$"

Url = Annotated[str, msgspec.Meta(max_length=URL_LIMIT, pattern=URL_PATTERN)]
ImageUrl = Annotated[str, msgspec.Meta(max_length=URL_LIMIT, pattern=IMAGE_URL_PATTERN)]
ImagePolicy = Literal["fail", "skip"]
IMAGE_POLICIES: tuple[ImagePolicy, ...] = ("fail", "skip")
_URL_FORM = f"an http(s) URL of printable ASCII, at most {URL_LIMIT} characters"


class ArticleRequest(msgspec.Struct, frozen=True, kw_only=True):
    """Body of ``POST /api/platform/convert-and-draft``. Every field is optional."""

    markdown: Annotated[
        Markdown,
        msgspec.Meta(
            description=f"The article's Markdown text, {MARKDOWN_LIMIT}; required (missing,"
            " empty, only whitespace or only a front matter: 400 empty_markdown)."
            " A YAML front matter (--- fenced, at the very start) is read, never shown: its"
            " title, author, digest, cover, source_url and theme fill the fields the request"
            " leaves out.",
            extra={DEFAULT_IN_WORDS: "required"},
        ),
    ] = ""  # never used: parse_article refuses a body without it
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
            " one too light to read on white is darkened, same hue, to 4.5:1 (on a dark"
            " theme's panel, one too dark is lightened). Empty: the theme's own colours.",
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
    css: Annotated[
        str,
        msgspec.Meta(
            max_length=CSS_LIMIT,
            description=f"Your own CSS over the theme, at most {CSS_LIMIT:,} characters and"
            f" {CSS_RULE_LIMIT} rules: rules on the article's elements (h1–h6, p, blockquote,"
            " code, pre, li, a, strong, table, th, td, img …), written inline and winning over"
            " the theme's and the code theme's. Allowed: colour, background, fonts, text-align,"
            " text-indent, text-decoration, line-height, letter-spacing, margin, padding,"
            " border*; no url(), expression(), var(). An at-rule (@import, @media), a"
            " pseudo-element (::before), :hover, another property or a refused value is left"
            " out and named in the answer's warnings (css_refused). Empty: none.",
        ),
    ] = ""
    codeTheme: Annotated[
        str,
        msgspec.Meta(
            description="The code blocks' highlight colours: "
            + ", ".join(CODE_THEMES)
            + " (GET /api/themes lists them). Empty: the theme's own.",
            extra_json_schema={"enum": ["", *CODE_THEMES]},
        ),
    ] = ""
    indent: Annotated[
        bool,
        msgspec.Meta(
            description="true: the body's paragraphs begin with a 2em first-line indent (not"
            " those in lists, quotes, tables or alerts, nor an image's)."
        ),
    ] = False
    justify: Annotated[
        bool,
        msgspec.Meta(
            description="true: the body's paragraphs are justified (text-align: justify)."
        ),
    ] = False
    coverImageUrl: Annotated[
        ImageUrl,
        msgspec.Meta(
            description=f"Drafts: the cover image, {_URL_FORM}, naming a host (no user or"
            " password, no IP-literal in brackets); empty: the article's first image, else a"
            " 900 × 383 card drawn from the title."
        ),
    ] = ""
    title: Annotated[
        str,
        msgspec.Meta(
            description="Drafts: the title; empty: the first heading, else the first line."
            " Cut to 32 characters (an ellipsis, …, marks a cut). A leading h1 that repeats"
            " it (spaces, closing punctuation and Latin case aside) is left out of the HTML"
            " and the draft."
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
            description="True keeps a leading h1 that became or repeats the title in the"
            " content (the platform shows the title above it)."
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
            f" (no credentials needed) and answer what would be sent; {credits(PRICES.dry_run)}."
        ),
    ] = False
    draftMediaId: DraftMediaId = ""
    draftMissing: DraftMissingField = "fail"
    aigc: AigcField = False
    brand: Annotated[
        str | None,
        msgspec.Meta(
            description="The name of a brand kit this key saved (PUT /api/brands/{name}): its"
            " logo, byline, footer line and footer image (a QR code) sign the article off at"
            " its end, after the references, styled by the article theme; its images go up"
            " with the draft's like inline images. Its fonts are not used (WeChat shows no"
            " web font). An unknown name is 400 invalid_brand, nothing charged.",
            extra={DEFAULT_IN_WORDS: "none"},
        ),
    ] = None


class ArticleToolArguments(ArticleRequest, frozen=True, kw_only=True):
    """Arguments of the MCP tool ``convert_article``: the convert-and-draft body, and what
    the HTTP route takes as headers (the draft account, the idempotency key)."""

    platformAppid: PlatformAppid = None
    platformAppSecret: PlatformAppSecret = None
    account: PlatformAccount = None
    idempotencyKey: IdempotencyKey = None


_ARTICLE_ACCEPTED = {
    "markdown": "a string",
    "theme": "one of " + ", ".join(ARTICLE_THEMES),
    "primaryColor": f"a CSS colour of at most {COLOR_LIMIT} characters (#07c160, hsl(…), a name)",
    "fontSize": f"a number from {ARTICLE_FONT_SIZES[0]} to {ARTICLE_FONT_SIZES[1]} (px)",
    "css": f"CSS text of at most {CSS_LIMIT:,} characters and {CSS_RULE_LIMIT} rules",
    "codeTheme": "one of " + ", ".join(CODE_THEMES) + ", or empty for the theme's own",
    "indent": "true or false",
    "justify": "true or false",
    "coverImageUrl": (
        f"an http or https URL of at most {URL_LIMIT} printable ASCII characters with a host"
        " name (no user or password, no bracketed IP-literal) and a port of at most 65535"
    ),
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
    "aigc": AIGC_ACCEPTED,
    "brand": "the name of a brand kit of this key (GET /api/brands lists them)",
    **DRAFT_FIELDS_ACCEPTED,
}


def parse_article(body: bytes) -> ArticleRequest:
    """Decode and validate a convert-and-draft request body.

    Raises:
        InvalidJson: The body is not a JSON object.
        UnknownField: A field (or a near miss of a front matter key) it does not read (400).
        InvalidField: A field has the wrong type, length or form; an unknown theme (400).
        PayloadTooLarge: The Markdown is longer than ``MAX_MARKDOWN_CHARS`` (413).
        EmptyMarkdown: No Markdown, or one with nothing to convert (400; HTML or draft).
    """
    sent = decode_object(body, _ARTICLE_ACCEPTED, HEADER_HINTS)
    fields = with_front_matter(sent, ArticleRequest, _ARTICLE_ACCEPTED)
    request = convert_fields(fields, ArticleRequest, _ARTICLE_ACCEPTED)
    if request.theme not in ARTICLE_THEMES:
        where = " from the front matter" if "theme" in fields.keys() - sent.keys() else ""
        raise InvalidField(
            f"theme{where} must be {_ARTICLE_ACCEPTED['theme']}", label=field_label("theme")
        )
    if request.primaryColor and css_color(request.primaryColor) is None:
        raise invalid("primaryColor", _ARTICLE_ACCEPTED["primaryColor"])
    if request.codeTheme and request.codeTheme not in CODE_THEMES:
        raise invalid("codeTheme", _ARTICLE_ACCEPTED["codeTheme"])
    if request.css.count("{") > CSS_RULE_LIMIT:
        raise invalid("css", _ARTICLE_ACCEPTED["css"])
    require_markdown(sent, request.markdown, "convert", required=True)
    return request
