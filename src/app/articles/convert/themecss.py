"""An article theme's CSS made ready to inline, once per theme and brand: premailer's parsed
rules kept, the brand's variables filled in, and the `::before`/`::after` rules split off
for `fixups` to turn into elements (premailer cannot inline them). `html` uses it."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from cssselect import parse as parse_selector
from lxml.cssselect import CSSSelector

from inkcard import themes
from inkcard.app.articles.convert import fixups as fx
from inkcard.app.articles.convert.brand import Brand, apply_brand, brand_colour

if TYPE_CHECKING:
    from premailer import Premailer

# A rule starts after a brace (or at the start): a start inside a selector would read the
# same selector again to the same brace, once per character (quadratic).
_RULE = re.compile(r"(?<![^{}])([^{}]+)\{([^{}]*)\}")
_PSEUDO = re.compile(r"::?(before|after)\s*$")


class UnknownArticleTheme(ValueError):
    def __str__(self) -> str:
        names = ", ".join(themes.article_names())
        return f"unknown article theme {self.args[0]!r}; valid themes: {names}"


@cache
def _theme_inliner() -> type[Premailer]:
    """Premailer that turns a theme's CSS into rules once: its own cache keeps only the
    cssutils parse and re-serialises every declaration on each call (most of its time).
    Made at the first article: premailer brings requests and cssutils (~13 MB, ~0.2 s), which
    a process that only draws cards (``inkcard mcp``) never needs."""
    from premailer import Premailer

    class ThemeInliner(Premailer):  # type: ignore[misc]  # premailer has no type stubs
        def __init__(self, **options: object) -> None:
            super().__init__(**options)
            self._rules: dict[tuple[str, int], tuple[list[object], list[object]]] = {}

        def _parse_style_rules(
            self, css_body: str, ruleset_index: int
        ) -> tuple[list[object], list[object]]:
            key = (css_body, ruleset_index)
            if key not in self._rules:
                self._rules[key] = super()._parse_style_rules(css_body, ruleset_index)
            rules, leftover = self._rules[key]
            return list(rules), list(leftover)

    return ThemeInliner


@dataclass(frozen=True, slots=True)
class Theme:
    """A theme made ready to inline: premailer with its rules, the `::before`/`::after`
    rules our own pass turns into elements, and the brand colour diagrams take."""

    inliner: Premailer
    pseudo: tuple[fx.PseudoRule, ...]
    brand_colour: str | None  # diagrams' accent


@lru_cache(maxsize=64)  # the five themes, and the brands recently asked of them
def theme_of(name: str, brand: Brand) -> Theme:
    """The theme's CSS, its brand variables filled in, split once into what premailer
    inlines and `::before`/`::after` rules our own pass turns into elements; premailer
    caches the parsed sheet itself."""
    if name not in themes.article_names():
        raise UnknownArticleTheme(name)
    css = themes.article_css(name)
    plain, pseudo = split_pseudo_rules(apply_brand(css, brand))
    inliner = _theme_inliner()(
        css_text=plain,
        allow_network=False,
        allow_loading_external_files=False,
        disable_leftover_css=True,
        disable_basic_attributes=["align", "valign", "bgcolor", "width", "height"],
        align_floating_images=False,
        disable_validation=True,
        cssutils_logging_level=logging.CRITICAL,  # it warns on every property it does not know
    )
    return Theme(inliner, pseudo, brand_colour(css, brand))


def split_pseudo_rules(css: str) -> tuple[str, tuple[fx.PseudoRule, ...]]:
    """(CSS without pseudo-element rules, those rules compiled). Theme CSS is flat: no
    at-rules, no nesting (tests/app/test_article_html.py checks the theme files)."""
    css = _without_comments(css)
    plain: list[str] = []
    pseudo: list[fx.PseudoRule] = []
    for order, (selectors, body) in enumerate(_RULE.findall(css)):
        declarations = _declarations(body)
        kept: list[str] = []
        for selector in (s.strip() for s in selectors.split(",")):
            match = _PSEUDO.search(selector)
            if match is None:
                kept.append(selector)
                continue
            base = selector[: match.start()].strip()
            compiled = CSSSelector(base)
            pseudo.append(
                fx.PseudoRule(compiled, match.group(1), _specificity(base), order, declarations)
            )
        if kept:
            plain.append(f"{', '.join(kept)} {{{body}}}")
    return "\n".join(plain), tuple(pseudo)


def _without_comments(css: str) -> str:
    """The CSS without its comments, each from ``/*`` to the first ``*/`` after it. A loop
    over `str.find`: a pattern ``/\\*.*?\\*/`` would read the rest of the CSS again from every
    ``/*`` that nothing closes (quadratic)."""
    kept, pos = [], 0
    while (start := css.find("/*", pos)) >= 0:
        end = css.find("*/", start + 2)
        if end < 0:
            break
        kept.append(css[pos:start])
        pos = end + 2
    kept.append(css[pos:])
    return "".join(kept)


def _declarations(body: str) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for part in _split_outside_quotes(body):
        name, sep, value = part.partition(":")
        if sep and name.strip():
            out.append((name.strip().lower(), value.strip()))
    return tuple(out)


def _split_outside_quotes(body: str) -> list[str]:
    """``body`` split at each ``;`` outside double quotes: one followed by an even number of
    ``"``. Counted once from the end; a lookahead counting the quotes after each ``;`` read
    the rest of the body once per ``;`` (quadratic)."""
    parts: list[str] = []
    held: list[str] = []  # pieces of a part whose `;`s were inside quotes
    after = body.count('"')
    *pieces, last = body.split(";")
    for piece in pieces:
        held.append(piece)
        after -= piece.count('"')
        if after % 2 == 0:
            parts.append(";".join(held))
            held = []
    parts.append(";".join([*held, last]))
    return parts


def _specificity(selector: str) -> tuple[int, int, int]:
    a, b, c = parse_selector(selector)[0].specificity()
    return (a, b, c)
