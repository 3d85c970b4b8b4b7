"""The generate body's fields → ``GenerateRequest``; the records of its answer.

``parse_generate`` is strict about types (``"440"`` is not a number) and about names: a field
the body does not have is 400 ``unknown_field`` (naming the field it probably meant), a
``null`` field means "use the default", and an empty body is ``{}``. A body that is not one
UTF-8 JSON object (``null`` included) is ``invalid_json``; a ``markdown`` sent empty, only
whitespace or only a front matter is ``empty_markdown`` (an absent one is the default card).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from inkcard import layout
from inkcard.app.errors import InvalidField
from inkcard.app.schema.aigc import ACCEPTED as AIGC_ACCEPTED
from inkcard.app.schema.aigc import Aigc as AigcField
from inkcard.app.schema.wire import (
    MARKDOWN_LIMIT,
    Markdown,
    convert_fields,
    decode_object,
    field_label,
    require_markdown,
    whole_numbers,
    with_front_matter,
)

DEFAULT_MARKDOWN = "# Hello, Inkcard"
DEFAULT_THEME = "apple-notes"
_FIRST_MODE = "the theme's first mode"  # themeMode's default, which null stands for
NOTHING_TO_DRAW = "empty, only whitespace or only a front matter: 400 empty_markdown"
DEFAULT_IN_WORDS = "default_in_words"
"""Key of ``msgspec.Meta.extra``: a field's default said in words, where ``None`` stands for it."""

_WIDTH, _HEIGHT, _SCALE = (layout.CARD_LIMITS[k] for k in ("width", "height", "scale"))

# Descriptions are plain text (no Markdown markup): agents read them as they are.

CardTheme = Annotated[
    str,
    msgspec.Meta(
        description="A card theme ID or a custom theme's class name (GET /api/themes and"
        " the list_themes tool list them), with or without md2card's `card-` prefix, or a"
        " built-in theme's Chinese label (苹果备忘录 is apple-notes)."
    ),
]
ThemeMode = Annotated[
    str | None,
    msgspec.Meta(
        description="A mode of the theme (GET /api/themes and the list_themes tool list"
        f" each theme's modes); default: {_FIRST_MODE}; ignored for a theme without modes.",
        extra={DEFAULT_IN_WORDS: _FIRST_MODE},
    ),
]
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
Fit = Annotated[
    layout.Fit,
    msgspec.Meta(
        description="none: the theme's own type scale. auto: the post is also laid out a few"
        " steps denser and roomier (type within ±12 % of the theme's) and the cards whose mean"
        " quality score is highest are kept; the theme's own unless another scores higher."
        " Costs up to five layouts, not five renders."
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


BrandName = Annotated[
    str | None,
    msgspec.Meta(
        description="The name of a brand kit this key saved (PUT /api/brands/{name}): its"
        " fonts, logo, byline, footer, watermark and page-number style in the theme's own"
        " places (docs/brand-kits.md); an unknown name is 400 invalid_brand, nothing charged.",
        extra={DEFAULT_IN_WORDS: "none"},
    ),
]


class GenerateRequest(msgspec.Struct, frozen=True, kw_only=True):
    """Body of ``POST /api/generate``. Every field is optional."""

    markdown: Annotated[
        Markdown,
        msgspec.Meta(
            description=f"The cards' Markdown text, {MARKDOWN_LIMIT}; absent: a sample card"
            f" ({DEFAULT_MARKDOWN}); {NOTHING_TO_DRAW}. A YAML front matter"
            " (--- fenced, at the very start) is read, never drawn: its theme, mode and split"
            " fill the fields the request leaves out."
        ),
    ] = DEFAULT_MARKDOWN
    theme: CardTheme = DEFAULT_THEME
    themeMode: ThemeMode = None
    width: Width = layout.DEFAULT_WIDTH
    height: Height = layout.DEFAULT_HEIGHT
    splitMode: SplitMode = "noSplit"
    mdxMode: MdxMode = False
    overHiddenMode: OverHiddenMode = False
    scale: Scale = 2
    format: OutputFormat = "png"
    quality: Quality = layout.DEFAULT_QUALITY
    fit: Fit = "none"
    aigc: AigcField = False
    brand: BrandName = None


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


class CardQuality(msgspec.Struct, frozen=True):
    """The engine's own measure of a card (``layout.Quality``): reported, never refused."""

    score: Annotated[
        int,
        msgspec.Meta(
            ge=0,
            le=100,
            description="0-100: 100 less what each measure below costs past the level at"
            " which a designer would fix the card (docs/themes.md, 'The quality report').",
        ),
    ]
    fill: Annotated[
        float, msgspec.Meta(description="Share (0-1) of the content box's height the text takes.")
    ]
    emptyBand: Annotated[
        float,
        msgspec.Meta(
            description="The tallest band (0-1 of the content box) with nothing in it: between"
            " blocks, or under the last one on a card before the last that does not end its"
            " section (the next card opening with a heading) and is not set in its middle."
        ),
    ]
    overflow: Annotated[
        bool, msgspec.Meta(description="true: overflowHidden cut text the card had no room for.")
    ]
    smallestTextPx: Annotated[
        float,
        msgspec.Meta(
            description="The smallest text of the post, in CSS px as a phone 360 px wide shows"
            " the card."
        ),
    ]
    lowestContrast: Annotated[
        float,
        msgspec.Meta(
            description="The lowest WCAG contrast ratio (1-21) of the post's text against what is"
            " painted under it."
        ),
    ]
    justifyStretch: Annotated[
        float,
        msgspec.Meta(
            description="The most justification added to a gap between two characters on the"
            " card, in em (0: no line spread); past 0.1 em a line reads as letter-spaced and"
            " costs points (the engine sets such a line flush start instead)."
        ),
    ]
    brokenRules: Annotated[
        list[str],
        msgspec.Meta(
            description="The page-break rules the card's end breaks (only where every set of"
            " breaks breaks one): heading_at_card_end, kept_lines_parted, hyphen_at_card_end,"
            " code_that_fits_split, paragraph_that_fits_split, list_that_fits_split,"
            " table_row_alone,"
            " table_header_alone, quote_that_fits_split, table_note_parted,"
            " code_note_parted, short_list_split."
        ),
    ]
    strandedEnd: Annotated[
        bool,
        msgspec.Meta(
            description="true: the card opens with the short end (under 30 % of the card) of"
            " the section the card before began, above the next heading: a tip read atop the"
            " next section's card."
        ),
    ] = False
    notes: Annotated[
        list[str],
        msgspec.Meta(
            description="How layout changed the author's blocks to fit the card, in plain words"
            " (a left-right flowchart drawn top-down, its long labels wrapped); empty: none."
        ),
    ] = []


def card_quality(quality: layout.Quality | None) -> CardQuality | None:
    """The wire form of the engine's measure (None: a cover, which is not measured)."""
    if quality is None:
        return None
    return CardQuality(
        score=quality.score,
        fill=round(quality.fill, 3),
        emptyBand=round(quality.empty_band, 3),
        overflow=quality.overflow,
        smallestTextPx=quality.smallest_text,
        lowestContrast=quality.lowest_contrast,
        justifyStretch=round(quality.stretch, 3),
        brokenRules=list(quality.broken_rules),
        strandedEnd=quality.stranded,
        notes=list(quality.notes),
    )


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
    quality: Annotated[
        CardQuality | None,
        msgspec.Meta(
            description="The engine's measure of the card (for a PDF: of its lowest-scoring"
            " card); null for a cover."
        ),
    ] = None


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


# What each card field accepts, said the way an error message needs it.
CARD_ACCEPTED = {
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
    "fit": "one of " + ", ".join(layout.FITS),
    "aigc": AIGC_ACCEPTED,
    "brand": "the name of a brand kit of this key (GET /api/brands lists them)",
}


def invalid(field: str, accepted: str | None = None) -> InvalidField:
    """A 400 error naming ``field`` and what it accepts."""
    what = accepted or CARD_ACCEPTED[field]
    return InvalidField(f"{field} must be {what}", label=field_label(field))


def parse_generate(body: bytes) -> GenerateRequest:
    """Decode and validate a generate request body.

    Raises:
        InvalidJson: The body is not a JSON object.
        UnknownField: A field (or a near miss of a front matter key) it does not read (400).
        InvalidField: A field has the wrong type or is out of range (400).
        PayloadTooLarge: The Markdown is longer than ``MAX_MARKDOWN_CHARS`` (413).
        EmptyMarkdown: The Markdown sent holds nothing to draw (400).
    """
    sent = decode_object(body, CARD_ACCEPTED)
    fields = whole_numbers(
        with_front_matter(sent, GenerateRequest, CARD_ACCEPTED), "scale", "quality"
    )
    request = convert_fields(fields, GenerateRequest, CARD_ACCEPTED)
    require_markdown(sent, request.markdown, "draw", required=False)
    return request
