"""Records of the publishing calls: the body of ``POST /api/platform/newspic-draft`` and
its MCP tool's arguments (the card fields are the generate body's, ``app.schema.generate``,
and the account, retry key and draft fields every publishing call's, ``app.schema.platform``,
each described once), and the answers of newspic-draft and convert-and-draft."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from inkcard import layout
from inkcard.app.prices import PRICES, credits
from inkcard.app.schema.aigc import Aigc as AigcField
from inkcard.app.schema.generate import (
    CARD_ACCEPTED,
    DEFAULT_MARKDOWN,
    DEFAULT_THEME,
    NOTHING_TO_DRAW,
    BrandName,
    CardTheme,
    Cost,
    ErrorLabel,
    GenerateRequest,
    Height,
    Images,
    MdxMode,
    Message,
    OverHiddenMode,
    Scale,
    SplitMode,
    Success,
    ThemeMode,
    Width,
)
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
    require_markdown,
    whole_numbers,
    with_front_matter,
)

NEWSPIC_IMAGE_LIMIT = 20  # the platform's image_list holds at most 20, the first the cover
NEWSPIC_TEXT_LIMIT = 1_000  # characters of the post's text (an image post's caption)

_CARD_FIELDS = (
    "markdown",
    "theme",
    "themeMode",
    "width",
    "height",
    "splitMode",
    "mdxMode",
    "overHiddenMode",
    "scale",
    "aigc",
)


class NewspicRequest(msgspec.Struct, frozen=True, kw_only=True):
    """Body of ``POST /api/platform/newspic-draft``. Every field is optional."""

    markdown: Annotated[
        Markdown,
        msgspec.Meta(
            description=f"The post's Markdown, drawn as cards, {MARKDOWN_LIMIT}; absent: a"
            f" sample card; {NOTHING_TO_DRAW}. Its front"
            " matter's title and description (or digest) fill the fields left out."
        ),
    ] = DEFAULT_MARKDOWN
    theme: CardTheme = DEFAULT_THEME
    themeMode: ThemeMode = None
    width: Width = layout.DEFAULT_WIDTH
    height: Height = layout.DEFAULT_HEIGHT
    splitMode: SplitMode = "autoSplit"
    mdxMode: MdxMode = False
    overHiddenMode: OverHiddenMode = False
    scale: Scale = 2
    aigc: AigcField = False
    title: Annotated[
        str,
        msgspec.Meta(
            description="The post's title; empty: the first heading, else the first line. Cut"
            " to 32 characters (… marks a cut)."
        ),
    ] = ""
    description: Annotated[
        str,
        msgspec.Meta(
            description="The post's plain text under the images; empty: the Markdown's first"
            f" paragraphs. Cut to {NEWSPIC_TEXT_LIMIT:,} characters (… marks a cut)."
        ),
    ] = ""
    dryRun: Annotated[
        bool,
        msgspec.Meta(
            description="true: draw and store the cards, run the checks, call no platform (no"
            f" credentials needed) and answer what would be sent; {credits(PRICES.dry_run)}."
        ),
    ] = False
    draftMediaId: DraftMediaId = ""
    draftMissing: DraftMissingField = "fail"
    brand: BrandName = None

    def cards(self) -> GenerateRequest:
        """The generate request that draws this post's cards (PNG, the platform's format)."""
        return GenerateRequest(**{name: getattr(self, name) for name in _CARD_FIELDS})


class NewspicToolArguments(NewspicRequest, frozen=True, kw_only=True):
    """Arguments of the MCP tool ``create_newspic_draft``: the body and what the HTTP route
    takes as headers (the account, the idempotency key)."""

    platformAppid: PlatformAppid = None
    platformAppSecret: PlatformAppSecret = None
    account: PlatformAccount = None
    idempotencyKey: IdempotencyKey = None


class PublishWarning(msgspec.Struct, frozen=True):
    """Something a publishing call changed on the way to the platform, or that the platform
    (or Xiaohongshu) would refuse: ``code`` (one of the README's warning codes) and a
    ``message`` in plain words."""

    code: Annotated[str, msgspec.Meta(description="The warning's code (the README lists them).")]
    message: Message


Warnings = Annotated[
    list[PublishWarning],
    msgspec.Meta(description="What was changed on the way, or what the platform may refuse."),
]
MediaId = Annotated[
    str, msgspec.Meta(description="The draft's id in the account's draft box (media_id).")
]
WordCount = Annotated[
    int, msgspec.Meta(description="The article's words, as the platform counts them.")
]


class NewspicData(msgspec.Struct, frozen=True):
    """The image post's draft: its platform id, its cards in order (the first the cover)."""

    media_id: MediaId
    images: Images
    cost: Cost


class NewspicResponse(msgspec.Struct, frozen=True):
    """newspic-draft's answer: the draft is in the account's draft box."""

    success: Success
    message: Message
    data: Annotated[NewspicData, msgspec.Meta(description="The draft.")]
    warnings: Warnings = []


_NEWSPIC_ACCEPTED = {
    **{name: CARD_ACCEPTED[name] for name in _CARD_FIELDS},
    "title": "a string",
    "description": "a string",
    "dryRun": "true or false",
    **DRAFT_FIELDS_ACCEPTED,
    "brand": CARD_ACCEPTED["brand"],
}
# the front matter's field → the post's field it fills (a post's text is the writer's digest)
_FRONT_MATTER_FILLS = {
    "theme": "theme",
    "themeMode": "themeMode",
    "splitMode": "splitMode",
    "title": "title",
    "digest": "description",
}


def parse_newspic(body: bytes) -> NewspicRequest:
    """Decode and validate a newspic-draft body: the card fields as ``parse_generate``
    checks them (front matter included; splitMode autoSplit unless given: a post is a
    carousel of cards, not one tall card), then the post's title and description, from the
    front matter when the body leaves them out.

    Raises:
        InvalidJson, UnknownField, InvalidField, PayloadTooLarge, EmptyMarkdown: As
            ``parse_generate`` (``format`` and ``quality`` are unknown here: a post's cards
            are PNG).
    """
    sent = decode_object(body, _NEWSPIC_ACCEPTED, HEADER_HINTS)
    fields = with_front_matter(sent, NewspicRequest, _NEWSPIC_ACCEPTED, _FRONT_MATTER_FILLS)
    request = convert_fields(whole_numbers(fields, "scale"), NewspicRequest, _NEWSPIC_ACCEPTED)
    require_markdown(sent, request.markdown, "draw", required=False)
    return request


class HtmlResponse(msgspec.Struct, frozen=True):
    """convert-and-draft without platform headers: the article as inline-styled HTML."""

    success: Success
    html: Annotated[str, msgspec.Meta(description="The article as inline-styled HTML.")]
    cost: Cost
    warnings: Warnings = []


class DraftImage(msgspec.Struct, frozen=True):
    """What became of one image of a draft: ``source`` as the Markdown names it (a data: URI
    cut short; by number and alt text when it had no usable source), ``status`` uploaded,
    reused (the account already had it: nothing sent), skipped (``imagePolicy`` skip) or,
    in a dry run, ready (fetched and converted, not sent),
    ``reason`` why it was skipped."""

    source: Annotated[str, msgspec.Meta(description="The image as the Markdown names it.")]
    status: Annotated[
        Literal["uploaded", "reused", "skipped", "ready"],
        msgspec.Meta(
            description="uploaded; reused (the account already had these bytes from an"
            " earlier call: not uploaded again); skipped (imagePolicy skip); ready (a dry run)."
        ),
    ]
    reason: Annotated[str, msgspec.Meta(description="Why it was skipped; empty otherwise.")] = ""


DraftImages = Annotated[
    list[DraftImage],
    msgspec.Meta(description="What became of each image, the article's in order, then the rest."),
]


class DraftData(msgspec.Struct, frozen=True):
    """What a created draft is: its platform id, its word count, what it cost, and what
    became of each image (the article's sources in order, then those it could not use)."""

    media_id: MediaId
    wordCount: WordCount
    cost: Cost
    images: DraftImages = []


class DraftResponse(msgspec.Struct, frozen=True):
    """convert-and-draft with platform headers: the draft is in the account's draft box."""

    success: Success
    message: Message
    data: Annotated[DraftData, msgspec.Meta(description="The draft.")]
    warnings: Warnings = []


class DraftPreview(msgspec.Struct, frozen=True):
    """What a dry run's draft would hold, its ``draft/add`` fields as they would be sent
    (``content`` with the images' own sources, not yet the platform's), ``cover`` the cover's
    source (``generated``: a card drawn from the title, then ``coverImage`` is that card as
    a ``data:`` URI, the very PNG a draft would upload) and its centred crops, and what
    became of each image."""

    title: Annotated[str, msgspec.Meta(description="The draft's title, cut as it would be.")]
    author: Annotated[str, msgspec.Meta(description="The author, cut as it would be.")]
    digest: Annotated[str, msgspec.Meta(description="The summary, cut as it would be.")]
    content: Annotated[str, msgspec.Meta(description="The article HTML as it would be sent.")]
    content_source_url: Annotated[str, msgspec.Meta(description="The 'read more' link.")]
    cover: Annotated[
        str,
        msgspec.Meta(
            description="The cover's source; generated: drawn from the title (see coverImage)."
        ),
    ]
    coverImage: Annotated[
        str,
        msgspec.Meta(
            description="When cover is generated: the drawn cover (900 x 383 PNG, its title in"
            " the centred square the 1:1 crop keeps) as a data:image/png;base64 URI, the bytes"
            " a draft would upload; empty when the cover is an image named by cover."
        ),
    ]
    pic_crop_235_1: Annotated[
        str, msgspec.Meta(description="The cover's centred 2.35:1 crop, as the platform takes it.")
    ]
    pic_crop_1_1: Annotated[
        str, msgspec.Meta(description="The cover's centred 1:1 crop, as the platform takes it.")
    ]
    need_open_comment: Annotated[int, msgspec.Meta(description="1: comments open.")]
    only_fans_can_comment: Annotated[int, msgspec.Meta(description="1: followers only.")]
    images: DraftImages
    wordCount: WordCount
    cost: Cost


class DraftPreviewResponse(msgspec.Struct, frozen=True):
    """convert-and-draft with ``dryRun``: checked, nothing sent to the platform."""

    success: Success
    message: Message
    data: Annotated[DraftPreview, msgspec.Meta(description="What the draft would hold.")]
    warnings: Warnings = []


class NewspicPreview(msgspec.Struct, frozen=True):
    """What a dry run's image post would hold: its title, its text, its cards in order (drawn
    and stored like generate's)."""

    title: Annotated[str, msgspec.Meta(description="The post's title, cut as it would be.")]
    description: Annotated[str, msgspec.Meta(description="The post's text, cut as it would be.")]
    images: Images
    cost: Cost


class NewspicPreviewResponse(msgspec.Struct, frozen=True):
    """newspic-draft with ``dryRun``: the cards drawn, checked, nothing sent to the platform."""

    success: Success
    message: Message
    data: Annotated[NewspicPreview, msgspec.Meta(description="What the post would hold.")]
    warnings: Warnings = []


class ArticleErrorBody(msgspec.Struct, frozen=True):
    """Every error of convert-and-draft: ``success`` false and ``cost`` 0."""

    success: Annotated[bool, msgspec.Meta(description="false.")]
    error: ErrorLabel
    message: Annotated[str, msgspec.Meta(description="What went wrong, in plain words.")]
    cost: Annotated[int, msgspec.Meta(description="0: a failed call is not charged.")]
