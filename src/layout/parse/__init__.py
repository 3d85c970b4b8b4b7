"""Markdown and the inline HTML it may hold → our block tree (`Doc`), never executed.

`markdown` reads the tokens of the configured markdown-it (`mdparser`) into blocks named by
their theme roles (`doc` holds the block tree's records); `mdx` adds mdxMode's fixed set of
components; `htmltags` and `inlinecss` read the inline HTML subset and its CSS; `addresses`
decides which bare text is a link, `hardwraps` which lines an editor wrapped; `code`
tokenises fenced code for the panel's colours, `codelines` finds where a long code line
reads best wrapped. The article path shares the
helpers named in `__all__`; the block records are the face's too (an xhs-note's plain text
is read from the cards' own parse). May import: `layout.base`, `layout.errors`,
`layout.limits`.
"""

from .addresses import address_linkify
from .cjkemphasis import cjk_friendly
from .code import highlight
from .doc import (
    Block,
    Callout,
    Cited,
    CodeBlock,
    Columns,
    Doc,
    Heading,
    Image,
    ListBlock,
    ListItem,
    Notes,
    Paragraph,
    Quote,
    Rule,
    Step,
    Steps,
    Table,
    Text,
)
from .hardwraps import hard_wraps
from .inlinecss import (
    HTML_TAGS,
    STYLE_PROPERTIES,
    STYLED_TAGS,
    clean_style,
    color_hex,
    color_pattern,
    css_color,
)
from .markdown import ALERT_LABELS, clean_text, image_sources, may_name_images
from .mdparser import valid_link

__all__ = [
    "ALERT_LABELS",
    "HTML_TAGS",
    "STYLED_TAGS",
    "STYLE_PROPERTIES",
    "Block",
    "Callout",
    "Cited",
    "CodeBlock",
    "Columns",
    "Doc",
    "Heading",
    "Image",
    "ListBlock",
    "ListItem",
    "Notes",
    "Paragraph",
    "Quote",
    "Rule",
    "Step",
    "Steps",
    "Table",
    "Text",
    "address_linkify",
    "cjk_friendly",
    "clean_style",
    "clean_text",
    "color_hex",
    "color_pattern",
    "css_color",
    "hard_wraps",
    "highlight",
    "image_sources",
    "may_name_images",
    "valid_link",
]
