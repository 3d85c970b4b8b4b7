"""CSS text → in file order, each declaration on the role its selector names, and each note.

tinycss2 does the tokenising. `.<class>` names the card, `.<class> <element>` a role
(`ELEMENT_ROLES`); the first class seen is the theme's. What this subset cannot read (an
at-rule, another selector, a nested rule) becomes a `Note` with its line; only CSS that is
not CSS at all (a syntax error) raises `ThemeError`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import tinycss2

from layout.style import ThemeError

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
    "blockquote p": "quote",
    "code": "inline_code",
    "pre": "code_block",
    "pre code": "code_block",
    "ul": "list",
    "ol": "list",
    "li": "list",
    "table": "table",
    "tr": "table",
    "td": "table",
    "th": "th",
    "hr": "hr",
    "img": "image",
}

_CLASS = re.compile(r"\.(-?[_a-zA-Z][_a-zA-Z0-9-]*)(?:\s+(.*))?", re.S)


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
        roles = []
        for selector in tinycss2.serialize(rule.prelude).split(","):
            role = self._selector_role(selector, rule.source_line)
            if isinstance(role, Note):
                yield role
            else:
                roles.append(role)
        for role in roles:
            for item in items:
                if item.type == "declaration":
                    yield _declaration(role, item)
                else:  # a nested rule (CSS nesting)
                    yield Note(item.source_line, "nested rules are not supported")

    def _selector_role(self, selector: str, line: int) -> str | Note:
        """The role `.<class> <element>` styles ("card" for the class alone), or why none."""
        text = " ".join(selector.replace(">", " ").split())
        match = _CLASS.fullmatch(text)
        if match is None:
            return Note(
                line, f"selector {text!r} is not supported: use .<class> or .<class> <element>"
            )
        name, rest = match.group(1), match.group(2)
        if not self.name:
            self.name = name
        elif name != self.name:
            return Note(line, f"selector {text!r} names another class than .{self.name}; ignored")
        if rest is None:
            return "card"
        role = ELEMENT_ROLES.get(rest.lower())
        if role is None:
            return Note(line, f"selector {text!r}: no role for {rest!r}")
        return role

    def _syntax_error(self, error: Any) -> ThemeError:
        return ThemeError(
            f"{self.source}: line {error.source_line}: CSS syntax error: {error.message}"
        )


def _declaration(role: str, item: Any) -> Declaration:
    text = tinycss2.serialize(item.value).strip()
    return Declaration(role, item.lower_name, significant(item.value), text, item.source_line)
