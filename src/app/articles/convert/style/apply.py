"""A writer's own look (``Styling``) written inline on an article whose theme is inlined.

Run right after premailer, while the elements still have their tags and classes (``li``,
``tok-keyword``): the code theme first, then ``indent`` and ``justify``, then the writer's
rules by specificity and order (``usercss``). Each appends its declarations to the element's
``style`` (the later of two declarations wins, as in a stylesheet), so all of them win over
the theme's; then the ``style`` the element had before the theme (written inline in the
Markdown) is appended again, and an inline style keeps winning over any sheet. Last, each
property is kept once, where it wins (``usercss.last_declarations``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lxml.etree import XPathError
from lxml.etree import _Element as Element

from inkcard.app.articles.convert.fixups import add_style
from inkcard.app.articles.convert.style.usercss import last_declarations, read_css
from inkcard.themes.codethemes import CODE_THEMES, TOKEN_KINDS, CodeTheme

INDENT = "text-indent:2em"
JUSTIFY = "text-align:justify"


@dataclass(frozen=True, slots=True)
class Styling:
    """The request's ``css``, ``codeTheme``, ``indent`` and ``justify``; empty: the theme's."""

    css: str = ""
    code_theme: str = ""
    indent: bool = False
    justify: bool = False

    @property
    def plain(self) -> bool:
        return not (self.css or self.code_theme or self.indent or self.justify)


class UnknownCodeTheme(ValueError):
    def __str__(self) -> str:
        return f"unknown code theme {self.args[0]!r}; valid code themes: {', '.join(CODE_THEMES)}"


def authored_styles(article: Element) -> dict[Element, str]:
    """Each element's ``style`` before the theme is inlined: what the Markdown wrote inline
    (and our passes before inlining), which keeps winning over the writer's sheet."""
    return {el: style for el in article.iter() if (style := el.get("style"))}


def apply_styling(
    article: Element, styling: Styling, authored: dict[Element, str]
) -> tuple[str, ...]:
    """Writes ``styling`` inline on the article; returns what the writer's CSS had refused.

    Raises:
        UnknownCodeTheme: ``styling.code_theme`` names no code theme.
    """
    added: dict[Element, list[str]] = {}

    def add(el: Element, style: str) -> None:
        added.setdefault(el, []).append(style)

    if styling.code_theme:
        theme = CODE_THEMES.get(styling.code_theme)
        if theme is None:
            raise UnknownCodeTheme(styling.code_theme)
        _code_theme(article, theme, add)
    body = [INDENT] * styling.indent + [JUSTIFY] * styling.justify
    if body:
        for p in body_paragraphs(article):
            add(p, ";".join(body))
    refused: tuple[str, ...] = ()
    if styling.css:
        sheet = read_css(styling.css)
        failed: list[str] = []
        for rule in sorted(sheet.rules, key=lambda r: (r.specificity, r.order)):
            try:
                matched = rule.select(article)
            except XPathError:  # compiled, but lxml cannot run it here: refused after all
                failed.append(f"selector {rule.select.css}: not a selector we can apply")
                continue
            for el in matched:
                add(el, rule.style)
        refused = sheet.refused + tuple(dict.fromkeys(failed))
    for el, styles in added.items():
        add_style(el, ";".join(styles))
        if el in authored:
            add_style(el, authored[el])
        el.set("style", last_declarations(el.get("style") or ""))
    return refused


def body_paragraphs(article: Element) -> list[Element]:
    """The article's own paragraphs of text: not in a list, quote, table, alert or
    footnote (those are inside another block), and not one holding an image set as a block
    (with its caption: an indent would push both, as ``text-indent`` is inherited)."""
    return [
        p
        for p in article.iterchildren("p")
        if "".join(p.itertext()).strip()
        and not any(" img-inline " not in f" {img.get('class')} " for img in p.iter("img"))
    ]


def _code_theme(article: Element, theme: CodeTheme, add: Callable[[Element, str], None]) -> None:
    """The code blocks' panel, text and token colours; inline code keeps the theme's."""
    for pre in article.iter("pre"):
        add(pre, f"background:{theme.background};color:{theme.text};border-color:{theme.border}")
        for code in pre.iter("code"):
            add(code, f"color:{theme.text};background:transparent")
        for span in pre.iter("span"):
            kind = _token_kind(span)
            if kind:
                italic = "italic" if kind in theme.italic else "normal"
                bold = "bold" if kind in theme.bold else "normal"
                colour = getattr(theme, kind)
                add(span, f"color:{colour};font-style:{italic};font-weight:{bold}")


def _token_kind(span: Element) -> str:
    for name in (span.get("class") or "").split():
        kind = name.removeprefix("tok-")
        if kind != name and kind in TOKEN_KINDS:
            return kind
    return ""
