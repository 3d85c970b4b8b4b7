"""A leading `# h1` that repeats the article's title goes: the title is shown above the
content (WeChat's title field, the front matter's `title`), so the h1 would say it twice.

Two titles are the same when they read the same: spaces trimmed and collapsed, the
punctuation that ends a sentence or a heading left off (`。！？!?.…:：`), Latin letters in
any case (and full-width forms as their ASCII twins, NFKC). A title that differs in a word
keeps its h1.
"""

from __future__ import annotations

import unicodedata

from lxml.etree import _Element as Element

from inkcard.app.articles.convert.fixups import remove_keeping_tail

# What may end a title without making it another title.
_TRAILING = "。．.！!？?…:：;；,，、~～ \t"


def normalised_title(title: str) -> str:
    """The title as two titles are compared: NFKC, one space between words, no trailing
    punctuation, lower case (a no-op for CJK)."""
    text = " ".join(unicodedata.normalize("NFKC", title).split())
    return text.rstrip(_TRAILING).casefold()


def same_title(a: str, b: str) -> bool:
    """Whether `a` and `b` read as the same title (and are not both empty)."""
    left = normalised_title(a)
    return bool(left) and left == normalised_title(b)


def drop_repeated_title(root: Element, title: str) -> bool:
    """Removes the leading h1 (the first element with text, a theme's ornament span aside)
    when it reads as `title`; returns whether it did."""
    if not title.strip():
        return False
    for child in root:
        if not isinstance(child.tag, str):
            continue
        if child.tag == "h1":
            if not same_title(child.text_content(), title):
                return False
            remove_keeping_tail(child, child.tail)
            return True
        if child.tag != "span" and (child.text_content().strip() or child.tag == "img"):
            return False
    return False
