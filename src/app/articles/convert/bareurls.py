"""A bare address written against Chinese text ends where the Chinese begins.

linkify-it reads an address up to the next space, so `访问https://example.com/a获取更多。`
linked, and listed in the references, `https://example.com/a获取更多。` (percent-encoded).
Chinese prose puts no space after an address; this markdown-it core rule, after
`linkify`, cuts each address it found (never a `<…>` autolink or a `[text](url)`) at its
first CJK character or full-width punctuation mark, in one pass over the link's text,
and gives the rest back to the sentence. A Chinese path is written as `<https://…/路径>`.
"""

from __future__ import annotations

from typing import Any

from inkcard.app.articles.convert.fixups import CJK_RANGES


def _ranges(spec: str) -> list[tuple[int, int]]:
    """`a-bc-d…` (character-class ranges) as code point pairs."""
    chars = list(spec)
    return [(ord(chars[i]), ord(chars[i + 2])) for i in range(0, len(chars) - 2, 3)]


# CJK characters (fixups' word-count ranges) and the full-width punctuation around them
_CUT = (
    *_ranges(CJK_RANGES),
    (0x3000, 0x303F),  # 、。「」【】〜 …
    (0xFF00, 0xFFEF),  # ，！？：；（）full-width forms
    (0x2018, 0x201F),  # ‘’“”
    (0x2026, 0x2026),  # …
)


def _cuts(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _CUT)


def cut_bare_addresses(state: Any) -> None:
    """markdown-it core rule: each linkify link's text and href end before its first CJK
    character or full-width mark; what followed becomes text after the link."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children: list[Any] = []
        tokens = block.children
        i = 0
        while i < len(tokens):
            token = tokens[i]
            children.append(token)
            if token.type == "link_open" and token.markup == "linkify" and i + 2 < len(tokens):
                rest = _cut(state.md, token, tokens[i + 1])
                children.extend(tokens[i + 1 : i + 3])
                if rest:
                    after = type(token)("text", "", 0)  # markdown-it's Token: html.py's door
                    after.content = rest
                    children.append(after)
                i += 3
                continue
            i += 1
        block.children = children


def _cut(md: Any, link: Any, text: Any) -> str:
    """Shortens the link to its address; returns the text cut off ("" when none)."""
    content: str = text.content
    end = next((n for n, char in enumerate(content) if _cuts(char)), len(content))
    if end == len(content) or end == 0:
        return ""
    kept = content[:end]
    full = kept if "://" in kept else f"http://{kept}"
    href = md.normalizeLink(full)
    if not md.validateLink(href):
        return ""
    text.content = kept
    link.attrs["href"] = href
    return content[end:]
