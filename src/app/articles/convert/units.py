"""Numbers that keep their units: "21 毫秒", "3.5 GB", "100 ms" or "¥ 25" never split at a line end.

A browser may break a line at the space between a number and its unit, and between a digit
and a CJK character, so on a phone "21" could end one line and "毫秒" start the next. Each
such run is put in a `white-space:nowrap` span, which the WeChat editor keeps (a word
joiner or a no-break space would also hold "21 毫", but not "毫|秒", and a joiner is an
invisible character left in a copied text). Runs a browser never breaks ("20%", "3.5GB",
"¥25") stay as they are, so an article gains a span only where one is needed
(docs/decisions/articles.md, "Numbers keep their units").
"""

from __future__ import annotations

import re

from lxml import html as lxml_html
from lxml.etree import _Element as Element

from inkcard.app.articles.convert.fixups import CJK_RANGES

NOWRAP = "white-space:nowrap"
_SPACE = "[ \u00a0]"
_CURRENCY = "[¥￥$€£]"
# A unit: a sign, up to five Latin letters (a per-unit after a slash) not running on into a
# longer word, or one or two CJK characters.
_UNIT = rf"[%‰°℃]|[A-Za-zµμ]{{1,5}}(?:/[A-Za-z]{{1,5}})?(?![A-Za-z])|[{CJK_RANGES}]{{1,2}}"
# A number (not the tail of a word or of another number), a currency sign before it, a unit
# after it; each part is a different class of character, so nothing is tried twice.
NUMBER_WITH_UNIT = re.compile(
    rf"(?<![A-Za-z0-9_.,])(?:{_CURRENCY}{_SPACE}?)?\d[\d.,]*(?:{_SPACE}?(?:{_UNIT}))?"
)
_HAS_CJK = re.compile(rf"[{CJK_RANGES}]")
_SKIPPED = {"code", "pre", "svg", "math", "script", "style", "kbd"}


def breakable(run: str) -> bool:
    """Whether a browser could break a line inside `run`: at a space, or before a CJK unit."""
    return " " in run or "\u00a0" in run or bool(_HAS_CJK.search(run))


def glue_units(root: Element) -> None:
    """Every number in `root`'s text with its unit (or currency sign) in a no-wrap span,
    where a line could otherwise break between them; code, formulas and spans already
    kept whole are left as they are."""
    for el in list(_texts(root)):
        if el is not root and el.tail:
            _glue(el, "tail")
        if isinstance(el.tag, str) and el.tag not in _SKIPPED and el.text and not _kept(el):
            _glue(el, "text")


def _texts(root: Element) -> list[Element]:
    """`root` and its descendants outside code, formulas and no-wrap spans (whose tails
    still count)."""
    found: list[Element] = []
    stack = [root]
    while stack:
        el = stack.pop()
        found.append(el)
        if isinstance(el.tag, str) and el.tag not in _SKIPPED and not _kept(el):
            stack.extend(reversed(el))
    return found


def _kept(el: Element) -> bool:
    return el.tag == "span" and NOWRAP in (el.get("style") or "")


def _glue(el: Element, where: str) -> None:
    text = getattr(el, where) or ""
    matches = [m for m in NUMBER_WITH_UNIT.finditer(text) if breakable(m.group())]
    if not matches:
        return
    setattr(el, where, text[: matches[0].start()])
    anchor: Element | None = None
    for n, match in enumerate(matches):
        span = lxml_html.Element("span", {"style": NOWRAP})
        span.text = match.group()
        end = matches[n + 1].start() if n + 1 < len(matches) else len(text)
        span.tail = text[match.end() : end]
        if anchor is not None:
            anchor.addnext(span)
        elif where == "text":
            el.insert(0, span)
        else:
            el.addnext(span)
        anchor = span
