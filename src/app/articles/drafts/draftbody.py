"""What a draft holds besides the article: its content trimmed for the platform, its digest.

The content: the leading h1 is taken out when it became the draft's title (the platform
shows the title above the content, so it would show twice), and the images the request
chose to go without (``imagePolicy`` skip) are taken out with their captions.

The digest, when the request gives none: the first sentences of the body's top-level
paragraphs (not headings, quotes, list items, tables, captions or code), as many whole
sentences as fit in the platform's limit, without the glyphs a summary line should not
start or be strewn with (quote marks, emoji, symbols). Left out, the platform would take
the first 54 characters of the content: the title again, a quote's “ ornament, a bullet.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from typing import NamedTuple

from lxml import html as lxml_html

from inkcard.app.articles.convert.fixups import remove_keeping_tail
from inkcard.app.schema import DIGEST_LIMIT

# Categories of the glyphs a digest goes without: symbols (emoji, ◆, ✎), initial and final
# quote marks, format characters (zero-width joiners, emoji variation selectors are Mn).
_GLYPH_CATEGORIES = {"So", "Sk", "Co", "Cs", "Cf", "Pi", "Pf"}
_CORNER_QUOTES = set("「」『』")
_APOSTROPHE = re.compile(r"(?<=\w)’(?=\w)")  # it’s: a letter, not a quote mark
# from the start of a run of spaces only: from each of its spaces `\s+` would read the rest
# of the run again (quadratic in a long run)
_SPACE_BEFORE_CJK_PUNCTUATION = re.compile(r"(?<!\s)\s+(?=[。！？，、；：）」』])")
_FINISHED = re.compile(r"[。！？!?…；;.]$")
_SENTENCE_END = re.compile(r"(?<=[。！？!?…；;])|(?<=[.])(?=\s)")
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef]")
_UNREAD = {"svg", "sup", "script", "style"}  # formulas, note numbers: not words
_VARIATION_SELECTORS = re.compile(r"[\ufe00-\ufe0f]")


class Digest(NamedTuple):
    """A digest drawn from the body; ``cut``: its first sentence was over the limit."""

    text: str
    cut: bool = False


def finish(
    content: str, title: str, *, drop_heading: bool, skipped: Collection[str]
) -> tuple[str, Digest]:
    """(``trim_content``, ``auto_digest`` of it), the content parsed once."""
    section = lxml_html.fragment_fromstring(content)
    _trim(section, drop_heading, skipped)
    return _serialise(section), _digest(section, title, DIGEST_LIMIT)


def trim_content(content: str, *, drop_heading: bool, skipped: Collection[str]) -> str:
    """The draft's ``content`` (one ``<section>``) without its leading h1 (``drop_heading``:
    the first element that holds text is an h1) and the images whose source is ``skipped``."""
    section = lxml_html.fragment_fromstring(content)
    _trim(section, drop_heading, skipped)
    return _serialise(section)


def _serialise(section: lxml_html.HtmlElement) -> str:
    text: str = lxml_html.tostring(section, encoding="unicode", with_tail=False)
    return text.replace("\xa0", "&nbsp;")  # as the article's own serialiser writes it


def _trim(section: lxml_html.HtmlElement, drop_heading: bool, skipped: Collection[str]) -> None:
    if drop_heading:
        _drop_leading_heading(section)
    for img in list(section.iter("img")):
        if img.get("src") in skipped:
            _drop_image(img)


def _drop_leading_heading(section: lxml_html.HtmlElement) -> None:
    for child in section:
        if child.tag == "h1":
            remove_keeping_tail(child, child.tail)
            return
        # a span directly in the section is the theme's ornament (japanese-magazine's
        # masthead); any other element with text comes before the h1
        if child.tag != "span" and child.text_content().strip():
            return


def _drop_image(img: lxml_html.HtmlElement) -> None:
    caption = img.getnext()
    alt = " ".join((img.get("alt") or "").split())
    if caption is not None and caption.tag == "span" and caption.text_content() == alt:
        remove_keeping_tail(caption, caption.tail)
    parent = img.getparent()
    remove_keeping_tail(img, img.tail)
    if parent is not None and parent.tag == "p" and not _has_content(parent):
        remove_keeping_tail(parent, parent.tail)


def _has_content(element: lxml_html.HtmlElement) -> bool:
    return bool(element.text_content().strip()) or any(True for _ in element.iter("img", "svg"))


def auto_digest(content: str, title: str, limit: int = DIGEST_LIMIT) -> str:
    """The digest of a draft's ``content``: whole first sentences, at most ``limit``
    characters. A run without a sentence's end (a label such as "Task list", a line before
    a list) is left out unless the body has nothing else; a first sentence longer than
    ``limit`` is cut, ``…`` marking the cut. Empty when the body has no paragraph of text."""
    return digest_of(content, title, limit).text


def digest_of(content: str, title: str, limit: int = DIGEST_LIMIT) -> Digest:
    """``auto_digest``, and whether its first sentence was cut."""
    return _digest(lxml_html.fragment_fromstring(content), title, limit)


def _digest(section: lxml_html.HtmlElement, title: str, limit: int) -> Digest:
    runs = [
        sentence
        for paragraph in section.findall("p")
        if (text := _plain(paragraph)) and text != title
        for sentence in _sentences(text)
    ]
    digest = ""
    for sentence in [run for run in runs if _FINISHED.search(run)] or runs[:1]:
        joined = _join(digest, sentence)
        if len(joined) > limit:
            return Digest(digest) if digest else Digest(sentence[: limit - 1].rstrip() + "…", True)
        digest = joined
    return Digest(digest)


def _plain(paragraph: lxml_html.HtmlElement) -> str:
    """The paragraph's words: none for an image's paragraph; formulas and notes left out."""
    if any(True for _ in paragraph.iter("img")):
        return ""
    return _without_glyphs(" ".join(_read(paragraph).split()))


def _read(element: lxml_html.HtmlElement) -> str:
    if element.tag in _UNREAD:
        return ""
    return (element.text or "") + "".join(_read(c) + (c.tail or "") for c in element)


def _without_glyphs(text: str) -> str:
    text = _VARIATION_SELECTORS.sub("", _APOSTROPHE.sub("\x00", text))
    kept = "".join(
        c
        for c in text
        if unicodedata.category(c) not in _GLYPH_CATEGORIES and c not in _CORNER_QUOTES
    )
    text = " ".join(kept.replace("\x00", "’").split())
    return _SPACE_BEFORE_CJK_PUNCTUATION.sub("", text).strip(" -–—·•:：,，、")


def _sentences(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCE_END.split(text) if part.strip()]


def _join(digest: str, sentence: str) -> str:
    if not digest:
        return sentence
    # Chinese and Japanese sentences follow each other without a space, and so does anything
    # after a full-width sentence end
    tight = digest[-1] in "。！？；…" or (_CJK.match(digest[-1]) and _CJK.match(sentence[0]))
    return digest + ("" if tight else " ") + sentence
