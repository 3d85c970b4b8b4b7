"""The server's settings and themes → the tool list agents read: names, descriptions, schemas.

Each description says in plain words what the tool does and what it costs (the price list in force,
``Settings.prices`` from ``app.prices``); each input schema is derived from
its model (``app.schema.tool_schema``), with ``markdownFile`` added where the server reads
local files (stdio). What the tools then do is ``app.mcp.tools``.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types

from inkcard.app.mcp.boxlisting import box_tools
from inkcard.app.mcp.files import with_markdown_file
from inkcard.app.prices import credits
from inkcard.app.schema import (
    ARTICLE_REQUIRED,
    ARTICLE_THEMES,
    INLINE_BYTES,
    INLINE_CARDS,
    NEWSPIC_IMAGE_LIMIT,
    ArticleToolArguments,
    CoverRequest,
    GenerateRequest,
    GenerateToolArguments,
    NewspicToolArguments,
    XhsNoteToolArguments,
    field_descriptions,
    tool_schema,
)
from inkcard.app.settings import Settings
from inkcard.themes import Catalogue

_FIELDS = field_descriptions(GenerateRequest)
CARD_COUNT = f"splitMode: {_FIELDS['splitMode']}\n\noverHiddenMode: {_FIELDS['overHiddenMode']}"
"""What the generate tool tells agents about split modes: the model's own descriptions."""


def tool_list(
    settings: Settings, catalogue: Catalogue, *, local_files: bool, file_urls: bool
) -> list[types.Tool]:
    """The tool list: names, plain-words descriptions, input schemas. ``local_files``: the
    Markdown tools take ``markdownFile``; ``file_urls``: stored files have URLs."""
    themes = catalogue.accepted_names()
    prices = settings.prices

    def local(schema: dict[str, Any]) -> dict[str, Any]:
        return with_markdown_file(schema) if local_files else schema

    return [
        types.Tool(
            name="generate_cards",
            title="Markdown to card images",
            description=_generate_description(settings, file_urls),
            input_schema=local(tool_schema(GenerateToolArguments, themes)),
            annotations=types.ToolAnnotations(read_only_hint=False, destructive_hint=False),
        ),
        types.Tool(
            name="generate_cover",
            title="A title to cover images",
            description=(
                "Draw covers from a title (text) in a card theme, no Markdown: count (1..4)"
                " covers, each in another layout, the title set large and the keywords in"
                " the theme's accent. Without width and height each is a WeChat article"
                " cover, 900 x 383 (2.35:1), the whole title in the centred square the"
                " platform crops at 1:1; give a size for other covers (440 x 586: a"
                " Xiaohongshu 3:4). Without theme: apple-notes' colours, no app chrome."
                " Returns each cover's"
                + (
                    " URL (as generate_cards, without inline images)."
                    if file_urls
                    else " file name and the covers themselves as images (no URLs here)."
                )
                + " Costs what a generate_cards call costs, whatever count; a failed call"
                " costs nothing."
            ),
            input_schema={**tool_schema(CoverRequest, themes), "required": ["text"]},
            annotations=types.ToolAnnotations(read_only_hint=False, destructive_hint=False),
        ),
        types.Tool(
            name="convert_article",
            title="Markdown to a WeChat article or draft",
            description=(
                "Convert Markdown into a WeChat official-account article: one HTML document"
                " with inline CSS, ready to paste into the WeChat editor"
                f" ({credits(prices.html)}). With platform credentials (platformAppid and"
                " platformAppSecret, or configured on this connection) it instead uploads"
                " the images and creates a draft in the account's draft box and returns"
                f" the draft's media_id ({credits(prices.draft)}); dryRun checks it and"
                f" returns what would be sent ({credits(prices.dry_run)}). A balance under"
                f" {credits(prices.publishing_minimum)} is refused before any work; a failed"
                " call costs"
                " nothing. Article themes: " + ", ".join(ARTICLE_THEMES) + "."
            ),
            input_schema=local(tool_schema(ArticleToolArguments, ARTICLE_THEMES, ARTICLE_REQUIRED)),
            annotations=types.ToolAnnotations(read_only_hint=False, destructive_hint=False),
        ),
        types.Tool(
            name="create_newspic_draft",
            title="Markdown to a WeChat image post (newspic) draft",
            description=(
                "Draw Markdown as cards (as generate_cards, autoSplit unless splitMode is"
                " given) and create a WeChat image post (小绿书) in the account's draft box:"
                f" the cards in order, the first the cover, at most {NEWSPIC_IMAGE_LIMIT};"
                " title and text from the arguments, else the front matter, else the first"
                " heading and paragraphs. Needs platform credentials (platformAppid and"
                " platformAppSecret, or configured on this connection);"
                f" {credits(prices.newspic)}, a failed call nothing. dryRun: draw and check,"
                f" send nothing, no account needed, {credits(prices.dry_run)}. Answers carry"
                " warnings."
            ),
            input_schema=local(tool_schema(NewspicToolArguments, themes)),
            annotations=types.ToolAnnotations(read_only_hint=False, destructive_hint=False),
        ),
        types.Tool(
            name="create_xhs_note",
            title="Markdown to a Xiaohongshu note",
            description=(
                "Draw Markdown as a Xiaohongshu (小红书) note: the cards (as generate_cards,"
                " autoSplit unless splitMode is given: 3:4 cards), a cover card of the title,"
                " and the note's text: title (the argument, else the front matter, else the"
                " first heading), plain-text body, tags (the argument, else the front matter's"
                " tags, else the post's #话题 hashtags) and copy, the text ready to paste."
                " Warnings name each limit exceeded (title over 20 characters, body over"
                " 1,000, over 10 tags, over 18 images with the cover). Posts nothing."
                " Returns each image's"
                + (
                    " URL."
                    if file_urls
                    else " file name and the images themselves when few (no URLs here)."
                )
                + f" Costs what a generate_cards call costs ({credits(prices.xhs_note)});"
                " a failed call costs nothing."
            ),
            input_schema=local(tool_schema(XhsNoteToolArguments, themes)),
            annotations=types.ToolAnnotations(read_only_hint=False, destructive_hint=False),
        ),
        types.Tool(
            name="list_themes",
            title="Card and article themes",
            description=(
                "List the card themes for generate_cards (id, label, one-line description,"
                " modes with the first one the default, and a preview image URL for each"
                " mode, empty over stdio) and the article themes for convert_article (the"
                " first is the default). Free."
            ),
            input_schema={"type": "object", "properties": {}, "additionalProperties": False},
            annotations=types.ToolAnnotations(read_only_hint=True),
        ),
        *box_tools(prices),
    ]


def _generate_description(settings: Settings, file_urls: bool) -> str:
    cost = settings.prices.generate
    price = f"Each successful call costs {credits(cost)}" if cost else "Free on this server"
    default = GenerateRequest()
    each = "URL" if file_urls else "file name (no URLs here: the answer says why)"
    return (
        "Turn Markdown into themed PNG card images (Xiaohongshu-style knowledge cards)."
        f" Returns each card's {each} and, when the result is small (at most"
        f" {INLINE_CARDS} cards and {INLINE_BYTES // 2**20} MiB of PNG), the cards"
        f" themselves as images.\n\n{CARD_COUNT}\n\nThe default card is"
        f" {default.width:g} x {default.height:g}"
        " (3:4); try 500 x 500 (square), 440 x 782 (9:16 poster) or 595 x 842 (A4)."
        f" Themes and their modes: call list_themes. {price}; a failed call costs nothing."
    )
