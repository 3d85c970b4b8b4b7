"""``POST /api/generate/cover``'s body → ``CoverRequest``; its answer, ``CoverResponse``.

The body keeps the original service's shape, ``{text, keywords, count, theme, width,
height}`` (plus ``themeMode`` as generate has it). Its defaults make a cover for WeChat: no
size is the 900 x 383 article cover whose centred square holds the title, no theme is the
default theme without its app chrome (``app.cards.coverrequest`` decides both). Every bound
is here, so no body buys more than a few short covers: the title and the keywords are held
to what the cover designer draws (``layout.covers``' ``MAX_COVER_*``), ``count`` to its
layouts, the size to generate's. ``app.cards.coverrequest`` turns the request into the
covers' one normalised record.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from inkcard import layout
from inkcard.app.schema.aigc import Aigc as AigcField
from inkcard.app.schema.generate import (
    CARD_ACCEPTED,
    DEFAULT_IN_WORDS,
    DEFAULT_THEME,
    BrandName,
    CardTheme,
    Cost,
    Height,
    Images,
    Success,
    ThemeMode,
    Width,
    invalid,
)
from inkcard.app.schema.wire import NOT_BLANK, convert_fields, decode_object
from inkcard.layout.covers import (
    COVER_LAYOUTS,
    MAX_COVER_KEYWORD_CHARS,
    MAX_COVER_KEYWORDS,
    MAX_COVER_TITLE_CHARS,
    MAX_COVERS,
    WECHAT_COVER_SIZE,
)

WECHAT_WIDTH, WECHAT_HEIGHT = WECHAT_COVER_SIZE
TITLE_CHARS = MAX_COVER_TITLE_CHARS
KEYWORDS = MAX_COVER_KEYWORDS
KEYWORD_CHARS = MAX_COVER_KEYWORD_CHARS
KEYWORD_LIST_CHARS = KEYWORDS * (KEYWORD_CHARS + 1)  # the comma-separated form, commas included

Keyword = Annotated[str, msgspec.Meta(max_length=KEYWORD_CHARS)]
KeywordList = Annotated[list[Keyword], msgspec.Meta(max_length=KEYWORDS)]
KeywordString = Annotated[str, msgspec.Meta(max_length=KEYWORD_LIST_CHARS)]


class CoverRequest(msgspec.Struct, frozen=True, kw_only=True):
    """Body of ``POST /api/generate/cover``. ``text`` is required; the rest are optional."""

    text: Annotated[
        str,
        msgspec.Meta(
            min_length=1,
            max_length=TITLE_CHARS,
            pattern=NOT_BLANK,
            description=f"The cover's title, 1..{TITLE_CHARS} characters (not only spaces);"
            " set as large as its balanced lines fit.",
        ),
    ] = ""
    keywords: Annotated[
        KeywordList | KeywordString,
        msgspec.Meta(
            description=f"Words to emphasise: a list of at most {KEYWORDS} strings of at most"
            f" {KEYWORD_CHARS} characters, or one string of them apart by commas (at most"
            f" {KEYWORD_LIST_CHARS} characters; the first {KEYWORDS} are used). Those in the"
            " title are drawn in the theme's accent; the others beside it (tags, pills, a"
            " kicker line).",
        ),
    ] = []
    count: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=MAX_COVERS,
            description=f"How many covers, 1..{MAX_COVERS}: each in another layout ("
            + ", ".join(COVER_LAYOUTS)
            + ", in this order).",
        ),
    ] = 1
    theme: Annotated[
        CardTheme | None,
        msgspec.Meta(
            description="A card theme ID or label (GET /api/themes). Absent: the"
            f" {DEFAULT_THEME} theme's page and colours without its app chrome (the iOS Notes"
            " bar, ‹ 备忘录 and its icons), which a cover shows only when that theme is named.",
            extra={DEFAULT_IN_WORDS: f"{DEFAULT_THEME}, no app chrome"},
        ),
    ] = None
    themeMode: ThemeMode = None
    width: Annotated[
        Width | None,
        msgspec.Meta(
            description="Cover width in CSS pixels. Neither width nor height: the WeChat"
            f" article cover, {WECHAT_WIDTH} x {WECHAT_HEIGHT} (2.35:1) with the whole title in"
            " the centred square the platform crops at 1:1; one of them alone: the other is"
            f" the card's ({layout.DEFAULT_WIDTH} x {layout.DEFAULT_HEIGHT}).",
            extra={DEFAULT_IN_WORDS: f"{WECHAT_WIDTH} with height {WECHAT_HEIGHT}, else 440"},
        ),
    ] = None
    height: Annotated[
        Height | None,
        msgspec.Meta(
            description="Cover height in CSS pixels (see width).",
            extra={DEFAULT_IN_WORDS: f"{WECHAT_HEIGHT} with width {WECHAT_WIDTH}, else 586"},
        ),
    ] = None
    aigc: AigcField = False
    brand: BrandName = None


_COVER_ACCEPTED = {
    "text": f"a string of 1 to {TITLE_CHARS} characters, not only spaces",
    "keywords": f"a list of at most {KEYWORDS} strings of at most {KEYWORD_CHARS} characters,"
    f" or a string of at most {KEYWORD_LIST_CHARS} characters",
    "count": f"an integer between 1 and {MAX_COVERS}",
    **{
        name: CARD_ACCEPTED[name]
        for name in ("theme", "themeMode", "width", "height", "aigc", "brand")
    },
}


class CoverResponse(msgspec.Struct, frozen=True):
    """Success body of ``POST /api/generate/cover``: one record per cover, the credits spent."""

    success: Success
    images: Images
    cost: Cost


def parse_cover(body: bytes) -> CoverRequest:
    """Decode and validate a cover body.

    Raises:
        InvalidJson: The body is not a JSON object.
        InvalidField: A field is missing, has the wrong type or is out of range (400).
    """
    fields: dict[str, Any] = decode_object(body, _COVER_ACCEPTED)
    if "text" not in fields:
        raise invalid("text", _COVER_ACCEPTED["text"])
    count = fields.get("count")
    if isinstance(count, float) and count.is_integer():
        fields["count"] = int(count)  # JSON Schema, the OpenAPI document's language: 2.0 is 2
    return convert_fields(fields, CoverRequest, _COVER_ACCEPTED)
