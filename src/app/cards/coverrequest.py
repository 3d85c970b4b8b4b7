"""``POST /api/generate/cover``'s body (``CoverRequest``) → the one normalised ``CoverSpec``.

The body keeps the original service's shape, ``{text, keywords, count, theme, width,
height}`` (plus ``themeMode`` as generate has it). Every bound is here, so no body buys
more than a few short covers: the title and the keywords are held to what the cover
designer draws (``layout.covers``' ``MAX_COVER_*``), ``count`` to its layouts, the size to
generate's.
"""

from __future__ import annotations

import hashlib
import re
from typing import Annotated, Any

import msgspec

import layout
from app.cards.request import ThemeLookup, resolve_theme
from app.models import (
    ACCEPTED,
    DEFAULT_THEME,
    Cost,
    GenerateRequest,
    Height,
    Images,
    Success,
    Width,
    invalid,
)
from app.models.wire import convert_fields, decode_object
from app.schema import field_descriptions

TITLE_CHARS = layout.MAX_COVER_TITLE_CHARS
KEYWORDS = layout.MAX_COVER_KEYWORDS
KEYWORD_CHARS = layout.MAX_COVER_KEYWORD_CHARS
KEYWORD_LIST_CHARS = KEYWORDS * (KEYWORD_CHARS + 1)  # the comma-separated form, commas included
COVER_SCALE = 2  # image pixels per CSS pixel, as generate's default: a 440 x 586 cover is 880 wide
KEYWORD_SEPARATORS = re.compile(r"[,，、]")  # ASCII and full-width commas, the enumeration comma

Keyword = Annotated[str, msgspec.Meta(max_length=KEYWORD_CHARS)]
KeywordList = Annotated[list[Keyword], msgspec.Meta(max_length=KEYWORDS)]
KeywordString = Annotated[str, msgspec.Meta(max_length=KEYWORD_LIST_CHARS)]
_GENERATE = field_descriptions(GenerateRequest)  # theme and mode as generate takes them


class CoverRequest(msgspec.Struct, frozen=True, kw_only=True):
    """Body of ``POST /api/generate/cover``. ``text`` is required; the rest are optional."""

    text: Annotated[
        str,
        msgspec.Meta(
            min_length=1,
            max_length=TITLE_CHARS,
            pattern=r"\S",
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
            le=layout.MAX_COVERS,
            description=f"How many covers, 1..{layout.MAX_COVERS}: each in another layout ("
            + ", ".join(layout.COVER_LAYOUTS)
            + ", in this order).",
        ),
    ] = 1
    theme: Annotated[str, msgspec.Meta(description=_GENERATE["theme"])] = DEFAULT_THEME
    themeMode: Annotated[str | None, msgspec.Meta(description=_GENERATE["themeMode"])] = None  # noqa: N815 (the interface's name)
    width: Width = layout.DEFAULT_WIDTH
    height: Height = layout.DEFAULT_HEIGHT


_COVER_ACCEPTED = {
    "text": f"a string of 1 to {TITLE_CHARS} characters, not only spaces",
    "keywords": f"a list of at most {KEYWORDS} strings of at most {KEYWORD_CHARS} characters,"
    f" or a string of at most {KEYWORD_LIST_CHARS} characters",
    "count": f"an integer between 1 and {layout.MAX_COVERS}",
    **{name: ACCEPTED[name] for name in ("theme", "themeMode", "width", "height")},
}


class CoverResponse(msgspec.Struct, frozen=True):
    """Success body of ``POST /api/generate/cover``: one record per cover, the credits spent."""

    success: Success
    images: Images
    cost: Cost


class CoverSpec(msgspec.Struct, frozen=True, kw_only=True):
    """A cover request after defaults and validation: what its covers depend on."""

    title: str
    keywords: tuple[str, ...]
    count: int
    theme: str  # the ID, whichever alias the request used
    mode: str | None
    width: int
    height: int

    def options(self, output_pixels: int) -> layout.RenderOptions:
        """The engine's options, held to the service's pixel budget (as generate's)."""
        return layout.RenderOptions(
            width=self.width,
            height=self.height,
            scale=COVER_SCALE,
            mode=self.mode,
            max_pixels=layout.MAX_CARD_PIXELS,
            max_total_pixels=output_pixels,
        )

    def digest(self, theme_data: str, fonts: str) -> str:
        """32 hex characters naming these covers' files: the spec, the engine version and
        the fingerprints of the theme file and the fonts."""
        h = hashlib.sha256(f"inkcard-covers\n{layout.ENGINE_VERSION}\n".encode())
        h.update(msgspec.json.encode([self, theme_data, fonts]))
        return h.hexdigest()[:32]


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


def keyword_list(keywords: list[str] | str) -> tuple[str, ...]:
    """The keywords as sent, one each, blanks and repeats dropped, at most ``KEYWORDS``."""
    words = KEYWORD_SEPARATORS.split(keywords) if isinstance(keywords, str) else keywords
    kept = dict.fromkeys(w.strip()[:KEYWORD_CHARS] for w in words if w.strip())
    return tuple(kept)[:KEYWORDS]


def normalise_cover(request: CoverRequest, lookup: ThemeLookup) -> CoverSpec:
    """The one normalised record of ``request``, its theme looked up with ``lookup``.

    Raises:
        InvalidField: Unknown theme or theme mode.
    """
    theme, mode = resolve_theme(lookup, request.theme, request.themeMode)
    return CoverSpec(
        title=" ".join(request.text.split()),
        keywords=keyword_list(request.keywords),
        count=request.count,
        theme=theme.name,
        mode=mode,
        width=round(request.width),
        height=round(request.height),
    )
