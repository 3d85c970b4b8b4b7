"""The block tree a post parses to: `Doc`, its blocks named by their theme roles, and inline text.

Plain frozen records, made by markdown.py (and mdx.py for mdxMode's components) and read by
every later stage: a `Block` is one of the kinds below; inline text is runs of `Text`, each
with the inline roles it is in (`strong`, `em`, `del`, `inline_code`, `link`, and the marks
of the inline HTML subset). The nodes are msgspec structs, whose classes are built in C (a
frozen slots dataclass compiles six methods at import, in every cold start); `Doc` is a
dataclass, its `images` left out of its equality. `node_values` walks them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import msgspec


class Text(msgspec.Struct, frozen=True):
    """A run of inline text and the inline roles it is in (`strong`, `em`, `del`,
    `inline_code`, `link`). A line break is the text `\\n`."""

    text: str
    marks: frozenset[str] = frozenset()


class Heading(msgspec.Struct, frozen=True):
    level: int
    inlines: tuple[Text, ...]


class Paragraph(msgspec.Struct, frozen=True):
    inlines: tuple[Text, ...]


class Image(msgspec.Struct, frozen=True):
    src: str
    alt: str
    width: int | None = None  # requested display size in CSS px (`![alt|WxH](src)`)
    height: int | None = None  # None with a width: keep the image's aspect


class CodeBlock(msgspec.Struct, frozen=True):
    code: str
    lang: str


class Rule(msgspec.Struct, frozen=True):
    pass


class Quote(msgspec.Struct, frozen=True):
    blocks: tuple[Block, ...]


class ListItem(msgspec.Struct, frozen=True):
    blocks: tuple[Block, ...]
    checked: bool | None = None  # None: not a task


class ListBlock(msgspec.Struct, frozen=True):
    ordered: bool
    start: int
    tight: bool
    items: tuple[ListItem, ...]


class Table(msgspec.Struct, frozen=True):
    aligns: tuple[str, ...]
    header: tuple[tuple[Text, ...], ...]
    rows: tuple[tuple[tuple[Text, ...], ...], ...]


class Columns(msgspec.Struct, frozen=True):
    """mdxMode `<Columns>`: two or three columns side by side, each its own blocks."""

    columns: tuple[tuple[Block, ...], ...]


class Callout(msgspec.Struct, frozen=True):
    """A tinted box: mdxMode `<Callout type title>` (`kind` info, tip, warning, danger, its
    title after the kind's icon) or a GitHub alert (note, tip, important, warning, caution;
    `title` its label, no icon)."""

    kind: str
    title: str
    blocks: tuple[Block, ...]
    icon: bool = True


class Notes(msgspec.Struct, frozen=True):
    """The post's footnotes, numbered from 1 in the order they are first referenced: each
    note's paragraphs as one run of inline text (a line break between them)."""

    label: str
    notes: tuple[tuple[Text, ...], ...]


class Cited(msgspec.Struct, frozen=True):
    """mdxMode `<Quote author>`: a highlighted quote signed by its author."""

    author: str
    blocks: tuple[Block, ...]


class Step(msgspec.Struct, frozen=True):
    title: str
    blocks: tuple[Block, ...]


class Steps(msgspec.Struct, frozen=True):
    """mdxMode `<Steps>`: numbered steps, each a number badge beside its content."""

    steps: tuple[Step, ...]


Block = (
    Heading
    | Paragraph
    | Image
    | CodeBlock
    | Rule
    | Quote
    | ListBlock
    | Table
    | Columns
    | Callout
    | Cited
    | Steps
    | Notes
)


@dataclass(frozen=True, slots=True)
class Doc:
    """A post as blocks, and every image source it names (in order, without repeats), read
    from the same parse: the caller fetches the images from `images` without parsing again."""

    blocks: tuple[Block, ...] = field(default=())
    images: tuple[str, ...] = field(default=(), compare=False)  # not part of the tree


def node_values(node: object) -> Iterator[object]:
    """What a node of the tree holds, field by field (a `Doc`: its blocks, not its image
    list); nothing for a value that is no node (a string, a number, a tuple)."""
    if isinstance(node, msgspec.Struct):
        yield from msgspec.structs.astuple(node)
    elif isinstance(node, Doc):
        yield node.blocks


def nodes(node: object) -> Iterator[object]:
    """`node` and everything inside it, depth first (the tree is structs and tuples)."""
    yield node
    for child in node if isinstance(node, tuple) else node_values(node):
        yield from nodes(child)
