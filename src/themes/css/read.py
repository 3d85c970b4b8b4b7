"""CSS text → in file order, each declaration on the role its selector names, and each note.

tinycss2 does the tokenising. `.<class>` names the card, `.<class> <element>` a role
(`ELEMENT_ROLES`), `body` (or `html`) the page around the card; the first class seen is the
theme's. What this subset cannot read (an
at-rule, another selector, a nested rule) becomes a `Note` with its line; only CSS that is
not CSS at all (a syntax error) raises `ThemeError`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import tinycss2

from inkcard.layout.style import ThemeError

from .values import significant

HEADINGS = tuple(f"h{n}" for n in range(1, 7))  # each is its own element and role
# `.<class> <selector>` → the role it styles; `th` is the table's header row.
ELEMENT_ROLES: dict[str, str] = {
    **{heading: heading for heading in HEADINGS},
    "p": "body",
    "strong": "strong",
    "b": "strong",
    "em": "em",
    "i": "em",
    "a": "link",
    "del": "del",
    "s": "del",
    "blockquote": "quote",
    "blockquote p": "quote_text",
    "code": "inline_code",
    "pre": "code_block",
    "pre code": "pre_code",
    "ul": "list",
    "ol": "list",
    "li": "list",
    "li::marker": "marker",
    "ul li::marker": "marker",
    "ol li::marker": "marker",
    "table": "table",
    "tr": "table",
    "td": "cell",  # the table's, with its border on each side of every cell
    "th": "th",
    "tr:nth-child(even)": "stripe",
    "tbody tr:nth-child(even)": "stripe",
    "tr:nth-of-type(even)": "stripe",
    "tbody tr:nth-of-type(even)": "stripe",
    "hr": "hr",
    "img": "image",
    # the original service's own card markup
    ".card-footer": "page_number",
    ".card-footer .page": "page_number",
    ".page": "page_number",
}
# The document around the card: its background is the surround of an inset card.
PAGE_SELECTORS = ("body", "html")
# Inner parts of another element's box: only their text knobs reach the role (`pre code`
# with `background: transparent` must not erase the `pre` panel, as in a browser).
INNER_ROLES = {"pre_code": "code_block", "quote_text": "quote"}
# The original service's wrappers around the Markdown: `.card-content-inner h1` is an h1.
_WRAPPERS = (".card-content-inner", ".card-content", ".card-body", ".markdown-body")

_CLASS = re.compile(
    r"\.(-?[_a-zA-Z][_a-zA-Z0-9-]*)((?:\.[_a-zA-Z][_a-zA-Z0-9-]*)?)(?:\s+(.*))?", re.S
)


@dataclass(frozen=True, slots=True)
class Note:
    """Something in the stylesheet that has no effect, and why."""

    line: int
    text: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.text}"


@dataclass(frozen=True, slots=True)
class Declaration:
    """One `property: value` as it applies to one role."""

    role: str
    mode: str  # "" for the theme itself, else the mode of `.<class>.<mode>`
    prop: str  # in lower case
    values: list[Any]  # the value's tokens, without whitespace and comments
    text: str  # the value as written, for a note
    line: int


class Stylesheet:
    """A stylesheet read rule by rule; `name` is its class, known once a rule named it."""

    def __init__(self, css: str, source: str):
        self.css = css
        self.source = source
        self.name = ""

    def __iter__(self) -> Iterator[Declaration | Note]:
        """Each declaration on each role, and each note, in file order."""
        rules = tinycss2.parse_stylesheet(self.css, skip_comments=True, skip_whitespace=True)
        for rule in rules:
            if rule.type == "error":
                raise self._syntax_error(rule)
            if rule.type == "at-rule":
                yield Note(rule.source_line, f"@{rule.at_keyword} rules are not supported")
                continue
            yield from self._rule(rule)

    def _rule(self, rule: Any) -> Iterator[Declaration | Note]:
        items = tinycss2.parse_blocks_contents(
            rule.content, skip_comments=True, skip_whitespace=True
        )
        for item in items:
            if item.type == "error":
                raise self._syntax_error(item)
        targets = []
        for selector in tinycss2.serialize(rule.prelude).split(","):
            target = self._selector_role(selector, rule.source_line)
            if isinstance(target, Note):
                yield target
            else:
                targets.append(target)
        for role, mode in targets:
            for item in items:
                if item.type == "declaration":
                    yield _declaration(role, mode, item)
                else:  # a nested rule (CSS nesting)
                    yield Note(item.source_line, "nested rules are not supported")

    def _selector_role(self, selector: str, line: int) -> tuple[str, str] | Note:
        """(the role `.<class>[.<mode>] <element>` styles, "card" for the class alone; the
        mode, "" for none), or why none."""
        text = " ".join(selector.replace(">", " ").split())
        if text.lower() in PAGE_SELECTORS:
            return "page", ""
        match = _CLASS.fullmatch(text)
        if match is None:
            return Note(
                line, f"selector {text!r} is not supported: use .<class> or .<class> <element>"
            )
        name, mode, rest = match.group(1), match.group(2).lstrip("."), match.group(3)
        if not self.name:
            self.name = name
        elif name != self.name:
            return Note(line, f"selector {text!r} names another class than .{self.name}; ignored")
        rest = _unwrapped(rest or "")
        if not rest:
            return "card", mode
        role = ELEMENT_ROLES.get(rest.lower())
        if role is None:
            return Note(line, f"selector {text!r}: no role for {rest!r}")
        return role, mode

    def _syntax_error(self, error: Any) -> ThemeError:
        return ThemeError(
            f"{self.source}: line {error.source_line}: CSS syntax error: {error.message}"
        )


def _unwrapped(rest: str) -> str:
    """An element selector without the original service's wrappers in front of it."""
    words = rest.split()
    while len(words) > 1 and words[0].lower() in _WRAPPERS:
        words = words[1:]
    return " ".join(words) if words != [] and words[0].lower() not in _WRAPPERS else ""


def _declaration(role: str, mode: str, item: Any) -> Declaration:
    text = tinycss2.serialize(item.value).strip()
    values = significant(item.value)
    return Declaration(role, mode, item.lower_name, values, text, item.source_line)
