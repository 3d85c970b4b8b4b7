"""The block tree a post parses to: `Doc`, its blocks named by their theme roles, and inline text.

Plain frozen records, made by markdown.py (and mdx.py for mdxMode's components) and read by
every later stage: a `Block` is one of the kinds below; inline text is runs of `Text`, each
with the inline roles it is in (`strong`, `em`, `del`, `inline_code`, `link`, and the marks
of the inline HTML subset).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Text:
    """A run of inline text and the inline roles it is in (`strong`, `em`, `del`,
    `inline_code`, `link`). A line break is the text `\\n`."""

    text: str
    marks: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    inlines: tuple[Text, ...]


@dataclass(frozen=True, slots=True)
class Paragraph:
    inlines: tuple[Text, ...]


@dataclass(frozen=True, slots=True)
class Image:
    src: str
    alt: str
    width: int | None = None  # requested display size in CSS px (`![alt|WxH](src)`)
    height: int | None = None  # None with a width: keep the image's aspect


@dataclass(frozen=True, slots=True)
class CodeBlock:
    code: str
    lang: str


@dataclass(frozen=True, slots=True)
class Rule:
    pass


@dataclass(frozen=True, slots=True)
class Quote:
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class ListItem:
    blocks: tuple[Block, ...]
    checked: bool | None = None  # None: not a task


@dataclass(frozen=True, slots=True)
class ListBlock:
    ordered: bool
    start: int
    tight: bool
    items: tuple[ListItem, ...]


@dataclass(frozen=True, slots=True)
class Table:
    aligns: tuple[str, ...]
    header: tuple[tuple[Text, ...], ...]
    rows: tuple[tuple[tuple[Text, ...], ...], ...]


@dataclass(frozen=True, slots=True)
class Columns:
    """mdxMode `<Columns>`: two or three columns side by side, each its own blocks."""

    columns: tuple[tuple[Block, ...], ...]


@dataclass(frozen=True, slots=True)
class Callout:
    """A tinted box: mdxMode `<Callout type title>` (`kind` info, tip, warning, danger, its
    title after the kind's icon) or a GitHub alert (note, tip, important, warning, caution;
    `title` its label, no icon)."""

    kind: str
    title: str
    blocks: tuple[Block, ...]
    icon: bool = True


@dataclass(frozen=True, slots=True)
class Notes:
    """The post's footnotes, numbered from 1 in the order they are first referenced: each
    note's paragraphs as one run of inline text (a line break between them)."""

    label: str
    notes: tuple[tuple[Text, ...], ...]


@dataclass(frozen=True, slots=True)
class Cited:
    """mdxMode `<Quote author>`: a highlighted quote signed by its author."""

    author: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class Step:
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class Steps:
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
