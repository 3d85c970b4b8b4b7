"""mdxMode: Markdown with a fixed set of card components, parsed and never evaluated.

Block components sit on lines of their own (the opening tag may carry content after it on
the same line, and the closing tag may end a line): `<Columns>` with `<Left>`, `<Center>`,
`<Right>`; `<Callout type title>`; `<Quote author>`; `<Steps>` with `<Step title>`.
`<Badge>` and the inline HTML subset live inside the text (see `htmltags`). Between the
tags is ordinary Markdown, parsed as usual.

Nothing is ever run. Attribute values are strings or plain literals (`{3}`, `{true}`,
`{"text"}`); any other `{…}`, an `import` or `export` line, an unknown component, a tag
out of place or left open is an `MdxError` naming the line and the construct, as an MDX
compiler would refuse it. Fenced code is read as code. The scan is one pass over the
characters with bounded lookahead, and components nest at most MAX_NESTING deep, so
hostile input costs its length.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

import msgspec

from ..errors import MdxError as MdxError
from .doc import Block, Callout, Cited, Columns, Doc, Step, Steps
from .markdown import ImageSources, clean_text, parse_blocks

MAX_NESTING = 8  # components inside components
MAX_TAG = 300  # characters of one component tag
CALLOUT_KINDS = ("info", "tip", "warning", "danger")
# Every component: the attributes it takes, and the component it must sit in (None: any).
COMPONENTS: dict[str, tuple[tuple[str, ...], str | None]] = {
    "Columns": ((), None),
    "Left": ((), "Columns"),
    "Center": ((), "Columns"),
    "Right": ((), "Columns"),
    "Callout": (("type", "title"), None),
    "Quote": (("author",), None),
    "Steps": ((), None),
    "Step": (("title",), "Steps"),
    "Badge": ((), None),  # inline: kept in the text for the inline parser
}
_HOLDERS = {"Columns": ("Left", "Center", "Right"), "Steps": ("Step",)}
_BLOCK = frozenset(COMPONENTS) - {"Badge"}
_LITERALS = {"true": "true", "false": "false"}


class ComponentTag(msgspec.Struct, frozen=True):
    name: str
    closing: bool
    self_closing: bool
    attrs: dict[str, str]
    length: int  # characters from `<` to `>`


@dataclass(slots=True)
class _Node:
    name: str
    attrs: dict[str, str]
    line: int
    parts: list[_Node | str] = field(default_factory=list)


def parse_mdx(markdown: str) -> Doc:
    """Parses mdxMode Markdown into a `Doc` with component blocks.

    Raises:
        MdxError: An expression, import/export, unknown component or bad nesting.
    """
    root = _tree(clean_text(markdown).split("\n"))
    sources = ImageSources()
    blocks = _blocks(root, sources)
    return Doc(blocks, sources.ordered())


def _tree(lines: list[str]) -> _Node:
    """The component tree of the lines: each node holds text lines and child nodes."""
    root = _Node("", {}, 0)
    stack = [root]
    fence = ""
    for number, line in enumerate(lines, start=1):
        stripped = line.lstrip()
        if fence:
            fence = "" if stripped.startswith(fence) and not stripped.strip("`~ ") else fence
            stack[-1].parts.append(line)
            continue
        if stripped.startswith(("```", "~~~")) and len(line) - len(stripped) < 4:
            fence = stripped[:3]
            stack[-1].parts.append(line)
            continue
        _check_line(line, number)
        _read_line(line, number, stack)
    if len(stack) > 1:
        node = stack[-1]
        raise MdxError(node.line, f"<{node.name}> is never closed (add </{node.name}>)")
    return root


def _check_line(line: str, number: int) -> None:
    """Refuses what an MDX compiler would run or reject: `import`/`export`, `{…}` outside
    code and tags, unknown components and tags it cannot read."""
    if line.startswith(("import ", "export ", "import{", "export{")):
        word = line.split(None, 1)[0].split("{")[0]
        raise MdxError(number, f"`{word}` is not allowed: mdxMode never runs code")
    i, n = 0, len(line)
    while i < n:
        char = line[i]
        if char == "\\":
            i += 2
        elif char == "`":
            i = _past_code_span(line, i)
        elif char == "{":
            raise MdxError(
                number,
                f"the expression `{_excerpt(line[i:])}` is not allowed: mdxMode never"
                " evaluates `{…}` (write \\{ for a literal brace, or turn mdxMode off)",
            )
        elif char == "<" and _names_component(line, i):
            i += _read_component(line[i:], number).length
        else:
            i += 1


def _names_component(line: str, at: int) -> bool:
    """Whether the `<` at `at` opens a component tag (JSX: a capitalised name)."""
    start = at + 2 if line[at + 1 : at + 2] == "/" else at + 1
    return line[start : start + 1].isupper()


def _past_code_span(line: str, at: int) -> int:
    """The index after the inline code span opened at `at`, or after its backticks when
    no run of the same length closes it (then they are literal)."""
    run = at
    while run < len(line) and line[run] == "`":
        run += 1
    ticks = line[at:run]
    close = line.find(ticks, run)
    while close >= 0 and line[close + len(ticks) : close + len(ticks) + 1] == "`":
        close = line.find(ticks, close + len(ticks) + 1)
    return run if close < 0 else close + len(ticks)


def _read_component(text: str, number: int) -> ComponentTag:
    """The component tag at the start of `text` (`<Name …>`, `</Name>`, `<Name …/>`).

    Raises:
        MdxError: Unknown component, unknown attribute or value, unreadable tag.
    """
    closing = text.startswith("</")
    i = 2 if closing else 1
    start = i
    while i < len(text) and (text[i].isalnum() or text[i] in "._-") and i < MAX_TAG:
        i += 1
    name = text[start:i]
    if name not in COMPONENTS:
        raise MdxError(
            number,
            f"unknown component <{'/' if closing else ''}{name}> (mdxMode knows "
            + ", ".join(f"<{c}>" for c in COMPONENTS)
            + ")",
        )
    attrs, i = _attributes(text, i, name, number)
    if text[i : i + 2] == "/>" and not closing:
        return ComponentTag(name, False, True, attrs, i + 2)
    if text[i : i + 1] != ">" or (closing and attrs):
        raise MdxError(number, f"the tag <{'/' if closing else ''}{name} … is not closed by >")
    return ComponentTag(name, closing, False, attrs, i + 1)


def _attributes(text: str, i: int, name: str, number: int) -> tuple[dict[str, str], int]:
    """The attributes of a tag from `i`, and where they end."""
    allowed = COMPONENTS[name][0]
    attrs: dict[str, str] = {}
    end = min(len(text), MAX_TAG)
    while True:
        while i < end and text[i] in " \t":
            i += 1
        if i >= end or text[i] in "/>":
            return attrs, i
        start = i
        while i < end and (text[i].isalnum() or text[i] in "-_:"):
            i += 1
        key = text[start:i]
        if not key:
            raise MdxError(
                number, f"<{name}> has an unreadable attribute at `{_excerpt(text[i:])}`"
            )
        if key not in allowed:
            takes = ", ".join(allowed) if allowed else "no attributes"
            raise MdxError(number, f"<{name}> has no attribute `{key}` (it takes {takes})")
        if text[i : i + 1] != "=":
            attrs[key] = "true"
            continue
        attrs[key], i = _value(text, i + 1, f"<{name} {key}=…>", number)


def _value(text: str, i: int, where: str, number: int) -> tuple[str, int]:
    """An attribute value from `i`: a quoted string or a plain literal in braces."""
    quote = text[i : i + 1]
    if quote in ("'", '"'):
        close = text.find(quote, i + 1, i + MAX_TAG)
        if close < 0:
            raise MdxError(number, f"{where}: the quoted value is not closed")
        return text[i + 1 : close], close + 1
    if quote == "{":
        close = text.find("}", i + 1, i + MAX_TAG)
        inner = text[i + 1 : close].strip() if close > 0 else ""
        literal = _literal(inner)
        if close < 0 or literal is None:
            raise MdxError(
                number,
                f"{where}: the expression `{_excerpt(text[i : close + 1 or None])}` is not"
                " allowed (only strings,"
                " numbers, true and false: mdxMode never evaluates `{…}`)",
            )
        return literal, close + 1
    raise MdxError(number, f'{where}: write the value in quotes, as in key="value"')


def _literal(inner: str) -> str | None:
    """A plain literal's text: `"x"`/`'x'`, a number, true or false; None otherwise."""
    if len(inner) >= 2 and inner[0] == inner[-1] and inner[0] in "\"'":
        body = inner[1:-1]
        return None if inner[0] in body or "\\" in body else body
    if inner in _LITERALS:
        return _LITERALS[inner]
    digits = inner.removeprefix("-")
    if digits and len(digits) <= 12 and digits.replace(".", "", 1).isdigit():
        return inner
    return None


def _excerpt(text: str) -> str:
    return text[:24] + ("…" if len(text) > 24 else "")


def _read_line(line: str, number: int, stack: list[_Node]) -> None:
    """Block tags at the start and closing tags at the end of a line change the stack;
    what lies between is text of the innermost open component."""
    rest = line.strip()
    while rest.startswith("<") and (tag := _block_tag(rest, number)) is not None:
        _apply(tag, number, stack)
        rest = rest[tag.length :].lstrip()
    closers: list[ComponentTag] = []
    while rest.endswith(">") and (found := _closing_at_end(rest, number)) is not None:
        closers.insert(0, found)
        rest = rest[: len(rest) - found.length].rstrip()
    if rest == line.strip():  # no tags: the line as written, indent and all
        _add_text(stack[-1], line, number)
    elif rest:
        _add_text(stack[-1], rest, number)
    for tag in closers:
        _apply(tag, number, stack)


def _block_tag(text: str, number: int) -> ComponentTag | None:
    if not _names_component(text, 0):
        return None
    tag = _read_component(text, number)
    return tag if tag.name in _BLOCK else None


def _closing_at_end(text: str, number: int) -> ComponentTag | None:
    at = text.rfind("</", max(0, len(text) - MAX_TAG))
    if at < 0 or not text[at + 2 : at + 3].isupper():
        return None
    tag = _read_component(text[at:], number)
    if tag.name not in _BLOCK or tag.length != len(text) - at:
        return None
    return tag


def _add_text(node: _Node, text: str, number: int) -> None:
    if node.name in _HOLDERS and text.strip():
        inner = " or ".join(f"<{c}>" for c in _HOLDERS[node.name])
        raise MdxError(number, f"text inside <{node.name}> must be in {inner}")
    node.parts.append(text)


def _apply(tag: ComponentTag, number: int, stack: list[_Node]) -> None:
    """Opens or closes a block component, checking where it may stand."""
    top = stack[-1]
    if tag.closing:
        if top.name != tag.name:
            opened = f"<{top.name}> opened on line {top.line}" if top.name else "nothing open"
            raise MdxError(number, f"</{tag.name}> does not close anything here ({opened})")
        stack.pop()
        return
    parent = COMPONENTS[tag.name][1]
    if parent is not None and top.name != parent:
        raise MdxError(number, f"<{tag.name}> must be directly inside <{parent}>")
    if top.name in _HOLDERS and tag.name not in _HOLDERS[top.name]:
        raise MdxError(number, f"<{top.name}> may hold only " + ", ".join(_HOLDERS[top.name]))
    if len(stack) > MAX_NESTING:
        raise MdxError(number, f"components nest more than {MAX_NESTING} deep")
    if tag.name == "Callout" and tag.attrs.get("type", "info") not in CALLOUT_KINDS:
        raise MdxError(number, "<Callout type> is one of " + ", ".join(CALLOUT_KINDS))
    if top.name == "Columns" and len(top.parts) >= 3:
        raise MdxError(number, "<Columns> holds at most three columns")
    node = _Node(tag.name, tag.attrs, number)
    top.parts.append(node)
    if not tag.self_closing:
        stack.append(node)


def _blocks(node: _Node, sources: ImageSources) -> tuple[Block, ...]:
    """The node's content as blocks: text runs parsed as Markdown, children as
    components (depth is at most MAX_NESTING, so recursion is bounded); `sources` collects
    the image sources of the Markdown runs."""
    out: list[Block] = []
    lines: list[str] = []
    for part in node.parts:
        if isinstance(part, str):
            lines.append(part)
            continue
        out.extend(_markdown(lines, sources))
        lines = []
        out.append(_component(part, sources))
    out.extend(_markdown(lines, sources))
    return tuple(out)


def _markdown(lines: list[str], sources: ImageSources) -> tuple[Block, ...]:
    text = textwrap.dedent("\n".join(lines))
    return parse_blocks(text, mdx=True, sources=sources) if text.strip() else ()


def _component(node: _Node, sources: ImageSources) -> Block:
    name, attrs = node.name, node.attrs
    if name == "Columns":
        columns = [p for p in node.parts if isinstance(p, _Node)]
        return Columns(tuple(_blocks(c, sources) for c in columns))
    if name == "Steps":
        steps = [p for p in node.parts if isinstance(p, _Node)]
        return Steps(tuple(Step(s.attrs.get("title", ""), _blocks(s, sources)) for s in steps))
    if name == "Callout":
        return Callout(attrs.get("type", "info"), attrs.get("title", ""), _blocks(node, sources))
    return Cited(attrs.get("author", ""), _blocks(node, sources))  # Quote
