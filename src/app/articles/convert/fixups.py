"""The article's tree passes: what the WeChat editor needs that CSS alone cannot give.

`html.py` runs them on the sanitised lxml tree. Before inlining they add real elements
and helper classes for the theme's selectors (pseudo-elements, task boxes, code token
spans; tables are `tables.py`, links and footnotes are `refs.py`); after inlining
they turn lists into `<section>` rows with text markers, code whitespace into `&nbsp;`
and `<br>`, add the styles no theme may forget, and strip every attribute the editor
would drop or that could act.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from lxml import html as lxml_html
from lxml.etree import _Element as Element

from inkcard.layout.parse import highlight

# One regex for the word count rule (docs/decisions/articles.md, "Articles"): a CJK
# character is a word, a run of
# other letters or digits is a word, anything else (spaces, punctuation) is nothing.
CJK_RANGES = (
    "\u1100-\u11ff\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u3190-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f"
)
_WORDS = re.compile(rf"[{CJK_RANGES}]|[^\W_{CJK_RANGES}]+")
_HAS_CJK = re.compile(rf"[{CJK_RANGES}]")

# Token roles of layout.parse.code, in the order of the indexes we hand it as a "palette".
_CODE_ROLES = (
    "comment",
    "string",
    "number",
    "type",
    "builtin",
    "keyword",
    "function",
)
_PALETTE = {f"code_{role}": i for i, role in enumerate(_CODE_ROLES)}
_PLAIN = -1
TAB = "    "

WECHAT_HOST = "mp.weixin.qq.com"
# An image inside a sentence: in the line, centred on it, no frame of the theme's pictures.
INLINE_IMAGE = (
    "display:inline-block;vertical-align:middle;margin:0 2px;padding:0;border:0;"
    "box-shadow:none;border-radius:0"
)
_KEPT_ATTRIBUTES = {"style", "src", "alt", "href", "colspan", "rowspan"}


def count_words(text: str) -> int:
    return len(_WORDS.findall(text))


def has_cjk(text: str) -> bool:
    return _HAS_CJK.search(text) is not None


def visible_text(root: Element) -> str:
    """The article's text as a reader sees it, without footnote reference marks."""
    parts: list[str] = []

    def walk(el: Element) -> None:
        if has_class(el, "footnote-ref") or has_class(el, "footnote-backref"):
            parts.append(" ")
        else:
            parts.append(el.text or "")
            for child in el:
                walk(child)
        parts.append(el.tail or "")

    parts.append(root.text or "")
    for child in root:
        walk(child)
    return "".join(parts)


def title_of(root: Element, text: str) -> str:
    """The first heading's text, else the first non-empty line of the text."""
    for el in root.iter("h1", "h2", "h3", "h4", "h5", "h6"):
        heading = " ".join(el.text_content().split())
        if heading:
            return heading
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


# --- passes before inlining ------------------------------------------------------------


def mark_tasks(root: Element) -> None:
    """A checkbox at the start of a list item becomes a class the theme gives a box."""
    for box in list(root.iter("input")):
        item = _task_item(box)
        if item is not None:
            item.set("class", "task-done" if box.get("checked") is not None else "task-open")
        tail = (box.tail or "").lstrip() if item is not None else box.tail
        remove_keeping_tail(box, tail)


def _task_item(box: Element) -> Element | None:
    parent = box.getparent()
    if parent is not None and parent.tag == "p":
        parent = parent.getparent()
    if box.get("type") == "checkbox" and parent is not None and parent.tag == "li":
        return parent
    return None


def highlight_code(root: Element) -> None:
    """Each token of a fenced block with a language becomes a span the theme colours."""
    for code in root.xpath("//pre/code"):
        lang = _code_language(code)
        if not lang or len(code):
            continue
        lines = highlight((code.text or "").rstrip("\n"), lang, _PALETTE, _PLAIN)
        code.text = None
        last: Element | None = None
        for n, line in enumerate(lines):
            if n:
                last = append_text(code, last, "\n")
            for text, role in line:
                if role == _PLAIN:
                    last = append_text(code, last, text)
                else:
                    span = lxml_html.Element("span", {"class": f"tok-{_CODE_ROLES[role]}"})
                    span.text = text
                    code.append(span)
                    last = span


def _code_language(code: Element) -> str:
    for name in (code.get("class") or "").split():
        if name.startswith("language-"):
            return name.removeprefix("language-")
    return ""


def append_text(parent: Element, last: Element | None, text: str) -> Element | None:
    if last is None:
        parent.text = (parent.text or "") + text
    else:
        last.tail = (last.tail or "") + text
    return last


@dataclass(frozen=True, slots=True)
class Images:
    sources: list[str]
    """Image sources in order, each once, as written."""
    unusable: list[str]
    """Each image left without a source, named by its place and alt text (for a message)."""


def prepare_images(root: Element) -> Images:
    """The article's images; a `width` becomes a style; alt text a caption, unless the
    image sits inside a sentence (then it stays in the line).

    An image the sanitiser left without a source (a scheme other than http(s), a relative
    path, a `data:` URI that is not a base64 PNG, JPEG, GIF or WebP, or none) is taken out
    and named in `unusable`: an article simply goes without it, a draft refuses it.
    """
    sources: dict[str, None] = {}
    unusable: list[str] = []
    images = list(root.iter("img"))
    for img in images:  # before any caption adds text beside another image
        if _inside_a_sentence(img):
            img.set("class", "img-inline")
    for number, img in enumerate(images, 1):
        src = img.get("src") or ""
        if not src:
            unusable.append(_image_name(number, img.get("alt") or ""))
            remove_keeping_tail(img, img.tail)
            continue
        sources.setdefault(src, None)
        width = img.attrib.pop("width", "")
        img.attrib.pop("height", None)
        if width.isdigit():
            img.set("style", f"width:{width}px")
        if has_class(img, "img-inline"):
            continue
        alt = " ".join((img.get("alt") or "").split())
        if alt and img.getparent() is not None and img.getparent().tag == "p":
            caption = lxml_html.Element("span", {"class": "img-caption"})
            caption.text = alt
            img.addnext(caption)
            caption.tail, img.tail = img.tail, None
    return Images(list(sources), unusable)


def _inside_a_sentence(img: Element) -> bool:
    """An image with text beside it in its paragraph (an icon, a badge): it stays in the
    line, without a caption, rather than splitting the sentence."""
    paragraph = img.getparent()
    while paragraph is not None and paragraph.tag not in ("p", "li", "td", "th"):
        paragraph = paragraph.getparent()
    if paragraph is None:
        return False
    return any(text.strip() for text in paragraph.itertext())


def _image_name(number: int, alt: str) -> str:
    text = " ".join(alt.split())
    if not text:
        return f"image {number} (no alt text)"
    return f"image {number} (alt text “{text if len(text) <= 40 else text[:39] + '…'}”)"


@dataclass(frozen=True, slots=True)
class PseudoRule:
    """One `selector::before/after { … }` rule of a theme, to be made a real element."""

    select: Callable[[Element], list[Element]]
    where: str  # "before" | "after"
    specificity: tuple[int, int, int]
    order: int
    declarations: tuple[tuple[str, str], ...]


def insert_pseudo_elements(root: Element, rules: Iterable[PseudoRule]) -> None:
    """CSS cascade for `::before`/`::after`: per element, the matching rules' declarations
    merged by specificity then order; `content` becomes the text of a real span (or a
    section when `display:block`), the other declarations its inline style."""
    found: dict[tuple[int, str], tuple[Element, list[PseudoRule]]] = {}
    for rule in rules:
        for el in rule.select(root):
            found.setdefault((id(el), rule.where), (el, []))[1].append(rule)
    for (_, where), (el, matched) in found.items():
        merged: dict[str, str] = {}
        for rule in sorted(matched, key=lambda r: (r.specificity, r.order)):
            merged.update(rule.declarations)
        content = _content_text(merged.pop("content", "none"), el)
        if content is not None:
            _attach(el, where, content, merged)


def _content_text(value: str, el: Element) -> str | None:
    """The text of a `content` value: quoted strings and `counter(list-item)`."""
    if value.strip() in ("none", "normal", ""):
        return None
    out: list[str] = []
    for quoted, counter in re.findall(r'"((?:[^"\\]|\\.)*)"|(counter\(\s*list-item\s*\))', value):
        out.append(str(_list_number(el)) if counter else _unescape_css(quoted))
    return "".join(out)


def _unescape_css(text: str) -> str:
    return re.sub(r"\\([0-9a-fA-F]{1,6})\s?", lambda m: chr(int(m.group(1), 16)), text)


def _list_number(li: Element) -> int:
    parent = li.getparent()
    start = parent.get("start", "1") if parent is not None else "1"
    number = int(start) if start.lstrip("-").isdigit() else 1
    return number + (parent.index(li) if parent is not None else 0)


def _attach(el: Element, where: str, text: str, declarations: dict[str, str]) -> None:
    block = declarations.get("display", "").strip() == "block"
    pseudo = lxml_html.Element("section" if block else "span", {"class": f"ps-{where}"})
    pseudo.text = text
    style = ";".join(f"{k}:{v}" for k, v in declarations.items())
    if style:
        pseudo.set("style", style)
    if where == "before":
        pseudo.tail, el.text = el.text, None
        el.insert(0, pseudo)
    else:
        el.append(pseudo)


# --- passes after inlining -------------------------------------------------------------


def lists_to_sections(root: Element) -> None:
    """`ul`/`ol`/`li` become `<section>`s: the editor then adds no bullets of its own and
    cannot collapse deep nesting; each item is a flex row of marker and body."""
    for item in list(root.iter("li")):
        marker = item[0] if len(item) and has_class(item[0], "ps-before") else None
        body = lxml_html.Element("section", {"style": "flex:1;min-width:0"})
        body.text = item.text if marker is None else marker.tail
        item.text = None
        if marker is not None:
            marker.tail = None
            add_style(marker, "flex-shrink:0")
        for child in list(item):
            if child is not marker:
                body.append(child)
        item.append(body)
        item.tag = "section"
        add_style(item, "display:flex;align-items:baseline")
    for container in list(root.iter("ul", "ol")):
        container.tag = "section"
        container.attrib.pop("start", None)


def preserve_code_whitespace(root: Element) -> None:
    """The editor collapses whitespace even in `<pre>`: spaces become no-break spaces and
    line ends `<br>`, and the block scrolls sideways rather than wrapping."""
    for pre in list(root.iter("pre")):
        _trim_last_newline(pre)
        for el in list(pre.iter()):
            if el.text:
                _set_text_with_breaks(el, _code_spaces(el.text))
            if el is not pre and el.tail:
                _set_tail_with_breaks(el, _code_spaces(el.tail))
        add_style(pre, "overflow-x:auto;white-space:nowrap")
        for code in pre.iter("code"):
            add_style(code, "white-space:nowrap")


def _trim_last_newline(el: Element) -> None:
    """The newline that ends every code block would be an empty last line."""
    if len(el):
        last = el[-1]
        if last.tail:
            last.tail = last.tail.removesuffix("\n")
        else:
            _trim_last_newline(last)
    elif el.text:
        el.text = el.text.removesuffix("\n")


def _code_spaces(text: str) -> str:
    return text.replace("\t", TAB).replace(" ", "\xa0")


def _set_text_with_breaks(el: Element, text: str) -> None:
    first, *rest = text.split("\n")
    el.text = first
    for i, part in enumerate(rest):
        br = lxml_html.Element("br")
        br.tail = part
        el.insert(i, br)


def _set_tail_with_breaks(el: Element, text: str) -> None:
    first, *rest = text.split("\n")
    el.tail = first
    anchor = el
    for part in rest:
        br = lxml_html.Element("br")
        br.tail = part
        anchor.addnext(br)
        anchor = br


def guarantee_styles(root: Element) -> None:
    """Styles every theme needs, added last so they win: images fit the column (an image
    inside a sentence stays in its line), code keeps its own letter spacing, tables scroll
    sideways inside their wrapper."""
    for img in root.iter("img"):
        if has_class(img, "img-inline"):
            add_style(img, INLINE_IMAGE)
        add_style(img, "max-width:100%;height:auto;box-sizing:border-box")
    for code in root.iter("code", "pre"):
        add_style(code, "letter-spacing:0")  # the body's tracking would misalign columns
    for wrapper in root.xpath("//section[contains(concat(' ', @class, ' '), ' table-wrap ')]"):
        add_style(wrapper, "max-width:100%;overflow-x:auto")


_BLOCKS = {
    "section", "p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table",
    "thead", "tbody", "tfoot", "tr", "th", "td", "hr", "ul", "ol", "li", "dl", "dt", "dd",
}  # fmt: skip


def drop_block_whitespace(root: Element) -> None:
    """The newlines markdown-it puts between blocks: the editor makes empty lines of them."""
    for el in root.iter():
        if el.tag not in _BLOCKS:
            continue
        if el.tail is not None and not el.tail.strip():
            el.tail = None
        if el.tag != "pre" and len(el) and el.text is not None and not el.text.strip():
            el.text = None


def strip_attributes(root: Element) -> None:
    """Only what the editor keeps and nothing that could act: no class, id or handler,
    and links only to WeChat articles."""
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for name in list(el.attrib):
            if name not in _KEPT_ATTRIBUTES or (name == "href" and not _wechat_url(el.get(name))):
                del el.attrib[name]


def _wechat_url(url: str | None) -> bool:
    parts = urlsplit(url or "")
    return parts.scheme in ("http", "https") and parts.hostname == WECHAT_HOST


# --- small helpers ---------------------------------------------------------------------


def add_style(el: Element, css: str) -> None:
    current = (el.get("style") or "").strip().rstrip(";")
    el.set("style", f"{current};{css}" if current else css)


def has_class(el: Element, name: str) -> bool:
    return name in (el.get("class") or "").split()


def remove_keeping_tail(el: Element, tail: str | None) -> None:
    parent = el.getparent()
    if parent is None:
        return
    previous = el.getprevious()
    if tail:
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(el)
