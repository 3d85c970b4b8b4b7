"""The configured markdown-it (markdown.py reads its tokens), made linear on hostile text.

CommonMark plus GFM tables, strikethrough, bare-URL autolinks, alerts and footnotes; raw
HTML off; a single newline is a line break; `$…$` and `$$…$$` math. markdown-it alone
costs more than linear time on some text no writer sends, so three of its limits are ours:

- Block containers nest at most `MAX_DEPTH` token levels; deeper, the rest of the
  container is one paragraph of its text (markdown-it alone would drop it, and deeper
  nesting would exhaust Python's stack).
- Inline constructs nest at most `INLINE_DEPTH` levels (links in links, images in links).
  markdown-it looks that deep ahead of every unclosed `[` or `![`, so 100 KB of them took
  seconds at the block depth; past it the rest of the paragraph is read as text.
- A bare URL's scheme is looked for in the last `SCHEME_TAIL` characters of the text
  before its `://`, not in all of it (markdown-it's linkify rule searched all the text
  since the last token at every `://`: quadratic, 23 s for 100 KB of `<http://`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.common.normalize_url import validateLink
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin

from .addresses import address_linkify
from .cjkemphasis import cjk_friendly
from .hardwraps import hard_wraps

MAX_DEPTH = 32  # block token levels: 32 quotes, or 16 lists (a list and its item are two)
INLINE_DEPTH = 8  # inline token levels
SCHEME_TAIL = 64  # characters: longer than any scheme linkify-it knows (http, mailto, …)
# markdown-it's pattern (RFC 3986: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )).
_SCHEME = re.compile(r"(?:^|[^a-z0-9.+-])([a-z][a-z0-9.+-]*)$", re.IGNORECASE)


def valid_link(url: str) -> bool:
    """markdown-it's link check, except that ``file:`` URLs are links and images too: the
    engine reads no file, and the service decides whether a local image may be read."""
    return url.strip()[:5].lower() == "file:" or validateLink(url)


def markdown_parser(depth: int = MAX_DEPTH + 4) -> MarkdownIt:
    """The Markdown reader: blocks nest `depth` levels (a list opens two levels past the
    `MAX_DEPTH` check), its inlines are read by a parser of their own at `INLINE_DEPTH`."""
    md = MarkdownIt("commonmark", {"breaks": True, "html": False, "linkify": True})
    md.enable(["table", "strikethrough", "linkify"])
    md.linkify = address_linkify()  # http(s):// and www. only, never `README.md`
    md.validateLink = valid_link  # type: ignore[method-assign]  # markdown-it's documented hook
    md.options["alerts"] = True  # GitHub alerts: `> [!NOTE]` … `> [!CAUTION]`
    md.use(footnote_plugin)
    md.use(cjk_friendly)  # `大约**￥280**：` is bold, as its writer meant
    md.use(hard_wraps)  # prose an editor wrapped at 80 columns is paragraphs, not lines
    # Escapes stay separate tokens, so `\\<u>` is text and never an inline HTML tag.
    md.core.ruler.disable("text_join")
    md.options["maxNesting"] = depth
    if depth != INLINE_DEPTH:
        md.core.ruler.at("inline", _inlines_by(markdown_parser(INLINE_DEPTH)))
    md.block.ruler.before("table", "deep_text", _deep_text)
    md.inline.ruler.at("linkify", _linkify)
    # `$…$` inline, `$$…$$` display math. Pandoc's rules, so prices stay text: no space
    # inside the dollars, no digit right after the closing one ("$5 and $10").
    md.use(
        dollarmath_plugin,
        allow_space=False,
        allow_digits=False,
        allow_labels=False,
        double_inline=True,
    )
    return md


def _deep_text(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Past `MAX_DEPTH`, the rest of the container is one paragraph of its text."""
    if silent or state.level < MAX_DEPTH:
        return False
    line = start
    # The container ends where markdown-it would end it: at a line indented less than it.
    while line < end and (state.isEmpty(line) or state.sCount[line] >= state.blkIndent):
        line += 1
    text = state.getLines(start, line, state.blkIndent, False).strip()
    state.line = end = line
    if text:
        state.push("paragraph_open", "p", 1).map = [start, end]
        inline = state.push("inline", "", 0)
        inline.content, inline.map, inline.children = text, [start, end], []
        state.push("paragraph_close", "p", -1)
    return True


def _inlines_by(inline: MarkdownIt) -> Callable[[StateCore], None]:
    """markdown-it's core `inline` rule, the inlines read by `inline` (its own depth). Text
    with none of the characters that can start an inline construct is one text token, as
    markdown-it would make it, without its machinery (a table's cells are mostly that)."""
    plain = inline.inline.terminator_re

    def parse_inlines(state: StateCore) -> None:
        for token in state.tokens:
            if token.type == "inline":
                if token.children is None:
                    token.children = []
                if plain.search(token.content) is None:
                    if token.content:
                        token.children.append(Token("text", "", 0, content=token.content))
                    continue
                inline.inline.parse(token.content, inline, state.env, token.children)

    return parse_inlines


def _linkify(state: StateInline, silent: bool) -> bool:
    """markdown-it's linkify rule (a bare URL is a link), its scheme looked for only in the
    last `SCHEME_TAIL` characters before the `://`. The same links: past a non-scheme
    character the pattern can only match the run of scheme characters that ends the
    text, and a run longer than that is no scheme linkify-it knows."""
    pos = state.pos
    if state.linkLevel > 0 or not state.src.startswith("://", pos):
        return False
    pending = state.pending
    match = _SCHEME.search(pending, max(0, len(pending) - SCHEME_TAIL))
    if match is None or state.md.linkify is None:
        return False
    proto = match.group(1)
    link = state.md.linkify.match_at_start(state.src[pos - len(proto) :])
    if not link:
        return False
    url = link.url.rstrip("*")  # a `*` ending the link is emphasis
    full_url = state.md.normalizeLink(url)
    if not state.md.validateLink(full_url):
        return False
    if not silent:
        state.pending = pending[: -len(proto)]
        token = state.push("link_open", "a", 1)
        token.attrs = {"href": full_url}
        token.markup = "linkify"
        token.info = "auto"
        token = state.push("text", "", 0)
        token.content = state.md.normalizeLinkText(url)
        token = state.push("link_close", "a", -1)
        token.markup = "linkify"
        token.info = "auto"
    state.pos += len(url) - len(proto)
    return True
