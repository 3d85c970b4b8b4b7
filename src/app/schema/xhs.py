"""``POST /api/platform/xhs-note``'s body → ``XhsNoteRequest``; its answer, ``XhsNoteResponse``.

The body is the generate body (``GenerateRequest``, subclassed: every generate field, and any
field added to generate later, is a note's field too, checked and described once) plus the
note's own ``title`` and ``tags``. Two defaults differ from generate's, because a note is a
carousel of 3:4 images: ``splitMode`` is autoSplit (every card exactly width x height, the
engine's default 440 x 586, 3:4), and ``format`` pdf is refused (a note holds images). A
front matter's ``title`` fills ``title`` and its ``tags`` (a YAML list or one string of tags
apart by commas) fill ``tags``, as every front matter field fills what the body leaves out.
``app.articles.xhs`` builds the note's text; ``app.operations.xhsnote`` draws its images.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

import msgspec

from inkcard import layout
from inkcard.app import frontmatter
from inkcard.app.schema.generate import (
    CARD_ACCEPTED,
    DEFAULT_IN_WORDS,
    Cost,
    GenerateRequest,
    ImageRecord,
    Images,
    SplitMode,
    Success,
    invalid,
)
from inkcard.app.schema.publish import Warnings
from inkcard.app.schema.wire import (
    NOT_BLANK,
    convert_fields,
    decode_object,
    require_markdown,
    whole_numbers,
    with_front_matter,
)

NOTE_TITLE_CHARS = 100  # accepted, so that a title over Xiaohongshu's 20 gets its warning
NOTE_TAGS = 30  # accepted, so that more than Xiaohongshu's 10 get their warning
NOTE_TAG_CHARS = 30
NoteFormatName = Literal["png", "jpeg", "webp"]
NOTE_FORMATS: tuple[NoteFormatName, ...] = ("png", "jpeg", "webp")
NoteFormat = Annotated[
    NoteFormatName,
    msgspec.Meta(
        description="png, jpeg or webp: one image per card (a note holds images: no pdf)."
    ),
]

_SPLIT = get_args(SplitMode)[1].description
NoteSplitMode = Annotated[
    layout.SplitMode,
    msgspec.Meta(
        description=_SPLIT.replace("noSplit (the default)", "noSplit")
        + " A note's default is autoSplit: every card 3:4 at the default size."
    ),
]
NoteTitle = Annotated[
    str,
    msgspec.Meta(
        max_length=NOTE_TITLE_CHARS,
        description=f"The note's title, at most {NOTE_TITLE_CHARS} characters (Xiaohongshu"
        " shows 20: a longer one gets a warning); empty: the front matter's title, else the"
        " post's first heading. The cover card shows it.",
    ),
]
# A tag: an optional # (or two, #话题#), at most NOTE_TAG_CHARS characters that are neither
# blank (wire.NOT_BLANK's class, so the document and the parser agree) nor #. No two parts can
# take the same character: one pass.
_TAG_CHAR = NOT_BLANK[:-1] + "#]"
TAG_PATTERN = f"^#?{_TAG_CHAR}{{0,{NOTE_TAG_CHARS}}}#?$"
NoteTagList = Annotated[
    list[Annotated[str, msgspec.Meta(pattern=TAG_PATTERN)]], msgspec.Meta(max_length=NOTE_TAGS)
]
NoteTags = Annotated[
    NoteTagList | None,
    msgspec.Meta(
        description=f"The note's topics, at most {NOTE_TAGS} of at most {NOTE_TAG_CHARS}"
        " characters, no spaces, with or without their # (#话题, #话题#) (Xiaohongshu takes"
        " 10: more get a warning). Absent: the front matter's tags (a list, or one string"
        " apart by commas or spaces), else the post's #话题 and #话题# hashtags (a paragraph"
        " of only hashtags then leaves the body for the tags line).",
        extra={DEFAULT_IN_WORDS: "the front matter's, else the post's hashtags"},
    ),
]


class XhsNoteRequest(GenerateRequest, frozen=True, kw_only=True):
    """Body of ``POST /api/platform/xhs-note``: generate's fields, then the note's. Every
    field is optional."""

    splitMode: NoteSplitMode = "autoSplit"
    format: NoteFormat = "png"
    title: NoteTitle = ""
    tags: NoteTags = None

    def cards(self) -> GenerateRequest:
        """The generate request that draws this note's cards: every generate field as sent."""
        names = GenerateRequest.__struct_fields__
        return GenerateRequest(**{name: getattr(self, name) for name in names})


class XhsNoteToolArguments(XhsNoteRequest, frozen=True, kw_only=True):
    """Arguments of the MCP tool ``create_xhs_note``: the body as it is."""


class XhsNote(msgspec.Struct, frozen=True):
    """The note's text, each part as it goes into the app's fields."""

    title: Annotated[str, msgspec.Meta(description="The note's title (its own field).")]
    body: Annotated[
        str,
        msgspec.Meta(
            description="The note's text: plain text, no Markdown; a blank line between"
            " paragraphs, a heading on its own line, each list item on its own line after •"
            " or 1️⃣, code as its text, a link as its text, images left out, emoji kept."
        ),
    ]
    tags: Annotated[list[str], msgspec.Meta(description="The topics, without #, in order.")]


class XhsNoteResponse(msgspec.Struct, frozen=True):
    """Success body of ``POST /api/platform/xhs-note``."""

    success: Success
    images: Annotated[
        Images,
        msgspec.Meta(description="The note's cards, exactly generate's for the same fields."),
    ]
    cover: Annotated[
        ImageRecord,
        msgspec.Meta(description="The cover card: the note's title in the cards' theme and size."),
    ]
    note: XhsNote
    copy: Annotated[
        str,
        msgspec.Meta(
            description="Ready to paste: the title line, a blank line, the body, a blank"
            " line and the tags line (#tag #tag)."
        ),
    ]
    cost: Cost
    warnings: Warnings = []


XHS_ACCEPTED = {
    **CARD_ACCEPTED,
    "format": "one of " + ", ".join(NOTE_FORMATS) + " (a note holds images)",
    "title": f"a string of at most {NOTE_TITLE_CHARS} characters",
    "tags": f"a list of at most {NOTE_TAGS} tags, each at most {NOTE_TAG_CHARS} characters"
    " without spaces or # (#tag and #tag# are fine)",
}


def parse_xhs_note(body: bytes) -> XhsNoteRequest:
    """Decode and validate an xhs-note body: the generate fields as ``parse_generate``
    checks them (front matter included), then the note's title and tags, from the front
    matter when the body leaves them out.

    Raises:
        InvalidJson, UnknownField, InvalidField, PayloadTooLarge, EmptyMarkdown: As
            ``parse_generate`` (``invalid_format`` for pdf); ``invalid_tags`` for a tag
            that is too long or has a space in it.
    """
    sent = decode_object(body, XHS_ACCEPTED)
    markdown = sent.get("markdown")
    fields = with_front_matter(sent, XhsNoteRequest, XHS_ACCEPTED)
    if "tags" not in sent and isinstance(markdown, str):
        found = frontmatter.tags(markdown)
        if found is not None:
            fields["tags"] = found
    request = convert_fields(
        whole_numbers(fields, "scale", "quality"), XhsNoteRequest, XHS_ACCEPTED
    )
    if request.tags is not None:
        request = msgspec.structs.replace(request, tags=clean_tags(request.tags))
    require_markdown(sent, request.markdown, "draw", required=False)
    return request


def clean_tags(tags: list[str]) -> list[str]:
    """``tags`` (each checked by ``TAG_PATTERN``) without their ``#`` marks (``#a``, ``#a#``),
    empty ones and repeats.

    Raises:
        InvalidField: ``invalid_tags``: a tag ending in a line break, which Python's ``$``
            lets through the pattern (the document's regex dialect does not).
    """
    if any(tag.endswith("\n") for tag in tags):
        raise invalid("tags", XHS_ACCEPTED["tags"])
    kept = dict.fromkeys(tag.removeprefix("#").removesuffix("#") for tag in tags)
    return [tag for tag in kept if tag]
