"""An xhs-note request → the note's title, body and tags, its limit warnings and the text to
paste: the one place a Xiaohongshu note's text is decided (the HTTP route, the MCP tool and
``inkcard xhs-note`` all call ``note_of``, so each gives the same note).

The title is the request's ``title`` (the front matter's fills it), else the post's first
heading, which then leaves the body. The tags are the request's ``tags`` (the front matter's
fill them), else the post's hashtags, whose tag-only paragraphs then leave the body. The
limits are Xiaohongshu's (a title of 20 characters, a body of 1,000, 10 tags, 18 images),
counted as the app counts: one a grapheme (``text.length``), so an emoji with its skin tone
is one, and a CJK character and a Latin letter are one each. A limit exceeded is a warning,
never a refusal: the writer decides what to cut.
"""

from __future__ import annotations

from dataclasses import dataclass

from inkcard import layout
from inkcard.app.articles.xhs import text
from inkcard.app.schema import (
    KEYWORD_CHARS,
    KEYWORDS,
    TITLE_CHARS,
    CoverRequest,
    PublishWarning,
    XhsNote,
    XhsNoteRequest,
)
from inkcard.layout.parse import Block, Heading

TITLE_LIMIT = 20  # Xiaohongshu: characters of a note's title
BODY_LIMIT = 1_000  # characters of its body
TAG_LIMIT = 10  # topics of a note
IMAGE_LIMIT = 18  # images of a note, the cover among them
COVER_TITLE_CHARS = 40  # of a note without a title, the cover shows its body's first line


@dataclass(frozen=True, slots=True)
class NoteText:
    """A note's text and what its cover shows."""

    note: XhsNote
    cover_title: str
    """The title, else the body's first line (cut): a cover always has a title."""


def note_of(request: XhsNoteRequest, doc: layout.Doc) -> NoteText:
    """The note of ``request``, its post parsed as ``doc`` (``layout.parse_post`` of its
    Markdown, the cards' own parse)."""
    blocks = doc.blocks
    heading = next((b for b in blocks if isinstance(b, Heading)), None)
    heading_text = " ".join(text.inline_text(heading.inlines).split()) if heading else ""
    title = " ".join(request.title.split()) or heading_text
    drop: list[Block] = [heading] if heading is not None and heading_text == title else []
    if request.tags is not None:
        tags = list(request.tags)
    else:
        found: dict[str, None] = {}
        top = {id(block) for block in blocks}  # a tag line is a paragraph of its own
        for block, words in text.text_runs(blocks):
            found.update(dict.fromkeys(text.hashtags(words)))
            if id(block) in top and text.only_hashtags(words):
                drop.append(block)
        tags = list(found)
    body = text.plain_text(blocks, drop=drop)
    first_line = next((line for line in body.splitlines() if line.strip()), "")
    cover_title = _cut(title, TITLE_CHARS) or _cut(first_line.strip(), COVER_TITLE_CHARS) or "·"
    return NoteText(XhsNote(title=title, body=body, tags=tags), cover_title)


def _cut(line: str, limit: int) -> str:
    """``line`` in at most ``limit`` graphemes (a cover's title), cut at a space in its
    second half when it has one (a word kept whole), … marking the cut."""
    graphemes = text.GRAPHEME.findall(line)
    if len(graphemes) <= limit:
        return line
    cut = "".join(graphemes[: limit - 1])
    space = cut.rfind(" ")
    if not graphemes[limit - 1].isspace() and space > len(cut) // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"


def cover_request(request: XhsNoteRequest, text: NoteText) -> CoverRequest:
    """The note's cover: its title (cut to what a cover sets) in the cards' theme, mode and
    size, its first tags as the cover's keywords (drawn in the accent or beside the title)."""
    return CoverRequest(
        text=text.cover_title[:TITLE_CHARS],
        keywords=[tag[:KEYWORD_CHARS] for tag in text.note.tags[:KEYWORDS]],
        theme=request.theme,
        themeMode=request.themeMode,
        width=request.width,
        height=request.height,
    )


def warnings_of(note: XhsNote, images: int) -> list[PublishWarning]:
    """A warning for each of Xiaohongshu's limits ``note`` (with ``images`` images, the
    cover among them) exceeds, in the order title, body, tags, images."""
    found: list[PublishWarning] = []
    counts = (
        ("xiaohongshu_title_too_long", "the title", text.length(note.title), TITLE_LIMIT),
        ("xiaohongshu_text_too_long", "the body", text.length(note.body), BODY_LIMIT),
        ("xiaohongshu_too_many_tags", "the note", len(note.tags), TAG_LIMIT),
        ("xiaohongshu_too_many_images", "the note", images, IMAGE_LIMIT),
    )
    units = {
        "xiaohongshu_too_many_tags": "tags",
        "xiaohongshu_too_many_images": "images (the cover among them)",
    }
    for code, what, count, limit in counts:
        if count > limit:
            unit = units.get(code, "characters")
            found.append(
                PublishWarning(code, f"{what} has {count:,} {unit}; Xiaohongshu takes {limit:,}")
            )
    return found


def copy_text(note: XhsNote) -> str:
    """The note ready to paste: the title line, the body, the tags line (``#a #b``), a
    blank line between them; an empty part left out."""
    tags = " ".join(f"#{tag}" for tag in note.tags)
    return "\n\n".join(part for part in (note.title, note.body, tags) if part)
