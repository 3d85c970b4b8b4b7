"""Markdown → WeChat article HTML: every style inline, nothing the editor strips or runs.

Pipeline: markdown-it (CommonMark, GFM tables, strikethrough, task lists, footnotes, raw
HTML on) → nh3 sanitises the whole rendered HTML against a small allow-list → lxml tree →
`fixups` passes before inlining → premailer inlines the theme's CSS (parsed once
per theme, no network: `themecss`) → passes after inlining → one `<section>` in a full
document.

This module is the article path's own door for markdown_it (the card parser in
`layout.parse.markdown` keeps raw HTML off and builds card blocks, not HTML), and the only
door for nh3 (`themecss` is premailer's). Pure functions: no I/O besides reading theme files once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import nh3
from lxml import html as lxml_html
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

from inkcard.app.articles.convert import alerts
from inkcard.app.articles.convert import fixups as fx
from inkcard.app.articles.convert.bareurls import cut_bare_addresses
from inkcard.app.articles.convert.brand import Brand
from inkcard.app.articles.convert.diagrams import place_diagrams, take_diagrams
from inkcard.app.articles.convert.formulas import (
    MATH_TOKENS,
    Typeset,
    math_size,
    place_math,
    render_math,
    take_math,
    typeset_here,
)
from inkcard.app.articles.convert.panels import details_to_panels
from inkcard.app.articles.convert.refs import links_to_footnotes
from inkcard.app.articles.convert.signature import Signature, append_signature
from inkcard.app.articles.convert.style import Styling, apply_styling, authored_styles
from inkcard.app.articles.convert.tables import fit_tables, wrap_tables
from inkcard.app.articles.convert.themecss import Theme, theme_of
from inkcard.app.articles.convert.titlehead import drop_repeated_title
from inkcard.app.articles.convert.units import glue_units
from inkcard.layout.parse import (
    HTML_TAGS,
    STYLED_TAGS,
    address_linkify,
    cjk_friendly,
    clean_style,
    clean_text,
    hard_wraps,
    valid_link,
)

if TYPE_CHECKING:
    pass

DEFAULT_THEME = "brandA"


_PARSER = (
    MarkdownIt("commonmark", {"html": True, "breaks": True, "linkify": True})
    .enable(["table", "strikethrough", "linkify"])
    .use(tasklists_plugin)
    .use(footnote_plugin)
    .use(cjk_friendly)  # `大约**￥280**：` is bold, as on cards
    .use(hard_wraps)  # prose an editor wrapped is paragraphs, as on cards
    .use(  # `$…$` and `$$…$$` as on cards (layout.parse.markdown): inline SVG (app/article_math.py)
        dollarmath_plugin,
        allow_space=False,
        allow_digits=False,
        allow_labels=False,
        double_inline=True,
    )
)
_PARSER.linkify = address_linkify()  # http(s):// and www. only
_PARSER.validateLink = valid_link  # type: ignore[method-assign]  # file: images pass
_PARSER.options["alerts"] = True  # GitHub alerts: themed callouts (alerts.py)
_PARSER.core.ruler.before("inline", "alert_labels", alerts.label_titles)
_PARSER.core.ruler.after("linkify", "cut_bare_addresses", cut_bare_addresses)  # bareurls.py
for _name, _rule in alerts.RENDER_RULES.items():
    _PARSER.add_render_rule(_name, _rule)
for _kind, _display in MATH_TOKENS.items():
    _PARSER.add_render_rule(
        _kind, lambda _r, t, i, _o, _e, display=_display: render_math(t[i].content, display)
    )

# What may pass from Markdown and raw HTML into the article: the tags and inline styles
# cards read too (HTML_TAGS, clean_style); everything else is dropped
# (script, style, iframe, svg, object, form … lose their content too).
_TAGS = set(HTML_TAGS) | {"details", "summary"}  # made panels (panels.py); cards: text
_DROP_WITH_CONTENT = {"script", "style", "iframe", "svg", "math", "object", "embed",
                      "template", "noscript", "textarea", "select", "title"}  # fmt: skip
_OWN_ATTRIBUTES = {
    "a": {"href", "class"},
    "img": {"src", "alt", "width", "height"},
    "ol": {"start", "class"},
    "ul": {"class"},
    "li": {"class"},
    "th": {"colspan", "rowspan"},
    "td": {"colspan", "rowspan"},
    "code": {"class"},
    "input": {"type", "checked"},
    "sup": {"class"},
    "hr": {"class"},
    "section": {"class"},
    "p": {"class"},
}
_ATTRIBUTES = {
    tag: _OWN_ATTRIBUTES.get(tag, set()) | ({"style"} if tag in STYLED_TAGS else set())
    for tag in _TAGS
}
# markdown-it's own classes; a raw-HTML copy of one can at worst misnumber a footnote.
_CLASSES = {
    "a": {"footnote-backref"},
    "sup": {"footnote-ref"},
    "hr": {"footnotes-sep"},
    "section": {"footnotes", *alerts.CLASSES},
    "p": {alerts.TITLE_CLASS},
    "ol": {"footnotes-list"},
    "li": {"footnote-item", "task-list-item"},
    "ul": {"contains-task-list"},
}
_IMAGE_DATA_URL = re.compile(r"data:image/(png|jpe?g|gif|webp);base64,[A-Za-z0-9+/=\s]+$", re.I)
_LANGUAGE = re.compile(r"language-[\w+#.-]{1,40}$")
_NUMBER = re.compile(r"\d{1,5}$")


def _keep_attribute(tag: str, name: str, value: str) -> str | None:
    """nh3's callback: only the values our passes understand."""
    if name == "class":
        return _keep_classes(tag, value)
    if name in ("href", "src"):
        return _keep_url(tag, name, value)
    if name == "style":
        return (clean_style(value) or None) if tag in STYLED_TAGS else None
    if name in ("width", "height", "colspan", "rowspan", "start"):
        return value if _NUMBER.match(value.strip()) else None
    if name == "type":
        return value if value == "checkbox" else None
    return value


def _keep_classes(tag: str, value: str) -> str | None:
    if tag == "code":
        kept = [c for c in value.split() if _LANGUAGE.match(c)][:1]
    else:
        kept = [c for c in value.split() if c in _CLASSES.get(tag, ())]
    return " ".join(kept) or None


def _keep_url(tag: str, name: str, value: str) -> str | None:
    scheme = urlsplit(value.strip()).scheme.lower()
    if tag == "img" and name == "src":
        ok = scheme in ("http", "https") or bool(_IMAGE_DATA_URL.match(value.strip()))
    else:
        ok = scheme in ("http", "https", "mailto") or value.startswith("#")
    return value if ok else None


_SANITIZER = nh3.Cleaner(
    tags=_TAGS,
    clean_content_tags=_DROP_WITH_CONTENT,
    attributes=_ATTRIBUTES,
    attribute_filter=_keep_attribute,
    url_schemes={"http", "https", "mailto", "data"},
    link_rel=None,
    strip_comments=True,
)


@dataclass(frozen=True, slots=True)
class Article:
    html: str  # a full document; its <body> holds one <section>
    images: tuple[str, ...]  # image sources in order, each once, as written
    title: str  # the first heading, else the first line
    # the rule of docs/decisions/articles.md, "Articles": CJK characters and Latin runs, code too
    word_count: int
    unusable_images: tuple[str, ...] = ()  # images without a usable source (left out), by name
    linked: int = 0  # link addresses moved to the references at the end
    refused_css: tuple[str, ...] = ()  # what the writer's own CSS had that was not applied
    brand_images: tuple[str, ...] = ()  # the brand kit's logo and footer image (never the cover)


def image_sources(markdown: str) -> list[str]:
    """The sources of the Markdown's images (`![alt](src)`), in order, each once, as the
    parser normalises them (what `to_article`'s `inline_images` is keyed by)."""
    found: dict[str, None] = {}
    for token in _PARSER.parse(clean_text(markdown)):
        for child in token.children or ():
            if child.type == "image" and isinstance(src := child.attrs.get("src"), str):
                found[src] = None
    return list(found)


def _render(text: str, inline_images: Mapping[str, str]) -> str:
    """The Markdown as HTML, each image in `inline_images` with its `data:` URI as source."""
    if not inline_images:
        return str(_PARSER.render(text))
    env: dict[str, object] = {}
    tokens = _PARSER.parse(text, env)
    for token in tokens:
        for child in token.children or ():
            src = child.attrs.get("src")
            if child.type == "image" and isinstance(src, str) and src in inline_images:
                child.attrs["src"] = inline_images[src]
    return str(_PARSER.renderer.render(tokens, _PARSER.options, env))


def math_of(markdown: str) -> list[tuple[str, bool]]:
    """The article's distinct formulas, (LaTeX, display) in order, as `to_article` meets them."""
    if "$" not in markdown:
        return []
    found: dict[tuple[str, bool], None] = {}
    for token in _PARSER.parse(clean_text(markdown)):
        for part in [token, *(token.children or ())]:
            if part.type in MATH_TOKENS:
                found[(part.content, MATH_TOKENS[part.type])] = None
    return list(found)


def to_article(
    markdown: str,
    theme: str = DEFAULT_THEME,
    formulas: Typeset | None = None,
    brand: Brand = Brand(),  # noqa: B008  # frozen: one shared default is safe
    inline_images: Mapping[str, str] | None = None,
    title: str = "",
    styling: Styling = Styling(),  # noqa: B008  # frozen: one shared default is safe
    aigc: bool = False,
    signature: Signature = Signature(),  # noqa: B008  # frozen: one shared default is safe
) -> Article:
    """Converts Markdown to a WeChat-ready article in the named theme, with `brand`'s
    colour and size; `formulas`: its math typeset already (`math_of`; a formula not in it
    is shown as source), else typeset here; `inline_images`: image sources to replace by
    the `data:` URI given (local files, read by the service); `title`: the title shown
    above the article (front matter, request), whose repetition as a leading h1 goes;
    `styling`: the writer's own CSS, code theme, indent and justify, laid over the theme;
    `aigc`: a last line saying the article is AI-generated (GB 45438-2025's explicit label
    for text), "内容由AI生成" in a CJK article, styled by `section.aigc-label`."""
    style = theme_of(theme, brand)
    # control characters have no glyph, and lxml refuses them in text
    clean = _SANITIZER.clean(_render(clean_text(markdown), inline_images or {}))
    document = lxml_html.document_fromstring(
        "<html><head><meta charset='utf-8'></head><body>"
        f"<section class='article'>{clean}</section></body></html>"
    )
    article = document.find("body")[0]
    for box in article.iter("div"):  # raw HTML's boxes: the editor's own block is a section
        box.tag = "section"
    text = fx.visible_text(article)
    words = fx.count_words(text)
    heading = fx.title_of(article, text)
    drop_repeated_title(article, title)
    math = take_math(article)
    diagrams = take_diagrams(article, style.brand_colour)
    cjk = fx.has_cjk(text)
    details_to_panels(article, "详情" if cjk else "Details")
    linked = _before_inlining(article, style, "参考资料" if cjk else "References")
    append_signature(article, signature)  # the writer signs off after the references
    if aigc:  # last, after the references and the signature too
        _append_label(article, "内容由AI生成" if cjk else "AI-generated")
    images = fx.prepare_images(article)
    authored = {} if styling.plain else authored_styles(article)
    style.inliner.transform(document)
    refused = apply_styling(article, styling, authored) if not styling.plain else ()
    _after_inlining(article, "← 左右滑动查看 →" if cjk else "← swipe to see more →")
    size = math_size(brand.font_size)
    typeset = typeset_here(size) if formulas is None else lambda *key: formulas.get(key)
    place_math(math, typeset)  # last: no pass may strip the SVG's attributes
    place_diagrams(diagrams)
    head = document.find("head")
    head.clear()
    head.extend(_head(heading))
    return Article(
        _serialise(document),
        tuple(images.sources),
        heading,
        words,
        tuple(images.unusable),
        linked,
        refused,
        signature.images,
    )


def outline(markdown: str) -> tuple[str, str]:
    """The post's title (the first heading, else the first line) and its body as plain
    sanitised HTML in one ``<section>``, no theme: what an image post's text comes from."""
    clean = _SANITIZER.clean(_PARSER.render(clean_text(markdown)))
    section = lxml_html.fragment_fromstring(f"<section>{clean}</section>")
    return fx.title_of(section, fx.visible_text(section)), _fragment(section)


def rewrite_images(html: str, mapping: Mapping[str, str]) -> str:
    """The same document with each image source found in `mapping` replaced."""
    document = lxml_html.document_fromstring(html)
    for img in document.iter("img"):
        src = img.get("src")
        if src in mapping:
            img.set("src", mapping[src])
    return _serialise(document)


def draft_content(html: str) -> str:
    """The document's one `<section>`: what a WeChat draft's `content` holds."""
    body = lxml_html.document_fromstring(html).find("body")
    return _fragment(body[0])


def _append_label(article: lxml_html.HtmlElement, text: str) -> None:
    """A last `section.aigc-label` line in the article (themes/shared/article-common.css
    styles it in the theme's colour; the class goes with the other attributes after)."""
    label = lxml_html.Element("section", {"class": "aigc-label"})
    label.text = text
    article.append(label)


def _before_inlining(article: lxml_html.HtmlElement, style: Theme, notes: str) -> int:
    """The passes before inlining; returns how many link addresses became references."""
    fx.mark_tasks(article)
    fx.highlight_code(article)
    linked = links_to_footnotes(article, notes)
    wrap_tables(article)
    fx.insert_pseudo_elements(article, style.pseudo)
    return linked


def _after_inlining(article: lxml_html.HtmlElement, table_cue: str) -> None:
    glue_units(article)
    fit_tables(article, table_cue)
    fx.lists_to_sections(article)
    fx.preserve_code_whitespace(article)
    fx.guarantee_styles(article)
    fx.drop_block_whitespace(article)
    fx.strip_attributes(article)


def _head(title: str) -> list[lxml_html.HtmlElement]:
    charset = lxml_html.Element("meta", {"charset": "utf-8"})
    viewport = lxml_html.Element(
        "meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}
    )
    heading = lxml_html.Element("title")
    heading.text = title
    return [charset, viewport, heading]


def _serialise(document: lxml_html.HtmlElement) -> str:
    return "<!DOCTYPE html>\n" + _fragment(document)


def _fragment(element: lxml_html.HtmlElement) -> str:
    # A literal U+00A0 can be normalised to a space on the way; the entity cannot.
    text: str = lxml_html.tostring(element, encoding="unicode", with_tail=False)
    return text.replace("\xa0", "&nbsp;")
