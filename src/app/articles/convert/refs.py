"""Links and footnotes for WeChat: numbered marks and one references list at the end.

Links outside mp.weixin.qq.com do not navigate in WeChat and the editor strips ids, so
anchors cannot work: the link text stays, emphasised rather than blue and underlined (it
opens nothing), a mark `[n]` follows, and the list at the end holds the addresses (bare ones
written in the prose too, so each can be copied from one place) and the Markdown footnotes'
text under one numbering.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from lxml import html as lxml_html
from lxml.etree import _Element as Element

from inkcard.app.articles.convert.fixups import (
    WECHAT_HOST,
    append_text,
    has_class,
    remove_keeping_tail,
)

_FOOTNOTE_HREF = re.compile(r"#fn(\d+)$")
# A link whose address went to the list: an emphasised word, not a link's look (WeChat opens
# no outside link); themes/shared/article-common.css styles it.
REF_CLASS = "link-ref"
# A link whose text is its address (a bare URL in the prose): it may break between any two
# characters, so it starts on the line of the words before it instead of leaving that line
# short, or, in a justified theme, spread a third of an em a character.
ADDRESS_CLASS = "link-address"
# A run of escaped bytes 0x80-0xFF: each `%XY` of fixed length, nothing to read twice.
_ESCAPED_UTF8 = re.compile(r"(?:%[89a-fA-F][0-9a-fA-F])+")


@dataclass(slots=True)
class _Reference:
    number: int
    body: list[Element | str]


def links_to_footnotes(root: Element, heading: str) -> int:
    """Each link outside WeChat and each footnote reference becomes a numbered mark (one
    number per address or footnote, in order of first mention); the list goes last.
    Returns how many link addresses went into the list."""
    notes = _take_footnotes(root)
    refs: dict[str, _Reference] = {}
    for el in list(root.iter("sup", "a")):
        if el.tag == "sup" and has_class(el, "footnote-ref"):
            _number_footnote(el, notes, refs)
        elif el.tag == "a" and el.getparent() is not None:
            _footnote_link(el, refs)
    if refs:
        root.append(_references(heading, sorted(refs.values(), key=lambda r: r.number)))
    return sum(1 for key in refs if not key.startswith("#fn"))


def _take_footnotes(root: Element) -> dict[str, list[Element | str]]:
    """markdown-it's footnotes section, removed, as footnote number → its content."""
    notes: dict[str, list[Element | str]] = {}
    for section in root.xpath("//section[@class='footnotes']"):
        for n, item in enumerate(section.xpath("./ol/li"), start=1):
            for back in item.xpath(".//a[@class='footnote-backref']"):
                remove_keeping_tail(back, (back.tail or "").rstrip())
            for link in list(item.iter("a")):
                _unwrap_link(link, with_address=True)
            notes.setdefault(str(n), _contents(item))
        remove_keeping_tail(section, section.tail)
    for rule in root.xpath("//hr[@class='footnotes-sep']"):
        remove_keeping_tail(rule, rule.tail)
    return notes


def _number_footnote(
    sup: Element, notes: dict[str, list[Element | str]], refs: dict[str, _Reference]
) -> None:
    link = sup.find("a")
    match = _FOOTNOTE_HREF.match(link.get("href", "")) if link is not None else None
    if match is None or match.group(1) not in notes:
        remove_keeping_tail(sup, sup.tail)
        return
    key = f"#fn{match.group(1)}"
    if key not in refs:
        refs[key] = _Reference(len(refs) + 1, notes[match.group(1)])
    _make_mark(sup, refs[key].number)


def _footnote_link(link: Element, refs: dict[str, _Reference]) -> None:
    href = link.get("href") or ""
    parts = urlsplit(href)
    if parts.scheme in ("http", "https") and parts.hostname == WECHAT_HOST:
        link.set("class", "link wechat-link")
        return
    text = " ".join(link.text_content().split())
    span = _unwrap_link(link, with_address=False)
    if parts.scheme not in ("http", "https"):
        del span.attrib["class"]  # anchors, mail addresses: plain words, nothing to open
        return
    span.set("class", f"{REF_CLASS} {ADDRESS_CLASS}" if says_address(text, href) else REF_CLASS)
    key = url_key(href)
    if key not in refs:
        address = lxml_html.Element("span", {"class": "refs-url"})
        address.text = readable_address(href)
        if says_address(text, href):  # a bare address: listed too, said once there
            refs[key] = _Reference(len(refs) + 1, [address])
        else:
            label = lxml_html.Element("span", {"class": "refs-text"})
            label.text = f"{text}: " if text else ""
            refs[key] = _Reference(len(refs) + 1, [label, address])
    mark = lxml_html.Element("sup")
    span.addnext(mark)
    mark.tail, span.tail = span.tail, None
    _make_mark(mark, refs[key].number)


def readable_address(href: str) -> str:
    """The address as a reader writes it: percent-escaped UTF-8 (a Chinese path, as the
    parser escapes it) shown as its characters; escaped ASCII (`%20`, `%2F`) stays, so
    the address copied from the list is the same address."""
    return _ESCAPED_UTF8.sub(_decoded, href)


def _decoded(match: re.Match[str]) -> str:
    escaped = match.group(0)
    try:
        return bytes.fromhex(escaped.replace("%", "")).decode("utf-8")
    except UnicodeDecodeError:
        return escaped


def says_address(text: str, href: str) -> bool:
    """Whether a link's text is its address already (`www.x.com` for `http://www.x.com`,
    `x.com/` for `https://x.com`): printing the address again would say it twice."""
    return url_key(text) == url_key(href) or url_key(f"http://{text}") == url_key(href)


def url_key(href: str) -> str:
    """One key per address however it is written: scheme and host in any case, an escaped
    or a plain path, a trailing slash or none all name the same page."""
    parts = urlsplit(unquote(href.strip()))
    scheme = "https" if parts.scheme.lower() in ("http", "https") else parts.scheme.lower()
    path = parts.path.rstrip("/")
    query = f"?{parts.query}" if parts.query else ""
    fragment = f"#{parts.fragment}" if parts.fragment else ""
    return f"{scheme}://{parts.netloc.lower()}{path}{query}{fragment}"


def _unwrap_link(link: Element, with_address: bool) -> Element:
    """The link as a span of the same content (no href: nothing to navigate or run)."""
    href = link.get("href") or ""
    for name in list(link.attrib):
        del link.attrib[name]
    link.tag = "span"
    link.set("class", "link")
    text = link.text_content().strip()
    if with_address and urlsplit(href).scheme in ("http", "https") and not says_address(text, href):
        link.tail = f" ({readable_address(href)}){link.tail or ''}"
    return link


def _make_mark(sup: Element, number: int) -> None:
    for child in list(sup):
        sup.remove(child)
    sup.attrib.clear()
    sup.set("class", "fn-ref")
    sup.text = f"[{number}]"


def _references(heading: str, refs: Iterable[_Reference]) -> Element:
    section = lxml_html.Element("section", {"class": "refs"})
    title = lxml_html.Element("section", {"class": "refs-title"})
    title.text = heading
    section.append(title)
    for ref in refs:
        item = lxml_html.Element("section", {"class": "refs-item"})
        number = lxml_html.Element("span", {"class": "refs-num"})
        number.text = f"[{ref.number}]"
        body = lxml_html.Element("span", {"class": "refs-body"})
        _fill(body, ref.body)
        item.extend([number, body])
        section.append(item)
    return section


def _contents(item: Element) -> list[Element | str]:
    """A footnote's content; a lone paragraph is unwrapped so it sits on the mark's line."""
    children = list(item)
    if len(children) == 1 and children[0].tag == "p" and not (item.text or "").strip():
        item = children[0]
    return [item.text or "", *list(item)]


def _fill(target: Element, content: list[Element | str]) -> None:
    for piece in content:
        if isinstance(piece, str):
            append_text(target, target[-1] if len(target) else None, piece)
        else:
            target.append(piece)
    if len(target):
        target[-1].tail = (target[-1].tail or "").rstrip()
    else:
        target.text = (target.text or "").rstrip()
