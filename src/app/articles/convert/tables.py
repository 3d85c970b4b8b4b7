"""Tables that read on a phone: column widths from content, wrapping or a sideways scroll.

The article path has no browser, so widths are estimated from character classes
(docs/decisions/articles.md, "Tables on a phone"): a CJK character is one em, a digit or
lower-case Latin letter about 0.6 em, a capital about 0.72 em, plus the letter spacing;
it errs wide (0.87–1.21 of Chromium's width with DejaVu Sans, the widest fallback).
Each column gets a minimum from its longest unbreakable run (a Latin word, a number with
its unit; never under four CJK characters); when the minimums fit the phone's column the
table wraps inside it, otherwise each column gets a comfortable width and the table scrolls
sideways under a text cue, the one hint the WeChat editor cannot strip.

Runs after the theme is inlined: it reads the sizes the theme gave the cells and writes
only inline styles.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from lxml import html as lxml_html
from lxml.etree import _Element as Element

from inkcard.app.articles.convert.fixups import CJK_RANGES, add_style, has_class

PHONE_COLUMN = 343.0  # px: a 375 px phone less WeChat's 16 px margins on both sides
MARGIN = 1.15  # the estimate's error allowance: a table fits only if 15 % wider would fit
FLOOR_EM = 4.0  # a column is never narrower than four CJK characters
COMFORT_EM = 8.0  # a scrolling table's column wraps past about eight CJK characters
COMPACT_FONT = 12.0  # px: a table a little too wide is set smaller before it scrolls
COMPACT_SIDE = 6.0  # px: and its cells' left and right padding
COMPACT_STYLE = (
    f"font-size:{COMPACT_FONT:g}px;padding-left:{COMPACT_SIDE:g}px;padding-right:{COMPACT_SIDE:g}px"
)
CUE_STYLE = "margin:16px 0 4px;font-size:12px;line-height:1.5;color:#6b7280;text-align:right"
CELL_STYLE = "overflow-wrap:break-word;word-break:normal"
NOWRAP = "white-space:nowrap"

_CJK_CHAR = re.compile(rf"[{CJK_RANGES}\u3000-\u303f\uff00-\uffef]")
_UNIT = rf"[%‰°℃]|[A-Za-zµμ]+(?:/[A-Za-z]+)?|[{CJK_RANGES}]{{1,2}}"
# A number and the unit after it ("21 毫秒", "128 MB", "3.5GB", "20%"): kept on one line.
NUMBER_WITH_UNIT = re.compile(rf"(?<![\w.,])\d[\d.,]*(?:[ \u00a0]?(?:{_UNIT}))")
# What a line may not break inside: a number with its unit, a CJK character, a Latin word.
_RUN = re.compile(rf"{NUMBER_WITH_UNIT.pattern}|{_CJK_CHAR.pattern}|[^\s{CJK_RANGES}]+")
_PX = r"(-?\d+(?:\.\d+)?)px"
_PX_VALUE = re.compile(_PX)
_DECLARATION = re.compile(r"(?:^|;)\s*([\w-]+)\s*:\s*([^;]+)")


@cache  # a few hundred distinct characters per article, each met many times
def char_em(char: str) -> float:
    """The estimated advance of one character, in em, erring wide: phones' Latin (San
    Francisco, Roboto) runs about 0.5 em a letter, the widest fallback (DejaVu Sans) 0.6."""
    if _CJK_CHAR.match(char):
        return 1.0
    if char in " .,:;'|!il":
        return 0.32
    if char in "mwMW%@&":
        return 0.9
    if char.isdigit():
        return 0.6
    if char.islower():
        return 0.58
    if char.isupper():
        return 0.72
    return 0.6


@dataclass(frozen=True, slots=True)
class _Metrics:
    """What a cell's width is made of besides its text, as the theme set it."""

    font: float  # px
    spacing: float  # px of letter spacing per character
    padding: float  # px, left and right together

    def width(self, text: str) -> float:
        """Estimated px width of `text` on one line, padding excluded."""
        return sum(char_em(c) * self.font + self.spacing for c in text)


def fit_tables(root: Element, cue: str) -> None:
    """Every table: cells that break only between words, numbers glued to their units,
    each column's minimum width; a table too wide for a phone gets its cue."""
    spacing = _px(root.get("style"), "letter-spacing") or 0.0
    for table in list(root.iter("table")):
        wrapper = table.getparent()
        if wrapper is None or not has_class(wrapper, "table-wrap"):
            continue
        columns = _columns(table, spacing)
        room = PHONE_COLUMN - _inset(wrapper, root)
        if not _fits(columns, room) and _fits(compact := _compact(columns), room):
            columns = compact
            for cell in (c for column in columns for c in column):
                add_style(cell.element, COMPACT_STYLE)
        scrolls = not _fits(columns, room)
        for column in columns:
            floor = _floor(column)
            width = _comfortable(column, floor) if scrolls else floor
            for cell in column:
                add_style(cell.element, f"min-width:{width - cell.metrics.padding:.0f}px")
        if scrolls:
            _add_cue(wrapper, cue)


def _floor(column: list[_Cell]) -> float:
    return max((c.floor for c in column), default=0.0)


def _fits(columns: list[list[_Cell]], room: float) -> bool:
    """Whether the columns' minimums, with the estimate's allowance, fit in `room` px."""
    return sum(_floor(column) for column in columns) * MARGIN <= room


def _compact(columns: list[list[_Cell]]) -> list[list[_Cell]]:
    """The cells as they measure at `COMPACT_FONT` with `COMPACT_SIDE` padding (a cell
    already that small keeps its size)."""
    return [[_shrunk(cell) for cell in column] for column in columns]


def _shrunk(cell: _Cell) -> _Cell:
    old = cell.metrics
    share = min(1.0, COMPACT_FONT / old.font)
    new = _Metrics(old.font * share, old.spacing * share, min(old.padding, 2 * COMPACT_SIDE))

    def scaled(width: float) -> float:
        return (width - old.padding) * share + new.padding

    return _Cell(cell.element, new, scaled(cell.floor), scaled(cell.line))


@dataclass(frozen=True, slots=True)
class _Cell:
    element: Element
    metrics: _Metrics
    floor: float  # px, padding included: its widest unbreakable run, or four CJK characters
    line: float  # px, padding included: all of its text on one line


def _columns(table: Element, spacing: float) -> list[list[_Cell]]:
    """The cells of each column, measured; every cell breaks only between words and keeps
    numbers with their units, but a cell spanning columns sets no column's width."""
    columns: list[list[_Cell]] = []
    table_font = _px(table.get("style"), "font-size") or 14.0
    for row in table.iter("tr"):
        index = 0
        for cell in row:
            if cell.tag not in ("td", "th"):
                continue
            metrics = _metrics(cell.get("style"), table_font, spacing)
            _glue_units(cell)
            add_style(cell, CELL_STYLE)
            span = int(cell.get("colspan", "1") or 1)
            while len(columns) < index + span:
                columns.append([])
            if span == 1:
                columns[index].append(_measure(cell, metrics))
            index += span
    return columns


@cache  # the cells of a theme share a handful of styles
def _metrics(style: str | None, table_font: float, spacing: float) -> _Metrics:
    font = _px(style, "font-size") or table_font
    own_spacing = _px(style, "letter-spacing")
    return _Metrics(font, spacing if own_spacing is None else own_spacing, _padding(style))


def _measure(cell: Element, metrics: _Metrics) -> _Cell:
    text = " ".join(cell.text_content().split())
    longest = max((metrics.width(run) for run in _RUN.findall(text)), default=0.0)
    floor = max(longest, FLOOR_EM * (metrics.font + metrics.spacing)) + metrics.padding
    return _Cell(cell, metrics, floor, metrics.width(text) + metrics.padding)


def _comfortable(column: list[_Cell], floor: float) -> float:
    """A scrolling column: its longest cell on one line, up to `COMFORT_EM`, never under
    its minimum."""
    widest = max((c.line for c in column), default=0.0)
    cap = max((COMFORT_EM * (c.metrics.font + c.metrics.spacing) for c in column), default=0.0)
    padding = max((c.metrics.padding for c in column), default=0.0)
    return max(min(widest, cap + padding), floor)


def _glue_units(cell: Element) -> None:
    """Each number with its unit in a no-wrap span, so "21 毫秒" never breaks inside."""
    for el in [cell, *cell.iterdescendants()]:
        if el.tag == "code" or not isinstance(el.tag, str):
            continue
        if el is not cell or el.text:
            _glue_text(el, "text")
        if el is not cell and el.tail:
            _glue_text(el, "tail")


def _glue_text(el: Element, where: str) -> None:
    text = getattr(el, where) or ""
    matches = list(NUMBER_WITH_UNIT.finditer(text))
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


def _add_cue(wrapper: Element, cue: str) -> None:
    """The hint above a table that scrolls: plain text, as the editor keeps it."""
    hint = lxml_html.Element("section", {"style": CUE_STYLE})
    hint.text = cue
    wrapper.addprevious(hint)
    add_style(wrapper, "margin-top:0")


def _px(style: str | None, name: str) -> float | None:
    """The last px value of one property in an inline style (the one that wins)."""
    found = [_PX_VALUE.match(value) for prop, value in _declarations(style) if prop == name]
    return next((float(m.group(1)) for m in reversed(found) if m), None)


def _padding(style: str | None) -> float:
    return _sides(style, "padding")


def _inset(wrapper: Element, root: Element) -> float:
    """The px the table loses to what holds it, from its wrapper up to the article: padding,
    borders and margins on both sides, and a list item's marker."""
    total = 0.0
    el: Element | None = wrapper
    while el is not None:
        style = el.get("style")
        total += _sides(style, "padding") + _sides(style, "margin") + _sides(style, "border")
        if el.tag == "li" and len(el) and has_class(el[0], "ps-before"):
            marker = el[0].get("style")
            width = _px(marker, "min-width") or _px(marker, "width") or 0.0
            total += width + (_px(marker, "margin-right") or 0.0)
        el = None if el is root else el.getparent()
    return total


def _sides(style: str | None, name: str) -> float:
    """Left plus right px of a box property (`padding`, `margin`, `border`) as an inline
    style's declarations leave them, shorthand and sides in order; `auto`, `0` and other
    units count as nothing."""
    left = right = 0.0
    for prop, value in _declarations(style):
        if prop == name:
            sizes = _lengths(value, name == "border")
            right = sizes[1] if len(sizes) > 1 else sizes[0]
            left = sizes[3] if len(sizes) > 3 else right
        elif prop in (f"{name}-left", f"{name}-right"):
            size = _lengths(value, name == "border")[0]
            left, right = (size, right) if prop.endswith("left") else (left, size)
    return left + right


def _declarations(style: str | None) -> list[tuple[str, str]]:
    """(property, value) of each declaration of an inline style, in order."""
    return _DECLARATION.findall(style or "")


def _lengths(value: str, border: bool) -> list[float]:
    """The px sizes of a box shorthand by position; of a border, its one width."""
    matches = [re.fullmatch(_PX, token) for token in value.split()]
    if border:
        return [next((float(m.group(1)) for m in matches if m), 0.0)]
    return [float(m.group(1)) if m else 0.0 for m in matches] or [0.0]
