"""Markdown text → `Doc`: our own block tree, each block named by its theme role.

One configured markdown-it: CommonMark plus GFM tables, strikethrough and bare-URL
autolinks; raw HTML off (it shows as text); a single newline is a line break, as on the
original service. Images become blocks of their own (cards centre them on their line);
GitHub alerts (`> [!NOTE]` … `> [!CAUTION]`) are callouts; footnotes (`[^1]`) are
superscript numbers, their notes one `Notes` block at the end of the post;
`![alt|WxH](src)` (or `|W`) asks for a display size in CSS px. A list item that starts
with `[ ]` or `[x]` is a task.

markdown-it is configured in mdparser.py (with its limits on nesting); the tree's records
are in doc.py. The token stream is
walked with explicit stacks, never by recursion, so emphasis or links nested thousands deep
cost nothing special. Control characters and other code points no font draws are removed
before parsing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from markdown_it.token import Token
from msgspec import structs

from .doc import (
    Block,
    Callout,
    CodeBlock,
    Doc,
    Heading,
    Image,
    ListBlock,
    ListItem,
    Notes,
    Paragraph,
    Quote,
    Rule,
    Table,
    Text,
)
from .htmltags import Tag, split_tags, with_marks
from .mdparser import MAX_DEPTH as MAX_DEPTH
from .mdparser import markdown_parser
from .quotes import curl_quotes

MATH, MATH_DISPLAY = "math", "math_display"  # the marks of a LaTeX run (its text is the source)
_MATH_TOKENS = {"math_inline": MATH, "math_inline_double": MATH_DISPLAY}
_TASK_MARKS = {"[ ] ": False, "[x] ": True, "[X] ": True}
_ROLES = {"strong": "strong", "em": "em", "s": "del", "link": "link"}
# A GitHub alert's label: the kind in Chinese (the words of Microsoft's Chinese docs) and
# in English, so a post in either language reads it.
ALERT_LABELS = {
    "note": "备注 NOTE",
    "tip": "提示 TIP",
    "important": "重要 IMPORTANT",
    "warning": "警告 WARNING",
    "caution": "注意 CAUTION",
}
NOTES_LABELS = ("注释", "Notes")  # the notes block's label: a post with CJK text, or not
_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
# `![alt|300x200](src)` or `![alt|300](src)`: the display size ending the alt text.
# Matched after the last `|` only: a pattern over the whole alt text could backtrack badly.
_IMAGE_SIZE = re.compile(r"\s*([1-9]\d{0,4})(?:\s*[xX×]\s*([1-9]\d{0,4}))?\s*")
_NONCHARACTERS = "".join(
    f"{chr(plane + 0xFFFE)}{chr(plane + 0xFFFF)}" for plane in range(0, 0x110000, 0x10000)
)
# C0 controls but tab, newline and carriage return; DEL and C1; lone surrogates;
# noncharacters; the interlinear annotation marks. None has a glyph.
_INVISIBLE = re.compile(
    "[\x00-\x08\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufff9-\ufffb" + _NONCHARACTERS + "]"
)
_AS_SPACE = str.maketrans({"\x0b": " ", "\x0c": " ", "\u2028": "\n", "\u2029": "\n"})


_PARSER = markdown_parser()


def sized_alt(alt: str) -> tuple[str, int | None, int | None]:
    """(alt, width, height) of an image's alt text, a trailing `|WxH` or `|W` taken off."""
    text, bar, size = alt.rpartition("|")
    match = _IMAGE_SIZE.fullmatch(size) if bar else None
    if match is None:
        return alt, None, None
    width, height = match.groups()
    return text.rstrip(), int(width), int(height) if height else None


class ImageSources:
    """The image sources met while parsing, in order, without repeats."""

    def __init__(self) -> None:
        self._seen: dict[str, None] = {}

    def add(self, tokens: list[Token]) -> None:
        """Every inline image of `tokens` (a markdown-it token stream)."""
        for token in tokens:
            for child in token.children or ():
                if child.type == "image":
                    self._seen.setdefault(str(child.attrs.get("src", "")), None)

    def ordered(self) -> tuple[str, ...]:
        return tuple(s for s in self._seen if s)


def parse(markdown: str) -> Doc:
    """Parses Markdown into a `Doc`."""
    sources = ImageSources()
    text = clean_text(markdown)
    blocks = parse_blocks(text, sources=sources)
    if blocks and isinstance(blocks[-1], Notes) and not _CJK.search(text):
        blocks = (*blocks[:-1], structs.replace(blocks[-1], label=NOTES_LABELS[1]))
    return Doc(blocks, sources.ordered())


def parse_blocks(
    text: str, mdx: bool = False, sources: ImageSources | None = None
) -> tuple[Block, ...]:
    """The blocks of cleaned Markdown text; with `mdx`, `<Badge>` is an inline mark.
    `sources` collects the image sources of the same parse."""
    tokens = _PARSER.parse(text)
    if sources is not None:
        sources.add(tokens)
    return tuple(_blocks(tokens, mdx))


def clean_text(text: str) -> str:
    """Removes code points that have no glyph; vertical tab and form feed become spaces,
    the Unicode line and paragraph separators line breaks."""
    return _INVISIBLE.sub("", text.translate(_AS_SPACE))


def split_at_rules(doc: Doc) -> list[Doc]:
    """The parts between top-level thematic breaks, empty parts left out."""
    parts: list[list[Block]] = [[]]
    for block in doc.blocks:
        if isinstance(block, Rule):
            parts.append([])
        else:
            parts[-1].append(block)
    return [Doc(tuple(p)) for p in parts if p]


def may_name_images(markdown: str) -> bool:
    """False when `markdown` cannot name an image: every image begins `![`, so it needs both
    characters (its sources are then known, none, without parsing it)."""
    return "!" in markdown and "[" in markdown


def image_sources(markdown: str) -> list[str]:
    """Every image source the Markdown names, in order, without repeats (`parse(…).images`
    gives the same from a parse made anyway)."""
    sources = ImageSources()
    sources.add(_PARSER.parse(clean_text(markdown)))
    return list(sources.ordered())


@dataclass(slots=True)
class _Open:
    """A container being read: its opening token and what it holds so far."""

    token: Token
    blocks: list[Block] = field(default_factory=list)
    items: list[ListItem] = field(default_factory=list)
    tight: bool = True


_CONTAINERS = {
    "blockquote_open", "bullet_list_open", "ordered_list_open", "list_item_open",
    "alert_open", "footnote_block_open", "footnote_open",
}  # fmt: skip
_CLOSERS = {name.replace("_open", "_close") for name in _CONTAINERS}


def _blocks(tokens: list[Token], mdx: bool = False) -> list[Block]:
    """The block tree of a token stream, containers tracked on a stack."""
    stack = [_Open(Token("root", "", 0))]
    i = 0
    while i < len(tokens):
        token = tokens[i]
        kind = token.type
        if kind in _CONTAINERS:
            stack.append(_Open(token))
        elif kind in _CLOSERS:
            _close(stack.pop(), stack[-1])
        elif kind == "paragraph_open":
            if stack[-1].token.type == "list_item_open" and not token.hidden:
                stack[-2].tight = False
            stack[-1].blocks.extend(_paragraph(tokens[i + 1].children or [], mdx))
            i += 2  # the inline token and the close
        elif kind == "heading_open":
            inlines = _texts(tokens[i + 1].children or [], mdx)
            stack[-1].blocks.append(Heading(int(token.tag[1]), tuple(inlines)))
            i += 2
        elif kind == "alert_title_open":  # the kind's name: the label is ours
            i += 2
        elif kind == "table_open":
            end = next(j for j in range(i, len(tokens)) if tokens[j].type == "table_close")
            stack[-1].blocks.append(_table(tokens[i:end], mdx))
            i = end
        else:
            stack[-1].blocks.extend(_leaf(token))
        i += 1
    return stack[0].blocks


def _close(node: _Open, parent: _Open) -> None:
    kind = node.token.type
    if kind == "blockquote_open":
        parent.blocks.append(Quote(tuple(node.blocks)))
    elif kind == "alert_open":
        alert = node.token.info.lower()
        parent.blocks.append(Callout(alert, ALERT_LABELS[alert], tuple(node.blocks), icon=False))
    elif kind == "footnote_open":
        parent.items.append(ListItem(tuple(node.blocks)))
    elif kind == "footnote_block_open":
        notes = tuple(_note_text(item.blocks) for item in node.items)
        parent.blocks.append(Notes(NOTES_LABELS[0], notes))
    elif kind == "list_item_open":
        parent.items.append(_task(node.blocks))
    else:
        ordered = kind == "ordered_list_open"
        start = int(node.token.attrs.get("start", 1)) if ordered else 1
        parent.blocks.append(ListBlock(ordered, start, node.tight, tuple(node.items)))


def _note_text(blocks: tuple[Block, ...]) -> tuple[Text, ...]:
    """A footnote as one run of text: its paragraphs' inlines, a line break between them."""
    out: list[Text] = []
    for block in blocks:
        if isinstance(block, Paragraph):
            out.extend((Text("\n"),) if out else ())
            out.extend(block.inlines)
    return tuple(out)


def _leaf(token: Token) -> list[Block]:
    kind = token.type
    if kind in ("fence", "code_block"):
        lang = token.info.split()[0] if kind == "fence" and token.info.strip() else ""
        return [CodeBlock(token.content.rstrip("\n"), lang)]
    if kind == "hr":
        return [Rule()]
    if kind == "html_block":
        return [Paragraph((Text(token.content.rstrip("\n")),))]
    if kind == "math_block":  # display math: a paragraph of one `math_display` run
        return [Paragraph((Text(token.content.strip(), frozenset({MATH_DISPLAY})),))]
    return []


def _paragraph(children: list[Token], mdx: bool) -> list[Block]:
    """A paragraph, split where images stand, since images are blocks on a card."""
    out: list[Block] = []
    run: list[Text] = []
    for piece in _inlines(children, images=True, mdx=mdx):
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


def _task(blocks: list[Block]) -> ListItem:
    first = blocks[0] if blocks else None
    if isinstance(first, Paragraph) and first.inlines and not first.inlines[0].marks:
        head = first.inlines[0].text
        for mark, checked in _TASK_MARKS.items():
            if head.startswith(mark) or head == mark.rstrip():
                rest = (Text(head[len(mark) :]), *first.inlines[1:])
                return ListItem((Paragraph(rest), *tuple(blocks[1:])), checked)
    return ListItem(tuple(blocks))


def _table(tokens: list[Token], mdx: bool) -> Table:
    """A table from its tokens (`table_open` up to its close): rows of cells, padded or cut
    to the header's width."""
    rows: list[list[tuple[Text, ...]]] = []
    aligns: list[str] = []
    for i, token in enumerate(tokens):
        if token.type == "tr_open":
            rows.append([])
        elif token.type in ("th_open", "td_open"):
            following = tokens[i + 1] if i + 1 < len(tokens) else token
            inline = following.children if following.type == "inline" else None
            rows[-1].append(tuple(_texts(inline or [], mdx)))
            if len(rows) == 1:
                aligns.append(_align(token))
    width = len(aligns)

    def cells(row: list[tuple[Text, ...]]) -> tuple[tuple[Text, ...], ...]:
        return tuple((row + [()] * width)[:width])

    return Table(tuple(aligns), cells(rows[0]), tuple(cells(row) for row in rows[1:]))


def _align(cell: Token) -> str:
    style = str(cell.attrs.get("style", ""))
    return style.removeprefix("text-align:") if style else "left"


def _texts(children: list[Token], mdx: bool) -> list[Text]:
    """The inline runs of a node where images count as their alt text."""
    return [piece for piece in _inlines(children, mdx=mdx) if isinstance(piece, Text)]


def _plain_text(children: list[Token]) -> str:
    """CommonMark's alt text: the text of the content without its marks (nested images give
    their own alt), walked with a stack so deep nesting cannot overflow."""
    out: list[str] = []
    pending = list(reversed(children))
    while pending:
        token = pending.pop()
        if token.type in ("text", "text_special", "code_inline", "html_inline"):
            out.append(token.content)
        elif token.type in ("softbreak", "hardbreak"):
            out.append(" ")
        elif token.type == "image":
            pending.extend(reversed(token.children or []))
    return "".join(out)


def _inlines(children: list[Token], images: bool = False, mdx: bool = False) -> list[Text | Image]:
    """Inline tokens are flat (`em_open`, text, `em_close`): the marks in force are a stack.
    Tags of the inline HTML subset in the text keep a stack of their own (`_HtmlMarks`)."""
    if len(children) == 1 and children[0].type == "text" and "<" not in children[0].content:
        text = children[0].content  # plain text
        return curl_quotes([Text(text)]) if text else []
    out: list[Text | Image] = []
    marks: list[frozenset[str]] = [frozenset()]
    html = _HtmlMarks()
    glue = False  # after an escape: the next text joins its run
    for child in children:
        kind = child.type
        if child.nesting == 1:
            role = _ROLES.get(kind.removesuffix("_open"))
            marks.append(marks[-1] | {role} if role else marks[-1])
        elif child.nesting == -1:
            if len(marks) > 1:
                marks.pop()
        elif kind in ("text", "html_inline"):
            joins = glue  # literal pieces of one text token are one run
            for piece in split_tags(child.content, mdx):
                if isinstance(piece, str):
                    _add(out, Text(piece, marks[-1] | html.marks), joins)
                elif piece.is_break:
                    out.append(Text("\n", marks[-1] | html.marks))
                elif not html.take(piece):
                    _add(out, Text(piece.source, marks[-1] | html.marks), joins)
                    continue
                joins = isinstance(piece, str)
        elif kind == "text_special":  # an escaped character: always literal
            _add(out, Text(child.content, marks[-1] | html.marks), glue=True)
        elif kind in ("softbreak", "hardbreak"):
            out.append(Text("\n", marks[-1] | html.marks))
        elif kind in _MATH_TOKENS:
            out.append(Text(child.content, marks[-1] | html.marks | {_MATH_TOKENS[kind]}))
        elif kind == "footnote_ref":  # the note's number, as articles show it
            number = int(child.meta["id"]) + 1
            out.append(Text(f"[{number}]", marks[-1] | html.marks | {"sup"}))
        elif kind == "code_inline":
            out.append(Text(child.content, marks[-1] | html.marks | {"inline_code"}))
        elif kind == "image":
            alt, width, height = sized_alt(_plain_text(child.children or []))
            if images:
                out.append(Image(str(child.attrs.get("src", "")), alt, width, height))
            else:
                out.append(Text(alt, marks[-1] | html.marks))
        glue = kind == "text_special"
    return curl_quotes(out)


class _HtmlMarks:
    """The open inline HTML tags: each level holds the marks in force there, so opening
    and closing cost the same at any depth; a closing tag closes the nearest open tag of
    its name and any opened inside it (as browsers do)."""

    def __init__(self) -> None:
        self.levels: list[tuple[str, frozenset[str]]] = [("", frozenset())]
        self.open: dict[str, int] = {}

    @property
    def marks(self) -> frozenset[str]:
        return self.levels[-1][1]

    def take(self, tag: Tag) -> bool:
        """Opens or closes `tag`; False for a closing tag with nothing to close."""
        if not tag.closing:
            self.levels.append((tag.name, with_marks(self.marks, tag.marks)))
            self.open[tag.name] = self.open.get(tag.name, 0) + 1
            return True
        if not self.open.get(tag.name):
            return False
        while True:
            name, _ = self.levels.pop()
            self.open[name] -= 1
            if name == tag.name:
                return True


def _add(out: list[Text | Image], text: Text, glue: bool) -> None:
    """Appends `text`; with `glue`, joined to the run before it when that has the same
    marks (an escape and the text around it are one run, as before escapes were tokens)."""
    last = out[-1] if out else None
    if glue and isinstance(last, Text) and last.marks == text.marks and last.text != "\n":
        out[-1] = Text(last.text + text.text, text.marks)
    elif text.text:
        out.append(text)
