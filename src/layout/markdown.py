"""Markdown text → `Doc`: our own block tree, each block named by its theme role.

One configured markdown-it: CommonMark plus GFM tables, strikethrough and bare-URL
autolinks; raw HTML off (it shows as text); a single newline is a line break, as on the
original service. Images become blocks of their own (cards centre them on their line),
and a list item that starts with `[ ]` or `[x]` is a task.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

_PARSER = MarkdownIt("commonmark", {"breaks": True, "html": False, "linkify": True}).enable(
    ["table", "strikethrough", "linkify"]
)
_TASK_MARKS = {"[ ] ": False, "[x] ": True, "[X] ": True}


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


Block = Heading | Paragraph | Image | CodeBlock | Rule | Quote | ListBlock | Table


@dataclass(frozen=True, slots=True)
class Doc:
    blocks: tuple[Block, ...] = field(default=())


def parse(markdown: str) -> Doc:
    """Parses Markdown into a `Doc`."""
    root = SyntaxTreeNode(_PARSER.parse(markdown))
    return Doc(tuple(_blocks(root.children)))


def split_at_rules(doc: Doc) -> list[Doc]:
    """The parts between top-level thematic breaks, empty parts left out."""
    parts: list[list[Block]] = [[]]
    for block in doc.blocks:
        if isinstance(block, Rule):
            parts.append([])
        else:
            parts[-1].append(block)
    return [Doc(tuple(p)) for p in parts if p]


def image_sources(markdown: str) -> list[str]:
    """Every image source the Markdown names, in order, without repeats."""
    seen: dict[str, None] = {}
    for token in _PARSER.parse(markdown):
        for child in token.children or ():
            if child.type == "image":
                seen.setdefault(str(child.attrs.get("src", "")), None)
    return [s for s in seen if s]


def _blocks(nodes: list[SyntaxTreeNode]) -> list[Block]:
    out: list[Block] = []
    for node in nodes:
        out.extend(_block(node))
    return out


def _block(node: SyntaxTreeNode) -> list[Block]:
    kind = node.type
    if kind == "heading":
        return [Heading(int(node.tag[1]), tuple(_texts(node.children[0])))]
    if kind == "paragraph":
        return _paragraph(node)
    if kind in ("fence", "code_block"):
        lang = (node.info or "").split()[0] if kind == "fence" and node.info else ""
        return [CodeBlock(node.content.rstrip("\n"), lang)]
    if kind == "hr":
        return [Rule()]
    if kind == "blockquote":
        return [Quote(tuple(_blocks(node.children)))]
    if kind in ("bullet_list", "ordered_list"):
        return [_list(node)]
    if kind == "table":
        return [_table(node)]
    if kind in ("html_block",):
        return [Paragraph((Text(node.content.rstrip("\n")),))]
    return []


def _paragraph(node: SyntaxTreeNode) -> list[Block]:
    """A paragraph, split where images stand, since images are blocks on a card."""
    out: list[Block] = []
    run: list[Text] = []
    for piece in _inlines(node.children[0], images=True):
        if isinstance(piece, Image):
            _flush(run, out)
            out.append(piece)
            run = []
        else:
            run.append(piece)
    _flush(run, out)
    return out


def _flush(run: list[Text], out: list[Block]) -> None:
    while run and run[0].text == "\n":
        run.pop(0)
    while run and run[-1].text == "\n":
        run.pop()
    if any(t.text.strip() for t in run):
        out.append(Paragraph(tuple(run)))


def _list(node: SyntaxTreeNode) -> ListBlock:
    ordered = node.type == "ordered_list"
    start = int(node.attrs.get("start", 1)) if ordered else 1
    items = []
    tight = True
    for item in node.children:
        blocks = _blocks(item.children)
        tight = tight and all(
            child.nester_tokens.opening.hidden
            for child in item.children
            if child.type == "paragraph" and child.nester_tokens
        )
        items.append(_task(blocks))
    return ListBlock(ordered, start, tight, tuple(items))


def _task(blocks: list[Block]) -> ListItem:
    first = blocks[0] if blocks else None
    if isinstance(first, Paragraph) and first.inlines and not first.inlines[0].marks:
        head = first.inlines[0].text
        for mark, checked in _TASK_MARKS.items():
            if head.startswith(mark) or head == mark.rstrip():
                rest = (Text(head[len(mark) :]), *first.inlines[1:])
                return ListItem((Paragraph(rest), *tuple(blocks[1:])), checked)
    return ListItem(tuple(blocks))


def _table(node: SyntaxTreeNode) -> Table:
    rows = [tr for section in node.children for tr in section.children]
    header, body = rows[0], rows[1:]
    aligns = tuple(_align(cell) for cell in header.children)
    width = len(aligns)

    def cells(tr: SyntaxTreeNode) -> tuple[tuple[Text, ...], ...]:
        found = [tuple(_texts(c.children[0])) if c.children else () for c in tr.children]
        return tuple((found + [()] * width)[:width])

    return Table(aligns, cells(header), tuple(cells(tr) for tr in body))


def _align(cell: SyntaxTreeNode) -> str:
    style = str(cell.attrs.get("style", ""))
    return style.removeprefix("text-align:") if style else "left"


def _texts(node: SyntaxTreeNode) -> list[Text]:
    """The inline runs of a node where images count as their alt text."""
    return [piece for piece in _inlines(node) if isinstance(piece, Text)]


def _inlines(
    node: SyntaxTreeNode, marks: frozenset[str] = frozenset(), images: bool = False
) -> list[Text | Image]:
    out: list[Text | Image] = []
    for child in node.children:
        kind = child.type
        if kind in ("text", "html_inline"):
            out.append(Text(child.content, marks))
        elif kind in ("softbreak", "hardbreak"):
            out.append(Text("\n", marks))
        elif kind == "code_inline":
            out.append(Text(child.content, marks | {"inline_code"}))
        elif kind == "image":
            alt = child.content or ""
            if images:
                out.append(Image(str(child.attrs.get("src", "")), alt))
            else:
                out.append(Text(alt, marks))
        else:
            role = {"strong": "strong", "em": "em", "s": "del", "link": "link"}.get(kind)
            out.extend(_inlines(child, marks | {role} if role else marks, images))
    return out
