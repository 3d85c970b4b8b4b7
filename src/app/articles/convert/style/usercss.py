"""A writer's own CSS (the article's ``css`` field) → the rules we write inline, and what was
refused, the way doocs/md's custom CSS lays rules on the article's elements over its theme.

tinycss2 reads the sheet (this module is its door on the article path); each selector is
compiled by cssselect for lxml; each declaration goes through the one inline-CSS allow-list
of cards and articles (``layout.parse.clean_style``: ``STYLE_PROPERTIES``, no ``url()``,
``expression()``, ``javascript:``, ``behavior``…), so what a rule may set is what a
``style`` attribute in the Markdown may. What does not pass is never applied and is named
in ``refused`` for the answer's warnings: an at-rule (``@import``, ``@media``, ``@font-face``),
a pseudo-element (it would need an element of its own) or a pseudo-class that means nothing
in a pasted article (``:hover``), a selector too long or past the limit, a property off the
list, a value refused, a syntax error.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import tinycss2
from cssselect import SelectorError
from cssselect import parse as parse_selector
from lxml.cssselect import CSSSelector

from inkcard.layout.parse import STYLE_PROPERTIES, clean_style

SELECTOR_CHARS = 200  # characters of one selector: XPath cost grows with its combinators
SELECTOR_LIMIT = 400  # selectors of one sheet (each is one pass over the article)
REFUSED_SHOWN = 60  # characters of a refused declaration or selector quoted in a warning
# Pseudo-classes that say where an element stands, which an article's tree still knows.
_STRUCTURAL = frozenset({
    "first-child", "last-child", "only-child", "first-of-type", "last-of-type",
    "only-of-type", "nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type",
    "not", "empty", "root",
})  # fmt: skip
_PSEUDO_ELEMENTS = frozenset({
    "before", "after", "first-line", "first-letter", "marker", "selection", "placeholder",
    "backdrop",
})  # fmt: skip


@dataclass(frozen=True, slots=True)
class StyleRule:
    """One selector of the writer's sheet and the declarations it sets, cleaned."""

    select: CSSSelector
    specificity: tuple[int, int, int]
    order: int  # the rule's place in the sheet: later wins at equal specificity
    style: str  # ``name:value;…``, as ``clean_style`` writes it


@dataclass(frozen=True, slots=True)
class UserCss:
    rules: tuple[StyleRule, ...]
    refused: tuple[str, ...]  # each refused at-rule, selector or declaration, said plainly


@lru_cache(maxsize=32)  # a writer sends the same sheet with each article
def read_css(css: str) -> UserCss:
    """The writer's sheet as rules to apply, and what was refused (in sheet order)."""
    rules: list[StyleRule] = []
    refused: list[str] = []
    items = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    for order, item in enumerate(items):
        if item.type == "error":
            refused.append(f"CSS syntax error at line {item.source_line}: {item.message}")
        elif item.type == "at-rule":
            refused.append(
                f"@{item.at_keyword}: at-rules are not applied (no @import, @media,"
                " @font-face…): an article's styles are written inline"
            )
        elif item.type == "qualified-rule":
            selectors = _selectors(item.prelude, len(rules), refused)
            if selectors:
                style = _declarations(item.content, _shown(item.prelude), refused)
                if style:
                    rules += [StyleRule(s, spec, order, style) for s, spec in selectors]
    return UserCss(tuple(rules), tuple(refused))


def _selectors(
    prelude: list[Any], count: int, refused: list[str]
) -> list[tuple[CSSSelector, tuple[int, int, int]]]:
    """A rule's selectors, compiled, each with its specificity; the others refused."""
    kept: list[tuple[CSSSelector, tuple[int, int, int]]] = []
    for tokens in _split_commas(prelude):
        text = tinycss2.serialize(tokens).strip()
        problem = _selector_problem(tokens, text, count + len(kept))
        if problem is None:
            try:
                [parsed] = parse_selector(text)
                kept.append((CSSSelector(text, translator="html"), parsed.specificity()))
                continue
            except (SelectorError, ValueError):
                problem = "not a selector we read"
        refused.append(f"selector {_quote(text)}: {problem}")
    return kept


def _selector_problem(tokens: list[Any], text: str, count: int) -> str | None:
    if not text:
        return "empty"
    if len(text) > SELECTOR_CHARS:
        return f"longer than {SELECTOR_CHARS} characters"
    if count >= SELECTOR_LIMIT:
        return f"past the first {SELECTOR_LIMIT} selectors"
    after_colon = False
    for token in tokens:
        if token.type == "literal" and token.value == "|":
            return "an article's elements have no namespace"
        if token.type == "literal" and token.value == ":":
            if after_colon:
                return "a pseudo-element cannot be written inline"
            after_colon = True
            continue
        if after_colon:
            after_colon = False
            name = token.lower_value if token.type == "ident" else ""
            name = token.lower_name if token.type == "function" else name
            if name in _PSEUDO_ELEMENTS:
                return "a pseudo-element cannot be written inline"
            if name not in _STRUCTURAL:
                return f":{name} means nothing in an article (no hover, focus or visit)"
    return None


def _declarations(content: list[Any], selector: str, refused: list[str]) -> str:
    """The rule's allowed declarations as one ``style`` text; the others refused."""
    kept: list[str] = []
    items = tinycss2.parse_blocks_contents(content, skip_comments=True, skip_whitespace=True)
    for item in items:
        if item.type == "error":
            refused.append(f"{selector}: CSS syntax error: {item.message}")
        elif item.type != "declaration":
            refused.append(f"{selector}: a nested rule is not applied")
        else:
            value = tinycss2.serialize(item.value).strip()
            clean = clean_style(f"{item.lower_name}:{value}")
            if clean:
                kept.append(clean)
                continue
            said = _quote(f"{item.lower_name}: {value}")
            if any(token.type == "error" for token in item.value):
                said = f"{item.lower_name}: …"
                refused.append(f"{selector} {{ {said} }}: a bad url(…) or an unclosed string")
            elif item.lower_name not in STYLE_PROPERTIES:
                refused.append(f"{selector} {{ {said} }}: not an allowed property")
            else:
                refused.append(
                    f"{selector} {{ {said} }}: the value is refused (no url(), expression(),"
                    " var(), javascript:…; a colour must be a colour)"
                )
    return ";".join(kept)


def _split_commas(tokens: list[Any]) -> list[list[Any]]:
    parts: list[list[Any]] = [[]]
    for token in tokens:
        if token.type == "literal" and token.value == ",":
            parts.append([])
        else:
            parts[-1].append(token)
    return parts


def _shown(prelude: list[Any]) -> str:
    return _quote(" ".join(tinycss2.serialize(prelude).split()))


def _quote(text: str) -> str:
    return text if len(text) <= REFUSED_SHOWN else text[: REFUSED_SHOWN - 1] + "…"


def last_declarations(style: str) -> str:
    """An inline ``style`` with each property once, at its last declaration (the one that
    wins), in the order of those: a theme's colour followed by the code theme's read as
    ``color:#fa2c19;color:#1c01ce``, which a browser resolves but a reader of the HTML
    should not have to. A ``style`` that does not read as declarations is kept whole."""
    last: dict[str, str] = {}
    for item in tinycss2.parse_declaration_list(style, skip_comments=True, skip_whitespace=True):
        if item.type != "declaration":
            return style
        name = item.lower_name
        last.pop(name, None)  # re-inserted: dicts keep the order of the last insertion
        value = tinycss2.serialize(item.value).strip()
        last[name] = f"{name}:{value}{' !important' if item.important else ''}"
    return ";".join(last.values())
